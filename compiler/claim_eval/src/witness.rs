//! Running witnesses and checking frontiers (§5).

use crate::eval::{Cx, Evaluator, Frame, TraceLine};
use crate::memo::CallMemo;
use crate::refusal::{Broken, Stop};
use crate::report;
use crate::text::text_of;
use claim_diagnostics::Diagnostic;
use claim_sema::hir::{self, ExprKind as H, WitnessStmtKind as S};
use claim_syntax::Loc;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct WitnessReport {
    pub name: std::sync::Arc<str>,
    pub module: std::sync::Arc<str>,
    pub loc: Loc,
    /// `None` where the witness passed. Boxed: most pass, and a large run
    /// holds tens of thousands of reports.
    pub failure: Option<Box<Diagnostic>>,
    /// The `--explain` trace, where one was asked for.
    pub trace: Vec<TraceLine>,
    pub duration: Duration,
    /// The broken facts whose refusal it met (§7), each with whether a
    /// `refuses` statement expected it there.
    pub broken: Vec<MetBroken>,
    /// Where each refusal its statements met was made (a `require`, a
    /// `refuse`): which refusals a suite reaches (`--mutate`).
    pub refused_at: Vec<Loc>,
}

/// A broken fact's refusal, met by a witness or a frontier.
#[derive(Clone, Debug)]
pub struct MetBroken {
    pub fact: Arc<Broken>,
    /// Met in a `refuses … with` statement naming its code.
    pub expected: bool,
}

impl WitnessReport {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }

    /// The broken facts this witness expects: met where a `refuses`
    /// statement named their code, in a witness that passed.
    pub fn expects(&self) -> impl Iterator<Item = &Arc<Broken>> {
        self.broken.iter().filter(|m| m.expected && self.passed()).map(|m| &m.fact)
    }
}

/// Runs a witness; with a time limit, one that runs longer fails (E0406).
pub fn run_witness<W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    w: &hir::Witness,
    trace: bool,
    limit: Option<Duration>,
) -> WitnessReport {
    run_witness_with(ev, w, trace, limit, &mut CallMemo::default())
}

/// `run_witness`, reusing (and adding to) the values of calls that earlier
/// witnesses made: a thread that runs many witnesses keeps one memo. A memo
/// belongs to one evaluator (its functions are keyed by address): drop it
/// with the evaluator, never carry it to another program.
pub fn run_witness_with<W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    w: &hir::Witness,
    trace: bool,
    limit: Option<Duration>,
    memo: &mut CallMemo,
) -> WitnessReport {
    let start = Instant::now();
    let mut cx = if trace { Cx::tracing() } else { Cx::default() };
    cx.deadline = limit.map(|l| start + l);
    cx.memo = std::mem::take(memo);
    let mut broken = Vec::new();
    let mut refused_at = Vec::new();
    let failure = run_stmts(ev, w, &mut cx, limit, &mut broken, &mut refused_at);
    *memo = std::mem::take(&mut cx.memo);
    WitnessReport {
        name: w.name.clone(),
        module: w.module.clone(),
        loc: w.loc,
        failure: failure.map(Box::new),
        trace: cx.trace.unwrap_or_default(),
        duration: start.elapsed(),
        broken,
        refused_at,
    }
}

/// Notes the broken fact whose refusal a statement met, if it was one.
fn met(broken: &mut Vec<MetBroken>, stop: &Stop, expected: bool) {
    if let Stop::Refused(r) = stop {
        if let Some(read) = &r.broken {
            broken.push(MetBroken { fact: read.root.clone(), expected });
        }
    }
}

