use std::io::{self, BufReader};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
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
    /// Rule variant (gomoku: freestyle, standard, renju, caro).
    #[arg(long, global = true)]
    rule: Option<String>,
    /// Transposition table size in MB.
    #[arg(long, global = true, default_value_t = HASH_DEFAULT_MB as usize)]
    hash: usize,
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
    Bench,
    /// Solve positions exactly: reads "moves [expected-score]" lines (Pascal
    /// Pons' Connect Four test-set format) from a file or stdin.
    Solve {
        /// Test file; stdin when absent.
        #[arg(long)]
        file: Option<std::path::PathBuf>,
    },
    /// Speak the Piskvork (Gomocup) protocol, as pbrain-ply does.
    Piskvork,
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
enum Side {
    First,
    Second,
}

fn main() -> ExitCode {
    // Logs go to stderr and only when asked for (RUST_LOG=debug).
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let mut stdout = io::stdout();
    let game = cli.game.clone().unwrap_or_else(|| DEFAULT_GAME.to_string());
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
            cli.hash,
        ),
        Some(Command::Perft { fen, depth }) => {
            tools::perft::run(&game, &settings, fen.as_deref(), depth, &mut stdout)
        }
        Some(Command::Bench) => {
            tools::bench::run(cli.game.as_deref(), SearchParams::default(), &mut stdout).map(|_| ())
        }
        Some(Command::Piskvork) => {
            ply::protocol::piskvork::run(BufReader::new(io::stdin()), Writer::stdout())
        }
        Some(Command::Solve { file }) => {
            let report = match file {
                Some(path) => tools::solve::run(
                    &game,
                    cli.hash,
                    BufReader::new(std::fs::File::open(path)?),
                    &mut stdout,
                )?,
                None => tools::solve::run(&game, cli.hash, io::stdin().lock(), &mut stdout)?,
            };
            if report.mismatches > 0 {
                anyhow::bail!(
                    "{} of {} positions mismatched",
                    report.mismatches,
                    report.positions
                );
            }
            Ok(())
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
                hash_mb: cli.hash,
            };
            tools::play::run(&options, io::stdin().lock(), &mut stdout)
        }
    }
}
