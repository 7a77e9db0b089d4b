use super::*;
use crate::game::perft::perft;

const WIDTH: usize = 7;

/// The 7x6 move line of the mirror image: column `c` becomes `8 - c`.
fn mirrored(line: &str) -> String {
    line.chars()
        .map(|c| char::from(b'8' - (c as u8 - b'0')))
        .collect()
}

fn play(moves: &str) -> Connect4 {
    let mut pos = Connect4::start(&Settings::default()).unwrap();
    for ch in moves.chars() {
        let mv = pos.parse_move(&ch.to_string()).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[test]
fn perft_from_the_start() {
    let expected = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    let mut pos = play("");
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&mut pos, d as u32 + 1), n, "depth {}", d + 1);
    }
    assert_eq!(pos, play(""));
}

#[test]
fn four_in_each_direction_wins() {
    // vertical, horizontal, both diagonals
    for (moves, winner) in [
        ("1212121", Player::P1),
        ("1122334", Player::P1),
        ("12233434474", Player::P1),
        ("76655454414", Player::P1),
        ("12121232", Player::P2),
    ] {
        let pos = play(moves);
        assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{moves}");
        let mut list = Vec::new();
        pos.generate_moves(&mut list);
        assert!(list.is_empty(), "no moves after a win");
    }
    assert_eq!(play("121212").outcome(), None);
}

#[test]
fn full_column_and_bad_text_are_illegal() {
    let pos = play("111111");
    assert!(pos.parse_move("1").is_err());
    assert!(pos.parse_move("0").is_err());
    assert!(pos.parse_move("8").is_err());
    assert!(pos.parse_move("x").is_err());
    assert_eq!(pos.parse_move("2"), Ok(1));
}

#[test]
fn fen_round_trip_hash_and_gravity() {
    let pos = play("4453");
    let fen = pos.to_fen();
    assert_eq!(fen, "7/7/7/7/3o3/2oxx2 x");
    let back = Connect4::from_fen(&fen, &Settings::default()).unwrap();
    assert_eq!(back, pos, "FEN rebuild gives the incremental hash too");
    assert!(Connect4::from_fen("7/7/7/7/3o3/7 x", &Settings::default()).is_err());
    assert!(Connect4::from_fen("7/7/7/7/7/3x3 x", &Settings::default()).is_err());
}

#[test]
fn non_losing_moves_are_those_that_survive_a_trial() {
    // Every position of up to five plies, and some late ones.
    let mut positions = Vec::new();
    fn walk(pos: &mut Connect4, plies: u32, out: &mut Vec<Connect4>) {
        if pos.outcome().is_some() {
            return;
        }
        out.push(pos.clone());
        if plies == 0 {
            return;
        }
        for col in 0..WIDTH as u8 {
            if pos.parse_move(&(col + 1).to_string()).is_ok() {
                pos.make_move(col);
                walk(pos, plies - 1, out);
                pos.unmake_move(col);
            }
        }
    }
    walk(&mut play(""), 4, &mut positions);
    walk(&mut play("2252576253462244111563"), 4, &mut positions);
    walk(&mut play("7422341735647741166133"), 4, &mut positions);
    let (mut checked, mut wins_next) = (0, 0);
    for pos in positions {
        if pos.winning_move().is_some() {
            continue;
        }
        let mut fast = Vec::new();
        pos.non_losing_moves(&mut fast);
        let mut slow = Vec::new();
        crate::game::non_losing_moves_by_trial(&pos, &mut slow);
        // The ranking names a move that leaves the opponent no safe reply
        // exactly when there is one (the first in the list's order).
        let mut ranked = fast.clone();
        let quick = fast.iter().copied().find(|&col| {
            let mut child = pos.clone();
            child.make_move(col);
            let mut replies = Vec::new();
            child.non_losing_moves(&mut replies);
            replies.is_empty() && child.outcome().is_none()
        });
        let expected = quick.map_or(NextTurnWin::Impossible, NextTurnWin::By);
        assert_eq!(
            pos.order_solver_moves(&mut ranked),
            expected,
            "{}",
            pos.to_fen()
        );
        wins_next += usize::from(quick.is_some());
        fast.sort();
        assert_eq!(fast, slow, "{}", pos.to_fen());
        checked += 1;
    }
    assert!(checked > 3000);
    assert!(wins_next > 100, "{wins_next}");
}

