//! Time management: turns a `go` command's limits into a soft limit (no
//! new iteration starts after it) and a hard limit (the search is aborted).

use std::time::Duration;

use crate::game::Player;

/// What a `go` command asked for, protocol-independent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// `go depth`: the deepest iteration.
    pub depth: Option<u32>,
    /// `go nodes`: a node limit.
    pub nodes: Option<u64>,
    /// Milliseconds for this move.
    pub movetime: Option<u64>,
    /// Remaining clock per player in milliseconds, P1 first.
    pub time: [Option<u64>; 2],
    /// Increment per move per player in milliseconds, P1 first.
    pub inc: [u64; 2],
    /// Moves until the next time control, when the clock has one.
    pub movestogo: Option<u32>,
    /// The most moves the side to move can still have to make (the board
    /// fills up), when the game knows: a clock keeps
    /// [`RESERVE_PER_MOVE_MS`] back for each, so that a game that goes on
    /// to the end never loses on time.
    pub most_moves_left: Option<u32>,
    /// A hard cap on this move whatever the clock says (Gomocup's
    /// `timeout_turn`); 0 means move at once.
    pub turn_limit: Option<u64>,
    /// `go infinite`: search until told to stop.
    pub infinite: bool,
    /// `go ponder`: search on the opponent's time, without a clock, until
    /// `ponderhit` (then this go's clock applies) or `stop`.
    pub ponder: bool,
}

impl GoLimits {
    /// No depth, node or time limit of any kind: such a search ends only
    /// when told to (or when the game's tree is exhausted).
    pub fn is_unbounded(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.movetime.is_none()
            && self.time.iter().all(Option::is_none)
            && self.turn_limit.is_none()
    }
}

/// A move's time plan, measured from the start of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// No new iteration starts after this.
    pub soft: Option<Duration>,
    /// The search is aborted at this.
    pub hard: Option<Duration>,
}

impl Budget {
    /// Each deadline `f` of what it was, never below a millisecond.
    fn each(self, f: impl Fn(Duration) -> Duration) -> Budget {
        let f = |d: Duration| f(d).max(Duration::from_millis(1));
        Budget {
            soft: self.soft.map(&f),
            hard: self.hard.map(&f),
        }
    }

    /// The plan with `spent` already gone (work done since the turn's
    /// clock started).
    pub fn after(self, spent: Duration) -> Budget {
        self.each(|d| d.saturating_sub(spent))
    }

    /// One of `n` equal shares of the plan (a search repeated `n` times).
    pub fn share(self, n: usize) -> Budget {
        self.each(|d| d / n.max(1) as u32)
    }
}

/// Moves assumed left in the game when neither the clock nor the game
/// says (the controller fills `movestogo` from `Game::moves_to_go`, and
/// `most_moves_left` from `Game::most_moves_left`).
const DEFAULT_MOVES_TO_GO: u64 = 30;

/// Time a clock keeps back for each move the game may still need
/// ([`GoLimits::most_moves_left`]): more than a move costs when the engine
/// answers at once (a millisecond or two through the Gomocup managers'
/// pipes). Without it, spending a share of what is left on every move
/// runs the clock down to nothing in a long game: Ply lost a 205-ply game
/// at 30 s / 180 s on time, its last 60 moves a millisecond or two each.
/// The reserve is never capped: a share of what is left would again run
/// out geometrically. A clock shorter than the reserve is played at once,
/// move after move (4 s on an empty 20x20 board, 2.3 s on 15x15).
pub const RESERVE_PER_MOVE_MS: u64 = 20;

/// The plan for the side `side` under `limits`, keeping `overhead_ms` for
/// the reply to travel.
pub fn budget(limits: &GoLimits, side: Player, overhead_ms: u64) -> Budget {
    let planned = planned_budget(limits, side, overhead_ms);
    let Some(turn) = limits.turn_limit else {
        return planned;
    };
    // Keep a margin of a 25th on top of the overhead: a reply after the
    // turn limit loses the game, and a loaded machine answers late. The
    // latest of 2953 replies at 1 s under a 870 ms cap came 12 ms after
    // it; the 40 ms margin covers three times that.
    let cap = Duration::from_millis(turn.saturating_sub(overhead_ms + turn / 25).max(1));
    // A turn limit alone is this move's to spend whole, as a fixed time
    // per move is: time saved is not carried to later moves.
    let hard = planned.hard.map_or(cap, |h| h.min(cap));
    let soft = planned.soft.map_or(hard, |s| s.min(hard));
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

fn planned_budget(limits: &GoLimits, side: Player, overhead_ms: u64) -> Budget {
    if limits.infinite || limits.ponder {
        return Budget::default();
    }
    if let Some(movetime) = limits.movetime {
        // A fixed time per move is the engine's to use whole, as UCI
        // engines do; the overhead guards clocks, where a late move loses.
        let t = Duration::from_millis(movetime.max(1));
        return Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let Some(remaining) = limits.time[side.index()] else {
        return Budget::default();
    };
    let inc = limits.inc[side.index()];
    let reserve = limits
        .most_moves_left
        .map_or(0, |n| u64::from(n) * RESERVE_PER_MOVE_MS);
    let available = remaining.saturating_sub(overhead_ms + reserve).max(1);
    let moves_to_go = limits
        .movestogo
        .map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.clamp(1, 50)));
    let target = available / moves_to_go + inc * 3 / 4;
    // Never plan to spend more than a share of what is left, so that a
    // sudden long iteration cannot flag.
    let ceiling = if moves_to_go == 1 {
        available * 9 / 10
    } else {
        available / 2
    };
    let hard = (target * 3).min(ceiling).max(1);
    let soft = (target * 6 / 10).min(hard).max(1);
    Budget {
        soft: Some(Duration::from_millis(soft)),
        hard: Some(Duration::from_millis(hard)),
    }
}

