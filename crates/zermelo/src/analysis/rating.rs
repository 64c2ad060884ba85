//! Ratings of players from pairwise results: the Bradley–Terry model on the Elo scale.
//!
//! Player `i` has a strength `π_i` and beats player `j` with probability
//! `π_i / (π_i + π_j)`. The fit maximises the likelihood of the results (a tie counts as
//! half a win each way) by minorisation–maximisation (Hunter, 2004). So that a player who
//! wins, or loses, every game still gets a finite rating, each player is also given one
//! tie against a virtual player of strength 1, the scale's average: a weak prior that
//! pulls ratings towards 0 and that a few real games outweigh. A rating is
//! `400 · log10 π`, shifted so that the ratings have mean 0; its standard error comes from
//! the inverse of the Fisher information of the log-strengths.

use std::f64::consts::LN_10;

/// Elo points per unit of log-strength (natural logarithm): `400 / ln 10`.
pub const ELO: f64 = 400.0 / LN_10;

/// When the fit stops: no log-strength moved by more than this in a round.
const TOLERANCE: f64 = 1e-10;

/// The most rounds the fit takes.
const ROUNDS: usize = 100_000;

/// A player's rating on the Elo scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating: 400 · log10 of the strength, the ratings of all players having mean 0.
    pub elo: f64,
    /// Its standard error.
    pub error: f64,
}

/// The Bradley–Terry ratings of the players of `beat`, where `beat[i][j]` is how often
/// player `i` beat player `j` (ties as half a win each way; fractions allowed), with the
/// prior of one tie per player against a virtual average player (see the module). `None`
/// when `beat` is not square or has an entry that is negative or not finite.
pub fn bradley_terry(beat: &[Vec<f64>]) -> Option<Vec<Rating>> {
    let n = beat.len();
    let valid = |x: &f64| x.is_finite() && *x >= 0.0;
    if beat.iter().any(|row| row.len() != n || !row.iter().all(valid)) {
        return None;
    }
    let games = |i: usize, j: usize| if i == j { 0.0 } else { beat[i][j] + beat[j][i] };
    // Wins, the prior's half included.
    let wins: Vec<f64> = (0..n)
        .map(|i| 0.5 + (0..n).filter(|&j| j != i).map(|j| beat[i][j]).sum::<f64>())
        .collect();
    let mut strength = vec![1.0; n];
    for _ in 0..ROUNDS {
        let next: Vec<f64> = (0..n)
            .map(|i| {
                let pi = strength[i];
                let met: f64 = (0..n).map(|j| games(i, j) / (pi + strength[j])).sum();
                wins[i] / (met + 1.0 / (pi + 1.0))
            })
            .collect();
        let moved = next
            .iter()
            .zip(&strength)
            .map(|(a, b)| (a / b).ln().abs())
            .fold(0.0, f64::max);
        strength = next;
        if moved < TOLERANCE {
            break;
        }
    }
    // The Fisher information of the log-strengths, the prior's virtual games included.
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        let p = strength[i] / (strength[i] + 1.0);
        info[i][i] += p * (1.0 - p);
        for j in 0..n {
            let p = strength[i] / (strength[i] + strength[j]);
            let v = games(i, j) * p * (1.0 - p);
            info[i][i] += v;
            info[i][j] -= v;
        }
    }
    let cov = inverse(info)?;
    let theta: Vec<f64> = strength.iter().map(|s| s.ln()).collect();
    let mean = theta.iter().sum::<f64>() / n as f64;
    // The variance of θ_i less the mean of all θ.
    let nf = n as f64;
    let all: f64 = cov.iter().flatten().sum::<f64>() / (nf * nf);
    Some(
        (0..n)
            .map(|i| {
                let row = cov[i].iter().sum::<f64>() / nf;
                let var = (cov[i][i] - 2.0 * row + all).max(0.0);
                Rating {
                    elo: ELO * (theta[i] - mean),
                    error: ELO * var.sqrt(),
                }
            })
            .collect(),
    )
}

