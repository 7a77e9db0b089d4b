#![warn(missing_docs)]
//! `ply perft`: move-path counts per depth, with speed.

use std::io::Write;
use std::time::Instant;

use crate::engine::registry;
use crate::engine::session::nodes_per_second;
use crate::game::perft::perft;
use crate::game::{Game, GameVisitor, Settings};

struct Perft<'a> {
    fen: Option<&'a str>,
    depth: u32,
    out: &'a mut dyn Write,
}

impl GameVisitor for Perft<'_> {
    type Output = anyhow::Result<()>;

    fn visit<G: Game>(self, settings: &Settings) -> Self::Output {
        let mut position = match self.fen {
            Some(fen) => G::from_fen(fen, settings)?,
            None => G::start(settings)?,
        };
        // Depth 0 counts the position itself.
        for d in self.depth.min(1)..=self.depth {
            let start = Instant::now();
            let count = perft(&mut position, d);
            let elapsed = start.elapsed();
            writeln!(
                self.out,
                "perft {d} {count} time {} nps {}",
                elapsed.as_millis(),
                nodes_per_second(count, elapsed)
            )?;
        }
        Ok(())
    }
}

/// `ply perft`: for each depth up to `depth`, the move-path count from the
/// start position (or `fen`) of `game`, with time and speed, one line each.
pub fn run(
    game: &str,
    settings: &Settings,
    fen: Option<&str>,
    depth: u32,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    registry::visit(game, settings, Perft { fen, depth, out }).map_err(anyhow::Error::msg)?
}
