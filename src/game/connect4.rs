//! Connect Four on the standard 7x6 board, as bitboards.
//!
//! Bit layout: column-major, 7 bits per column (6 cells and a guard bit
//! that stays empty so that shifts never wrap into the next column); bit
//! `col * 7 + row`, row 0 at the bottom. Moves are columns, written `1`-`7`
//! as in Pascal Pons' test sets.

use std::sync::OnceLock;

use super::{
    Boards, Ceiling, Description, Game, GameError, Outcome, Player, Settings, SolveNotation,
};

/// Connect Four as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "connect4",
    title: "Connect Four, 7x6",
    move_examples: &["4", "1"],
    boards: Boards::Fixed {
        width: WIDTH,
        height: HEIGHT,
    },
    rules: &[],
    bench: &[
        ("", 16),
        ("4 4 4 4 3", 16),
        ("4 3 5 4 4 5 3 3", 16),
        ("3 2 1 6 4 6 2 5", 16),
        ("2 7 4 5 5 2 2 2 4 1 3 1 6 6 1", 18),
        ("5 4 5 5 1 7 4 3 6 1 2 6 3 3 6 2", 18),
    ],
    solve: SolveNotation::StonesLeft {
        cells: (WIDTH * HEIGHT) as u32,
    },
    draws: true,
    gomocup: false,
};

/// Columns.
pub const WIDTH: usize = 7;
/// Rows.
pub const HEIGHT: usize = 6;
const STRIDE: usize = HEIGHT + 1;
const BOTTOM: u64 = bottom_mask();
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);

const fn bottom_mask() -> u64 {
    let mut mask = 0;
    let mut col = 0;
    while col < WIDTH {
        mask |= 1 << (col * STRIDE);
        col += 1;
    }
    mask
}

const fn column_mask(col: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (col * STRIDE)
}

const fn top_cell(col: usize) -> u64 {
    1 << (col * STRIDE + HEIGHT - 1)
}

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| super::zobrist::keys(0xC4, 2 * 64 + 1))
}
const SIDE_KEY: usize = 128;

/// Each key with its mirror image's beside it: a stone's mirror key is the
/// key of the cell it would stand on if the board were mirrored left to
/// right, so that a position's mirror hash is its mirror image's hash.
/// One table, so that a move reads both from one place.
fn key_pairs() -> &'static [(u64, u64)] {
    static PAIRS: OnceLock<Vec<(u64, u64)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let keys = zobrist();
        let mut pairs: Vec<(u64, u64)> = keys.iter().map(|&k| (k, k)).collect();
        for p in 0..2 {
            for col in 0..WIDTH {
                for row in 0..HEIGHT {
                    pairs[p * 64 + col * STRIDE + row].1 =
                        keys[p * 64 + (WIDTH - 1 - col) * STRIDE + row];
                }
            }
        }
        pairs
    })
}

/// True when `stones` contain four in a row in any direction.
pub fn has_four(stones: u64) -> bool {
    for shift in [1, STRIDE - 1, STRIDE, STRIDE + 1] {
        let pairs = stones & (stones >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
    }
    false
}

/// Empty cells (anywhere on the board, playable now or not) that would
/// complete four for the owner of `stones`.
pub fn winning_cells(stones: u64, occupied: u64) -> u64 {
    let p = stones;
    // Vertical: only three below can make four.
    let mut cells = (p << 1) & (p << 2) & (p << 3);
    for shift in [STRIDE - 1, STRIDE, STRIDE + 1] {
        let two_below = (p << shift) & (p << (2 * shift));
        cells |= two_below & (p << (3 * shift));
        cells |= two_below & (p >> shift);
        let two_above = (p >> shift) & (p >> (2 * shift));
        cells |= two_above & (p >> (3 * shift));
        cells |= two_above & (p << shift);
    }
    cells & BOARD & !occupied
}

/// A Connect Four position: one bitboard per side, column-major with a
/// guard row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Connect4 {
    stones: [u64; 2],
    occupied: u64,
    plies: u32,
    /// Set when the last move made four; cleared on unmake (a finished game
    /// is never played on).
    won: bool,
    hash: u64,
    /// The hash of the mirror image.
    mirror_hash: u64,
}

