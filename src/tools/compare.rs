//! `ply compare`: the same positions searched by a ladder of search
//! configurations (plain minimax, alpha-beta, then one enhancement added
//! at a time up to the full search) and by the full search with each
//! enhancement switched off alone; per configuration and depth: nodes,
//! time, effective branching factor, the share of cutoffs made by the
//! first move tried and the table hit rate. With a time budget per
//! position instead of a depth, the depth each configuration reaches.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::engine::registry;
use crate::game::{Game, GameVisitor, Settings};
use crate::search::clock::Clock;
use crate::search::params::SWITCHES;
use crate::search::reference;
use crate::search::stats::SearchStats;
use crate::search::time::Budget;
use crate::search::{SearchLimits, SearchParams, Searcher};
use crate::tools::chart::{self, Series};

pub struct CompareOptions {
    pub game: String,
    pub settings: Settings,
    /// Lines of moves from the start (empty: the start itself).
    pub positions: Option<Vec<String>>,
    pub depth: Option<u32>,
    /// Milliseconds per position instead of a depth: one row per
    /// configuration with the depth it reached (nodes then depend on the
    /// machine and its load).
    pub movetime: Option<u64>,
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
    /// The depth searched; under a time budget, the least depth completed
    /// over the positions.
    pub depth: u32,
    /// The mean depth completed over the positions (the depth itself
    /// without a time budget).
    pub depth_reached: f64,
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
        (
            "+latemoves",
            &[
                "UseLMR",
                "UseLateMovePruning",
                "UseExtensions",
                "UseFutility",
                "UseRazoring",
                "UseIIR",
            ],
        ),
        // Every switch on (the solver is idle at a fixed depth; the
        // defences, off in play, included): the base of the
        // switch-off rows.
        (
            "full",
            &[
                "UseMateDistancePruning",
                "UseSolver",
                "UseThreatSearch",
                "UseThreatSpace",
                "UseThreatDefence",
                "UseTreeDefence",
                "UseSolverMirror",
                "UseSolverCeiling",
                "UseSolverETC",
            ],
        ),
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
            movetime: options.movetime.map(Duration::from_millis),
            max_nodes: options.max_nodes,
        },
    )
    .map_err(anyhow::Error::msg)??;
    let timed = options.movetime.is_some();
    if options.csv {
        write_csv(&rows, timed, out)?;
    } else {
        write_table(&rows, timed, out)?;
    }
    Ok(rows)
}

