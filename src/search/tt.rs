//! Transposition table: buckets of four entries, depth-preferred
//! replacement with generation aging, shared by every search thread.
//!
//! An entry is a few 32-bit atomic words: a check word, a data word
//! (score, depth, bound, generation) and the move's packed words (one when
//! the move fits in 4 bytes, two when in 8), so at most 16 bytes. The check
//! word holds the key's low 32 bits XORed with every other word: threads
//! write without locks, and an entry torn between two writes fails the
//! check and reads as a miss.
//!
//! The table is allocated zeroed by the system (an all-zero entry is an
//! empty one) and faulted in when allocated, outside any search's time.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering::Relaxed};

use super::score::{from_table, to_table};
use super::slab::Slab;
use crate::game::PackedMove;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least `score` (a cut-off).
    Lower,
    /// The true score is at most `score` (no move raised alpha).
    Upper,
    /// The score is exact.
    Exact,
}

const BUCKET: usize = 4;
const GENERATIONS: u8 = 32;

/// Zeroed atomic words from the system (on huge pages where it gives
/// them: the table is probed at random addresses), freed on drop.
struct Words {
    slab: Slab<u32>,
    len: usize,
}

impl Words {
    /// `len` zero words, or `None` if the system has none to give.
    fn zeroed(len: usize) -> Option<Words> {
        // SAFETY: all-zero bytes are a valid u32.
        unsafe { Slab::zeroed(len) }
            .ok()
            .map(|slab| Words { slab, len })
    }

    fn slice(&self) -> &[AtomicU32] {
        // SAFETY: the slab holds `len` words (at least); an AtomicU32 has
        // the size and alignment of a u32, and the words are only ever
        // reached through this atomic view.
        unsafe { std::slice::from_raw_parts(self.slab.as_ptr().cast(), self.len) }
    }
}

/// What a probe found, with mate scores already made root-relative.
#[derive(Clone, Copy, Debug)]
pub struct Hit<M> {
    /// The best or refuting move found, if any.
    pub mv: Option<M>,
    /// The score, converted back to the probing ply.
    pub score: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
}

/// One entry as read: its data word unpacked, check not yet verified.
#[derive(Clone, Copy)]
struct Slot {
    check: u32,
    data: u32,
    mv: u64,
}

