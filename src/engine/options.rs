//! The engine's settable options, each declared once (name, type,
//! default, range, what it sets, the Piskvork INFO keys that set it), so
//! that UGI's option list, `setoption`, Piskvork's INFO keys and the
//! search switches are all served from one list.

use super::registry::{DEFAULT_GAME, GAMES, names};
use crate::game::Boards;
use crate::search::params::{SWITCHES, SearchParams};

pub const HASH_DEFAULT_MB: i64 = 16;
pub const HASH_MAX_MB: i64 = 16384;
pub const MOVE_OVERHEAD_DEFAULT_MS: i64 = 30;
/// Search threads (Lazy SMP): more than the machine's cores only slows it.
pub const THREADS_MAX: i64 = 256;
/// Best moves per search (MultiPV).
pub const MULTIPV_MAX: i64 = 64;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: String,
        vars: Vec<String>,
    },
    /// Free text (a file path); empty by default.
    Text,
}

/// What an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The transposition table's size, in MB.
    Hash,
    /// Search threads.
    Threads,
    /// Milliseconds kept back from every clock for the pipe and the client.
    MoveOverhead,
    /// The game played.
    Game,
    /// The game's rule variant.
    Rule,
    /// The side of a square board.
    BoardSize,
    /// Best moves per search.
    MultiPv,
    /// Whether the client reads the expected reply after the best move.
    Ponder,
    /// The opening book's file.
    BookFile,
    /// A search switch: its place in [`SWITCHES`].
    Switch(usize),
}

/// One option, declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The name `setoption` uses (matched without regard to case).
    pub name: String,
    /// Its type, default and range.
    pub kind: OptionKind,
    /// What it sets.
    pub sets: Setting,
    /// The Piskvork `INFO` keys that set it too (each in the units
    /// Piskvork gives it, which the protocol translates).
    pub info_keys: &'static [&'static str],
}

/// An option value checked against its declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The option's declared name.
    pub name: String,
    /// What it sets.
    pub sets: Setting,
    /// The value.
    pub value: OptionValue,
}

/// A parsed option value, checked against its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    Text(String),
}

/// Every game's rule names, each once, in registry order: the `Rule`
/// option offers them all and the game refuses the ones it lacks.
fn all_rules() -> Vec<String> {
    let mut rules: Vec<String> = Vec::new();
    for rule in GAMES.iter().flat_map(|d| d.rules.iter()) {
        if !rules.iter().any(|r| r == rule) {
            rules.push(rule.to_string());
        }
    }
    rules
}

/// The default board side and the side range over the games with a
/// variable board (the first such game's default).
fn board_sides() -> (i64, i64, i64) {
    let mut default = None;
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for d in GAMES {
        if let Boards::Variable {
            min,
            max,
            default: (w, _),
        } = d.boards
        {
            default.get_or_insert(w as i64);
            lo = lo.min(min as i64);
            hi = hi.max(max as i64);
        }
    }
    (default.unwrap_or(lo), lo, hi)
}

/// Every option, in the order UGI lists them.
pub fn specs() -> Vec<OptionSpec> {
    let option = |name: &str, kind, sets, info_keys| OptionSpec {
        name: name.to_string(),
        kind,
        sets,
        info_keys,
    };
    let spin = |default, min, max| OptionKind::Spin { default, min, max };
    let rules = all_rules();
    let (side, min_side, max_side) = board_sides();
    let games = OptionKind::Combo {
        default: DEFAULT_GAME.to_string(),
        vars: names().iter().map(|g| g.to_string()).collect(),
    };
    let rules = OptionKind::Combo {
        default: rules.first().cloned().unwrap_or_default(),
        vars: rules,
    };
    let mut specs = vec![
        option(
            "Hash",
            spin(HASH_DEFAULT_MB, 1, HASH_MAX_MB),
            Setting::Hash,
            &["max_memory", "hash_size"],
        ),
        option(
            "Threads",
            spin(1, 1, THREADS_MAX),
            Setting::Threads,
            &["thread_num"],
        ),
        option(
            "MoveOverhead",
            spin(MOVE_OVERHEAD_DEFAULT_MS, 0, 5000),
            Setting::MoveOverhead,
            &[],
        ),
        option("Game", games, Setting::Game, &[]),
        option("Rule", rules, Setting::Rule, &["rule"]),
        option(
            "BoardSize",
            spin(side, min_side, max_side),
            Setting::BoardSize,
            &[],
        ),
        option("MultiPV", spin(1, 1, MULTIPV_MAX), Setting::MultiPv, &[]),
        option(
            "Ponder",
            OptionKind::Check { default: false },
            Setting::Ponder,
            &[],
        ),
        option("BookFile", OptionKind::Text, Setting::BookFile, &[]),
    ];
    let mut defaults = SearchParams::default();
    specs.extend(SWITCHES.iter().enumerate().map(|(i, (name, field))| {
        let default = *field(&mut defaults);
        option(name, OptionKind::Check { default }, Setting::Switch(i), &[])
    }));
    specs
}

/// The name of the option a Piskvork `INFO` key sets, if any.
pub fn set_by_info_key(key: &str) -> Option<String> {
    specs()
        .into_iter()
        .find(|spec| spec.info_keys.contains(&key))
        .map(|spec| spec.name)
}

/// The largest table worth asking for: a quarter of the machine's memory,
/// where the machine says (Linux), so that an absurd `Hash` cannot make
/// the system kill the engine mid-game (tables are faulted in when
/// allocated, and a game of bounded length has a solver's table too).
fn hash_cap_mb() -> i64 {
    let total_kb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<i64>().ok())
        });
    match total_kb {
        Some(kb) => (kb / 1024 / 4).clamp(1, HASH_MAX_MB),
        None => HASH_MAX_MB,
    }
}

