//! Openings a gomoku player may propose under Swap2: three stones (black,
//! white, black) near the centre, from which a brain offers the one its
//! search finds most even.

use super::xy_to_square;

/// The candidates as Gomocup `x,y` offsets (x to the right, y down) from
/// the centre cell: all within two cells of it, so they fit every board.
const SWAP2_OPENINGS: [[(usize, usize); 3]; 4] = [
    [(0, 0), (1, 0), (1, 1)],
    [(0, 0), (1, 1), (2, 0)],
    [(0, 0), (0, 1), (2, 2)],
    [(0, 0), (2, 1), (1, 2)],
];

/// The Swap2 candidate openings on a `width` x `height` board, each as the
/// moves (black, white, black) from the start position.
pub fn swap2_openings(width: usize, height: usize) -> Vec<Vec<String>> {
    let (cx, cy) = (width / 2, height / 2);
    SWAP2_OPENINGS
        .iter()
        .map(|opening| {
            opening
                .iter()
                .map(|&(dx, dy)| xy_to_square(cx + dx, cy + dy, height))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::gomoku::{Gomoku, MIN_SIZE};
    use crate::game::{Game, Settings};

    #[test]
    fn every_candidate_is_legal_on_every_board() {
        for (w, h) in [(15, 15), (20, 20), (MIN_SIZE, MIN_SIZE), (20, 12)] {
            let settings = Settings {
                size: Some((w, h)),
                rule: Some("renju".to_string()),
            };
            let openings = swap2_openings(w, h);
            assert_eq!(openings.len(), SWAP2_OPENINGS.len());
            for moves in openings {
                let mut pos = Gomoku::start(&settings).unwrap();
                for mv in &moves {
                    let mv = pos
                        .parse_move(mv)
                        .unwrap_or_else(|e| panic!("{w}x{h}: {e}"));
                    pos.make_move(mv);
                }
            }
        }
        // The first one on the standard board: h8, then i8 and i7.
        assert_eq!(swap2_openings(15, 15)[0], ["h8", "i8", "i7"]);
    }
}
