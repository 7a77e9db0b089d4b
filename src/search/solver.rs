//! Exact solving: the value of a position under perfect play, for any game
//! whose games end within the ply limit.
//!
//! The solver is the searcher's second mode, beside the iterative-deepening
//! play search. It searches to the end of the game only, with null windows:
//! each search answers "is the value above `p`?" for one pivot `p`, and the
//! range `[lo, hi]` known to hold the exact value shrinks until it is one
//! value (Pascal Pons' bisection, with his preference for pivots towards the
//! quick wins and losses, which are cheap to prove or refute). Scores follow
//! [`super::score`]: a win that ends the game `n` plies from the root scores
//! `MATE - n`, so the exact value says how long the game lasts too.
//!
//! Every node's moves come from the game's `non_losing_moves` hook (moves
//! that hand the opponent an immediate win are never searched; a forced
//! reply is searched alone), and its score bounds from mate distance and
//! the game's `plies_left_bound`: the side to move cannot win before its
//! second move from here (its first would have been found one ply up), and
//! cannot lose before the opponent's second; and when the game's ranking
//! of the moves (`order_solver_moves`) finds none that leaves the
//! opponent only losing replies, it cannot win before its third. A table
//! remembers a lower and an upper bound per position, and the move that
//! proved the lower one.

use std::sync::Arc;

mod bounds;

pub use bounds::{BoundTable, Bounds, Learned, SharedBounds};

use super::clock::Clock;
use super::score::{self, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::game::{Ceiling, Game, NextTurnWin};

/// How often (in nodes) the clock and the stop flag are looked at.
const CHECK_INTERVAL: u64 = 4096;

/// What a solve proved about the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// The exact score (mate convention of [`super::score`]); in weak mode
    /// only its sign is meaningful: > 0 won, 0 drawn, < 0 lost.
    pub score: i32,
    /// A move that keeps the value (the shortest win, the longest loss);
    /// `None` when the game is over. In weak mode, a move that keeps the
    /// result.
    pub best: Option<M>,
    /// Nodes the proof took.
    pub nodes: u64,
}

/// Pascal Pons' score scale at the root, used to choose pivots: a win with
/// the side to move's `j`-th own move from here is `(L + 1) / 2 + 1 - j`, a
/// loss to the opponent's `j`-th move `-(L / 2 + 1 - j)`, a draw 0, where
/// `L` is the most plies the game can last.
struct Scale {
    left: i32,
}

impl Scale {
    fn of(&self, s: i32) -> i32 {
        if s >= MATE_BOUND {
            let own_moves = (MATE - s + 1) / 2;
            ((self.left + 1) / 2 + 1 - own_moves).max(1)
        } else if s <= -MATE_BOUND {
            let their_moves = (MATE + s) / 2;
            -(self.left / 2 + 1 - their_moves).max(1)
        } else {
            s.signum()
        }
    }

    fn score(&self, k: i32) -> i32 {
        if k > 0 {
            let own_moves = (self.left + 1) / 2 + 1 - k;
            MATE - (2 * own_moves - 1)
        } else if k < 0 {
            let their_moves = self.left / 2 + 1 + k;
            -(MATE - 2 * their_moves)
        } else {
            0
        }
    }

    /// A pivot in `[lo, hi)`: halfway on the scale, pulled towards the
    /// extreme (quick wins and losses) of the half it falls in.
    fn pivot(&self, lo: i32, hi: i32) -> i32 {
        let (a, b) = (self.of(lo), self.of(hi));
        let mut med = a + (b - a) / 2;
        if med <= 0 && a / 2 < med {
            med = a / 2;
        } else if med >= 0 && b / 2 > med {
            med = b / 2;
        }
        self.score(med).clamp(lo, hi - 1)
    }
}

/// What the solver takes from the game beyond its moves, each on by
/// default and switched off only to measure what it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// One table entry for a position and its mirror image.
    pub mirror: bool,
    /// Bounds from [`Game::result_ceiling`].
    pub ceiling: bool,
    /// Enhanced transposition cutoffs: the children's entries are looked
    /// up before any is searched.
    pub etc: bool,
}

impl Default for Knowledge {
    fn default() -> Self {
        Knowledge {
            mirror: true,
            ceiling: true,
            etc: true,
        }
    }
}

/// Below this many plies left, enhanced transposition cutoffs cost more
/// (a table miss per child) than the searches they save: on Pons' sets,
/// looking from 12 plies left saved more nodes but took longer than
/// from 16.
const ETC_MIN_PLIES_LEFT: u32 = 16;

