//! The command-line tools through the real binary.

mod common;

use assert_cmd::Command;
use predicates::prelude::*;

fn ply() -> Command {
    Command::cargo_bin("ply").unwrap()
}

/// Stdout of a successful run with `input` on stdin.
fn output(args: &[&str], input: &str) -> String {
    let out = ply()
        .args(args)
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn perft_counts(args: &[&str]) -> Vec<u64> {
    let out = ply()
        .arg("perft")
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(words[0], "perft");
            assert_eq!(words[1], (i + 1).to_string());
            words[2].parse().unwrap()
        })
        .collect()
}

#[test]
fn perft_prints_one_line_per_depth() {
    assert_eq!(
        perft_counts(&["--game", "tictactoe", "--depth", "9"]),
        [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    );
    assert_eq!(
        perft_counts(&["--game", "connect4", "--depth", "8"]),
        [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]
    );
    // From a given position: column 1 is full, six columns remain.
    assert_eq!(
        perft_counts(&[
            "--game",
            "connect4",
            "--fen",
            "o6/x6/o6/x6/o6/x6 x",
            "--depth",
            "2"
        ]),
        [6, 36]
    );
}

#[test]
fn perft_rejects_bad_input_without_panicking() {
    ply()
        .args(["perft", "--game", "chess", "--depth", "2"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("unknown game 'chess'")
                .and(predicate::str::contains("panicked").not()),
        );
    ply()
        .args([
            "perft", "--game", "connect4", "--fen", "nonsense", "--depth", "2",
        ])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("bad position")
                .and(predicate::str::contains("panicked").not()),
        );
}

fn bench_nodes(game: Option<&str>) -> u64 {
    let mut cmd = ply();
    cmd.arg("bench");
    if let Some(g) = game {
        cmd.args(["--game", g]);
    }
    let out = String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap();
    let last = out.lines().last().unwrap().to_string();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(
        (words.len(), words[1], words[3]),
        (4, "nodes", "nps"),
        "last line: {last}"
    );
    words[0].parse().unwrap()
}

#[test]
fn bench_node_count_is_stable() {
    let first = bench_nodes(None);
    assert!(first > 1_000_000, "the bench should search a real tree");
    assert_eq!(first, bench_nodes(None));
    let ttt = bench_nodes(Some("tictactoe"));
    assert!(ttt < first);
    assert_eq!(ttt, bench_nodes(Some("tictactoe")));
}

#[test]
fn play_draws_the_board_hints_on_bad_input_and_finishes() {
    // The person plays X in tic-tac-toe; some of these moves will be taken
    // by the engine by then and get the hint instead.
    let input = "z9\nmoves\nb2\na1\na2\na3\nb1\nb3\nc1\nc2\nc3\n";
    let text = output(&["play", "--game", "tictactoe", "--movetime", "50"], input);
    assert!(
        text.contains("'z9' is not a legal move here. Legal moves: a1 b1 c1 a2 b2 c2 a3 b3 c3"),
        "{text}"
    );
    assert!(
        text.contains("    a b c"),
        "board with file letters: {text}"
    );
    assert!(text.contains("Ply plays "), "{text}");
    assert!(text.contains("depth "), "thinking summarised: {text}");
    // Perfect play from both sides or a blunder by the person: never an
    // engine loss.
    assert!(
        text.contains("drawn") || text.contains("Ply wins this one"),
        "{text}"
    );
    assert!(!text.contains("You win"), "{text}");
}

#[test]
fn play_as_second_player_lets_the_engine_open() {
    let text = output(
        &[
            "play",
            "--game",
            "connect4",
            "--movetime",
            "20",
            "--human",
            "second",
        ],
        "quit\n",
    );
    assert!(
        text.starts_with("Ply plays connect4. You are the second player"),
        "{text}"
    );
    // The engine's move line ("Ply plays 4   (depth ...") comes before the
    // first prompt.
    let engine_move = text.find("   (depth ").expect("the engine moved");
    let prompt = text.find("Your move>").expect("a prompt");
    assert!(engine_move < prompt, "{text}");
}

#[test]
fn solve_checks_pons_scores() {
    ply()
        .args(["solve", "--game", "connect4"])
        .write_stdin(
            "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n",
        )
        .assert()
        .success()
        .stdout(predicate::str::contains("solved 2 positions, 0 mismatches"));
    ply()
        .args(["solve", "--game", "connect4"])
        .write_stdin("7422341735647741166133573473242566 5\n")
        .assert()
        .failure()
        .stdout(predicate::str::contains("MISMATCH"));
    // Other games score in signed plies: X wins at once; O, facing two
    // threats, loses after X's reply.
    ply()
        .args(["solve", "--game", "tictactoe"])
        .write_stdin("a1 a2 b2 c1 1\na1 a2 b2 c1 b3 -2\n")
        .assert()
        .success()
        .stdout(
            predicate::str::contains("a1 a2 b2 c1 1 nodes")
                .and(predicate::str::contains("b3 -2 nodes")),
        );
}

/// The empty board of every size with W + H <= 12, and three of 13, solved
/// from scratch: value and last move as John Tromp's and Christophe
/// Steininger's tables give them (`scripts/c4_sizes.py` prints the rest).
#[test]
fn connect4_boards_of_every_size_are_solved_as_published() {
    // (width, height, winner (0 draw), move on which perfect play ends)
    let published = [
        (4, 4, 0, 16),
        (5, 4, 0, 20),
        (4, 5, 0, 20),
        (6, 4, 2, 24),
        (5, 5, 0, 25),
        (4, 6, 0, 24),
        (7, 4, 0, 28),
        (6, 5, 0, 30),
        (5, 6, 0, 30),
        (4, 7, 0, 28),
        (8, 4, 2, 32),
        (7, 5, 0, 35),
        (6, 6, 2, 36),
        (5, 7, 0, 35),
        (4, 8, 0, 32),
        (9, 4, 2, 36),
        (5, 8, 0, 40),
        (4, 9, 0, 36),
    ];
    for (width, height, winner, last) in published {
        // Pons' score: the winner's stones left when the last one drops.
        let stones_left = (width * height + 2 - last) / 2;
        let score = match winner {
            0 => 0,
            1 => stones_left,
            _ => -stones_left,
        };
        ply()
            .args(["solve", "--game", "connect4", "--hash", "64"])
            .args(["--size", &format!("{width}x{height}")])
            .write_stdin(format!("start {score}\n"))
            .assert()
            .success()
            .stdout(predicate::str::contains("solved 1 positions, 0 mismatches"));
    }
    // Columns past 9 are written with commas: X wins in column 10 at once.
    ply()
        .args(["solve", "--game", "connect4", "--size", "10x4"])
        .write_stdin("10,1,10,1,10,1 17\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("10,1,10,1,10,1 17 nodes"));
    // Sizes the bit sets cannot hold are refused.
    ply()
        .args(["solve", "--game", "connect4", "--size", "26x4"])
        .write_stdin("start\n")
        .assert()
        .failure()
        .stderr(predicate::str::contains("at most 128"));
}

/// Helper threads solve on the main solver's table in their own move
/// orders: the scores stay exact. Proof numbers keep one thread.
#[test]
fn solve_with_helper_threads_stays_exact() {
    ply()
        .args([
            "solve",
            "--game",
            "connect4",
            "--threads",
            "2",
            "--hash",
            "32",
        ])
        .write_stdin("32751571231557 -3\n335662333565 -2\n2416615552 4\n157564142155 -5\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("solved 4 positions, 0 mismatches"));
    ply()
        .args(["solve", "--game", "connect4", "--threads", "2", "--weak"])
        .write_stdin("274552224131661 0\n5455174361263362 -1\n2531276566711153 1\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("solved 3 positions, 0 mismatches"));
    ply()
        .args(["solve", "--game", "connect4", "--threads", "2", "--pns"])
        .write_stdin("start\n")
        .assert()
        .failure()
        .stderr(predicate::str::contains("one thread"));
}

#[test]
fn flags_a_command_cannot_honour_are_refused() {
    for args in [
        &["piskvork", "--game", "connect4"][..],
        &["piskvork", "--size", "9"],
        &["piskvork", "--hash", "1"],
        &["bench", "--size", "9"],
        &["bench", "--rule", "renju"],
        &["perft", "--depth", "1", "--hash", "4"],
        &[
            "match",
            "--hash",
            "4",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=greedy",
            "--games",
            "2",
            "--depth",
            "1",
        ],
    ] {
        let flag = args
            .iter()
            .find(|a| a.starts_with("--") && ["--game", "--size", "--rule", "--hash"].contains(a))
            .unwrap();
        ply()
            .args(args)
            .write_stdin("")
            .assert()
            .failure()
            .stdout("")
            .stderr(predicate::str::contains(format!("does not take {flag}")));
    }
    // Honoured flags still work.
    ply()
        .args([
            "perft", "--game", "gomoku", "--size", "7", "--rule", "renju", "--depth", "1",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("perft 1 49 "));
}

#[test]
fn bench_names_an_unknown_game() {
    ply()
        .args(["bench", "--game", "chess"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown game 'chess'"));
}

#[test]
fn perft_at_depth_zero_counts_the_position() {
    let out = output(&["perft", "--game", "connect4", "--depth", "0"], "");
    assert!(out.starts_with("perft 0 1 "), "{out}");
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn solve_reports_malformed_lines_on_stderr() {
    let assert = ply()
        .args(["solve", "--game", "connect4"])
        .write_stdin("7422341735647741166133573473242566 1\n4453 x\n9999 0\n")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("line 2: expected score 'x' is not a number")
                .and(predicate::str::contains("line 3: illegal move '9'"))
                .and(predicate::str::contains("2 lines could not be read"))
                .and(predicate::str::contains("mismatched").not()),
        );
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        stdout.contains("solved 1 positions, 0 mismatches"),
        "{stdout}"
    );
}

#[test]
fn solve_ends_quietly_when_its_reader_goes_away() {
    use std::io::{BufRead, Write};
    let (child, mut stdin, mut stdout) = common::spawn_ply(&["solve", "--game", "tictactoe"]);
    writeln!(stdin, "a1 a2 b2 c1").unwrap();
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.starts_with("a1 a2 b2 c1 1 nodes"), "{first}");
    // Like `| head -1`: the reader leaves, then more output comes.
    drop(stdout);
    for _ in 0..50 {
        if writeln!(stdin, "a1 a2 b2 c1").is_err() {
            break;
        }
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn solve_reads_start_lines_and_reports_bad_lines_on_stderr() {
    // Tic-tac-toe's empty board is a draw; a line of only `start` is it.
    ply()
        .args(["solve", "--game", "tictactoe"])
        .write_stdin("start 0\nstart\n")
        .assert()
        .success()
        .stdout(
            predicate::str::contains("start 0 nodes")
                .and(predicate::str::contains(" ok\n"))
                .and(predicate::str::contains("solved 2 positions, 0 mismatches")),
        );
    // An illegal move, a word for a score and a stray field are errors on
    // stderr, not mismatches; the good line between them is still solved.
    ply()
        .args(["solve", "--game", "connect4"])
        .write_stdin("48\n7422341735647741166133573473242566 1\n44 x\n44 1 2\n")
        .assert()
        .failure()
        .stdout(
            predicate::str::contains("solved 1 positions, 0 mismatches")
                .and(predicate::str::contains("MISMATCH").not()),
        )
        .stderr(
            predicate::str::contains("line 1:")
                .and(predicate::str::contains("line 3:"))
                .and(predicate::str::contains("line 4:")),
        );
}

#[test]
fn weak_solve_gives_only_the_result() {
    ply()
        .args(["solve", "--game", "connect4", "--weak"])
        .write_stdin(
            "2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n",
        )
        .assert()
        .success()
        .stdout(
            predicate::str::contains("2252576253462244111563365343671351441 -1 nodes")
                .and(predicate::str::contains(
                    "7422341735647741166133573473242566 1 nodes",
                ))
                .and(predicate::str::contains("solved 2 positions, 0 mismatches")),
        );
}

#[test]
fn breakthrough_small_boards_are_solved_by_both_methods() {
    // 4x4, 5x4 and 4x5: the second player wins, in 14, 16 and 22 plies;
    // proof numbers find the same result. (5x5, the second player in 26
    // plies, takes a minute and a gigabyte: scripts/breakthrough_table.sh.)
    for (size, plies) in [("4x4", 14), ("5x4", 16), ("4x5", 22)] {
        ply()
            .args(["solve", "--game", "breakthrough", "--size", size])
            .write_stdin(format!("start -{plies}\n"))
            .assert()
            .success()
            .stdout(
                predicate::str::contains(format!("start -{plies} nodes"))
                    .and(predicate::str::contains("solved 1 positions, 0 mismatches")),
            );
        ply()
            .args(["solve", "--game", "breakthrough", "--size", size, "--pns"])
            .write_stdin(format!("start -{plies}\n"))
            .assert()
            .success()
            .stdout(
                predicate::str::contains("start -1 nodes")
                    .and(predicate::str::contains(" ok\n"))
                    .and(predicate::str::contains("solved 1 positions, 0 mismatches")),
            );
    }
    // A won position: the proof's length comes with the result.
    ply()
        .args(["solve", "--game", "tictactoe", "--pns"])
        .write_stdin("a1 b1 a2 b2\n")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "a1 b1 a2 b2 1 proof_plies 1 nodes",
        ));
    ply()
        .args(["solve", "--game", "tictactoe", "--pns", "--weak"])
        .write_stdin("start\n")
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot be used with"));
}

#[test]
fn solver_switches_can_be_turned_off_and_the_values_stay() {
    // A Test_L2_R1 win, loss and draw, with each knowledge switch off.
    let lines = "1233722555341451114725221333 -1\n\
                 5554224333234511764415115 4\n\
                 2737772244262123677516643354 0\n";
    for off in ["UseSolverMirror", "UseSolverCeiling", "UseSolverETC"] {
        ply()
            .args(["solve", "--game", "connect4", "--off", off])
            .write_stdin(lines)
            .assert()
            .success()
            .stdout(predicate::str::contains("solved 3 positions, 0 mismatches"));
    }
    ply()
        .args(["solve", "--game", "connect4", "--off", "UseNothing"])
        .write_stdin(lines)
        .assert()
        .failure()
        .stderr(predicate::str::contains("unknown search switch UseNothing"));
}
