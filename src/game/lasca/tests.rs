use super::*;
use crate::game::perft::perft;

fn start() -> Lasca {
    Lasca::start(&Settings::default()).unwrap()
}

/// A FEN from `(square, column top first)` pairs, side and quiet plies.
fn fen_of(columns: &[(&str, &str)], side: char, quiet: u16) -> String {
    let mut ranks = Vec::new();
    for rank in (0..7).rev() {
        let mut entries = Vec::new();
        for file in 0..7 {
            if (file + rank) % 2 != 0 {
                continue;
            }
            let name = format!("{}{}", (b'a' + file as u8) as char, rank + 1);
            let stack = columns
                .iter()
                .find(|(sq, _)| *sq == name)
                .map_or("1", |(_, s)| s);
            entries.push(stack);
        }
        ranks.push(entries.join(","));
    }
    format!("{} {side} {quiet}", ranks.join("/"))
}

fn pos(columns: &[(&str, &str)], side: char) -> Lasca {
    Lasca::from_fen(&fen_of(columns, side, 0), &Settings::default()).unwrap()
}

fn legal(pos: &Lasca) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut text: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
    text.sort();
    text
}

/// Plays `text`, checks the result against a fresh FEN rebuild, then
/// checks that unmaking restores everything.
fn play_checked(pos: &mut Lasca, text: &str) -> LascaMove {
    let before = (pos.to_fen(), pos.hash());
    let mv = pos.parse_move(text).unwrap();
    pos.make_move(mv);
    let rebuilt = Lasca::from_fen(&pos.to_fen(), &Settings::default()).unwrap();
    assert_eq!(rebuilt.hash(), pos.hash(), "incremental key after {text}");
    pos.unmake_move(mv);
    assert_eq!((pos.to_fen(), pos.hash()), before, "unmake of {text}");
    pos.make_move(mv);
    mv
}

#[test]
fn perft_from_the_start() {
    let mut pos = start();
    let expected = [6, 6, 18, 54, 116, 324];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
    assert_eq!(
        (pos.to_fen(), pos.hash()),
        (START_FEN.to_string(), start().hash())
    );
}

#[test]
fn start_position_and_fen_round_trip() {
    let pos = start();
    assert_eq!(pos.to_fen(), START_FEN);
    assert_eq!(pos.side_to_move(), Player::P1);
    assert_eq!(
        legal(&pos),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4"]
    );
    let fen = "B,1,bwW,1/3/4/1,Wbb,1/4/w,2/4 b 17";
    let back = Lasca::from_fen(fen, &Settings::default()).unwrap();
    assert_eq!(back.to_fen(), fen);
    assert_eq!(back.quiet_plies(), 17);
    let short = Lasca::from_fen("B,1,bwW,1/3/4/1,Wbb,1/4/w,2/4 b", &Settings::default());
    assert_eq!(short.unwrap().to_fen(), "B,1,bwW,1/3/4/1,Wbb,1/4/w,2/4 b 0");
    assert!(back.render().contains("e7 bwW"), "{}", back.render());
}

#[test]
fn bad_fens_are_rejected() {
    for fen in [
        "",
        "w",
        "4/3/4/3/4/3/4",
        "4/3/4/3/4/3/4 x",
        "4/3/4/3/4/3/4 w -1",
        "4/3/4/3/4/3/4 w 101",
        "4/3/4/3/4/3/4 w 0 extra",
        "4/3/4/3/4/3 w",
        "4/3/4/3/4/3/4/4 w",
        "5/3/4/3/4/3/4 w",
        "4/3/4/3/4/2/4 w",
        "4/3/4/3/4/3/0,4 w",
        "4/3/4/3/4/3/x,3 w",
        "4/3/4/3/4/3/,3 w",
        "w,3/3/4/3/4/3/4 w",
        "4/3/4/3/4/3/b,3 w",
        "bwwwwwwwwwwww,3/3/4/3/4/3/4 b",
        "b,b,b,b/b,b,b/b,b,b,b/b,2/4/3/4 w",
        "4/3/4/3/4/3/4/ w",
        "4/3/4/3/4/3/99999999999999999999 w",
    ] {
        assert!(
            Lasca::from_fen(fen, &Settings::default()).is_err(),
            "accepted '{fen}'"
        );
    }
    let settings = Settings {
        rule: Some("x".into()),
        ..Default::default()
    };
    assert!(Lasca::start(&settings).is_err());
}

