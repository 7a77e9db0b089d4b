//! **VCT** (victory by continuous threats): the search's generic
//! depth-first proof-number search ([`crate::search::pns`]) over a tree
//! this file describes from the incremental patterns. The attacker (OR nodes) plays only threats: fours
//! and moves that make an open (or broken) three, after first asking the
//! VCF search whether fours alone win. The defender (AND nodes) answers
//! with every cell that may defend: against a four its five-points,
//! against a three (a threat of an open four or a four-three next move)
//! the cells on the threatening lines and its own fours; a defender with a
//! win by fours of its own refutes the threat. Renju: black's forbidden
//! points are never black's moves, so a win that needs one does not count.
//!
//! Proofs are sound as long as the defender's replies cover every real
//! defence, which `defences` over-approximates; a failure to prove says
//! nothing (the attacker's moves are only threats, and the work is
//! bounded). The proof-number table stays with the position and is handed
//! on from one search's copy to the next, as are the roots left open.
//!
//! The search deepens: first no path longer than `FIRST_PATH` plies, then
//! twice that, up to `MAX_PATH`. Unbounded, proof numbers chase long
//! chains of threes whose course hangs on the order of equal moves (the
//! same renju position took 84 nodes or 855 000 with two orders); short
//! wins first make it steady and the wins short. A disproof counts only
//! under a limit at least as long as the one it was found under.

use super::patterns::Threat;
use super::rules::EMPTY;
use super::threats::Vcf;
use super::{Gomoku, color_of};
use crate::game::{Game, Outcome};
use crate::search::clock::Clock;
use crate::search::pns::{Proof, ProofSearch, ProofTree, Status};

/// VCF work tried at each new attacker node (and defender node, for the
/// defender's own fours).
const VCF_PROBE: u64 = 60;
/// Deeper paths count as not proved.
const MAX_PATH: usize = 48;
/// The path limit of the first pass.
const FIRST_PATH: usize = 6;
/// The proof-number table, in MB (kept with the position, and handed on
/// from one search's copy to the next).
const TABLE_MB: usize = 2;
/// Roots left open, remembered with the effort that left them so.
const OPEN_ROOTS: usize = 1 << 12;

/// What one VCT search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vct {
    /// A win: the first move and the plies to the five.
    Win(u16, u32),
    /// No win by continuous threats (as far as threats reach).
    None,
    /// The node budget ran out first.
    Unknown,
}

/// The proof-number search and its table, and the roots it left open,
/// kept between searches of one position's copy (a copy starts empty, and
/// the searcher hands them on to its next search's copy).
#[derive(Default)]
pub struct VctCache {
    search: Option<ProofSearch>,
    /// (key, effort) of roots a search of that effort left open.
    open: Vec<(u64, u64)>,
    /// Positions the last search looked at (for reports and tests).
    pub(super) last_nodes: u64,
}

impl Clone for VctCache {
    fn clone(&self) -> Self {
        VctCache::default()
    }
}

impl VctCache {
    fn open_slot(key: u64) -> usize {
        (key >> 52) as usize % OPEN_ROOTS
    }

    /// Whether a search of `effort` at the root `key` was already left
    /// open by one of as much.
    fn known_open(&self, key: u64, effort: u64) -> bool {
        self.open
            .get(Self::open_slot(key))
            .is_some_and(|&(k, e)| k == key && e >= effort)
    }

    fn remember_open(&mut self, key: u64, effort: u64) {
        if self.open.is_empty() {
            self.open = vec![(0, 0); OPEN_ROOTS];
        }
        self.open[Self::open_slot(key)] = (key, effort);
    }
}

/// The VCT of one attacker as a proof tree for [`ProofSearch`]: the
/// attacker's threats at OR nodes, the defender's defences at AND nodes.
struct VctTree<'a> {
    pos: &'a mut Gomoku,
    attacker: u8,
    /// Whether the attacker threatened anything at the last AND node
    /// asked for its moves.
    threatened: bool,
}

