//! `ply match`: a referee that plays engines against each other over pipes
//! (UGI, or Piskvork for Gomoku) or as built-in baseline players, checks
//! every move against the rules, keeps the clocks, and reports results with
//! Elo, error bars and an optional SPRT.
//!
//! One concern per file: `spec` (the `--engine` and `--sprt` arguments),
//! `process` (pipes with deadlines), `ugi` and `piskvork` (the protocol
//! adapters), `builtin` (random and greedy), `clock`, `referee` (one game),
//! `openings`, `stats` (Elo, SPRT), `records` (PGN, SGF) and `summary`
//! (the tallies and the final report). This file schedules the games on
//! worker threads and shows the progress.

pub mod builtin;
pub mod clock;
pub mod mcts;
pub mod openings;
pub mod piskvork;
pub mod player;
pub mod process;
pub mod records;
pub mod referee;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod ugi;

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::{Context, bail};

use self::clock::{Clocks, TimeControl};
use self::openings::Opening;
use self::player::Player;
use self::records::{RecordTemplate, Records};
use self::referee::GameResult;
use self::spec::{EngineKind, EngineSpec, Proto, SprtSpec};
use self::stats::{Decision, Verdict};
use self::summary::{PairingStats, Report};
use crate::engine::{Session, registry};
use crate::game::{Description, Player as Side, Settings};
use crate::search::SearchParams;

pub struct MatchOptions {
    pub game: String,
    pub settings: Settings,
    /// `--engine` arguments, unparsed.
    pub engines: Vec<String>,
    /// Games per pairing (the most, with an SPRT).
    pub games: u32,
    pub tc: TimeControl,
    pub concurrency: usize,
    pub openings: Option<PathBuf>,
    /// Shuffle the openings (with the seed) instead of taking them in order.
    pub random_order: bool,
    pub sprt: Option<String>,
    pub pgn: Option<PathBuf>,
    pub sgf: Option<PathBuf>,
    pub seed: u64,
    /// Tolerance on every time limit, in milliseconds.
    pub margin_ms: u64,
    /// The longest a depth- or node-limited move may take, in milliseconds.
    pub max_move_ms: u64,
    /// Print the live progress line on stderr.
    pub progress: bool,
}

/// One game to play: which pairing, which engine has P1, which opening.
#[derive(Clone, Debug)]
struct Job {
    index: usize,
    pairing: usize,
    /// Engine indices of P1 and P2.
    sides: [usize; 2],
    opening: usize,
    /// Index of this game's pair within its pairing.
    pair: usize,
}

struct Finished {
    job: Job,
    result: GameResult,
}

fn unique_names(specs: &mut [EngineSpec]) {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let duplicated = |n: &String| names.iter().filter(|m| *m == n).count() > 1;
    for spec in specs.iter_mut() {
        if duplicated(&spec.name) {
            let k = seen.entry(spec.name.clone()).or_insert(0);
            *k += 1;
            spec.name = format!("{}#{k}", spec.name);
        }
    }
}

/// Everything a worker needs to build players and sessions.
struct MatchContext {
    game: String,
    settings: Settings,
    specs: Vec<EngineSpec>,
    openings: Vec<Opening>,
    tc: TimeControl,
    margin: Duration,
    cap: Duration,
    seed: u64,
    board: (usize, usize),
}

/// The games played on Gomocup boards (Piskvork engines, SGF records).
fn gomocup_games() -> String {
    let names: Vec<&str> = registry::GAMES
        .iter()
        .filter(|d| d.gomocup)
        .map(|d| d.name)
        .collect();
    names.join(", ")
}

fn new_session(game: &str, settings: &Settings) -> anyhow::Result<Box<dyn Session>> {
    registry::create(game, settings, 1, SearchParams::default()).map_err(anyhow::Error::msg)
}

fn make_player(ctx: &MatchContext, spec: &EngineSpec) -> Result<Box<dyn Player>, String> {
    Ok(match &spec.kind {
        EngineKind::Builtin(b) => {
            Box::new(builtin::BuiltinPlayer::new(*b, &ctx.game, &ctx.settings)?)
        }
        EngineKind::External {
            argv,
            proto: Proto::Ugi,
            options,
            nodes,
        } => Box::new(ugi::UgiPlayer::new(argv.clone(), options.clone(), *nodes)),
        EngineKind::External {
            argv,
            proto: Proto::Piskvork,
            options,
            nodes,
        } => Box::new(piskvork::PiskvorkPlayer::new(
            argv.clone(),
            options.clone(),
            *nodes,
            ctx.board,
            ctx.settings.rule.as_deref(),
        )),
    })
}

