//! Plain Monte-Carlo tree search (UCT with uniformly random playouts): a
//! baseline opponent for measuring the alpha-beta searcher, as in the 5x5
//! agent report's comparison. Generic over [`Game`] like the real search.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Game, Outcome, Player};

/// Exploration constant of UCB1.
const EXPLORATION: f64 = 1.4;
/// A playout longer than this counts as a draw (games with cycles).
const MAX_PLAYOUT_PLIES: usize = 500;

struct Node<M> {
    mv: Option<M>,
    parent: usize,
    children: Vec<usize>,
    untried: Vec<M>,
    visits: u32,
    /// Results for the player who made `mv`: 1 a win, 0.5 a draw.
    reward: f64,
    /// The player who made `mv`.
    mover: Player,
}

/// Picks a move for `root` by UCT within `budget` (and `max_iterations`
/// if given); `None` when the game is over.
pub fn best_move<G: Game>(
    root: &G,
    budget: Duration,
    max_iterations: Option<u64>,
    seed: u64,
) -> Option<G::Move> {
    if root.outcome().is_some() {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut untried = Vec::new();
    root.generate_moves(&mut untried);
    let mut nodes = vec![Node {
        mv: None,
        parent: usize::MAX,
        children: Vec::new(),
        untried,
        visits: 0,
        reward: 0.0,
        mover: root.side_to_move().other(),
    }];
    let start = Instant::now();
    let mut iterations = 0u64;
    let mut buffer = Vec::new();
    while max_iterations.is_none_or(|m| iterations < m)
        && (iterations == 0 || start.elapsed() < budget)
    {
        iterations += 1;
        let mut pos = root.clone();
        let mut path = Vec::with_capacity(32);
        // Selection: descend through fully expanded nodes.
        let mut node = 0;
        while nodes[node].untried.is_empty() && !nodes[node].children.is_empty() {
            let parent_visits = f64::from(nodes[node].visits.max(1)).ln();
            node = *nodes[node]
                .children
                .iter()
                .max_by(|&&a, &&b| {
                    let ucb = |n: &Node<G::Move>| {
                        n.reward / f64::from(n.visits)
                            + EXPLORATION * (parent_visits / f64::from(n.visits)).sqrt()
                    };
                    ucb(&nodes[a]).total_cmp(&ucb(&nodes[b]))
                })
                .expect("children");
            let mv = nodes[node].mv.expect("a child has a move");
            pos.make_move(mv);
            path.push(mv);
        }
        // Expansion: one untried move, chosen at random.
        if !nodes[node].untried.is_empty() {
            let pick = rng.random_range(0..nodes[node].untried.len());
            let mv = nodes[node].untried.swap_remove(pick);
            let mover = pos.side_to_move();
            pos.make_move(mv);
            let mut untried = Vec::new();
            pos.generate_moves(&mut untried);
            nodes.push(Node {
                mv: Some(mv),
                parent: node,
                children: Vec::new(),
                untried,
                visits: 0,
                reward: 0.0,
                mover,
            });
            let child = nodes.len() - 1;
            nodes[node].children.push(child);
            node = child;
        }
        // Simulation: random moves to the end of the game.
        let mut plies = 0;
        let outcome = loop {
            if let Some(outcome) = pos.outcome() {
                break outcome;
            }
            buffer.clear();
            pos.generate_moves(&mut buffer);
            if buffer.is_empty() || plies >= MAX_PLAYOUT_PLIES {
                break Outcome::Draw;
            }
            let mv = buffer[rng.random_range(0..buffer.len())];
            pos.make_move(mv);
            plies += 1;
        };
        // Backpropagation.
        while node != usize::MAX {
            let n = &mut nodes[node];
            n.visits += 1;
            n.reward += match outcome {
                Outcome::Draw => 0.5,
                Outcome::Win(p) if p == n.mover => 1.0,
                Outcome::Win(_) => 0.0,
            };
            node = n.parent;
        }
    }
    nodes[0]
        .children
        .iter()
        .max_by_key(|&&c| nodes[c].visits)
        .and_then(|&c| nodes[c].mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Settings;
    use crate::game::connect4::Connect4;

    #[test]
    fn finds_an_immediate_win_and_is_reproducible() {
        let mut pos = Connect4::start(&Settings::default()).unwrap();
        for mv in ["1", "2", "1", "2", "1", "3"] {
            let m = pos.parse_move(mv).unwrap();
            pos.make_move(m);
        }
        let budget = Duration::from_secs(10);
        let a = best_move(&pos, budget, Some(3000), 1);
        assert_eq!(a, Some(0), "column 1 wins");
        assert_eq!(a, best_move(&pos, budget, Some(3000), 1));
    }
}
