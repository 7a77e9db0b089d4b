//! `ply match` through the real binary, with built-in players, Ply itself
//! and small misbehaving engines written as python3 scripts.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use predicates::prelude::*;

fn ply_path() -> String {
    assert_cmd::cargo::cargo_bin("ply").display().to_string()
}

fn ply() -> Command {
    Command::cargo_bin("ply").unwrap()
}

/// A scratch directory of its own per test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Connect Four UGI engine that plays the lowest-numbered free column,
/// and on its `bad_move`-th move (from 1) misbehaves as `mode` says.
const FAKE: &str = r#"
import sys, time
mode, bad_move = sys.argv[1], int(sys.argv[2])
moves = []
mine = 0
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == 'ugi':
        print('id name fake'); print('ugiok', flush=True)
    elif w[0] == 'uginewgame':
        mine = 0
    elif w[0] == 'isready':
        print('readyok', flush=True)
    elif w[0] == 'position':
        moves = w[w.index('moves') + 1:] if 'moves' in w else []
    elif w[0] == 'go':
        if mode == 'log':
            open(sys.argv[3], 'a').write(line)
        mine += 1
        heights = [0] * 8
        for m in moves:
            heights[int(m)] += 1
        legal = [c for c in range(1, 8) if heights[c] < 6]
        full = [c for c in range(1, 8) if heights[c] >= 6]
        if mode == 'slow':
            time.sleep(float(sys.argv[3]))
        if mine == bad_move:
            if mode == 'illegal':
                print('bestmove 9', flush=True); continue
            if mode == 'crash':
                sys.exit(3)
            if mode == 'garbage':
                print('hello there', flush=True); continue
            if mode == 'hang':
                time.sleep(1000)
        print('info depth 1 score cp 0')
        print('bestmove %d' % legal[0], flush=True)
    elif w[0] == 'quit':
        break
"#;

fn fake_engine(dir: &Path, args: &str) -> String {
    let script = dir.join("fake.py");
    std::fs::write(&script, FAKE).unwrap();
    format!("cmd=python3 {} {args},name=fake", script.display())
}

/// Runs a match; returns stdout, and checks that its last line is JSON.
fn run_match(args: &[&str]) -> String {
    let text = String::from_utf8(quiet_match(args).stdout).unwrap();
    let last = text.lines().last().unwrap_or("");
    assert!(last.starts_with('{') && last.ends_with('}'), "{text}");
    text
}

/// `ply match ARGS --quiet`, which must succeed: its output.
fn quiet_match(args: &[&str]) -> std::process::Output {
    ply()
        .arg("match")
        .args(args)
        .arg("--quiet")
        .timeout(Duration::from_secs(50))
        .assert()
        .success()
        .get_output()
        .clone()
}

/// A field of the final JSON line, as text.
fn field(text: &str, key: &str) -> String {
    let last = text.lines().last().unwrap();
    let summary: serde_json::Value = serde_json::from_str(last)
        .unwrap_or_else(|e| panic!("the last line is not JSON ({e}): {last}"));
    match summary
        .get(key)
        .unwrap_or_else(|| panic!("no {key} in {last}"))
    {
        serde_json::Value::String(text) => text.clone(),
        value => value.to_string(),
    }
}

fn num(text: &str, key: &str) -> f64 {
    field(text, key).parse().unwrap()
}

#[test]
fn summary_json_has_every_field() {
    let out = run_match(&[
        "--game",
        "tictactoe",
        "--engine",
        "builtin=greedy",
        "--engine",
        "builtin=random",
        "--games",
        "10",
        "--depth",
        "1",
    ]);
    for key in [
        "games",
        "wins",
        "draws",
        "losses",
        "score",
        "elo",
        "elo_error",
        "time_losses",
        "illegal",
        "crashes",
        "opponent_time_losses",
        "opponent_illegal",
        "opponent_crashes",
        "llr",
        "sprt",
        "sprt_games",
    ] {
        field(&out, key);
    }
    assert_eq!(field(&out, "sprt_games"), "null");
    assert_eq!(num(&out, "games"), 10.0);
    assert_eq!(
        num(&out, "wins") + num(&out, "draws") + num(&out, "losses"),
        10.0
    );
    assert_eq!(field(&out, "sprt"), "none");
    assert!(num(&out, "score") > 0.5, "greedy beats random: {out}");
}

