//! Black & White on a 5x5 board (after danspil's game of 1998), as
//! bitboards.
//!
//! Rules as implemented:
//! - Each side owns five pieces. Placement: starting with P1 (`x`), the
//!   sides alternately drop a piece on any empty cell until all ten are on
//!   the board.
//! - Movement: a turn is a step to an adjacent empty cell (8 directions) or
//!   a jump over an adjacent enemy piece onto the empty cell just beyond,
//!   which turns the jumped piece into the jumper's colour. Jumping is
//!   compulsory; the jumping piece must go on jumping while it can (a move
//!   is a maximal chain), the player chooses freely among pieces and among
//!   chains (not necessarily the longest). A flipped piece is own-coloured
//!   and so cannot be jumped again; the start cell is empty once left and
//!   may be landed on. Different chains that end in the same position are
//!   different moves (they are written differently).
//! - Five of one's pieces on a row, column or long diagonal after a move
//!   (a drop included) wins at once. A side with no legal move loses; this
//!   covers having no pieces left. The third occurrence of a position (same
//!   board, same side to move) is a draw.
//!
//! Bit layout: bit `rank * 5 + file`, a1 = bit 0, e1 = bit 4, e5 = bit 24.

use std::sync::OnceLock;

use super::{EVAL_LIMIT, Game, GameError, Outcome, Player, Settings};

pub const SIZE: usize = 5;
const CELLS: usize = SIZE * SIZE;
const BOARD: u32 = (1 << CELLS) - 1;
/// Pieces per side; the placement phase lasts until all are on the board.
const PIECES_EACH: u32 = 5;
const ALL_PIECES: u32 = 2 * PIECES_EACH;

const FILE_A: u32 = 0b00001_00001_00001_00001_00001;
const FILE_E: u32 = FILE_A << 4;
const RANK_1: u32 = 0b11111;
const RANK_5: u32 = RANK_1 << 20;
const RIM: u32 = FILE_A | FILE_E | RANK_1 | RANK_5;

/// Direction codes 0-7 as (file, rank) steps; `d` and `d ^ 4` are opposite.
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const NONE: u8 = u8::MAX;

const fn neighbour_table() -> [[u8; 8]; CELLS] {
    let mut table = [[NONE; 8]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 8 {
            let f = (cell % SIZE) as i32 + DIRS[d].0;
            let r = (cell / SIZE) as i32 + DIRS[d].1;
            if f >= 0 && f < SIZE as i32 && r >= 0 && r < SIZE as i32 {
                table[cell][d] = (r * SIZE as i32 + f) as u8;
            }
            d += 1;
        }
        cell += 1;
    }
    table
}

/// `STEP[cell][d]`: the adjacent cell in direction `d`, or `NONE`.
const STEP: [[u8; 8]; CELLS] = neighbour_table();

const fn landing_table() -> [[u8; 8]; CELLS] {
    let mut table = [[NONE; 8]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 8 {
            let over = STEP[cell][d];
            if over != NONE {
                table[cell][d] = STEP[over as usize][d];
            }
            d += 1;
        }
        cell += 1;
    }
    table
}

/// `LAND[cell][d]`: where a jump from `cell` in direction `d` lands.
const LAND: [[u8; 8]; CELLS] = landing_table();

const fn neighbour_masks() -> [u32; CELLS] {
    let mut masks = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut d = 0;
        while d < 8 {
            if STEP[cell][d] != NONE {
                masks[cell] |= 1 << STEP[cell][d];
            }
            d += 1;
        }
        cell += 1;
    }
    masks
}

const NEIGHBOURS: [u32; CELLS] = neighbour_masks();

const fn line_masks() -> [u32; 12] {
    let mut lines = [0; 12];
    let mut i = 0;
    while i < SIZE {
        lines[i] = RANK_1 << (SIZE * i);
        lines[SIZE + i] = FILE_A << i;
        lines[10] |= 1 << (i * SIZE + i);
        lines[11] |= 1 << (i * SIZE + SIZE - 1 - i);
        i += 1;
    }
    lines
}

/// The twelve lines of five: ranks, files and the two long diagonals.
const LINES: [u32; 12] = line_masks();

/// Cells whose neighbour is missing along axis `d & 3`: a piece there
/// cannot be jumped along that axis.
const AXIS_EDGE: [u32; 4] = [FILE_A | FILE_E, RIM, RANK_1 | RANK_5, RIM];

/// Moves every bit one cell in direction `d`, dropping bits that leave.
#[inline]
fn shift(b: u32, d: usize) -> u32 {
    match d & 7 {
        0 => (b & !FILE_E) << 1,
        1 => ((b & !FILE_E) << 6) & BOARD,
        2 => (b << 5) & BOARD,
        3 => ((b & !FILE_A) << 4) & BOARD,
        4 => (b & !FILE_A) >> 1,
        5 => (b & !FILE_A) >> 6,
        6 => b >> 5,
        _ => (b & !FILE_E) >> 4,
    }
}

