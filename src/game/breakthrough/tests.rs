use super::*;
use crate::game::EVAL_LIMIT;
use crate::game::perft::perft;

fn sized(width: usize, height: usize) -> Settings {
    Settings {
        size: Some((width, height)),
        rule: None,
    }
}

fn start() -> Breakthrough {
    Breakthrough::start(&Settings::default()).unwrap()
}

fn fen(text: &str) -> Breakthrough {
    Breakthrough::from_fen(text, &Settings::default()).unwrap()
}

fn play(pos: &mut Breakthrough, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).unwrap();
        pos.make_move(mv);
    }
}

fn move_texts<B: Bits>(pos: &Breakthrough<B>) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
    texts.sort();
    texts
}

#[test]
fn perft_from_the_start() {
    let mut pos = start();
    for (d, n) in [22, 484, 11132, 256036].into_iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
    assert_eq!(pos, start(), "make/unmake restore everything");
}

#[test]
fn every_bit_set_width_gives_the_same_tree() {
    for (w, h) in [(8, 8), (5, 5), (7, 9), (6, 10)] {
        let s = sized(w, h);
        let mut narrow = Breakthrough::<u64>::start(&s).unwrap();
        let mut middle = Breakthrough::<u128>::start(&s).unwrap();
        let mut wide = Breakthrough::<Wide>::start(&s).unwrap();
        assert_eq!(
            narrow.hash(),
            wide.hash(),
            "hash does not depend on the type"
        );
        for d in 1..=3 {
            let n = perft(&mut narrow, d);
            assert_eq!(n, perft(&mut middle, d), "{w}x{h} depth {d}");
            assert_eq!(n, perft(&mut wide, d), "{w}x{h} depth {d}");
        }
        assert_eq!(narrow.evaluate(), wide.evaluate());
    }
    let mut big = Breakthrough::<Wide>::start(&sized(16, 16)).unwrap();
    assert_eq!(perft(&mut big, 1), 3 * 16 - 2);
    assert_eq!(perft(&mut big, 2), 46 * 46);
    let mut tall = Breakthrough::<u128>::start(&sized(5, 16)).unwrap();
    assert_eq!(perft(&mut tall, 1), 13);
}

#[test]
fn sizes_and_rules_are_checked() {
    for (w, h) in [(3, 8), (8, 3), (17, 8), (8, 17), (0, 0)] {
        assert!(matches!(
            Breakthrough::<Wide>::start(&sized(w, h)),
            Err(GameError::Unsupported(_))
        ));
    }
    assert!(matches!(
        Breakthrough::<u64>::start(&sized(9, 8)),
        Err(GameError::Unsupported(_))
    ));
    let rule = Settings {
        size: None,
        rule: Some("misere".into()),
    };
    assert!(Breakthrough::<u64>::start(&rule).is_err());
    assert_eq!(board_size(&Settings::default()), Ok((8, 8)));
}

#[test]
fn start_position_fen_and_render() {
    let pos = start();
    assert_eq!(
        pos.to_fen(),
        "oooooooo/oooooooo/8/8/8/8/xxxxxxxx/xxxxxxxx x"
    );
    assert_eq!(fen(&pos.to_fen()), pos);
    let picture = pos.render();
    assert!(picture.starts_with(" 8  O O O O O O O O\n"), "{picture}");
    assert!(picture.ends_with("    a b c d e f g h\n"), "{picture}");
    let small = Breakthrough::<u64>::start(&sized(5, 6)).unwrap();
    assert_eq!(small.to_fen(), "ooooo/ooooo/5/5/xxxxx/xxxxx x");
}

