//! The numbers a person gives every front end (durations, sizes, thread counts), checked
//! here once, each kind with one message, so that the command line, Python and the
//! server refuse the same values in the same words and nothing past a range reaches the
//! work (where a duration too long for the clock would panic).

use crate::session::{bytes_text, machine_memory};
use crate::Error;

/// The most threads work may run on.
pub const MAX_THREADS: usize = 1024;

/// A range of seconds a duration of some kind may take.
#[derive(Clone, Copy, Debug)]
pub struct Seconds {
    least: f64,
    most: f64,
}

impl Seconds {
    /// A player's time a move: a millisecond to a day.
    pub const MOVE: Seconds = Seconds {
        least: 0.001,
        most: 86_400.0,
    };
    /// A job's time (a solve, a request's work, a family member's solve): a millisecond
    /// to a year.
    pub const WORK: Seconds = Seconds {
        least: 0.001,
        most: 31_536_000.0,
    };
    /// How often a long run saves: a tenth of a second to a day.
    pub const SAVE: Seconds = Seconds {
        least: 0.1,
        most: 86_400.0,
    };

    /// The fewest seconds.
    pub fn least(self) -> f64 {
        self.least
    }

    /// The most seconds.
    pub fn most(self) -> f64 {
        self.most
    }

    /// `value` when it is a number of seconds in the range, else the one message.
    pub fn check(self, value: f64) -> Result<f64, Error> {
        self.checked(value, &format!("{value:?}"))
    }

    /// The seconds `text` gives, as a person typed them.
    pub fn parse(self, text: &str) -> Result<f64, Error> {
        self.checked(text.trim().parse().unwrap_or(f64::NAN), text)
    }

    fn checked(self, value: f64, shown: &str) -> Result<f64, Error> {
        if (self.least..=self.most).contains(&value) {
            return Ok(value);
        }
        Err(Error::Unsupported(format!(
            "'{shown}' is not a number of seconds from {} to {}",
            self.least, self.most
        )))
    }
}

/// Bytes of memory a person gave as `shown`: more than none, at most the machine's.
pub fn memory(bytes: u64, shown: &str) -> Result<u64, Error> {
    if bytes == 0 {
        return Err(Error::Unsupported(format!("'{shown}': give a positive size")));
    }
    match machine_memory() {
        Some(machine) if bytes > machine => Err(Error::Unsupported(format!(
            "'{shown}' is more than the {} this machine has",
            bytes_text(machine)
        ))),
        _ => Ok(bytes),
    }
}

/// The bytes of a size typed as a number with an optional K, M, G or T (powers of
/// 1024), e.g. `8G`, checked by [`memory`].
pub fn parse_memory(text: &str) -> Result<u64, Error> {
    let t = text.trim().trim_end_matches(['B', 'b']);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => {
                    return Err(Error::Unsupported(format!(
                        "'{text}': use a number with K, M, G or T, e.g. 8G"
                    )))
                }
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let digits = digits.trim();
    let plain = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let written = match digits.split_once('.') {
        Some((whole, fraction)) => plain(whole) && plain(fraction),
        None => plain(digits),
    };
    let n: f64 = match digits.parse() {
        Ok(n) if written => n,
        _ => {
            return Err(Error::Unsupported(format!(
                "'{text}' is not a size: write digits with K, M, G or T, e.g. 8G or 1.5G"
            )))
        }
    };
    // Past u64::MAX the cast saturates, which is more than any machine has.
    let bytes = (n * (1u64 << shift) as f64) as u64;
    if bytes == 0 {
        return Err(Error::Unsupported(format!(
            "'{text}' is less than one byte: give a positive size"
        )));
    }
    memory(bytes, text)
}

/// Threads to run work on: 1 to [`MAX_THREADS`].
pub fn threads(n: u64) -> Result<usize, Error> {
    match usize::try_from(n) {
        Ok(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        _ => Err(Error::Unsupported(format!(
            "give at least 1 and at most {MAX_THREADS} threads, not {n}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_out_of_range_are_refused_in_one_message() {
        for bad in [f64::INFINITY, f64::NAN, 1e300, -1.0, 0.0] {
            let e = Seconds::WORK.check(bad).unwrap_err().to_string();
            assert!(
                e.contains("is not a number of seconds from 0.001 to 31536000"),
                "{e}"
            );
        }
        assert_eq!(Seconds::MOVE.parse("2.5").unwrap(), 2.5);
        assert!(Seconds::MOVE.parse("1e300").is_err());
        assert!(Seconds::MOVE.parse("x").unwrap_err().to_string().contains("'x'"));
    }

    #[test]
    fn sizes_past_the_machine_name_what_was_asked() {
        let e = parse_memory("99999999T").unwrap_err().to_string();
        assert!(e.starts_with("'99999999T' is more than the"), "{e}");
        assert_eq!(parse_memory("1K").unwrap(), 1024);
        assert_eq!(parse_memory("1.5K").unwrap(), 1536);
        for bad in ["0", "1e9", "0.0001K", "+3G", "-1G", ".5G", "5.G", "inf", "nanG"] {
            assert!(parse_memory(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn threads_are_capped() {
        assert_eq!(threads(8).unwrap(), 8);
        assert!(threads(0).is_err());
        let e = threads(1_000_000).unwrap_err().to_string();
        assert!(e.contains("at most 1024 threads, not 1000000"), "{e}");
    }
}
