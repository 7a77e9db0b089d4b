//! Breakthrough (Dan Troyka, 2001) on boards from 4x4 to 16x16, square
//! or rectangular.
//!
//! Each side starts on its first two rows. A piece steps one row forward,
//! straight or diagonally, onto an empty cell; it captures only diagonally
//! forward. Reaching the far row or capturing every enemy piece wins; there
//! are no draws. The first player ('x' in FEN, moving up) starts on ranks 1
//! and 2. Moves are written from-square then to-square, `a2a3`, `b5c6`;
//! files are letters from the left, ranks numbers from 1 at the bottom.
//!
//! FEN: the rows from the top down separated by '/', 'x' for a first-player
//! piece, 'o' for a second-player piece, a number for a run of empty cells
//! (it may have two digits on wide boards), then a space and the side to
//! move, 'x' or 'o'. The 8x8 start is
//! `oooooooo/oooooooo/8/8/8/8/xxxxxxxx/xxxxxxxx x`. Rejected: more pieces
//! on a side than it starts with, both sides having won, or the winner
//! being the side to move (the winning move was the last one).
//!
//! The board is a pair of bit sets, generic over [`Bits`] so that boards of
//! up to 64 cells run on plain `u64`s; the registry picks the narrowest
//! type that holds the requested size.

mod eval;
mod geometry;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

pub use super::bits::{Bits, Wide};
use geometry::{Geometry, MAX_SIDE, MIN_SIDE};

use super::{
    Boards, Description, Family, Game, GameError, GameVisitor, Outcome, Player, Settings,
    SolveNotation,
};

/// The game's name.
pub const NAME: &str = DESCRIPTION.name;
/// The default board (8x8).
pub const DEFAULT_SIZE: (usize, usize) = (8, 8);
const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// Breakthrough as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "breakthrough",
    title: "Breakthrough, boards 4 to 16 a side",
    move_examples: &["a2b3", "d2d3"],
    boards: Boards::Variable {
        min: MIN_SIDE,
        max: MAX_SIDE,
        default: DEFAULT_SIZE,
    },
    rules: &[],
    bench: &[
        ("", 8),
        ("d2e3 e7d6", 7),
        (
            "h2g3 a7b6 g2h3 h7g6 h3h4 g6h5 f2f3 e7f6 h1g2 d7c6 g1f2 a8a7 g3g4 f7g6 \
             g2g3 h8h7 d2e3 a7a6 e3f4 h5g4 f3g4 c6c5",
            7,
        ),
        (
            "d2e3 e7d6 h2g3 b7a6 g3f4 a6b5 f4g5 h7h6 e3f4 h6g5 f4g5 f7f6 g5f6 g7f6 \
             g2f3 a7b6 f3g4 b6c5 g4h5 f6e5 f2e3 d6d5 e2d3 e5e4 d3e4 d5e4",
            7,
        ),
    ],
    solve: SolveNotation::Plies,
    draws: false,
    gomocup: false,
};

/// Breakthrough as the registry lists it: the board size picks the
/// narrowest bit set that holds it (8x8 runs on `u64`).
pub struct AnyBoard;

impl Family for AnyBoard {
    const DESCRIPTION: &'static Description = &DESCRIPTION;

    fn visit<V: GameVisitor>(settings: &Settings, visitor: V) -> Result<V::Output, GameError> {
        let (width, height) = board_size(settings)?;
        Ok(match width * height {
            0..=64 => visitor.visit::<Breakthrough<u64>>(settings),
            65..=128 => visitor.visit::<Breakthrough<u128>>(settings),
            _ => visitor.visit::<Breakthrough<Wide>>(settings),
        })
    }
}

/// Board size `(width, height)` asked for by `settings`, checked.
pub fn board_size(settings: &Settings) -> Result<(usize, usize), GameError> {
    let (width, height) = super::size_without_rules(&DESCRIPTION, settings)?;
    let ok = MIN_SIDE..=MAX_SIDE;
    if !ok.contains(&width) || !ok.contains(&height) {
        return Err(GameError::Unsupported(format!(
            "{NAME} board {width}x{height}: width and height must be {MIN_SIDE} to {MAX_SIDE}"
        )));
    }
    Ok((width, height))
}

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| super::zobrist::keys(0xB4EA, 2 * MAX_CELLS + 1))
}
const SIDE_KEY: usize = 2 * MAX_CELLS;

#[inline]
fn piece_key(keys: &[u64], side: usize, sq: usize) -> u64 {
    keys[side * MAX_CELLS + sq]
}

