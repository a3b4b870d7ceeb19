//! `claim_batch`: runs the witnesses of Claim programs (LANGUAGE.md §8).

// A run allocates millions of small values and frees the syntax trees
// half-way through; glibc's allocator spent a tenth of the run on that.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use claim_cli::options::{BatchOptions, Explain};
use claim_cli::output::formats::Format;
use clap::Parser;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "claim_batch",
    version,
    about = "Run the witnesses of Claim programs",
    after_help = "Also: `claim_batch merge [--format human|json] REPORT.json…` joins the `--format json` reports of `--shard` runs into one."
)]
struct Args {
    /// A `.claim` file, or a folder of them (repeatable).
    #[arg(long = "entry", value_name = "PATH", required_unless_present = "paths")]
    entries: Vec<PathBuf>,
    /// Entries given without `--entry` (`claim_batch claims/ x.claim`).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Run only the witnesses whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "human", env = "CLAIM_FORMAT")]
    format: Format,
    /// Print the evaluation trace of each failing witness (`--explain=all`: of every witness).
    #[arg(long, num_args = 0..=1, default_missing_value = "failures", value_name = "WHICH")]
    explain: Option<ExplainArg>,
    /// Witnesses evaluated in parallel (default: the machine's cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// The time limit of one witness, as a Duration literal (`30s`, `5min`).
    #[arg(long, value_name = "DURATION", default_value = "5min", value_parser = parse_limit)]
    timeout_per_witness: std::time::Duration,
    /// The time limit of one fact (with the facts it reads on the way), as
    /// a Duration literal.
    #[arg(long, value_name = "DURATION", default_value = "5min", value_parser = parse_limit)]
    timeout_per_fact: std::time::Duration,
    /// Run only shard K of N of the witnesses (`--shard 2/4`), chosen by a
    /// stable hash of each witness's name; the whole program is still checked.
    #[arg(long, value_name = "K/N", value_parser = parse_shard)]
    shard: Option<(u64, u64)>,
    /// Treat warnings (lints, naming) as errors: the run fails with exit 2.
    #[arg(long)]
    deny_warnings: bool,
    /// Keep running: re-run when a `.claim` file or anything under the
    /// projects changes, printing the witnesses whose verdict changed.
    #[arg(long)]
    watch: bool,
    /// How deeply expressions, patterns and types may nest.
    #[arg(long, value_name = "LEVELS", default_value_t = claim_cli::project::Limits::default().max_nesting)]
    max_nesting: usize,
    /// The largest `.claim` file read, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = claim_cli::project::Limits::default().max_source_bytes)]
    max_source_bytes: u64,
    /// The most `.claim` files one project may have.
    #[arg(long, value_name = "N", default_value_t = claim_cli::project::Limits::default().max_files)]
    max_files: usize,
    /// The longest text (bytes) or list (elements) a program may build.
    #[arg(long, value_name = "N", default_value_t = claim_cli::project::Limits::default().max_value_len)]
    max_value_len: usize,
    /// A run in which no witness ran passes (`0/0 PASS`, exit 0) instead of
    /// failing: a run that verified nothing is otherwise exit 2.
    #[arg(long)]
    allow_empty: bool,
    /// After the run, change every leaf of every fact in turn and re-run the
    /// witnesses that read it: report the leaves no verdict notices, and the
    /// refusal codes no passing witness shows can fire. Whole programs only:
    /// a filtered or sharded run has not the verdicts a mutant is held to.
    #[arg(long, conflicts_with_all = ["filter", "shard"])]
    mutate: bool,
    /// With `--mutate`: anything unwitnessed fails the run (exit 1).
    #[arg(long, requires = "mutate")]
    deny_unwitnessed: bool,
    /// The most bytes one OCI image layer may decompress to.
    #[arg(long, value_name = "BYTES", default_value_t = claim_cli::project::Limits::default().max_layer_bytes)]
    max_layer_bytes: u64,
    /// The largest file `load` reads, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = claim_cli::world::DEFAULT_MAX_LOAD_BYTES)]
    max_load_bytes: u64,
    /// Print the names of the witnesses the run would run (after `--filter`
    /// and `--shard`), one per line, and run nothing; the program is still
    /// compiled, and its errors fail the command.
    #[arg(long, conflicts_with_all = ["watch", "mutate"])]
    list: bool,
    /// Print how long each phase of the run took (load, check, merge,
    /// facts, witnesses, report) and the memory after it, on standard error.
    #[arg(long)]
    timings: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum ExplainArg {
    Failures,
    All,
}

/// `claim_batch merge FILE…`: join the JSON reports of shards.
#[derive(Parser, Debug)]
#[command(name = "claim_batch merge", about = "Join the --format json reports of shards into one report")]
struct MergeArgs {
    /// The reports, from `claim_batch --shard K/N --format json`.
    files: Vec<PathBuf>,
    /// Output format of the joined report.
    #[arg(long, value_enum, default_value = "human")]
    format: MergeFormat,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum MergeFormat {
    Human,
    Json,
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("merge") {
        let args = match MergeArgs::try_parse_from(std::env::args().skip(1)) {
            Ok(a) => a,
            Err(e) => {
                let _ = e.print();
                std::process::exit(if e.use_stderr() { 2 } else { 0 });
            }
        };
        claim_cli::main_guarded(move || {
            claim_cli::commands::merge::merge(&args.files, args.format == MergeFormat::Json)
        });
    }
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let opts = BatchOptions {
        // `--entry` paths first, then the positional ones, each in order.
        entries: args.entries.into_iter().chain(args.paths).collect(),
        filter: args.filter,
        explain: match args.explain {
            None => Explain::Off,
            Some(ExplainArg::Failures) => Explain::Failures,
            Some(ExplainArg::All) => Explain::All,
        },
        jobs: args.jobs.unwrap_or_else(claim_cli::parallel::default_jobs),
        color: claim_cli::use_color(),
        max_load_bytes: args.max_load_bytes,
        format: args.format,
        deny_warnings: args.deny_warnings,
        shard: args.shard,
        limits: claim_cli::project::Limits {
            max_nesting: args.max_nesting,
            max_source_bytes: args.max_source_bytes,
            max_files: args.max_files,
            max_value_len: args.max_value_len,
            max_layer_bytes: args.max_layer_bytes,
        },
        timeout_per_witness: Some(args.timeout_per_witness),
        timeout_per_fact: Some(args.timeout_per_fact),
        timings: args.timings,
        allow_empty: args.allow_empty,
        mutate: args.mutate,
        deny_unwitnessed: args.deny_unwitnessed,
    };
    if args.watch {
        claim_cli::main_guarded(move || claim_cli::watch::watch(&opts))
    }
    if args.list {
        claim_cli::main_guarded(move || claim_cli::batch::list(&opts))
    }
    claim_cli::main_guarded(move || claim_cli::batch::run_then_exit(&opts))
}

fn parse_limit(s: &str) -> Result<std::time::Duration, String> {
    match claim_eval::decode::parse_duration(s) {
        Some(ms) if ms > 0 => Ok(std::time::Duration::from_millis(ms as u64)),
        _ => Err(format!("`{s}` is not a positive duration such as `30s` or `5min`")),
    }
}

fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s.split_once('/').ok_or_else(|| format!("`{s}` is not K/N"))?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| format!("`{k}` is not a number"))?,
        n.trim().parse().map_err(|_| format!("`{n}` is not a number"))?,
    );
    if n == 0 || k == 0 || k > n {
        return Err(format!("shard `{s}`: need 1 <= K <= N"));
    }
    Ok((k, n))
}
