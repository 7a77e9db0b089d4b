//! The solver's table: a lower and an upper bound per position, and the
//! move that proved the lower one, in one 8-byte entry. [`BoundTable`] is
//! one solver's own; [`SharedBounds`] is one table that several solvers
//! (threads, or a book's workers) share without locks, one atomic word an
//! entry.

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};

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
    /// Bit 0: `mv` is set; bits 1-2: the work class of the search that
    /// stored it; bits 3-7: five more bits of the key.
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
        (self.flags & MOVE_SET != 0).then(|| unsafe { self.mv.assume_init() })
    }

    fn work(&self) -> u8 {
        (self.flags & WORK_MASK) >> WORK_SHIFT
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

/// Lower and upper bounds per position, in buckets of two entries (one
/// cache line's quarter). A position goes to the entry of its bucket that
/// holds it; a new one goes first in the bucket, and of the two it finds
/// there the one whose subtree took more nodes stays (the more recent on a
/// tie): the table keeps what was written last and what was expensive,
/// the entries near the root of a big solve (Steininger's c4 keeps the
/// costlier of two entries the same way). Clearing starts a new
/// generation, which changes every position's check, so that entries of
/// older ones no longer match: solving many small positions, each from a
/// cleared table, costs nothing for the clearing. (Their costs still
/// steer which entry a new one displaces: a position's nodes can depend
/// on what was solved before the clear, the same on every run.)
///
/// After a clear only the first `FIRST_ACTIVE` buckets are used, a part
/// that stays in the processor's cache; it grows fourfold, entries moving
/// to their new buckets, each time the solve has written new positions
/// into a quarter of its entries, up to the whole table. A small solve
/// then seldom waits on main memory, and a large one keeps what it
/// learned.
///
/// A position's bucket comes from the key's top bits, its check from the
/// low ones: the two share no bit, so that two positions in one bucket
/// are told apart by all the check's bits. The entry keeps `KEPT_BITS`:
/// the check, and the bucket bits below the first `FIRST_ACTIVE`'s that
/// growing needs to find the entry's new bucket (none once the table is
/// whole). With 64 MB (2^22 buckets), a position is taken for another one
/// of its bucket with odds 2^-30.
pub struct BoundTable<M: Copy> {
    buckets: Slab<Bucket<M>>,
    salt: u32,
    /// Buckets in use: positions are placed among the first `active`.
    active: usize,
    /// Positions written over another one since the last growth.
    fresh: usize,
    /// Key bits that choose the bucket in the whole table (the top ones),
    /// at least [`FIRST_BITS`].
    slot_bits: u32,
    /// Of those, the ones below the first [`FIRST_BITS`], which entries
    /// keep for growing.
    growth_bits: u32,
}

/// Two entries in one aligned 16 bytes (for one-byte moves), so that a
/// probe reads one cache line.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct Bucket<M: Copy> {
    ways: [Entry<M>; 2],
}

/// Key bits an entry keeps: a 32-bit check and five more.
const KEPT_BITS: u32 = 37;

/// Buckets in use after a clear: 512 KB of them, about half of one core's
/// second-level cache.
const FIRST_BITS: u32 = 15;
const FIRST_ACTIVE: usize = 1 << FIRST_BITS;

