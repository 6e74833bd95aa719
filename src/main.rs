//! The `floodgate-scan` program: the command line over the library.
mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::run()
}
