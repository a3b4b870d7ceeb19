//! Refusals and the other ways evaluation stops.

use crate::value::Value;
use claim_diagnostics::Diagnostic;
use claim_syntax::Loc;
use std::sync::Arc;

/// A function that could not derive its standing: a value a witness may
/// expect, carrying what a reviewer needs to see why.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub code: Arc<str>,
    pub message: String,
    /// The `refuse` (or `require`, or built-in operation) that refused.
    pub site: Loc,
    /// Calls from the outermost down to the refusing function:
    /// `(function, call site)`.
    pub chain: Vec<(Arc<str>, Loc)>,
    /// Where the refusal came from `require a <op> b`, the operands, as
    /// `(label, value)`; their origins may be labelled too.
    pub operands: Vec<(&'static str, Value)>,
    /// Where the condition of a `require` was a conjunction (`a and b …`)
    /// or an `all(…)`: the comparison in it that was false, and its
    /// operator.
    pub false_part: Option<(Loc, claim_syntax::ast::BinOp)>,
    /// Where that comparison sits (the element of an `all(…)` that was
    /// false): a note each, outermost first.
    pub context: Vec<String>,
    /// The values a `refuse` message interpolates: where they came from is
    /// often the fact that was wrong (a mistyped digest, a receipt field).
    pub mentioned: Vec<Mentioned>,
    /// Where a world function refused (only inside a fact): the
    /// diagnostics that say what was wrong with what it read (the path; the
    /// spot inside the JSON). The fact that meets it is broken with them.
    pub world: Option<Arc<Vec<Diagnostic>>>,
    /// Where the refusal is that of a broken fact the evaluation read
    /// (§7): that fact, and the fact where it broke.
    pub broken: Option<BrokenRead>,
}

impl Refusal {
    /// A refusal with a code, a message and a site, and nothing else.
    pub fn new(code: impl Into<Arc<str>>, message: String, site: Loc) -> Refusal {
        Refusal {
            code: code.into(),
            message,
            site,
            chain: Vec::new(),
            operands: Vec::new(),
            false_part: None,
            context: Vec::new(),
            mentioned: Vec::new(),
            world: None,
            broken: None,
        }
    }
}

/// A fact that could not be established (§7): its initializer refused, or
/// a world function it called did. A fact that reads a broken fact is
/// broken with the same `Broken` (the one where the refusal entered), so a
/// stale receipt is reported once however many facts carry it.
#[derive(Debug)]
pub struct Broken {
    /// The fact where the refusal entered.
    pub fact: claim_sema::ty::GlobalName,
    /// Its declaration.
    pub loc: Loc,
    /// The code a witness may expect (`refuses f with JsonShape`).
    pub code: Arc<str>,
    /// The refusal's message.
    pub message: String,
    /// What a reviewer reads: the world's diagnostics (naming the path,
    /// pointing into the JSON), or the fact's `E0301` where its own
    /// initializer refused.
    pub diagnostics: Vec<Diagnostic>,
}

/// A read of a broken fact: the fact read (which may carry the refusal of
/// another) and the fact where it broke.
#[derive(Clone, Debug)]
pub struct BrokenRead {
    pub read: Arc<str>,
    pub root: Arc<Broken>,
}

/// A value a refusal's message interpolates, and where in the message:
/// its label names the interpolation (`` `r.run_id` was read from
/// `$.run_id` ``), so a reviewer tells the labels of several apart.
#[derive(Clone, Debug)]
pub struct Mentioned {
    /// The interpolated expression (`{r.run_id}`'s `r.run_id`).
    pub at: Loc,
    /// Whether the value is an element of the interpolated list, not the
    /// list itself.
    pub element: bool,
    pub value: Value,
}

/// Why evaluation stopped.
#[derive(Clone, Debug)]
pub enum Stop {
    Refused(Box<Refusal>),
    /// An error of the program (a world function failed, or an internal
    /// invariant broke): diagnostics already made. An empty list means they
    /// were reported where they happened (a failed fact read again).
    Fatal(Vec<Diagnostic>),
    /// The witness ran past its time limit.
    TimedOut,
}

pub type Eval<T> = Result<T, Stop>;

/// `E0999`: an invariant of the evaluator broke (never the program's fault).
pub(crate) fn internal(msg: impl Into<String>) -> Stop {
    Stop::Fatal(vec![Diagnostic::error("E0999", format!("internal error: {}", msg.into()))])
}

/// `E0407`: a value longer than `--max-value-len`. `made` says what made
/// it ("this `++` makes"), `len` how long it is.
pub(crate) fn too_long(max_len: usize, made: &str, len: String, text: bool, loc: Loc) -> Stop {
    let what = if text { "bytes of text" } else { "list elements" };
    Stop::Fatal(vec![Diagnostic::error("E0407", format!("a value grew past the limit of {max_len} {what}"))
        .at_loc(loc, format!("{made} {len} {what}"))
        .with_help("raise the limit with `--max-value-len` if the program really needs values this large")])
}

/// A refusal with `code` and `message`, refused at `site`.
pub(crate) fn refusal(code: &str, message: String, site: Loc) -> Stop {
    Stop::Refused(Box::new(Refusal::new(code, message, site)))
}