/// A step from one cell to another, and whether it took a piece (which
/// `unmake_move` must put back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    capture: bool,
}

impl super::PackedMove for Move {
    fn pack(self) -> u64 {
        self.from as u64 | (self.to as u64) << 8 | (self.capture as u64) << 16
    }
    fn unpack(bits: u64) -> Self {
        Move {
            from: bits as u8,
            to: (bits >> 8) as u8,
            capture: bits >> 16 & 1 != 0,
        }
    }
}

/// A Breakthrough position on a board that fits the bit set `B`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakthrough<B: Bits = u64> {
    geo: Geometry<B>,
    /// Pieces of the first and second player.
    pieces: [B; 2],
    side: Player,
    hash: u64,
}

impl<B: Bits> Breakthrough<B> {
    /// Moving and taking back are the same XORs, by the side to move
    /// before the move.
    #[inline]
    fn toggle(&mut self, mv: Move) {
        let me = self.me();
        let (from, to) = (mv.from as usize, mv.to as usize);
        let keys = zobrist();
        self.pieces[me] ^= B::bit(from) | B::bit(to);
        self.hash ^= piece_key(keys, me, from) ^ piece_key(keys, me, to) ^ keys[SIDE_KEY];
        if mv.capture {
            self.pieces[1 - me] ^= B::bit(to);
            self.hash ^= piece_key(keys, 1 - me, to);
        }
    }

    fn geometry(settings: &Settings) -> Result<Geometry<B>, GameError> {
        let (width, height) = board_size(settings)?;
        if width * height > B::CELLS {
            return Err(GameError::Unsupported(format!(
                "{NAME} board {width}x{height} does not fit a {}-cell bit set",
                B::CELLS
            )));
        }
        Ok(Geometry::new(width, height))
    }

    fn build(geo: Geometry<B>, pieces: [B; 2], side: Player) -> Self {
        let keys = zobrist();
        let mut hash = if side == Player::P2 {
            keys[SIDE_KEY]
        } else {
            0
        };
        for (p, set) in pieces.iter().enumerate() {
            for sq in set.squares() {
                hash ^= piece_key(keys, p, sq);
            }
        }
        Breakthrough {
            geo,
            pieces,
            side,
            hash,
        }
    }

    /// Cells across.
    pub fn width(&self) -> usize {
        self.geo.width
    }

    /// Cells from bottom to top.
    pub fn height(&self) -> usize {
        self.geo.height
    }

    #[inline]
    fn me(&self) -> usize {
        self.side.index()
    }

    #[inline]
    fn empty(&self) -> B {
        self.geo.board & !(self.pieces[0] | self.pieces[1])
    }

    fn winner(&self) -> Option<Player> {
        let [white, black] = self.pieces;
        super::owner(
            !(white & self.geo.at_distance(0, 0)).is_empty() || black.is_empty(),
            !(black & self.geo.at_distance(1, 0)).is_empty() || white.is_empty(),
        )
    }

    /// Appends the moves of the side to move; quiet moves only onto
    /// `quiet_targets`, captures everywhere. Captures come first.
    fn moves_onto(&self, quiet_targets: B, moves: &mut Vec<Move>) {
        if self.winner().is_some() {
            return;
        }
        let me = self.me();
        let own = self.pieces[me];
        let enemy = self.pieces[1 - me];
        let empty = self.empty() & quiet_targets;
        let west = self.geo.forward_west(own, me);
        let east = self.geo.forward_east(own, me);
        let straight = self.geo.forward(own, me);
        let lists = [
            (west & enemy, 1, true),
            (east & enemy, 2, true),
            (straight & empty, 0, false),
            (west & empty, 1, false),
            (east & empty, 2, false),
        ];
        for (targets, direction, capture) in lists {
            let delta = self.geo.delta(me, direction);
            moves.extend(targets.squares().map(|to| Move {
                from: (to as isize - delta) as u8,
                to: to as u8,
                capture,
            }));
        }
    }

    fn grid(&self) -> Vec<Vec<Option<Player>>> {
        let (w, h) = (self.geo.width, self.geo.height);
        super::grid_of(w, h, |row, file| {
            let sq = (h - 1 - row) * w + file;
            super::owner(self.pieces[0].has(sq), self.pieces[1].has(sq))
        })
    }

    fn square_name(&self, sq: usize) -> String {
        let file = (b'a' + self.geo.file(sq) as u8) as char;
        format!("{file}{}", sq / self.geo.width + 1)
    }

