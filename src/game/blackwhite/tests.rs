use super::*;
use crate::game::perft::perft;

fn settings() -> Settings {
    Settings::default()
}

fn fen(text: &str) -> BlackWhite {
    BlackWhite::from_fen(text, &settings()).unwrap()
}

fn play(pos: &mut BlackWhite, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{e} in {}", pos.to_fen()));
        pos.make_move(mv);
    }
}

fn move_texts(pos: &BlackWhite) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&m| pos.move_to_string(m)).collect();
    texts.sort();
    texts
}

/// A deliberately plain second implementation over an array, to check
/// the bitboard generator move by move.
mod naive {
    pub type Board = [u8; 25]; // 0 empty, 1 x, 2 o

    const DIRS: [(i32, i32); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];

    fn at(f: i32, r: i32) -> Option<usize> {
        if (0..5).contains(&f) && (0..5).contains(&r) {
            Some((r * 5 + f) as usize)
        } else {
            None
        }
    }

    fn name(c: usize) -> String {
        format!("{}{}", (b'a' + (c % 5) as u8) as char, c / 5 + 1)
    }

    pub fn five(b: &Board, who: u8) -> bool {
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for i in 0..5 {
            lines.push((0..5).map(|j| i * 5 + j).collect());
            lines.push((0..5).map(|j| j * 5 + i).collect());
        }
        lines.push((0..5).map(|j| j * 5 + j).collect());
        lines.push((0..5).map(|j| j * 5 + 4 - j).collect());
        lines.iter().any(|l| l.iter().all(|&c| b[c] == who))
    }

    fn chains(b: &Board, who: u8, c: usize, text: String, out: &mut Vec<(String, Board)>) {
        let (f, r) = ((c % 5) as i32, (c / 5) as i32);
        let mut any = false;
        for (df, dr) in DIRS {
            let (Some(over), Some(land)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr)) else {
                continue;
            };
            if b[over] == 3 - who && b[land] == 0 {
                any = true;
                let mut next = *b;
                next[c] = 0;
                next[over] = who;
                next[land] = who;
                chains(&next, who, land, format!("{text}-{}", name(land)), out);
            }
        }
        if !any && text.contains('-') {
            out.push((text, *b));
        }
    }

    /// Legal moves with their results; empty when the game is over.
    pub fn moves(b: &Board, who: u8) -> Vec<(String, Board)> {
        if five(b, 1) || five(b, 2) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let placed = b.iter().filter(|&&v| v != 0).count();
        if placed < 10 {
            for c in 0..25 {
                if b[c] == 0 {
                    let mut next = *b;
                    next[c] = who;
                    out.push((name(c), next));
                }
            }
            return out;
        }
        for c in 0..25 {
            if b[c] == who {
                chains(b, who, c, name(c), &mut out);
            }
        }
        if !out.is_empty() {
            return out;
        }
        for c in 0..25 {
            if b[c] != who {
                continue;
            }
            for (df, dr) in DIRS {
                if let Some(t) = at((c % 5) as i32 + df, (c / 5) as i32 + dr)
                    && b[t] == 0
                {
                    let mut next = *b;
                    next[c] = 0;
                    next[t] = who;
                    out.push((format!("{}-{}", name(c), name(t)), next));
                }
            }
        }
        out
    }

    /// Leaf count; repetition is ignored, so keep depth below 8.
    pub fn perft(b: &Board, who: u8, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let list = moves(b, who);
        if depth == 1 {
            return list.len() as u64;
        }
        list.iter().map(|(_, n)| perft(n, 3 - who, depth - 1)).sum()
    }

    pub fn from(pos: &super::BlackWhite) -> (Board, u8) {
        let mut b = [0; 25];
        for (c, v) in b.iter_mut().enumerate() {
            if pos.pieces[0] >> c & 1 == 1 {
                *v = 1;
            } else if pos.pieces[1] >> c & 1 == 1 {
                *v = 2;
            }
        }
        (b, if pos.side == super::Player::P1 { 1 } else { 2 })
    }
}

