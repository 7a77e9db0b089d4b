//! Lasca, Emanuel Lasker's column draughts on a 7x7 board.
//!
//! Captured pieces are not removed but go under the capturing column, so a
//! square holds a stack owned by its top piece (the commander). Geometry
//! and the move encoding live in `board`, the stack type in `column`, the
//! text formats in `fen` and the evaluation in `eval`.
//!
//! Rule details as implemented: the moving column is lifted off its square
//! for the whole move, and the top piece of each jumped column is taken at
//! once, so a square emptied by a jump may be landed on later in the same
//! move (it may never be jumped twice).
//!
//! The game ends when the side to move has no legal move (it loses), on a
//! third occurrence of a position with the same side to move, or after 100
//! plies without a capture or a soldier move (both draws). Only officer
//! moves are reversible, so the repetition scan looks back no further than
//! that ply counter.

mod board;
mod column;
mod eval;
mod fen;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

pub use board::LascaMove;
use board::{ALL_DIRS, FORWARD, NEXT, NONE, PLAYING, SQUARES, promotion_rank, rank_of, squares};
use column::Column;

use super::{Boards, Description, Game, GameError, Outcome, Player, Settings, SolveNotation};

/// Lasca as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "lasca",
    title: "Lasca, 7x7 columns",
    move_examples: &["c3-d4", "c3-e5-c7"],
    boards: Boards::Fixed {
        width: 7,
        height: 7,
    },
    rules: &[],
    bench: &[
        ("", 17),
        ("c3-b4 a5-c3 b2-d4", 19),
        ("e3-d4 c5-e3 f2-d4 e5-f4 g3-e5 d6-f4 g1-f2 f4-g3", 18),
        (
            "c3-b4 a5-c3 b2-d4 g5-f4 e3-g5 c5-e3 d2-f4 d4-b2 a1-c3 e5-d4 e3-c5 d6-b4-d2",
            18,
        ),
    ],
    solve: SolveNotation::Plies,
    draws: true,
    gomocup: false,
};

/// The start position in Lasca's FEN.
pub const START_FEN: &str = "b,b,b,b/b,b,b/b,b,b,b/3/w,w,w,w/w,w,w/w,w,w,w w 0";

/// Plies without a capture or a soldier move after which the game is drawn.
pub const QUIET_LIMIT: u16 = 100;

/// Undo records are kept in vectors sized for a long game up front, so
/// that search never allocates in make/unmake.
const HISTORY_CAPACITY: usize = 1024;

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| super::zobrist::keys(0x1A5CA, SQUARES + 1))
}
const SIDE_KEY: usize = SQUARES;

