//! Parsing of the `--engine` and `--sprt` arguments.

/// The wire protocol of an external engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Ugi,
    Piskvork,
}

/// A baseline player built into the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A uniformly random legal move.
    Random,
    /// One ply: a winning move, else the best static evaluation.
    Greedy,
    /// Plain Monte-Carlo tree search with random playouts, using the time
    /// an engine would have for the move.
    Mcts,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    External {
        argv: Vec<String>,
        proto: Proto,
        /// `option.K=V`: sent as `setoption name K value V` (UGI) or
        /// `INFO K V` (Piskvork).
        options: Vec<(String, String)>,
        /// `nodes=N`: this engine's node budget a move in a `--nodes`
        /// match, in place of the match's (node-odds matches).
        nodes: Option<u64>,
    },
    Builtin(Builtin),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub kind: EngineKind,
}

const KEYS: &[&str] = &["cmd", "proto", "name", "builtin", "nodes"];

/// The key of a `KEY=VALUE` field, trimmed.
fn key_of(field: &str) -> Option<&str> {
    field.split_once('=').map(|(k, _)| k.trim())
}

fn is_key(field: &str) -> bool {
    key_of(field).is_some_and(|k| KEYS.contains(&k) || k.starts_with("option."))
}

/// Parses `cmd=PATH [ARGS],proto=ugi|piskvork[,name=NAME][,nodes=N][,option.K=V]`
/// or `builtin=random|greedy|mcts[,name=NAME]`. A comma inside the command is
/// kept when what follows it is not a known key; after any other field it
/// starts a field of its own, so that a key this version does not know is
/// refused rather than read into a name or a protocol.
pub fn parse_engine(text: &str) -> Result<EngineSpec, String> {
    let bad = |why: String| format!("--engine '{text}': {why}");
    let mut fields: Vec<String> = Vec::new();
    for part in text.split(',') {
        match fields.last_mut() {
            Some(last) if key_of(last) == Some("cmd") && !is_key(part) => {
                last.push(',');
                last.push_str(part);
            }
            _ => fields.push(part.to_string()),
        }
    }
    let (mut cmd, mut proto, mut name, mut builtin, mut nodes) = (None, None, None, None, None);
    let mut options = Vec::new();
    for field in &fields {
        let Some((key, value)) = field.split_once('=') else {
            return Err(bad(format!(
                "'{field}' is not KEY=VALUE (keys: cmd, proto, name, builtin, nodes, option.K)"
            )));
        };
        let (key, value) = (key.trim(), value.trim());
        match key {
            "cmd" => cmd = Some(value.to_string()),
            "proto" => {
                proto = Some(match value.to_ascii_lowercase().as_str() {
                    "ugi" | "uci" | "uai" => Proto::Ugi,
                    "piskvork" | "gomocup" => Proto::Piskvork,
                    other => return Err(bad(format!("unknown proto '{other}' (ugi, piskvork)"))),
                })
            }
            "name" if !value.is_empty() => name = Some(value.to_string()),
            "nodes" => match value.parse::<u64>() {
                Ok(n) if n > 0 => nodes = Some(n),
                _ => {
                    return Err(bad(format!(
                        "nodes must be a positive whole number, not '{value}'"
                    )));
                }
            },
            "builtin" => {
                builtin = Some(match value.to_ascii_lowercase().as_str() {
                    "random" => Builtin::Random,
                    "greedy" => Builtin::Greedy,
                    "mcts" => Builtin::Mcts,
                    other => {
                        return Err(bad(format!(
                            "unknown builtin '{other}' (random, greedy, mcts)"
                        )));
                    }
                })
            }
            k if k.starts_with("option.") && k.len() > "option.".len() => {
                options.push((k["option.".len()..].to_string(), value.to_string()))
            }
            _ => return Err(bad(format!("unknown or empty key '{key}'"))),
        }
    }
    match (cmd, builtin) {
        (Some(_), Some(_)) => Err(bad("give either cmd= or builtin=, not both".into())),
        (None, None) => Err(bad("needs cmd=... or builtin=random|greedy|mcts".into())),
        (None, Some(b)) => {
            if proto.is_some() || !options.is_empty() || nodes.is_some() {
                return Err(bad("a builtin takes no proto, options or nodes".into()));
            }
            let default = match b {
                Builtin::Random => "random",
                Builtin::Greedy => "greedy",
                Builtin::Mcts => "mcts",
            };
            Ok(EngineSpec {
                name: name.unwrap_or_else(|| default.to_string()),
                kind: EngineKind::Builtin(b),
            })
        }
        (Some(cmd), None) => {
            let argv = split_command(&cmd).map_err(bad)?;
            if argv.is_empty() {
                return Err(bad("empty cmd".into()));
            }
            let default = std::path::Path::new(&argv[0])
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| argv[0].clone());
            Ok(EngineSpec {
                name: name.unwrap_or(default),
                kind: EngineKind::External {
                    argv,
                    proto: proto.unwrap_or(Proto::Ugi),
                    options,
                    nodes,
                },
            })
        }
    }
}

