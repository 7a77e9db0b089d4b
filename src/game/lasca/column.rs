//! A column (stack) of pieces on one square, bit-packed: bit `i` of each
//! mask describes the `i`-th piece from the top. Both sides have eleven
//! pieces, so a column never exceeds 22 and fits `u32` masks.

pub const MAX_HEIGHT: usize = 22;

/// One piece: its colour (side index, 0 = White) and rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub side: usize,
    pub officer: bool,
}

impl Piece {
    pub fn letter(self) -> char {
        match (self.side, self.officer) {
            (0, false) => 'w',
            (0, true) => 'W',
            (_, false) => 'b',
            (_, true) => 'B',
        }
    }

    pub fn from_letter(ch: char) -> Option<Piece> {
        let (side, officer) = match ch {
            'w' => (0, false),
            'W' => (0, true),
            'b' => (1, false),
            'B' => (1, true),
            _ => return None,
        };
        Some(Piece { side, officer })
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Column {
    black: u32,
    officers: u32,
    height: u8,
}

impl Column {
    pub const EMPTY: Column = Column {
        black: 0,
        officers: 0,
        height: 0,
    };

    pub fn is_empty(self) -> bool {
        self.height == 0
    }

    pub fn height(self) -> usize {
        self.height as usize
    }

    /// The `i`-th piece from the top (`i < height`).
    pub fn piece(self, i: usize) -> Piece {
        Piece {
            side: ((self.black >> i) & 1) as usize,
            officer: (self.officers >> i) & 1 != 0,
        }
    }

    /// The commander; only meaningful for a non-empty column.
    pub fn top(self) -> Piece {
        self.piece(0)
    }

    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        (0..self.height()).map(move |i| self.piece(i))
    }

    pub fn pop_top(&mut self) -> Piece {
        let piece = self.top();
        self.black >>= 1;
        self.officers >>= 1;
        self.height -= 1;
        piece
    }

    pub fn push_top(&mut self, piece: Piece) {
        self.black = self.black << 1 | piece.side as u32;
        self.officers = self.officers << 1 | piece.officer as u32;
        self.height += 1;
    }

    pub fn push_bottom(&mut self, piece: Piece) {
        self.black |= (piece.side as u32) << self.height;
        self.officers |= (piece.officer as u32) << self.height;
        self.height += 1;
    }

    pub fn pop_bottom(&mut self) -> Piece {
        self.height -= 1;
        let piece = self.piece(self.height());
        let keep = (1u32 << self.height) - 1;
        self.black &= keep;
        self.officers &= keep;
        piece
    }

    pub fn set_top_officer(&mut self, officer: bool) {
        self.officers = (self.officers & !1) | officer as u32;
    }

    /// The whole content as one number, distinct for distinct columns.
    pub fn packed(self) -> u64 {
        self.black as u64 | (self.officers as u64) << 22 | (self.height as u64) << 44
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stack_operations_invert() {
        let w = Piece::from_letter('w').unwrap();
        let b_off = Piece::from_letter('B').unwrap();
        let mut col = Column::EMPTY;
        col.push_top(w);
        col.push_top(b_off);
        col.push_bottom(b_off);
        let text: String = col.pieces().map(Piece::letter).collect();
        assert_eq!(text, "BwB");
        let before = col;
        let bottom = col.pop_bottom();
        let top = col.pop_top();
        assert_eq!((top, bottom), (b_off, b_off));
        col.push_top(top);
        col.push_bottom(bottom);
        assert_eq!(col, before);
        col.set_top_officer(false);
        assert_eq!(col.top().letter(), 'b');
    }
}
