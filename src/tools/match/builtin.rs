//! Baseline players that need no process: `random`, `greedy` and `mcts`.
//! They work on the game's own type, chosen once by the registry, and
//! replay the turn's moves to reach the position (history included).

use std::marker::PhantomData;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::clock::TimeControl;
use super::mcts;
use super::player::{Fault, Player, Reply, Turn};
use super::spec::Builtin;
use crate::engine::registry;
use crate::game::{EVAL_LIMIT, Game, GameVisitor, Outcome, Settings};

/// The one-ply value of a move that ends the game in the mover's favour;
/// static evaluations stay strictly below it.
pub const MOVE_WINS: i32 = EVAL_LIMIT + 1;

/// Each legal move of `position` with its value one ply deep, for the side
/// to move: [`MOVE_WINS`] for a move that wins at once, `-MOVE_WINS` for one
/// that loses at once, 0 for one that draws, else minus the static
/// evaluation of the position after it (which is from the opponent's view).
pub fn move_values<G: Game>(position: &G) -> Vec<(G::Move, i32)> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let mover = position.side_to_move();
    let mut child = position.clone();
    moves
        .iter()
        .map(|&mv| {
            child.make_move(mv);
            let value = match child.outcome() {
                Some(Outcome::Win(p)) if p == mover => MOVE_WINS,
                Some(Outcome::Win(_)) => -MOVE_WINS,
                Some(Outcome::Draw) => 0,
                None => -child.evaluate(),
            };
            child.unmake_move(mv);
            (mv, value)
        })
        .collect()
}

/// What a baseline needs from the game, with the game's type erased.
trait Rules: Send {
    /// Each legal move of the turn's position with its one-ply value.
    fn move_values(&self, turn: &Turn) -> Result<Vec<(String, i32)>, Fault>;
    /// A move chosen by plain Monte-Carlo tree search within `budget`.
    fn mcts_move(&self, turn: &Turn, budget: Duration, seed: u64) -> Result<Option<String>, Fault>;
}

struct GameRules<G> {
    settings: Settings,
    game: PhantomData<fn() -> G>,
}

impl<G: Game> GameRules<G> {
    fn position(&self, turn: &Turn) -> Result<G, Fault> {
        let bad =
            |e: crate::game::GameError| Fault::Garbage(format!("cannot replay the game: {e}"));
        let mut position = match turn.start_fen {
            Some(fen) => G::from_fen(fen, &self.settings).map_err(bad)?,
            None => G::start(&self.settings).map_err(bad)?,
        };
        for text in turn.moves {
            let mv = position.parse_move(text).map_err(bad)?;
            position.make_move(mv);
        }
        Ok(position)
    }
}

impl<G: Game> Rules for GameRules<G> {
    fn move_values(&self, turn: &Turn) -> Result<Vec<(String, i32)>, Fault> {
        let position = self.position(turn)?;
        Ok(move_values(&position)
            .into_iter()
            .map(|(mv, value)| (position.move_to_string(mv), value))
            .collect())
    }

    fn mcts_move(&self, turn: &Turn, budget: Duration, seed: u64) -> Result<Option<String>, Fault> {
        let position = self.position(turn)?;
        Ok(mcts::best_move(&position, budget, None, seed).map(|mv| position.move_to_string(mv)))
    }
}

struct NewRules;

impl GameVisitor for NewRules {
    type Output = Box<dyn Rules>;
    fn visit<G: Game>(self, settings: &Settings) -> Self::Output {
        Box::new(GameRules::<G> {
            settings: settings.clone(),
            game: PhantomData,
        })
    }
}

pub struct BuiltinPlayer {
    kind: Builtin,
    rules: Box<dyn Rules>,
    rng: ChaCha8Rng,
}

impl BuiltinPlayer {
    /// A baseline player of `game` with `settings`.
    pub fn new(kind: Builtin, game: &str, settings: &Settings) -> Result<BuiltinPlayer, String> {
        Ok(BuiltinPlayer {
            kind,
            rules: registry::visit(game, settings, NewRules)?,
            rng: ChaCha8Rng::seed_from_u64(0),
        })
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }
}

