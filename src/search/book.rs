//! Opening books: exact values of positions, kept in a file, and the move
//! they prove. `ply book` writes one (see `tools::book`); the searcher plays
//! from one when the root's every move leads to a position the book knows
//! (or ends the game).
//!
//! A book maps a position's [`Game::symmetric_key`] to its value in signed
//! plies to the end of the game: `+n` the side to move wins with the game
//! ending `n` plies from here, `-n` it loses so, `0` a draw. The file
//! (protocol.md, "Opening books") is one text line, the header, then one
//! 9-byte record per position: the key (8 bytes, little-endian) and the
//! value (1 byte, two's complement), sorted by key, each key once.

use std::io::{self, Write};

use super::score::{self, MATE};
use crate::game::{Description, Game, Settings};

/// The header's first word, and the format's version.
const MAGIC: &str = "plybook";
/// The first word of the journal `ply book` keeps while it builds a book.
pub const JOURNAL_MAGIC: &str = "plybook-journal";
const VERSION: &str = "1";
/// Bytes per record: key and value.
pub const RECORD: usize = 9;
/// The longest header line accepted.
const MAX_HEADER: usize = 4096;

/// What a book is about: the game and variant, and the positions it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game's name (`--game`).
    pub game: String,
    /// The board, `WxH`.
    pub board: String,
    /// The rule variant, `-` for a game without variants.
    pub rule: String,
    /// Every position reachable in this many plies from `from` is in the
    /// book (games already over excepted).
    pub plies: u32,
    /// The moves from the start position to the book's base position,
    /// comma-separated; empty for the start position (written `-`).
    pub from: Vec<String>,
    /// The strategy extension's last ply (0: none): beyond `plies`, up to
    /// this ply from the base, the book holds for each side a move that
    /// keeps the value in every position that side reaches by its book
    /// moves, whatever the other side plays (written only when not 0).
    pub strategy: u32,
}

impl Header {
    /// The header of a book for `description`'s game played with
    /// `settings`.
    pub fn new(
        description: &Description,
        settings: &Settings,
        plies: u32,
        from: &[String],
    ) -> Self {
        let (w, h) = settings
            .size
            .unwrap_or_else(|| description.boards.default_size());
        let rule = settings
            .rule
            .as_deref()
            .or(description.default_rule())
            .unwrap_or("-");
        Header {
            game: description.name.to_string(),
            board: format!("{w}x{h}"),
            rule: rule.to_ascii_lowercase(),
            plies,
            from: from.to_vec(),
            strategy: 0,
        }
    }

    /// Whether a book of this header is for the game and variant of
    /// `other` (base position and depth aside).
    pub fn same_variant(&self, other: &Header) -> bool {
        self.game.eq_ignore_ascii_case(&other.game)
            && self.board == other.board
            && self.rule == other.rule
    }

    /// The header line, `magic` first, with `extra` fields at the end.
    pub fn line(&self, magic: &str, extra: &str) -> String {
        let from = if self.from.is_empty() {
            "-".to_string()
        } else {
            self.from.join(",")
        };
        let strategy = if self.strategy > 0 {
            format!(" strategy={}", self.strategy)
        } else {
            String::new()
        };
        format!(
            "{magic} {VERSION} game={} board={} rule={} plies={} from={from}{strategy}{extra}\n",
            self.game, self.board, self.rule, self.plies
        )
    }

    /// Reads a header line written by [`Header::line`] with `magic`; the
    /// fields not in the header are returned as `(name, value)` pairs.
    pub fn parse(line: &str, magic: &str) -> Result<(Header, Vec<(String, String)>), String> {
        let mut words = line.split_ascii_whitespace();
        if words.next() != Some(magic) {
            return Err(format!("not a Ply book file (no '{magic}' header)"));
        }
        match words.next() {
            Some(VERSION) => {}
            Some(v) => return Err(format!("book format version {v} is not {VERSION}")),
            None => return Err("book header has no version".to_string()),
        }
        let (mut game, mut board, mut rule, mut plies, mut from) = (None, None, None, None, None);
        let mut strategy = None;
        let mut extra = Vec::new();
        for word in words {
            let (name, value) = word
                .split_once('=')
                .ok_or_else(|| format!("book header field '{word}' is not name=value"))?;
            let slot = match name {
                "game" => &mut game,
                "board" => &mut board,
                "rule" => &mut rule,
                "plies" => &mut plies,
                "from" => &mut from,
                "strategy" => &mut strategy,
                _ => {
                    extra.push((name.to_string(), value.to_string()));
                    continue;
                }
            };
            if slot.replace(value.to_string()).is_some() {
                return Err(format!("book header field '{name}' appears twice"));
            }
        }
        let need = |field: Option<String>, name: &str| {
            field.ok_or_else(|| format!("book header lacks '{name}='"))
        };
        let plies = need(plies, "plies")?;
        let from = need(from, "from")?;
        let number = |text: String, name: &str| {
            text.parse::<u32>()
                .map_err(|_| format!("book header {name}={text} is not a number"))
        };
        Ok((
            Header {
                game: need(game, "game")?,
                board: need(board, "board")?,
                rule: need(rule, "rule")?,
                plies: number(plies, "plies")?,
                from: if from == "-" {
                    Vec::new()
                } else {
                    from.split(',').map(str::to_string).collect()
                },
                strategy: strategy.map_or(Ok(0), |s| number(s, "strategy"))?,
            },
            extra,
        ))
    }
}

