//! Piskvork transcripts through the real `pbrain-ply` binary.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, PATIENCE};
use ply::game::gomoku::{Gomoku, Rule};
use ply::game::{Game, Outcome, Player, Settings};

/// How long a move may take in these tests when a limit far below the
/// default turn (30 s, which a brain that ignored the limit would think
/// for about half of) is set. An order of magnitude above every budget
/// set here, so that a loaded machine never fails a test, while an
/// ignored limit does. The budgets themselves are unit-tested exactly
/// (`search::time`).
const PROMPT: Duration = Duration::from_secs(8);

/// How long `END` may take to end the process: only a guard against a
/// brain that does not exit.
const EXIT: Duration = Duration::from_secs(10);

/// A brain without search MESSAGE lines, so that replies come alone.
fn brain() -> Engine {
    let mut e = Engine::start("pbrain-ply", &[]);
    e.send("INFO message 0");
    e
}

fn is_move(line: &str, size: usize) -> Option<(usize, usize)> {
    let (x, y) = line.split_once(',')?;
    let (x, y): (usize, usize) = (x.parse().ok()?, y.parse().ok()?);
    (x < size && y < size).then_some((x, y))
}

/// The next line that is not a `MESSAGE`, which must be a move on a
/// board of `size`.
fn expect_move(e: &mut Engine, size: usize) -> (usize, usize) {
    let mut line = e.next_line(PATIENCE).expect("a move");
    while line.starts_with("MESSAGE ") {
        line = e.next_line(PATIENCE).expect("a move");
    }
    is_move(&line, size)
        .unwrap_or_else(|| panic!("'{line}' is not a move; transcript {:#?}", e.transcript))
}

#[test]
fn the_judge_sends_everything_at_once_and_board_comes_first() {
    // Search MESSAGE lines on, as by default.
    let mut e = Engine::start("pbrain-ply", &[]);
    // Gomocup's judge: START, all INFO keys and the first BOARD without
    // waiting for OK.
    let start = Instant::now();
    for line in [
        "START 20",
        "INFO timeout_match 180000",
        "INFO timeout_turn 1000",
        "INFO time_left 180000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO folder /tmp",
        "BOARD",
        "10,10,2",
        "DONE",
    ] {
        e.send(line);
    }
    assert_eq!(e.next_line(PATIENCE).unwrap(), "OK");
    let (x, y) = expect_move(&mut e, 20);
    assert!(start.elapsed() < PROMPT, "took {:?}", start.elapsed());
    assert_ne!((x, y), (10, 10));
    e.send(&format!("INFO time_left {}", 179_000));
    // The opponent's reply: a cell beside the first stone that is free.
    let reply = [(11, 11), (9, 9)]
        .into_iter()
        .find(|&cell| cell != (x, y))
        .unwrap();
    e.send(&format!("TURN {},{}", reply.0, reply.1));
    let (x2, y2) = expect_move(&mut e, 20);
    assert!(![(10, 10), reply, (x, y)].contains(&(x2, y2)));
    e.send("END");
    assert!(e.wait_exit(EXIT).is_some(), "END exits");
    assert_eq!(e.stderr(), "", "nothing on stderr");
    assert!(
        e.transcript
            .iter()
            .all(|l| l == "OK" || is_move(l, 20).is_some() || l.starts_with("MESSAGE depth ")),
        "only protocol lines: {:#?}",
        e.transcript
    );
    assert!(
        e.count("MESSAGE depth ") >= 2,
        "an iteration line per search: {:#?}",
        e.transcript
    );
}

