//! Connect Four on any board from 4x4 up to `width x (height + 1)` <= 128
//! bits, as bitboards (the layout is [`shape`]'s). The standard 7x6 board
//! has its own constant shape, [`Standard`]; the registry picks the
//! narrowest type for any other size. Moves are columns, written `1` to
//! the width as in Pascal Pons' test sets.

pub mod shape;
#[cfg(test)]
mod tests;

pub use shape::{AnySize, Cells, MAX_BITS, MIN_SIDE, Shape, Standard, check_size};

use super::bits::Bits;
use super::{
    Boards, Ceiling, Description, Family, Game, GameError, GameVisitor, NextTurnWin, Outcome,
    Player, Settings, SolveNotation,
};

/// Connect Four as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "connect4",
    title: "Connect Four, 7x6 (or WxH with W x (H+1) <= 128)",
    move_examples: &["4", "1"],
    boards: Boards::Variable {
        min: MIN_SIDE,
        max: MAX_BITS / MIN_SIDE - 1,
        default: (7, 6),
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
    solve: SolveNotation::StonesLeft,
    draws: true,
    gomocup: false,
};

/// Connect Four on the standard 7x6 board.
pub type Connect4 = Position<Standard>;

/// Connect Four as the registry lists it: 7x6 runs on constant masks,
/// other boards on the narrowest bit set that holds them.
pub struct AnyBoard;

impl Family for AnyBoard {
    const DESCRIPTION: &'static Description = &DESCRIPTION;

    fn visit<V: GameVisitor>(settings: &Settings, visitor: V) -> Result<V::Output, GameError> {
        let (width, height) = board_size(settings)?;
        Ok(if (width, height) == DESCRIPTION.boards.default_size() {
            visitor.visit::<Position<Standard>>(settings)
        } else if width * (height + 1) <= 64 {
            visitor.visit::<Position<AnySize<u64>>>(settings)
        } else {
            visitor.visit::<Position<AnySize<u128>>>(settings)
        })
    }
}

/// Board size `(width, height)` asked for by `settings`, checked.
pub fn board_size(settings: &Settings) -> Result<(usize, usize), GameError> {
    let (width, height) = super::size_without_rules(&DESCRIPTION, settings)?;
    check_size(width, height)
        .map_err(|e| GameError::Unsupported(format!("{}: {e}", DESCRIPTION.name)))?;
    Ok((width, height))
}

/// A Connect Four position: one bitboard per side, column-major with a
/// guard row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<S: Shape> {
    shape: S,
    stones: [S::Bits; 2],
    occupied: S::Bits,
    plies: u32,
    /// Set when the last move made four; cleared on unmake (a finished game
    /// is never played on).
    won: bool,
    hash: u64,
    /// The hash of the mirror image.
    mirror_hash: u64,
}

impl<S: Shape> Position<S> {
    fn side_index(&self) -> usize {
        (self.plies & 1) as usize
    }

    /// The board's shape.
    pub fn shape(&self) -> S {
        self.shape
    }

    /// Both hashes with `p`'s stone on `cell` added or taken away and the
    /// side to move changed.
    #[inline]
    fn keys_after(&self, p: usize, cell: S::Bits) -> (u64, u64) {
        let pairs = self.shape.key_pairs();
        let cells = S::Bits::CELLS;
        let (stone, side) = (pairs[p * cells + cell.lowest()], pairs[2 * cells]);
        (
            self.hash ^ stone.0 ^ side.0,
            self.mirror_hash ^ stone.1 ^ side.1,
        )
    }

    /// Adds or takes away `p`'s stone on `cell` in both hashes, and
    /// changes the side to move.
    fn toggle_keys(&mut self, p: usize, cell: S::Bits) {
        let (hash, mirror_hash) = self.keys_after(p, cell);
        self.hash = hash;
        self.mirror_hash = mirror_hash;
    }

    fn winning_cells(&self, stones: S::Bits, occupied: S::Bits) -> S::Bits {
        self.shape.winning_cells(stones, occupied)
    }

