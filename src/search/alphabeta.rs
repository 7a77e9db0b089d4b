//! The game-agnostic searcher: iterative deepening over a negamax
//! alpha-beta (fail-soft) with principal-variation search, aspiration
//! windows, a transposition table, killer/history/game move ordering,
//! null-move pruning where the game allows it, mate-distance pruning and a
//! quiescence search over the game's tactical moves. Every enhancement is a
//! switch in [`SearchParams`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use super::ordering::{Ordering, pick_next};
use super::params::SearchParams;
use super::score::{self, INFINITY, MATE, MAX_PLY, Score, is_mate};
use super::stats::SearchStats;
use super::time::Budget;
use super::tt::{Bound, TranspositionTable};
use crate::game::Game;

/// Depth stored for a result whose whole subtree ended in finished games:
/// it holds at any depth.
const EXHAUSTIVE: i32 = 255;
/// First aspiration half-window, in evaluation units.
const ASPIRATION_WINDOW: i32 = 30;
/// How often (in nodes) the clock and the stop flag are looked at.
const CHECK_INTERVAL: u64 = 1024;

#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub budget: Budget,
}

/// One completed iteration, as reported while searching.
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best: Option<M>,
    /// The last completed iteration, if any completed.
    pub last: Option<Report<M>>,
    pub nodes: u64,
    pub elapsed: Duration,
}

pub struct Searcher<G: Game> {
    pub params: SearchParams,
    /// Root moves to leave out (for n-best analysis).
    pub excluded_root: Vec<G::Move>,
    /// Counters of the last search (they never steer it).
    pub stats: SearchStats,
    tt: TranspositionTable<G::Move>,
    ordering: Ordering<G::Move>,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i64>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: usize,
    /// Counts leaves cut short by the horizon or by a heuristic; a subtree
    /// during which it did not move was searched to the end of the game.
    horizon_hits: u64,
    node_limit: u64,
    start: Instant,
    soft_deadline: Option<Instant>,
    hard_deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
    aborted: bool,
}

impl<G: Game> Searcher<G> {
    pub fn new(hash_mb: usize, params: SearchParams) -> Result<Self, String> {
        Ok(Searcher {
            params,
            excluded_root: Vec::new(),
            stats: SearchStats::default(),
            tt: TranspositionTable::new(hash_mb)?,
            ordering: Ordering::new(G::HISTORY_SLOTS),
            moves: vec![Vec::new(); MAX_PLY + 1],
            scores: vec![Vec::new(); MAX_PLY + 1],
            pv: vec![Vec::new(); MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            horizon_hits: 0,
            node_limit: u64::MAX,
            start: Instant::now(),
            soft_deadline: None,
            hard_deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            aborted: false,
        })
    }

    /// Replaces the table with one of `hash_mb` (a no-op at the same
    /// size). The old table is freed first, so that memory never holds
    /// both; if the new one cannot be had, one of the old size returns.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), String> {
        let old = self.tt.megabytes();
        if old == hash_mb.max(1) {
            return Ok(());
        }
        self.tt = TranspositionTable::new(1)?;
        match TranspositionTable::new(hash_mb) {
            Ok(table) => {
                self.tt = table;
                Ok(())
            }
            Err(e) => {
                self.tt = TranspositionTable::new(old)?;
                Err(e)
            }
        }
    }

