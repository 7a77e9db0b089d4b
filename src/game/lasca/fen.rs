//! Text forms of a position: FEN in and out, and the board for a person.
//!
//! FEN: `<ranks> <side> [<quiet plies>]`. Ranks run from 7 down to 1,
//! separated by `/`; each lists its playing squares from the a-side,
//! separated by `,`, each entry either a column written top piece first
//! (`w`/`b` soldier, `W`/`B` officer) or a number of empty squares in a
//! row. Side is `w` or `b`; the last field counts plies since the last
//! capture or soldier move (0 if left out).

use super::board::{PLAYING, SIZE, promotion_rank, square_name};
use super::column::{Column, MAX_HEIGHT, Piece};
use super::{Lasca, QUIET_LIMIT};
use crate::game::{GameError, Player};

const PIECES_PER_SIDE: usize = 11;

/// Playing squares of a rank, from the a-side.
fn rank_squares(rank: usize) -> impl Iterator<Item = usize> {
    (0..SIZE)
        .map(move |file| rank * SIZE + file)
        .filter(|&sq| PLAYING & 1 << sq != 0)
}

pub fn parse(fen: &str) -> Result<Lasca, GameError> {
    let bad = |reason: String| GameError::bad_position(fen, reason);
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if !(2..=3).contains(&fields.len()) {
        return Err(bad("expected '<ranks> <side> [<quiet plies>]'".into()));
    }
    let side = match fields[1] {
        "w" | "W" => Player::P1,
        "b" | "B" => Player::P2,
        other => return Err(bad(format!("side to move must be w or b, not '{other}'"))),
    };
    let quiet = match fields.get(2) {
        None => 0,
        Some(text) => match text.parse::<u16>() {
            Ok(n) if n <= QUIET_LIMIT => n,
            _ => {
                return Err(bad(format!(
                    "quiet plies must be a number from 0 to {QUIET_LIMIT}, not '{text}'"
                )));
            }
        },
    };
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != SIZE {
        return Err(bad(format!("expected {SIZE} ranks, found {}", ranks.len())));
    }
    let mut pos = Lasca::empty(side, quiet);
    let mut counts = [0usize; 2];
    for (i, text) in ranks.iter().enumerate() {
        let rank = SIZE - 1 - i;
        let mut cols: Vec<Column> = Vec::new();
        for entry in text.split(',') {
            if entry.bytes().all(|b| b.is_ascii_digit()) && !entry.is_empty() {
                match entry.parse::<usize>() {
                    Ok(n @ 1..=SIZE) => cols.extend(std::iter::repeat_n(Column::EMPTY, n)),
                    _ => return Err(bad(format!("bad run of empty squares '{entry}'"))),
                }
                continue;
            }
            if entry.is_empty() || entry.len() > MAX_HEIGHT {
                return Err(bad(format!("bad column '{entry}' on rank {}", rank + 1)));
            }
            let mut col = Column::EMPTY;
            for ch in entry.chars() {
                let piece =
                    Piece::from_letter(ch).ok_or_else(|| bad(format!("bad piece '{ch}'")))?;
                counts[piece.side] += 1;
                col.push_bottom(piece);
            }
            cols.push(col);
        }
        let squares: Vec<usize> = rank_squares(rank).collect();
        if cols.len() != squares.len() {
            return Err(bad(format!(
                "rank {} needs {} squares, found {}",
                rank + 1,
                squares.len(),
                cols.len()
            )));
        }
        for (sq, col) in squares.into_iter().zip(cols) {
            if !col.is_empty() && !col.top().officer && rank == promotion_rank(col.top().side) {
                return Err(bad(format!(
                    "unpromoted soldier commands {}",
                    square_name(sq)
                )));
            }
            pos.set_column(sq, col);
        }
    }
    if counts.iter().any(|&n| n > PIECES_PER_SIDE) {
        return Err(bad(format!(
            "a side has more than {PIECES_PER_SIDE} pieces"
        )));
    }
    Ok(pos)
}

pub fn format(pos: &Lasca) -> String {
    let mut out = String::new();
    for rank in (0..SIZE).rev() {
        if rank != SIZE - 1 {
            out.push('/');
        }
        let mut entries: Vec<String> = Vec::new();
        let mut run = 0;
        for sq in rank_squares(rank) {
            let col = pos.cols[sq];
            if col.is_empty() {
                run += 1;
                continue;
            }
            if run > 0 {
                entries.push(run.to_string());
                run = 0;
            }
            entries.push(col.pieces().map(Piece::letter).collect());
        }
        if run > 0 {
            entries.push(run.to_string());
        }
        out.push_str(&entries.join(","));
    }
    let side = if pos.side == Player::P1 { 'w' } else { 'b' };
    out.push_str(&format!(" {side} {}", pos.quiet));
    out
}

/// Each column shown as its commander's letter and its height; columns of
/// more than one piece are spelled out below the board.
pub fn render(pos: &Lasca) -> String {
    let mut out = String::new();
    let mut stacks = Vec::new();
    for rank in (0..SIZE).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..SIZE {
            let sq = rank * SIZE + file;
            let col = pos.cols[sq];
            if PLAYING & 1 << sq == 0 {
                out.push_str("   ");
            } else if col.is_empty() {
                out.push_str(" . ");
            } else {
                let label = format!("{}{}", col.top().letter(), col.height());
                out.push_str(&format!("{label:>3}"));
                if col.height() > 1 {
                    let text: String = col.pieces().map(Piece::letter).collect();
                    stacks.push(format!("{} {text}", square_name(sq)));
                }
            }
        }
        out.push('\n');
    }
    out.push(' ');
    for file in 0..SIZE {
        out.push_str(&format!("  {}", (b'a' + file as u8) as char));
    }
    out.push('\n');
    if !stacks.is_empty() {
        out.push_str(&format!("columns (top first): {}\n", stacks.join(", ")));
    }
    out
}
