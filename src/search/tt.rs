//! Transposition table: buckets of four entries, depth-preferred
//! replacement with generation aging. An entry is at most 16 bytes when the
//! game's move fits in 8.

use super::score::{from_table, to_table};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least `score` (a cut-off).
    Lower,
    /// The true score is at most `score` (no move raised alpha).
    Upper,
    Exact,
}

#[derive(Clone, Copy, Default)]
pub struct Entry<M> {
    mv: M,
    check: u32,
    score: i16,
    depth: u8,
    /// bits 0-1: bound (0 = empty), bit 2: has move, bits 3-7: generation.
    meta: u8,
}

const BUCKET: usize = 4;
const GENERATIONS: u8 = 32;

#[derive(Clone, Copy, Default)]
struct Bucket<M> {
    entries: [Entry<M>; BUCKET],
}

/// What a probe found, with mate scores already made root-relative.
#[derive(Clone, Copy, Debug)]
pub struct Hit<M> {
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

impl<M: Copy + Default> Entry<M> {
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

pub struct TranspositionTable<M> {
    /// Empty (its memory reserved, not touched) until the first search,
    /// so that a table nobody searches with takes no resident memory.
    buckets: Vec<Bucket<M>>,
    count: usize,
    generation: u8,
    megabytes: usize,
}

impl<M: Copy + Default + PartialEq> TranspositionTable<M> {
    /// A table of `megabytes` (at least 1). Fails, rather than aborting
    /// the process, when the memory cannot be had. The memory is only
    /// reserved here; the first search fills it.
    pub fn new(megabytes: usize) -> Result<Self, String> {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Bucket<M>>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {megabytes} MB hash table"))?;
        Ok(TranspositionTable {
            buckets,
            count,
            generation: 0,
            megabytes: megabytes.max(1),
        })
    }

    /// The size asked for at creation.
    pub fn megabytes(&self) -> usize {
        self.megabytes
    }

    pub fn entry_size() -> usize {
        std::mem::size_of::<Entry<M>>()
    }

    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Called once per search, before any probe: fills the table on first
    /// use, and ages older entries so that they go first.
    pub fn new_search(&mut self) {
        if self.buckets.is_empty() {
            self.buckets.resize(self.count, Bucket::default());
        }
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key's high bits onto any table size; the
        // low 32 bits are the check, so the two stay independent.
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit<M>> {
        let check = key as u32;
        let bucket = &self.buckets[self.index(key)];
        bucket.entries.iter().find_map(|e| {
            let bound = e.bound()?;
            (e.check == check).then(|| Hit {
                mv: (e.meta & 4 != 0).then_some(e.mv),
                score: from_table(e.score as i32, ply),
                depth: e.depth as i32,
                bound,
            })
        })
    }

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
            None if same && old.meta & 4 != 0 => Some(old.mv),
            None => None,
        };
        let bound_bits = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        bucket.entries[slot] = Entry {
            mv: kept_move.unwrap_or_default(),
            check,
            score: to_table(score, ply) as i16,
            depth: depth.clamp(0, 255) as u8,
            meta: bound_bits | if kept_move.is_some() { 4 } else { 0 } | (generation << 3),
        };
    }

    /// Permille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(250);
        if sample == 0 {
            return 0;
        }
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
    fn memory_is_filled_by_the_first_search_only() {
        let mut tt = TranspositionTable::<u8>::new(64).unwrap();
        assert!(tt.buckets.is_empty() && tt.buckets.capacity() > 0);
        assert_eq!(tt.hashfull(), 0);
        tt.new_search();
        let bytes = tt.buckets.len() * std::mem::size_of::<Bucket<u8>>();
        assert!(bytes <= 64 << 20 && bytes + std::mem::size_of::<Bucket<u8>>() > 64 << 20);
    }

    #[test]
    fn store_then_probe() {
        let mut tt = TranspositionTable::<u8>::new(1).unwrap();
        tt.new_search();
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
        tt.new_search();
        tt.store(7, 0, Some(1), 10, 8, Bound::Lower);
        tt.store(7, 0, None, 5, 2, Bound::Upper);
        let hit = tt.probe(7, 0).unwrap();
        assert_eq!((hit.depth, hit.score, hit.mv), (8, 10, Some(1)));
    }

    #[test]
    fn full_bucket_replaces_shallowest_and_oldest() {
        let mut tt = TranspositionTable::<u8>::new(1).unwrap();
        tt.new_search();
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
