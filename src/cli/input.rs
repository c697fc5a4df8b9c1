//! Where `verify` and `complete` read from: a file, or standard input for `-`. One type, parsed
//! by clap, so both commands name and open their input the same way.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

use clap::builder::TypedValueParser;

use super::bad_input;

/// A file to read, or standard input.
#[derive(Clone, Debug)]
pub enum Input {
    /// Standard input (`-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Input {
    /// The argument's parser: any path the operating system allows, UTF-8 or not.
    pub fn parser() -> impl TypedValueParser<Value = Input> {
        clap::builder::OsStringValueParser::new().map(|s| {
            if s == "-" {
                Input::Stdin
            } else {
                Input::File(PathBuf::from(s))
            }
        })
    }
}

impl Input {
    /// The name for messages: the path, or `<stdin>`.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".into(),
            Input::File(path) => path.display().to_string(),
        }
    }

    /// Opens the input with a read buffer of `capacity` bytes; a file that cannot be opened is
    /// bad input.
    pub fn open(&self, capacity: usize) -> anyhow::Result<Box<dyn BufRead>> {
        Ok(match self {
            Input::Stdin => Box::new(BufReader::with_capacity(capacity, io::stdin().lock())),
            Input::File(path) => {
                let file = File::open(path)
                    .map_err(|e| bad_input(format!("cannot open {}: {e}", self.name())))?;
                Box::new(BufReader::with_capacity(capacity, file))
            }
        })
    }
}
