//! The game-agnostic searcher: iterative deepening over a negamax
//! alpha-beta (fail-soft) with principal-variation search, aspiration
//! windows, a transposition table, killer/history/game move ordering,
//! null-move pruning where the game allows it, mate-distance pruning and a
//! quiescence search over the game's tactical moves. Every enhancement is a
//! switch in [`SearchParams`].
//!
//! This file holds iterative deepening, the node and quiescence; around
//! them: `root` (where a search begins, the root's moves), `exact` (the
//! solving mode, the book and the solver tried first), `defence` (the
//! root's defence against the opponent's threat-space win), `setup` (the
//! tables and the helpers of a parallel search), `limits` and `report`
//! (what a search is asked and answers). The node's moves come from
//! [`super::picker`], its time from [`super::clock`].

use std::sync::Arc;
use std::sync::atomic::Ordering as AtomicOrdering;
use std::time::Duration;

mod defence;
mod exact;
mod limits;
mod report;
mod root;
mod setup;

use defence::RootDefence;
use exact::Exact;
pub use limits::{Proof, SearchLimits};
pub use report::{Report, SearchResult};

use super::book::Book;
use super::clock::Clock;
use super::ordering::Ordering;
use super::params::SearchParams;
use super::picker::MovePicker;
use super::score::{self, INFINITY, MATE, MAX_PLY, Score, is_mate};
use super::smp::{Completed, Team};
use super::stats::SearchStats;
use super::time::{Progress, start_next};
use super::tt::{Bound, TranspositionTable};
use crate::game::Game;
use crate::tune::tune;

/// Depth stored for a result whose whole subtree ended in finished games:
/// it holds at any depth.
const EXHAUSTIVE: i32 = 255;
/// First aspiration half-window, in evaluation units.
const ASPIRATION_WINDOW: i32 = 30;
/// Nodes inside the tree ask the threat search only this close to the
/// horizon (quiescence asks it too): 0, none. Asking at every node cost
/// more time than its proofs saved: without it, +69 =7 -44 (gomoku,
/// 200 ms a move, SPRT [0, 20] accepted after 120 games).
const TREE_THREAT_MAX_DEPTH: i32 = 0;
/// A score this much below the previous iteration's makes the root
/// unstable (a threat has appeared): it gets more time.
const UNSTABLE_DROP: i32 = 60;
/// The defence against the opponent's quick win after a pass works at
/// this depth and above.
const DEFENCE_MIN_DEPTH: i32 = 2;
/// Late-move reductions start at this depth. They reduce quiet moves
/// only: reducing the late threat moves as well, as PentaZen does, scored
/// 43% in 36 games against PentaZen where this scored 57% in 48 (gomoku,
/// 1 s a move, the same openings in the same order, each match with one
/// other beside it on the two cores).
const LMR_MIN_DEPTH: i32 = 3;
/// Late-move pruning works at this depth and below. Tested the same way,
/// at every depth (PentaZen's way) it scored 38% in 34 games, and up to
/// depth 6 48% in 48.
const LMP_MAX_DEPTH: i32 = 9;
/// Internal iterative reduction works at this depth and above.
const IIR_MIN_DEPTH: i32 = 4;
/// Futility pruning and razoring work at this depth and below.
const FUTILITY_MAX_DEPTH: i32 = 6;
const RAZOR_MAX_DEPTH: i32 = 4;
// Tried for gomoku and not kept, each in 226 games against Rapfi 0.43.02
// (classical) at fixed nodes, paired by opening and colour with the
// build before (Ply 100 000 nodes a move against Rapfi's 100 000, where
// that build scores 35.8%, or 250 000 against 100 000, where it scores
// 54.4%): singular extensions of the table's move (depth >= 7, margin
// 4 per ply, multi-cut, negative extension) -5.1 +- 4.1 and -3.5 +- 4.3
// points; from depth 5, -3.1 +- 4.3; a fail-high reduction of quiet moves
// where the evaluation is above beta by 60 per ply, -0.7 +- 4.1; Rapfi's
// tighter move count (8 sqrt(d) - 4 at every depth) -1.8 +- 4.2; pruning
// moves that make not even an open two for either side at depth <= 4
// +3.1 +- 3.3 and -2.0 +- 3.7, at <= 6 -1.1 +- 3.9. At 250 000 against
// 100 000: a ply more reduction for each 300 (hundredths of a logit) a
// quiet move's ordering value lies below the node's best, at most two,
// -1.8 +- 4.2; a ply more at expected cut nodes (Stockfish's cut-node
// flag), -1.1 +- 4.0; extensions while ply < 1.5 or < 3 times the
// iteration's depth instead of 2, -8.9 +- 5.2 and -10.1 +- 5.1 (stopped
// after about 140 games); a looser move count (20 sqrt(d) - 12),
// -12.9 +- 5.1 (likewise). At 1 000 000 against 400 000 (the ratio of
// the two engines' nodes at 1 s a move, where this build scores 41.2%;
// 80 games, the first 40 openings with both colours), all within noise
// but the narrower futility margin, which is worse: the table's value as a better static estimate for pruning
// (Rapfi's), -3.1 +- 6.4; one ply less futility margin while the static
// evaluation improves on two plies before, -1.9 +- 6.7; a null-move
// reduction of 3.67 + 0.135 d (Rapfi's shape), +0.6 +- 5.9; a futility
// margin of 150 a ply, -9.4 +- 5.6; reductions of Rapfi's strength
// (ln d * ln n, every late move that is not extended, a ply more where
// the evaluation does not improve), -0.6 +- 6.4; no extension of threes,
// -2.5 +- 6.5, or only when the side's move before was a three or a four,
// +0.0 +- 6.7; less pruning (late-move pruning to depth 5, futility to 3,
// razoring to 2), -3.1 +- 6.5. Twice the nodes (2 000 000 against
// 400 000) scores the same 41.2% (+0.0 +- 6.0), while twice Rapfi's
// (1 000 000 against 800 000) drops Ply to 23.1% (-18.1 +- 6.6): at this
// budget more search does not help Ply, so what loses these games lies
// elsewhere (the evaluation, or moves that no depth here finds).