struct Measure {
    positions: Vec<String>,
    depth: u32,
    movetime: Option<Duration>,
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
            if let Some(budget) = self.movetime {
                rows.push(timed_row(&config, &roots, budget)?);
                continue;
            }
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
                    depth_reached: f64::from(depth),
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
                            let limits = SearchLimits {
                                depth: Some(depth),
                                ..Default::default()
                            };
                            search_into(&mut row, root, params, &limits)?;
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

/// Searches `root` with a fresh searcher, adding nodes and counters to
/// `row`; the depth of the last completed iteration.
fn search_into<G: Game>(
    row: &mut Row,
    root: &G,
    params: SearchParams,
    limits: &SearchLimits,
) -> anyhow::Result<u32> {
    let mut searcher = Searcher::<G>::new(16, params).map_err(anyhow::Error::msg)?;
    let result = searcher.search(root, limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
    row.nodes += result.nodes;
    row.stats.add(&searcher.stats);
    Ok(result.last.map_or(0, |r| r.depth))
}

/// One configuration given `budget` per position: the nodes spent and the
/// depth completed. Plain minimax deepens one depth at a time until the
/// budget runs out; the searcher deepens by itself (a configuration
/// without iterative deepening still has to, under a clock).
fn timed_row<G: Game>(config: &Config, roots: &[G], budget: Duration) -> anyhow::Result<Row> {
    let mut row = Row {
        config: config.name.clone(),
        depth: u32::MAX,
        depth_reached: 0.0,
        nodes: 0,
        time_ms: 0.0,
        stats: SearchStats::default(),
    };
    let mut reached_sum = 0u64;
    for root in roots {
        let start = Instant::now();
        let reached = match config.params {
            None => {
                let clock = Clock::default().part(Some(start + budget), u64::MAX);
                let mut reached = 0;
                for depth in 1..crate::search::score::MAX_PLY as i32 {
                    let mut pos = root.clone();
                    match reference::negamax_until(&mut pos, depth, false, &clock, &mut row.nodes) {
                        Some(_) => reached = depth as u32,
                        None => break,
                    }
                }
                reached
            }
            Some(params) => {
                let limits = SearchLimits {
                    budget: Budget {
                        soft: Some(budget),
                        hard: Some(budget),
                    },
                    ..Default::default()
                };
                search_into(&mut row, root, params, &limits)?
            }
        };
        row.time_ms += start.elapsed().as_secs_f64() * 1000.0;
        row.depth = row.depth.min(reached);
        reached_sum += u64::from(reached);
    }
    if roots.is_empty() {
        row.depth = 0;
    } else {
        row.depth_reached = reached_sum as f64 / roots.len() as f64;
    }
    Ok(row)
}

/// The nodes of every configuration against depth, as an SVG line chart
/// (log scale): the ladder drawn solid, the switch-off rows dashed.
pub fn svg(rows: &[Row], title: &str) -> String {
    let mut series: Vec<Series> = Vec::new();
    for row in rows {
        if series.last().is_none_or(|s| s.name != row.config) {
            series.push(Series {
                name: row.config.clone(),
                points: Vec::new(),
                dashed: row.config.starts_with('-'),
            });
        }
        if let Some(s) = series.last_mut() {
            s.points.push((row.depth, row.nodes as f64));
        }
    }
    chart::svg(title, "depth (plies)", "nodes (log scale)", &series)
}

/// Nodes of this depth over nodes of the depth before (1 before depth 1);
/// `None` under a time budget, where a configuration has one row.
fn ebf(rows: &[Row], row: &Row, timed: bool) -> Option<f64> {
    if timed {
        return None;
    }
    let before = rows
        .iter()
        .find(|r| r.config == row.config && r.depth + 1 == row.depth)
        .map_or(1, |r| r.nodes);
    Some(row.nodes as f64 / before.max(1) as f64)
}

/// Nodes against plain alpha-beta's at the same depth (not under a time
/// budget, where depths differ).
fn vs_alphabeta(rows: &[Row], row: &Row, timed: bool) -> Option<f64> {
    if timed {
        return None;
    }
    rows.iter()
        .find(|r| r.config == "alphabeta" && r.depth == row.depth)
        .map(|ab| row.nodes as f64 / ab.nodes.max(1) as f64)
}

fn or_blank(value: Option<f64>, decimals: usize, blank: &str) -> String {
    value.map_or(blank.to_string(), |v| format!("{v:.decimals$}"))
}

fn write_csv(rows: &[Row], timed: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "config,depth,nodes,time_ms,ebf,first_move_cutoff,tt_hit_rate,cutoffs,tt_probes,nodes_vs_alphabeta,depth_reached"
    )?;
    for row in rows {
        writeln!(
            out,
            "{},{},{},{:.1},{},{:.4},{:.4},{},{},{},{:.2}",
            row.config,
            row.depth,
            row.nodes,
            row.time_ms,
            or_blank(ebf(rows, row, timed), 2, ""),
            row.stats.first_move_cutoff_rate(),
            row.stats.tt_hit_rate(),
            row.stats.cutoffs,
            row.stats.tt_probes,
            or_blank(vs_alphabeta(rows, row, timed), 4, ""),
            row.depth_reached
        )?;
    }
    Ok(())
}

fn write_table(rows: &[Row], timed: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let reached = |label: &str| {
        if timed {
            format!(" {label:>7}")
        } else {
            String::new()
        }
    };
    writeln!(
        out,
        "{:<20} {:>5}{} {:>12} {:>10} {:>6} {:>7} {:>7} {:>9}",
        "config",
        "depth",
        reached("reached"),
        "nodes",
        "time_ms",
        "ebf",
        "1st-cut",
        "tt-hit",
        "vs-ab"
    )?;
    for row in rows {
        writeln!(
            out,
            "{:<20} {:>5}{} {:>12} {:>10.1} {:>6} {:>6.1}% {:>6.1}% {:>9}",
            row.config,
            row.depth,
            reached(&format!("{:.2}", row.depth_reached)),
            row.nodes,
            row.time_ms,
            or_blank(ebf(rows, row, timed), 2, "-"),
            100.0 * row.stats.first_move_cutoff_rate(),
            100.0 * row.stats.tt_hit_rate(),
            or_blank(vs_alphabeta(rows, row, timed), 3, "-")
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
            movetime: None,
            max_nodes: 1_000_000,
            csv: true,
        };
        run(&options, &mut Vec::new()).unwrap()
    }

    #[test]
    fn full_is_every_switch_on_and_each_switch_has_its_row() {
        let configs = configs();
        let full = configs.iter().find(|c| c.name == "full").unwrap();
        assert_eq!(full.params, Some(SearchParams::all(true)));
        for (switch, _) in SWITCHES {
            let name = format!("-{}", switch.trim_start_matches("Use").to_lowercase());
            let row = configs.iter().find(|c| c.name == name).unwrap();
            let mut expected = SearchParams::all(true);
            expected.set(switch, false);
            assert_eq!(row.params, Some(expected), "{name}");
        }
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

    /// The tags of an XML document, checked to nest: (name, attribute
    /// text) of each element opened, in document order.
    fn elements(doc: &str) -> Vec<(String, String)> {
        let mut open: Vec<String> = Vec::new();
        let mut found = Vec::new();
        let mut rest = doc;
        while let Some(start) = rest.find('<') {
            let text = &rest[..start];
            assert!(!text.contains('>'), "stray '>' in {text:?}");
            let end = rest[start..].find('>').expect("tag closed") + start;
            let tag = &rest[start + 1..end];
            assert!(!tag.contains('<'), "'<' inside tag {tag:?}");
            assert_eq!(tag.matches('"').count() % 2, 0, "quotes in {tag:?}");
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop().as_deref(), Some(name.trim()), "closing {name}");
            } else {
                let self_closing = tag.ends_with('/');
                let body = tag.trim_end_matches('/');
                let name = body.split_whitespace().next().expect("tag name");
                assert!(name.chars().all(|c| c.is_ascii_alphanumeric()), "{name}");
                found.push((name.to_string(), body[name.len()..].to_string()));
                if !self_closing {
                    open.push(name.to_string());
                }
            }
            rest = &rest[end + 1..];
        }
        assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
        assert!(open.is_empty(), "unclosed: {open:?}");
        found
    }