#[test]
fn a_slow_engine_loses_on_time() {
    let dir = scratch("time");
    // 0.4 s per move on a 0.5 s clock: the second move is too late.
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        &fake_engine(&dir, "slow 0 0.4"),
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--tc",
        "0.5+0",
        "--pgn",
        dir.join("g.pgn").to_str().unwrap(),
    ]);
    assert_eq!(num(&out, "losses"), 2.0, "{out}");
    assert_eq!(num(&out, "time_losses"), 2.0, "{out}");
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert!(
        pgn.contains("[Termination \"time forfeit by fake\"]"),
        "{pgn}"
    );
}

#[test]
fn an_illegal_move_loses() {
    let dir = scratch("illegal");
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        &fake_engine(&dir, "illegal 2"),
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--movetime",
        "100",
        "--pgn",
        dir.join("g.pgn").to_str().unwrap(),
    ]);
    assert_eq!(num(&out, "illegal"), 2.0, "{out}");
    assert_eq!(num(&out, "losses"), 2.0, "{out}");
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert!(pgn.contains("illegal move '9' by fake"), "{pgn}");
}

#[test]
fn a_crash_mid_game_loses_and_the_engine_is_restarted() {
    let dir = scratch("crash");
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        "builtin=random",
        "--engine",
        &fake_engine(&dir, "crash 2"),
        "--games",
        "3",
        "--movetime",
        "100",
    ]);
    // Every game reaches the engine's second move: it was restarted each time.
    assert_eq!(num(&out, "opponent_crashes"), 3.0, "{out}");
    assert_eq!(num(&out, "wins"), 3.0, "{out}");
    assert_eq!(num(&out, "crashes"), 0.0, "{out}");
}

#[test]
fn a_non_move_reply_loses() {
    let dir = scratch("garbage");
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        &fake_engine(&dir, "garbage 2"),
        "--engine",
        "builtin=greedy",
        "--games",
        "2",
        "--movetime",
        "100",
        "--pgn",
        dir.join("g.pgn").to_str().unwrap(),
    ]);
    assert_eq!(num(&out, "garbage"), 2.0, "{out}");
    assert_eq!(num(&out, "losses"), 2.0, "{out}");
    let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
    assert!(
        pgn.contains("non-move reply 'hello there' by fake"),
        "{pgn}"
    );
}

#[test]
fn a_hung_engine_is_killed_not_waited_for() {
    let dir = scratch("hang");
    let started = Instant::now();
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        &fake_engine(&dir, "hang 2"),
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--movetime",
        "100",
        "--margin",
        "100",
    ]);
    assert!(started.elapsed() < Duration::from_secs(15), "{out}");
    assert_eq!(num(&out, "time_losses"), 2.0, "{out}");
    // With depth limits the hard cap guards the referee the same way.
    let started = Instant::now();
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        &fake_engine(&dir, "hang 1"),
        "--engine",
        "builtin=random",
        "--games",
        "1",
        "--depth",
        "3",
        "--max-move-time",
        "300",
    ]);
    assert!(started.elapsed() < Duration::from_secs(10), "{out}");
    assert_eq!(num(&out, "time_losses"), 1.0, "{out}");
}

/// (game number, White, Black, Opening) of every PGN record, by number.
fn pgn_heads(pgn: &str) -> Vec<(usize, String, String, String)> {
    let tag = |rec: &str, name: &str| {
        let start = rec.find(&format!("[{name} \"")).unwrap() + name.len() + 3;
        rec[start..].split('"').next().unwrap().to_string()
    };
    let mut heads: Vec<_> = pgn
        .split("[Event ")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            (
                tag(r, "Game").parse().unwrap(),
                tag(r, "White"),
                tag(r, "Black"),
                tag(r, "Opening"),
            )
        })
        .collect();
    heads.sort();
    heads
}

