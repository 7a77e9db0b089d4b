//! What the threads of one parallel search (Lazy SMP) share besides the
//! transposition table: which nodes are being searched right now, so that
//! a thread can leave a move another thread is busy with for later
//! (ABDADA-style deferral), and the deepest iteration any thread has
//! completed, which the main thread adopts instead of searching that
//! depth itself.
//!
//! With one thread nothing here steers the search: no node is marked busy
//! and no iteration is published, so a single-threaded search stays
//! deterministic.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};

/// Slots of the busy-node table (a power of two). Each thread marks only
/// the nodes on its current path, so a small table rarely collides.
const BUSY_SLOTS: usize = 1 << 12;
/// The low bits of a busy mark name the thread that set it.
const THREAD_BITS: u32 = 8;
const THREAD_MASK: u64 = (1 << THREAD_BITS) - 1;

/// An iteration completed by one thread.
#[derive(Clone, Debug)]
pub struct Completed<M> {
    /// The root it was searched from.
    pub root: u64,
    /// The depth searched, in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move at the root.
    pub score: i32,
    /// The principal variation, root move first (never empty).
    pub pv: Vec<M>,
    /// The search of this root is over: every line ended or the score is
    /// proven; a deeper iteration would find nothing new.
    pub last: bool,
}

/// Shared by the main searcher and its helpers.
pub struct SharedSearch<M> {
    /// Threads searching now (1 when the searcher runs alone).
    threads: AtomicUsize,
    /// Keys of nodes being searched, each with its thread in the low bits;
    /// 0 is a free slot.
    busy: Box<[AtomicU64]>,
    /// `deepest.depth`, readable without the lock (0 for none).
    deepest_depth: AtomicU32,
    deepest: Mutex<Option<Completed<M>>>,
}

impl<M: Clone> Default for SharedSearch<M> {
    fn default() -> Self {
        SharedSearch {
            threads: AtomicUsize::new(1),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            deepest_depth: AtomicU32::new(0),
            deepest: Mutex::new(None),
        }
    }
}

impl<M: Clone> SharedSearch<M> {
    /// Prepares a search by `threads` threads: forgets the last search's
    /// iterations and busy nodes. Call it before any of them starts.
    pub fn start(&self, threads: usize) {
        self.threads.store(threads.max(1), Relaxed);
        self.deepest_depth.store(0, Relaxed);
        *self.lock() = None;
        for slot in self.busy.iter() {
            slot.store(0, Relaxed);
        }
    }