/// Splits a command line into words as a POSIX shell does (quotes group,
/// a backslash escapes).
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    shlex::split(text).ok_or_else(|| format!("unbalanced quote or escape in '{text}'"))
}

/// The sequential probability ratio test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Parses `elo0=0,elo1=10[,alpha=0.05,beta=0.05]`.
pub fn parse_sprt(text: &str) -> Result<SprtSpec, String> {
    let bad = |why: String| format!("--sprt '{text}': {why}");
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for field in text.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let (key, value) = field
            .split_once('=')
            .ok_or_else(|| bad(format!("'{field}' is not KEY=VALUE")))?;
        let value: f64 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite())
            .ok_or_else(|| bad(format!("'{value}' is not a number")))?;
        match key.trim() {
            "elo0" => elo0 = Some(value),
            "elo1" => elo1 = Some(value),
            "alpha" => alpha = value,
            "beta" => beta = value,
            other => {
                return Err(bad(format!(
                    "unknown key '{other}' (elo0, elo1, alpha, beta)"
                )));
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(bad("elo0 and elo1 are required".into()));
    };
    if elo0 >= elo1 {
        return Err(bad("elo0 must be below elo1".into()));
    }
    if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
        return Err(bad("alpha and beta must lie between 0 and 0.5".into()));
    }
    if elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
        return Err(bad("elo bounds must lie within ±1000".into()));
    }
    Ok(SprtSpec {
        elo0,
        elo1,
        alpha,
        beta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs_parse() {
        let e = parse_engine(
            "cmd=target/release/ply --game connect4,proto=ugi,name=new,option.Hash=32",
        )
        .unwrap();
        assert_eq!(e.name, "new");
        assert_eq!(
            e.kind,
            EngineKind::External {
                argv: vec![
                    "target/release/ply".into(),
                    "--game".into(),
                    "connect4".into()
                ],
                proto: Proto::Ugi,
                options: vec![("Hash".into(), "32".into())],
                nodes: None,
            }
        );
        // A node budget of its own, for node-odds matches.
        let e = parse_engine("cmd=pbrain-rapfi,proto=piskvork,nodes=100000").unwrap();
        assert!(matches!(
            e.kind,
            EngineKind::External {
                nodes: Some(100_000),
                ..
            }
        ));
        let e = parse_engine("builtin=greedy").unwrap();
        assert_eq!(e.name, "greedy");
        assert_eq!(e.kind, EngineKind::Builtin(Builtin::Greedy));
        let e = parse_engine("builtin=MCTS,name=uct").unwrap();
        assert_eq!(
            (e.name.as_str(), e.kind),
            ("uct", EngineKind::Builtin(Builtin::Mcts))
        );
        // A comma that does not start a key stays in the command.
        let e = parse_engine("cmd=ply --size 15,15,proto=piskvork").unwrap();
        assert!(
            matches!(e.kind, EngineKind::External { ref argv, proto: Proto::Piskvork, .. }
            if argv[2] == "15,15")
        );
        let e = parse_engine(" cmd = ply --size 15,15 , proto=piskvork").unwrap();
        assert!(
            matches!(e.kind, EngineKind::External { ref argv, proto: Proto::Piskvork, .. }
            if argv[2] == "15,15")
        );
        let e = parse_engine("cmd='/my dir/eng' -x").unwrap();
        assert!(
            matches!(e.kind, EngineKind::External { ref argv, .. } if argv[0] == "/my dir/eng")
        );
        assert_eq!(e.name, "eng");
    }

    #[test]
    fn bad_engine_specs_are_errors() {
        for bad in [
            "",
            "ply",
            "cmd=",
            "builtin=smart",
            "cmd=ply,proto=uci2",
            "cmd=ply,builtin=random",
            "builtin=random,option.Hash=1",
            "builtin=random,nodes=100",
            "cmd=ply,nodes=0",
            "cmd=ply,nodes=-5",
            "cmd=ply,nodes=1e6",
            "cmd=ply,proto=ugi,colour=red",
            "cmd=ply,name=x,colour=red",
            "cmd=ply,proto=piskvork,name=rapfi,node=100",
            "cmd=ply,name=x,",
            "name=x",
            "cmd='ply",
        ] {
            assert!(parse_engine(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sprt_specs_parse() {
        let s = parse_sprt("elo0=0,elo1=10").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.05, 0.05));
        let s = parse_sprt("elo0=-5,elo1=5,alpha=0.1,beta=0.2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        for bad in [
            "",
            "elo0=0",
            "elo0=10,elo1=0",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,alpha=0",
        ] {
            assert!(parse_sprt(bad).is_err(), "{bad}");
        }
    }
}