#[test]
fn each_opening_is_played_twice_with_colours_swapped() {
    let dir = scratch("openings");
    let book = dir.join("book.txt");
    std::fs::write(&book, "# two openings\n4 4\n7/7/7/7/7/3x3 o\n").unwrap();
    let pgn = dir.join("g.pgn");
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        "builtin=greedy,name=A",
        "--engine",
        "builtin=random,name=B",
        "--games",
        "4",
        "--depth",
        "1",
        "--openings",
        book.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(num(&out, "games"), 4.0);
    let heads = pgn_heads(&std::fs::read_to_string(&pgn).unwrap());
    let row = |n: usize, w: &str, b: &str, o: &str| (n, w.into(), b.into(), o.into());
    assert_eq!(
        heads,
        vec![
            row(1, "A", "B", "4 4"),
            row(2, "B", "A", "4 4"),
            row(3, "A", "B", "7/7/7/7/7/3x3 o"),
            row(4, "B", "A", "7/7/7/7/7/3x3 o"),
        ]
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[FEN \"7/7/7/7/7/3x3 o\"]"), "{text}");
    assert!(text.contains("\n1. 4 4 2. "), "{text}");
    assert!(text.contains("\n1... "), "{text}");
}

#[test]
fn games_beyond_the_openings_under_a_depth_limit_are_warned_of() {
    let dir = scratch("repeats");
    let book = dir.join("book.txt");
    std::fs::write(&book, "4 4\n3 3\n").unwrap();
    let book = book.to_str().unwrap();
    let stderr = |games: &str, limit: [&str; 2]| {
        let engines = ["--engine", "builtin=greedy", "--engine", "builtin=random"];
        let mut args = vec!["--game", "connect4", "--games", games, "--openings", book];
        args.extend(engines);
        args.extend(limit);
        String::from_utf8(quiet_match(&args).stderr).unwrap()
    };
    let repeated = stderr("6", ["--depth", "1"]);
    assert!(
        repeated.contains("warning: 6 games but 4 distinct ones"),
        "{repeated}"
    );
    assert!(!stderr("4", ["--depth", "1"]).contains("warning"));
    // A clock is not deterministic: nothing to say.
    assert!(!stderr("6", ["--movetime", "5"]).contains("warning"));
}

#[test]
fn concurrency_gives_the_same_totals_as_one_game_at_a_time() {
    let engine = format!("cmd={} --game connect4,name=ply", ply_path());
    let run = |concurrency: &str| {
        let out = run_match(&[
            "--game",
            "connect4",
            "--engine",
            &engine,
            "--engine",
            "builtin=greedy",
            "--games",
            "6",
            "--depth",
            "4",
            "--concurrency",
            concurrency,
        ]);
        ["wins", "draws", "losses", "pairs"].map(|k| field(&out, k))
    };
    assert_eq!(run("1"), run("3"));
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        "builtin=greedy",
        "--engine",
        "builtin=random",
        "--games",
        "1000",
        "--depth",
        "1",
        "--sprt",
        "elo0=0,elo1=20",
    ]);
    assert_eq!(field(&out, "sprt"), "accept", "{out}");
    assert!(num(&out, "games") < 1000.0, "{out}");
    assert!(num(&out, "llr") >= 2.94, "{out}");
    assert!(out.contains("H1 accepted after"), "{out}");
    // Thirty pairs at least, however lopsided the first ones.
    let decided = num(&out, "sprt_games");
    assert!((60.0..=num(&out, "games")).contains(&decided), "{out}");
}

#[test]
fn piskvork_engines_play_gomoku_with_sgf_records() {
    let dir = scratch("piskvork");
    let brain = assert_cmd::cargo::cargo_bin("pbrain-ply")
        .display()
        .to_string();
    let book = dir.join("book.txt");
    // Gomocup offsets: the second opening needs a BOARD command.
    std::fs::write(&book, "0,0\n0,0, 1,1, -1,0\n").unwrap();
    let sgf = dir.join("g.sgf");
    let out = run_match(&[
        "--game",
        "gomoku",
        "--engine",
        &format!("cmd={brain},proto=piskvork,name=brain"),
        "--engine",
        "builtin=random",
        "--games",
        "4",
        "--movetime",
        "100",
        "--margin",
        "1000",
        "--openings",
        book.to_str().unwrap(),
        "--sgf",
        sgf.to_str().unwrap(),
    ]);
    assert_eq!(num(&out, "wins"), 4.0, "{out}");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("(;FF[4]GM[4]").count(), 4, "{text}");
    assert!(text.contains(";B[hh];W[ii];B[gh]"), "{text}");
}

