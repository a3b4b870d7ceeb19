//! The evaluator (§7): strict, deterministic, left to right. Refusals
//! travel up with their code, message, site and the chain of calls.

use crate::refusal::{internal, too_long, BrokenRead, Eval, Mentioned, Refusal, Stop};
use crate::report::{self, FalseComparison};
use crate::text::{push_text, show};
use crate::value::{FactOrigin, Origin, RecordVal, Value, VariantVal, V};
use crate::world::{Types, World, WorldCall};
use claim_sema::hir::{self, Builtin, ExprKind as H, Lit, OpKind};
use claim_sema::ty::GlobalName;
use claim_sema::Compiled;
use claim_syntax::ast::BinOp;
use claim_syntax::{FileId, Loc, Span};
use std::sync::Arc;

use crate::frame::{borrowed, place_from, Slot};
pub use crate::frame::{Cx, Frame, TraceLine};
use crate::ops::{arith, concat_lists, hashed, lit};
pub use crate::ops::{compare, matches};

pub use crate::fact_values::{FactValues, Known};

/// What fills the unused places of a built-in's arguments.
static UNUSED: Value = Value { kind: V::Bool(false), origin: None };

/// The largest text buffer a context keeps between interpolations.
const TEXT_BUFFER: usize = 4096;

pub struct Evaluator<'p, W: World + ?Sized = dyn World + Sync + 'p> {
    pub compiled: &'p Compiled,
    pub world: &'p W,
    /// Facts evaluated before this evaluator was made: read without a lock
    /// (witnesses on several threads read them constantly).
    known: FactValues<'p>,
    /// The longest text (bytes) or list (elements) `++` may build: without
    /// recursion a program still doubles a value once per call level, so
    /// memory is bounded here rather than by the machine.
    pub max_len: usize,
    /// How long one fact may take (`--timeout-per-fact`); none without.
    pub fact_limit: Option<std::time::Duration>,
    /// The texts of the JSON files values were read from, for the JSONPath
    /// a diagnostic names (values keep only the file and span).
    texts: Option<Texts<'p>>,
}

/// Where the texts of read JSON files are, by file (the sources the world
/// filled as it read them).
pub type Texts<'p> = &'p (dyn Fn(FileId) -> Option<Arc<str>> + Send + Sync);

/// `Texts`, owned.
pub type SharedTexts = Arc<dyn Fn(FileId) -> Option<Arc<str>> + Send + Sync>;

/// The default of `--max-value-len`.
pub const DEFAULT_MAX_VALUE_LEN: usize = 1 << 26;

/// A refusal in a `match` arm itself (not in a function it calls) refused
/// because of what the arm matched (`Unobserved => refuse …`): where the
/// matched value came from is labelled as its message's values are, named
/// as written (`` `r.standing` was read from `$[1].standing` ``). Not a
/// matched list or record: a label over a whole receipt points at nothing
/// in it, and the message's own values say which part.
fn refused_on_match(stop: Stop, (scrutinee, v): (&hir::Expr, &Value), body: &hir::Expr, file: FileId) -> Stop {
    let Stop::Refused(mut r) = stop else { return stop };
    if matches!(v.kind, V::List(_) | V::Record(_) | V::Map(_)) {
        return Stop::Refused(r);
    }
    let within = body.span.start <= r.site.span.start && r.site.span.end <= body.span.end;
    let in_arm = r.chain.is_empty() && r.site.file == file && within;
    let known =
        r.mentioned.iter().map(|m| &m.value).chain(r.operands.iter().map(|(_, o)| o)).any(|k| k.origin == v.origin);
    if in_arm && v.origin.is_some() && !known {
        r.mentioned.push(Mentioned { at: Loc::new(file, scrutinee.span), element: false, value: v.clone() });
    }
    Stop::Refused(r)
}

