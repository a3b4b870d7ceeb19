//! The command-line edge of Claim: the only crate that touches files, the
//! terminal, the environment and exit codes. The binaries `claim_batch`
//! and `claimc` are thin wrappers around [`batch::run`] and [`commands::run_check`].

pub mod batch;
pub mod check_parts;
pub mod commands;
pub mod db;
pub mod lsp;
pub mod manifest;
pub mod mutate;
pub mod options;
pub mod output;
pub mod parallel;
pub mod project;
pub mod selection;
pub use claim_sema::stdlib;
pub mod utf8;
pub mod watch;
pub mod world;

use std::io::{IsTerminal, Write};

/// What a command prints and how it exits. Commands build this whole and
/// print it only at the end, so a crash midway can never leave a `PASS`
/// line behind.
#[derive(Debug, Default)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Whether to colour output: never with `NO_COLOR`, or when stdout is not
/// a terminal.
pub fn use_color() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

/// The stack of the thread a command runs on, and of its workers: the
/// parser, checker and evaluator recurse as deep as the input nests (the
/// nesting limit, 10,000 levels by default, is what bounds it).
pub const STACK_BYTES: usize = 256 << 20;

/// Runs a command on a thread with a generous stack, turning a panic into
/// an internal-error diagnostic and exit 101 (never a PASS).
pub fn main_guarded(f: impl FnOnce() -> Output + Send + 'static) -> ! {
    std::panic::set_hook(Box::new(|info| {
        let _ = writeln!(
            std::io::stderr(),
            "error[E0999]: internal compiler error: {info}\nnote: this is a bug in Claim; no witness result from this run can be trusted"
        );
    }));
    let handle = std::thread::Builder::new().stack_size(STACK_BYTES).spawn(move || {
        if std::env::var_os("CLAIM_INTERNAL_PANIC").is_some_and(|v| v != "worker") {
            // A hook for the fail-closed tests: proves a crash exits 101.
            panic!("deliberate panic (CLAIM_INTERNAL_PANIC is set)");
        }
        f()
    });
    let result = match handle {
        Ok(h) => h.join(),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error[E0999]: internal compiler error: cannot start: {e}");
            std::process::exit(101);
        }
    };
    match result {
        Ok(out) => {
            // The warnings first, then the report: where the two streams
            // meet (a terminal, a CI log) the report's summary line is last.
            let _ = std::io::stderr().write_all(out.stderr.as_bytes());
            let _ = std::io::stderr().flush();
            let _ = std::io::stdout().write_all(out.stdout.as_bytes());
            let _ = std::io::stdout().flush();
            std::process::exit(out.code);
        }
        Err(_) => std::process::exit(101),
    }
}
