//! The solver's table: a lower and an upper bound per position, and the
//! move that proved the lower one, in one 8-byte entry. [`BoundTable`] is
//! one solver's own; [`SharedBounds`] is one table that several solvers
//! (threads, or a book's workers) share without locks, one atomic word an
//! entry.

use std::mem::MaybeUninit;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering as AtomicOrdering};

use crate::game::PackedMove;
use crate::search::score::{INFINITY, MATE, MATE_BOUND, from_table, to_table};
use crate::search::slab::{self, Slab};

/// One position's bounds in 8 bytes (for one-byte moves). Bounds are
/// node-relative and compact: a win `n` plies from the node is `127 - n`, a
/// loss `-(127 - n)`, a draw 0, and ±[`OPEN`] means no bound. They are
/// kept as their distance from no bound, so that all-zero bytes are an
/// entry that knows nothing: the table is zeroed memory, resident only
/// where the solver writes.
struct Entry<M> {
    /// The key's low 32 bits mixed with the table's generation.
    check: u32,
    /// `lower + OPEN`.
    lower_above_open: u8,
    /// `OPEN - upper`.
    upper_below_open: u8,
    /// Bit 0: `mv` is set; bits 1-7: seven more bits of the key.
    flags: u8,
    /// Written whenever bit 0 of `flags` is set, and read only then.
    mv: MaybeUninit<M>,
}

// By hand: a derive would ask `M: Clone` where `MaybeUninit<M>` needs
// `M: Copy`.
impl<M: Copy> Clone for Entry<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: Copy> Copy for Entry<M> {}

impl<M: Copy> Entry<M> {
    fn lower(&self) -> i8 {
        (self.lower_above_open as i16 - OPEN as i16) as i8
    }

    fn upper(&self) -> i8 {
        (OPEN as i16 - self.upper_below_open as i16) as i8
    }

    fn set_lower(&mut self, lower: i8) {
        self.lower_above_open = (lower as i16 + OPEN as i16) as u8;
    }

    fn set_upper(&mut self, upper: i8) {
        self.upper_below_open = (OPEN as i16 - upper as i16) as u8;
    }

    fn mv(&self) -> Option<M> {
        // SAFETY: bit 0 is set only by `store`, together with a move.
        (self.flags & 1 != 0).then(|| unsafe { self.mv.assume_init() })
    }
}

const OPEN: i8 = 127;
/// Node-relative game lengths the compact form holds exactly.
const COMPACT_PLIES: i32 = 125;

/// `score` (root-relative at `ply`) as a compact bound, rounded the safe
/// way when it does not fit: `down` for a lower bound, up for an upper one.
fn compact(score: i32, ply: usize, down: bool) -> i8 {
    if score.abs() >= INFINITY {
        return if down { -OPEN } else { OPEN };
    }
    let s = to_table(score, ply);
    if s.abs() < MATE_BOUND {
        // Scores are wins, losses or draws; anything else is rounded to
        // the nearest of those on the safe side.
        return match (s.signum(), down) {
            (0, _) | (1, true) | (-1, false) => 0,
            (1, false) => OPEN,
            _ => -OPEN,
        };
    }
    let n = MATE - s.abs();
    if n > COMPACT_PLIES {
        // A win or loss too late to store: a draw bound on the safe side.
        return match (s > 0, down) {
            (true, true) | (false, false) => 0,
            (true, false) => OPEN,
            (false, true) => -OPEN,
        };
    }
    let c = (127 - n) as i8;
    if s > 0 { c } else { -c }
}

fn expand(c: i8, ply: usize) -> i32 {
    match c {
        OPEN => INFINITY,
        c if c == -OPEN => -INFINITY,
        0 => 0,
        c => {
            let n = 127 - c.unsigned_abs() as i32;
            let s = if c > 0 { MATE - n } else { -(MATE - n) };
            from_table(s, ply)
        }
    }
}

