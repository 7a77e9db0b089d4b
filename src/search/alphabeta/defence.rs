//! The root's threat-space work, around the iterative deepening of
//! [`Searcher`]: a win the game's wider threat search proves for the side
//! to move before the first iteration, and after each iteration the
//! defence against the opponent's (the best move tested for a threat win
//! of the opponent's after it; after a first refutation, every root
//! move). Its efforts are sized by what is left of the clock.

use super::{EXHAUSTIVE, Report, SearchResult, Searcher};
use crate::game::{Game, ThreatVerdict};
use crate::search::score::{MATE, is_mate};
use crate::search::tt::Bound;

/// The root scan of the defence gives each move this share of the root's
/// threat-search effort, and takes at most this share of the time left
/// (in self-play at 200 ms a move: a first form with a quarter of the
/// effort and half of the time, which also kept only the proved moves when
/// one was quiet, scored -25 +- 49 Elo in 180 games against no scan; this
/// one +61 =8 -51 in 120).
const SCAN_SHARE: u64 = 8;
const SCAN_TIME_SHARE: u32 = 4;

/// What the defence knows of the root in the current search.
pub(super) struct RootDefence<M> {
    /// When not empty, the only root moves searched: those the scan left
    /// standing, best ordered first.
    pub only: Vec<M>,
    /// Root moves tested in this search.
    pub verified: Vec<M>,
    /// Those of them the opponent's threat win refutes.
    pub refuted: Vec<M>,
    /// Whether this search has tested every root move (see
    /// [`Searcher::scan_root`]).
    pub scanned: bool,
}

impl<M> Default for RootDefence<M> {
    fn default() -> Self {
        RootDefence {
            only: Vec::new(),
            verified: Vec::new(),
            refuted: Vec::new(),
            scanned: false,
        }
    }
}

impl<M: Copy + PartialEq> RootDefence<M> {
    /// The best-ordered move the scan left standing and nothing refuted
    /// since.
    pub fn standing(&self) -> Option<M> {
        self.only
            .iter()
            .find(|mv| !self.refuted.contains(mv))
            .copied()
    }
}

impl<G: Game> Searcher<G> {
    /// The threat-space work before the first iteration: a win the game's
    /// wider threat search proves for the side to move is the search's
    /// result (reported as a mate score). The defence comes after each
    /// iteration ([`Self::refuted_by_threats`]).
    pub(super) fn root_threats(
        &mut self,
        pos: &mut G,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let effort = self.root_space_effort();
        if let Some((mv, plies)) = self.counted(pos, |pos| pos.threat_win(effort)) {
            let iteration = Report {
                depth: plies,
                seldepth: plies,
                score: MATE - plies as i32,
                nodes: self.total_nodes(),
                elapsed: self.clock.elapsed(),
                hashfull: self.tt.hashfull(),
                pv: vec![mv],
            };
            report(&iteration);
            return Some(SearchResult {
                best: Some(mv),
                last: Some(iteration),
                nodes: self.total_nodes(),
                elapsed: self.clock.elapsed(),
            });
        }
        None
    }

    /// The defence against the opponent's threat-space win: the best
    /// move of a completed iteration (not yet tested in this search) is
    /// tested for a win of the opponent's after it. A refuted move goes to
    /// the table as the loss it is, so that searching the same depth again
    /// finds another move: true then. The first refutation of a search
    /// has every other root move tested too ([`Self::scan_root`]).
    pub(super) fn refuted_by_threats(
        &mut self,
        pos: &mut G,
        score: i32,
        best: Option<G::Move>,
    ) -> bool {
        if !self.defending() || is_mate(score) {
            return false;
        }
        let Some(mv) = best.filter(|mv| !self.defence.verified.contains(mv)) else {
            return false;
        };
        self.defence.verified.push(mv);
        let effort = self.root_space_effort();
        if !self.refutes(pos, mv, effort) {
            return false;
        }
        if !self.defence.scanned {
            self.scan_root(pos);
        }
        true
    }

    /// Whether the threat-space defence works in this search.
    fn defending(&self) -> bool {
        self.params.threat_defence
            && self.params.threat_space
            && self.params.threat_search
            && !self.team.helper
            && self.excluded_root.is_empty()
    }

    /// What the opponent's threat search, with `effort`, finds after the
    /// root move `mv`; a move it refutes goes to the table as the loss it
    /// is and to `refuted`.
    fn verdict_after(&mut self, pos: &mut G, mv: G::Move, effort: u64) -> ThreatVerdict<G::Move> {
        pos.make_move(mv);
        let verdict = if pos.outcome().is_none() {
            self.counted(pos, |pos| pos.threat_verdict(effort))
        } else {
            ThreatVerdict::NoWin
        };
        let key = pos.hash();
        pos.unmake_move(mv);
        if let ThreatVerdict::Win(reply, plies) = verdict {
            self.defence.refuted.push(mv);
            if self.params.transposition_table {
                let score = MATE - 1 - plies as i32;
                self.tt
                    .store(key, 1, Some(reply), score, EXHAUSTIVE, Bound::Exact);
            }
        }
        verdict
    }

