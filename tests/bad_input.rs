//! Every class of bad input in protocol.md's "Bad input" table, through
//! the real binaries: each gets its answer in the protocol's own form,
//! leaves the state as it was, and never crashes.

mod common;

use std::time::Duration;

use common::{Engine, PATIENCE};

/// The classes protocol.md's table lists, each tested below.
const CLASSES: &[&str] = &[
    "unknown command",
    "missing argument",
    "non-numeric argument",
    "negative number",
    "huge number",
    "absurd Hash",
    "move off the board",
    "occupied square",
    "move illegal by the rules",
    "malformed position",
    "line of a megabyte",
    "invalid UTF-8",
    "CR LF endings",
    "empty lines",
    "command before the handshake",
    "end of input",
];

#[test]
fn protocol_md_lists_exactly_the_tested_classes() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md")).unwrap();
    let section = doc
        .split("## Bad input")
        .nth(1)
        .expect("protocol.md has a Bad input section");
    let listed: Vec<String> = section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("| ") && !l.starts_with("| input") && !l.starts_with("|---"))
        .map(|l| l.split('|').nth(1).unwrap().trim().to_string())
        .collect();
    assert_eq!(listed, CLASSES, "protocol.md rows vs tested classes");
}

fn connect4() -> Engine {
    let mut e = Engine::ply(&["--game", "connect4"]);
    e.send("position startpos moves 4 4");
    e
}

/// `input` gets one `info string error` line containing `reason`, and the
/// position is still the one after `4 4`.
fn ugi_error(e: &mut Engine, input: &str, reason: &str) {
    let reply = e.ask(input);
    assert!(
        reply.starts_with("info string error") && reply.contains(reason),
        "'{input}' gave '{reply}', expected an error with '{reason}'"
    );
    ugi_position_kept(e);
}

fn ugi_position_kept(e: &mut Engine) {
    e.send("d");
    let fen = e.read_until("info string fen");
    assert_eq!(
        fen.last().unwrap(),
        "info string fen 7/7/7/7/3o3/3x3 x",
        "position kept"
    );
}

fn brain() -> Engine {
    let mut e = Engine::start("pbrain-ply", &[]);
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 100");
    e.send("BOARD");
    e.send("7,7,2");
    e.send("8,8,1");
    e.send("DONE");
    let mut mv = e.next_line(PATIENCE).unwrap();
    while mv.starts_with("MESSAGE ") {
        mv = e.next_line(PATIENCE).unwrap();
    }
    assert!(mv.contains(','), "{mv}");
    e.send(&format!("TAKEBACK {mv}"));
    assert_eq!(e.next_line(PATIENCE).unwrap(), "OK");
    e
}

/// `input` gets one line starting with `prefix` and containing `reason`;
/// the board still holds exactly 7,7 (theirs) and 8,8 (ours).
fn piskvork_error(e: &mut Engine, input: &str, prefix: &str, reason: &str) {
    let reply = e.ask(input);
    assert!(
        reply.starts_with(prefix) && reply.contains(reason),
        "'{input}' gave '{reply}', expected '{prefix}' with '{reason}'"
    );
    piskvork_board_kept(e);
}

fn piskvork_board_kept(e: &mut Engine) {
    for taken in ["7,7", "8,8"] {
        let reply = e.ask(&format!("TAKEBACK {taken}"));
        assert_eq!(reply, "OK", "{taken} still on the board");
    }
    e.send("YXBOARD");
    e.send("7,7,2");
    e.send("8,8,1");
    e.send("DONE");
}

fn finish(mut e: Engine) {
    e.close_stdin();
    let status = e.wait_exit(PATIENCE).expect("exits at end of input");
    assert!(status.success(), "{status:?}");
    assert_eq!(e.stderr(), "", "nothing on stderr");
}

#[test]
fn unknown_command() {
    let mut e = connect4();
    ugi_error(&mut e, "fly away", "unknown command 'fly'");
    finish(e);
    let mut b = brain();
    piskvork_error(&mut b, "FLY away", "UNKNOWN", "FLY");
    finish(b);
}

#[test]
fn missing_argument() {
    let mut e = connect4();
    for (input, reason) in [
        ("position", "usage: position"),
        ("position fen", "usage: position"),
        ("setoption name", "without an option name"),
        ("setoption name Hash", "option Hash"),
        ("go movetime", "needs a value"),
    ] {
        ugi_error(&mut e, input, reason);
    }
    finish(e);
    let mut b = brain();
    for (input, reason) in [
        ("TURN", "expected x,y"),
        ("TURN 1,", "expected x,y"),
        ("TAKEBACK", "needs x,y"),
        ("YXNBEST", "needs a count"),
    ] {
        piskvork_error(&mut b, input, "ERROR", reason);
    }
    finish(b);
}

