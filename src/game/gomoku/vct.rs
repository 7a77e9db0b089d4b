//! **VCT** (victory by continuous threats): a proof-number search over the
//! incremental patterns. The attacker (OR nodes) plays only threats: fours
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
//! bounded). Proved and disproved positions go to the search's own table.
//!
//! The search deepens: first no path longer than `FIRST_PATH` plies, then
//! twice that, up to `MAX_PATH`. Unbounded, proof numbers chase long
//! chains of threes whose course hangs on the order of equal moves (the
//! same renju position took 84 nodes or 855 000 with two orders); short
//! wins first make it steady and the wins short. A disproof counts only
//! under a limit at least as long as the one it was found under.

use super::patterns::Threat;
use super::rules::{EMPTY, Rule};
use super::threats::Vcf;
use super::{Gomoku, color_of};
use crate::game::{Game, Outcome};

/// Proof and disproof numbers saturate here.
const INF: u32 = 1 << 28;
/// VCF work tried at each new attacker node (and defender node, for the
/// defender's own fours).
const VCF_PROBE: u64 = 60;
/// Deeper paths count as not proved.
const MAX_PATH: usize = 48;
/// The path limit of the first pass.
const FIRST_PATH: usize = 6;
const CACHE_BITS: u32 = 16;

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

#[derive(Clone, Copy)]
struct Node {
    mv: u16,
    /// Attacker to move.
    or: bool,
    pn: u32,
    dn: u32,
    /// Plies to the five once proved.
    plies: u16,
    /// Index of the first child; 0 while not expanded.
    first: u32,
    count: u16,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// 1 proved, 2 disproved, 3 left open by a search of `effort` nodes,
    /// 0 empty.
    state: u8,
    plies: u16,
    /// The proving move of an attacker node (0 when not known).
    mv: u16,
    effort: u32,
    /// The path limit a disproof was found under.
    limit: u8,
}

/// VCT results by position and attacker, and the search's node arena,
/// kept between searches of one position's copy (a copy starts empty,
/// and the searcher hands them on to its next search's copy).
#[derive(Default)]
pub struct VctCache {
    entries: Vec<Entry>,
    nodes: Vec<Node>,
    /// Nodes made in the last search (for reports and tests).
    pub(super) last_nodes: u64,
    /// The path limit of the pass under way.
    limit: u8,
}

impl Clone for VctCache {
    fn clone(&self) -> Self {
        VctCache::default()
    }
}

enum Status {
    Proved(u16),
    Disproved,
    Open,
}

impl VctCache {
    fn slot(key: u64) -> usize {
        (key >> (64 - CACHE_BITS)) as usize
    }

    fn probe(&self, key: u64) -> Option<Status> {
        let e = self.entries.get(Self::slot(key))?;
        match (e.key == key, e.state) {
            (true, 1) => Some(Status::Proved(e.plies)),
            (true, 3) => None,
            (true, 2) if e.limit >= self.limit => Some(Status::Disproved),
            _ => None,
        }
    }

    fn store(&mut self, key: u64, proved: bool, plies: u16, mv: u16) {
        self.put(Entry {
            key,
            state: if proved { 1 } else { 2 },
            plies,
            mv,
            effort: 0,
            limit: self.limit,
        });
    }

    fn put(&mut self, entry: Entry) {
        if self.entries.is_empty() {
            self.entries = vec![Entry::default(); 1 << CACHE_BITS];
        }
        self.entries[Self::slot(entry.key)] = entry;
    }

    /// What an earlier search of this root found, if it answers a search
    /// of `effort` nodes.
    fn root_answer(&self, key: u64, effort: u64) -> Option<Vct> {
        let e = self.entries.get(Self::slot(key)).filter(|e| e.key == key)?;
        match e.state {
            1 if e.mv != 0 => Some(Vct::Win(e.mv, u32::from(e.plies))),
            2 if usize::from(e.limit) >= MAX_PATH => Some(Vct::None),
            3 if u64::from(e.effort) >= effort => Some(Vct::Unknown),
            _ => None,
        }
    }
}

