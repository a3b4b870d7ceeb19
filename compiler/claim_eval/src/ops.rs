//! Operators and patterns over run-time values: literals, comparisons,
//! arithmetic and `++`, and matching a pattern (binding into a frame).

use crate::frame::Frame;
use crate::refusal::Eval;
use crate::refusal::{internal, refusal};
use crate::text::show;
use crate::value::{Origin, Value, V};
use claim_sema::hir::{self, Lit, OpKind, PatternKind as P};
use claim_syntax::ast::BinOp;
use claim_syntax::Loc;
use std::sync::Arc;

pub(crate) fn hashed(v: Value, function: &'static str, path: &str, loc: Loc) -> Value {
    v.with_origin(Origin::hashed(function, path, loc))
}

pub(crate) fn lit(l: &Lit) -> Value {
    match l {
        Lit::Int(n) => Value::int(*n),
        Lit::Duration(n) => Value::new(V::Duration(*n)),
        Lit::Bool(b) => Value::bool(*b),
        Lit::Text(t) => Value::text(t.clone()),
        Lit::Digest(k, b) => Value::new(V::Digest(*k, b.clone())),
    }
}

/// The elements of two lists, in order. A list made for this `++` alone
/// (`[c.recipe, …] ++ [… for i in c.inputs]`: its count is one) gives up
/// its elements rather than have each copied, and freed with it: two
/// atomic updates of a count per shared part of each element.
pub(crate) fn concat_lists(a: Arc<Vec<Value>>, b: Arc<Vec<Value>>) -> Vec<Value> {
    let mut out = match Arc::try_unwrap(a) {
        Ok(mine) => mine,
        Err(shared) => {
            let mut out = Vec::with_capacity(shared.len() + b.len());
            out.extend(shared.iter().cloned());
            out
        }
    };
    out.reserve(b.len());
    match Arc::try_unwrap(b) {
        Ok(b) => out.extend(b),
        Err(shared) => out.extend(shared.iter().cloned()),
    }
    out
}

/// `== != < <= > >=`; `None` where the operands do not fit the operator.
pub fn compare(op: BinOp, kind: OpKind, l: &Value, r: &Value) -> Option<bool> {
    use std::cmp::Ordering;
    if matches!(op, BinOp::Eq | BinOp::Ne) {
        return Some((l == r) == (op == BinOp::Eq));
    }
    let ord: Ordering = match (kind, &l.kind, &r.kind) {
        (_, V::Int(a), V::Int(b)) | (_, V::Duration(a), V::Duration(b)) => a.cmp(b),
        (_, V::Text(a), V::Text(b)) => a.cmp(b),
        _ => return None,
    };
    Some(match op {
        BinOp::Lt => ord.is_lt(),
        BinOp::Le => ord.is_le(),
        BinOp::Gt => ord.is_gt(),
        BinOp::Ge => ord.is_ge(),
        _ => return None,
    })
}

pub(crate) fn arith(op: BinOp, kind: OpKind, l: &Value, r: &Value, loc: Loc) -> Eval<Value> {
    let overflow = || refusal("Overflow", format!("{} {} {} overflows", show(l), op.symbol(), show(r)), loc);
    match (kind, &l.kind, &r.kind) {
        (OpKind::Text, V::Text(a), V::Text(b)) => Ok(Value {
            kind: V::Text(match (a.is_empty(), b.is_empty()) {
                (_, true) => a.clone(),
                (true, false) => b.clone(),
                (false, false) => crate::value::joined_text(&[a, b]),
            }),
            // Where the first operand that came from somewhere did.
            origin: Origin::through(l.origin.as_ref(), "++").or_else(|| Origin::through(r.origin.as_ref(), "++")),
        }),
        (OpKind::List, V::List(a), V::List(b)) => Ok(Value::list(concat_lists(a.clone(), b.clone()))),
        (OpKind::Int, V::Int(a), V::Int(b)) => {
            let v = match op {
                BinOp::Add => a.checked_add(*b),
                BinOp::Sub => a.checked_sub(*b),
                BinOp::Mul => a.checked_mul(*b),
                BinOp::Div => {
                    if *b == 0 {
                        return Err(refusal("DivisionByZero", format!("{a} / 0"), loc));
                    }
                    a.checked_div(*b)
                }
                _ => None,
            };
            v.map(Value::int).ok_or_else(overflow)
        }
        (OpKind::Duration, V::Duration(a), V::Duration(b)) => {
            let v = match op {
                BinOp::Add => a.checked_add(*b),
                BinOp::Sub => a.checked_sub(*b),
                _ => None,
            };
            v.map(|n| Value::new(V::Duration(n))).ok_or_else(overflow)
        }
        (OpKind::DurationTimesInt { .. }, V::Duration(a), V::Int(b))
        | (OpKind::DurationTimesInt { .. }, V::Int(b), V::Duration(a)) => {
            a.checked_mul(*b).map(|n| Value::new(V::Duration(n))).ok_or_else(overflow)
        }
        _ => Err(internal(format!("operator `{}` on these values", op.symbol()))),
    }
}

/// Whether a pattern matches, binding its names into the frame.
pub fn matches(p: &hir::Pattern, v: &Value, frame: &mut Frame) -> bool {
    match (&p.kind, &v.kind) {
        (P::Wildcard, _) => true,
        (P::Error, _) => false,
        (P::Bind(slot), _) => {
            frame.set(*slot, v.clone());
            true
        }
        (P::Lit(l), _) => lit(l) == *v,
        (P::None, V::Option(None)) => true,
        (P::Some(inner), V::Option(Some(x))) => matches(inner, x, frame),
        (P::Variant { index, fields }, V::Variant(var)) => {
            var.index == *index
                && fields.iter().all(|(i, fp)| var.fields.get(*i as usize).is_some_and(|fv| matches(fp, fv, frame)))
        }
        (P::List { elems, rest }, V::List(items)) => {
            let len_ok = if *rest { items.len() >= elems.len() } else { items.len() == elems.len() };
            len_ok && elems.iter().zip(items.iter()).all(|(ep, ev)| matches(ep, ev, frame))
        }
        _ => false,
    }
}