/// The solving mode's searcher: null-window searches that narrow the
/// exact score, over a table of lower and upper bounds.
pub struct Solver<G: Game, B: Bounds<G::Move> = BoundTable<<G as Game>::Move>> {
    table: B,
    moves: Vec<Vec<G::Move>>,
    /// Per ply, the table keys of the moves' children.
    child_keys: Vec<Vec<u64>>,
    nodes: u64,
    /// When to give up: stop, a deadline, a node limit.
    clock: Clock,
    aborted: bool,
    /// The move that made the root's last search fail high.
    root_move: Option<G::Move>,
    /// The best lower bound the last solve proved, and a move keeping it.
    proved: Option<(i32, G::Move)>,
    knowledge: Knowledge,
    /// 0 for the game's own move order; else the seed of a helper's
    /// perturbed order (see [`Self::set_jitter`]).
    jitter: u64,
    /// The root and pivot of the null-window search under way.
    searching: (u64, i32),
    /// The table's count of verdicts when this solver last looked.
    verdicts_seen: u64,
    /// Another solver on the table finished the search under way first.
    overtaken: bool,
}

impl<G: Game> Solver<G> {
    /// A solver whose bound table takes `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Result<Self, String> {
        Ok(Self::with_table(BoundTable::new(hash_mb)?))
    }
}

impl<G: Game> Solver<G, Arc<SharedBounds>> {
    /// A solver on `table`, which other solvers may use at the same time.
    pub fn sharing(table: &Arc<SharedBounds>) -> Self {
        Self::with_table(Arc::clone(table))
    }
}

impl<G: Game, B: Bounds<G::Move>> Solver<G, B> {
    fn with_table(table: B) -> Self {
        Solver {
            table,
            moves: vec![Vec::new(); MAX_PLY + 1],
            child_keys: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            clock: Clock::default(),
            aborted: false,
            root_move: None,
            proved: None,
            knowledge: Knowledge::default(),
            jitter: 0,
            searching: (0, 0),
            verdicts_seen: 0,
            overtaken: false,
        }
    }

    /// Makes this solver a helper of others on a shared table: at about
    /// one node in eight (chosen by `seed` and the position, so each helper
    /// differently) the first two moves after ordering trade places, so
    /// that helpers work ahead on other subtrees and fill the table with
    /// what the main solver needs next. 0 restores the game's order.
    pub fn set_jitter(&mut self, seed: u64) {
        self.jitter = seed;
    }

    /// The table this solver works on.
    pub fn table(&self) -> &B {
        &self.table
    }

    /// Chooses what the solver takes from the game (all by default).
    pub fn set_knowledge(&mut self, knowledge: Knowledge) {
        self.knowledge = knowledge;
    }

    /// The table key of `pos`, and whether its moves are kept mirrored.
    fn key_of(&self, pos: &G) -> (u64, bool) {
        if self.knowledge.mirror {
            pos.solver_key()
        } else {
            (pos.hash(), false)
        }
    }

    fn key_after(&self, pos: &G, mv: G::Move) -> u64 {
        if self.knowledge.mirror {
            pos.solver_key_after(mv)
        } else {
            pos.hash_after(mv)
        }
    }

    /// Brings the whole table into memory now rather than as the first
    /// solves touch it (for timing solves, as `ply solve` does).
    pub fn make_resident(&mut self) {
        self.table.make_resident();
    }

    /// Forgets every bound learned (in constant time); a shared table's,
    /// for all its solvers.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Gives up (returning `None` from `solve`) once `clock` is stopped,
    /// past its hard deadline or at its node limit.
    pub fn set_limits(&mut self, clock: Clock) {
        self.clock = clock;
    }

    /// The best lower bound on the root's value the last solve proved
    /// (root-relative), with a move that keeps it: also after a solve the
    /// limits cut short. `None` when it proved none.
    pub fn proved(&self) -> Option<(i32, G::Move)> {
        self.proved
    }

    /// Nodes searched by the last `solve`, finished or not.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact value of `root` (with `weak`, only won, drawn or lost),
    /// or `None` if the limits cut the solve short. Needs a game that ends
    /// within `MAX_PLY` plies from `root`.
    pub fn solve(&mut self, root: &G, weak: bool) -> Option<Solved<G::Move>> {
        self.solve_within(root, weak, None)
    }