/// A book's value (signed plies to the end) as a score of the solver's
/// convention ([`super::score`]) at the position itself.
pub fn score_of_value(value: i8) -> i32 {
    match value {
        0 => 0,
        v if v > 0 => MATE - v as i32,
        v => -(MATE + v as i32),
    }
}

/// An exact score at the position (a draw, or a win or loss within 127
/// plies) as a book value; `None` for anything else.
pub fn value_of_score(score: i32) -> Option<i8> {
    if score == 0 {
        return Some(0);
    }
    let plies = score::Score::plies_to_end(score)?;
    let plies = i8::try_from(plies).ok()?;
    Some(if score > 0 { plies } else { -plies })
}

/// The score one ply up of a child's score (both at their own position):
/// the negation, a ply further from the end.
pub fn parent_score(child: i32) -> i32 {
    if score::is_mate(child) {
        -child + child.signum()
    } else {
        -child
    }
}

/// An opening book in memory: sorted keys and their values.
#[derive(Clone, Debug)]
pub struct Book {
    header: Header,
    keys: Vec<u64>,
    values: Vec<i8>,
}

impl Book {
    /// A book of `entries` (any order; each key once).
    pub fn new(header: Header, mut entries: Vec<(u64, i8)>) -> Book {
        entries.sort_unstable_by_key(|&(key, _)| key);
        entries.dedup_by_key(|&mut (key, _)| key);
        Book {
            header,
            keys: entries.iter().map(|&(k, _)| k).collect(),
            values: entries.iter().map(|&(_, v)| v).collect(),
        }
    }

    /// Reads a book file's bytes, checking every part of the format.
    pub fn parse(bytes: &[u8]) -> Result<Book, String> {
        let end = bytes
            .iter()
            .take(MAX_HEADER)
            .position(|&b| b == b'\n')
            .ok_or("not a Ply book file (no header line)")?;
        let line = std::str::from_utf8(&bytes[..end])
            .map_err(|_| "not a Ply book file (header is not text)")?;
        let (header, extra) = Header::parse(line, MAGIC)?;
        let positions = match extra.as_slice() {
            [(name, count)] if name == "positions" => count
                .parse::<usize>()
                .map_err(|_| format!("book header positions={count} is not a number"))?,
            _ => return Err("book header needs exactly one more field, positions=".to_string()),
        };
        let records = &bytes[end + 1..];
        if records.len() != positions.saturating_mul(RECORD) {
            return Err(format!(
                "book holds {} bytes of records, not the {positions} positions its header announces",
                records.len()
            ));
        }
        let mut keys = Vec::with_capacity(positions);
        let mut values = Vec::with_capacity(positions);
        for record in records.chunks_exact(RECORD) {
            let (key, value) = read_record(record);
            if keys.last().is_some_and(|&last| last >= key) {
                return Err(format!(
                    "book records are not sorted by key (record {})",
                    keys.len()
                ));
            }
            if value == i8::MIN {
                return Err(format!("book record {} has no valid value", keys.len()));
            }
            keys.push(key);
            values.push(value);
        }
        Ok(Book {
            header,
            keys,
            values,
        })
    }