#[test]
fn every_command_answers_in_its_own_form() {
    let mut e = brain();
    let about = e.ask("ABOUT");
    assert!(about.starts_with("name=\"Ply\", version=\""), "{about}");
    assert!(about.contains("author=\"") && about.contains("country=\""));
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 200");
    e.send("BEGIN");
    let first = expect_move(&mut e, 15);
    assert_eq!(first, (7, 7), "the first stone goes in the centre");
    e.send("TURN 8,8");
    let second = expect_move(&mut e, 15);
    assert_eq!(e.ask(&format!("TAKEBACK {},{}", second.0, second.1)), "OK");
    assert_eq!(e.ask("TAKEBACK 8,8"), "OK");
    assert!(e.ask("TAKEBACK 3,3").starts_with("ERROR"));
    // PLAY imposes the brain's own move.
    assert_eq!(e.ask("PLAY 3,4"), "3,4");
    assert_eq!(e.ask("RESTART"), "OK");
    e.send("BEGIN");
    assert_eq!(expect_move(&mut e, 15), (7, 7), "RESTART cleared the board");
    assert_eq!(e.ask("RECTSTART 20,12"), "OK");
    e.send("TURN 19,11");
    let (x, y) = expect_move(&mut e, 20);
    assert!(y < 12, "inside the 20x12 board: {x},{y}");
    assert!(e.ask("START 4").starts_with("ERROR"));
    assert!(e.ask("START 40").starts_with("ERROR"));
    assert!(e.ask("RECTSTART 10").starts_with("ERROR"));
    assert_eq!(
        e.ask("START 15"),
        "OK",
        "a failed START leaves the brain usable"
    );
    assert_eq!(e.ask("FOO 1"), "UNKNOWN FOO");
    e.send("YXHASHCLEAR");
    // YXBOARD sets a position without a move; YXNBEST plays the best of n.
    e.send("YXBOARD");
    for stone in [
        "7,7,1", "8,7,1", "9,7,1", "10,7,1", "7,8,2", "8,8,2", "9,8,2",
    ] {
        e.send(stone);
    }
    e.send("DONE");
    e.send("YXNBEST 2");
    let lines = e.read_until("");
    assert!(lines[0].starts_with("MESSAGE 1. "), "{lines:?}");
    let second = e.next_line(PATIENCE).unwrap();
    assert!(second.starts_with("MESSAGE 2. "), "{second}");
    let best = expect_move(&mut e, 15);
    assert!(
        [(6, 7), (11, 7)].contains(&best),
        "either end wins: {best:?}"
    );
    e.send("END");
    assert!(e.wait_exit(EXIT).is_some());
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let mut e = brain();
    assert!(
        e.ask("TURN 7,7").starts_with("ERROR"),
        "a move before START"
    );
    assert!(e.ask("BEGIN").starts_with("ERROR"));
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 100");
    for bad in ["TURN 99,99", "TURN a,b", "TURN 7", "TURN -1,3"] {
        let reply = e.ask(bad);
        assert!(reply.starts_with("ERROR"), "'{bad}' gave '{reply}'");
    }
    // INFO gets no reply: what is wrong with one comes as a MESSAGE, which
    // managers read past, not as an ERROR taken for the next reply.
    for bad in ["INFO timeout_turn soon", "INFO rule 99"] {
        let reply = e.ask(bad);
        assert!(
            reply.starts_with("MESSAGE error:"),
            "'{bad}' gave '{reply}'"
        );
    }
    e.send("TURN 7,7");
    let own = expect_move(&mut e, 15);
    for taken in ["TURN 7,7".to_string(), format!("TURN {},{}", own.0, own.1)] {
        let reply = e.ask(&taken);
        assert!(
            reply.starts_with("ERROR") && reply.contains("occupied"),
            "{reply}"
        );
    }
    // A bad BOARD leaves the previous position.
    e.send("BOARD");
    e.send("1,1,1");
    e.send("x,y,z");
    e.send("DONE");
    assert!(e.next_line(PATIENCE).unwrap().starts_with("ERROR"));
    e.send("BOARD");
    e.send("20,1,1");
    e.send("DONE");
    assert!(e.next_line(PATIENCE).unwrap().starts_with("ERROR"));
    // The game goes on from where it was: 7,7 and our stone are taken.
    e.send("TURN 0,0");
    let next = expect_move(&mut e, 15);
    assert!(![(7, 7), own, (0, 0)].contains(&next));
    e.send("END");
    assert!(e.wait_exit(EXIT).unwrap().success());
    assert_eq!(e.stderr(), "");
}

#[test]
fn yxstop_moves_now() {
    let mut e = brain();
    assert_eq!(e.ask("START 15"), "OK");
    // Ten minutes a turn: without YXSTOP the brain would think for
    // minutes. How quickly it stops is measured by scripts/stop_latency.py.
    e.send("INFO timeout_turn 600000");
    e.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("YXSTOP");
    expect_move(&mut e, 15);
    assert!(
        start.elapsed() < PROMPT,
        "YXSTOP took {:?}",
        start.elapsed()
    );
}