#[test]
fn moves_straight_diagonal_and_capture() {
    // x on d4; o on d5 (blocks straight), e5 (capturable), c5 empty.
    let pos = fen("8/8/8/3oo3/3x4/8/8/8 x");
    assert_eq!(move_texts(&pos), vec!["d4c5", "d4e5"]);
    let mv = pos.parse_move("d4e5").unwrap();
    assert!(mv.capture);
    assert!(!pos.parse_move("d4c5").unwrap().capture);
    // o on d5 may not take straight down, only diagonally: c4 is x.
    let pos = fen("8/8/8/3o4/2xx4/8/8/8 o");
    assert_eq!(move_texts(&pos), vec!["d5c4", "d5e4"]);
    // Edge files do not wrap.
    let pos = fen("4o3/8/8/8/7x/x7/8/8 x");
    assert_eq!(
        move_texts(&pos),
        vec!["a3a4", "a3b4", "h4g5", "h4h5"],
        "no wrap from a to h or h to a"
    );
}

#[test]
fn reaching_the_last_row_wins() {
    let mut pos = fen("8/1x6/8/8/8/8/o7/8 x");
    assert_eq!(move_texts(&pos), vec!["b7a8", "b7b8", "b7c8"]);
    assert_eq!(pos.evaluate(), 15_000 - 100, "one step from the goal");
    let before = pos.clone();
    let mv = pos.parse_move("b7b8").unwrap();
    pos.make_move(mv);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(
        move_texts(&pos).is_empty(),
        "no moves once the game is over"
    );
    let mut tactical = Vec::new();
    pos.tactical_moves(&mut tactical);
    assert!(tactical.is_empty());
    pos.unmake_move(mv);
    assert_eq!(pos, before);
    // The second player wins on row 1.
    let mut pos = fen("8/8/8/8/8/8/4o3/x7 o");
    play(&mut pos, "e2d1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn capturing_the_last_piece_wins() {
    let mut pos = fen("8/8/8/8/8/1o6/x7/8 x");
    assert_eq!(pos.outcome(), None);
    play(&mut pos, "a2b3");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(pos.to_fen(), "8/8/8/8/8/1x6/8/8 o");
    assert!(move_texts(&pos).is_empty());
}

#[test]
fn bad_fens_are_errors() {
    for bad in [
        "",
        "8/8/8/8/8/8/8 x",
        "8/8/8/8/8/8/8/8/8 x",
        "9/8/8/8/8/8/8/8 x",
        "7/8/8/8/8/8/8/8 x",
        "8/8/8/8/8/8/8/8 z",
        "8/8/8/8/8/8/8/8 x extra",
        "q7/8/8/8/8/8/8/8 x",
        "x7/8/8/8/8/8/8/o7 x",
        "x7/8/8/8/8/8/o7/8 x",
        "x7/8/8/8/8/8/8/o7 o",
        "oooooooo/oooooooo/o7/8/8/8/xxxxxxxx/xxxxxxxx x",
        "99999999999999999999/8/8/8/8/8/8/8 x",
    ] {
        assert!(
            Breakthrough::<u64>::from_fen(bad, &Settings::default()).is_err(),
            "{bad}"
        );
    }
    // Finished games with the loser to move are accepted.
    let over = fen("x7/8/8/8/8/8/o7/8 o");
    assert_eq!(over.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(Breakthrough::<u64>::from_fen("8/8/8/8 x", &sized(8, 4)).is_err());
}

#[test]
fn bad_moves_are_errors() {
    let pos = start();
    for bad in [
        "a2a4", "a1a2", "a7a6", "zz", "", "a2", "a2a3a4", "i2i3", "a0a1", "a99a100",
    ] {
        assert!(pos.parse_move(bad).is_err(), "{bad}");
    }
    assert!(pos.parse_move("A2B3").is_ok(), "case does not matter");
}

#[test]
fn notation_on_large_boards() {
    let mut pos = Breakthrough::<Wide>::start(&sized(16, 16)).unwrap();
    let mv = pos.parse_move("p2p3").unwrap();
    pos.make_move(mv);
    let mv = pos.parse_move("a15b14").unwrap();
    assert_eq!(pos.move_to_string(mv), "a15b14");
    pos.make_move(mv);
    assert_eq!(
        pos.to_fen(),
        "oooooooooooooooo/1ooooooooooooooo/1o14/16/16/16/16/16/16/16/16/16/16/15x/\
         xxxxxxxxxxxxxxx1/xxxxxxxxxxxxxxxx x"
    );
}

/// A small deterministic generator for random playouts.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn random_games<B: Bits>(settings: &Settings, games: usize) {
    let mut rng = Lcg(7);
    for _ in 0..games {
        let mut pos = Breakthrough::<B>::start(settings).unwrap();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        let mut bounds = Vec::new();
        loop {
            let eval = pos.evaluate();
            assert!(eval.abs() < EVAL_LIMIT);
            let back = Breakthrough::<B>::from_fen(&pos.to_fen(), settings).unwrap();
            assert_eq!(back, pos, "FEN rebuild gives the incremental hash");
            moves.clear();
            pos.generate_moves(&mut moves);
            if pos.outcome().is_some() {
                assert!(moves.is_empty());
                break;
            }
            assert!(!moves.is_empty(), "no stalemate in Breakthrough");
            hooks_agree_with_trial(&pos);
            bounds.push(pos.plies_left_bound().unwrap());
            let mut tactical = Vec::new();
            pos.tactical_moves(&mut tactical);
            for mv in &tactical {
                assert!(moves.contains(mv));
            }
            for &mv in &moves {
                assert!(pos.history_slot(mv) < <Breakthrough<B> as Game>::HISTORY_SLOTS);
                assert_eq!(pos.parse_move(&pos.move_to_string(mv)), Ok(mv));
            }
            if pos.null_move_allowed() {
                let saved = pos.clone();
                pos.make_null_move();
                assert_ne!(pos.hash(), saved.hash());
                assert_ne!(pos.side_to_move(), saved.side_to_move());
                pos.unmake_null_move();
                assert_eq!(pos, saved);
            }
            let mv = moves[rng.below(moves.len())];
            line.push((pos.clone(), mv));
            pos.make_move(mv);
        }
        let length = bounds.len() as u32;
        for (played, bound) in bounds.into_iter().enumerate() {
            assert!(
                length - played as u32 <= bound,
                "the game outlasts its bound"
            );
        }
        while let Some((before, mv)) = line.pop() {
            pos.unmake_move(mv);
            assert_eq!(pos, before);
        }
    }
}

/// The solver's hooks give what trying every move gives: the winning
/// move, and the moves that do not lose at once.
fn hooks_agree_with_trial<B: Bits>(pos: &Breakthrough<B>) {
    let mut all = Vec::new();
    pos.generate_moves(&mut all);
    let side = pos.side_to_move();
    let wins = |mv: Move| {
        let mut child = pos.clone();
        child.make_move(mv);
        child.outcome() == Some(Outcome::Win(side))
    };
    match pos.winning_move() {
        Some(mv) => assert!(all.contains(&mv) && wins(mv), "{}", pos.to_fen()),
        None => assert!(!all.into_iter().any(wins), "{}", pos.to_fen()),
    }
    if pos.winning_move().is_none() {
        let mut fast = Vec::new();
        pos.non_losing_moves(&mut fast);
        let mut slow = Vec::new();
        crate::game::non_losing_moves_by_trial(pos, &mut slow);
        let key = |m: &Move| (m.from, m.to);
        fast.sort_by_key(key);
        slow.sort_by_key(key);
        assert_eq!(fast, slow, "{}", pos.to_fen());
    }
}

#[test]
fn random_games_keep_every_invariant() {
    random_games::<u64>(&Settings::default(), 40);
    random_games::<u64>(&sized(5, 5), 20);
    random_games::<u128>(&sized(11, 11), 5);
    random_games::<Wide>(&sized(16, 16), 3);
    random_games::<Wide>(&sized(13, 7), 5);
    for (w, h) in [(4, 4), (5, 4), (4, 5), (6, 5)] {
        random_games::<u64>(&sized(w, h), 30);
    }
}

/// Every race the rules decide is confirmed by the exact solver: the
/// named side wins, in no more plies than named.
#[test]
fn proved_winners_are_confirmed_by_the_solver() {
    use crate::search::score::MATE;
    use crate::search::solver::Solver;
    let mut rng = Lcg(5);
    let mut solver = Solver::<Breakthrough<u64>>::new(16).unwrap();
    let mut named = [0; 2];
    for (w, h) in [(4, 4), (5, 4), (4, 5), (5, 5), (6, 5)] {
        let settings = sized(w, h);
        for game in 0..60 {
            let mut pos = Breakthrough::<u64>::start(&settings).unwrap();
            let mut moves = Vec::new();
            // Far enough in for the solver to finish at once.
            let skip = w * h / 2 + game % 5;
            for played in 0.. {
                if pos.outcome().is_some() {
                    break;
                }
                if played >= skip
                    && let Some((winner, plies)) = pos.proved_winner()
                {
                    solver.clear();
                    let score = solver.solve(&pos, false).unwrap().score;
                    let mover_wins = winner == pos.side_to_move();
                    assert_eq!(score > 0, mover_wins, "{}", pos.to_fen());
                    assert!(
                        MATE - score.abs() <= plies as i32,
                        "{} {plies} {score}",
                        pos.to_fen()
                    );
                    named[usize::from(mover_wins)] += 1;
                }
                moves.clear();
                pos.generate_moves(&mut moves);
                pos.make_move(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(named[0] > 50 && named[1] > 50, "{named:?}");
}

#[test]
fn runners_and_threats_are_decisive() {
    // x on c5 has no o in its cone; o's h4 is a runner too, but x moves
    // first and both need three moves.
    let pos = fen("8/8/8/2x5/7o/8/8/xxx5 x");
    assert!(pos.evaluate() >= 14_000, "{}", pos.evaluate());
    let pos = fen("8/8/8/2x5/7o/8/8/xxx5 o");
    assert!(pos.evaluate() >= 14_000, "now o wins the race");
    // An o piece on d7 intercepts c5, and x's c5 guards d7's road.
    let pos = fen("8/3o4/8/2x5/8/8/8/xxx5 x");
    assert!(pos.evaluate().abs() < 10_000, "{}", pos.evaluate());
    // Two o pieces one step from row 1: x cannot stop both.
    let pos = fen("oooo4/8/8/8/8/8/o1o5/7x x");
    assert!(pos.evaluate() <= -14_000);
    // One such piece that x attacks is not yet lost, but x may not pass.
    let pos = fen("oooo4/8/8/8/8/8/1o6/xxxxxxxx x");
    assert!(pos.evaluate() > -10_000, "{}", pos.evaluate());
    assert!(!pos.null_move_allowed(), "no pass under a threat to win");
    assert!(start().null_move_allowed());
    let thin = fen("oooo4/8/8/8/8/8/8/xxxx4 x");
    assert!(!thin.null_move_allowed(), "zugzwang guard: too few pieces");
}

#[test]
fn ordering_hints() {
    let pos = fen("8/1x6/8/8/3o4/2x5/8/8 x");
    let win = pos.parse_move("b7b8").unwrap();
    let take = pos.parse_move("c3d4").unwrap();
    let quiet = pos.parse_move("c3c4").unwrap();
    assert!(pos.move_score(win) > pos.move_score(take));
    assert!(pos.move_score(take) > pos.move_score(quiet));
    let mut tactical = Vec::new();
    pos.tactical_moves(&mut tactical);
    let mut texts: Vec<_> = tactical.iter().map(|&m| pos.move_to_string(m)).collect();
    texts.sort();
    assert_eq!(texts, vec!["b7a8", "b7b8", "b7c8", "c3d4"]);
    assert_ne!(pos.history_slot(take), pos.history_slot(quiet));
}

#[test]
fn garbage_input_is_an_error_not_a_panic() {
    const ALPHABET: &[u8] = b"xo0123456789/ abXO-";
    let mut rng = Lcg(11);
    let pos = start();
    for _ in 0..20_000 {
        let len = rng.below(40);
        let text: String = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())] as char)
            .collect();
        for size in [None, Some((5, 5)), Some((16, 16))] {
            let settings = Settings { size, rule: None };
            let _ = Breakthrough::<Wide>::from_fen(&text, &settings);
        }
        let _ = Breakthrough::<u64>::from_fen(&text, &Settings::default());
        let _ = pos.parse_move(&text);
    }
}
