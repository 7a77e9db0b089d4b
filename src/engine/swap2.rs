//! The Swap2 opening rule as a brain plays it. The opener places three
//! stones (black, white, black); the other side then plays on as white,
//! swaps to black, or adds two more stones and leaves the choice to the
//! opener. Each offer is judged by a short search of the controller's game.

use super::{Controller, GoLimits, Score};
use crate::game::GameError;

/// What the brain does with the stones it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Stay white and play this move.
    Play(String),
    /// Take black instead.
    Swap,
}

/// White's lowest acceptable score (in evaluation units) after three
/// stones: the side answering may still add two stones, so it accepts a
/// small disadvantage rather than hand the opener the choice.
const THREE_STONES_THRESHOLD: i32 = -60;
/// After five stones the choice is final: white must be at least even.
const FIVE_STONES_THRESHOLD: i32 = 0;

/// The limits of a Swap2 decision made within a turn of `turn_ms`: a
/// quarter of it, and at least 50 ms.
pub fn budget(turn_ms: u64) -> GoLimits {
    GoLimits {
        turn_limit: Some((turn_ms / 4).max(50)),
        ..Default::default()
    }
}

/// How far a score is from even; unknown and proven scores are the worst.
fn imbalance(score: Option<Score>) -> i64 {
    match score {
        Some(Score::Cp(cp)) => i64::from(cp).abs(),
        _ => i64::MAX,
    }
}

/// Whether white, to move with `score`, may stay white after `stones`.
fn white_is_fine(score: Option<Score>, stones: usize) -> bool {
    let threshold = if stones == 3 {
        THREE_STONES_THRESHOLD
    } else {
        FIVE_STONES_THRESHOLD
    };
    match score {
        Some(Score::Cp(cp)) => cp >= threshold,
        Some(Score::Mate(m)) => m > 0,
        None => true,
    }
}