/// Finds the option called `name` (case-insensitive) and parses `value`.
/// A `Hash` larger than the engine can have is clamped, with a notice
/// (the second part of the answer) for the protocol to pass on.
pub fn parse_clamped(name: &str, value: &str) -> Result<(Chosen, Option<String>), String> {
    let chosen = match parse(name, value) {
        Err(e) if name.eq_ignore_ascii_case("Hash") => {
            // Only a whole number above the range is clamped.
            match value.trim().parse::<u128>() {
                Ok(v) if v > HASH_MAX_MB as u128 => Chosen {
                    name: "Hash".to_string(),
                    sets: Setting::Hash,
                    value: OptionValue::Int(HASH_MAX_MB),
                },
                _ => return Err(e),
            }
        }
        other => other?,
    };
    if let (Setting::Hash, OptionValue::Int(mb)) = (chosen.sets, &chosen.value) {
        let cap = hash_cap_mb();
        if *mb > cap {
            let notice = format!("Hash {mb} MB is more than this machine can give; using {cap} MB");
            let value = OptionValue::Int(cap);
            return Ok((Chosen { value, ..chosen }, Some(notice)));
        }
    }
    Ok((chosen, None))
}

/// Finds the option called `name` (case-insensitive) and parses `value`.
pub fn parse(name: &str, value: &str) -> Result<Chosen, String> {
    let spec = specs()
        .into_iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let value = value.trim();
    let parsed = match &spec.kind {
        OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
            Ok(v) if (*min..=*max).contains(&v) => OptionValue::Int(v),
            _ => {
                return Err(format!(
                    "option {} takes an integer from {min} to {max}, not '{value}'",
                    spec.name
                ));
            }
        },
        OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
            "true" | "on" | "1" => OptionValue::Bool(true),
            "false" | "off" | "0" => OptionValue::Bool(false),
            _ => {
                return Err(format!(
                    "option {} takes true or false, not '{value}'",
                    spec.name
                ));
            }
        },
        // `<empty>` is how UCI GUIs send an empty string.
        OptionKind::Text if value == "<empty>" => OptionValue::Text(String::new()),
        OptionKind::Text => OptionValue::Text(value.to_string()),
        OptionKind::Combo { vars, .. } => match vars.iter().find(|v| v.eq_ignore_ascii_case(value))
        {
            Some(v) => OptionValue::Text(v.clone()),
            None => {
                return Err(format!(
                    "option {} takes one of {}, not '{value}'",
                    spec.name,
                    vars.join(", ")
                ));
            }
        },
    };
    Ok(Chosen {
        name: spec.name,
        sets: spec.sets,
        value: parsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(
            parse("hash", "64").unwrap(),
            Chosen {
                name: "Hash".to_string(),
                sets: Setting::Hash,
                value: OptionValue::Int(64)
            }
        );
        assert!(parse("Hash", "0").is_err());
        assert!(parse("Hash", "lots").is_err());
        assert_eq!(parse("threads", "2").unwrap().value, OptionValue::Int(2));
        assert!(parse("Threads", "0").is_err());
        assert_eq!(
            parse("usett", "false").unwrap().value,
            OptionValue::Bool(false)
        );
        assert!(parse("UseTT", "maybe").is_err());
        assert_eq!(
            parse("game", "TicTacToe").unwrap().value,
            OptionValue::Text("tictactoe".into())
        );
        assert!(parse("Game", "chess").is_err());
        assert!(parse("Colour", "red").is_err());
        assert_eq!(
            parse("rule", "RENJU").unwrap().value,
            OptionValue::Text("renju".into())
        );
        assert!(parse("BoardSize", "33").is_err());
        // A switch sets the field of its place in the list.
        let chosen = parse("UseLMR", "off").unwrap();
        let Setting::Switch(i) = chosen.sets else {
            panic!("{chosen:?}")
        };
        let mut params = SearchParams::default();
        *SWITCHES[i].1(&mut params) = false;
        assert!(!params.lmr);
    }

    #[test]
    fn names_settings_and_info_keys_are_each_declared_once() {
        let specs = specs();
        for (i, a) in specs.iter().enumerate() {
            for b in &specs[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(&b.name), "{}", a.name);
                assert_ne!(a.sets, b.sets, "{} {}", a.name, b.name);
                assert!(a.info_keys.iter().all(|k| !b.info_keys.contains(k)));
            }
        }
        assert_eq!(set_by_info_key("thread_num").as_deref(), Some("Threads"));
        assert_eq!(set_by_info_key("max_memory").as_deref(), Some("Hash"));
        assert_eq!(set_by_info_key("timeout_turn"), None);
    }

    #[test]
    fn absurd_hash_sizes_are_clamped_with_a_notice() {
        let (chosen, notice) = parse_clamped("hash", "99999999999999999999999").unwrap();
        assert_eq!((chosen.name.as_str(), chosen.sets), ("Hash", Setting::Hash));
        let OptionValue::Int(mb) = chosen.value else {
            panic!("{:?}", chosen.value)
        };
        assert!((1..=HASH_MAX_MB).contains(&mb));
        assert!(mb <= hash_cap_mb());
        assert!(notice.unwrap().contains(&format!("using {mb} MB")));
        assert_eq!(
            parse_clamped("Hash", "16").unwrap(),
            (parse("Hash", "16").unwrap(), None)
        );
        assert!(parse_clamped("Hash", "0").is_err());
        assert!(parse_clamped("Hash", "-5").is_err());
        assert!(parse_clamped("Hash", "lots").is_err());
    }
}
