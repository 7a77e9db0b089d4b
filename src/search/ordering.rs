//! Move ordering: the transposition-table move, then killer moves, then
//! the game's own move scores, with the history heuristic breaking ties.

use super::params::SearchParams;
use super::score::MAX_PLY;
use crate::game::{Game, Player};

const TT_MOVE: i64 = 1 << 50;
const KILLER: i64 = 1 << 48;
/// History values stay within ±HISTORY_MAX (the "gravity" update).
const HISTORY_MAX: i32 = 1 << 14;

/// Move-ordering memory: killer moves per ply and the history table.
pub struct Ordering<M> {
    killers: Vec<[Option<M>; 2]>,
    history: [Vec<i32>; 2],
}

impl<M: Copy + PartialEq> Ordering<M> {
    /// Empty tables for a game with `history_slots` history slots.
    pub fn new(history_slots: usize) -> Self {
        Ordering {
            killers: vec![[None, None]; MAX_PLY + 1],
            history: [vec![0; history_slots], vec![0; history_slots]],
        }
    }

    /// Forgets killers and history.
    pub fn clear(&mut self) {
        self.killers.fill([None, None]);
        for h in &mut self.history {
            h.fill(0);
        }
    }

    /// Scores `moves` into `scores` (same order) for the node at `ply`.
    pub fn score_moves<G: Game<Move = M>>(
        &self,
        pos: &G,
        params: &SearchParams,
        moves: &[M],
        tt_move: Option<M>,
        ply: usize,
        scores: &mut Vec<i64>,
    ) {
        scores.clear();
        let side = pos.side_to_move().index();
        for &mv in moves {
            let score = if Some(mv) == tt_move {
                TT_MOVE
            } else if params.killers && self.killers[ply][0] == Some(mv) {
                KILLER + 1
            } else if params.killers && self.killers[ply][1] == Some(mv) {
                KILLER
            } else {
                let game = if params.move_scores {
                    pos.move_score(mv) as i64
                } else {
                    0
                };
                let history = if params.history {
                    self.history[side][pos.history_slot(mv)] as i64
                } else {
                    0
                };
                (game << 16) + history
            };
            scores.push(score);
        }
    }

    /// A quiet move caused a cut-off: remember it, and reward it over the
    /// moves tried before it.
    pub fn record_cutoff<G: Game<Move = M>>(
        &mut self,
        pos: &G,
        params: &SearchParams,
        ply: usize,
        depth: i32,
        best: M,
        tried_before: &[M],
    ) {
        if params.killers && self.killers[ply][0] != Some(best) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(best);
        }
        if params.history {
            let side = pos.side_to_move();
            let bonus = (depth * depth).min(HISTORY_MAX);
            self.update_history(pos, side, best, bonus);
            for &mv in tried_before {
                self.update_history(pos, side, mv, -bonus);
            }
        }
    }

    fn update_history<G: Game<Move = M>>(&mut self, pos: &G, side: Player, mv: M, bonus: i32) {
        let slot = &mut self.history[side.index()][pos.history_slot(mv)];
        *slot += bonus - *slot * bonus.abs() / HISTORY_MAX;
    }
}

/// Moves the best-scored remaining move to `index` (selection sort: most
/// nodes cut off after one or two moves, so sorting everything is waste).
pub fn pick_next<M: Copy>(moves: &mut [M], scores: &mut [i64], index: usize) {
    let mut best = index;
    for i in index + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
}
