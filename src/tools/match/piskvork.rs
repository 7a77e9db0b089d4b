//! An external Gomoku engine over Piskvork (the Gomocup protocol):
//! `START n` / `RECTSTART w,h`, `INFO` keys, `BEGIN`, `TURN x,y` or
//! `BOARD ... DONE`, a reply `x,y`, and `END`. Ply's squares (`h8`: file
//! letter from the left, rank from 1 at the bottom) become Piskvork's
//! `x,y` (from 0 at the top-left) and back.

use std::time::{Duration, Instant};

use super::clock::TimeControl;
use super::player::{Fault, Player, Reply, Turn};
use super::process::{Process, ReadError};
use crate::game::gomoku::{Rule, square_to_xy, xy_to_square};

const HANDSHAKE: Duration = Duration::from_secs(10);

/// Gomocup's `INFO rule` bitmask for a rule name.
pub fn rule_mask(rule: Option<&str>) -> u32 {
    rule.and_then(Rule::parse).map_or(0, Rule::gomocup_mask)
}

/// The stones of a FEN board (`x`, `o`, digits, rows top first) as
/// `(x, y, first_player)`.
pub fn stones_of_fen(fen: &str) -> Vec<(usize, usize, bool)> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let mut stones = Vec::new();
    for (y, row) in board.split('/').enumerate() {
        let mut x = 0;
        let mut run = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            x += run;
            run = 0;
            match ch {
                'x' | 'X' => stones.push((x, y, true)),
                'o' | 'O' => stones.push((x, y, false)),
                _ => {}
            }
            x += 1;
        }
    }
    stones
}

pub struct PiskvorkPlayer {
    argv: Vec<String>,
    options: Vec<(String, String)>,
    /// Its own node budget in a `--nodes` match.
    nodes: Option<u64>,
    width: usize,
    height: usize,
    rule: u32,
    process: Option<Process>,
    /// Moves since the start position that the engine's board holds.
    known: Option<usize>,
}

impl PiskvorkPlayer {
    pub fn new(
        argv: Vec<String>,
        options: Vec<(String, String)>,
        nodes: Option<u64>,
        (width, height): (usize, usize),
        rule: Option<&str>,
    ) -> PiskvorkPlayer {
        PiskvorkPlayer {
            argv,
            options,
            nodes,
            width,
            height,
            rule: rule_mask(rule),
            process: None,
            known: None,
        }
    }

    fn lost(&mut self, error: ReadError, what: &str) -> Fault {
        super::process::lose(&mut self.process, error, what)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if self.process.as_mut().is_some_and(|p| p.send(line)) {
            return Ok(());
        }
        self.process = None;
        Err(Fault::Crash("broken pipe".into()))
    }

    /// The next line that is not `MESSAGE` or `DEBUG`.
    fn reply(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(Fault::Crash("no process".into()));
            };
            match p.read_line(deadline) {
                Ok(line) => {
                    let word = line.split_whitespace().next().unwrap_or("");
                    if word.is_empty()
                        || word.eq_ignore_ascii_case("MESSAGE")
                        || word.eq_ignore_ascii_case("DEBUG")
                    {
                        continue;
                    }
                    return Ok(line);
                }
                Err(e) => return Err(self.lost(e, "while it was to answer")),
            }
        }
    }

    fn parse_move(&self, line: &str) -> Result<String, Fault> {
        let garbage = || Fault::Garbage(line.to_string());
        let (x, y) = line.trim().split_once(',').ok_or_else(garbage)?;
        let x: usize = x.trim().parse().map_err(|_| garbage())?;
        let y: usize = y.trim().parse().map_err(|_| garbage())?;
        if x >= self.width || y >= self.height {
            // A move off the board: the referee rejects it as illegal.
            return Ok(format!("{x},{y}"));
        }
        Ok(xy_to_square(x, y, self.height))
    }

    fn xy(&self, square: &str) -> String {
        match square_to_xy(square, self.height) {
            Some((x, y)) => format!("{x},{y}"),
            None => square.to_string(),
        }
    }
}

