//! The one clock of a search: when it started, its deadlines (a late
//! clock's once pondering ends), its node limit and the stop flag. Every
//! question of time the search asks (is it over, how long has it run, how
//! much is left, a share of what is left) is asked of it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::time::Budget;

/// A search's clock. Cloning it shares the stop flag and the late clock.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    /// No new iteration starts after it.
    soft: Option<Instant>,
    /// The search gives up at it.
    hard: Option<Instant>,
    /// The search gives up after this many nodes (`u64::MAX`: never).
    node_limit: u64,
    stop: Arc<AtomicBool>,
    /// A clock that starts during the search (pondering): once it has, its
    /// deadlines replace these.
    late: Option<Arc<LateClock>>,
}

impl Default for Clock {
    /// Running from now, with no limit and a stop flag of its own.
    fn default() -> Clock {
        Clock::unlimited(Arc::new(AtomicBool::new(false)))
    }
}

impl Clock {
    /// Running from now with no limit but `stop`.
    pub fn unlimited(stop: Arc<AtomicBool>) -> Clock {
        Clock {
            start: Instant::now(),
            soft: None,
            hard: None,
            node_limit: u64::MAX,
            stop,
            late: None,
        }
    }

    /// Running from now: `budget`'s deadlines, at most `nodes` nodes, a
    /// `late` clock that may replace the deadlines, and `stop`.
    pub fn start(
        budget: Budget,
        nodes: Option<u64>,
        late: Option<Arc<LateClock>>,
        stop: Arc<AtomicBool>,
    ) -> Clock {
        let start = Instant::now();
        Clock {
            start,
            soft: budget.soft.map(|d| start + d),
            hard: budget.hard.map(|d| start + d),
            node_limit: nodes.unwrap_or(u64::MAX),
            stop,
            late,
        }
    }

    /// A clock for part of this search, running from now: it gives up at
    /// `hard` (or never) and after `nodes` nodes, or when this one is
    /// stopped.
    pub fn part(&self, hard: Option<Instant>, nodes: u64) -> Clock {
        Clock {
            hard,
            node_limit: nodes,
            ..Clock::unlimited(Arc::clone(&self.stop))
        }
    }

    /// A `1/share` part of what is left of this clock, from now: of the
    /// time to the hard deadline, and of the nodes left after `nodes`.
    pub fn share_of_left(&self, nodes: u64, share: u32) -> Clock {
        let now = Instant::now();
        let hard = self
            .hard
            .map(|t| now + t.saturating_duration_since(now) / share);
        let node_limit =
            nodes.saturating_add(self.node_limit.saturating_sub(nodes) / u64::from(share));
        Clock {
            start: now,
            hard,
            node_limit,
            ..Clock::unlimited(Arc::clone(&self.stop))
        }
    }

    /// When the search started.
    pub fn started(&self) -> Instant {
        self.start
    }

    /// Counts the time from now (a solve that times itself).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    /// Counts the time from `at` again (after [`Self::restart`]).
    pub fn restart_at(&mut self, at: Instant) {
        self.start = at;
    }

    /// The time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time from the start to the soft deadline.
    pub fn soft_span(&self) -> Option<Duration> {
        self.soft.map(|t| t - self.start)
    }

    /// The moment `share` of the way from the start to the soft deadline.
    pub fn soft_share(&self, share: f64) -> Option<Instant> {
        self.soft_span()
            .map(|span| self.start + span.mul_f64(share))
    }

