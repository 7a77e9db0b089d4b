//! Search enhancements as switches, so that each can be measured on and
//! off. All are on by default.

/// Declares each switch once: its documentation, its field of
/// [`SearchParams`] and its option name, in option order (the order of
/// [`SWITCHES`] and of [`SearchParams::from_mask`]'s bits).
macro_rules! switches {
    ($($(#[doc = $doc:literal])* $field:ident => $name:literal,)*) => {
        /// Which enhancements the searcher uses; [`SearchParams::default`]
        /// turns all on, [`SearchParams::all`]`(false)` gives plain
        /// alpha-beta to a fixed depth. Each is a UGI option (see
        /// [`SWITCHES`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[doc = $doc])* pub $field: bool,)*
        }

        /// Option names (as `setoption` spells them) and the field each sets.
        pub const SWITCHES: &[(&str, Accessor)] = &[$(($name, |p| &mut p.$field)),*];

        impl SearchParams {
            /// Every switch set to `on`.
            pub fn all(on: bool) -> SearchParams {
                SearchParams { $($field: on),* }
            }
        }
    };
}

type Accessor = fn(&mut SearchParams) -> &mut bool;

switches! {
    /// Search depth 1, 2, 3, ... and reuse each iteration's ordering (a
    /// depth-limited search without it goes straight to its depth).
    iterative_deepening => "UseIterativeDeepening",
    /// Store and reuse results of positions reached more than once.
    transposition_table => "UseTT",
    /// Principal-variation search: null windows after the first move.
    pvs => "UsePVS",
    /// Aspiration windows around the previous iteration's score.
    aspiration => "UseAspiration",
    /// Killer moves: quiet moves that caused a cutoff at the same ply.
    killers => "UseKillers",
    /// The history heuristic over [`crate::game::Game::history_slot`].
    history => "UseHistory",
    /// The game's ordering hint [`crate::game::Game::move_score`].
    move_scores => "UseMoveScores",
    /// Null-move pruning where [`crate::game::Game::null_move_allowed`].
    null_move => "UseNullMove",
    /// Quiescence search over [`crate::game::Game::tactical_moves`] at the
    /// horizon.
    quiescence => "UseQuiescence",
    /// Cut branches that cannot beat a mate already found.
    mate_distance_pruning => "UseMateDistancePruning",
    /// Timed searches of games with a bounded length first try to solve
    /// the root exactly (the solving mode), with half the time.
    solver => "UseSolver",
    /// Ask the game for a win proved by its threat search (at the root
    /// and, with little work, at the horizon); such wins may lie beyond
    /// the nominal depth.
    threat_search => "UseThreatSearch",
    /// Ask the game's wider threat search ([`crate::game::Game::threat_win`]):
    /// a win for the side to move at the root is played at once.
    threat_space => "UseThreatSpace",
    /// With `threat_space`: the best move of each completed iteration is
    /// tested for a threat-space win of the opponent's after it, and a
    /// refuted one is searched again as the loss it is. In self-play at
    /// 300 ms per move it was even (140-17-143); against PentaZen at 1 s,
    /// whose wins are threat sequences, it scored 45.5/96 where the build
    /// without it (and with a quarter of the effort) scored 41.5/96.
    threat_defence => "UseThreatDefence",
    /// Late-move reductions: quiet moves ([`crate::game::Game::quiet_move`])
    /// late in the ordering are searched less deeply first, and again at
    /// full depth only if they beat alpha.
    lmr => "UseLMR",
    /// Late-move pruning: near the horizon, outside the principal
    /// variation, quiet moves beyond a count growing with depth are not
    /// searched.
    late_move_pruning => "UseLateMovePruning",
    /// Moves the game calls forcing ([`crate::game::Game::forcing_move`])
    /// are searched one ply deeper.
    extensions => "UseExtensions",
    /// With `threat_search`: where the opponent would have a quick
    /// threat-search win if the side to move passed, the moves the game
    /// says may stop it ([`crate::game::Game::threat_defences`]) are
    /// searched first, and the others only if all of those lose. On: it
    /// scored 239-12-194 against the build without it (gomoku, 300 ms per
    /// move, SPRT [0, 20] accepted).
    tree_defence => "UseTreeDefence",
    /// Futility pruning (static null move): near the horizon, outside the
    /// principal variation, a node whose static evaluation beats beta by
    /// the game's [`crate::game::Game::futility_margin`] returns it.
    futility => "UseFutility",
    /// Razoring: near the horizon, outside the principal variation, a
    /// node whose static evaluation falls short of alpha by the game's
    /// margin is settled by the quiescence search when that agrees.
    razoring => "UseRazoring",
    /// Internal iterative reduction: a node the transposition table knows
    /// no move for is searched a ply shallower.
    iir => "UseIIR",
    /// The solver folds a position and its mirror image into one table
    /// entry ([`crate::game::Game::solver_key`]).
    solver_mirror => "UseSolverMirror",
    /// The solver bounds a node by what the rules say the side to move
    /// can still get ([`crate::game::Game::result_ceiling`]).
    solver_ceiling => "UseSolverCeiling",
    /// Enhanced transposition cutoffs: before searching its moves, a
    /// solver node looks up its children's table entries, for a cutoff or
    /// a better lower bound.
    solver_etc => "UseSolverETC",
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::all(true)
    }
}

impl SearchParams {
    /// Sets the switch called `name` (case-insensitive); false if unknown.
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match SWITCHES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some((_, field)) => {
                *field(self) = on;
                true
            }
            None => false,
        }
    }

    /// The combination numbered by the bits of `mask`, in `SWITCHES` order.
    pub fn from_mask(mask: u32) -> SearchParams {
        let mut params = SearchParams::all(false);
        for (i, (_, field)) in SWITCHES.iter().enumerate() {
            *field(&mut params) = mask & (1 << i) != 0;
        }
        params
    }
}
