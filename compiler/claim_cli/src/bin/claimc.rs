//! `claimc`: everything but running witnesses — `check` and `explain`.

use claim_cli::Output;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "claimc", version, about = "The Claim compiler")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile programs and report every diagnostic, without running witnesses.
    Check {
        /// `.claim` files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Print the explanation of a diagnostic code, e.g. `claimc explain E0203`.
    Explain { code: String },
}

fn main() {
    let args = match Args::try_parse() {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            std::process::exit(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let color = claim_cli::use_color();
    claim_cli::main_guarded(move || match args.command {
        Command::Check { paths } => claim_cli::check::run(&paths, color),
        Command::Explain { code } => match claim_diagnostics::codes::explain(&code) {
            Some(text) => Output { stdout: text.to_string(), stderr: String::new(), code: 0 },
            None => Output {
                stdout: String::new(),
                stderr: format!("error[E0901]: `{code}` is not a Claim diagnostic code\n"),
                code: 2,
            },
        },
    })
}
