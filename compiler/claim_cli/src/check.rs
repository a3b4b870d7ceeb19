//! `claimc check PATH`: compile only, and report every diagnostic.
//!
//! A check is a `claim_batch` run that stops after compiling: the same
//! search for files, the same parsing and checking on every core, part by
//! part (so a large project never holds every syntax tree at once), and the
//! same diagnostics in the same order. No fact is read.

use crate::batch::{run, BatchOptions};
use crate::Output;
use std::path::PathBuf;

pub fn run_check(paths: &[PathBuf], color: bool, format: crate::formats::Format) -> Output {
    let opts = BatchOptions {
        color,
        format,
        jobs: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
        // The process exits after the check: the operating system takes
        // the databases' memory back faster than freeing it node by node.
        exit_after: true,
        check_only: true,
        ..BatchOptions::json_run(paths.to_vec(), None)
    };
    run(&opts)
}
