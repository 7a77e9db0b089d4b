//! How c-gomoku-cli (nkg114mc/c-gomoku-cli @ cdacd85) reads a Piskvork
//! brain, as a strict reader. Its `Engine` (src/engine.cpp) reads the
//! ABOUT line, waits for `OK` after `START`, and takes the first line that
//! looks like `x,y` as the move, recording `MESSAGE` lines and passing over
//! the rest. Here a line passed over must be `MESSAGE` or `DEBUG`, an
//! `ERROR` is the error c-gomoku-cli reports, and waiting longer than
//! [`PATIENCE`] is the time loss it would give.

use std::time::Instant;

use super::{PATIENCE, Peer};

/// `Position::is_valid_move_gomostr` (src/position.cpp): one comma with a
/// number on each side. Its `isNumber` is `strtol` reading the whole text,
/// which lets a sign, leading blanks and even an empty text pass; a brain
/// that leans on that is not one to trust, so only digits pass here.
pub fn move_of(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    Some((number(x)?, number(y)?))
}

/// What `parse_and_display_engine_about` (src/engine.cpp) finds in the
/// ABOUT line: `key="value"` pairs split on commas, blanks and `=`,
/// quotes keeping their text whole.
#[derive(Debug, Default)]
pub struct About {
    pub name: Option<String>,
    pub version: Option<String>,
    pub author: Option<String>,
    pub country: Option<String>,
}

fn parse_about(line: &str) -> About {
    let mut tokens = Vec::new();
    let mut token = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' | ' ' | '=' if !quoted => {
                if !token.is_empty() {
                    tokens.push(std::mem::take(&mut token));
                }
            }
            c => token.push(c),
        }
    }
    if !token.is_empty() {
        tokens.push(token);
    }
    let value = |key: &str| {
        let at = tokens.iter().position(|t| t == key)?;
        tokens.get(at + 1).cloned()
    };
    About {
        name: value("name"),
        version: value("version"),
        author: value("author"),
        country: value("country"),
    }
}

/// One brain as c-gomoku-cli drives it.
pub struct GomokuCli<P: Peer> {
    pub peer: P,
    /// The `MESSAGE` lines, as c-gomoku-cli records them for its log.
    pub messages: Vec<String>,
}

impl<P: Peer> GomokuCli<P> {
    /// `Engine::start`: the brain is started and asked `ABOUT`, whose
    /// answer is the very next line, whatever it is (`parse_about`).
    pub fn start(peer: P) -> (GomokuCli<P>, About) {
        let mut cli = GomokuCli {
            peer,
            messages: Vec::new(),
        };
        cli.send("ABOUT");
        let line = cli.readln("the ABOUT line");
        let about = parse_about(&line);
        assert!(
            about.name.is_some(),
            "c-gomoku-cli finds no name in the ABOUT line {line:?}"
        );
        (cli, about)
    }

    pub fn transcript(&self) -> &[String] {
        self.peer.transcript()
    }

    /// `Engine::writeln`.
    pub fn send(&mut self, line: &str) {
        self.peer.send(line);
    }

    /// `Engine::readln`; `string_getline` drops every CR.
    fn readln(&mut self, what: &str) -> String {
        let line = self.peer.next_line(PATIENCE).unwrap_or_else(|| {
            panic!(
                "c-gomoku-cli, waiting for {what}, would count a time-out; transcript: {:#?}",
                self.transcript()
            )
        });
        line.replace('\r', "")
    }

    /// A line read while waiting for `what` that is not it: c-gomoku-cli
    /// records `MESSAGE`, shows `DEBUG` in debug mode, and reports
    /// `ERROR` (and anything else) as the brain's fault.
    fn pass_over(&mut self, line: String, what: &str) {
        if let Some(text) = line.strip_prefix("MESSAGE") {
            self.messages.push(text.trim_start().to_string());
            return;
        }
        assert!(
            line.starts_with("DEBUG"),
            "c-gomoku-cli, waiting for {what}, reads {line:?}, which is no part of the \
             protocol's reply; transcript: {:#?}",
            self.transcript()
        );
    }

    /// `Engine::wait_for_ok`: lines until `OK`; an `ERROR` fails.
    pub fn wait_for_ok(&mut self) {
        loop {
            let line = self.readln("OK");
            if line == "OK" {
                return;
            }
            self.pass_over(line, "OK");
        }
    }

    /// `START n`, then `OK` (`Game::play`).
    pub fn start_game(&mut self, size: usize) {
        self.send(&format!("START {size}"));
        self.wait_for_ok();
    }

    /// `Game::gomocup_game_info_command`: the game's INFO lines, sent
    /// without waiting for anything.
    pub fn game_info(&mut self, info: &GameInfo) {
        self.send(&format!("INFO rule {}", info.rule));
        if info.timeout_turn > 0 {
            self.send(&format!("INFO timeout_turn {}", info.timeout_turn));
        }
        self.send(&format!("INFO timeout_match {}", info.timeout_match));
        if info.max_depth > 0 {
            self.send(&format!("INFO max_depth {}", info.max_depth));
        }
        if info.max_node > 0 {
            self.send(&format!("INFO max_node {}", info.max_node));
        }
        self.send(&format!("INFO max_memory {}", info.max_memory));
        if info.thread_num > 0 {
            self.send(&format!("INFO thread_num {}", info.thread_num));
        }
    }

    /// `Engine::bestmove`: the first line that is a move.
    pub fn bestmove(&mut self) -> (usize, usize) {
        loop {
            let line = self.readln("a move");
            if let Some(xy) = move_of(&line) {
                return xy;
            }
            self.pass_over(line, "a move");
        }
    }

    /// `Engine::terminate`: `END`, then the brain exits by itself.
    pub fn end(&mut self) {
        self.send("END");
    }
}

/// What `gomocup_game_info_command` sends; 0 leaves a limit out.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    pub rule: u32,
    pub timeout_turn: u64,
    pub timeout_match: u64,
    pub max_depth: u32,
    pub max_node: u64,
    pub max_memory: u64,
    pub thread_num: u32,
}

/// A game between two brains as `Game::play` (src/game.cpp) runs it with
/// `TURN` (its default): each is started, told the game's INFO, then
/// given `INFO time_left` and `BEGIN`/`TURN x,y` in turn. `referee` plays
/// each move and says whether the game is over; the moves are returned.
pub fn play_game<P: Peer>(
    size: usize,
    info: &GameInfo,
    mut brains: [&mut GomokuCli<P>; 2],
    mut referee: impl FnMut((usize, usize)) -> bool,
) -> Vec<(usize, usize)> {
    for brain in brains.iter_mut() {
        brain.start_game(size);
        brain.game_info(info);
    }
    // `compute_time_left`: without a game clock, a time no limit reaches.
    let mut time_left = [if info.timeout_match > 0 {
        info.timeout_match as i64
    } else {
        i32::MAX as i64
    }; 2];
    let mut moves: Vec<(usize, usize)> = Vec::new();
    loop {
        let side = moves.len() % 2;
        let brain = &mut brains[side];
        brain.send(&format!("INFO time_left {}", time_left[side]));
        match moves.last() {
            None => brain.send("BEGIN"),
            Some((x, y)) => brain.send(&format!("TURN {x},{y}")),
        }
        let started = Instant::now();
        let xy = brain.bestmove();
        if info.timeout_match > 0 {
            time_left[side] -= started.elapsed().as_millis() as i64;
        }
        moves.push(xy);
        if referee(xy) {
            return moves;
        }
    }
}
