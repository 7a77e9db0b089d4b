//! Elo from a score, its error bars, and the generalized sequential
//! probability ratio test (GSPRT) as engine testers use it.
//!
//! The LLR is the normal approximation of the generalized likelihood ratio
//! for the logistic Elo model: with `n` samples (games, or game pairs for
//! the pentanomial form) of mean score `m` and variance `v`, and `s0`, `s1`
//! the expected scores of `elo0`, `elo1`,
//! `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`.
//! The test accepts H1 (elo ≥ elo1) when the LLR reaches
//! `ln((1-beta)/alpha)` and rejects it at `ln(beta/(1-alpha))`.

use super::spec::SprtSpec;

/// Expected score of an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference of an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Results from the first engine's side: games and game pairs (the two
/// games of one opening with colours swapped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Pairs by their total score: 0, 0.5, 1, 1.5, 2 points.
    pub pairs: [u32; 5],
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, in [0, 1]; 0.5 before any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Adds one game: 2 for a win, 1 for a draw, 0 for a loss (half points).
    pub fn add_game(&mut self, half_points: u32) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// Adds one pair: its total in half points, 0..=4.
    pub fn add_pair(&mut self, half_points: u32) {
        self.pairs[half_points.min(4) as usize] += 1;
    }

    fn trinomial(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let m = self.score();
        let var = (self.wins as f64 * (1.0 - m).powi(2)
            + self.draws as f64 * (0.5 - m).powi(2)
            + self.losses as f64 * m.powi(2))
            / n.max(1.0);
        (n, m, var)
    }

    fn pentanomial(&self) -> (f64, f64, f64) {
        let n: f64 = self.pairs.iter().map(|&c| c as f64).sum();
        if n == 0.0 {
            return (0.0, 0.5, 0.0);
        }
        let mean = (0..5)
            .map(|i| self.pairs[i] as f64 * i as f64 / 4.0)
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|i| self.pairs[i] as f64 * (i as f64 / 4.0 - mean).powi(2))
            .sum::<f64>()
            / n;
        (n, mean, var)
    }

    /// The Elo difference; a score of 0 or 1 counts as half a game less.
    pub fn elo(&self) -> f64 {
        let n = self.games().max(1) as f64;
        let eps = 0.5 / n;
        elo_from_score(self.score().clamp(eps, 1.0 - eps)) + 0.0
    }

    /// Half the width of the 95% interval of the Elo difference, from the
    /// standard deviation of the per-game score (from the half-game-less
    /// score when every game was won, or every game lost).
    pub fn elo_error(&self) -> f64 {
        let (n, mut m, mut var) = self.trinomial();
        if n == 0.0 {
            return 0.0;
        }
        let eps = 0.5 / n;
        if m < eps || m > 1.0 - eps {
            // All wins or all losses: no spread in the sample; take that of
            // the score counted as half a game less.
            m = m.clamp(eps, 1.0 - eps);
            var = m * (1.0 - m);
        }
        let spread = 1.959964 * (var / n).sqrt();
        let hi = (m + spread).clamp(eps, 1.0 - eps);
        let lo = (m - spread).clamp(eps, 1.0 - eps);
        (elo_from_score(hi) - elo_from_score(lo)) / 2.0
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games().max(1) as f64
    }

    /// The log-likelihood ratio from game pairs when there are any, else
    /// from single games.
    pub fn llr(&self, sprt: &SprtSpec) -> f64 {
        if self.pairs.iter().any(|&c| c > 0) {
            llr(self.pentanomial(), sprt)
        } else {
            llr(self.trinomial(), sprt)
        }
    }

    /// The test's verdict now: none before [`MIN_PAIRS`] pairs (twice as
    /// many games while no pair is complete).
    pub fn verdict(&self, sprt: &SprtSpec) -> Verdict {
        let pairs: u32 = self.pairs.iter().sum();
        let enough = if pairs > 0 {
            pairs >= MIN_PAIRS
        } else {
            self.games() >= 2 * MIN_PAIRS
        };
        if enough {
            verdict(self.llr(sprt), sprt)
        } else {
            Verdict::None
        }
    }

    pub fn llr_trinomial(&self, sprt: &SprtSpec) -> f64 {
        llr(self.trinomial(), sprt)
    }

    pub fn llr_pentanomial(&self, sprt: &SprtSpec) -> f64 {
        llr(self.pentanomial(), sprt)
    }
}

fn llr((n, mean, var): (f64, f64, f64), sprt: &SprtSpec) -> f64 {
    if n == 0.0 || var <= 0.0 {
        return 0.0;
    }
    let s0 = expected_score(sprt.elo0);
    let s1 = expected_score(sprt.elo1);
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// Pairs the test needs before it may decide. The LLR divides by the
/// sample variance, and a few pairs, most of them split one game each, make
/// that variance tiny: the LLR then crosses a bound on noise (seen: "H0
/// accepted" after 17 pairs). Thirty pairs are a small share of any real
/// test and make the variance a fair estimate.
pub const MIN_PAIRS: u32 = 30;

/// The SPRT's stopping bounds (lower, upper).
pub fn bounds(sprt: &SprtSpec) -> (f64, f64) {
    (
        (sprt.beta / (1.0 - sprt.alpha)).ln(),
        ((1.0 - sprt.beta) / sprt.alpha).ln(),
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the first engine is at least elo1 stronger.
    Accept,
    /// H0 accepted: it is at most elo0 stronger.
    Reject,
    None,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accept => "accept",
            Verdict::Reject => "reject",
            Verdict::None => "none",
        }
    }
}

/// What the test decided, after how many games, on which LLR (games
/// already under way then finish and move the LLR on).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub verdict: Verdict,
    pub games: usize,
    pub llr: f64,
}