#[test]
fn ugi_ply_plays_renju_against_greedy() {
    let engine = format!("cmd={} --game gomoku --rule renju,name=ply", ply_path());
    let out = run_match(&[
        "--game",
        "gomoku",
        "--rule",
        "renju",
        "--engine",
        &engine,
        "--engine",
        "builtin=greedy",
        "--games",
        "2",
        "--movetime",
        "50",
        "--margin",
        "1000",
    ]);
    assert_eq!(num(&out, "illegal") + num(&out, "opponent_illegal"), 0.0);
    assert!(num(&out, "score") >= 0.5, "{out}");
}

#[test]
fn bad_arguments_are_clear_errors() {
    let no_panic = || predicate::str::contains("panicked").not();
    let cases: &[(&[&str], &str)] = &[
        (
            &["--engine", "builtin=smart", "--engine", "builtin=random"],
            "unknown builtin",
        ),
        (
            &[
                "--engine",
                "cmd=/no/such/engine",
                "--engine",
                "builtin=random",
            ],
            "no such file",
        ),
        (
            &[
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=greedy",
                "--openings",
                "/no/such/book",
            ],
            "cannot read openings file",
        ),
        (
            &[
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=greedy",
                "--sprt",
                "elo0=5",
            ],
            "elo1 are required",
        ),
        (
            &[
                "--engine",
                "builtin=random",
                "--engine",
                "cmd=x,proto=piskvork",
            ],
            "Piskvork engines play gomoku only",
        ),
        (&["--engine", "builtin=random"], "at least two"),
    ];
    for (args, message) in cases {
        ply()
            .args([
                "match", "--game", "connect4", "--games", "2", "--depth", "1",
            ])
            .args(*args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(*message).and(no_panic()));
    }
    // A time limit is required.
    ply()
        .args([
            "match",
            "--engine",
            "builtin=random",
            "--engine",
            "builtin=greedy",
        ])
        .args(["--games", "2"])
        .assert()
        .failure()
        .stderr(no_panic());
}

#[test]
fn ply_keeps_to_a_real_clock() {
    let engine = format!("cmd={} --game connect4,name=ply", ply_path());
    let out = run_match(&[
        "--game",
        "connect4",
        "--engine",
        &engine,
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--tc",
        "1+0.05",
    ]);
    assert_eq!(num(&out, "time_losses"), 0.0, "{out}");
    assert_eq!(num(&out, "wins"), 2.0, "{out}");
}

#[test]
fn more_engines_make_a_round_robin() {
    let out = run_match(&[
        "--game",
        "tictactoe",
        "--engine",
        "builtin=greedy",
        "--engine",
        "builtin=random",
        "--engine",
        "builtin=random",
        "--games",
        "4",
        "--depth",
        "1",
    ]);
    // Three pairings of four games; the JSON counts the first engine's eight.
    assert!(out.contains("greedy vs random#1: 4 games"), "{out}");
    assert!(out.contains("greedy vs random#2: 4 games"), "{out}");
    assert!(out.contains("random#1 vs random#2: 4 games"), "{out}");
    assert_eq!(num(&out, "games"), 8.0, "{out}");
}

/// A Piskvork brain that answers `START` and then a non-move.
const BAD_BRAIN: &str = r#"
import sys
for line in sys.stdin:
    w = line.strip().upper()
    if w.startswith('START'):
        print('OK', flush=True)
    elif w in ('BEGIN', 'DONE') or w.startswith('TURN'):
        print('MESSAGE thinking hard', flush=True)
        print('I resign', flush=True)
    elif w == 'END':
        break
