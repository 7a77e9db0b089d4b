//! Connect Four board shapes. Every board has the same bit layout:
//! column-major, `height + 1` bits per column (the cells and a guard bit
//! that stays empty, so that shifts never wrap into the next column), bit
//! `col * stride + row`, row 0 at the bottom.
//!
//! The standard 7x6 board is [`Standard`], whose masks are constants: its
//! code is what an engine built for that board alone would run. Any other
//! board is an [`AnySize`], whose masks are computed once per size and shared
//! by every position of that size.

use std::any::Any;
use std::fmt::{self, Debug};
use std::ops::Add;
use std::sync::{Mutex, OnceLock};

use crate::game::bits::Bits;

/// The shortest side: no four fits in fewer than four cells.
pub const MIN_SIDE: usize = 4;
/// Bits of the widest bit set, guard rows included: `width * (height + 1)`
/// may not exceed it.
pub const MAX_BITS: usize = 128;
/// The most columns any board has (25: four rows and their guards in 128
/// bits); sizes move lists and rank buffers.
pub const MAX_COLUMNS: usize = MAX_BITS / (MIN_SIDE + 1);

/// `Ok` when a `width` x `height` board fits the bit sets.
pub fn check_size(width: usize, height: usize) -> Result<(), String> {
    if width < MIN_SIDE || height < MIN_SIDE {
        return Err(format!(
            "board {width}x{height}: width and height must be at least {MIN_SIDE}"
        ));
    }
    if width.saturating_mul(height + 1) > MAX_BITS {
        return Err(format!(
            "board {width}x{height}: width x (height + 1) must be at most {MAX_BITS}"
        ));
    }
    Ok(())
}

/// A bit set that holds a Connect Four board: [`Bits`] with the carry of
/// an addition, which drops a stone into every column at once.
pub trait Cells: Bits + Ord + Add<Output = Self> {
    /// The set holding only the lowest cell of `self` (not empty).
    fn lowest_bit(self) -> Self;
    /// The set as a 64-bit key: itself where it fits, else a mix of its
    /// halves (for the keys books store).
    fn key(self) -> u64;
}

impl Cells for u64 {
    #[inline]
    fn lowest_bit(self) -> Self {
        self & self.wrapping_neg()
    }
    #[inline]
    fn key(self) -> u64 {
        self
    }
}