    /// [`Self::solve`] (not weak) of a root whose exact value the caller
    /// knows to lie in `[lower, upper]` (from a book, or from the solve of
    /// an earlier position of the game): the first search asks whether
    /// the value reaches `lower`, which also finds a move that keeps it,
    /// and the bisection then narrows what is left (nothing when the
    /// bounds are equal). `lower` is checked (a wrong one costs time, not
    /// exactness); `upper` is trusted. What the first search proves is
    /// kept by [`Self::proved`] even if the limits cut the rest short.
    pub fn solve_within(
        &mut self,
        root: &G,
        weak: bool,
        known: Option<(i32, i32)>,
    ) -> Option<Solved<G::Move>> {
        self.nodes = 0;
        self.aborted = false;
        self.proved = None;
        let mut pos = root.clone();
        if let Some(outcome) = pos.outcome() {
            return Some(Solved {
                score: score::terminal(outcome, pos.side_to_move(), 0),
                best: None,
                nodes: 0,
            });
        }
        if let Some(mv) = pos.winning_move() {
            return Some(Solved {
                score: MATE - 1,
                best: Some(mv),
                nodes: 1,
            });
        }
        let scale = Scale {
            left: pos.plies_left_bound().map_or(MAX_PLY as i32, |n| n as i32),
        };
        let (mut lo, mut hi) = if weak {
            (-1, 1)
        } else {
            (-(MATE - 2), MATE - 1)
        };
        let mut best = None;
        let mut first = None;
        if let Some((lower, upper)) = known.filter(|_| !weak) {
            hi = hi.min(upper).max(lo);
            first = Some(lower - 1).filter(|&p| lo <= p && p < hi);
        }
        let root_key = pos.hash();
        while lo < hi {
            let pivot = first.take().unwrap_or_else(|| scale.pivot(lo, hi));
            let (r, root_move) = match self.table.verdict(root_key, pivot) {
                Some(verdict) => verdict,
                None => self.search_root(&mut pos, root_key, pivot)?,
            };
            if r <= pivot {
                hi = r;
            } else {
                lo = r;
                best = root_move.or(best);
                self.proved = best.map(|mv| (lo, mv));
            }
            // Progress of a long solve (RUST_LOG=info): where the value is.
            log::info!("solver: value in [{lo}, {hi}] after {} nodes", self.nodes);
        }
        if best.is_none() {
            // Every search failed low: all moves lose as quickly as the
            // opponent can win; any legal move will do.
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            best = moves.first().copied();
        }
        Some(Solved {
            score: lo,
            best,
            nodes: self.nodes,
        })
    }

    /// The null-window search of the root at `pivot`: its fail-soft
    /// result and, when it fails high, a move that proves it. Solvers
    /// sharing a table tell each other the searches they finish, and
    /// drop one that another has finished: its verdict serves. `None`
    /// when the limits cut the solve short.
    fn search_root(
        &mut self,
        pos: &mut G,
        root_key: u64,
        pivot: i32,
    ) -> Option<(i32, Option<G::Move>)> {
        self.root_move = None;
        self.searching = (root_key, pivot);
        self.verdicts_seen = self.table.verdicts_given();
        let r = self.search(pos, 0, pivot, pivot + 1);
        if self.overtaken {
            self.overtaken = false;
            self.aborted = false;
            return self.table.verdict(root_key, pivot);
        }
        if self.aborted {
            return None;
        }
        self.table.give_verdict(root_key, pivot, r, self.root_move);
        Some((r, self.root_move))
    }