#[test]
fn non_numeric_argument() {
    let mut e = connect4();
    ugi_error(&mut e, "go depth soon", "integer");
    ugi_error(
        &mut e,
        "setoption name MoveOverhead value lots",
        "option MoveOverhead",
    );
    finish(e);
    let mut b = brain();
    // INFO gets no reply: a MESSAGE, which managers read past.
    piskvork_error(
        &mut b,
        "INFO timeout_turn soon",
        "MESSAGE error:",
        "needs a number",
    );
    piskvork_error(&mut b, "TURN a,b", "ERROR", "expected x,y");
    finish(b);
}

#[test]
fn negative_number() {
    // A negative time or depth is the least there is: the engine still
    // answers, once, with a legal move.
    let mut e = connect4();
    for go in [
        "go movetime -5",
        "go depth -3",
        "go p1time -100 p2time -100",
    ] {
        e.send(go);
        let best = e.read_until("bestmove");
        let mv = common::best_move(best.last().unwrap());
        assert!(("1"..="7").contains(&mv), "{go}: {mv}");
    }
    ugi_error(&mut e, "setoption name Hash value -5", "option Hash");
    ugi_position_kept(&mut e);
    finish(e);
    let mut b = brain();
    piskvork_error(&mut b, "START -5", "ERROR", "board size");
    piskvork_error(&mut b, "TURN -1,3", "ERROR", "expected x,y");
    // A negative time limit means "move at once".
    b.send("INFO timeout_turn -5");
    b.send("TURN 0,0");
    let reply = b.next_line(PATIENCE).unwrap();
    assert!(reply.contains(','), "{reply}");
    finish(b);
}

#[test]
fn huge_number() {
    let mut e = connect4();
    ugi_error(&mut e, "go wtime 99999999999999999999", "integer");
    ugi_error(
        &mut e,
        "setoption name BoardSize value 1000",
        "option BoardSize",
    );
    finish(e);
    let mut b = brain();
    piskvork_error(
        &mut b,
        "TURN 4294967296,1",
        "ERROR",
        "outside the 15x15 board",
    );
    piskvork_error(&mut b, "START 1000000", "ERROR", "unsupported board size");
    finish(b);
}

#[test]
fn absurd_hash() {
    let mut e = connect4();
    let reply = e.ask("setoption name Hash value 99999999999999999999");
    assert!(
        reply.starts_with("info string Hash") && reply.contains("using"),
        "{reply}"
    );
    e.send("go depth 4");
    e.read_until("bestmove");
    ugi_position_kept(&mut e);
    finish(e);
    let mut b = brain();
    // max_memory is the whole process's: any value is honoured as well as
    // it can be, so an absurd one is no error.
    b.send("INFO max_memory 999999999999999999");
    b.send("INFO hash_size 999999999999999999");
    piskvork_board_kept(&mut b);
    b.send("TURN 0,0");
    assert!(b.next_line(PATIENCE).unwrap().contains(','));
    finish(b);
}

#[test]
fn move_off_the_board() {
    let mut e = connect4();
    ugi_error(&mut e, "position startpos moves 4 9", "illegal move '9'");
    ugi_error(
        &mut e,
        "position startpos moves 4 4 z99",
        "illegal move 'z99'",
    );
    finish(e);
    let mut b = brain();
    piskvork_error(&mut b, "TURN 99,99", "ERROR", "outside");
    piskvork_error(&mut b, "PLAY 15,0", "ERROR", "outside");
    finish(b);
}

#[test]
fn occupied_square() {
    let mut e = Engine::ply(&[]);
    e.send("position startpos moves h8");
    let reply = e.ask("position startpos moves h8 h8");
    assert!(reply.contains("illegal move 'h8'"), "{reply}");
    assert_eq!(e.ask("query p1turn"), "response false", "h8 kept");
    finish(e);
    let mut b = brain();
    piskvork_error(&mut b, "TURN 7,7", "ERROR", "occupied");
    piskvork_error(&mut b, "TURN 8,8", "ERROR", "occupied");
    finish(b);
}

#[test]
fn move_illegal_by_the_rules() {
    let mut e = connect4();
    ugi_error(
        &mut e,
        "position startpos moves 1 1 1 1 1 1 1",
        "illegal move '1'",
    );
    finish(e);
    // Renju: h8 would give black six in a row, an overline: forbidden.
    let mut r = Engine::ply(&["--rule", "renju"]);
    let fen = "15/15/15/15/15/15/15/4xxx1xx5/15/15/15/15/15/15/15 x";
    let reply = r.ask(&format!("position fen {fen} moves h8"));
    assert!(reply.contains("illegal move 'h8'"), "{reply}");
    finish(r);
}