impl Slot {
    fn score(&self) -> i16 {
        self.data as u16 as i16
    }
    fn depth(&self) -> u8 {
        (self.data >> 16) as u8
    }
    /// bits 0-1: bound (0 = empty), bit 2: has move, bits 3-7: generation.
    fn meta(&self) -> u8 {
        (self.data >> 24) as u8
    }
    fn has_move(&self) -> bool {
        self.meta() & 4 != 0
    }
    fn bound(&self) -> Option<Bound> {
        match self.meta() & 3 {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
    fn generation(&self) -> u8 {
        self.meta() >> 3
    }
}

/// The transposition table: depth-preferred replacement with generation
/// aging, keyed by [`crate::game::Game::hash`]. Probes and stores take
/// `&self`, so that threads share one table.
pub struct TranspositionTable<M> {
    words: Words,
    buckets: usize,
    generation: AtomicU8,
    /// Whether anything was stored since the table was made or cleared:
    /// clearing a clean table costs nothing (a new table is zeroed and
    /// faulted in, some milliseconds per hundred MB: `ply solve` clears
    /// before every line, and its solves never use this table).
    written: AtomicBool,
    megabytes: usize,
    moves: PhantomData<M>,
}

impl<M: Copy + Default + PartialEq + PackedMove> TranspositionTable<M> {
    /// 32-bit words that hold a move.
    const MOVE_WORDS: usize = std::mem::size_of::<M>().div_ceil(4);
    /// Words per entry: check, data, move.
    const ENTRY_WORDS: usize = 2 + Self::MOVE_WORDS;

    /// A table of `megabytes` (at least 1). Fails, rather than aborting
    /// the process, when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * Self::entry_size())).max(1);
        let words = Self::words_for(buckets)
            .ok_or_else(|| format!("cannot allocate a {megabytes} MB hash table"))?;
        Ok(TranspositionTable {
            words,
            buckets,
            generation: AtomicU8::new(0),
            written: AtomicBool::new(false),
            megabytes: megabytes.max(1),
            moves: PhantomData,
        })
    }

    /// Zeroed words for `buckets`, faulted in at once: a search's first
    /// probes would otherwise fault fresh pages in one by one, each zeroed
    /// by the kernel (and huge ones perhaps compacted first), between two
    /// looks at the clock: a 1 GB table made a 100 ms move take 360 ms.
    fn words_for(buckets: usize) -> Option<Words> {
        let mut words = Words::zeroed(buckets.checked_mul(BUCKET * Self::ENTRY_WORDS)?)?;
        words.slab.make_resident();
        Some(words)
    }

    /// The size asked for at creation.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Bytes per entry.
    pub fn entry_size() -> usize {
        4 * Self::ENTRY_WORDS
    }

    /// Empties the table by taking fresh zeroed memory (the old is freed
    /// first, so the two are never resident together).
    pub fn clear(&mut self) {
        self.generation.store(0, Relaxed);
        if !self.written.swap(false, Relaxed) {
            return;
        }
        self.words = Words::zeroed(1).expect("one word of memory");
        self.words = Self::words_for(self.buckets)
            .or_else(|| {
                self.buckets = 1;
                Self::words_for(1)
            })
            .expect("one bucket of memory");
    }

    /// Called once per search so that older entries age out first.
    pub fn new_search(&self) {
        let next = (self.generation.load(Relaxed) + 1) % GENERATIONS;
        self.generation.store(next, Relaxed);
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key's high bits onto any table size; the
        // low 32 bits are the check, so the two stay independent.
        ((key as u128 * self.buckets as u128) >> 64) as usize
    }

    /// Starts loading the bucket of `key` into the cache, for a probe soon
    /// after (its first and last words: a bucket may cross a line).
    pub fn prefetch(&self, key: u64) {
        let words = self.words.slice();
        let start = self.index(key) * BUCKET * Self::ENTRY_WORDS;
        super::slab::prefetch(words.as_ptr().wrapping_add(start));
        super::slab::prefetch(
            words
                .as_ptr()
                .wrapping_add(start + BUCKET * Self::ENTRY_WORDS - 1),
        );
    }

    /// The words of entry `i` of the bucket at `index`.
    fn entry(&self, index: usize, i: usize) -> &[AtomicU32] {
        let start = (index * BUCKET + i) * Self::ENTRY_WORDS;
        &self.words.slice()[start..start + Self::ENTRY_WORDS]
    }

    fn read(&self, index: usize, i: usize) -> Slot {
        let w = self.entry(index, i);
        let data = w[1].load(Relaxed);
        let mut mv = 0u64;
        let mut fold = data;
        for (k, word) in w[2..].iter().enumerate() {
            let bits = word.load(Relaxed);
            mv |= (bits as u64) << (32 * k);
            fold ^= bits;
        }
        Slot {
            check: w[0].load(Relaxed) ^ fold,
            data,
            mv,
        }
    }

    fn write(&self, index: usize, i: usize, slot: Slot) {
        let w = self.entry(index, i);
        let mut fold = slot.data;
        for (k, word) in w[2..].iter().enumerate() {
            let bits = (slot.mv >> (32 * k)) as u32;
            word.store(bits, Relaxed);
            fold ^= bits;
        }
        w[1].store(slot.data, Relaxed);
        w[0].store(slot.check ^ fold, Relaxed);
    }

    /// The entry for `key`, if stored, with mate scores made relative to
    /// `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit<M>> {
        let check = key as u32;
        let index = self.index(key);
        (0..BUCKET).find_map(|i| {
            let e = self.read(index, i);
            let bound = e.bound()?;
            (e.check == check).then(|| Hit {
                mv: e.has_move().then(|| M::unpack(e.mv)),
                score: from_table(e.score() as i32, ply),
                depth: e.depth() as i32,
                bound,
            })
        })
    }

