//! What an evaluation carries: its context (the trace being recorded, the
//! deadline, the call memo, a buffer for texts) and the frame of each call.

use crate::refusal::{Eval, Stop};
use crate::value::Value;
use claim_sema::hir;
use claim_syntax::{FileId, Loc};

/// One line of an `--explain` trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    pub depth: usize,
    pub text: String,
    pub loc: Loc,
}

/// Per-evaluation context: the trace being recorded, if any.
#[derive(Default)]
pub struct Cx {
    pub trace: Option<Vec<TraceLine>>,
    pub(crate) depth: usize,
    /// When evaluation must stop (a witness's time limit).
    pub deadline: Option<std::time::Instant>,
    /// Counts work between deadline checks, so the clock is read rarely.
    pub(crate) ticks: u32,
    /// Values of calls made already (see `memo`); not used while tracing.
    pub memo: crate::memo::CallMemo,
    /// Where interpolated texts are built (kept while small).
    pub(crate) text: String,
}

impl Cx {
    pub fn tracing() -> Cx {
        Cx { trace: Some(Vec::new()), ..Cx::default() }
    }

    /// Fails with `Stop::TimedOut` once the deadline has passed. Called on
    /// every call and loop step: without recursion, these are where time goes.
    pub(crate) fn tick(&mut self) -> Eval<()> {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(1024) {
            if let Some(d) = self.deadline {
                if std::time::Instant::now() >= d {
                    return Err(Stop::TimedOut);
                }
            }
        }
        Ok(())
    }
    pub(crate) fn note(&mut self, loc: Loc, text: impl FnOnce() -> String) {
        if let Some(t) = &mut self.trace {
            t.push(TraceLine { depth: self.depth, text: text(), loc });
        }
    }
}

/// A slot's value: made in this frame, or an argument read where the
/// caller has it (a local, a fact or a field of one: a place, which cannot
/// change while the call runs). Copying such an argument into the frame
/// and dropping it at the return cost two atomic updates of a count per
/// shared part, and most arguments are places (`produced(candidate, b0)`,
/// `build_key(c, r.observed_tree)`).
#[derive(Clone)]
pub(crate) enum Slot<'a> {
    Own(Value),
    Ref(&'a Value),
}

impl Slot<'_> {
    pub(crate) fn get(&self) -> &Value {
        match self {
            Slot::Own(v) => v,
            Slot::Ref(v) => v,
        }
    }
}

/// The slots of one call (or fact, or witness): its arguments first,
/// then its locals.
pub struct Frame<'a> {
    pub(crate) slots: Vec<Slot<'a>>,
    file: FileId,
}

impl<'a> Frame<'a> {
    pub fn new(size: u32, file: FileId) -> Frame<'a> {
        Frame { slots: vec![Slot::Own(Value::bool(false)); size as usize], file }
    }
    /// A frame whose first slots hold a call's arguments.
    pub(crate) fn with_args(size: u32, file: FileId, mut args: Vec<Slot<'a>>) -> Frame<'a> {
        let size = (size as usize).max(args.len());
        args.resize(size, Slot::Own(Value::bool(false)));
        Frame { slots: args, file }
    }
    pub fn file(&self) -> FileId {
        self.file
    }
    /// The value in a slot.
    pub(crate) fn get(&self, slot: hir::Slot) -> Option<&Value> {
        self.slots.get(slot as usize).map(Slot::get)
    }
    pub fn set(&mut self, slot: hir::Slot, v: Value) {
        if let Some(s) = self.slots.get_mut(slot as usize) {
            *s = Slot::Own(v);
        }
    }
    /// The value of a slot that holds it by reference, for as long as the
    /// reference lives (not only while the frame is borrowed); `None` for
    /// a value the frame owns.
    pub(crate) fn get_ref(&self, slot: hir::Slot) -> Option<&'a Value> {
        match self.slots.get(slot as usize)? {
            Slot::Ref(v) => Some(*v),
            Slot::Own(_) => None,
        }
    }
    /// Binds a slot to a value held elsewhere, for at least as long as the
    /// frame.
    pub(crate) fn set_ref(&mut self, slot: hir::Slot, v: &'a Value) {
        if let Some(s) = self.slots.get_mut(slot as usize) {
            *s = Slot::Ref(v);
        }
    }
}

/// Where a place's value already is: `root` finds that of the local or
/// fact it starts from, and its fields (and `raw(x)` or a newtype's
/// conversion of it: the same value) are followed from there.
pub(crate) fn place_from<'v>(e: &hir::Expr, root: &impl Fn(&hir::Expr) -> Option<&'v Value>) -> Option<&'v Value> {
    use crate::value::V;
    use hir::ExprKind as H;
    match &e.kind {
        H::Field(x, i, _) => match &place_from(x, root)?.kind {
            V::Record(r) => r.fields.get(*i as usize),
            _ => None,
        },
        H::Wrap(x) => place_from(x, root),
        H::Builtin(hir::Builtin::Raw, args) => match &args[..] {
            [x] => place_from(x, root),
            _ => None,
        },
        _ => root(e),
    }
}

/// Where an expression's value is, if the frame holds it by reference: a
/// local bound to a value held elsewhere, or a field of one — for as long
/// as the reference lives, so that a comprehension can bind each element
/// of it in turn.
pub(crate) fn borrowed<'x>(e: &hir::Expr, frame: &Frame<'x>) -> Option<&'x Value> {
    place_from(e, &|leaf| match &leaf.kind {
        hir::ExprKind::Local(slot) => frame.get_ref(*slot),
        _ => None,
    })
}
