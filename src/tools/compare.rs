//! `ply compare`: the same positions searched by a ladder of search
//! configurations (plain minimax, alpha-beta, then one enhancement added
//! at a time up to the full search) and by the full search with each
//! enhancement switched off alone; per configuration and depth: nodes,
//! time, effective branching factor, the share of cutoffs made by the
//! first move tried and the table hit rate.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::engine::registry;
use crate::game::{Game, GameVisitor, Settings};
use crate::search::params::SWITCHES;
use crate::search::reference;
use crate::search::stats::SearchStats;
use crate::search::{SearchLimits, SearchParams, Searcher};

pub struct CompareOptions {
    pub game: String,
    pub settings: Settings,
    /// Lines of moves from the start (empty: the start itself).
    pub positions: Option<Vec<String>>,
    pub depth: Option<u32>,
    /// A configuration stops deepening once its next depth is predicted to
    /// pass this many nodes (summed over the positions).
    pub max_nodes: u64,
    pub csv: bool,
}

/// One configuration: `None` params means plain minimax.
pub struct Config {
    pub name: String,
    pub params: Option<SearchParams>,
}

#[derive(Clone, Debug)]
pub struct Row {
    pub config: String,
    pub depth: u32,
    pub nodes: u64,
    pub time_ms: f64,
    pub stats: SearchStats,
}

/// The ladder, then the full search less each switch.
pub fn configs() -> Vec<Config> {
    let mut ladder = vec![
        Config {
            name: "minimax".into(),
            params: None,
        },
        Config {
            name: "alphabeta".into(),
            params: Some(SearchParams::all(false)),
        },
    ];
    let steps: &[(&str, &[&str])] = &[
        ("+id", &["UseIterativeDeepening"]),
        ("+tt", &["UseTT"]),
        ("+ordering", &["UseKillers", "UseHistory", "UseMoveScores"]),
        ("+nullmove", &["UseNullMove"]),
        ("+pvs", &["UsePVS"]),
        ("+aspiration", &["UseAspiration"]),
        ("+quiescence", &["UseQuiescence"]),
        ("full", &["UseMateDistancePruning"]),
    ];
    let mut params = SearchParams::all(false);
    for (name, switches) in steps {
        for s in *switches {
            params.set(s, true);
        }
        ladder.push(Config {
            name: name.to_string(),
            params: Some(params),
        });
    }
    for (switch, _) in SWITCHES {
        let mut params = SearchParams::all(true);
        params.set(switch, false);
        ladder.push(Config {
            name: format!("-{}", switch.trim_start_matches("Use").to_lowercase()),
            params: Some(params),
        });
    }
    ladder
}

pub fn run(options: &CompareOptions, out: &mut dyn Write) -> anyhow::Result<Vec<Row>> {
    let description = registry::describe(&options.game).map_err(anyhow::Error::msg)?;
    let positions: Vec<String> = match &options.positions {
        Some(p) => p.clone(),
        None => description
            .bench
            .iter()
            .map(|(m, _)| m.to_string())
            .collect(),
    };
    let depth = options
        .depth
        .unwrap_or_else(|| description.bench.iter().map(|&(_, d)| d).min().unwrap_or(4));
    let rows = registry::visit(
        &options.game,
        &options.settings,
        Measure {
            positions,
            depth,
            max_nodes: options.max_nodes,
        },
    )
    .map_err(anyhow::Error::msg)??;
    if options.csv {
        write_csv(&rows, out)?;
    } else {
        write_table(&rows, out)?;
    }
    Ok(rows)
}

struct Measure {
    positions: Vec<String>,
    depth: u32,
    max_nodes: u64,
}

impl GameVisitor for Measure {
    type Output = anyhow::Result<Vec<Row>>;
    fn visit<G: Game>(self, settings: &Settings) -> Self::Output {
        let mut roots = Vec::new();
        for line in &self.positions {
            let mut pos = G::start(settings).map_err(|e| anyhow::anyhow!("{e}"))?;
            for text in line.split_whitespace() {
                let mv = pos.parse_move(text).map_err(|e| anyhow::anyhow!("{e}"))?;
                pos.make_move(mv);
            }
            roots.push(pos);
        }
        let mut rows = Vec::new();
        for config in configs() {
            let mut previous: Option<u64> = None;
            let mut before: Option<u64> = None;
            for depth in 1..=self.depth {
                if let (Some(n), Some(b)) = (previous, before) {
                    let growth = (n as f64 / b.max(1) as f64).max(1.0);
                    if n as f64 * growth > self.max_nodes as f64 {
                        break;
                    }
                }
                let mut row = Row {
                    config: config.name.clone(),
                    depth,
                    nodes: 0,
                    time_ms: 0.0,
                    stats: SearchStats::default(),
                };
                for root in &roots {
                    let start = Instant::now();
                    match config.params {
                        None => {
                            let mut pos = root.clone();
                            reference::negamax_counted(
                                &mut pos,
                                depth as i32,
                                false,
                                &mut row.nodes,
                            );
                        }
                        Some(params) => {
                            let mut searcher =
                                Searcher::<G>::new(16, params).map_err(anyhow::Error::msg)?;
                            let limits = SearchLimits {
                                depth: Some(depth),
                                ..Default::default()
                            };
                            let result = searcher.search(
                                root,
                                &limits,
                                Arc::new(AtomicBool::new(false)),
                                &mut |_| {},
                            );
                            row.nodes += result.nodes;
                            row.stats.add(&searcher.stats);
                        }
                    }
                    row.time_ms += start.elapsed().as_secs_f64() * 1000.0;
                }
                before = previous;
                previous = Some(row.nodes);
                rows.push(row);
            }
        }
        Ok(rows)
    }
}

