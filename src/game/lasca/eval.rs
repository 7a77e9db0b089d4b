//! Static evaluation. Every piece counts for its owner, weighted by what
//! it can still do: a commander fully, a reserve piece under its own
//! commander mostly (it takes over if the top is captured), a prisoner
//! under an enemy commander little (only a capture of that column frees
//! it). Positional terms: soldiers' advance, central officers, guarded
//! columns, mobility and the move.

use super::Lasca;
use super::board::{SIZE, rank_of, squares};
use super::column::Piece;
use crate::game::EVAL_LIMIT;

const SOLDIER: i32 = 100;
const OFFICER: i32 = 260;
/// Percent of a piece's value kept as reserve, and as prisoner.
const RESERVE_PCT: i32 = 70;
const PRISONER_PCT: i32 = 20;
/// A column whose second piece is the owner's survives one capture.
const GUARDED: i32 = 15;
/// By ranks advanced from the soldier's own back rank.
const ADVANCE: [i32; SIZE] = [0, 0, 4, 10, 20, 35, 0];
const CENTRE_STEP: i32 = 4;
const MOBILITY: i32 = 4;
const TEMPO: i32 = 10;

fn value(piece: Piece) -> i32 {
    if piece.officer { OFFICER } else { SOLDIER }
}

pub fn evaluate(pos: &Lasca) -> i32 {
    let mut score = [0i32; 2];
    for sq in squares(pos.occupied()) {
        let col = pos.cols[sq];
        let top = col.top();
        let owner = top.side;
        score[owner] += value(top);
        if top.officer {
            let (file, rank) = ((sq % SIZE) as i32, rank_of(sq) as i32);
            let distance = (file - 3).abs().max((rank - 3).abs());
            score[owner] += CENTRE_STEP * (3 - distance);
        } else {
            let rank = rank_of(sq);
            let advanced = if owner == 0 { rank } else { SIZE - 1 - rank };
            score[owner] += ADVANCE[advanced];
        }
        for (i, piece) in col.pieces().enumerate().skip(1) {
            if piece.side == owner {
                score[owner] += value(piece) * RESERVE_PCT / 100;
                if i == 1 {
                    score[owner] += GUARDED;
                }
            } else {
                score[piece.side] += value(piece) * PRISONER_PCT / 100;
            }
        }
    }
    for (side, s) in score.iter_mut().enumerate() {
        *s += MOBILITY * pos.step_count(side);
    }
    let me = pos.me();
    let total = score[me] - score[1 - me] + TEMPO;
    total.clamp(-(EVAL_LIMIT - 1), EVAL_LIMIT - 1)
}