fn has_five(pieces: u32) -> bool {
    for line in LINES {
        if pieces & line == line {
            return true;
        }
    }
    false
}

/// Enemy pieces that `mine` could jump right now.
fn jumpable(mine: u32, theirs: u32, empty: u32) -> u32 {
    let mut hit = 0;
    for d in 0..8 {
        // A jumper one step behind in direction d, an empty cell one ahead.
        hit |= theirs & shift(mine, d) & shift(empty, d ^ 4);
    }
    hit
}

fn bit(cell: u8) -> u32 {
    1 << cell
}

fn cell_name(cell: u8) -> String {
    let file = (b'a' + cell % SIZE as u8) as char;
    format!("{file}{}", cell / SIZE as u8 + 1)
}

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| super::zobrist::keys(0xB1AC_5EED, 2 * CELLS + 2))
}
const SIDE_KEY: usize = 2 * CELLS;
/// Mixed into `hash()` (not into the repetition key) for a position seen
/// before in this game, so that the table keeps history-dependent results
/// of repeated positions apart from first visits.
const REPEAT_KEY: usize = 2 * CELLS + 1;

/// A move in 8 bytes. Drops have `from == DROP`; steps have `jumps == 0`;
/// a chain of `jumps` jumps stores its directions 3 bits each in `path`
/// (first jump lowest) and its final landing cell in `to`. The jumped
/// (flipped) cells follow from `from` and `path`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Move {
    path: u32,
    from: u8,
    to: u8,
    jumps: u8,
}

const DROP: u8 = CELLS as u8;

impl Move {
    fn drop(cell: u8) -> Move {
        Move {
            path: 0,
            from: DROP,
            to: cell,
            jumps: 0,
        }
    }

    fn step(from: u8, to: u8) -> Move {
        Move {
            path: 0,
            from,
            to,
            jumps: 0,
        }
    }

    fn is_drop(self) -> bool {
        self.from == DROP
    }

    fn dir(self, k: u8) -> usize {
        ((self.path >> (3 * k as u32)) & 7) as usize
    }

    /// Cells jumped over by a chain (empty for drops and steps).
    fn flipped(self) -> u32 {
        let mut at = self.from as usize;
        let mut cells = 0;
        for k in 0..self.jumps {
            let d = self.dir(k);
            cells |= bit(STEP[at][d]);
            at = LAND[at][d] as usize;
        }
        cells
    }
}

/// What `unmake_move` restores, one entry per move made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Past {
    key: u64,
    reps: u8,
    streak: u8,
}

#[derive(Debug, PartialEq, Eq)]
pub struct BlackWhite {
    pieces: [u32; 2],
    side: Player,
    /// Zobrist key of board and side to move: the repetition identity.
    key: u64,
    /// Occurrences of the current position in this game, this one included.
    reps: u8,
    /// Jumps in a row that led here. Flips never use up material, so
    /// captures can answer captures for ever; quiescence stops at a bound.
    streak: u8,
    /// Cached result; a position that moves were made from was not over.
    outcome: Option<Outcome>,
    history: Vec<Past>,
    /// Positions of this game (history and current) counted by the low bits
    /// of their key: the history is searched for a repetition only when the
    /// current position's slot is already taken, which is rare. (Flips can
    /// be flipped back, so only drops are irreversible.)
    seen: [u16; SEEN_SLOTS],
}

const SEEN_SLOTS: usize = 2048;

fn seen_slot(key: u64) -> usize {
    key as usize & (SEEN_SLOTS - 1)
}

/// Room kept in the history so that search never reallocates it.
const HISTORY_RESERVE: usize = 512;

impl Clone for BlackWhite {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(self.history.len() + HISTORY_RESERVE);
        history.extend_from_slice(&self.history);
        BlackWhite {
            pieces: self.pieces,
            side: self.side,
            key: self.key,
            reps: self.reps,
            streak: self.streak,
            outcome: self.outcome,
            history,
            seen: self.seen,
        }
    }
}

