//! What a search is asked: its limits, and what the solving mode proves.

use std::sync::Arc;

use crate::search::clock::LateClock;
use crate::search::time::Budget;

/// When a search stops. With no field set, iterative deepening runs until
/// the game tree is exhausted or the score is proven (how a small game is
/// solved).
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// The deepest iteration (plies); `None` for no limit.
    pub depth: Option<u32>,
    /// Stop after about this many nodes; `None` for no limit.
    pub nodes: Option<u64>,
    /// Time: no new iteration after `soft`, abort at `hard` (see
    /// [`crate::search::time::budget`] to plan one from a clock).
    pub budget: Budget,
    /// Solve the root exactly (the solving mode) instead of searching it.
    pub solve: Option<Proof>,
    /// A clock that may start during the search (pondering): from then on
    /// its budget replaces `budget`.
    pub late_clock: Option<Arc<LateClock>>,
    /// Root moves to leave out (n-best analysis), as the game writes them;
    /// a name that is no move of the root is passed over.
    pub excluded: Vec<String>,
}

/// What the solving mode proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The exact score: who wins, and when.
    Exact,
    /// Only whether the side to move wins, draws or loses (the score's
    /// sign).
    Weak,
    /// Whether the side to move wins, draws or loses, proved by
    /// depth-first proof-number search (for games whose length the game
    /// cannot bound): a win scores as a mate in the plies of the proof
    /// found, a loss in a game without draws only by its sign.
    ProofNumbers,
}
