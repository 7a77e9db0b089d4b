//! Every game's position and move parsers: the first byte picks the game,
//! the rest is text read as a FEN (with any moves after `moves`), then as
//! moves from the start position. Errors are fine; panics are not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ply::engine::registry::{self, GAMES};
use ply::game::Settings;
use ply::search::SearchParams;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let game = GAMES[pick as usize % GAMES.len()];
    let text = String::from_utf8_lossy(rest);
    let Ok(mut session) = registry::create(game.name, &Settings::default(), 1, SearchParams::default())
    else {
        return;
    };
    let (fen, moves) = match text.split_once(" moves ") {
        Some((fen, moves)) => (fen, moves),
        None => (text.as_ref(), ""),
    };
    let moves: Vec<&str> = moves.split_whitespace().collect();
    if session.set_position(Some(fen), &moves).is_ok() {
        // A position that reads must write and read back the same.
        let written = session.fen();
        let mut again = registry::create(game.name, &Settings::default(), 1, SearchParams::default())
            .expect("created above");
        again.set_position(Some(&written), &[]).expect("its own FEN reads");
        assert_eq!(again.fen(), written);
        let _ = session.legal_moves();
        let _ = session.outcome();
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let _ = session.set_position(None, &words);
});
