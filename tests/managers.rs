//! Ply's real output read by the managers that drive it, each as strictly
//! as its own source reads it (`common::cutegames`, `common::gomoku_cli`,
//! `common::piskvork_judge`): every game and every kind of `go` through
//! cutegames' UGI reader, games through c-gomoku-cli's, and every Piskvork
//! command through the Gomocup judge's. A line the manager would not
//! accept fails the test.

mod common;

use std::io::{BufReader, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::cutegames::{self, Adjudication, Cutegames, GameResult, MatchSettings, TimeControl};
use common::gomoku_cli::{self, GameInfo, GomokuCli};
use common::piskvork_judge::Judge;
use common::{Engine, PATIENCE, Peer};
use crossbeam_channel::{Receiver, unbounded};
use ply::engine::registry::{self, GAMES};
use ply::engine::session::{GameSession, InfoCallback, SearchJob};
use ply::engine::{InfoLine, Score, Session};
use ply::game::gomoku::xy_to_square;
use ply::game::tictactoe::TicTacToe;
use ply::game::{GameError, Outcome, Player, Settings};
use ply::protocol::{ugi, writer::Writer};
use ply::search::{SearchLimits, SearchParams};

fn cutegames_engine(args: &[&str]) -> Cutegames<Engine> {
    let mut engine = Cutegames::new(Engine::ply(args));
    engine.init();
    engine
}

fn settings(timecontrol: TimeControl) -> MatchSettings {
    MatchSettings {
        timecontrol,
        ask_turn: true,
        gameover_both: false,
        timeout_buffer: 100,
    }
}

/// A game between two engines to its end, which both must agree on.
fn finished_game(
    settings: &MatchSettings,
    fen: &str,
    one: &mut Cutegames<Engine>,
    two: &mut Cutegames<Engine>,
) -> cutegames::Game {
    let game = cutegames::play_game(settings, fen, one, two);
    assert_eq!(game.adjudication, Adjudication::None, "{game:?}");
    assert_ne!(game.result, GameResult::None, "{game:?}");
    game
}

#[test]
fn cutegames_plays_every_game_to_an_agreed_end() {
    for game in GAMES {
        let args = ["--game", game.name];
        let (mut one, mut two) = (cutegames_engine(&args), cutegames_engine(&args));
        // Shallow fixed-depth games: many moves, each read as cutegames
        // reads it.
        let played = finished_game(
            &settings(TimeControl::Depth(2)),
            "startpos",
            &mut one,
            &mut two,
        );
        assert!(!played.moves.is_empty(), "{}", game.name);
        one.quit();
        two.quit();
    }
}

#[test]
fn cutegames_reads_every_kind_of_go() {
    let clock = TimeControl::Time {
        p1time: 3000,
        p2time: 3000,
        p1inc: 50,
        p2inc: 50,
    };
    for tc in [
        clock,
        TimeControl::Movetime(30),
        TimeControl::Depth(4),
        TimeControl::Nodes(3000),
    ] {
        for game in ["connect4", "tictactoe"] {
            let args = ["--game", game];
            let (mut one, mut two) = (cutegames_engine(&args), cutegames_engine(&args));
            finished_game(&settings(tc), "startpos", &mut one, &mut two);
        }
    }
}

#[test]
fn cutegames_reads_every_option_that_changes_the_output() {
    // Each set of options, in both engines, for a whole Connect Four game.
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/books/connect4.book");
    let cases: [&[(&str, &str)]; 4] = [
        &[("MultiPV", "3")],
        &[("Threads", "2")],
        &[("BookFile", book)],
        &[("Hash", "1"), ("UseTT", "false")],
    ];
    let both = MatchSettings {
        gameover_both: true,
        ..settings(TimeControl::Movetime(20))
    };
    for options in cases {
        let mut engines = [(); 2].map(|_| {
            let mut engine = cutegames_engine(&["--game", "connect4"]);
            for (name, value) in options {
                engine.set_option(name, value);
            }
            engine
        });
        let [one, two] = &mut engines;
        finished_game(&both, "startpos", one, two);
    }
    // An opening the solver proves at once (the first player wins in
    // one), given as cutegames gives an opening: a FEN.
    let mut one = cutegames_engine(&["--game", "connect4"]);
    let mut two = cutegames_engine(&["--game", "connect4"]);
    let mut session =
        registry::create("connect4", &Settings::default(), 1, SearchParams::default()).unwrap();
    session
        .set_position(None, &["4", "4", "3", "3", "2", "2"])
        .unwrap();
    let solved = finished_game(
        &settings(TimeControl::Movetime(50)),
        &session.fen(),
        &mut one,
        &mut two,
    );
    assert_eq!(solved.result, GameResult::Player1Win);
    assert_eq!(solved.moves.len(), 1, "{solved:?}");
}

fn moves(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// The reply to `go` interrupted by `then` (`stop`, `ponderhit`) after
/// `ms` milliseconds: the move, and the ponder move if one came.
fn interrupted(
    engine: &mut Cutegames<impl Peer>,
    go: &str,
    ms: u64,
    then: &str,
) -> (String, Option<String>) {
    engine.send(go);
    std::thread::sleep(Duration::from_millis(ms));
    engine.send(then);
    engine.read_bestmove()
}

#[test]
fn infinite_searches_and_stop_answer_in_two_words() {
    let mut engine = cutegames_engine(&["--game", "connect4"]);
    engine.position("startpos", &moves("4 4"));
    let (best, ponder) = interrupted(&mut engine, "go infinite", 100, "stop");
    assert!(("1"..="7").contains(&best.as_str()) && ponder.is_none());
    // The same for a solved position, which waits for stop too.
    engine.position("startpos", &moves("4 4 3 3 2 2"));
    let (best, ponder) = interrupted(&mut engine, "go infinite", 50, "stop");
    assert!(
        ["1", "5"].contains(&best.as_str()) && ponder.is_none(),
        "{best}"
    );
    engine.is_ready();
}

#[test]
fn the_ponder_move_comes_only_to_a_client_that_asked_for_it() {
    // Without Ponder, a `go ponder` is answered in cutegames' two words.
    let mut engine = cutegames_engine(&["--game", "connect4"]);
    engine.position("startpos", &moves("4"));
    let pondered = interrupted(
        &mut engine,
        "go ponder p1time 1000 p2time 1000",
        50,
        "ponderhit",
    );
    assert_eq!(pondered.1, None);
    // With it, a UCI-style reader takes `bestmove <move> ponder <move>`,
    // and the line of a depth-6 search has a reply to ponder on.
    engine.set_option("Ponder", "true");
    engine.is_ready();
    engine.send("go depth 6");
    let (best, ponder) = engine.read_bestmove();
    let ponder = ponder.expect("a ponder move when Ponder is on");
    engine.position("startpos", &[String::from("4"), best, ponder.clone()]);
    assert!(!engine.query_gameover(), "{ponder} is a legal reply");
    let pondered = interrupted(
        &mut engine,
        "go ponder p1time 1000 p2time 1000",
        50,
        "ponderhit",
    );
    assert!(pondered.1.is_some());
    // Switched off again, the tail goes.
    engine.set_option("Ponder", "false");
    engine.send("go depth 6");
    assert_eq!(engine.read_bestmove().1, None);
}

/// A tic-tac-toe session whose searches report one iteration, then panic.
struct Panicking(GameSession<TicTacToe>);

impl Session for Panicking {
    fn game(&self) -> &'static str {
        self.0.game()
    }
    fn settings(&self) -> &Settings {
        self.0.settings()
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), GameError> {
        self.0.set_position(fen, moves)
    }
    fn play_move(&mut self, mv: &str) -> Result<(), GameError> {
        self.0.play_move(mv)
    }
    fn fen(&self) -> String {
        self.0.fen()
    }
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves()
    }
    fn render(&self) -> String {
        self.0.render()
    }
    fn new_game(&mut self) {
        self.0.new_game()
    }
    fn set_hash(&mut self, megabytes: usize) -> Result<(), String> {
        self.0.set_hash(megabytes)
    }
    fn set_params(&mut self, params: SearchParams) {
        self.0.set_params(params)
    }
    fn search_job(
        &self,
        _limits: SearchLimits,
        _stop: Arc<AtomicBool>,
        mut on_info: InfoCallback,
    ) -> SearchJob {
        let moves = self.0.legal_moves();
        Box::new(move || {
            on_info(InfoLine {
                depth: 1,
                seldepth: 1,
                score: Score::Cp(0),
                nodes: 1,
                nps: 1,
                time_ms: 0,
                hashfull: 0,
                multipv: None,
                pv: moves.last().into_iter().cloned().collect(),
            });
            panic!("deliberately broken search")
        })
    }
}

