//! Game records: PGN-like text for every game, SGF for Gomoku.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{Context, bail};

use super::openings::Opening;
use super::piskvork::stones_of_fen;
use super::referee::{GameResult, Termination};
use crate::game::gomoku::square_to_xy;
use crate::game::{Outcome, Player as Side};

/// What a record needs beyond the game itself.
pub struct RecordInfo<'a> {
    /// 1-based game number.
    pub number: usize,
    pub game: &'a str,
    /// P1's and P2's names.
    pub names: [&'a str; 2],
    pub opening: &'a Opening,
    pub time_control: &'a str,
    /// Whether the opening position has P1 to move.
    pub p1_starts: bool,
    /// Board width and height (Gomoku's SGF).
    pub size: (usize, usize),
    pub rule: &'a str,
}

fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::P1) => "1-0",
        Outcome::Win(Side::P2) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

fn tag_value(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One PGN-like record: tags, then the moves (the opening's included)
/// numbered by full moves, then the result.
pub fn pgn(info: &RecordInfo, result: &GameResult) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", tag_value(v)));
    tag("Event", "ply match");
    tag("Game", &info.number.to_string());
    tag("Variant", info.game);
    tag("White", info.names[0]);
    tag("Black", info.names[1]);
    tag("Result", result_text(result.outcome));
    tag("Termination", &result.termination.describe(info.names));
    tag("Opening", &info.opening.text);
    tag("TimeControl", info.time_control);
    if let Some(fen) = &info.opening.fen {
        tag("FEN", fen);
    }
    tag(
        "PlyCount",
        &(info.opening.moves.len() + result.moves.len()).to_string(),
    );
    out.push('\n');
    let mut words = Vec::new();
    let offset = if info.p1_starts { 0 } else { 1 };
    for (i, mv) in info.opening.moves.iter().chain(&result.moves).enumerate() {
        let ply = i + offset;
        if ply % 2 == 0 {
            words.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", ply / 2 + 1));
        }
        words.push(mv.clone());
    }
    words.push(result_text(result.outcome).to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + w.len() + 1 > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn sgf_coord(n: usize) -> char {
    if n < 26 {
        (b'a' + n as u8) as char
    } else {
        (b'A' + (n - 26) as u8) as char
    }
}

fn sgf_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// One SGF game tree (Gomoku: `GM[4]`); black is P1.
pub fn sgf(info: &RecordInfo, result: &GameResult) -> String {
    let (w, h) = info.size;
    let mut out = String::from("(;FF[4]GM[4]CA[UTF-8]AP[ply match]");
    if w == h {
        out.push_str(&format!("SZ[{w}]"));
    } else {
        out.push_str(&format!("SZ[{w}:{h}]"));
    }
    out.push_str(&format!(
        "GN[{}]PB[{}]PW[{}]RU[{}]",
        info.number,
        sgf_text(info.names[0]),
        sgf_text(info.names[1]),
        sgf_text(info.rule)
    ));
    let suffix = match result.termination {
        Termination::Normal => "",
        Termination::Time(_) => "T",
        _ => "F",
    };
    let re = match result.outcome {
        Outcome::Win(Side::P1) => format!("B+{suffix}"),
        Outcome::Win(Side::P2) => format!("W+{suffix}"),
        Outcome::Draw => "0".to_string(),
    };
    out.push_str(&format!("RE[{re}]"));
    out.push_str(&format!(
        "C[{}]",
        sgf_text(&result.termination.describe(info.names))
    ));
    if let Some(fen) = &info.opening.fen {
        let stones = stones_of_fen(fen);
        for (prop, black) in [("AB", true), ("AW", false)] {
            let cells: Vec<String> = stones
                .iter()
                .filter(|s| s.2 == black)
                .map(|&(x, y, _)| format!("[{}{}]", sgf_coord(x), sgf_coord(y)))
                .collect();
            if !cells.is_empty() {
                out.push_str(prop);
                out.push_str(&cells.concat());
            }
        }
    }
    let mut black = info.p1_starts;
    for mv in info.opening.moves.iter().chain(&result.moves) {
        let colour = if black { 'B' } else { 'W' };
        match square_to_xy(mv, h) {
            Some((x, y)) => out.push_str(&format!(";{colour}[{}{}]", sgf_coord(x), sgf_coord(y))),
            None => out.push_str(&format!(";{colour}[]")),
        }
        black = !black;
    }
    out.push_str(")\n");
    out
}

/// The optional PGN and SGF files.
pub struct Records {
    pgn: Option<BufWriter<File>>,
    sgf: Option<BufWriter<File>>,
}

impl Records {
    pub fn create(
        pgn: Option<&PathBuf>,
        sgf: Option<&PathBuf>,
        sgf_allowed: bool,
    ) -> anyhow::Result<Records> {
        let create = |p: &PathBuf| -> anyhow::Result<BufWriter<File>> {
            Ok(BufWriter::new(File::create(p).with_context(|| {
                format!("cannot create {}", p.display())
            })?))
        };
        let pgn = pgn.map(create).transpose()?;
        if sgf.is_some() && !sgf_allowed {
            bail!("--sgf records {} games only", super::gomocup_games());
        }
        let sgf = sgf.map(create).transpose()?;
        Ok(Records { pgn, sgf })
    }

    pub fn write(&mut self, info: &RecordInfo, result: &GameResult) -> anyhow::Result<()> {
        if let Some(w) = self.pgn.as_mut() {
            w.write_all(pgn(info, result).as_bytes())?;
            w.flush()?;
        }
        if let Some(w) = self.sgf.as_mut() {
            w.write_all(sgf(info, result).as_bytes())?;
            w.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> anyhow::Result<()> {
        for (w, name) in [(self.pgn.as_mut(), "pgn"), (self.sgf.as_mut(), "sgf")] {
            if let Some(w) = w {
                w.flush()
                    .with_context(|| format!("writing the {name} file"))?;
            }
        }
        Ok(())
    }
}

/// What every game's record shares.
pub struct RecordTemplate<'a> {
    pub game: &'static str,
    pub names: &'a [String],
    pub openings: &'a [Opening],
    pub p1_starts: &'a [bool],
    pub time_control: &'a str,
    pub size: (usize, usize),
    pub rule: &'a str,
}

impl RecordTemplate<'_> {
    pub fn info(&self, number: usize, sides: [usize; 2], opening: usize) -> RecordInfo<'_> {
        RecordInfo {
            number,
            game: self.game,
            names: [&self.names[sides[0]], &self.names[sides[1]]],
            opening: &self.openings[opening],
            time_control: self.time_control,
            p1_starts: self.p1_starts[opening],
            size: self.size,
            rule: self.rule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Opening, GameResult) {
        (
            Opening {
                fen: None,
                moves: vec!["h8".into()],
                text: "h8".into(),
            },
            GameResult {
                outcome: Outcome::Win(Side::P2),
                termination: Termination::Time(Side::P1),
                moves: vec!["i9".into(), "a1".into()],
                overhead: Vec::new(),
            },
        )
    }

    #[test]
    fn pgn_has_tags_and_numbered_moves() {
        let (opening, result) = sample();
        let info = RecordInfo {
            number: 3,
            game: "gomoku",
            names: ["ply", "random"],
            opening: &opening,
            time_control: "10+0.1",
            p1_starts: true,
            size: (15, 15),
            rule: "freestyle",
        };
        let text = pgn(&info, &result);
        assert!(text.contains("[Game \"3\"]\n"), "{text}");
        assert!(text.contains("[White \"ply\"]\n[Black \"random\"]\n[Result \"0-1\"]\n"));
        assert!(text.contains("[Termination \"time forfeit by ply\"]"));
        assert!(text.contains("[Opening \"h8\"]"));
        assert!(text.contains("\n1. h8 i9 2. a1 0-1\n"), "{text}");
        let s = sgf(&info, &result);
        assert!(s.starts_with("(;FF[4]GM[4]"), "{s}");
        assert!(s.contains("RE[W+T]"));
        assert!(s.ends_with(";B[hh];W[ig];B[ao])\n"), "{s}");
    }
}