    /// Writes the book in its file format.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let extra = format!(" positions={}", self.keys.len());
        out.write_all(self.header.line(MAGIC, &extra).as_bytes())?;
        for (&key, &value) in self.keys.iter().zip(&self.values) {
            out.write_all(&record(key, value))?;
        }
        Ok(())
    }

    /// What the book is about.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Every entry, by key.
    pub fn entries(&self) -> impl Iterator<Item = (u64, i8)> + '_ {
        self.keys.iter().copied().zip(self.values.iter().copied())
    }

    /// The value stored for `key`.
    pub fn value(&self, key: u64) -> Option<i8> {
        self.keys.binary_search(&key).ok().map(|i| self.values[i])
    }

    /// The exact score of `pos` (solver convention, at `pos`), if the book
    /// holds it.
    pub fn score<G: Game>(&self, pos: &G) -> Option<i32> {
        self.value(pos.symmetric_key()).map(score_of_value)
    }

    /// The positions with the side to move whose strategy the extension
    /// covers (see [`Header::strategy`]), from the ply after `plies` to
    /// the `strategy` ply, from the base position `base`: those each side
    /// reaches playing the book's moves, whatever the other side plays
    /// (each once up to symmetry, ply by ply). An error names a position
    /// of either side's strategy where the book has no move.
    pub fn strategy_positions<G: Game>(&self, base: &G) -> Result<Vec<G>, String> {
        let mut found = Vec::new();
        if self.header.strategy == 0 {
            return Ok(found);
        }
        let mut trees = [vec![base.clone()], vec![base.clone()]];
        let book_move = |pos: &G| self.best_move(pos);
        for ply in 0..=self.header.strategy {
            let mover = (ply % 2) as usize;
            for pos in &trees[mover] {
                if book_move(pos).is_none() {
                    return Err(format!(
                        "ply {ply}: the book has no move in {}",
                        pos.to_fen()
                    ));
                }
                if ply >= self.header.plies {
                    found.push(pos.clone());
                }
            }
            if ply < self.header.strategy {
                for (side, tree) in trees.iter_mut().enumerate() {
                    *tree = strategy_step(tree, (side == mover).then_some(&book_move))?;
                }
            }
        }
        Ok(found)
    }

    /// The book's move for `pos` and its exact score, by
    /// [`book_move_by`]. `None` when the game is over or the book cannot
    /// tell a move that keeps the value.
    pub fn best_move<G: Game>(&self, pos: &G) -> Option<(G::Move, i32)> {
        book_move_by(pos, |key| self.value(key))
    }
}

/// The move a book plays in `pos`, by the values `value` gives: when every
/// move's value is known, the best of them ([`best_move_by`]); else, when
/// the value of `pos` is known, the first move (in the game's move order)
/// whose known value proves it (the strategy extension's entries).
pub fn book_move_by<G: Game>(pos: &G, value: impl Fn(u64) -> Option<i8>) -> Option<(G::Move, i32)> {
    if let Some(best) = best_move_by(pos, &value) {
        return Some(best);
    }
    let here = score_of_value(value(pos.symmetric_key())?);
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut child = pos.clone();
    moves.into_iter().find_map(|mv| {
        child.make_move(mv);
        let after = known_score(&child, &value);
        child.unmake_move(mv);
        (after.map(parent_score) == Some(here)).then_some((mv, here))
    })
}

/// The score at the child that a move keeping `score` (at its parent)
/// leads to: [`parent_score`] undone.
pub fn kept_child_score(score: i32) -> i32 {
    if score::is_mate(score) {
        -score - score.signum()
    } else {
        -score
    }
}

/// The best move of `pos` and its exact score by the values `value` gives
/// for positions' symmetric keys, as [`Book::best_move`] chooses it.
pub fn best_move_by<G: Game>(pos: &G, value: impl Fn(u64) -> Option<i8>) -> Option<(G::Move, i32)> {
    if pos.outcome().is_some() {
        return None;
    }
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut child = pos.clone();
    let mut best: Option<(G::Move, i32)> = None;
    for mv in moves {
        child.make_move(mv);
        let after = known_score(&child, &value);
        child.unmake_move(mv);
        let score = parent_score(after?);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((mv, score));
        }
    }
    best
}

/// A strategy's choice of move (and its score) in a position.
pub type Chooser<'a, G> = &'a dyn Fn(&G) -> Option<(<G as Game>::Move, i32)>;

/// One ply on along a strategy: from each position of `tree`, the move
/// `choose` gives (when there is a `choose`: the strategy's side is to
/// move), else every move; finished games left out, each position once up
/// to symmetry. An error names a position where `choose` gives no move.
pub fn strategy_step<G: Game>(
    tree: &[G],
    choose: Option<Chooser<'_, G>>,
) -> Result<Vec<G>, String> {
    let mut seen = std::collections::HashSet::new();
    let mut next = Vec::new();
    let mut moves = Vec::new();
    for pos in tree {
        moves.clear();
        match choose {
            Some(choose) => {
                let (mv, _) = choose(pos)
                    .ok_or_else(|| format!("the book has no move in {}", pos.to_fen()))?;
                moves.push(mv);
            }
            None => pos.generate_moves(&mut moves),
        }
        for &mv in &moves {
            let mut child = pos.clone();
            child.make_move(mv);
            if child.outcome().is_none() && seen.insert(child.symmetric_key()) {
                next.push(child);
            }
        }
    }
    Ok(next)
}

