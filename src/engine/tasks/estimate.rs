//! How long a count will take, before it starts: so that a count of months or years is not
//! started by accident (`nqueens count 27` on a laptop), and a long one says what to expect.
//!
//! The model is the join strategy's measured CPU seconds for N = 20 to 23, and past 23 the mean
//! step between them (the measurements and the machine: docs/long-runs.md, "How long, before
//! it starts"). Another CPU may be twice as fast or slow: the estimate is for a decision (start
//! it or not, checkpoint it or not), not a promise. Below N = 20 a count takes seconds at most
//! and there is nothing to estimate.

use std::time::Duration;

/// One core's seconds for the join strategy's whole count of `n`, by the model; `None` below
/// N = 20.
///
/// ```
/// use nqueens::engine::tasks::estimate::cpu_seconds;
/// assert_eq!(cpu_seconds(19), None);
/// assert!((cpu_seconds(23).unwrap() / 3600.0 - 5.07).abs() < 0.05); // measured: 5.07 h
/// assert!(cpu_seconds(27).unwrap() > 86_400.0 * 365.0);             // years
/// ```
pub fn cpu_seconds(n: usize) -> Option<f64> {
    // N = 20 .. 23 as measured (each as a step from the one before); past 23, the mean step.
    const MEASURED: [f64; 4] = [30.0, 30.0 * 8.1, 30.0 * 8.1 * 9.9, 30.0 * 8.1 * 9.9 * 7.6];
    match n {
        0..20 => None,
        20..=23 => Some(MEASURED[n - 20]),
        _ => Some(MEASURED[3] * 8.5f64.powi(n as i32 - 23)),
    }
}

/// The wall-clock time of a count of `n` on `threads` threads, of `share` of its task list
/// (1.0 for a whole count, 1/K for one of K shards); `None` below N = 20.
///
/// ```
/// use nqueens::engine::tasks::estimate::wall;
/// let two = wall(22, 2, 1.0).unwrap();
/// assert_eq!(wall(22, 4, 1.0).unwrap() * 2, two);
/// assert!(wall(22, 2, 0.01).unwrap() < two / 50);
/// ```
pub fn wall(n: usize, threads: usize, share: f64) -> Option<Duration> {
    let seconds = cpu_seconds(n)? * share / threads.max(1) as f64;
    Some(Duration::from_secs_f64(seconds.min(1e12)))
}

/// A duration in the largest unit that reads well: `40 s`, `12 min`, `2 h 32 min`, `9 days`,
/// `1.5 years`.
///
/// ```
/// use std::time::Duration;
/// use nqueens::engine::tasks::estimate::describe;
/// assert_eq!(describe(Duration::from_secs(9120)), "2 h 32 min");
/// assert_eq!(describe(Duration::from_secs(47_000_000)), "1.5 years");
/// ```
pub fn describe(d: Duration) -> String {
    let s = d.as_secs_f64();
    const DAY: f64 = 86_400.0;
    const YEAR: f64 = 365.25 * DAY;
    if s < 60.0 {
        format!("{s:.0} s")
    } else if s < 3600.0 {
        format!("{:.0} min", s / 60.0)
    } else if s < DAY {
        let minutes = (s / 60.0).round() as u64;
        format!("{} h {} min", minutes / 60, minutes % 60)
    } else if s < YEAR {
        format!("{:.0} days", s / DAY)
    } else {
        format!("{:.1} years", s / YEAR)
    }
}

/// `1 thread`, `2 threads`: for the messages that give an estimate.
pub fn threads(count: usize) -> String {
    if count == 1 {
        "1 thread".to_string()
    } else {
        format!("{count} threads")
    }
}