/// Nodes of this depth over nodes of the depth before (1 before depth 1).
fn ebf(rows: &[Row], row: &Row) -> f64 {
    let before = rows
        .iter()
        .find(|r| r.config == row.config && r.depth + 1 == row.depth)
        .map_or(1, |r| r.nodes);
    row.nodes as f64 / before.max(1) as f64
}

fn alphabeta_nodes(rows: &[Row], depth: u32) -> Option<u64> {
    rows.iter()
        .find(|r| r.config == "alphabeta" && r.depth == depth)
        .map(|r| r.nodes)
}

fn write_csv(rows: &[Row], out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "config,depth,nodes,time_ms,ebf,first_move_cutoff,tt_hit_rate,cutoffs,tt_probes,nodes_vs_alphabeta"
    )?;
    for row in rows {
        let ratio = alphabeta_nodes(rows, row.depth).map_or(String::new(), |ab| {
            format!("{:.4}", row.nodes as f64 / ab as f64)
        });
        writeln!(
            out,
            "{},{},{},{:.1},{:.2},{:.4},{:.4},{},{},{}",
            row.config,
            row.depth,
            row.nodes,
            row.time_ms,
            ebf(rows, row),
            row.stats.first_move_cutoff_rate(),
            row.stats.tt_hit_rate(),
            row.stats.cutoffs,
            row.stats.tt_probes,
            ratio
        )?;
    }
    Ok(())
}

fn write_table(rows: &[Row], out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{:<14} {:>5} {:>12} {:>10} {:>6} {:>7} {:>7} {:>9}",
        "config", "depth", "nodes", "time_ms", "ebf", "1st-cut", "tt-hit", "vs-ab"
    )?;
    for row in rows {
        let ratio = alphabeta_nodes(rows, row.depth).map_or("-".to_string(), |ab| {
            format!("{:.3}", row.nodes as f64 / ab as f64)
        });
        writeln!(
            out,
            "{:<14} {:>5} {:>12} {:>10.1} {:>6.2} {:>6.1}% {:>6.1}% {:>9}",
            row.config,
            row.depth,
            row.nodes,
            row.time_ms,
            ebf(rows, row),
            100.0 * row.stats.first_move_cutoff_rate(),
            100.0 * row.stats.tt_hit_rate(),
            ratio
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(depth: u32) -> Vec<Row> {
        let options = CompareOptions {
            game: "tictactoe".into(),
            settings: Settings::default(),
            positions: Some(vec![String::new()]),
            depth: Some(depth),
            max_nodes: 1_000_000,
            csv: true,
        };
        run(&options, &mut Vec::new()).unwrap()
    }

    #[test]
    fn minimax_counts_every_node_of_the_full_tree() {
        // No game ends before ply 5: 1 + 9 + 9*8 + 9*8*7 + 9*8*7*6.
        let rows = measure(4);
        let minimax = rows
            .iter()
            .find(|r| r.config == "minimax" && r.depth == 4)
            .unwrap();
        assert_eq!(minimax.nodes, 1 + 9 + 72 + 504 + 3024);
    }

    #[test]
    fn node_counts_are_the_same_on_every_run() {
        let first = measure(5);
        let second = measure(5);
        let key = |rows: &[Row]| -> Vec<(String, u32, u64, u64, u64)> {
            rows.iter()
                .map(|r| {
                    (
                        r.config.clone(),
                        r.depth,
                        r.nodes,
                        r.stats.cutoffs,
                        r.stats.tt_hits,
                    )
                })
                .collect()
        };
        assert_eq!(key(&first), key(&second));
        for name in ["minimax", "alphabeta", "full"] {
            assert!(first.iter().any(|r| r.config == name && r.depth == 5));
        }
        // Pruning never searches more than the full tree.
        let at = |name: &str| {
            first
                .iter()
                .find(|r| r.config == name && r.depth == 5)
                .unwrap()
                .nodes
        };
        assert!(at("alphabeta") < at("minimax"));
    }
}