/// The opening to offer: of `candidates` (three moves each, black first,
/// from the start position), the one a search finds closest to even for
/// white; the first among equals. The turn limit of `limits` is shared by
/// the candidates. `None` if no candidate is legal. Leaves the controller
/// on the last candidate tried.
pub fn open(
    controller: &mut Controller,
    candidates: &[Vec<String>],
    limits: &GoLimits,
) -> Option<Vec<String>> {
    let each = GoLimits {
        turn_limit: limits
            .turn_limit
            .map(|t| t / candidates.len().max(1) as u64),
        ..limits.clone()
    };
    let mut best: Option<(i64, &Vec<String>)> = None;
    for candidate in candidates {
        let moves: Vec<&str> = candidate.iter().map(String::as_str).collect();
        if controller.set_position(None, &moves).is_err() {
            continue;
        }
        let score = controller
            .analyse(each.clone(), &[])
            .and_then(|s| s.last)
            .map(|line| line.score);
        let imbalance = imbalance(score);
        if best.is_none_or(|(b, _)| imbalance < b) {
            best = Some((imbalance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate.clone())
}

/// The answer to the opener's `stones` (three or five moves, black first,
/// from the start position): white's best move if a search within
/// `limits` finds white good enough (at its last depth and the one before),
/// else a swap. Leaves the controller on
/// the position of `stones`.
pub fn answer(
    controller: &mut Controller,
    stones: &[String],
    limits: &GoLimits,
) -> Result<Answer, GameError> {
    let moves: Vec<&str> = stones.iter().map(String::as_str).collect();
    controller.set_position(None, &moves)?;
    let summary = controller.analyse(limits.clone(), &[]);
    let last = summary.as_ref().and_then(|s| s.last.clone());
    let mut fine = white_is_fine(last.as_ref().map(|l| l.score), stones.len());
    // Scores swing between odd and even depths (the side to move at the
    // leaves has the tempo): white must be fine at the depth before the
    // last too, which the transposition table answers at once.
    if let Some(line) = last.filter(|l| fine && l.depth > 1) {
        let shallower = GoLimits {
            depth: Some(line.depth - 1),
            ..Default::default()
        };
        let score = controller
            .analyse(shallower, &[])
            .and_then(|s| s.last)
            .map(|l| l.score);
        fine = white_is_fine(score, stones.len());
    }
    Ok(match summary.and_then(|s| s.best) {
        Some(mv) if fine => Answer::Play(mv),
        _ => Answer::Swap,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::Event;

    fn gomoku() -> Controller {
        Controller::new("gomoku", Default::default(), 1, Arc::new(|_: Event| {})).unwrap()
    }

    fn line(moves: &str) -> Vec<String> {
        moves.split_whitespace().map(str::to_string).collect()
    }

    fn depth(d: u32) -> GoLimits {
        GoLimits {
            depth: Some(d),
            ..Default::default()
        }
    }

    #[test]
    fn the_budget_is_a_quarter_of_the_turn_and_at_least_50_ms() {
        assert_eq!(budget(2000).turn_limit, Some(500));
        assert_eq!(budget(100).turn_limit, Some(50));
    }

    #[test]
    fn white_stays_white_only_when_not_worse_than_the_threshold() {
        assert!(white_is_fine(Some(Score::Cp(-60)), 3));
        assert!(!white_is_fine(Some(Score::Cp(-61)), 3));
        assert!(!white_is_fine(Some(Score::Cp(-1)), 5));
        assert!(white_is_fine(Some(Score::Cp(0)), 5));
        assert!(white_is_fine(Some(Score::Mate(3)), 5));
        assert!(!white_is_fine(Some(Score::Mate(-3)), 3));
        assert!(white_is_fine(None, 3), "no search result: keep white");
        assert!(imbalance(Some(Score::Cp(-7))) < imbalance(Some(Score::Cp(8))));
        assert_eq!(imbalance(Some(Score::Mate(2))), i64::MAX);
    }

    #[test]
    fn the_opening_offered_is_the_most_even_candidate() {
        let mut c = gomoku();
        // Scored in turn on one table, as `open` will.
        // An open three for black is far from even; the quiet shape is not.
        let candidates = [line("h8 a1 i8"), line("h8 a1 b1"), line("h8 i9 j8")];
        let scores: Vec<i64> = candidates
            .iter()
            .map(|moves| {
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                c.set_position(None, &moves).unwrap();
                let s = c.analyse(depth(3), &[]).unwrap().last.map(|l| l.score);
                imbalance(s)
            })
            .collect();
        let most_even = scores
            .iter()
            .enumerate()
            .min_by_key(|&(i, s)| (*s, i))
            .map(|(i, _)| i)
            .unwrap();
        c.new_game();
        let chosen = open(&mut c, &candidates, &depth(3)).unwrap();
        assert_eq!(chosen, candidates[most_even], "scores {scores:?}");
        // Illegal candidates are skipped; with none legal there is nothing.
        let bad = [line("h8 h8 i8"), line("zz9 a1 b1")];
        assert_eq!(open(&mut c, &bad, &depth(1)), None);
        let mixed = [line("h8 h8 i8"), line("h8 i9 j8")];
        assert_eq!(open(&mut c, &mixed, &depth(1)), Some(line("h8 i9 j8")));
    }

    #[test]
    fn white_plays_on_when_fine_and_swaps_when_lost() {
        let mut c = gomoku();
        // Five stones, white to move. Black's h8 i8 j8 is an open three
        // with white's stones in the corners: white must defend and stays
        // behind. With black's stones in the corners instead and white's
        // two together in the centre, white has the initiative.
        let lost = line("h8 a1 i8 a15 j8");
        let fine = line("a1 h8 a15 i8 o1");
        let score_of = |c: &mut Controller, moves: &[String]| {
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            c.set_position(None, &moves).unwrap();
            c.analyse(depth(4), &[]).unwrap().last.map(|l| l.score)
        };
        let lost_score = score_of(&mut c, &lost);
        let fine_score = score_of(&mut c, &fine);
        assert!(!white_is_fine(lost_score, 5), "{lost_score:?}");
        assert!(white_is_fine(fine_score, 5), "{fine_score:?}");
        assert_eq!(answer(&mut c, &lost, &depth(4)), Ok(Answer::Swap));
        match answer(&mut c, &fine, &depth(4)).unwrap() {
            Answer::Play(mv) => {
                assert!(c.session().legal_moves().contains(&mv), "{mv}");
            }
            Answer::Swap => panic!("white is fine: {fine_score:?}"),
        }
        assert!(answer(&mut c, &line("h8 h8 i8"), &depth(1)).is_err());
    }
}
