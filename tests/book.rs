//! `ply book` and playing from a book under UGI, through the real binary.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Engine, best_move};

/// A Connect Four position 22 plies deep (a line of Pons' end-game set):
/// a book a few plies deep from it is quick to build.
const LATE: &str = "2252576253462244111563";

/// The shipped Connect Four book, from the repository's root.
const SHIPPED_BOOK: &str = "books/connect4.book";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-book-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ply(args: &[&str]) -> std::process::Output {
    Command::new(assert_cmd::cargo::cargo_bin("ply"))
        .args(args)
        .output()
        .expect("ply runs")
}

fn build(game: &str, from: &str, plies: u32, out: &Path) -> String {
    let out_text = out.to_str().unwrap();
    let plies_text = plies.to_string();
    let output = ply(&[
        "--game",
        game,
        "book",
        "--plies",
        &plies_text,
        "--from",
        from,
        "--out",
        out_text,
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(
        stderr.contains(&format!("book: ply {plies}:")),
        "progress: {stderr}"
    );
    stdout
}

/// Pons' score of `moves` by `ply solve`.
fn solve(moves: &str) -> i32 {
    let output = Command::new(assert_cmd::cargo::cargo_bin("ply"))
        .args(["--game", "connect4", "solve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            writeln!(child.stdin.take().unwrap(), "{moves}")?;
            child.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .next()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap()
}

/// The `score ...` words of an info line, and its node count.
fn score_and_nodes(line: &str) -> (String, u64) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|&w| w == key).unwrap() + 1;
    let score = format!("{} {}", words[at("score")], words[at("score") + 1]);
    (score, words[at("nodes")].parse().unwrap())
}

/// The info line's score as Pons' score of a position after `played` plies.
fn pons_score(score: &str, played: i32) -> i32 {
    let n: i32 = score.split_whitespace().nth(1).unwrap().parse().unwrap();
    match score.split_whitespace().next() {
        Some("cp") => {
            assert_eq!(n, 0, "a book score is exact: {score}");
            0
        }
        _ if n > 0 => (43 - (played + 2 * n - 2)) / 2,
        _ => -((43 - (played - 2 * n - 1)) / 2),
    }
}

fn go(e: &mut Engine, moves: &str) -> (String, u64, String) {
    let list: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
    e.send(&format!("position startpos moves {}", list.join(" ")));
    e.send("go movetime 2000");
    let lines = e.read_until("bestmove");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let (score, nodes) = score_and_nodes(info);
    (score, nodes, best_move(lines.last().unwrap()).to_string())
}

#[test]
fn ugi_plays_the_books_best_move_with_its_exact_score() {
    let dir = scratch("play");
    let path = dir.join("late.book");
    let summary = build("connect4", LATE, 2, &path);
    assert!(summary.contains(" positions, "), "{summary}");
    let header = std::fs::read(&path).unwrap();
    assert!(header.starts_with(b"plybook 1 game=connect4 board=7x6 rule=- plies=2 from="));

    let mut e = Engine::ply(&["--game", "connect4"]);
    e.send(&format!("setoption name BookFile value {}", path.display()));
    assert_eq!(e.ask("isready"), "readyok", "no error line");
    // The base and every position a ply on: the book answers at once
    // (no node searched) with the exact score, and its move keeps it.
    let mut positions = vec![LATE.to_string()];
    for col in 1..=7 {
        positions.push(format!("{LATE}{col}"));
    }
    let mut checked = 0;
    for moves in positions {
        if !legal_and_open(&moves) {
            continue;
        }
        let (score, nodes, mv) = go(&mut e, &moves);
        let exact = solve(&moves);
        assert_eq!(nodes, 0, "{moves}: from the book");
        assert_eq!(
            pons_score(&score, moves.len() as i32),
            exact,
            "{moves}: {score}"
        );
        let after = format!("{moves}{mv}");
        if legal_and_open(&after) {
            assert_eq!(solve(&after), -exact, "{moves} then {mv} keeps the value");
        }
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
    // Two plies on, the book knows the position but not its moves: the
    // engine searches.
    let deeper = format!("{LATE}44");
    let (score, nodes, _) = go(&mut e, &deeper);
    assert!(nodes > 0, "{deeper}: searched");
    assert_eq!(pons_score(&score, deeper.len() as i32), solve(&deeper));
    // An empty value unloads the book.
    e.send("setoption name BookFile value <empty>");
    let (_, nodes, _) = go(&mut e, LATE);
    assert!(nodes > 0, "no book any more");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Whether `moves` are legal Connect Four moves from the start.
fn legal(moves: &str) -> bool {
    let mut heights = [0; 7];
    moves.chars().all(|c| {
        let col = c as usize - '1' as usize;
        heights[col] += 1;
        heights[col] <= 6
    })
}

/// Whether `moves` are legal and the game is not over after them.
fn legal_and_open(moves: &str) -> bool {
    if !legal(moves) {
        return false;
    }
    let mut e = Engine::ply(&["--game", "connect4"]);
    let list: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
    e.send(&format!("position startpos moves {}", list.join(" ")));
    e.ask("query gameover") == "response false"
}

#[test]
fn with_a_strategy_extension_every_reply_finds_its_answer_in_the_book() {
    let dir = scratch("strategy");
    let path = dir.join("late.book");
    let output = ply(&[
        "--game",
        "connect4",
        "book",
        "--plies",
        "1",
        "--strategy",
        "5",
        "--from",
        LATE,
        "--out",
        path.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("book: strategy, ply 5:"), "{stderr}");
    let header = std::fs::read(&path).unwrap();
    assert!(header.starts_with(b"plybook 1 game=connect4 board=7x6 rule=- plies=1 from="));
    assert!(String::from_utf8_lossy(&header[..200]).contains(" strategy=5 positions="));

    let mut e = Engine::ply(&["--game", "connect4"]);
    e.send(&format!("setoption name BookFile value {}", path.display()));
    // The side to move at the base plays its book moves; the other side
    // tries each reply in turn (as far as the game goes on): each of the
    // first side's moves to ply 5 comes from the book, exact.
    let mut lines = vec![LATE.to_string()];
    let mut answered = 0;
    while let Some(moves) = lines.pop() {
        let (score, nodes, mv) = go(&mut e, &moves);
        assert_eq!(nodes, 0, "{moves}: from the book");
        let exact = solve(&moves);
        assert_eq!(pons_score(&score, moves.len() as i32), exact, "{moves}");
        answered += 1;
        let after = format!("{moves}{mv}");
        if after.len() - LATE.len() >= 5 || !legal_and_open(&after) {
            continue;
        }
        assert_eq!(solve(&after), -exact, "{moves} then {mv} keeps the value");
        for reply in ["1", "4", "7"] {
            let next = format!("{after}{reply}");
            if legal_and_open(&next) {
                lines.push(next);
            }
        }
    }
    assert!(answered >= 7, "{answered}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_missing_malformed_or_foreign_book_is_refused_and_changes_nothing() {
    let dir = scratch("bad");
    let good = dir.join("good.book");
    build("connect4", LATE, 1, &good);
    let garbage = dir.join("garbage.book");
    std::fs::write(&garbage, "not a book\n").unwrap();
    let truncated = dir.join("truncated.book");
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() - 4]).unwrap();
    let foreign = dir.join("ttt.book");
    build("tictactoe", "a1", 1, &foreign);

    let mut e = Engine::ply(&["--game", "connect4"]);
    e.send(&format!("setoption name BookFile value {}", good.display()));
    for (path, why) in [
        (dir.join("missing.book"), "cannot read book file"),
        (garbage, "not a Ply book file"),
        (truncated, "not the"),
        (foreign, "the book is for tictactoe"),
    ] {
        let reply = e.ask(&format!("setoption name BookFile value {}", path.display()));
        assert!(reply.starts_with("info string error "), "{reply}");
        assert!(reply.contains(why), "{reply}");
        // The good book still answers.
        let (_, nodes, _) = go(&mut e, LATE);
        assert_eq!(nodes, 0, "after {}", path.display());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The Connect Four book shipped in `books/`: the start is a first-player
/// win, every position up to its full depth is held, every value short of
/// the deepest ply is what its moves give (the book's own best move scores
/// it), a sample of the deepest positions have the values the solver
/// proves from a cleared table; beyond, each side's strategy has a move in
/// every position it reaches to the extension's ply, and a sample of those
/// moves keep the value a solve proves. Nothing else is held.
#[test]
fn the_shipped_connect4_book_is_exact() {
    use ply::game::connect4::Connect4;
    use ply::game::{Game, Settings};
    use ply::search::book::{Book, parent_score};
    use ply::search::solver::Solver;
    use std::collections::HashSet;

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(SHIPPED_BOOK);
    let book = Book::parse(&std::fs::read(&path).unwrap()).unwrap();
    let header = book.header();
    assert_eq!((header.game.as_str(), header.plies), ("connect4", 6));
    assert_eq!(header.strategy, 10);
    assert!(header.from.is_empty());
    let start = Connect4::start(&Settings::default()).unwrap();
    // Allis' result: the first player wins, with its 21st stone (ply 41).
    assert_eq!(book.score(&start), Some(ply::search::score::MATE - 41));
    let mut layer = vec![start.clone()];
    let mut keys = HashSet::new();
    for ply in 0..header.plies {
        let mut next = Vec::new();
        let mut seen = HashSet::new();
        for pos in &layer {
            let score = book.score(pos).expect("every position is held");
            let (_, best) = book.best_move(pos).expect("every move is known");
            assert_eq!(best, score, "ply {ply}: {}", pos.to_fen());
            keys.insert(pos.symmetric_key());
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            for mv in moves {
                let mut child = pos.clone();
                child.make_move(mv);
                if child.outcome().is_none() && seen.insert(child.symmetric_key()) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    assert!(layer.iter().all(|pos| book.score(pos).is_some()));
    keys.extend(layer.iter().map(|pos| pos.symmetric_key()));
    let mut solver = Solver::<Connect4>::new(64).unwrap();
    let mut exact = |pos: &Connect4| {
        solver.clear();
        solver.solve(pos, false).unwrap().score
    };
    for pos in layer.iter().step_by(layer.len() / 12) {
        assert_eq!(Some(exact(pos)), book.score(pos), "{}", pos.to_fen());
    }

    let strategy = book.strategy_positions(&start).unwrap();
    assert!(strategy.len() > 5_000, "{}", strategy.len());
    for (i, pos) in strategy.iter().enumerate() {
        let (mv, score) = book.best_move(pos).unwrap();
        keys.insert(pos.symmetric_key());
        let mut child = pos.clone();
        child.make_move(mv);
        if child.outcome().is_none() {
            keys.insert(child.symmetric_key());
        }
        // A sample, the deeper plies (quicker to solve) more often.
        if i % 400 == 399 {
            assert_eq!(exact(pos), score, "{}", pos.to_fen());
            if child.outcome().is_none() {
                assert_eq!(parent_score(exact(&child)), score, "{}", child.to_fen());
            }
        }
    }
    assert_eq!(keys.len(), book.len(), "nothing else is held");
}

/// `ply book` with `args` after the book's own (`--game connect4 book
/// --plies 2 --from LATE --out OUT`): its status, stdout and stderr.
fn late_book(out: &Path, args: &[&str]) -> (bool, String, String) {
    let mut all = vec![
        "--game",
        "connect4",
        "book",
        "--plies",
        "2",
        "--from",
        LATE,
        "--out",
        out.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    let output = ply(&all);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).to_string();
    (
        output.status.success(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn shards_on_their_own_merge_into_the_book_of_one_process() {
    let dir = scratch("shards");
    let one = dir.join("one.book");
    let whole = build("connect4", LATE, 2, &one);
    let out = dir.join("sharded.book");
    let journal = |i: usize| dir.join(format!("sharded.book.shard-{i}-of-3.part"));
    for i in 0..3 {
        let shard = format!("{i}/3");
        let (ok, stdout, stderr) = late_book(&out, &["--shard", &shard]);
        assert!(ok, "{stdout}\n{stderr}");
        assert!(
            stdout.contains(&format!("shard {shard}: "))
                && stdout.contains(&format!("{} complete", journal(i).display())),
            "{stdout}"
        );
        assert!(
            stderr.contains(&format!("book: ply 2, shard {shard}: ")),
            "progress: {stderr}"
        );
        assert!(journal(i).exists() && !out.exists());
    }
    let given = |shards: &[usize]| -> Vec<String> {
        let mut args = vec!["--merge".to_string()];
        args.extend(shards.iter().map(|&i| journal(i).display().to_string()));
        args
    };
    let merge = |shards: &[usize]| {
        let args = given(shards);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        late_book(&out, &args)
    };
    let (ok, stdout, stderr) = merge(&[0, 2]);
    assert!(!ok && stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("error: the journals lack ")
            && stderr.contains("shard 1/3 lacks")
            && stderr.contains("(no journal of it given)"),
        "{stderr}"
    );
    let (ok, stdout, stderr) = merge(&[0, 1, 2]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("plies deep from 3 shard journals"),
        "{stdout}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&one).unwrap());
    // The base's value, as the build in one process gives it, and as
    // `ply solve` proves it.
    let base = |summary: &str| {
        let line = summary.lines().find(|l| l.starts_with("base: ")).unwrap();
        line.to_string()
    };
    assert_eq!(base(&stdout), base(&whole));
    let value: i32 = base(&stdout)["base: ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(value.signum(), solve(LATE).signum(), "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_shards_and_flags_a_shard_or_merge_cannot_honour_are_refused() {
    let dir = scratch("bad-shards");
    let out = dir.join("x.book");
    for (args, why) in [
        (&["--shard", "3/3"][..], "there is no shard 3/3"),
        (&["--shard", "0/0"], "into 0 shards"),
        (&["--shard", "1"], "'1' is not I/N"),
        (&["--shard", "one/3"], "'one/3' is not I/N"),
        (
            &["--shard", "0/3", "--strategy", "4"],
            "--strategy is not split into shards",
        ),
        (
            &["--merge", "x.part", "--strategy", "4"],
            "--strategy is not split into shards",
        ),
        (
            &["--merge", "x.part", "--threads", "2"],
            "ply book --merge does not take --threads",
        ),
        (
            &["--merge", "x.part", "--shard", "0/2"],
            "cannot be used with",
        ),
        (&["--merge"], "a value is required"),
        (&["--merge", "x.part"], "cannot read x.part"),
    ] {
        let (ok, stdout, stderr) = late_book(&out, args);
        assert!(!ok && stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        0,
        "nothing written"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
