//! `ply trace`: the tree of a small search, node by node, with the
//! alpha/beta window each node was entered with, its value, the cutoffs
//! and the table's answers; as indented text or Graphviz DOT.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::engine::registry;
use crate::game::{Game, GameVisitor, Settings};
use crate::search::score::INFINITY;
use crate::search::stats::TraceEvent;
use crate::search::{SearchLimits, SearchParams, Searcher};

/// The events of a search of `fen` (the start when `None`) to `depth`.
pub fn events(
    game: &str,
    settings: &Settings,
    fen: Option<&str>,
    depth: u32,
    params: SearchParams,
) -> anyhow::Result<Vec<TraceEvent>> {
    struct Record<'a> {
        fen: Option<&'a str>,
        depth: u32,
        params: SearchParams,
    }
    impl GameVisitor for Record<'_> {
        type Output = anyhow::Result<Vec<TraceEvent>>;
        fn visit<G: Game>(self, settings: &Settings) -> Self::Output {
            let pos = match self.fen {
                Some(fen) => G::from_fen(fen, settings),
                None => G::start(settings),
            }
            .map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut searcher = Searcher::<G>::new(1, self.params).map_err(anyhow::Error::msg)?;
            searcher.stats.record_tree();
            let limits = SearchLimits {
                depth: Some(self.depth),
                ..Default::default()
            };
            searcher.search(&pos, &limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
            Ok(searcher.stats.trace.take().unwrap_or_default())
        }
    }
    registry::visit(game, settings, Record { fen, depth, params }).map_err(anyhow::Error::msg)?
}

fn bound(value: i32) -> String {
    if value >= INFINITY {
        "+inf".into()
    } else if value <= -INFINITY {
        "-inf".into()
    } else {
        value.to_string()
    }
}

/// Indented text: one line per node entered, notes under it, its value.
pub fn text(events: &[TraceEvent], out: &mut dyn Write) -> std::io::Result<()> {
    let mut indent = 0usize;
    for event in events {
        let pad = "  ".repeat(indent);
        match event {
            TraceEvent::Enter {
                mv,
                depth,
                alpha,
                beta,
                ..
            } => {
                writeln!(
                    out,
                    "{pad}{} depth {depth} window [{}, {}]",
                    mv.as_deref().unwrap_or("root"),
                    bound(*alpha),
                    bound(*beta)
                )?;
                indent += 1;
            }
            TraceEvent::TableHit { score } => writeln!(out, "{pad}  table answers {score}")?,
            TraceEvent::Cutoff { index } => {
                writeln!(out, "{pad}  cutoff by move {} tried", index + 1)?
            }
            TraceEvent::Exit { value } => {
                writeln!(out, "{pad}= {}", bound(*value))?;
                indent = indent.saturating_sub(1);
            }
        }
    }
    Ok(())
}

/// Graphviz DOT: a node per search node labelled with its window and
/// value; cut nodes boxed, table answers filled.
pub fn dot(events: &[TraceEvent], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "digraph search {{")?;
    writeln!(out, "  node [shape=ellipse, fontname=\"monospace\"];")?;
    let mut stack: Vec<(usize, String, Vec<&'static str>)> = Vec::new();
    let mut next = 0usize;
    for event in events {
        match event {
            TraceEvent::Enter {
                mv,
                depth,
                alpha,
                beta,
                ..
            } => {
                let id = next;
                next += 1;
                if let Some((parent, ..)) = stack.last() {
                    writeln!(
                        out,
                        "  n{parent} -> n{id} [label=\"{}\"];",
                        mv.as_deref().unwrap_or("")
                    )?;
                }
                let label = format!("d{depth} [{}, {}]", bound(*alpha), bound(*beta));
                stack.push((id, label, Vec::new()));
            }
            TraceEvent::TableHit { .. } => {
                if let Some(top) = stack.last_mut() {
                    top.2.push("style=filled, fillcolor=lightblue");
                }
            }
            TraceEvent::Cutoff { .. } => {
                if let Some(top) = stack.last_mut() {
                    top.2.push("shape=box");
                }
            }
            TraceEvent::Exit { value } => {
                if let Some((id, label, styles)) = stack.pop() {
                    let extra: String = styles.iter().map(|s| format!(", {s}")).collect();
                    writeln!(
                        out,
                        "  n{id} [label=\"{label}\\n= {}\"{extra}];",
                        bound(*value)
                    )?;
                }
            }
        }
    }
    writeln!(out, "}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tic-tac-toe, X to move; O threatens b1 (column b), so every X move
    /// but b1 loses at once:
    ///
    /// ```text
    /// x o x
    /// . o .
    /// . . .
    /// ```
    const FEN: &str = "xox/1o1/3 x";

    /// Every line below was checked by hand: values are the side to
    /// move's; depth 1 runs first (iterative deepening); the first move
    /// gets the full window narrowed by mate-distance pruning, the others
    /// a null window (PVS) and a re-search when they land inside it (b1 at
    /// depth 1); at depth 2 every X move but b1 meets O's win on b1, a
    /// cutoff, worth 29998 (a win two plies from the root).
    const EXPECTED: &str = "\
root depth 1 window [-inf, +inf]
  a1 depth 0 window [-29999, 30000]
    = -3
  c1 depth 0 window [-4, -3]
    = -3
  b1 depth 0 window [-4, -3]
    = -6
  b1 depth 0 window [-29999, -3]
    = -6
  a2 depth 0 window [-7, -6]
    = -3
  c2 depth 0 window [-7, -6]
    = -3
  = 6
root depth 2 window [-inf, +inf]
  b1 depth 1 window [-29999, 30000]
    a1 depth 0 window [-29998, 29999]
      = 0
    c1 depth 0 window [-1, 0]
      = 0
    a2 depth 0 window [-1, 0]
      = -4
    a2 depth 0 window [-29998, 0]
      = -4
    c2 depth 0 window [-5, -4]
      = -4
    = 4
  a1 depth 1 window [3, 4]
    c1 depth 0 window [-4, -3]
      = -3
    b1 depth 0 window [-4, -3]
      = -29998
      cutoff by move 2 tried
    = 29998
  c1 depth 1 window [3, 4]
    b1 depth 0 window [-4, -3]
      = -29998
      cutoff by move 1 tried
    = 29998
  a2 depth 1 window [3, 4]
    b1 depth 0 window [-4, -3]
      = -29998
      cutoff by move 1 tried
    = 29998
  c2 depth 1 window [3, 4]
    b1 depth 0 window [-4, -3]
      = -29998
      cutoff by move 1 tried
    = 29998
  = -4
";

    /// The text trace of the search of [`FEN`] to `depth`, all switches on.
    fn trace(depth: u32) -> String {
        let params = SearchParams::default();
        let events = events("tictactoe", &Settings::default(), Some(FEN), depth, params);
        let mut out = Vec::new();
        text(&events.unwrap(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_trace_of_a_tiny_tictactoe_search_is_exact() {
        assert_eq!(trace(2), EXPECTED);
    }

    #[test]
    fn table_answers_appear_in_a_deeper_trace() {
        // Depth 3 reaches positions already searched through another
        // move order; the table answers them.
        let text = trace(3);
        assert_eq!(text.matches("table answers").count(), 3);
        // Every node entered is left: as many values as nodes.
        let entered = text.lines().filter(|l| l.contains(" window [")).count();
        let left = text
            .lines()
            .filter(|l| l.trim_start().starts_with("= "))
            .count();
        assert_eq!(entered, left);
    }
}