#[test]
fn non_losing_moves_come_centre_first_and_the_solver_ranks_threats_first() {
    let mut moves = Vec::new();
    play("").non_losing_moves(&mut moves);
    assert_eq!(moves, vec![3, 2, 4, 1, 5, 0, 6]);
    // X on d1 and e1: c1 makes three in a row with two open ends, which
    // O cannot both block (f1 too; c1 is nearer the centre).
    moves.clear();
    let pos = play("4455");
    pos.non_losing_moves(&mut moves);
    assert_eq!(pos.order_solver_moves(&mut moves), NextTurnWin::By(2));
    // X on b1 and b2: b3 threatens b4, one threat O can block.
    moves.clear();
    let pos = play("2721");
    pos.non_losing_moves(&mut moves);
    assert_eq!(pos.order_solver_moves(&mut moves), NextTurnWin::Impossible);
    assert_eq!(moves[0], 1, "{moves:?}");
    // O must block X's three in column 1, and only there.
    moves.clear();
    play("12121").non_losing_moves(&mut moves);
    assert_eq!(moves, vec![0]);
    // X threatens in columns 2 and 6 of the bottom row: O has no move.
    moves.clear();
    let pos = play("33445");
    assert_eq!(pos.winning_move(), None);
    pos.non_losing_moves(&mut moves);
    assert!(moves.is_empty(), "{moves:?}");
}

#[test]
fn hash_after_is_the_hash_after_the_move() {
    for line in ["", "4453", "2252576253462244111563"] {
        let pos = play(line);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let mut child = pos.clone();
            child.make_move(mv);
            assert_eq!(pos.hash_after(mv), child.hash(), "{line} then {mv}");
        }
    }
}

fn fen(text: &str) -> Connect4 {
    Connect4::from_fen(text, &Settings::default()).unwrap()
}

#[test]
fn odd_threats_serve_the_first_player_and_even_ones_the_second() {
    // X's three on row 3 threatens a3 and e3, neither playable yet.
    let odd = fen("7/7/7/1xxx3/1xoo3/1oxo3 o");
    assert_eq!(
        odd.zugzwang_value(),
        2 * ZUG_GOOD + ZUG_CONTROL,
        "two odd threats give the first player zugzwang"
    );
    // O's three on row 2 threatens a2 and e2.
    let even = fen("7/7/7/7/1ooo2x/1xxo2x x");
    assert_eq!(even.zugzwang_value(), -2 * ZUG_GOOD - ZUG_CONTROL);
    // The same threats on the other side's rows are worth less.
    let wrong_rows = fen("7/7/7/7/1xxx2o/1oox2o x");
    assert_eq!(wrong_rows.zugzwang_value(), 2 * ZUG_OTHER);
    // Evaluations are the side to move's.
    assert!(odd.evaluate() < 0 && even.evaluate() < 0);
}

#[test]
fn a_threat_above_the_opponents_threat_waits_for_it() {
    // X threatens a3 and e3, O a2 and e2 right under them: O's even
    // threats come first and keep zugzwang.
    let pos = fen("7/7/7/1xxx3/1ooo3/1xox3 o");
    assert_eq!(
        pos.zugzwang_value(),
        -2 * ZUG_GOOD + 2 * ZUG_UPPER - ZUG_CONTROL
    );
    // X's diagonal b1-c2-d3 adds e4 on top of e3: whoever fills e2,
    // X wins in column e.
    let stacked = fen("7/7/7/1xxx3/1oxo3/1xoo3 o");
    assert_eq!(
        stacked.zugzwang_value(),
        2 * ZUG_GOOD + ZUG_STACKED + ZUG_UPPER + ZUG_CONTROL
    );
}

