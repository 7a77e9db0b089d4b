//! `ply bench`: each game's bench positions (from its description)
//! searched to a fixed depth with one thread and fresh tables. The node
//! count is a signature of the search's behaviour: identical on every run
//! and machine.

use std::io::Write;
use std::time::Duration;

use super::search_now;
use crate::engine::registry::{self, GAMES};
use crate::engine::session::nodes_per_second;
use crate::game::{Description, Settings};
use crate::search::{SearchLimits, SearchParams};

pub struct BenchTotals {
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The games `bench` runs: `game`, or every game when `None`.
fn games(game: Option<&str>) -> anyhow::Result<Vec<&'static Description>> {
    Ok(match game {
        Some(g) => vec![registry::describe(g).map_err(anyhow::Error::msg)?],
        None => GAMES.to_vec(),
    })
}

/// Lists the bench positions of `game` (every game when `None`), one a
/// line: game, depth, then the moves from the start position (for
/// scripts that time searches of them, such as scripts/smp_scaling.py).
pub fn list(game: Option<&str>, out: &mut dyn Write) -> anyhow::Result<()> {
    for game in games(game)? {
        for (moves, depth) in game.bench {
            writeln!(out, "{} {depth} {moves}", game.name)?;
        }
    }
    Ok(())
}

/// Benches `game`, or every game when `None`.
pub fn run(
    game: Option<&str>,
    params: SearchParams,
    out: &mut dyn Write,
) -> anyhow::Result<BenchTotals> {
    let games = games(game)?;
    let mut totals = BenchTotals {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for game in games {
        let name = game.name;
        for (i, (moves, depth)) in game.bench.iter().enumerate() {
            let mut session = registry::create(name, &Settings::default(), 16, params)
                .map_err(anyhow::Error::msg)?;
            let moves: Vec<&str> = moves.split_whitespace().collect();
            session.set_position(None, &moves)?;
            let limits = SearchLimits {
                depth: Some(*depth),
                ..Default::default()
            };
            let summary = search_now(session.as_ref(), limits);
            writeln!(
                out,
                "{name} {:>2} depth {depth:>2} nodes {:>10} bestmove {}",
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