impl<M: Copy + Default + PartialEq> BoundTable<M> {
    pub(super) fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket<M>>()).max(1);
        // SAFETY: every field of an entry is an integer or a `MaybeUninit`,
        // so all-zero bytes are a bucket (of entries that know nothing).
        let buckets = unsafe { Slab::zeroed(count) }
            .map_err(|e| format!("cannot allocate a {megabytes} MB solver table: {e}"))?;
        let active = FIRST_ACTIVE.min(buckets.len());
        let slot_bits = buckets
            .len()
            .next_power_of_two()
            .trailing_zeros()
            .max(FIRST_BITS);
        Ok(BoundTable {
            buckets,
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
        self.active = FIRST_ACTIVE.min(self.buckets.len());
        self.fresh = 0;
    }

    fn index(&self, key: u64) -> usize {
        self.slot(key >> (64 - self.slot_bits), self.active)
    }

    /// The bucket among `active` of a key whose top bits are `top`
    /// ([`Self::slot_bits`] of them). A bucket `i` of `n` holds keys whose
    /// bucket among `4n` is one of `4i..4i + 4`.
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
        (e.check ^ self.salt) as u64 | ((e.flags >> MORE_SHIFT) as u64) << 32
    }

    /// Uses four times as many buckets (or all), moving each entry to its
    /// bucket among them, found from its bucket now (the top bits) and the
    /// growth bits it keeps (the rest). From the top down, so that no
    /// entry is written over before it has moved: the entries of bucket
    /// `i` move to buckets `4i..4i + 4`, emptied already or never used.
    fn grow(&mut self) {
        let old = self.active;
        let new = (old * 4).min(self.buckets.len());
        // `old` is a power of two: its buckets are the top bits.
        let below = self.slot_bits - old.trailing_zeros();
        let check_bits = KEPT_BITS - self.growth_bits;
        for i in (0..old).rev() {
            let ways = self.buckets[i].ways;
            // Empty entries: nothing matches them but by chance, and then
            // they know nothing.
            for e in self.buckets[i].ways.iter_mut() {
                e.check = 0;
                e.lower_above_open = 0;
                e.upper_below_open = 0;
                e.flags = 0;
            }
            let mut first = None;
            for e in ways {
                let rest = (self.kept_of(&e) >> check_bits) & ((1 << below) - 1);
                let j = self.slot((i as u64) << below | rest, new);
                let way = usize::from(first == Some(j));
                self.buckets[j].ways[way] = e;
                first = Some(j);
            }
        }
        self.active = new;
        self.fresh = 0;
    }

    fn check(&self, key: u64) -> u32 {
        self.kept(key) as u32 ^ self.salt
    }

    /// Kept bits 32-36: with the check's 32, the 37 bits kept, where the
    /// entry's flags keep them.
    fn more_check(&self, key: u64) -> u8 {
        ((self.kept(key) >> 32) as u8) << MORE_SHIFT
    }

    /// Starts loading the bucket of `key` into the cache.
    fn prefetch(&self, key: u64) {
        slab::prefetch(self.buckets.as_ptr().wrapping_add(self.index(key)));
    }

    /// Lower bound, upper bound and proving move, root-relative at `ply`.
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        let (check, more) = (self.check(key), self.more_check(key));
        self.buckets[self.index(key)]
            .ways
            .iter()
            .find(|e| matches(e, check, more))
            .map(|e| (expand(e.lower(), ply), expand(e.upper(), ply), e.mv()))
    }

    /// Records `lower <= value <= upper` (either may be infinite), merged
    /// with what the entry knew of the same position. `mv` proved `lower`;
    /// the search that found them took `nodes`.
    fn store(&mut self, key: u64, ply: usize, bound: Learned<M>) {
        let (check, more) = (self.check(key), self.more_check(key));
        let index = self.index(key);
        let ways = &mut self.buckets[index].ways;
        let fresh = place(ways, check, more);
        merge(&mut ways[0], ply, bound);
        if fresh {
            self.fresh += 1;
            if self.fresh > self.active / 2 && self.active < self.buckets.len() {
                self.grow();
            }
        }
    }
}

/// What a search proved of a position, to be stored.
#[derive(Clone, Copy, Debug)]
pub struct Learned<M> {
    /// A lower bound on the value (root-relative; may be -infinite).
    pub lower: i32,
    /// An upper bound (may be +infinite).
    pub upper: i32,
    /// The move that proved `lower`.
    pub mv: Option<M>,
    /// The nodes the search took: the costlier entries are kept.
    pub nodes: u64,
}