impl ProofTree for VctTree<'_> {
    type Move = u16;

    fn key(&self) -> u64 {
        self.pos.vct_key(self.attacker)
    }

    fn status(&mut self, or: bool) -> Status {
        self.pos.vct_status(or, self.attacker)
    }

    fn moves(&mut self, or: bool, moves: &mut Vec<u16>) {
        self.threatened = self.pos.vct_children(or, self.attacker, moves);
    }

    fn unstoppable(&mut self) -> Option<u16> {
        self.threatened
            .then(|| self.pos.unstoppable_plies(self.attacker))
    }

    fn play(&mut self, mv: u16) {
        self.pos.make_move(mv);
    }

    fn undo(&mut self, mv: u16) {
        self.pos.unmake_move(mv);
    }
}

impl Gomoku {
    /// The table key of the current position with `attacker` attacking.
    fn vct_key(&self, attacker: u8) -> u64 {
        self.hash ^ u64::from(attacker).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn threat_cells(&self, color: u8, from: Threat) -> u16 {
        let t = &self.threat_count[(color - 1) as usize];
        (from as usize..Threat::Five as usize).map(|k| t[k]).sum()
    }

    /// A win by continuous threats (fours and threes) for the side to
    /// move, searched with at most `max_nodes` nodes.
    pub fn vct(&mut self, max_nodes: u64) -> Vct {
        if self.outcome().is_some() {
            return Vct::None;
        }
        let attacker = color_of(self.side);
        if let Vct::Win(mv, plies) = self.five_now(attacker) {
            return Vct::Win(mv, plies);
        }
        let blocks = self.fives(3 - attacker).1;
        if blocks >= 2 {
            return Vct::None;
        }
        match self.vcf(VCF_PROBE * 8) {
            Vcf::Win(mv, plies) => return Vct::Win(mv, plies),
            _ if blocks == 0 && self.threat_cells(attacker, Threat::Three) == 0 => {
                return Vct::None;
            }
            _ => {}
        }
        let root_key = self.vct_key(attacker);
        if self.vct_cache.known_open(root_key, max_nodes) {
            self.vct_cache.last_nodes = 0;
            return Vct::Unknown;
        }
        let mut search = self
            .vct_cache
            .search
            .take()
            .unwrap_or_else(|| ProofSearch::new(TABLE_MB, FIRST_PATH));
        let mut tree = VctTree {
            pos: self,
            attacker,
            threatened: false,
        };
        let mut limit = FIRST_PATH;
        let mut looked = 0;
        let found = loop {
            search.set_max_depth(limit);
            search.set_limits(Clock::default(), max_nodes.saturating_sub(looked));
            let found = search.prove(&mut tree);
            looked += search.nodes();
            if found != Proof::NoWin || limit == MAX_PATH || looked >= max_nodes {
                break found;
            }
            limit = (limit * 2).min(MAX_PATH);
        };
        let result = match found {
            Proof::Win(mv, plies) => Vct::Win(mv, plies),
            Proof::NoWin if limit == MAX_PATH => Vct::None,
            _ => {
                self.vct_cache.remember_open(root_key, max_nodes);
                Vct::Unknown
            }
        };
        self.vct_cache.last_nodes = looked;
        self.vct_cache.search = Some(search);
        result
    }

    /// Nodes made by the last VCT search past its quick answers (the
    /// proof-number passes), for benchmarks.
    pub fn vct_nodes(&self) -> u64 {
        self.vct_cache.last_nodes
    }

    pub(super) fn five_now(&self, color: u8) -> Vct {
        let mut cells = Vec::new();
        self.winning_cells(color, &mut cells);
        cells.first().map_or(Vct::Unknown, |&mv| Vct::Win(mv, 1))
    }

    /// Plies to the five when the defender (to move) has no defence at
    /// all against the attacker's threat.
    fn unstoppable_plies(&self, attacker: u8) -> u16 {
        let t = &self.threat_count[(attacker - 1) as usize];
        if t[Threat::Five as usize] > 0 {
            2
        } else if t[Threat::OpenFour as usize] > 0 {
            4
        } else {
            6
        }
    }

    /// What is known of a node at once: `or` when the attacker is to move.
    fn vct_status(&mut self, or: bool, attacker: u8) -> Status {
        let defender = 3 - attacker;
        match self.outcome() {
            Some(Outcome::Win(p)) if color_of(p) == attacker => return Status::Proved(0),
            Some(_) => return Status::Disproved,
            None => {}
        }
        if or {
            if self.fives(attacker).1 > 0 {
                return Status::Proved(1);
            }
            let blocks = self.fives(defender).1;
            if blocks >= 2 {
                return Status::Disproved;
            }
            if let Vcf::Win(_, plies) = self.vcf(VCF_PROBE) {
                return Status::Proved(plies as u16);
            }
            if blocks == 0 && self.threat_cells(attacker, Threat::Three) == 0 {
                return Status::Disproved;
            }
            Status::Open
        } else {
            if self.fives(defender).1 > 0 {
                return Status::Disproved;
            }
            if self.fives(attacker).1 > 0 {
                return Status::Open;
            }
            if self.threat_cells(attacker, Threat::FourThree) == 0 {
                // The attacker's last move threatens nothing forcing.
                return Status::Disproved;
            }
            if let Vcf::Win(..) = self.vcf(VCF_PROBE) {
                return Status::Disproved;
            }
            Status::Open
        }
    }

    /// The moves of a node: the attacker's threats, or the defender's
    /// defences. False when the attacker threatens nothing the defender
    /// must answer (a defender node that is then not proved).
    fn vct_children(&mut self, or: bool, attacker: u8, moves: &mut Vec<u16>) -> bool {
        let defender = 3 - attacker;
        if or {
            let (theirs, n) = self.fives(defender);
            if n == 1 {
                if self.legal_for(theirs[0] as usize, attacker) {
                    moves.push(theirs[0]);
                }
                return true;
            }
            let a = (attacker - 1) as usize;
            for threat in [
                Threat::OpenFour,
                Threat::FourThree,
                Threat::DoubleThree,
                Threat::Four,
                Threat::Three,
            ] {
                if self.threat_count[a][threat as usize] == 0 {
                    continue;
                }
                let start = moves.len();
                moves.extend(
                    self.cells_of(attacker, threat)
                        .filter(|&i| self.legal_for(i, attacker))
                        .map(|i| i as u16),
                );
                moves[start..].sort_by_key(|&i| std::cmp::Reverse(self.info[a][i as usize].weight));
            }
            return true;
        }
        let (points, n) = self.fives(attacker);
        if n > 0 {
            self.five_escapes(&points[..n], defender, moves);
            return true;
        }
        self.defences(defender, moves)
    }

    /// The defender's moves after which the attacker has no five: the
    /// five-points it may take, and in caro the cells that block a five's
    /// far end.
    fn five_escapes(&mut self, points: &[u16], defender: u8, out: &mut Vec<u16>) {
        let attacker = 3 - defender;
        let mut candidates: Vec<u16> = points.to_vec();
        if self.rule.is_caro() {
            for &p in points {
                for dir in self.dirs {
                    for k in (-5..=5isize).filter(|&k| k != 0) {
                        let j = (p as isize + k * dir) as usize;
                        if self.cells[j] == EMPTY && !candidates.contains(&(j as u16)) {
                            candidates.push(j as u16);
                        }
                    }
                }
            }
        }
        for j in candidates {
            if !self.legal_for(j as usize, defender) {
                continue;
            }
            self.make_move(j);
            let escaped = self.fives(attacker).1 == 0;
            self.unmake_move(j);
            if escaped {
                out.push(j);
            }
        }
    }
}