    fn attribute<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
        let start = attrs.find(&format!(" {name}=\""))? + name.len() + 3;
        let len = attrs[start..].find('"')?;
        Some(&attrs[start..start + len])
    }

    #[test]
    fn the_svg_chart_is_well_formed_with_a_line_per_configuration() {
        let rows = measure(4);
        let chart = svg(&rows, "tictactoe <by depth>");
        assert!(chart.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        let tags = elements(&chart);
        assert_eq!(tags[0].0, "svg");
        assert_eq!(tags.iter().filter(|t| t.0 == "svg").count(), 1);

        // One polyline per configuration, in order, a point per depth.
        let lines: Vec<&(String, String)> = tags.iter().filter(|t| t.0 == "polyline").collect();
        let names: Vec<String> = configs().into_iter().map(|c| c.name).collect();
        assert_eq!(lines.len(), names.len());
        let mut heights = Vec::new();
        for (line, name) in lines.iter().zip(&names) {
            assert_eq!(attribute(&line.1, "data-series"), Some(name.as_str()));
            let points: Vec<(f64, f64)> = attribute(&line.1, "points")
                .unwrap()
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let depths = rows.iter().filter(|r| &r.config == name).count();
            assert_eq!(points.len(), depths, "{name}");
            assert!(points.windows(2).all(|w| w[0].0 < w[1].0), "x grows");
            heights.push(points);
        }
        // More nodes is higher up (smaller y): minimax's depth-4 point
        // lies above alpha-beta's.
        assert!(heights[0][3].1 < heights[1][3].1);

        // The log axis: one label per decade, evenly spaced, from the one
        // at or below the fewest nodes to the one at or above the most
        // (minimax's 3,610 at depth 4: 10k).
        let labels: Vec<(&str, f64)> = chart
            .lines()
            .filter(|l| l.contains("class=\"y-label\""))
            .map(|l| {
                let y = attribute(l, "y").unwrap().parse().unwrap();
                let text = &l[l.find('>').unwrap() + 1..l.rfind("</").unwrap()];
                (text, y)
            })
            .collect();
        let texts: Vec<&str> = labels.iter().map(|l| l.0).collect();
        let fewest = rows.iter().map(|r| r.nodes).min().unwrap() as f64;
        let low = fewest.log10().floor() as i32;
        let expected: Vec<String> = (low..=4).map(chart::decade_label).collect();
        assert_eq!(texts, expected);
        assert_eq!(texts.last(), Some(&"10k"));
        let gaps: Vec<f64> = labels.windows(2).map(|w| w[0].1 - w[1].1).collect();
        assert!(gaps.iter().all(|g| (g - gaps[0]).abs() < 0.2 && *g > 0.0));
        assert!(chart.contains("tictactoe &lt;by depth&gt;"));
    }

    #[test]
    fn a_time_budget_gives_one_row_per_configuration_with_the_depth_reached() {
        let options = CompareOptions {
            game: "tictactoe".into(),
            settings: Settings::default(),
            positions: Some(vec![String::new(), "b2".into()]),
            depth: None,
            movetime: Some(20),
            max_nodes: 1_000_000,
            csv: true,
        };
        let mut out = Vec::new();
        let rows = run(&options, &mut out).unwrap();
        assert_eq!(rows.len(), configs().len());
        // The least depth over the positions is at most their mean.
        for row in &rows {
            assert!(row.depth_reached >= f64::from(row.depth), "{}", row.config);
        }
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("config,depth,nodes,time_ms,ebf,first_move_cutoff,tt_hit_rate"));
        // No ratio to alpha-beta across different depths.
        assert!(text.lines().nth(1).unwrap().contains(",,"));
    }
}