    /// How promising `p`'s move to `cell` is for the solver's ordering:
    /// twice its winning cells afterwards that the opponent's do not
    /// undercut (a threat right above one of theirs is never reached),
    /// and, once two fifths of the board are filled, once more those
    /// right above a playable cell. Weights chosen by the solver's nodes
    /// on Pons' sets: a fifth fewer than counting every winning cell once;
    /// counting the threats about to be playable from the start instead
    /// cost a quarter more nodes on the openings of Test_L1_R1 and saved
    /// nothing elsewhere. `None` when the move leaves the opponent only
    /// replies that lose at once.
    fn threat_rank(&self, p: usize, cell: S::Bits, theirs: S::Bits) -> Option<u32> {
        let occupied = self.occupied | cell;
        let wins = self.winning_cells(self.stones[p] | cell, occupied);
        let next = (occupied + self.shape.bottom()) & self.shape.board();
        if Self::no_safe_reply(wins, next) {
            return None;
        }
        let threats = wins & !theirs.shl(1);
        let soon = if 5 * self.plies as usize >= 2 * self.shape.cells() {
            (threats & next.shl(1)).count()
        } else {
            0
        };
        Some(soon + 2 * threats.count())
    }

    /// Whether the side to move, facing the opponent's winning cells
    /// `wins` with stones landing on `playable`, has only moves that let
    /// the opponent win at once (the test of [`Game::non_losing_moves`]):
    /// two wins to block, one with another right above it, or every
    /// playable cell right under a win. A full board is a draw, not this.
    fn no_safe_reply(wins: S::Bits, playable: S::Bits) -> bool {
        let forced = playable & wins;
        let possible = if forced.is_empty() {
            playable
        } else if forced.without_lowest().is_empty() {
            forced
        } else {
            return true;
        };
        !playable.is_empty() && (possible & !wins.shr(1)).is_empty()
    }

    /// Cells where a stone would land now, one per non-full column.
    pub fn playable(&self) -> S::Bits {
        (self.occupied + self.shape.bottom()) & self.shape.board()
    }