impl Connect4 {
    fn side_index(&self) -> usize {
        (self.plies & 1) as usize
    }

    /// Both hashes with `p`'s stone on `cell` added or taken away and the
    /// side to move changed.
    fn keys_after(&self, p: usize, cell: u64) -> (u64, u64) {
        let pairs = key_pairs();
        let (stone, side) = (
            pairs[p * 64 + cell.trailing_zeros() as usize],
            pairs[SIDE_KEY],
        );
        (
            self.hash ^ stone.0 ^ side.0,
            self.mirror_hash ^ stone.1 ^ side.1,
        )
    }

    /// Adds or takes away `p`'s stone on `cell` in both hashes, and
    /// changes the side to move.
    fn toggle_keys(&mut self, p: usize, cell: u64) {
        let (hash, mirror_hash) = self.keys_after(p, cell);
        self.hash = hash;
        self.mirror_hash = mirror_hash;
    }

    /// How promising `p`'s move to `cell` is for the solver's ordering:
    /// twice its winning cells afterwards that the opponent's do not
    /// undercut (a threat right above one of theirs is never reached),
    /// and once more those right above a playable cell. Weights chosen by
    /// the solver's nodes on Pons' sets (a fifth fewer than counting every
    /// winning cell once).
    fn threat_rank(&self, p: usize, cell: u64, theirs: u64) -> u32 {
        let occupied = self.occupied | cell;
        let threats = winning_cells(self.stones[p] | cell, occupied) & !(theirs << 1);
        let next = (occupied + BOTTOM) & BOARD;
        let soon = threats & (next << 1);
        soon.count_ones() + 2 * threats.count_ones()
    }

    /// Cells where a stone would land now, one per non-full column.
    pub fn playable(&self) -> u64 {
        (self.occupied + BOTTOM) & BOARD
    }

