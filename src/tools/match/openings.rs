//! Opening positions: one per line, a FEN or a move list; for Gomoku also
//! Gomocup's offset format (`x,y` pairs relative to the centre, `y` down,
//! separated by commas and/or spaces). Blank lines and `#` comments are
//! skipped. Every opening is checked against the rules when loaded.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::engine::{Session, registry};
use crate::game::gomoku::xy_to_square;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `None`: the standard start position.
    pub fen: Option<String>,
    pub moves: Vec<String>,
    /// The line as written, for records.
    pub text: String,
}

impl Opening {
    pub fn start() -> Opening {
        Opening {
            fen: None,
            moves: Vec::new(),
            text: "startpos".into(),
        }
    }
}

fn offsets(line: &str) -> Option<Vec<(i64, i64)>> {
    if !line.contains(',') {
        return None;
    }
    let numbers: Vec<i64> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    if numbers.is_empty() || !numbers.len().is_multiple_of(2) {
        return None;
    }
    Some(numbers.chunks(2).map(|c| (c[0], c[1])).collect())
}

/// Board width and height of a FEN of rows separated by `/`.
pub fn dimensions(fen: &str) -> (usize, usize) {
    let board = fen.split_whitespace().next().unwrap_or("");
    let rows: Vec<&str> = board.split('/').collect();
    let mut width = 0;
    let mut run = 0;
    for ch in rows[0].chars() {
        match ch.to_digit(10) {
            Some(d) => run = run * 10 + d as usize,
            None => {
                width += run + 1;
                run = 0;
            }
        }
    }
    (width + run, rows.len())
}

fn gomocup_board(session: &dyn Session) -> bool {
    registry::describe(session.game()).is_ok_and(|d| d.gomocup)
}

/// Parses one line, checking it with `session` (whose position is reset).
pub fn parse_line(line: &str, session: &mut dyn Session) -> Result<Opening, String> {
    let text = line.trim().to_string();
    let opening = if text.contains('/') {
        Opening {
            fen: Some(text.clone()),
            moves: Vec::new(),
            text: text.clone(),
        }
    } else if let Some(pairs) = offsets(&text).filter(|_| gomocup_board(session)) {
        session.set_position(None, &[]).map_err(|e| e.to_string())?;
        let (width, height) = dimensions(&session.fen());
        let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
        let mut moves = Vec::new();
        for (dx, dy) in pairs {
            let (x, y) = (cx + dx, cy + dy);
            if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
                return Err(format!("offset {dx},{dy} is off the board"));
            }
            moves.push(xy_to_square(x as usize, y as usize, height));
        }
        Opening {
            fen: None,
            moves,
            text: text.clone(),
        }
    } else {
        let moves: Vec<String> = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        Opening {
            fen: None,
            moves,
            text: text.clone(),
        }
    };
    let moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    session
        .set_position(opening.fen.as_deref(), &moves)
        .map_err(|e| e.to_string())?;
    if session.outcome().is_some() {
        return Err("the game is already over".into());
    }
    Ok(opening)
}

/// Reads and checks every opening of a file.
pub fn load(text: &str, session: &mut dyn Session) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_line(line, session).map_err(|e| format!("line {}: {e}", i + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(openings)
}

/// Shuffles the openings with a seeded generator (Fisher-Yates).
pub fn shuffle(openings: &mut [Opening], seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in (1..openings.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        openings.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::registry;
    use crate::game::Settings;
    use crate::search::SearchParams;

    fn session(game: &str) -> Box<dyn Session> {
        registry::create(game, &Settings::default(), 1, SearchParams::default()).unwrap()
    }

    #[test]
    fn lines_of_every_kind() {
        let mut s = session("gomoku");
        let text = "# comment\n\nh8 i9\n0,0, 1,-1\n0,0 1,1 -1,0\n";
        let o = load(text, s.as_mut()).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0].moves, ["h8", "i9"]);
        assert_eq!(o[1].moves, ["h8", "i9"]);
        assert_eq!(o[2].moves, ["h8", "i7", "g8"]);
        let mut c = session("connect4");
        let o = load("7/7/7/7/7/3x3 o\n4 4 5\n", c.as_mut()).unwrap();
        assert_eq!(o[0].fen.as_deref(), Some("7/7/7/7/7/3x3 o"));
        assert_eq!(o[1].moves, ["4", "4", "5"]);
    }

    #[test]
    fn shipped_gomoku_openings_are_legal_and_distinct() {
        let freestyle = include_str!("../../../openings/freestyle-15.txt");
        let renju = include_str!("../../../openings/renju-15.txt");
        for (rule, text, at_least) in [("freestyle", freestyle, 100), ("renju", renju, 26)] {
            let settings = Settings {
                rule: Some(rule.to_string()),
                ..Settings::default()
            };
            let mut s = registry::create("gomoku", &settings, 1, SearchParams::default()).unwrap();
            let openings = load(text, s.as_mut()).unwrap();
            assert!(openings.len() >= at_least, "{rule}: {}", openings.len());
            let mut positions = std::collections::HashSet::new();
            for o in &openings {
                assert_eq!(o.moves.len(), 3, "{}", o.text);
                let moves: Vec<&str> = o.moves.iter().map(String::as_str).collect();
                s.set_position(None, &moves).unwrap();
                assert!(positions.insert(s.fen()), "twice: {}", o.text);
            }
        }
    }

    #[test]
    fn bad_openings_name_their_line() {
        let mut s = session("gomoku");
        let e = load("h8\nh8 h8\n", s.as_mut()).unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        assert!(load("20,20\n", s.as_mut()).is_err());
        assert!(load("# nothing\n", s.as_mut()).is_err());
        let mut t = session("tictactoe");
        assert!(load("a1 b1 a2 b2 a3\n", t.as_mut()).is_err());
    }

    #[test]
    fn shuffling_is_seeded() {
        let list: Vec<Opening> = (0..10)
            .map(|i| Opening {
                text: i.to_string(),
                ..Opening::start()
            })
            .collect();
        let (mut a, mut b) = (list.clone(), list.clone());
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, list);
    }
}
