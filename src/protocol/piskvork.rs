//! The Piskvork (Gomocup) protocol for gomoku brains, with the Yixin-board
//! extensions used by gomoku GUIs and c-gomoku-cli. See protocol.md.
//!
//! The brain keeps the game as a list of stones (its own and the
//! opponent's) and hands the controller a fresh position for every move,
//! so TAKEBACK, BOARD and swap openings need no special paths.

use std::io::BufRead;
use std::sync::{Arc, Mutex, PoisonError};

use super::writer::Writer;
use crate::engine::input::arriving_lines;
use crate::engine::options::{self, THREADS_MAX};
use crate::engine::swap2::{self, Answer};
use crate::engine::{Controller, Event, EventSink, GoLimits, InfoLine, Score, best_moves};
use crate::game::gomoku::openings::swap2_openings;
use crate::game::gomoku::{self, MAX_SIZE, MIN_SIZE, Rule, square_to_xy, xy_to_square};
use crate::game::{Player, Settings, format_grid, grid_of};

/// The game the brain plays.
const GAME: &str = gomoku::DESCRIPTION.name;
/// Used when the manager gives no turn limit.
const DEFAULT_TIMEOUT_TURN_MS: u64 = 30_000;
const DEFAULT_HASH_MB: usize = 64;
/// Share of `max_memory` the transposition table may take: the rest of the
/// process (tables, stacks, buffers) stays far below it.
const HASH_SHARE_OF_MEMORY: u64 = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stone {
    x: usize,
    y: usize,
    own: bool,
}

/// What the search thread's events do, shared with it.
#[derive(Default)]
struct Shared {
    height: usize,
    /// After END nothing more may be printed.
    muted: bool,
    /// The brain's own move just printed, to be recorded as a stone.
    played: Option<(usize, usize)>,
    /// A `MESSAGE` line per finished search iteration (`INFO message 0`
    /// turns them off).
    messages: bool,
}

/// The `MESSAGE` line of one search iteration, the line in `x,y` cells.
fn info_message(info: &InfoLine, height: usize) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("ev {cp}"),
        Score::Mate(n) if n > 0 => format!("win in {n}"),
        Score::Mate(n) => format!("loss in {}", -n),
    };
    let pv: Vec<String> = info
        .pv
        .iter()
        .filter_map(|m| square_to_xy(m, height))
        .map(|(x, y)| format!("{x},{y}"))
        .collect();
    format!(
        "MESSAGE depth {}-{} {score} nodes {} nps {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps,
        info.time_ms,
        pv.join(" ")
    )
}

