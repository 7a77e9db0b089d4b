//! Baseline players that need no process: `random`, `greedy` and `mcts`.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::clock::TimeControl;
use super::player::{Fault, Player, Reply, Turn};
use super::spec::Builtin;

pub struct BuiltinPlayer {
    kind: Builtin,
    rng: ChaCha8Rng,
}

impl BuiltinPlayer {
    pub fn new(kind: Builtin) -> BuiltinPlayer {
        BuiltinPlayer {
            kind,
            rng: ChaCha8Rng::seed_from_u64(0),
        }
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
                let values = turn.session.move_values();
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
                turn.session
                    .mcts_move(budget.min(wait / 2).max(Duration::from_millis(1)), seed)
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
    use crate::engine::session::MOVE_WINS;
    use crate::game::Settings;
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
        s.set_position(Some("xx1/oo1/3 x"), &[]).unwrap();
        let values = s.move_values();
        assert_eq!(values.len(), 5);
        assert!(values.contains(&("c3".to_string(), MOVE_WINS)));
        let clocks = Clocks::new(TimeControl::Depth(1), Duration::ZERO, Duration::ZERO);
        let turn = Turn {
            session: s.as_ref(),
            start_fen: None,
            moves: &[],
            clocks: &clocks,
        };
        let mut greedy = BuiltinPlayer::new(Builtin::Greedy);
        let mut random = BuiltinPlayer::new(Builtin::Random);
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
            start_fen: None,
            moves: &[],
            clocks: &clocks,
        };
        let mut mcts = BuiltinPlayer::new(Builtin::Mcts);
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