/// An engine served in this process over pipes: UGI for a session made
/// here.
struct InProcess {
    input: std::io::PipeWriter,
    lines: Receiver<String>,
    transcript: Vec<String>,
}

impl InProcess {
    fn ugi(session: Box<dyn Session>) -> InProcess {
        let (reader, input) = std::io::pipe().unwrap();
        let (output, lines) = unbounded();
        let out = LineSender(output, Vec::new());
        std::thread::spawn(move || {
            ugi::run_with_session(
                BufReader::new(reader),
                Writer::new(Box::new(out)),
                session,
                1,
            )
            .unwrap();
        });
        InProcess {
            input,
            lines,
            transcript: Vec::new(),
        }
    }
}

/// What the protocol writes, as lines on a channel.
struct LineSender(crossbeam_channel::Sender<String>, Vec<u8>);

impl Write for LineSender {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buf);
        while let Some(end) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=end).collect();
            let _ = self
                .0
                .send(String::from_utf8_lossy(&line[..end]).into_owned());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Peer for InProcess {
    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
    }
    fn next_line(&mut self, wait: Duration) -> Option<String> {
        let line = self.lines.recv_timeout(wait).ok()?;
        self.transcript.push(line.clone());
        Some(line)
    }
    fn transcript(&self) -> &[String] {
        &self.transcript
    }
}