impl BlackWhite {
    fn rebuild(pieces: [u32; 2], side: Player) -> BlackWhite {
        let keys = zobrist();
        let mut key = if side == Player::P2 {
            keys[SIDE_KEY]
        } else {
            0
        };
        for (p, &b) in pieces.iter().enumerate() {
            let mut bits = b;
            while bits != 0 {
                key ^= keys[p * CELLS + bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        }
        let mut pos = BlackWhite {
            pieces,
            side,
            key,
            reps: 1,
            streak: 0,
            outcome: None,
            history: Vec::with_capacity(HISTORY_RESERVE),
            seen: [0; SEEN_SLOTS],
        };
        pos.seen[seen_slot(key)] = 1;
        pos.outcome = pos.compute_outcome();
        pos
    }

    fn occupied(&self) -> u32 {
        self.pieces[0] | self.pieces[1]
    }

    /// True while pieces are still being dropped.
    pub fn placing(&self) -> bool {
        self.occupied().count_ones() < ALL_PIECES
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        for p in [Player::P1, Player::P2] {
            if has_five(self.pieces[p.index()]) {
                return Some(Outcome::Win(p));
            }
        }
        if self.placing() {
            // Pieces in hand and empty cells: a drop is always possible.
            return None;
        }
        if !self.can_move() {
            return Some(Outcome::Win(self.side.other()));
        }
        if self.reps >= 3 {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Whether the side to move has a step or a jump (movement phase).
    fn can_move(&self) -> bool {
        let me = self.side.index();
        let (mine, theirs) = (self.pieces[me], self.pieces[1 - me]);
        let empty = BOARD & !(mine | theirs);
        let mut reach = 0;
        for d in 0..8 {
            reach |= shift(mine, d);
        }
        reach & empty != 0 || jumpable(mine, theirs, empty) != 0
    }

    /// Occurrences of the current position, found from the most recent
    /// earlier occurrence.
    fn count_reps(&self) -> u8 {
        let n = self.history.len();
        // A position repeats after an even number of plies, at least four.
        let mut back = 4;
        while back <= n {
            let past = self.history[n - back];
            if past.key == self.key {
                return past.reps.saturating_add(1);
            }
            back += 2;
        }
        1
    }

    /// Appends every maximal chain of jumps continuing from `at`.
    #[allow(clippy::too_many_arguments)]
    fn extend_chain(
        from: u8,
        at: u8,
        theirs: u32,
        occupied: u32,
        path: u32,
        jumps: u8,
        moves: &mut Vec<Move>,
    ) {
        let mut extended = false;
        for d in 0..8 {
            let (over, land) = (STEP[at as usize][d], LAND[at as usize][d]);
            if land == NONE || theirs & bit(over) == 0 || occupied & bit(land) != 0 {
                continue;
            }
            extended = true;
            Self::extend_chain(
                from,
                land,
                theirs & !bit(over),
                (occupied & !bit(at)) | bit(land),
                path | (d as u32) << (3 * jumps as u32),
                jumps + 1,
                moves,
            );
        }
        if !extended && jumps > 0 {
            moves.push(Move {
                path,
                from,
                to: at,
                jumps,
            });
        }
    }

    /// The side to move's pieces after `mv` (five-in-a-row tests).
    fn mine_after(&self, mv: Move) -> u32 {
        let mine = self.pieces[self.side.index()];
        if mv.is_drop() {
            mine | bit(mv.to)
        } else {
            (mine ^ bit(mv.from) ^ bit(mv.to)) | mv.flipped()
        }
    }

    fn grid(&self) -> Vec<Vec<Option<Player>>> {
        (0..SIZE)
            .rev()
            .map(|rank| {
                (0..SIZE)
                    .map(|file| {
                        let b = 1u32 << (rank * SIZE + file);
                        if self.pieces[0] & b != 0 {
                            Some(Player::P1)
                        } else if self.pieces[1] & b != 0 {
                            Some(Player::P2)
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// One side's share of the evaluation.
    fn side_value(mine: u32, theirs: u32, empty: u32) -> i32 {
        let count = |b: u32| b.count_ones() as i32;
        // Protection per axis: an own neighbour (or the board's edge) on
        // one side of an axis means no jump along it can take the piece.
        let mut protected = 0;
        let mut safe = mine;
        for (axis, &edge) in AXIS_EDGE.iter().enumerate() {
            let guarded = mine & (shift(mine, axis) | shift(mine, axis + 4) | edge);
            protected += count(guarded);
            safe &= guarded;
        }
        let mut lined = 0;
        let mut near_five = 0;
        for &line in &LINES {
            let (c, o) = (count(mine & line), count(theirs & line));
            lined += c * c;
            if c == 4 && o == 0 {
                near_five += 1;
            }
        }
        let mut reach = 0;
        for d in 0..8 {
            reach |= shift(mine, d);
        }
        let mobility = count(reach & empty);
        protected + 2 * count(safe) + 4 * lined + 40 * near_five + 2 * mobility
    }
}

/// Jumps in a row after which quiescence looks only for a five.
const QUIESCENCE_JUMPS: u8 = 4;
/// Value of one piece; a flip moves the balance by twice this. Flips are
/// easily flipped back, and in self-play 50 did no worse than 100 or 0
/// (differences within noise over 120-240 games).
const MATERIAL: i32 = 50;
/// Bonus for having the move.
const TEMPO: i32 = 10;
/// Enemy pieces the side to move can jump now (quiescence usually plays
/// these out) and own pieces the opponent threatens to jump next.
const THREAT_NOW: i32 = 20;
const THREAT_AGAINST: i32 = 40;

impl Game for BlackWhite {
    type Move = Move;
    const NAME: &'static str = "blackwhite";
    /// Drops by cell, then steps and jumps by (from, first landing).
    const HISTORY_SLOTS: usize = CELLS + CELLS * CELLS;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        Ok(BlackWhite::rebuild([0, 0], Player::P1))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        let (board, side) = super::split_fen(fen)?;
        let grid = super::parse_grid(fen, board, SIZE, SIZE)?;
        let mut pieces = [0u32; 2];
        for (r, cells) in grid.iter().enumerate() {
            let rank = SIZE - 1 - r;
            for (file, cell) in cells.iter().enumerate() {
                if let Some(p) = cell {
                    pieces[p.index()] |= 1 << (rank * SIZE + file);
                }
            }
        }
        let (x, o) = (pieces[0].count_ones(), pieces[1].count_ones());
        let total = x + o;
        if total > ALL_PIECES {
            return Err(GameError::bad_position(fen, "more than ten pieces"));
        }
        if total < ALL_PIECES {
            // Placement: nothing has been flipped yet and x dropped first.
            let expected = if total % 2 == 0 {
                Player::P1
            } else {
                Player::P2
            };
            if x != total.div_ceil(2) || side != expected {
                return Err(GameError::bad_position(
                    fen,
                    "piece counts do not fit the placement phase and side to move",
                ));
            }
        }
        if has_five(pieces[0]) && has_five(pieces[1]) {
            return Err(GameError::bad_position(fen, "both sides have five"));
        }
        Ok(BlackWhite::rebuild(pieces, side))
    }

    fn to_fen(&self) -> String {
        super::format_grid(&self.grid(), self.side)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let me = self.side.index();
        let (mine, theirs) = (self.pieces[me], self.pieces[1 - me]);
        let occupied = mine | theirs;
        let empty = BOARD & !occupied;
        if self.placing() {
            let mut cells = empty;
            while cells != 0 {
                moves.push(Move::drop(cells.trailing_zeros() as u8));
                cells &= cells - 1;
            }
            return;
        }
        // Pieces with a jump: enemy one step away, empty cell beyond.
        let mut jumpers = 0;
        for d in 0..8 {
            jumpers |= mine & shift(theirs & shift(empty, d ^ 4), d ^ 4);
        }
        if jumpers != 0 {
            while jumpers != 0 {
                let from = jumpers.trailing_zeros() as u8;
                Self::extend_chain(from, from, theirs, occupied, 0, 0, moves);
                jumpers &= jumpers - 1;
            }
            return;
        }
        let mut pieces = mine;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            let mut targets = NEIGHBOURS[from as usize] & empty;
            while targets != 0 {
                moves.push(Move::step(from, targets.trailing_zeros() as u8));
                targets &= targets - 1;
            }
            pieces &= pieces - 1;
        }
    }

    fn make_move(&mut self, mv: Move) {
        let keys = zobrist();
        let me = self.side.index();
        let them = 1 - me;
        self.history.push(Past {
            key: self.key,
            reps: self.reps,
            streak: self.streak,
        });
        let to = mv.to as usize;
        if mv.is_drop() {
            self.pieces[me] |= bit(mv.to);
            self.key ^= keys[me * CELLS + to];
            self.streak = 0;
        } else {
            let from = mv.from as usize;
            // A chain may end where it began: the two toggles then cancel.
            self.pieces[me] ^= bit(mv.from) ^ bit(mv.to);
            self.key ^= keys[me * CELLS + from] ^ keys[me * CELLS + to];
            let flipped = mv.flipped();
            if flipped == 0 {
                self.streak = 0;
            } else {
                self.pieces[me] |= flipped;
                self.pieces[them] &= !flipped;
                let mut cells = flipped;
                while cells != 0 {
                    let c = cells.trailing_zeros() as usize;
                    self.key ^= keys[me * CELLS + c] ^ keys[them * CELLS + c];
                    cells &= cells - 1;
                }
                self.streak = self.streak.saturating_add(1);
            }
        }
        self.key ^= keys[SIDE_KEY];
        self.side = self.side.other();
        let slot = seen_slot(self.key);
        self.reps = if self.seen[slot] > 0 {
            self.count_reps()
        } else {
            1
        };
        self.seen[slot] = self.seen[slot].wrapping_add(1);
        self.outcome = self.compute_outcome();
    }

    fn unmake_move(&mut self, mv: Move) {
        self.side = self.side.other();
        let me = self.side.index();
        if mv.is_drop() {
            self.pieces[me] &= !bit(mv.to);
        } else {
            let flipped = mv.flipped();
            self.pieces[me] &= !flipped;
            self.pieces[1 - me] |= flipped;
            self.pieces[me] ^= bit(mv.from) ^ bit(mv.to);
        }
        let slot = seen_slot(self.key);
        self.seen[slot] = self.seen[slot].wrapping_sub(1);
        match self.history.pop() {
            Some(past) => {
                self.key = past.key;
                self.reps = past.reps;
                self.streak = past.streak;
            }
            // Not reachable through the trait's contract; stay consistent.
            None => {
                *self = BlackWhite::rebuild(self.pieces, self.side);
                return;
            }
        }
        self.outcome = None;
    }

    fn hash(&self) -> u64 {
        if self.reps > 1 {
            self.key ^ zobrist()[REPEAT_KEY]
        } else {
            self.key
        }
    }

    fn evaluate(&self) -> i32 {
        let me = self.side.index();
        let (mine, theirs) = (self.pieces[me], self.pieces[1 - me]);
        let empty = BOARD & !(mine | theirs);
        let threats_now = jumpable(mine, theirs, empty).count_ones() as i32;
        let threats_against = jumpable(theirs, mine, empty).count_ones() as i32;
        // Every capture flips a piece, so material dominates; while placing,
        // pieces in hand make material equal.
        let material = if self.placing() {
            0
        } else {
            MATERIAL * (mine.count_ones() as i32 - theirs.count_ones() as i32)
        };
        let score = material + Self::side_value(mine, theirs, empty)
            - Self::side_value(theirs, mine, empty)
            + TEMPO
            + THREAT_NOW * threats_now
            - THREAT_AGAINST * threats_against;
        score.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
    }

    fn move_to_string(&self, mv: Move) -> String {
        if mv.is_drop() {
            return cell_name(mv.to);
        }
        let mut text = cell_name(mv.from);
        if mv.jumps == 0 {
            text.push('-');
            text.push_str(&cell_name(mv.to));
            return text;
        }
        let mut at = mv.from as usize;
        for k in 0..mv.jumps {
            at = LAND[at][mv.dir(k)] as usize;
            text.push('-');
            text.push_str(&cell_name(at as u8));
        }
        text
    }

    fn render(&self) -> String {
        let mut out = super::render_grid(&self.grid(), "abcde");
        if self.placing() {
            let placed = self.occupied().count_ones();
            out.push_str(&format!(
                "in hand: x {}, o {}\n",
                PIECES_EACH - placed.div_ceil(2),
                PIECES_EACH - placed / 2
            ));
        }
        out
    }

    fn move_score(&self, mv: Move) -> i32 {
        let me = self.side.index();
        let (mine, theirs) = (self.pieces[me], self.pieces[1 - me]);
        let after = self.mine_after(mv);
        if has_five(after) {
            return 10_000;
        }
        if mv.jumps > 0 {
            return 1_000 + 100 * mv.jumps as i32;
        }
        // Line building: growth of the sum of squared line counts.
        let mut gain = 0;
        for &line in &LINES {
            let (now, then) = ((mine & line).count_ones(), (after & line).count_ones());
            gain += (then * then) as i32 - (now * now) as i32;
        }
        // A piece put where the opponent can jump it at once is usually lost.
        let empty = BOARD & !(after | theirs);
        if jumpable(theirs, after, empty) & bit(mv.to) != 0 {
            gain -= 20;
        }
        gain
    }

    fn history_slot(&self, mv: Move) -> usize {
        if mv.is_drop() {
            return mv.to as usize;
        }
        let first = if mv.jumps == 0 {
            mv.to
        } else {
            LAND[mv.from as usize][mv.dir(0)]
        };
        CELLS + mv.from as usize * CELLS + first as usize
    }

    fn tactical_moves(&self, moves: &mut Vec<Move>) {
        if self.outcome.is_some() {
            return;
        }
        let me = self.side.index();
        let mine = self.pieces[me];
        let empty = BOARD & !self.occupied();
        // Cheap filter first: an empty cell that would complete a line.
        let completes = LINES
            .iter()
            .filter(|&&line| (mine & line).count_ones() == 4 && empty & line != 0)
            .fold(0, |acc, &line| acc | (line & empty));
        let start = moves.len();
        self.generate_moves(moves);
        let mut kept = start;
        for i in start..moves.len() {
            let mv = moves[i];
            let tactical = (mv.jumps > 0 && self.streak < QUIESCENCE_JUMPS)
                || (completes & bit(mv.to) != 0 && has_five(self.mine_after(mv)));
            if tactical {
                moves[kept] = mv;
                kept += 1;
            }
        }
        moves.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    fn settings() -> Settings {
        Settings::default()
    }

    fn fen(text: &str) -> BlackWhite {
        BlackWhite::from_fen(text, &settings()).unwrap()
    }

    fn play(pos: &mut BlackWhite, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = pos
                .parse_move(m)
                .unwrap_or_else(|e| panic!("{e} in {}", pos.to_fen()));
            pos.make_move(mv);
        }
    }

    fn move_texts(pos: &BlackWhite) -> Vec<String> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
        texts.sort();
        texts
    }

    /// A deliberately plain second implementation over an array, to check
    /// the bitboard generator move by move.
    mod naive {
        pub type Board = [u8; 25]; // 0 empty, 1 x, 2 o

        const DIRS: [(i32, i32); 8] = [
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (-1, 1),
        ];

        fn at(f: i32, r: i32) -> Option<usize> {
            if (0..5).contains(&f) && (0..5).contains(&r) {
                Some((r * 5 + f) as usize)
            } else {
                None
            }
        }

        fn name(c: usize) -> String {
            format!("{}{}", (b'a' + (c % 5) as u8) as char, c / 5 + 1)
        }

        pub fn five(b: &Board, who: u8) -> bool {
            let mut lines: Vec<Vec<usize>> = Vec::new();
            for i in 0..5 {
                lines.push((0..5).map(|j| i * 5 + j).collect());
                lines.push((0..5).map(|j| j * 5 + i).collect());
            }
            lines.push((0..5).map(|j| j * 5 + j).collect());
            lines.push((0..5).map(|j| j * 5 + 4 - j).collect());
            lines.iter().any(|l| l.iter().all(|&c| b[c] == who))
        }

        fn chains(b: &Board, who: u8, c: usize, text: String, out: &mut Vec<(String, Board)>) {
            let (f, r) = ((c % 5) as i32, (c / 5) as i32);
            let mut any = false;
            for (df, dr) in DIRS {
                let (Some(over), Some(land)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr))
                else {
                    continue;
                };
                if b[over] == 3 - who && b[land] == 0 {
                    any = true;
                    let mut next = *b;
                    next[c] = 0;
                    next[over] = who;
                    next[land] = who;
                    chains(&next, who, land, format!("{text}-{}", name(land)), out);
                }
            }
            if !any && text.contains('-') {
                out.push((text, *b));
            }
        }

        /// Legal moves with their results; empty when the game is over.
        pub fn moves(b: &Board, who: u8) -> Vec<(String, Board)> {
            if five(b, 1) || five(b, 2) {
                return Vec::new();
            }
            let mut out = Vec::new();
            let placed = b.iter().filter(|&&v| v != 0).count();
            if placed < 10 {
                for c in 0..25 {
                    if b[c] == 0 {
                        let mut next = *b;
                        next[c] = who;
                        out.push((name(c), next));
                    }
                }
                return out;
            }
            for c in 0..25 {
                if b[c] == who {
                    chains(b, who, c, name(c), &mut out);
                }
            }
            if !out.is_empty() {
                return out;
            }
            for c in 0..25 {
                if b[c] != who {
                    continue;
                }
                for (df, dr) in DIRS {
                    if let Some(t) = at((c % 5) as i32 + df, (c / 5) as i32 + dr)
                        && b[t] == 0
                    {
                        let mut next = *b;
                        next[c] = 0;
                        next[t] = who;
                        out.push((format!("{}-{}", name(c), name(t)), next));
                    }
                }
            }
            out
        }

        /// Leaf count; repetition is ignored, so keep depth below 8.
        pub fn perft(b: &Board, who: u8, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let list = moves(b, who);
            if depth == 1 {
                return list.len() as u64;
            }
            list.iter().map(|(_, n)| perft(n, 3 - who, depth - 1)).sum()
        }

        pub fn from(pos: &super::BlackWhite) -> (Board, u8) {
            let mut b = [0; 25];
            for (c, v) in b.iter_mut().enumerate() {
                if pos.pieces[0] >> c & 1 == 1 {
                    *v = 1;
                } else if pos.pieces[1] >> c & 1 == 1 {
                    *v = 2;
                }
            }
            (b, if pos.side == super::Player::P1 { 1 } else { 2 })
        }
    }

    /// Walks the tree comparing move lists and resulting boards with the
    /// naive generator at every node.
    fn cross_check(pos: &mut BlackWhite, depth: u32) {
        let (board, who) = naive::from(pos);
        let mut expected: Vec<(String, naive::Board)> = naive::moves(&board, who);
        expected.sort();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let mut got = Vec::new();
        for &mv in &moves {
            let before = pos.clone();
            pos.make_move(mv);
            let rebuilt = BlackWhite::from_fen(&pos.to_fen(), &settings()).unwrap();
            assert_eq!(rebuilt.key, pos.key, "incremental key after {mv:?}");
            got.push((before.move_to_string(mv), naive::from(pos).0));
            if depth > 1 {
                cross_check(pos, depth - 1);
            }
            pos.unmake_move(mv);
            assert_eq!(*pos, before, "unmake of {mv:?}");
        }
        got.sort();
        assert_eq!(got, expected, "moves of {}", pos.to_fen());
    }

    /// Movement-phase positions for the perft pins.
    const MIDGAME: [&str; 7] = [
        "5/1xox1/1oxo1/1xox1/2o2 x",
        "xo3/ox3/2x2/3oo/2xox o",
        "5/1x3/xxoo1/oxxo1/1o3 x",
        "o3x/1x1o1/2o2/1x1o1/x1x1o x",
        "5/oxo2/1o1o1/oxo2/x3x x",
        "x3x/1x1x1/2x2/1ooo1/o3o x",
        "x1o1x/5/o1x1o/5/xoo1x x",
    ];

    #[test]
    fn perft_from_the_start() {
        // Placement only: 25 * 24 * 23 * ... (no five before the ninth drop).
        let expected = [25, 600, 13_800, 303_600, 6_375_600];
        let mut pos = BlackWhite::start(&settings()).unwrap();
        let start = pos.clone();
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
        }
        let (board, who) = naive::from(&pos);
        assert_eq!(naive::perft(&board, who, 4), expected[3]);
        assert_eq!(pos, start, "make/unmake restores the position");
    }

    #[test]
    fn perft_through_the_end_of_placement() {
        // Seven pieces dropped: the last three drops, then movement.
        let mut pos = fen("5/1xox1/1o3/1x1o1/x4 o");
        let (board, who) = naive::from(&pos);
        for depth in 1..=5 {
            assert_eq!(
                perft(&mut pos, depth),
                naive::perft(&board, who, depth),
                "depth {depth}"
            );
        }
        cross_check(&mut pos, 4);
    }

    #[test]
    fn midgame_perft_is_pinned_and_matches_the_naive_count() {
        // Counts from this implementation, agreed by the naive one below.
        let pinned: [[u64; 6]; 7] = [
            [3, 28, 140, 428, 1554, 13160],
            [3, 9, 14, 39, 186, 949],
            [5, 60, 329, 2133, 14983, 104677],
            [1, 8, 182, 632, 4767, 21321],
            [6, 14, 59, 229, 861, 3841],
            [2, 2, 40, 588, 6904, 85788],
            [19, 134, 892, 4803, 29685, 169775],
        ];
        for (text, expected) in MIDGAME.iter().zip(pinned) {
            let mut pos = fen(text);
            let (board, who) = naive::from(&pos);
            let counts: Vec<u64> = (1..=6).map(|d| perft(&mut pos, d)).collect();
            let naive: Vec<u64> = (1..=6).map(|d| naive::perft(&board, who, d)).collect();
            assert_eq!(counts, naive, "{text}");
            assert_eq!(counts, expected, "{text}");
            cross_check(&mut pos, 3);
            assert_eq!(pos, fen(text));
        }
    }

    #[test]
    fn a_jump_flips_and_capture_is_compulsory() {
        let mut pos = fen("ooo2/5/1xo2/5/xxxxo x");
        // Steps exist, but the one jump is the only legal move.
        assert_eq!(move_texts(&pos), ["b3-d3"]);
        play(&mut pos, "b3-d3");
        assert_eq!(pos.to_fen(), "ooo2/5/2xx1/5/xxxxo o");
        assert_eq!(pos.outcome(), None);
    }

    #[test]
    fn a_chain_goes_on_while_it_can() {
        let mut pos = fen("xx3/x2oo/4o/1o3/x1o1x x");
        assert_eq!(move_texts(&pos), ["a1-c3-e5"]);
        let mut tactical = Vec::new();
        pos.tactical_moves(&mut tactical);
        assert_eq!(tactical.len(), 1);
        play(&mut pos, "a1-c3-e5");
        assert_eq!(pos.to_fen(), "xx2x/x2xo/4o/1x3/2o1x o");
        assert!(fen("xx3/x2oo/4o/1o3/x1o1x x").parse_move("a1-c3").is_err());
    }

    #[test]
    fn five_in_a_row_wins_in_every_direction() {
        for (moves, winner) in [
            ("a1 a2 b1 b2 c1 c2 d1 d2 e1", Player::P1),
            ("a1 b1 a2 b2 a3 b3 a4 b4 a5", Player::P1),
            ("a1 b1 b2 c1 c3 d1 d4 e2 e5", Player::P1),
            ("e1 a1 d2 b1 c3 c1 b4 d1 a5", Player::P1),
            ("a1 a2 b1 b2 c1 c2 d1 d2 a5 e2", Player::P2),
        ] {
            let mut pos = BlackWhite::start(&settings()).unwrap();
            play(&mut pos, moves);
            assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{moves}");
            assert!(move_texts(&pos).is_empty(), "no moves after a win");
        }
        // By a step in the movement phase, found as a tactical move.
        let mut pos = fen("ooo2/oo3/5/4x/xxxx1 x");
        let mut tactical = Vec::new();
        pos.tactical_moves(&mut tactical);
        let texts: Vec<String> = tactical.iter().map(|&m| pos.move_to_string(m)).collect();
        assert_eq!(texts, ["e2-e1"]);
        assert_eq!(pos.move_score(tactical[0]), 10_000);
        play(&mut pos, "e2-e1");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
        // By the flip of a jumped piece.
        let mut pos = fen("oo2o/4o/2x2/xxoxx/5 x");
        play(&mut pos, "c3-c1");
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
    }

    #[test]
    fn losing_every_piece_or_every_move_loses() {
        let mut pos = fen("x1x1x/5/xxo2/4x/x1x1x x");
        play(&mut pos, "b3-d3");
        assert_eq!(pos.pieces[1], 0);
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
        assert!(move_texts(&pos).is_empty());
        let blocked = fen("3oo/4o/o1o2/oo3/xoo2 x");
        assert_eq!(blocked.outcome(), Some(Outcome::Win(Player::P2)));
        assert!(move_texts(&blocked).is_empty());
    }

    #[test]
    fn third_occurrence_is_a_draw() {
        let text = "2ooo/3oo/5/xx3/xxx2 x";
        let mut pos = fen(text);
        let cycle = "c1-d1 c5-c4 d1-c1 c4-c5";
        play(&mut pos, cycle);
        assert_eq!((pos.reps, pos.outcome()), (2, None));
        assert_ne!(pos.hash(), fen(text).hash(), "a repeat is kept apart");
        assert_eq!(pos.key, fen(text).key);
        play(&mut pos, cycle);
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        assert!(move_texts(&pos).is_empty());
        let last = pos.history.len();
        let mv = fen(text).parse_move("c4-c5");
        assert!(mv.is_err(), "c4-c5 is not legal at the start");
        let mut back = pos.clone();
        let mut once = fen(text);
        play(&mut once, "c1-d1 c5-c4 d1-c1 c4-c5 c1-d1 c5-c4 d1-c1");
        let undo = once.parse_move("c4-c5").unwrap();
        back.unmake_move(undo);
        assert_eq!(back.history.len(), last - 1);
        assert_eq!(back.outcome(), None);
        assert_eq!(back.to_fen(), once.to_fen());
    }

    #[test]
    fn a_capture_cycle_repeats_too() {
        // Flips can be flipped back: the same jumps go round for ever.
        let mut pos = fen("2oox/x2o1/x4/x2o1/x1o2 x");
        let cycle = "e5-c3-e1 d5-d3-d1 e1-c3-e5 d1-d3-d5";
        play(&mut pos, cycle);
        assert_eq!(pos.to_fen(), "2oox/x2o1/x4/x2o1/x1o2 x");
        assert_eq!((pos.reps, pos.outcome()), (2, None));
        play(&mut pos, cycle);
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn fen_round_trips_and_rejects_bad_input() {
        let start = BlackWhite::start(&settings()).unwrap();
        assert_eq!(start.to_fen(), "5/5/5/5/5 x");
        let mut placing = start.clone();
        play(&mut placing, "c3 b2 d4");
        assert_eq!(placing.to_fen(), "5/3x1/2x2/1o3/5 o");
        for text in [placing.to_fen().as_str(), "5/5/5/5/5 x"]
            .into_iter()
            .chain(MIDGAME)
        {
            let pos = fen(text);
            assert_eq!(pos.to_fen(), text);
        }
        assert_eq!(fen(&placing.to_fen()).key, placing.key);
        for bad in [
            "",
            "5/5/5/5 x",
            "5/5/5/5/6 x",
            "5/5/5/5/5",
            "5/5/5/5/5 z",
            "5/5/5/5/5 x more",
            "x4/5/5/5/5 x",
            "o4/5/5/5/5 o",
            "xxxxx/ooooo/5/5/5 x",
            "xxxxx/ooooo/x4/5/5 o",
            "5/5/5/5/4q x",
            "99999/5/5/5/5 x",
        ] {
            assert!(BlackWhite::from_fen(bad, &settings()).is_err(), "{bad:?}");
        }
        let custom = Settings {
            size: Some((6, 6)),
            rule: None,
        };
        assert!(BlackWhite::start(&custom).is_err());
        for bad in ["", "z9", "c3-", "c3-d4", "a1-a1", "f1", "c3 c4"] {
            assert!(start.parse_move(bad).is_err(), "{bad:?}");
        }
        assert!(
            fen(MIDGAME[0]).parse_move("c3").is_err(),
            "no drops after placement"
        );
    }

    /// A small fixed generator for the playouts below.
    fn next_random(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *state >> 33
    }

    #[test]
    fn random_games_keep_every_contract() {
        assert!(std::mem::size_of::<Move>() <= 8);
        let mut seed = 7;
        for _ in 0..300 {
            let mut pos = BlackWhite::start(&settings()).unwrap();
            let start = pos.clone();
            let mut made = Vec::new();
            for _ in 0..300 {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                assert_eq!(
                    moves.is_empty(),
                    pos.outcome().is_some(),
                    "{}",
                    pos.to_fen()
                );
                if moves.is_empty() {
                    break;
                }
                assert!(pos.evaluate().abs() < EVAL_LIMIT);
                let mut tactical = Vec::new();
                pos.tactical_moves(&mut tactical);
                assert!(tactical.iter().all(|m| moves.contains(m)));
                if pos.streak >= QUIESCENCE_JUMPS {
                    assert!(
                        tactical
                            .iter()
                            .all(|&m| m.jumps == 0 || has_five(pos.mine_after(m))),
                        "quiescence is bounded"
                    );
                }
                for &mv in &moves {
                    assert!(pos.history_slot(mv) < BlackWhite::HISTORY_SLOTS);
                    assert_eq!(pos.parse_move(&pos.move_to_string(mv)), Ok(mv));
                }
                let mv = moves[next_random(&mut seed) as usize % moves.len()];
                pos.make_move(mv);
                made.push(mv);
                let rebuilt = fen(&pos.to_fen());
                assert_eq!(rebuilt.key, pos.key);
            }
            while let Some(mv) = made.pop() {
                pos.unmake_move(mv);
            }
            assert_eq!(pos, start);
        }
    }
}
