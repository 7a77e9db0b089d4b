//! Threat-space search over the incremental patterns.
//!
//! **VCF** (victory by continuous fours): the attacker plays only moves that
//! make a four, so the defender has exactly one reply (the five-point), and
//! the attacker wins once a move leaves two five-points (an open four or a
//! double four) or a five-point the defender may not take (renju: a
//! forbidden point for black). Pattern codes propose the fours; every five
//! is checked on the real board under the rule, so a renju VCF never counts
//! a forbidden point of black's or an overline as a four or a five.
//!
//! **Defence**: against a threat to make an open four or a four-three next
//! move, only counter-fours and the cells on the threatening lines matter.

use super::patterns::{Pattern, Threat, slot};
use super::rules::EMPTY;
use super::{Gomoku, MAX_CELLS, color_of};
use crate::game::Game;

/// Whether a cell of this threat makes at least a four.
pub fn makes_four(threat: u8) -> bool {
    threat == Threat::Four as u8 || threat >= Threat::FourThree as u8
}

/// The threats that win next move unless the opponent fours first: a
/// four-three or better (a bit per threat, for `cells_among`).
const WINNING_NEXT: u8 =
    1 << Threat::FourThree as u8 | 1 << Threat::OpenFour as u8 | 1 << Threat::Five as u8;
/// The threats that make at least a four (see `makes_four`).
pub(super) const FOURS: u8 = WINNING_NEXT | 1 << Threat::Four as u8;

/// VCF attacker moves deeper than this are not tried.
pub const VCF_MAX_DEPTH: u32 = 30;

const CACHE_BITS: u32 = 16;
/// Defender replies a VCF node answers at most (more: not a VCF).
const MAX_ESCAPES: usize = 3;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u16,
    /// Plies to the five when proved (the attacker's moves and the
    /// replies), 0 when no VCF exists within `depth` attacker moves.
    plies: u8,
    depth: u8,
    /// The largest work limit a search from this position ran out of
    /// (saturated), 0 if none: a search with no more work gives up at once.
    gave_up: u16,
    /// A `None` of a quick search (see `Budget::quick`): no proof for a
    /// full one.
    quick: bool,
}

/// VCF results by position (attacker to move). A copy of a position starts
/// with an empty cache; the searcher hands one search's cache on to the
/// next (`Game::take_caches`), and a new game starts empty.
#[derive(Default)]
pub struct VcfCache {
    entries: Vec<Entry>,
    /// Candidate lists by depth, kept between searches.
    lists: Vec<Vec<u16>>,
}

impl Clone for VcfCache {
    fn clone(&self) -> Self {
        VcfCache::default()
    }
}

impl VcfCache {
    fn slot(key: u64) -> usize {
        (key >> (64 - CACHE_BITS)) as usize
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries
            .get(Self::slot(key))
            .filter(|e| e.key == key && (e.plies > 0 || e.depth > 0 || e.gave_up > 0))
            .copied()
    }

    fn store(&mut self, entry: Entry) {
        if self.entries.is_empty() {
            self.entries = vec![Entry::default(); 1 << CACHE_BITS];
        }
        self.entries[Self::slot(entry.key)] = entry;
    }
}

/// Work bookkeeping of one VCF search.
struct Budget {
    nodes: u64,
    limit: u64,
    aborted: bool,
    /// Candidate lists by depth, reused.
    lists: Vec<Vec<u16>>,
    /// A quick search: past the first four, only the fours on a line
    /// through the attacker's previous four, within four cells of it (a
    /// four elsewhere could have been played first). It misses the few
    /// wins that need two unrelated fours in a row, never claims a false
    /// one, and needs far less work to find that there is nothing.
    quick: bool,
}

/// What one VCF search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vcf {
    /// A win: the first move and the plies to the five.
    Win(u16, u32),
    /// No VCF exists (within the depth limit).
    None,
    /// The node budget ran out first.
    Unknown,
}

impl Vcf {
    /// The first move and the plies to the five, if a win.
    pub fn win(self) -> Option<(u16, u32)> {
        match self {
            Vcf::Win(mv, plies) => Some((mv, plies)),
            Vcf::None | Vcf::Unknown => None,
        }
    }
}

impl Gomoku {
    /// Whether `color` has a cell that makes a four (or five).
    pub(super) fn has_four_cells(&self, color: u8) -> bool {
        let t = &self.threat_count[(color - 1) as usize];
        t[Threat::Four as usize]
            + t[Threat::FourThree as usize]
            + t[Threat::OpenFour as usize]
            + t[Threat::Five as usize]
            > 0
    }

