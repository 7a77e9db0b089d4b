//! How cutegames (kz04px/cutegames @ 409ac9f) reads a UGI engine, as a
//! strict reader: every reply is taken exactly as its C++ takes it, and a
//! line it would pass over must be one a client is meant to pass over.
//!
//! cutegames itself passes over any line that is not the reply it waits
//! for, and waits for ever: a `bestmove` it cannot parse is a hung match,
//! not an error. Here a line passed over that is not an `info` line (or,
//! in the handshake, `id` and `option`) fails at once, and so does waiting
//! longer than [`PATIENCE`].

use std::time::Instant;

use super::{PATIENCE, Peer};

/// `utils::split` (libs/utils.hpp): the words between single spaces,
/// empty ones dropped. A tab is part of a word.
pub fn split(line: &str) -> Vec<&str> {
    line.split(' ').filter(|w| !w.is_empty()).collect()
}

/// `SearchSettings` (src/match/settings.hpp): what a `go` asks for.
#[derive(Clone, Copy, Debug)]
pub enum TimeControl {
    Time {
        p1time: i64,
        p2time: i64,
        p1inc: i64,
        p2inc: i64,
    },
    Movetime(i64),
    Depth(u32),
    Nodes(u64),
}

/// One engine as cutegames' `UGIEngine` drives it
/// (src/engine/engine_ugi.cpp).
pub struct Cutegames<P: Peer> {
    pub peer: P,
    /// Set by `setoption name Ponder value true`: from then on the client
    /// is one that asked for pondering and reads `bestmove` as UCI allows
    /// (`bestmove <move> [ponder <move>]`). cutegames never sends it.
    pondering: bool,
}

impl<P: Peer> Cutegames<P> {
    pub fn new(peer: P) -> Cutegames<P> {
        Cutegames {
            peer,
            pondering: false,
        }
    }

    pub fn transcript(&self) -> &[String] {
        self.peer.transcript()
    }

    /// `ProcessEngine::send` (src/engine/engine_process.cpp).
    pub fn send(&mut self, line: &str) {
        self.peer.send(line);
    }

