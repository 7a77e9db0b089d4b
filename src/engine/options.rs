//! The engine's settable options, described once so that every protocol
//! lists and parses them the same way.

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: String,
    pub kind: OptionKind,
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

pub fn specs() -> Vec<OptionSpec> {
    let spin = |name: &str, default, min, max| OptionSpec {
        name: name.to_string(),
        kind: OptionKind::Spin { default, min, max },
    };
    let rules = all_rules();
    let (side, min_side, max_side) = board_sides();
    let mut specs = vec![
        spin("Hash", HASH_DEFAULT_MB, 1, HASH_MAX_MB),
        spin("Threads", 1, 1, THREADS_MAX),
        spin("MoveOverhead", MOVE_OVERHEAD_DEFAULT_MS, 0, 5000),
        OptionSpec {
            name: "Game".to_string(),
            kind: OptionKind::Combo {
                default: DEFAULT_GAME.to_string(),
                vars: names().iter().map(|g| g.to_string()).collect(),
            },
        },
        OptionSpec {
            name: "Rule".to_string(),
            kind: OptionKind::Combo {
                default: rules.first().cloned().unwrap_or_default(),
                vars: rules,
            },
        },
        spin("BoardSize", side, min_side, max_side),
    ];
    specs.push(spin("MultiPV", 1, 1, MULTIPV_MAX));
    specs.push(OptionSpec {
        name: "Ponder".to_string(),
        kind: OptionKind::Check { default: false },
    });
    specs.push(OptionSpec {
        name: "BookFile".to_string(),
        kind: OptionKind::Text,
    });
    let mut defaults = SearchParams::default();
    specs.extend(SWITCHES.iter().map(|(name, field)| OptionSpec {
        name: name.to_string(),
        kind: OptionKind::Check {
            default: *field(&mut defaults),
        },
    }));
    specs
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
pub fn parse_clamped(
    name: &str,
    value: &str,
) -> Result<(String, OptionValue, Option<String>), String> {
    let (name, value) = match parse(name, value) {
        Err(e) if name.eq_ignore_ascii_case("Hash") => {
            // Only a whole number above the range is clamped.
            match value.trim().parse::<u128>() {
                Ok(v) if v > HASH_MAX_MB as u128 => {
                    ("Hash".to_string(), OptionValue::Int(HASH_MAX_MB))
                }
                _ => return Err(e),
            }
        }
        other => other?,
    };
    if let ("Hash", OptionValue::Int(mb)) = (name.as_str(), &value) {
        let cap = hash_cap_mb();
        if *mb > cap {
            let notice = format!("Hash {mb} MB is more than this machine can give; using {cap} MB");
            return Ok((name, OptionValue::Int(cap), Some(notice)));
        }
    }
    Ok((name, value, None))
}

/// Finds the option called `name` (case-insensitive) and parses `value`.
pub fn parse(name: &str, value: &str) -> Result<(String, OptionValue), String> {
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
    Ok((spec.name, parsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(
            parse("hash", "64").unwrap(),
            ("Hash".to_string(), OptionValue::Int(64))
        );
        assert!(parse("Hash", "0").is_err());
        assert!(parse("Hash", "lots").is_err());
        assert_eq!(parse("threads", "2").unwrap().1, OptionValue::Int(2));
        assert!(parse("Threads", "0").is_err());
        assert_eq!(parse("usett", "false").unwrap().1, OptionValue::Bool(false));
        assert!(parse("UseTT", "maybe").is_err());
        assert_eq!(
            parse("game", "TicTacToe").unwrap().1,
            OptionValue::Text("tictactoe".into())
        );
        assert!(parse("Game", "chess").is_err());
        assert!(parse("Colour", "red").is_err());
        assert_eq!(
            parse("rule", "RENJU").unwrap().1,
            OptionValue::Text("renju".into())
        );
        assert!(parse("BoardSize", "33").is_err());
    }

    #[test]
    fn absurd_hash_sizes_are_clamped_with_a_notice() {
        let (name, value, notice) = parse_clamped("hash", "99999999999999999999999").unwrap();
        assert_eq!(name, "Hash");
        let OptionValue::Int(mb) = value else {
            panic!("{value:?}")
        };
        assert!((1..=HASH_MAX_MB).contains(&mb));
        assert!(mb <= hash_cap_mb());
        assert!(notice.unwrap().contains(&format!("using {mb} MB")));
        assert_eq!(
            parse_clamped("Hash", "16").unwrap(),
            ("Hash".into(), OptionValue::Int(16), None)
        );
        assert!(parse_clamped("Hash", "0").is_err());
        assert!(parse_clamped("Hash", "-5").is_err());
        assert!(parse_clamped("Hash", "lots").is_err());
    }
}
