use std::process::ExitCode;

fn main() -> ExitCode {
    floodgate_scan::cli::run()
}
