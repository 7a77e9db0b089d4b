//! Plain negamax without any pruning: the yardstick every enhancement of
//! the real searcher must agree with at a fixed depth.

use super::score::{self, MAX_PLY};
use crate::game::Game;

/// Value of `pos` searched to `depth` plies, with the same leaf evaluation
/// the searcher uses (quiescence over tactical moves when asked).
pub fn negamax<G: Game>(pos: &mut G, depth: i32, quiescence: bool) -> i32 {
    value(pos, depth, 0, quiescence, &mut 0)
}

/// [`negamax`], adding the nodes it visits (quiescence nodes left out) to
/// `nodes`: the `minimax` rung of `ply compare`.
pub fn negamax_counted<G: Game>(pos: &mut G, depth: i32, quiescence: bool, nodes: &mut u64) -> i32 {
    value(pos, depth, 0, quiescence, nodes)
}

fn value<G: Game>(pos: &mut G, depth: i32, ply: usize, quiescence: bool, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if depth <= 0 {
        return leaf(pos, ply, quiescence);
    }
    if let Some(outcome) = pos.outcome() {
        return score::terminal(outcome, pos.side_to_move(), ply);
    }
    if ply >= MAX_PLY {
        return pos.evaluate();
    }
    let mut moves = Vec::new();
    pos.search_moves(&mut moves);
    let mut best = if moves.is_empty() {
        0
    } else {
        -score::INFINITY
    };
    for mv in moves {
        pos.make_move(mv);
        best = best.max(-value(pos, depth - 1, ply + 1, quiescence, nodes));
        pos.unmake_move(mv);
    }
    best
}

fn leaf<G: Game>(pos: &mut G, ply: usize, quiescence: bool) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return score::terminal(outcome, pos.side_to_move(), ply);
    }
    let mut best = pos.evaluate();
    if !quiescence || ply >= MAX_PLY {
        return best;
    }
    let mut moves = Vec::new();
    pos.tactical_moves(&mut moves);
    for mv in moves {
        pos.make_move(mv);
        best = best.max(-leaf(pos, ply + 1, quiescence));
        pos.unmake_move(mv);
    }
    best
}
