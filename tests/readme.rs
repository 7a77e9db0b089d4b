//! The README's examples for people who plug Ply into a manager, run as
//! written: each block marked `<!-- checked: NAME -->` is read from
//! README.md and what it gives the engine (command line, options, the
//! commands the manager sends for its settings) is fed to the real binary.

mod common;

use common::Engine;
use common::cutegames::{
    Adjudication, Cutegames, GameResult, MatchSettings, TimeControl, play_game,
};
use ply::engine::registry::GAMES;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// The text after the marker `<!-- checked: NAME -->`: a fenced block's
/// body, or the lines of a table up to the first blank line.
fn checked(name: &str) -> String {
    let text = readme();
    let marker = format!("<!-- checked: {name} -->\n");
    let at = text
        .find(&marker)
        .unwrap_or_else(|| panic!("README has no block marked {name}"));
    let rest = &text[at + marker.len()..];
    if let Some(body) = rest.strip_prefix("```") {
        let body = &body[body.find('\n').unwrap() + 1..];
        body[..body.find("```").expect("closing fence")].to_string()
    } else {
        rest.split("\n\n").next().unwrap().to_string()
    }
}

/// The binary a README path names, as built for this test run: the README
/// shows release builds run from the checkout.
fn binary(path: &str) -> &'static str {
    match path {
        "target/release/ply" => "ply",
        "target/release/pbrain-ply" => "pbrain-ply",
        other => panic!("README runs '{other}', not a Ply binary from the checkout"),
    }
}

#[test]
fn the_move_table_lists_every_game_with_its_own_examples() {
    let table = checked("move-table");
    let rows: Vec<Vec<String>> = table
        .lines()
        .skip(2)
        .map(|row| {
            row.trim_matches('|')
                .split('|')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), GAMES.len(), "one row per registered game");
    for (row, game) in rows.iter().zip(GAMES) {
        assert_eq!(row[0], game.name);
        let examples: Vec<String> = game
            .move_examples
            .iter()
            .map(|m| format!("`{m}`"))
            .collect();
        assert_eq!(row[1], examples.join(", "), "{}", game.name);
    }
}

#[test]
fn the_cutegames_settings_run_ply_as_written() {
    let settings: serde_json::Value = serde_json::from_str(&checked("cutegames-config")).unwrap();
    assert_eq!(settings["game"], "generic", "UGI engines own the rules");
    let timecontrol = &settings["timecontrol"];
    assert_eq!(timecontrol["type"], "movetime");
    let adjudication = &settings["adjudication"];
    let match_settings = MatchSettings {
        timecontrol: TimeControl::Movetime(timecontrol["time"].as_i64().unwrap()),
        ask_turn: settings["protocol"]["askturn"].as_bool().unwrap(),
        gameover_both: settings["protocol"]["gameover"] == "both",
        timeout_buffer: adjudication["timeoutbuffer"].as_i64().unwrap(),
    };
    let entries = settings["engines"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    // What cutegames does with each entry: start `path` with `parameters`
    // split on spaces, the handshake, then the match's options and the
    // engine's own; each reply read as cutegames reads it.
    let mut engines = entries.iter().map(|entry| {
        assert_eq!(entry["protocol"], "UGI");
        let args: Vec<&str> = entry["parameters"]
            .as_str()
            .unwrap()
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect();
        assert!(args.windows(2).any(|w| w == ["--game", "connect4"]));
        let mut engine = Cutegames::new(Engine::start(
            binary(entry["path"].as_str().unwrap()),
            &args,
        ));
        engine.init();
        let options = entry["options"].as_object().cloned().unwrap_or_default();
        for (name, value) in settings["options"]
            .as_object()
            .unwrap()
            .iter()
            .chain(&options)
        {
            engine.set_option(name, value.as_str().unwrap());
        }
        engine
    });
    let (mut one, mut two) = (engines.next().unwrap(), engines.next().unwrap());
    // The openings file the README writes: the start position.
    let game = play_game(&match_settings, "startpos", &mut one, &mut two);
    assert_eq!(game.adjudication, Adjudication::None, "{game:?}");
    assert_ne!(game.result, GameResult::None, "{game:?}");
    for mut engine in [one, two] {
        engine.quit();
        assert!(engine.peer.wait_exit(common::PATIENCE).unwrap().success());
        assert!(
            !engine.transcript().iter().any(|l| l.contains("error")),
            "{:?}",
            engine.transcript()
        );
    }
}

/// The value after `flag` in a command line's words.
fn flag<'a>(words: &[&'a str], flag: &str) -> &'a str {
    let at = words.iter().position(|&w| w == flag);
    words[at.unwrap_or_else(|| panic!("no {flag}")) + 1]
}

