//! Every game through UGI: a whole game of the engine against itself, each
//! best move checked against the rules and every query against them too.

mod common;

use common::Engine;
use ply::engine::registry::{self, GAMES};
use ply::game::{Outcome, Player, Settings};
use ply::search::SearchParams;

fn play_through(game: &str, max_plies: usize) {
    let mut e = Engine::ply(&["--game", game]);
    e.send("ugi");
    e.read_until("ugiok");
    e.send("uginewgame");
    let mut referee =
        registry::create(game, &Settings::default(), 1, SearchParams::default()).unwrap();
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..max_plies {
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&position);
        e.send("query p1turn");
        let p1 = e.read_until("response").pop().unwrap();
        assert_eq!(
            p1 == "response true",
            referee.side_to_move() == Player::P1,
            "{game}: {position}"
        );
        e.send("query gameover");
        let over = e.read_until("response").pop().unwrap();
        assert_eq!(
            over == "response true",
            referee.outcome().is_some(),
            "{game}: {position}"
        );
        e.send("query result");
        let result = e.read_until("response").pop().unwrap();
        let expected = match referee.outcome() {
            None => "response none",
            Some(Outcome::Draw) => "response draw",
            Some(Outcome::Win(Player::P1)) => "response p1win",
            Some(Outcome::Win(Player::P2)) => "response p2win",
        };
        assert_eq!(result, expected, "{game}: {position}");
        if referee.outcome().is_some() {
            break;
        }
        e.send("go depth 3");
        let lines = e.read_until("bestmove");
        let best = common::best_move(lines.last().unwrap()).to_string();
        assert!(
            referee.legal_moves().contains(&best),
            "{game}: bestmove {best} is not legal after {position}"
        );
        referee.play_move(&best).unwrap();
        moves.push(best);
    }
    // An illegal move leaves the previous position in place.
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    e.send("position startpos moves zz99");
    let error = e.read_until("info string error").pop().unwrap();
    assert!(error.contains("illegal move 'zz99'"), "{game}: {error}");
    e.send("query p1turn");
    let p1 = e.read_until("response").pop().unwrap();
    assert_eq!(
        p1 == "response true",
        referee.side_to_move() == Player::P1,
        "{game}"
    );
    e.send("quit");
    assert!(e.wait_exit(common::PATIENCE).unwrap().success());
}

#[test]
fn every_game_plays_through_ugi() {
    for game in GAMES {
        play_through(game.name, 60);
    }
}

/// Under UGI, `go` on a Connect Four position the solver can prove reports
/// the exact result (a mate score, or 0 for a draw) and plays a move that
/// keeps it: the quickest win, the longest loss.
#[test]
fn connect4_go_reports_the_proved_result_and_keeps_it() {
    use ply::game::connect4::DESCRIPTION;
    use ply::search::Proof;
    use ply::tools::solve::{Value, notation_score, solve};

    let pons_score = |stones, value| notation_score(DESCRIPTION.solve, 42, stones, value);

    let mut e = Engine::ply(&["--game", "connect4"]);
    e.send("ugi");
    e.read_until("ugiok");
    let mut referee = registry::create(
        "connect4",
        &Settings::default(),
        16,
        SearchParams::default(),
    )
    .unwrap();
    // Lines of Pons' Test_L2_R1 with their scores: a win, a loss, a draw.
    for (line, expected) in [
        ("5554224333234511764415115", 4),
        ("1233722555341451114725221333", -1),
        ("52753311433677442422121", 8),
        ("2737772244262123677516643354", 0),
    ] {
        let moves: Vec<String> = line.chars().map(|c| c.to_string()).collect();
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go movetime 5000");
        let lines = e.read_until("bestmove");
        let info = common::last_info(&lines);
        let stones = moves.len() as u32;
        let shown = match expected {
            0 => "score cp 0".to_string(),
            _ => {
                // The mate distance whose Pons score is `expected`.
                let n = (1..=21)
                    .find(|&n| {
                        let value = if expected > 0 {
                            Value::Decided {
                                win: true,
                                plies: 2 * n - 1,
                            }
                        } else {
                            Value::Decided {
                                win: false,
                                plies: 2 * n,
                            }
                        };
                        pons_score(stones, value) == expected
                    })
                    .unwrap();
                let mate = if expected > 0 { n as i32 } else { -(n as i32) };
                format!("score mate {mate}")
            }
        };
        assert!(info.contains(&format!(" {shown} ")), "{line}: {info}");
        let best = common::best_move(lines.last().unwrap());
        let mut after: Vec<&str> = moves.iter().map(String::as_str).collect();
        after.push(best);
        referee.set_position(None, &after).unwrap();
        referee.new_game();
        // A move that ends the game at once is a quickest win already.
        if referee.outcome().is_none() {
            let child = pons_score(stones + 1, solve(referee.as_ref(), Proof::Exact).value);
            assert_eq!(-child, expected, "{line}: bestmove {best} keeps the value");
        }
    }
}