#[test]
fn bad_move_text_is_illegal() {
    let pos = start();
    for text in ["", "a3", "a3-b5", "b4-a3", "zz-b4", "a3-b4-c5"] {
        assert!(pos.parse_move(text).is_err(), "{text}");
    }
    assert!(pos.parse_move("A3-B4").is_ok());
}

#[test]
fn capture_is_compulsory_and_chains() {
    let mut p = pos(
        &[
            ("a1", "w"),
            ("b2", "b"),
            ("d4", "b"),
            ("g3", "w"),
            ("a7", "b"),
        ],
        'w',
    );
    assert_eq!(legal(&p), ["a1-c3-e5"]);
    play_checked(&mut p, "a1-c3-e5");
    assert_eq!(
        p.column(4 * 7 + 4)
            .pieces()
            .map(|x| x.letter())
            .collect::<String>(),
        "wbb"
    );
    assert_eq!(p.quiet_plies(), 0);
}

#[test]
fn a_chain_may_promote_at_its_end() {
    let mut p = pos(&[("c3", "w"), ("d4", "b"), ("d6", "B"), ("a7", "b")], 'w');
    assert_eq!(legal(&p), ["c3-e5-c7"]);
    let mv = play_checked(&mut p, "c3-e5-c7");
    assert!(mv.promotes());
    let c7 = p.column(6 * 7 + 2);
    assert_eq!(c7.pieces().map(|x| x.letter()).collect::<String>(), "WbB");
}

#[test]
fn any_capture_sequence_may_be_chosen() {
    // From c3 one jump ends at a5; the other continues to e7 via e5.
    let mut p = pos(
        &[
            ("c3", "w"),
            ("b4", "b"),
            ("d4", "b"),
            ("d6", "b"),
            ("g7", "B"),
        ],
        'w',
    );
    assert_eq!(legal(&p), ["c3-a5", "c3-e5-c7"]);
    play_checked(&mut p, "c3-a5");
}

#[test]
fn capturing_a_column_frees_the_prisoner() {
    let mut p = pos(&[("c3", "w"), ("d4", "bw"), ("a7", "b")], 'w');
    assert_eq!(legal(&p), ["c3-e5"]);
    play_checked(&mut p, "c3-e5");
    let d4 = p.column(3 * 7 + 3);
    assert_eq!(d4.pieces().map(|x| x.letter()).collect::<String>(), "w");
    let e5 = p.column(4 * 7 + 4);
    assert_eq!(e5.pieces().map(|x| x.letter()).collect::<String>(), "wb");
    // The freed white soldier is White's again, and Black has one piece.
    assert_eq!(p.commanders[0].count_ones(), 2);
}

#[test]
fn a_square_is_never_jumped_twice() {
    // After c3-e5 the column on d4 is still black and c3 is empty, but it
    // may not be jumped again.
    let mut p = pos(&[("c3", "W"), ("d4", "bbb"), ("a7", "b")], 'w');
    assert_eq!(legal(&p), ["c3-e5"]);
    play_checked(&mut p, "c3-e5");
    // A loop round a square: e3-c5-e7-g5-e3 jumps four different columns.
    let mut p = pos(
        &[
            ("e3", "W"),
            ("d4", "b"),
            ("d6", "b"),
            ("f6", "b"),
            ("f4", "b"),
        ],
        'w',
    );
    let moves = legal(&p);
    assert!(moves.contains(&"e3-c5-e7-g5-e3".to_string()), "{moves:?}");
    assert!(moves.contains(&"e3-g5-e7-c5-e3".to_string()), "{moves:?}");
    play_checked(&mut p, "e3-c5-e7-g5-e3");
    assert_eq!(p.commanders[1], 0);
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn promotion_ends_the_move() {
    // As an officer on e7 it could go on over f6, but promotion stops it.
    let mut p = pos(&[("c5", "w"), ("d6", "b"), ("f6", "b"), ("a3", "b")], 'w');
    assert_eq!(legal(&p), ["c5-e7"]);
    play_checked(&mut p, "c5-e7");
    assert!(p.column(6 * 7 + 4).top().officer);
    // A plain step onto the far rank promotes too, and is tactical.
    let p = pos(&[("c5", "w"), ("b6", "w"), ("g3", "b")], 'w');
    let mut tactical = Vec::new();
    p.tactical_moves(&mut tactical);
    let mut text: Vec<String> = tactical.iter().map(|&m| p.move_to_string(m)).collect();
    text.sort();
    assert_eq!(text, ["b6-a7", "b6-c7"]);
    assert!(p.move_score(tactical[0]) > 0);
}

#[test]
fn officers_capture_backwards_and_soldiers_do_not() {
    let mut p = pos(&[("e5", "W"), ("d4", "b"), ("a7", "b")], 'w');
    assert_eq!(legal(&p), ["e5-c3"]);
    play_checked(&mut p, "e5-c3");
    let p = pos(&[("e5", "w"), ("d4", "b"), ("a7", "b")], 'w');
    assert_eq!(legal(&p), ["e5-d6", "e5-f6"]);
    // Black soldiers capture southwards.
    let p = pos(&[("e5", "b"), ("d4", "w"), ("a1", "w")], 'b');
    assert_eq!(legal(&p), ["e5-c3"]);
}

#[test]
fn a_side_without_moves_loses() {
    let p = pos(&[("a5", "w"), ("b6", "b"), ("c7", "B")], 'w');
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::P2)));
    assert!(legal(&p).is_empty());
    let p = pos(&[("a5", "w")], 'b');
    assert_eq!(p.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(legal(&p).is_empty());
}