/// The exact score of `pos` (at `pos`): its game's result if it is over,
/// else what `value` gives for it.
fn known_score<G: Game>(pos: &G, value: &impl Fn(u64) -> Option<i8>) -> Option<i32> {
    match pos.outcome() {
        Some(outcome) => Some(score::terminal(outcome, pos.side_to_move(), 0)),
        None => value(pos.symmetric_key()).map(score_of_value),
    }
}

/// One record's bytes.
pub fn record(key: u64, value: i8) -> [u8; RECORD] {
    let mut bytes = [0; RECORD];
    bytes[..8].copy_from_slice(&key.to_le_bytes());
    bytes[8] = value as u8;
    bytes
}

/// A record's key and value.
pub fn read_record(bytes: &[u8]) -> (u64, i8) {
    let mut key = [0; 8];
    key.copy_from_slice(&bytes[..8]);
    (u64::from_le_bytes(key), bytes[8] as i8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect4::Connect4;

    fn header() -> Header {
        Header::new(
            Connect4::DESCRIPTION,
            &Settings::default(),
            2,
            &["4".to_string(), "4".to_string()],
        )
    }

    #[test]
    fn values_and_scores_convert_both_ways() {
        for v in [-42i8, -1, 0, 1, 7, 127] {
            assert_eq!(value_of_score(score_of_value(v)), Some(v));
        }
        assert_eq!(score_of_value(1), MATE - 1);
        assert_eq!(score_of_value(-2), -(MATE - 2));
        assert_eq!(value_of_score(35), None, "an evaluation is no book value");
        // A win in one ply below is a loss in two here.
        assert_eq!(parent_score(MATE - 1), -(MATE - 2));
        assert_eq!(parent_score(-(MATE - 4)), MATE - 5);
        assert_eq!(parent_score(0), 0);
    }

    #[test]
    fn a_book_round_trips_and_bad_files_are_refused() {
        let book = Book::new(header(), vec![(9, -3), (2, 0), (700, 5)]);
        let mut bytes = Vec::new();
        book.write(&mut bytes).unwrap();
        assert!(bytes.starts_with(
            b"plybook 1 game=connect4 board=7x6 rule=- plies=2 from=4,4 positions=3\n"
        ));
        let back = Book::parse(&bytes).unwrap();
        assert_eq!(back.header(), &header());
        assert_eq!(
            back.entries().collect::<Vec<_>>(),
            [(2, 0), (9, -3), (700, 5)]
        );
        assert_eq!(back.value(9), Some(-3));
        assert_eq!(back.value(10), None);

        let refused = |bytes: &[u8], why: &str| {
            let e = Book::parse(bytes).unwrap_err();
            assert!(e.contains(why), "{e}");
        };
        refused(b"", "no header line");
        refused(b"hello world\n", "not a Ply book");
        refused(&bytes[..bytes.len() - 1], "not the 3 positions");
        let header_len = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
        let mut unsorted = bytes.clone();
        unsorted[header_len..header_len + 8].copy_from_slice(&800u64.to_le_bytes());
        refused(&unsorted, "not sorted");
        let text = String::from_utf8_lossy(&bytes[..header_len]).replace("plies=2", "plies=two");
        refused(text.as_bytes(), "not a number");
        refused(b"plybook 2 game=connect4\n", "version 2");
        refused(b"plybook 1 game=connect4 positions=0\n", "lacks");
    }

    #[test]
    fn the_best_move_is_the_shortest_win() {
        // X (to move) has three in column 4: the book knows nothing else,
        // and needs to, since other moves lead out of it.
        let mut pos = Connect4::start(&Settings::default()).unwrap();
        for m in ["4", "1", "4", "1", "4", "2"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        let empty = Book::new(header(), Vec::new());
        assert_eq!(empty.best_move(&pos), None);
        // Every child but the win, known as a loss for the side to move
        // there in 1 to 6 plies: the win is still best.
        let mut entries = Vec::new();
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.make_move(mv);
            if child.outcome().is_none() {
                entries.push((child.symmetric_key(), -(i as i8 + 1)));
            }
        }
        let book = Book::new(header(), entries);
        let (mv, score) = book.best_move(&pos).unwrap();
        assert_eq!(pos.move_to_string(mv), "4");
        assert_eq!(score, MATE - 1);
    }
}
