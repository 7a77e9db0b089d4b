//! The root's exact side, tried before the play search: an opening
//! book's move, the exact solver with a share of the time (games of
//! bounded length), or the move the solver proved to keep a bound known
//! before; and the solving mode itself. Each solve leaves lower bounds
//! for the positions two plies on, which the next search starts from.

use std::sync::Arc;
use std::time::Duration;

use super::{Proof, Report, SearchLimits, SearchResult, Searcher};
use crate::game::Game;
use crate::search::clock::Clock;
use crate::search::pns::{self, GameValue, ProofSearch};
use crate::search::score::{self, MATE, MAX_PLY, Score};
use crate::search::solver::{Bounds, Knowledge, SharedBounds, Solved, Solver};

/// Timed searches shorter than this do not try the solver first: half of
/// it would rarely prove anything the play search does not see.
const SOLVER_MIN_TIME: Duration = Duration::from_millis(50);

/// The solving mode and what its last solve left.
pub(super) struct Exact<G: Game> {
    /// The solver, with a table of `Hash` MB: allocated with the searcher
    /// for games of bounded length, else on first use.
    pub solver: Option<Solver<G>>,
    /// The solving mode's solver when helper threads solve beside the
    /// main searcher: all on one shared table, each helper's move order
    /// jittered. While it exists the own solver's table is freed.
    pub shared: Option<Solver<G, Arc<SharedBounds>>>,
    /// A lower bound on the values of the positions the game may reach
    /// two plies after the last position solved: its value, two plies
    /// nearer the end, for every reply to its best move. Kept as the
    /// position after that move and looked up by its replies when the
    /// next search asks, so that a solve pays nothing for it.
    pub hint: Option<Hint<G>>,
    /// The proof-number search of the solving mode, with a table of
    /// `Hash` MB: allocated on first use.
    pub numbers: Option<ProofSearch>,
}

/// What a solve leaves for the next position of the game (see
/// [`Exact::hint`]).
pub struct Hint<G> {
    /// The position after the solved position's best move.
    after: G,
    /// The bound on every reply's value, relative to the position after it.
    lower: i32,
}

impl<G: Game> Default for Exact<G> {
    fn default() -> Self {
        Exact {
            solver: None,
            shared: None,
            hint: None,
            numbers: None,
        }
    }
}

