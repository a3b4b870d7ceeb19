//! What a `claim_batch` run is asked to do: its entries, selection,
//! output, limits and the analyses it adds (`--explain`, `--mutate`), as
//! the command line gave them.

use crate::output::formats::Format;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Explain {
    Off,
    Failures,
    All,
}

#[derive(Clone, Debug)]
pub struct BatchOptions {
    pub entries: Vec<PathBuf>,
    pub filter: Option<String>,
    pub explain: Explain,
    pub jobs: usize,
    pub color: bool,
    pub max_load_bytes: u64,
    pub format: Format,
    /// Warnings fail the run like errors (exit 2, nothing run).
    pub deny_warnings: bool,
    /// A witness still running after this long fails (E0406).
    pub timeout_per_witness: Option<std::time::Duration>,
    /// How long one fact may take (`E0408` after).
    pub timeout_per_fact: Option<std::time::Duration>,
    /// `(k, n)`: run only the k-th of n shards of the witnesses (1-based).
    pub shard: Option<(u64, u64)>,
    pub limits: crate::project::Limits,
    /// `--timings`: print how long each phase took on standard error.
    pub timings: bool,
    /// A run in which no witness ran exits 0 with `0/0 PASS` instead of 2.
    pub allow_empty: bool,
    /// `--mutate`: after the run, which fact leaves and refusal codes no
    /// witness notices (`mutate.rs`).
    pub mutate: bool,
    /// `--deny-unwitnessed`: with `--mutate`, anything unwitnessed fails
    /// the run (exit 1).
    pub deny_unwitnessed: bool,
}

impl BatchOptions {
    /// An in-process run of `entries` with JSON output and the defaults:
    /// what `claimc graph --with-verdicts` and the language server's
    /// "run witness" read verdicts from.
    pub fn json_run(entries: Vec<PathBuf>, filter: Option<String>) -> BatchOptions {
        BatchOptions {
            entries,
            filter,
            explain: Explain::Off,
            jobs: 1,
            color: false,
            max_load_bytes: crate::world::DEFAULT_MAX_LOAD_BYTES,
            format: Format::Json,
            deny_warnings: false,
            timeout_per_witness: Some(std::time::Duration::from_secs(300)),
            timeout_per_fact: Some(std::time::Duration::from_secs(300)),
            shard: None,
            limits: Default::default(),
            timings: false,
            allow_empty: false,
            mutate: false,
            deny_unwitnessed: false,
        }
    }
}
