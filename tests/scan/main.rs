//! The scan tests in one test binary: each file below is a module, its tests named
//! `FILE::TEST` (`cargo test --test scan FILE::` runs one file's).
mod csa_reader;
#[path = "../csa_support/mod.rs"]
mod csa_support;
mod malformed_input_contract;
mod malformed_record_properties;
mod output_independent_of_jobs;
mod regressions;
mod scan_cli;
mod scan_containers;
mod scan_faults;
mod scan_folder;
mod scan_many_archives;
mod scan_parquet;
#[path = "../scan_support/mod.rs"]
mod scan_support;