/// Walks the tree comparing move lists and resulting boards with the
/// naive generator at every node.
fn cross_check(pos: &mut BlackWhite, depth: u32) {
    let (board, who) = naive::from(pos);
    let mut expected: Vec<(String, naive::Board)> = naive::moves(&board, who);
    expected.sort();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut got = Vec::new();
    for &mv in &moves {
        let before = pos.clone();
        pos.make_move(mv);
        let rebuilt = BlackWhite::from_fen(&pos.to_fen(), &settings()).unwrap();
        assert_eq!(rebuilt.key, pos.key, "incremental key after {mv:?}");
        got.push((before.move_to_string(mv), naive::from(pos).0));
        if depth > 1 {
            cross_check(pos, depth - 1);
        }
        pos.unmake_move(mv);
        assert_eq!(*pos, before, "unmake of {mv:?}");
    }
    got.sort();
    assert_eq!(got, expected, "moves of {}", pos.to_fen());
}

/// Movement-phase positions for the perft pins.
const MIDGAME: [&str; 7] = [
    "5/1xox1/1oxo1/1xox1/2o2 x",
    "xo3/ox3/2x2/3oo/2xox o",
    "5/1x3/xxoo1/oxxo1/1o3 x",
    "o3x/1x1o1/2o2/1x1o1/x1x1o x",
    "5/oxo2/1o1o1/oxo2/x3x x",
    "x3x/1x1x1/2x2/1ooo1/o3o x",
    "x1o1x/5/o1x1o/5/xoo1x x",
];

#[test]
fn perft_from_the_start() {
    // Placement only: 25 * 24 * 23 * ... (no five before the ninth drop).
    let expected = [25, 600, 13_800, 303_600, 6_375_600];
    let mut pos = BlackWhite::start(&settings()).unwrap();
    let start = pos.clone();
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
    let (board, who) = naive::from(&pos);
    assert_eq!(naive::perft(&board, who, 4), expected[3]);
    assert_eq!(pos, start, "make/unmake restores the position");
}

#[test]
fn perft_through_the_end_of_placement() {
    // Seven pieces dropped: the last three drops, then movement.
    let mut pos = fen("5/1xox1/1o3/1x1o1/x4 o");
    let (board, who) = naive::from(&pos);
    for depth in 1..=5 {
        assert_eq!(
            perft(&mut pos, depth),
            naive::perft(&board, who, depth),
            "depth {depth}"
        );
    }
    cross_check(&mut pos, 4);
}

#[test]
fn midgame_perft_is_pinned_and_matches_the_naive_count() {
    // Counts from this implementation, agreed by the naive one below.
    let pinned: [[u64; 6]; 7] = [
        [3, 28, 140, 428, 1554, 13160],
        [3, 9, 14, 39, 186, 949],
        [5, 60, 329, 2133, 14983, 104677],
        [1, 8, 182, 632, 4767, 21321],
        [6, 14, 59, 229, 861, 3841],
        [2, 2, 40, 588, 6904, 85788],
        [19, 134, 892, 4803, 29685, 169775],
    ];
    for (text, expected) in MIDGAME.iter().zip(pinned) {
        let mut pos = fen(text);
        let (board, who) = naive::from(&pos);
        let counts: Vec<u64> = (1..=6).map(|d| perft(&mut pos, d)).collect();
        let naive: Vec<u64> = (1..=6).map(|d| naive::perft(&board, who, d)).collect();
        assert_eq!(counts, naive, "{text}");
        assert_eq!(counts, expected, "{text}");
        cross_check(&mut pos, 3);
        assert_eq!(pos, fen(text));
    }
}

#[test]
fn a_jump_flips_and_capture_is_compulsory() {
    let mut pos = fen("ooo2/5/1xo2/5/xxxxo x");
    // Steps exist, but the one jump is the only legal move.
    assert_eq!(move_texts(&pos), ["b3-d3"]);
    play(&mut pos, "b3-d3");
    assert_eq!(pos.to_fen(), "ooo2/5/2xx1/5/xxxxo o");
    assert_eq!(pos.outcome(), None);
}

