//! Board geometry and the move encoding.
//!
//! Squares are numbered `rank * 7 + file` (a1 = 0, g7 = 48) so that a set of
//! squares fits a `u64`; only the 25 squares with `file + rank` even are
//! played on. Directions: 0 = north-east, 1 = north-west, 2 = south-east,
//! 3 = south-west. White (P1) moves north, Black (P2) south.

pub const SIZE: usize = 7;
pub const SQUARES: usize = SIZE * SIZE;
/// Marks "off the board" in [`NEXT`].
pub const NONE: u8 = u8::MAX;

const FILE_STEP: [i32; 4] = [1, -1, 1, -1];
const RANK_STEP: [i32; 4] = [1, 1, -1, -1];

/// `NEXT[sq][dir]`: the diagonal neighbour, or [`NONE`].
pub const NEXT: [[u8; 4]; SQUARES] = build_next();

/// The playing squares as a set.
pub const PLAYING: u64 = build_playing();

/// Forward directions per side index; officers use all four.
pub const FORWARD: [&[usize]; 2] = [&[0, 1], &[2, 3]];
pub const ALL_DIRS: &[usize] = &[0, 1, 2, 3];

const fn build_next() -> [[u8; 4]; SQUARES] {
    let mut table = [[NONE; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let (file, rank) = ((sq % SIZE) as i32, (sq / SIZE) as i32);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + FILE_STEP[d], rank + RANK_STEP[d]);
            if f >= 0 && f < SIZE as i32 && r >= 0 && r < SIZE as i32 {
                table[sq][d] = (r * SIZE as i32 + f) as u8;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

const fn build_playing() -> u64 {
    let mut set = 0;
    let mut sq = 0;
    while sq < SQUARES {
        if (sq % SIZE + sq / SIZE).is_multiple_of(2) {
            set |= 1 << sq;
        }
        sq += 1;
    }
    set
}

pub fn rank_of(sq: usize) -> usize {
    sq / SIZE
}

/// The rank where a side's soldiers are promoted.
pub fn promotion_rank(side: usize) -> usize {
    if side == 0 { SIZE - 1 } else { 0 }
}

pub fn square_name(sq: usize) -> String {
    if sq >= SQUARES {
        return "??".to_string();
    }
    format!("{}{}", (b'a' + (sq % SIZE) as u8) as char, sq / SIZE + 1)
}

/// Iterates the squares of a set, lowest first.
pub fn squares(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(sq)
    })
}

/// A move: the start square and the direction of each step. Steps of a
/// capture are jumps (two squares); a non-capture is one single step.
///
/// Bits: 0-5 start square, 6-9 number of steps (1-11), 10 capture,
/// 11 promotion, 12-33 two bits of direction per step, 34-37 officers
/// taken (for ordering only). Eleven jumps is the most possible: each
/// takes one of the opponent's eleven pieces from a different column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LascaMove(u64);

impl crate::game::PackedMove for LascaMove {
    fn pack(self) -> u64 {
        self.0
    }
    fn unpack(bits: u64) -> Self {
        LascaMove(bits)
    }
}

pub const MAX_STEPS: usize = 11;

impl LascaMove {
    /// A step from `from` in direction `dir`.
    pub fn simple(from: usize, dir: usize, promotes: bool) -> LascaMove {
        LascaMove(from as u64 | 1 << 6 | (promotes as u64) << 11 | (dir as u64) << 12)
    }

    /// A capture with no jumps yet; extended by [`LascaMove::jump`].
    pub fn capture_from(from: usize) -> LascaMove {
        LascaMove(from as u64 | 1 << 10)
    }

    /// This move extended by a jump in direction `dir`.
    pub fn jump(self, dir: usize, takes_officer: bool) -> LascaMove {
        let n = self.steps() as u64;
        LascaMove(
            (self.0 & !(0xF << 6))
                | (n + 1) << 6
                | (dir as u64) << (12 + 2 * n)
                | ((self.officers_taken() + takes_officer as u64) << 34),
        )
    }

    /// This move, ending in a promotion.
    pub fn with_promotion(self) -> LascaMove {
        LascaMove(self.0 | 1 << 11)
    }

    /// The start square.
    pub fn from(self) -> usize {
        (self.0 & 63) as usize
    }

    /// How many steps or jumps the move makes.
    pub fn steps(self) -> usize {
        ((self.0 >> 6) & 0xF) as usize
    }

    /// Whether the move jumps.
    pub fn is_capture(self) -> bool {
        self.0 & 1 << 10 != 0
    }

    /// Whether the moving commander becomes an officer.
    pub fn promotes(self) -> bool {
        self.0 & 1 << 11 != 0
    }

    /// The direction of step `i`.
    pub fn dir(self, i: usize) -> usize {
        ((self.0 >> (12 + 2 * i)) & 3) as usize
    }

    /// How many officers the jumps take.
    pub fn officers_taken(self) -> u64 {
        (self.0 >> 34) & 0xF
    }

    /// The start square then every landing square; stops early (never
    /// panics) on an encoding that leaves the board.
    pub fn path(self) -> ([u8; MAX_STEPS + 1], usize) {
        let mut path = [0u8; MAX_STEPS + 1];
        let from = self.from();
        if from >= SQUARES {
            return (path, 0);
        }
        path[0] = from as u8;
        let mut len = 1;
        let mut cur = from;
        let reach = if self.is_capture() { 2 } else { 1 };
        for i in 0..self.steps().min(MAX_STEPS) {
            for _ in 0..reach {
                let next = NEXT[cur][self.dir(i)];
                if next == NONE {
                    return (path, len);
                }
                cur = next as usize;
            }
            path[len] = cur as u8;
            len += 1;
        }
        (path, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(PLAYING.count_ones(), 25);
        assert_eq!(square_name(0), "a1");
        assert_eq!(square_name(48), "g7");
        assert_eq!(NEXT[0][0], 8, "a1 north-east is b2");
        assert_eq!(NEXT[0][1], NONE);
        assert_eq!(NEXT[48][3], 40, "g7 south-west is f6");
        for sq in squares(PLAYING) {
            for &n in &NEXT[sq] {
                assert!(n == NONE || PLAYING & 1 << n != 0);
            }
        }
    }

    #[test]
    fn move_encoding() {
        let mv = LascaMove::capture_from(16)
            .jump(0, true)
            .jump(1, false)
            .with_promotion();
        assert_eq!((mv.from(), mv.steps(), mv.dir(0), mv.dir(1)), (16, 2, 0, 1));
        assert!(mv.is_capture() && mv.promotes());
        assert_eq!(mv.officers_taken(), 1);
        let (path, len) = mv.path();
        assert_eq!(&path[..len], &[16, 32, 44], "c3-e5-c7");
        assert_eq!(LascaMove::default().path().1, 1);
    }
}
