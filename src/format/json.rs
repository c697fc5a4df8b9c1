//! `json`: one JSON object per line (JSON Lines), `{"n":4,"columns":[2,4,1,3]}`, with the same
//! 1-based columns as `perm`, for programs that read JSON.

use std::io::{self, BufRead, Write};

use serde::Deserialize;

use crate::Placement;

/// Writes `placement` as one JSON line.
///
/// ```
/// let mut out = Vec::new();
/// nqueens::format::json::write(&mut out, &nqueens::Placement::new(vec![1, 3, 0, 2])).unwrap();
/// assert_eq!(out, b"{\"n\":4,\"columns\":[2,4,1,3]}\n");
/// ```
pub fn write(out: &mut impl Write, placement: &Placement) -> io::Result<()> {
    write!(out, "{{\"n\":{},\"columns\":[", placement.n())?;
    super::write_columns(out, placement, b",")?;
    out.write_all(b"]}\n")
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    n: usize,
    columns: Vec<u32>,
}

/// Decodes one JSON object straight from `input`, leaving what follows it unread.
///
/// The outer `Err` is an input that could not be read; the inner one a malformed object.
/// No text of the object is kept: serde reads the columns one by one into the placement.
pub(super) fn parse_from(input: &mut impl BufRead) -> io::Result<Result<Placement, String>> {
    let mut de = serde_json::Deserializer::from_reader(input);
    match Record::deserialize(&mut de) {
        Ok(record) => Ok(check(record)),
        Err(e) if e.is_io() => Err(e.into()),
        Err(e) => Ok(Err(format!("not a placement in JSON: {e}"))),
    }
}

/// Checks that `n` matches the number of columns and that columns count from 1.
fn check(record: Record) -> Result<Placement, String> {
    if record.n != record.columns.len() {
        return Err(format!(
            "\"n\" is {} but {} columns are given",
            record.n,
            record.columns.len()
        ));
    }
    Placement::from_one_based(&record.columns)
        .ok_or_else(|| "column 0: columns are numbered from 1".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(mut text: &[u8]) -> Result<Placement, String> {
        parse_from(&mut text).unwrap()
    }

    #[test]
    fn malformed_objects() {
        assert!(parse(b"{\"n\":2,\"columns\":[1]}")
            .unwrap_err()
            .contains("\"n\" is 2"));
        assert!(parse(b"{\"n\":1,\"columns\":[0]}")
            .unwrap_err()
            .contains("column 0"));
        assert!(parse(b"{\"n\":1}").unwrap_err().contains("JSON"));
        assert!(parse(b"{\"n\":1,\"columns\":[1]")
            .unwrap_err()
            .contains("JSON"));
    }
}
