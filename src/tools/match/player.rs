//! What the referee asks of a player, whether a process or a built-in.

use std::time::Duration;

use super::clock::Clocks;
use crate::engine::Session;

/// Why a player gave no move; each loses the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// No reply in time (the process was killed).
    Timeout,
    /// The process exited or its pipe broke.
    Crash(String),
    /// A reply that is not a move.
    Garbage(String),
}

/// The position a move is asked for, in every form an adapter may need.
pub struct Turn<'a> {
    /// The referee's copy of the game at the current position.
    pub session: &'a dyn Session,
    /// The game's start position: `None` for the standard start.
    pub start_fen: Option<&'a str>,
    /// Every move since the start position (opening moves included).
    pub moves: &'a [String],
    pub clocks: &'a Clocks,
}

/// A move and the time it took, measured by the adapter from the request
/// to the reply.
pub struct Reply {
    pub mv: String,
    pub elapsed: Duration,
}

pub trait Player: Send {
    /// Prepares for a new game (starting or restarting the process when
    /// needed); `seed` varies per game.
    fn new_game(&mut self, seed: u64) -> Result<(), Fault>;
    /// The player's move, waiting `wait` at most.
    fn play(&mut self, turn: &Turn, wait: Duration) -> Result<Reply, Fault>;
    /// The game is over (by any cause).
    fn end_game(&mut self) {}
    /// The match is over: stop processes.
    fn shut_down(&mut self) {}
}
