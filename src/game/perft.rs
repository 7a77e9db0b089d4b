//! Move-generation counting: the number of move paths of a given length.
//! A position where the game is over has no children.

use super::Game;

/// The number of move paths of exactly `depth` plies from `pos` (1 at depth
/// 0); `pos` is left as it was. Checks move generation against known counts.
///
/// ```
/// use ply::game::{Game, Settings, perft::perft, tictactoe::TicTacToe};
/// let mut start = TicTacToe::start(&Settings::default()).unwrap();
/// assert_eq!(perft(&mut start, 2), 9 * 8);
/// ```
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    count(pos, depth, &mut buffers)
}

fn count<G: Game>(pos: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    moves.clear();
    pos.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        pos.make_move(mv);
        total += count(pos, depth - 1, rest);
        pos.unmake_move(mv);
    }
    total
}
