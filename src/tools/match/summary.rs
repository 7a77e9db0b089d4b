//! Tallies per pairing and the final report: a summary per pairing, the
//! SPRT verdict, the referee's overhead and the JSON line.

use std::collections::HashMap;
use std::io::Write;
use std::time::Duration;

use serde::Serialize;

use super::referee::{GameResult, Termination};
use super::spec::SprtSpec;
use super::stats::{self, Decision, Tally, Verdict};
use crate::game::{Outcome, Player as Side};

/// Losses of one engine by cause.
#[derive(Clone, Copy, Debug, Default)]
pub struct Causes {
    pub time: u32,
    pub illegal: u32,
    pub crash: u32,
    pub garbage: u32,
}

impl Causes {
    pub fn add(&mut self, t: &Termination) {
        match t {
            Termination::Normal => {}
            Termination::Time(_) => self.time += 1,
            Termination::Illegal(..) => self.illegal += 1,
            Termination::Crash(..) => self.crash += 1,
            Termination::Garbage(..) => self.garbage += 1,
        }
    }
}

/// Results of one pairing, from its first engine's side.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    pub tally: Tally,
    pub own: Causes,
    pub opponent: Causes,
    /// Half points of the first finished game of each pair.
    half_pairs: HashMap<usize, u32>,
}

impl PairingStats {
    /// Adds a game in which the pairing's first engine had `side_of_first`;
    /// `pair` numbers the colour-swapped pair it belongs to.
    pub fn add(&mut self, side_of_first: Side, pair: usize, result: &GameResult) {
        let half = match result.outcome {
            Outcome::Win(s) if s == side_of_first => 2,
            Outcome::Draw => 1,
            Outcome::Win(_) => 0,
        };
        self.tally.add_game(half);
        if let Some(loser) = result.termination.loser() {
            if loser == side_of_first {
                self.own.add(&result.termination);
            } else {
                self.opponent.add(&result.termination);
            }
        }
        match self.half_pairs.remove(&pair) {
            Some(other) => self.tally.add_pair(other + half),
            None => {
                self.half_pairs.insert(pair, half);
            }
        }
    }

    /// Adds another pairing's results; `flip` when this side is its second
    /// engine.
    pub fn merge(&mut self, other: &PairingStats, flip: bool) {
        let t = &other.tally;
        let (w, l) = if flip {
            (t.losses, t.wins)
        } else {
            (t.wins, t.losses)
        };
        self.tally.wins += w;
        self.tally.losses += l;
        self.tally.draws += t.draws;
        for i in 0..5 {
            let j = if flip { 4 - i } else { i };
            self.tally.pairs[i] += t.pairs[j];
        }
        let (own, opp) = if flip {
            (other.opponent, other.own)
        } else {
            (other.own, other.opponent)
        };
        for (mine, theirs) in [(&mut self.own, own), (&mut self.opponent, opp)] {
            mine.time += theirs.time;
            mine.illegal += theirs.illegal;
            mine.crash += theirs.crash;
            mine.garbage += theirs.garbage;
        }
    }
}

pub fn fmt_elo(t: &Tally) -> String {
    format!("{:+.1} ± {:.1}", t.elo(), t.elo_error())
}

pub fn median(mut v: Vec<Duration>) -> Option<Duration> {
    if v.is_empty() {
        return None;
    }
    v.sort();
    Some(v[v.len() / 2])
}

/// Everything the final report shows.
pub struct Report<'a> {
    pub game: &'a str,
    pub time_control: &'a str,
    pub played: usize,
    pub names: &'a [String],
    pub pairings: &'a [(usize, usize)],
    pub per_pairing: &'a [PairingStats],
    /// The first engine's results over all its pairings.
    pub first: &'a PairingStats,
    pub sprt: Option<&'a SprtSpec>,
    pub decision: Option<Decision>,
    /// The referee's own time per move, every move of the match.
    pub overhead: Vec<Duration>,
}