impl<'p, W: World + ?Sized> Evaluator<'p, W> {
    pub fn new(compiled: &'p Compiled, world: &'p W) -> Evaluator<'p, W> {
        Evaluator {
            compiled,
            world,
            known: Default::default(),
            max_len: DEFAULT_MAX_VALUE_LEN,
            fact_limit: None,
            texts: None,
        }
    }

    /// The same evaluator, knowing where the read JSON texts are.
    pub fn with_texts(mut self, texts: Texts<'p>) -> Self {
        self.texts = Some(texts);
        self
    }

    /// The text of a JSON file values were read from, where known.
    pub fn json_text(&self, file: FileId) -> Option<Arc<str>> {
        self.texts.and_then(|t| t(file))
    }

    /// The same evaluator with another limit on the length of values.
    pub fn with_max_len(mut self, max_len: usize) -> Self {
        self.max_len = max_len;
        self
    }

    /// Each fact (with the facts it evaluates on the way) stops with
    /// `E0408` once it has run for `limit`.
    pub fn with_fact_limit(mut self, limit: Option<std::time::Duration>) -> Self {
        self.fact_limit = limit;
        self
    }

    /// A context for evaluating one fact: its deadline, if facts have one.
    fn fact_cx(&self) -> Cx {
        Cx { deadline: self.fact_limit.map(|l| std::time::Instant::now() + l), ..Cx::default() }
    }

    /// An evaluator that knows these fact values already (evaluated
    /// elsewhere, e.g. by the `fact_value` queries).
    pub fn with_facts(compiled: &'p Compiled, world: &'p W, known: FactValues<'p>) -> Evaluator<'p, W> {
        let mut ev = Evaluator::new(compiled, world);
        // Taken as it is: a large run knows tens of thousands of facts.
        ev.known = known;
        ev
    }

    /// The facts it was given, back (to give another evaluator some of them
    /// changed: `claim_batch --mutate`).
    pub fn into_facts(self) -> FactValues<'p> {
        self.known
    }

    /// The values of the facts it was given, for lints that read them.
    pub fn known_values(&self) -> impl Iterator<Item = &Value> + Clone {
        self.known.values()
    }

    /// The value of a fact evaluated before this evaluator was made.
    pub fn known_value(&self, name: &GlobalName) -> Option<&Value> {
        self.known.get(name)
    }

    /// Evaluates one fact's initializer (the facts it reads are known):
    /// its value, which remembers the fact where it has no origin of its
    /// own, or why it stopped.
    pub fn fact_value(&self, fact: &hir::Fact) -> Eval<Value> {
        let mut frame = Frame::new(fact.frame_size, fact.loc.file);
        let v = self.eval(&fact.init, &mut frame, &mut self.fact_cx())?;
        Ok(match v.origin {
            Some(_) => v,
            None => v.with_origin(Origin::Fact(Arc::new(FactOrigin { name: fact.name.name.clone(), loc: fact.loc }))),
        })
    }

    pub fn types(&self) -> &Types {
        &self.compiled.types
    }

    /// The value of the fact `name`, read at `at`: a broken fact refuses
    /// there with its refusal (§7).
    fn fact(&self, name: &GlobalName, at: Loc, cx: &mut Cx) -> Eval<Value> {
        if let Some(v) = cx.memo.fact(name) {
            return Ok(v);
        }
        match self.known.known(name) {
            Some(Known::Value(v)) => {
                cx.memo.keep_fact(name, v.clone());
                Ok(v.clone())
            }
            Some(Known::Broken(b)) => {
                cx.note(at, || format!("read the broken fact `{}`: {} {}", name.name, b.code, b.message));
                let read = BrokenRead { read: name.name.clone(), root: b.clone() };
                Err(Stop::Refused(Box::new(Refusal {
                    broken: Some(read),
                    ..Refusal::new(b.code.clone(), b.message.clone(), at)
                })))
            }
            // Reported where it failed.
            Some(Known::Failed) => Err(Stop::Fatal(vec![])),
            None => Err(internal(format!("the fact `{}` was read before it was evaluated", name.name))),
        }
    }

    /// Calls `f` with its arguments (the first slots of its frame).
    fn call<'a>(&self, f: &hir::Function, args: Vec<Slot<'a>>, site: Loc, cx: &mut Cx) -> Eval<Value> {
        cx.tick()?;
        let key = if cx.trace.is_none() && cx.memo.wants(f) {
            crate::memo::CallKey::new(f, args.iter().map(Slot::get))
        } else {
            None
        };
        if let Some(v) = key.as_ref().and_then(|k| cx.memo.get(k)) {
            return Ok(v);
        }
        cx.note(site, || {
            format!("{}({})", f.name.name, args.iter().map(|a| show(a.get())).collect::<Vec<_>>().join(", "))
        });
        // The memo keeps copies of the arguments (they keep its keys'
        // pointers alive); a call it does not keep copies none.
        let kept = key.map(|k| (k, args.iter().map(|a| a.get().clone()).collect::<Vec<_>>()));
        let mut frame = Frame::with_args(f.frame_size, f.loc.file, args);
        cx.depth += 1;
        let result = self.eval(&f.body, &mut frame, cx);
        cx.depth -= 1;
        if let (Some((key, args)), Ok(v)) = (kept, &result) {
            cx.memo.insert(key, args, v.clone());
        }
        match result {
            Err(Stop::Refused(mut r)) => {
                r.chain.insert(0, (f.name.name.clone(), site));
                Err(Stop::Refused(r))
            }
            other => other,
        }
    }

    pub fn eval(&self, e: &hir::Expr, frame: &mut Frame, cx: &mut Cx) -> Eval<Value> {
        let loc = Loc::new(frame.file(), e.span);
        Ok(match &e.kind {
            H::Lit(l) => lit(l).with_origin(Origin::Literal(loc)),
            H::Text(parts) => {
                // Built in the thread's buffer (one inside an interpolated
                // part builds its own), then copied once into its value.
                let mut s = std::mem::take(&mut cx.text);
                s.clear();
                // Where the first part that came from somewhere did: a
                // text made from a receipt's value points back at it.
                let mut origin = None;
                for p in parts {
                    match p {
                        hir::TextPart::Lit(t) => s.push_str(t),
                        // A part that is a place (`{i.name}`) is written
                        // from where it is, not copied out first.
                        hir::TextPart::Expr(x) => match self.place(x, frame) {
                            Some(v) => {
                                push_text(&mut s, v, self.max_len);
                                if origin.is_none() {
                                    origin = Origin::through(v.origin.as_ref(), "interpolation");
                                }
                            }
                            None => {
                                let v = self.eval(x, frame, cx)?;
                                push_text(&mut s, &v, self.max_len);
                                if origin.is_none() {
                                    origin = Origin::through(v.origin.as_ref(), "interpolation");
                                }
                            }
                        },
                    }
                    if s.len() > self.max_len {
                        return Err(too_long(self.max_len, "this text makes at least", s.len().to_string(), true, loc));
                    }
                }
                let v = Value { kind: V::Text(Arc::from(s.as_str())), origin };
                if s.capacity() <= TEXT_BUFFER {
                    cx.text = s;
                }
                v
            }
            H::Local(slot) => frame.get(*slot).cloned().ok_or_else(|| internal("unbound local"))?,
            H::Fact(name) => self.fact(name, loc, cx)?,
            H::Call(name, args) => {
                let Some(f) = self.compiled.function(name) else {
                    return Err(internal(format!("unknown function `{}`", name.name)));
                };
                // The arguments are the first slots of the callee's frame:
                // made as large as it at once, not grown when it is made.
                // Those that are places are read where they are (as a
                // comparison reads them), after the others are evaluated:
                // reading a place has no effect, and a slot is never reused.
                let mut values = Vec::with_capacity((f.frame_size as usize).max(args.len()));
                for a in args.iter() {
                    values.push(match self.place(a, frame) {
                        Some(_) => None,
                        None => Some(self.eval(a, frame, cx)?),
                    });
                }
                let frame: &Frame = frame;
                let mut slots = Vec::with_capacity(values.capacity());
                for (a, v) in args.iter().zip(values) {
                    slots.push(match v {
                        Some(v) => Slot::Own(v),
                        None => Slot::Ref(self.place(a, frame).ok_or_else(|| internal("place"))?),
                    });
                }
                self.call(f, slots, loc, cx)?
            }
            H::Builtin(b, args) => return self.builtin(*b, args, frame, cx, loc),
            H::World(w, args) => self.world_call(*w, args, &e.ty, frame, cx, loc)?,
            H::Field(x, i, _) => {
                // A field of a local or a fact is copied out where it is,
                // without copying the record first.
                if let Some(v) = self.place(e, frame) {
                    return Ok(v.clone());
                }
                let v = self.eval(x, frame, cx)?;
                match &v.kind {
                    V::Record(r) => r.fields.get(*i as usize).cloned().ok_or_else(|| internal("field index"))?,
                    _ => return Err(internal("field of a non-record")),
                }
            }
            H::Record(r) => {
                let values = self.eval_fields(&r.fields, r.names.len(), frame, cx)?;
                Value::new(V::Record(Arc::new(RecordVal {
                    name: r.ty.name.clone(),
                    names: r.names.clone(),
                    fields: values,
                })))
            }
            H::Variant(v) => {
                let n = v.names.as_ref().map(|n| n.len()).unwrap_or(0);
                let values = self.eval_fields(&v.fields, n, frame, cx)?;
                Value::new(V::Variant(Arc::new(VariantVal {
                    name: v.name.clone(),
                    index: v.index,
                    names: v.names.clone(),
                    fields: values,
                })))
            }
            H::List(items) => Value::list(self.eval_all(items, frame, cx)?),
            H::Comprehension { elem, slot, iter, cond } => {
                // Over a list the frame holds by reference (an argument's,
                // or a field of one: `[b for b in bindings if …]`), each
                // element is bound where it is. Copying it into the slot,
                // and dropping it at the next, cost two atomic updates of
                // its counts for every element, kept or not.
                if let Some(src) = borrowed(iter, frame) {
                    let items = src.as_list().ok_or_else(|| internal("comprehension over a non-list"))?;
                    let mut out = Vec::with_capacity(if cond.is_none() { items.len() } else { 0 });
                    for item in items {
                        cx.tick()?;
                        frame.set_ref(*slot, item);
                        if let Some(c) = cond {
                            if !self.eval_bool(c, frame, cx)? {
                                continue;
                            }
                        }
                        out.push(self.eval(elem, frame, cx)?);
                    }
                    return Ok(Value::list(out));
                }
                let src = self.eval(iter, frame, cx)?;
                let items = src.as_list().ok_or_else(|| internal("comprehension over a non-list"))?;
                let mut out = Vec::with_capacity(if cond.is_none() { items.len() } else { 0 });
                for item in items {
                    cx.tick()?;
                    frame.set(*slot, item.clone());
                    if let Some(c) = cond {
                        if !self.eval_bool(c, frame, cx)? {
                            continue;
                        }
                    }
                    out.push(self.eval(elem, frame, cx)?);
                }
                Value::list(out)
            }
            // Comparisons, `and` and `or` are conditions, answered as such.
            H::Binary(op, ..) if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) => {
                Value::bool(self.eval_bool(e, frame, cx)?)
            }
            H::Binary(op, kind, l, r) => self.arith_expr(*op, *kind, l, r, frame, cx, loc)?,
            H::Not(x) => Value::bool(!self.eval_bool(x, frame, cx)?),
            H::Is(x, p) => {
                let v = self.eval(x, frame, cx)?;
                Value::bool(matches(p, &v, frame))
            }
            H::If(c, a, b) => {
                if self.eval_bool(c, frame, cx)? {
                    self.eval(a, frame, cx)?
                } else {
                    self.eval(b, frame, cx)?
                }
            }
            H::Match(s, arms) => {
                let v = self.eval(s, frame, cx)?;
                for (p, body) in arms {
                    if matches(p, &v, frame) {
                        let file = frame.file();
                        return self.eval(body, frame, cx).map_err(|stop| refused_on_match(stop, (s, &v), body, file));
                    }
                }
                return Err(internal("no match arm matched"));
            }
            H::Block(stmts, result) => {
                for s in stmts {
                    match s {
                        hir::Stmt::Let { slot, value } => {
                            let v = self.eval(value, frame, cx)?;
                            frame.set(*slot, v);
                        }
                        hir::Stmt::Require { cond, code, message, span } => {
                            self.require(cond, code, message, *span, frame, cx)?
                        }
                    }
                }
                self.eval(result, frame, cx)?
            }
            H::Refuse { code, message } => {
                let (text, mentioned) = self.refusal_message(message, frame, cx)?;
                cx.note(loc, || format!("refuse {code}: {text}"));
                let r = Refusal { mentioned, ..Refusal::new(code.clone(), text, loc) };
                return Err(Stop::Refused(Box::new(r)));
            }
            H::Some(x) => Value::new(V::Option(Some(Arc::new(self.eval(x, frame, cx)?)))),
            H::None => Value::new(V::Option(None)),
            H::Wrap(x) => self.eval(x, frame, cx)?,
            H::Error => return Err(internal("evaluated an expression with a compile error")),
        })
    }

    fn require(
        &self,
        cond: &hir::Expr,
        code: &Arc<str>,
        message: &hir::Expr,
        span: Span,
        frame: &mut Frame,
        cx: &mut Cx,
    ) -> Eval<()> {
        let loc = Loc::new(frame.file(), span);
        // A comparison keeps its operands, so a refusal can show them.
        let (ok, operands) = match &cond.kind {
            H::Binary(op, kind, l, r) if op.is_comparison() => {
                // The operands are copied only where the trace or the
                // refusal shows them: most `require`s hold.
                let (ok, lv, rv) = self.comparison((*op, *kind), (l, r), frame, cx)?;
                if ok && cx.trace.is_none() {
                    return Ok(());
                }
                let owned = |v: Option<Value>, x: &hir::Expr| match v {
                    Some(v) => Ok(v),
                    None => self.place(x, frame).cloned().ok_or_else(|| internal("place")),
                };
                (ok, vec![("left", owned(lv, l)?), ("right", owned(rv, r)?)])
            }
            _ => (self.eval_bool(cond, frame, cx)?, vec![]),
        };
        // In `require a and b …` or `require all(…)`, the comparison that
        // was false, found again (evaluation is pure) only where the
        // `require` failed. (A false `any(…)` has no one element to blame;
        // its message says what was missing.)
        let mut false_part = None;
        let mut context = Vec::new();
        let mut operands = operands;
        if !ok && matches!(cond.kind, H::Binary(BinOp::And, ..) | H::Builtin(hir::Builtin::All, _)) {
            if let Some(c) = find_false(self, cond, frame) {
                false_part = Some((Loc::new(c.left.0.file, c.left.0.span.join(c.right.0.span)), c.op));
                operands = vec![("left", c.left.1), ("right", c.right.1)];
                context = c.context;
            }
        }
        cx.note(loc, || {
            let vals = operands.iter().map(|(n, v)| format!("{n}: {}", show(v))).collect::<Vec<_>>().join(", ");
            format!(
                "require {} ({})",
                if ok { "held" } else { "failed" },
                if vals.is_empty() { ok.to_string() } else { vals }
            )
        });
        if ok {
            return Ok(());
        }
        let (text, mut mentioned) = self.refusal_message(message, frame, cx)?;
        // An operand already has its label.
        mentioned.retain(|m| !operands.iter().any(|(_, o)| o.origin == m.value.origin));
        Err(Stop::Refused(Box::new(Refusal {
            operands,
            false_part,
            context,
            mentioned,
            ..Refusal::new(code.clone(), text, loc)
        })))
    }

    /// A refusal's message, and the values it interpolates that came from
    /// somewhere a diagnostic can point at (a list's elements keep their
    /// own origins).
    fn refusal_message(&self, message: &hir::Expr, frame: &mut Frame, cx: &mut Cx) -> Eval<(String, Vec<Mentioned>)> {
        let mut mentioned = Vec::new();
        let loc = Loc::new(frame.file(), message.span);
        let text = match &message.kind {
            H::Text(parts) => {
                let mut s = String::new();
                for p in parts.iter() {
                    match p {
                        hir::TextPart::Lit(t) => s.push_str(t),
                        hir::TextPart::Expr(x) => {
                            let v = self.eval(x, frame, cx)?;
                            push_text(&mut s, &v, self.max_len);
                            let at = Loc::new(frame.file(), x.span);
                            if let V::List(items) = &v.kind {
                                let element = |value: &Value| Mentioned { at, element: true, value: value.clone() };
                                mentioned.extend(items.iter().map(element));
                            }
                            mentioned.push(Mentioned { at, element: false, value: v });
                        }
                    }
                    if s.len() > self.max_len {
                        return Err(too_long(self.max_len, "this text makes at least", s.len().to_string(), true, loc));
                    }
                }
                s
            }
            _ => {
                let mut s = String::new();
                push_text(&mut s, &self.eval(message, frame, cx)?, self.max_len);
                if s.len() > self.max_len {
                    return Err(too_long(self.max_len, "this text makes at least", s.len().to_string(), true, loc));
                }
                s
            }
        };
        // Each place once.
        let mut kept: Vec<Mentioned> = Vec::with_capacity(mentioned.len());
        for m in mentioned {
            if m.value.origin.is_some() && !kept.iter().any(|k| k.value.origin == m.value.origin) {
                kept.push(m);
            }
        }
        Ok((text, kept))
    }

    /// A built-in's call. `raw` is the identity at run time (newtypes are
    /// erased); the others read their arguments, so locals, facts and
    /// their fields are passed where they are (as comparisons do: a place
    /// has no effect and cannot refuse, and a slot is never reused), with
    /// no list of copies made for the call.
    fn builtin(&self, b: Builtin, args: &[hir::Expr], frame: &mut Frame, cx: &mut Cx, loc: Loc) -> Eval<Value> {
        const N: usize = 4;
        if let (Builtin::Raw, [x]) = (b, args) {
            return self.eval(x, frame, cx);
        }
        if args.len() > N {
            let values = self.eval_all(args, frame, cx)?;
            let refs: Vec<&Value> = values.iter().collect();
            return crate::builtins::call(b, &refs, self.max_len, loc);
        }
        let mut owned: [Option<Value>; N] = Default::default();
        for (slot, a) in owned.iter_mut().zip(args) {
            if self.place(a, frame).is_none() {
                *slot = Some(self.eval(a, frame, cx)?);
            }
        }
        let mut refs: [&Value; N] = [&UNUSED; N];
        for ((r, a), o) in refs.iter_mut().zip(args).zip(&owned) {
            *r = match o {
                Some(v) => v,
                None => self.place(a, frame).ok_or_else(|| internal("place"))?,
            };
        }
        crate::builtins::call(b, &refs[..args.len()], self.max_len, loc)
    }

    fn eval_all(&self, xs: &[hir::Expr], frame: &mut Frame, cx: &mut Cx) -> Eval<Vec<Value>> {
        xs.iter().map(|x| self.eval(x, frame, cx)).collect()
    }

    fn eval_fields(&self, fields: &[(u32, hir::Expr)], n: usize, frame: &mut Frame, cx: &mut Cx) -> Eval<Vec<Value>> {
        let mut values: Vec<Option<Value>> = vec![None; n];
        for (i, x) in fields {
            let v = self.eval(x, frame, cx)?;
            if let Some(slot) = values.get_mut(*i as usize) {
                *slot = Some(v);
            }
        }
        values.into_iter().map(|v| v.ok_or_else(|| internal("missing field"))).collect()
    }

    /// Where an expression's value already is, if it is a place: a local,
    /// a fact already known, or a field of one. Reading a place has no
    /// effect and cannot refuse, so it may be read instead of evaluated.
    fn place<'f>(&'f self, e: &hir::Expr, frame: &'f Frame) -> Option<&'f Value> {
        place_from(e, &|leaf| match &leaf.kind {
            H::Local(slot) => frame.get(*slot),
            H::Fact(name) => self.known.get(name),
            _ => None,
        })
    }

    /// Whether the comparison `l op r` holds, with the values of the
    /// operands that are not places (each `None` is a place, read where it
    /// is). Operands that are places (locals, facts, their fields) are
    /// compared where they are: most `holds` and `require`s compare a
    /// receipt's field with a value, and copying records to compare one
    /// field was a fifth of a witness's time. A place has no effect and
    /// cannot refuse, and `let` never reuses a slot, so reading the left
    /// one after the right operand ran reads the same value.
    fn comparison(
        &self,
        (op, kind): (BinOp, OpKind),
        (l, r): (&hir::Expr, &hir::Expr),
        frame: &mut Frame,
        cx: &mut Cx,
    ) -> Eval<(bool, Option<Value>, Option<Value>)> {
        let compared = |a: &Value, b: &Value| compare(op, kind, a, b).ok_or_else(|| internal("comparison"));
        // Both places (`b.image == image`): each read once, nothing copied.
        let (lp, rp) = match (self.place(l, frame), self.place(r, frame)) {
            (Some(a), Some(b)) => return Ok((compared(a, b)?, None, None)),
            (a, b) => (a.is_some(), b.is_some()),
        };
        let lv = if lp { None } else { Some(self.eval(l, frame, cx)?) };
        let rv = if rp { None } else { Some(self.eval(r, frame, cx)?) };
        let a = match &lv {
            Some(v) => v,
            None => self.place(l, frame).ok_or_else(|| internal("place"))?,
        };
        let b = match &rv {
            Some(v) => v,
            None => self.place(r, frame).ok_or_else(|| internal("place"))?,
        };
        Ok((compared(a, b)?, lv, rv))
    }

    /// A Bool expression's value. Conditions (`if` in comprehensions,
    /// `require`, `holds`) are mostly comparisons joined by `and`: those
    /// are answered here without making a value for each step.
    pub fn eval_bool(&self, e: &hir::Expr, frame: &mut Frame, cx: &mut Cx) -> Eval<bool> {
        match &e.kind {
            H::Binary(op, kind, l, r) if op.is_comparison() => Ok(self.comparison((*op, *kind), (l, r), frame, cx)?.0),
            H::Binary(BinOp::And, _, l, r) => Ok(self.eval_bool(l, frame, cx)? && self.eval_bool(r, frame, cx)?),
            H::Binary(BinOp::Or, _, l, r) => Ok(self.eval_bool(l, frame, cx)? || self.eval_bool(r, frame, cx)?),
            H::Not(x) => Ok(!self.eval_bool(x, frame, cx)?),
            _ => self.eval(e, frame, cx)?.as_bool().ok_or_else(|| internal("expected a Bool")),
        }
    }

    /// `+ - * / ++` over the values of both operands, left first.
    #[allow(clippy::too_many_arguments)]
    fn arith_expr(
        &self,
        op: BinOp,
        kind: OpKind,
        l: &hir::Expr,
        r: &hir::Expr,
        frame: &mut Frame,
        cx: &mut Cx,
        loc: Loc,
    ) -> Eval<Value> {
        let lv = self.eval(l, frame, cx)?;
        let rv = self.eval(r, frame, cx)?;
        if op == BinOp::Concat {
            let len = match (&lv.kind, &rv.kind) {
                (V::Text(a), V::Text(b)) => a.len() + b.len(),
                (V::List(a), V::List(b)) => a.len() + b.len(),
                _ => 0,
            };
            if len > self.max_len {
                let text = matches!(lv.kind, V::Text(_));
                return Err(too_long(self.max_len, "this `++` makes", len.to_string(), text, loc));
            }
        }
        let (lv, rv) = match (kind, lv, rv) {
            (OpKind::List, Value { kind: V::List(a), .. }, Value { kind: V::List(b), .. }) => {
                return Ok(Value::list(concat_lists(a, b)));
            }
            (_, lv, rv) => (lv, rv),
        };
        arith(op, kind, &lv, &rv, loc)
    }

    fn world_call(
        &self,
        w: hir::WorldFn,
        args: &[hir::Expr],
        ty: &claim_sema::ty::Ty,
        frame: &mut Frame,
        cx: &mut Cx,
        loc: Loc,
    ) -> Eval<Value> {
        let hir_args = args;
        let Some((first, rest)) = args.split_first() else { return Err(internal("world path")) };
        // A path written as a literal (nearly every `load`) is read where
        // the program has it: copying its text's pointer and dropping the
        // copy were atomic updates of a count the check had written, often
        // on the other core — half the samples of evaluating the facts'
        // expressions (their loads aside).
        let evaluated;
        let path: &str = match &first.kind {
            H::Lit(Lit::Text(t)) => t,
            _ => {
                evaluated = self.eval(first, frame, cx)?;
                evaluated.as_text().ok_or_else(|| internal("world path"))?
            }
        };
        let args = self.eval_all(rest, frame, cx)?;
        let call = WorldCall::new(path, frame.file(), loc, hir_args.first());
        // A digest remembers what it hashed, for a diagnostic to say which
        // file's bytes differ from what a receipt states.
        let result = self.world.read(w, &call, &args, ty, self.types()).map(|v| match w {
            hir::WorldFn::FileSha256 | hir::WorldFn::FileSha512 | hir::WorldFn::GitTree => {
                hashed(v, w.name(), path, loc)
            }
            _ => v,
        });
        result.map_err(|e| match e.code {
            crate::world::WorldCode::Internal => Stop::Fatal(e.diagnostics),
            code => {
                let message = e.diagnostics.first().map(|d| d.message.clone()).unwrap_or_default();
                let r = Refusal { world: Some(Arc::new(e.diagnostics)), ..Refusal::new(code.name(), message, loc) };
                Stop::Refused(Box::new(r))
            }
        })
    }
}

