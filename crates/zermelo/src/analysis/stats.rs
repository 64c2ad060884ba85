//! The statistics of results: shares with 95 % confidence intervals (Wilson score), and
//! the mean and spread of a quantity.

use serde::Serialize;

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A share of `n` trials with its 95 % confidence interval, all in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Share {
    /// The observed share.
    pub share: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Share {
    /// The Wilson score interval of `hits` out of `n` (`hits` may be fractional, e.g.
    /// points with draws as halves); the whole of 0..=1 when `n` is 0.
    pub fn wilson(hits: f64, n: u64) -> Share {
        if n == 0 {
            return Share {
                share: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let n = n as f64;
        let p = (hits / n).clamp(0.0, 1.0);
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // The interval always holds `p`: at 0 or 1 rounding could leave it a hair outside.
        Share {
            share: p,
            low: (centre - half).max(0.0).min(p),
            high: (centre + half).min(1.0).max(p),
        }
    }

    /// The interval's width.
    pub fn width(&self) -> f64 {
        self.high - self.low
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// The running mean and spread of a quantity (Welford's method).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    n: u64,
    mean: f64,
    squares: f64,
}

impl Spread {
    /// Adds one observation.
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.squares += d * (x - self.mean);
    }

    /// Adds every observation of `other`.
    pub fn merge(&mut self, other: &Spread) {
        if other.n == 0 {
            return;
        }
        let n = self.n + other.n;
        let d = other.mean - self.mean;
        self.squares += other.squares + d * d * (self.n as f64 * other.n as f64) / n as f64;
        self.mean += d * other.n as f64 / n as f64;
        self.n = n;
    }

    /// How many observations.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// Their mean (0 when there are none).
    pub fn mean(&self) -> f64 {
        self.mean
    }

    /// Their sample standard deviation (0 for fewer than two).
    pub fn sd(&self) -> f64 {
        match self.n {
            0 | 1 => 0.0,
            n => (self.squares / (n - 1) as f64).sqrt(),
        }
    }

    /// The mean, the spread and the mean's 95 % confidence interval (normal
    /// approximation: the mean ± [`Z95`] standard errors).
    pub fn summary(&self) -> Mean {
        let half = match self.n {
            0 => 0.0,
            n => Z95 * self.sd() / (n as f64).sqrt(),
        };
        Mean {
            mean: self.mean,
            sd: self.sd(),
            low: self.mean - half,
            high: self.mean + half,
        }
    }
}

/// A mean with the spread of what was averaged and the mean's 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation of the observations.
    pub sd: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wilson_interval_matches_its_formula_on_known_cases() {
        // 0 of 10: the upper end is z²/(n + z²).
        let none = Share::wilson(0.0, 10);
        assert_eq!(none.low, 0.0);
        assert!((none.high - Z95 * Z95 / (10.0 + Z95 * Z95)).abs() < 1e-12);
        // Symmetric about one half.
        let half = Share::wilson(50.0, 100);
        assert!((half.low + half.high - 1.0).abs() < 1e-12);
        assert!((half.low - 0.4038).abs() < 1e-4, "{half:?}");
        let all = Share::wilson(7.0, 7);
        assert_eq!(all.high, 1.0);
        assert!(all.low > 0.6 && all.contains(1.0));
        for n in 1..200 {
            assert!(Share::wilson(n as f64, n).contains(1.0), "{n}");
            assert!(Share::wilson(0.0, n).contains(0.0), "{n}");
        }
        assert_eq!(Share::wilson(0.0, 0).width(), 1.0);
    }

    #[test]
    fn the_interval_holds_the_share_and_narrows_with_more_trials() {
        for n in 1..300 {
            for hits in [0.0, 0.5, n as f64 / 3.0, n as f64 - 0.5, n as f64] {
                let s = Share::wilson(hits, n);
                assert!(s.contains(hits / n as f64), "{hits} of {n}: {s:?}");
            }
            let (few, many) = (Share::wilson(n as f64 / 2.0, n), Share::wilson(n as f64, 2 * n));
            assert!(many.width() < few.width(), "{n}");
        }
    }

    #[test]
    fn spreads_merge_as_if_added_one_by_one() {
        let xs = [3.0, 7.0, 7.0, 19.0, 1.0, 4.5];
        let mut all = Spread::default();
        xs.iter().for_each(|&x| all.add(x));
        let (mut a, mut b) = (Spread::default(), Spread::default());
        xs[..2].iter().for_each(|&x| a.add(x));
        xs[2..].iter().for_each(|&x| b.add(x));
        a.merge(&b);
        assert_eq!(a.count(), 6);
        assert!((a.mean() - all.mean()).abs() < 1e-12);
        assert!((a.sd() - all.sd()).abs() < 1e-12);
        assert!((all.mean() - 41.5 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn a_mean_interval_is_the_mean_plus_or_minus_its_standard_errors() {
        let mut s = Spread::default();
        [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
            .iter()
            .for_each(|&x| s.add(x));
        let m = s.summary();
        assert_eq!(m.mean, 5.0);
        let half = Z95 * m.sd / 8f64.sqrt();
        assert!((m.low - (5.0 - half)).abs() < 1e-12 && (m.high - (5.0 + half)).abs() < 1e-12);
        let none = Spread::default().summary();
        assert_eq!((none.mean, none.low, none.high), (0.0, 0.0, 0.0));
    }
}
