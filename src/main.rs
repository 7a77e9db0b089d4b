use std::io::{self, BufReader, Write};
use std::process::ExitCode;

use clap::{ArgGroup, Parser, Subcommand, ValueEnum};
use ply::engine::options::HASH_DEFAULT_MB;
use ply::engine::registry::DEFAULT_GAME;
use ply::game::{Player, Settings};
use ply::protocol::{ugi, writer::Writer};
use ply::search::SearchParams;
use ply::tools;

/// Ply: a game-playing engine. Without a subcommand it speaks UGI on
/// stdin/stdout (see protocol.md).
#[derive(Parser)]
#[command(name = "ply", version, about)]
struct Cli {
    /// Game: gomoku (default), connect4, tictactoe, lasca, blackwhite, breakthrough. `bench` without it runs all.
    #[arg(long, global = true)]
    game: Option<String>,
    /// Board size for games that have one: N (square) or WxH.
    #[arg(long, global = true, value_parser = parse_size)]
    size: Option<(usize, usize)>,
    /// Rule variant (gomoku: freestyle, standard, renju, caro, caro-overline).
    #[arg(long, global = true)]
    rule: Option<String>,
    /// Transposition table size in MB (default 16).
    #[arg(long, global = true)]
    hash: Option<usize>,
    /// Search threads (Lazy SMP; default 1, which is deterministic); for
    /// `ply book`, positions solved at once.
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths from a position, one line per depth.
    Perft {
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        depth: u32,
    },
    /// Search fixed positions at fixed depth; last line "<nodes> nodes <nps> nps".
    Bench {
        /// List the positions instead, one a line: "<game> <depth> [moves]".
        #[arg(long)]
        positions: bool,
    },
    /// Solve positions exactly: reads "moves [expected-score]" lines (Pascal
    /// Pons' Connect Four test-set format) from a file or stdin.
    Solve {
        /// Test file; stdin when absent.
        #[arg(long)]
        file: Option<std::path::PathBuf>,
        /// Only win (1), draw (0) or loss (-1): faster.
        #[arg(long)]
        weak: bool,
        /// By depth-first proof-number search, for games whose length has
        /// no useful bound (Breakthrough): win (1), draw (0) or loss (-1),
        /// and the length of the proof found as `proof_plies`.
        #[arg(long, conflicts_with = "weak")]
        pns: bool,
        /// A search switch to turn off (a UGI option name such as
        /// UseSolverETC; repeat for several), to measure what it is worth.
        #[arg(long, value_name = "SWITCH")]
        off: Vec<String>,
    },
    /// Build an opening book of exact values for every position reachable
    /// in N plies (mirror images folded), for `setoption name BookFile`.
    /// Resumable: run again after a stop and it continues; a progress
    /// line goes to stderr. File format: protocol.md. `--threads N` solves
    /// N positions at once, on one table of `--hash` MB (the book is the
    /// same whatever N). `--shard I/N` on many machines, then `--merge`,
    /// gives the same book too.
    Book {
        /// Every position reachable in this many plies from the base.
        #[arg(long)]
        plies: u32,
        /// The book file (a journal FILE.part is kept while building).
        #[arg(long)]
        out: std::path::PathBuf,
        /// The base position: moves from the start position, as `ply
        /// solve` reads them (`4453` for Connect Four, else space-separated).
        #[arg(long, value_name = "MOVES", default_value = "")]
        from: String,
        /// No progress line.
        #[arg(long)]
        quiet: bool,
        /// Extend the book to this ply along each side's own moves: every
        /// position a side reaches playing the book's moves, whatever the
        /// other side plays, gets a move that keeps its value. Running
        /// again with a larger value extends an existing book.
        #[arg(long, value_name = "PLY")]
        strategy: Option<u32>,
        /// Solve only shard I of N (I from 0 to N-1) of the positions
        /// `--plies` deep, into the journal FILE.shard-I-of-N.part
        /// (resumable); no book is written: `--merge` writes it once every
        /// shard is done. For job arrays on any machines.
        #[arg(long, value_name = "I/N", conflicts_with = "merge")]
        shard: Option<tools::book::Shard>,
        /// Write the book from the journals of every shard of one split
        /// (checked to be of this book and to hold every position): the
        /// same file as a build in one process. Nothing is solved.
        #[arg(long, value_name = "JOURNAL", num_args = 1..)]
        merge: Vec<std::path::PathBuf>,
    },
    /// Search the same positions with a ladder of search configurations
    /// (minimax, alpha-beta, each enhancement added, each removed from the
    /// full search); per configuration and depth: nodes, time, effective
    /// branching factor, first-move cutoff share, table hit rate.
    Compare {
        /// Positions, one line of moves from the start each (an empty line
        /// is the start); the game's bench positions when absent.
        #[arg(long, value_name = "FILE")]
        positions: Option<std::path::PathBuf>,
        /// Deepest depth (default: the smallest bench depth of the game).
        #[arg(long, conflicts_with = "movetime")]
        depth: Option<u32>,
        /// Milliseconds per position instead of a depth: reports the depth
        /// each configuration reaches (node counts then vary from run to
        /// run).
        #[arg(long)]
        movetime: Option<u64>,
        /// Also write a chart of nodes (log scale) against depth per
        /// configuration to FILE, as SVG.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// A configuration stops deepening once its next depth is
        /// predicted to pass this many nodes.
        #[arg(long, default_value_t = 3_000_000)]
        max_nodes: u64,
        /// CSV: config,depth,nodes,time_ms,ebf,first_move_cutoff,tt_hit_rate,...
        #[arg(long)]
        csv: bool,
    },
    /// Print the tree of a small search: each node's alpha/beta window,
    /// value, cutoffs and table answers, as indented text or Graphviz DOT.
    Trace {
        /// Start from this position instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        #[arg(long)]
        depth: u32,
        #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
        format: TraceFormat,
    },
    /// Speak the Piskvork (Gomocup) protocol, as pbrain-ply does.
    Piskvork,
    /// Referee a match between engines over pipes (UGI, or Piskvork for
    /// gomoku) or built-in players; every move is checked against the rules.
    ///
    /// Example: ply match --game connect4 --engine "cmd=target/release/ply
    /// --game connect4,name=new" --engine builtin=greedy --games 20
    /// --movetime 100. Progress goes to stderr; stdout gets a summary and,
    /// as its last line, one JSON object: games, wins, draws, losses (first
    /// engine's view), score, elo, elo_error, draw_ratio, time_losses,
    /// illegal, crashes, garbage (the first engine's losses by cause),
    /// opponent_time_losses, opponent_illegal, opponent_crashes,
    /// opponent_garbage, pairs, llr, sprt (accept/reject/none),
    /// overhead_us_median.
    #[command(group(ArgGroup::new("limit").required(true).args(["tc", "movetime", "depth", "nodes"])))]
    Match {
        /// An engine: "cmd=PATH [ARGS],proto=ugi|piskvork[,name=NAME][,nodes=N][,option.K=V]"
        /// or "builtin=random|greedy|mcts[,name=NAME]". Two make a match, more a
        /// round robin; the first engine's view is reported. `nodes=N` gives
        /// an engine its own budget in a --nodes match (node odds).
        #[arg(long = "engine", required = true, value_name = "SPEC")]
        engines: Vec<String>,
        /// Games per pairing (each opening is played twice, colours swapped);
        /// the most with --sprt.
        #[arg(long)]
        games: u32,
        /// Clock per game: SECONDS[/TURN][+INC], e.g. 10+0.1, or 120/5 for
        /// Gomocup's 120 s per game and at most 5 s per move (Piskvork
        /// engines and built-ins only: UGI has no turn limit).
        #[arg(long, value_name = "SECONDS[/TURN][+INC]")]
        tc: Option<String>,
        /// Fixed time per move in milliseconds.
        #[arg(long, value_name = "MS")]
        movetime: Option<u64>,
        /// Fixed search depth per move.
        #[arg(long)]
        depth: Option<u32>,
        /// Fixed node count per move.
        #[arg(long)]
        nodes: Option<u64>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
        /// Openings file: one FEN or move list per line (gomoku also
        /// Gomocup offsets "x,y, x,y" from the centre).
        #[arg(long, value_name = "FILE")]
        openings: Option<std::path::PathBuf>,
        /// Opening order: sequential, or random (shuffled with --seed).
        #[arg(long, value_enum, default_value_t = Order::Sequential)]
        order: Order,
        /// Stop when the SPRT decides: elo0=0,elo1=10[,alpha=0.05,beta=0.05].
        #[arg(long, value_name = "SPEC")]
        sprt: Option<String>,
        /// Write every game as a PGN-like record to this file.
        #[arg(long, value_name = "FILE")]
        pgn: Option<std::path::PathBuf>,
        /// Write gomoku games as SGF to this file.
        #[arg(long, value_name = "FILE")]
        sgf: Option<std::path::PathBuf>,
        /// Seed of the built-in players and of the random opening order.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Tolerance on every time limit in milliseconds: a reply later than
        /// the limit plus this loses on time (the engine is killed).
        #[arg(long, value_name = "MS", default_value_t = 100)]
        margin: u64,
        /// With --depth or --nodes: the longest a move may take (ms).
        #[arg(long, value_name = "MS", default_value_t = 60_000)]
        max_move_time: u64,
        /// No progress line on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Play against the engine in the terminal.
    Play {
        /// Engine thinking time per move in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Which side you play.
        #[arg(long, value_enum, default_value_t = Side::First)]
        human: Side,
    },
}

/// The solver table of `ply book` when `--hash` is not given: books are
/// long solves.
const BOOK_HASH_DEFAULT_MB: usize = 256;

/// A file's size in bytes (0 when it cannot be read).
fn file_size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// A book value (signed plies to the end) in words: `+13 (the side to
/// move wins, the game ending 13 plies on)`.
fn describe_value(value: i8) -> String {
    let plies = match value.unsigned_abs() {
        1 => "1 ply".to_string(),
        n => format!("{n} plies"),
    };
    match value {
        0 => "0 (a draw)".to_string(),
        v if v > 0 => format!("+{v} (the side to move wins, the game ending {plies} on)"),
        v => format!("{v} (the side to move loses, the game ending {plies} on)"),
    }
}

fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("'{text}' is not N or WxH"))
    };
    match text.split_once(['x', 'X', ',']) {
        Some((w, h)) => Ok((number(w)?, number(h)?)),
        None => number(text).map(|n| (n, n)),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Order {
    Sequential,
    Random,
}

#[derive(Clone, Copy, ValueEnum)]
enum TraceFormat {
    Text,
    Dot,
}

#[derive(Clone, Copy, ValueEnum)]
enum Side {
    First,
    Second,
}

fn main() -> ExitCode {
    // Logs go to stderr and only when asked for (RUST_LOG=debug).
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that went away (`ply solve | head`) is not a failure.
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The global flags each command honours; any other given is refused.
fn honoured_flags(command: &Option<Command>) -> (&'static str, &'static [&'static str]) {
    match command {
        None => ("ugi", &["game", "size", "rule", "hash", "threads"]),
        Some(Command::Perft { .. }) => ("perft", &["game", "size", "rule"]),
        // Fixed positions of every game's default variant, fixed tables.
        Some(Command::Bench { .. }) => ("bench", &["game"]),
        // --threads: helpers solving each position on the one table.
        Some(Command::Solve { .. }) => ("solve", &["game", "size", "rule", "hash", "threads"]),
        // Nothing solved: no table, no workers.
        Some(Command::Book { merge, .. }) if !merge.is_empty() => {
            ("book --merge", &["game", "size", "rule"])
        }
        // --threads: positions solved at once, on one table of --hash MB.
        Some(Command::Book { .. }) => ("book", &["game", "size", "rule", "hash", "threads"]),
        // Every search has its own fresh table of 16 MB.
        Some(Command::Compare { .. }) => ("compare", &["game", "size", "rule"]),
        Some(Command::Trace { .. }) => ("trace", &["game", "size", "rule"]),
        // The manager chooses board and rule; max_memory sizes the table.
        Some(Command::Piskvork) => ("piskvork", &[]),
        // The engines keep their own tables.
        Some(Command::Match { .. }) => ("match", &["game", "size", "rule"]),
        Some(Command::Play { .. }) => ("play", &["game", "size", "rule", "hash"]),
    }
}

fn refuse_unhonoured_flags(cli: &Cli) -> anyhow::Result<()> {
    let (name, honoured) = honoured_flags(&cli.command);
    let given = [
        ("game", cli.game.is_some()),
        ("size", cli.size.is_some()),
        ("rule", cli.rule.is_some()),
        ("hash", cli.hash.is_some()),
        ("threads", cli.threads.is_some()),
    ];
    for (flag, present) in given {
        if present && !honoured.contains(&flag) {
            anyhow::bail!("ply {name} does not take --{flag}");
        }
    }
    Ok(())
}

fn run(cli: Cli) -> anyhow::Result<()> {
    refuse_unhonoured_flags(&cli)?;
    let mut stdout = io::stdout();
    let game = cli.game.clone().unwrap_or_else(|| DEFAULT_GAME.to_string());
    let hash = cli.hash.unwrap_or(HASH_DEFAULT_MB as usize);
    let settings = Settings {
        size: cli.size,
        rule: cli.rule.clone(),
    };
    match cli.command {
        None => ugi::run(
            BufReader::new(io::stdin()),
            Writer::stdout(),
            &game,
            settings,
            hash,
            cli.threads.unwrap_or(1),
        ),
        Some(Command::Perft { fen, depth }) => {
            tools::perft::run(&game, &settings, fen.as_deref(), depth, &mut stdout)
        }
        Some(Command::Bench { positions: true }) => {
            tools::bench::list(cli.game.as_deref(), &mut stdout)
        }
        Some(Command::Bench { positions: false }) => {
            tools::bench::run(cli.game.as_deref(), SearchParams::default(), &mut stdout).map(|_| ())
        }
        Some(Command::Compare {
            positions,
            depth,
            movetime,
            svg,
            max_nodes,
            csv,
        }) => {
            let positions = match positions {
                Some(path) => Some(
                    std::fs::read_to_string(path)?
                        .lines()
                        .map(str::to_string)
                        .collect(),
                ),
                None => None,
            };
            let options = tools::compare::CompareOptions {
                game,
                settings,
                positions,
                depth,
                movetime,
                max_nodes,
                csv,
            };
            let rows = tools::compare::run(&options, &mut stdout)?;
            if let Some(path) = svg {
                let budget = match movetime {
                    Some(ms) => format!("{ms} ms per position"),
                    None => "by depth".to_string(),
                };
                let title = format!("ply compare: {} ({budget})", options.game);
                std::fs::write(&path, tools::compare::svg(&rows, &title))?;
            }
            Ok(())
        }
        Some(Command::Trace { fen, depth, format }) => {
            let events = tools::trace::events(
                &game,
                &settings,
                fen.as_deref(),
                depth,
                SearchParams::default(),
            )?;
            match format {
                TraceFormat::Text => tools::trace::text(&events, &mut stdout)?,
                TraceFormat::Dot => tools::trace::dot(&events, &mut stdout)?,
            }
            Ok(())
        }
        Some(Command::Piskvork) => {
            ply::protocol::piskvork::run(BufReader::new(io::stdin()), Writer::stdout())
        }
        Some(Command::Solve {
            file,
            weak,
            pns,
            off,
        }) => {
            let mut params = ply::search::SearchParams::default();
            for name in &off {
                if !params.set(name, false) {
                    anyhow::bail!("unknown search switch {name}");
                }
            }
            let proof = match (weak, pns) {
                (_, true) => ply::search::Proof::ProofNumbers,
                (true, _) => ply::search::Proof::Weak,
                _ => ply::search::Proof::Exact,
            };
            let threads = cli.threads.unwrap_or(1);
            if pns && threads > 1 {
                anyhow::bail!("ply solve --pns searches on one thread: drop --threads");
            }
            let input: Box<dyn io::BufRead> = match file {
                Some(path) => Box::new(BufReader::new(std::fs::File::open(path)?)),
                None => Box::new(io::stdin().lock()),
            };
            let report = tools::solve::run(
                &game,
                &settings,
                tools::solve::SolveSetup {
                    hash_mb: hash,
                    proof,
                    params,
                    threads,
                },
                input,
                &mut stdout,
                &mut io::stderr(),
            )?;
            if report.mismatches > 0 {
                anyhow::bail!(
                    "{} of {} positions mismatched",
                    report.mismatches,
                    report.positions
                );
            }
            if report.malformed > 0 {
                anyhow::bail!("{} lines could not be read", report.malformed);
            }
            Ok(())
        }
        Some(Command::Book {
            plies,
            out,
            from,
            quiet,
            strategy,
            shard,
            merge,
        }) => {
            let notation = ply::engine::registry::describe(&game)
                .map_err(anyhow::Error::msg)?
                .solve;
            let role = match (shard, merge.is_empty()) {
                (Some(shard), _) => tools::book::Role::Shard(shard),
                (None, false) => tools::book::Role::Merge(merge),
                (None, true) => tools::book::Role::Whole,
            };
            let options = tools::book::BookOptions {
                game,
                settings,
                plies,
                from: notation.split_moves(&from),
                out,
                hash_mb: cli.hash.unwrap_or(BOOK_HASH_DEFAULT_MB),
                threads: cli.threads.unwrap_or(1),
                max_solves: None,
                progress: !quiet,
                strategy,
                role,
            };
            let started = std::time::Instant::now();
            let report = tools::book::run(&options, &mut io::stderr())?;
            let seconds = started.elapsed().as_secs_f64();
            let out = options.out.display();
            match &options.role {
                // A shard's summary, unless the book was there already.
                tools::book::Role::Shard(shard) if report.positions == 0 => writeln!(
                    stdout,
                    "book {out}, shard {shard}: {} of the {} positions {plies} plies deep, {} solved now, {} from the journal, {} nodes, {seconds:.1} s; {} {}",
                    report.share,
                    report.deep,
                    report.solved,
                    report.resumed,
                    report.nodes,
                    tools::book::shard_journal(&options.out, *shard).display(),
                    if report.complete {
                        "complete"
                    } else {
                        "stopped short"
                    },
                )?,
                tools::book::Role::Merge(journals) if report.deep > 0 => writeln!(
                    stdout,
                    "book {out}: {} positions, {} bytes; {} positions {plies} plies deep from {} shard journals, {seconds:.1} s",
                    report.positions,
                    file_size(&options.out),
                    report.deep,
                    journals.len(),
                )?,
                _ => {
                    let extension = match strategy.filter(|&s| s > plies) {
                        Some(last) => format!(
                            " ({} of them for the strategy to ply {last})",
                            report.strategy_solved
                        ),
                        None => String::new(),
                    };
                    writeln!(
                        stdout,
                        "book {out}: {} positions, {} bytes; {} positions {plies} plies deep, {} solved now{extension}, {} from the journal, {} nodes, {seconds:.1} s",
                        report.positions,
                        file_size(&options.out),
                        report.deep,
                        report.solved,
                        report.resumed,
                        report.nodes,
                    )?
                }
            }
            if let Some(value) = report.base {
                writeln!(stdout, "base: {}", describe_value(value))?;
            }
            Ok(())
        }
        Some(Command::Match {
            engines,
            games,
            tc,
            movetime,
            depth,
            nodes,
            concurrency,
            openings,
            order,
            sprt,
            pgn,
            sgf,
            seed,
            margin,
            max_move_time,
            quiet,
        }) => {
            use tools::r#match::clock::TimeControl;
            let tc = match (tc, movetime, depth, nodes) {
                (Some(tc), ..) => TimeControl::parse_tc(&tc).map_err(anyhow::Error::msg)?,
                (_, Some(ms), ..) => TimeControl::MoveTime(ms),
                (_, _, Some(d), _) => TimeControl::Depth(d),
                (_, _, _, Some(n)) => TimeControl::Nodes(n),
                _ => anyhow::bail!("give one of --tc, --movetime, --depth, --nodes"),
            };
            let options = tools::r#match::MatchOptions {
                game,
                settings,
                engines,
                games,
                tc,
                concurrency,
                openings,
                random_order: matches!(order, Order::Random),
                sprt,
                pgn,
                sgf,
                seed,
                margin_ms: margin,
                max_move_ms: max_move_time,
                progress: !quiet,
            };
            tools::r#match::run(&options, &mut stdout)
        }
        Some(Command::Play { movetime, human }) => {
            let options = tools::play::PlayOptions {
                game,
                settings,
                movetime_ms: movetime,
                human: match human {
                    Side::First => Player::P1,
                    Side::Second => Player::P2,
                },
                hash_mb: hash,
            };
            tools::play::run(&options, io::stdin().lock(), &mut stdout)
        }
    }
}