#[test]
fn a_chain_goes_on_while_it_can() {
    let mut pos = fen("xx3/x2oo/4o/1o3/x1o1x x");
    assert_eq!(move_texts(&pos), ["a1-c3-e5"]);
    let mut tactical = Vec::new();
    pos.tactical_moves(&mut tactical);
    assert_eq!(tactical.len(), 1);
    play(&mut pos, "a1-c3-e5");
    assert_eq!(pos.to_fen(), "xx2x/x2xo/4o/1x3/2o1x o");
    assert!(fen("xx3/x2oo/4o/1o3/x1o1x x").parse_move("a1-c3").is_err());
}

#[test]
fn five_in_a_row_wins_in_every_direction() {
    for (moves, winner) in [
        ("a1 a2 b1 b2 c1 c2 d1 d2 e1", Player::P1),
        ("a1 b1 a2 b2 a3 b3 a4 b4 a5", Player::P1),
        ("a1 b1 b2 c1 c3 d1 d4 e2 e5", Player::P1),
        ("e1 a1 d2 b1 c3 c1 b4 d1 a5", Player::P1),
        ("a1 a2 b1 b2 c1 c2 d1 d2 a5 e2", Player::P2),
    ] {
        let mut pos = BlackWhite::start(&settings()).unwrap();
        play(&mut pos, moves);
        assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{moves}");
        assert!(move_texts(&pos).is_empty(), "no moves after a win");
    }
    // By a step in the movement phase, found as a tactical move.
    let mut pos = fen("ooo2/oo3/5/4x/xxxx1 x");
    let mut tactical = Vec::new();
    pos.tactical_moves(&mut tactical);
    let texts: Vec<String> = tactical.iter().map(|&m| pos.move_to_string(m)).collect();
    assert_eq!(texts, ["e2-e1"]);
    assert_eq!(pos.move_score(tactical[0]), 10_000);
    play(&mut pos, "e2-e1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
    // By the flip of a jumped piece.
    let mut pos = fen("oo2o/4o/2x2/xxoxx/5 x");
    play(&mut pos, "c3-c1");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn losing_every_piece_or_every_move_loses() {
    let mut pos = fen("x1x1x/5/xxo2/4x/x1x1x x");
    play(&mut pos, "b3-d3");
    assert_eq!(pos.pieces[1], 0);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(move_texts(&pos).is_empty());
    let blocked = fen("3oo/4o/o1o2/oo3/xoo2 x");
    assert_eq!(blocked.outcome(), Some(Outcome::Win(Player::P2)));
    assert!(move_texts(&blocked).is_empty());
}

#[test]
fn third_occurrence_is_a_draw() {
    let text = "2ooo/3oo/5/xx3/xxx2 x";
    let mut pos = fen(text);
    let cycle = "c1-d1 c5-c4 d1-c1 c4-c5";
    play(&mut pos, cycle);
    assert_eq!((pos.reps, pos.outcome()), (2, None));
    assert_ne!(pos.hash(), fen(text).hash(), "a repeat is kept apart");
    assert_eq!(pos.key, fen(text).key);
    play(&mut pos, cycle);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert!(move_texts(&pos).is_empty());
    let last = pos.history.len();
    let mv = fen(text).parse_move("c4-c5");
    assert!(mv.is_err(), "c4-c5 is not legal at the start");
    let mut back = pos.clone();
    let mut once = fen(text);
    play(&mut once, "c1-d1 c5-c4 d1-c1 c4-c5 c1-d1 c5-c4 d1-c1");
    let undo = once.parse_move("c4-c5").unwrap();
    back.unmake_move(undo);
    assert_eq!(back.history.len(), last - 1);
    assert_eq!(back.outcome(), None);
    assert_eq!(back.to_fen(), once.to_fen());
}

#[test]
fn a_capture_cycle_repeats_too() {
    // Flips can be flipped back: the same jumps go round for ever.
    let mut pos = fen("2oox/x2o1/x4/x2o1/x1o2 x");
    let cycle = "e5-c3-e1 d5-d3-d1 e1-c3-e5 d1-d3-d5";
    play(&mut pos, cycle);
    assert_eq!(pos.to_fen(), "2oox/x2o1/x4/x2o1/x1o2 x");
    assert_eq!((pos.reps, pos.outcome()), (2, None));
    play(&mut pos, cycle);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn fen_round_trips_and_rejects_bad_input() {
    let start = BlackWhite::start(&settings()).unwrap();
    assert_eq!(start.to_fen(), "5/5/5/5/5 x");
    let mut placing = start.clone();
    play(&mut placing, "c3 b2 d4");
    assert_eq!(placing.to_fen(), "5/3x1/2x2/1o3/5 o");
    for text in [placing.to_fen().as_str(), "5/5/5/5/5 x"]
        .into_iter()
        .chain(MIDGAME)
    {
        let pos = fen(text);
        assert_eq!(pos.to_fen(), text);
    }
    assert_eq!(fen(&placing.to_fen()).key, placing.key);
    for bad in [
        "",
        "5/5/5/5 x",
        "5/5/5/5/6 x",
        "5/5/5/5/5",
        "5/5/5/5/5 z",
        "5/5/5/5/5 x more",
        "x4/5/5/5/5 x",
        "o4/5/5/5/5 o",
        "xxxxx/ooooo/5/5/5 x",
        "xxxxx/ooooo/x4/5/5 o",
        "5/5/5/5/4q x",
        "99999/5/5/5/5 x",
    ] {
        assert!(BlackWhite::from_fen(bad, &settings()).is_err(), "{bad:?}");
    }
    let custom = Settings {
        size: Some((6, 6)),
        rule: None,
    };
    assert!(BlackWhite::start(&custom).is_err());
    for bad in ["", "z9", "c3-", "c3-d4", "a1-a1", "f1", "c3 c4"] {
        assert!(start.parse_move(bad).is_err(), "{bad:?}");
    }
    assert!(
        fen(MIDGAME[0]).parse_move("c3").is_err(),
        "no drops after placement"
    );
}

/// A small fixed generator for the playouts below.
fn next_random(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn random_games_keep_every_contract() {
    assert!(std::mem::size_of::<Move>() <= 8);
    let mut seed = 7;
    for _ in 0..300 {
        let mut pos = BlackWhite::start(&settings()).unwrap();
        let start = pos.clone();
        let mut made = Vec::new();
        for _ in 0..300 {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            assert_eq!(
                moves.is_empty(),
                pos.outcome().is_some(),
                "{}",
                pos.to_fen()
            );
            if moves.is_empty() {
                break;
            }
            assert!(pos.evaluate().abs() < EVAL_LIMIT);
            let mut tactical = Vec::new();
            pos.tactical_moves(&mut tactical);
            assert!(tactical.iter().all(|m| moves.contains(m)));
            if pos.streak >= QUIESCENCE_JUMPS {
                assert!(
                    tactical
                        .iter()
                        .all(|&m| m.jumps == 0 || has_five(pos.mine_after(m))),
                    "quiescence is bounded"
                );
            }
            for &mv in &moves {
                assert!(pos.history_slot(mv) < BlackWhite::HISTORY_SLOTS);
                assert_eq!(pos.parse_move(&pos.move_to_string(mv)), Ok(mv));
            }
            let mv = moves[next_random(&mut seed) as usize % moves.len()];
            pos.make_move(mv);
            made.push(mv);
            let rebuilt = fen(&pos.to_fen());
            assert_eq!(rebuilt.key, pos.key);
        }
        while let Some(mv) = made.pop() {
            pos.unmake_move(mv);
        }
        assert_eq!(pos, start);
    }
}