    /// `ProcessEngine::wait_for` (src/engine/engine_process.cpp): lines,
    /// a trailing CR dropped, until `accept` takes one; returns it.
    fn wait_for(&mut self, what: &str, handshake: bool, accept: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(mut line) = self.peer.next_line(left) else {
                panic!(
                    "cutegames would wait for ever for {what}; transcript: {:#?}",
                    self.transcript()
                );
            };
            if line.ends_with('\r') {
                line.pop();
            }
            if accept(&line) {
                return line;
            }
            let first = split(&line).first().copied().unwrap_or("");
            let passed_over = first == "info" || (handshake && ["id", "option"].contains(&first));
            assert!(
                passed_over,
                "cutegames, waiting for {what}, would pass over {line:?}: a line no UGI client \
                 expects; transcript: {:#?}",
                self.transcript()
            );
        }
    }

    /// `UGIEngine::init`.
    pub fn init(&mut self) {
        self.send("ugi");
        self.wait_for("ugiok", true, |l| l == "ugiok");
    }

    /// `UGIEngine::is_ready`.
    pub fn is_ready(&mut self) {
        self.send("isready");
        self.wait_for("readyok", false, |l| l == "readyok");
    }

    /// `UGIEngine::newgame`.
    pub fn newgame(&mut self) {
        self.send("uginewgame");
    }

    /// `UGIEngine::set_option`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        if name == "Ponder" {
            self.pondering = value == "true";
        }
        self.send(&format!("setoption name {name} value {value}"));
    }

    /// `UGIEngine::position`.
    pub fn position(&mut self, start_fen: &str, moves: &[String]) {
        let mut msg = if start_fen.is_empty() || start_fen == "startpos" {
            "position startpos".to_string()
        } else {
            format!("position fen {start_fen}")
        };
        if !moves.is_empty() {
            msg += " moves";
            for m in moves {
                msg += " ";
                msg += m;
            }
        }
        self.send(&msg);
    }

    /// `UGIEngine::go`: the move of the first line of exactly two words
    /// `bestmove <move>`.
    pub fn go(&mut self, tc: &TimeControl) -> String {
        self.send(&match *tc {
            TimeControl::Time {
                p1time,
                p2time,
                p1inc,
                p2inc,
            } => format!("go p1time {p1time} p2time {p2time} p1inc {p1inc} p2inc {p2inc}"),
            TimeControl::Movetime(ms) => format!("go movetime {ms}"),
            TimeControl::Depth(ply) => format!("go depth {ply}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        });
        self.read_bestmove().0
    }

    /// The reply to a `go` already sent: its move, and the move it
    /// expects in reply when the client asked for pondering.
    pub fn read_bestmove(&mut self) -> (String, Option<String>) {
        let pondering = self.pondering;
        let line = self.wait_for("bestmove", false, |l| {
            matches!(
                (pondering, &split(l)[..]),
                (_, ["bestmove", _]) | (true, ["bestmove", _, "ponder", _])
            )
        });
        let parts = split(&line);
        (parts[1].to_string(), parts.get(3).map(|p| p.to_string()))
    }

    /// `UGIEngine::query_*`: the word of the first line of exactly two
    /// words `response <word>`.
    fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.wait_for("response", false, |l| {
            matches!(split(l)[..], ["response", _])
        });
        split(&line)[1].to_string()
    }

    pub fn query_p1turn(&mut self) -> bool {
        self.query("p1turn") == "true"
    }

    pub fn query_gameover(&mut self) -> bool {
        self.query("gameover") == "true"
    }

    pub fn query_result(&mut self) -> String {
        self.query("result")
    }

    /// `UGIEngine::quit`.
    pub fn quit(&mut self) {
        self.send("quit");
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Player1Win,
    Player2Win,
    Draw,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudication {
    None,
    Timeout,
    GameoverMismatch,
    ResultMismatch,
}

#[derive(Debug)]
pub struct Game {
    pub moves: Vec<String>,
    pub result: GameResult,
    pub adjudication: Adjudication,
}

/// The settings of a match that `play_game` reads.
#[derive(Clone, Copy, Debug)]
pub struct MatchSettings {
    pub timecontrol: TimeControl,
    /// `protocol.askturn`.
    pub ask_turn: bool,
    /// `protocol.gameover` = both: the side not to move is asked too.
    pub gameover_both: bool,
    /// `adjudication.timeoutbuffer`, ms a movetime may be overrun.
    pub timeout_buffer: i64,
}

/// `play_game` (src/match/play.cpp) for a generic (UGI) game: each engine
/// is asked whose turn it is, whether the game is over and, at the end,
/// the result; the two must agree.
pub fn play_game<P: Peer>(
    settings: &MatchSettings,
    fen: &str,
    engine1: &mut Cutegames<P>,
    engine2: &mut Cutegames<P>,
) -> Game {
    let is_p1_turn = |engine: &mut Cutegames<P>, moves: &[String]| {
        engine.position(fen, moves);
        engine.query_p1turn()
    };
    let is_gameover = |engine: &mut Cutegames<P>, moves: &[String]| {
        engine.position(fen, moves);
        engine.query_gameover()
    };
    engine1.is_ready();
    engine2.is_ready();
    engine1.newgame();
    engine2.newgame();
    let mut tc = settings.timecontrol;
    let mut moves: Vec<String> = Vec::new();
    let mut turn_is_p1 = is_p1_turn(engine1, &moves);
    let mut out_of_time = false;
    let mut gameover_claimed = false;
    loop {
        if settings.ask_turn {
            turn_is_p1 = is_p1_turn(engine1, &moves);
        }
        let p1 = is_p1_turn(engine1, &moves);
        let (us, them) = if p1 {
            (&mut *engine1, &mut *engine2)
        } else {
            (&mut *engine2, &mut *engine1)
        };
        us.is_ready();
        us.position(fen, &moves);
        if is_gameover(us, &moves) || (settings.gameover_both && is_gameover(them, &moves)) {
            gameover_claimed = true;
            break;
        }
        let t0 = Instant::now();
        let movestr = us.go(&tc);
        let dt = t0.elapsed().as_millis() as i64;
        match &mut tc {
            TimeControl::Time {
                p1time,
                p2time,
                p1inc,
                p2inc,
            } => {
                let (time, inc) = if p1 { (p1time, p1inc) } else { (p2time, p2inc) };
                *time -= dt;
                if *time <= 0 {
                    out_of_time = true;
                }
                *time += *inc;
            }
            TimeControl::Movetime(ms) => out_of_time = dt > *ms + settings.timeout_buffer,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => {}
        }
        if out_of_time {
            break;
        }
        // UGIGame::makemove.
        moves.push(movestr);
        turn_is_p1 = !turn_is_p1;
    }
    let mut result = GameResult::None;
    let mut adjudication = Adjudication::None;
    if out_of_time {
        result = if turn_is_p1 {
            GameResult::Player2Win
        } else {
            GameResult::Player1Win
        };
        adjudication = Adjudication::Timeout;
    } else if gameover_claimed {
        let verdict = |engine: &mut Cutegames<P>| {
            engine.is_ready();
            engine.position(fen, &moves);
            let over = is_gameover(engine, &moves);
            engine.position(fen, &moves);
            (over, engine.query_result())
        };
        let (over1, result1) = verdict(engine1);
        let (over2, result2) = verdict(engine2);
        if over1 != over2 {
            adjudication = Adjudication::GameoverMismatch;
        } else if result1 != result2 {
            adjudication = Adjudication::ResultMismatch;
        } else {
            result = match result1.as_str() {
                "p1win" => GameResult::Player1Win,
                "p2win" => GameResult::Player2Win,
                "draw" => GameResult::Draw,
                _ => GameResult::None,
            };
        }
    }
    Game {
        moves,
        result,
        adjudication,
    }
}
