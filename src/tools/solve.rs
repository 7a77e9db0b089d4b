#![warn(missing_docs)]
//! `ply solve`: exact game values by searching to the end of the game.
//! Input lines are `moves [expected]`, written as the game's description
//! says ([`SolveNotation`]): Connect Four's follow Pascal Pons' test sets
//! (`4453 -2`), other games list moves and score in signed plies to the end.

use std::io::{BufRead, Write};
use std::time::Duration;

use super::search_with_helpers;
use crate::engine::registry;
use crate::engine::session::{Session, nodes_per_second};
use crate::game::{Settings, SolveNotation};
use crate::search::score::Score;
use crate::search::{Proof, SearchLimits, SearchParams};

/// The exact value of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Won (> 0) or lost (< 0) with the game ending after this many plies.
    Decided {
        /// Whether the side to move wins.
        win: bool,
        /// Plies until the game ends under best play (the winner hurrying,
        /// the loser delaying).
        plies: u32,
    },
    /// A draw under best play.
    Draw,
}

/// A solved position: its value and what proving it cost.
pub struct Solved {
    /// The exact value.
    pub value: Value,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
}

/// Solves the session's position with the searcher's solving mode (needs
/// a game that ends within the ply limit). With `Proof::Weak` a decided
/// game's `plies` is unknown and left at 0; with `Proof::ProofNumbers` it
/// is the length of the proof found, or 0 where none was searched.
pub fn solve(session: &dyn Session, proof: Proof) -> Solved {
    solve_with_helpers(session, proof, 0)
}

/// [`solve`] by the calling thread and `helpers` more (not for proof
/// numbers, which search on one thread): all solve the position on one
/// shared table, the helpers in jittered move orders; the main thread's
/// proof is the answer, and `nodes` are the main thread's alone.
pub fn solve_with_helpers(session: &dyn Session, proof: Proof, helpers: usize) -> Solved {
    let limits = SearchLimits {
        solve: Some(proof),
        ..Default::default()
    };
    let summary = search_with_helpers(session, limits, helpers);
    let value = match summary.last.as_ref().map(|i| i.score) {
        Some(Score::Mate(n)) if n > 0 => Value::Decided {
            win: true,
            plies: (2 * n - 1) as u32,
        },
        Some(Score::Mate(n)) if n < 0 => Value::Decided {
            win: false,
            plies: (-2 * n) as u32,
        },
        Some(Score::Cp(cp)) if cp != 0 => Value::Decided {
            win: cp > 0,
            plies: 0,
        },
        _ => Value::Draw,
    };
    Solved {
        value,
        nodes: summary.nodes,
        elapsed: summary.elapsed,
    }
}

/// The score of `value` as `notation` writes it, for a position reached
/// after `plies_played` moves on a board of `cells` cells.
pub fn notation_score(notation: SolveNotation, cells: u32, plies_played: u32, value: Value) -> i32 {
    match (notation, value) {
        (_, Value::Draw) => 0,
        (SolveNotation::StonesLeft, Value::Decided { win, plies }) => {
            // Pascal Pons' score: the winner's stones left unplayed when
            // the winning stone drops.
            let stones_before_last = plies_played + plies - 1;
            let score = (cells as i32 + 1 - stones_before_last as i32) / 2;
            if win { score } else { -score }
        }
        (SolveNotation::Plies, Value::Decided { win, plies }) => {
            if win {
                plies as i32
            } else {
                -(plies as i32)
            }
        }
    }
}

/// A test line's moves and expected score: `4453 -2` where moves are
/// compact, else the moves followed by an optional score; `start` (and
/// an optional score) for the start position. `Err` for a
/// line that cannot be read (an expected score that is not a number).
fn split_line(
    notation: SolveNotation,
    line: &str,
) -> Option<Result<(String, Option<i32>), String>> {
    let mut words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    let parse = |w: &str| {
        w.parse::<i32>()
            .map_err(|_| format!("expected score '{w}' is not a number"))
    };
    if words[0] == "start" {
        return Some(match words[1..] {
            [] => Ok((String::new(), None)),
            [score] => parse(score).map(|s| (String::new(), Some(s))),
            _ => Err("'start' may only be followed by a score".to_string()),
        });
    }
    if notation.compact_moves() {
        return Some(match words.as_slice() {
            [moves] => Ok((moves.to_string(), None)),
            [moves, score] => parse(score).map(|s| (moves.to_string(), Some(s))),
            _ => Err("expected '<moves> [score]'".to_string()),
        });
    }
    let expected = words.last().and_then(|s| s.parse::<i32>().ok());
    if expected.is_some() {
        words.pop();
    }
    Some(Ok((words.join(" "), expected)))
}

