//! `ply perft`: move-path counts per depth, with speed.

use std::io::Write;
use std::time::Instant;

use crate::engine::registry;
use crate::engine::session::nodes_per_second;
use crate::game::Settings;
use crate::search::SearchParams;

pub fn run(
    game: &str,
    settings: &Settings,
    fen: Option<&str>,
    depth: u32,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    // Perft needs no table: ask for the smallest.
    let mut session =
        registry::create(game, settings, 1, SearchParams::default()).map_err(anyhow::Error::msg)?;
    session.set_position(fen, &[])?;
    for d in 1..=depth {
        let start = Instant::now();
        let count = session.perft(d);
        let elapsed = start.elapsed();
        writeln!(
            out,
            "perft {d} {count} time {} nps {}",
            elapsed.as_millis(),
            nodes_per_second(count, elapsed)
        )?;
    }
    Ok(())
}