    /// Whether the opponent's threat search refutes `mv` (see
    /// [`Self::verdict_after`]).
    fn refutes(&mut self, pos: &mut G, mv: G::Move, effort: u64) -> bool {
        matches!(self.verdict_after(pos, mv, effort), ThreatVerdict::Win(..))
    }

    /// Once a best move has been refuted, the opponent has a threat
    /// sequence under way and most moves lose to it: testing one best
    /// move per iteration rarely reaches the few that hold (in the losses
    /// to PentaZen, 2 of 61 and 2 of 106). So every root move is tested,
    /// best ordered first, with an eighth of the root's effort, for at
    /// most a quarter of the time (or the nodes) left (those left
    /// untested count as not refuted). The search goes on among the moves
    /// not refuted (`root_only`: those proved to leave no threat win
    /// first, then the rest), or among all when every one is refuted.
    fn scan_root(&mut self, pos: &mut G) {
        self.defence.scanned = true;
        let mut moves = Vec::new();
        self.root_moves(pos, &mut moves);
        let mut scores = Vec::new();
        let tt_move = self.tt.probe(pos.hash(), 0).and_then(|hit| hit.mv);
        self.ordering
            .score_moves(pos, &self.params, &moves, tt_move, 0, &mut scores);
        let mut order: Vec<(i64, G::Move)> = scores.iter().copied().zip(moves).collect();
        order.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        // A node limit is shared the same way.
        let portion = self.clock.share_of_left(self.nodes, SCAN_TIME_SHARE);
        let (mut safe, mut open) = (Vec::new(), Vec::new());
        for (_, mv) in order {
            if self.defence.refuted.contains(&mv) {
                continue;
            }
            let late = portion.run_out_at(self.nodes);
            if late || self.defence.verified.contains(&mv) {
                open.push(mv);
                continue;
            }
            let effort = (self.root_space_effort() / SCAN_SHARE).max(G::THREAT_EFFORTS.space_min);
            match self.verdict_after(pos, mv, effort) {
                ThreatVerdict::Win(..) => {}
                ThreatVerdict::NoWin => {
                    self.defence.verified.push(mv);
                    safe.push(mv);
                }
                ThreatVerdict::Unknown => open.push(mv),
            }
        }
        safe.extend(open);
        self.defence.only = safe;
    }

    /// Whether `mv`, the best move of an unfinished iteration, is one the
    /// defence refuted or refutes now with a small effort (it replaces a
    /// tested move only if not).
    pub(super) fn refuted_at_last(&mut self, pos: &mut G, mv: G::Move) -> bool {
        if !self.defending() {
            return false;
        }
        if self.defence.refuted.contains(&mv) {
            return true;
        }
        !self.defence.verified.contains(&mv) && self.refutes(pos, mv, G::THREAT_EFFORTS.last_check)
    }

    /// The root's wider threat-search effort, from the clock or the node
    /// budget when there is one (the game's threat search looks at
    /// neither).
    fn root_space_effort(&self) -> u64 {
        let efforts = G::THREAT_EFFORTS;
        match self.budget_left_ms() {
            Some(left) => (left * efforts.space_per_ms).clamp(efforts.space_min, efforts.space),
            None => efforts.space,
        }
    }

    /// Milliseconds left of this search's budget: of the clock, and of a
    /// node limit counted as time at the game's speed
    /// ([`crate::game::ThreatEfforts::nodes_per_ms`]); the lesser when
    /// both are set, `None` when neither is. The root's threat work is
    /// sized by it, so that it takes the same share of a `go nodes` search
    /// as of a timed one (without the node count, a defence's scan of
    /// every root move could spend a 300 000-node budget before the first
    /// iteration ended).
    fn budget_left_ms(&self) -> Option<u64> {
        self.clock
            .left_ms(self.nodes, G::THREAT_EFFORTS.nodes_per_ms)
    }

    /// The root's threat-search effort, less when the clock or the node
    /// budget is short: the game's threat search looks at neither.
    pub(super) fn root_threat_effort(&self) -> u64 {
        let efforts = G::THREAT_EFFORTS;
        match self.budget_left_ms() {
            Some(left) => (left * efforts.root_per_ms).clamp(efforts.tree, efforts.root),
            None => efforts.root,
        }
    }
}