    fn should_abort(&mut self) -> bool {
        if !self.aborted && self.nodes.is_multiple_of(CHECK_INTERVAL) {
            let given = self.table.verdicts_given();
            if given != self.verdicts_seen {
                self.verdicts_seen = given;
                let (root, pivot) = self.searching;
                if self.table.verdict(root, pivot).is_some() {
                    self.overtaken = true;
                    self.aborted = true;
                }
            }
        }
        if !self.aborted
            && (self.nodes >= self.clock.node_limit()
                || (self.nodes.is_multiple_of(CHECK_INTERVAL) && self.clock.run_out()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Fail-soft alpha-beta to the end of the game. The side to move has no
    /// winning move here (the parent only plays non-losing moves).
    fn search(&mut self, pos: &mut G, ply: usize, mut alpha: i32, mut beta: i32) -> i32 {
        if self.should_abort() {
            return 0;
        }
        self.nodes += 1;
        let nodes_before = self.nodes;
        let (key, mirrored) = self.key_of(pos);
        self.table.prefetch(key);
        if let Some(outcome) = pos.outcome() {
            return score::terminal(outcome, pos.side_to_move(), ply);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        pos.non_losing_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return -(MATE - (ply as i32 + 2));
        }
        if ply + 1 >= MAX_PLY {
            self.moves[ply] = moves;
            return 0;
        }
        // No win before our next-but-one move, no loss before the
        // opponent's next-but-one, nothing after the end of the game, and
        // nothing better than what the rules leave the side to move.
        let left = pos.plies_left_bound().unwrap_or(u32::MAX);
        let lowest = if left >= 4 {
            -(MATE - (ply as i32 + 4))
        } else {
            0
        };
        // What the game alone bounds needs no table (the root still
        // names a move when it fails high). Checked first: a third of the
        // nodes end here (the quick wins a pivot asks about).
        if lowest >= beta {
            if ply == 0 {
                self.root_move = Some(moves[0]);
            }
            self.moves[ply] = moves;
            return lowest;
        }
        let mut highest = if left >= 3 {
            MATE - (ply as i32 + 3)
        } else {
            0
        };
        if self.knowledge.ceiling {
            match pos.result_ceiling() {
                Some(Ceiling::Draw) => highest = highest.min(0),
                Some(Ceiling::Loss(plies)) => {
                    highest = highest.min(-(MATE - (ply as i32 + plies as i32)));
                }
                None => {}
            }
        }
        if ply > 0 && lowest >= highest {
            self.moves[ply] = moves;
            return lowest;
        }
        if highest <= alpha {
            self.moves[ply] = moves;
            return highest;
        }
        if ply > 0 && moves.len() == 1 {
            // A forced move: its child's entry serves, this node needs
            // none of its own.
            let mv = moves[0];
            self.moves[ply] = moves;
            pos.make_move(mv);
            let score = -self.search(pos, ply + 1, -beta.min(highest), -alpha.max(lowest));
            pos.unmake_move(mv);
            return score;
        }
        let mut tt_move = None;
        let (mut lower, mut upper) = (lowest, highest);
        if let Some((l, u, mv)) = self.table.probe(key, ply) {
            tt_move = mv.map(|m| if mirrored { pos.mirror_move(m) } else { m });
            // The root must find its move: only the game's own bounds
            // apply there (they hold for every non-losing move).
            if ply > 0 {
                lower = lower.max(l);
                upper = upper.min(u);
                if lower >= beta || lower >= upper {
                    self.moves[ply] = moves;
                    return lower;
                }
                if upper <= alpha {
                    self.moves[ply] = moves;
                    return upper;
                }
            }
        }
        match pos.order_solver_moves(&mut moves) {
            NextTurnWin::By(mv) => {
                // The win three plies away, the quickest left (none came
                // at once): exact, and no child needs a search.
                let score = MATE - (ply as i32 + 3);
                if ply == 0 {
                    self.root_move = Some(mv);
                }
                self.moves[ply] = moves;
                let mv = Some(if mirrored { pos.mirror_move(mv) } else { mv });
                self.table.store(
                    key,
                    ply,
                    Learned {
                        lower: score,
                        upper: score,
                        mv,
                        nodes: 1,
                    },
                );
                return score;
            }
            NextTurnWin::Impossible => {
                // No win before the side to move's third move from here.
                let latest = if left >= 5 {
                    MATE - (ply as i32 + 5)
                } else {
                    0
                };
                upper = upper.min(latest);
                if upper <= alpha || upper <= lower {
                    self.moves[ply] = moves;
                    return upper.max(lower);
                }
            }
            NextTurnWin::Unknown => {}
        }
        alpha = alpha.max(lower);
        beta = beta.min(upper);
        if let Some(mv) = tt_move
            && let Some(i) = moves.iter().position(|&m| m == mv)
        {
            moves[..=i].rotate_right(1);
        }
        if self.jitter != 0
            && moves.len() > 1
            && (key ^ self.jitter).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61 == 0
        {
            moves.swap(0, 1);
        }

        // Start loading the children's entries together, rather than one
        // miss at a time.
        let mut keys = std::mem::take(&mut self.child_keys[ply]);
        keys.clear();
        for &mv in moves.iter() {
            let key = self.key_after(pos, mv);
            self.table.prefetch(key);
            keys.push(key);
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        if self.knowledge.etc && left >= ETC_MIN_PLIES_LEFT {
            // A child whose table entry already proves its value low
            // enough raises ours, or cuts off without a search.
            for (&mv, &key) in moves.iter().zip(keys.iter()) {
                let Some((_, child_upper, _)) = self.table.probe(key, ply + 1) else {
                    continue;
                };
                if -child_upper > best {
                    best = -child_upper;
                    if best > alpha {
                        best_move = Some(mv);
                        alpha = best;
                    }
                }
            }
        }
        self.child_keys[ply] = keys;
        if best < beta {
            for &mv in moves.iter() {
                pos.make_move(mv);
                let score = -self.search(pos, ply + 1, -beta, -alpha);
                pos.unmake_move(mv);
                if self.aborted {
                    self.moves[ply] = moves;
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        best_move = Some(mv);
                        if score >= beta {
                            break;
                        }
                        alpha = score;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        if ply == 0 && best >= beta {
            self.root_move = best_move;
        }
        let mv = best_move.map(|m| if mirrored { pos.mirror_move(m) } else { m });
        let (lower, upper, mv) = if best >= beta {
            (best, INFINITY, mv)
        } else if best > original_alpha {
            (best, best, mv)
        } else {
            (-INFINITY, best, None)
        };
        let nodes = self.nodes - nodes_before;
        let bound = Learned {
            lower,
            upper,
            mv,
            nodes,
        };
        self.table.store(key, ply, bound);
        best
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::Settings;
    use crate::game::connect4::Connect4;
    use crate::game::tictactoe::TicTacToe;
    use crate::search::reference;

    fn play<G: Game>(moves: &[&str]) -> G {
        let mut pos = G::start(&Settings::default()).unwrap();
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    /// Every position reachable in `plies` from `pos` whose game is not
    /// over (repeats included).
    pub(crate) fn positions<G: Game>(pos: &mut G, plies: u32, out: &mut Vec<G>) {
        if pos.outcome().is_some() {
            return;
        }
        out.push(pos.clone());
        if plies == 0 {
            return;
        }
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            pos.make_move(mv);
            positions(pos, plies - 1, out);
            pos.unmake_move(mv);
        }
    }

    /// The solver's exact value and its best move's value both equal plain
    /// negamax searched to the end of the game.
    fn agrees_with_negamax<G: Game>(pos: &G, solver: &mut Solver<G>, depth: i32) {
        solver.clear();
        let solved = solver.solve(pos, false).unwrap();
        let exact = reference::negamax(&mut pos.clone(), depth, false);
        assert_eq!(solved.score, exact, "{}", pos.to_fen());
        let mv = solved.best.unwrap();
        let after = value_after(pos, mv, depth);
        assert_eq!(after, exact, "best move {mv:?} of {}", pos.to_fen());
        solver.clear();
        let weak = solver.solve(pos, true).unwrap();
        assert_eq!(weak.score.signum(), exact.signum(), "{}", pos.to_fen());
    }

    #[test]
    fn tic_tac_toe_matches_negamax_everywhere() {
        let mut all = Vec::new();
        positions(&mut play::<TicTacToe>(&[]), 9, &mut all);
        assert!(all.len() > 4000);
        let mut solver = Solver::<TicTacToe>::new(1).unwrap();
        for pos in all.iter().step_by(7) {
            agrees_with_negamax(pos, &mut solver, 10);
        }
        solver.clear();
        let start = solver.solve(&all[0], false).unwrap();
        assert_eq!(start.score, 0, "tic-tac-toe is a draw");
    }

    #[test]
    fn connect4_endgames_match_negamax() {
        // Late positions of two of Pons' test lines, and every position a
        // few plies on from them.
        let mut solver = Solver::<Connect4>::new(1).unwrap();
        for line in [
            "742234173564774116613357347324256",
            "225257625346224411156336534367135",
        ] {
            let mut root = play::<Connect4>(&[]);
            for ch in line.chars() {
                let mv = root.parse_move(&ch.to_string()).unwrap();
                root.make_move(mv);
            }
            let mut all = Vec::new();
            positions(&mut root, 3, &mut all);
            assert!(all.len() > 20, "{}", all.len());
            for pos in &all {
                let left = pos.plies_left_bound().unwrap() as i32;
                agrees_with_negamax(pos, &mut solver, left + 1);
            }
        }
    }

    #[test]
    fn solvers_sharing_a_table_match_negamax() {
        // Two threads, each solving the same positions in another order
        // on one table, so that each meets the other's entries; the
        // second in a jittered move order, as a helper does.
        let mut root = play::<Connect4>(&[]);
        for ch in "225257625346224411156336534367135".chars() {
            let mv = root.parse_move(&ch.to_string()).unwrap();
            root.make_move(mv);
        }
        let mut all = Vec::new();
        positions(&mut root, 3, &mut all);
        let table = SharedBounds::new(1).unwrap();
        std::thread::scope(|scope| {
            for reversed in [false, true] {
                let (all, table) = (&all, &table);
                scope.spawn(move || {
                    let mut solver = Solver::<Connect4, _>::sharing(table);
                    solver.set_jitter(u64::from(reversed));
                    let order: Vec<&Connect4> = if reversed {
                        all.iter().rev().collect()
                    } else {
                        all.iter().collect()
                    };
                    for pos in order {
                        let left = pos.plies_left_bound().unwrap() as i32;
                        let solved = solver.solve(pos, false).unwrap();
                        let exact = reference::negamax(&mut pos.clone(), left + 1, false);
                        assert_eq!(solved.score, exact, "{}", pos.to_fen());
                    }
                });
            }
        });
        // The entries are there: solving again is cheaper than afresh.
        let mut solver = Solver::<Connect4, _>::sharing(&table);
        let warm: u64 = all
            .iter()
            .map(|p| solver.solve(p, false).unwrap().nodes)
            .sum();
        solver.clear();
        let cold: u64 = all
            .iter()
            .map(|p| solver.solve(p, false).unwrap().nodes)
            .sum();
        assert!(warm < cold, "{warm} {cold}");
    }

    #[test]
    fn a_solver_takes_the_root_searches_another_finished() {
        let table = SharedBounds::new(4).unwrap();
        let mut first = Solver::<Connect4, _>::sharing(&table);
        let mut second = Solver::<Connect4, _>::sharing(&table);
        let mut own = Solver::<Connect4>::new(4).unwrap();
        for line in [
            "5554224333234511764415115",
            "52753311433677442422121",
            "742234173564774116613357347324256",
        ] {
            let pos = late_positions(line, 0).remove(0);
            own.clear();
            let alone = own.solve(&pos, false).unwrap();
            let solved = first.solve(&pos, false).unwrap();
            assert_eq!(solved.score, alone.score, "{line}");
            assert!(solved.nodes > 0);
            // Every search of the root is one the first solver finished:
            // the second searches nothing and finds the same value and move.
            let again = second.solve(&pos, false).unwrap();
            assert_eq!(
                (again.score, again.best, again.nodes),
                (solved.score, solved.best, 0),
                "{line}"
            );
        }
        // An own table has no other solver to tell.
        let pos = play::<Connect4>(&["4", "4", "5", "3"]);
        own.clear();
        let solved = own.solve(&pos, false).unwrap();
        assert_eq!(own.table().verdicts_given(), 0);
        assert_eq!(own.table().verdict(pos.hash(), solved.score - 1), None);
    }

    /// The position after Pons-style `line` and every one `plies` on.
    fn late_positions(line: &str, plies: u32) -> Vec<Connect4> {
        let mut root = play::<Connect4>(&[]);
        for ch in line.chars() {
            let mv = root.parse_move(&ch.to_string()).unwrap();
            root.make_move(mv);
        }
        let mut all = Vec::new();
        positions(&mut root, plies, &mut all);
        all
    }

    /// The value of `mv` at `pos` by plain negamax: the child's, one ply up.
    fn value_after<G: Game>(pos: &G, mv: G::Move, depth: i32) -> i32 {
        let mut child = pos.clone();
        child.make_move(mv);
        let after = -reference::negamax(&mut child, depth - 1, false);
        // negamax's scores are relative to its own root: one ply deeper.
        if after.abs() >= MATE_BOUND {
            after - after.signum()
        } else {
            after
        }
    }

    #[test]
    fn known_bounds_give_the_exact_value_and_a_move_that_keeps_it() {
        let all = late_positions("742234173564774116613357347324256", 2);
        let mut solver = Solver::<Connect4>::new(1).unwrap();
        let mut cheaper = 0;
        for pos in &all {
            let depth = pos.plies_left_bound().unwrap() as i32 + 1;
            solver.clear();
            let plain = solver.solve(pos, false).unwrap();
            let exact = plain.score;
            // The exact value known: one search finds a move keeping it.
            solver.clear();
            let known = solver
                .solve_within(pos, false, Some((exact, exact)))
                .unwrap();
            assert_eq!(known.score, exact, "{}", pos.to_fen());
            assert_eq!(value_after(pos, known.best.unwrap(), depth), exact);
            cheaper += usize::from(known.nodes < plain.nodes);
            // Only a lower bound, right or wrong: still the exact value.
            for lower in [exact, 0, exact + 2, -(MATE - 2)] {
                solver.clear();
                let solved = solver
                    .solve_within(pos, false, Some((lower, MATE - 1)))
                    .unwrap();
                assert_eq!(solved.score, exact, "{} from {lower}", pos.to_fen());
                assert_eq!(value_after(pos, solved.best.unwrap(), depth), exact);
            }
        }
        assert!(cheaper > all.len() / 2, "{cheaper} of {}", all.len());
    }

    #[test]
    fn every_choice_of_knowledge_gives_the_same_values() {
        let all = late_positions("4453123", 3);
        assert!(all.len() > 300, "{}", all.len());
        let mut reference = Solver::<Connect4>::new(8).unwrap();
        reference.set_knowledge(Knowledge {
            mirror: false,
            ceiling: false,
            etc: false,
        });
        let mut solver = Solver::<Connect4>::new(8).unwrap();
        for (i, pos) in all.iter().enumerate().step_by(13) {
            reference.clear();
            let exact = reference.solve(pos, false).unwrap().score;
            let knowledge = Knowledge {
                mirror: i % 2 == 0,
                ceiling: i % 3 != 0,
                etc: i % 5 != 0,
            };
            solver.set_knowledge(knowledge);
            // One table for all: later solves meet entries of earlier ones.
            let solved = solver.solve(pos, false).unwrap();
            assert_eq!(solved.score, exact, "{} {knowledge:?}", pos.to_fen());
            let mut child = pos.clone();
            child.make_move(solved.best.unwrap());
            reference.clear();
            let after = reference.solve(&child, false).map(|s| s.score);
            assert_eq!(
                after.map(|a| -a + a.signum()),
                Some(exact),
                "{}",
                pos.to_fen()
            );
        }
    }

    #[test]
    fn a_solve_cut_short_keeps_the_bound_it_proved() {
        let all = late_positions("742234173564774116613357347324256", 2);
        let mut solver = Solver::<Connect4>::new(1).unwrap();
        let mut cut = 0;
        for pos in &all {
            solver.set_limits(Clock::default());
            solver.clear();
            let exact = solver.solve(pos, false).unwrap().score;
            // The first search alone, the value known.
            solver.clear();
            let first = solver
                .solve_within(pos, false, Some((exact, exact)))
                .unwrap();
            // Known only from below: the same first search, then more,
            // which the limit cuts short.
            solver.clear();
            solver.set_limits(Clock::default().part(None, first.nodes + 1));
            if solver
                .solve_within(pos, false, Some((exact, MATE - 1)))
                .is_some()
            {
                continue;
            }
            let (bound, mv) = solver.proved().unwrap();
            assert!(bound >= exact, "{bound} {exact}");
            assert_eq!(Some(mv), first.best);
            let depth = pos.plies_left_bound().unwrap() as i32 + 1;
            assert_eq!(value_after(pos, mv, depth), exact);
            cut += 1;
        }
        assert!(cut >= 5, "{cut} of {}", all.len());
    }

    #[test]
    fn scale_round_trips_and_pivots_stay_inside() {
        for left in [9, 10, 41, 42] {
            let scale = Scale { left };
            for k in -(left / 2)..=(left + 1) / 2 {
                assert_eq!(scale.of(scale.score(k)), k, "left {left}, k {k}");
            }
            for (lo, hi) in [(-(MATE - 2), MATE - 1), (-1, 1), (0, 1), (-1, 0)] {
                let p = scale.pivot(lo, hi);
                assert!(lo <= p && p < hi, "{lo} {hi} {p}");
            }
        }
    }

    #[test]
    fn a_stop_returns_none() {
        let mut solver = Solver::<Connect4>::new(1).unwrap();
        solver.set_limits(Clock::default().part(None, 1000));
        assert!(solver.solve(&play::<Connect4>(&[]), false).is_none());
        assert_eq!(solver.nodes(), 1000);
    }
}
