//! UGI, the UCI-like protocol for any game (cutegames), with `uci` and
//! `uai` accepted as aliases. See protocol.md for the dialect.

use std::io::BufRead;
use std::sync::Arc;

use super::writer::Writer;
use crate::engine::input::lines;
use crate::engine::options::{self, OptionKind};
use crate::engine::{Controller, Event, EventSink, GoLimits, InfoLine, Score, Session};
use crate::game::{Outcome, Player, Settings};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ugi,
    Uci,
    Uai,
}

impl Dialect {
    fn ok(self) -> &'static str {
        match self {
            Dialect::Ugi => "ugiok",
            Dialect::Uci => "uciok",
            Dialect::Uai => "uaiok",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    P1Turn,
    GameOver,
    Result,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Hello(Dialect),
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoLimits),
    Stop,
    PonderHit,
    Query(Query),
    Display,
    Quit,
}

/// Parses one input line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let command = match head {
        "ugi" => Command::Hello(Dialect::Ugi),
        "uci" => Command::Hello(Dialect::Uci),
        "uai" => Command::Hello(Dialect::Uai),
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(&rest)?,
        "uginewgame" | "ucinewgame" | "uainewgame" => Command::NewGame,
        "position" => parse_position(&rest)?,
        "go" => Command::Go(parse_go(&rest)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "query" => Command::Query(match rest.as_slice() {
            ["p1turn"] => Query::P1Turn,
            ["gameover"] => Query::GameOver,
            ["result"] => Query::Result,
            _ => {
                return Err(format!(
                    "unknown query '{}' (p1turn, gameover, result)",
                    rest.join(" ")
                ));
            }
        }),
        "d" | "display" => Command::Display,
        "quit" => Command::Quit,
        other => return Err(format!("unknown command '{other}'")),
    };
    Ok(Some(command))
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    if words.first() != Some(&"name") {
        return Err("usage: setoption name <name> [value <value>]".to_string());
    }
    let value_at = words
        .iter()
        .position(|&w| w == "value")
        .unwrap_or(words.len());
    let name = words[1..value_at].join(" ");
    if name.is_empty() {
        return Err("setoption without an option name".to_string());
    }
    let value = words
        .get(value_at + 1..)
        .map(|v| v.join(" "))
        .unwrap_or_default();
    Ok(Command::SetOption { name, value })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let moves = words
        .get(moves_at + 1..)
        .unwrap_or(&[])
        .iter()
        .map(|m| m.to_string())
        .collect();
    let fen = match words.first() {
        Some(&"startpos") if moves_at == 1 => None,
        Some(&"fen") if moves_at > 1 => Some(words[1..moves_at].join(" ")),
        _ => return Err("usage: position startpos|fen <fen> [moves <move>...]".to_string()),
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(words: &[&str]) -> Result<GoLimits, String> {
    let mut limits = GoLimits::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" || key == "ponder" {
            if key == "infinite" {
                limits.infinite = true;
            } else {
                limits.ponder = true;
            }
            i += 1;
            continue;
        }
        let raw = words
            .get(i + 1)
            .ok_or_else(|| format!("go {key} needs a value"))?;
        // Clocks may run below zero on the manager's side; count that as 0.
        let value = raw
            .parse::<i64>()
            .map_err(|_| format!("go {key} needs an integer, not '{raw}'"))?
            .max(0) as u64;
        match key {
            "p1time" | "wtime" => limits.time[0] = Some(value),
            "p2time" | "btime" => limits.time[1] = Some(value),
            "p1inc" | "winc" => limits.inc[0] = value,
            "p2inc" | "binc" => limits.inc[1] = value,
            "movestogo" => limits.movestogo = Some(value.min(u32::MAX as u64) as u32),
            "movetime" => limits.movetime = Some(value),
            "depth" => limits.depth = Some(value.clamp(1, 1000) as u32),
            "nodes" => limits.nodes = Some(value.max(1)),
            _ => return Err(format!("unknown go parameter '{key}'")),
        }
        i += 2;
    }
    Ok(limits)
}

pub fn format_info(info: &InfoLine) -> String {
    let score = match info.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let multipv = info
        .multipv
        .map(|k| format!(" multipv {k}"))
        .unwrap_or_default();
    let mut line = format!(
        "info depth {} seldepth {}{multipv} score {score} nodes {} nps {} time {} hashfull {}",
        info.depth, info.seldepth, info.nodes, info.nps, info.time_ms, info.hashfull
    );
    if !info.pv.is_empty() {
        line.push_str(" pv ");
        line.push_str(&info.pv.join(" "));
    }
    line
}

fn format_event(event: &Event) -> String {
    match event {
        Event::Info(info) => format_info(info),
        Event::BestMove {
            best: Some(mv),
            ponder: Some(reply),
        } => format!("bestmove {mv} ponder {reply}"),
        Event::BestMove { best: Some(mv), .. } => format!("bestmove {mv}"),
        Event::BestMove { best: None, .. } => "bestmove none".to_string(),
        Event::Error(message) => format!("info string error {message}"),
    }
}

fn option_line(spec: &options::OptionSpec) -> String {
    match &spec.kind {
        OptionKind::Spin { default, min, max } => {
            format!(
                "option name {} type spin default {default} min {min} max {max}",
                spec.name
            )
        }
        OptionKind::Check { default } => {
            format!("option name {} type check default {default}", spec.name)
        }
        OptionKind::Text => format!("option name {} type string default <empty>", spec.name),
        OptionKind::Combo { default, vars } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            format!(
                "option name {} type combo default {default}{vars}",
                spec.name
            )
        }
    }
}

