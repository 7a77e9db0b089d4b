//! Resident memory of the whole process stays within the table size asked
//! for plus a small fixed overhead.

mod common;

use common::{Engine, PATIENCE, peak_resident_bytes};

/// What the process needs beside its table: code, pattern tables, stacks.
const OVERHEAD: u64 = 24 << 20;

fn peak_after_search(hash_mb: u64) -> u64 {
    let hash = hash_mb.to_string();
    let mut e = Engine::ply(&["--hash", &hash]);
    e.send("position startpos moves h8 i9 h9");
    e.send("go movetime 700");
    e.read_until("bestmove");
    e.send("ucinewgame");
    e.send("go movetime 300");
    e.read_until("bestmove");
    let peak = peak_resident_bytes(e.pid());
    e.send("quit");
    e.wait_exit(PATIENCE);
    peak
}

#[test]
fn ugi_stays_within_hash_plus_a_small_overhead() {
    for hash_mb in [16, 256] {
        let peak = peak_after_search(hash_mb);
        assert!(
            peak <= (hash_mb << 20) + OVERHEAD,
            "Hash {hash_mb}: peak {} MB",
            peak >> 20
        );
    }
}

#[test]
fn a_new_table_replaces_the_old_one_never_beside_it() {
    // The default table, then 64 MB, then 8: the old table is freed before
    // the new one is made, so the peak is the largest table, not the sum.
    let mut e = Engine::ply(&[]);
    e.send("setoption name Hash value 64");
    e.send("setoption name Hash value 8");
    e.send("go depth 3");
    e.read_until("bestmove");
    let peak = peak_resident_bytes(e.pid());
    assert!(peak <= (64 << 20) + OVERHEAD, "peak {} MB", peak >> 20);
    e.send("quit");
    e.wait_exit(PATIENCE);
}

#[test]
fn the_brain_stays_within_max_memory() {
    for max_memory in [32u64 << 20, 80 << 20] {
        let mut e = Engine::start("pbrain-ply", &[]);
        // As the Gomocup judge: START first, the memory limit after it.
        e.send("START 15");
        e.send(&format!("INFO max_memory {max_memory}"));
        e.send("INFO timeout_turn 400");
        e.send("INFO message 0");
        assert_eq!(e.next_line(PATIENCE).unwrap(), "OK");
        e.send("BEGIN");
        e.next_line(PATIENCE).unwrap();
        for turn in ["3,3", "11,11", "3,11", "11,3"] {
            e.send(&format!("TURN {turn}"));
            let reply = e.next_line(PATIENCE).unwrap();
            assert!(reply.contains(','), "{reply}");
        }
        let peak = peak_resident_bytes(e.pid());
        assert!(
            peak <= max_memory,
            "max_memory {} MB: peak {} MB",
            max_memory >> 20,
            peak >> 20
        );
        e.send("END");
        e.wait_exit(PATIENCE);
    }
}