#[test]
fn symmetric_keys_fold_mirror_images_only() {
    fn walk(pos: &mut Connect4, line: &mut String, depth: u32, out: &mut Vec<String>) {
        out.push(line.clone());
        if depth == 0 || pos.outcome().is_some() {
            return;
        }
        for col in 0..WIDTH as u8 {
            if pos.parse_move(&(col + 1).to_string()).is_ok() {
                pos.make_move(col);
                line.push(char::from(b'1' + col));
                walk(pos, line, depth - 1, out);
                line.pop();
                pos.unmake_move(col);
            }
        }
    }
    let mut lines = Vec::new();
    walk(&mut play(""), &mut String::new(), 4, &mut lines);
    let boards: std::collections::HashSet<String> =
        lines.iter().map(|l| play(l).to_fen()).collect();
    // John Tromp's counts of positions after 0 to 4 plies.
    assert_eq!(boards.len(), 1 + 7 + 49 + 238 + 1120);
    walk(
        &mut play("4444441"),
        &mut "4444441".to_string(),
        3,
        &mut lines,
    );
    let mut classes = std::collections::HashSet::new();
    let mut keys = std::collections::HashSet::new();
    for line in &lines {
        let (pos, image) = (play(line), play(&mirrored(line)));
        assert_eq!(pos.symmetric_key(), image.symmetric_key(), "{line}");
        classes.insert(pos.to_fen().min(image.to_fen()));
        keys.insert(pos.symmetric_key());
    }
    // One key per board up to its mirror image, no two sharing one.
    assert_eq!(keys.len(), classes.len());
    assert!(classes.len() < boards.len());
}

/// Random positions `plies` deep from `start` whose game is not over,
/// from a fixed seed.
fn random_positions<S: Shape>(
    start: &Position<S>,
    count: usize,
    plies: u32,
    seed: u64,
) -> Vec<Position<S>> {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = start.clone();
        for _ in 0..plies {
            let mut moves = Vec::new();
            pos.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make_move(*moves.choose(&mut rng).unwrap());
        }
        if pos.outcome().is_none() && pos.plies == plies {
            out.push(pos);
        }
    }
    out
}

/// Solves `count` random positions at each of `depths` with the solver's
/// own knowledge off and checks every ceiling against the exact value;
/// the numbers of draw and loss ceilings met, and of losses bounded
/// before the end of the game.
fn check_ceilings<S: Shape>(start: &Position<S>, depths: &[u32], count: usize) -> (u32, u32, u32) {
    use crate::search::score::MATE;
    use crate::search::solver::{Knowledge, Solver};
    let mut solver = Solver::<Position<S>>::new(4).unwrap();
    solver.set_knowledge(Knowledge {
        mirror: false,
        ceiling: false,
        etc: false,
    });
    let (mut draws, mut losses, mut sooner) = (0, 0, 0);
    for &plies in depths {
        for pos in random_positions(start, count, plies, plies as u64) {
            let Some(ceiling) = pos.result_ceiling() else {
                continue;
            };
            solver.clear();
            let exact = solver.solve(&pos, false).unwrap().score;
            match ceiling {
                Ceiling::Draw => {
                    draws += 1;
                    assert!(exact <= 0, "{} {exact}", pos.to_fen());
                }
                Ceiling::Loss(within) => {
                    losses += 1;
                    sooner += u32::from(within < pos.plies_left_bound().unwrap());
                    assert!(
                        exact < 0 && MATE + exact <= within as i32,
                        "{} {exact} {within}",
                        pos.to_fen()
                    );
                }
            }
        }
    }
    (draws, losses, sooner)
}

#[test]
fn the_result_ceiling_holds_under_perfect_play() {
    let (draws, losses, sooner) = check_ceilings(&play(""), &[28, 30, 32, 34, 36], 400);
    assert!(draws > 40 && losses > 10, "{draws} draws, {losses} losses");
    assert!(
        sooner > losses / 4,
        "{sooner} of {losses} losses before the end"
    );
}

/// Claimeven on odd heights gives the first player's rows to the second
/// player; the ceiling must hold there too, and on a wide board.
#[test]
fn the_result_ceiling_holds_on_other_boards() {
    for (width, height, depths) in [
        (5, 5, &[11, 13, 15, 17][..]),
        (6, 5, &[19, 20, 21, 22, 23, 24][..]),
        (5, 4, &[8, 10, 11, 13][..]),
        (9, 7, &[52, 53, 54, 55, 56][..]),
    ] {
        let (draws, losses, _) = match sized(width, height) {
            Board::Narrow(start) => check_ceilings(&start, depths, 150),
            Board::Wide(start) => check_ceilings(&start, depths, 150),
        };
        assert!(
            draws >= 5 && losses >= 5,
            "{width}x{height}: {draws} draws, {losses} losses"
        );
    }
}

