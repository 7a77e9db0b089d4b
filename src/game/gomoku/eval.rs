//! Static evaluation from the side to move's view: the cell weights of
//! both colours (what a stone on each empty cell would make in its four
//! lines, summed incrementally by `set_info`) weighted for the side to
//! move, and the threats both can make next, which say who has the
//! initiative (`threat_values`: a value per combination of them).
//!
//! The weights' part is the mean of this position's and the one's before
//! the last move (from the same side's view, without tempo), as Rapfi's
//! classical evaluation does: a lone ply's gain counts half, which damps
//! the swing of the score between odd and even depths. A position with no
//! move before it (a set-up board) takes its own totals in its place.
//!
//! The cell weights (`cell_classes`: a weight per class of the four line
//! patterns a stone on the cell would make) and the threat table are
//! fitted to a stronger engine's judgement (`scripts/gomoku_fit.py`):
//! positions from fixed-node self-play games and from games against
//! outside engines, each scored by a classical engine searching 100 ms
//! (80 ms for the threat values, which the table keeps from the chain of
//! six cases it replaced), its score s taken as the win chance
//! sigmoid(s / 200) (mates as 0 or 1).
//! The evaluation, written as a function of the weights (per side, how
//! many empty cells of each class; which combination of threats to make
//! next the position has), is fitted to minimise the squared error of
//! sigmoid(evaluation / K) against those chances (the best of several
//! pulls toward the previous values, judged on a fifth of the games held
//! out), with K held at the previous weights' best so that the
//! evaluation keeps its scale (search margins are set in its units).
//! Positions where a side has a five-point are left out: search settles
//! those. Fitted values must then win a fixed-node SPRT against the
//! previous ones and hold up against an outside engine.

use super::patterns::Threat;
use super::threat_values::{threat_index, threat_value};
use super::{Gomoku, color_of};

/// The side to move gets to use its patterns first and the opponent's are
/// answered before they grow: ours count (64 + TEMPO) / 64, theirs
/// (64 - TEMPO) / 64.
const TEMPO: i32 = 11;
/// An edge for having the move at all (the fit found none beyond tempo).
const MOVE: i32 = 0;
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
        let now = (self.weight_total[m] * (64 + TEMPO) - self.weight_total[t] * (64 - TEMPO)) / 64;
        // Averaged with the position before the last move (from the same
        // side's view, without tempo): a lone ply's gain is halved, which
        // damps the swing between odd and even depths.
        let before = self
            .frames
            .last()
            .map_or(now, |f| f.weight_total[m] - f.weight_total[t]);
        let mut score = (now + before) / 2 + MOVE;
        if their_fives == 0 {
            // Our move comes first: what each side can make next is
            // valued as a whole (threat_values.rs).
            let colour = [me, them];
            score += threat_value(threat_index(|side, threat| {
                self.threats(colour[side], threat) > 0
            }));
        }
        score.clamp(-BOUND, BOUND)
    }
}