#[test]
fn threefold_repetition_draws() {
    let mut p = pos(&[("a1", "W"), ("g7", "B")], 'w');
    let cycle = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"];
    let mut made = Vec::new();
    for round in 0..2 {
        for (i, text) in cycle.iter().enumerate() {
            assert_eq!(p.outcome(), None, "round {round} move {i}");
            made.push(play_checked(&mut p, text));
        }
    }
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(legal(&p).is_empty());
    let last = made.pop().unwrap();
    p.unmake_move(last);
    assert_eq!(p.outcome(), None);
    assert_eq!(p.quiet_plies(), 7);
}

#[test]
fn hundred_quiet_plies_draw() {
    let fen = fen_of(&[("a1", "W"), ("g7", "B"), ("c3", "w")], 'w', 99);
    let mut p = Lasca::from_fen(&fen, &Settings::default()).unwrap();
    assert_eq!(p.outcome(), None);
    let mv = play_checked(&mut p, "a1-b2");
    assert_eq!(p.quiet_plies(), 100);
    assert_eq!(p.outcome(), Some(Outcome::Draw));
    assert!(legal(&p).is_empty());
    p.unmake_move(mv);
    // A soldier move resets the count.
    play_checked(&mut p, "c3-d4");
    assert_eq!(p.quiet_plies(), 0);
    assert_eq!(p.outcome(), None);
}

/// The same position seen from the other side: board turned half round,
/// colours swapped, the other side to move.
fn mirrored(pos: &Lasca) -> Lasca {
    let other = pos.side_to_move().other();
    let mut m = Lasca::empty(other, pos.quiet_plies());
    for sq in 0..board::SQUARES {
        let mut col = column::Column::EMPTY;
        for piece in pos.column(sq).pieces() {
            col.push_bottom(column::Piece {
                side: 1 - piece.side,
                officer: piece.officer,
            });
        }
        m.set_column(board::SQUARES - 1 - sq, col);
    }
    m
}

#[test]
fn random_games_keep_every_invariant() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for _ in 0..40 {
        let mut p = start();
        let mut made = Vec::new();
        let mut fens = vec![p.to_fen()];
        while p.outcome().is_none() && made.len() < 300 {
            let mut moves = Vec::new();
            p.generate_moves(&mut moves);
            assert!(!moves.is_empty());
            for &m in &moves {
                assert_eq!(p.parse_move(&p.move_to_string(m)), Ok(m));
                assert!(p.history_slot(m) < Lasca::HISTORY_SLOTS);
            }
            assert!(p.evaluate().abs() < crate::game::EVAL_LIMIT);
            let m = mirrored(&p);
            assert_eq!(m.evaluate(), p.evaluate(), "symmetry at {}", p.to_fen());
            assert_eq!(legal(&m).len(), moves.len());
            let copy = p.clone();
            assert_eq!((copy.to_fen(), copy.hash()), (p.to_fen(), p.hash()));
            let mv = moves[rand(moves.len())];
            p.make_move(mv);
            made.push(mv);
            let fen = p.to_fen();
            let rebuilt = Lasca::from_fen(&fen, &Settings::default()).unwrap();
            assert_eq!(rebuilt.to_fen(), fen);
            assert_eq!(rebuilt.hash(), p.hash());
            fens.push(fen);
        }
        if p.outcome().is_some() {
            let mut moves = Vec::new();
            p.generate_moves(&mut moves);
            assert!(moves.is_empty());
        }
        while let Some(mv) = made.pop() {
            p.unmake_move(mv);
            fens.pop();
            assert_eq!(p.to_fen(), *fens.last().unwrap());
        }
        assert_eq!(p.hash(), start().hash());
    }
}
