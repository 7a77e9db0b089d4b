//! Piskvork transcripts, command by command, through [`run`] in-process:
//! the test feeds lines one at a time and reads the brain's lines back.
//! Where the brain searches, the positions leave it one sound move (a win
//! or the only block), so that the expected line is exact.

use std::io::{self, BufReader, Read, Write};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender, unbounded};

use super::run;
use crate::game::gomoku::openings::swap2_openings;
use crate::game::gomoku::square_to_xy;
use crate::protocol::writer::Writer;

/// Only a guard against a hang: every reply is expected at once.
const PATIENCE: Duration = Duration::from_secs(60);

/// The brain's input, fed by the test one line at a time.
struct Feed {
    lines: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(line) => self.pending = format!("{line}\n").into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// The brain's output, cut into lines for the test.
struct Capture {
    lines: Sender<String>,
    partial: Vec<u8>,
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.partial).into_owned();
                self.partial.clear();
                let _ = self.lines.send(line);
            } else {
                self.partial.push(b);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Brain {
    input: Option<Sender<String>>,
    output: Receiver<String>,
    thread: Option<JoinHandle<()>>,
}

impl Brain {
    fn start() -> Brain {
        let (input, lines) = unbounded();
        let (sink, output) = unbounded();
        let feed = Feed {
            lines,
            pending: Vec::new(),
        };
        let capture = Capture {
            lines: sink,
            partial: Vec::new(),
        };
        let thread = std::thread::spawn(move || {
            run(BufReader::new(feed), Writer::new(Box::new(capture))).unwrap();
        });
        let brain = Brain {
            input: Some(input),
            output,
            thread: Some(thread),
        };
        // Exact transcripts: no search MESSAGE lines (tested on their own).
        brain.send("INFO message 0");
        brain
    }

    fn send(&self, line: &str) {
        if let Some(input) = &self.input {
            let _ = input.send(line.to_string());
        }
    }

    fn next(&self) -> String {
        self.output
            .recv_timeout(PATIENCE)
            .expect("the brain answers")
    }

    fn ask(&self, line: &str) -> String {
        self.send(line);
        self.next()
    }

    /// Sends a BOARD-like block: the command, its lines and DONE.
    fn block(&self, command: &str, lines: &[&str]) {
        self.send(command);
        for line in lines {
            self.send(line);
        }
        self.send("DONE");
    }

    /// Sends commands that must print nothing: the next line is ABOUT's.
    fn silent(&self, lines: &[&str]) {
        for line in lines {
            self.send(line);
        }
        assert_eq!(self.ask("ABOUT"), about(), "after {lines:?}");
    }

    /// Ends the input; what the brain printed after the lines read so far.
    fn finish(mut self) -> Vec<String> {
        self.input = None;
        if let Some(thread) = self.thread.take() {
            thread.join().expect("the brain ends cleanly");
        }
        self.output.try_iter().collect()
    }
}

fn about() -> String {
    format!(
        "name=\"Ply\", version=\"{}\", author=\"The Ply developers\", country=\"International\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// A brain on a 15x15 board whose searches stop at depth 2.
fn started() -> Brain {
    let b = Brain::start();
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&["INFO max_depth 2"]);
    b
}

#[test]
fn about_unknown_and_commands_before_start() {
    let b = Brain::start();
    assert_eq!(b.ask("ABOUT"), about());
    assert_eq!(b.ask("FOO 1"), "UNKNOWN FOO");
    assert_eq!(b.ask("foo"), "UNKNOWN foo");
    for command in [
        "TURN 7,7",
        "BEGIN",
        "PLAY 7,7",
        "TAKEBACK 7,7",
        "RESTART",
        "YXNBEST 2",
        "YXSHOWFORBID",
        "YXHASHCLEAR",
    ] {
        let head = command.split(' ').next().unwrap();
        assert_eq!(b.ask(command), format!("ERROR {head} before START"));
    }
    for command in ["BOARD", "YXBOARD", "SWAP2BOARD"] {
        b.block(command, &["7,7,1"]);
        assert_eq!(b.next(), format!("ERROR {command} before START"));
    }
    b.silent(&["", "   ", "YXSTOP", "INFO timeout_turn 1000"]);
    b.send("END");
    b.send("ABOUT");
    assert_eq!(b.finish(), Vec::<String>::new(), "nothing after END");
}

#[test]
fn start_rectstart_and_restart() {
    let b = Brain::start();
    assert_eq!(
        b.ask("START 4"),
        "ERROR unsupported board size 4x4 (sizes 5 to 32)"
    );
    assert_eq!(
        b.ask("START 40"),
        "ERROR unsupported board size 40x40 (sizes 5 to 32)"
    );
    assert_eq!(b.ask("START x"), "ERROR START needs a board size, not 'x'");
    assert_eq!(
        b.ask("RECTSTART 10"),
        "ERROR RECTSTART needs width,height, not '10'"
    );
    assert_eq!(b.ask("BEGIN"), "ERROR BEGIN before START");
    b.silent(&["INFO max_depth 2"]);
    assert_eq!(b.ask("RECTSTART 20,12"), "OK");
    assert_eq!(b.ask("BEGIN"), "10,6", "the centre of 20x12");
    assert_eq!(b.ask("TURN 20,0"), "ERROR 20,0 is outside the 20x12 board");
    assert_eq!(b.ask("start 15"), "OK", "commands in any case");
    assert_eq!(b.ask("BEGIN"), "7,7");
    assert_eq!(b.ask("RESTART"), "OK");
    assert_eq!(b.ask("BEGIN"), "7,7", "RESTART empties the board");
    assert_eq!(b.finish(), Vec::<String>::new());
}

#[test]
fn turn_play_takeback_and_their_errors() {
    let b = started();
    // The opponent's 7,7 8,7 9,7 is blocked at 6,7 by the brain.
    b.block(
        "YXBOARD",
        &["6,7,1", "0,14,1", "2,14,1", "7,7,2", "8,7,2", "9,7,2"],
    );
    assert_eq!(b.ask("TURN 10,7"), "11,7", "the only block");
    assert_eq!(b.ask("TURN 11,7"), "ERROR 11,7 is already occupied");
    assert_eq!(b.ask("TURN 7,7"), "ERROR 7,7 is already occupied");
    assert_eq!(
        b.ask("TURN 99,99"),
        "ERROR 99,99 is outside the 15x15 board"
    );
    assert_eq!(b.ask("TURN a,b"), "ERROR expected x,y, not 'a,b'");
    assert_eq!(b.ask("TURN 7"), "ERROR expected x,y, not '7'");
    assert_eq!(b.ask("TURN -1,3"), "ERROR expected x,y, not '-1,3'");
    assert_eq!(b.ask("BEGIN"), "ERROR BEGIN on a board that is not empty");
    assert_eq!(b.ask("TAKEBACK 11,7"), "OK");
    assert_eq!(b.ask("TAKEBACK 10,7"), "OK");
    assert_eq!(b.ask("TAKEBACK 3,3"), "ERROR TAKEBACK 3,3: no stone there");
    assert_eq!(b.ask("TAKEBACK x"), "ERROR TAKEBACK needs x,y, not 'x'");
    assert_eq!(b.ask("TURN 10,7"), "11,7", "the same position again");
    assert_eq!(b.ask("PLAY 3,4"), "3,4");
    assert_eq!(b.ask("PLAY 3,4"), "ERROR 3,4 is already occupied");
    assert_eq!(b.ask("PLAY 3"), "ERROR expected x,y, not '3'");
    assert_eq!(b.finish(), Vec::<String>::new());
}

/// The brain's open four on row 7 against three white stones.
const OPEN_FOUR: [&str; 8] = [
    "7,7,1", "8,7,1", "9,7,1", "10,7,1", "7,8,2", "8,8,2", "9,8,2", "12,12,2",
];

#[test]
fn board_plays_and_yxboard_only_sets() {
    let b = started();
    let mut lines = OPEN_FOUR.to_vec();
    // Field 3: a stone of a finished line, left out.
    lines.push("6,7,3");
    b.block("BOARD", &lines);
    assert_eq!(b.next(), "6,7", "the first winning end");
    b.block("YXBOARD", &OPEN_FOUR);
    b.silent(&[]);
    assert_eq!(b.ask("TURN 6,7"), "11,7", "YXBOARD made no move");
    for (block, error) in [
        (
            vec!["1,1,1", "x,y,z"],
            "ERROR bad line 'x,y,z' (x,y,field expected)",
        ),
        (
            vec!["20,1,1"],
            "ERROR BOARD: 20,1 is outside the 15x15 board",
        ),
        (vec!["1,1,4"], "ERROR BOARD: field must be 1, 2 or 3, not 4"),
        (vec!["1,1"], "ERROR BOARD: field must be 1, 2 or 3, not 0"),
        (
            vec!["1,1,1", "1,1,2"],
            "ERROR BOARD: 1,1 is already occupied",
        ),
    ] {
        b.block("BOARD", &block);
        assert_eq!(b.next(), error);
    }
    assert_eq!(
        b.ask("TURN 11,7"),
        "ERROR 11,7 is already occupied",
        "a bad BOARD leaves the position"
    );
    b.send("BOARD");
    b.send("1,1,1");
    assert_eq!(b.finish(), ["ERROR end of input before DONE"]);
}

#[test]
fn each_iteration_is_a_message_line_before_the_move() {
    let b = started();
    b.send("INFO message 1");
    b.block("BOARD", &OPEN_FOUR);
    // The side to move (black, with an open four) wins at once; the proof
    // is announced as a win in one move, then the move is played.
    let line = b.next();
    assert!(line.starts_with("MESSAGE depth "), "{line}");
    assert!(line.contains(" win in 1 "), "{line}");
    let pv = line.split(" pv ").nth(1).unwrap_or("");
    assert!(["6,7", "11,7"].contains(&pv), "{line}");
    let mut next = b.next();
    while next.starts_with("MESSAGE depth ") {
        next = b.next();
    }
    assert!(["6,7", "11,7"].contains(&next.as_str()), "{next}");
    // Off again: the next move comes alone.
    b.send("INFO message 0");
    b.send("RESTART");
    assert_eq!(b.next(), "OK");
    assert_eq!(b.ask("BEGIN"), "7,7");
    assert_eq!(b.finish(), Vec::<String>::new());
}

#[test]
fn yxnbest_ranks_moves_and_plays_the_best() {
    let b = started();
    b.block("YXBOARD", &OPEN_FOUR);
    b.send("YXNBEST 2");
    assert_eq!(b.next(), "MESSAGE 1. 6,7 score mate 1");
    assert_eq!(b.next(), "MESSAGE 2. 11,7 score mate 1");
    assert_eq!(b.next(), "6,7");
    assert_eq!(b.ask("TURN 6,7"), "ERROR 6,7 is already occupied");
    for bad in ["0", "x", ""] {
        assert_eq!(
            b.ask(&format!("YXNBEST {bad}")),
            format!("ERROR YXNBEST needs a count, not '{bad}'")
        );
    }
    assert_eq!(b.finish(), Vec::<String>::new());
}

#[test]
fn yxshowforbid_lists_renju_points_only() {
    let b = Brain::start();
    b.silent(&["INFO rule 4", "INFO max_depth 2"]);
    assert_eq!(b.ask("START 15"), "OK");
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
    // Black (four stones each): 9,7 would make two open threes.
    b.block(
        "YXBOARD",
        &[
            "7,7,1", "8,7,1", "9,8,1", "9,9,1", "1,1,2", "2,2,2", "3,1,2", "14,1,2",
        ],
    );
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID 0907.");
    // The same when the brain is white: the points are black's.
    b.block(
        "YXBOARD",
        &[
            "7,7,2", "8,7,2", "9,8,2", "9,9,2", "1,1,1", "2,2,1", "3,1,1",
        ],
    );
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID 0907.");
    b.silent(&["INFO rule 0"]);
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .", "freestyle");
    assert_eq!(
        b.ask("INFO rule 99"),
        "MESSAGE error: INFO rule: unknown rule '99'; ignored"
    );
    assert_eq!(b.finish(), Vec::<String>::new());
}

#[test]
fn info_keys_are_silent_and_bad_numbers_are_messages() {
    let b = Brain::start();
    assert_eq!(b.ask("START 15"), "OK");
    b.silent(&[
        "INFO timeout_turn 600000",
        "INFO timeout_match 0",
        "INFO max_memory 83886080",
        "INFO hash_size 8192",
        "INFO thread_num 2",
        "INFO game_type 1",
        "INFO folder /tmp",
        "INFO evaluate 3,4",
        "info RULE 1",
    ]);
    let numbers = "timeout_turn timeout_match time_left max_depth max_node max_memory hash_size";
    for key in numbers.split(' ') {
        assert_eq!(
            b.ask(&format!("INFO {key} soon")),
            format!("MESSAGE error: INFO {key} needs a number, not 'soon'; ignored")
        );
    }
    // Each limit alone ends a search that the turn limit (ten minutes)
    // would let run on.
    for (limit, turn) in [
        ("INFO max_depth 1", "TURN 7,7"),
        ("INFO max_node 2000", "TURN 0,0"),
        ("INFO time_left 30", "TURN 14,14"),
    ] {
        b.silent(&["INFO max_depth 0", "INFO max_node 0", limit]);
        let reply = b.ask(turn);
        assert!(square_of(&reply).is_some(), "{limit}: {reply}");
    }
    assert_eq!(b.finish(), Vec::<String>::new());
}

fn square_of(line: &str) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

#[test]
fn yxstop_moves_now_and_end_stops_silently() {
    let b = started();
    b.silent(&["INFO max_depth 0", "INFO timeout_turn 600000", "YXSTOP"]);
    b.send("TURN 7,7");
    b.send("YXSTOP");
    let reply = b.next();
    let own = square_of(&reply).unwrap_or_else(|| panic!("a move, not {reply}"));
    assert_ne!(own, (7, 7));
    b.silent(&["YXHASHCLEAR"]);
    assert_eq!(
        b.ask(&format!("TURN {},{}", own.0, own.1)),
        format!("ERROR {},{} is already occupied", own.0, own.1),
        "the stopped search's move was recorded"
    );
    b.send("TURN 0,0");
    b.send("END");
    assert_eq!(b.finish(), Vec::<String>::new(), "no move after END");
}

#[test]
fn swap2board_opens_plays_on_or_swaps() {
    let b = started();
    // A depth limit, not the clock, ends each decision's search, so the
    // verdicts do not depend on how loaded the machine is.
    b.silent(&["INFO timeout_turn 600000", "INFO max_depth 4"]);
    b.block("SWAP2BOARD", &[]);
    let opening = b.next();
    let candidates: Vec<String> = swap2_openings(15, 15)
        .iter()
        .map(|moves| {
            let xy: Vec<String> = moves
                .iter()
                .map(|m| square_to_xy(m, 15).unwrap())
                .map(|(x, y)| format!("{x},{y}"))
                .collect();
            xy.join(" ")
        })
        .collect();
    assert!(candidates.contains(&opening), "{opening} in {candidates:?}");
    // Black's h8 i8 (and j8) against white in the corners: white is worse.
    for lost in [
        vec!["7,7", "0,14", "8,7"],
        vec!["7,7", "0,14", "8,7", "0,0", "9,7"],
    ] {
        b.block("SWAP2BOARD", &lost);
        assert_eq!(b.next(), "SWAP", "{lost:?}");
    }
    // Black in the corners, white in the centre: white plays on.
    for fine in [
        vec!["0,14", "7,7", "14,0"],
        vec!["0,14", "7,7", "0,0", "8,7", "14,14"],
    ] {
        b.block("SWAP2BOARD", &fine);
        let reply = b.next();
        let (x, y) = square_of(&reply).unwrap_or_else(|| panic!("a move, not {reply}"));
        assert!(
            x < 15 && y < 15 && !fine.contains(&reply.as_str()),
            "{reply}"
        );
        assert_eq!(
            b.ask(&format!("TURN {reply}")),
            format!("ERROR {reply} is already occupied"),
            "the brain's move is on the board"
        );
    }
    b.block("SWAP2BOARD", &["7,7", "8,8"]);
    assert_eq!(
        b.next(),
        "ERROR SWAP2BOARD with 2 stones (0, 3 or 5 expected)"
    );
    b.block("SWAP2BOARD", &["15,0"]);
    assert_eq!(b.next(), "ERROR SWAP2BOARD: bad stone 15,0");
    b.block("SWAP2BOARD", &["7,7", "7,7", "8,8"]);
    assert_eq!(b.next(), "ERROR SWAP2BOARD: bad stone 7,7");
    assert_eq!(b.finish(), Vec::<String>::new());
}
