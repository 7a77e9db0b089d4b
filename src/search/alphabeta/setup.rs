//! Making a searcher: its tables and their sizes, the helpers of a
//! parallel search, and forgetting what it learned.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

use super::defence::RootDefence;
use super::exact::Exact;
use super::{Searcher, Stack};
use crate::game::Game;
use crate::search::clock::Clock;
use crate::search::ordering::Ordering;
use crate::search::params::SearchParams;
use crate::search::smp::SharedSearch;
use crate::search::smp::Team;
use crate::search::stats::SearchStats;
use crate::search::tt::TranspositionTable;

/// The largest main table of a game of bounded length, whose `Hash` goes
/// to the solver's table: both are resident from their allocation, and
/// the main search, which plays only until the solver can prove the
/// result, fills far less.
const BOUNDED_MAIN_TABLE_MAX_MB: usize = 1024;

impl<G: Game> Searcher<G> {
    /// A searcher with a transposition table of `hash_mb` megabytes; `Err`
    /// when the table cannot be allocated.
    pub fn new(hash_mb: usize, params: SearchParams) -> Result<Self, String> {
        let hash_mb = hash_mb.max(1);
        let tt = Arc::new(TranspositionTable::new(Self::main_table_mb(hash_mb))?);
        let mut searcher = Self::with_table(
            tt,
            Arc::new(AtomicU64::new(0)),
            Arc::new(SharedSearch::default()),
            params,
        );
        searcher.hash_mb = hash_mb;
        searcher.exact.solver = Self::solver_if_bounded(hash_mb);
        Ok(searcher)
    }

    /// Whether the game's length is bounded and short enough to solve in
    /// play: then the timed search tries the solver first, and `Hash`
    /// sizes the solver's table.
    pub(super) fn bounded() -> bool {
        G::SOLVER_FIRST
            && G::start(&crate::game::Settings::default())
                .ok()
                .and_then(|pos| pos.plies_left_bound())
                .is_some()
    }

    /// The main table's size for a `Hash` of `hash_mb`.
    pub(super) fn main_table_mb(hash_mb: usize) -> usize {
        if Self::bounded() {
            hash_mb.min(BOUNDED_MAIN_TABLE_MAX_MB)
        } else {
            hash_mb
        }
    }

    /// A searcher on the table `tt`, with no solver and fresh memory.
    pub(super) fn with_table(
        tt: Arc<TranspositionTable<G::Move>>,
        helper_nodes: Arc<AtomicU64>,
        shared: Arc<SharedSearch<G::Move>>,
        params: SearchParams,
    ) -> Self {
        let hash_mb = tt.megabytes();
        Searcher {
            params,
            excluded_root: Vec::new(),
            book: None,
            stats: SearchStats::default(),
            tt,
            team: Team::new(shared, helper_nodes),
            iteration_depth: 0,
            max_depth: 0,
            exact: Exact::default(),
            ordering: Ordering::new(G::HISTORY_SLOTS),
            stack: Stack::new(),
            nodes: 0,
            checked_nodes: 0,
            seldepth: 0,
            horizon_hits: 0,
            clock: Clock::default(),
            aborted: false,
            root_choices: 0,
            root_score: 0,
            defence: RootDefence::default(),
            hash_mb,
            last_copy: None,
        }
    }

    /// Replaces the table with one of `hash_mb` (a no-op at the same
    /// size). The old table is freed first, so that memory never holds
    /// both; if the new one cannot be had, one of the old size returns.
    pub fn resize(&mut self, hash_mb: usize) -> Result<(), String> {
        let (old, hash_mb) = (self.hash_mb, hash_mb.max(1));
        if old == hash_mb {
            return Ok(());
        }
        self.tt = Arc::new(TranspositionTable::new(1)?);
        self.exact.solver = None;
        self.exact.shared = None;
        let resized = match TranspositionTable::new(Self::main_table_mb(hash_mb)) {
            Ok(table) => {
                self.tt = Arc::new(table);
                self.hash_mb = hash_mb;
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(TranspositionTable::new(Self::main_table_mb(old))?);
                Err(e)
            }
        };
        self.exact.solver = Self::solver_if_bounded(self.hash_mb);
        resized
    }

    /// A helper for Lazy SMP: it shares this searcher's table, node count
    /// and [`SharedSearch`] (busy nodes, whose moves the threads defer, and
    /// completed iterations, which every thread publishes and the others
    /// take over), has its own move-ordering memory, and searches `id % 2`
    /// plies deeper than asked, so that helpers and the main searcher
    /// spread over neighbouring depths. Drop helpers before
    /// [`Self::clear`] or [`Self::resize`]: the table is shared.
    pub fn helper(&self, id: usize) -> Self {
        let mut helper = Self::with_table(
            Arc::clone(&self.tt),
            Arc::clone(&self.team.helper_nodes),
            Arc::clone(&self.team.shared),
            self.params,
        );
        helper.team.helper = true;
        helper.team.id = id;
        helper.team.depth_offset = (id % 2) as u32;
        helper
    }

    /// Makes this helper search with `main`'s switches in its next search.
    pub fn follow(&mut self, main: &Self) {
        self.params = main.params;
        self.share_solver_of(main);
    }

    /// Prepares the next search for `helpers` helper threads beside this
    /// main searcher: their node count starts from zero, and what they
    /// share of the last search is forgotten.
    pub fn start_helpers(&self, helpers: usize) {
        self.team.helper_nodes.store(0, AtomicOrdering::Relaxed);
        self.team.shared.start(helpers + 1);
    }

    /// Nodes of this search, with the helpers' when this is the main
    /// searcher.
    pub(super) fn total_nodes(&self) -> u64 {
        if self.team.helper {
            self.nodes
        } else {
            self.nodes + self.team.helper_nodes.load(AtomicOrdering::Relaxed)
        }
    }

    /// Forgets everything learned: table, killers, history.
    pub fn clear(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => {
                // Helpers still hold the table: leave it to them.
                if let Ok(tt) = TranspositionTable::new(self.tt.megabytes()) {
                    self.tt = Arc::new(tt);
                }
            }
        }
        self.ordering.clear();
        if let Some(solver) = &mut self.exact.solver {
            solver.clear();
        }
        if let Some(solver) = &mut self.exact.shared {
            solver.clear();
        }
        self.exact.hint = None;
        if let Some(numbers) = &mut self.exact.numbers {
            numbers.table().clear();
        }
        self.last_copy = None;
    }
}