fn parse_xy(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

pub struct Brain {
    controller: Controller,
    writer: Writer,
    shared: Arc<Mutex<Shared>>,
    size: Option<(usize, usize)>,
    rule: Rule,
    stones: Vec<Stone>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    /// The table size the manager's memory limit allows, once it is known.
    hash_mb: Option<usize>,
    /// No limit was known when the board was set up: the table is sized
    /// (at the default) by the first search, not before an `INFO
    /// max_memory` that may follow `START`.
    table_pending: bool,
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs the brain until END or end of input.
pub fn run(input: impl BufRead + Send + 'static, writer: Writer) -> anyhow::Result<()> {
    let shared = Arc::new(Mutex::new(Shared {
        messages: true,
        ..Shared::default()
    }));
    let sink: EventSink = {
        let shared = Arc::clone(&shared);
        let writer = writer.clone();
        Arc::new(move |event| {
            let mut s = lock(&shared);
            match event {
                // MESSAGE is the one free-text line allowed while a move is due.
                Event::Error(message) if !s.muted => writer.line(&format!("MESSAGE {message}")),
                Event::Info(info) if !s.muted && s.messages => {
                    writer.line(&info_message(&info, s.height));
                }
                Event::BestMove { best, .. } if !s.muted => {
                    match best.as_deref().and_then(|m| square_to_xy(m, s.height)) {
                        Some((x, y)) => {
                            writer.line(&format!("{x},{y}"));
                            s.played = Some((x, y));
                        }
                        None => writer.line("ERROR no move: the game is over"),
                    }
                }
                _ => {}
            }
        })
    };
    // Tables are faulted in when allocated: the least until the manager
    // says how much memory there is.
    let controller =
        Controller::new(GAME, Settings::default(), 1, sink).map_err(anyhow::Error::msg)?;
    let mut brain = Brain {
        controller,
        writer,
        shared,
        size: None,
        rule: Rule::Freestyle,
        stones: Vec::new(),
        timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
        timeout_match: 0,
        time_left: None,
        max_depth: None,
        max_nodes: None,
        hash_mb: None,
        table_pending: false,
    };
    let mut input = arriving_lines(input)?;
    while let Some((line, at)) = input.next() {
        log::debug!("< {line}");
        // Whatever this line asks for (a move, n-best, Swap2) is timed
        // from its arrival; a BOARD's stone lines do not move the clock.
        brain.controller.note_turn_start(at);
        if !brain.execute(line.trim(), &mut input.by_ref().map(|(line, _)| line)) {
            break;
        }
    }
    brain.quit();
    Ok(())
}

impl Brain {
    fn reply(&self, text: &str) {
        self.writer.line(text);
    }

    /// What went wrong with a command that gets no reply (`INFO`): a
    /// `MESSAGE`, which every manager reads past. An `ERROR` would be read
    /// as the reply to the next command, and the judge would take it for
    /// the move and end the game.
    fn warn(&self, problem: &str) {
        self.reply(&format!("MESSAGE error: {problem}; ignored"));
    }

    /// Handles one command; false to exit.
    fn execute(&mut self, line: &str, input: &mut impl Iterator<Item = String>) -> bool {
        let (head, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let command = head.to_ascii_uppercase();
        match command.as_str() {
            "" => {}
            "END" => return false,
            "ABOUT" => self.reply(&format!(
                "name=\"Ply\", version=\"{}\", author=\"The Ply developers\", country=\"International\"",
                env!("CARGO_PKG_VERSION")
            )),
            "INFO" => self.info(rest),
            "YXSTOP" => self.controller.stop(),
            "START" => match rest.parse::<usize>() {
                Ok(n) => self.start(n, n),
                Err(_) => self.reply(&format!("ERROR START needs a board size, not '{rest}'")),
            },
            "RECTSTART" => match parse_xy(rest) {
                Some((w, h)) => self.start(w, h),
                None => self.reply(&format!("ERROR RECTSTART needs width,height, not '{rest}'")),
            },
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                let stones = read_block(input);
                self.block(&command, stones);
            }
            _ => {
                // Everything else needs the board and no running search.
                self.settle();
                let Some((width, height)) = self.size else {
                    if is_known(&command) {
                        self.reply(&format!("ERROR {command} before START"));
                    } else {
                        self.reply(&format!("UNKNOWN {head}"));
                    }
                    return true;
                };
                match command.as_str() {
                    "RESTART" => {
                        self.start(width, height);
                    }
                    "BEGIN" => {
                        if self.stones.is_empty() {
                            self.think();
                        } else {
                            self.reply("ERROR BEGIN on a board that is not empty");
                        }
                    }
                    "TURN" => match self.checked_xy(rest) {
                        Ok((x, y)) => {
                            self.stones.push(Stone { x, y, own: false });
                            if self.sync_position() {
                                self.think();
                            } else {
                                self.stones.pop();
                            }
                        }
                        Err(e) => self.reply(&format!("ERROR {e}")),
                    },
                    "PLAY" => match self.checked_xy(rest) {
                        Ok((x, y)) => {
                            self.stones.push(Stone { x, y, own: true });
                            if self.sync_position() {
                                self.reply(&format!("{x},{y}"));
                            } else {
                                self.stones.pop();
                            }
                        }
                        Err(e) => self.reply(&format!("ERROR {e}")),
                    },
                    "TAKEBACK" => match parse_xy(rest) {
                        Some((x, y)) => match self.stones.iter().rposition(|s| (s.x, s.y) == (x, y)) {
                            Some(i) => {
                                self.stones.remove(i);
                                self.reply("OK");
                            }
                            None => self.reply(&format!("ERROR TAKEBACK {x},{y}: no stone there")),
                        },
                        None => self.reply(&format!("ERROR TAKEBACK needs x,y, not '{rest}'")),
                    },
                    "YXHASHCLEAR" => self.controller.new_game(),
                    "YXSHOWFORBID" => self.show_forbidden(),
                    "YXNBEST" => match rest.parse::<usize>() {
                        Ok(n) if n >= 1 => self.nbest(n),
                        _ => self.reply(&format!("ERROR YXNBEST needs a count, not '{rest}'")),
                    },
                    _ => self.reply(&format!("UNKNOWN {head}")),
                }
            }
        }
        true
    }

    fn quit(&mut self) {
        lock(&self.shared).muted = true;
        self.controller.stop();
    }

    /// Waits for a running search and records the move it printed.
    fn settle(&mut self) {
        self.controller.stop();
        if let Some((x, y)) = lock(&self.shared).played.take() {
            self.stones.push(Stone { x, y, own: true });
        }
    }

    fn start(&mut self, width: usize, height: usize) {
        self.settle();
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            self.reply(&format!(
                "ERROR unsupported board size {width}x{height} (sizes {MIN_SIZE} to {MAX_SIZE})"
            ));
            return;
        }
        match self.apply_variant(width, height, self.rule) {
            Ok(()) => {
                self.stones.clear();
                self.reply("OK");
            }
            Err(e) => self.reply(&format!("ERROR {e}")),
        }
    }

    fn apply_variant(&mut self, width: usize, height: usize, rule: Rule) -> Result<(), String> {
        let settings = Settings {
            size: Some((width, height)),
            rule: Some(rule.name().to_string()),
        };
        self.controller.change_game(GAME, settings)?;
        self.controller
            .set_option("Hash", &self.hash_mb.unwrap_or(1).to_string())?;
        self.table_pending = self.hash_mb.is_none();
        self.size = Some((width, height));
        self.rule = rule;
        lock(&self.shared).height = height;
        Ok(())
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let key = key.to_ascii_lowercase();
        let value = value.trim();
        let number = value.parse::<i64>().map(|v| v.max(0) as u64);
        const NUMBERS: [&str; 8] = [
            "thread_num",
            "timeout_turn",
            "timeout_match",
            "time_left",
            "max_depth",
            "max_node",
            "max_memory",
            "hash_size",
        ];
        let v = match number {
            Ok(v) => v,
            Err(_) if NUMBERS.contains(&key.as_str()) => {
                self.warn(&format!("INFO {key} needs a number, not '{value}'"));
                return;
            }
            Err(_) => 0,
        };
        match key.as_str() {
            "timeout_turn" => self.timeout_turn = v,
            "timeout_match" => self.timeout_match = v,
            "time_left" => self.time_left = Some(v),
            "max_depth" => self.max_depth = (v > 0).then_some(v.min(1000) as u32),
            "max_node" => self.max_nodes = (v > 0).then_some(v),
            "max_memory" | "hash_size" => {
                // max_memory is in bytes for the whole process;
                // hash_size (Yixin) is the table itself in KB.
                let mb = match (key.as_str(), v) {
                    ("max_memory", 0) => DEFAULT_HASH_MB as u64,
                    ("max_memory", _) => (v / HASH_SHARE_OF_MEMORY) >> 20,
                    _ => v >> 10,
                };
                let hash_mb = mb.clamp(1, 1024) as usize;
                self.hash_mb = Some(hash_mb);
                self.table_pending = false;
                if self.size.is_some() {
                    self.settle();
                    let option = options::set_by_info_key(&key).unwrap_or_default();
                    if let Err(e) = self.controller.set_option(&option, &hash_mb.to_string()) {
                        self.warn(&e);
                    }
                }
            }
            "rule" => match number.ok().and_then(|m| Rule::from_gomocup(m as u32)) {
                Some(rule) => {
                    if let Some((w, h)) = self.size {
                        self.settle();
                        if let Err(e) = self.apply_variant(w, h, rule) {
                            self.warn(&e);
                        }
                    } else {
                        self.rule = rule;
                    }
                }
                None => self.warn(&format!("INFO rule: unknown rule '{value}'")),
            },
            "thread_num" => {
                let threads = v.clamp(1, THREADS_MAX as u64).to_string();
                let option = options::set_by_info_key(&key).unwrap_or_default();
                if let Err(e) = self.controller.set_option(&option, &threads) {
                    self.warn(&e);
                }
            }
            "message" => lock(&self.shared).messages = v != 0,
            // Accepted and not needed: no files, and the game type only
            // matters to a human GUI.
            "game_type" | "folder" => {}
            _ => log::debug!("ignoring INFO {key}"),
        }
    }

    fn checked_xy(&self, text: &str) -> Result<(usize, usize), String> {
        let (width, height) = self.size.ok_or("no board: send START first")?;
        let (x, y) = parse_xy(text).ok_or_else(|| format!("expected x,y, not '{text}'"))?;
        if x >= width || y >= height {
            return Err(format!("{x},{y} is outside the {width}x{height} board"));
        }
        if self.stones.iter().any(|s| (s.x, s.y) == (x, y)) {
            return Err(format!("{x},{y} is already occupied"));
        }
        Ok((x, y))
    }

    /// Black moves first: with as many own stones as the opponent's, the
    /// brain is black; with fewer, white.
    fn own_is_black(&self) -> bool {
        let own = self.stones.iter().filter(|s| s.own).count();
        own >= self.stones.len() - own
    }

    /// The position as FEN with the brain to move.
    fn fen(&self) -> String {
        let (width, height) = self.size.unwrap_or((15, 15));
        let own = if self.own_is_black() {
            Player::P1
        } else {
            Player::P2
        };
        let grid = grid_of(width, height, |y, x| {
            let stone = self.stones.iter().find(|s| (s.x, s.y) == (x, y))?;
            Some(if stone.own { own } else { own.other() })
        });
        format_grid(&grid, own)
    }

    /// Hands the stones to the controller; false (with an ERROR) if they
    /// do not make a position.
    fn sync_position(&mut self) -> bool {
        match self.controller.set_position(Some(&self.fen()), &[]) {
            Ok(()) => true,
            Err(e) => {
                self.reply(&format!("ERROR {e}"));
                false
            }
        }
    }

    fn limits(&self) -> GoLimits {
        let mut limits = GoLimits {
            depth: self.max_depth,
            nodes: self.max_nodes,
            turn_limit: Some(self.timeout_turn),
            ..Default::default()
        };
        if self.timeout_match > 0 || self.time_left.is_some() {
            let left = self.time_left.unwrap_or(self.timeout_match);
            let side = if self.own_is_black() { 0 } else { 1 };
            limits.time[side] = Some(left);
        }
        limits
    }

    fn think(&mut self) {
        self.size_pending_table();
        let limits = self.limits();
        self.controller.go(limits);
    }

    /// Gives a table still at its placeholder size the default size, before
    /// a search needs it.
    fn size_pending_table(&mut self) {
        if std::mem::take(&mut self.table_pending)
            && let Err(e) = self
                .controller
                .set_option("Hash", &DEFAULT_HASH_MB.to_string())
        {
            self.reply(&format!("MESSAGE {e}"));
        }
    }

    fn block(&mut self, command: &str, block: Result<Vec<(usize, usize, u32)>, String>) {
        self.settle();
        let Some(_) = self.size else {
            self.reply(&format!("ERROR {command} before START"));
            return;
        };
        let entries = match block {
            Ok(entries) => entries,
            Err(e) => {
                self.reply(&format!("ERROR {e}"));
                return;
            }
        };
        if command == "SWAP2BOARD" {
            self.swap2(entries);
            return;
        }
        let previous = std::mem::take(&mut self.stones);
        for (x, y, field) in entries {
            // Field 3 marks stones of a finished line in continuous games:
            // they no longer take part.
            if field == 3 {
                continue;
            }
            let checked = self.checked_xy(&format!("{x},{y}"));
            match (checked, field) {
                (Ok(_), 1 | 2) => self.stones.push(Stone {
                    x,
                    y,
                    own: field == 1,
                }),
                (Err(e), _) => {
                    self.stones = previous;
                    self.reply(&format!("ERROR {command}: {e}"));
                    return;
                }
                (Ok(_), f) => {
                    self.stones = previous;
                    self.reply(&format!(
                        "ERROR {command}: field must be 1, 2 or 3, not {f}"
                    ));
                    return;
                }
            }
        }
        if !self.sync_position() {
            self.stones = previous;
            return;
        }
        if command == "BOARD" {
            self.think();
        }
    }

    fn height(&self) -> usize {
        self.size.map_or(15, |s| s.1)
    }

    fn show_forbidden(&mut self) {
        let mut text = String::from("FORBID ");
        if self.sync_position() {
            let height = self.height();
            for (x, y) in self
                .controller
                .session()
                .forbidden_moves()
                .iter()
                .filter_map(|m| square_to_xy(m, height))
            {
                text.push_str(&format!("{x:02}{y:02}"));
            }
        }
        text.push('.');
        self.reply(&text);
    }

    /// YXNBEST n: the n best moves as MESSAGE lines; the best is played.
    fn nbest(&mut self, n: usize) {
        if !self.sync_position() {
            return;
        }
        self.size_pending_table();
        let height = self.height();
        let limits = self.limits();
        let writer = self.writer.clone();
        let ranked = best_moves(&mut self.controller, n, &limits, |rank, m| {
            if let Some((x, y)) = square_to_xy(&m.mv, height) {
                let score = match m.score {
                    Some(Score::Cp(cp)) => format!("{cp}"),
                    Some(Score::Mate(m)) => format!("mate {m}"),
                    None => "?".to_string(),
                };
                writer.line(&format!("MESSAGE {rank}. {x},{y} score {score}"));
            }
        });
        match ranked.first().and_then(|m| square_to_xy(&m.mv, height)) {
            Some((x, y)) => {
                self.reply(&format!("{x},{y}"));
                self.stones.push(Stone { x, y, own: true });
            }
            None => self.reply("ERROR no move: the game is over"),
        }
    }

    fn swap2(&mut self, stones: Vec<(usize, usize, u32)>) {
        // SWAP2BOARD stones come in playing order: black, white, black...
        let (width, height) = self.size.unwrap_or((15, 15));
        let mut placed = Vec::new();
        for (i, &(x, y, _)) in stones.iter().enumerate() {
            if x >= width || y >= height || placed.iter().any(|s: &Stone| (s.x, s.y) == (x, y)) {
                self.reply(&format!("ERROR SWAP2BOARD: bad stone {x},{y}"));
                return;
            }
            // Seen from the side that would be white after them.
            placed.push(Stone {
                x,
                y,
                own: i % 2 == 1,
            });
        }
        self.size_pending_table();
        // Yixin's depth and node limits bound each decision's searches too.
        let limits = GoLimits {
            depth: self.max_depth,
            nodes: self.max_nodes,
            ..swap2::budget(self.timeout_turn)
        };
        let moves: Vec<String> = placed
            .iter()
            .map(|s| xy_to_square(s.x, s.y, height))
            .collect();
        self.stones = placed;
        match moves.len() {
            0 => {
                let candidates = swap2_openings(width, height);
                let opening = swap2::open(&mut self.controller, &candidates, &limits);
                let text: Vec<String> = opening
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|m| square_to_xy(m, height))
                    .map(|(x, y)| format!("{x},{y}"))
                    .collect();
                self.reply(&text.join(" "));
            }
            3 | 5 => match swap2::answer(&mut self.controller, &moves, &limits) {
                Ok(Answer::Play(mv)) => match square_to_xy(&mv, height) {
                    Some((x, y)) => {
                        self.stones.push(Stone { x, y, own: true });
                        self.reply(&format!("{x},{y}"));
                    }
                    None => self.reply("SWAP"),
                },
                Ok(Answer::Swap) => self.reply("SWAP"),
                Err(e) => self.reply(&format!("ERROR {e}")),
            },
            n => self.reply(&format!(
                "ERROR SWAP2BOARD with {n} stones (0, 3 or 5 expected)"
            )),
        }
    }
}