/// Flag bits: bit 0, the move is set; bits 1-2, the work class; bits 3-7,
/// five more key bits.
const MOVE_SET: u8 = 1;
const WORK_SHIFT: u8 = 1;
const WORK_MASK: u8 = 0b110;
const MORE_SHIFT: u8 = 3;
const MORE_MASK: u8 = 0xF8;

/// A search's nodes in four classes, by powers of 16: under 8 nodes, under
/// 128, under 2048, more. (Powers of 8, 32 or 64 left the nodes of the
/// empty 7x6 board's solve within 1% of these.)
fn work_class(nodes: u64) -> u8 {
    ((64 - nodes.leading_zeros()) / 4).min(3) as u8
}

/// Makes `ways[0]` the entry for the position whose check bits are
/// `check` and `more`: the one that holds it, brought to the front, else a
/// new one that knows nothing, in front of the more expensive of the two
/// (the more recent on a tie), the other dropped. Returns whether the
/// entry is new.
#[inline]
fn place<M: Copy>(ways: &mut [Entry<M>; 2], check: u32, more: u8) -> bool {
    if matches(&ways[0], check, more) {
        return false;
    }
    if matches(&ways[1], check, more) {
        ways.swap(0, 1);
        return false;
    }
    if ways[1].work() > ways[0].work() {
        ways[0] = ways[1];
    }
    ways[1] = ways[0];
    let e = &mut ways[0];
    e.check = check;
    e.set_lower(-OPEN);
    e.set_upper(OPEN);
    e.flags = more;
    true
}

/// Whether `e` is the entry of the position whose check bits are `check`
/// and `more`.
fn matches<M: Copy>(e: &Entry<M>, check: u32, more: u8) -> bool {
    e.check == check && e.flags & MORE_MASK == more
}

/// Records `bound` (root-relative at `ply`) in `e`, the position's entry
/// that [`place`] chose, merged with what it knew.
#[inline]
fn merge<M: Copy>(e: &mut Entry<M>, ply: usize, bound: Learned<M>) {
    let work = work_class(bound.nodes).max(e.work());
    e.flags = (e.flags & !WORK_MASK) | work << WORK_SHIFT;
    let lower = compact(bound.lower, ply, true);
    let upper = compact(bound.upper, ply, false);
    if lower >= e.lower() {
        e.set_lower(lower);
        if let Some(m) = bound.mv {
            e.mv = MaybeUninit::new(m);
            e.flags |= MOVE_SET;
        }
    }
    e.set_upper(e.upper().min(upper));
}

/// A bound table several solvers use at once, each on a thread of its
/// own (`ply book` with workers, `ply solve --threads`): the buckets of a
/// solver's own table, each entry read and written whole as one atomic
/// 8-byte word, so that a reader sees an entry some writer wrote, its
/// check bits and its bounds together. Two writers of one bucket at once
/// may lose one of their writes, or keep a position twice, never mix
/// them: every entry that matches holds true bounds. The whole table is
/// in use from the start (no growth), and a move is kept only if it packs
/// into 8 bits.
pub struct SharedBounds {
    buckets: Slab<WordPair>,
    salt: AtomicU32,
    slot_bits: u32,
    /// The null-window searches of roots finished by any of the solvers:
    /// the others drop the same search and take its result (the first to
    /// finish wins, as in Steininger's c4).
    verdicts: Mutex<Vec<Verdict>>,
    /// How many verdicts were ever given: a solver looks at the list only
    /// when this has changed.
    verdicts_given: AtomicU64,
}

/// A root's null-window search that a solver finished: at `pivot`, the
/// fail-soft `result`, and the packed move that proved it when it failed
/// high.
#[derive(Clone, Copy, Debug)]
struct Verdict {
    root: u64,
    pivot: i32,
    result: i32,
    mv: Option<u64>,
}

/// A bucket of two packed entries, in one aligned 16 bytes.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
struct WordPair([u64; 2]);