    /// When the search gives up, if it has a deadline (before a late
    /// clock starts, none).
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard
    }

    /// The nodes after which the search gives up (`u64::MAX`: no limit).
    pub fn node_limit(&self) -> u64 {
        self.node_limit
    }

    fn has_node_limit(&self) -> bool {
        self.node_limit != u64::MAX
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Takes the deadlines of the late clock once it has started.
    fn poll_late(&mut self) {
        if let Some(late) = &self.late
            && let Some((from, budget)) = late.started()
        {
            self.soft = budget.soft.map(|d| from + d);
            self.hard = budget.hard.map(|d| from + d);
            self.late = None;
        }
    }

    /// Stopped, or past the hard deadline (a late clock's, once started).
    pub fn expired(&mut self) -> bool {
        self.poll_late();
        self.run_out()
    }

    /// Stopped, or past the hard deadline as it stands.
    pub fn run_out(&self) -> bool {
        self.stopped() || self.hard.is_some_and(|t| Instant::now() >= t)
    }

    /// [`Self::run_out`], or `nodes` at the node limit.
    pub fn run_out_at(&self, nodes: u64) -> bool {
        self.run_out() || nodes >= self.node_limit
    }

    /// The budget as it stands, measured from the start (a late clock's,
    /// once started).
    pub fn budget(&mut self) -> Budget {
        self.poll_late();
        Budget {
            soft: self.soft.map(|t| t.saturating_duration_since(self.start)),
            hard: self.hard.map(|t| t.saturating_duration_since(self.start)),
        }
    }

    /// Milliseconds left: of the time to the hard deadline, and of the
    /// node limit counted as time at `nodes_per_ms` after `nodes`; the
    /// lesser when both are set, `None` when neither is.
    pub fn left_ms(&self, nodes: u64, nodes_per_ms: u64) -> Option<u64> {
        let time = self
            .hard
            .map(|t| t.saturating_duration_since(Instant::now()).as_millis() as u64);
        let nodes = self
            .has_node_limit()
            .then(|| self.node_limit.saturating_sub(nodes) / nodes_per_ms);
        time.into_iter().chain(nodes).min()
    }
}

/// A clock that starts after its search: a ponder search runs without one
/// until [`LateClock::start`] hands it the move's budget, counted from
/// that moment.
#[derive(Debug, Default)]
pub struct LateClock {
    started: AtomicBool,
    plan: Mutex<Option<(Instant, Budget)>>,
}

impl LateClock {
    /// The clock runs from now with `budget`.
    pub fn start(&self, budget: Budget) {
        *self.plan.lock().unwrap_or_else(PoisonError::into_inner) = Some((Instant::now(), budget));
        self.started.store(true, Ordering::Release);
    }

    /// When the clock started, and its budget; `None` before.
    pub fn started(&self) -> Option<(Instant, Budget)> {
        if !self.started.load(Ordering::Acquire) {
            return None;
        }
        *self.plan.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_of_what_is_left_divides_time_and_nodes() {
        let budget = Budget {
            soft: Some(Duration::from_secs(50)),
            hard: Some(Duration::from_secs(100)),
        };
        let clock = Clock::start(budget, Some(10_000), None, Arc::default());
        let part = clock.share_of_left(2_000, 4);
        assert_eq!(part.node_limit(), 4_000);
        let left = part.hard_deadline().unwrap() - Instant::now();
        assert!(left <= Duration::from_secs(25) && left > Duration::from_secs(24));
        assert!(!part.run_out_at(3_999) && part.run_out_at(4_000));
        assert_eq!(clock.left_ms(2_000, 1_000), Some(8));
        assert_eq!(clock.soft_span(), Some(Duration::from_secs(50)));
    }

    #[test]
    fn a_late_clock_replaces_the_deadlines_once_started() {
        let late = Arc::new(LateClock::default());
        let mut clock = Clock::start(
            Budget::default(),
            None,
            Some(Arc::clone(&late)),
            Arc::default(),
        );
        assert_eq!(clock.budget(), Budget::default());
        assert!(!clock.expired());
        late.start(Budget {
            soft: Some(Duration::ZERO),
            hard: Some(Duration::ZERO),
        });
        assert!(clock.expired());
        assert!(clock.budget().hard.is_some());
    }

    #[test]
    fn stop_ends_every_part() {
        let stop = Arc::new(AtomicBool::new(false));
        let clock = Clock::unlimited(Arc::clone(&stop));
        let part = clock.part(None, u64::MAX);
        assert!(!part.run_out());
        stop.store(true, Ordering::Relaxed);
        assert!(part.run_out() && clock.share_of_left(0, 8).run_out());
    }
}