/// Lower and upper bounds per position, direct-mapped, always replacing.
/// Clearing starts a new generation, which changes every position's check,
/// so that entries of older ones no longer match: solving many small
/// positions, each from a cleared table, costs nothing for the clearing.
///
/// After a clear only the first `FIRST_ACTIVE` entries are used, a part
/// that stays in the processor's cache; it grows fourfold, entries moving
/// to their new slots, each time the solve has written new positions into
/// a quarter of it, up to the whole table. A small solve then seldom
/// waits on main memory, and a large one keeps what it learned.
///
/// A position's slot comes from the key's top bits, its check from the
/// low ones: the two share no bit, so that two positions in one slot are
/// told apart by all the check's bits. The entry keeps `KEPT_BITS`:
/// the check, and the slot bits below the first `FIRST_ACTIVE`'s that
/// growing needs to find the entry's new slot (none once the table is
/// whole). With 128 MB (2^24 entries), a position is taken for another
/// one of its slot with odds 2^-31; keeping 39 bits that also chose the
/// slot, as before, left 2^-15.
pub struct BoundTable<M: Copy> {
    entries: Slab<Entry<M>>,
    salt: u32,
    /// Entries in use: slots are chosen among the first `active`.
    active: usize,
    /// Positions written into a slot that held another one since the
    /// last growth.
    fresh: usize,
    /// Key bits that choose the slot in the whole table (the top ones),
    /// at least [`FIRST_BITS`].
    slot_bits: u32,
    /// Of those, the ones below the first [`FIRST_BITS`], which entries
    /// keep for growing.
    growth_bits: u32,
}

/// Key bits an entry keeps: a 32-bit check and seven more.
const KEPT_BITS: u32 = 39;

/// Entries in use after a clear: 512 KB of 8-byte entries, about half of
/// one core's second-level cache.
const FIRST_BITS: u32 = 16;
const FIRST_ACTIVE: usize = 1 << FIRST_BITS;

impl<M: Copy + Default + PartialEq> BoundTable<M> {
    pub(super) fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Entry<M>>()).max(1);
        // SAFETY: every field of an entry is an integer or a `MaybeUninit`,
        // so all-zero bytes are an entry (one that knows nothing).
        let entries = unsafe { Slab::zeroed(count) }
            .map_err(|e| format!("cannot allocate a {megabytes} MB solver table: {e}"))?;
        let active = FIRST_ACTIVE.min(entries.len());
        let slot_bits = entries
            .len()
            .next_power_of_two()
            .trailing_zeros()
            .max(FIRST_BITS);
        Ok(BoundTable {
            entries,
            salt: 0,
            active,
            fresh: 0,
            slot_bits,
            growth_bits: slot_bits - FIRST_BITS,
        })
    }

    fn clear(&mut self) {
        // An odd multiplier: every generation salts differently.
        self.salt = self.salt.wrapping_add(0x9E37_79B9);
        self.active = FIRST_ACTIVE.min(self.entries.len());
        self.fresh = 0;
    }

    fn index(&self, key: u64) -> usize {
        self.slot(key >> (64 - self.slot_bits), self.active)
    }

    /// The slot among `active` of a key whose top bits are `top`
    /// ([`Self::slot_bits`] of them). A slot `i` of `n` holds keys whose
    /// slot among `4n` is one of `4i..4i + 4`.
    fn slot(&self, top: u64, active: usize) -> usize {
        ((top as u128 * active as u128) >> self.slot_bits) as usize
    }

    /// The bits an entry keeps of `key`: the check bits (the low ones)
    /// below, the growth bits above.
    fn kept(&self, key: u64) -> u64 {
        let check_bits = KEPT_BITS - self.growth_bits;
        let growth = (key >> (64 - self.slot_bits)) & ((1 << self.growth_bits) - 1);
        (key & ((1 << check_bits) - 1)) | growth << check_bits
    }

    /// The kept bits of an entry written in this generation (garbage
    /// for older ones, which no key matches but by chance).
    fn kept_of(&self, e: &Entry<M>) -> u64 {
        (e.check ^ self.salt) as u64 | ((e.flags & 0xFE) as u64) << 31
    }

    /// Uses four times as many slots (or all), moving each entry to its
    /// slot among them, found from its slot now (the top bits) and the
    /// growth bits it keeps (the rest). From the top down, so that no
    /// entry is written over before it has moved: every one moves up, to
    /// slots already emptied or never used.
    fn grow(&mut self) {
        let old = self.active;
        let new = (old * 4).min(self.entries.len());
        // `old` is a power of two: its slots are the top bits.
        let below = self.slot_bits - old.trailing_zeros();
        let check_bits = KEPT_BITS - self.growth_bits;
        for i in (0..old).rev() {
            let e = self.entries[i];
            let rest = (self.kept_of(&e) >> check_bits) & ((1 << below) - 1);
            let j = self.slot((i as u64) << below | rest, new);
            if j != i {
                self.entries[j] = e;
                // An empty entry: nothing matches it but by chance, and
                // then it knows nothing.
                self.entries[i].check = 0;
                self.entries[i].lower_above_open = 0;
                self.entries[i].upper_below_open = 0;
                self.entries[i].flags = 0;
            }
        }
        self.active = new;
        self.fresh = 0;
    }

    fn check(&self, key: u64) -> u32 {
        self.kept(key) as u32 ^ self.salt
    }

    /// Kept bits 32-38: with the check's 32, the 39 bits kept.
    fn more_check(&self, key: u64) -> u8 {
        ((self.kept(key) >> 31) as u8) & 0xFE
    }

    /// Starts loading the entry of `key` into the cache.
    fn prefetch(&self, key: u64) {
        slab::prefetch(self.entries.as_ptr().wrapping_add(self.index(key)));
    }

    /// Lower bound, upper bound and proving move, root-relative at `ply`.
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        let e = &self.entries[self.index(key)];
        matches(e, self.check(key), self.more_check(key))
            .then(|| (expand(e.lower(), ply), expand(e.upper(), ply), e.mv()))
    }

    /// Records `lower <= value <= upper` (either may be infinite), merged
    /// with what the entry knew of the same position. `mv` proved `lower`.
    fn store(&mut self, key: u64, ply: usize, lower: i32, upper: i32, mv: Option<M>) {
        let check = self.check(key);
        let index = self.index(key);
        let more = self.more_check(key);
        let fresh = merge(&mut self.entries[index], check, more, ply, lower, upper, mv);
        if fresh {
            self.fresh += 1;
            if self.fresh > self.active / 4 && self.active < self.entries.len() {
                self.grow();
            }
        }
    }
}