#[test]
fn the_c_gomoku_cli_line_runs_pbrain_ply_as_written() {
    let line = checked("c-gomoku-cli").replace("\\\n", " ");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "c-gomoku-cli");
    let size: usize = flag(&words, "-boardsize").parse().unwrap();
    let rule: u32 = flag(&words, "-rule").parse().unwrap();
    // tc=GAME/TURN in seconds.
    let tc = flag(&words, "-each").strip_prefix("tc=").unwrap();
    let (game_s, turn_s) = tc.split_once('/').unwrap();
    let (game_ms, turn_ms) = (
        game_s.parse::<u64>().unwrap() * 1000,
        (turn_s.parse::<f64>().unwrap() * 1000.0) as u64,
    );
    let brains: Vec<&str> = words
        .iter()
        .filter_map(|w| w.strip_prefix("cmd="))
        .filter(|cmd| cmd.ends_with("pbrain-ply"))
        .collect();
    assert_eq!(brains.len(), 1, "the line runs pbrain-ply");
    let mut brain = Engine::start(binary(brains[0]), &[]);
    // What c-gomoku-cli sends before a game and before the first move.
    assert_eq!(brain.ask(&format!("START {size}")), "OK");
    for info in [
        format!("rule {rule}"),
        format!("timeout_turn {turn_ms}"),
        format!("timeout_match {game_ms}"),
        "max_memory 350000000".to_string(),
        format!("time_left {game_ms}"),
    ] {
        brain.send(&format!("INFO {info}"));
    }
    // Search MESSAGE lines (on by default) come before the move.
    let mut reply = brain.ask("BEGIN");
    while reply.starts_with("MESSAGE ") {
        reply = brain.next_line(common::PATIENCE).expect("a move");
    }
    let (x, y) = reply.split_once(',').expect("a move x,y");
    let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < size && y < size, "{reply}");
    assert!(brain.ask("ABOUT").starts_with("name=\"Ply\""));
    brain.send("END");
    assert!(brain.wait_exit(common::PATIENCE).unwrap().success());
}

#[test]
fn the_windows_build_names_a_gomocup_brain() {
    let script = checked("windows-brain");
    let lines: Vec<&str> = script.lines().collect();
    assert_eq!(lines[0], "rustup target add x86_64-pc-windows-gnu");
    let build: Vec<&str> = lines
        .iter()
        .find(|l| l.starts_with("cargo build"))
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(flag(&build, "--target"), "x86_64-pc-windows-gnu");
    // The brain built is one of the crate's binaries, with the name
    // Piskvork and Gomocup require.
    let name = flag(&build, "--bin");
    assert!(name.starts_with("pbrain-"));
    assert!(
        name.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
        "Piskvork takes other names for its old file protocol"
    );
    assert_eq!(binary(&format!("target/release/{name}")), name);
    assert!(assert_cmd::cargo::cargo_bin(name).exists());
    assert!(
        readme().contains(&format!("target/x86_64-pc-windows-gnu/release/{name}.exe")),
        "the README names the file the build writes"
    );
}