impl SharedBounds {
    /// A table of `megabytes`, for solvers made by [`super::Solver::sharing`].
    pub fn new(megabytes: usize) -> Result<Arc<Self>, String> {
        let count = (megabytes.max(1).saturating_mul(1 << 20) / 16).max(1);
        // SAFETY: all-zero bytes are two u64 (entries that know nothing).
        let buckets = unsafe { Slab::zeroed(count) }
            .map_err(|e| format!("cannot allocate a {megabytes} MB solver table: {e}"))?;
        let slot_bits = buckets.len().next_power_of_two().trailing_zeros();
        Ok(Arc::new(SharedBounds {
            buckets,
            salt: AtomicU32::new(0),
            slot_bits,
            verdicts: Mutex::new(Vec::new()),
            verdicts_given: AtomicU64::new(0),
        }))
    }

    fn bucket(&self, key: u64) -> &[AtomicU64; 2] {
        let top = if self.slot_bits == 0 {
            0
        } else {
            key >> (64 - self.slot_bits)
        };
        let index = ((top as u128 * self.buckets.len() as u128) >> self.slot_bits) as usize;
        // SAFETY: `index` is below the slab's length; two AtomicU64 have
        // the size and alignment of two u64, and the words are only ever
        // reached through this atomic view once the table is shared.
        unsafe { &*self.buckets.as_ptr().add(index).cast::<[AtomicU64; 2]>() }
    }

    /// The check bits of `key`: the low 32 (mixed with the generation)
    /// and the 5 above them.
    fn checks(&self, key: u64) -> (u32, u8) {
        (
            key as u32 ^ self.salt.load(AtomicOrdering::Relaxed),
            ((key >> 32) as u8) << MORE_SHIFT,
        )
    }

    fn unpack<M: Copy + PackedMove>(word: u64) -> Entry<M> {
        let flags = (word >> 48) as u8;
        Entry {
            check: word as u32,
            lower_above_open: (word >> 32) as u8,
            upper_below_open: (word >> 40) as u8,
            flags,
            mv: if flags & MOVE_SET != 0 {
                MaybeUninit::new(M::unpack(word >> 56))
            } else {
                MaybeUninit::uninit()
            },
        }
    }

    fn pack<M: Copy + PackedMove>(e: &Entry<M>) -> u64 {
        let mv = e.mv().map(M::pack).filter(|&bits| bits < 256);
        let flags = (e.flags & !MOVE_SET) | mv.is_some() as u8;
        e.check as u64
            | (e.lower_above_open as u64) << 32
            | (e.upper_below_open as u64) << 40
            | (flags as u64) << 48
            | mv.unwrap_or(0) << 56
    }

    fn probe<M: Copy + PackedMove>(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        let (check, more) = self.checks(key);
        self.bucket(key)
            .iter()
            .map(|word| Self::unpack::<M>(word.load(AtomicOrdering::Relaxed)))
            .find(|e| matches(e, check, more))
            .map(|e| (expand(e.lower(), ply), expand(e.upper(), ply), e.mv()))
    }

    fn store<M: Copy + PackedMove>(&self, key: u64, ply: usize, bound: Learned<M>) {
        let bucket = self.bucket(key);
        let load = |i: usize| Self::unpack::<M>(bucket[i].load(AtomicOrdering::Relaxed));
        let mut ways = [load(0), load(1)];
        let (check, more) = self.checks(key);
        let in_front = matches(&ways[0], check, more);
        place(&mut ways, check, more);
        merge(&mut ways[0], ply, bound);
        if !in_front {
            bucket[1].store(Self::pack(&ways[1]), AtomicOrdering::Relaxed);
        }
        bucket[0].store(Self::pack(&ways[0]), AtomicOrdering::Relaxed);
    }

    fn prefetch(&self, key: u64) {
        slab::prefetch(self.bucket(key).as_ptr());
    }