/// Whether `e` is the entry of the position whose check bits are `check`
/// and `more`.
fn matches<M: Copy>(e: &Entry<M>, check: u32, more: u8) -> bool {
    e.check == check && e.flags & 0xFE == more
}

/// Records `lower <= value <= upper` (root-relative at `ply`) in `e`, the
/// slot of the position whose check bits are `check` and `more`: merged
/// with what `e` knew of the same position, over what it knew of another
/// one. `mv` proved `lower`. Returns whether `e` held another position.
fn merge<M: Copy>(
    e: &mut Entry<M>,
    check: u32,
    more: u8,
    ply: usize,
    lower: i32,
    upper: i32,
    mv: Option<M>,
) -> bool {
    let fresh = !matches(e, check, more);
    if fresh {
        e.check = check;
        e.set_lower(-OPEN);
        e.set_upper(OPEN);
        e.flags = more;
    }
    let lower = compact(lower, ply, true);
    let upper = compact(upper, ply, false);
    if lower >= e.lower() {
        e.set_lower(lower);
        if let Some(m) = mv {
            e.mv = MaybeUninit::new(m);
            e.flags |= 1;
        }
    }
    e.set_upper(e.upper().min(upper));
    fresh
}

/// A bound table several solvers use at once, each on a thread of its
/// own (`ply book` with workers): the same entries as a solver's own
/// table, each read and written whole as one atomic 8-byte word, so that
/// a reader sees an entry some writer wrote, its check bits and its
/// bounds together. Two writers of one slot at once lose one of their
/// writes, never mix them: every entry that matches holds true bounds.
/// The whole table is in use from the start (no growth), and a move is
/// kept only if it packs into 8 bits.
pub struct SharedBounds {
    words: Slab<u64>,
    salt: AtomicU32,
    slot_bits: u32,
}

impl SharedBounds {
    /// A table of `megabytes`, for solvers made by [`super::Solver::sharing`].
    pub fn new(megabytes: usize) -> Result<Arc<Self>, String> {
        let count = (megabytes.max(1).saturating_mul(1 << 20) / 8).max(1);
        // SAFETY: all-zero bytes are a u64 (an entry that knows nothing).
        let words = unsafe { Slab::zeroed(count) }
            .map_err(|e| format!("cannot allocate a {megabytes} MB solver table: {e}"))?;
        let slot_bits = words.len().next_power_of_two().trailing_zeros();
        Ok(Arc::new(SharedBounds {
            words,
            salt: AtomicU32::new(0),
            slot_bits,
        }))
    }

    fn word(&self, key: u64) -> &AtomicU64 {
        let top = if self.slot_bits == 0 {
            0
        } else {
            key >> (64 - self.slot_bits)
        };
        let index = ((top as u128 * self.words.len() as u128) >> self.slot_bits) as usize;
        // SAFETY: `index` is below the slab's length; an AtomicU64 has the
        // size and alignment of a u64, and the words are only ever reached
        // through this atomic view once the table is shared.
        unsafe { AtomicU64::from_ptr(self.words.as_ptr().add(index).cast_mut()) }
    }

