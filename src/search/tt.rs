//! Transposition table: buckets of four entries, depth-preferred
//! replacement with generation aging. An entry is at most 16 bytes when the
//! game's move fits in 8.
//!
//! The table is allocated zeroed by the system (an all-zero entry is an
//! empty one), so a table of any size is ready at once and takes resident
//! memory only as searches write to it.

use std::alloc::{Layout, alloc_zeroed};
use std::mem::MaybeUninit;

use super::score::{from_table, to_table};

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

/// One table slot (at most 16 bytes).
pub struct Entry<M> {
    /// Written whenever bit 2 of `meta` is set, and read only then: the
    /// zeroed bytes of an empty entry need not be a valid move.
    mv: MaybeUninit<M>,
    check: u32,
    score: i16,
    depth: u8,
    /// bits 0-1: bound (0 = empty), bit 2: has move, bits 3-7: generation.
    meta: u8,
}

const BUCKET: usize = 4;
const GENERATIONS: u8 = 32;

struct Bucket<M> {
    entries: [Entry<M>; BUCKET],
}

// By hand: derived impls would ask `M: Clone` where `MaybeUninit<M>`
// needs `M: Copy`.
impl<M: Copy> Clone for Entry<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: Copy> Copy for Entry<M> {}
impl<M: Copy> Clone for Bucket<M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<M: Copy> Copy for Bucket<M> {}

/// `count` empty buckets from zeroed memory, or `None` if the system has
/// none to give.
fn zeroed_buckets<M>(count: usize) -> Option<Vec<Bucket<M>>> {
    let layout = Layout::array::<Bucket<M>>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size. Every field of a bucket is
    // an integer or a `MaybeUninit`, so all-zero bytes are a valid bucket
    // (an empty one), and the vector takes the allocation with the exact
    // layout the global allocator gave it, as `Vec` itself would.
    unsafe {
        let ptr = alloc_zeroed(layout).cast::<Bucket<M>>();
        (!ptr.is_null()).then(|| Vec::from_raw_parts(ptr, count, count))
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

impl<M: Copy + Default> Entry<M> {
    fn has_move(&self) -> bool {
        self.meta & 4 != 0
    }

    fn mv(&self) -> Option<M> {
        // SAFETY: bit 2 is set only by `store`, together with a move.
        self.has_move().then(|| unsafe { self.mv.assume_init() })
    }

    fn bound(&self) -> Option<Bound> {
        match self.meta & 3 {
            1 => Some(Bound::Lower),
            2 => Some(Bound::Upper),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }

    fn generation(&self) -> u8 {
        self.meta >> 3
    }
}

/// The transposition table: depth-preferred replacement with generation
/// aging, keyed by [`crate::game::Game::hash`].
pub struct TranspositionTable<M> {
    buckets: Vec<Bucket<M>>,
    generation: u8,
    megabytes: usize,
}

impl<M: Copy + Default + PartialEq> TranspositionTable<M> {
    /// A table of `megabytes` (at least 1). Fails, rather than aborting
    /// the process, when the memory cannot be had.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket<M>>()).max(1);
        let buckets = zeroed_buckets(count)
            .ok_or_else(|| format!("cannot allocate a {megabytes} MB hash table"))?;
        Ok(TranspositionTable {
            buckets,
            generation: 0,
            megabytes: megabytes.max(1),
        })
    }

    /// The size asked for at creation.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    /// Bytes per entry.
    pub fn entry_size() -> usize {
        std::mem::size_of::<Entry<M>>()
    }

    /// Empties the table by taking fresh zeroed memory (the old is freed
    /// first), which is instant and leaves nothing resident.
    pub fn clear(&mut self) {
        let count = self.buckets.len();
        self.buckets = Vec::new();
        self.buckets = zeroed_buckets(count)
            .or_else(|| zeroed_buckets(1))
            .expect("one bucket of memory");
        self.generation = 0;
    }

    /// Called once per search so that older entries age out first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key's high bits onto any table size; the
        // low 32 bits are the check, so the two stay independent.
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored, with mate scores made relative to
    /// `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit<M>> {
        let check = key as u32;
        let bucket = &self.buckets[self.index(key)];
        bucket.entries.iter().find_map(|e| {
            let bound = e.bound()?;
            (e.check == check).then(|| Hit {
                mv: e.mv(),
                score: from_table(e.score as i32, ply),
                depth: e.depth as i32,
                bound,
            })
        })
    }

    /// Stores a result for `key` searched at `ply`, unless a deeper one of
    /// this search is kept.
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Option<M>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let check = key as u32;
        let generation = self.generation;
        let index = self.index(key);
        let bucket = &mut self.buckets[index];
        let slot = match bucket
            .entries
            .iter()
            .position(|e| e.bound().is_some() && e.check == check)
        {
            Some(i) => i,
            None => {
                // Replace the shallowest entry, counting each generation of
                // age as four plies of depth; empty slots go first.
                let worth = |e: &Entry<M>| -> i32 {
                    if e.bound().is_none() {
                        return i32::MIN;
                    }
                    let age = (GENERATIONS + generation - e.generation()) % GENERATIONS;
                    e.depth as i32 - 4 * age as i32
                };
                (0..BUCKET)
                    .min_by_key(|&i| worth(&bucket.entries[i]))
                    .unwrap_or(0)
            }
        };
        let old = bucket.entries[slot];
        let same = old.bound().is_some() && old.check == check;
        // Keep a deeper result for the same position from this search
        // unless the new one is exact.
        if same
            && old.generation() == generation
            && old.depth as i32 > depth
            && bound != Bound::Exact
        {
            return;
        }
        let kept_move = match mv {
            Some(m) => Some(m),
            None if same => old.mv(),
            None => None,
        };
        let bound_bits = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        bucket.entries[slot] = Entry {
            mv: kept_move.map_or(MaybeUninit::uninit(), MaybeUninit::new),
            check,
            score: to_table(score, ply) as i16,
            depth: depth.clamp(0, 255) as u8,
            meta: bound_bits | if kept_move.is_some() { 4 } else { 0 } | (generation << 3),
        };
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        let used: usize = self.buckets[..sample]
            .iter()
            .map(|b| {
                b.entries
                    .iter()
                    .filter(|e| e.bound().is_some() && e.generation() == self.generation)
                    .count()
            })
            .sum();
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
        let mut tt = TranspositionTable::<u8>::new(1).unwrap();
        tt.store(7, 0, Some(1), 10, 8, Bound::Lower);
        tt.store(7, 0, None, 5, 2, Bound::Upper);
        let hit = tt.probe(7, 0).unwrap();
        assert_eq!((hit.depth, hit.score, hit.mv), (8, 10, Some(1)));
    }

    #[test]
    fn full_bucket_replaces_shallowest_and_oldest() {
        let mut tt = TranspositionTable::<u8>::new(1).unwrap();
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
}