impl Player for BuiltinPlayer {
    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        Ok(())
    }

    fn play(&mut self, turn: &Turn, wait: Duration) -> Result<Reply, Fault> {
        let started = Instant::now();
        let mv = match self.kind {
            Builtin::Random => {
                let moves = turn.session.legal_moves();
                moves.get(self.below(moves.len())).cloned()
            }
            Builtin::Greedy => {
                let values = self.rules.move_values(turn)?;
                let best = values.iter().map(|(_, v)| *v).max();
                let top: Vec<&String> = values
                    .iter()
                    .filter(|(_, v)| Some(*v) == best)
                    .map(|(m, _)| m)
                    .collect();
                top.get(self.below(top.len())).map(|m| (*m).clone())
            }
            Builtin::Mcts => {
                // The time an engine would plan: a fixed move time whole,
                // a clock's share as engines take it, and a tenth of a
                // second for depth and node limits (which MCTS lacks).
                let budget = match turn.clocks.tc {
                    TimeControl::MoveTime(ms) => Duration::from_millis(ms),
                    TimeControl::Clock { inc_ms, .. } => {
                        turn.clocks.allowed(turn.session.side_to_move()) / 30
                            + Duration::from_millis(inc_ms * 3 / 4)
                    }
                    _ => Duration::from_millis(100),
                };
                let seed = self.rng.next_u64();
                let budget = budget.min(wait / 2).max(Duration::from_millis(1));
                self.rules.mcts_move(turn, budget, seed)?
            }
        };
        let mv = mv.ok_or_else(|| Fault::Garbage("no legal move".into()))?;
        Ok(Reply {
            mv,
            elapsed: started.elapsed(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::registry;
    use crate::game::Settings;
    use crate::game::tictactoe::TicTacToe;
    use crate::search::SearchParams;
    use crate::tools::r#match::clock::{Clocks, TimeControl};

    #[test]
    fn greedy_takes_a_win_and_random_plays_legal_moves() {
        let mut s = registry::create(
            "tictactoe",
            &Settings::default(),
            1,
            SearchParams::default(),
        )
        .unwrap();
        let fen = "xx1/oo1/3 x";
        s.set_position(Some(fen), &[]).unwrap();
        let position = TicTacToe::from_fen(fen, &Settings::default()).unwrap();
        let values = move_values(&position);
        assert_eq!(values.len(), 5);
        let c3 = position.parse_move("c3").unwrap();
        assert!(values.contains(&(c3, MOVE_WINS)));
        let clocks = Clocks::new(TimeControl::Depth(1), Duration::ZERO, Duration::ZERO);
        let turn = Turn {
            session: s.as_ref(),
            start_fen: Some(fen),
            moves: &[],
            clocks: &clocks,
        };
        let mut greedy =
            BuiltinPlayer::new(Builtin::Greedy, "tictactoe", &Settings::default()).unwrap();
        let mut random =
            BuiltinPlayer::new(Builtin::Random, "tictactoe", &Settings::default()).unwrap();
        for seed in 0..20 {
            greedy.new_game(seed).unwrap();
            random.new_game(seed).unwrap();
            assert_eq!(greedy.play(&turn, Duration::ZERO).unwrap().mv, "c3");
            let mv = random.play(&turn, Duration::ZERO).unwrap().mv;
            assert!(s.legal_moves().contains(&mv), "{mv}");
        }
        // Monte-Carlo search finds the win too, within its time.
        let clocks = Clocks::new(TimeControl::MoveTime(100), Duration::ZERO, Duration::ZERO);
        let turn = Turn {
            session: s.as_ref(),
            start_fen: Some(fen),
            moves: &[],
            clocks: &clocks,
        };
        let mut mcts =
            BuiltinPlayer::new(Builtin::Mcts, "tictactoe", &Settings::default()).unwrap();
        mcts.new_game(1).unwrap();
        let reply = mcts.play(&turn, Duration::from_millis(200)).unwrap();
        assert_eq!(reply.mv, "c3");
        assert!(
            reply.elapsed < Duration::from_millis(150),
            "{:?}",
            reply.elapsed
        );
    }
}
