//! What a search did, counted without changing it: nodes per ply, beta
//! cutoffs and how many came from the first move tried, table probes and
//! hits; and, when asked for, the tree itself as a list of events for
//! `ply trace`.

/// Counters of one search, reset when it starts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes entered at each ply from the root (quiescence included).
    pub nodes_by_ply: Vec<u64>,
    /// Beta cutoffs in the main search (quiescence left out).
    pub cutoffs: u64,
    /// Those of `cutoffs` made by the first move tried.
    pub first_move_cutoffs: u64,
    /// Table look-ups, and those that found the position.
    pub tt_probes: u64,
    /// Table look-ups that found the position.
    pub tt_hits: u64,
    /// Hits whose stored bound answered the node without a search.
    pub tt_cutoffs: u64,
    /// The tree, when [`SearchStats::record_tree`] asked for it.
    pub trace: Option<Vec<TraceEvent>>,
    /// The move about to be searched, named for the next traced node.
    pending_move: Option<String>,
}

/// One step of the search as `ply trace` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// A node is entered with this window; `mv` led to it (none at the
    /// root, `null` for a null move).
    Enter {
        /// Distance from the root.
        ply: usize,
        /// The move that led here.
        mv: Option<String>,
        /// Remaining depth.
        depth: i32,
        /// The window's lower end.
        alpha: i32,
        /// The window's upper end.
        beta: i32,
    },
    /// The table answered the node.
    TableHit {
        /// The score the table gave.
        score: i32,
    },
    /// The `index`-th move tried (from 0) reached beta.
    Cutoff {
        /// Which move tried, from 0.
        index: usize,
    },
    /// The node's value.
    Exit {
        /// The value returned.
        value: i32,
    },
}

impl SearchStats {
    /// Keeps the whole tree of the next searches (small ones only).
    pub fn record_tree(&mut self) {
        self.trace = Some(Vec::new());
    }

    /// Zeroes the counters for a new search, keeping tree recording on.
    pub fn reset(&mut self) {
        let tracing = self.trace.is_some();
        *self = SearchStats::default();
        if tracing {
            self.record_tree();
        }
    }

    /// Whether the tree is being recorded.
    pub fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    /// Counts a node entered at `ply`.
    #[inline]
    pub fn node(&mut self, ply: usize) {
        if self.nodes_by_ply.len() <= ply {
            self.nodes_by_ply.resize(ply + 1, 0);
        }
        self.nodes_by_ply[ply] += 1;
    }

    /// Counts a beta cutoff by the `index`-th move tried.
    #[inline]
    pub fn cutoff(&mut self, index: usize) {
        self.cutoffs += 1;
        if index == 0 {
            self.first_move_cutoffs += 1;
        }
        self.note(TraceEvent::Cutoff { index });
    }

    /// Counts a node the table answered with `score`.
    #[inline]
    pub fn table_cutoff(&mut self, score: i32) {
        self.tt_cutoffs += 1;
        self.note(TraceEvent::TableHit { score });
    }

    /// Names the move whose node is entered next (tracing only).
    pub fn next_move(&mut self, mv: String) {
        self.pending_move = Some(mv);
    }

    /// Notes a node entered (tracing only).
    pub fn enter(&mut self, ply: usize, depth: i32, alpha: i32, beta: i32) {
        // A PVS re-search enters the same move's node again.
        let mv = if ply == 0 {
            None
        } else {
            self.pending_move.clone()
        };
        self.note(TraceEvent::Enter {
            ply,
            mv,
            depth,
            alpha,
            beta,
        });
    }

    /// Notes the value a node returns (tracing only).
    pub fn exit(&mut self, value: i32) {
        self.note(TraceEvent::Exit { value });
    }

    #[inline]
    fn note(&mut self, event: TraceEvent) {
        if let Some(trace) = &mut self.trace {
            trace.push(event);
        }
    }

    /// Share of cutoffs made by the first move tried, 0 without cutoffs.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        ratio(self.first_move_cutoffs, self.cutoffs)
    }

    /// Share of table probes that found the position.
    pub fn tt_hit_rate(&self) -> f64 {
        ratio(self.tt_hits, self.tt_probes)
    }

    /// Adds another search's counters (the tree is not merged).
    pub fn add(&mut self, other: &SearchStats) {
        if self.nodes_by_ply.len() < other.nodes_by_ply.len() {
            self.nodes_by_ply.resize(other.nodes_by_ply.len(), 0);
        }
        for (mine, theirs) in self.nodes_by_ply.iter_mut().zip(&other.nodes_by_ply) {
            *mine += theirs;
        }
        self.cutoffs += other.cutoffs;
        self.first_move_cutoffs += other.first_move_cutoffs;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