fn worker(
    ctx: Arc<MatchContext>,
    jobs: Arc<Vec<Job>>,
    next: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    done: mpsc::Sender<Finished>,
) {
    let Ok(mut session) = new_session(&ctx.game, &ctx.settings) else {
        return;
    };
    let mut players: Vec<Option<Box<dyn Player>>> = ctx.specs.iter().map(|_| None).collect();
    while !stop.load(Ordering::SeqCst) {
        let i = next.fetch_add(1, Ordering::SeqCst);
        let Some(job) = jobs.get(i) else { break };
        for &e in &job.sides {
            if players[e].is_none() {
                // The game was checked before the workers started.
                let Ok(player) = make_player(&ctx, &ctx.specs[e]) else {
                    return;
                };
                players[e] = Some(player);
            }
        }
        // Take both players out to borrow them mutably at once.
        let mut a = players[job.sides[0]].take().expect("created above");
        let mut b = players[job.sides[1]].take().expect("created above");
        let clocks = Clocks::new(ctx.tc, ctx.margin, ctx.cap);
        let seed = ctx
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(job.index as u64);
        let result = referee::play_game(
            session.as_mut(),
            &ctx.openings[job.opening],
            [a.as_mut(), b.as_mut()],
            clocks,
            seed,
        );
        players[job.sides[0]] = Some(a);
        players[job.sides[1]] = Some(b);
        if done
            .send(Finished {
                job: job.clone(),
                result,
            })
            .is_err()
        {
            break;
        }
    }
    for p in players.iter_mut().flatten() {
        p.shut_down();
    }
}

/// Runs the match; writes the summary and the JSON line to `out`.
pub fn run(options: &MatchOptions, out: &mut dyn Write) -> anyhow::Result<()> {
    let specs = check_engines(&options.engines)?;
    let mut session = new_session(&options.game, &options.settings)?;
    let game = session.game();
    let description = registry::describe(game).map_err(anyhow::Error::msg)?;
    check_protocols(&specs, game, description)?;
    check_turn_limit(&specs, options.tc)?;
    check_node_budgets(&specs, options.tc)?;
    if options.games == 0 {
        bail!("--games must be at least 1");
    }
    let sprt: Option<SprtSpec> = options
        .sprt
        .as_deref()
        .map(spec::parse_sprt)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let book = load_openings(options, session.as_mut())?;
    let records = Records::create(
        options.pgn.as_ref(),
        options.sgf.as_ref(),
        description.gomocup,
    )?;

    if let Some(warning) = repeat_warning(&options.tc, options.games, book.openings.len()) {
        eprintln!("{warning}");
    }
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let (pairings, jobs) = plan_jobs(names.len(), options.games, book.openings.len());
    let ctx = Arc::new(MatchContext {
        game: game.to_string(),
        settings: options.settings.clone(),
        specs,
        openings: book.openings,
        tc: options.tc,
        margin: Duration::from_millis(options.margin_ms),
        cap: Duration::from_millis(options.max_move_ms.max(1)),
        seed: options.seed,
        board: book.board,
    });
    let total = jobs.len();
    let pool = spawn_workers(&ctx, jobs, options.concurrency);

    let tc_text = describe_limits(&ctx.specs, options.tc);
    let mut recorder = Recorder {
        per_pairing: vec![PairingStats::default(); pairings.len()],
        pairings: &pairings,
        overhead: Vec::new(),
        played: 0,
        total,
        decision: None,
        sprt: sprt.as_ref(),
        records,
        record_info: RecordTemplate {
            game,
            names: &names,
            openings: &ctx.openings,
            p1_starts: &book.p1_starts,
            time_control: &tc_text,
            size: book.board,
            rule: options
                .settings
                .rule
                .as_deref()
                .or(description.default_rule())
                .unwrap_or(""),
        },
        progress: Progress::new(options.progress),
    };
    for finished in &pool.done {
        if recorder.add(finished)? {
            pool.stop.store(true, Ordering::SeqCst);
        }
    }
    recorder.progress.end();
    pool.join();
    recorder.records.flush()?;

    let view = first_view(&pairings, &recorder.per_pairing);
    let report = Report {
        game,
        time_control: &tc_text,
        played: recorder.played,
        names: &names,
        pairings: &pairings,
        per_pairing: &recorder.per_pairing,
        first: &view,
        sprt: sprt.as_ref(),
        decision: recorder.decision,
        overhead: recorder.overhead,
    };
    report.write(out)?;
    out.flush()?;
    Ok(())
}