/// Finds the comparison that made a Bool expression false — through `and`
/// and into the elements of `all(…)` and `any(…)` — evaluating again
/// (evaluation is pure, and facts are already known).
pub(crate) fn find_false<W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    e: &hir::Expr,
    frame: &mut Frame,
) -> Option<FalseComparison> {
    let mut cx = Cx::default();
    match &e.kind {
        H::Binary(BinOp::And, _, l, r) => {
            if !ev.eval_bool(l, frame, &mut cx).ok()? {
                find_false(ev, l, frame)
            } else {
                find_false(ev, r, frame)
            }
        }
        H::Binary(op, kind, l, r) if op.is_comparison() => {
            let lv = ev.eval(l, frame, &mut cx).ok()?;
            let rv = ev.eval(r, frame, &mut cx).ok()?;
            if compare(*op, *kind, &lv, &rv)? {
                return None;
            }
            Some(FalseComparison {
                op: *op,
                left: (Loc::new(frame.file(), l.span), lv),
                right: (Loc::new(frame.file(), r.span), rv),
                context: Vec::new(),
            })
        }
        // `any` is false where every element is: the first one is shown.
        H::Builtin(which @ (hir::Builtin::All | hir::Builtin::Any), args) => {
            let [list] = &args[..] else { return None };
            let (i, mut found, of) = false_element(ev, list, frame)?;
            let texts = |f| ev.json_text(f);
            let of = of.and_then(|x| report::written(Loc::new(frame.file(), x.span), &texts));
            let of = of.map(|x| format!(" of {x}")).unwrap_or_default();
            let note = match which {
                hir::Builtin::All => format!("`all` is false first at element `[{i}]`{of}"),
                _ => format!("`any` is false: no element is true; the first, element `[{i}]`{of}, is shown"),
            };
            found.context.insert(0, note);
            Some(found)
        }
        _ => None,
    }
}

