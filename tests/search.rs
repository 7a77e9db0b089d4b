//! Search behaviour: solved positions and equivalence with plain negamax.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use ply::engine::registry;
use ply::game::blackwhite::BlackWhite;
use ply::game::breakthrough::Breakthrough;
use ply::game::connect4::Connect4;
use ply::game::gomoku::Gomoku;
use ply::game::lasca::Lasca;
use ply::game::tictactoe::TicTacToe;
use ply::game::{Game, Settings};
use ply::search::params::SWITCHES;
use ply::search::reference;
use ply::search::{Proof, SearchLimits, SearchParams, Searcher};
use ply::tools::solve::{Value, solve};
use rand::SeedableRng;
use rand::seq::IndexedRandom;

fn search_value<G: Game>(pos: &G, params: SearchParams, depth: u32) -> i32 {
    let mut searcher = Searcher::<G>::new(1, params).unwrap();
    let limits = SearchLimits {
        depth: Some(depth),
        ..Default::default()
    };
    let result = searcher.search(pos, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
    result.last.expect("an iteration completed").score
}

/// Positions reached by seeded random play, none of them finished.
fn random_positions<G: Game>(count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = G::start(&Settings::default()).unwrap();
        let plies = (found.len() * 7) % (max_plies + 1);
        for _ in 0..plies {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            match moves.choose(&mut rng) {
                Some(&mv) => pos.make_move(mv),
                None => break,
            }
        }
        if pos.outcome().is_none() {
            found.push(pos);
        }
    }
    found
}

/// Every combination in `masks` must give plain negamax's root value.
fn assert_equivalent<G: Game>(positions: &[G], masks: &[u32], depth: u32) {
    for pos in positions {
        let mut copy = pos.clone();
        let plain = reference::negamax(&mut copy, depth as i32, false);
        let with_quiescence = reference::negamax(&mut copy, depth as i32, true);
        for &mask in masks {
            let params = SearchParams::from_mask(mask);
            let expected = if params.quiescence {
                with_quiescence
            } else {
                plain
            };
            let got = search_value(pos, params, depth);
            assert_eq!(
                got,
                expected,
                "{} at depth {depth}, switches {params:?}",
                pos.to_fen()
            );
        }
    }
}

fn sample_masks(seed: u64, count: usize) -> Vec<u32> {
    let all = 1u32 << SWITCHES.len();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut masks: Vec<u32> = (0..all)
        .collect::<Vec<_>>()
        .sample(&mut rng, count)
        .copied()
        .collect();
    masks.push(0);
    masks.push(all - 1);
    for i in 0..SWITCHES.len() {
        masks.push(1 << i);
        masks.push((all - 1) & !(1 << i));
    }
    masks
}

/// `masks` with the switch called `name` turned off.
fn without(masks: Vec<u32>, name: &str) -> Vec<u32> {
    let bit = 1 << SWITCHES.iter().position(|(n, _)| *n == name).unwrap();
    masks.into_iter().map(|m| m & !bit).collect()
}

#[test]
fn every_switch_combination_matches_negamax_in_tictactoe() {
    let all: Vec<u32> = (0..1u32 << SWITCHES.len()).collect();
    let positions = random_positions::<TicTacToe>(6, 5, 1);
    assert_equivalent(&positions, &all, 4);
    assert_equivalent(&positions[..2], &all, 9);
}

#[test]
fn switch_combinations_match_negamax_in_connect4() {
    let positions = random_positions::<Connect4>(16, 24, 2);
    assert_equivalent(&positions, &sample_masks(3, 40), 5);
    assert_equivalent(&positions[..4], &[u32::MAX >> (32 - SWITCHES.len())], 7);
}

#[test]
fn switch_combinations_match_negamax_in_lasca() {
    let positions = random_positions::<Lasca>(12, 16, 4);
    assert_equivalent(&positions, &sample_masks(5, 24), 4);
}

#[test]
fn switch_combinations_match_negamax_in_blackwhite() {
    let positions = random_positions::<BlackWhite>(12, 20, 8);
    assert_equivalent(&positions, &sample_masks(9, 24), 4);
}

#[test]
fn switch_combinations_match_negamax_in_breakthrough() {
    // Null move is a deliberate gamble (the game allows it here), so it
    // is left out of the comparison.
    let masks = without(sample_masks(10, 16), "UseNullMove");
    // Plain negamax over an unpruned capture search is slow here: keep
    // the trees small.
    let positions = random_positions::<Breakthrough<u64>>(10, 30, 11);
    assert_equivalent(&positions, &masks, 2);
    assert_equivalent(&positions[..3], &masks, 3);
}

#[test]
fn switch_combinations_match_negamax_in_gomoku() {
    // Small boards keep plain negamax affordable.
    let settings = Settings {
        size: Some((7, 7)),
        rule: None,
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    let mut positions = Vec::new();
    while positions.len() < 8 {
        let mut pos = Gomoku::start(&settings).unwrap();
        for _ in 0..(4 + positions.len()) {
            let mut moves = Vec::new();
            pos.search_moves(&mut moves);
            match moves.choose(&mut rng) {
                Some(&mv) => pos.make_move(mv),
                None => break,
            }
        }
        if pos.outcome().is_none() {
            positions.push(pos);
        }
    }
    // Threat search proves wins beyond the nominal depth on purpose, so
    // it is left out of the comparison.
    let masks = without(sample_masks(7, 16), "UseThreatSearch");
    assert_equivalent(&positions, &masks, 3);
}

#[test]
fn tictactoe_is_a_draw() {
    let start = TicTacToe::start(&Settings::default()).unwrap();
    let mut copy = start.clone();
    assert_eq!(reference::negamax(&mut copy, 9, false), 0);
    let session = registry::create(
        "tictactoe",
        &Settings::default(),
        1,
        SearchParams::default(),
    )
    .unwrap();
    assert_eq!(solve(session.as_ref(), Proof::Exact).value, Value::Draw);
    // A full-depth search with every enhancement agrees, and stops early
    // once the whole tree is seen.
    assert_eq!(search_value(&start, SearchParams::default(), 9), 0);
}

#[test]
fn a_quicker_win_is_preferred() {
    // X can win at once in column 1 (vertical) or later elsewhere.
    let mut session =
        registry::create("connect4", &Settings::default(), 1, SearchParams::default()).unwrap();
    session
        .set_position(None, &["1", "2", "1", "2", "1", "3"])
        .unwrap();
    assert_eq!(
        solve(session.as_ref(), Proof::Exact).value,
        Value::Decided {
            win: true,
            plies: 1
        }
    );
}
