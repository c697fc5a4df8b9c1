//! `json`: one JSON object per line (JSON Lines), `{"n":4,"columns":[2,4,1,3]}`, with the same
//! 1-based columns as `perm`, for programs that read JSON.

use std::io::{self, Write};

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

/// Parses one JSON line; `n` must match the number of columns.
pub(super) fn parse(text: &[u8]) -> Result<Placement, String> {
    let record: Record =
        serde_json::from_slice(text).map_err(|e| format!("not a placement in JSON: {e}"))?;
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
