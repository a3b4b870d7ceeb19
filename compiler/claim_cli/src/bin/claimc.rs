//! `claimc`: everything but running witnesses — `check`, `fmt`, `doc`,
//! `graph`, `explain`, `init`, `lsp`.

// A run allocates millions of small values and frees the syntax trees
// half-way through; glibc's allocator spent a tenth of the run on that.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

use claim_cli::output::formats::Format;
use claim_cli::Output;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(name = "claimc", version, about = "The Claim compiler")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum GraphFmt {
    Dot,
    Mermaid,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile programs and report every diagnostic, without running witnesses.
    Check {
        /// `.claim` files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value = "human", env = "CLAIM_FORMAT")]
        format: Format,
    },
    /// Render the doc comments of modules as Markdown (`--stdlib`: the whole standard library).
    Doc {
        /// `.claim` files, or standard-library modules such as `std.provenance`.
        modules: Vec<String>,
        /// Every standard-library module, as `docs/stdlib.md` holds it.
        #[arg(long, conflicts_with = "builtins")]
        stdlib: bool,
        /// The built-ins: each signature, what it gives and an example, as
        /// `docs/language.md` holds them.
        #[arg(long)]
        builtins: bool,
    },
    /// The derivation graph: facts → functions → witnesses and frontiers.
    Graph {
        /// `.claim` files or folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// `dot` (Graphviz) or `mermaid` (renders in a pull-request comment).
        #[arg(long, value_enum, default_value = "mermaid")]
        format: GraphFmt,
        /// Run the witnesses and colour them (and the frontiers) by verdict.
        #[arg(long)]
        with_verdicts: bool,
    },
    /// Rewrite `.claim` files in the canonical layout (`-`: standard input to standard output).
    Fmt {
        /// `.claim` files or folders, or `-`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Change nothing: print a diff and exit 1 where a file would change.
        #[arg(long)]
        check: bool,
    },
    /// Start a project in DIR (default: here): `Claim.toml`, a receipt, a
    /// first claim over it and the CI job, which `claim_batch claims` runs
    /// green. Writes nothing over a file that is there.
    Init {
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Run the language server on standard input and output (for editors).
    Lsp,
    /// Print the explanation of a diagnostic code (`claimc explain E0203`)
    /// or of a standard refusal code (`claimc explain FileMissing`)
    /// (without a code: every code and its title).
    Explain { code: Option<String> },
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
        Command::Check { paths, format } => claim_cli::commands::run_check(&paths, color, format),
        Command::Doc { modules, stdlib, builtins } => doc(&modules, stdlib, builtins),
        Command::Graph { paths, format, with_verdicts } => {
            let format = match format {
                GraphFmt::Dot => claim_cli::output::graph::GraphFormat::Dot,
                GraphFmt::Mermaid => claim_cli::output::graph::GraphFormat::Mermaid,
            };
            claim_cli::commands::graph(&paths, format, with_verdicts)
        }
        Command::Lsp => claim_cli::lsp::serve(),
        Command::Init { dir } => claim_cli::commands::init::init(&dir),
        Command::Fmt { paths, check } => claim_cli::commands::fmt::command(&paths, check, color),
        Command::Explain { code: None } => {
            Output { stdout: claim_diagnostics::codes::list(), stderr: String::new(), code: 0 }
        }
        Command::Explain { code: Some(code) } => match claim_diagnostics::codes::explain(&code) {
            Some(text) => Output { stdout: text.to_string(), stderr: String::new(), code: 0 },
            // A refusal code: the world's and the standard library's.
            None if claim_cli::commands::doc::refusal_explanation(&code).is_some() => Output {
                stdout: claim_cli::commands::doc::refusal_explanation(&code).unwrap_or_default(),
                stderr: String::new(),
                code: 0,
            },
            None => {
                let normal = claim_diagnostics::codes::normalize(&code);
                let codes = claim_diagnostics::codes::CODES.iter().map(|(c, _, _)| *c);
                // A number alone may be an error's or a warning's code.
                let numbered: Vec<String> = ["E", "W"]
                    .iter()
                    .map(|l| claim_diagnostics::codes::normalize(&format!("{l}{normal}")))
                    .filter(|c| claim_diagnostics::codes::explain(c).is_some())
                    .map(|c| format!("`{c}`"))
                    .collect();
                let near = match numbered.is_empty() {
                    false => Some(numbered.join(" or ")),
                    true => claim_diagnostics::did_you_mean(&normal, codes).map(|c| format!("`{c}`")),
                };
                let help = match near {
                    Some(near) => format!("did you mean {near}? `claimc explain` lists every code"),
                    None => "`claimc explain` lists every code".to_string(),
                };
                Output {
                    stdout: String::new(),
                    stderr: format!("error[E0901]: `{code}` is not a Claim diagnostic code\n  = help: {help}\n"),
                    code: 2,
                }
            }
        },
    })
}

fn doc(modules: &[String], stdlib: bool, builtins: bool) -> Output {
    if builtins {
        return Output { stdout: claim_cli::commands::doc::builtins_markdown(), stderr: String::new(), code: 0 };
    }
    if stdlib {
        return Output { stdout: claim_cli::commands::doc::stdlib_markdown(), stderr: String::new(), code: 0 };
    }
    if modules.is_empty() {
        return Output {
            stdout: String::new(),
            stderr: "error[E0901]: name modules to document, or pass --stdlib or --builtins\n".into(),
            code: 2,
        };
    }
    let mut out = String::new();
    for m in modules {
        if let Some(src) = claim_cli::stdlib::source(m) {
            out.push_str(&claim_cli::commands::doc::module_markdown(m, src));
            continue;
        }
        match claim_cli::utf8::read_to_string(std::path::Path::new(m)) {
            Ok(src) => out.push_str(&claim_cli::commands::doc::module_markdown(m, &src)),
            Err(e) => {
                return Output {
                    stdout: String::new(),
                    stderr: format!("error[E0901]: cannot read `{m}`: {e}\n"),
                    code: 2,
                };
            }
        }
    }
    Output { stdout: out, stderr: String::new(), code: 0 }
}