/// Plies a late quiet move loses (before the principal variation's
/// bonus): growing with the depth left and with the move's place in the
/// ordering, as ln(depth) * ln(number) / 2.
fn lmr_reduction(depth: i32, index: usize) -> i32 {
    let d = f64::from(depth.max(1));
    let n = (index + 1) as f64;
    let base = f64::from(tune("LMRB", 5)) / 10.0;
    let divisor = f64::from(tune("LMRD", 20)) / 10.0;
    (base + d.ln() * n.ln() / divisor) as i32
}

/// Moves searched at a node `depth` plies from the horizon before
/// late-move pruning skips the quiet ones among the rest: 15·√depth − 12
/// (3, 9, 14, 18, 22, ... 33 at depth 9), as PentaZen counts. It beat the
/// earlier 4 + 2·depth² up to depth 3 by +38 ± 41 Elo (gomoku, 20k nodes
/// a move, SPRT [0, 20] accepted after 267 games).
fn lmp_moves(depth: i32) -> usize {
    let d = f64::from(depth);
    let tenths = f64::from(tune("LMPP", 150)) * d.sqrt()
        + f64::from(tune("LMPQ", 0)) * d * d
        + f64::from(tune("LMPR", -120));
    (tenths / 10.0).round().max(1.0) as usize
}

/// The aspiration window after `score` fell outside `(alpha, beta)`, or
/// `None` when it fell inside. The window widens by `delta` beyond the
/// score on the failed side only, and a fail low also brings the top
/// halfway down: the new score is rarely above the old window's middle.
/// It is not opened to both infinities after some fails either: a narrow
/// window spares the search proving exact values of lines it has no use
/// for (a full window made it prove every winning attack's exact length).
fn widened((alpha, beta): (i32, i32), score: i32, delta: i32) -> Option<(i32, i32)> {
    if score <= alpha {
        Some(((score - delta).max(-INFINITY), (alpha + beta) / 2))
    } else if score >= beta {
        Some((alpha, (score + delta).min(INFINITY)))
    } else {
        None
    }
}