#[test]
fn renju_forbidden_points_are_shown_and_never_played() {
    let mut e = brain();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO rule 4");
    e.send("INFO timeout_turn 300");
    // Brain is black (four stones each): 9,7 would be a double three.
    e.send("YXBOARD");
    for stone in [
        "7,7,1", "8,7,1", "9,8,1", "9,9,1", "1,1,2", "2,2,2", "3,1,2", "14,1,2",
    ] {
        e.send(stone);
    }
    e.send("DONE");
    assert_eq!(e.ask("YXSHOWFORBID"), "FORBID 0907.");
    e.send("INFO rule 0");
    assert_eq!(
        e.ask("YXSHOWFORBID"),
        "FORBID .",
        "no forbidden points in freestyle"
    );
}

#[test]
fn swap2_answers_in_the_forms_the_protocol_allows() {
    let mut e = brain();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 400");
    e.send("SWAP2BOARD");
    e.send("DONE");
    let opening = e.next_line(PATIENCE).unwrap();
    let stones: Vec<&str> = opening.split(' ').collect();
    assert_eq!(stones.len(), 3, "{opening}");
    assert!(stones.iter().all(|s| is_move(s, 15).is_some()), "{opening}");
    for placed in [
        vec!["7,7", "8,8", "9,7"],
        vec!["7,7", "8,8", "9,7", "6,6", "9,9"],
    ] {
        e.send("SWAP2BOARD");
        for s in &placed {
            e.send(s);
        }
        e.send("DONE");
        let answer = e.next_line(PATIENCE).unwrap();
        assert!(
            answer == "SWAP"
                || is_move(&answer, 15)
                    .is_some_and(|m| !placed.contains(&format!("{},{}", m.0, m.1).as_str())),
            "{answer}"
        );
    }
}

#[test]
fn time_limits_are_kept() {
    let mut e = brain();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 1000");
    e.send("INFO timeout_match 100000");
    // A busy middle game.
    e.send("BOARD");
    for (i, (x, y)) in [
        (7, 7),
        (8, 8),
        (8, 7),
        (6, 7),
        (9, 6),
        (10, 5),
        (7, 9),
        (6, 8),
        (9, 8),
        (9, 7),
        (5, 9),
        (8, 6),
    ]
    .iter()
    .enumerate()
    {
        e.send(&format!("{x},{y},{}", if i % 2 == 0 { 2 } else { 1 }));
    }
    e.send("DONE");
    let start = Instant::now();
    expect_move(&mut e, 15);
    assert!(
        start.elapsed() < PROMPT,
        "turn limit: {:?}",
        start.elapsed()
    );
    // Little match time left under a generous turn limit: move quickly.
    e.send("INFO timeout_turn 30000");
    e.send("INFO time_left 3000");
    let start = Instant::now();
    e.send("TURN 0,0");
    expect_move(&mut e, 15);
    assert!(start.elapsed() < PROMPT, "time_left: {:?}", start.elapsed());
    // A turn limit of 0 under a long turn and match: move at once.
    e.send("INFO time_left 1000000");
    e.send("INFO timeout_turn 0");
    let start = Instant::now();
    e.send("TURN 0,1");
    expect_move(&mut e, 15);
    assert!(
        start.elapsed() < PROMPT,
        "timeout_turn 0: {:?}",
        start.elapsed()
    );
}

