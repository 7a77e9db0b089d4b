//! `ply solve`: exact game values by searching to the end of the game.
//! Input lines are `moves [expected]`; for Connect Four the moves are a
//! column string ("4453") and scores follow Pascal Pons' convention, so his
//! test sets can be checked directly. Other games take space-separated
//! moves and score in signed plies to the end (see `signed_plies`).

use std::io::{BufRead, Write};
use std::time::Duration;

use super::search_now;
use crate::engine::registry;
use crate::engine::session::{Session, nodes_per_second};
use crate::game::Settings;
use crate::search::score::Score;
use crate::search::{SearchLimits, SearchParams};

/// The exact value of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Won (> 0) or lost (< 0) with the game ending after this many plies.
    Decided {
        win: bool,
        plies: u32,
    },
    Draw,
}

pub struct Solved {
    pub value: Value,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Searches the session's position until it is proven (needs a game small
/// enough to end within the ply limit).
pub fn solve(session: &dyn Session) -> Solved {
    let summary = search_now(session, SearchLimits::default());
    let value = match summary.last.as_ref().map(|i| i.score) {
        Some(Score::Mate(n)) if n > 0 => Value::Decided {
            win: true,
            plies: (2 * n - 1) as u32,
        },
        Some(Score::Mate(n)) => Value::Decided {
            win: false,
            plies: (-2 * n) as u32,
        },
        _ => Value::Draw,
    };
    Solved {
        value,
        nodes: summary.nodes,
        elapsed: summary.elapsed,
    }
}

/// Pascal Pons' score: for a win, the winner's stones left unplayed when
/// the winning stone drops ((43 - stones before it) / 2); negative for a loss.
pub fn pons_score(stones_played: u32, value: Value) -> i32 {
    match value {
        Value::Draw => 0,
        Value::Decided { win, plies } => {
            let stones_before_last = stones_played + plies - 1;
            let score = (43 - stones_before_last as i32) / 2;
            if win { score } else { -score }
        }
    }
}

/// The score of other games: plies to the end of the game, positive for a
/// win of the side to move, negative for a loss, 0 for a draw.
pub fn signed_plies(value: Value) -> i32 {
    match value {
        Value::Draw => 0,
        Value::Decided { win: true, plies } => plies as i32,
        Value::Decided { win: false, plies } => -(plies as i32),
    }
}

/// A test line's moves and expected score. Connect Four lines are Pons'
/// `4453 -2`; other games list their moves and may end with the score.
fn split_line(game: &str, line: &str) -> Option<(String, Option<i32>)> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    if game == "connect4" {
        return Some((
            words[0].to_string(),
            words.get(1).and_then(|s| s.parse().ok()),
        ));
    }
    let expected = words.last().and_then(|s| s.parse::<i32>().ok());
    if expected.is_some() {
        words.pop();
    }
    Some((words.join(" "), expected))
}

/// Moves of a test line: one character per move for Connect Four's column
/// strings, else whitespace-separated.
fn split_moves(game: &str, moves: &str) -> Vec<String> {
    if game == "connect4" && !moves.contains(' ') {
        moves.chars().map(|c| c.to_string()).collect()
    } else {
        moves.split_whitespace().map(str::to_string).collect()
    }
}

pub struct SolveReport {
    pub positions: usize,
    pub mismatches: usize,
}

pub fn run(
    game: &str,
    hash_mb: usize,
    input: impl BufRead,
    out: &mut dyn Write,
) -> anyhow::Result<SolveReport> {
    let mut session =
        registry::create(game, &Settings::default(), hash_mb, SearchParams::default())
            .map_err(anyhow::Error::msg)?;
    let mut report = SolveReport {
        positions: 0,
        mismatches: 0,
    };
    let mut times = Vec::new();
    let mut total_nodes = 0;
    for line in crate::protocol::ugi::lines(input) {
        let Some((moves_text, expected)) = split_line(game, &line) else {
            continue;
        };
        let moves = split_moves(game, &moves_text);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        if let Err(e) = session.set_position(None, &refs) {
            writeln!(out, "{moves_text} error {e}")?;
            report.mismatches += 1;
            continue;
        }
        session.new_game();
        let solved = solve(session.as_ref());
        let score = if game == "connect4" {
            pons_score(moves.len() as u32, solved.value)
        } else {
            signed_plies(solved.value)
        };
        report.positions += 1;
        times.push(solved.elapsed);
        total_nodes += solved.nodes;
        let verdict = match expected {
            Some(e) if e == score => " ok",
            Some(_) => {
                report.mismatches += 1;
                " MISMATCH"
            }
            None => "",
        };
        writeln!(
            out,
            "{moves_text} {score} nodes {} time_us {}{verdict}",
            solved.nodes,
            solved.elapsed.as_micros()
        )?;
    }
    times.sort();
    let total: Duration = times.iter().sum();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    writeln!(
        out,
        "solved {} positions, {} mismatches, median {} us, mean {} us, {} nodes, {} nps",
        report.positions,
        report.mismatches,
        median.as_micros(),
        total.as_micros() / times.len().max(1) as u128,
        total_nodes,
        nodes_per_second(total_nodes, total)
    )?;
    Ok(report)
}