    /// Whether several threads search together.
    pub fn parallel(&self) -> bool {
        self.threads.load(Relaxed) > 1
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Completed<M>>> {
        self.deepest.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.busy[key as usize & (BUSY_SLOTS - 1)]
    }

    /// The key's high bits, one bit set so that no mark is 0, and the
    /// thread.
    fn mark(key: u64, thread: usize) -> u64 {
        (key & !THREAD_MASK) | 1 << THREAD_BITS | (thread as u64 & THREAD_MASK)
    }

    /// Notes that `thread` searches the node `key`; true if it took a free
    /// slot (then it must call [`Self::leave`] when done).
    pub fn enter(&self, key: u64, thread: usize) -> bool {
        self.slot(key)
            .compare_exchange(0, Self::mark(key, thread), Relaxed, Relaxed)
            .is_ok()
    }

    /// `thread` is done with the node `key` it entered.
    pub fn leave(&self, key: u64, thread: usize) {
        let _ = self
            .slot(key)
            .compare_exchange(Self::mark(key, thread), 0, Relaxed, Relaxed);
    }

    /// Whether a thread other than `thread` searches the node `key` now.
    pub fn busy_elsewhere(&self, key: u64, thread: usize) -> bool {
        let (mark, mine) = (self.slot(key).load(Relaxed), Self::mark(key, thread));
        mark & !THREAD_MASK == mine & !THREAD_MASK && mark != mine
    }

    /// The depth of the deepest iteration published (0 for none).
    pub fn deepest_depth(&self) -> u32 {
        self.deepest_depth.load(Relaxed)
    }

    /// Offers a completed iteration; it is kept if deeper than the one
    /// held.
    pub fn publish(&self, done: Completed<M>) {
        if done.depth <= self.deepest_depth() || done.pv.is_empty() {
            return;
        }
        let mut held = self.lock();
        if held.as_ref().is_none_or(|h| h.depth < done.depth) {
            self.deepest_depth.store(done.depth, Relaxed);
            *held = Some(done);
        }
    }

    /// The deepest iteration published for `root`, if it is `depth` to
    /// `limit` plies deep.
    pub fn deepest(&self, root: u64, depth: u32, limit: u32) -> Option<Completed<M>> {
        if !(depth..=limit).contains(&self.deepest_depth()) {
            return None;
        }
        self.lock()
            .as_ref()
            .filter(|h| h.root == root && (depth..=limit).contains(&h.depth))
            .cloned()
    }
}

/// A searcher's part in a parallel search.
pub struct Team<M> {
    /// Busy nodes and completed iterations, shared by the threads.
    pub shared: Arc<SharedSearch<M>>,
    /// Nodes searched by helper threads in the current search, shared by
    /// the main searcher and its helpers.
    pub helper_nodes: Arc<AtomicU64>,
    /// Set on a helper: it counts its nodes into `helper_nodes`, does not
    /// age the table, and searches `depth_offset` plies deeper.
    pub helper: bool,
    /// How much deeper than asked a helper searches.
    pub depth_offset: u32,
    /// This thread's number (0 for the main searcher).
    pub id: usize,
    /// Whether the current search runs beside other threads.
    pub parallel: bool,
    /// This thread publishes the iterations it completes and takes over
    /// deeper ones completed by another thread (in this search).
    pub adopting: bool,
    /// The current iteration was aborted because another thread
    /// completed it first.
    pub superseded: bool,
}

impl<M> Team<M> {
    /// The main searcher's part (thread 0) with `shared` and
    /// `helper_nodes`; a helper's is set on it after.
    pub fn new(shared: Arc<SharedSearch<M>>, helper_nodes: Arc<AtomicU64>) -> Self {
        Team {
            shared,
            helper_nodes,
            helper: false,
            depth_offset: 0,
            id: 0,
            parallel: false,
            adopting: false,
            superseded: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_busy_only_for_other_threads_until_left() {
        let shared = SharedSearch::<u8>::default();
        let key = 0x1234_5678_9abc_def0;
        assert!(!shared.busy_elsewhere(key, 1));
        assert!(shared.enter(key, 0));
        assert!(shared.busy_elsewhere(key, 1));
        assert!(!shared.busy_elsewhere(key, 0), "not busy for itself");
        assert!(!shared.busy_elsewhere(key ^ 1 << 40, 1), "another key");
        assert!(!shared.enter(key, 1), "the slot is taken");
        shared.leave(key, 1);
        assert!(shared.busy_elsewhere(key, 1), "only its owner frees it");
        shared.leave(key, 0);
        assert!(!shared.busy_elsewhere(key, 1));
    }

    #[test]
    fn the_deepest_iteration_is_kept_per_search() {
        let shared = SharedSearch::<u8>::default();
        let done = |root, depth| Completed {
            root,
            depth,
            seldepth: depth,
            score: depth as i32,
            pv: vec![depth as u8],
            last: false,
        };
        shared.start(2);
        assert!(shared.parallel());
        shared.publish(done(7, 5));
        shared.publish(done(7, 4));
        assert_eq!(shared.deepest(7, 5, 9).map(|d| d.score), Some(5));
        assert!(shared.deepest(7, 6, 9).is_none(), "not deep enough");
        assert!(shared.deepest(7, 1, 4).is_none(), "too deep");
        assert!(shared.deepest(8, 1, 9).is_none(), "another root");
        shared.start(1);
        assert!(!shared.parallel());
        assert!(shared.deepest(7, 1, 9).is_none(), "forgotten");
    }
}
