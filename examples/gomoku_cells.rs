//! The raw material of Gomoku's evaluation and move ordering, for fitting
//! them outside the engine (`scripts/gomoku_fit.py`,
//! `scripts/gomoku_order.py`): reads one position per line as moves from
//! the empty 15x15 board (`h8 i9 g7`), and prints the side to move (`x`
//! black, `o` white) followed by every empty cell that has a pattern for
//! either colour, as `black:white`, each the cell's four line patterns
//! packed four bits a direction, in hexadecimal. With `--listed`, it
//! prints instead every move the search would list there
//! (`Game::search_moves`), as `square=black:white`.
//!
//! `cargo run --release --example gomoku_cells -- [--listed] [RULE] < positions`

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

use ply::game::gomoku::{Gomoku, xy_to_square};
use ply::game::{Game, Player, Settings};

fn main() -> anyhow::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let listed = args.first().is_some_and(|a| a == "--listed");
    if listed {
        args.remove(0);
    }
    let settings = Settings {
        size: None,
        rule: args.first().cloned(),
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut moves = Vec::new();
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
        let height = pos.height();
        let cells = pos.cell_patterns();
        if listed {
            let patterns: HashMap<String, (u16, u16)> = cells
                .into_iter()
                .map(|(row, col, black, white)| (xy_to_square(col, row, height), (black, white)))
                .collect();
            moves.clear();
            pos.search_moves(&mut moves);
            for &mv in &moves {
                let square = pos.move_to_string(mv);
                let (black, white) = patterns[&square];
                write!(out, " {square}={black:x}:{white:x}")?;
            }
        } else {
            for (_, _, black, white) in cells {
                if black | white != 0 {
                    write!(out, " {black:x}:{white:x}")?;
                }
            }
        }
        writeln!(out)?;
    }
    Ok(())
}