fn is_known(command: &str) -> bool {
    matches!(
        command,
        "RESTART"
            | "BEGIN"
            | "TURN"
            | "PLAY"
            | "TAKEBACK"
            | "YXHASHCLEAR"
            | "YXSHOWFORBID"
            | "YXNBEST"
    )
}

/// The `x,y[,field]` lines of a BOARD-like block up to DONE.
fn read_block(
    input: &mut impl Iterator<Item = String>,
) -> Result<Vec<(usize, usize, u32)>, String> {
    let mut entries = Vec::new();
    let mut error = None;
    for line in input.by_ref() {
        let line = line.trim();
        if line.eq_ignore_ascii_case("DONE") {
            return match error {
                Some(e) => Err(e),
                None => Ok(entries),
            };
        }
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match fields.as_slice() {
            [x, y] => x.parse().ok().zip(y.parse().ok()).map(|(x, y)| (x, y, 0)),
            [x, y, f] => match (x.parse(), y.parse(), f.parse()) {
                (Ok(x), Ok(y), Ok(f)) => Some((x, y, f)),
                _ => None,
            },
            _ => None,
        };
        match parsed {
            Some(entry) => entries.push(entry),
            None => {
                error.get_or_insert_with(|| format!("bad line '{line}' (x,y,field expected)"));
            }
        }
    }
    Err("end of input before DONE".to_string())
}

#[cfg(test)]
#[path = "piskvork_tests.rs"]
mod tests;
