//! Search enhancements as switches, so that each can be measured on and
//! off. All are on by default.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    pub iterative_deepening: bool,
    pub transposition_table: bool,
    pub pvs: bool,
    pub aspiration: bool,
    pub killers: bool,
    pub history: bool,
    pub move_scores: bool,
    pub null_move: bool,
    pub quiescence: bool,
    pub mate_distance_pruning: bool,
    /// Ask the game for a win proved by its threat search (at the root
    /// and in the tree); such wins may lie beyond the nominal depth.
    pub threat_search: bool,
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
    ("UseThreatSearch", |p| &mut p.threat_search),
];

impl SearchParams {
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
            threat_search: on,
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
