//! Static evaluation from the side to move's view: the cell weights of
//! both colours (what a stone on each empty cell would make in its four
//! lines, summed incrementally by `set_info`) weighted for the side to
//! move, and the threats that say who has the initiative.
//!
//! The cell weights (`patterns::combine`) and the constants below were fitted
//! together to game results, Texel-style: positions from fixed-node
//! self-play games, each labelled with its game's result for the side to
//! move, the evaluation written as a function of the weights (per side,
//! counts of the patterns over all empty cells and directions and of the
//! cells by threat; flags for the threats to make next), and the weights
//! chosen to minimise the squared error of sigmoid(evaluation / K) against
//! the results (K fitted first on the hand-set weights). Positions where a
//! side has a five-point were left out: search settles those. The fitted
//! values then had to win a fixed-node SPRT against the previous ones.

use super::patterns::Threat;
use super::{Gomoku, color_of};

/// The side to move gets to use its patterns first and the opponent's are
/// answered before they grow: ours count (64 + TEMPO) / 64, theirs
/// (64 - TEMPO) / 64. By hand, 12 beat 6 and 18 lost to 12; the fit
/// agrees (13).
const TEMPO: i32 = 13;
/// A small edge for having the move at all.
const MOVE: i32 = 16;
/// We can make an open four (or two fours) now and they have no five to
/// make first: won but for their counter-fours.
const OPEN_FOUR_NEXT: i32 = 4_103;
/// We can make a four and an open three at once.
const FOUR_THREE_NEXT: i32 = 3_710;
/// We can make two open threes at once while they threaten nothing as big.
const DOUBLE_THREE_NEXT: i32 = 2_326;
/// The largest value short of a proved result.
const BOUND: i32 = 9_000;
/// A five for the side to move, or two five-points for the opponent.
const DECIDED: i32 = 10_000;

impl Gomoku {
    /// The evaluation of `Game::evaluate`.
    pub(super) fn evaluation(&self) -> i32 {
        let me = color_of(self.side);
        let them = 3 - me;
        if self.threats(me, Threat::Five) > 0 {
            return DECIDED;
        }
        let their_fives = self.threats(them, Threat::Five);
        if their_fives >= 2 {
            return -DECIDED;
        }
        let (m, t) = ((me - 1) as usize, (them - 1) as usize);
        let mut score =
            (self.weight_total[m] * (64 + TEMPO) - self.weight_total[t] * (64 - TEMPO)) / 64 + MOVE;
        if their_fives == 0 {
            // Our move comes first: a threat we can make now outranks one
            // the opponent could make after it.
            let their_wins_next =
                self.threats(them, Threat::OpenFour) + self.threats(them, Threat::FourThree);
            if self.threats(me, Threat::OpenFour) > 0 {
                score += OPEN_FOUR_NEXT;
            } else if self.threats(me, Threat::FourThree) > 0 {
                score += FOUR_THREE_NEXT;
            } else if self.threats(me, Threat::DoubleThree) > 0 && their_wins_next == 0 {
                score += DOUBLE_THREE_NEXT;
            }
        }
        score.clamp(-BOUND, BOUND)
    }
}