"#;

#[test]
fn a_piskvork_non_move_reply_loses() {
    let dir = scratch("bad-brain");
    let script = dir.join("brain.py");
    std::fs::write(&script, BAD_BRAIN).unwrap();
    let out = run_match(&[
        "--game",
        "gomoku",
        "--engine",
        "builtin=random",
        "--engine",
        &format!("cmd=python3 {},proto=piskvork", script.display()),
        "--games",
        "2",
        "--movetime",
        "200",
    ]);
    assert_eq!(num(&out, "opponent_garbage"), 2.0, "{out}");
    assert_eq!(num(&out, "wins"), 2.0, "{out}");
}

/// A Piskvork brain that writes every INFO line it gets to the file
/// `argv[1]`, waits `argv[2]` seconds, then takes the first free cell.
const SLOW_BRAIN: &str = r#"
import sys, time
log = open(sys.argv[1], 'a')
taken = set()
def play():
    time.sleep(float(sys.argv[2]))
    x, y = next((x, y) for y in range(15) for x in range(15) if (x, y) not in taken)
    taken.add((x, y))
    print('%d,%d' % (x, y), flush=True)
for line in sys.stdin:
    w = line.strip()
    if w.upper().startswith('START') or w.upper() == 'RESTART':
        taken.clear()
        print('OK', flush=True)
    elif w.upper().startswith('INFO'):
        log.write(w + '\n'); log.flush()
    elif w.upper() == 'BEGIN':
        play()
    elif w.upper().startswith('TURN'):
        x, y = w.split()[1].split(',')
        taken.add((int(x), int(y)))
        play()
    elif w.upper() == 'BOARD':
        for row in sys.stdin:
            if row.strip().upper() == 'DONE':
                break
            x, y, _ = row.strip().split(',')
            taken.add((int(x), int(y)))
        play()
    elif w.upper() == 'END':
        break
"#;

#[test]
fn a_turn_limit_is_sent_and_enforced_apart_from_the_clock() {
    let dir = scratch("turn-limit");
    let script = dir.join("brain.py");
    std::fs::write(&script, SLOW_BRAIN).unwrap();
    let log = dir.join("info.txt");
    // The brain waits `delay` seconds a move under a 20 s clock with a
    // 0.3 s turn limit.
    let play = |delay: &str, margin: &str| {
        let brain = format!(
            "cmd=python3 {} {} {delay},proto=piskvork,name=brain",
            script.display(),
            log.display()
        );
        run_match(&[
            "--game",
            "gomoku",
            "--engine",
            "builtin=random",
            "--engine",
            &brain,
            "--games",
            "2",
            "--tc",
            "20/0.3",
            "--margin",
            margin,
        ])
    };
    // 0.5 s a move breaks the turn limit, though the clock would allow it.
    let out = play("0.5", "100");
    assert_eq!(num(&out, "opponent_time_losses"), 2.0, "{out}");
    let info = std::fs::read_to_string(&log).unwrap();
    for line in [
        "INFO timeout_match 20000",
        "INFO timeout_turn 300",
        "INFO time_left 20000",
    ] {
        assert!(info.lines().any(|l| l == line), "{line} not in {info}");
    }
    // Within the turn limit it plays its games out.
    let out = play("0", "1000");
    assert_eq!(num(&out, "opponent_time_losses"), 0.0, "{out}");
    assert_eq!(num(&out, "opponent_crashes"), 0.0, "{out}");
}