/// What [`run`] found over a whole input.
pub struct SolveReport {
    /// Positions solved.
    pub positions: usize,
    /// Positions whose value differs from the expected one on their line.
    pub mismatches: usize,
    /// Lines that could not be read or set up, reported on `errors`.
    pub malformed: usize,
}

/// How `ply solve` searches.
#[derive(Clone, Copy, Debug)]
pub struct SolveSetup {
    /// The table, in MB.
    pub hash_mb: usize,
    /// Exact, weak or by proof numbers.
    pub proof: Proof,
    /// The search switches (all on but those `--off` names).
    pub params: SearchParams,
    /// Threads solving each position together (1: deterministic).
    pub threads: usize,
}

/// `ply solve`: solves every line of `input` (moves, then optionally the
/// expected score, as the game's [`SolveNotation`] writes them): one result
/// line per position and a summary on `out`, unreadable lines on `errors`.
pub fn run(
    game: &str,
    settings: &Settings,
    setup: SolveSetup,
    input: impl BufRead,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> anyhow::Result<SolveReport> {
    let SolveSetup {
        hash_mb,
        proof,
        params,
        threads,
    } = setup;
    let description = registry::describe(game).map_err(anyhow::Error::msg)?;
    let notation = description.solve;
    let (width, height) = settings.size.unwrap_or(description.boards.default_size());
    let cells = (width * height) as u32;
    let mut session =
        registry::create(game, settings, hash_mb, params).map_err(anyhow::Error::msg)?;
    let mut report = SolveReport {
        positions: 0,
        mismatches: 0,
        malformed: 0,
    };
    let mut times = Vec::new();
    let mut total_nodes = 0;
    for (number, line) in crate::engine::input::lines(input).enumerate() {
        let (moves_text, expected) = match split_line(notation, &line) {
            None => continue,
            Some(Ok(parsed)) => parsed,
            Some(Err(e)) => {
                writeln!(errors, "line {}: {e}: {line}", number + 1)?;
                report.malformed += 1;
                continue;
            }
        };
        let moves = notation.split_moves(&moves_text);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        if let Err(e) = session.set_position(None, &refs) {
            writeln!(errors, "line {}: {e}: {line}", number + 1)?;
            report.malformed += 1;
            continue;
        }
        session.new_game();
        let solved = solve_with_helpers(session.as_ref(), proof, threads.saturating_sub(1));
        let score = match (proof, solved.value) {
            (Proof::Exact, value) => notation_score(notation, cells, moves.len() as u32, value),
            (_, Value::Draw) => 0,
            (_, Value::Decided { win: true, .. }) => 1,
            (_, Value::Decided { win: false, .. }) => -1,
        };
        // Proof numbers find a proof, not the shortest one: its length is
        // an upper bound, printed apart from the score.
        let proof_plies = match (proof, solved.value) {
            (Proof::ProofNumbers, Value::Decided { plies, .. }) if plies > 0 => {
                format!(" proof_plies {plies}")
            }
            _ => String::new(),
        };
        report.positions += 1;
        times.push(solved.elapsed);
        total_nodes += solved.nodes;
        let verdict = match expected {
            Some(e) if e == score || (proof != Proof::Exact && e.signum() == score) => " ok",
            Some(_) => {
                report.mismatches += 1;
                " MISMATCH"
            }
            None => "",
        };
        let moves_text = if moves.is_empty() {
            "start"
        } else {
            moves_text.as_str()
        };
        writeln!(
            out,
            "{moves_text} {score}{proof_plies} nodes {} time_us {}{verdict}",
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
