//! `json`: one JSON object per line (JSON Lines), `{"n":4,"columns":[2,4,1,3]}`, with the same
//! 1-based columns as `perm`, for programs that read JSON.

use std::fmt;
use std::io::{self, BufRead, Read, Write};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Malformed, Rest, Source};
use crate::Placement;

/// Writes `placement` as one JSON line.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::json::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
/// assert_eq!(out, b"{\"n\":4,\"columns\":[2,4,1,3]}\n");
/// ```
///
/// # Errors
/// The error of writing to `out`.
pub fn write(out: &mut impl Write, placement: &Placement) -> io::Result<()> {
    write!(out, "{{\"n\":{},\"columns\":[", placement.n())?;
    super::write_columns(out, placement, b",")?;
    out.write_all(b"]}\n")
}

/// Decodes one JSON object straight from the input, leaving what follows it unread.
///
/// No text of the object is kept: the columns go one by one into the placement, at most `"n"`
/// of them (or `max_n` until `"n"` is read), and a string or number token longer than any a
/// placement needs ends the record, so an endless object gives an error in bounded memory.
pub(super) fn parse<R: BufRead>(
    src: &mut Source<R>,
    max_n: usize,
) -> io::Result<Result<Placement, Malformed>> {
    let start = src.line;
    let mut tokens = Tokens {
        src,
        in_string: false,
        escaped: false,
        run: 0,
    };
    let mut de = serde_json::Deserializer::from_reader(&mut tokens);
    let decoded = RecordSeed { max_n }.deserialize(&mut de);
    let message = match decoded {
        Ok(p) => return Ok(Ok(p)),
        Err(e) if e.is_io() => {
            let e = io::Error::from(e);
            if !e.get_ref().is_some_and(|inner| inner.is::<TokenTooLong>()) {
                return Err(e);
            }
            format!("not a placement in JSON: {}", TokenTooLong)
        }
        Err(e) => format!("not a placement in JSON: {e}"),
    };
    Ok(Err(Malformed {
        line: start,
        message,
        rest: Rest::LINE,
        attack: false,
    }))
}

/// The longest string or number token a placement's JSON has: `"columns"` and `4294967295`.
const MAX_TOKEN: usize = 64;

#[derive(Debug)]
struct TokenTooLong;

impl fmt::Display for TokenTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a string or number longer than {MAX_TOKEN} bytes")
    }
}

impl std::error::Error for TokenTooLong {}

/// The input as the JSON decoder sees it: counts lines, and ends any string or number token
/// longer than [`MAX_TOKEN`], which the decoder would otherwise keep whole.
struct Tokens<'a, R> {
    src: &'a mut Source<R>,
    in_string: bool,
    escaped: bool,
    /// Bytes of the current string or number so far.
    run: usize,
}

impl<R: BufRead> Read for Tokens<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.src.input.fill_buf()?;
        let len = buf.len().min(out.len());
        for &b in &buf[..len] {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.in_string = false;
                }
                self.run += 1;
            } else if b == b'"' {
                self.in_string = true;
                self.run = 1;
            } else if matches!(b, b'{' | b'}' | b'[' | b']' | b',' | b':')
                || b.is_ascii_whitespace()
            {
                self.run = 0;
            } else {
                self.run += 1;
            }
            if self.run > MAX_TOKEN {
                return Err(io::Error::new(io::ErrorKind::InvalidData, TokenTooLong));
            }
        }
        out[..len].copy_from_slice(&buf[..len]);
        // The decoder asks for one byte at a time: count lines here rather than scan again.
        self.src.line += buf[..len].iter().filter(|&&b| b == b'\n').count();
        self.src.input.consume(len);
        Ok(len)
    }
}

/// The fields of a placement object.
#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum Field {
    N,
    Columns,
    /// Anything else, skipped: records that carry more than a placement (a puzzle's clues and
    /// measures beside its solution) still read as their placement.
    #[serde(other)]
    Other,
}

/// Decodes `{"n": N, "columns": [...]}` (in either order) into a placement.
struct RecordSeed {
    max_n: usize,
}

impl<'de> DeserializeSeed<'de> for RecordSeed {
    type Value = Placement;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Placement, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for RecordSeed {
    type Value = Placement;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object {\"n\": N, \"columns\": [...]}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Placement, A::Error> {
        let mut n: Option<usize> = None;
        let mut cols: Option<Vec<u32>> = None;
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::N if n.is_some() => return Err(de::Error::duplicate_field("n")),
                Field::N => {
                    let value: usize = map.next_value()?;
                    if value == 0 {
                        return Err(de::Error::custom(
                            "\"n\" is 0: a placement has at least one queen",
                        ));
                    }
                    if value > self.max_n {
                        return Err(de::Error::custom(format!(
                            "\"n\" is {value}, more than {} queens",
                            self.max_n
                        )));
                    }
                    n = Some(value);
                }
                Field::Columns if cols.is_some() => {
                    return Err(de::Error::duplicate_field("columns"));
                }
                Field::Columns => {
                    let limit = n.unwrap_or(self.max_n);
                    cols = Some(map.next_value_seed(Columns { limit })?);
                }
                Field::Other => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        let n = n.ok_or_else(|| de::Error::missing_field("n"))?;
        let cols = cols.ok_or_else(|| de::Error::missing_field("columns"))?;
        if n != cols.len() {
            return Err(de::Error::custom(format!(
                "\"n\" is {n} but {} columns are given",
                cols.len()
            )));
        }
        Ok(Placement::new(cols))
    }
}

/// Decodes the 1-based columns into 0-based ones, refusing more than `limit`.
struct Columns {
    limit: usize,
}

impl<'de> DeserializeSeed<'de> for Columns {
    type Value = Vec<u32>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u32>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Columns {
    type Value = Vec<u32>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of column numbers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u32>, A::Error> {
        let mut cols = Vec::new();
        while let Some(c) = seq.next_element::<u32>()? {
            if cols.len() == self.limit {
                return Err(de::Error::custom(format!(
                    "more than {} columns",
                    self.limit
                )));
            }
            let c = c
                .checked_sub(1)
                .ok_or_else(|| de::Error::custom("column 0: columns are numbered from 1"))?;
            crate::memory::push(&mut cols, c)
                .map_err(|e| de::Error::custom(super::too_big(cols.len(), e)))?;
        }
        Ok(cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &[u8]) -> Result<Placement, String> {
        crate::format::parse_with(super::parse, text, 1000)
    }

    #[test]
    fn malformed_objects() {
        assert!(
            parse(b"{\"n\":2,\"columns\":[1]}")
                .unwrap_err()
                .contains("\"n\" is 2")
        );
        assert!(
            parse(b"{\"n\":1,\"columns\":[0]}")
                .unwrap_err()
                .contains("column 0")
        );
        assert!(parse(b"{\"n\":1}").unwrap_err().contains("JSON"));
        assert!(
            parse(b"{\"n\":1,\"columns\":[1]")
                .unwrap_err()
                .contains("JSON")
        );
        assert!(
            parse(b"{\"n\":0,\"columns\":[]}")
                .unwrap_err()
                .contains("at least one queen")
        );
        assert!(
            parse(b"{\"n\":2,\"columns\":[1,2,3,4]}")
                .unwrap_err()
                .contains("more than 2 columns")
        );
        assert!(
            parse(b"{\"columns\":[1],\"n\":1001}")
                .unwrap_err()
                .contains("more than 1000 queens")
        );
        let long_key = format!("{{\"{}\":1}}", "k".repeat(100));
        assert!(
            parse(long_key.as_bytes())
                .unwrap_err()
                .contains("longer than")
        );
    }
}