    fn verdicts(&self) -> std::sync::MutexGuard<'_, Vec<Verdict>> {
        // A solver that panicked holding the lock left the list whole.
        self.verdicts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Where a solver keeps its bounds: a table of its own ([`BoundTable`])
/// or one it shares (`Arc<SharedBounds>`).
pub trait Bounds<M> {
    /// Lower bound, upper bound and proving move, root-relative at `ply`.
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)>;
    /// Records what a search proved of the position of `key`.
    fn store(&mut self, key: u64, ply: usize, bound: Learned<M>);
    /// Starts loading the entry of `key` into the cache.
    fn prefetch(&self, key: u64);
    /// Forgets every bound (a shared table's, for all its solvers).
    fn clear(&mut self);
    /// Brings the memory in now rather than at first use.
    fn make_resident(&mut self);
    /// Tells the table's other solvers that the null-window search of
    /// `root` at `pivot` returned `result`, `mv` proving it if it failed
    /// high (nothing to tell when no other solver shares the table).
    fn give_verdict(&self, _root: u64, _pivot: i32, _result: i32, _mv: Option<M>) {}
    /// A search of `root` at `pivot` that another solver finished: its
    /// result and move.
    fn verdict(&self, _root: u64, _pivot: i32) -> Option<(i32, Option<M>)> {
        None
    }
    /// How many verdicts were given so far: when it has not changed, no
    /// search has been finished by another solver.
    fn verdicts_given(&self) -> u64 {
        0
    }
}

impl<M: Copy + Default + PartialEq> Bounds<M> for BoundTable<M> {
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        BoundTable::probe(self, key, ply)
    }
    fn store(&mut self, key: u64, ply: usize, bound: Learned<M>) {
        BoundTable::store(self, key, ply, bound);
    }
    fn prefetch(&self, key: u64) {
        BoundTable::prefetch(self, key);
    }
    fn clear(&mut self) {
        BoundTable::clear(self);
    }
    fn make_resident(&mut self) {
        self.buckets.make_resident();
    }
}

impl<M: Copy + PackedMove> Bounds<M> for Arc<SharedBounds> {
    fn probe(&self, key: u64, ply: usize) -> Option<(i32, i32, Option<M>)> {
        SharedBounds::probe(self, key, ply)
    }
    fn store(&mut self, key: u64, ply: usize, bound: Learned<M>) {
        SharedBounds::store(self, key, ply, bound);
    }
    fn prefetch(&self, key: u64) {
        SharedBounds::prefetch(self, key);
    }
    fn clear(&mut self) {
        self.salt.fetch_add(0x9E37_79B9, AtomicOrdering::Relaxed);
        self.verdicts().clear();
    }
    fn make_resident(&mut self) {
        // Made resident by its use.
    }
    fn give_verdict(&self, root: u64, pivot: i32, result: i32, mv: Option<M>) {
        let mut verdicts = self.verdicts();
        if verdicts.len() >= MAX_VERDICTS {
            verdicts.remove(0);
        }
        verdicts.push(Verdict {
            root,
            pivot,
            result,
            mv: mv.map(M::pack),
        });
        self.verdicts_given.fetch_add(1, AtomicOrdering::Release);
    }
    fn verdict(&self, root: u64, pivot: i32) -> Option<(i32, Option<M>)> {
        self.verdicts()
            .iter()
            .rev()
            .find(|v| v.root == root && v.pivot == pivot)
            .map(|v| (v.result, v.mv.map(M::unpack)))
    }
    fn verdicts_given(&self) -> u64 {
        self.verdicts_given.load(AtomicOrdering::Acquire)
    }
}