    /// Stones on the board.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    fn landing_cell(&self, col: u8) -> S::Bits {
        self.playable() & self.shape.column(col as usize)
    }

    /// The top cell of `col`.
    fn top_cell(&self, col: usize) -> S::Bits {
        S::Bits::bit(col * self.shape.stride() + self.shape.height() - 1)
    }

    fn grid(&self) -> Vec<Vec<Option<Player>>> {
        let (width, height, stride) =
            (self.shape.width(), self.shape.height(), self.shape.stride());
        super::grid_of(width, height, |row, col| {
            let bit = S::Bits::bit(col * stride + height - 1 - row);
            super::owner(
                !(self.stones[0] & bit).is_empty(),
                !(self.stones[1] & bit).is_empty(),
            )
        })
    }

    fn rebuild(shape: S, stones: [S::Bits; 2]) -> Self {
        let occupied = stones[0] | stones[1];
        let plies = occupied.count();
        let pairs = shape.key_pairs();
        let cells = S::Bits::CELLS;
        let hash_with = |key: fn(&(u64, u64)) -> u64| {
            let mut hash = if plies & 1 == 1 {
                key(&pairs[2 * cells])
            } else {
                0
            };
            for (p, &s) in stones.iter().enumerate() {
                for bit in s.squares() {
                    hash ^= key(&pairs[p * cells + bit]);
                }
            }
            hash
        };
        Position {
            shape,
            stones,
            occupied,
            plies,
            won: shape.has_four(stones[0]) || shape.has_four(stones[1]),
            hash: hash_with(|k| k.0),
            mirror_hash: hash_with(|k| k.1),
        }
    }

    /// The shape of the board `settings` ask for, which this type must hold.
    fn shape_for(settings: &Settings) -> Result<S, GameError> {
        let (width, height) = board_size(settings)?;
        S::of_size(width, height).ok_or_else(|| {
            GameError::Unsupported(format!(
                "{}: board {width}x{height} does not fit this position type",
                DESCRIPTION.name
            ))
        })
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
            self.winning_cells(self.stones[0], self.occupied) & open,
            self.winning_cells(self.stones[1], self.occupied) & open,
        ];
        let odd_rows = self.shape.odd_rows();
        // Lowest threats per side: [0] on that side's rows, [1] on the others.
        let mut lowest = [[0i32; 2]; 2];
        let mut value = 0;
        for col in 0..self.shape.width() {
            let both = (threats[0] | threats[1]) & self.shape.column(col);
            if both.is_empty() {
                continue;
            }
            let cell = both.lowest_bit();
            let odd_row = !(cell & odd_rows).is_empty();
            // A cell both sides need goes to the side whose row it is.
            let owner = match (
                !(threats[0] & cell).is_empty(),
                !(threats[1] & cell).is_empty(),
            ) {
                (true, true) => usize::from(!odd_row),
                (true, false) => 0,
                _ => 1,
            };
            let stacked = !(threats[owner] & cell.shl(1)).is_empty();
            let on_own_row = stacked || odd_row == (owner == 0);
            lowest[owner][usize::from(!on_own_row)] += 1;
            let sign = if owner == 0 { 1 } else { -1 };
            if stacked {
                value += sign * ZUG_STACKED;
            }
            // Threats higher up the column, of either side.
            let above = both & !cell;
            value += ZUG_UPPER
                * ((above & threats[0]).count() as i32 - (above & threats[1]).count() as i32);
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
        let free = self.shape.board() & !self.stones[1 - p];
        let mine = self.stones[p];
        let s = self.shape.stride();
        let mut total = 0;
        for d in [1, s - 1, s, s + 1] {
            // Windows anchored at their first cell, all four cells free.
            let windows = free & free.shr(d) & free.shr(2 * d) & free.shr(3 * d);
            for i in 0..4 {
                for j in 0..4 {
                    total += (windows & mine.shr(i * d) & mine.shr(j * d)).count() as i32;
                }
            }
        }
        total
    }

    /// Stones weighted by their column's nearness to the centre: 4 in the
    /// middle, then 2, 1 and 0.
    #[inline]
    fn centre_value(&self, p: usize) -> i32 {
        (0..self.shape.width())
            .map(|c| {
                let weight = [4, 2, 1, 0][self.shape.centre_distance(c).min(3)];
                weight * (self.stones[p] & self.shape.column(c)).count() as i32
            })
            .sum()
    }
}

/// Weights of [`Position::zugzwang_value`]: a column's lowest threat on
/// its owner's rows, on the other rows, a threat higher up a column, two
/// stacked threats, and control of zugzwang.
const ZUG_GOOD: i32 = 25;
const ZUG_OTHER: i32 = 8;
const ZUG_UPPER: i32 = 5;
const ZUG_STACKED: i32 = 40;
const ZUG_CONTROL: i32 = 40;

