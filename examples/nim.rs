//! Ply as a library: a game implemented outside `src/game` and driven by
//! Ply's own machinery.
//!
//! Nim (normal play): three piles of 3, 4 and 5 counters; a move takes one
//! or more counters from one pile, and whoever takes the last counter
//! wins. A move is written as the pile's letter and the number taken
//! (`a2`: two from pile a); a position as the piles and the side to move
//! (`3.4.5 x`).
//!
//! `cargo run --release --example nim` counts move paths (perft), searches
//! with a chosen set of search switches, and solves two positions;
//! `cargo run --release --example nim -- ugi` serves the game over UGI on
//! stdin/stdout, as `ply` serves its own games. `cargo test` runs the
//! checks at the bottom (Cargo.toml marks the example `test = true`).

use std::io::{self, BufReader};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use ply::engine::Session;
use ply::engine::session::GameSession;
use ply::game::perft::perft;
use ply::game::{
    Boards, Description, Game, GameError, Outcome, PackedMove, Player, Settings, SolveNotation,
    split_fen,
};
use ply::protocol::ugi;
use ply::protocol::writer::Writer;
use ply::search::score::Score;
use ply::search::{Proof, SearchLimits, SearchParams, Searcher};
use ply::tools::solve::{Value, solve};

const PILES: usize = 3;
const MAX_PILE: u8 = 7;
const START: [u8; PILES] = [3, 4, 5];

const DESCRIPTION: Description = Description {
    name: "nim",
    title: "Nim, three piles of up to 7",
    move_examples: &["a2", "c5"],
    boards: Boards::Fixed {
        width: PILES,
        height: MAX_PILE as usize,
    },
    rules: &[],
    bench: &[("", 12)],
    solve: SolveNotation::Plies,
    draws: false,
    gomocup: false,
};

/// Take `count` counters from pile `pile`. The default move (take none)
/// is never legal; the searcher only needs one to fill its tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Take {
    pile: u8,
    count: u8,
}

impl PackedMove for Take {
    fn pack(self) -> u64 {
        self.pile as u64 | (self.count as u64) << 8
    }
    fn unpack(bits: u64) -> Self {
        Take {
            pile: bits as u8,
            count: (bits >> 8) as u8,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Nim {
    piles: [u8; PILES],
    side: Player,
    hash: u64,
}

/// Zobrist keys: one per (pile, size), and one for the second player.
fn keys() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| ply::game::zobrist::keys(0x417, PILES * (MAX_PILE as usize + 1) + 1))
}

fn key(pile: usize, size: u8) -> u64 {
    keys()[pile * (MAX_PILE as usize + 1) + size as usize]
}

impl Nim {
    fn new(piles: [u8; PILES], side: Player) -> Nim {
        let mut hash = if side == Player::P2 {
            keys()[keys().len() - 1]
        } else {
            0
        };
        for (pile, &size) in piles.iter().enumerate() {
            hash ^= key(pile, size);
        }
        Nim { piles, side, hash }
    }

    fn set_pile(&mut self, pile: usize, size: u8) {
        self.hash ^= key(pile, self.piles[pile]) ^ key(pile, size);
        self.piles[pile] = size;
    }

    fn switch_side(&mut self) {
        self.side = self.side.other();
        self.hash ^= keys()[keys().len() - 1];
    }
}

impl Game for Nim {
    type Move = Take;
    const DESCRIPTION: &'static Description = &DESCRIPTION;
    const HISTORY_SLOTS: usize = PILES * MAX_PILE as usize;

    fn start(settings: &Settings) -> Result<Self, GameError> {
        ply::game::settings_must_be_default("nim", settings)?;
        Ok(Nim::new(START, Player::P1))
    }

    fn from_fen(fen: &str, settings: &Settings) -> Result<Self, GameError> {
        ply::game::settings_must_be_default("nim", settings)?;
        let (board, side) = split_fen(fen)?;
        let sizes: Vec<&str> = board.split('.').collect();
        if sizes.len() != PILES {
            return Err(GameError::bad_position(fen, "expected three piles"));
        }
        let mut piles = [0; PILES];
        for (pile, text) in piles.iter_mut().zip(sizes) {
            *pile = match text.parse::<u8>() {
                Ok(n) if n <= MAX_PILE => n,
                _ => return Err(GameError::bad_position(fen, "piles hold 0 to 7")),
            };
        }
        Ok(Nim::new(piles, side))
    }