    /// Legal cells where `color` makes a four, strongest threats first.
    fn four_cells(&self, color: u8, out: &mut Vec<u16>) {
        let c = (color - 1) as usize;
        for threat in [Threat::OpenFour, Threat::FourThree, Threat::Four] {
            if self.threat_count[c][threat as usize] == 0 {
                continue;
            }
            out.extend(
                self.cells_of(color, threat)
                    .filter(|&i| self.legal_for(i, color))
                    .map(|i| i as u16),
            );
        }
    }

    /// Up to two empty cells where `color` wins at once (exact).
    pub(super) fn fives(&self, color: u8) -> ([u16; 2], usize) {
        let mut found = [0; 2];
        let mut n = 0;
        for i in self.cells_of(color, Threat::Five) {
            if self.wins_with(i, color) {
                found[n] = i as u16;
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        (found, n)
    }

    /// Up to four empty cells on the lines through `i` where `color` wins
    /// at once (exact): the five-points a stone on `i` made.
    pub(super) fn fives_through(&self, i: usize, color: u8) -> ([u16; 4], usize) {
        let mut found = [0; 4];
        let mut n = 0;
        let c = (color - 1) as usize;
        for &dir in &self.dirs {
            for k in (-4..=4isize).filter(|&k| k != 0) {
                let j = (i as isize + k * dir) as usize;
                if n < 4 && self.info[c][j].threat == Threat::Five as u8 && self.wins_with(j, color)
                {
                    found[n] = j as u16;
                    n += 1;
                }
            }
        }
        (found, n)
    }

    /// A win by continuous fours for the side to move, searched with at
    /// most `max_nodes` attacker moves.
    pub fn vcf(&mut self, max_nodes: u64) -> Vcf {
        self.vcf_search(max_nodes, false)
    }

    /// [`Self::vcf`] searched quickly (see `Budget::quick`): for the
    /// search tree, where most positions have no such win. `None` means
    /// none found, not none exists.
    pub fn vcf_quick(&mut self, max_nodes: u64) -> Vcf {
        self.vcf_search(max_nodes, true)
    }

    fn vcf_search(&mut self, max_nodes: u64, quick: bool) -> Vcf {
        if self.outcome().is_some() || !self.has_four_cells(color_of(self.side)) {
            return Vcf::None;
        }
        let limit = max_nodes.min(u64::from(u16::MAX)) as u16;
        if let Some(e) = self.vcf_cache.probe(self.hash)
            && e.plies == 0
            && e.gave_up >= limit
        {
            return Vcf::Unknown;
        }
        let mut lists = std::mem::take(&mut self.vcf_cache.lists);
        lists.resize_with(VCF_MAX_DEPTH as usize + 1, Vec::new);
        let mut budget = Budget {
            nodes: 0,
            limit: max_nodes,
            aborted: false,
            lists,
            quick,
        };
        let found = self.vcf_attack(&mut budget, VCF_MAX_DEPTH, None);
        self.vcf_cache.lists = budget.lists;
        match found {
            Some((mv, plies)) => Vcf::Win(mv, plies),
            // A quick search's giving up says nothing of a full one's.
            None if budget.aborted && quick => Vcf::Unknown,
            None if budget.aborted => {
                self.vcf_cache.store(Entry {
                    key: self.hash,
                    gave_up: limit,
                    ..Entry::default()
                });
                Vcf::Unknown
            }
            None => Vcf::None,
        }
    }

    fn vcf_attack(
        &mut self,
        budget: &mut Budget,
        depth: u32,
        previous: Option<usize>,
    ) -> Option<(u16, u32)> {
        let me = color_of(self.side);
        let them = 3 - me;
        let (mine, n) = self.fives(me);
        if n > 0 {
            return Some((mine[0], 1));
        }
        if depth == 0 || !self.has_four_cells(me) {
            return None;
        }
        let key = self.hash;
        if let Some(e) = self.vcf_cache.probe(key) {
            if e.plies > 0 {
                return Some((e.mv, u32::from(e.plies)));
            }
            if u32::from(e.depth) >= depth && (budget.quick || !e.quick) {
                return None;
            }
        }
        let (theirs, n) = self.fives(them);
        let mut list = std::mem::take(&mut budget.lists[depth as usize]);
        list.clear();
        match n {
            0 => {
                self.four_cells(me, &mut list);
                if budget.quick
                    && let Some(p) = previous
                {
                    self.keep_fours_near(p, &mut list);
                }
            }
            1 => {
                // Our move must block their five; it goes on only if the
                // block is itself a four.
                let b = theirs[0] as usize;
                if self.legal_for(b, me) && makes_four(self.info[(me - 1) as usize][b].threat) {
                    list.push(b as u16);
                }
            }
            _ => {}
        }
        let mut result = None;
        for &mv in &list {
            budget.nodes += 1;
            if budget.nodes > budget.limit {
                budget.aborted = true;
                break;
            }
            self.make_move(mv);
            let outcome = self.vcf_defend(budget, mv as usize, depth);
            self.unmake_move(mv);
            if let Some(plies) = outcome {
                result = Some((mv, plies));
                break;
            }
            if budget.aborted {
                break;
            }
        }
        budget.lists[depth as usize] = list;
        match result {
            Some((mv, plies)) => self.vcf_cache.store(Entry {
                key,
                mv,
                plies: plies.min(255) as u8,
                depth: depth as u8,
                gave_up: 0,
                quick: false,
            }),
            None if !budget.aborted => self.vcf_cache.store(Entry {
                key,
                mv: 0,
                plies: 0,
                depth: depth as u8,
                gave_up: 0,
                quick: budget.quick,
            }),
            None => {}
        }
        result
    }

    /// The quick search's narrowing of the attacker's fours past the
    /// first (see `Budget::quick`): those on a line through the previous
    /// four's stone, within four cells of it.
    fn keep_fours_near(&self, previous: usize, list: &mut Vec<u16>) {
        list.retain(|&c| {
            let diff = c as isize - previous as isize;
            self.dirs.iter().any(|&dir| {
                let k = diff / dir;
                k * dir == diff && k != 0 && k.abs() <= 4
            })
        });
    }

    /// After the attacker's move on `i`: the plies to the five if every
    /// defence fails (the defender to move).
    fn vcf_defend(&mut self, budget: &mut Budget, i: usize, depth: u32) -> Option<u32> {
        let them = color_of(self.side);
        let me = 3 - them;
        let (points, n) = self.fives_through(i, me);
        if n == 0 {
            return None;
        }
        // The replies that leave the attacker without a five: the
        // five-points the defender may take, and in caro also the cells
        // that would block a five's far end.
        let mut escapes = [0u16; MAX_ESCAPES];
        let mut count = 0;
        let mut consider = |pos: &mut Gomoku, j: usize| -> bool {
            if !pos.legal_for(j, them) || escapes[..count].contains(&(j as u16)) {
                return true;
            }
            // Outside caro, taking the only five-point surely stops it.
            let escaped = if n == 1 && !pos.rule.is_caro() {
                true
            } else {
                pos.make_move(j as u16);
                let escaped = pos.fives(me).1 == 0;
                pos.unmake_move(j as u16);
                escaped
            };
            if escaped {
                if count == MAX_ESCAPES {
                    return false;
                }
                escapes[count] = j as u16;
                count += 1;
            }
            true
        };
        for &p in &points[..n] {
            if !consider(self, p as usize) {
                return None;
            }
        }
        if self.rule.is_caro() {
            for dir in self.dirs {
                for k in (-5..=5isize).filter(|&k| k != 0) {
                    let j = (i as isize + k * dir) as usize;
                    if self.cells[j] == EMPTY && !consider(self, j) {
                        return None;
                    }
                }
            }
        }
        // Every escape must lose to further fours.
        let mut longest = 3;
        for &block in &escapes[..count] {
            // What the cache knows of the position after the escape is
            // what `vcf_attack` would answer there first (a position it
            // stored has no five of the attacker's and has four cells),
            // without playing it.
            if depth > 1
                && let Some(e) = self.vcf_cache.probe(self.hash_after(block))
            {
                if e.plies > 0 {
                    longest = longest.max(u32::from(e.plies) + 2);
                    continue;
                }
                if u32::from(e.depth) >= depth - 1 && (budget.quick || !e.quick) {
                    return None;
                }
            }
            self.make_move(block);
            let deeper = self.vcf_attack(budget, depth - 1, Some(i));
            self.unmake_move(block);
            let (_, plies) = deeper?;
            longest = longest.max(plies + 2);
        }
        Some(longest)
    }

    /// The threat the opponent's (`them`) cell `t` would still make after
    /// a stone of `me` on `c`: `t`'s patterns re-read with that stone on
    /// the one line (if any) through both, without playing it.
    pub(super) fn threat_after(&self, them: u8, t: usize, me: u8, c: usize) -> u8 {
        if c == t {
            return Threat::None as u8;
        }
        // Black's packed patterns are the low half of the word, white's the high.
        let mut packed = (self.patterns[t] >> (16 * u32::from(them - 1))) as u16;
        let diff = c as isize - t as isize;
        for (d, &dir) in self.dirs.iter().enumerate() {
            let k = diff / dir;
            if k * dir != diff || k == 0 || k.abs() > 4 {
                continue;
            }
            let bits = 2 * slot(k);
            let code = (self.codes[t][d] & !(3 << bits)) | (u16::from(me) << bits);
            let shift = 4 * d;
            packed = (packed & !(0xf << shift)) | ((self.table.get(them, code) as u16) << shift);
        }
        self.table.cell_info(usize::from(them - 1), packed).threat
    }

    /// [`Self::defences`] narrowed for the play search: against an open
    /// four (or double four) the opponent can make next move, only the
    /// cells after which it can make none, and our fours; against a
    /// four-three only, the cells after which it has neither. When no
    /// cell stops the threat, all of `defences` (the search shows the
    /// loss). Cells are judged by re-reading the opponent's threat cells,
    /// not by playing. The threat searches keep the wider `defences`:
    /// their proofs need every defence. Against renju's black, and in
    /// caro, all of `defences` is kept.
    pub(super) fn narrow_defences(&self, me: u8, out: &mut Vec<u16>) -> bool {
        let start = out.len();
        if !self.defences(me, out) {
            return false;
        }
        let them = 3 - me;
        // A renju black attacker's forbidden cells may become playable
        // once a white stone breaks one of their lines (the re-read does
        // not see that), and a caro open four may still be stopped at a
        // five's far end: those keep the wide set.
        if self.rule.has_forbidden(them) || self.rule.is_caro() {
            return true;
        }
        let t_idx = (them - 1) as usize;
        // The opponent's threat cells of the highest level it may play.
        let mut threats = [0u16; 16];
        let mut n = 0;
        let mut level = Threat::FourThree as u8;
        for c in self.cells_among(them, WINNING_NEXT) {
            let threat = self.info[t_idx][c].threat.min(Threat::OpenFour as u8);
            if threat < level || !self.legal_for(c, them) {
                continue;
            }
            if threat > level {
                level = threat;
                n = 0;
            }
            if n == threats.len() {
                return true;
            }
            threats[n] = c as u16;
            n += 1;
        }
        let stops = |c: usize| {
            threats[..n]
                .iter()
                .all(|&t| self.threat_after(them, t as usize, me, c) < level)
        };
        if n == 0 || !out[start..].iter().any(|&c| stops(c as usize)) {
            return true;
        }
        let m = (me - 1) as usize;
        let mut kept = start;
        for k in start..out.len() {
            let c = out[k] as usize;
            if makes_four(self.info[m][c].threat) || stops(c) {
                out[kept] = c as u16;
                kept += 1;
            }
        }
        out.truncate(kept);
        true
    }

    /// Seek the must against a threat: when the opponent (`3 - me`) can
    /// make an open four, a double four or a four-three next move, the
    /// moves that may save the game are our fours and the empty cells on
    /// the threatening lines within four of a threat cell. Appends them and
    /// says so; false (nothing appended) when there is no such threat.
    pub(super) fn defences(&self, me: u8, out: &mut Vec<u16>) -> bool {
        let them = 3 - me;
        let t = (them - 1) as usize;
        let counts = &self.threat_count[t];
        if counts[Threat::OpenFour as usize] + counts[Threat::FourThree as usize] == 0 {
            return false;
        }
        let mut marked = [0u64; MAX_CELLS.div_ceil(64)];
        let mut mark = |j: usize| marked[j / 64] |= 1 << (j % 64);
        let mut threatened = false;
        for i in self.cells_among(them, WINNING_NEXT) {
            if !self.legal_for(i, them) {
                continue;
            }
            threatened = true;
            mark(i);
            for (d, &dir) in self.dirs.iter().enumerate() {
                let p = self.table.get(them, self.codes[i][d]);
                if !(p.is_open_three() || matches!(p, Pattern::Blocked4 | Pattern::Open4)) {
                    continue;
                }
                for k in (-4..=4isize).filter(|&k| k != 0) {
                    let j = (i as isize + k * dir) as usize;
                    if self.cells[j] == EMPTY {
                        mark(j);
                    }
                }
            }
        }
        if !threatened {
            return false;
        }
        // Our four cells join the marked ones: one set, in board order.
        for (w, word) in marked.iter_mut().enumerate().take(self.size.div_ceil(64)) {
            *word |= self.threat_word(me, FOURS, w);
        }
        out.extend(
            super::bits(&marked[..self.size.div_ceil(64)])
                .filter(|&i| self.legal_for(i, me))
                .map(|i| i as u16),
        );
        true
    }
}