/// In `all(list)` (or `any(list)`) found false: the first element that is
/// false, where the list is written as a comprehension (`[s.image == c for
/// s in startup]`: its place in the list iterated, which it names) or as a
/// list literal, with the comparison that made it false.
fn false_element<'e, W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    list: &'e hir::Expr,
    frame: &mut Frame,
) -> Option<(usize, FalseComparison, Option<&'e hir::Expr>)> {
    let mut cx = Cx::default();
    match &list.kind {
        H::Comprehension { elem, slot, iter, cond } => {
            let items = ev.eval(iter, frame, &mut cx).ok()?;
            for (i, x) in items.as_list()?.iter().enumerate() {
                frame.set(*slot, x.clone());
                if let Some(c) = cond {
                    if !ev.eval_bool(c, frame, &mut cx).ok()? {
                        continue;
                    }
                }
                if !ev.eval_bool(elem, frame, &mut cx).ok()? {
                    return Some((i, find_false(ev, elem, frame)?, Some(&**iter)));
                }
            }
            None
        }
        H::List(items) => {
            for (i, x) in items.iter().enumerate() {
                if !ev.eval_bool(x, frame, &mut cx).ok()? {
                    return Some((i, find_false(ev, x, frame)?, None));
                }
            }
            None
        }
        _ => None,
    }
}