#[test]
fn a_search_that_panics_is_reported_in_a_line_cutegames_passes_over() {
    let session = GameSession::<TicTacToe>::new(Settings::default(), 1, SearchParams::default());
    let mut engine = Cutegames::new(InProcess::ugi(Box::new(Panicking(session.unwrap()))));
    engine.init();
    engine.is_ready();
    engine.position("startpos", &[]);
    for _ in 0..2 {
        // The move the one iteration reported, after the error line.
        assert_eq!(engine.go(&TimeControl::Depth(3)), "c3");
    }
    assert!(
        engine
            .transcript()
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("deliberately broken"))
    );
    // The engine goes on serving: a new position, and a stop answered
    // after a failed search too.
    engine.position("startpos", &moves("a1"));
    assert!(!engine.query_p1turn());
    assert_eq!(interrupted(&mut engine, "go infinite", 10, "stop").0, "c3");
    engine.is_ready();
}

/// Plays `moves` (x, y) on a gomoku session and tells when the game ends.
struct Referee {
    session: Box<dyn Session>,
    height: usize,
}

impl Referee {
    fn new(size: usize, rule: &str) -> Referee {
        let settings = Settings {
            size: Some((size, size)),
            rule: Some(rule.to_string()),
        };
        Referee {
            session: registry::create("gomoku", &settings, 1, SearchParams::default()).unwrap(),
            height: size,
        }
    }

    /// Plays the move, which must be legal; true when the game is over.
    fn play(&mut self, (x, y): (usize, usize)) -> bool {
        let square = xy_to_square(x, y, self.height);
        assert!(
            self.session.legal_moves().contains(&square),
            "{x},{y} is not a legal move"
        );
        self.session.play_move(&square).unwrap();
        self.session.outcome().is_some()
    }
}

fn brain() -> GomokuCli<Engine> {
    let (cli, about) = GomokuCli::start(Engine::start("pbrain-ply", &[]));
    assert_eq!(about.name.as_deref(), Some("Ply"));
    assert!(about.version.is_some() && about.author.is_some() && about.country.is_some());
    cli
}

#[test]
fn c_gomoku_cli_plays_whole_games_without_an_error() {
    // (board, Gomocup rule bits, Ply's rule name, INFO limits)
    let node_limited = GameInfo {
        rule: 0,
        timeout_turn: 5000,
        timeout_match: 0,
        max_depth: 0,
        max_node: 4000,
        max_memory: 350_000_000,
        thread_num: 0,
    };
    let clocked = GameInfo {
        timeout_turn: 100,
        timeout_match: 5000,
        max_node: 0,
        thread_num: 2,
        ..node_limited
    };
    for (size, info, rule) in [
        (15, node_limited, "freestyle"),
        (
            15,
            GameInfo {
                rule: 1,
                ..node_limited
            },
            "standard",
        ),
        (
            15,
            GameInfo {
                rule: 4,
                ..node_limited
            },
            "renju",
        ),
        (20, clocked, "freestyle"),
    ] {
        let (mut black, mut white) = (brain(), brain());
        let mut referee = Referee::new(size, rule);
        let played =
            gomoku_cli::play_game(size, &info, [&mut black, &mut white], |xy| referee.play(xy));
        assert!(played.len() >= 9, "{rule} {size}: {played:?}");
        for cli in [&mut black, &mut white] {
            assert!(!cli.messages.is_empty(), "search lines come as MESSAGE");
            cli.end();
        }
    }
}