/// How often (in nodes) the clock and the stop flag are looked at.
const CHECK_INTERVAL: u64 = 1024;
/// In a parallel search, nodes at least this deep are marked busy while
/// searched, and a move into a busy node is deferred (ABDADA).
const DEFER_DEPTH: i32 = 3;

/// The searcher for one game: its transposition table and move-ordering
/// memory persist from one [`Searcher::search`] to the next (call
/// [`Searcher::clear`] between unrelated games).
///
/// ```
/// use std::sync::{Arc, atomic::AtomicBool};
/// use ply::game::{Game, Settings, tictactoe::TicTacToe};
/// use ply::search::{SearchLimits, SearchParams, Searcher};
///
/// let params = SearchParams { null_move: false, ..SearchParams::default() };
/// let mut searcher = Searcher::<TicTacToe>::new(1, params).unwrap();
/// let position = TicTacToe::from_fen("xx1/oo1/3 x", &Settings::default()).unwrap();
/// let limits = SearchLimits { depth: Some(4), ..SearchLimits::default() };
/// let stop = Arc::new(AtomicBool::new(false));
/// let result = searcher.search(&position, &limits, stop, &mut |_| {});
/// assert_eq!(position.move_to_string(result.best.unwrap()), "c3");
/// ```
pub struct Searcher<G: Game> {
    /// The enhancement switches used by the next search.
    pub params: SearchParams,
    /// An opening book of exact values: a play search of a position whose
    /// every move it knows plays its best move at once.
    pub book: Option<Arc<Book>>,
    /// Counters of the last search (they never steer it).
    pub stats: SearchStats,
    tt: Arc<TranspositionTable<G::Move>>,
    /// This searcher's part in a parallel search (Lazy SMP).
    team: Team<G::Move>,
    /// The depth the current iteration searches to.
    iteration_depth: u32,
    /// The deepest iteration this search may complete (or take over).
    max_depth: u32,
    /// The solving mode and what its last solve left.
    exact: Exact<G>,
    ordering: Ordering<G::Move>,
    /// Per ply: the node's moves and what it found.
    stack: Stack<G::Move>,
    nodes: u64,
    /// `nodes` at the last look at the clock (threat searches add their
    /// nodes in bulk, so the count does not pass every multiple).
    checked_nodes: u64,
    seldepth: usize,
    /// Counts leaves cut short by the horizon or by a heuristic; a subtree
    /// during which it did not move was searched to the end of the game.
    horizon_hits: u64,
    /// Time, nodes and the stop flag of the current search.
    clock: Clock,
    aborted: bool,
    /// Moves the root's last search looked at.
    root_choices: usize,
    /// The score of the root's best move so far in the current iteration.
    root_score: i32,
    /// The root's defence against the opponent's threat-space win.
    defence: RootDefence<G::Move>,
    /// The root moves the current search leaves out (its limits'
    /// `excluded`).
    excluded_root: Vec<G::Move>,
    /// The table size asked for (`Hash`), in MB.
    hash_mb: usize,
    /// The last search's copy of its root, kept for the game's own tables.
    last_copy: Option<G>,
}

/// Per ply, the lists a node works with.
struct Stack<M> {
    /// The node's moves.
    /// Boxed, so that a node takes its own out of the stack and puts it
    /// back by moving a pointer, not the picker.
    pickers: Vec<Option<Box<MovePicker<M>>>>,
    /// The principal variation found below each ply.
    pv: Vec<Vec<M>>,
}

impl<M: Clone> Stack<M> {
    fn new() -> Self {
        Stack {
            pickers: (0..=MAX_PLY)
                .map(|_| Some(Box::new(MovePicker::default())))
                .collect(),
            pv: vec![Vec::new(); MAX_PLY + 1],
        }
    }
}

