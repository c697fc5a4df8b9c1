//! The `nqueens` command. All work is in the library and `cli`; this file only maps errors to
//! exit codes: 2 for bad usage or input, 1 for any other failure.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that goes away (`| head`) has had what it wanted: quiet, like `solve`.
        Err(err) if cli::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", cli::one_line(&err));
            ExitCode::from(cli::exit_code(&err))
        }
    }
}