/// A board of any size, in the type the registry would pick (7x6 aside).
enum Board {
    Narrow(Position<AnySize<u64>>),
    Wide(Position<AnySize<u128>>),
}

fn sized(width: usize, height: usize) -> Board {
    let settings = Settings {
        size: Some((width, height)),
        ..Settings::default()
    };
    if width * (height + 1) <= 64 {
        Board::Narrow(Position::start(&settings).unwrap())
    } else {
        Board::Wide(Position::start(&settings).unwrap())
    }
}

/// Connect Four on a plain grid, one cell at a time: the reference the
/// bitboards are checked against on every size.
#[derive(Clone)]
struct Grid {
    width: usize,
    height: usize,
    /// `cells[col][row]`: 0 empty, 1 or 2 a player's stone.
    cells: Vec<Vec<u8>>,
    to_move: u8,
    won: bool,
}

impl Grid {
    fn new(width: usize, height: usize) -> Grid {
        Grid {
            width,
            height,
            cells: vec![vec![0; height]; width],
            to_move: 1,
            won: false,
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.won {
            return Vec::new();
        }
        (0..self.width)
            .filter(|&c| self.cells[c][self.height - 1] == 0)
            .collect()
    }

    fn play(&mut self, col: usize) {
        let row = self.cells[col].iter().position(|&c| c == 0).unwrap();
        let me = self.to_move;
        self.cells[col][row] = me;
        let at = |c: i64, r: i64| {
            c >= 0
                && r >= 0
                && (c as usize) < self.width
                && (r as usize) < self.height
                && self.cells[c as usize][r as usize] == me
        };
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let run = |sign: i64| {
                (1..4)
                    .take_while(|&k| at(col as i64 + sign * k * dc, row as i64 + sign * k * dr))
                    .count()
            };
            if 1 + run(1) + run(-1) >= 4 {
                self.won = true;
            }
        }
        self.to_move = 3 - me;
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}

/// Perft, the FEN and the hash agree with the plain grid on boards of
/// every bit set, narrow and tall, at every node of a few plies.
#[test]
fn every_board_size_plays_by_the_rules() {
    fn check<S: Shape>(pos: &mut Position<S>, grid: &Grid, depth: u32, settings: &Settings) {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        let expected: Vec<u8> = grid.moves().into_iter().map(|c| c as u8).collect();
        assert_eq!(moves, expected, "{}", pos.to_fen());
        let back = Position::<S>::from_fen(&pos.to_fen(), settings).unwrap();
        assert_eq!(&back, pos, "FEN and hashes rebuild");
        if depth == 0 {
            return;
        }
        for mv in moves {
            let hash_after = pos.hash_after(mv);
            pos.make_move(mv);
            assert_eq!(pos.hash(), hash_after);
            let mut next = grid.clone();
            next.play(mv as usize);
            assert_eq!(pos.outcome().is_some_and(|o| o != Outcome::Draw), next.won);
            check(pos, &next, depth - 1, settings);
            pos.unmake_move(mv);
        }
    }
    for (width, height, depth) in [
        (4, 4, 7),
        (5, 4, 5),
        (4, 9, 5),
        (8, 7, 3),
        (9, 7, 3),
        (25, 4, 2),
        (4, 31, 4),
        (12, 4, 3),
    ] {
        let settings = Settings {
            size: Some((width, height)),
            ..Settings::default()
        };
        let grid = Grid::new(width, height);
        match sized(width, height) {
            Board::Narrow(mut pos) => {
                check(&mut pos, &grid, depth, &settings);
                assert_eq!(perft(&mut pos, depth + 2), grid.perft(depth + 2));
            }
            Board::Wide(mut pos) => {
                check(&mut pos, &grid, depth, &settings);
                assert_eq!(perft(&mut pos, depth + 2), grid.perft(depth + 2));
            }
        }
    }
}

/// Games played out at random to the end: the bitboards find the same
/// wins and draws as the grid, and the mirror image's keys are the
/// mirrored game's.
#[test]
fn random_games_end_as_on_the_grid() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    fn games<S: Shape>(start: &Position<S>, rng: &mut rand_chacha::ChaCha8Rng) {
        let shape = start.shape();
        for _ in 0..200 {
            let (mut pos, mut image) = (start.clone(), start.clone());
            let mut grid = Grid::new(shape.width(), shape.height());
            loop {
                assert_eq!(pos.symmetric_key(), image.symmetric_key());
                assert_eq!(pos.solver_key().0, image.solver_key().0);
                let moves = grid.moves();
                let mut ours = Vec::new();
                pos.generate_moves(&mut ours);
                assert_eq!(ours.len(), moves.len());
                let Some(&mv) = moves.choose(rng) else {
                    break;
                };
                pos.make_move(mv as u8);
                image.make_move(pos.mirror_move(mv as u8));
                grid.play(mv);
            }
            let expected = if grid.won {
                Outcome::Win(pos.side_to_move().other())
            } else {
                Outcome::Draw
            };
            assert_eq!(pos.outcome(), Some(expected), "{}", pos.to_fen());
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(41);
    for (width, height) in [(4, 4), (6, 5), (9, 4), (10, 10), (25, 4), (4, 25), (11, 9)] {
        match sized(width, height) {
            Board::Narrow(start) => games(&start, &mut rng),
            Board::Wide(start) => games(&start, &mut rng),
        }
    }
}

#[test]
fn sizes_and_moves_are_checked() {
    let at = |size| Settings {
        size: Some(size),
        ..Settings::default()
    };
    assert!(board_size(&at((26, 4))).is_err());
    assert!(board_size(&at((4, 32))).is_err());
    assert!(board_size(&at((3, 6))).is_err());
    assert!(
        board_size(&Settings {
            rule: Some("renju".into()),
            ..Settings::default()
        })
        .is_err()
    );
    assert!(Connect4::start(&at((8, 7))).is_err(), "7x6 only");
    assert!(
        Position::<AnySize<u64>>::start(&at((9, 7))).is_err(),
        "80 bits"
    );
    let Board::Wide(wide) = sized(12, 9) else {
        panic!("12x10 bits are wide")
    };
    assert_eq!(wide.parse_move("12"), Ok(11));
    assert!(wide.parse_move("13").is_err());
    assert!(wide.parse_move("0").is_err());
    assert_eq!(wide.move_to_string(11), "12");
    assert_eq!(wide.plies_left_bound(), Some(108));
    assert!(wide.render().ends_with(" 1 2 3 4 5 6 7 8 9 0 1 2\n"));
    let fen = wide.to_fen();
    assert!(Position::<AnySize<u128>>::from_fen(&fen, &at((12, 9))).is_ok());
    assert!(Position::<AnySize<u128>>::from_fen(&fen, &at((11, 9))).is_err());
}

#[test]
fn solver_keys_fold_mirror_images() {
    for line in ["", "1", "4", "12", "4453", "2252576253462244111563", "44"] {
        let (pos, image) = (play(line), play(&mirrored(line)));
        let ((key, flipped), (image_key, image_flipped)) = (pos.solver_key(), image.solver_key());
        assert_eq!(key, image_key, "{line}");
        let symmetric = pos.to_fen() == image.to_fen();
        assert!(!(flipped && image_flipped), "{line}");
        assert_eq!(symmetric, !(flipped || image_flipped), "{line}");
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let mut child = pos.clone();
            child.make_move(mv);
            assert_eq!(
                pos.solver_key_after(mv),
                child.solver_key().0,
                "{line} {mv}"
            );
            let mut image_child = image.clone();
            image_child.make_move(pos.mirror_move(mv));
            assert_eq!(child.solver_key().0, image_child.solver_key().0);
        }
    }
    assert_ne!(play("1").solver_key().0, play("2").solver_key().0);
}

#[test]
fn threats_are_found() {
    let pos = play("112233");
    let mut tactical = Vec::new();
    pos.tactical_moves(&mut tactical);
    assert_eq!(tactical, vec![3], "column 4 completes the row");
    assert_eq!(pos.move_score(3), 1000);
}

#[test]
fn a_clock_keeps_time_for_the_side_to_moves_share_of_the_cells() {
    assert_eq!(play("").most_moves_left(), Some(21));
    assert_eq!(play("4").most_moves_left(), Some(21));
    assert_eq!(play("44").most_moves_left(), Some(20));
}