    /// Whether the side to move has a piece one step from its goal: it
    /// wins with its next move (a diagonal step forward is always legal).
    fn can_win_now(&self) -> bool {
        let me = self.me();
        !(self.pieces[me] & self.geo.at_distance(me, 1)).is_empty()
    }

    /// The pieces of `side` one step from their goal.
    fn threats(&self, side: usize) -> B {
        self.pieces[side] & self.geo.at_distance(side, 1)
    }

    /// The pieces of `side` that no enemy piece can ever capture or block
    /// on a straight walk to the goal: those outside every enemy's cone.
    /// Cones only drift away from a piece that walks on, so a runner
    /// stays one.
    fn runners(&self, side: usize) -> B {
        let enemy = 1 - side;
        self.pieces[side] & !self.geo.interception_zone(self.pieces[enemy], enemy)
    }

    /// Rows to its goal of `side`'s nearest runner whose file ahead is
    /// clear, so that it surely walks straight in.
    fn nearest_clear_runner(&self, side: usize) -> Option<usize> {
        let occupied = self.pieces[0] | self.pieces[1];
        self.runners(side)
            .squares()
            .filter(|&sq| {
                let mut ahead = self.geo.forward(B::bit(sq), side);
                while !ahead.is_empty() {
                    if !(ahead & occupied).is_empty() {
                        return false;
                    }
                    ahead = self.geo.forward(ahead, side);
                }
                true
            })
            .map(|sq| self.geo.distance(sq, side))
            .min()
    }

    /// Whether the other side threatens a win the side to move cannot
    /// parry: two pieces a step from their goal, or one it cannot take.
    fn unparriable_threat(&self) -> bool {
        let me = self.me();
        let threats = self.threats(1 - me);
        !threats.is_empty()
            && (threats.count() > 1
                || !(threats & !self.geo.attacks(self.pieces[me], me)).is_empty())
    }

    /// The race between the sides' nearest runners, `runners[side]` rows
    /// from the goal: the side that wins it and in how many of its own
    /// moves. A runner wins if it arrives before the other side's nearest
    /// piece could; the side to move wins a tie.
    fn race_winner(&self, runners: [Option<usize>; 2]) -> Option<(usize, usize)> {
        let me = self.me();
        let them = 1 - me;
        let nearest = |p| self.geo.nearest(self.pieces[p], p).unwrap_or(usize::MAX);
        if let Some(d) = runners[me]
            && d <= nearest(them)
        {
            return Some((me, d));
        }
        match runners[them] {
            Some(d) if d < nearest(me) => Some((them, d)),
            _ => None,
        }
    }
}