#[test]
fn the_judge_reads_every_piskvork_command() {
    let mut judge = Judge::new(Engine::start("pbrain-ply", &[]));
    judge.send("ABOUT");
    let about = judge.read_command("the ABOUT line");
    assert!(about.starts_with("name=\"Ply\""), "{about}");
    judge.start(15, 15);
    // Every INFO key Ply knows and two it does not, bad values included:
    // none may leave a line that the next reply would be taken for.
    for (key, value) in [
        ("max_memory", "350000000"),
        ("timeout_match", "180000"),
        ("timeout_turn", "200"),
        ("game_type", "1"),
        ("rule", "0"),
        ("folder", "C:\\gomocup\\data"),
        ("time_left", "180000"),
        ("thread_num", "1"),
        ("max_depth", "0"),
        ("max_node", "0"),
        ("hash_size", "65536"),
        ("message", "1"),
        ("evaluate", "7,7"),
        ("timeout_turn", "soon"),
        ("rule", "99"),
        ("max_memory", "lots"),
        ("thread_num", "-3"),
    ] {
        judge.info(key, value);
    }
    let first = judge.begin();
    let reply = judge.turn(first.0 + 1, first.1);
    judge.takeback(reply.0, reply.1);
    judge.takeback(first.0 + 1, first.1);
    judge.info("time_left", 179000);
    let again = judge.turn(first.0, first.1 + 1);
    // A whole position, the brain's own stones as 1.
    let stones = [(7, 7, 2), (8, 8, 1), (7, 8, 2)];
    let board = judge.board(&stones);
    assert!(!stones.iter().any(|&(x, y, _)| (x, y) == board));
    let _ = again;
    // SUGGEST is the brain's to send; PLAY imposes its own move.
    judge.send("PLAY 0,0");
    assert_eq!(judge.read_move(), (0, 0));
    judge.restart();
    judge.start(20, 20);
    judge.start(15, 20);
    judge.info("rule", 4);
    assert!(judge.board(&[(7, 7, 1), (7, 8, 2)]).1 < 20);
    // Yixin's commands: no reply, or the reply Yixin-Board reads.
    judge.send("YXHASHCLEAR");
    judge.send("YXBOARD");
    judge.send("7,7,1");
    judge.send("DONE");
    judge.send("YXSHOWFORBID");
    let forbid = judge.read_command("FORBID");
    assert!(
        forbid.starts_with("FORBID ") && forbid.ends_with('.'),
        "{forbid}"
    );
    judge.send("YXNBEST 2");
    judge.read_move();
    assert!(judge.messages.iter().any(|m| m.starts_with("2. ")));
    judge.info("timeout_turn", 30000);
    judge.send("TURN 0,0");
    std::thread::sleep(Duration::from_millis(100));
    judge.send("YXSTOP");
    judge.read_move();
    judge.send("SHOWTIME");
    assert_eq!(judge.read_command("UNKNOWN"), "UNKNOWN SHOWTIME");
    judge.start(15, 15);
    judge.info("timeout_turn", 500);
    judge.send("SWAP2BOARD");
    judge.send("DONE");
    let opening = judge.read_command("an opening");
    assert_eq!(opening.split(' ').count(), 3, "{opening}");
    assert!(opening.split(' ').all(|s| gomoku_cli::move_of(s).is_some()));
    judge.end();
}

#[test]
fn a_brain_answers_end_by_leaving_at_once() {
    let mut judge = Judge::new(Engine::start("pbrain-ply", &[]));
    judge.start(15, 15);
    judge.info("timeout_turn", 30000);
    judge.send("BEGIN");
    judge.end();
    assert!(judge.peer.wait_exit(PATIENCE).unwrap().success());
    assert_eq!(judge.peer.stderr(), "", "nothing on stderr");
}
