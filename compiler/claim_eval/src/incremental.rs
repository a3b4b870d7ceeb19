//! Facts as salsa queries (§6, §7). Every read of the outside world is a
//! salsa input (`WorldFile`), created by the database the first time a fact
//! asks for it; each fact is a tracked query (`fact_value`) that depends on
//! the program, on the world inputs it read and on the facts it uses. So a
//! changed receipt re-evaluates exactly the facts that read it, and those
//! that depend on them; everything else is reused.

use crate::eval::Evaluator;
use crate::fact_values::Known;
use crate::fact_values::{FactIndex, FactValues};
use crate::refusal::{Broken, Stop};
use crate::value::Value;
use crate::world::{Types, World, WorldCall, WorldError, WorldResult};
use claim_diagnostics::Diagnostic;
use claim_sema::hir::{self, ExprKind as H, WorldFn};
use claim_sema::ty::{GlobalName, Ty};
use claim_sema::{compile, Compiled, Program};
use rustc_hash::FxHashSet;
use std::sync::Arc;

/// What one world read gave: a value, or why it failed.
#[derive(Clone, Debug)]
pub struct WorldRead(pub Arc<Result<Value, WorldError>>);

impl PartialEq for WorldRead {
    // Inputs are compared by identity: a re-read always counts as a change,
    // so diagnostics never keep stale locations.
    fn eq(&self, other: &WorldRead) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// One read of the outside world (a JSON file decoded, a file or tree
/// hashed, an OCI image read), as a salsa input.
#[salsa::input(debug)]
pub struct WorldFile {
    #[returns(ref)]
    pub value: WorldRead,
}

/// A fact's name, interned as a query key.
#[salsa::interned(debug)]
pub struct FactKey<'db> {
    #[returns(ref)]
    pub name: GlobalName,
}

/// A fact's value, or why it has none.
#[derive(Clone, Debug)]
pub struct FactResult(pub Arc<Result<Value, FactFailure>>);

/// Why a fact has no value.
#[derive(Clone, Debug)]
pub enum FactFailure {
    /// It is broken (§7): witnesses still run, and meet its refusal.
    Broken(Arc<Broken>),
    /// It stopped the run (a limit, an internal error): its diagnostics,
    /// none where a fact it read failed so and reported them.
    Fatal(Vec<Diagnostic>),
}

impl FactResult {
    /// The broken fact's `Broken` where this fact is the one that broke
    /// (not one that reads it): each is reported once, by that fact.
    pub fn broke_here(&self, fact: &hir::Fact) -> Option<&Arc<Broken>> {
        match &*self.0 {
            Err(FactFailure::Broken(b)) if b.fact == fact.name => Some(b),
            _ => None,
        }
    }
}

impl PartialEq for FactResult {
    // Values compare without their origins; comparing by identity keeps a
    // re-evaluated fact's new origins flowing to its dependents.
    fn eq(&self, other: &FactResult) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// A database that can read the world: it resolves the request (paths are
/// IO, so the implementation lives at the edge) and returns the input that
/// holds the read, creating it on first use.
#[salsa::db]
pub trait EvalDb: claim_sema::Db {
    /// The limit on the length of values a fact may build (`--max-value-len`).
    fn max_value_len(&self) -> usize {
        crate::eval::DEFAULT_MAX_VALUE_LEN
    }

    /// How long one fact may take (`--timeout-per-fact`); none by default.
    fn fact_time_limit(&self) -> Option<std::time::Duration> {
        None
    }

    fn world_file(&self, kind: WorldFn, call: &WorldCall<'_>, args: &[Value], ty: &Ty, types: &Types) -> WorldFile;

    /// Where the texts of the JSON files the world read are, for the
    /// JSONPath a diagnostic names (`Evaluator::with_texts`).
    fn json_texts(&self) -> Option<crate::eval::SharedTexts> {
        None
    }
}

/// The world as the evaluator sees it inside a query: every read goes
/// through a salsa input.
struct DbWorld<'a> {
    db: &'a dyn EvalDb,
}

impl World for DbWorld<'_> {
    fn read(&self, kind: WorldFn, call: &WorldCall<'_>, args: &[Value], ty: &Ty, types: &Types) -> WorldResult<Value> {
        (*self.db.world_file(kind, call, args, ty, types).value(self.db).0).clone()
    }
}

/// The facts a fact's initializer uses, through the functions it calls,
/// each once and in name order. Borrowed from the program: a fact is
/// evaluated once a run, and cloning each name it meets (and keeping the
/// functions seen in a tree compared by text) was a few per cent of the
/// facts' time for the one or two names most facts read.
fn fact_dependencies<'c>(compiled: &'c Compiled, fact: &'c hir::Fact) -> Vec<&'c GlobalName> {
    let mut deps: Vec<&GlobalName> = Vec::new();
    let mut seen_fns: FxHashSet<&GlobalName> = FxHashSet::default();
    let mut stack = vec![&fact.init];
    while let Some(e) = stack.pop() {
        hir::visit(e, &mut |x| match &x.kind {
            H::Fact(n) => deps.push(n),
            H::Call(n, _) if seen_fns.insert(n) => {
                if let Some(f) = compiled.function(n) {
                    stack.push(&f.body);
                }
            }
            _ => {}
        });
    }
    deps.sort_unstable();
    deps.dedup();
    deps
}