#[test]
fn malformed_position() {
    let mut e = connect4();
    for (input, reason) in [
        ("position fen 7/7 x", "expected 6 rows"),
        ("position fen 7/7/7/7/7/3q3 x", "bad character 'q'"),
        ("position fen 7/7/7/7/7/8 x", "cells"),
        ("position fen 7/7/7/7/7/7 z", "side to move"),
        ("position fen 7/7/7/7/7/3x3 x", "bad position"),
    ] {
        ugi_error(&mut e, input, reason);
    }
    finish(e);
    let mut b = brain();
    b.send("BOARD");
    b.send("1,1,1");
    b.send("x,y,z");
    b.send("DONE");
    let reply = b.next_line(PATIENCE).unwrap();
    assert!(
        reply.starts_with("ERROR") && reply.contains("bad line"),
        "{reply}"
    );
    piskvork_board_kept(&mut b);
    b.send("BOARD");
    b.send("1,1,7");
    b.send("DONE");
    let reply = b.next_line(PATIENCE).unwrap();
    assert!(
        reply.starts_with("ERROR") && reply.contains("field"),
        "{reply}"
    );
    piskvork_board_kept(&mut b);
    finish(b);
}

#[test]
fn line_of_a_megabyte() {
    let mut e = connect4();
    let long = format!("position startpos moves {}", "4 ".repeat(500_000));
    ugi_error(&mut e, &long, "illegal move '4'");
    let junk = "x".repeat(1 << 20);
    ugi_error(&mut e, &junk, "unknown command");
    finish(e);
    let mut b = brain();
    piskvork_error(
        &mut b,
        &format!("TURN {},1", "7".repeat(1 << 20)),
        "ERROR",
        "x,y",
    );
    finish(b);
}

#[test]
fn invalid_utf8() {
    let mut e = connect4();
    e.send_bytes(b"\xff\xfe go \xc3\x28\n");
    let reply = e.next_line(PATIENCE).unwrap();
    assert!(
        reply.starts_with("info string error unknown command"),
        "{reply}"
    );
    ugi_position_kept(&mut e);
    finish(e);
    let mut b = brain();
    b.send_bytes(b"\xffTURN 1,1\n");
    let reply = b.next_line(PATIENCE).unwrap();
    assert!(reply.starts_with("UNKNOWN"), "{reply}");
    piskvork_board_kept(&mut b);
    finish(b);
}

#[test]
fn cr_lf_endings() {
    let mut e = connect4();
    e.send_bytes(b"position startpos moves 4 4 3\r\nquery p1turn\r\n");
    assert_eq!(e.next_line(PATIENCE).unwrap(), "response false");
    finish(e);
    let mut b = brain();
    b.send_bytes(b"TURN 0,0\r\n");
    let reply = b.next_line(PATIENCE).unwrap();
    assert!(reply.contains(',') && !reply.contains('\r'), "{reply:?}");
    finish(b);
}

#[test]
fn empty_lines() {
    let mut e = connect4();
    e.send("");
    e.send("   ");
    e.send("\t");
    assert_eq!(e.ask("isready"), "readyok", "no answer to blank lines");
    finish(e);
    let mut b = brain();
    b.send("");
    b.send("   ");
    assert!(
        b.ask("ABOUT").starts_with("name="),
        "no answer to blank lines"
    );
    finish(b);
}

#[test]
fn command_before_the_handshake() {
    // UGI's handshake is optional: commands work before `ugi`.
    let mut e = Engine::ply(&["--game", "connect4"]);
    e.send("position startpos moves 4");
    assert_eq!(e.ask("query p1turn"), "response false");
    assert_eq!(e.ask("isready"), "readyok");
    finish(e);
    let mut b = Engine::start("pbrain-ply", &[]);
    for command in ["BEGIN", "TURN 7,7", "TAKEBACK 7,7", "YXNBEST 2"] {
        let reply = b.ask(command);
        assert!(
            reply.starts_with("ERROR") && reply.contains("before START"),
            "{reply}"
        );
    }
    assert_eq!(b.ask("START 15"), "OK");
    finish(b);
}

#[test]
fn end_of_input() {
    // A bounded search finishes and answers; then the engine exits 0.
    let mut e = connect4();
    e.send("go movetime 200");
    e.close_stdin();
    let best = e.read_until("bestmove");
    assert_eq!(e.count("bestmove"), 1, "{best:?}");
    assert!(e.wait_exit(PATIENCE).unwrap().success());
    // An infinite one is stopped and answers.
    let mut e = connect4();
    e.send("go infinite");
    e.close_stdin();
    e.read_until("bestmove");
    assert!(e.wait_exit(PATIENCE).unwrap().success());
    // The brain exits 0 mid-search too.
    let mut b = brain();
    b.send("INFO timeout_turn 5000");
    b.send("TURN 0,0");
    std::thread::sleep(Duration::from_millis(50));
    b.close_stdin();
    assert!(b.wait_exit(PATIENCE).unwrap().success());
}