    /// Stores a result for `key` searched at `ply`, unless a deeper one of
    /// this search is kept.
    pub fn store(&self, key: u64, ply: usize, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let check = key as u32;
        let generation = self.generation.load(Relaxed);
        // Read first: after the first store the line stays shared.
        if !self.written.load(Relaxed) {
            self.written.store(true, Relaxed);
        }
        let index = self.index(key);
        let entries: [Slot; BUCKET] = std::array::from_fn(|i| self.read(index, i));
        let slot = match entries
            .iter()
            .position(|e| e.bound().is_some() && e.check == check)
        {
            Some(i) => i,
            None => {
                // Replace the shallowest entry, counting each generation of
                // age as four plies of depth; empty slots go first.
                let worth = |e: &Slot| -> i32 {
                    if e.bound().is_none() {
                        return i32::MIN;
                    }
                    let age = (GENERATIONS + generation - e.generation()) % GENERATIONS;
                    e.depth() as i32 - 4 * age as i32
                };
                (0..BUCKET).min_by_key(|&i| worth(&entries[i])).unwrap_or(0)
            }
        };
        let old = entries[slot];
        let same = old.bound().is_some() && old.check == check;
        // Keep a deeper result for the same position from this search
        // unless the new one is exact.
        if same
            && old.generation() == generation
            && old.depth() as i32 > depth
            && bound != Bound::Exact
        {
            return;
        }
        let kept_move = match mv {
            Some(m) => Some(m.pack()),
            None if same && old.has_move() => Some(old.mv),
            None => None,
        };
        let bound_bits: u8 = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let meta = bound_bits | if kept_move.is_some() { 4 } else { 0 } | (generation << 3);
        let data = to_table(score, ply) as i16 as u16 as u32
            | (depth.clamp(0, 255) as u32) << 16
            | (meta as u32) << 24;
        self.write(
            index,
            slot,
            Slot {
                check,
                data,
                mv: kept_move.unwrap_or(0),
            },
        );
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.min(250);
        let generation = self.generation.load(Relaxed);
        let used = (0..sample)
            .flat_map(|b| (0..BUCKET).map(move |i| (b, i)))
            .filter(|&(b, i)| {
                let e = self.read(b, i);
                e.bound().is_some() && e.generation() == generation
            })
            .count();
        (used * 1000 / (sample * BUCKET)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_small() {
        assert!(TranspositionTable::<u8>::entry_size() <= 16);
        assert!(TranspositionTable::<u16>::entry_size() <= 16);
        assert!(TranspositionTable::<u64>::entry_size() <= 16);
    }

    #[test]
    fn a_large_table_is_ready_at_once_and_cleared_empty() {
        // 1 GB of untouched zero pages: made and cleared without writing it.
        let mut tt = TranspositionTable::<u16>::new(1024).unwrap();
        assert_eq!(tt.hashfull(), 0);
        tt.store(99, 0, Some(7), 1, 3, Bound::Lower);
        assert_eq!(tt.probe(99, 0).unwrap().mv, Some(7));
        tt.clear();
        assert!(tt.probe(99, 0).is_none());
        assert_eq!(tt.megabytes(), 1024);
        // Nothing stored since: clearing again keeps the same memory.
        let before = tt.words.slab.as_ptr();
        tt.clear();
        assert_eq!(tt.words.slab.as_ptr(), before);
    }

    #[test]
    fn store_then_probe() {
        let mut tt = TranspositionTable::<u8>::new(1).unwrap();
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key, 0).is_none());
        tt.store(key, 0, Some(3), 42, 5, Bound::Exact);
        let hit = tt.probe(key, 0).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.depth, hit.bound),
            (Some(3), 42, 5, Bound::Exact)
        );
        assert!(tt.probe(key ^ 1, 0).is_none(), "another check misses");
        tt.clear();
        assert!(tt.probe(key, 0).is_none());
    }

    #[test]
    fn deeper_entry_survives_shallower_bound() {
        let tt = TranspositionTable::<u8>::new(1).unwrap();
        tt.store(7, 0, Some(1), 10, 8, Bound::Lower);
        tt.store(7, 0, None, 5, 2, Bound::Upper);
        let hit = tt.probe(7, 0).unwrap();
        assert_eq!((hit.depth, hit.score, hit.mv), (8, 10, Some(1)));
    }

    #[test]
    fn full_bucket_replaces_shallowest_and_oldest() {
        let tt = TranspositionTable::<u8>::new(1).unwrap();
        // Keys with equal high bits share a bucket.
        let keys: Vec<u64> = (1..=5).map(|i| i as u64).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            tt.store(k, 0, None, 0, 10 + i as i32, Bound::Exact);
        }
        tt.store(keys[4], 0, None, 0, 20, Bound::Exact);
        assert!(
            tt.probe(keys[0], 0).is_none(),
            "depth-10 entry was the victim"
        );
        assert!(tt.probe(keys[4], 0).is_some());
        assert_eq!(tt.hashfull(), 4, "4 of the 1000 sampled entries");
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::<u64>::new(1).unwrap();
        let key = 0xfeed_0000_0000_0042;
        tt.store(key, 0, Some(0x1111_2222_3333_4444), 7, 4, Bound::Exact);
        let index = tt.index(key);
        let slot = (0..BUCKET)
            .find(|&i| tt.read(index, i).bound().is_some())
            .unwrap();
        // Another write's move words under this write's check and data.
        tt.entry(index, slot)[3].store(0x5555, Relaxed);
        assert!(tt.probe(key, 0).is_none());
    }

    #[test]
    fn threads_share_the_table_without_mixing_entries() {
        // Every thread stores entries whose move and score follow from the
        // key; whatever the interleaving, a hit is never a mix of two.
        let tt = TranspositionTable::<u64>::new(1).unwrap();
        let mixed = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let (tt, mixed) = (&tt, &mixed);
                scope.spawn(move || {
                    let mut x = t.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let key = x % 5000;
                        let key = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        tt.store(key, 0, Some(!key), (key % 1000) as i32, 3, Bound::Exact);
                        let probe = ((x >> 20) % 5000).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        if let Some(hit) = tt.probe(probe, 0)
                            && (hit.mv != Some(!probe) || hit.score != (probe % 1000) as i32)
                        {
                            mixed.fetch_add(1, Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(mixed.load(Relaxed), 0);
        assert!(tt.hashfull() > 0);
    }
}