/// A column's share of the position key: a strong bijective mix of its
/// whole content salted with a random key per square, so that removing a
/// piece from either end costs one update instead of a rehash per depth.
fn column_key(sq: usize, col: Column) -> u64 {
    if col.is_empty() {
        return 0;
    }
    // splitmix64's finaliser.
    let mut z = col.packed() ^ zobrist()[sq];
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A Lasca position: the columns on the 25 squares, side to move and the
/// counters the draw rules need.
#[derive(Debug)]
pub struct Lasca {
    cols: [Column; SQUARES],
    /// Squares commanded by each side.
    commanders: [u64; 2],
    /// Squares whose commander is an officer.
    officers: u64,
    side: Player,
    /// Plies since the last capture or soldier move.
    quiet: u16,
    hash: u64,
    /// Key of the position before each move made since the FEN.
    history: Vec<u64>,
    /// `quiet` before each move made.
    quiet_undo: Vec<u16>,
}

/// By hand so that a copy (the search's own) keeps room for a long line
/// instead of growing its undo vectors during search.
impl Clone for Lasca {
    fn clone(&self) -> Lasca {
        let mut history = Vec::with_capacity(self.history.len() + HISTORY_CAPACITY);
        history.extend_from_slice(&self.history);
        let mut quiet_undo = Vec::with_capacity(self.quiet_undo.len() + HISTORY_CAPACITY);
        quiet_undo.extend_from_slice(&self.quiet_undo);
        Lasca {
            cols: self.cols,
            commanders: self.commanders,
            officers: self.officers,
            side: self.side,
            quiet: self.quiet,
            hash: self.hash,
            history,
            quiet_undo,
        }
    }
}

impl Lasca {
    fn empty(side: Player, quiet: u16) -> Lasca {
        Lasca {
            cols: [Column::EMPTY; SQUARES],
            commanders: [0; 2],
            officers: 0,
            side,
            quiet,
            hash: if side == Player::P2 {
                zobrist()[SIDE_KEY]
            } else {
                0
            },
            history: Vec::with_capacity(HISTORY_CAPACITY),
            quiet_undo: Vec::with_capacity(HISTORY_CAPACITY),
        }
    }

    /// Replaces a column, keeping the sets and the key in step.
    fn set_column(&mut self, sq: usize, col: Column) {
        let bit = 1u64 << sq;
        self.hash ^= column_key(sq, self.cols[sq]) ^ column_key(sq, col);
        self.commanders[0] &= !bit;
        self.commanders[1] &= !bit;
        self.officers &= !bit;
        if !col.is_empty() {
            let top = col.top();
            self.commanders[top.side] |= bit;
            if top.officer {
                self.officers |= bit;
            }
        }
        self.cols[sq] = col;
    }

    /// The column on square `sq`.
    pub fn column(&self, sq: usize) -> Column {
        self.cols[sq]
    }

    /// Plies since the last capture or soldier move (the 100-ply draw rule).
    pub fn quiet_plies(&self) -> u16 {
        self.quiet
    }

    fn occupied(&self) -> u64 {
        self.commanders[0] | self.commanders[1]
    }

    fn me(&self) -> usize {
        self.side.index()
    }

    fn dirs(&self, sq: usize, side: usize) -> &'static [usize] {
        if self.officers & 1 << sq != 0 {
            ALL_DIRS
        } else {
            FORWARD[side]
        }
    }

    /// Whether the side to move has any legal move (cheaper than listing).
    fn has_move(&self) -> bool {
        let me = self.me();
        let empty = PLAYING & !self.occupied();
        let enemy = self.commanders[1 - me];
        squares(self.commanders[me]).any(|sq| {
            self.dirs(sq, me).iter().any(|&d| {
                let next = NEXT[sq][d];
                if next == NONE {
                    return false;
                }
                if empty & 1 << next != 0 {
                    return true;
                }
                let land = NEXT[next as usize][d];
                enemy & 1 << next != 0 && land != NONE && empty & 1 << land != 0
            })
        })
    }

    /// How often the current position has occurred, this time included.
    /// Only positions since the last irreversible move can match.
    fn occurrences(&self) -> usize {
        let window = (self.quiet as usize).min(self.history.len());
        let recent = &self.history[self.history.len() - window..];
        1 + recent
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&h| h == self.hash)
            .count()
    }

    fn is_drawn(&self) -> bool {
        self.quiet >= QUIET_LIMIT || self.occurrences() >= 3
    }

    /// Appends every complete capture sequence; true if there was one.
    fn generate_captures(&self, moves: &mut Vec<LascaMove>) -> bool {
        let before = moves.len();
        let me = self.me();
        let empty = PLAYING & !self.occupied();
        for sq in squares(self.commanders[me]) {
            let officer = self.officers & 1 << sq != 0;
            // The mover is lifted: its own square counts as empty.
            self.extend_capture(
                moves,
                LascaMove::capture_from(sq),
                sq,
                officer,
                empty | 1 << sq,
                0,
            );
        }
        moves.len() > before
    }

    /// Depth-first over the jumps available from `cur`; a sequence is
    /// emitted once it cannot continue or a soldier reaches the far rank.
    fn extend_capture(
        &self,
        moves: &mut Vec<LascaMove>,
        mv: LascaMove,
        cur: usize,
        officer: bool,
        empty: u64,
        jumped: u64,
    ) {
        let me = self.me();
        let enemy = self.commanders[1 - me] & !jumped;
        let dirs = if officer { ALL_DIRS } else { FORWARD[me] };
        let mut continued = false;
        for &d in dirs {
            let mid = NEXT[cur][d];
            if mid == NONE || enemy & 1 << mid == 0 {
                continue;
            }
            let to = NEXT[mid as usize][d];
            if to == NONE || empty & 1 << to == 0 {
                continue;
            }
            continued = true;
            let taken = self.cols[mid as usize];
            let next = mv.jump(d, taken.top().officer);
            if !officer && rank_of(to as usize) == promotion_rank(me) {
                moves.push(next.with_promotion());
                continue;
            }
            let freed = if taken.height() == 1 { 1u64 << mid } else { 0 };
            self.extend_capture(
                moves,
                next,
                to as usize,
                officer,
                empty | freed,
                jumped | 1 << mid,
            );
        }
        if !continued && mv.steps() > 0 {
            moves.push(mv);
        }
    }

    /// Non-captures; with `promotions_only`, just soldier steps that promote.
    fn generate_steps(&self, moves: &mut Vec<LascaMove>, promotions_only: bool) {
        let me = self.me();
        let empty = PLAYING & !self.occupied();
        for sq in squares(self.commanders[me]) {
            let soldier = self.officers & 1 << sq == 0;
            if promotions_only && !soldier {
                continue;
            }
            for &d in self.dirs(sq, me) {
                let to = NEXT[sq][d];
                if to == NONE || empty & 1 << to == 0 {
                    continue;
                }
                let promotes = soldier && rank_of(to as usize) == promotion_rank(me);
                if promotes || !promotions_only {
                    moves.push(LascaMove::simple(sq, d, promotes));
                }
            }
        }
    }

    /// Simple steps available to `side`, for the evaluation.
    fn step_count(&self, side: usize) -> i32 {
        let empty = PLAYING & !self.occupied();
        squares(self.commanders[side])
            .map(|sq| {
                self.dirs(sq, side)
                    .iter()
                    .filter(|&&d| {
                        let to = NEXT[sq][d];
                        to != NONE && empty & 1 << to != 0
                    })
                    .count() as i32
            })
            .sum()
    }
}

