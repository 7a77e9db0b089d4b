//! Property test: random interleavings of every UGI command, sent with
//! random pauses to the real protocol loop and controller, in-process.
//! Whatever the stream, nothing panics or hangs, every well-formed `go`
//! gets exactly one `bestmove`, and every `isready` its `readyok`.

use std::io::{BufReader, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ply::game::Settings;
use ply::protocol::ugi;
use ply::protocol::writer::Writer;
use proptest::prelude::*;

/// A `Write` whose bytes the test reads afterwards.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn command() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("isready".to_string()),
        Just("stop".to_string()),
        Just("ucinewgame".to_string()),
        Just("go infinite".to_string()),
        Just("go ponder".to_string()),
        Just("ponderhit".to_string()),
        (0u64..300).prop_map(|t| format!("go ponder p1time {t} p2time {t}")),
        Just("d".to_string()),
        Just("query result".to_string()),
        (1u32..6).prop_map(|d| format!("go depth {d}")),
        (1u64..3000).prop_map(|n| format!("go nodes {n}")),
        (0u64..40).prop_map(|ms| format!("go movetime {ms}")),
        (0u64..500, 0u64..20)
            .prop_map(|(t, i)| format!("go p1time {t} p2time {t} p1inc {i} p2inc {i}")),
        prop::collection::vec(1u8..8, 0..12).prop_map(|cols| {
            let moves: Vec<String> = cols.iter().map(u8::to_string).collect();
            format!("position startpos moves {}", moves.join(" "))
        }),
        prop_oneof![
            Just("connect4"),
            Just("tictactoe"),
            Just("gomoku"),
            Just("chess")
        ]
        .prop_map(|g| format!("setoption name Game value {g}")),
        (1u32..64).prop_map(|mb| format!("setoption name Hash value {mb}")),
        (1u32..4).prop_map(|n| format!("setoption name Threads value {n}")),
        (1u32..4).prop_map(|n| format!("setoption name MultiPV value {n}")),
        prop::bool::ANY.prop_map(|on| format!("setoption name UseTT value {on}")),
        Just("go depth".to_string()),
        Just("position fen 7/7 x".to_string()),
        Just("quit".to_string()),
    ]
}

/// Runs `script` (a line and the pause before it) and returns the output.
fn run(script: &[(String, u64)], threads: usize) -> String {
    let (reader, mut writer) = std::io::pipe().unwrap();
    let captured = Captured::default();
    let out = captured.clone();
    let protocol = std::thread::spawn(move || {
        ugi::run(
            BufReader::new(reader),
            Writer::new(Box::new(out)),
            "connect4",
            Settings::default(),
            1,
            threads,
        )
    });
    for (line, pause) in script {
        std::thread::sleep(Duration::from_millis(*pause));
        // The loop stops reading after `quit`: a closed pipe is expected.
        if writeln!(writer, "{line}").is_err() {
            break;
        }
    }
    drop(writer);
    // A hang shows as a test that never ends; bound it instead.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !protocol.is_finished() {
        assert!(std::time::Instant::now() < deadline, "hung on {script:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
    protocol.join().expect("no panic").expect("no error");
    String::from_utf8(captured.0.lock().unwrap().clone()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn any_command_stream_is_served(
        script in prop::collection::vec((command(), 0u64..15), 1..25),
        threads in 1usize..=2,
    ) {
        let output = run(&script, threads);
        let served: Vec<&String> = script
            .iter()
            .map(|(line, _)| line)
            .take_while(|line| *line != "quit")
            .collect();
        let gos = served.iter().filter(|l| l.starts_with("go ") && ugi::parse(l).is_ok()).count();
        let readies = served.iter().filter(|l| **l == "isready").count();
        let bestmoves = output.lines().filter(|l| l.starts_with("bestmove")).count();
        let readyoks = output.lines().filter(|l| *l == "readyok").count();
        prop_assert_eq!(bestmoves, gos, "{:?}\n{}", script, output);
        prop_assert_eq!(readyoks, readies, "{:?}\n{}", script, output);
        // Every line is whole: no two outputs run into each other.
        for line in output.lines() {
            prop_assert!(
                ["info ", "bestmove ", "readyok", "response "].iter().any(|p| line.starts_with(p)),
                "stray line {:?}", line
            );
        }
    }
}
