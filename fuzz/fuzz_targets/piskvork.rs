//! Piskvork: a whole brain session on arbitrary input. Limits that would
//! make a search long are replaced by a tiny node limit, so that each input
//! runs in milliseconds; everything else reaches the brain as sent.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use ply::protocol::piskvork;
use ply::protocol::writer::Writer;

/// INFO keys that set search limits or memory: the harness sets its own.
const HARNESS_KEYS: [&str; 7] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_node",
    "max_depth",
    "max_memory",
    "hash_size",
];

fn kept(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    match words.as_slice() {
        [info, key, ..] if info == "info" => !HARNESS_KEYS.contains(&key.as_str()),
        // n-best runs n searches: a few are enough to exercise it.
        [nbest, n, ..] if nbest == "yxnbest" => n.parse::<u32>().is_ok_and(|n| n <= 3),
        _ => true,
    }
}

fuzz_target!(|data: &[u8]| {
    let mut script = vec![
        "INFO max_node 300".to_string(),
        "INFO max_memory 33554432".to_string(),
        "INFO timeout_turn 50".to_string(),
    ];
    script.extend(ply::protocol::ugi::lines(Cursor::new(data)).filter(|l| kept(l)));
    let input = Cursor::new(script.join("\n").into_bytes());
    let _ = piskvork::run(input, Writer::new(Box::new(std::io::sink())));
});