pub fn verdict(llr: f64, sprt: &SprtSpec) -> Verdict {
    let (lower, upper) = bounds(sprt);
    if llr >= upper {
        Verdict::Accept
    } else if llr <= lower {
        Verdict::Reject
    } else {
        Verdict::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    const SPRT: SprtSpec = SprtSpec {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.848, 1e-3));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.848, 1e-3));
        assert!(close(elo_from_score(0.9), 381.697, 1e-3));
        assert!(close(expected_score(10.0), 0.514387, 1e-6));
        let t = Tally {
            wins: 30,
            draws: 20,
            losses: 10,
            ..Default::default()
        };
        assert!(close(t.score(), 2.0 / 3.0, 1e-12));
        assert!(close(t.elo(), 120.412, 1e-3));
        // Per-game variance 5/36: sd of the mean 0.048113, so the score
        // interval is 0.666667 ± 0.094299 → Elo 50.64 .. 201.16.
        assert!(close(t.elo_error(), 75.26, 0.01), "{}", t.elo_error());
    }

    #[test]
    fn perfect_scores_give_finite_elo() {
        let t = Tally {
            wins: 10,
            ..Default::default()
        };
        // Counted as 9.5 of 10.
        assert!(close(t.elo(), elo_from_score(0.95), 1e-9));
        // Spread of a 0.95 score: sd of the mean sqrt(0.0475 / 10) = 0.068920,
        // so 0.814919 .. 0.95 (clamped) → Elo 257.5 .. 511.5.
        assert!(close(t.elo_error(), 127.0, 0.01), "{}", t.elo_error());
    }

    #[test]
    fn llr_of_a_small_trinomial_sample_by_hand() {
        // W 60 D 20 L 20: mean 0.7, variance (60*0.09 + 20*0.04 + 20*0.49)/100
        // = 0.16; s0 = 0.5, s1 = 0.5143868; LLR = 100 * 0.0143868 *
        // (1.4 - 1.0143868) / 0.32 = 1.73369.
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            ..Default::default()
        };
        assert!(close(t.llr(&SPRT), 1.73369, 1e-4), "{}", t.llr(&SPRT));
        // Equal results on both sides lean towards H0.
        let even = Tally {
            wins: 10,
            draws: 20,
            losses: 10,
            ..Default::default()
        };
        // mean 0.5, variance 0.125: 40 * 0.0143868 * -0.0143868 / 0.25.
        assert!(close(even.llr(&SPRT), -0.0331186, 1e-6));
    }

    #[test]
    fn llr_of_pairs_by_hand() {
        // Pairs scoring 0, 0.5, 1, 1.5, 2 points: 5, 10, 20, 15, 10.
        // Per-pair scores 0, .25, .5, .75, 1: mean 33.75/60 = 0.5625;
        // variance 0.0846354 (by hand, over the 60 pairs).
        let t = Tally {
            pairs: [5, 10, 20, 15, 10],
            ..Default::default()
        };
        let (n, m, v) = t.pentanomial();
        assert_eq!(n, 60.0);
        assert!(close(m, 0.5625, 1e-9));
        assert!(close(v, 0.0846354, 1e-6), "{v}");
        let s0 = 0.5;
        let s1 = expected_score(10.0);
        let expected = 60.0 * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
        assert!(close(t.llr(&SPRT), expected, 1e-12));
        assert!(close(t.llr(&SPRT), 0.564093, 1e-5), "{}", t.llr(&SPRT));
    }

    #[test]
    fn sprt_bounds_and_verdicts() {
        let (lo, hi) = bounds(&SPRT);
        assert!(close(lo, -2.944439, 1e-6));
        assert!(close(hi, 2.944439, 1e-6));
        assert_eq!(verdict(3.0, &SPRT), Verdict::Accept);
        assert_eq!(verdict(-3.0, &SPRT), Verdict::Reject);
        assert_eq!(verdict(0.0, &SPRT), Verdict::None);
        // A clear winner is accepted, a clear loser rejected.
        let strong = Tally {
            wins: 300,
            draws: 100,
            losses: 100,
            ..Default::default()
        };
        assert_eq!(verdict(strong.llr(&SPRT), &SPRT), Verdict::Accept);
        let weak = Tally {
            wins: 100,
            draws: 100,
            losses: 300,
            ..Default::default()
        };
        assert_eq!(verdict(weak.llr(&SPRT), &SPRT), Verdict::Reject);
    }

    #[test]
    fn a_few_split_pairs_decide_nothing() {
        // The case seen: 17 pairs, 14 of them split, under [0, 40].
        let wide = SprtSpec { elo1: 40.0, ..SPRT };
        let few = Tally {
            wins: 14,
            draws: 0,
            losses: 20,
            pairs: [3, 0, 14, 0, 0],
        };
        assert!(few.llr(&wide) < bounds(&wide).0, "{}", few.llr(&wide));
        assert_eq!(few.verdict(&wide), Verdict::None);
        // The same spread over MIN_PAIRS pairs and more decides.
        let twice = Tally {
            wins: 28,
            draws: 0,
            losses: 40,
            pairs: [6, 0, 28, 0, 0],
        };
        assert_eq!(twice.verdict(&wide), Verdict::Reject);
        // Unpaired games need twice as many.
        let unpaired = Tally {
            wins: 10,
            draws: 0,
            losses: 49,
            ..Default::default()
        };
        assert!(unpaired.llr(&wide) < bounds(&wide).0);
        assert_eq!(unpaired.verdict(&wide), Verdict::None);
        let unpaired = Tally {
            losses: 50,
            ..unpaired
        };
        assert_eq!(unpaired.verdict(&wide), Verdict::Reject);
    }
}