#[test]
fn an_engine_with_a_node_budget_of_its_own_plays_under_it() {
    let dir = scratch("node-odds");
    // A UGI engine that logs its `go` commands, given 77 nodes a move in a
    // match of 300.
    let go_log = dir.join("go.txt");
    let ugi = fake_engine(&dir, &format!("log 0 {},nodes=77", go_log.display()));
    // A Piskvork brain that logs its INFO lines, given 120.
    let script = dir.join("brain.py");
    std::fs::write(&script, SLOW_BRAIN).unwrap();
    let info_log = dir.join("info.txt");
    let brain = format!(
        "cmd=python3 {} {} 0,proto=piskvork,name=brain,nodes=120",
        script.display(),
        info_log.display()
    );
    let pgn = dir.join("games.pgn");
    let play = |game: &str, engine: &str| {
        run_match(&[
            "--game",
            game,
            "--engine",
            engine,
            "--engine",
            "builtin=greedy",
            "--games",
            "2",
            "--nodes",
            "300",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
    };
    play("connect4", &ugi);
    let go = std::fs::read_to_string(&go_log).unwrap();
    assert!(go.lines().count() >= 2, "{go}");
    assert!(go.lines().all(|l| l.trim() == "go nodes 77"), "{go}");
    let records = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        records.contains("[TimeControl \"nodes 300 (fake 77)\"]"),
        "{records}"
    );
    play("gomoku", &brain);
    let info = std::fs::read_to_string(&info_log).unwrap();
    assert!(info.lines().any(|l| l == "INFO max_node 120"), "{info}");
    assert!(!info.contains("max_node 300"), "{info}");
}

#[test]
fn a_node_budget_of_its_own_is_refused_outside_a_node_match() {
    for (limit, value) in [("--depth", "2"), ("--movetime", "50")] {
        ply()
            .args(["match", "--game", "connect4", "--games", "2", limit, value])
            .args(["--engine", "builtin=random"])
            .args([
                "--engine",
                &format!("cmd={} --game connect4,nodes=1000", ply_path()),
            ])
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("nodes= sets its budget in a --nodes match")
                    .and(predicate::str::contains("panicked").not()),
            );
    }
    // A builtin has no node budget to set.
    ply()
        .args([
            "match", "--game", "connect4", "--games", "2", "--nodes", "100",
        ])
        .args([
            "--engine",
            "builtin=random,nodes=10",
            "--engine",
            "builtin=greedy",
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "a builtin takes no proto, options or nodes",
        ));
}

#[test]
fn a_turn_limit_is_refused_for_ugi_engines() {
    ply()
        .args(["match", "--game", "connect4", "--games", "2"])
        .args(["--tc", "10/1", "--engine", "builtin=random"])
        .args(["--engine", &format!("cmd={} --game connect4", ply_path())])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("turn limit")
                .and(predicate::str::contains("UGI"))
                .and(predicate::str::contains("panicked").not()),
        );
}

#[test]
fn help_documents_the_match_command() {
    ply().args(["match", "--help"]).assert().success().stdout(
        predicate::str::contains("--engine")
            .and(predicate::str::contains("--sprt"))
            .and(predicate::str::contains("builtin=random|greedy"))
            .and(predicate::str::contains("JSON")),
    );
}

/// A UGI engine that always answers the same move.
const STUBBORN: &str = r#"
import sys
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == 'ugi':
        print('ugiok', flush=True)
    elif w[0] == 'isready':
        print('readyok', flush=True)
    elif w[0] == 'go':
        print('bestmove ' + sys.argv[1], flush=True)
    elif w[0] == 'quit':
        break
"#;

#[test]
fn a_renju_forbidden_move_is_illegal() {
    let dir = scratch("renju");
    let script = dir.join("stubborn.py");
    std::fs::write(&script, STUBBORN).unwrap();
    // h8 makes two open threes for black (f8 g8, h6 h7): forbidden in renju.
    let book = dir.join("book.txt");
    std::fs::write(
        &book,
        "15/15/15/15/15/15/15/5xx8/7x7/7x7/15/15/15/15/o1o1o1o8 x\n",
    )
    .unwrap();
    let pgn = dir.join("g.pgn");
    let out = run_match(&[
        "--game",
        "gomoku",
        "--rule",
        "renju",
        "--engine",
        &format!("cmd=python3 {} h8,name=stubborn", script.display()),
        "--engine",
        "builtin=random",
        "--games",
        "1",
        "--movetime",
        "500",
        "--openings",
        book.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(num(&out, "illegal"), 1.0, "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[Termination \"illegal move 'h8' by stubborn\"]"),
        "{text}"
    );
    assert!(text.contains("[PlyCount \"0\"]"), "{text}");
}