fn run_stmts<W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    w: &hir::Witness,
    cx: &mut Cx,
    limit: Option<Duration>,
    broken: &mut Vec<MetBroken>,
    refused_at: &mut Vec<Loc>,
) -> Option<Diagnostic> {
    let timed_out = |at: Loc| Some(report::timed_out(w, at, limit.unwrap_or_default()));
    let file = w.loc.file;
    let texts = &|f| ev.json_text(f);
    let mut frame = Frame::new(w.frame_size, file);
    for stmt in &w.stmts {
        let at = Loc::new(file, stmt.span);
        let mut meet = |stop: Stop, expected: bool| {
            met(broken, &stop, expected);
            if let Stop::Refused(r) = &stop {
                refused_at.push(r.site);
            }
            stop
        };
        match &stmt.kind {
            S::Let { slot, value } => match ev.eval(value, &mut frame, cx).map_err(|s| meet(s, false)) {
                Ok(v) => frame_set(&mut frame, *slot, v),
                Err(Stop::Refused(r)) => return Some(report::unexpected_refusal(w, at, &r, texts)),
                Err(Stop::Fatal(d)) => return Some(report::fatal_in_witness(w, at, d)),
                Err(Stop::TimedOut) => return timed_out(at),
            },
            // `holds e` passes where `e` evaluates without refusing and,
            // where it is a Bool, is true (§5): a Bool is answered without
            // making a value, any other is evaluated and kept only if false.
            S::Holds(e) => match holds(ev, e, &mut frame, cx).map_err(|s| meet(s, false)) {
                Ok(false) => {
                    let culprit = crate::eval::find_false(ev, e, &mut frame);
                    return Some(report::holds_false(w, at, culprit, texts));
                }
                Ok(true) => {}
                Err(Stop::Refused(r)) => return Some(report::unexpected_refusal(w, at, &r, texts)),
                Err(Stop::Fatal(d)) => return Some(report::fatal_in_witness(w, at, d)),
                Err(Stop::TimedOut) => return timed_out(at),
            },
            S::Refuses { expr, code, code_span } => match ev.eval(expr, &mut frame, cx).map_err(|s| {
                let expected = matches!(&s, Stop::Refused(r) if r.code == *code);
                meet(s, expected)
            }) {
                Ok(v) => return Some(report::expected_refusal(w, code, at, Loc::new(file, expr.span), &v, texts)),
                Err(Stop::Refused(r)) if r.code == *code => {}
                Err(Stop::Refused(r)) => {
                    return Some(report::wrong_code(w, code, Loc::new(file, *code_span), at, &r, texts))
                }
                Err(Stop::Fatal(d)) => return Some(report::fatal_in_witness(w, at, d)),
                Err(Stop::TimedOut) => return timed_out(at),
            },
        }
    }
    None
}

/// Whether `holds e` holds (or why it stopped): see `run_stmts`.
fn holds<W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    e: &hir::Expr,
    frame: &mut Frame,
    cx: &mut Cx,
) -> Result<bool, Stop> {
    if e.ty == claim_sema::ty::Ty::Bool {
        ev.eval_bool(e, frame, cx)
    } else {
        ev.eval(e, frame, cx).map(|v| v.as_bool() != Some(false))
    }
}

fn frame_set(frame: &mut Frame, slot: hir::Slot, v: crate::value::Value) {
    frame.set(slot, v);
}

fn frame_file(frame: &Frame) -> claim_syntax::FileId {
    frame.file()
}

#[derive(Clone, Debug)]
pub struct FrontierReport {
    pub name: std::sync::Arc<str>,
    pub module: std::sync::Arc<str>,
    pub loc: Loc,
    pub text: String,
    /// `Some` where the frontier has dissolved (a failure).
    pub dissolved: Option<Diagnostic>,
    /// The broken facts whose refusal its text or condition met (§7).
    pub broken: Vec<MetBroken>,
}

/// A frontier is open while its condition is false or refuses (§5).
pub fn check_frontier<W: crate::World + ?Sized>(ev: &Evaluator<'_, W>, f: &hir::Frontier) -> FrontierReport {
    let mut frame = Frame::new(f.frame_size, f.loc.file);
    let mut cx = Cx::default();
    let mut broken = Vec::new();
    let text = match ev.eval(&f.text, &mut frame, &mut cx) {
        Ok(v) => text_of(&v),
        Err(stop) => {
            met(&mut broken, &stop, false);
            "(its text refused)".to_string()
        }
    };
    let dissolved = match &f.condition {
        Some(c) => match ev.eval_bool(c, &mut frame, &mut cx) {
            Ok(b) => b,
            Err(stop) => {
                met(&mut broken, &stop, false);
                false
            }
        },
        None => false,
    };
    let dissolved = match (&f.condition, dissolved) {
        (Some(c), true) => {
            let why = what_dissolved(ev, c, &mut frame, &mut cx);
            Some(report::dissolved(f, &text, Loc::new(f.loc.file, c.span), why))
        }
        _ => None,
    };
    FrontierReport { name: f.name.clone(), module: f.module.clone(), loc: f.loc, dissolved, text, broken }
}

/// Where the values that made a frontier's condition true came from: the
/// value an `is` tests, or both sides of a comparison (evaluated again:
/// evaluation is pure).
fn what_dissolved<W: crate::World + ?Sized>(
    ev: &Evaluator<'_, W>,
    c: &hir::Expr,
    frame: &mut Frame,
    cx: &mut Cx,
) -> Vec<(Loc, String)> {
    let texts = |file| ev.json_text(file);
    let sides: Vec<(String, &hir::Expr)> = match &c.kind {
        H::Is(x, _) => {
            let name = report::written(Loc::new(frame_file(frame), x.span), &texts);
            vec![(name.unwrap_or_else(|| "the value".to_string()), &**x)]
        }
        H::Binary(op, _, l, r) if op.is_comparison() => vec![("left".into(), &**l), ("right".into(), &**r)],
        _ => Vec::new(),
    };
    let not_at = Loc::new(frame_file(frame), c.span);
    sides
        .into_iter()
        .filter_map(|(what, x)| {
            let v = ev.eval(x, frame, cx).ok()?;
            report::origin_label(&v, &what, not_at, &texts)
        })
        .collect()
}
