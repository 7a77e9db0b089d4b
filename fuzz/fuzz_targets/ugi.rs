//! UGI: every line through the parser, then the whole stream through the
//! real controller with searches kept tiny (any `go` becomes `go nodes
//! 200`, any table 1 MB) so that each input runs in milliseconds.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use ply::engine::registry::DEFAULT_GAME;
use ply::game::Settings;
use ply::protocol::ugi::{self, Command};
use ply::protocol::writer::Writer;

fuzz_target!(|data: &[u8]| {
    let mut script = Vec::new();
    for line in ugi::lines(Cursor::new(data)) {
        match ugi::parse(&line) {
            Ok(Some(Command::Go(_))) => script.push("go nodes 200".to_string()),
            Ok(Some(Command::SetOption { name, .. })) if name.eq_ignore_ascii_case("hash") => {
                script.push("setoption name Hash value 1".to_string())
            }
            _ => script.push(line),
        }
    }
    let input = Cursor::new(script.join("\n").into_bytes());
    let writer = Writer::new(Box::new(std::io::sink()));
    let _ = ugi::run(input, writer, DEFAULT_GAME, Settings::default(), 1);
});
