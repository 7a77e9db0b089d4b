//! Tic-tac-toe on a 3x3 board: two 9-bit masks. Squares are numbered
//! `file + 3 * rank` with a1 = 0; moves are written `a1`..`c3`.

use std::sync::OnceLock;

use super::{Boards, Description, Game, GameError, Outcome, Player, Settings, SolveNotation};

/// Tic-tac-toe as the registry and the tools see it.
pub const DESCRIPTION: Description = Description {
    name: "tictactoe",
    title: "tic-tac-toe, 3x3",
    move_examples: &["b2", "a1"],
    boards: Boards::Fixed {
        width: 3,
        height: 3,
    },
    rules: &[],
    bench: &[("", 9), ("b2 a1", 9), ("a1 b2 c3", 9)],
    solve: SolveNotation::Plies,
    draws: true,
    gomocup: false,
};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| super::zobrist::keys(0x7107, 2 * 9 + 1))
}

/// A tic-tac-toe position: one 9-bit mask per side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    marks: [u16; 2],
    side: Player,
    hash: u64,
}

fn has_line(marks: u16) -> bool {
    LINES.iter().any(|&line| line & !marks == 0)
}

impl TicTacToe {
    fn from_marks(marks: [u16; 2], side: Player) -> TicTacToe {
        let keys = zobrist();
        let mut hash = if side == Player::P2 { keys[18] } else { 0 };
        for (p, &m) in marks.iter().enumerate() {
            for sq in 0..9 {
                if m & (1 << sq) != 0 {
                    hash ^= keys[p * 9 + sq];
                }
            }
        }
        TicTacToe { marks, side, hash }
    }

    fn grid(&self) -> Vec<Vec<Option<Player>>> {
        super::grid_of(3, 3, |row, file| {
            let bit = 1 << (file + 3 * (2 - row));
            super::owner(self.marks[0] & bit != 0, self.marks[1] & bit != 0)
        })
    }

    /// Lines still open to a side, weighted by how full they are.
    fn potential(&self, p: usize) -> i32 {
        let mine = self.marks[p];
        let theirs = self.marks[1 - p];
        LINES
            .iter()
            .filter(|&&l| theirs & l == 0)
            .map(|&l| match (mine & l).count_ones() {
                0 => 1,
                1 => 3,
                _ => 10,
            })
            .sum()
    }
}

impl Game for TicTacToe {
    type Move = u8;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    const HISTORY_SLOTS: usize = 9;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        Ok(TicTacToe::from_marks([0, 0], Player::P1))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        super::settings_must_be_default(Self::NAME, settings)?;
        let (board, side) = super::split_fen(fen)?;
        let grid = super::parse_grid(fen, board, 3, 3)?;
        let mut marks = [0u16; 2];
        for (row, cells) in grid.iter().enumerate() {
            for (file, cell) in cells.iter().enumerate() {
                if let Some(p) = cell {
                    marks[p.index()] |= 1 << (file + 3 * (2 - row));
                }
            }
        }
        let (x, o) = (marks[0].count_ones(), marks[1].count_ones());
        let expected = if x == o { Player::P1 } else { Player::P2 };
        if x < o || x > o + 1 || side != expected {
            return Err(GameError::bad_position(
                fen,
                "mark counts do not fit the side to move",
            ));
        }
        if has_line(marks[0]) && has_line(marks[1]) {
            return Err(GameError::bad_position(fen, "both sides have a line"));
        }
        Ok(TicTacToe::from_marks(marks, side))
    }

    fn to_fen(&self) -> String {
        super::format_grid(&self.grid(), self.side)
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        if has_line(self.marks[0]) {
            Some(Outcome::Win(Player::P1))
        } else if has_line(self.marks[1]) {
            Some(Outcome::Win(Player::P2))
        } else if self.marks[0] | self.marks[1] == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn generate_moves(&self, moves: &mut Vec<u8>) {
        if self.outcome().is_some() {
            return;
        }
        let empty = !(self.marks[0] | self.marks[1]) & FULL;
        moves.extend((0..9u8).filter(|&sq| empty & (1 << sq) != 0));
    }

    fn make_move(&mut self, mv: u8) {
        let p = self.side.index();
        self.marks[p] |= 1 << mv;
        let keys = zobrist();
        self.hash ^= keys[p * 9 + mv as usize] ^ keys[18];
        self.side = self.side.other();
    }

    fn unmake_move(&mut self, mv: u8) {
        self.side = self.side.other();
        let p = self.side.index();
        self.marks[p] &= !(1 << mv);
        let keys = zobrist();
        self.hash ^= keys[p * 9 + mv as usize] ^ keys[18];
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn evaluate(&self) -> i32 {
        let me = self.side.index();
        self.potential(me) - self.potential(1 - me)
    }

    fn move_to_string(&self, mv: u8) -> String {
        let file = (b'a' + mv % 3) as char;
        format!("{file}{}", mv / 3 + 1)
    }

    fn render(&self) -> String {
        super::render_grid(&self.grid(), "abc")
    }

    fn move_score(&self, mv: u8) -> i32 {
        // Centre, then corners, then edges.
        [2, 1, 2, 1, 3, 1, 2, 1, 2][mv as usize]
    }

    fn history_slot(&self, mv: u8) -> usize {
        mv as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;

    fn start() -> TicTacToe {
        TicTacToe::start(&Settings::default()).unwrap()
    }

    #[test]
    fn perft_from_the_start() {
        let expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
        let mut pos = start();
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
        }
        assert_eq!(pos, start(), "make/unmake restores the position");
    }

    #[test]
    fn fen_round_trip_and_validation() {
        let mut pos = start();
        for m in ["b2", "a1", "c3"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let fen = pos.to_fen();
        assert_eq!(fen, "2x/1x1/o2 o");
        let back = TicTacToe::from_fen(&fen, &Settings::default()).unwrap();
        assert_eq!(back, pos);
        for bad in [
            "3/3/3 o",
            "xxx/3/3 o",
            "3/3 x",
            "3/3/4 x",
            "3/3/3",
            "3/3/2q x",
        ] {
            assert!(
                TicTacToe::from_fen(bad, &Settings::default()).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn wins_and_draws_are_detected() {
        let won = TicTacToe::from_fen("xxx/oo1/3 o", &Settings::default()).unwrap();
        assert_eq!(won.outcome(), Some(Outcome::Win(Player::P1)));
        let mut moves = Vec::new();
        won.generate_moves(&mut moves);
        assert!(moves.is_empty());
        let drawn = TicTacToe::from_fen("xox/xoo/oxx o", &Settings::default()).unwrap();
        assert_eq!(drawn.outcome(), Some(Outcome::Draw));
        assert!(start().parse_move("d4").is_err());
    }
}