    /// The check bits of `key`: the low 32 (mixed with the generation)
    /// and the 7 above them, as an own table keeps them once whole.
    fn checks(&self, key: u64) -> (u32, u8) {
        (
            key as u32 ^ self.salt.load(AtomicOrdering::Relaxed),
            ((key >> 31) as u8) & 0xFE,
        )
    }

    fn unpack<M: Copy + PackedMove>(word: u64) -> Entry<M> {
        let flags = (word >> 48) as u8;
        Entry {
            check: word as u32,
            lower_above_open: (word >> 32) as u8,
            upper_below_open: (word >> 40) as u8,
            flags,
            mv: if flags & 1 != 0 {
                MaybeUninit::new(M::unpack(word >> 56))
            } else {
                MaybeUninit::uninit()
            },
        }
    }

    fn pack<M: Copy + PackedMove>(e: &Entry<M>) -> u64 {
        let mv = e.mv().map(M::pack).filter(|&bits| bits < 256);
        let flags = (e.flags & 0xFE) | mv.is_some() as u8;
        e.check as u64
            | (e.lower_above_open as u64) << 32
            | (e.upper_below_open as u64) << 40
            | (flags as u64) << 48
            | mv.unwrap_or(0) << 56
    }

    fn probe<M: Copy + PackedMove>(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        let e = Self::unpack::<M>(self.word(key).load(AtomicOrdering::Relaxed));
        let (check, more) = self.checks(key);
        matches(&e, check, more).then(|| (expand(e.lower(), ply), expand(e.upper(), ply), e.mv()))
    }

    fn store<M: Copy + PackedMove>(
        &self,
        key: u64,
        ply: usize,
        lower: i32,
        upper: i32,
        mv: Option<M>,
    ) {
        let word = self.word(key);
        let mut e = Self::unpack::<M>(word.load(AtomicOrdering::Relaxed));
        let (check, more) = self.checks(key);
        merge(&mut e, check, more, ply, lower, upper, mv);
        word.store(Self::pack(&e), AtomicOrdering::Relaxed);
    }

    fn prefetch(&self, key: u64) {
        slab::prefetch(self.word(key).as_ptr());
    }
}

/// Where a solver keeps its bounds: a table of its own ([`BoundTable`])
/// or one it shares (`Arc<SharedBounds>`).
pub trait Bounds<M> {
    /// Lower bound, upper bound and proving move, root-relative at `ply`.
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)>;
    /// Records `lower <= value <= upper`; `mv` proved `lower`.
    fn store(&mut self, key: u64, ply: usize, lower: i32, upper: i32, mv: Option<M>);
    /// Starts loading the entry of `key` into the cache.
    fn prefetch(&self, key: u64);
    /// Forgets every bound (a shared table's, for all its solvers).
    fn clear(&mut self);
    /// Brings the memory in now rather than at first use.
    fn make_resident(&mut self);
}

impl<M: Copy + Default + PartialEq> Bounds<M> for BoundTable<M> {
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        BoundTable::probe(self, key, ply)
    }
    fn store(&mut self, key: u64, ply: usize, lower: i32, upper: i32, mv: Option<M>) {
        BoundTable::store(self, key, ply, lower, upper, mv);
    }
    fn prefetch(&self, key: u64) {
        BoundTable::prefetch(self, key);
    }
    fn clear(&mut self) {
        BoundTable::clear(self);
    }
    fn make_resident(&mut self) {
        self.entries.make_resident();
    }
}

