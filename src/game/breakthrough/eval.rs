//! Static evaluation, from the side to move's point of view.
//!
//! First the decisive cases that quiescence cannot see from a stand-pat:
//! a piece one step from the goal, an enemy threat that cannot be answered,
//! and a runner (a piece that no enemy piece can catch or block) that
//! arrives before anything the enemy can send the other way. Otherwise a
//! linear sum of features from Atachiants' "Simple AI for the Game of
//! Breakthrough" (2009), computed on whole bit sets: material, advancement,
//! extra danger near the goal (more when guarded), horizontal and vertical
//! connection, mobility, empty files, home-row defence.
//!
//! Weights were set by fixed-depth self-play (depth 6, 100 games from
//! random 4-ply openings, against material + advancement alone). Dropping
//! mobility/connection or the near-goal terms lost clearly (18-42, 31-69);
//! the article's per-piece attack / hanging / protection terms lost games
//! even at small weights (40-60), since quiescence already resolves the
//! exchanges they guess at, so only "guarded near the goal" is kept.

use super::{Bits, Breakthrough};
use crate::game::EVAL_LIMIT;

/// A won position, less `PER_MOVE` per move the win still needs, so that
/// the quicker of two wins is preferred. Far above any positional sum.
const DECISIVE: i32 = 15_000;
const PER_MOVE: i32 = 100;
/// Positional sums are clipped here, below every decisive score.
const POSITIONAL_CAP: i32 = 10_000;
const _: () = assert!(DECISIVE < EVAL_LIMIT && POSITIONAL_CAP < DECISIVE - 16 * PER_MOVE);

const PIECE: i32 = 100;
/// Per row advanced from the home row.
const ADVANCE: i32 = 10;
/// Extra for a piece two / three rows short of the goal ...
const NEAR_2: i32 = 30;
const NEAR_3: i32 = 10;
/// ... and more if a friend guards it, since then it cannot be simply
/// taken off.
const NEAR_GUARDED: i32 = 20;
const CONNECTED_H: i32 = 4;
const CONNECTED_V: i32 = 3;
const MOBILITY: i32 = 1;
/// Per file holding none of our pieces: a road for enemy runners.
const EMPTY_FILE: i32 = 12;
/// Per piece still on the home row, the last line of defence.
const HOME: i32 = 8;
const TEMPO: i32 = 5;

pub fn evaluate<B: Bits>(pos: &Breakthrough<B>) -> i32 {
    let me = pos.me();
    let them = 1 - me;
    let (mine, theirs) = (pos.pieces[me], pos.pieces[them]);
    if mine.is_empty() || theirs.is_empty() {
        // Finished games are scored by the search; stay sensible anyway.
        return if mine.is_empty() { -DECISIVE } else { DECISIVE };
    }
    if pos.can_win_now() {
        return DECISIVE - PER_MOVE;
    }
    // Enemy pieces one step from their goal must be taken at once: two of
    // them, or one we do not attack, cannot be stopped.
    if pos.unparriable_threat() {
        return -(DECISIVE - 2 * PER_MOVE);
    }
    if let Some(score) = race(pos) {
        return score;
    }
    let positional = side_value(pos, me) - side_value(pos, them);
    positional.clamp(-POSITIONAL_CAP, POSITIONAL_CAP) + TEMPO
}

/// A runner is a piece outside every enemy interception cone: going
/// straight ahead it can be neither captured nor blocked (an enemy piece
/// must be within one file per row of distance to reach it in time). It
/// wins if it arrives before the enemy's most advanced piece could. (A
/// guess where a friend stands on its file; the proof needs the file
/// clear.)
fn race<B: Bits>(pos: &Breakthrough<B>) -> Option<i32> {
    let runners = [0, 1].map(|p| pos.geo.nearest(pos.runners(p), p));
    pos.race_winner(runners).map(|(side, d)| {
        let won = DECISIVE - PER_MOVE * d as i32;
        if side == pos.me() { won } else { -won }
    })
}

/// The positional value of side `p`'s pieces.
fn side_value<B: Bits>(pos: &Breakthrough<B>, p: usize) -> i32 {
    let geo = &pos.geo;
    let own = pos.pieces[p];
    let empty = pos.empty();
    let count = |set: B| set.count() as i32;

    let mut value = PIECE * count(own) + ADVANCE * geo.advancement(own, p);

    let guarded = own & geo.attacks(own, p);
    let near_2 = own & geo.at_distance(p, 2);
    let near_3 = own & geo.at_distance(p, 3);
    value += NEAR_2 * count(near_2) + NEAR_3 * count(near_3);
    value += NEAR_GUARDED * count((near_2 | near_3) & guarded);

    value += CONNECTED_H * count(own & geo.east(own));
    value += CONNECTED_V * count(own & geo.forward(own, p));

    let steps = count(geo.forward(own, p) & empty)
        + count(geo.forward_west(own, p) & !own)
        + count(geo.forward_east(own, p) & !own);
    value += MOBILITY * steps;

    let empty_files = geo.width as i32 - count(geo.files(own));
    value -= EMPTY_FILE * empty_files;
    value += HOME * count(own & geo.home(p));
    value
}
