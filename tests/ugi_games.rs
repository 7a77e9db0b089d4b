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
        let best = lines
            .last()
            .unwrap()
            .strip_prefix("bestmove ")
            .unwrap()
            .to_string();
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
