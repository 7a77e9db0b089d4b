//! The Piskvork (Gomocup) protocol for gomoku brains, with the Yixin-board
//! extensions used by gomoku GUIs and c-gomoku-cli. See protocol.md.
//!
//! The brain keeps the game as a list of stones (its own and the
//! opponent's) and hands the controller a fresh position for every move,
//! so TAKEBACK, BOARD and swap openings need no special paths.

use std::io::BufRead;
use std::sync::{Arc, Mutex, PoisonError};

use super::ugi::lines;
use super::writer::Writer;
use crate::engine::{Controller, Event, EventSink};
use crate::game::Settings;
use crate::game::gomoku::{Rule, square_to_xy, xy_to_square};
use crate::search::score::Score;
use crate::search::time::GoLimits;

pub const MIN_SIZE: usize = 5;
pub const MAX_SIZE: usize = 32;
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
    /// Keep the result for the brain instead of printing it (swap2).
    collect: bool,
    /// The brain's own move just printed, to be recorded as a stone.
    played: Option<(usize, usize)>,
    best: Option<(usize, usize)>,
    score: Option<Score>,
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
    rule: String,
    stones: Vec<Stone>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    hash_mb: usize,
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs the brain until END or end of input.
pub fn run(input: impl BufRead, writer: Writer) -> anyhow::Result<()> {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let sink: EventSink = {
        let shared = Arc::clone(&shared);
        let writer = writer.clone();
        Arc::new(move |event| {
            let mut s = lock(&shared);
            match event {
                Event::Info(info) => s.score = Some(info.score),
                // MESSAGE is the one free-text line allowed while a move is due.
                Event::Error(message) if !s.muted => writer.line(&format!("MESSAGE {message}")),
                Event::Error(_) => {}
                Event::BestMove(best) => {
                    let xy = best.as_deref().and_then(|m| square_to_xy(m, s.height));
                    if s.collect {
                        s.best = xy;
                    } else if !s.muted {
                        match xy {
                            Some((x, y)) => {
                                writer.line(&format!("{x},{y}"));
                                s.played = Some((x, y));
                            }
                            None => writer.line("ERROR no move: the game is over"),
                        }
                    }
                }
            }
        })
    };
    let controller = Controller::with_defaults("gomoku", sink).map_err(anyhow::Error::msg)?;
    let mut brain = Brain {
        controller,
        writer,
        shared,
        size: None,
        rule: "freestyle".to_string(),
        stones: Vec::new(),
        timeout_turn: DEFAULT_TIMEOUT_TURN_MS,
        timeout_match: 0,
        time_left: None,
        max_depth: None,
        max_nodes: None,
        hash_mb: DEFAULT_HASH_MB,
    };
    let mut input = lines(input);
    while let Some(line) = input.next() {
        log::debug!("< {line}");
        if !brain.execute(line.trim(), &mut input) {
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
        // The manager sends its INFO lines and the first move request
        // right behind START: the first move's clock runs from here.
        self.controller.note_turn_start();
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            self.reply(&format!(
                "ERROR unsupported board size {width}x{height} (sizes {MIN_SIZE} to {MAX_SIZE})"
            ));
            return;
        }
        match self.apply_variant(width, height, &self.rule.clone()) {
            Ok(()) => {
                self.stones.clear();
                self.reply("OK");
            }
            Err(e) => self.reply(&format!("ERROR {e}")),
        }
    }

    fn apply_variant(&mut self, width: usize, height: usize, rule: &str) -> Result<(), String> {
        let settings = Settings {
            size: Some((width, height)),
            rule: Some(rule.to_string()),
        };
        self.controller.change_game("gomoku", settings)?;
        self.controller
            .set_option("Hash", &self.hash_mb.to_string())?;
        self.size = Some((width, height));
        self.rule = rule.to_string();
        lock(&self.shared).height = height;
        Ok(())
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let key = key.to_ascii_lowercase();
        let value = value.trim();
        let number = value.parse::<i64>().map(|v| v.max(0) as u64);
        let bad =
            |brain: &Brain| brain.reply(&format!("ERROR INFO {key} needs a number, not '{value}'"));
        match key.as_str() {
            "timeout_turn" => match number {
                Ok(v) => self.timeout_turn = v,
                Err(_) => bad(self),
            },
            "timeout_match" => match number {
                Ok(v) => self.timeout_match = v,
                Err(_) => bad(self),
            },
            "time_left" => match number {
                Ok(v) => self.time_left = Some(v),
                Err(_) => bad(self),
            },
            "max_depth" => match number {
                Ok(v) => self.max_depth = (v > 0).then_some(v.min(1000) as u32),
                Err(_) => bad(self),
            },
            "max_node" => match number {
                Ok(v) => self.max_nodes = (v > 0).then_some(v),
                Err(_) => bad(self),
            },
            "max_memory" | "hash_size" => match number {
                Ok(v) => {
                    // max_memory is in bytes for the whole process;
                    // hash_size (Yixin) is the table itself in KB.
                    let mb = if key == "max_memory" {
                        if v == 0 {
                            DEFAULT_HASH_MB as u64
                        } else {
                            (v / HASH_SHARE_OF_MEMORY) >> 20
                        }
                    } else {
                        v >> 10
                    };
                    self.hash_mb = mb.clamp(1, 1024) as usize;
                    if self.size.is_some() {
                        self.settle();
                        if let Err(e) = self
                            .controller
                            .set_option("Hash", &self.hash_mb.to_string())
                        {
                            self.reply(&format!("ERROR {e}"));
                        }
                    }
                }
                Err(_) => bad(self),
            },
            "rule" => match number.ok().and_then(|m| Rule::from_gomocup(m as u32)) {
                Some(rule) => {
                    let rule = rule.name().to_string();
                    if let Some((w, h)) = self.size {
                        self.settle();
                        if let Err(e) = self.apply_variant(w, h, &rule) {
                            self.reply(&format!("ERROR {e}"));
                        }
                    } else {
                        self.rule = rule;
                    }
                }
                None => self.reply(&format!("ERROR INFO rule: unknown rule '{value}'")),
            },
            // Accepted and not needed: one search thread, no files, and
            // the game type only matters to a human GUI.
            "thread_num" | "game_type" | "folder" => {}
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
    fn fen(&self, own_is_black: bool, black_to_move: bool) -> String {
        let (width, height) = self.size.unwrap_or((15, 15));
        let mut rows = Vec::with_capacity(height);
        for y in 0..height {
            let mut row = String::new();
            let mut run = 0;
            for x in 0..width {
                match self.stones.iter().find(|s| (s.x, s.y) == (x, y)) {
                    Some(s) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                            run = 0;
                        }
                        row.push(if s.own == own_is_black { 'x' } else { 'o' });
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        format!(
            "{} {}",
            rows.join("/"),
            if black_to_move { 'x' } else { 'o' }
        )
    }

    /// Hands the stones to the controller; false (with an ERROR) if they
    /// do not make a position.
    fn sync_position(&mut self) -> bool {
        let black = self.own_is_black();
        match self
            .controller
            .set_position(Some(&self.fen(black, black)), &[])
        {
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
        let limits = self.limits();
        self.controller.go(limits);
    }

    /// A search whose result the brain keeps: (best move, score).
    fn consult(&mut self, limits: GoLimits) -> (Option<(usize, usize)>, Option<Score>) {
        {
            let mut s = lock(&self.shared);
            s.collect = true;
            s.best = None;
            s.score = None;
        }
        self.controller.go(limits);
        self.controller.wait();
        let mut s = lock(&self.shared);
        s.collect = false;
        (s.best.take(), s.score.take())
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

    fn show_forbidden(&mut self) {
        let mut text = String::from("FORBID ");
        if self.rule == "renju" {
            // Black's legal moves exclude forbidden cells: whatever empty
            // cell is missing from them is forbidden.
            let black = self.own_is_black();
            if self
                .controller
                .set_position(Some(&self.fen(black, true)), &[])
                .is_ok()
            {
                let height = self.size.map_or(15, |s| s.1);
                let legal: Vec<(usize, usize)> = self
                    .controller
                    .session()
                    .legal_moves()
                    .iter()
                    .filter_map(|m| square_to_xy(m, height))
                    .collect();
                let (width, _) = self.size.unwrap_or((15, 15));
                for y in 0..height {
                    for x in 0..width {
                        let empty = !self.stones.iter().any(|s| (s.x, s.y) == (x, y));
                        if empty && !legal.contains(&(x, y)) {
                            text.push_str(&format!("{x:02}{y:02}"));
                        }
                    }
                }
            }
            self.sync_position();
        }
        text.push('.');
        self.reply(&text);
    }

    /// YXNBEST n: the n best moves, each found by a search that excludes
    /// the ones before it, reported as MESSAGE lines; the best is played.
    fn nbest(&mut self, n: usize) {
        if !self.sync_position() {
            return;
        }
        let mut limits = self.limits();
        let share = (self.timeout_turn / n as u64).max(1);
        limits.turn_limit = Some(share);
        let mut excluded: Vec<(usize, usize)> = Vec::new();
        for rank in 1..=n {
            let (best, score) = self.consult_excluding(limits.clone(), &excluded);
            let Some((x, y)) = best else { break };
            let score = match score {
                Some(Score::Cp(cp)) => format!("{cp}"),
                Some(Score::Mate(m)) => format!("mate {m}"),
                None => "?".to_string(),
            };
            self.reply(&format!("MESSAGE {rank}. {x},{y} score {score}"));
            excluded.push((x, y));
        }
        self.sync_position();
        match excluded.first() {
            Some(&(x, y)) => {
                self.reply(&format!("{x},{y}"));
                self.stones.push(Stone { x, y, own: true });
            }
            None => self.reply("ERROR no move: the game is over"),
        }
    }

    /// A search of the current position whose root leaves out `excluded`.
    fn consult_excluding(
        &mut self,
        limits: GoLimits,
        excluded: &[(usize, usize)],
    ) -> (Option<(usize, usize)>, Option<Score>) {
        let height = self.size.map_or(15, |s| s.1);
        let names: Vec<String> = excluded
            .iter()
            .map(|&(x, y)| xy_to_square(x, y, height))
            .collect();
        self.controller.exclude_root_moves(names);
        let result = self.consult(limits);
        self.controller.exclude_root_moves(Vec::new());
        result
    }

    fn swap2(&mut self, stones: Vec<(usize, usize, u32)>) {
        // SWAP2BOARD stones come in playing order: black, white, black...
        let size = self.size.unwrap_or((15, 15));
        let mut placed = Vec::new();
        for (i, &(x, y, _)) in stones.iter().enumerate() {
            if x >= size.0 || y >= size.1 || placed.iter().any(|s: &Stone| (s.x, s.y) == (x, y)) {
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
        let budget = (self.timeout_turn / 4).max(50);
        let limits = GoLimits {
            turn_limit: Some(budget),
            ..Default::default()
        };
        self.stones = placed;
        let white_to_move = |brain: &Brain| brain.fen(false, false);
        match self.stones.len() {
            0 => {
                let (cx, cy) = (size.0 / 2, size.1 / 2);
                // Candidate openings (black, white, black) around the
                // centre; the one whose search score is closest to even.
                let openings: [[(isize, isize); 3]; 4] = [
                    [(0, 0), (1, 0), (1, 1)],
                    [(0, 0), (1, 1), (2, 0)],
                    [(0, 0), (0, 1), (2, 2)],
                    [(0, 0), (2, 1), (1, 2)],
                ];
                let per = limits.turn_limit.map(|t| t / openings.len() as u64);
                let mut best: Option<(i64, Vec<(usize, usize)>)> = None;
                for opening in openings {
                    let cells: Vec<(usize, usize)> = opening
                        .iter()
                        .map(|&(dx, dy)| ((cx as isize + dx) as usize, (cy as isize + dy) as usize))
                        .collect();
                    self.stones = cells
                        .iter()
                        .enumerate()
                        .map(|(i, &(x, y))| Stone {
                            x,
                            y,
                            own: i % 2 == 1,
                        })
                        .collect();
                    if self
                        .controller
                        .set_position(Some(&white_to_move(self)), &[])
                        .is_err()
                    {
                        continue;
                    }
                    let (_, score) = self.consult(GoLimits {
                        turn_limit: per,
                        ..Default::default()
                    });
                    let imbalance = match score {
                        Some(Score::Cp(cp)) => i64::from(cp).abs(),
                        _ => i64::MAX,
                    };
                    if best.as_ref().is_none_or(|(b, _)| imbalance < *b) {
                        best = Some((imbalance, cells));
                    }
                }
                self.stones.clear();
                let cells = best.map(|b| b.1).unwrap_or_default();
                let text: Vec<String> = cells.iter().map(|(x, y)| format!("{x},{y}")).collect();
                self.reply(&text.join(" "));
            }
            3 | 5 => {
                if let Err(e) = self
                    .controller
                    .set_position(Some(&white_to_move(self)), &[])
                {
                    self.reply(&format!("ERROR {e}"));
                    return;
                }
                let (best, score) = self.consult(limits);
                // After three stones white may stay white, after five the
                // opener picks; either way take white only if it is not
                // worse than even, else swap to black.
                let threshold = if self.stones.len() == 3 { -60 } else { 0 };
                let white_is_fine = match score {
                    Some(Score::Cp(cp)) => cp >= threshold,
                    Some(Score::Mate(m)) => m > 0,
                    None => true,
                };
                match best {
                    Some((x, y)) if white_is_fine => {
                        self.stones.push(Stone { x, y, own: true });
                        self.reply(&format!("{x},{y}"));
                    }
                    _ => self.reply("SWAP"),
                }
            }
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
