//! Baseline players that need no process: `random` and `greedy`.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

    fn play(&mut self, turn: &Turn, _wait: Duration) -> Result<Reply, Fault> {
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
        };
        let mv = mv.ok_or_else(|| Fault::Garbage("no legal move".into()))?;
        Ok(Reply {
            mv,
            elapsed: started.elapsed(),
        })
    }
}
