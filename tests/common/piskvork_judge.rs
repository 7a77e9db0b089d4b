//! How the Piskvork manager, Gomocup's judge (plastovicka/Piskvork @
//! 2c32965, source/protocol.cpp), reads a brain, as a strict reader.
//!
//! It sends lines ending in CR LF and reads one line per reply
//! (`Tplayer::readCommand`), reading past `MESSAGE `, `DEBUG ` and empty
//! lines. `START`, `RESTART` and `TAKEBACK` must be answered `OK`; when a
//! move is due (`Tplayer::move`), a line that is not `x,y` (or `SUGGEST
//! x,y`) loses the game. `INFO` gets no reply: a line the brain prints for
//! one is read as the reply to whatever comes next.

use super::gomoku_cli::move_of;
use super::{PATIENCE, Peer};

pub struct Judge<P: Peer> {
    pub peer: P,
    /// The `MESSAGE` lines read past, as the judge logs them.
    pub messages: Vec<String>,
}

impl<P: Peer> Judge<P> {
    pub fn new(peer: P) -> Judge<P> {
        Judge {
            peer,
            messages: Vec::new(),
        }
    }

    pub fn transcript(&self) -> &[String] {
        self.peer.transcript()
    }

    /// `Tplayer::sendCommand`: the line and CR LF.
    pub fn send(&mut self, line: &str) {
        self.peer.send(&format!("{line}\r"));
    }

    /// `Tplayer::readCommand`: the next line that is not a message, a
    /// debug line or empty (the test is case-insensitive and wants the
    /// blank after the word).
    pub fn read_command(&mut self, what: &str) -> String {
        loop {
            let line = self.peer.next_line(PATIENCE).unwrap_or_else(|| {
                panic!(
                    "the judge, waiting for {what}, times the brain out; transcript: {:#?}",
                    self.transcript()
                )
            });
            let line = line.trim_end_matches('\r').to_string();
            let lower = line.to_ascii_lowercase();
            if lower.starts_with("message ") {
                self.messages.push(line["message ".len()..].to_string());
            } else if !(line.is_empty() || lower.starts_with("debug ")) {
                return line;
            }
        }
    }

    /// A reply that must be `OK` (compared without regard to case).
    fn expect_ok(&mut self, command: &str) {
        let reply = self.read_command(&format!("OK to {command}"));
        assert!(
            reply.eq_ignore_ascii_case("OK"),
            "the judge wants OK to {command}, reads {reply:?}; transcript: {:#?}",
            self.transcript()
        );
    }

    /// `START n` (a square board) or `RECTSTART w,h`, answered `OK`.
    pub fn start(&mut self, width: usize, height: usize) {
        let command = if width == height {
            format!("START {width}")
        } else {
            format!("RECTSTART {width},{height}")
        };
        self.send(&command);
        self.expect_ok(&command);
    }

    pub fn restart(&mut self) {
        self.send("RESTART");
        self.expect_ok("RESTART");
    }

    pub fn takeback(&mut self, x: usize, y: usize) {
        let command = format!("TAKEBACK {x},{y}");
        self.send(&command);
        self.expect_ok(&command);
    }

    /// `Tplayer::sendInfoCmd`: nothing is read.
    pub fn info(&mut self, key: &str, value: impl std::fmt::Display) {
        self.send(&format!("INFO {key} {value}"));
    }

    /// The move that answers `BEGIN`, `TURN` or `BOARD`. A `SUGGEST x,y`
    /// is answered `PLAY x,y`, as Gomocup always does, and read again.
    pub fn read_move(&mut self) -> (usize, usize) {
        loop {
            let reply = self.read_command("a move");
            if let Some(suggested) = reply
                .get(..8)
                .filter(|head| head.eq_ignore_ascii_case("suggest "))
                .map(|_| reply[8..].to_string())
            {
                self.send(&format!("PLAY {suggested}"));
                continue;
            }
            return move_of(&reply).unwrap_or_else(|| {
                panic!(
                    "the judge wants x,y, reads {reply:?}: the brain loses; transcript: {:#?}",
                    self.transcript()
                )
            });
        }
    }

    pub fn begin(&mut self) -> (usize, usize) {
        self.send("BEGIN");
        self.read_move()
    }

    pub fn turn(&mut self, x: usize, y: usize) -> (usize, usize) {
        self.send(&format!("TURN {x},{y}"));
        self.read_move()
    }

    /// `BOARD`, a line `x,y,f` per stone (1 the brain's own, 2 the
    /// opponent's, 3 a stone of a finished line), `DONE`; then the move.
    pub fn board(&mut self, stones: &[(usize, usize, u8)]) -> (usize, usize) {
        self.send("BOARD");
        for (x, y, f) in stones {
            self.send(&format!("{x},{y},{f}"));
        }
        self.send("DONE");
        self.read_move()
    }

    /// `Tplayer::stopAI`: `END`, then the pipe is closed.
    pub fn end(&mut self) {
        self.send("END");
    }
}
