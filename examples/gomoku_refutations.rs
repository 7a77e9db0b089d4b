//! Which of a Gomoku position's candidate moves the opponent refutes by
//! continuous threats: for each input line `MOVES | PLAYED` (moves from
//! the empty board, then the move that was played there), the threat
//! search (VCT, `EFFORT` nodes) is asked for the opponent's win after
//! the played move. When it finds one, every candidate move of the side
//! to move is tried the same way, and the line printed says how many
//! were refuted, proved safe or left open, and names the safe ones (`?`
//! after a name: open). Otherwise it prints `held`. `scripts/gomoku_losses.py
//! --alternatives` drives it over lost games.
//!
//! `cargo run --release --example gomoku_refutations -- [EFFORT] [RULE] < lines`

use std::io::{self, BufRead, Write};

use ply::game::gomoku::Gomoku;
use ply::game::gomoku::vct::Vct;
use ply::game::{Game, Settings};

/// The opponent's VCT after `mv`, as refuted (`Some(true)`), proved to
/// have none (`Some(false)`) or open (`None`).
fn refuted(pos: &mut Gomoku, mv: u16, effort: u64) -> Option<bool> {
    pos.make_move(mv);
    let found = if pos.outcome().is_some() {
        Vct::None
    } else {
        pos.vct(effort)
    };
    pos.unmake_move(mv);
    match found {
        Vct::Win(..) => Some(true),
        Vct::None => Some(false),
        Vct::Unknown => None,
    }
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let effort: u64 = args.next().map_or(Ok(20_000), |s| s.parse())?;
    let settings = Settings {
        size: None,
        rule: args.next(),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        let line = line?;
        let (moves, played) = line
            .split_once('|')
            .ok_or_else(|| anyhow::anyhow!("expected `MOVES | PLAYED`: {line}"))?;
        let mut pos = Gomoku::start(&settings)?;
        for text in moves.split_whitespace() {
            let mv = pos.parse_move(text)?;
            pos.make_move(mv);
        }
        let played = pos.parse_move(played.trim())?;
        if refuted(&mut pos, played, effort) != Some(true) {
            writeln!(out, "held")?;
            out.flush()?;
            continue;
        }
        let mut candidates = Vec::new();
        pos.search_moves(&mut candidates);
        // Counts of refuted, proved safe and open moves; the names of the
        // last two kinds.
        let (mut lost, mut safe, mut open) = (0, 0, 0);
        let mut kept = Vec::new();
        for &mv in &candidates {
            let name = pos.move_to_string(mv);
            match refuted(&mut pos, mv, effort) {
                Some(true) => lost += 1,
                Some(false) => {
                    safe += 1;
                    kept.push(name);
                }
                None => {
                    open += 1;
                    kept.push(format!("{name}?"));
                }
            }
        }
        writeln!(
            out,
            "refuted: candidates {} refuted {lost} safe {safe} open {open} {}",
            candidates.len(),
            kept.join(",")
        )?;
        out.flush()?;
    }
    Ok(())
}