/// Parses the `--engine` arguments, names them apart, and checks that the
/// programs given by path exist.
fn check_engines(engines: &[String]) -> anyhow::Result<Vec<EngineSpec>> {
    let mut specs = engines
        .iter()
        .map(|e| spec::parse_engine(e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    if specs.len() < 2 {
        bail!("a match needs at least two --engine arguments");
    }
    unique_names(&mut specs);
    for s in &specs {
        if let EngineKind::External { argv, .. } = &s.kind {
            let program = std::path::Path::new(&argv[0]);
            if argv[0].contains('/') && !program.exists() {
                bail!("engine '{}': no such file {}", s.name, program.display());
            }
        }
    }
    Ok(specs)
}

/// Piskvork engines play on Gomocup boards only.
fn check_protocols(
    specs: &[EngineSpec],
    game: &str,
    description: &Description,
) -> anyhow::Result<()> {
    for s in specs {
        if matches!(
            s.kind,
            EngineKind::External {
                proto: Proto::Piskvork,
                ..
            }
        ) && !description.gomocup
        {
            bail!(
                "engine '{}': Piskvork engines play {} only, not {game}",
                s.name,
                gomocup_games()
            );
        }
    }
    Ok(())
}

/// A turn limit apart from the clock is Gomocup's (`timeout_turn`): UGI's
/// `go` has no way to say it, so such a match is refused rather than
/// played under a clock the engine does not know.
fn check_turn_limit(specs: &[EngineSpec], tc: TimeControl) -> anyhow::Result<()> {
    if tc.turn_limit_ms().is_none() {
        return Ok(());
    }
    for s in specs {
        if let EngineKind::External {
            proto: Proto::Ugi, ..
        } = s.kind
        {
            bail!(
                "engine '{}': a turn limit (--tc {}) is for Piskvork engines; UGI has none",
                s.name,
                tc.describe()
            );
        }
    }
    Ok(())
}

/// A node budget of an engine's own (`nodes=`) replaces the match's in a
/// `--nodes` match; under any other limit it would be ignored, so such a
/// match is refused.
fn check_node_budgets(specs: &[EngineSpec], tc: TimeControl) -> anyhow::Result<()> {
    if matches!(tc, TimeControl::Nodes(_)) {
        return Ok(());
    }
    for s in specs {
        if let EngineKind::External { nodes: Some(_), .. } = s.kind {
            bail!(
                "engine '{}': nodes= sets its budget in a --nodes match, not under {}",
                s.name,
                tc.describe()
            );
        }
    }
    Ok(())
}

/// The match's limit as records and the summary state it: with each
/// engine's own node budget, if any.
fn describe_limits(specs: &[EngineSpec], tc: TimeControl) -> String {
    let own: Vec<String> = specs
        .iter()
        .filter_map(|s| match s.kind {
            EngineKind::External { nodes: Some(n), .. } => Some(format!("{} {n}", s.name)),
            _ => None,
        })
        .collect();
    if own.is_empty() {
        tc.describe()
    } else {
        format!("{} ({})", tc.describe(), own.join(", "))
    }
}

/// The openings to play, with what records need to know of them.
struct Book {
    openings: Vec<Opening>,
    /// Whether P1 moves first from each opening's position (before its
    /// moves), for move numbers and colours in records.
    p1_starts: Vec<bool>,
    /// The board's size, from the start position.
    board: (usize, usize),
}

fn load_openings(options: &MatchOptions, session: &mut dyn Session) -> anyhow::Result<Book> {
    let mut openings = match &options.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read openings file {}", path.display()))?;
            openings::load(&text, session)
                .map_err(|e| anyhow::anyhow!("openings file {}: {e}", path.display()))?
        }
        None => vec![Opening::start()],
    };
    if options.random_order {
        openings::shuffle(&mut openings, options.seed);
    }
    session
        .set_position(None, &[])
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let board = openings::dimensions(&session.fen());
    let p1_starts = openings
        .iter()
        .map(|o| {
            session.set_position(o.fen.as_deref(), &[]).is_ok()
                && session.side_to_move() == Side::P1
        })
        .collect();
    Ok(Book {
        openings,
        p1_starts,
        board,
    })
}

/// Every pairing of two engines, and the games to play: round robin, so
/// that a stopped match is balanced; each opening is played twice with
/// the sides swapped.
/// Under a depth or node limit an engine that searches deterministically
/// plays a repeated opening as it did before: the copy adds nothing, yet
/// the statistics (and an SPRT) count it as a new game. Said once, before
/// the first game, when the games outnumber the openings' two colours.
fn repeat_warning(tc: &TimeControl, games: u32, openings: usize) -> Option<String> {
    let limit = match tc {
        TimeControl::Depth(_) => "depth",
        TimeControl::Nodes(_) => "node",
        _ => return None,
    };
    let distinct = 2 * openings as u64;
    let plural = if openings == 1 { "" } else { "s" };
    (u64::from(games) > distinct).then(|| {
        format!(
            "warning: {games} games but {distinct} distinct ones ({openings} opening{plural}, \
             both colours): under a {limit} limit deterministic engines repeat them, and the \
             statistics count each copy as a new game; give more openings or fewer games"
        )
    })
}