/// What iterative deepening knows after an iteration.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Since the search started.
    pub elapsed: Duration,
    /// The iteration just finished.
    pub last: Duration,
    /// The iteration before it, if any.
    pub before: Option<Duration>,
    /// The best move changed or the score fell: the position needs time.
    pub unstable: bool,
}

/// Growth of an iteration's time over the previous one assumed at least
/// and at most (the effective branching factor, measured).
const MIN_GROWTH: u32 = 2;
const MAX_GROWTH: u32 = 4;

/// Whether to start another iteration: before the soft limit (half as late
/// again when the root is unstable, never past the hard limit), and, on a
/// clock, only if the iteration, predicted from the last one's time and
/// growth, can end before the hard limit: time an unfinished iteration
/// spends is missed by the moves to come. A fixed time per move (soft
/// limit equal to the hard one) is this move's alone, and spent whole: the
/// searcher keeps what an unfinished iteration found.
pub fn start_next(budget: &Budget, p: &Progress) -> bool {
    if budget.soft.is_some() && budget.soft == budget.hard {
        return budget.hard.is_some_and(|hard| p.elapsed < hard);
    }
    if let Some(soft) = budget.soft {
        let soft = if p.unstable { soft * 3 / 2 } else { soft };
        let soft = budget.hard.map_or(soft, |h| soft.min(h));
        if p.elapsed >= soft {
            return false;
        }
    }
    // Early in the turn the prediction (noisy from odd to even depths) is
    // not trusted: an iteration is cheap to try while half the soft limit
    // is left.
    let early = budget.soft.is_some_and(|soft| p.elapsed < soft / 2);
    if let Some(hard) = budget.hard.filter(|_| !early) {
        let growth = match p.before {
            Some(b) if !b.is_zero() => (p.last.as_secs_f64() / b.as_secs_f64())
                .clamp(f64::from(MIN_GROWTH), f64::from(MAX_GROWTH)),
            _ => f64::from(MIN_GROWTH),
        };
        if p.elapsed + p.last.mul_f64(growth) > hard {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_is_shortened_by_time_spent_and_shared_but_never_to_nothing() {
        let ms = Duration::from_millis;
        let plan = Budget {
            soft: Some(ms(300)),
            hard: Some(ms(900)),
        };
        let after = plan.after(ms(400));
        assert_eq!((after.soft, after.hard), (Some(ms(1)), Some(ms(500))));
        let third = plan.share(3);
        assert_eq!((third.soft, third.hard), (Some(ms(100)), Some(ms(300))));
        assert_eq!(Budget::default().after(ms(5)), Budget::default());
        assert_eq!(Budget::default().share(4), Budget::default());
    }

    #[test]
    fn an_iteration_that_cannot_finish_is_not_started() {
        let ms = Duration::from_millis;
        let budget = Budget {
            soft: Some(ms(500)),
            hard: Some(ms(900)),
        };
        let p = |elapsed, last, before, unstable| Progress {
            elapsed: ms(elapsed),
            last: ms(last),
            before: Some(ms(before)),
            unstable,
        };
        // Growth 3: 300 + 3 * 100 = 600 fits in 900.
        assert!(start_next(&budget, &p(300, 100, 33, false)));
        // Growth 4: 300 + 4 * 200 = 1100 does not.
        assert!(!start_next(&budget, &p(300, 200, 50, false)));
        // Growth capped at 4: 260 + 4 * 150 = 860 fits.
        assert!(start_next(&budget, &p(260, 150, 15, false)));
        // Before half the soft limit the prediction is not trusted.
        assert!(start_next(&budget, &p(200, 200, 20, false)));
        // Past the soft limit, unless unstable (soft 750).
        assert!(!start_next(&budget, &p(520, 10, 5, false)));
        assert!(start_next(&budget, &p(520, 10, 5, true)));
        assert!(!start_next(&budget, &p(760, 10, 5, true)));
        // A fixed time per move is spent to its end, whatever the forecast.
        let fixed = Budget {
            soft: Some(ms(100)),
            hard: Some(ms(100)),
        };
        assert!(start_next(&fixed, &p(90, 60, 15, false)));
        assert!(!start_next(&fixed, &p(100, 1, 1, false)));
        // No clock: no limit.
        assert!(start_next(
            &Budget::default(),
            &p(100_000, 50_000, 1, false)
        ));
    }

    fn ms(d: Option<Duration>) -> u64 {
        d.unwrap().as_millis() as u64
    }

    #[test]
    fn movetime_is_used_whole() {
        let limits = GoLimits {
            movetime: Some(1000),
            ..Default::default()
        };
        let b = budget(&limits, Player::P1, 30);
        assert_eq!((ms(b.soft), ms(b.hard)), (1000, 1000));
    }

    #[test]
    fn clock_budget_stays_within_the_clock() {
        let limits = GoLimits {
            time: [Some(60_000), Some(1_000)],
            inc: [1000, 0],
            ..Default::default()
        };
        let b = budget(&limits, Player::P1, 30);
        assert!(ms(b.soft) <= ms(b.hard));
        assert!(ms(b.hard) < 30_000);
        assert!(ms(b.soft) > 1000);
        let b = budget(&limits, Player::P2, 30);
        assert!(ms(b.hard) <= 485, "half of the 970 ms left at most");
        let tiny = GoLimits {
            time: [Some(5), Some(5)],
            ..Default::default()
        };
        assert_eq!(ms(budget(&tiny, Player::P1, 30).hard), 1);
    }

    #[test]
    fn a_game_that_fills_the_board_does_not_run_out_of_time() {
        // 15x15 played to the last cell, every move planned over the
        // fewest moves to go Gomoku ever assumes (12) and taking its whole
        // hard limit and 15 ms more to answer (more than the managers'
        // pipes take).
        for (clock, turn) in [(180_000, 30_000), (120_000, 5_000), (10_000, 1_000)] {
            let mut left: u64 = clock;
            for own in 0..113u32 {
                let stones = 2 * own;
                let limits = GoLimits {
                    time: [Some(left), None],
                    turn_limit: Some(turn),
                    movestogo: Some(12),
                    most_moves_left: Some((225 - stones).div_ceil(2)),
                    ..Default::default()
                };
                let b = budget(&limits, Player::P1, 30);
                let spent = ms(b.hard) + 15;
                assert!(
                    spent < left,
                    "move {own}: {spent} ms of {left} (clock {clock})"
                );
                left -= spent;
            }
            assert!(left >= 20, "{left} ms kept at the end (clock {clock})");
        }
    }

    #[test]
    fn the_reserve_keeps_time_for_every_move_left() {
        let plan = |time, most| {
            let limits = GoLimits {
                time: [Some(time), None],
                movestogo: Some(10),
                most_moves_left: most,
                ..Default::default()
            };
            ms(budget(&limits, Player::P1, 0).soft)
        };
        // 100 moves left keep 2 s back: 10 s becomes 8 s to share.
        assert_eq!(plan(10_000, None), 600);
        assert_eq!(plan(10_000, Some(100)), 480);
        // A clock shorter than the reserve answers at once.
        assert_eq!(plan(1_000, Some(100)), 1);
    }

    #[test]
    fn turn_limit_caps_everything() {
        let turn = GoLimits {
            turn_limit: Some(1000),
            ..Default::default()
        };
        let b = budget(&turn, Player::P1, 30);
        assert_eq!((ms(b.soft), ms(b.hard)), (930, 930), "spent whole");
        let clock = GoLimits {
            turn_limit: Some(1000),
            time: [Some(3000), None],
            ..Default::default()
        };
        let b = budget(&clock, Player::P1, 30);
        assert!(
            ms(b.hard) <= 297,
            "a short match clock wins over a long turn limit"
        );
        let now = GoLimits {
            turn_limit: Some(0),
            ..Default::default()
        };
        assert_eq!(ms(budget(&now, Player::P1, 30).hard), 1);
    }

    #[test]
    fn no_clock_means_no_limit() {
        let limits = GoLimits {
            depth: Some(5),
            ..Default::default()
        };
        assert_eq!(budget(&limits, Player::P1, 30), Budget::default());
        let inf = GoLimits {
            infinite: true,
            movetime: Some(10),
            ..Default::default()
        };
        assert_eq!(budget(&inf, Player::P1, 30), Budget::default());
    }
}