    /// Stones on the board.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    fn landing_cell(&self, col: u8) -> u64 {
        self.playable() & column_mask(col as usize)
    }

    fn grid(&self) -> Vec<Vec<Option<Player>>> {
        super::grid_of(WIDTH, HEIGHT, |row, col| {
            let bit = 1u64 << (col * STRIDE + HEIGHT - 1 - row);
            super::owner(self.stones[0] & bit != 0, self.stones[1] & bit != 0)
        })
    }

    fn rebuild(stones: [u64; 2]) -> Connect4 {
        let occupied = stones[0] | stones[1];
        let plies = occupied.count_ones();
        let hash_with = |key: fn(&(u64, u64)) -> u64| {
            let pairs = key_pairs();
            let mut hash = if plies & 1 == 1 {
                key(&pairs[SIDE_KEY])
            } else {
                0
            };
            for (p, &s) in stones.iter().enumerate() {
                let mut bits = s;
                while bits != 0 {
                    hash ^= key(&pairs[p * 64 + bits.trailing_zeros() as usize]);
                    bits &= bits - 1;
                }
            }
            hash
        };
        Connect4 {
            stones,
            occupied,
            plies,
            won: has_four(stones[0]) || has_four(stones[1]),
            hash: hash_with(|k| k.0),
            mirror_hash: hash_with(|k| k.1),
        }
    }

    /// Threats and control of zugzwang (Allis 1988), from the first
    /// player's point of view. When the board fills up, the second player
    /// can answer every move in the same column ("claimeven") and so get
    /// every even row (1-based, from the bottom) and leave the first player
    /// the odd rows: the first player's threats are made good on odd rows,
    /// the second's on even rows. In each column only the lowest threat
    /// counts in full (the cell under it is the one nobody wants to fill;
    /// a threat above it is reached only if the lower one is blocked), and
    /// two threats of one side on top of each other win the column
    /// whoever has to play under them. A first-player odd threat takes
    /// zugzwang from the second player, who then gets the odd rows of the
    /// other columns: his even threats elsewhere are worthless, odd ones
    /// fight back. With no odd threat for the first player, the second
    /// player's even threats decide.
    fn zugzwang_value(&self) -> i32 {
        let open = !self.playable();
        let threats = [
            winning_cells(self.stones[0], self.occupied) & open,
            winning_cells(self.stones[1], self.occupied) & open,
        ];
        // Lowest threats per side: [0] on that side's rows, [1] on the others.
        let mut lowest = [[0i32; 2]; 2];
        let mut value = 0;
        for col in 0..WIDTH {
            let both = (threats[0] | threats[1]) & column_mask(col);
            if both == 0 {
                continue;
            }
            let cell = both & both.wrapping_neg();
            let odd_row = cell & ODD_ROWS != 0;
            // A cell both sides need goes to the side whose row it is.
            let owner = match (threats[0] & cell != 0, threats[1] & cell != 0) {
                (true, true) => usize::from(!odd_row),
                (true, false) => 0,
                _ => 1,
            };
            let stacked = threats[owner] & (cell << 1) != 0;
            let on_own_row = stacked || odd_row == (owner == 0);
            lowest[owner][usize::from(!on_own_row)] += 1;
            let sign = if owner == 0 { 1 } else { -1 };
            if stacked {
                value += sign * ZUG_STACKED;
            }
            // Threats higher up the column, of either side.
            let above = both & !cell;
            value += ZUG_UPPER
                * ((above & threats[0]).count_ones() as i32
                    - (above & threats[1]).count_ones() as i32);
        }
        let [[white_odd, white_even], [black_even, black_odd]] = lowest;
        value += ZUG_GOOD * (white_odd - black_even) + ZUG_OTHER * (white_even - black_odd);
        let control = if white_odd > 0 {
            match black_odd {
                0 => ZUG_CONTROL,
                b if white_odd > b => ZUG_CONTROL / 2,
                _ => 0,
            }
        } else if black_even > 0 {
            -ZUG_CONTROL
        } else {
            0
        };
        value + control
    }

    /// Potential: every line of four cells the opponent has not entered,
    /// counted by the square of the stones already in it, so connected
    /// stones with room to grow are worth more than scattered ones.
    fn window_value(&self, p: usize) -> i32 {
        let free = BOARD & !self.stones[1 - p];
        let mine = self.stones[p];
        let mut total = 0;
        for d in [1, STRIDE - 1, STRIDE, STRIDE + 1] {
            // Windows anchored at their first cell, all four cells free.
            let windows = free & (free >> d) & (free >> (2 * d)) & (free >> (3 * d));
            for i in 0..4 {
                for j in 0..4 {
                    total += (windows & (mine >> (i * d)) & (mine >> (j * d))).count_ones() as i32;
                }
            }
        }
        total
    }

    fn centre_value(&self, p: usize) -> i32 {
        const WEIGHTS: [i32; WIDTH] = [0, 1, 2, 4, 2, 1, 0];
        (0..WIDTH)
            .map(|c| WEIGHTS[c] * (self.stones[p] & column_mask(c)).count_ones() as i32)
            .sum()
    }
}

