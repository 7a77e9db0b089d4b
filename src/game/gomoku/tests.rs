use super::*;
use crate::game::perft::perft;

fn settings(rule: Rule) -> Settings {
    Settings {
        size: Some((15, 15)),
        rule: Some(rule.name().to_string()),
    }
}

/// A 15x15 position from a diagram of its top rows (x black, o white).
fn diagram(rule: Rule, rows: &[&str], side: Player) -> Gomoku {
    let mut fen_rows = Vec::new();
    for r in 0..15 {
        let row = rows.get(r).copied().unwrap_or("");
        let mut text = String::new();
        let mut run = 0;
        for c in 0..15 {
            match row.as_bytes().get(c) {
                Some(b'x') | Some(b'o') => {
                    if run > 0 {
                        text.push_str(&run.to_string());
                        run = 0;
                    }
                    text.push(row.as_bytes()[c] as char);
                }
                _ => run += 1,
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
        fen_rows.push(text);
    }
    let side = if side == Player::P1 { "x" } else { "o" };
    Gomoku::from_fen(&format!("{} {side}", fen_rows.join("/")), &settings(rule)).unwrap()
}

fn cell(pos: &Gomoku, row: usize, col: usize) -> u16 {
    pos.index(row, col) as u16
}

/// Plays `(row, col)` for the side to move and returns the outcome.
fn play_at(mut pos: Gomoku, row: usize, col: usize) -> Option<Outcome> {
    let mv = cell(&pos, row, col);
    pos.make_move(mv);
    pos.outcome()
}

#[test]
fn perft_counts_empty_cells() {
    let mut pos = Gomoku::start(&Settings::default()).unwrap();
    assert_eq!(perft(&mut pos, 1), 225);
    assert_eq!(perft(&mut pos, 2), 225 * 224);
    assert_eq!(perft(&mut pos, 3), 225 * 224 * 223);
    let mut small = Gomoku::start(&Settings {
        size: Some((7, 5)),
        rule: None,
    })
    .unwrap();
    assert_eq!(perft(&mut small, 2), 35 * 34);
}

#[test]
fn overline_wins_in_freestyle_only() {
    let rows = ["", "", "", "", "", "xxx.xx", "oooo", "", "o"];
    for (rule, black_wins) in [
        (Rule::Freestyle, true),
        (Rule::Standard, false),
        (Rule::Renju, false),
        (Rule::Caro, false),
        (Rule::CaroOverline, true),
    ] {
        let pos = diagram(rule, &rows, Player::P1);
        if rule == Rule::Renju {
            assert!(
                pos.is_forbidden(pos.index(5, 3)),
                "overline is forbidden for black"
            );
            assert!(pos.parse_move("d10").is_err());
            continue;
        }
        let won = play_at(pos, 5, 3) == Some(Outcome::Win(Player::P1));
        assert_eq!(won, black_wins, "{rule}");
    }
    // White may make an overline in renju, not in standard.
    let rows = ["", "", "", "", "", "ooo.oo", "xxxx.x", "", "", "", "x"];
    let renju = diagram(Rule::Renju, &rows, Player::P2);
    assert_eq!(play_at(renju, 5, 3), Some(Outcome::Win(Player::P2)));
    let standard = diagram(Rule::Standard, &rows, Player::P2);
    assert_eq!(play_at(standard, 5, 3), None);
}

#[test]
fn renju_double_three_is_forbidden() {
    let rows = ["", "", "", ".....x", ".....x", "...xx"];
    let pos = diagram(Rule::Renju, &rows, Player::P1);
    assert!(pos.is_forbidden(pos.index(5, 5)));
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    assert!(!moves.contains(&cell(&pos, 5, 5)));
    assert!(moves.contains(&cell(&pos, 5, 6)));
    // The same shape is fine for white, and in the other rules.
    let rows_white = ["", "", "", ".....o", ".....o", "...oo", "", "", "x.x.x"];
    let white = diagram(Rule::Renju, &rows_white, Player::P2);
    assert!(white.parse_move("f10").is_ok());
    assert!(!diagram(Rule::Standard, &rows, Player::P1).is_forbidden(pos.index(5, 5)));
}

#[test]
fn renju_forbidden_cells_are_no_threat_of_blacks() {
    // Black's double three and double four are forbidden points: no
    // threat and no weight for black in renju, as they are elsewhere.
    for (rows, freestyle) in [
        (
            &["", "", "", ".....x", ".....x", "...xx"][..],
            Threat::DoubleThree,
        ),
        (
            &["", "", ".....x", ".....x", ".....x", ".oxxx"][..],
            Threat::OpenFour,
        ),
    ] {
        let i = cell(&diagram(Rule::Renju, rows, Player::P1), 5, 5) as usize;
        let renju = diagram(Rule::Renju, rows, Player::P1);
        // Nor an ordering value, for black's stone or for taking the cell.
        assert_eq!(renju.info[0][i], CellInfo::default());
        let free = diagram(Rule::Freestyle, rows, Player::P1);
        assert_eq!(free.info[0][i].threat, freestyle as u8);
        // White's same shape counts in renju too.
        let swapped: Vec<String> = rows
            .iter()
            .map(|r| r.replace('x', "X").replace('o', "x").replace('X', "o"))
            .collect();
        let swapped: Vec<&str> = swapped.iter().map(String::as_str).collect();
        let white = diagram(Rule::Renju, &swapped, Player::P2);
        assert_eq!(white.info[1][i].threat, freestyle as u8);
    }
}

#[test]
fn renju_double_four_is_forbidden_also_on_one_line() {
    let rows = ["", "", ".....x", ".....x", ".....x", ".oxxx"];
    let pos = diagram(Rule::Renju, &rows, Player::P1);
    assert!(pos.is_forbidden(pos.index(5, 5)), "two fours in two lines");
    let rows = ["", "", "", "", "", "..x.x.x.x"];
    let pos = diagram(Rule::Renju, &rows, Player::P1);
    assert!(
        pos.is_forbidden(pos.index(5, 5)),
        "x.xxx.x: two fours on one line"
    );
    // A single straight four is allowed.
    let rows = ["", "", "", "", "", "...xx.x"];
    let pos = diagram(Rule::Renju, &rows, Player::P1);
    assert!(!pos.is_forbidden(pos.index(5, 5)));
}

#[test]
fn renju_false_double_three_is_allowed() {
    // Horizontal: the three's only straight-four point (f10... col 6) is an
    // overline point for black, so the three is not real; the vertical
    // three is. One real three: allowed.
    let false_three = [
        "", "", "......x", ".....xx", ".....xx", ".o.xx", "......x", "......x",
    ];
    let pos = diagram(Rule::Renju, &false_three, Player::P1);
    assert!(
        pos.is_forbidden(pos.index(5, 6)),
        "the four-point is an overline point"
    );
    assert!(
        !pos.is_forbidden(pos.index(5, 5)),
        "one of the two threes is false"
    );
    // Without the overline trap both threes are real: forbidden.
    let real = ["", "", "", ".....x", ".....x", ".o.xx"];
    let pos = diagram(Rule::Renju, &real, Player::P1);
    assert!(pos.is_forbidden(pos.index(5, 5)));
}

#[test]
fn renju_five_wins_even_with_a_forbidden_shape() {
    // (5,5) makes five in the row and a double three elsewhere.
    let rows = ["", "", "", ".....x", ".....x", ".xxxx", "", "", "oooo"];
    let pos = diagram(Rule::Renju, &rows, Player::P1);
    assert!(!pos.is_forbidden(pos.index(5, 5)));
    assert_eq!(play_at(pos, 5, 5), Some(Outcome::Win(Player::P1)));
}

#[test]
fn caro_with_overlines_lets_a_blocked_overline_win_but_not_a_blocked_five() {
    // Piskvork's rule 8: the five's blocking rule holds, and a line of six
    // or more wins whatever is at its ends.
    let six = ["", "", "", "", "", "oxx.xxxo", "", "o", "o"];
    let overline = diagram(Rule::CaroOverline, &six, Player::P1);
    assert_eq!(play_at(overline, 5, 3), Some(Outcome::Win(Player::P1)));
    let exact = diagram(Rule::Caro, &six, Player::P1);
    assert_eq!(play_at(exact, 5, 3), None, "rule 9: no overline wins");
    let blocked = diagram(
        Rule::CaroOverline,
        &["", "", "", "", "", "oxxxx.o", "", "o", "o"],
        Player::P1,
    );
    assert_eq!(play_at(blocked, 5, 5), None, "o xxxxx o is no win");
    // The pattern tables agree: the overline point is a five-point.
    let overline = diagram(Rule::CaroOverline, &six, Player::P1);
    assert_eq!(overline.threats(BLACK, Threat::Five), 1);
    let exact = diagram(Rule::Caro, &six, Player::P1);
    assert_eq!(exact.threats(BLACK, Threat::Five), 0);
}

#[test]
fn gomocup_rule_masks_read_as_piskvork_reads_them() {
    for (mask, rule) in [
        (0, Rule::Freestyle),
        (1, Rule::Standard),
        (2, Rule::Freestyle),
        (4, Rule::Renju),
        (8, Rule::CaroOverline),
        (9, Rule::Caro),
    ] {
        assert_eq!(Rule::from_gomocup(mask), Some(rule), "{mask}");
    }
    for rule in Rule::ALL {
        assert_eq!(Rule::from_gomocup(rule.gomocup_mask()), Some(rule));
    }
    assert_eq!(Rule::from_gomocup(16), None);
}

#[test]
fn caro_needs_an_unblocked_five_but_the_edge_does_not_block() {
    let blocked = diagram(
        Rule::Caro,
        &["", "", "", "", "", "oxxxx.o", "", "o", "o"],
        Player::P1,
    );
    assert_eq!(play_at(blocked, 5, 5), None, "o xxxxx o is no win in caro");
    let edge = diagram(
        Rule::Caro,
        &["", "", "", "", "", "xxxx.o", "", "o", "o"],
        Player::P1,
    );
    assert_eq!(
        play_at(edge, 5, 4),
        Some(Outcome::Win(Player::P1)),
        "the edge does not block"
    );
    let one_side = diagram(
        Rule::Caro,
        &["", "", "", "", "", "oxxxx..", "", "o", "o"],
        Player::P1,
    );
    assert_eq!(play_at(one_side, 5, 5), Some(Outcome::Win(Player::P1)));
    let freestyle = diagram(
        Rule::Freestyle,
        &["", "", "", "", "", "oxxxx.o", "", "o", "o"],
        Player::P1,
    );
    assert_eq!(play_at(freestyle, 5, 5), Some(Outcome::Win(Player::P1)));
}

#[test]
fn full_board_without_five_is_a_draw() {
    // 5x5 filled in a pattern without five in a row.
    let fen = "xxoox/ooxxo/xxoox/ooxxo/xxoo1 o";
    let settings = Settings {
        size: Some((5, 5)),
        rule: None,
    };
    let mut pos = Gomoku::from_fen(fen, &settings).unwrap();
    assert_eq!(pos.outcome(), None);
    let mv = pos.parse_move("e1").unwrap();
    pos.make_move(mv);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
}

#[test]
fn incremental_state_and_hash_after_match_a_rebuild() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for rule in Rule::ALL {
        let s = settings(rule);
        let mut pos = Gomoku::start(&s).unwrap();
        let mut played = Vec::new();
        for _ in 0..60 {
            let mut moves = Vec::new();
            pos.search_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            let predicted = pos.hash_after(mv);
            pos.make_move(mv);
            assert_eq!(predicted, pos.hash(), "hash_after, {rule}");
            played.push(mv);
            let rebuilt = Gomoku::from_fen(&pos.to_fen(), &s).unwrap();
            assert_eq!(pos, rebuilt, "{rule} after {}", pos.to_fen());
            if pos.outcome().is_some() {
                break;
            }
        }
        while let Some(mv) = played.pop() {
            pos.unmake_move(mv);
        }
        assert_eq!(
            pos,
            Gomoku::start(&s).unwrap(),
            "{rule}: unmake restores the start"
        );
    }
}

#[test]
fn seek_the_must_win_then_block() {
    // Black to move has four in a row: the only search move wins.
    let pos = diagram(
        Rule::Freestyle,
        &["", "", "", "", "", ".xxxx", "", "oooo"],
        Player::P1,
    );
    let mut moves = Vec::new();
    pos.search_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    let (row, col) = pos.coords(moves[0] as usize);
    assert_eq!(play_at(pos, row, col), Some(Outcome::Win(Player::P1)));
    // White to move must block black's four (white has no five).
    let pos = diagram(
        Rule::Freestyle,
        &["", "", "", "", "", "oxxxx", "", "ooo"],
        Player::P2,
    );
    let mut moves = Vec::new();
    pos.search_moves(&mut moves);
    assert_eq!(moves, vec![cell(&pos, 5, 5)]);
}

/// The listed move the ordering scores highest.
fn best_ordered(pos: &Gomoku) -> u16 {
    let mut moves = Vec::new();
    pos.search_moves(&mut moves);
    *moves.iter().max_by_key(|&&mv| pos.move_score(mv)).unwrap()
}

#[test]
fn ordering_puts_the_open_four_first() {
    // Black's open three on row 7 (g8 h8 i8), white's stones loose
    // around it: making the open four (f8 or j8) comes first, for black to
    // play; for white, stopping it at one of those cells.
    let rows = [
        "",
        "",
        "",
        "",
        "",
        "....o",
        ".........o",
        "......xxx",
        "",
        "....o.o",
    ];
    let fours = [
        cell(&diagram(Rule::Freestyle, &rows, Player::P1), 7, 5),
        cell(&diagram(Rule::Freestyle, &rows, Player::P1), 7, 9),
    ];
    for side in [Player::P1, Player::P2] {
        let pos = diagram(Rule::Freestyle, &rows, side);
        let best = best_ordered(&pos);
        assert!(
            fours.contains(&best),
            "{side:?} orders {} first",
            pos.move_to_string(best)
        );
    }
}

#[test]
fn notation_and_fen() {
    let pos = Gomoku::start(&Settings::default()).unwrap();
    let h8 = pos.parse_move("h8").unwrap();
    assert_eq!(pos.coords(h8 as usize), (7, 7));
    assert_eq!(pos.move_to_string(h8), "h8");
    assert_eq!(pos.move_to_string(cell(&pos, 14, 0)), "a1");
    assert_eq!(pos.move_to_string(cell(&pos, 0, 14)), "o15");
    for bad in ["p1", "a0", "a16", "h", "8", "zz3", ""] {
        assert!(pos.parse_move(bad).is_err(), "{bad}");
    }
    let wide = Gomoku::start(&Settings {
        size: Some((32, 20)),
        rule: None,
    })
    .unwrap();
    let far = wide.parse_move("af20").unwrap();
    assert_eq!(wide.coords(far as usize), (0, 31));
    assert_eq!(wide.move_to_string(far), "af20");
    let mut p = pos.clone();
    for m in ["h8", "i9", "h9"] {
        let mv = p.parse_move(m).unwrap();
        p.make_move(mv);
    }
    let fen = p.to_fen();
    assert_eq!(fen, "15/15/15/15/15/15/7xo6/7x7/15/15/15/15/15/15/15 o");
    assert_eq!(Gomoku::from_fen(&fen, &Settings::default()).unwrap(), p);
    assert!(Gomoku::from_fen("15/15 x", &Settings::default()).is_err());
    assert!(
        Gomoku::start(&Settings {
            size: Some((4, 15)),
            rule: None
        })
        .is_err()
    );
    assert!(
        Gomoku::start(&Settings {
            size: Some((33, 15)),
            rule: None
        })
        .is_err()
    );
    assert!(
        Gomoku::start(&Settings {
            size: None,
            rule: Some("pente".into())
        })
        .is_err()
    );
}

fn vcf_of(pos: &Gomoku) -> threats::Vcf {
    pos.clone().vcf(1_000_000)
}

/// Black's blocked threes along row 7 (from d) and column 7 (from row
/// 3) meet on h8 (row 7, col 7): a double four there. `row7` is the row.
fn double_four(rule: Rule, row7: &str) -> Gomoku {
    diagram(
        rule,
        &[
            "", "", "", ".......o", ".......x", ".......x", ".......x", row7,
        ],
        Player::P1,
    )
}

#[test]
fn vcf_double_four_in_one_move() {
    let pos = double_four(Rule::Freestyle, "...oxxx");
    let h8 = cell(&pos, 7, 7);
    assert_eq!(vcf_of(&pos), threats::Vcf::Win(h8, 3));
    assert!(forced_win_holds(&mut pos.clone(), 3));
    // The same stones, white to move: white has no four at all.
    let mut white = pos.clone();
    white.set_side(Player::P2);
    assert_eq!(vcf_of(&white), threats::Vcf::None);
}

#[test]
fn vcf_respects_every_rule() {
    // Renju: the double four is forbidden for black, and no other chain
    // of fours wins.
    let renju = double_four(Rule::Renju, "...oxxx");
    assert!(renju.is_forbidden(renju.index(7, 7)));
    assert_eq!(vcf_of(&renju), threats::Vcf::None);
    // Standard: h8 would make a row four whose five-point i8 gives six.
    let overline = "...oxxx..x";
    let free = double_four(Rule::Freestyle, overline);
    assert!(matches!(vcf_of(&free), threats::Vcf::Win(_, 3)));
    assert!(forced_win_holds(&mut free.clone(), 3));
    assert_eq!(
        vcf_of(&double_four(Rule::Standard, overline)),
        threats::Vcf::None
    );
    // Caro: the row five would be blocked at both ends.
    let blocked = "...oxxx..o";
    assert!(matches!(
        vcf_of(&double_four(Rule::Freestyle, blocked)),
        threats::Vcf::Win(_, 3)
    ));
    assert_eq!(
        vcf_of(&double_four(Rule::Caro, blocked)),
        threats::Vcf::None
    );
}

#[test]
fn renju_white_wins_through_a_forbidden_block() {
    // White's diagonal e11-g9 is blocked at c13 and i7 by black. White d12
    // leaves h8 as the one five-point, and h8 is a double three for black.
    let rows = [
        "",
        "",
        "..x",
        "",
        "....o",
        ".....o.x",
        "......ox",
        ".....xx",
        "........x",
    ];
    let renju = diagram(Rule::Renju, &rows, Player::P2);
    let h8 = renju.index(7, 7);
    assert!(renju.is_forbidden(h8));
    let d4 = cell(&renju, 3, 3);
    assert_eq!(vcf_of(&renju), threats::Vcf::Win(d4, 3));
    assert!(forced_win_holds(&mut renju.clone(), 3));
    // In freestyle black simply blocks.
    let free = diagram(Rule::Freestyle, &rows, Player::P2);
    assert_eq!(vcf_of(&free), threats::Vcf::None);
}

#[test]
fn vcf_in_two_fours() {
    // g8 (row 7, col 6) is missing from the row; black gets it with a
    // four down column 6 (g7-g5 black, g4 white), white must answer g9,
    // and h8 is then a double four.
    let pos = diagram(
        Rule::Freestyle,
        &[
            "", "", "", ".......o", ".......x", ".......x", ".......x", "...oxx", "......x",
            "......x", "......x", "......o",
        ],
        Player::P1,
    );
    assert!(matches!(vcf_of(&pos), threats::Vcf::Win(_, 5)));
    assert!(forced_win_holds(&mut pos.clone(), 5));
}

#[test]
fn no_vcf_is_proved_with_little_work() {
    // A lone blocked three: one four, one block, nothing more.
    let pos = diagram(
        Rule::Freestyle,
        &["", "", "", "", "", "", "", "...oxxx"],
        Player::P1,
    );
    assert_eq!(pos.clone().vcf(10), threats::Vcf::None);
    // A middle game with fours on both sides but no win by fours.
    let pos = played(
        Rule::Freestyle,
        &[
            "h8", "i9", "h9", "h10", "g8", "i8", "h7", "h6", "i10", "j11",
        ],
    );
    assert_eq!(pos.clone().vcf(2_000), threats::Vcf::None);
}

/// Every position of `games` seeded random games of at most `plies`
/// plies over the search moves, in every rule; `check` returns whether
/// it met what it looks for, and each rule must meet it `least` times.
fn random_game_positions(
    seed: u64,
    games: usize,
    plies: usize,
    least: usize,
    mut check: impl FnMut(&mut Gomoku) -> bool,
) {
    random_game_histories(seed, games, plies, least, |pos, _| check(pos));
}

/// `random_game_positions`, `check` also given the moves that led there.
fn random_game_histories(
    seed: u64,
    games: usize,
    plies: usize,
    least: usize,
    mut check: impl FnMut(&mut Gomoku, &[u16]) -> bool,
) {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for rule in Rule::ALL {
        let mut met = 0;
        for _ in 0..games {
            let mut pos = Gomoku::start(&settings(rule)).unwrap();
            let mut history = Vec::new();
            for _ in 0..plies {
                if pos.outcome().is_some() {
                    break;
                }
                if check(&mut pos, &history) {
                    met += 1;
                }
                let mut moves = Vec::new();
                pos.search_moves(&mut moves);
                let &mv = moves.choose(&mut rng).unwrap();
                pos.make_move(mv);
                history.push(mv);
            }
        }
        assert!(met >= least, "{rule}: met only {met} times");
    }
}

/// The quick VCF with the tree's budget claims only wins that hold, and
/// finds nearly every win the full search finds with that budget (and
/// some it runs out of work for).
#[test]
fn quick_vcf_wins_hold_and_few_are_missed() {
    let (mut full, mut quick, mut missed) = (0, 0, 0);
    random_game_positions(23, 12, 50, 10, |pos| {
        let by_full = pos.clone().vcf(64).win().is_some();
        let quick_win = pos.clone().vcf_quick(64).win();
        if let Some((_, plies)) = quick_win {
            assert!(
                win_holds(&mut pos.clone(), plies, Claim::QuickFours),
                "{}",
                pos.to_fen()
            );
        }
        let found = quick_win.is_some();
        full += u32::from(by_full);
        quick += u32::from(found);
        missed += u32::from(by_full && !found);
        found
    });
    assert!(quick >= full, "quick {quick} full {full}");
    assert!(missed * 20 <= full, "missed {missed} of {full}");
}

#[test]
fn every_vcf_found_in_random_games_holds() {
    random_game_positions(17, 12, 40, 10, |pos| {
        let threats::Vcf::Win(_, plies) = vcf_of(pos) else {
            return false;
        };
        assert!(forced_win_holds(pos, plies), "{}", pos.to_fen());
        true
    });
}

/// The position after `moves` from the empty board.
fn played(rule: Rule, moves: &[&str]) -> Gomoku {
    let mut pos = Gomoku::start(&settings(rule)).unwrap();
    for m in moves {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

fn vct_of(pos: &Gomoku) -> vct::Vct {
    pos.clone().vct(200_000)
}

/// Which threat search's claimed win [`win_holds`] checks.
#[derive(Clone, Copy)]
enum Claim {
    /// `vcf`: every legal reply of the defender is tried.
    Fours,
    /// `vcf_quick` with the tree's budget, replies as for `Fours`.
    QuickFours,
    /// `vct`: the defender's replies near the stones (within two cells of
    /// one: a move farther away defends nothing) or making a four anywhere.
    Threats,
}

/// Checks a claimed win on its own terms: the attacker's moves come from
/// the claiming search, each is legal, every reply of the defender (as
/// `claim` says) is tried, and the attacker must have five within `plies`.
fn win_holds(pos: &mut Gomoku, plies: u32, claim: Claim) -> bool {
    let win = match claim {
        Claim::Fours => pos.vcf(1_000_000).win(),
        Claim::QuickFours => pos.vcf_quick(64).win(),
        Claim::Threats => match pos.vct(200_000) {
            vct::Vct::Win(mv, n) => Some((mv, n)),
            _ => None,
        },
    };
    let Some((mv, claimed)) = win else {
        return false;
    };
    if claimed > plies {
        return false;
    }
    let me = pos.side_to_move();
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    if !legal.contains(&mv) {
        return false;
    }
    pos.make_move(mv);
    let holds = match pos.outcome() {
        Some(Outcome::Win(p)) => p == me,
        Some(Outcome::Draw) => false,
        None if plies < 3 => false,
        None => {
            let them = color_of(pos.side_to_move());
            let mut replies = Vec::new();
            pos.generate_moves(&mut replies);
            if let Claim::Threats = claim {
                replies.retain(|&r| {
                    pos.near(r as usize)
                        || threats::makes_four(pos.info[(them - 1) as usize][r as usize].threat)
                });
            }
            replies.iter().all(|&r| {
                pos.make_move(r);
                let ok = pos.outcome().is_none() && win_holds(pos, plies - 2, claim);
                pos.unmake_move(r);
                ok
            })
        }
    };
    pos.unmake_move(mv);
    holds
}

fn forced_win_holds(pos: &mut Gomoku, plies: u32) -> bool {
    win_holds(pos, plies, Claim::Fours)
}

fn threat_win_holds(pos: &mut Gomoku, plies: u32) -> bool {
    win_holds(pos, plies, Claim::Threats)
}

/// Black's open twos on row 7 (f8 g8) and column 7 (h10 h9) meet on h8:
/// a double three there, far from white's stones.
fn double_three(rule: Rule) -> Gomoku {
    diagram(
        rule,
        &[
            "o.............o",
            "",
            "",
            "",
            "",
            ".......x",
            ".......x",
            ".....xx",
            "",
            "",
            "",
            "",
            "",
            "",
            "o.............o",
        ],
        Player::P1,
    )
}

#[test]
fn vct_double_three_in_every_rule_but_renju() {
    for rule in [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Caro,
        Rule::CaroOverline,
    ] {
        let pos = double_three(rule);
        let vct::Vct::Win(mv, plies) = vct_of(&pos) else {
            panic!("{rule}: no VCT found");
        };
        assert!(plies >= 5, "{rule}: a double three needs five plies");
        assert!(threat_win_holds(&mut pos.clone(), plies), "{rule}");
        // There are no fours yet: VCF alone finds nothing.
        assert_eq!(vcf_of(&pos), threats::Vcf::None, "{rule}");
        if rule == Rule::Freestyle {
            assert_eq!((mv, plies), (cell(&pos, 7, 7), 5), "the double three");
        }
        // White to move with the same stones has no threat at all.
        let mut white = pos.clone();
        white.set_side(Player::P2);
        assert_eq!(vct_of(&white), vct::Vct::None, "{rule}");
    }
}

#[test]
fn vct_finds_a_three_then_a_four_three() {
    // Black's two on row 7 (g8 h8) becomes an open three, white blocks,
    // and black's column then meets a four and a three on one cell.
    let pos = diagram(
        Rule::Freestyle,
        &[
            "o",
            "",
            "",
            "",
            ".......o",
            ".....x",
            ".....x",
            "......xx",
            "",
            "",
            "",
            "",
            "",
            "",
            "..............o",
        ],
        Player::P1,
    );
    let vct::Vct::Win(_, plies) = vct_of(&pos) else {
        panic!("no VCT");
    };
    assert!(threat_win_holds(&mut pos.clone(), plies));
}

#[test]
fn no_vct_is_said_quickly() {
    for rule in Rule::ALL {
        // A lone blocked three: one four, one block, nothing more.
        let pos = diagram(rule, &["", "", "", "", "", "", "", "...oxxx"], Player::P1);
        let mut copy = pos.clone();
        assert_eq!(copy.vct(50), vct::Vct::None, "{rule}");
        assert!(copy.vct_cache.last_nodes <= 50, "{rule}");
        // Stones with no three to make at all: answered before any search.
        let quiet = diagram(rule, &["", "", "", "", "", "", "", ".....x.o"], Player::P1);
        assert_eq!(quiet.clone().vct(1), vct::Vct::None, "{rule}");
    }
}

#[test]
fn vct_results_are_cached_within_a_position() {
    let mut pos = double_three(Rule::Freestyle);
    let first = pos.vct(200_000);
    // The second search of the same position is answered by the table.
    assert_eq!(pos.vct(1), first);
}

#[test]
fn renju_vct_never_plays_a_forbidden_point() {
    // Freestyle wins at once with the double three h8 (and VCF with the
    // double four h8); in renju both are forbidden, so any win black has
    // must come another way: the checker replays every attacker move as
    // a legal move.
    for renju in [
        double_three(Rule::Renju),
        double_four(Rule::Renju, "...oxxx"),
    ] {
        let h8 = renju.index(7, 7);
        assert!(renju.is_forbidden(h8));
        match vct_of(&renju) {
            vct::Vct::Win(mv, plies) => {
                assert_ne!(mv as usize, h8);
                assert!(plies > 3, "not the one-move double");
                assert!(threat_win_holds(&mut renju.clone(), plies));
            }
            other => assert_eq!(other, vct::Vct::None),
        }
    }
}

#[test]
fn vct_wins_longer_than_the_first_pass_are_found() {
    // An opening where black's threat win needs paths longer than the
    // first pass allows: that pass disproves the root, and the deeper
    // passes must not take its disproofs (nor the root's) as final.
    let mut pos = played(
        Rule::Freestyle,
        &["f9", "g9", "h8", "i8", "g10", "h11", "f8", "i10"],
    );
    let vct::Vct::Win(_, plies) = pos.clone().vct(200_000) else {
        panic!("no VCT");
    };
    assert!(threat_win_holds(&mut pos, plies));
}

#[test]
fn threat_searches_count_the_positions_they_visit_for_the_searcher() {
    let moves = ["f9", "g9", "h8", "i8", "g10", "h11", "f8", "i10"];
    let mut pos = played(Rule::Freestyle, &moves);
    assert_eq!(pos.take_threat_nodes(), 0, "nothing searched yet");
    // The searcher's own moves are its nodes, not the threat searches'.
    let mut list = Vec::new();
    pos.search_moves(&mut list);
    pos.make_move(list[0]);
    pos.unmake_move(list[0]);
    assert_eq!(pos.take_threat_nodes(), 0);
    let (_, plies) = pos.threat_win(200_000).expect("a VCT");
    let visited = pos.take_threat_nodes();
    // The proof alone makes every move but the five.
    assert!(
        visited >= u64::from(plies) - 1,
        "{visited} for {plies} plies"
    );
    assert_eq!(pos.take_threat_nodes(), 0, "taken");
    // Asked again, the cache answers with no position visited.
    assert!(pos.threat_win(200_000).is_some());
    assert_eq!(pos.take_threat_nodes(), 0);
    // Each kind of threat search adds what it visits.
    for (k, search) in [
        |p: &mut Gomoku| p.forced_win(1_000).is_some(),
        |p: &mut Gomoku| p.quick_win(1_000).is_some(),
        |p: &mut Gomoku| p.threat_defences(1_000, &mut Vec::new()),
    ]
    .iter()
    .enumerate()
    {
        // Black's blocked three h7-h9 gives it a four to try.
        let mut fresh = played(Rule::Freestyle, &["h8", "i9", "h9", "h10", "h7", "i8"]);
        let before = fresh.moves_made;
        search(&mut fresh);
        let made = fresh.moves_made - before;
        assert_eq!(fresh.take_threat_nodes(), made, "search {k}");
        assert!(k == 2 || made > 0, "search {k} tried the four");
    }
}

#[test]
fn threat_search_tables_carry_over_to_a_copy_of_the_same_rule_only() {
    // The copy of a later position (here the same one) takes an earlier
    // search's results: the win is known without a node of search. A copy
    // under another rule takes nothing.
    let moves = ["f9", "g9", "h8", "i8", "g10", "h11", "f8", "i10"];
    let mut searched = played(Rule::Freestyle, &moves);
    let vct::Vct::Win(mv, plies) = searched.vct(200_000) else {
        panic!("no VCT");
    };
    let mut copy = searched.clone();
    assert_ne!(copy.vct(1), vct::Vct::Win(mv, plies), "a copy starts empty");
    let mut copy = searched.clone();
    copy.take_caches(&mut searched);
    assert_eq!(copy.vct(1), vct::Vct::Win(mv, plies));
    let mut other = played(Rule::Standard, &moves);
    other.take_caches(&mut copy);
    assert_ne!(other.vct(1), vct::Vct::Win(mv, plies));
    assert_eq!(
        copy.vct(1),
        vct::Vct::Win(mv, plies),
        "copy kept its tables"
    );
}

#[test]
fn renju_vct_that_needs_a_forbidden_point_does_not_count() {
    // Black's only threat is the double three on h8 (its other lines are
    // blocked by white): freestyle wins with it, renju has no VCT at all.
    let rows = [
        "",
        "",
        "",
        ".......o",
        "",
        ".......xo",
        "......ox",
        "...o.xx",
        ".....o",
        "",
        "o.............o",
    ];
    let free = diagram(Rule::Freestyle, &rows, Player::P1);
    assert!(matches!(vct_of(&free), vct::Vct::Win(..)));
    let renju = diagram(Rule::Renju, &rows, Player::P1);
    assert!(renju.is_forbidden(renju.index(7, 7)));
    assert_eq!(vct_of(&renju), vct::Vct::None);
}

#[test]
fn every_short_vct_found_in_random_games_holds() {
    random_game_positions(23, 6, 30, 5, |pos| match pos.clone().vct(2_000) {
        vct::Vct::Win(_, plies) if plies <= 5 => {
            assert!(threat_win_holds(pos, plies), "{}", pos.to_fen());
            true
        }
        _ => false,
    });
}

/// `pos` with every stone moved by `to` (row, col -> row, col), the
/// colours swapped if `swap` (and so the side to move).
fn transformed(pos: &Gomoku, to: impl Fn(usize, usize) -> (usize, usize), swap: bool) -> Gomoku {
    let mut out = Gomoku::empty(pos.width(), pos.height(), pos.rule());
    for row in 0..pos.height() {
        for col in 0..pos.width() {
            if let Some(p) = pos.stone(row, col) {
                let (r, c) = to(row, col);
                let i = out.index(r, c);
                out.put(i, if swap { p.other() } else { p });
            }
        }
    }
    let side = pos.side_to_move();
    out.set_side(if swap { side.other() } else { side });
    out
}

/// `transformed`, but reached as `pos` was: the position before the last
/// move set up, then that move (moved by `to`) made, so that the image's
/// evaluation has the same previous position to average in.
fn transformed_replay(
    pos: &Gomoku,
    history: &[u16],
    to: impl Fn(usize, usize) -> (usize, usize),
    swap: bool,
) -> Gomoku {
    let Some(&last) = history.last() else {
        return transformed(pos, to, swap);
    };
    let mut before = pos.clone();
    before.unmake_move(last);
    let mut out = transformed(&before, &to, swap);
    let (row, col) = pos.coords(last as usize);
    let (r, c) = to(row, col);
    let mv = out.index(r, c) as u16;
    out.make_move(mv);
    out
}

#[test]
fn evaluation_is_the_same_on_symmetric_boards() {
    let last = 14;
    random_game_histories(23, 6, 40, 100, |pos, history| {
        let value = pos.evaluate();
        let images = [
            transformed_replay(pos, history, |r, c| (r, last - c), false),
            transformed_replay(pos, history, |r, c| (last - r, c), false),
            transformed_replay(pos, history, |r, c| (c, r), false),
            transformed_replay(pos, history, |r, c| (last - c, last - r), false),
        ];
        for image in images {
            assert_eq!(image.evaluate(), value, "{pos:?} and {image:?}");
        }
        true
    });
}

#[test]
fn evaluation_does_not_depend_on_colour_but_in_renju() {
    random_game_histories(29, 6, 40, 100, |pos, history| {
        if pos.rule() == Rule::Renju {
            return true;
        }
        let swapped = transformed_replay(pos, history, |r, c| (r, c), true);
        assert_eq!(swapped.evaluate(), pos.evaluate(), "{pos:?}");
        true
    });
}

#[test]
fn the_side_to_move_owns_its_threats() {
    // Black has an open three (d8 e8 f8 with c8 and g8 free), white two
    // scattered stones: black to move makes an open four and wins, white
    // to move blocks it.
    let mut rows = vec![""; 7];
    rows.extend(["..xxx......o..", "", "", "", "o"]);
    let black = diagram(Rule::Freestyle, &rows, Player::P1).evaluate();
    let white = diagram(Rule::Freestyle, &rows, Player::P2).evaluate();
    assert!(black >= 2_000, "black to move with an open three: {black}");
    // White to move is worse (the fitted weights put the three's two
    // open-four cells near -1000) but far from a threat about to win.
    assert!(white > -2_000, "white to move blocks the three: {white}");
    assert!(black > -white + 1_000, "{black} against {white}");
}

#[test]
fn a_four_three_counts_as_won_only_when_the_opponent_has_no_four() {
    // Black to move makes a four-three at f8 (the four c8-f8 against b8
    // and the open three f10-f8). White has the same stones but one: in
    // the second board three of them in a row against the edge give it a
    // four to make, with which it takes the tempo back (in the labelled
    // positions of the fit, such four-threes won about 78% of the time;
    // without a white four, all of them).
    let board = |white_row: &'static str| {
        let mut rows = vec!["o", "", "", "", "", ".....x", ".....x", ".oxxx"];
        rows.extend(["", "", "", "", white_row, "", "..............o"]);
        diagram(Rule::Freestyle, &rows, Player::P1).evaluate()
    };
    let clean = board("........o...o.o");
    let against_fours = board("............ooo");
    assert!(clean >= 7_000, "a four-three against no fours: {clean}");
    assert!(
        against_fours < 4_000 && against_fours < clean - 4_000,
        "a four-three against a four: {against_fours}, without: {clean}"
    );
}

/// `narrow_defences` of the side to move, as a sorted list of (row, col).
fn narrow_cells(pos: &Gomoku) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    assert!(pos.narrow_defences(color_of(pos.side), &mut moves));
    let mut cells: Vec<_> = moves.iter().map(|&m| pos.coords(m as usize)).collect();
    cells.sort();
    cells
}

/// A freestyle position with the rows given by number (from the top).
fn rows(rows: &[(usize, &str)], side: Player) -> Gomoku {
    let mut lines = [""; 15];
    for &(r, text) in rows {
        lines[r] = text;
    }
    diagram(Rule::Freestyle, &lines, side)
}

#[test]
fn an_open_three_is_answered_on_its_defence_cells_only() {
    let white = Player::P2;
    // Black's open three g8-i8 with room on both sides: only the cells
    // beside it stop an open four (one cell farther, the other end still
    // makes one).
    let open = rows(&[(0, "o"), (7, "......xxx"), (14, "o")], white);
    assert_eq!(narrow_cells(&open), vec![(7, 5), (7, 9)]);
    // Blocked on one side, it has three defences: both ends of the one
    // open four left, and the cell between the three and the block.
    let blocked = rows(&[(0, "o"), (7, "....o.xxx")], white);
    assert_eq!(narrow_cells(&blocked), vec![(7, 5), (7, 9), (7, 10)]);
    // A split three x.xx: its gap and both ends.
    let split = rows(&[(0, "o"), (7, "......x.xx"), (14, "o")], white);
    assert_eq!(narrow_cells(&split), vec![(7, 5), (7, 7), (7, 10)]);
    // White's own fours stay among the replies.
    let counter = rows(&[(2, "oooo"), (7, "......xxx")], white);
    assert_eq!(narrow_cells(&counter), vec![(2, 4), (2, 5), (7, 5), (7, 9)]);
}

/// Whether `color` has a legal cell of at least `level`, read from the
/// incremental state.
fn has_threat(pos: &Gomoku, color: u8, level: Threat) -> bool {
    let c = (color - 1) as usize;
    pos.interior()
        .any(|i| pos.info[c][i].threat >= level as u8 && pos.legal_for(i, color))
}

#[test]
fn narrowed_defences_replayed_against_the_attacker() {
    // In random games, whenever the side to move faces an open-four or
    // four-three threat: every cell the narrowing keeps (other than our
    // fours) leaves the attacker without that threat once played, every
    // cell it drops leaves it the threat (and, for an open four, a win by
    // fours), and the re-read without playing matches the played board.
    let mut dropped_checked = 0;
    random_game_positions(23, 16, 40, 5, |pos| {
        let me = color_of(pos.side);
        let them = 3 - me;
        let (mut wide, mut narrow) = (Vec::new(), Vec::new());
        let (_, fives) = pos.fives(them);
        if fives > 0 || pos.fives(me).1 > 0 || !pos.defences(me, &mut wide) {
            return false;
        }
        assert!(pos.narrow_defences(me, &mut narrow));
        let level = if has_threat(pos, them, Threat::OpenFour) {
            Threat::OpenFour
        } else {
            Threat::FourThree
        };
        let m = (me - 1) as usize;
        let mut any_stops = false;
        for &c in &wide {
            let four = threats::makes_four(pos.info[m][c as usize].threat);
            pos.make_move(c);
            let stops = !has_threat(pos, them, level);
            let attacker_vcf = matches!(pos.vcf(10_000), threats::Vcf::Win(..));
            pos.unmake_move(c);
            any_stops |= stops;
            if narrow.contains(&c) {
                assert!(
                    four || stops || narrow.len() == wide.len(),
                    "{} {} {:?}",
                    pos.rule,
                    pos.to_fen(),
                    pos.coords(c as usize)
                );
            } else {
                assert!(!stops && !four, "{} {}", pos.rule, pos.to_fen());
                if level == Threat::OpenFour {
                    assert!(
                        attacker_vcf,
                        "{} {} {:?}",
                        pos.rule,
                        pos.to_fen(),
                        pos.coords(c as usize)
                    );
                }
                dropped_checked += 1;
            }
        }
        // Nothing is dropped unless some cell stops the threat.
        assert!(any_stops || narrow.len() == wide.len(), "{}", pos.to_fen());
        true
    });
    assert!(dropped_checked > 0);
}

#[test]
fn quiet_and_forcing_moves() {
    // Black to move: a four is forcing and not quiet; a cell far from
    // every line is quiet.
    let pos = rows(&[(7, ".....xxx"), (14, "....o.o")], Player::P1);
    let four = cell(&pos, 7, 8);
    assert!(pos.forcing_move(four) && !pos.quiet_move(four));
    let far = cell(&pos, 2, 12);
    assert!(pos.quiet_move(far) && !pos.forcing_move(far));
    // An open three is forcing too; a two, or a three blocked at one end,
    // is not.
    let twos = rows(&[(7, "......xx"), (10, "....oxx")], Player::P1);
    let open_three = cell(&twos, 7, 8);
    assert!(twos.forcing_move(open_three));
    let blocked_three = cell(&twos, 10, 7);
    assert!(!twos.forcing_move(blocked_three));
    let two = cell(&twos, 4, 4);
    assert!(!twos.forcing_move(two));
    // Under white's open-four threat nothing black does is quiet.
    let threatened = rows(&[(2, "......ooo"), (7, ".....xx")], Player::P1);
    let mut moves = Vec::new();
    threatened.generate_moves(&mut moves);
    assert!(moves.iter().all(|&m| !threatened.quiet_move(m)));
}

#[test]
fn the_evaluation_is_trusted_only_without_a_five_to_make() {
    // A quiet position: a margin growing with the depth.
    let quiet = rows(&[(7, "......xo"), (8, "......ox")], Player::P1);
    let (one, three) = (quiet.futility_margin(1), quiet.futility_margin(3));
    assert!(one.is_some_and(|m| m > 0) && three > one);
    // White has a four to block, or black a five to make: none.
    let blocked = rows(&[(7, ".....oooo"), (8, ".....xxx")], Player::P1);
    assert_eq!(blocked.futility_margin(2), None);
    let winning = rows(&[(7, ".....xxxx"), (8, ".....ooo")], Player::P1);
    assert_eq!(winning.futility_margin(2), None);
}

const THREAT_LIST: [Threat; THREATS] = [
    Threat::None,
    Threat::Three,
    Threat::Four,
    Threat::DoubleThree,
    Threat::FourThree,
    Threat::OpenFour,
    Threat::Five,
];

/// `defences` as a scan of the whole board, cell by cell.
fn defences_by_scan(pos: &Gomoku, me: u8) -> Option<Vec<u16>> {
    let (t, m) = ((2 - me) as usize, (me - 1) as usize);
    let them = 3 - me;
    let cells: Vec<usize> = pos.interior().collect();
    let threats: Vec<usize> = cells
        .iter()
        .copied()
        .filter(|&i| pos.info[t][i].threat >= Threat::FourThree as u8 && pos.legal_for(i, them))
        .collect();
    // Only a four-three or an open four calls for a defence (a five
    // cell alone is answered before).
    let calls = threats
        .iter()
        .any(|&i| matches!(pos.info[t][i].threat, 4 | 5));
    if !calls {
        return None;
    }
    let on_line = |j: usize| {
        threats.iter().any(|&i| {
            j == i
                || pos.dirs.iter().enumerate().any(|(d, &dir)| {
                    let p = pos.table.get(them, pos.codes[i][d]);
                    (p.is_open_three() || matches!(p, Pattern::Blocked4 | Pattern::Open4))
                        && (-4..=4isize).any(|k| k != 0 && (i as isize + k * dir) as usize == j)
                })
        })
    };
    Some(
        cells
            .into_iter()
            .filter(|&i| {
                pos.legal_for(i, me) && (threats::makes_four(pos.info[m][i].threat) || on_line(i))
            })
            .map(|i| i as u16)
            .collect(),
    )
}

#[test]
fn cell_sets_match_board_scans() {
    let mut checked = 0;
    random_game_positions(23, 6, 50, 1, |pos| {
        for i in pos.interior() {
            let near = pos.near_set();
            assert_eq!(near[i / 64] & (1 << (i % 64)) != 0, pos.near(i), "{pos:?}");
        }
        for me in [BLACK, WHITE] {
            let mut out = Vec::new();
            let found = pos.defences(me, &mut out);
            let expected = defences_by_scan(pos, me);
            assert_eq!(found, expected.is_some(), "{pos:?}");
            assert_eq!(out, expected.unwrap_or_default(), "{pos:?}");
            // (The no-threat set holds the walls and stones too.)
            for threat in &THREAT_LIST[1..] {
                let threat = *threat;
                let scan: Vec<usize> = pos
                    .interior()
                    .filter(|&i| pos.info[(me - 1) as usize][i].threat == threat as u8)
                    .collect();
                assert_eq!(pos.cells_of(me, threat).collect::<Vec<_>>(), scan);
                assert_eq!(
                    pos.cells_among(me, 1 << threat as u8).collect::<Vec<_>>(),
                    scan
                );
            }
        }
        checked += 1;
        true
    });
    assert!(checked > 100);
}

/// The side to move's defences against the opponent's VCF after a pass,
/// if it has one, and the legal moves left out that are defences too
/// (after which the opponent has no VCF, searched thoroughly).
fn vcf_defences_and_misses(pos: &mut Gomoku) -> Option<(Vec<u16>, Vec<u16>)> {
    let mut set = Vec::new();
    if !pos.vcf_defences(10_000, &mut set) {
        assert!(set.is_empty());
        return None;
    }
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let mut missed = Vec::new();
    for mv in legal.into_iter().filter(|mv| !set.contains(mv)) {
        pos.make_move(mv);
        let lost = pos.outcome().is_none() && matches!(pos.vcf(1_000_000), threats::Vcf::Win(..));
        pos.unmake_move(mv);
        if !lost {
            missed.push(mv);
        }
    }
    Some((set, missed))
}

#[test]
fn the_defence_against_fours_after_a_pass_keeps_every_defence() {
    // White to move: if white passed, black would win by fours (the
    // position of `vcf_in_two_fours`, with white on j11 so that black has
    // no four-three to make at once, which seek the must already answers).
    let mut pos = diagram(
        Rule::Freestyle,
        &[
            "",
            "",
            "",
            ".......o",
            ".......xo",
            ".......x",
            ".......x",
            "...oxx",
            "......x",
            "......x",
            "......x",
            "......o",
        ],
        Player::P2,
    );
    let (set, missed) = vcf_defences_and_misses(&mut pos).expect("black has fours after a pass");
    assert!(missed.is_empty(), "{missed:?}");
    pos.make_null_move();
    let threats::Vcf::Win(first, _) = pos.vcf(1_000_000) else {
        panic!("no win by fours after a pass");
    };
    pos.make_null_move();
    assert!(set.contains(&first));
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    assert!(
        set.len() * 4 < legal.len(),
        "{} of {}",
        set.len(),
        legal.len()
    );
    // Some of them do stop it.
    let stops = set.iter().filter(|&&mv| {
        pos.make_move(mv);
        let lost = matches!(pos.vcf(1_000_000), threats::Vcf::Win(..));
        pos.unmake_move(mv);
        !lost
    });
    assert!(stops.count() > 0);
    // Black to move has its own win instead: nothing to defend.
    pos.set_side(Player::P1);
    assert!(!pos.vcf_defences(10_000, &mut Vec::new()));
}

#[test]
fn the_defence_against_fours_holds_in_random_games() {
    // The set is not exact (see the defence module), but a defence left
    // out is rare: in at most one position to defend in ten.
    let (mut met, mut missing) = (0, 0);
    random_game_positions(23, 10, 40, 0, |pos| {
        if pos.rule().is_caro() {
            assert!(!pos.vcf_defences(10_000, &mut Vec::new()));
            return false;
        }
        let Some((_, missed)) = vcf_defences_and_misses(pos) else {
            return false;
        };
        met += 1;
        missing += usize::from(!missed.is_empty());
        true
    });
    eprintln!("{met} positions to defend, {missing} with a defence left out");
    assert!(met >= 20, "only {met} positions to defend");
    assert!(missing * 10 <= met, "{missing} of {met} miss a defence");
}

/// `cell_patterns`, what the evaluation fit reads: an open three's two
/// extension cells show an open four for its owner only, in one line; a
/// far corner shows only blocked ones; occupied cells are not listed.
#[test]
fn cell_patterns_show_what_a_stone_would_make() {
    let pos = diagram(
        Rule::Freestyle,
        &["", "", "", "", "", "", "", "....xxx", "....oo"],
        Player::P2,
    );
    let cells = pos.cell_patterns();
    assert_eq!(cells.len(), 15 * 15 - 5);
    let at = |row, col| {
        let &(_, _, black, white) = cells.iter().find(|c| (c.0, c.1) == (row, col)).unwrap();
        let nibbles = |packed: u16| [0, 1, 2, 3].map(|d| (packed >> (4 * d)) & 15);
        (nibbles(black), nibbles(white))
    };
    let open4 = Pattern::Open4 as u16;
    for col in [3, 7] {
        let (black, white) = at(7, col);
        assert_eq!(
            black.iter().filter(|&&p| p == open4).count(),
            1,
            "col {col}"
        );
        assert!(!white.contains(&open4), "col {col}");
    }
    // The far corner: room for a five only one way along its three
    // lines, none along the fourth, and the same for both colours.
    let blocked1 = Pattern::Blocked1 as u16;
    let (black, white) = at(0, 14);
    assert_eq!(black, white);
    let mut sorted = black;
    sorted.sort_unstable();
    assert_eq!(sorted, [0, blocked1, blocked1, blocked1]);
    assert!(cells.iter().all(|c| pos.stone(c.0, c.1).is_none()));
}

#[test]
fn the_moves_left_out_of_an_answer_to_a_four_three_are_offered_when_it_fails() {
    let white = Player::P2;
    // Black's h8 makes a four (e8-h8 against d8) and an open three
    // (h8-h10). White's l5 does not stop it, but after it white's forced
    // block at i8 makes a four (i8-l5), and white gains the move it
    // needs: a defence the narrowed answer does not see, offered when
    // every listed move loses.
    let pos = rows(
        &[
            (5, ".......x"),
            (6, ".......x"),
            (7, "...oxxx"),
            (8, ".........o"),
            (9, "..........o"),
        ],
        white,
    );
    let mut listed = Vec::new();
    pos.search_moves(&mut listed);
    let mut rest = Vec::new();
    pos.narrowed_moves(&listed, &mut rest);
    let prepared = cell(&pos, 10, 11);
    assert!(
        listed.contains(&cell(&pos, 7, 7)),
        "the four-three cell itself"
    );
    assert!(!listed.contains(&prepared));
    assert!(rest.contains(&prepared));
    // The others offered are the cells near stones where white makes a
    // three, none listed twice; a cell that makes nothing is not offered.
    let mut near = Vec::new();
    pos.near_moves(&mut near);
    for mv in near.iter().filter(|mv| !listed.contains(mv)) {
        assert_eq!(rest.contains(mv), pos.makes_three(WHITE, *mv as usize));
    }
    assert!(
        rest.iter()
            .all(|mv| near.contains(mv) && !listed.contains(mv))
    );
    assert!(!rest.contains(&cell(&pos, 11, 9)));

    // Against an open three, a three of white's comes too late: nothing
    // more is offered (the blocks and white's fours are every defence).
    let open = rows(
        &[(7, "......xxx"), (8, ".........o"), (9, "..........o")],
        white,
    );
    let mut blocks = Vec::new();
    open.search_moves(&mut blocks);
    let mut more = Vec::new();
    open.narrowed_moves(&blocks, &mut more);
    assert!(open.makes_three(WHITE, cell(&open, 10, 11) as usize));
    assert!(more.is_empty(), "{more:?}");

    // Against a five to block, and with no threat at all, nothing is left
    // out.
    let five = rows(&[(7, "...oxxxx"), (9, "..........o")], white);
    let mut forced = Vec::new();
    five.search_moves(&mut forced);
    assert_eq!(forced, vec![cell(&five, 7, 8)]);
    let mut none = Vec::new();
    five.narrowed_moves(&forced, &mut none);
    assert!(none.is_empty());
    let quiet = rows(&[(7, "...oxx"), (9, "..........o")], white);
    let mut all = Vec::new();
    quiet.search_moves(&mut all);
    quiet.narrowed_moves(&all, &mut none);
    assert!(none.is_empty());
}

/// The position before the last move is averaged in: one board reached by
/// two move orders is valued apart, by half the difference of the boards
/// before the last move (each from the side to move's view), and a set-up
/// board, which has no move before it, is valued the same either way.
#[test]
fn the_evaluation_averages_in_the_position_before_the_last_move() {
    let a = played(Rule::Freestyle, &["h8", "i9", "h10", "j8"]);
    let b = played(Rule::Freestyle, &["h10", "j8", "h8", "i9"]);
    assert_eq!(a, b, "one board, one side to move");
    let before_a = played(Rule::Freestyle, &["h8", "i9", "h10"]);
    let before_b = played(Rule::Freestyle, &["h10", "j8", "h8"]);
    // Black is to move in both: its total less white's.
    let margin = |pos: &Gomoku| pos.weight_total[0] - pos.weight_total[1];
    let half = (margin(&before_a) - margin(&before_b)) / 2;
    assert_ne!(half, 0, "the boards before the last move differ");
    let gap = a.evaluate() - b.evaluate();
    assert!((gap - half).abs() <= 1, "{gap} against {half}");
    let identity = |r, c| (r, c);
    assert_eq!(
        transformed(&a, identity, false).evaluate(),
        transformed(&b, identity, false).evaluate()
    );
    // A pass leaves the board as it was: the position before is that one.
    let mut passed = a.clone();
    passed.make_null_move();
    let mut set_up = transformed(&a, identity, false);
    set_up.make_null_move();
    assert_eq!(passed.evaluate(), set_up.evaluate());
    passed.unmake_null_move();
    assert_eq!(passed.evaluate(), a.evaluate());
}

#[test]
fn a_clock_is_shared_over_fewer_moves_as_the_board_fills() {
    let mut pos = Gomoku::start(&Settings::default()).unwrap();
    let mut seen = vec![pos.moves_to_go().unwrap()];
    // Stones along the rows, far apart enough that nobody wins.
    for i in 0..60 {
        let (row, col) = (2 * (i / 7) % 15, (2 * (i % 7) + i / 7 % 2) % 15);
        pos.make_move(cell(&pos, row, col));
        assert!(pos.outcome().is_none(), "{}", pos.to_fen());
        seen.push(pos.moves_to_go().unwrap());
    }
    assert!(seen.windows(2).all(|w| w[1] <= w[0] && w[0] - w[1] <= 1));
    assert_eq!(seen[0], 24);
    assert_eq!(seen[30], 19);
    assert_eq!(*seen.last().unwrap(), 14);
    assert_eq!(pos.most_moves_left(), Some((225 - 60) / 2 + 1));
    let late = diagram(Rule::Freestyle, &[], Player::P1);
    assert_eq!(late.most_moves_left(), Some(113));
}