    /// Forgets everything learned: table, killers, history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ordering.clear();
    }

    /// Searches `root` within `limits` until done, out of budget, or
    /// `stop` is raised. `report` hears of every completed iteration.
    pub fn search(
        &mut self,
        root: &G,
        limits: &SearchLimits,
        stop: Arc<AtomicBool>,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> SearchResult<G::Move> {
        self.start = Instant::now();
        self.soft_deadline = limits.budget.soft.map(|d| self.start + d);
        self.hard_deadline = limits.budget.hard.map(|d| self.start + d);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.stop = stop;
        self.nodes = 0;
        self.stats.reset();
        self.aborted = false;
        self.tt.new_search();

        let mut pos = root.clone();
        let mut result = SearchResult {
            best: self.fallback_move(&pos),
            last: None,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if result.best.is_none() {
            return result;
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
        for depth in first_depth..=max_depth {
            self.seldepth = 0;
            let hits_before = self.horizon_hits;
            let score = self.aspiration(&mut pos, depth as i32, previous);
            if self.aborted {
                break;
            }
            previous = score;
            let iteration = Report {
                depth,
                seldepth: self.seldepth.max(depth as usize) as u32,
                score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: self.pv[0].clone(),
            };
            report(&iteration);
            if let Some(&mv) = iteration.pv.first() {
                result.best = Some(mv);
            }
            result.last = Some(iteration);
            let exhausted = self.horizon_hits == hits_before;
            let proven = Score::plies_to_end(score).is_some_and(|plies| plies <= depth as i32);
            let out_of_time = self.soft_deadline.is_some_and(|t| Instant::now() >= t);
            if exhausted || proven || out_of_time {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        result
    }

    /// The move to play if not even depth 1 completes: the best-ordered one.
    fn fallback_move(&mut self, pos: &G) -> Option<G::Move> {
        let mut moves = Vec::new();
        self.root_moves(pos, &mut moves);
        let tt_move = self.tt.probe(pos.hash(), 0).and_then(|hit| hit.mv);
        let mut scores = Vec::new();
        self.ordering
            .score_moves(pos, &self.params, &moves, tt_move, 0, &mut scores);
        if moves.is_empty() {
            return None;
        }
        pick_next(&mut moves, &mut scores, 0);
        Some(moves[0])
    }

    /// The root's moves less the excluded ones. A game's search moves may
    /// be pruned to a single forced move; once that is excluded, all legal
    /// moves are candidates again.
    fn root_moves(&self, pos: &G, moves: &mut Vec<G::Move>) {
        pos.search_moves(moves);
        moves.retain(|mv| !self.excluded_root.contains(mv));
        if moves.is_empty() {
            pos.generate_moves(moves);
            moves.retain(|mv| !self.excluded_root.contains(mv));
        }
    }

    fn aspiration(&mut self, pos: &mut G, depth: i32, previous: i32) -> i32 {
        if !self.params.aspiration || depth < 4 || is_mate(previous) {
            return self.negamax(pos, depth, 0, -INFINITY, INFINITY, true);
        }
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.negamax(pos, depth, 0, alpha, beta, true);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 16 * ASPIRATION_WINDOW {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn should_abort(&mut self) -> bool {
        if !self.aborted
            && (self.nodes >= self.node_limit
                || (self.nodes.is_multiple_of(CHECK_INTERVAL) && self.out_of_time_or_stopped()))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn out_of_time_or_stopped(&self) -> bool {
        self.stop.load(AtomicOrdering::Relaxed)
            || self.hard_deadline.is_some_and(|t| Instant::now() >= t)
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
                    self.pv[ply].push(mv);
                }
                self.stats.table_cutoff(hit.score);
                return hit.score;
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

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        let restricted_root = ply == 0 && !self.excluded_root.is_empty();
        if restricted_root {
            self.root_moves(pos, &mut moves);
        } else {
            pos.search_moves(&mut moves);
        }
        self.ordering
            .score_moves(pos, &self.params, &moves, tt_move, ply, &mut scores);

        let original_alpha = alpha;
        let mut best = if moves.is_empty() { 0 } else { -INFINITY };
        let mut best_move = None;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let mv = moves[i];
            if self.stats.tracing() {
                self.stats.next_move(pos.move_to_string(mv));
            }
            pos.make_move(mv);
            let score = if i == 0 || !self.params.pvs {
                -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, true)
            } else {
                let probe = -self.negamax(pos, depth - 1, ply + 1, -alpha - 1, -alpha, true);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, true)
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
                    if score >= beta {
                        self.stats.cutoff(i);
                        self.ordering
                            .record_cutoff(pos, &self.params, ply, depth, mv, &moves[..i]);
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
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

    /// The start of every node: count it, and answer at once when the
    /// search is aborted (0) or the game is over (its score).
    fn enter(&mut self, pos: &G, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
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
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
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
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        pos.tactical_moves(&mut moves);
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if self.params.move_scores {
                pos.move_score(mv) as i64
            } else {
                0
            }
        }));
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let mv = moves[i];
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
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted { 0 } else { best }
    }
}