impl<B: Bits> Game for Breakthrough<B> {
    type Move = Move;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    /// `from * 3 + direction` for up to 16x16 cells.
    const HISTORY_SLOTS: usize = MAX_CELLS * 3;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        let geo = Self::geometry(settings)?;
        let h = geo.height;
        let white = geo.row(0) | geo.row(1);
        let black = geo.row(h - 2) | geo.row(h - 1);
        Ok(Self::build(geo, [white, black], Player::P1))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        let geo = Self::geometry(settings)?;
        let (board, side) = super::split_fen(fen)?;
        let (w, h) = (geo.width, geo.height);
        let grid = super::parse_grid(fen, board, w, h)?;
        let mut pieces = [B::ZERO; 2];
        for (r, cells) in grid.iter().enumerate() {
            let row = h - 1 - r;
            for (file, cell) in cells.iter().enumerate() {
                if let Some(p) = cell {
                    pieces[p.index()] |= B::bit(row * w + file);
                }
            }
        }
        for set in pieces {
            if set.count() as usize > 2 * w {
                return Err(GameError::bad_position(
                    fen,
                    "a side has more pieces than it starts with",
                ));
            }
        }
        let pos = Self::build(geo, pieces, side);
        let white_won = !(pieces[0] & pos.geo.at_distance(0, 0)).is_empty() || pieces[1].is_empty();
        let black_won = !(pieces[1] & pos.geo.at_distance(1, 0)).is_empty() || pieces[0].is_empty();
        if white_won && black_won {
            return Err(GameError::bad_position(fen, "both sides have won"));
        }
        // The winning move was the last one: the loser is to move.
        if (white_won && side == Player::P1) || (black_won && side == Player::P2) {
            return Err(GameError::bad_position(
                fen,
                "the side to move has already won",
            ));
        }
        Ok(pos)
    }

    fn to_fen(&self) -> String {
        super::format_grid(&self.grid(), self.side)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.moves_onto(self.geo.board, moves);
    }

    #[inline]
    fn make_move(&mut self, mv: Move) {
        self.toggle(mv);
        self.side = self.side.other();
    }

    #[inline]
    fn unmake_move(&mut self, mv: Move) {
        self.side = self.side.other();
        self.toggle(mv);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn move_to_string(&self, mv: Move) -> String {
        format!(
            "{}{}",
            self.square_name(mv.from as usize),
            self.square_name(mv.to as usize)
        )
    }

    fn render(&self) -> String {
        let files: String = (0..self.geo.width)
            .map(|f| (b'a' + f as u8) as char)
            .collect();
        super::render_grid(&self.grid(), &files)
    }

    fn move_score(&self, mv: Move) -> i32 {
        let me = self.me();
        let to = mv.to as usize;
        let to_go = self.geo.distance(to, me);
        if to_go == 0 {
            return 1_000_000;
        }
        let h = self.geo.height as i32;
        let mut score = h - to_go as i32;
        if mv.capture {
            // The closer the victim was to its own goal, the better.
            score += 10_000 + 100 * (h - self.geo.distance(to, 1 - me) as i32);
        }
        if to_go == 1 {
            // A threat to win next move; the reply is forced.
            score += 5_000;
        }
        score
    }

    fn history_slot(&self, mv: Move) -> usize {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let direction = match self.geo.file(to).cmp(&self.geo.file(from)) {
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Greater => 2,
        };
        from * 3 + direction
    }

    fn tactical_moves(&self, moves: &mut Vec<Move>) {
        let me = self.me();
        let last_two = self.geo.at_distance(me, 0) | self.geo.at_distance(me, 1);
        self.moves_onto(last_two, moves);
    }

    fn null_move_allowed(&self) -> bool {
        // Zugzwang is real in thin endgames: pass only with material left,
        // and never while either side is one step from winning.
        let me = self.me();
        let enough = (self.pieces[me].count() as usize) > self.geo.width * 3 / 4;
        let them = 1 - me;
        enough
            && !self.can_win_now()
            && (self.pieces[them] & self.geo.at_distance(them, 1)).is_empty()
            && self.winner().is_none()
    }

    fn make_null_move(&mut self) {
        self.side = self.side.other();
        self.hash ^= zobrist()[SIDE_KEY];
    }

    fn unmake_null_move(&mut self) {
        self.make_null_move();
    }

    /// Every move but the last takes a piece one row nearer its goal and
    /// leaves it short of it: at most the rows each piece still has to go,
    /// less one, and the winning move.
    fn plies_left_bound(&self) -> Option<u32> {
        let short_of_goal = self.geo.height as i32 - 2;
        let steps: i32 = (0..2)
            .map(|p| {
                let set = self.pieces[p];
                set.count() as i32 * short_of_goal - self.geo.advancement(set, p)
            })
            .sum();
        Some(steps.max(0) as u32 + 1)
    }

    /// A race the rules decide: a threat to win that cannot be parried,
    /// or a runner with a clear file that gets through first.
    fn proved_winner(&self) -> Option<(Player, u32)> {
        if self.winner().is_some() {
            return None;
        }
        if self.can_win_now() {
            return Some((self.side, 1));
        }
        if !self.threats(1 - self.me()).is_empty() {
            return self.unparriable_threat().then_some((self.side.other(), 2));
        }
        let runners = [0, 1].map(|p| self.nearest_clear_runner(p));
        // The side to move's d-th move is ply 2d - 1, the other's ply 2d.
        self.race_winner(runners).map(|(side, d)| {
            if side == self.me() {
                (self.side, 2 * d as u32 - 1)
            } else {
                (self.side.other(), 2 * d as u32)
            }
        })
    }

    fn winning_move(&self) -> Option<Move> {
        if !self.can_win_now() || self.winner().is_some() {
            return None;
        }
        let mut moves = Vec::with_capacity(8);
        self.moves_onto(self.geo.at_distance(self.me(), 0), &mut moves);
        moves
            .into_iter()
            .find(|mv| self.geo.distance(mv.to as usize, self.me()) == 0)
    }

    /// A move can only lose at once by leaving the other side a piece a
    /// step from its goal: with one there, only the captures of it are
    /// played; with two, none saves the game.
    fn non_losing_moves(&self, moves: &mut Vec<Move>) {
        let threats = self.threats(1 - self.me());
        match threats.count() {
            0 => self.generate_moves(moves),
            1 => {
                self.moves_onto(B::ZERO, moves);
                moves.retain(|mv| threats.has(mv.to as usize));
            }
            _ => return,
        }
        moves.sort_by_key(|&mv| std::cmp::Reverse(self.move_score(mv)));
    }
}
