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
        // The table is really there (filled by the first search).
        assert!(
            peak >= hash_mb << 20,
            "Hash {hash_mb}: peak {} MB",
            peak >> 20
        );
    }
}

#[test]
fn a_table_set_before_the_search_is_the_only_one_ever_filled() {
    // The default table is never searched with, so it never takes memory.
    let mut e = Engine::ply(&[]);
    e.send("setoption name Hash value 8");
    e.send("setoption name Hash value 64");
    e.send("setoption name Hash value 8");
    e.send("go depth 3");
    e.read_until("bestmove");
    let peak = peak_resident_bytes(e.pid());
    assert!(peak <= (8 << 20) + OVERHEAD, "peak {} MB", peak >> 20);
    e.send("quit");
    e.wait_exit(PATIENCE);
}