impl Cells for u128 {
    #[inline]
    fn lowest_bit(self) -> Self {
        self & self.wrapping_neg()
    }
    /// The low half, with the high half mixed in (SplitMix64's finaliser,
    /// a bijection) so that codes differing only in their high half do not
    /// share a key.
    fn key(self) -> u64 {
        let mut high = (self >> 64) as u64;
        high = (high ^ (high >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        high = (high ^ (high >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        high ^= high >> 31;
        (self as u64) ^ high
    }
}

/// Everything about one board size that does not change in a game.
pub struct Geometry<B> {
    width: usize,
    height: usize,
    /// The bottom cell of every column.
    bottom: B,
    /// Every cell (no guard bits).
    board: B,
    /// Rows 1, 3, 5, ... counted from 1 at the bottom.
    odd_rows: B,
    /// `columns[c]`: the cells of column `c`.
    columns: Vec<B>,
    /// Zobrist keys, each with its mirror image's: `[p * B::CELLS + bit]`
    /// for a stone of player `p`, `[2 * B::CELLS]` for the side to move.
    key_pairs: Vec<(u64, u64)>,
    /// Columns from the centre outwards, left before right.
    centre_first: Vec<u8>,
    /// Each column's distance from the centre in whole columns (the two
    /// middle columns of an even board are both 0).
    centre_distance: Vec<u8>,
}

impl<B: Cells> Geometry<B> {
    fn new(width: usize, height: usize) -> Self {
        let stride = height + 1;
        let mut bottom = B::ZERO;
        let mut odd_rows = B::ZERO;
        let mut columns = Vec::with_capacity(width);
        for col in 0..width {
            let mut column = B::ZERO;
            for row in 0..height {
                let cell = B::bit(col * stride + row);
                column |= cell;
                if row % 2 == 0 {
                    odd_rows |= cell;
                }
            }
            bottom |= B::bit(col * stride);
            columns.push(column);
        }
        let board = columns.iter().fold(B::ZERO, |all, &c| all | c);
        let keys = crate::game::zobrist::keys(0xC4, 2 * B::CELLS + 1);
        let mut key_pairs: Vec<(u64, u64)> = keys.iter().map(|&k| (k, k)).collect();
        for p in 0..2 {
            for col in 0..width {
                for row in 0..height {
                    key_pairs[p * B::CELLS + col * stride + row].1 =
                        keys[p * B::CELLS + (width - 1 - col) * stride + row];
                }
            }
        }
        let centre_distance: Vec<u8> = (0..width)
            .map(|c| ((2 * c).abs_diff(width - 1) / 2) as u8)
            .collect();
        let mut centre_first: Vec<u8> = (0..width as u8).collect();
        centre_first.sort_by_key(|&c| (2 * c as usize).abs_diff(width - 1));
        Geometry {
            width,
            height,
            bottom,
            board,
            odd_rows,
            columns,
            key_pairs,
            centre_first,
            centre_distance,
        }
    }
}

/// A board size: what the rules code asks about the board. Positions hold
/// their shape, so a method's answer may be a constant ([`Standard`]) or
/// read from the shared [`Geometry`] ([`AnySize`]).
pub trait Shape: Copy + Debug + PartialEq + Eq + Send + Sync + 'static {
    /// The bit set the board is kept in.
    type Bits: Cells;
    /// The widest board this type holds.
    const MAX_WIDTH: usize;

    /// The shape of a `width` x `height` board (checked by [`check_size`]),
    /// `None` when this type cannot hold it.
    fn of_size(width: usize, height: usize) -> Option<Self>;
    /// The tables of this size.
    fn geometry(self) -> &'static Geometry<Self::Bits>;

    /// Columns.
    #[inline]
    fn width(self) -> usize {
        self.geometry().width
    }
    /// Rows.
    #[inline]
    fn height(self) -> usize {
        self.geometry().height
    }
    /// Bits per column: the rows and the guard bit.
    #[inline]
    fn stride(self) -> usize {
        self.height() + 1
    }
    /// The bottom cell of every column.
    #[inline]
    fn bottom(self) -> Self::Bits {
        self.geometry().bottom
    }
    /// Every cell.
    #[inline]
    fn board(self) -> Self::Bits {
        self.geometry().board
    }
    /// Rows 1, 3, 5, ... counted from 1 at the bottom.
    #[inline]
    fn odd_rows(self) -> Self::Bits {
        self.geometry().odd_rows
    }
    /// The cells of column `col`.
    #[inline]
    fn column(self, col: usize) -> Self::Bits {
        self.geometry().columns[col]
    }
    /// Columns from the centre outwards, left before right.
    #[inline]
    fn centre_first(self) -> &'static [u8] {
        &self.geometry().centre_first
    }

    /// Cells on the board.
    #[inline]
    fn cells(self) -> usize {
        self.width() * self.height()
    }
    /// The rows of the top row's parity (on six rows: 2, 4 and 6 from 1 at
    /// the bottom), which claimeven gives the second player.
    #[inline]
    fn top_parity_rows(self) -> Self::Bits {
        if self.height() % 2 == 1 {
            self.odd_rows()
        } else {
            self.board() & !self.odd_rows()
        }
    }
    /// Zobrist keys, each with its mirror image's.
    #[inline]
    fn key_pairs(self) -> &'static [(u64, u64)] {
        &self.geometry().key_pairs
    }
    /// `col`'s distance from the centre in whole columns.
    #[inline]
    fn centre_distance(self, col: usize) -> usize {
        self.geometry().centre_distance[col] as usize
    }

    /// True when `stones` contain four in a row in any direction.
    #[inline]
    fn has_four(self, stones: Self::Bits) -> bool {
        let s = self.stride();
        for shift in [1, s - 1, s, s + 1] {
            let pairs = stones & stones.shr(shift);
            if !(pairs & pairs.shr(2 * shift)).is_empty() {
                return true;
            }
        }
        false
    }

    /// Empty cells (anywhere on the board, playable now or not) that would
    /// complete four for the owner of `stones`.
    #[inline]
    fn winning_cells(self, stones: Self::Bits, occupied: Self::Bits) -> Self::Bits {
        let p = stones;
        let s = self.stride();
        // Vertical: only three below can make four.
        let mut cells = p.shl(1) & p.shl(2) & p.shl(3);
        for shift in [s - 1, s, s + 1] {
            let two_below = p.shl(shift) & p.shl(2 * shift);
            cells |= two_below & p.shl(3 * shift);
            cells |= two_below & p.shr(shift);
            let two_above = p.shr(shift) & p.shr(2 * shift);
            cells |= two_above & p.shr(3 * shift);
            cells |= two_above & p.shl(shift);
        }
        cells & self.board() & !occupied
    }
}

/// The standard 7x6 board, every mask a constant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standard;

const WIDTH: usize = 7;
const HEIGHT: usize = 6;
const STRIDE: usize = HEIGHT + 1;
const BOTTOM: u64 = {
    let mut mask = 0;
    let mut col = 0;
    while col < WIDTH {
        mask |= 1 << (col * STRIDE);
        col += 1;
    }
    mask
};
const BOARD: u64 = BOTTOM * ((1 << HEIGHT) - 1);
const ODD_ROWS: u64 = BOTTOM * 0b010101;
const CENTRE_FIRST: [u8; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

impl Shape for Standard {
    type Bits = u64;
    const MAX_WIDTH: usize = WIDTH;

    fn of_size(width: usize, height: usize) -> Option<Self> {
        (width == WIDTH && height == HEIGHT).then_some(Standard)
    }

    fn geometry(self) -> &'static Geometry<u64> {
        static GEOMETRY: OnceLock<Geometry<u64>> = OnceLock::new();
        GEOMETRY.get_or_init(|| Geometry::new(WIDTH, HEIGHT))
    }

    #[inline]
    fn width(self) -> usize {
        WIDTH
    }
    #[inline]
    fn height(self) -> usize {
        HEIGHT
    }
    #[inline]
    fn bottom(self) -> u64 {
        BOTTOM
    }
    #[inline]
    fn board(self) -> u64 {
        BOARD
    }
    #[inline]
    fn odd_rows(self) -> u64 {
        ODD_ROWS
    }
    #[inline]
    fn column(self, col: usize) -> u64 {
        ((1 << HEIGHT) - 1) << (col * STRIDE)
    }
    #[inline]
    fn centre_first(self) -> &'static [u8] {
        &CENTRE_FIRST
    }
    #[inline]
    fn centre_distance(self, col: usize) -> usize {
        [3, 2, 1, 0, 1, 2, 3][col]
    }
}