impl Game for Lasca {
    type Move = LascaMove;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    const HISTORY_SLOTS: usize = SQUARES * SQUARES;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        Lasca::from_fen(START_FEN, settings)
    }

    fn from_fen(text: &str, settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        fen::parse(text)
    }

    fn to_fen(&self) -> String {
        fen::format(self)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        // Having no move decides the game even when a draw rule also holds.
        if !self.has_move() {
            Some(Outcome::Win(self.side.other()))
        } else if self.is_drawn() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn generate_moves(&self, moves: &mut Vec<LascaMove>) {
        if self.is_drawn() {
            return;
        }
        // Capturing is compulsory.
        if !self.generate_captures(moves) {
            self.generate_steps(moves, false);
        }
    }

    fn make_move(&mut self, mv: LascaMove) {
        self.history.push(self.hash);
        self.quiet_undo.push(self.quiet);
        let from = mv.from();
        let mut col = self.cols[from];
        let soldier = !col.top().officer;
        self.set_column(from, Column::EMPTY);
        let mut cur = from;
        if mv.is_capture() {
            for i in 0..mv.steps() {
                let d = mv.dir(i);
                let mid = NEXT[cur][d] as usize;
                let mut taken = self.cols[mid];
                col.push_bottom(taken.pop_top());
                self.set_column(mid, taken);
                cur = NEXT[mid][d] as usize;
            }
            self.quiet = 0;
        } else {
            cur = NEXT[from][mv.dir(0)] as usize;
            self.quiet = if soldier {
                0
            } else {
                self.quiet.saturating_add(1)
            };
        }
        if mv.promotes() {
            col.set_top_officer(true);
        }
        self.set_column(cur, col);
        self.side = self.side.other();
        self.hash ^= zobrist()[SIDE_KEY];
    }

    fn unmake_move(&mut self, mv: LascaMove) {
        self.side = self.side.other();
        self.hash ^= zobrist()[SIDE_KEY];
        let (path, len) = mv.path();
        let last = path[len - 1] as usize;
        let mut col = self.cols[last];
        self.set_column(last, Column::EMPTY);
        if mv.promotes() {
            col.set_top_officer(false);
        }
        if mv.is_capture() {
            // The last piece taken lies lowest: give them back in reverse.
            for i in (0..len - 1).rev() {
                let mid = NEXT[path[i] as usize][mv.dir(i)] as usize;
                let mut taken = self.cols[mid];
                taken.push_top(col.pop_bottom());
                self.set_column(mid, taken);
            }
        }
        self.set_column(path[0] as usize, col);
        self.quiet = self.quiet_undo.pop().unwrap_or(0);
        let before = self.history.pop();
        debug_assert_eq!(before, Some(self.hash), "unmake restores the key");
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn move_to_string(&self, mv: LascaMove) -> String {
        let (path, len) = mv.path();
        path[..len]
            .iter()
            .map(|&sq| board::square_name(sq as usize))
            .collect::<Vec<_>>()
            .join("-")
    }

    fn render(&self) -> String {
        fen::render(self)
    }

    fn move_score(&self, mv: LascaMove) -> i32 {
        let promotion = if mv.promotes() { 800 } else { 0 };
        if mv.is_capture() {
            2000 + 100 * mv.steps() as i32 + 300 * mv.officers_taken() as i32 + promotion
        } else {
            promotion
        }
    }

    fn history_slot(&self, mv: LascaMove) -> usize {
        let (path, len) = mv.path();
        let from = (path[0] as usize).min(SQUARES - 1);
        let first = if len > 1 { path[1] as usize } else { from };
        from * SQUARES + first
    }

    fn tactical_moves(&self, moves: &mut Vec<LascaMove>) {
        if self.is_drawn() {
            return;
        }
        if !self.generate_captures(moves) {
            self.generate_steps(moves, true);
        }
    }
}
