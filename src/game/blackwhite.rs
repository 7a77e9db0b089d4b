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

use super::{
    Boards, Description, EVAL_LIMIT, Game, GameError, Outcome, Player, Settings, SolveNotation,
};

/// Black & White as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "blackwhite",
    title: "Black & White, 5x5 drops, steps and jumps",
    move_examples: &["c3", "c3-d4", "c3-e5-c5"],
    boards: Boards::Fixed {
        width: 5,
        height: 5,
    },
    rules: &[],
    bench: &[
        ("", 7),
        ("e1 a1 e5 a5 e2", 9),
        ("e1 a1 e5 a5 e2 a4 e3 e4 c3 b3", 13),
        ("e1 a1 e5 a5 e2 a4 e3 e4 c3 b3 c3-a3 a4-a2-c4", 13),
    ],
    solve: SolveNotation::Plies,
    draws: true,
    gomocup: false,
};

/// The board's side.
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

impl super::PackedMove for Move {
    fn pack(self) -> u64 {
        self.path as u64
            | (self.from as u64) << 32
            | (self.to as u64) << 40
            | (self.jumps as u64) << 48
    }
    fn unpack(bits: u64) -> Self {
        Move {
            path: bits as u32,
            from: (bits >> 32) as u8,
            to: (bits >> 40) as u8,
            jumps: (bits >> 48) as u8,
        }
    }
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

/// A Black & White position: placement or movement phase, stones, side to
/// move.
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
        super::grid_of(SIZE, SIZE, |row, file| {
            let b = 1u32 << ((SIZE - 1 - row) * SIZE + file);
            super::owner(self.pieces[0] & b != 0, self.pieces[1] & b != 0)
        })
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
    const DESCRIPTION: &'static Description = &DESCRIPTION;
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
mod tests;
