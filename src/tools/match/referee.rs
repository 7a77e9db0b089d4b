//! One game: asks each player for its move in turn, checks every move with
//! a session of the game, keeps the clocks and records how the game ended.

use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::openings::Opening;
use super::player::{Fault, Player, Turn};
use crate::engine::Session;
use crate::game::{Outcome, Player as Side};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules.
    Normal,
    /// The side lost on time (or never answered and was killed).
    Time(Side),
    /// The side played an illegal move (the text it sent).
    Illegal(Side, String),
    /// The side's process exited or could not be started.
    Crash(Side, String),
    /// The side replied with something that is not a move.
    Garbage(Side, String),
}

impl Termination {
    pub fn loser(&self) -> Option<Side> {
        match self {
            Termination::Normal => None,
            Termination::Time(s)
            | Termination::Illegal(s, _)
            | Termination::Crash(s, _)
            | Termination::Garbage(s, _) => Some(*s),
        }
    }

    pub fn describe(&self, names: [&str; 2]) -> String {
        let who = |s: &Side| names[s.index()];
        match self {
            Termination::Normal => "normal".into(),
            Termination::Time(s) => format!("time forfeit by {}", who(s)),
            Termination::Illegal(s, mv) => format!("illegal move '{mv}' by {}", who(s)),
            Termination::Crash(s, why) => format!("crash of {} ({why})", who(s)),
            Termination::Garbage(s, line) => format!("non-move reply '{line}' by {}", who(s)),
        }
    }
}

pub struct GameResult {
    pub outcome: Outcome,
    pub termination: Termination,
    /// The moves played after the opening.
    pub moves: Vec<String>,
    /// The referee's own time per move (the whole turn less the engine's).
    pub overhead: Vec<Duration>,
}

fn fault_termination(side: Side, fault: Fault) -> Termination {
    match fault {
        Fault::Timeout => Termination::Time(side),
        Fault::Crash(why) => Termination::Crash(side, why),
        Fault::Garbage(line) => Termination::Garbage(side, line),
    }
}

/// Plays one game from `opening`; `players[0]` is P1, `players[1]` is P2.
pub fn play_game(
    session: &mut dyn Session,
    opening: &Opening,
    players: [&mut dyn Player; 2],
    mut clocks: Clocks,
    seed: u64,
) -> GameResult {
    let [p1, p2] = players;
    let mut players: [&mut dyn Player; 2] = [p1, p2];
    let mut result = GameResult {
        outcome: Outcome::Draw,
        termination: Termination::Normal,
        moves: Vec::new(),
        overhead: Vec::new(),
    };
    let opening_moves: Vec<&str> = opening.moves.iter().map(String::as_str).collect();
    if let Err(e) = session.set_position(opening.fen.as_deref(), &opening_moves) {
        // Openings are checked when loaded; this cannot happen.
        result.termination = Termination::Crash(Side::P1, format!("bad opening: {e}"));
        return result;
    }
    let mut all_moves: Vec<String> = opening.moves.clone();
    for (i, side) in [Side::P1, Side::P2].into_iter().enumerate() {
        if let Err(fault) = players[i].new_game(seed.wrapping_mul(2).wrapping_add(i as u64)) {
            result.outcome = Outcome::Win(side.other());
            result.termination = fault_termination(side, fault);
            return result;
        }
    }
    loop {
        if let Some(outcome) = session.outcome() {
            result.outcome = outcome;
            break;
        }
        let side = session.side_to_move();
        let started = Instant::now();
        let wait = clocks.wait(side);
        let turn = Turn {
            session: &*session,
            start_fen: opening.fen.as_deref(),
            moves: &all_moves,
            clocks: &clocks,
        };
        let reply = match players[side.index()].play(&turn, wait) {
            Ok(reply) => reply,
            Err(fault) => {
                result.outcome = Outcome::Win(side.other());
                result.termination = fault_termination(side, fault);
                break;
            }
        };
        if !clocks.charge(side, reply.elapsed) {
            result.outcome = Outcome::Win(side.other());
            result.termination = Termination::Time(side);
            break;
        }
        let mv = reply.mv.trim().to_string();
        if session.play_move(&mv).is_err() {
            result.outcome = Outcome::Win(side.other());
            result.termination = Termination::Illegal(side, mv);
            break;
        }
        all_moves.push(mv.clone());
        result.moves.push(mv);
        result
            .overhead
            .push(started.elapsed().saturating_sub(reply.elapsed));
    }
    for p in players.iter_mut() {
        p.end_game();
    }
    result
}