/// Any board that fits `B`, its tables computed once per size.
#[derive(Clone, Copy)]
pub struct AnySize<B: 'static>(&'static Geometry<B>);

impl<B> Debug for AnySize<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.0.width, self.0.height)
    }
}

impl<B> PartialEq for AnySize<B> {
    fn eq(&self, other: &Self) -> bool {
        (self.0.width, self.0.height) == (other.0.width, other.0.height)
    }
}
impl<B> Eq for AnySize<B> {}

impl<B: Cells> Shape for AnySize<B> {
    type Bits = B;
    const MAX_WIDTH: usize = B::CELLS / (MIN_SIDE + 1);

    fn of_size(width: usize, height: usize) -> Option<Self> {
        (check_size(width, height).is_ok() && width * (height + 1) <= B::CELLS)
            .then(|| AnySize(interned(width, height)))
    }

    #[inline]
    fn geometry(self) -> &'static Geometry<B> {
        self.0
    }
}

/// The one geometry of each size and bit set, made on first use and kept
/// for the process (a handful of sizes, a few kilobytes each), so that
/// starting a game does not leak one each time.
fn interned<B: Cells>(width: usize, height: usize) -> &'static Geometry<B> {
    static MADE: Mutex<Vec<&'static (dyn Any + Send + Sync)>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let found = made
        .iter()
        .filter_map(|g| g.downcast_ref::<Geometry<B>>())
        .find(|g| (g.width, g.height) == (width, height));
    if let Some(geometry) = found {
        return geometry;
    }
    let geometry: &'static Geometry<B> = Box::leak(Box::new(Geometry::new(width, height)));
    made.push(geometry);
    geometry
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constants of the standard board are those the general code
    /// computes for 7x6.
    #[test]
    fn the_standard_constants_are_the_general_ones() {
        let general = AnySize::<u64>::of_size(7, 6).unwrap();
        assert_eq!(Standard.bottom(), general.bottom());
        assert_eq!(Standard.board(), general.board());
        assert_eq!(Standard.odd_rows(), general.odd_rows());
        assert_eq!(Standard.top_parity_rows(), general.top_parity_rows());
        assert_eq!(Standard.centre_first(), general.centre_first());
        for col in 0..7 {
            assert_eq!(Standard.column(col), general.column(col));
            assert_eq!(Standard.centre_distance(col), general.centre_distance(col));
        }
        assert_eq!(Standard.key_pairs(), general.key_pairs());
        assert_eq!(Standard.stride(), general.stride());
    }

    #[test]
    fn sizes_are_checked_and_shared() {
        assert!(check_size(4, 4).is_ok());
        assert!(check_size(25, 4).is_ok());
        assert!(check_size(4, 31).is_ok());
        assert!(check_size(26, 4).is_err());
        assert!(check_size(4, 32).is_err());
        assert!(check_size(3, 9).is_err());
        assert!(check_size(usize::MAX, 4).is_err());
        assert!(AnySize::<u64>::of_size(9, 7).is_none(), "80 bits");
        let a = AnySize::<u128>::of_size(9, 7).unwrap();
        let b = AnySize::<u128>::of_size(9, 7).unwrap();
        assert!(std::ptr::eq(a.geometry(), b.geometry()));
        assert_eq!(format!("{a:?}"), "9x7");
        assert_eq!(Standard::of_size(8, 7), None);
        // Even widths: the two middle columns first, left before right.
        let eight = AnySize::<u64>::of_size(8, 4).unwrap();
        assert_eq!(eight.centre_first(), [3, 4, 2, 5, 1, 6, 0, 7]);
        assert_eq!(eight.centre_distance(3), 0);
        assert_eq!(eight.centre_distance(0), 3);
    }

    #[test]
    fn wide_keys_keep_both_halves() {
        let low = 5u128;
        let high = 5u128 << 64;
        assert_ne!(low.key(), high.key());
        assert_ne!(high.key(), (high | low).key());
        assert_eq!(77u64.key(), 77);
    }
}