impl Report<'_> {
    /// The summary lines, then the JSON line last.
    pub fn write(self, out: &mut dyn Write) -> std::io::Result<()> {
        let Report {
            game,
            time_control: tc_text,
            played,
            names,
            pairings,
            per_pairing,
            first: view,
            sprt,
            decision,
            overhead,
        } = self;
        // The summary: one line per pairing, then the first engine's totals.
        writeln!(out, "{game} match at {tc_text}: {played} games played")?;
        for (p, &(i, j)) in pairings.iter().enumerate() {
            let s = &per_pairing[p];
            let t = &s.tally;
            writeln!(
                out,
                "{} vs {}: {} games, +{} ={} -{}, score {:.1}%, Elo {} (95%), draws {:.1}%",
                names[i],
                names[j],
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                fmt_elo(t),
                100.0 * t.draw_ratio()
            )?;
            writeln!(
                out,
                "  losses of {}: time {}, illegal {}, crash {}, non-move {}; of {}: time {}, illegal {}, crash {}, non-move {}",
                names[i],
                s.own.time,
                s.own.illegal,
                s.own.crash,
                s.own.garbage,
                names[j],
                s.opponent.time,
                s.opponent.illegal,
                s.opponent.crash,
                s.opponent.garbage
            )?;
        }
        let t = &view.tally;
        if pairings.len() > 1 {
            writeln!(
                out,
                "{} overall: {} games, +{} ={} -{}, score {:.1}%, Elo {} (95%)",
                names[0],
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                fmt_elo(t)
            )?;
        }
        // The LLR the verdict rests on: at the decision when there was one.
        let llr = sprt
            .as_ref()
            .map(|s| decision.map_or_else(|| t.llr(s), |d| d.llr));
        if let (Some(s), Some(llr)) = (&sprt, llr) {
            let (lo, hi) = stats::bounds(s);
            let verdict = match decision.map(|d| d.verdict) {
                Some(Verdict::Accept) => "H1 accepted",
                Some(Verdict::Reject) => "H0 accepted (H1 rejected)",
                Some(Verdict::None) | None => "no decision",
            };
            let when = match decision {
                Some(d) if d.games < played => format!(
                    " after {} games (LLR {:.3} with the {} games that finished after it)",
                    d.games,
                    t.llr(s),
                    played - d.games
                ),
                Some(d) => format!(" after {} games", d.games),
                None => String::new(),
            };
            writeln!(
                out,
                "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.3} ({lo:.3}, {hi:.3}) {verdict}{when}",
                s.elo0, s.elo1, s.alpha, s.beta,
            )?;
        }
        let overhead_us = median(overhead).map_or(0, |d| d.as_micros() as u64);
        writeln!(out, "referee overhead per move: median {overhead_us} us")?;
        let line = JsonSummary {
            games: t.games(),
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            score: rounded(t.score(), 4),
            elo: rounded(t.elo(), 2),
            elo_error: rounded(t.elo_error(), 2),
            draw_ratio: rounded(t.draw_ratio(), 4),
            time_losses: view.own.time,
            illegal: view.own.illegal,
            crashes: view.own.crash,
            garbage: view.own.garbage,
            opponent_time_losses: view.opponent.time,
            opponent_illegal: view.opponent.illegal,
            opponent_crashes: view.opponent.crash,
            opponent_garbage: view.opponent.garbage,
            pairs: t.pairs,
            llr: llr.map(|l| rounded(l, 4)),
            sprt: decision.map_or(Verdict::None, |d| d.verdict).as_str(),
            sprt_games: decision.map(|d| d.games),
            overhead_us_median: overhead_us,
        };
        let json = serde_json::to_string(&line).map_err(std::io::Error::other)?;
        writeln!(out, "{json}")?;
        out.flush()
    }
}

/// The summary's last line, for scripts: serialised from this struct, so
/// that a field cannot drift from its name.
#[derive(Serialize)]
struct JsonSummary {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    score: f64,
    elo: f64,
    elo_error: f64,
    draw_ratio: f64,
    time_losses: u32,
    illegal: u32,
    crashes: u32,
    garbage: u32,
    opponent_time_losses: u32,
    opponent_illegal: u32,
    opponent_crashes: u32,
    opponent_garbage: u32,
    pairs: [u32; 5],
    llr: Option<f64>,
    sprt: &'static str,
    sprt_games: Option<usize>,
    overhead_us_median: u64,
}

/// `x` to `places` decimals, as the line has always given it.
fn rounded(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(outcome: Outcome, termination: Termination) -> GameResult {
        GameResult {
            outcome,
            termination,
            moves: Vec::new(),
            overhead: Vec::new(),
        }
    }

    #[test]
    fn games_pairs_and_causes_are_counted_from_the_first_side() {
        let mut s = PairingStats::default();
        // Pair 0: the first engine wins as P1, then loses on time as P2.
        s.add(
            Side::P1,
            0,
            &game(Outcome::Win(Side::P1), Termination::Normal),
        );
        s.add(
            Side::P2,
            0,
            &game(Outcome::Win(Side::P1), Termination::Time(Side::P2)),
        );
        // Pair 1: a draw, and the opponent's illegal move.
        s.add(Side::P1, 1, &game(Outcome::Draw, Termination::Normal));
        s.add(
            Side::P2,
            1,
            &game(
                Outcome::Win(Side::P2),
                Termination::Illegal(Side::P1, "z9".into()),
            ),
        );
        assert_eq!((s.tally.wins, s.tally.draws, s.tally.losses), (2, 1, 1));
        assert_eq!(s.tally.pairs, [0, 0, 1, 1, 0]);
        assert_eq!((s.own.time, s.opponent.illegal), (1, 1));
        let mut flipped = PairingStats::default();
        flipped.merge(&s, true);
        assert_eq!(
            (
                flipped.tally.wins,
                flipped.tally.losses,
                flipped.tally.pairs
            ),
            (1, 2, [0, 1, 1, 0, 0])
        );
        assert_eq!((flipped.opponent.time, flipped.own.illegal), (1, 1));
    }
}
