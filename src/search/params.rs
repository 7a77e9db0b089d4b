//! Search enhancements as switches, so that each can be measured on and
//! off. All are on by default.

/// Which enhancements the searcher uses; [`SearchParams::default`] turns
/// all on, [`SearchParams::all`]`(false)` gives plain alpha-beta to a fixed
/// depth. Each is a UGI option (see [`SWITCHES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Search depth 1, 2, 3, ... and reuse each iteration's ordering (a
    /// depth-limited search without it goes straight to its depth).
    pub iterative_deepening: bool,
    /// Store and reuse results of positions reached more than once.
    pub transposition_table: bool,
    /// Principal-variation search: null windows after the first move.
    pub pvs: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Killer moves: quiet moves that caused a cutoff at the same ply.
    pub killers: bool,
    /// The history heuristic over [`crate::game::Game::history_slot`].
    pub history: bool,
    /// The game's ordering hint [`crate::game::Game::move_score`].
    pub move_scores: bool,
    /// Null-move pruning where [`crate::game::Game::null_move_allowed`].
    pub null_move: bool,
    /// Quiescence search over [`crate::game::Game::tactical_moves`] at the
    /// horizon.
    pub quiescence: bool,
    /// Cut branches that cannot beat a mate already found.
    pub mate_distance_pruning: bool,
    /// Timed searches of games with a bounded length first try to solve
    /// the root exactly (the solving mode), with half the time.
    pub solver: bool,
    /// Ask the game for a win proved by its threat search (at the root
    /// and, with little work, at the horizon); such wins may lie beyond
    /// the nominal depth.
    pub threat_search: bool,
    /// Ask the game's wider threat search ([`crate::game::Game::threat_win`]):
    /// a win for the side to move at the root is played at once.
    pub threat_space: bool,
    /// With `threat_space`: the best move of each completed iteration is
    /// tested for a threat-space win of the opponent's after it, and a
    /// refuted one is searched again as the loss it is. In self-play at
    /// 300 ms per move it was even (140-17-143); against PentaZen at 1 s,
    /// whose wins are threat sequences, it scored 45.5/96 where the build
    /// without it (and with a quarter of the effort) scored 41.5/96.
    pub threat_defence: bool,
    /// Late-move reductions: quiet moves ([`crate::game::Game::quiet_move`])
    /// late in the ordering are searched less deeply first, and again at
    /// full depth only if they beat alpha.
    pub lmr: bool,
    /// Late-move pruning: near the horizon, outside the principal
    /// variation, quiet moves beyond a count growing with depth are not
    /// searched.
    pub late_move_pruning: bool,
    /// Moves the game calls forcing ([`crate::game::Game::forcing_move`])
    /// are searched one ply deeper.
    pub extensions: bool,
    /// With `threat_search`: where the opponent would have a quick
    /// threat-search win if the side to move passed, the moves the game
    /// says may stop it ([`crate::game::Game::threat_defences`]) are
    /// searched first, and the others only if all of those lose. On: it
    /// scored 239-12-194 against the build without it (gomoku, 300 ms per
    /// move, SPRT [0, 20] accepted).
    pub tree_defence: bool,
    /// Futility pruning (static null move): near the horizon, outside the
    /// principal variation, a node whose static evaluation beats beta by
    /// the game's [`crate::game::Game::futility_margin`] returns it.
    pub futility: bool,
    /// Razoring: near the horizon, outside the principal variation, a
    /// node whose static evaluation falls short of alpha by the game's
    /// margin is settled by the quiescence search when that agrees.
    pub razoring: bool,
    /// Internal iterative reduction: a node the transposition table knows
    /// no move for is searched a ply shallower.
    pub iir: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::all(true)
    }
}

type Accessor = fn(&mut SearchParams) -> &mut bool;

/// Option names (as `setoption` spells them) and the field each sets.
pub const SWITCHES: &[(&str, Accessor)] = &[
    ("UseIterativeDeepening", |p| &mut p.iterative_deepening),
    ("UseTT", |p| &mut p.transposition_table),
    ("UsePVS", |p| &mut p.pvs),
    ("UseAspiration", |p| &mut p.aspiration),
    ("UseKillers", |p| &mut p.killers),
    ("UseHistory", |p| &mut p.history),
    ("UseMoveScores", |p| &mut p.move_scores),
    ("UseNullMove", |p| &mut p.null_move),
    ("UseQuiescence", |p| &mut p.quiescence),
    ("UseMateDistancePruning", |p| &mut p.mate_distance_pruning),
    ("UseSolver", |p| &mut p.solver),
    ("UseThreatSearch", |p| &mut p.threat_search),
    ("UseThreatSpace", |p| &mut p.threat_space),
    ("UseThreatDefence", |p| &mut p.threat_defence),
    ("UseLMR", |p| &mut p.lmr),
    ("UseLateMovePruning", |p| &mut p.late_move_pruning),
    ("UseExtensions", |p| &mut p.extensions),
    ("UseTreeDefence", |p| &mut p.tree_defence),
    ("UseFutility", |p| &mut p.futility),
    ("UseRazoring", |p| &mut p.razoring),
    ("UseIIR", |p| &mut p.iir),
];

impl SearchParams {
    /// Every switch set to `on`.
    pub fn all(on: bool) -> SearchParams {
        SearchParams {
            iterative_deepening: on,
            transposition_table: on,
            pvs: on,
            aspiration: on,
            killers: on,
            history: on,
            move_scores: on,
            null_move: on,
            quiescence: on,
            mate_distance_pruning: on,
            solver: on,
            threat_search: on,
            threat_space: on,
            threat_defence: on,
            lmr: on,
            late_move_pruning: on,
            extensions: on,
            tree_defence: on,
            futility: on,
            razoring: on,
            iir: on,
        }
    }

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