impl<S: Shape> Game for Position<S> {
    type Move = u8;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    const HISTORY_SLOTS: usize = S::MAX_WIDTH;
    const HASH_AFTER_IS_CHEAP: bool = true;
    const SOLVER_FIRST: bool = true;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        let shape = Self::shape_for(settings)?;
        Ok(Self::rebuild(shape, [S::Bits::ZERO; 2]))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        let shape = Self::shape_for(settings)?;
        let (width, height, stride) = (shape.width(), shape.height(), shape.stride());
        let (board, side) = super::split_fen(fen)?;
        let grid = super::parse_grid(fen, board, width, height)?;
        let mut stones = [S::Bits::ZERO; 2];
        for (r, cells) in grid.iter().enumerate() {
            let row = height - 1 - r;
            for (col, cell) in cells.iter().enumerate() {
                if let Some(p) = cell {
                    stones[p.index()] |= S::Bits::bit(col * stride + row);
                }
            }
        }
        let occupied = stones[0] | stones[1];
        // Gravity: every column is filled from the bottom without gaps.
        for col in 0..width {
            let c = (occupied & shape.column(col)).shr(col * stride);
            if !(c & (c + S::Bits::bit(0))).is_empty() {
                return Err(GameError::bad_position(
                    fen,
                    "a stone floats above an empty cell",
                ));
            }
        }
        let (a, b) = (stones[0].count(), stones[1].count());
        let expected = if a == b { Player::P1 } else { Player::P2 };
        if a < b || a > b + 1 || side != expected {
            return Err(GameError::bad_position(
                fen,
                "stone counts do not fit the side to move",
            ));
        }
        if shape.has_four(stones[0]) && shape.has_four(stones[1]) {
            return Err(GameError::bad_position(fen, "both sides have four"));
        }
        Ok(Self::rebuild(shape, stones))
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
        } else if self.occupied == self.shape.board() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.won {
            return;
        }
        for col in 0..self.shape.width() {
            if (self.occupied & self.top_cell(col)).is_empty() {
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
        self.won = self.shape.has_four(self.stones[p]);
        self.toggle_keys(p, cell);
    }

    fn unmake_move(&mut self, col: u8) {
        let in_column = self.occupied & self.shape.column(col as usize);
        let cell = S::Bits::bit(in_column.highest());
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
        let my_wins = self.winning_cells(self.stones[me], self.occupied) & playable;
        if !my_wins.is_empty() {
            // Winning at once; quiescence normally sees this first.
            return 1000;
        }
        let their_wins = self.winning_cells(self.stones[them], self.occupied) & playable;
        if their_wins.count() >= 2 {
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
        let col = match text.trim().parse::<usize>() {
            Ok(c) if (1..=self.shape.width()).contains(&c) => c - 1,
            _ => return Err(GameError::IllegalMove(text.to_string())),
        };
        if self.won || !(self.occupied & self.top_cell(col)).is_empty() {
            return Err(GameError::IllegalMove(text.to_string()));
        }
        Ok(col as u8)
    }

    /// Columns labelled by the last digit of their number.
    fn render(&self) -> String {
        let labels: String = (1..=self.shape.width())
            .map(|c| char::from(b'0' + (c % 10) as u8))
            .collect();
        super::render_grid(&self.grid(), &labels)
    }

    fn move_score(&self, col: u8) -> i32 {
        let me = self.side_index();
        let cell = self.landing_cell(col);
        let my_wins = self.winning_cells(self.stones[me], self.occupied);
        if !(my_wins & cell).is_empty() {
            return 1000;
        }
        let their_wins = self.winning_cells(self.stones[1 - me], self.occupied);
        if !(their_wins & cell).is_empty() {
            return 500;
        }
        let mut score = 0;
        if !(their_wins & cell.shl(1)).is_empty() {
            // Playing here lets the opponent win on top.
            score -= 200;
        }
        let created = self.winning_cells(self.stones[me] | cell, self.occupied | cell);
        score += 10 * created.count() as i32;
        score + 3usize.saturating_sub(self.shape.centre_distance(col as usize)) as i32
    }

    fn history_slot(&self, col: u8) -> usize {
        col as usize
    }

    fn hash_after(&self, col: u8) -> u64 {
        self.keys_after(self.side_index(), self.landing_cell(col)).0
    }

    /// The smaller of the position's exact code and its mirror image's:
    /// per column, `2^h + s` for `h` stones of which the side to move owns
    /// the set `s` (Pascal Pons' key), so no two positions share a key on
    /// boards of up to 64 bits (beyond, the code is folded to 64 bits).
    fn symmetric_key(&self) -> u64 {
        let shape = self.shape;
        let stride = shape.stride();
        let code = self.stones[self.side_index()] + self.occupied + shape.bottom();
        let column_bits = shape.column(0) | S::Bits::bit(stride - 1);
        let mut mirror = S::Bits::ZERO;
        let width = shape.width();
        for col in 0..width {
            let column = code.shr(col * stride) & column_bits;
            mirror |= column.shl((width - 1 - col) * stride);
        }
        code.min(mirror).key()
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
        (self.shape.width() - 1) as u8 - col
    }

    /// Claimeven (Allis 1988): when the empty cells are even in number,
    /// the opponent can answer every move in a column with an even number
    /// of empty cells on top of it, and a move in a column with an odd
    /// number in another such column (there is always one). It then gets
    /// every empty cell on the rows of the top row's parity but those
    /// playable now, and the side to move at most the rest. If no four
    /// fits in the rest, the side to move cannot win; if one also fits in
    /// the opponent's cells, it loses, at the latest when the cells under
    /// that four's highest empty cell are filled (Steininger's c4 bounds
    /// the loss by rows the same way). With an odd
    /// number of empty cells, only the plain test: no four left in its
    /// stones and the empty cells.
    fn result_ceiling(&self) -> Option<Ceiling> {
        let shape = self.shape;
        let me = self.side_index();
        let board = shape.board();
        let empty = board & !self.occupied;
        let left = empty.count();
        if left.is_multiple_of(2) {
            let theirs = self.stones[1 - me] | (empty & shape.top_parity_rows() & !self.playable());
            if shape.has_four(board & !theirs) {
                None
            } else if shape.has_four(theirs) {
                // Gravity bounds when: a four whose empty cells all lie on
                // rows up to `r` is complete once no more cells are empty
                // than lie above row `r`, and it completes on the
                // opponent's move, an even number of plies from here.
                let (mut low, height) = (S::Bits::ZERO, shape.height());
                let stones = self.stones[1 - me];
                let mut within = left;
                for row in 0..height {
                    low |= shape.bottom().shl(row);
                    if shape.has_four(stones | (theirs & empty & low)) {
                        within = (left - (height - 1 - row) as u32) & !1;
                        break;
                    }
                }
                Some(Ceiling::Loss(within))
            } else {
                Some(Ceiling::Draw)
            }
        } else {
            (!shape.has_four(self.stones[me] | empty)).then_some(Ceiling::Draw)
        }
    }

    fn plies_left_bound(&self) -> Option<u32> {
        Some(self.shape.cells() as u32 - self.plies)
    }

    /// The side to move's share of the empty cells, rounded up.
    fn most_moves_left(&self) -> Option<u32> {
        Some((self.shape.cells() as u32 - self.plies).div_ceil(2))
    }

    fn winning_move(&self) -> Option<u8> {
        if self.won {
            return None;
        }
        let wins =
            self.winning_cells(self.stones[self.side_index()], self.occupied) & self.playable();
        (!wins.is_empty()).then(|| (wins.lowest() / self.shape.stride()) as u8)
    }

    /// Forced reply when the opponent threatens to win at a playable cell;
    /// never a cell right below one of the opponent's winning cells;
    /// centre columns first (the ranking by threats is
    /// [`Game::order_solver_moves`]'s, for the nodes the solver searches).
    fn non_losing_moves(&self, moves: &mut Vec<u8>) {
        if self.won {
            return;
        }
        let theirs = self.winning_cells(self.stones[1 - self.side_index()], self.occupied);
        let playable = self.playable();
        if Self::no_safe_reply(theirs, playable) {
            return;
        }
        let forced = playable & theirs;
        let possible = if forced.is_empty() { playable } else { forced } & !theirs.shr(1);
        for &col in self.shape.centre_first() {
            if !(possible & self.shape.column(col as usize)).is_empty() {
                moves.push(col);
            }
        }
    }

    /// By the threats each move makes (`threat_rank`), centre columns first
    /// among equals; a move that leaves the opponent no safe reply is
    /// named instead.
    fn order_solver_moves(&self, moves: &mut [u8]) -> NextTurnWin<u8> {
        let me = self.side_index();
        let theirs = self.winning_cells(self.stones[1 - me], self.occupied);
        let mut ranks = [0u32; shape::MAX_COLUMNS];
        for (rank, &col) in ranks.iter_mut().zip(moves.iter()) {
            match self.threat_rank(me, self.landing_cell(col), theirs) {
                Some(r) => *rank = r,
                None => return NextTurnWin::By(col),
            }
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
        NextTurnWin::Impossible
    }

    fn tactical_moves(&self, moves: &mut Vec<u8>) {
        if self.won {
            return;
        }
        let wins =
            self.winning_cells(self.stones[self.side_index()], self.occupied) & self.playable();
        for col in 0..self.shape.width() {
            if !(wins & self.shape.column(col)).is_empty() {
                moves.push(col as u8);
            }
        }
    }
}
