//! `ply bench`: a fixed set of positions per game searched to a fixed depth
//! with one thread and fresh tables. The node count is a signature of the
//! search's behaviour: identical on every run and machine.

use std::io::Write;
use std::time::Duration;

use super::search_now;
use crate::engine::registry::{self, GAMES};
use crate::engine::session::nodes_per_second;
use crate::game::Settings;
use crate::search::{SearchLimits, SearchParams};

/// (moves from the start position, depth) per game.
fn suite(game: &str) -> &'static [(&'static str, u32)] {
    match game {
        "connect4" => &[
            ("", 16),
            ("4 4 4 4 3", 16),
            ("4 3 5 4 4 5 3 3", 16),
            ("3 2 1 6 4 6 2 5", 16),
            ("2 7 4 5 5 2 2 2 4 1 3 1 6 6 1", 18),
            ("5 4 5 5 1 7 4 3 6 1 2 6 3 3 6 2", 18),
        ],
        "tictactoe" => &[("", 9), ("b2 a1", 9), ("a1 b2 c3", 9)],
        "gomoku" => &[
            ("", 6),
            ("h8 i9 h9", 6),
            ("h8 i9 h9 h10 g8 i8 i10 g10", 6),
            ("h8 h9 i9 g7 j10 k11 g9 i7", 6),
            ("h8 i8 g9 i9 i10 j9 h9 h10 g7 f6 g8", 6),
        ],
        "lasca" => &[
            ("", 17),
            ("c3-b4 a5-c3 b2-d4", 19),
            ("e3-d4 c5-e3 f2-d4 e5-f4 g3-e5 d6-f4 g1-f2 f4-g3", 18),
            (
                "c3-b4 a5-c3 b2-d4 g5-f4 e3-g5 c5-e3 d2-f4 d4-b2 a1-c3 e5-d4 e3-c5 d6-b4-d2",
                18,
            ),
        ],
        "blackwhite" => &[
            ("", 7),
            ("e1 a1 e5 a5 e2", 9),
            ("e1 a1 e5 a5 e2 a4 e3 e4 c3 b3", 13),
            ("e1 a1 e5 a5 e2 a4 e3 e4 c3 b3 c3-a3 a4-a2-c4", 13),
        ],
        "breakthrough" => &[
            ("", 8),
            ("d2e3 e7d6", 7),
            (
                "h2g3 a7b6 g2h3 h7g6 h3h4 g6h5 f2f3 e7f6 h1g2 d7c6 g1f2 a8a7 g3g4 f7g6 \
                 g2g3 h8h7 d2e3 a7a6 e3f4 h5g4 f3g4 c6c5",
                7,
            ),
            (
                "d2e3 e7d6 h2g3 b7a6 g3f4 a6b5 f4g5 h7h6 e3f4 h6g5 f4g5 f7f6 g5f6 g7f6 \
                 g2f3 a7b6 f3g4 b6c5 g4h5 f6e5 f2e3 d6d5 e2d3 e5e4 d3e4 d5e4",
                7,
            ),
        ],
        _ => &[],
    }
}

pub struct BenchTotals {
    pub nodes: u64,
    pub elapsed: Duration,
}

pub fn run(
    game: Option<&str>,
    params: SearchParams,
    out: &mut dyn Write,
) -> anyhow::Result<BenchTotals> {
    let games: Vec<&str> = match game {
        Some(g) => vec![g],
        None => GAMES.to_vec(),
    };
    let mut totals = BenchTotals {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for game in games {
        let positions = suite(game);
        if positions.is_empty() {
            anyhow::bail!("no bench positions for game '{game}'");
        }
        for (i, (moves, depth)) in positions.iter().enumerate() {
            let session = {
                let mut s = registry::create(game, &Settings::default(), 16, params)
                    .map_err(anyhow::Error::msg)?;
                let moves: Vec<&str> = moves.split_whitespace().collect();
                s.set_position(None, &moves)?;
                s
            };
            let limits = SearchLimits {
                depth: Some(*depth),
                ..Default::default()
            };
            let summary = search_now(session.as_ref(), limits);
            writeln!(
                out,
                "{game} {:>2} depth {depth:>2} nodes {:>10} bestmove {}",
                i + 1,
                summary.nodes,
                summary.best.as_deref().unwrap_or("none")
            )?;
            totals.nodes += summary.nodes;
            totals.elapsed += summary.elapsed;
        }
    }
    writeln!(
        out,
        "{} nodes {} nps",
        totals.nodes,
        nodes_per_second(totals.nodes, totals.elapsed)
    )?;
    Ok(totals)
}
