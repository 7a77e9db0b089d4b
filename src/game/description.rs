//! What a game says about itself to the tools and protocols: its name,
//! variants, bench positions, notations. Tools and protocols read a
//! [`Description`] instead of comparing game names, so a game's knowledge
//! lives in one place: beside its rules.

/// The board sizes a game accepts through [`super::Settings::size`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boards {
    /// One board only; a size setting is refused.
    Fixed {
        /// Cells across.
        width: usize,
        /// Cells from bottom to top.
        height: usize,
    },
    /// Square or rectangular boards with sides from `min` to `max`.
    Variable {
        /// The shortest side accepted.
        min: usize,
        /// The longest side accepted.
        max: usize,
        /// Width and height when no size is given.
        default: (usize, usize),
    },
}

impl Boards {
    /// The board played when no size is given.
    pub fn default_size(self) -> (usize, usize) {
        match self {
            Boards::Fixed { width, height } => (width, height),
            Boards::Variable { default, .. } => default,
        }
    }
}

/// How `ply solve` reads and writes a position's line and its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveNotation {
    /// Moves separated by spaces, then the score in signed plies to the
    /// end of the game: `a1 b2 c1 5` (positive: the side to move wins).
    Plies,
    /// Pascal Pons' Connect Four convention: moves written one character
    /// each with no spaces (`4453`), or separated by commas where columns
    /// take two digits (`10,4,11`), and the score of a win is the winner's
    /// stones left unplayed when the winning stone drops,
    /// `(cells + 1 - stones before it) / 2` for the board's cells, negative
    /// for a loss.
    StonesLeft,
}

impl SolveNotation {
    /// The moves of a solve line's first field(s).
    pub fn split_moves(self, moves: &str) -> Vec<String> {
        match self {
            SolveNotation::StonesLeft if moves.contains(',') => {
                moves.split(',').map(|m| m.trim().to_string()).collect()
            }
            SolveNotation::StonesLeft if !moves.contains(' ') => {
                moves.chars().map(|c| c.to_string()).collect()
            }
            _ => moves.split_whitespace().map(str::to_string).collect(),
        }
    }

    /// Whether the moves take one field (`4453`) or run up to the score.
    pub fn compact_moves(self) -> bool {
        matches!(self, SolveNotation::StonesLeft)
    }
}

/// A game's self-description, one constant per game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// The name used by `--game` and `setoption name Game`.
    pub name: &'static str,
    /// A few words for people: `--help`, error messages.
    pub title: &'static str,
    /// Moves as the game writes them, for help texts: `h8`, `4`, `a2b3`.
    pub move_examples: &'static [&'static str],
    /// The board sizes the game accepts.
    pub boards: Boards,
    /// Rule variants accepted by [`super::Settings::rule`], the default
    /// first; empty when the game has none.
    pub rules: &'static [&'static str],
    /// `ply bench`: (moves from the start position, search depth).
    pub bench: &'static [(&'static str, u32)],
    /// How `ply solve` lines are written for this game.
    pub solve: SolveNotation,
    /// Whether a game can end in a draw: where it cannot, a side that
    /// cannot force a win loses.
    pub draws: bool,
    /// The board's cells are Gomocup's `x,y` squares: Piskvork engines can
    /// play the game, openings may be given as Gomocup offsets from the
    /// centre, and games can be recorded as SGF.
    pub gomocup: bool,
}

impl Description {
    /// The rule played when none is given.
    pub fn default_rule(&self) -> Option<&'static str> {
        self.rules.first().copied()
    }
}