/// One fact's value, as a query.
#[salsa::tracked(returns(ref))]
pub fn fact_value<'db>(db: &'db dyn EvalDb, program: Program, key: FactKey<'db>) -> FactResult {
    let compiled = compile(db, program);
    let name = key.name(db);
    let world = DbWorld { db };
    let Some(fact) = compiled.fact(name) else {
        return FactResult(Arc::new(Err(FactFailure::Fatal(vec![Diagnostic::error(
            "E0999",
            format!("internal error: no fact `{}`", name.name),
        )]))));
    };
    let texts = db.json_texts();
    let settings = FactSettings {
        max_len: db.max_value_len(),
        limit: db.fact_time_limit(),
        texts: texts.as_ref().map(|t| &**t as crate::eval::Texts<'_>),
    };
    evaluate_fact(compiled, &world, fact, &settings, |dep| {
        fact_value(db, program, FactKey::new(db, dep.clone())).clone()
    })
}

/// What an evaluation of one fact is given besides the program and the
/// world: the limits (`--max-value-len`, `--timeout-per-fact`) and where
/// the JSON texts are, for the JSONPath a diagnostic names.
pub struct FactSettings<'a> {
    pub max_len: usize,
    pub limit: Option<std::time::Duration>,
    pub texts: Option<crate::eval::Texts<'a>>,
}

impl Default for FactSettings<'_> {
    fn default() -> Self {
        FactSettings { max_len: crate::eval::DEFAULT_MAX_VALUE_LEN, limit: None, texts: None }
    }
}

/// One fact's value, given the results of the facts it uses (`dep`),
/// asked for first, all of them. A fact whose evaluation meets the refusal
/// of a broken fact it reads is broken with that fact's `Broken`; one
/// whose own initializer (or a world function it calls) refuses breaks
/// here. The body of the `fact_value` query, and of `--mutate`'s
/// evaluation of a mutant's readers.
pub fn evaluate_fact<W: World + ?Sized>(
    compiled: &Compiled,
    world: &W,
    fact: &hir::Fact,
    settings: &FactSettings<'_>,
    mut dep: impl FnMut(&GlobalName) -> FactResult,
) -> FactResult {
    let deps = fact_dependencies(compiled, fact);
    let mut known = crate::eval::FactValues::with_capacity(deps.len());
    for name in deps {
        let k = match &*dep(name).0 {
            Ok(v) => Known::Value(v.clone()),
            Err(FactFailure::Broken(b)) => Known::Broken(b.clone()),
            Err(FactFailure::Fatal(_)) => Known::Failed,
        };
        known.insert(name, k);
    }
    let mut ev =
        Evaluator::with_facts(compiled, world, known).with_max_len(settings.max_len).with_fact_limit(settings.limit);
    if let Some(texts) = settings.texts {
        ev = ev.with_texts(texts);
    }
    let failure = match ev.fact_value(fact) {
        Ok(v) => return FactResult(Arc::new(Ok(v))),
        Err(Stop::Refused(r)) => match r.broken {
            Some(read) => FactFailure::Broken(read.root),
            None => {
                let diagnostics = match &r.world {
                    Some(world) => (**world).clone(),
                    None => vec![crate::report::fact_refused(fact, &r, &|f| ev.json_text(f))],
                };
                FactFailure::Broken(Arc::new(Broken {
                    fact: fact.name.clone(),
                    loc: fact.loc,
                    code: r.code.clone(),
                    message: r.message.clone(),
                    diagnostics,
                }))
            }
        },
        Err(Stop::Fatal(d)) => FactFailure::Fatal(d),
        Err(Stop::TimedOut) => FactFailure::Fatal(vec![crate::report::fact_timed_out(fact, settings.limit)]),
    };
    FactResult(Arc::new(Err(failure)))
}

/// Every fact of the program, through the queries: what each gave, and
/// the diagnostics of those that stopped the run (each reported once, by
/// the fact that failed).
pub fn evaluate_facts(db: &dyn EvalDb, program: Program) -> Gathered<'_> {
    let compiled = compile(db, program);
    let facts: Vec<&hir::Fact> = compiled.modules.values().flat_map(|m| m.facts.iter()).collect();
    let results = facts.iter().map(|f| fact_result(db, program, f)).collect();
    gather_facts(&facts, results)
}

/// One fact's result through its query, shared (a caller on another
/// thread takes it away from the database).
pub fn fact_result(db: &dyn EvalDb, program: Program, fact: &hir::Fact) -> FactResult {
    fact_value(db, program, FactKey::new(db, fact.name.clone())).clone()
}

/// The facts' results, gathered: what each gave (for the witnesses), the
/// facts that broke (each once, in the program's order) and the
/// diagnostics of failures that stop the run.
pub struct Gathered<'p> {
    pub values: FactValues<'p>,
    pub broken: Vec<Arc<Broken>>,
    pub fatal: Vec<Diagnostic>,
}

/// [`Gathered`] from each fact's result in the program's order (the order
/// the diagnostics are reported in).
pub fn gather_facts<'p>(facts: &[&'p hir::Fact], results: Vec<FactResult>) -> Gathered<'p> {
    let index: FactIndex<'p> = facts.iter().enumerate().map(|(i, f)| (&f.name, i)).collect();
    let mut fatal = Vec::new();
    let mut broken = Vec::new();
    let values = results
        .into_iter()
        .zip(facts)
        .map(|(r, fact)| {
            if let Some(b) = r.broke_here(fact) {
                broken.push(b.clone());
            }
            // A result no one else holds gives its value up; one the query
            // keeps is copied, which copies a few counted pointers.
            let outcome = match Arc::try_unwrap(r.0) {
                Ok(outcome) => outcome,
                Err(shared) => (*shared).clone(),
            };
            Some(match outcome {
                Ok(v) => Known::Value(v),
                Err(FactFailure::Broken(b)) => Known::Broken(b),
                Err(FactFailure::Fatal(d)) => {
                    fatal.extend(d);
                    Known::Failed
                }
            })
        })
        .collect();
    Gathered { values: FactValues::from_parts(index, values), broken, fatal }
}