impl Player for PiskvorkPlayer {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        if self.process.as_ref().is_none_or(Process::is_dead) {
            self.process = Some(Process::spawn(&self.argv).map_err(Fault::Crash)?);
        }
        self.known = None;
        let start = if self.width == self.height {
            format!("START {}", self.width)
        } else {
            format!("RECTSTART {},{}", self.width, self.height)
        };
        self.send(&start)?;
        let line = self.reply(Instant::now() + HANDSHAKE)?;
        if !line.trim().eq_ignore_ascii_case("OK") {
            return Err(Fault::Garbage(format!("'{line}' to {start}")));
        }
        self.send(&format!("INFO rule {}", self.rule))?;
        for (key, value) in self.options.clone() {
            self.send(&format!("INFO {key} {value}"))?;
        }
        Ok(())
    }

    fn play(&mut self, turn: &Turn, wait: Duration) -> Result<Reply, Fault> {
        if self.process.is_none() {
            return Err(Fault::Crash("the engine is not running".into()));
        }
        let c = turn.clocks;
        let side = turn.session.side_to_move();
        match c.tc.for_engine(self.nodes) {
            TimeControl::Clock { base_ms, .. } => {
                self.send(&format!("INFO timeout_match {base_ms}"))?;
                self.send(&format!(
                    "INFO timeout_turn {}",
                    c.allowed(side).as_millis()
                ))?;
                self.send(&format!("INFO time_left {}", c.left_ms(side)))?;
            }
            TimeControl::MoveTime(ms) => {
                self.send("INFO timeout_match 0")?;
                self.send(&format!("INFO timeout_turn {ms}"))?;
            }
            TimeControl::Depth(d) => {
                self.send("INFO timeout_match 0")?;
                self.send(&format!("INFO timeout_turn {}", c.cap.as_millis()))?;
                self.send(&format!("INFO max_depth {d}"))?;
            }
            TimeControl::Nodes(n) => {
                self.send("INFO timeout_match 0")?;
                self.send(&format!("INFO timeout_turn {}", c.cap.as_millis()))?;
                self.send(&format!("INFO max_node {n}"))?;
            }
        }
        let n = turn.moves.len();
        let mut lines = Vec::new();
        if turn.start_fen.is_none() && n == 0 {
            lines.push("BEGIN".to_string());
        } else if turn.start_fen.is_none() && n > 0 && self.known == Some(n - 1) {
            lines.push(format!("TURN {}", self.xy(&turn.moves[n - 1])));
        } else {
            lines.push("BOARD".to_string());
            let first_to_move = side == crate::game::Player::P1;
            match turn.start_fen {
                None => {
                    for (i, mv) in turn.moves.iter().enumerate() {
                        // From the start position the first player moves first.
                        let by_first = i % 2 == 0;
                        let own = if by_first == first_to_move { 1 } else { 2 };
                        lines.push(format!("{},{own}", self.xy(mv)));
                    }
                }
                Some(_) => {
                    for (x, y, first) in stones_of_fen(&turn.session.fen()) {
                        let own = if first == first_to_move { 1 } else { 2 };
                        lines.push(format!("{x},{y},{own}"));
                    }
                }
            }
            lines.push("DONE".to_string());
        }
        let (last, rest) = lines.split_last().expect("at least one line");
        for line in rest {
            self.send(line)?;
        }
        let started = Instant::now();
        self.send(last)?;
        let line = self.reply(started + wait)?;
        let elapsed = started.elapsed();
        let mv = match self.parse_move(&line) {
            Ok(mv) => mv,
            Err(fault) => {
                // Out of step with the protocol: start afresh next game.
                if let Some(p) = self.process.as_mut() {
                    p.kill();
                }
                self.process = None;
                return Err(fault);
            }
        };
        self.known = Some(n + 1);
        Ok(Reply { mv, elapsed })
    }

    fn end_game(&mut self) {
        self.known = None;
    }

    fn shut_down(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.shut_down(Some("END"), Duration::from_millis(300));
        }
    }
}

impl Drop for PiskvorkPlayer {
    fn drop(&mut self) {
        self.shut_down();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_convert_both_ways() {
        assert_eq!(square_to_xy("h8", 15), Some((7, 7)));
        assert_eq!(square_to_xy("a1", 15), Some((0, 14)));
        assert_eq!(square_to_xy("a15", 15), Some((0, 0)));
        assert_eq!(square_to_xy("ab3", 32), Some((27, 29)));
        assert_eq!(square_to_xy("a16", 15), None);
        assert_eq!(square_to_xy("8h", 15), None);
        assert_eq!(xy_to_square(7, 7, 15), "h8");
        assert_eq!(xy_to_square(0, 0, 15), "a15");
        assert_eq!(xy_to_square(31, 0, 32), "af32");
        for x in 0..32 {
            for y in 0..20 {
                assert_eq!(square_to_xy(&xy_to_square(x, y, 20), 20), Some((x, y)));
            }
        }
    }

    #[test]
    fn stones_come_from_a_fen() {
        assert_eq!(
            stones_of_fen("5/5/2x2/1o3/5 x"),
            vec![(2, 2, true), (1, 3, false)]
        );
        assert_eq!(rule_mask(Some("renju")), 4);
        assert_eq!(rule_mask(Some("caro")), 9);
        assert_eq!(rule_mask(Some("caro-overline")), 8);
        assert_eq!(rule_mask(None), 0);
    }
}