/// Columns from the centre outwards, left before right.
const CENTRE_FIRST: [u8; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// Rows 1, 3, 5 counted from 1 at the bottom (indices 0, 2, 4).
const ODD_ROWS: u64 = BOTTOM * 0b010101;
/// The rows of the top row's parity (for 6 rows: 2, 4, 6 from 1 at the
/// bottom), which claimeven gives the second player.
const TOP_PARITY_ROWS: u64 = if HEIGHT % 2 == 1 {
    ODD_ROWS
} else {
    BOARD & !ODD_ROWS
};

/// Weights of [`Connect4::zugzwang_value`]: a column's lowest threat on
/// its owner's rows, on the other rows, a threat higher up a column, two
/// stacked threats, and control of zugzwang.
const ZUG_GOOD: i32 = 25;
const ZUG_OTHER: i32 = 8;
const ZUG_UPPER: i32 = 5;
const ZUG_STACKED: i32 = 40;
const ZUG_CONTROL: i32 = 40;

impl Game for Connect4 {
    type Move = u8;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    const HISTORY_SLOTS: usize = WIDTH;
    const HASH_AFTER_IS_CHEAP: bool = true;
    const SOLVER_FIRST: bool = true;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        Ok(Connect4::rebuild([0, 0]))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        let (board, side) = super::split_fen(fen)?;
        let grid = super::parse_grid(fen, board, WIDTH, HEIGHT)?;
        let mut stones = [0u64; 2];
        for (r, cells) in grid.iter().enumerate() {
            let row = HEIGHT - 1 - r;
            for (col, cell) in cells.iter().enumerate() {
                if let Some(p) = cell {
                    stones[p.index()] |= 1 << (col * STRIDE + row);
                }
            }
        }
        let occupied = stones[0] | stones[1];
        // Gravity: every column is filled from the bottom without gaps.
        for col in 0..WIDTH {
            let c = (occupied & column_mask(col)) >> (col * STRIDE);
            if c & (c + 1) != 0 {
                return Err(GameError::bad_position(
                    fen,
                    "a stone floats above an empty cell",
                ));
            }
        }
        let (a, b) = (stones[0].count_ones(), stones[1].count_ones());
        let expected = if a == b { Player::P1 } else { Player::P2 };
        if a < b || a > b + 1 || side != expected {
            return Err(GameError::bad_position(
                fen,
                "stone counts do not fit the side to move",
            ));
        }
        if has_four(stones[0]) && has_four(stones[1]) {
            return Err(GameError::bad_position(fen, "both sides have four"));
        }
        Ok(Connect4::rebuild(stones))
    }

    fn to_fen(&self) -> String {
        super::format_grid(&self.grid(), self.side_to_move())
    }

    fn side_to_move(&self) -> Player {
        if self.plies & 1 == 0 {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.won {
            // The side that just moved made four.
            Some(Outcome::Win(self.side_to_move().other()))
        } else if self.occupied == BOARD {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.won {
            return;
        }
        for col in 0..WIDTH {
            if self.occupied & top_cell(col) == 0 {
                moves.push(col as u8);
            }
        }
    }

    fn make_move(&mut self, col: u8) {
        let cell = self.landing_cell(col);
        let p = self.side_index();
        self.stones[p] |= cell;
        self.occupied |= cell;
        self.plies += 1;
        self.won = has_four(self.stones[p]);
        self.toggle_keys(p, cell);
    }

    fn unmake_move(&mut self, col: u8) {
        let in_column = self.occupied & column_mask(col as usize);
        let cell = 1u64 << (63 - in_column.leading_zeros());
        self.plies -= 1;
        let p = self.side_index();
        self.stones[p] &= !cell;
        self.occupied &= !cell;
        self.won = false;
        self.toggle_keys(p, cell);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> i32 {
        let me = self.side_index();
        let them = 1 - me;
        let playable = self.playable();
        let my_wins = winning_cells(self.stones[me], self.occupied) & playable;
        if my_wins != 0 {
            // Winning at once; quiescence normally sees this first.
            return 1000;
        }
        let their_wins = winning_cells(self.stones[them], self.occupied) & playable;
        if their_wins.count_ones() >= 2 {
            // Two immediate threats cannot both be blocked.
            return -1000;
        }
        let zugzwang = self.zugzwang_value();
        (if me == 0 { zugzwang } else { -zugzwang })
            + 2 * (self.window_value(me) - self.window_value(them))
            + 3 * (self.centre_value(me) - self.centre_value(them))
    }

    fn move_to_string(&self, col: u8) -> String {
        (col + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u8, GameError> {
        let col = match text.trim().parse::<u8>() {
            Ok(c @ 1..=7) => c - 1,
            _ => return Err(GameError::IllegalMove(text.to_string())),
        };
        if self.won || self.occupied & top_cell(col as usize) != 0 {
            return Err(GameError::IllegalMove(text.to_string()));
        }
        Ok(col)
    }

    fn render(&self) -> String {
        super::render_grid(&self.grid(), "1234567")
    }

    fn move_score(&self, col: u8) -> i32 {
        let me = self.side_index();
        let cell = self.landing_cell(col);
        let my_wins = winning_cells(self.stones[me], self.occupied);
        if my_wins & cell != 0 {
            return 1000;
        }
        let their_wins = winning_cells(self.stones[1 - me], self.occupied);
        if their_wins & cell != 0 {
            return 500;
        }
        let mut score = 0;
        if their_wins & (cell << 1) != 0 {
            // Playing here lets the opponent win on top.
            score -= 200;
        }
        let created = winning_cells(self.stones[me] | cell, self.occupied | cell);
        score += 10 * created.count_ones() as i32;
        score + [0, 1, 2, 3, 2, 1, 0][col as usize]
    }

    fn history_slot(&self, col: u8) -> usize {
        col as usize
    }

    fn hash_after(&self, col: u8) -> u64 {
        self.keys_after(self.side_index(), self.landing_cell(col)).0
    }

    /// The smaller of the position's exact code and its mirror image's:
    /// per column, `2^h + s` for `h` stones of which the side to move owns
    /// the set `s` (Pascal Pons' key), so no two positions share a key.
    fn symmetric_key(&self) -> u64 {
        let code = self.stones[self.side_index()] + self.occupied + BOTTOM;
        let mut mirror = 0;
        for col in 0..WIDTH {
            let column = (code >> (col * STRIDE)) & ((1 << STRIDE) - 1);
            mirror |= column << ((WIDTH - 1 - col) * STRIDE);
        }
        code.min(mirror)
    }

    /// The smaller of the hash and the mirror image's hash.
    fn solver_key(&self) -> (u64, bool) {
        (
            self.hash.min(self.mirror_hash),
            self.mirror_hash < self.hash,
        )
    }

    fn solver_key_after(&self, col: u8) -> u64 {
        let (hash, mirror_hash) = self.keys_after(self.side_index(), self.landing_cell(col));
        hash.min(mirror_hash)
    }

    fn mirror_move(&self, col: u8) -> u8 {
        (WIDTH - 1) as u8 - col
    }

    /// Claimeven (Allis 1988): when the empty cells are even in number,
    /// the opponent can answer every move in a column with an even number
    /// of empty cells on top of it, and a move in a column with an odd
    /// number in another such column (there is always one). It then gets
    /// every empty cell on the rows of the top row's parity but those
    /// playable now, and the side to move at most the rest. If no four
    /// fits in the rest, the side to move cannot win; if one also fits in
    /// the opponent's cells, it loses by the end of the game. With an odd
    /// number of empty cells, only the plain test: no four left in its
    /// stones and the empty cells.
    fn result_ceiling(&self) -> Option<Ceiling> {
        let me = self.side_index();
        let empty = BOARD & !self.occupied;
        let left = empty.count_ones();
        if left.is_multiple_of(2) {
            let theirs = self.stones[1 - me] | (empty & TOP_PARITY_ROWS & !self.playable());
            if has_four(BOARD & !theirs) {
                None
            } else if has_four(theirs) {
                Some(Ceiling::Loss(left))
            } else {
                Some(Ceiling::Draw)
            }
        } else {
            (!has_four(self.stones[me] | empty)).then_some(Ceiling::Draw)
        }
    }

    fn plies_left_bound(&self) -> Option<u32> {
        Some((WIDTH * HEIGHT) as u32 - self.plies)
    }

    fn winning_move(&self) -> Option<u8> {
        if self.won {
            return None;
        }
        let wins = winning_cells(self.stones[self.side_index()], self.occupied) & self.playable();
        (wins != 0).then(|| (wins.trailing_zeros() as usize / STRIDE) as u8)
    }

    /// Forced reply when the opponent threatens to win at a playable cell;
    /// never a cell right below one of the opponent's winning cells;
    /// centre columns first (the ranking by threats is
    /// [`Game::order_solver_moves`]'s, for the nodes the solver searches).
    fn non_losing_moves(&self, moves: &mut Vec<u8>) {
        if self.won {
            return;
        }
        let theirs = winning_cells(self.stones[1 - self.side_index()], self.occupied);
        let mut possible = self.playable();
        let forced = possible & theirs;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return;
            }
            possible = forced;
        }
        possible &= !(theirs >> 1);
        for col in CENTRE_FIRST {
            if possible & column_mask(col as usize) != 0 {
                moves.push(col);
            }
        }
    }

    /// By the threats each move makes (`threat_rank`), centre columns first
    /// among equals.
    fn order_solver_moves(&self, moves: &mut [u8]) {
        let me = self.side_index();
        let theirs = winning_cells(self.stones[1 - me], self.occupied);
        let mut ranks = [0u32; WIDTH];
        for (rank, &col) in ranks.iter_mut().zip(moves.iter()) {
            *rank = self.threat_rank(me, self.landing_cell(col), theirs);
        }
        // Insertion sort, stable: a handful of moves.
        for i in 1..moves.len() {
            let (rank, col) = (ranks[i], moves[i]);
            let mut j = i;
            while j > 0 && ranks[j - 1] < rank {
                ranks[j] = ranks[j - 1];
                moves[j] = moves[j - 1];
                j -= 1;
            }
            ranks[j] = rank;
            moves[j] = col;
        }
    }

    fn tactical_moves(&self, moves: &mut Vec<u8>) {
        if self.won {
            return;
        }
        let wins = winning_cells(self.stones[self.side_index()], self.occupied) & self.playable();
        for col in 0..WIDTH {
            if wins & column_mask(col) != 0 {
                moves.push(col as u8);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    fn play(moves: &str) -> Connect4 {
        let mut pos = Connect4::start(&Settings::default()).unwrap();
        for ch in moves.chars() {
            let mv = pos.parse_move(&ch.to_string()).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn perft_from_the_start() {
        let expected = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
        let mut pos = play("");
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
        }
        assert_eq!(pos, play(""));
    }

    #[test]
    fn four_in_each_direction_wins() {
        // vertical, horizontal, both diagonals
        for (moves, winner) in [
            ("1212121", Player::P1),
            ("1122334", Player::P1),
            ("12233434474", Player::P1),
            ("76655454414", Player::P1),
            ("12121232", Player::P2),
        ] {
            let pos = play(moves);
            assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{moves}");
            let mut list = Vec::new();
            pos.generate_moves(&mut list);
            assert!(list.is_empty(), "no moves after a win");
        }
        assert_eq!(play("121212").outcome(), None);
    }

    #[test]
    fn full_column_and_bad_text_are_illegal() {
        let pos = play("111111");
        assert!(pos.parse_move("1").is_err());
        assert!(pos.parse_move("0").is_err());
        assert!(pos.parse_move("8").is_err());
        assert!(pos.parse_move("x").is_err());
        assert_eq!(pos.parse_move("2"), Ok(1));
    }

    #[test]
    fn fen_round_trip_hash_and_gravity() {
        let pos = play("4453");
        let fen = pos.to_fen();
        assert_eq!(fen, "7/7/7/7/3o3/2oxx2 x");
        let back = Connect4::from_fen(&fen, &Settings::default()).unwrap();
        assert_eq!(back, pos, "FEN rebuild gives the incremental hash too");
        assert!(Connect4::from_fen("7/7/7/7/3o3/7 x", &Settings::default()).is_err());
        assert!(Connect4::from_fen("7/7/7/7/7/3x3 x", &Settings::default()).is_err());
    }

    #[test]
    fn non_losing_moves_are_those_that_survive_a_trial() {
        // Every position of up to five plies, and some late ones.
        let mut positions = Vec::new();
        fn walk(pos: &mut Connect4, plies: u32, out: &mut Vec<Connect4>) {
            if pos.outcome().is_some() {
                return;
            }
            out.push(pos.clone());
            if plies == 0 {
                return;
            }
            for col in 0..WIDTH as u8 {
                if pos.parse_move(&(col + 1).to_string()).is_ok() {
                    pos.make_move(col);
                    walk(pos, plies - 1, out);
                    pos.unmake_move(col);
                }
            }
        }
        walk(&mut play(""), 4, &mut positions);
        walk(&mut play("2252576253462244111563"), 4, &mut positions);
        walk(&mut play("7422341735647741166133"), 4, &mut positions);
        let mut checked = 0;
        for pos in positions {
            if pos.winning_move().is_some() {
                continue;
            }
            let mut fast = Vec::new();
            pos.non_losing_moves(&mut fast);
            let mut slow = Vec::new();
            crate::game::non_losing_moves_by_trial(&pos, &mut slow);
            fast.sort();
            assert_eq!(fast, slow, "{}", pos.to_fen());
            checked += 1;
        }
        assert!(checked > 3000);
    }

    #[test]
    fn non_losing_moves_come_centre_first_and_the_solver_ranks_threats_first() {
        let mut moves = Vec::new();
        play("").non_losing_moves(&mut moves);
        assert_eq!(moves, vec![3, 2, 4, 1, 5, 0, 6]);
        // X on d1 and e1: c1 and f1 each make three in a row with two
        // open ends; centre first among equals.
        moves.clear();
        let pos = play("4455");
        pos.non_losing_moves(&mut moves);
        pos.order_solver_moves(&mut moves);
        assert_eq!(moves[..2], [2, 5], "{moves:?}");
        // O must block X's three in column 1, and only there.
        moves.clear();
        play("12121").non_losing_moves(&mut moves);
        assert_eq!(moves, vec![0]);
        // X threatens in columns 2 and 6 of the bottom row: O has no move.
        moves.clear();
        let pos = play("33445");
        assert_eq!(pos.winning_move(), None);
        pos.non_losing_moves(&mut moves);
        assert!(moves.is_empty(), "{moves:?}");
    }

    #[test]
    fn hash_after_is_the_hash_after_the_move() {
        for line in ["", "4453", "2252576253462244111563"] {
            let pos = play(line);
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            for mv in moves {
                let mut child = pos.clone();
                child.make_move(mv);
                assert_eq!(pos.hash_after(mv), child.hash(), "{line} then {mv}");
            }
        }
    }

    fn fen(text: &str) -> Connect4 {
        Connect4::from_fen(text, &Settings::default()).unwrap()
    }

    #[test]
    fn odd_threats_serve_the_first_player_and_even_ones_the_second() {
        // X's three on row 3 threatens a3 and e3, neither playable yet.
        let odd = fen("7/7/7/1xxx3/1xoo3/1oxo3 o");
        assert_eq!(
            odd.zugzwang_value(),
            2 * ZUG_GOOD + ZUG_CONTROL,
            "two odd threats give the first player zugzwang"
        );
        // O's three on row 2 threatens a2 and e2.
        let even = fen("7/7/7/7/1ooo2x/1xxo2x x");
        assert_eq!(even.zugzwang_value(), -2 * ZUG_GOOD - ZUG_CONTROL);
        // The same threats on the other side's rows are worth less.
        let wrong_rows = fen("7/7/7/7/1xxx2o/1oox2o x");
        assert_eq!(wrong_rows.zugzwang_value(), 2 * ZUG_OTHER);
        // Evaluations are the side to move's.
        assert!(odd.evaluate() < 0 && even.evaluate() < 0);
    }

    #[test]
    fn a_threat_above_the_opponents_threat_waits_for_it() {
        // X threatens a3 and e3, O a2 and e2 right under them: O's even
        // threats come first and keep zugzwang.
        let pos = fen("7/7/7/1xxx3/1ooo3/1xox3 o");
        assert_eq!(
            pos.zugzwang_value(),
            -2 * ZUG_GOOD + 2 * ZUG_UPPER - ZUG_CONTROL
        );
        // X's diagonal b1-c2-d3 adds e4 on top of e3: whoever fills e2,
        // X wins in column e.
        let stacked = fen("7/7/7/1xxx3/1oxo3/1xoo3 o");
        assert_eq!(
            stacked.zugzwang_value(),
            2 * ZUG_GOOD + ZUG_STACKED + ZUG_UPPER + ZUG_CONTROL
        );
    }

    #[test]
    fn symmetric_keys_fold_mirror_images_only() {
        let mirrored = |line: &str| -> String {
            line.chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect()
        };
        fn walk(pos: &mut Connect4, line: &mut String, depth: u32, out: &mut Vec<String>) {
            out.push(line.clone());
            if depth == 0 || pos.outcome().is_some() {
                return;
            }
            for col in 0..WIDTH as u8 {
                if pos.parse_move(&(col + 1).to_string()).is_ok() {
                    pos.make_move(col);
                    line.push(char::from(b'1' + col));
                    walk(pos, line, depth - 1, out);
                    line.pop();
                    pos.unmake_move(col);
                }
            }
        }
        let mut lines = Vec::new();
        walk(&mut play(""), &mut String::new(), 4, &mut lines);
        let boards: std::collections::HashSet<String> =
            lines.iter().map(|l| play(l).to_fen()).collect();
        // John Tromp's counts of positions after 0 to 4 plies.
        assert_eq!(boards.len(), 1 + 7 + 49 + 238 + 1120);
        walk(
            &mut play("4444441"),
            &mut "4444441".to_string(),
            3,
            &mut lines,
        );
        let mut classes = std::collections::HashSet::new();
        let mut keys = std::collections::HashSet::new();
        for line in &lines {
            let (pos, image) = (play(line), play(&mirrored(line)));
            assert_eq!(pos.symmetric_key(), image.symmetric_key(), "{line}");
            classes.insert(pos.to_fen().min(image.to_fen()));
            keys.insert(pos.symmetric_key());
        }
        // One key per board up to its mirror image, no two sharing one.
        assert_eq!(keys.len(), classes.len());
        assert!(classes.len() < boards.len());
    }

    /// Random positions `plies` deep whose game is not over, from a fixed
    /// seed.
    fn random_positions(count: usize, plies: u32, seed: u64) -> Vec<Connect4> {
        use rand::SeedableRng;
        use rand::seq::IndexedRandom;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut pos = play("");
            for _ in 0..plies {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(*moves.choose(&mut rng).unwrap());
            }
            if pos.outcome().is_none() && pos.plies == plies {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn the_result_ceiling_holds_under_perfect_play() {
        use crate::search::score::MATE;
        use crate::search::solver::{Knowledge, Solver};
        let mut solver = Solver::<Connect4>::new(4).unwrap();
        solver.set_knowledge(Knowledge {
            mirror: false,
            ceiling: false,
            etc: false,
        });
        let (mut draws, mut losses) = (0, 0);
        for plies in [28, 30, 32, 34, 36] {
            for pos in random_positions(400, plies, plies as u64) {
                let Some(ceiling) = pos.result_ceiling() else {
                    continue;
                };
                solver.clear();
                let exact = solver.solve(&pos, false).unwrap().score;
                match ceiling {
                    Ceiling::Draw => {
                        draws += 1;
                        assert!(exact <= 0, "{} {exact}", pos.to_fen());
                    }
                    Ceiling::Loss(within) => {
                        losses += 1;
                        assert!(
                            exact < 0 && MATE + exact <= within as i32,
                            "{} {exact} {within}",
                            pos.to_fen()
                        );
                    }
                }
            }
        }
        assert!(draws > 40 && losses > 10, "{draws} draws, {losses} losses");
    }

    #[test]
    fn solver_keys_fold_mirror_images() {
        let mirrored = |line: &str| -> String {
            line.chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect()
        };
        for line in ["", "1", "4", "12", "4453", "2252576253462244111563", "44"] {
            let (pos, image) = (play(line), play(&mirrored(line)));
            let ((key, flipped), (image_key, image_flipped)) =
                (pos.solver_key(), image.solver_key());
            assert_eq!(key, image_key, "{line}");
            let symmetric = pos.to_fen() == image.to_fen();
            assert!(!(flipped && image_flipped), "{line}");
            assert_eq!(symmetric, !(flipped || image_flipped), "{line}");
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            for mv in moves {
                let mut child = pos.clone();
                child.make_move(mv);
                assert_eq!(
                    pos.solver_key_after(mv),
                    child.solver_key().0,
                    "{line} {mv}"
                );
                let mut image_child = image.clone();
                image_child.make_move(pos.mirror_move(mv));
                assert_eq!(child.solver_key().0, image_child.solver_key().0);
            }
        }
        assert_ne!(play("1").solver_key().0, play("2").solver_key().0);
    }

    #[test]
    fn threats_are_found() {
        let pos = play("112233");
        let mut tactical = Vec::new();
        pos.tactical_moves(&mut tactical);
        assert_eq!(tactical, vec![3], "column 4 completes the row");
        assert_eq!(pos.move_score(3), 1000);
    }
}
