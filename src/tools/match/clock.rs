//! Time controls and the referee's own clocks.

use std::time::Duration;

use crate::game::Player as Side;

/// How long each move may take, as the match was asked to play.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock per player and game: base time plus an increment per move,
    /// and, as in Gomocup, at most `turn_ms` for any one move (0: no
    /// such limit).
    Clock {
        base_ms: u64,
        inc_ms: u64,
        turn_ms: u64,
    },
    /// A fixed time per move.
    MoveTime(u64),
    /// A fixed search depth (no clock; a hard cap still guards the referee).
    Depth(u32),
    /// A fixed node count (likewise).
    Nodes(u64),
}

impl TimeControl {
    /// The limit one engine plays under: its own node budget (`nodes=`
    /// in its spec) in place of the match's in a `--nodes` match.
    pub fn for_engine(self, nodes: Option<u64>) -> TimeControl {
        match (self, nodes) {
            (TimeControl::Nodes(_), Some(n)) => TimeControl::Nodes(n),
            (tc, _) => tc,
        }
    }

    /// `SECONDS[/TURN][+INC]`, all in seconds (fractions allowed): the
    /// game's time per player, the most one move may take (Gomocup's
    /// `timeout_turn`; without it, the clock is the only limit) and the
    /// increment per move.
    pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
        let seconds = |t: &str| -> Result<u64, String> {
            let v: f64 = t.trim().parse().map_err(|_| {
                format!("--tc '{text}': expected SECONDS[/TURN][+INC], like 10+0.1 or 120/5")
            })?;
            if !v.is_finite() || !(0.0..=1.0e7).contains(&v) {
                return Err(format!("--tc '{text}': time out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let (clock, inc) = match text.split_once('+') {
            Some((c, i)) => (c, seconds(i)?),
            None => (text, 0),
        };
        let (base, turn) = match clock.split_once('/') {
            Some((b, t)) => (seconds(b)?, Some(seconds(t)?)),
            None => (seconds(clock)?, None),
        };
        if base == 0 && inc == 0 {
            return Err(format!("--tc '{text}': the clock must not be zero"));
        }
        if turn == Some(0) {
            return Err(format!("--tc '{text}': the turn limit must not be zero"));
        }
        Ok(TimeControl::Clock {
            base_ms: base,
            inc_ms: inc,
            turn_ms: turn.unwrap_or(0),
        })
    }

    /// The most one move may take, when the time control sets it apart
    /// from the clock.
    pub fn turn_limit_ms(&self) -> Option<u64> {
        match *self {
            TimeControl::Clock { turn_ms, .. } if turn_ms > 0 => Some(turn_ms),
            _ => None,
        }
    }

    pub fn describe(&self) -> String {
        match *self {
            TimeControl::Clock {
                base_ms,
                inc_ms,
                turn_ms,
            } => {
                let secs = |ms: u64| ms as f64 / 1000.0;
                let turn = if turn_ms > 0 {
                    format!("/{}", secs(turn_ms))
                } else {
                    String::new()
                };
                format!("{}{turn}+{}", secs(base_ms), secs(inc_ms))
            }
            TimeControl::MoveTime(ms) => format!("movetime {ms} ms"),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// The clocks of one game, as the referee measures them.
#[derive(Clone, Debug)]
pub struct Clocks {
    pub tc: TimeControl,
    /// Time left per side (P1 first), for a clock time control.
    pub left: [Duration; 2],
    /// Extra time the referee grants before it calls a move late.
    pub margin: Duration,
    /// The longest a depth- or node-limited move may take.
    pub cap: Duration,
}

impl Clocks {
    pub fn new(tc: TimeControl, margin: Duration, cap: Duration) -> Clocks {
        let base = match tc {
            TimeControl::Clock { base_ms, .. } => Duration::from_millis(base_ms),
            _ => Duration::ZERO,
        };
        Clocks {
            tc,
            left: [base; 2],
            margin,
            cap,
        }
    }

    /// What the side to move may use for this move, before the margin:
    /// the time left on its clock, or the turn limit when that is less.
    pub fn allowed(&self, side: Side) -> Duration {
        match self.tc {
            TimeControl::Clock { turn_ms, .. } if turn_ms > 0 => {
                self.left[side.index()].min(Duration::from_millis(turn_ms))
            }
            TimeControl::Clock { .. } => self.left[side.index()],
            TimeControl::MoveTime(ms) => Duration::from_millis(ms),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => self.cap,
        }
    }

    /// How long the referee waits for a reply before it kills the engine.
    pub fn wait(&self, side: Side) -> Duration {
        self.allowed(side) + self.margin
    }

    /// Charges a move that took `used`; `false` when it was too late.
    pub fn charge(&mut self, side: Side, used: Duration) -> bool {
        if used > self.wait(side) {
            return false;
        }
        if let TimeControl::Clock { inc_ms, .. } = self.tc {
            let left = &mut self.left[side.index()];
            *left = left.saturating_sub(used) + Duration::from_millis(inc_ms);
        }
        true
    }

    pub fn left_ms(&self, side: Side) -> u64 {
        self.left[side.index()].as_millis() as u64
    }

    pub fn inc_ms(&self) -> u64 {
        match self.tc {
            TimeControl::Clock { inc_ms, .. } => inc_ms,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tc_parses_seconds_and_increment() {
        assert_eq!(
            TimeControl::parse_tc("10+0.1"),
            Ok(TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 100,
                turn_ms: 0
            })
        );
        assert_eq!(
            TimeControl::parse_tc("0.5"),
            Ok(TimeControl::Clock {
                base_ms: 500,
                inc_ms: 0,
                turn_ms: 0
            })
        );
        assert_eq!(
            TimeControl::parse_tc("120/5"),
            Ok(TimeControl::Clock {
                base_ms: 120_000,
                inc_ms: 0,
                turn_ms: 5_000
            })
        );
        assert_eq!(
            TimeControl::parse_tc("180/30+0.5").map(|tc| tc.describe()),
            Ok("180/30+0.5".to_string())
        );
        assert!(TimeControl::parse_tc("120/0").is_err());
        assert!(TimeControl::parse_tc("120/x").is_err());
        assert!(TimeControl::parse_tc("ten").is_err());
        assert!(TimeControl::parse_tc("0+0").is_err());
        assert!(TimeControl::parse_tc("-1+0").is_err());
    }

    #[test]
    fn clock_charges_time_and_adds_increment() {
        let tc = TimeControl::Clock {
            base_ms: 1000,
            inc_ms: 100,
            turn_ms: 0,
        };
        let mut c = Clocks::new(tc, Duration::from_millis(50), Duration::from_secs(60));
        assert!(c.charge(Side::P1, Duration::from_millis(300)));
        assert_eq!(c.left_ms(Side::P1), 800);
        assert_eq!(c.left_ms(Side::P2), 1000);
        // Late, but within the margin: the clock stops at zero.
        assert!(c.charge(Side::P1, Duration::from_millis(840)));
        assert_eq!(c.left_ms(Side::P1), 100);
        assert!(!c.charge(Side::P1, Duration::from_millis(151)));
    }

    #[test]
    fn a_turn_limit_caps_each_move_below_the_clock() {
        let tc = TimeControl::parse_tc("120/5").unwrap();
        let mut c = Clocks::new(tc, Duration::from_millis(50), Duration::from_secs(60));
        assert_eq!(c.allowed(Side::P1), Duration::from_secs(5));
        // Within the turn and its margin: charged to the game's clock.
        assert!(c.charge(Side::P1, Duration::from_millis(5_040)));
        assert_eq!(c.left_ms(Side::P1), 114_960);
        // Over the turn limit, though the clock has plenty left: late.
        assert!(!c.charge(Side::P1, Duration::from_millis(5_051)));
        // Once the clock holds less than a turn, the clock is the limit.
        c.left[1] = Duration::from_millis(2_000);
        assert_eq!(c.allowed(Side::P2), Duration::from_secs(2));
        assert!(!c.charge(Side::P2, Duration::from_millis(2_051)));
    }
}
