//! `pbrain-ply`: Ply as a Gomocup brain (the Piskvork protocol on
//! stdin/stdout). Gomocup requires the `pbrain-` prefix; `ply piskvork`
//! does the same.

use std::io::{self, BufReader};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Nothing on stderr unless asked: c-gomoku-cli merges it into the pipe.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("off")).init();
    match ply::protocol::piskvork::run(
        BufReader::new(io::stdin()),
        ply::protocol::writer::Writer::stdout(),
    ) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
