//! The threat search (VCT) over a set of Gomoku positions, for its solve
//! rate and speed: each input line is a move list from the empty board
//! (anything before a tab is ignored, so `gomoku_fit.py` label files do);
//! for each position the side to move's VCT is searched with at most
//! `EFFORT` nodes and `result nodes microseconds` printed (result `winN`
//! with the plies to the five, `none` or `unknown`). Totals go to stderr.
//!
//! `cargo run --release --example gomoku_vct -- [EFFORT] [RULE] < lines`

use std::io::{self, BufRead, Write};
use std::time::Instant;

use ply::game::gomoku::Gomoku;
use ply::game::gomoku::vct::Vct;
use ply::game::{Game, Settings};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let effort: u64 = args.next().map_or(Ok(200_000), |s| s.parse())?;
    let settings = Settings {
        size: None,
        rule: args.next(),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (mut wins, mut none, mut unknown) = (0, 0, 0);
    let (mut nodes, mut micros) = (0u64, 0u128);
    for line in io::stdin().lock().lines() {
        let line = line?;
        let moves = line.rsplit('\t').next().unwrap_or_default();
        let mut pos = Gomoku::start(&settings)?;
        for text in moves.split_whitespace() {
            let mv = pos.parse_move(text)?;
            pos.make_move(mv);
        }
        if pos.outcome().is_some() {
            continue;
        }
        let start = Instant::now();
        let found = pos.vct(effort);
        let took = start.elapsed().as_micros();
        nodes += pos.vct_nodes();
        micros += took;
        let result = match found {
            Vct::Win(_, plies) => {
                wins += 1;
                format!("win{plies}")
            }
            Vct::None => {
                none += 1;
                "none".to_string()
            }
            Vct::Unknown => {
                unknown += 1;
                "unknown".to_string()
            }
        };
        writeln!(out, "{result}\t{}\t{took}", pos.vct_nodes())?;
    }
    out.flush()?;
    eprintln!(
        "wins {wins} none {none} unknown {unknown} nodes {nodes} ms {}",
        micros / 1000
    );
    Ok(())
}
