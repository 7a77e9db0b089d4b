//! Score conventions. Scores are from the side to move's point of view.
//! A win found `n` plies from the root scores `MATE - n`, so a quicker win
//! scores higher and a slower loss scores higher (mate distance).

use crate::game::{EVAL_LIMIT, Outcome, Player};

/// Beyond every score: the initial search window.
pub const INFINITY: i32 = 32_000;
/// The score of a win at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// The deepest ply the searcher goes to.
pub const MAX_PLY: usize = 128;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

const _: () = assert!(EVAL_LIMIT < MATE_BOUND);

/// Whether `score` is a proven win or loss.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Score of a finished game at `ply`, for the side to move there.
pub fn terminal(outcome: Outcome, side_to_move: Player, ply: usize) -> i32 {
    match outcome {
        Outcome::Draw => 0,
        Outcome::Win(p) if p == side_to_move => MATE - ply as i32,
        Outcome::Win(_) => -(MATE - ply as i32),
    }
}

/// Mate scores are stored relative to the node, not the root, so that an
/// entry stays right when the position is reached at another ply.
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Undoes [`to_table`] for an entry read at `ply`.
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as the protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Evaluation units ("centipawns").
    Cp(i32),
    /// Moves (not plies) until a forced win (> 0) or loss (< 0), UCI style.
    Mate(i32),
}

impl Score {
    /// The printed form of a searcher score.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score + 1) / 2)
        } else {
            Score::Cp(score)
        }
    }

    /// Plies to the end of a proven game, if proven.
    pub fn plies_to_end(score: i32) -> Option<i32> {
        is_mate(score).then(|| MATE - score.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(12), Score::Cp(12));
    }

    #[test]
    fn table_round_trip() {
        for s in [MATE - 5, -(MATE - 7), 100, -3] {
            assert_eq!(from_table(to_table(s, 9), 9), s);
        }
    }
}
