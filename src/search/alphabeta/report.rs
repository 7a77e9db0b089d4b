//! What a search answers: each completed iteration as it comes, and the
//! result at the end.

use std::time::Duration;

/// One completed iteration, as reported while searching.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// Nominal depth of the iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score for the side to move at the root, in the searcher's units (see
    /// [`super::score`]: evaluations, or mate scores near [`super::score::MATE`]).
    pub score: i32,
    /// Nodes searched since the search started.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition-table use, per mille.
    pub hashfull: u32,
    /// The principal variation, root move first.
    pub pv: Vec<M>,
}

/// What a finished search returns.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The last completed iteration, if any completed.
    pub last: Option<Report<M>>,
    /// Nodes searched in total.
    pub nodes: u64,
    /// Time spent in total.
    pub elapsed: Duration,
}
