//! Plain negamax without any pruning: the yardstick every enhancement of
//! the real searcher must agree with at a fixed depth.

use super::clock::Clock;
use super::score::{self, MAX_PLY};
use crate::game::Game;

/// Value of `pos` searched to `depth` plies, with the same leaf evaluation
/// the searcher uses (quiescence over tactical moves when asked) and the
/// same moves ([`Game::search_moves`], the game's own pruning included).
pub fn negamax<G: Game>(pos: &mut G, depth: i32, quiescence: bool) -> i32 {
    Walk::new(quiescence).value(pos, depth, 0)
}

/// [`negamax`] over every legal move ([`Game::generate_moves`]) instead of
/// the game's search moves: the yardstick for a game's own move pruning.
pub fn negamax_full_width<G: Game>(pos: &mut G, depth: i32, quiescence: bool) -> i32 {
    let mut walk = Walk::new(quiescence);
    walk.full_width = true;
    walk.value(pos, depth, 0)
}

/// [`negamax`], adding the nodes it visits (quiescence nodes left out) to
/// `nodes`: the `minimax` rung of `ply compare`.
pub fn negamax_counted<G: Game>(pos: &mut G, depth: i32, quiescence: bool, nodes: &mut u64) -> i32 {
    let mut walk = Walk::new(quiescence);
    let value = walk.value(pos, depth, 0);
    *nodes += walk.nodes;
    value
}

/// [`negamax_counted`] that gives up when `clock` runs out: `None` when
/// it did (the nodes visited until then are still added to `nodes`).
pub fn negamax_until<G: Game>(
    pos: &mut G,
    depth: i32,
    quiescence: bool,
    clock: &Clock,
    nodes: &mut u64,
) -> Option<i32> {
    let mut walk = Walk::new(quiescence);
    walk.clock = Some(clock.clone());
    let value = walk.value(pos, depth, 0);
    *nodes += walk.nodes;
    (!walk.aborted).then_some(value)
}

/// How often (in nodes) the clock is looked at.
const CHECK_INTERVAL: u64 = 1024;

struct Walk {
    quiescence: bool,
    full_width: bool,
    nodes: u64,
    clock: Option<Clock>,
    aborted: bool,
}

impl Walk {
    fn new(quiescence: bool) -> Walk {
        Walk {
            quiescence,
            full_width: false,
            nodes: 0,
            clock: None,
            aborted: false,
        }
    }

    fn value<G: Game>(&mut self, pos: &mut G, depth: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_INTERVAL)
            && self.clock.as_ref().is_some_and(Clock::run_out)
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if depth <= 0 {
            return self.leaf(pos, ply);
        }
        if let Some(outcome) = pos.outcome() {
            return score::terminal(outcome, pos.side_to_move(), ply);
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        let mut moves = Vec::new();
        if self.full_width {
            pos.generate_moves(&mut moves);
        } else {
            pos.search_moves(&mut moves);
        }
        let mut best = if moves.is_empty() {
            0
        } else {
            -score::INFINITY
        };
        for mv in moves {
            pos.make_move(mv);
            best = best.max(-self.value(pos, depth - 1, ply + 1));
            pos.unmake_move(mv);
        }
        best
    }

    fn leaf<G: Game>(&self, pos: &mut G, ply: usize) -> i32 {
        if let Some(outcome) = pos.outcome() {
            return score::terminal(outcome, pos.side_to_move(), ply);
        }
        let mut best = pos.evaluate();
        if !self.quiescence || ply >= MAX_PLY {
            return best;
        }
        let mut moves = Vec::new();
        pos.tactical_moves(&mut moves);
        for mv in moves {
            pos.make_move(mv);
            best = best.max(-self.leaf(pos, ply + 1));
            pos.unmake_move(mv);
        }
        best
    }
}
