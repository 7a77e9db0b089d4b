//! The root: a search begins here, with the solving mode, the book and
//! the exact solver tried first (see `exact`), then iterative deepening;
//! the root's move list; the move played when not even depth 1 completes;
//! and the principal variation as reported.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::{Report, SearchLimits, SearchResult, Searcher};
use crate::game::Game;
use crate::search::clock::Clock;
use crate::search::ordering::pick_next;
use crate::search::smp::Completed;

impl<G: Game> Searcher<G> {
    /// Searches `root` within `limits` until done, out of budget, or
    /// `stop` is raised. `report` hears of every completed iteration.
    pub fn search(
        &mut self,
        root: &G,
        limits: &SearchLimits,
        stop: Arc<AtomicBool>,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> SearchResult<G::Move> {
        self.clock = Clock::start(limits.budget, limits.nodes, limits.late_clock.clone(), stop);
        self.nodes = 0;
        self.checked_nodes = 0;
        self.stats.reset();
        self.aborted = false;
        self.root_choices = 0;
        self.excluded_root.clear();
        self.excluded_root.extend(
            limits
                .excluded
                .iter()
                .filter_map(|name| root.parse_move(name).ok()),
        );
        if let Some(proof) = limits.solve {
            let whole = self
                .clock
                .part(self.clock.hard_deadline(), self.clock.node_limit());
            return self
                .solve(root, proof, None, whole, report)
                .unwrap_or_else(|cut_short| cut_short);
        }
        let solver_nodes = match self.exact_first(root, limits, report) {
            Ok(done) => return done,
            Err(nodes) => nodes,
        };
        // Counted from the solver's nodes, so that info lines count all.
        self.nodes = solver_nodes;
        self.checked_nodes = solver_nodes;
        if !self.team.helper {
            self.tt.new_search();
        }

        // The game's own tables (its threat searches' results) carry over
        // from the last search, as the transposition table does.
        let mut pos = root.clone();
        // Counted from here: work done on the root before is not ours.
        pos.take_threat_nodes();
        if let Some(mut last) = self.last_copy.take() {
            pos.take_caches(&mut last);
        }
        let result = self.deepen(root, &mut pos, limits, report);
        self.last_copy = Some(pos);
        result
    }

    /// The move to play if not even depth 1 completes: the best-ordered one.
    pub(super) fn fallback_move(&mut self, pos: &G) -> Option<G::Move> {
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

    /// The root's moves less the excluded ones (and, after the threat
    /// defence's scan, only those it left standing). A game's search moves may be
    /// pruned to a single forced move; once that is excluded, all legal
    /// moves are candidates again.
    pub(super) fn root_moves(&self, pos: &G, moves: &mut Vec<G::Move>) {
        pos.search_moves(moves);
        if !self.defence.only.is_empty() {
            moves.retain(|mv| self.defence.only.contains(mv));
            if moves.is_empty() {
                moves.extend_from_slice(&self.defence.only);
            }
        }
        moves.retain(|mv| !self.excluded_root.contains(mv));
        if moves.is_empty() {
            pos.generate_moves(moves);
            moves.retain(|mv| !self.excluded_root.contains(mv));
        }
    }

    /// The principal variation of the last iteration, continued from the
    /// table where a table hit cut it short: table moves are followed while
    /// they are legal, up to `length` moves, until the game ends or a
    /// position repeats. Reading the table changes nothing in the search.
    pub(super) fn complete_pv(&self, root: &G, length: usize) -> Vec<G::Move> {
        let mut pv = self.stack.pv[0].clone();
        if pv.is_empty() || !self.params.transposition_table {
            return pv;
        }
        let mut pos = root.clone();
        let mut seen = vec![pos.hash()];
        for &mv in &pv {
            pos.make_move(mv);
            seen.push(pos.hash());
        }
        let mut legal = Vec::new();
        while pv.len() < length && pos.outcome().is_none() {
            let Some(mv) = self.tt.probe(pos.hash(), pv.len()).and_then(|hit| hit.mv) else {
                break;
            };
            legal.clear();
            pos.generate_moves(&mut legal);
            if !legal.contains(&mv) {
                break;
            }
            pos.make_move(mv);
            if seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            pv.push(mv);
        }
        pv
    }

    /// Another thread's completed iteration, reported as this one's own.
    pub(super) fn adopt(&self, done: Completed<G::Move>) -> Report<G::Move> {
        Report {
            depth: done.depth,
            seldepth: done.seldepth,
            score: done.score,
            nodes: self.total_nodes(),
            elapsed: self.clock.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: done.pv,
        }
    }
}