fn numbers(status: &Status) -> (u32, u32, u16) {
    match *status {
        Status::Proved(plies) => (0, INF, plies),
        Status::Disproved => (INF, 0, 0),
        Status::Open => (1, 1, 0),
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
        if let Some(known) = self.vct_cache.root_answer(root_key, max_nodes) {
            return known;
        }
        let mut nodes = std::mem::take(&mut self.vct_cache.nodes);
        let mut made = 1u64;
        let mut limit = FIRST_PATH;
        loop {
            self.prove(&mut nodes, attacker, limit, max_nodes, &mut made);
            if nodes[0].dn != 0 || limit == MAX_PATH || made >= max_nodes {
                break;
            }
            limit = (limit * 2).min(MAX_PATH);
        }
        self.vct_cache.last_nodes = made;
        let root = nodes[0];
        let result = if root.pn == 0 {
            let children = root.first as usize..root.first as usize + root.count as usize;
            let best = children
                .filter(|&c| nodes[c].pn == 0)
                .min_by_key(|&c| nodes[c].plies);
            best.map_or(Vct::Unknown, |c| {
                Vct::Win(nodes[c].mv, u32::from(nodes[c].plies) + 1)
            })
        } else if root.dn == 0 && limit == MAX_PATH {
            Vct::None
        } else {
            self.vct_cache.put(Entry {
                key: root_key,
                state: 3,
                plies: 0,
                mv: 0,
                effort: max_nodes.min(u64::from(u32::MAX)) as u32,
                limit: limit as u8,
            });
            Vct::Unknown
        };
        self.vct_cache.nodes = nodes;
        result
    }

    /// One pass of the proof-number search from a new root, with no path
    /// longer than `limit` plies, until the root is settled or `made`
    /// reaches `max_nodes`.
    fn prove(
        &mut self,
        nodes: &mut Vec<Node>,
        attacker: u8,
        limit: usize,
        max_nodes: u64,
        made: &mut u64,
    ) {
        self.vct_cache.limit = limit as u8;
        nodes.clear();
        nodes.push(Node {
            mv: 0,
            or: true,
            pn: 1,
            dn: 1,
            plies: 0,
            first: 0,
            count: 0,
        });
        let mut path: Vec<u32> = Vec::with_capacity(limit + 1);
        while nodes[0].pn != 0 && nodes[0].dn != 0 && *made < max_nodes {
            // Select the most proving leaf, playing the moves down to it.
            path.clear();
            let mut at = 0usize;
            path.push(0);
            while nodes[at].first != 0 {
                let node = nodes[at];
                let children = node.first as usize..node.first as usize + node.count as usize;
                let mut best = children.start;
                for c in children {
                    let better = if node.or {
                        nodes[c].pn < nodes[best].pn
                    } else {
                        nodes[c].dn < nodes[best].dn
                    };
                    if better {
                        best = c;
                    }
                }
                self.make_move(nodes[best].mv);
                at = best;
                path.push(at as u32);
            }
            // Expand it.
            let leaf = nodes[at];
            if path.len() > limit {
                nodes[at].pn = INF;
                nodes[at].dn = 0;
            } else {
                let mut moves = Vec::new();
                let threatened = self.vct_children(leaf.or, attacker, &mut moves);
                let first = nodes.len();
                for &mv in &moves {
                    self.make_move(mv);
                    let status = self.vct_status(!leaf.or, attacker);
                    self.unmake_move(mv);
                    let (pn, dn, plies) = numbers(&status);
                    nodes.push(Node {
                        mv,
                        or: !leaf.or,
                        pn,
                        dn,
                        plies,
                        first: 0,
                        count: 0,
                    });
                }
                *made += moves.len() as u64 + 1;
                if moves.is_empty() {
                    let (pn, dn, plies) = if leaf.or || !threatened {
                        (INF, 0, 0)
                    } else {
                        (0, INF, self.unstoppable_plies(attacker))
                    };
                    nodes[at].pn = pn;
                    nodes[at].dn = dn;
                    nodes[at].plies = plies;
                    let key = self.vct_key(attacker);
                    self.vct_cache.store(key, pn == 0, plies, 0);
                } else {
                    nodes[at].first = first as u32;
                    nodes[at].count = moves.len() as u16;
                }
            }
            // Back up the numbers along the path, taking the moves back.
            for k in (0..path.len()).rev() {
                let at = path[k] as usize;
                if nodes[at].first != 0 {
                    self.vct_update(nodes, at, attacker);
                }
                if k > 0 {
                    self.unmake_move(nodes[at].mv);
                }
            }
        }
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

    /// Recomputes node `at`'s numbers from its children; a node that
    /// becomes proved or disproved goes to the table.
    fn vct_update(&mut self, nodes: &mut [Node], at: usize, attacker: u8) {
        let node = nodes[at];
        let children = &nodes[node.first as usize..node.first as usize + node.count as usize];
        let (mut pn, mut dn) = if node.or { (INF, 0) } else { (0, INF) };
        let mut plies = if node.or { u16::MAX } else { 0 };
        let mut proving = 0;
        for c in children {
            if node.or {
                pn = pn.min(c.pn);
                dn = (dn + c.dn).min(INF);
                if c.pn == 0 && c.plies + 1 < plies {
                    plies = c.plies + 1;
                    proving = c.mv;
                }
            } else {
                pn = (pn + c.pn).min(INF);
                dn = dn.min(c.dn);
                plies = plies.max(c.plies + 1);
            }
        }
        let n = &mut nodes[at];
        n.pn = pn;
        n.dn = dn;
        if pn == 0 || dn == 0 {
            n.plies = if pn == 0 { plies } else { 0 };
            let key = self.vct_key(attacker);
            self.vct_cache.store(key, pn == 0, n.plies, proving);
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
        let key = self.vct_key(attacker);
        if let Some(known) = self.vct_cache.probe(key) {
            return known;
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
        if self.rule == Rule::Caro {
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
