//! Results leave through here: one writer for the table, JSON Lines and CSV forms, used by
//! `count`, `merge` and `bench` alike.
//!
//! A result is a [`Record`]: named fields for JSON Lines (keys in alphabetical order) and CSV
//! (columns in the record's order, a header line first), and its own line of the human table.
//! Each record is written and flushed as it comes, so a long range prints row by row.

use std::fmt::Write as _;
use std::io::Write;

/// The forms results can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Output {
    /// `N: total unique hh:mm:ss.ms`, the table of the reference documents.
    Table,
    /// One JSON object per line and per N: `{"by":"engine/backtrack","n":8,"seconds":0.001,"total":92,"unique":12}`.
    Json,
    /// `n,total,unique,seconds` with a header line.
    Csv,
}

/// One value of a record.
pub enum Value {
    /// A count or a size.
    Int(u128),
    /// A measurement, written with this many decimals in CSV.
    Float(f64, usize),
    /// A name.
    Text(String),
    /// Not known or not measured: `null` in JSON, empty in CSV.
    Missing,
}

impl Value {
    /// The value as a CSV cell.
    fn csv(self) -> String {
        match self {
            Value::Int(i) => i.to_string(),
            Value::Float(x, decimals) => format!("{x:.decimals$}"),
            Value::Text(t) => t,
            Value::Missing => String::new(),
        }
    }
}

impl<T: Into<u128>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Missing, |v| Value::Int(v.into()))
    }
}

/// A result that can be exported.
pub trait Record {
    /// The fields, in CSV column order.
    fn fields(&self) -> Vec<(&'static str, Value)>;
    /// The fields of a CSV line: all of them unless a record leaves some out.
    fn csv_fields(&self) -> Vec<(&'static str, Value)> {
        self.fields()
    }
    /// The header of the human table, printed before the first line: the field names.
    fn table_header(&self) -> String {
        let names: Vec<&str> = self.fields().iter().map(|(k, _)| *k).collect();
        names.join("  ")
    }
    /// This record's line of the human table: the values as in CSV, `-` where missing.
    fn table_line(&self) -> String {
        let cells: Vec<String> = self
            .fields()
            .into_iter()
            .map(|(_, v)| match v {
                Value::Missing => "-".into(),
                v => v.csv(),
            })
            .collect();
        cells.join("  ")
    }
}

/// Writes records to `out` in one form.
pub struct Exporter<W: Write> {
    out: W,
    format: Output,
    started: bool,
}

impl<W: Write> Exporter<W> {
    /// An exporter writing `format` to `out`.
    pub fn new(out: W, format: Output) -> Self {
        Exporter {
            out,
            format,
            started: false,
        }
    }

    /// Writes one record (after the header, for the first) and flushes it.
    pub fn write(&mut self, record: &impl Record) -> std::io::Result<()> {
        let mut s = String::new();
        match self.format {
            Output::Table => {
                if !self.started {
                    s.push_str(&record.table_header());
                    s.push('\n');
                }
                s.push_str(&record.table_line());
            }
            Output::Csv => {
                let fields = record.csv_fields();
                if !self.started {
                    let names: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
                    s.push_str(&names.join(","));
                    s.push('\n');
                }
                let cells: Vec<String> = fields.into_iter().map(|(_, v)| v.csv()).collect();
                s.push_str(&cells.join(","));
            }
            Output::Json => {
                let object: serde_json::Map<String, serde_json::Value> = record
                    .fields()
                    .into_iter()
                    .map(|(k, v)| {
                        let v = match v {
                            Value::Int(i) => serde_json::json!(i),
                            Value::Float(x, _) => serde_json::json!(x),
                            Value::Text(t) => serde_json::Value::String(t),
                            Value::Missing => serde_json::Value::Null,
                        };
                        (k.to_string(), v)
                    })
                    .collect();
                let _ = write!(s, "{}", serde_json::Value::Object(object));
            }
        }
        s.push('\n');
        self.started = true;
        self.out.write_all(s.as_bytes())?;
        self.out.flush()
    }
}

/// A count's result: one row of `count` and `merge`.
pub struct CountRow {
    /// Board size.
    pub n: usize,
    /// All solutions.
    pub total: u128,
    /// Unique solutions, where known.
    pub unique: Option<u128>,
    /// Seconds taken, unless timings are off.
    pub seconds: Option<f64>,
    /// What counted it.
    pub by: String,
}

impl Record for CountRow {
    fn fields(&self) -> Vec<(&'static str, Value)> {
        vec![
            ("n", Value::Int(self.n as u128)),
            ("total", Value::Int(self.total)),
            ("unique", self.unique.into()),
            (
                "seconds",
                self.seconds.map_or(Value::Missing, |t| Value::Float(t, 3)),
            ),
            ("by", Value::Text(self.by.clone())),
        ]
    }

    /// The CSV has been `n,total,unique,seconds` since the first release: scripts read it by
    /// position, so the method stays in JSON only.
    fn csv_fields(&self) -> Vec<(&'static str, Value)> {
        let mut fields = self.fields();
        fields.retain(|(k, _)| *k != "by");
        fields
    }

    fn table_header(&self) -> String {
        let mut s = String::from(" N:                Total               Unique");
        if self.seconds.is_some() {
            s.push_str("        hh:mm:ss.ms");
        }
        s
    }

    fn table_line(&self) -> String {
        let unique = self.unique.map_or("-".to_string(), |u| u.to_string());
        let mut s = format!("{:2}:{:>21}{:>21}", self.n, self.total, unique);
        if let Some(t) = self.seconds {
            let _ = write!(s, "{:>19}", hms(t));
        }
        s
    }
}

/// `h:mm:ss.mmm`, as the reference documents print times.
fn hms(seconds: f64) -> String {
    let ms = (seconds * 1000.0).round() as u64;
    format!(
        "{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seconds: Option<f64>) -> CountRow {
        CountRow {
            n: 8,
            total: 92,
            unique: Some(12),
            seconds,
            by: "engine/backtrack".into(),
        }
    }

    fn export(format: Output, rows: &[CountRow]) -> String {
        let mut out = Vec::new();
        let mut e = Exporter::new(&mut out, format);
        for r in rows {
            e.write(r).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_form_of_a_count() {
        assert_eq!(
            export(Output::Json, &[row(None)]),
            "{\"by\":\"engine/backtrack\",\"n\":8,\"seconds\":null,\"total\":92,\"unique\":12}\n"
        );
        assert_eq!(
            export(Output::Csv, &[row(Some(1.5)), row(None)]),
            "n,total,unique,seconds\n8,92,12,1.500\n8,92,12,\n"
        );
        assert_eq!(
            export(Output::Table, &[row(Some(3723.004))]),
            " N:                Total               Unique        hh:mm:ss.ms\n 8:                   92                   12        1:02:03.004\n"
        );
    }
}