    fn to_fen(&self) -> String {
        let piles: Vec<String> = self.piles.iter().map(u8::to_string).collect();
        let side = if self.side == Player::P1 { 'x' } else { 'o' };
        format!("{} {side}", piles.join("."))
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn outcome(&self) -> Option<Outcome> {
        // Normal play: whoever cannot move has lost.
        (self.piles == [0; PILES]).then(|| Outcome::Win(self.side.other()))
    }

    fn generate_moves(&self, moves: &mut Vec<Take>) {
        for (pile, &size) in self.piles.iter().enumerate() {
            for count in 1..=size {
                moves.push(Take {
                    pile: pile as u8,
                    count,
                });
            }
        }
    }

    fn make_move(&mut self, mv: Take) {
        let pile = mv.pile as usize;
        self.set_pile(pile, self.piles[pile] - mv.count);
        self.switch_side();
    }

    fn unmake_move(&mut self, mv: Take) {
        let pile = mv.pile as usize;
        self.set_pile(pile, self.piles[pile] + mv.count);
        self.switch_side();
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// No knowledge: the search has to see the end of the game.
    fn evaluate(&self) -> i32 {
        0
    }

    fn move_to_string(&self, mv: Take) -> String {
        format!("{}{}", (b'a' + mv.pile) as char, mv.count)
    }

    fn render(&self) -> String {
        let mut out = String::new();
        for (pile, &size) in self.piles.iter().enumerate() {
            let counters = "|".repeat(size as usize);
            out.push_str(&format!("{} {counters}\n", (b'a' + pile as u8) as char));
        }
        out
    }

    // The one hook without a default: the history heuristic's slot.
    fn history_slot(&self, mv: Take) -> usize {
        mv.pile as usize * MAX_PILE as usize + mv.count as usize - 1
    }

    // An ordering hint: big takes first (they end the game sooner).
    fn move_score(&self, mv: Take) -> i32 {
        mv.count as i32
    }
}

/// The best move and its score in moves to a win (> 0) or loss (< 0),
/// found by the searcher with only the switches this game profits from.
fn search(position: &Nim) -> (String, i32) {
    let params = SearchParams {
        // Passing is not a move in Nim, and it has no tactical moves.
        null_move: false,
        quiescence: false,
        ..SearchParams::default()
    };
    let mut searcher = Searcher::<Nim>::new(1, params).expect("a 1 MB table");
    // No depth or time limit: iterative deepening runs until the whole game
    // tree is seen.
    let result = searcher.search(
        position,
        &SearchLimits::default(),
        Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    let best = result.best.expect("the game is not over");
    let score = result.last.expect("an iteration completed").score;
    let moves = match Score::from_internal(score) {
        Score::Mate(n) => n,
        Score::Cp(_) => 0,
    };
    (position.move_to_string(best), moves)
}

/// The exact value of the position `fen`, through a type-erased session as
/// `ply solve` uses it.
fn solved(fen: &str) -> Value {
    let mut session = GameSession::<Nim>::new(Settings::default(), 1, SearchParams::default())
        .expect("a session");
    session.set_position(Some(fen), &[]).expect("a position");
    solve(&session, Proof::Exact).value
}

fn describe(value: Value) -> String {
    match value {
        Value::Decided { win: true, plies } => format!("win in {plies} plies"),
        Value::Decided { win: false, plies } => format!("loss in {plies} plies"),
        Value::Draw => "draw".to_string(),
    }
}

fn main() -> anyhow::Result<()> {
    if std::env::args().nth(1).as_deref() == Some("ugi") {
        let hash_mb = 16;
        let session =
            GameSession::<Nim>::new(Settings::default(), hash_mb, SearchParams::default())
                .map_err(anyhow::Error::msg)?;
        return ugi::run_with_session(
            BufReader::new(io::stdin()),
            Writer::stdout(),
            Box::new(session),
            hash_mb,
        );
    }
    let mut start = Nim::start(&Settings::default())?;
    for depth in 1..=3 {
        println!("perft {depth} {}", perft(&mut start, depth));
    }
    let (best, moves) = search(&start);
    println!("search {}: bestmove {best} mate {moves}", start.to_fen());
    for fen in ["3.4.5 x", "1.2.3 x"] {
        println!("solve {fen}: {}", describe(solved(fen)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::Write;
    use std::sync::Mutex;

    use super::*;

    /// Bouton's theorem: the side to move loses exactly when the piles'
    /// sizes XOR to zero.
    fn nim_sum(piles: &[u8]) -> u8 {
        piles.iter().fold(0, |a, &b| a ^ b)
    }

    /// An independent exhaustive solver (memoized over the piles): plies to
    /// the end under best play (winner quickest, loser slowest), positive
    /// when the side to move wins, `-n` when it loses in `n`.
    fn brute_force(piles: [u8; PILES], memo: &mut HashMap<[u8; PILES], i32>) -> i32 {
        if piles == [0; PILES] {
            return 0; // lost now: the opponent took the last counter
        }
        if let Some(&value) = memo.get(&piles) {
            return value;
        }
        let mut best: Option<i32> = None;
        for pile in 0..PILES {
            for count in 1..=piles[pile] {
                let mut child = piles;
                child[pile] -= count;
                let child = brute_force(child, memo);
                // A child lost in n plies (n >= 0) is won here in n + 1.
                let value = if child <= 0 { 1 - child } else { -(child + 1) };
                // Any win beats any loss; among wins the quickest, among
                // losses the slowest (the most negative).
                let better = best.is_none_or(|b| match (value > 0, b > 0) {
                    (true, false) => true,
                    (false, true) => false,
                    _ => value < b,
                });
                if better {
                    best = Some(value);
                }
            }
        }
        let best = best.expect("a move exists");
        memo.insert(piles, best);
        best
    }

    fn signed(value: Value) -> i32 {
        match value {
            Value::Decided { win: true, plies } => plies as i32,
            Value::Decided { win: false, plies } => -(plies as i32),
            Value::Draw => 0,
        }
    }

    #[test]
    fn perft_counts_by_hand() {
        // 3 + 4 + 5 = 12 moves; after taking k of the 12 counters, 12 - k
        // moves remain: sum over piles of sum_{k=1..size} (12 - k).
        let mut start = Nim::start(&Settings::default()).unwrap();
        assert_eq!(perft(&mut start, 1), 12);
        assert_eq!(perft(&mut start, 2), (11 + 10 + 9) + (11 + 10 + 9 + 8) + 45);
        // One pile of 2: the paths are 2, or 1 then 1.
        let mut one = Nim::from_fen("0.2.0 x", &Settings::default()).unwrap();
        assert_eq!(perft(&mut one, 1), 2);
        assert_eq!(perft(&mut one, 2), 1);
        assert_eq!(perft(&mut one, 3), 0);
    }

    #[test]
    fn the_search_finds_the_only_winning_move() {
        // 3 ^ 4 ^ 5 = 2: only taking 2 from pile a leaves a XOR of zero.
        let start = Nim::start(&Settings::default()).unwrap();
        let (best, moves) = search(&start);
        assert_eq!(best, "a2");
        let mut after = start.clone();
        after.make_move(after.parse_move(&best).unwrap());
        assert_eq!(nim_sum(&after.piles), 0);
        let plies = brute_force(START, &mut HashMap::new());
        assert_eq!(moves, (plies + 1) / 2);
    }

    #[test]
    fn solved_values_match_theory_and_brute_force() {
        for fen in [
            "3.4.5 x", "1.2.3 x", "1.1.0 o", "7.7.7 x", "0.0.1 x", "2.5.7 o",
        ] {
            let nim = Nim::from_fen(fen, &Settings::default()).unwrap();
            let value = solved(fen);
            assert_eq!(
                matches!(value, Value::Decided { win: true, .. }),
                nim_sum(&nim.piles) != 0,
                "{fen}"
            );
            assert_eq!(
                signed(value),
                brute_force(nim.piles, &mut HashMap::new()),
                "{fen}"
            );
        }
    }

    #[test]
    fn positions_and_moves_round_trip_and_bad_input_is_refused() {
        let nim = Nim::from_fen("1.0.7 o", &Settings::default()).unwrap();
        assert_eq!(nim.to_fen(), "1.0.7 o");
        assert!(nim.parse_move("b1").is_err());
        assert!(nim.parse_move("c8").is_err());
        assert_eq!(nim.parse_move("c7").unwrap(), Take { pile: 2, count: 7 });
        for bad in ["", "1.2 x", "1.2.8 x", "1.2.3", "a.b.c x"] {
            assert!(Nim::from_fen(bad, &Settings::default()).is_err(), "{bad}");
        }
    }

    /// Collects what the protocol prints.
    #[derive(Clone, Default)]
    struct Output(Arc<Mutex<Vec<u8>>>);

    impl Write for Output {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// Runs one UGI session over `input` and returns what it printed,
    /// without the search's `info depth` lines and the option list. The
    /// session ends with the input, after a bounded search has finished.
    fn serve(input: &str) -> Vec<String> {
        let output = Output::default();
        let session = GameSession::<Nim>::new(Settings::default(), 1, SearchParams::default());
        ugi::run_with_session(
            input.as_bytes(),
            Writer::new(Box::new(output.clone())),
            Box::new(session.unwrap()),
            1,
        )
        .unwrap();
        let text = String::from_utf8(output.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .filter(|l| {
                !["info depth", "option", "id "]
                    .iter()
                    .any(|p| l.starts_with(p))
            })
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn ugi_serves_a_game_outside_the_registry() {
        let hello = "ugi\nisready\nposition startpos\nquery p1turn\ngo depth 20\n";
        assert_eq!(
            serve(hello),
            ["ugiok", "readyok", "response true", "bestmove a2"]
        );
        // Pile c's last counter, with P2 to move.
        let last = "position startpos moves a3 b4\nquery gameover\n\
                    position startpos moves a3 b4 c4\nquery p1turn\ngo nodes 1000\n";
        assert_eq!(
            serve(last),
            ["response false", "response false", "bestmove c1"]
        );
        let over = "position startpos moves a3 b4 c5\nquery gameover\nquery result\n\
                    position startpos moves a4\nquery result\ngo depth 3\n";
        assert_eq!(
            serve(over),
            [
                "response true",
                "response p1win",
                "info string error illegal move 'a4'; position unchanged",
                "response p1win",
                "bestmove none",
            ]
        );
    }
}