/// Runs the protocol over `input` until `quit` or end of input, searching
/// with `threads` threads (as if set by `setoption name Threads`).
pub fn run(
    input: impl BufRead,
    writer: Writer,
    game: &str,
    settings: Settings,
    hash_mb: usize,
    threads: usize,
) -> anyhow::Result<()> {
    let mut controller = Controller::new(game, settings, hash_mb, event_sink(&writer))
        .map_err(anyhow::Error::msg)?;
    if threads != 1 {
        controller
            .set_option("Threads", &threads.to_string())
            .map_err(anyhow::Error::msg)?;
    }
    serve(input, writer, controller)
}

/// Runs the protocol over `input` for a session built by the caller, such
/// as a game implemented outside Ply's registry (see
/// [`Controller::with_session`]); `hash_mb` is the size of the session's
/// table. Options that pick a game or variant (`Game`, `Rule`,
/// `BoardSize`) still choose among the registered games.
pub fn run_with_session(
    input: impl BufRead,
    writer: Writer,
    session: Box<dyn Session>,
    hash_mb: usize,
) -> anyhow::Result<()> {
    let controller = Controller::with_session(session, hash_mb, event_sink(&writer));
    serve(input, writer, controller.map_err(anyhow::Error::msg)?)
}

fn event_sink(writer: &Writer) -> EventSink {
    let writer = writer.clone();
    Arc::new(move |event| writer.line(&format_event(&event)))
}

fn serve(input: impl BufRead, writer: Writer, mut controller: Controller) -> anyhow::Result<()> {
    let mut quit = false;
    for line in lines(input) {
        log::debug!("< {line}");
        match parse(&line) {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => {
                quit = true;
                break;
            }
            Ok(Some(command)) => execute(command, &mut controller, &writer),
            Err(error) => writer.line(&format!("info string error {error}")),
        }
    }
    if !quit {
        // End of input (a piped script): let a bounded search finish.
        controller.finish();
    }
    // Dropping the controller stops a running search (its bestmove is
    // still printed) and joins the search thread.
    drop(controller);
    Ok(())
}

fn execute(command: Command, controller: &mut Controller, writer: &Writer) {
    let error = |e: &dyn std::fmt::Display| writer.line(&format!("info string error {e}"));
    match command {
        Command::Hello(dialect) => {
            writer.line(&format!("id name Ply {}", env!("CARGO_PKG_VERSION")));
            writer.line("id author the Ply developers");
            for spec in options::specs() {
                writer.line(&option_line(&spec));
            }
            writer.line(dialect.ok());
        }
        Command::IsReady => writer.line("readyok"),
        Command::SetOption { name, value } => match controller.set_option(&name, &value) {
            Ok(Some(notice)) => writer.line(&format!("info string {notice}")),
            Ok(None) => {}
            Err(e) => error(&e),
        },
        Command::NewGame => controller.new_game(),
        Command::Position { fen, moves } => {
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            if let Err(e) = controller.set_position(fen.as_deref(), &moves) {
                error(&format!("{e}; position unchanged"));
            }
        }
        Command::Go(limits) => controller.go(limits),
        Command::Stop => controller.stop(),
        Command::PonderHit => controller.ponderhit(),
        Command::Query(query) => {
            let session = controller.session();
            let answer = match query {
                Query::P1Turn => (session.side_to_move() == Player::P1).to_string(),
                Query::GameOver => session.outcome().is_some().to_string(),
                Query::Result => match session.outcome() {
                    None => "none",
                    Some(Outcome::Draw) => "draw",
                    Some(Outcome::Win(Player::P1)) => "p1win",
                    Some(Outcome::Win(Player::P2)) => "p2win",
                }
                .to_string(),
            };
            writer.line(&format!("response {answer}"));
        }
        Command::Display => {
            let session = controller.session();
            // One block, so that a running search's info lines cannot
            // come between the rows.
            let rows = session.render();
            let fen = format!("fen {}", session.fen());
            writer.lines(
                rows.lines()
                    .chain([fen.as_str()])
                    .map(|row| format!("info string {row}")),
            );
        }
        Command::Quit => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_parameters_and_aliases() {
        let Ok(Some(Command::Go(l))) = parse("go wtime 1000 btime -5 winc 10 p2inc 20 movestogo 7")
        else {
            panic!("go did not parse");
        };
        assert_eq!(l.time, [Some(1000), Some(0)]);
        assert_eq!(l.inc, [10, 20]);
        assert_eq!(l.movestogo, Some(7));
        assert_eq!(
            parse("go infinite").unwrap(),
            Some(Command::Go(GoLimits {
                infinite: true,
                ..Default::default()
            }))
        );
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go sideways 3").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves 4 4").unwrap(),
            Some(Command::Position {
                fen: None,
                moves: vec!["4".into(), "4".into()]
            })
        );
        assert_eq!(
            parse("position fen 3/3/3 x").unwrap(),
            Some(Command::Position {
                fen: Some("3/3/3 x".into()),
                moves: vec![]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen moves 1").is_err());
        assert!(parse("position startpos 4").is_err());
    }

    #[test]
    fn setoption_names_and_values_may_have_spaces() {
        assert_eq!(
            parse("setoption name Move Overhead value 10 ms").unwrap(),
            Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: "10 ms".into()
            })
        );
        assert!(parse("setoption value 3").is_err());
        assert!(parse("query colour").is_err());
        assert!(parse("fly").is_err());
        assert_eq!(parse("   ").unwrap(), None);
    }
}
