//! `ply play`: a person plays the engine in the terminal.

use std::io::{BufRead, Write};
use std::time::Duration;

use super::search_now;
use crate::engine::registry;
use crate::engine::session::Session;
use crate::game::{Outcome, Player, Settings};
use crate::search::score::Score;
use crate::search::time::Budget;
use crate::search::{SearchLimits, SearchParams};

pub struct PlayOptions {
    pub game: String,
    pub settings: Settings,
    pub movetime_ms: u64,
    /// The side the person plays.
    pub human: Player,
    pub hash_mb: usize,
}

fn side_name(p: Player) -> &'static str {
    match p {
        Player::P1 => "the first player",
        Player::P2 => "the second player",
    }
}

pub fn run(options: &PlayOptions, input: impl BufRead, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut session = registry::create(
        &options.game,
        &options.settings,
        options.hash_mb,
        SearchParams::default(),
    )
    .map_err(anyhow::Error::msg)?;
    let mut lines = crate::engine::input::lines(input);
    writeln!(
        out,
        "Ply plays {}. You are {}. Type a move, 'moves' for the legal moves, 'quit' to leave.",
        options.game,
        side_name(options.human)
    )?;
    loop {
        writeln!(out, "\n{}", session.render())?;
        if let Some(outcome) = session.outcome() {
            let verdict = match outcome {
                Outcome::Draw => "The game is drawn.".to_string(),
                Outcome::Win(p) if p == options.human => "You win. Well played!".to_string(),
                Outcome::Win(_) => "Ply wins this one.".to_string(),
            };
            writeln!(out, "{verdict}")?;
            return Ok(());
        }
        if session.side_to_move() == options.human {
            write!(out, "Your move> ")?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out, "\nEnd of input: goodbye.")?;
                return Ok(());
            };
            let text = line.trim();
            match text {
                "" => continue,
                "quit" | "exit" => return Ok(()),
                "moves" | "help" | "?" => {
                    writeln!(out, "Legal moves: {}", session.legal_moves().join(" "))?;
                }
                _ => {
                    if session.play_move(text).is_err() {
                        writeln!(
                            out,
                            "'{text}' is not a legal move here. Legal moves: {}",
                            session.legal_moves().join(" ")
                        )?;
                    }
                }
            }
        } else {
            engine_move(session.as_mut(), options.movetime_ms, out)?;
        }
    }
}

fn engine_move(
    session: &mut dyn Session,
    movetime_ms: u64,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let t = Duration::from_millis(movetime_ms.max(1));
    let limits = SearchLimits {
        budget: Budget {
            soft: Some(t),
            hard: Some(t),
        },
        ..Default::default()
    };
    let summary = search_now(session, limits);
    let Some(best) = summary.best else {
        anyhow::bail!("the engine found no move in a position that is not over");
    };
    let thinking = match &summary.last {
        Some(info) => {
            let score = match info.score {
                Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
                Score::Mate(n) if n > 0 => format!("wins in {n}"),
                Score::Mate(n) => format!("loses in {}", -n),
            };
            format!(
                "depth {}, score {score}, {} nodes in {} ms, line {}",
                info.depth,
                summary.nodes,
                summary.elapsed.as_millis(),
                info.pv.join(" ")
            )
        }
        None => "no iteration completed".to_string(),
    };
    writeln!(out, "Ply plays {best}   ({thinking})")?;
    session.play_move(&best)?;
    Ok(())
}