impl<G: Game> Searcher<G> {
    /// Before the play search: the book's move when it knows every move's
    /// value, else (a timed search of a game of bounded length) the exact
    /// solver with a share of the time, else the move the solver proved
    /// to keep a bound known before. `Err` with the solver's nodes when
    /// none of them answers.
    pub(super) fn exact_first(
        &mut self,
        root: &G,
        limits: &SearchLimits,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<SearchResult<G::Move>, u64> {
        if let Some(played) = self.play_from_book(root, report) {
            return Ok(played);
        }
        let mut solver_nodes = 0;
        if self.params.solver
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && self.excluded_root.is_empty()
            && G::SOLVER_FIRST
            && root.plies_left_bound().is_some()
            && self
                .clock
                .soft_span()
                .is_some_and(|span| span >= SOLVER_MIN_TIME)
        {
            // Half the time to prove the exact value; the play search has
            // the rest if that fails. When a bound on the value is known
            // (the book's value of the root, or one from the solve of an
            // earlier position), a single search proves a move that keeps
            // it: worth nine tenths of the time.
            let known = self.known_bounds(root);
            let share = if known.is_some() { 0.9 } else { 0.5 };
            let part = self.clock.part(self.clock.soft_share(share), u64::MAX);
            let started = self.clock.started();
            match self.solve(root, Proof::Exact, known, part, report) {
                Ok(mut solved) => {
                    solved.elapsed = started.elapsed();
                    return Ok(solved);
                }
                Err(cut_short) => solver_nodes = cut_short.nodes,
            }
            if let Some((lower, _)) = known
                && let Some(mut kept) = self.play_proved(root, lower, solver_nodes, report)
            {
                kept.elapsed = started.elapsed();
                return Ok(kept);
            }
            self.clock.restart_at(started);
        }
        Err(solver_nodes)
    }

    /// A solver for games of bounded length (the timed play search tries
    /// it first), allocated and faulted in up front so that no move's time
    /// pays for it.
    pub(super) fn solver_if_bounded(hash_mb: usize) -> Option<Solver<G>> {
        if !Self::bounded() {
            return None;
        }
        Self::resident_solver(hash_mb).ok()
    }

    /// A solver whose table of `hash_mb` is faulted in now, not by the
    /// solves to come.
    fn resident_solver(hash_mb: usize) -> Result<Solver<G>, String> {
        let mut solver = Solver::new(hash_mb)?;
        solver.make_resident();
        Ok(solver)
    }

    /// The solving mode: the root's exact value (or its sign), reported as
    /// one iteration as deep as the game is long. When `limits` (a part of
    /// the search's clock) cut it short, an error result: no iteration,
    /// the nodes searched and a move to play instead.
    pub(super) fn solve(
        &mut self,
        root: &G,
        proof: Proof,
        known: Option<(i32, i32)>,
        limits: Clock,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<SearchResult<G::Move>, SearchResult<G::Move>> {
        if proof == Proof::ProofNumbers {
            return self.solve_by_numbers(root, limits, report);
        }
        let started = self.clock.started();
        let fallback = self.fallback_move(root);
        let cut_short = |nodes| SearchResult {
            best: fallback,
            last: None,
            nodes,
            elapsed: started.elapsed(),
        };
        let knowledge = Knowledge {
            mirror: self.params.solver_mirror,
            ceiling: self.params.solver_ceiling,
            etc: self.params.solver_etc,
        };
        let weak = proof == Proof::Weak;
        let together = self.team.helper || self.team.shared.parallel();
        let solved = match self.exact.shared.as_mut() {
            Some(shared) if together => {
                self.clock.restart();
                run_solver(shared, limits, knowledge, root, weak, known)
            }
            _ => {
                if self.exact.solver.is_none() {
                    self.exact.solver =
                        Some(Self::resident_solver(self.hash_mb).map_err(|_| cut_short(0))?);
                }
                let Some(solver) = self.exact.solver.as_mut() else {
                    return Err(cut_short(0));
                };
                // The time of the solve itself, not of the table's first
                // allocation.
                self.clock.restart();
                run_solver(solver, limits, knowledge, root, weak, known)
            }
        };
        let solved = solved.map_err(cut_short)?;
        if proof == Proof::Exact
            && let Some(mv) = solved.best
        {
            self.hint_after(root, mv, solved.score);
        }
        let elapsed = self.clock.elapsed();
        let plies = Score::plies_to_end(solved.score)
            .unwrap_or_else(|| root.plies_left_bound().map_or(0, |n| n as i32));
        let iteration = Report {
            depth: plies.max(1) as u32,
            seldepth: plies.max(1) as u32,
            score: solved.score,
            nodes: solved.nodes,
            elapsed,
            hashfull: 0,
            pv: solved.best.into_iter().collect(),
        };
        report(&iteration);
        Ok(SearchResult {
            best: solved.best.or(fallback),
            last: Some(iteration),
            nodes: solved.nodes,
            elapsed,
        })
    }

    /// Readies the solving mode for helper threads: the own solver's
    /// table is freed and one of the same size is shared, on which this
    /// searcher and its helpers ([`Self::follow`]) solve together. Kept
    /// for later solves; `Err` if the memory cannot be had.
    pub fn share_solver_table(&mut self) -> Result<(), String> {
        if self.exact.shared.is_none() {
            self.exact.solver = None;
            let mut solver = Solver::sharing(&SharedBounds::new(self.hash_mb)?);
            solver.make_resident();
            self.exact.shared = Some(solver);
        }
        Ok(())
    }

    /// A helper's solver on `main`'s shared table (none when `main` has
    /// none), its move order jittered by the helper's number.
    pub(super) fn share_solver_of(&mut self, main: &Self) {
        let Some(table) = main.exact.shared.as_ref().map(|s| s.table()) else {
            self.exact.shared = None;
            return;
        };
        let same = self
            .exact
            .shared
            .as_ref()
            .is_some_and(|s| Arc::ptr_eq(s.table(), table));
        if !same {
            let mut solver = Solver::sharing(table);
            solver.set_jitter(self.team.id as u64);
            self.exact.shared = Some(solver);
        }
    }

    /// The solving mode by proof numbers: the root's value for its side
    /// to move as one iteration (a win as a mate in the plies of its
    /// proof, a loss whose length was not searched as -1); an error
    /// result when `limits` cut it short.
    fn solve_by_numbers(
        &mut self,
        root: &G,
        limits: Clock,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<SearchResult<G::Move>, SearchResult<G::Move>> {
        let depth = root
            .plies_left_bound()
            .map_or(MAX_PLY, |n| (n as usize + 1).min(MAX_PLY));
        let hash_mb = self.hash_mb;
        let search = self
            .exact
            .numbers
            .get_or_insert_with(|| ProofSearch::new(hash_mb, depth));
        search.set_max_depth(depth);
        self.clock.restart();
        let node_limit = limits.node_limit();
        search.set_limits(limits, node_limit);
        let value = pns::solve_game(search, root);
        let nodes = search.nodes();
        let elapsed = self.clock.elapsed();
        let (score, best) = match value {
            None => {
                return Err(SearchResult {
                    best: self.fallback_move(root),
                    last: None,
                    nodes,
                    elapsed,
                });
            }
            Some(GameValue::Win(mv, plies)) => (MATE - plies as i32, Some(mv)),
            Some(GameValue::Draw(mv)) => (0, mv),
            Some(GameValue::Loss(Some(plies))) => (plies as i32 - MATE, None),
            Some(GameValue::Loss(None)) => (-1, None),
        };
        let best = best.or_else(|| self.fallback_move(root));
        Ok(exact_result(
            root,
            score,
            nodes,
            elapsed,
            best.into_iter().collect(),
            report,
        ))
    }

    /// Bounds known on `root`'s exact value: the book's value, or the
    /// lower bound that the solve or the book move of the position two
    /// plies before left.
    fn known_bounds(&self, root: &G) -> Option<(i32, i32)> {
        if let Some(v) = self.book.as_ref().and_then(|book| book.score(root)) {
            return Some((v, v));
        }
        let hint = self.exact.hint.as_ref()?;
        let mut replies = Vec::new();
        hint.after.generate_moves(&mut replies);
        let key = root.hash();
        replies
            .into_iter()
            .any(|reply| hint.after.hash_after(reply) == key)
            .then_some((hint.lower, MATE - 1))
    }

    /// Remembers, for every reply to `mv` (which keeps `score` at `root`),
    /// that the position after it is worth at least `score` (two plies
    /// nearer the end for a win or loss): the reply can only do worse
    /// than the best one for the side to move there.
    fn hint_after(&mut self, root: &G, mv: G::Move, score: i32) {
        let mut after = root.clone();
        after.make_move(mv);
        self.exact.hint = after.outcome().is_none().then(|| Hint {
            after,
            lower: score::to_table(score, 2),
        });
    }

    /// After a solve cut short: the move that the solver proved keeps at
    /// least `lower` (a bound known before the solve), reported as one
    /// iteration with that bound as its score. `None` if it proved none.
    fn play_proved(
        &mut self,
        root: &G,
        lower: i32,
        nodes: u64,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let (score, mv) = self.exact.solver.as_ref()?.proved()?;
        if score < lower {
            return None;
        }
        self.hint_after(root, mv, score);
        let elapsed = self.clock.elapsed();
        Some(exact_result(root, score, nodes, elapsed, vec![mv], report))
    }

    /// The book's move for `root`, reported as one iteration as deep as
    /// the game lasts, when the book knows every move's value (and no
    /// root move is excluded).
    fn play_from_book(
        &mut self,
        root: &G,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        if !self.excluded_root.is_empty() {
            return None;
        }
        let book = self.book.as_ref()?;
        let (mv, score) = book.best_move(root)?;
        // The principal variation: the book's moves while it knows them.
        let mut pv = vec![mv];
        let mut pos = root.clone();
        pos.make_move(mv);
        while let Some((next, _)) = book.best_move(&pos) {
            pv.push(next);
            pos.make_move(next);
        }
        // The replies to the book's last move may lead out of the book:
        // the move's value bounds them from below.
        self.hint_after(root, mv, score);
        let elapsed = self.clock.elapsed();
        Some(exact_result(root, score, 0, elapsed, pv, report))
    }
}

/// A result known to the end of the game (a book's, a proof's): one
/// iteration as deep as the game lasts, reported, playing `pv[0]`.
fn exact_result<G: Game>(
    root: &G,
    score: i32,
    nodes: u64,
    elapsed: Duration,
    pv: Vec<G::Move>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let plies = Score::plies_to_end(score)
        .unwrap_or_else(|| root.plies_left_bound().map_or(0, |n| n as i32));
    let iteration = Report {
        depth: plies.max(1) as u32,
        seldepth: plies.max(1) as u32,
        score,
        nodes,
        elapsed,
        hashfull: 0,
        pv,
    };
    report(&iteration);
    SearchResult {
        best: iteration.pv.first().copied(),
        last: Some(iteration),
        nodes,
        elapsed,
    }
}

/// One solve by `solver` of `root` within `limits`; `Err` with its nodes
/// when the limits cut it short.
fn run_solver<G: Game, B: Bounds<G::Move>>(
    solver: &mut Solver<G, B>,
    limits: Clock,
    knowledge: Knowledge,
    root: &G,
    weak: bool,
    known: Option<(i32, i32)>,
) -> Result<Solved<G::Move>, u64> {
    solver.set_limits(limits);
    solver.set_knowledge(knowledge);
    solver
        .solve_within(root, weak, known)
        .ok_or_else(|| solver.nodes())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::game::Settings;
    use crate::game::connect4::Connect4;
    use crate::search::SearchParams;
    use crate::search::book::Book;
    use crate::search::time::Budget;

    #[test]
    fn a_solved_position_leaves_lower_bounds_for_the_next_one() {
        let root = late_position();
        let mut searcher = Searcher::<Connect4>::new(16, SearchParams::default()).unwrap();
        // Time enough for the solver to finish: the limit is not reached.
        let limits = SearchLimits {
            budget: Budget {
                soft: Some(Duration::from_secs(120)),
                hard: Some(Duration::from_secs(120)),
            },
            ..SearchLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let result = searcher.search(&root, &limits, Arc::clone(&stop), &mut |_| {});
        let score = result.last.unwrap().score;
        let mv = result.best.unwrap();
        let mut exact = Solver::<Connect4>::new(4).unwrap();
        assert_eq!(exact.solve(&root, false).unwrap().score, score, "solved");
        let mut tight = 0;
        for next in open_replies(&root, mv) {
            let (lower, upper) = searcher.known_bounds(&next).unwrap();
            assert_eq!((lower, upper), (score::to_table(score, 2), MATE - 1));
            exact.clear();
            let value = exact.solve(&next, false).unwrap().score;
            assert!(value >= lower, "{value} {lower}");
            tight += usize::from(value == lower);
            // The next search starts from the bound and finds the value.
            let again = searcher.search(&next, &limits, Arc::clone(&stop), &mut |_| {});
            assert_eq!(again.last.unwrap().score, value);
            // Which leaves the bounds of its own next positions.
            assert!(searcher.known_bounds(&next).is_none());
            searcher.exact.hint = None;
            searcher.hint_after(&root, mv, score);
        }
        assert!(tight >= 1, "the best reply leaves the bound exact");
        // A new game forgets them.
        searcher.clear();
        assert!(searcher.known_bounds(&open_replies(&root, mv)[0]).is_none());
    }

    #[test]
    fn a_book_move_leaves_lower_bounds_for_the_positions_out_of_the_book() {
        use crate::search::book::{Header, value_of_score};
        let root = late_position();
        // A book of the root's children only: the root's move comes from
        // it, and every reply to that move leads out of it.
        let mut exact = Solver::<Connect4>::new(4).unwrap();
        let mut entries = Vec::new();
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        for &mv in &moves {
            let mut child = root.clone();
            child.make_move(mv);
            if child.outcome().is_none() {
                exact.clear();
                let value = exact.solve(&child, false).unwrap().score;
                entries.push((child.symmetric_key(), value_of_score(value).unwrap()));
            }
        }
        let header = Header {
            game: "connect4".to_string(),
            board: "7x6".to_string(),
            rule: "-".to_string(),
            plies: 1,
            from: Vec::new(),
            strategy: 0,
        };
        let mut searcher = Searcher::<Connect4>::new(16, SearchParams::default()).unwrap();
        searcher.book = Some(Arc::new(Book::new(header, entries)));
        let limits = SearchLimits {
            nodes: Some(1),
            ..SearchLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let result = searcher.search(&root, &limits, Arc::clone(&stop), &mut |_| {});
        assert_eq!(result.nodes, 0, "played from the book");
        let score = result.last.unwrap().score;
        exact.clear();
        assert_eq!(exact.solve(&root, false).unwrap().score, score);
        let mut tight = 0;
        for next in open_replies(&root, result.best.unwrap()) {
            assert!(searcher.book.as_ref().unwrap().score(&next).is_none());
            let (lower, upper) = searcher.known_bounds(&next).expect("a bound");
            assert_eq!((lower, upper), (score::to_table(score, 2), MATE - 1));
            exact.clear();
            let value = exact.solve(&next, false).unwrap().score;
            assert!(value >= lower, "{value} {lower}");
            tight += usize::from(value == lower);
        }
        assert!(tight >= 1, "the best reply leaves the bound exact");
    }

    /// A Connect Four position 26 plies deep that the solver finishes at
    /// once.
    fn late_position() -> Connect4 {
        let mut root = Connect4::start(&Settings::default()).unwrap();
        for ch in "74223417356477411661335734".chars() {
            let mv = root.parse_move(&ch.to_string()).unwrap();
            root.make_move(mv);
        }
        root
    }

    /// The unfinished positions after `mv` and each reply to it.
    fn open_replies(root: &Connect4, mv: <Connect4 as Game>::Move) -> Vec<Connect4> {
        let mut child = root.clone();
        child.make_move(mv);
        let mut replies = Vec::new();
        child.generate_moves(&mut replies);
        replies
            .into_iter()
            .map(|reply| {
                let mut next = child.clone();
                next.make_move(reply);
                next
            })
            .filter(|next| next.outcome().is_none())
            .collect()
    }
}
