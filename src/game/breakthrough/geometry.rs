//! Board geometry for one board size: masks and the directional shifts
//! that move whole sets of pieces at once. Side 0 (the first player) moves
//! towards higher rows, side 1 towards row 0.

use crate::game::bits::Bits;

/// The smallest side: on 4 rows the two armies start face to face.
pub const MIN_SIDE: usize = 4;
pub const MAX_SIDE: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry<B> {
    pub width: usize,
    pub height: usize,
    /// Every cell of the board (the bit set may be larger).
    pub board: B,
    /// Every cell but those of file a / of the last file: a piece there may
    /// step west / east without wrapping into the neighbouring row.
    not_west_edge: B,
    not_east_edge: B,
    /// `rows[r]`: the cells of row `r`, row 0 at the bottom.
    rows: [B; MAX_SIDE],
    /// `row_bits[k]`: cells whose row index has bit `k` set; summing
    /// `count << k` gives the sum of the rows of a set in four counts.
    row_bits: [B; 4],
    /// Row and file of every cell: tables, since `width` is not a
    /// constant and divisions would sit in move ordering's inner loop.
    row_of: [u8; MAX_SIDE * MAX_SIDE],
    file_of: [u8; MAX_SIDE * MAX_SIDE],
}

impl<B: Bits> Geometry<B> {
    /// A geometry for a size already checked to fit `B`.
    pub fn new(width: usize, height: usize) -> Geometry<B> {
        let mut rows = [B::ZERO; MAX_SIDE];
        let mut row_bits = [B::ZERO; 4];
        let mut west_file = B::ZERO;
        let mut east_file = B::ZERO;
        for (r, row) in rows.iter_mut().enumerate().take(height) {
            for f in 0..width {
                *row |= B::bit(r * width + f);
            }
            for (k, bits) in row_bits.iter_mut().enumerate() {
                if r >> k & 1 == 1 {
                    *bits |= *row;
                }
            }
            west_file |= B::bit(r * width);
            east_file |= B::bit(r * width + width - 1);
        }
        let board = rows.iter().fold(B::ZERO, |acc, &r| acc | r);
        let mut row_of = [0; MAX_SIDE * MAX_SIDE];
        let mut file_of = [0; MAX_SIDE * MAX_SIDE];
        for sq in 0..width * height {
            row_of[sq] = (sq / width) as u8;
            file_of[sq] = (sq % width) as u8;
        }
        Geometry {
            width,
            height,
            board,
            not_west_edge: board & !west_file,
            not_east_edge: board & !east_file,
            rows,
            row_bits,
            row_of,
            file_of,
        }
    }

    #[inline]
    pub fn row(&self, r: usize) -> B {
        self.rows[r]
    }

    /// The row `d` rows short of `side`'s goal (`d = 0`: the goal row).
    #[inline]
    pub fn at_distance(&self, side: usize, d: usize) -> B {
        if side == 0 {
            self.rows[self.height - 1 - d]
        } else {
            self.rows[d]
        }
    }

    /// The row `side` starts from and defends.
    #[inline]
    pub fn home(&self, side: usize) -> B {
        self.at_distance(side, self.height - 1)
    }

    /// Rows `side` still has to travel from `sq` to its goal.
    #[inline]
    pub fn distance(&self, sq: usize, side: usize) -> usize {
        let row = self.row_of[sq] as usize;
        if side == 0 {
            self.height - 1 - row
        } else {
            row
        }
    }

    #[inline]
    pub fn file(&self, sq: usize) -> usize {
        self.file_of[sq] as usize
    }

    /// Distance to goal of the most advanced piece of `set` (owned by
    /// `side`), or `None` for an empty set.
    #[inline]
    pub fn nearest(&self, set: B, side: usize) -> Option<usize> {
        if set.is_empty() {
            None
        } else if side == 0 {
            Some(self.distance(set.highest(), 0))
        } else {
            Some(self.distance(set.lowest(), 1))
        }
    }

    /// Sum over `set` of how many rows each piece of `side` has advanced.
    #[inline]
    pub fn advancement(&self, set: B, side: usize) -> i32 {
        let mut row_sum = 0;
        for (k, &bits) in self.row_bits.iter().enumerate() {
            row_sum += ((set & bits).count() << k) as i32;
        }
        if side == 0 {
            row_sum
        } else {
            set.count() as i32 * (self.height as i32 - 1) - row_sum
        }
    }

    /// Each piece one row towards `side`'s goal, same file.
    #[inline]
    pub fn forward(&self, set: B, side: usize) -> B {
        if side == 0 {
            set.shl(self.width) & self.board
        } else {
            set.shr(self.width)
        }
    }

    /// Each piece one row forward and one file towards file a.
    #[inline]
    pub fn forward_west(&self, set: B, side: usize) -> B {
        let set = set & self.not_west_edge;
        if side == 0 {
            set.shl(self.width - 1) & self.board
        } else {
            set.shr(self.width + 1)
        }
    }

    /// Each piece one row forward and one file away from file a.
    #[inline]
    pub fn forward_east(&self, set: B, side: usize) -> B {
        let set = set & self.not_east_edge;
        if side == 0 {
            set.shl(self.width + 1) & self.board
        } else {
            set.shr(self.width - 1)
        }
    }

    /// The cells `side`'s pieces in `set` attack (diagonally forward).
    #[inline]
    pub fn attacks(&self, set: B, side: usize) -> B {
        self.forward_west(set, side) | self.forward_east(set, side)
    }

    /// Each piece one file towards file a / away from it, same row.
    #[inline]
    pub fn west(&self, set: B) -> B {
        (set & self.not_west_edge).shr(1)
    }

    #[inline]
    pub fn east(&self, set: B) -> B {
        (set & self.not_east_edge).shl(1)
    }

    /// Index difference of a move of `side`: straight (0), west (1) or
    /// east (2).
    #[inline]
    pub fn delta(&self, side: usize, direction: usize) -> isize {
        let w = self.width as isize;
        match (side, direction) {
            (0, 0) => w,
            (0, 1) => w - 1,
            (0, _) => w + 1,
            (_, 0) => -w,
            (_, 1) => -w - 1,
            _ => -w + 1,
        }
    }

    /// Files holding a piece of `set`, as cells of row 0.
    pub fn files(&self, set: B) -> B {
        // Fold the rows down onto row 0 in log2(height) steps; the shift
        // stays below width * height, hence within the bit set.
        let mut x = set;
        let mut span = 1;
        while span < self.height {
            x |= x.shr(span * self.width);
            span *= 2;
        }
        x & self.rows[0]
    }

    /// Cells where an enemy piece could still be captured or blocked by
    /// `side`'s pieces in `set`: for each piece, the cone ahead of it (in
    /// `side`'s direction of travel) that widens by one file per row. An
    /// enemy outside every cone can run straight to its goal unhindered.
    pub fn interception_zone(&self, set: B, side: usize) -> B {
        let mut zone = B::ZERO;
        let mut front = set;
        for _ in 1..self.height {
            front = self.forward(front | self.west(front) | self.east(front), side);
            if front.is_empty() {
                break;
            }
            zone |= front;
        }
        zone
    }
}
