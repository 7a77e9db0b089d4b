//! The solving mode on Pascal Pons' Connect Four test sets: every score
//! exact. The sets live beside the repository, in shared/data/connect4.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use ply::engine::registry;
use ply::game::Settings;
use ply::game::connect4::DESCRIPTION;
use ply::search::{Proof, SearchParams};
use ply::tools::solve::{Value, notation_score, solve};

/// The test set `name`, found in the first `shared/data/connect4` above
/// the crate (the main checkout and its worktrees share one).
fn test_set(name: &str) -> Vec<(String, i32)> {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let path = crate_dir
        .ancestors()
        .map(|dir| dir.join("shared/data/connect4").join(name))
        .find(|path| path.exists())
        .unwrap_or_else(|| panic!("{name} not found in any shared/data/connect4 above the crate"));
    BufReader::new(File::open(path).unwrap())
        .lines()
        .map(|line| {
            let line = line.unwrap();
            let (moves, score) = line.split_once(' ').expect("'<moves> <score>'");
            (moves.to_string(), score.trim().parse().expect("a score"))
        })
        .collect()
}

/// Solves every `step`-th line of the set (all with 1) and checks the
/// score; returns how many were checked.
fn check_set(name: &str, step: usize, proof: Proof) -> usize {
    let mut session = registry::create(
        "connect4",
        &Settings::default(),
        64,
        SearchParams::default(),
    )
    .unwrap();
    let mut checked = 0;
    for (moves, expected) in test_set(name).into_iter().step_by(step) {
        let list: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
        let refs: Vec<&str> = list.iter().map(String::as_str).collect();
        session.set_position(None, &refs).unwrap();
        session.new_game();
        let solved = solve(session.as_ref(), proof);
        match proof {
            Proof::Exact => {
                let score = notation_score(DESCRIPTION.solve, 42, moves.len() as u32, solved.value);
                assert_eq!(score, expected, "exact score of {moves}");
            }
            Proof::Weak | Proof::ProofNumbers => {
                let sign = match solved.value {
                    Value::Draw => 0,
                    Value::Decided { win: true, .. } => 1,
                    Value::Decided { win: false, .. } => -1,
                };
                assert_eq!(sign, expected.signum(), "result of {moves}");
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn end_easy_set_is_solved_exactly() {
    assert_eq!(check_set("Test_L3_R1", 1, Proof::Exact), 1000);
}

#[test]
fn middle_easy_set_is_solved_exactly() {
    assert_eq!(check_set("Test_L2_R1", 1, Proof::Exact), 1000);
}

#[test]
fn middle_medium_sample_is_solved_exactly() {
    assert_eq!(check_set("Test_L2_R2", 20, Proof::Exact), 50);
}

#[test]
fn beginning_easy_sample_is_solved_exactly() {
    assert_eq!(check_set("Test_L1_R1", 20, Proof::Exact), 50);
}

#[test]
fn weak_solving_gets_every_result_right() {
    assert_eq!(check_set("Test_L2_R1", 10, Proof::Weak), 100);
    assert_eq!(check_set("Test_L2_R2", 40, Proof::Weak), 25);
}

#[test]
fn proof_numbers_get_every_result_right() {
    // Wins, draws and losses: the losses and draws by the other side's
    // proofs after every move.
    assert_eq!(check_set("Test_L3_R1", 10, Proof::ProofNumbers), 100);
    assert_eq!(check_set("Test_L2_R1", 20, Proof::ProofNumbers), 50);
}