/// Verdicts a shared table keeps: a solve takes a few dozen searches at
/// most; a book's workers solve many roots at once.
const MAX_VERDICTS: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::MAX_PLY;

    /// Bounds found by a search of one node.
    fn learned<M>(lower: i32, upper: i32, mv: Option<M>) -> Learned<M> {
        Learned {
            lower,
            upper,
            mv,
            nodes: 1,
        }
    }

    #[test]
    fn shared_entries_pack_into_one_word() {
        let table = SharedBounds::new(1).unwrap();
        let table: &SharedBounds = &table;
        let key = 0x0123_4567_89AB_CDEFu64;
        assert_eq!(table.probe::<u8>(key, 0), None);
        table.store(key, 0, learned(-(MATE - 9), MATE - 7, Some(6u8)));
        assert_eq!(
            table.probe(key, 0),
            Some((-(MATE - 9), MATE - 7, Some(6u8)))
        );
        for bit in [0, 20, 34, 36] {
            assert!(
                table.probe::<u8>(key ^ (1 << bit), 0).is_none(),
                "bit {bit}"
            );
        }
        // A move that does not fit in 8 bits is not kept; the bounds are.
        table.store(key, 0, learned(MATE - 7, MATE - 7, Some(300u16)));
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
        // Enough positions to grow the used part once (past a quarter of
        // its entries), each with bounds and a move of its own.
        let count = FIRST_ACTIVE;
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
            table.store(k, 0, learned(-value(k), value(k), Some((k % 7) as u8)));
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
        // Only a third position in a bucket loses one: about one in a
        // hundred here (growth without moving them would lose the first
        // half of them).
        assert!(found > count * 97 / 100, "{found} of {count}");
        table.clear();
        assert_eq!(table.active, FIRST_ACTIVE);
        assert!(keys.iter().all(|&k| table.probe(k, 0).is_none()));
    }

    #[test]
    fn positions_of_one_slot_are_told_apart_by_the_whole_check() {
        let mut table = BoundTable::<u8>::new(8).unwrap();
        let key = 0x0123_4567_89AB_CDEFu64;
        table.store(key, 0, learned(0, 0, Some(3)));
        assert_eq!(table.probe(key, 0), Some((0, 0, Some(3))));
        // Bits of the check (the low 33 with this table), and bits that
        // choose the bucket.
        for bit in [0, 20, 32, 45, 50, 63] {
            assert!(table.probe(key ^ (1 << bit), 0).is_none(), "bit {bit}");
        }
        // Still so once the table has grown to the whole of it.
        let mut x = 7u64;
        while table.active < table.buckets.len() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            table.store(x ^ (x >> 31), 0, learned(0, 0, None));
        }
        table.store(key, 0, learned(0, 0, Some(3)));
        for bit in [0, 20, 32, 45, 50, 63] {
            assert!(table.probe(key ^ (1 << bit), 0).is_none(), "bit {bit}");
        }
        assert_eq!(table.probe(key, 0), Some((0, 0, Some(3))));
    }

    #[test]
    fn a_bucket_keeps_the_costly_entry_and_the_latest() {
        let tables: [Box<dyn Bounds<u8>>; 2] = [
            Box::new(BoundTable::<u8>::new(1).unwrap()),
            Box::new(SharedBounds::new(1).unwrap()),
        ];
        for (i, mut table) in tables.into_iter().enumerate() {
            let store = |table: &mut Box<dyn Bounds<u8>>, key: u64, nodes: u64| {
                let bound = Learned {
                    nodes,
                    ..learned(0, 0, Some(1u8))
                };
                table.store(key, 0, bound);
                table.probe(key, 0).is_some()
            };
            // One bucket: the same top bits, other low ones.
            let top = 0xABCD_u64 << 48;
            assert!(store(&mut table, top | 1, 1 << 20));
            for low in 2..40 {
                assert!(store(&mut table, top | low, 3));
            }
            assert!(table.probe(top | 1, 0).is_some(), "table {i}");
            assert!(table.probe(top | 39, 0).is_some(), "table {i}");
            assert!(table.probe(top | 38, 0).is_none(), "table {i}");
            // A costlier position still displaces a cheaper one.
            assert!(store(&mut table, top | 50, 1 << 30));
            assert!(store(&mut table, top | 51, 3));
            assert!(table.probe(top | 1, 0).is_none(), "table {i}");
            assert!(table.probe(top | 50, 0).is_some(), "table {i}");
        }
    }
}
