//! The raw material of Gomoku's evaluation, for fitting its weights
//! outside the engine (`scripts/gomoku_fit.py`): reads one position per
//! line as moves from the empty 15x15 board (`h8 i9 g7`), and prints the
//! side to move (`x` black, `o` white) followed by every empty cell that
//! has a pattern for either colour, as `black:white`, each the cell's four
//! line patterns packed four bits a direction, in hexadecimal.
//!
//! `cargo run --release --example gomoku_cells -- [RULE] < positions`

use std::io::{self, BufRead, Write};

use ply::game::gomoku::Gomoku;
use ply::game::{Game, Player, Settings};

fn main() -> anyhow::Result<()> {
    let rule = std::env::args().nth(1);
    let settings = Settings { size: None, rule };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        let line = line?;
        let mut pos = Gomoku::start(&settings)?;
        for text in line.split_whitespace() {
            let mv = pos.parse_move(text)?;
            pos.make_move(mv);
        }
        let side = if pos.side_to_move() == Player::P1 {
            'x'
        } else {
            'o'
        };
        write!(out, "{side}")?;
        for (_, _, black, white) in pos.cell_patterns() {
            if black | white != 0 {
                write!(out, " {black:x}:{white:x}")?;
            }
        }
        writeln!(out)?;
    }
    Ok(())
}