impl<G: Game> Searcher<G> {
    /// The iterative deepening of [`Self::search`] from `pos`, a copy of
    /// `root`.
    fn deepen(
        &mut self,
        root: &G,
        pos: &mut G,
        limits: &SearchLimits,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> SearchResult<G::Move> {
        // The last search's root defence is forgotten before the fallback
        // move is chosen: its moves left standing belong to that root, and
        // may be occupied cells here.
        self.defence = RootDefence::default();
        let mut result = SearchResult {
            best: self.fallback_move(pos),
            last: None,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if result.best.is_none() {
            return result;
        }
        if self.params.threat_space
            && self.excluded_root.is_empty()
            && !self.team.helper
            && let Some(proved) = self.root_threats(pos, report)
        {
            return proved;
        }
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        // Without iterative deepening a depth-limited search goes straight
        // to its depth; a timed one still has to deepen to have a move.
        let first_depth = if self.params.iterative_deepening || limits.depth.is_none() {
            1
        } else {
            max_depth
        };
        let mut previous = 0;
        let mut iteration_times: (Option<Duration>, Duration) = (None, Duration::ZERO);
        let root_key = root.hash();
        self.team.parallel = self.team.shared.parallel();
        // The threads publish the iterations they complete, and each takes
        // over deeper ones completed by another; they search the same root
        // moves only without exclusions.
        self.team.adopting = self.team.parallel && self.excluded_root.is_empty();
        self.max_depth = max_depth;
        let mut iteration_start = self.clock.elapsed();
        let mut depth = first_depth;
        let mut completed = 0;
        while depth <= max_depth {
            let adopted = if self.team.adopting {
                self.team
                    .shared
                    .deepest(root_key, depth + self.team.depth_offset, max_depth)
            } else {
                None
            };
            let (iteration, exhausted) = match adopted {
                Some(done) => {
                    // A helper stays `depth_offset` plies beyond it.
                    depth = done.depth;
                    (self.adopt(done.clone()), done.last)
                }
                None => {
                    self.seldepth = 0;
                    let hits_before = self.horizon_hits;
                    // A helper's offset stops at the depth limit.
                    let searched = (depth + self.team.depth_offset).min(max_depth);
                    self.iteration_depth = searched;
                    let score = self.aspiration(pos, searched as i32, previous);
                    if self.aborted {
                        if std::mem::take(&mut self.team.superseded) {
                            // Another thread completed this depth first:
                            // take its result at the top of the loop.
                            self.aborted = false;
                            if self
                                .team
                                .shared
                                .deepest(root_key, searched, max_depth)
                                .is_none()
                            {
                                self.team.adopting = false;
                            }
                            continue;
                        }
                        // A root move that this unfinished iteration
                        // searched to the end and found better than the
                        // others searched so far (the last best first among
                        // them) is the better choice.
                        if let Some(&mv) = self.stack.pv[0].first()
                            && result.best != Some(mv)
                            && !self.refuted_at_last(pos, mv)
                        {
                            let unfinished = Report {
                                depth,
                                seldepth: self.seldepth.max(depth as usize) as u32,
                                score: self.root_score,
                                nodes: self.total_nodes(),
                                elapsed: self.clock.elapsed(),
                                hashfull: self.tt.hashfull(),
                                pv: self.complete_pv(root, depth as usize),
                            };
                            report(&unfinished);
                            result.best = Some(mv);
                            result.last = Some(unfinished);
                        }
                        break;
                    }
                    let iteration = Report {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        score,
                        nodes: self.total_nodes(),
                        elapsed: self.clock.elapsed(),
                        hashfull: self.tt.hashfull(),
                        pv: self.complete_pv(root, depth as usize),
                    };
                    let exhausted = self.horizon_hits == hits_before;
                    if self.team.adopting {
                        let proven = Score::plies_to_end(score)
                            .is_some_and(|plies| plies <= searched as i32);
                        self.team.shared.publish(Completed {
                            root: root_key,
                            depth: searched,
                            seldepth: iteration.seldepth.max(searched),
                            score,
                            pv: iteration.pv.clone(),
                            last: exhausted || proven,
                        });
                    }
                    (iteration, exhausted)
                }
            };
            let score = iteration.score;
            let fell = depth > first_depth && score < previous - UNSTABLE_DROP;
            previous = score;
            report(&iteration);
            let changed = depth > first_depth && iteration.pv.first() != result.best.as_ref();
            if let Some(&mv) = iteration.pv.first() {
                result.best = Some(mv);
            }
            result.last = Some(iteration);
            completed = depth;
            if self.refuted_by_threats(pos, score, result.best) {
                if !self.out_of_time_or_stopped() {
                    // Its best move loses: this depth again.
                    iteration_start = self.clock.elapsed();
                    continue;
                }
                // No time to search again: the best-ordered move the scan
                // left standing (and nothing refuted since) rather than
                // one that loses.
                if let Some(mv) = self.defence.standing() {
                    result.best = Some(mv);
                }
            }
            let proven = Score::plies_to_end(score).is_some_and(|plies| plies <= depth as i32);
            // The clock may have started late (a ponder search on
            // `ponderhit`): the budget is read from the deadlines.
            let budget = self.clock.budget();
            // On a clock, a single legal reply needs no deeper look.
            let forced = self.root_choices == 1 && budget.hard.is_some();
            iteration_times = (
                Some(iteration_times.1),
                self.clock.elapsed() - iteration_start,
            );
            let progress = Progress {
                elapsed: self.clock.elapsed(),
                last: iteration_times.1,
                before: iteration_times.0.filter(|_| depth > first_depth),
                unstable: changed || fell,
            };
            if exhausted || proven || forced || !start_next(&budget, &progress) {
                break;
            }
            iteration_start = self.clock.elapsed();
            depth += 1;
        }
        // A helper may have completed a deeper iteration meanwhile (it
        // beats an unfinished one of the same depth).
        if self.team.adopting
            && !self.team.helper
            && let Some(done) = self.team.shared.deepest(root_key, completed + 1, max_depth)
        {
            let iteration = self.adopt(done);
            report(&iteration);
            result.best = iteration.pv.first().copied().or(result.best);
            result.last = Some(iteration);
        }
        self.team.adopting = false;
        result.nodes = self.total_nodes();
        result.elapsed = self.clock.elapsed();
        result
    }

    fn aspiration(&mut self, pos: &mut G, depth: i32, previous: i32) -> i32 {
        if !self.params.aspiration || depth < 4 || is_mate(previous) {
            return self.negamax(pos, depth, 0, -INFINITY, INFINITY, true);
        }
        let mut delta = ASPIRATION_WINDOW;
        let mut window = (previous - delta, previous + delta);
        loop {
            let score = self.negamax(pos, depth, 0, window.0, window.1, true);
            if self.aborted {
                return score;
            }
            match widened(window, score, delta) {
                Some(next) => window = next,
                None => return score,
            }
            delta *= 2;
        }
    }

    fn should_abort(&mut self) -> bool {
        if !self.aborted
            && (self.nodes >= self.clock.node_limit()
                || (self.nodes - self.checked_nodes >= CHECK_INTERVAL
                    && (self.out_of_time_or_stopped() || self.overtaken())))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether another thread has completed the iteration this one is in
    /// (it is then superseded).
    fn overtaken(&mut self) -> bool {
        let deepest = self.team.shared.deepest_depth();
        self.team.superseded =
            self.team.adopting && (self.iteration_depth..=self.max_depth).contains(&deepest);
        self.team.superseded
    }

    fn out_of_time_or_stopped(&mut self) -> bool {
        if self.team.helper {
            self.team
                .helper_nodes
                .fetch_add(self.nodes - self.checked_nodes, AtomicOrdering::Relaxed);
        }
        self.checked_nodes = self.nodes;
        self.clock.expired()
    }

    /// [`Self::negamax_node`], its entry and value noted when tracing.
    fn negamax(
        &mut self,
        pos: &mut G,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        if !self.stats.tracing() {
            return self.negamax_node(pos, depth, ply, alpha, beta, null_ok);
        }
        self.stats.enter(ply, depth, alpha, beta);
        let value = self.negamax_node(pos, depth, ply, alpha, beta, null_ok);
        self.stats.exit(value);
        value
    }

    fn negamax_node(
        &mut self,
        pos: &mut G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        null_ok: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.quiesce(pos, ply, alpha, beta);
        }
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            self.horizon_hits += 1;
            return pos.evaluate();
        }
        let hits_at_entry = self.horizon_hits;
        let pv_node = beta - alpha > 1;

        if self.params.mate_distance_pruning {
            // Nothing here can beat a win on our next move, nor be worse
            // than a loss right now.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = pos.hash();
        let mut tt_move = None;
        if self.params.transposition_table {
            self.stats.tt_probes += 1;
        }
        if self.params.transposition_table
            && let Some(hit) = self.tt.probe(key, ply)
        {
            self.stats.tt_hits += 1;
            tt_move = hit.mv;
            let usable = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            };
            if ply > 0 && hit.depth >= depth && usable {
                if hit.depth != EXHAUSTIVE {
                    self.horizon_hits += 1;
                }
                if let (Some(mv), Bound::Exact) = (hit.mv, hit.bound) {
                    self.stack.pv[ply].push(mv);
                }
                self.stats.table_cutoff(hit.score);
                return hit.score;
            }
        }

        // Internal iterative reduction: a node deep enough to matter that
        // the table knows no move for has no ordering to trust, and its
        // full-depth search would be spent mostly on bad first moves. It
        // is searched a ply shallower; the next iteration, with the move
        // this one stores, searches it at full depth.
        let mut depth = depth;
        if self.params.iir
            && tt_move.is_none()
            && ply > 0
            && depth >= tune("IIRD", IIR_MIN_DEPTH)
            && pos.unordered_reduction()
        {
            depth -= 1;
        }

        if self.params.threat_search
            && (ply != 0 || self.excluded_root.is_empty())
            && (ply == 0 || depth <= tune("TVCFD", TREE_THREAT_MAX_DEPTH))
            && let effort = if ply == 0 {
                self.root_threat_effort()
            } else {
                tune("TVCFE", G::THREAT_EFFORTS.tree as i32) as u64
            }
            && let Some((mv, plies)) = self.counted(pos, |pos| pos.forced_win(effort))
        {
            // A proof holds at any depth.
            let score = MATE - ply as i32 - plies as i32;
            self.stack.pv[ply].push(mv);
            if self.params.transposition_table {
                self.tt
                    .store(key, ply, Some(mv), score, EXHAUSTIVE, Bound::Exact);
            }
            return score;
        }

        if (self.params.futility || self.params.razoring)
            && !pv_node
            && ply > 0
            && !is_mate(beta)
            && let Some(margin) = pos.futility_margin(depth)
        {
            let eval = pos.evaluate();
            if self.params.futility
                && depth <= tune("FUTD", FUTILITY_MAX_DEPTH)
                && eval - margin >= beta
            {
                self.horizon_hits += 1;
                return eval;
            }
            if self.params.razoring
                && depth <= tune("RAZD", RAZOR_MAX_DEPTH)
                && eval + margin <= alpha
            {
                let value = self.quiesce(pos, ply, alpha, alpha + 1);
                if self.aborted {
                    return 0;
                }
                if value <= alpha {
                    return value;
                }
            }
        }

        if self.params.null_move
            && null_ok
            && !pv_node
            && depth >= 3
            && !is_mate(beta)
            && pos.null_move_allowed()
            && pos.evaluate() >= beta
        {
            let reduction = if depth >= 7 { 3 } else { 2 };
            if self.stats.tracing() {
                self.stats.next_move("null".to_string());
            }
            pos.make_null_move();
            let score = -self.negamax(pos, depth - 1 - reduction, ply + 1, -beta, -beta + 1, false);
            pos.unmake_null_move();
            if self.aborted {
                return 0;
            }
            if score >= beta {
                self.horizon_hits += 1;
                // A pass proves no mate; do not claim one.
                return if is_mate(score) { beta } else { score };
            }
        }

        let mut picker = self.stack.pickers[ply].take().unwrap_or_default();
        picker.begin(tt_move, ply);
        let restricted_root = ply == 0 && !self.excluded_root.is_empty();
        if restricted_root || (ply == 0 && !self.defence.only.is_empty()) {
            self.root_moves(pos, picker.list());
            picker.without_narrowed();
        } else if self.params.tree_defence
            && self.params.threat_search
            && depth >= DEFENCE_MIN_DEPTH
            && self.counted(pos, |pos| {
                pos.threat_defences(G::THREAT_EFFORTS.defence, picker.list())
            })
        {
            // Against the opponent's quick win after a pass, the moves
            // that may stop it come first, and the rest only if all of
            // them lose (so that no loss is claimed that one of those
            // avoids).
            picker.hold_back_the_rest(pos);
        } else {
            picker.generate(pos);
        }
        picker.score(pos, &self.ordering, &self.params);
        if ply == 0 {
            self.root_choices = picker.len();
        }
        if self.params.late_move_pruning && !pv_node && depth <= tune("LMPD", LMP_MAX_DEPTH) {
            picker.prune_quiet_after(lmp_moves(depth));
        }

        let original_alpha = alpha;
        let mut best = if picker.is_empty() { 0 } else { -INFINITY };
        let mut best_move = None;
        // In a parallel search, a move into a node another thread is
        // searching waits for the end of the list (the first move never
        // does), so that the threads split the work.
        let entered =
            self.team.parallel && depth >= DEFER_DEPTH && self.team.shared.enter(key, self.team.id);
        let deferring = self.team.parallel && depth > DEFER_DEPTH;
        while let Some(picked) = picker.next(pos, &self.ordering, &self.params, best) {
            let (mv, i) = (picked.mv, picked.index);
            // A late quiet move: reduced, or near the horizon not searched.
            let quiet = i > 0
                && picked.listed
                && (self.params.lmr || self.params.late_move_pruning)
                && pos.quiet_move(mv);
            let extension = i32::from(
                self.params.extensions
                    && (ply as u32) < 2 * self.iteration_depth
                    && pos.forcing_move(mv),
            );
            let new_depth = depth - 1 + extension;
            if self.stats.tracing() {
                self.stats.next_move(pos.move_to_string(mv));
            }
            self.prefetch_child(pos, mv);
            pos.make_move(mv);
            if deferring
                && i > 0
                && picked.listed
                && self.team.shared.busy_elsewhere(pos.hash(), self.team.id)
            {
                pos.unmake_move(mv);
                picker.defer(picked);
                continue;
            }
            let score = if i == 0 || !self.params.pvs {
                -self.negamax(pos, new_depth, ply + 1, -beta, -alpha, true)
            } else {
                let reduction = if quiet && self.params.lmr && depth >= LMR_MIN_DEPTH {
                    (lmr_reduction(depth, i) - i32::from(pv_node)).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut probe = -self.negamax(
                    pos,
                    new_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if reduction > 0 && probe > alpha && !self.aborted {
                    probe = -self.negamax(pos, new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(pos, new_depth, ply + 1, -beta, -alpha, true)
                } else {
                    probe
                }
            };
            pos.unmake_move(mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_score = score;
                    }
                    if score >= beta {
                        self.stats.cutoff(i);
                        self.ordering.record_cutoff(
                            pos,
                            &self.params,
                            ply,
                            depth,
                            mv,
                            picker.tried_before(picked),
                        );
                        break;
                    }
                }
            }
        }
        if entered {
            self.team.shared.leave(key, self.team.id);
        }
        self.horizon_hits += picker.skipped();
        self.stack.pickers[ply] = Some(picker);
        if self.aborted {
            return 0;
        }

        // A root searched without some moves has no true value to store.
        if self.params.transposition_table && !restricted_root {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let stored_depth = if self.horizon_hits == hits_at_entry {
                EXHAUSTIVE
            } else {
                depth
            };
            self.tt
                .store(key, ply, best_move, best, stored_depth, bound);
        }
        best
    }

    /// `search`, a threat search of the game's on `pos`, with the
    /// positions it visited counted as nodes.
    fn counted<R>(&mut self, pos: &mut G, search: impl FnOnce(&mut G) -> R) -> R {
        let found = search(pos);
        self.nodes += pos.take_threat_nodes();
        found
    }

    /// The start of every node: count it, and answer at once when the
    /// search is aborted (0) or the game is over (its score).
    fn enter(&mut self, pos: &G, ply: usize) -> Option<i32> {
        self.stack.pv[ply].clear();
        if self.should_abort() {
            return Some(0);
        }
        self.nodes += 1;
        self.stats.node(ply);
        self.seldepth = self.seldepth.max(ply);
        pos.outcome()
            .map(|outcome| score::terminal(outcome, pos.side_to_move(), ply))
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.stack.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Starts loading the table entry of the position after `mv`, so the
    /// child's probe finds it in the cache once the move is made.
    #[inline(always)]
    fn prefetch_child(&self, pos: &G, mv: G::Move) {
        if G::HASH_AFTER_IS_CHEAP && self.params.transposition_table {
            self.tt.prefetch(pos.hash_after(mv));
        }
    }

    /// Stand pat on the static evaluation, or try the game's tactical moves.
    fn quiesce(&mut self, pos: &mut G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        self.horizon_hits += 1;
        let stand_pat = pos.evaluate();
        if !self.params.quiescence || ply >= MAX_PLY || stand_pat >= beta {
            return stand_pat;
        }
        // A win the game's quick threat search proves with little work
        // beats any static value (only asked where it could change the
        // result).
        if self.params.threat_search
            && let effort = tune("LVCFE", G::THREAT_EFFORTS.leaf as i32) as u64
            && let Some((_, plies)) = self.counted(pos, |pos| pos.quick_win(effort))
        {
            return MATE - ply as i32 - plies as i32;
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;

        let mut picker = self.stack.pickers[ply].take().unwrap_or_default();
        picker.tactical(pos, &self.params);
        while let Some(picked) = picker.next(pos, &self.ordering, &self.params, best) {
            let mv = picked.mv;
            pos.make_move(mv);
            let score = -self.quiesce(pos, ply + 1, -beta, -alpha);
            pos.unmake_move(mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.stack.pickers[ply] = Some(picker);
        if self.aborted { 0 } else { best }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_aspiration_window_widens_on_the_failed_side_and_a_fail_low_lowers_the_top() {
        // Inside: done.
        assert_eq!(widened((70, 130), 100, 30), None);
        // A fail low takes the bottom below the score and the top to the
        // old window's middle; a fail high only raises the top.
        assert_eq!(widened((70, 130), 40, 30), Some((10, 100)));
        assert_eq!(widened((70, 130), 130, 30), Some((70, 160)));
        // Failing low again and again with a doubling delta, as
        // `aspiration` does: the top comes down toward the bottom but
        // stays above it, and the window is never a full one.
        let (mut window, mut delta) = ((70, 130), 30);
        for score in [40, -100, -400, -1_000] {
            window = widened(window, score, delta).unwrap();
            assert!(window.0 < score && score < window.1, "{score} {window:?}");
            delta *= 2;
        }
        assert_eq!(window, (-1_240, -286));
        // Scores far out on either side in turn are taken in.
        let mut window = (70, 130);
        for score in [-20_000, 20_000] {
            window = widened(window, score, 30).unwrap();
        }
        assert_eq!(widened(window, 20_000, 30), None);
        assert_eq!(widened(window, -20_000, 30), None);
    }
}
