//! The games Ply plays, by name: the one place that lists them.

use super::session::{GameSession, Session};
use crate::game::blackwhite::BlackWhite;
use crate::game::breakthrough::{self, Breakthrough, Wide};
use crate::game::connect4::Connect4;
use crate::game::gomoku::Gomoku;
use crate::game::lasca::Lasca;
use crate::game::tictactoe::TicTacToe;
use crate::game::{Game, Settings};
use crate::search::SearchParams;

pub const GAMES: &[&str] = &[
    Gomoku::NAME,
    Connect4::NAME,
    TicTacToe::NAME,
    Lasca::NAME,
    BlackWhite::NAME,
    breakthrough::NAME,
];
pub const DEFAULT_GAME: &str = Gomoku::NAME;

/// A session for `game` at its start position.
pub fn create(
    game: &str,
    settings: &Settings,
    hash_mb: usize,
    params: SearchParams,
) -> Result<Box<dyn Session>, String> {
    let settings = settings.clone();
    Ok(match game.to_ascii_lowercase().as_str() {
        Gomoku::NAME => Box::new(GameSession::<Gomoku>::new(settings, hash_mb, params)?),
        Connect4::NAME => Box::new(GameSession::<Connect4>::new(settings, hash_mb, params)?),
        TicTacToe::NAME => Box::new(GameSession::<TicTacToe>::new(settings, hash_mb, params)?),
        Lasca::NAME => Box::new(GameSession::<Lasca>::new(settings, hash_mb, params)?),
        BlackWhite::NAME => Box::new(GameSession::<BlackWhite>::new(settings, hash_mb, params)?),
        breakthrough::NAME => {
            // The narrowest bit set that holds the board: 8x8 runs on u64.
            let (width, height) = breakthrough::board_size(&settings).map_err(|e| e.to_string())?;
            match width * height {
                0..=64 => Box::new(GameSession::<Breakthrough<u64>>::new(
                    settings, hash_mb, params,
                )?),
                65..=128 => Box::new(GameSession::<Breakthrough<u128>>::new(
                    settings, hash_mb, params,
                )?),
                _ => Box::new(GameSession::<Breakthrough<Wide>>::new(
                    settings, hash_mb, params,
                )?),
            }
        }
        other => {
            return Err(format!(
                "unknown game '{other}' (known: {})",
                GAMES.join(", ")
            ));
        }
    })
}