impl<M: Copy + PackedMove> Bounds<M> for Arc<SharedBounds> {
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        SharedBounds::probe(self, key, ply)
    }
    fn store(&mut self, key: u64, ply: usize, lower: i32, upper: i32, mv: Option<M>) {
        SharedBounds::store(self, key, ply, lower, upper, mv);
    }
    fn prefetch(&self, key: u64) {
        SharedBounds::prefetch(self, key);
    }
    fn clear(&mut self) {
        self.salt.fetch_add(0x9E37_79B9, AtomicOrdering::Relaxed);
    }
    fn make_resident(&mut self) {
        // Made resident by its use.
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MAX_PLY;

    #[test]
    fn shared_entries_pack_into_one_word() {
        let table = SharedBounds::new(1).unwrap();
        let table: &SharedBounds = &table;
        let key = 0x0123_4567_89AB_CDEFu64;
        assert_eq!(table.probe::<u8>(key, 0), None);
        table.store(key, 0, -(MATE - 9), MATE - 7, Some(6u8));
        assert_eq!(
            table.probe(key, 0),
            Some((-(MATE - 9), MATE - 7, Some(6u8)))
        );
        for bit in [0, 20, 34, 38] {
            assert!(
                table.probe::<u8>(key ^ (1 << bit), 0).is_none(),
                "bit {bit}"
            );
        }
        // A move that does not fit in 8 bits is not kept; the bounds are.
        table.store(key, 0, MATE - 7, MATE - 7, Some(300u16));
        assert_eq!(table.probe::<u16>(key, 0), Some((MATE - 7, MATE - 7, None)));
    }

    #[test]
    fn bounds_are_compact_and_round_trip() {
        assert!(std::mem::size_of::<Entry<u8>>() <= 8);
        for ply in [0, 5, 40] {
            for n in 1..=COMPACT_PLIES.min(MAX_PLY as i32 - ply as i32) {
                for s in [MATE - n, -(MATE - n)] {
                    let root = from_table(s, ply);
                    for down in [true, false] {
                        assert_eq!(expand(compact(root, ply, down), ply), root);
                    }
                }
            }
            assert_eq!(expand(compact(0, ply, true), ply), 0);
            assert_eq!(expand(compact(INFINITY, ply, false), ply), INFINITY);
            assert_eq!(expand(compact(-INFINITY, ply, true), ply), -INFINITY);
        }
        // Too long to hold: rounded to a draw bound on the safe side.
        let late_win = MATE - 127;
        assert_eq!(expand(compact(late_win, 0, true), 0), 0);
        assert_eq!(expand(compact(late_win, 0, false), 0), INFINITY);
        assert_eq!(expand(compact(-late_win, 0, false), 0), 0);
        assert_eq!(expand(compact(-late_win, 0, true), 0), -INFINITY);
    }

    #[test]
    fn the_table_grows_keeping_its_entries() {
        let mut table = BoundTable::<u8>::new(8).unwrap();
        assert_eq!(table.active, FIRST_ACTIVE);
        // Enough positions to grow the used part once, each with bounds
        // and a move of its own.
        let count = FIRST_ACTIVE / 2;
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        let keys: Vec<u64> = (0..count)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                x ^ (x >> 29)
            })
            .collect();
        let value = |k: u64| MATE - 3 - (k % 20) as i32;
        for &k in &keys {
            table.store(k, 0, -value(k), value(k), Some((k % 7) as u8));
        }
        assert_eq!(table.active, 4 * FIRST_ACTIVE);
        let mut found = 0;
        for &k in &keys {
            if let Some((lower, upper, mv)) = table.probe(k, 0) {
                assert_eq!(
                    (lower, upper, mv),
                    (-value(k), value(k), Some((k % 7) as u8))
                );
                found += 1;
            }
        }
        // Only slot collisions lose entries: about one in ten here
        // (growth without moving them would lose the first
        // quarter-table's worth, half of them).
        assert!(found > count * 4 / 5, "{found} of {count}");
        table.clear();
        assert_eq!(table.active, FIRST_ACTIVE);
        assert!(keys.iter().all(|&k| table.probe(k, 0).is_none()));
    }

    #[test]
    fn positions_of_one_slot_are_told_apart_by_the_whole_check() {
        let mut table = BoundTable::<u8>::new(8).unwrap();
        let key = 0x0123_4567_89AB_CDEFu64;
        table.store(key, 0, 0, 0, Some(3));
        assert_eq!(table.probe(key, 0), Some((0, 0, Some(3))));
        // Bits of the check, and bits above the low 39 (which alone were
        // kept before, choosing the slot too).
        for bit in [0, 20, 34, 45, 50, 63] {
            assert!(table.probe(key ^ (1 << bit), 0).is_none(), "bit {bit}");
        }
        // Still so once the table has grown to the whole of it.
        let mut x = 7u64;
        while table.active < table.entries.len() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            table.store(x ^ (x >> 31), 0, 0, 0, None);
        }
        table.store(key, 0, 0, 0, Some(3));
        for bit in [0, 20, 34, 45, 50, 63] {
            assert!(table.probe(key ^ (1 << bit), 0).is_none(), "bit {bit}");
        }
        assert_eq!(table.probe(key, 0), Some((0, 0, Some(3))));
    }
}