fn plan_jobs(engines: usize, games: u32, openings: usize) -> (Vec<(usize, usize)>, Vec<Job>) {
    let pairings: Vec<(usize, usize)> = (0..engines)
        .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
        .collect();
    let mut jobs = Vec::new();
    for g in 0..games as usize {
        for (p, &(i, j)) in pairings.iter().enumerate() {
            jobs.push(Job {
                index: jobs.len(),
                pairing: p,
                sides: if g % 2 == 0 { [i, j] } else { [j, i] },
                opening: (g / 2) % openings,
                pair: g / 2,
            });
        }
    }
    (pairings, jobs)
}

/// The worker threads, the games they finish, and the flag that stops
/// them taking new ones.
struct Pool {
    done: mpsc::Receiver<Finished>,
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Pool {
    fn join(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}

fn spawn_workers(ctx: &Arc<MatchContext>, jobs: Vec<Job>, concurrency: usize) -> Pool {
    let count = concurrency.clamp(1, 256).min(jobs.len());
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let threads = (0..count)
        .map(|_| {
            let (ctx, jobs, next, stop, tx) = (
                Arc::clone(ctx),
                Arc::clone(&jobs),
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
            );
            std::thread::spawn(move || worker(ctx, jobs, next, stop, tx))
        })
        .collect();
    Pool {
        done: rx,
        stop,
        threads,
    }
}

/// The first engine's results against all the others, from its side.
fn first_view(pairings: &[(usize, usize)], per: &[PairingStats]) -> PairingStats {
    let mut s = PairingStats::default();
    for (p, &(i, j)) in pairings.iter().enumerate() {
        if i == 0 || j == 0 {
            s.merge(&per[p], j == 0);
        }
    }
    s
}

/// The live progress line on stderr: rewritten in place on a terminal,
/// otherwise about twenty lines over the match.
struct Progress {
    shown: bool,
    tty: bool,
}

impl Progress {
    fn new(shown: bool) -> Progress {
        Progress {
            shown,
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn show(&self, line: &str, played: usize, total: usize) {
        if self.shown {
            if self.tty {
                eprint!("\r{line:<79}");
            } else if played.is_multiple_of((total / 20).max(1)) || played == total {
                eprintln!("{line}");
            }
        }
    }

    fn end(&self) {
        if self.shown && self.tty {
            eprintln!();
        }
    }
}

/// Takes in the finished games one by one: tallies, records, progress and
/// the SPRT's decision.
struct Recorder<'a> {
    pairings: &'a [(usize, usize)],
    per_pairing: Vec<PairingStats>,
    overhead: Vec<Duration>,
    played: usize,
    total: usize,
    decision: Option<Decision>,
    sprt: Option<&'a SprtSpec>,
    records: Records,
    record_info: RecordTemplate<'a>,
    progress: Progress,
}

impl Recorder<'_> {
    /// Counts one game; true when the SPRT has just decided.
    fn add(&mut self, finished: Finished) -> anyhow::Result<bool> {
        let Finished { job, result } = finished;
        self.played += 1;
        let (first, _) = self.pairings[job.pairing];
        let first_side = if job.sides[0] == first {
            Side::P1
        } else {
            Side::P2
        };
        self.per_pairing[job.pairing].add(first_side, job.pair, &result);
        self.overhead.extend(result.overhead.iter().copied());
        let info = self.record_info.info(job.index + 1, job.sides, job.opening);
        self.records.write(&info, &result)?;

        let view = first_view(self.pairings, &self.per_pairing);
        let t = &view.tally;
        let mut line = format!(
            "games {}/{}  +{} ={} -{}  Elo {}",
            self.played,
            self.total,
            t.wins,
            t.draws,
            t.losses,
            summary::fmt_elo(t)
        );
        let mut decided = false;
        if let Some(s) = self.sprt {
            let llr = t.llr(s);
            let (lo, hi) = stats::bounds(s);
            line.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
            let verdict = t.verdict(s);
            if self.decision.is_none() && verdict != Verdict::None {
                self.decision = Some(Decision {
                    verdict,
                    games: self.played,
                    llr,
                });
                decided = true;
            }
        }
        self.progress.show(&line, self.played, self.total);
        Ok(decided)
    }
}