/// The inverse of the square matrix `a` (Gauss–Jordan with partial pivoting); `None` when
/// it is singular.
fn inverse(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        for k in 0..n {
            a[col][k] /= d;
            inv[col][k] /= d;
        }
        for r in (0..n).filter(|&r| r != col) {
            let f = a[r][col];
            for k in 0..n {
                a[r][k] -= f * a[col][k];
                inv[r][k] -= f * inv[col][k];
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constructed_data_set_gets_its_known_fit_and_error() {
        // Strengths 1/2 and 2 over 30 games: the results the model expects, less what the
        // prior's ties against the virtual player of strength 1 add, fit them exactly.
        let a_wins = 30.0 / 5.0 - 1.0 / 6.0;
        let r = bradley_terry(&[vec![0.0, a_wins], vec![30.0 - a_wins, 0.0]]).unwrap();
        let diff = ELO * 2f64.ln();
        assert!((r[0].elo + diff).abs() < 1e-6, "{r:?}");
        assert!((r[1].elo - diff).abs() < 1e-6, "{r:?}");
        // The information is [[a, b], [b, a]] with a - b = 2·30·(1/5)(4/5) + 2/9; the
        // variance of (θ_0 - θ_1) / 2 is 1 / (2 (a - b)).
        let error = ELO * (1.0f64 / (2.0 * (2.0 * 4.8 + 2.0 / 9.0))).sqrt();
        assert!((r[0].error - error).abs() < 1e-6 && (r[1].error - error).abs() < 1e-6);
    }

    #[test]
    fn symmetric_results_give_equal_ratings() {
        let beat = vec![vec![0.0, 2.5, 2.5], vec![2.5, 0.0, 2.5], vec![2.5, 2.5, 0.0]];
        let r = bradley_terry(&beat).unwrap();
        for x in &r {
            assert!(x.elo.abs() < 1e-6, "{r:?}");
            assert!((x.error - r[0].error).abs() < 1e-9 && x.error > 0.0);
        }
        // Even results over unequal numbers of games: equal ratings, the players of fewer
        // games known less well.
        let beat = vec![vec![0.0, 3.0, 1.0], vec![3.0, 0.0, 1.0], vec![1.0, 1.0, 0.0]];
        let r = bradley_terry(&beat).unwrap();
        assert!(r.iter().all(|x| x.elo.abs() < 1e-6), "{r:?}");
        assert!(r[2].error > r[0].error, "{r:?}");
    }

    #[test]
    fn a_player_that_always_wins_is_rated_highest_and_finite() {
        let beat = vec![vec![0.0, 20.0, 20.0], vec![0.0, 0.0, 10.0], vec![0.0, 10.0, 0.0]];
        let r = bradley_terry(&beat).unwrap();
        assert!(
            r.iter().all(|x| x.elo.is_finite() && x.error.is_finite()),
            "{r:?}"
        );
        assert!(r[0].elo > r[1].elo + 300.0 && (r[1].elo - r[2].elo).abs() < 1e-6);
        assert!(r.iter().map(|x| x.elo).sum::<f64>().abs() < 1e-6);
        // More games, the same share: a narrower error.
        let more: Vec<Vec<f64>> = beat
            .iter()
            .map(|row| row.iter().map(|x| 4.0 * x).collect())
            .collect();
        assert!(bradley_terry(&more).unwrap()[1].error < r[1].error);
    }

    #[test]
    fn players_without_games_and_bad_input() {
        let r = bradley_terry(&[vec![0.0, 0.0], vec![0.0, 0.0]]).unwrap();
        assert!(r.iter().all(|x| x.elo.abs() < 1e-9 && x.error.is_finite()));
        assert_eq!(bradley_terry(&[]), Some(vec![]));
        assert_eq!(bradley_terry(&[vec![0.0, 1.0]]), None);
        assert_eq!(bradley_terry(&[vec![0.0, -1.0], vec![1.0, 0.0]]), None);
        assert_eq!(bradley_terry(&[vec![0.0, f64::NAN], vec![1.0, 0.0]]), None);
    }
}
