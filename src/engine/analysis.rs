//! Analysis the protocols share: the n best moves of a position, for
//! Piskvork's `YXNBEST` (and the shape UGI's MultiPV needs).

use super::{Controller, GoLimits, Score, SearchSummary};

/// One move of an n-best list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// In the game's notation.
    pub mv: String,
    /// The search's score of the position after choosing it, from the side
    /// to move's point of view; `None` if not even depth 1 completed.
    pub score: Option<Score>,
}

/// The `n` best moves of the controller's current position, best first:
/// each is the choice of a search that leaves out the moves ranked before
/// it. `limits` hold for the whole analysis: the turn limit is shared
/// evenly by the `n` searches. `each` hears of every move as soon as it is
/// ranked (with its rank, from 1). Fewer than `n` moves come back when the
/// position has fewer; none once the game is over.
pub fn best_moves(
    controller: &mut Controller,
    n: usize,
    limits: &GoLimits,
    mut each: impl FnMut(usize, &RankedMove),
) -> Vec<RankedMove> {
    let limits = GoLimits {
        turn_limit: limits.turn_limit.map(|t| (t / n.max(1) as u64).max(1)),
        ..limits.clone()
    };
    rank_moves(
        n,
        |excluded| controller.analyse(limits.clone(), excluded),
        |rank, found, _| each(rank, found),
    )
}

/// The ranking behind [`best_moves`] and UGI's MultiPV: `search` finds the
/// best move leaving out the given ones (`None`: no more searching); up to
/// `n` moves are ranked, each told to `each` with its rank (from 1) and
/// its search's summary.
pub fn rank_moves(
    n: usize,
    mut search: impl FnMut(&[String]) -> Option<SearchSummary>,
    mut each: impl FnMut(usize, &RankedMove, &SearchSummary),
) -> Vec<RankedMove> {
    let mut ranked: Vec<RankedMove> = Vec::with_capacity(n);
    let mut excluded: Vec<String> = Vec::with_capacity(n);
    while ranked.len() < n {
        let Some(summary) = search(&excluded) else {
            break;
        };
        let Some(mv) = summary.best.clone() else {
            break;
        };
        let found = RankedMove {
            mv: mv.clone(),
            score: summary.last.as_ref().map(|line| line.score),
        };
        each(ranked.len() + 1, &found, &summary);
        ranked.push(found);
        excluded.push(mv);
    }
    ranked
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::Event;

    fn controller(game: &str) -> Controller {
        Controller::new(game, Default::default(), 1, Arc::new(|_: Event| {})).unwrap()
    }

    fn depth(d: u32) -> GoLimits {
        GoLimits {
            depth: Some(d),
            ..Default::default()
        }
    }

    fn cp(score: Option<Score>) -> i64 {
        match score {
            Some(Score::Mate(m)) if m > 0 => 1_000_000 - i64::from(m),
            Some(Score::Mate(m)) => -1_000_000 - i64::from(m),
            Some(Score::Cp(cp)) => i64::from(cp),
            None => i64::MIN,
        }
    }

    #[test]
    fn n_best_moves_are_distinct_legal_and_ranked() {
        let mut c = controller("gomoku");
        // Black to move with an open four (h8..k8): either end wins at once,
        // nothing else does.
        let moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "a1"];
        c.set_position(None, &moves).unwrap();
        let legal = c.session().legal_moves();
        let mut heard = Vec::new();
        let ranked = best_moves(&mut c, 4, &depth(3), |rank, m| {
            heard.push((rank, m.clone()))
        });
        assert_eq!(ranked.len(), 4);
        let told: Vec<RankedMove> = heard.iter().map(|(_, m)| m.clone()).collect();
        assert_eq!(told, ranked, "each move is told as it is ranked");
        assert_eq!(heard.iter().map(|h| h.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
        let mut wins: Vec<&str> = ranked[..2].iter().map(|m| m.mv.as_str()).collect();
        wins.sort();
        assert_eq!(wins, ["g8", "l8"]);
        assert!(ranked[..2].iter().all(|m| m.score == Some(Score::Mate(1))));
        for (i, m) in ranked.iter().enumerate() {
            assert!(legal.contains(&m.mv), "{} is legal", m.mv);
            assert!(!ranked[..i].iter().any(|o| o.mv == m.mv), "{} twice", m.mv);
        }
        for pair in ranked.windows(2) {
            assert!(cp(pair[0].score) >= cp(pair[1].score), "{ranked:?}");
        }
        assert!(cp(ranked[2].score) < cp(ranked[1].score), "{ranked:?}");
        // The analysis leaves the position as it was.
        assert_eq!(c.session().legal_moves(), legal);
    }

    #[test]
    fn n_best_stops_at_the_legal_moves_and_at_the_end_of_the_game() {
        let mut c = controller("tictactoe");
        let all = c.session().legal_moves().len();
        let ranked = best_moves(&mut c, all + 3, &depth(2), |_, _| {});
        assert_eq!(ranked.len(), all);
        // X takes the first rank: the game is over, nothing to rank.
        c.set_position(None, &["a1", "a2", "b1", "b2", "c1"])
            .unwrap();
        assert!(c.session().outcome().is_some());
        assert!(best_moves(&mut c, 2, &depth(2), |_, _| {}).is_empty());
    }
}
