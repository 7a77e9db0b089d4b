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
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::{Context, bail};

use self::clock::{Clocks, TimeControl};
use self::openings::Opening;
use self::player::Player;
use self::records::RecordInfo;
use self::referee::GameResult;
use self::spec::{EngineKind, EngineSpec, Proto, SprtSpec};
use self::stats::Verdict;
use self::summary::{PairingStats, Report};
use crate::engine::{Session, registry};
use crate::game::{Player as Side, Settings};
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
        } => Box::new(ugi::UgiPlayer::new(argv.clone(), options.clone())),
        EngineKind::External {
            argv,
            proto: Proto::Piskvork,
            options,
        } => Box::new(piskvork::PiskvorkPlayer::new(
            argv.clone(),
            options.clone(),
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
    let mut specs = options
        .engines
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
    let mut session = new_session(&options.game, &options.settings)?;
    let game = session.game();
    let description = registry::describe(game).map_err(anyhow::Error::msg)?;
    for s in &specs {
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
    if options.games == 0 {
        bail!("--games must be at least 1");
    }
    let sprt: Option<SprtSpec> = options
        .sprt
        .as_deref()
        .map(spec::parse_sprt)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    let mut openings = match &options.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read openings file {}", path.display()))?;
            openings::load(&text, session.as_mut())
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
    let start_fen = session.fen();
    let board = openings::dimensions(&start_fen);
    // Whether P1 moves first from each opening's position (before its
    // moves), for move numbers and colours in records.
    let p1_starts: Vec<bool> = openings
        .iter()
        .map(|o| {
            session.set_position(o.fen.as_deref(), &[]).is_ok()
                && session.side_to_move() == Side::P1
        })
        .collect();
    let mut pgn = match &options.pgn {
        Some(p) => Some(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };
    let mut sgf = match &options.sgf {
        Some(_) if !description.gomocup => bail!("--sgf records {} games only", gomocup_games()),
        Some(p) => Some(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };

    let n = specs.len();
    let pairings: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let mut jobs = Vec::new();
    // Round robin: the pairings take turns, so a stopped match is balanced.
    for g in 0..options.games as usize {
        for (p, &(i, j)) in pairings.iter().enumerate() {
            jobs.push(Job {
                index: jobs.len(),
                pairing: p,
                sides: if g % 2 == 0 { [i, j] } else { [j, i] },
                opening: (g / 2) % openings.len(),
                pair: g / 2,
            });
        }
    }
    let total = jobs.len();
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let ctx = Arc::new(MatchContext {
        game: game.to_string(),
        settings: options.settings.clone(),
        specs,
        openings,
        tc: options.tc,
        margin: Duration::from_millis(options.margin_ms),
        cap: Duration::from_millis(options.max_move_ms.max(1)),
        seed: options.seed,
        board,
    });
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let threads: Vec<_> = (0..options.concurrency.clamp(1, 256).min(total))
        .map(|_| {
            let (ctx, jobs, next, stop, tx) = (
                Arc::clone(&ctx),
                Arc::clone(&jobs),
                Arc::clone(&next),
                Arc::clone(&stop),
                tx.clone(),
            );
            std::thread::spawn(move || worker(ctx, jobs, next, stop, tx))
        })
        .collect();
    drop(tx);

    let mut per_pairing: Vec<PairingStats> = vec![PairingStats::default(); pairings.len()];
    let mut overhead = Vec::new();
    let mut played = 0;
    let mut decision = Verdict::None;
    let tc_text = options.tc.describe();
    let first_view = |per: &[PairingStats]| {
        let mut s = PairingStats::default();
        for (p, &(i, j)) in pairings.iter().enumerate() {
            if i == 0 || j == 0 {
                s.merge(&per[p], j == 0);
            }
        }
        s
    };
    let tty = std::io::stderr().is_terminal();
    for finished in rx {
        let Finished { job, result } = finished;
        played += 1;
        let (first, _) = pairings[job.pairing];
        let first_side = if job.sides[0] == first {
            Side::P1
        } else {
            Side::P2
        };
        per_pairing[job.pairing].add(first_side, job.pair, &result);
        overhead.extend(result.overhead.iter().copied());
        let info = RecordInfo {
            number: job.index + 1,
            game,
            names: [&names[job.sides[0]], &names[job.sides[1]]],
            opening: &ctx.openings[job.opening],
            time_control: &tc_text,
            p1_starts: p1_starts[job.opening],
            size: board,
            rule: options
                .settings
                .rule
                .as_deref()
                .or(description.default_rule())
                .unwrap_or(""),
        };
        if let Some(w) = pgn.as_mut() {
            w.write_all(records::pgn(&info, &result).as_bytes())?;
            w.flush()?;
        }
        if let Some(w) = sgf.as_mut() {
            w.write_all(records::sgf(&info, &result).as_bytes())?;
            w.flush()?;
        }
        let view = first_view(&per_pairing);
        let t = &view.tally;
        let mut line = format!(
            "games {played}/{total}  +{} ={} -{}  Elo {}",
            t.wins,
            t.draws,
            t.losses,
            summary::fmt_elo(t)
        );
        if let Some(s) = &sprt {
            let llr = t.llr(s);
            let (lo, hi) = stats::bounds(s);
            line.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
            if decision == Verdict::None {
                decision = stats::verdict(llr, s);
                if decision != Verdict::None {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        if options.progress {
            if tty {
                eprint!("\r{line:<79}");
            } else if played % (total / 20).max(1) == 0 || played == total {
                eprintln!("{line}");
            }
        }
    }
    if options.progress && tty {
        eprintln!();
    }
    for t in threads {
        let _ = t.join();
    }
    for (w, name) in [(pgn.as_mut(), "pgn"), (sgf.as_mut(), "sgf")] {
        if let Some(w) = w {
            w.flush()
                .with_context(|| format!("writing the {name} file"))?;
        }
    }

    let view = first_view(&per_pairing);
    let report = Report {
        game,
        time_control: &tc_text,
        played,
        names: &names,
        pairings: &pairings,
        per_pairing: &per_pairing,
        first: &view,
        sprt: sprt.as_ref(),
        decision,
        overhead,
    };
    report.write(out)?;
    out.flush()?;
    Ok(())
}