#[test]
fn the_second_player_thinks_on_its_first_move() {
    // Managers send START and the INFO lines to both brains at once; the
    // second player's first request comes after the opponent's move. Its
    // clock runs from that request, not from START: the brain thinks
    // (it spends its turn whole on a quiet position) rather than answering
    // at once, as it did when the clock ran from START.
    let mut e = brain();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 1000");
    e.send("INFO timeout_match 0");
    e.send("INFO max_memory 367001600");
    std::thread::sleep(Duration::from_millis(1500));
    let start = Instant::now();
    for line in ["BOARD", "7,7,2", "8,8,1", "DONE"] {
        e.send(line);
    }
    expect_move(&mut e, 15);
    let took = start.elapsed();
    assert!(
        (Duration::from_millis(400)..PROMPT).contains(&took),
        "the first move took {took:?} of a 1000 ms turn"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn memory_stays_within_max_memory() {
    let mut e = brain();
    e.send("START 20");
    e.send("INFO max_memory 367001600");
    e.send("INFO rule 1");
    e.send("INFO timeout_turn 1500");
    e.send("BEGIN");
    assert_eq!(e.next_line(PATIENCE).unwrap(), "OK");
    expect_move(&mut e, 20);
    e.send("TURN 9,9");
    expect_move(&mut e, 20);
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).unwrap();
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    // The table takes a quarter of max_memory; half leaves room for the
    // rest and catches a table allocated twice.
    assert!(
        peak_kb * 1024 < 367_001_600 / 2,
        "peak {} MB",
        peak_kb / 1024
    );
}

/// One game of pbrain-ply against itself, refereed with Ply's own rules.
fn self_play(rule: Rule, gomocup_rule: u32, size: usize) -> Option<Outcome> {
    let mut brains = [brain(), brain()];
    for b in &mut brains {
        assert_eq!(b.ask(&format!("START {size}")), "OK");
        b.send("INFO timeout_turn 40");
        b.send(&format!("INFO rule {gomocup_rule}"));
    }
    let settings = Settings {
        size: Some((size, size)),
        rule: Some(rule.name().to_string()),
    };
    let mut referee = Gomoku::start(&settings).unwrap();
    brains[0].send("BEGIN");
    let mut to_move = 0;
    loop {
        let (x, y) = expect_move(&mut brains[to_move], size);
        let cell = referee.index(y, x) as u16;
        let mut legal = Vec::new();
        referee.generate_moves(&mut legal);
        assert!(
            legal.contains(&cell),
            "{rule}: illegal {x},{y} in {}",
            referee.to_fen()
        );
        referee.make_move(cell);
        if let Some(outcome) = referee.outcome() {
            for b in &mut brains {
                b.send("END");
            }
            return Some(outcome);
        }
        to_move = 1 - to_move;
        brains[to_move].send(&format!("TURN {x},{y}"));
    }
}

#[test]
fn self_play_ends_legally_in_every_rule() {
    for (rule, mask) in [
        (Rule::Freestyle, 0),
        (Rule::Standard, 1),
        (Rule::Renju, 4),
        (Rule::Caro, 9),
        (Rule::CaroOverline, 8),
    ] {
        let outcome = self_play(rule, mask, 10).expect("a result");
        if let Outcome::Win(p) = outcome {
            assert!([Player::P1, Player::P2].contains(&p));
        }
    }
}

#[test]
fn a_threat_space_win_is_announced_and_played_out() {
    // Search MESSAGE lines on. The brain (black, stones 1) has open twos
    // on row 7 and column 7 meeting on 7,7: a double three, which wins.
    let mut e = Engine::start("pbrain-ply", &[]);
    assert_eq!(e.ask("START 15"), "OK");
    e.send("INFO timeout_turn 1000");
    e.send("BOARD");
    for stone in [
        "5,7,1", "6,7,1", "7,5,1", "7,6,1", "0,0,2", "14,0,2", "0,14,2", "14,14,2",
    ] {
        e.send(stone);
    }
    e.send("DONE");
    let settings = Settings {
        size: Some((15, 15)),
        rule: None,
    };
    let mut referee = Gomoku::from_fen(
        "o13o/15/15/15/15/7x7/7x7/5xx8/15/15/15/15/15/15/o13o x",
        &settings,
    )
    .unwrap();
    let mut announced = None;
    for turn in 0..4 {
        let mut line = e.next_line(PATIENCE).expect("a reply");
        while let Some(message) = line.strip_prefix("MESSAGE ") {
            if let Some(n) = message
                .split_once("win in ")
                .and_then(|(_, rest)| rest.split_whitespace().next()?.parse::<u32>().ok())
            {
                announced.get_or_insert(n);
            }
            line = e.next_line(PATIENCE).expect("a reply");
        }
        let (x, y) = is_move(&line, 15).unwrap_or_else(|| panic!("'{line}' is not a move"));
        let n = announced.expect("the win is announced before the first move");
        assert!(turn < n as usize, "won later than announced ({n} moves)");
        referee.make_move(referee.index(y, x) as u16);
        if let Some(outcome) = referee.outcome() {
            assert_eq!(outcome, Outcome::Win(Player::P1));
            return;
        }
        // White answers with its best-ordered defence.
        let mut replies = Vec::new();
        referee.search_moves(&mut replies);
        let reply = *replies
            .iter()
            .max_by_key(|&&mv| referee.move_score(mv))
            .unwrap();
        let (row, col) = referee.coords(reply as usize);
        referee.make_move(reply);
        e.send(&format!("TURN {col},{row}"));
    }
    panic!("no five: {:#?}", e.transcript);
}
