//! Expressions and patterns. The tree has no parentheses: they are put
//! back exactly where the grammar needs them (precedence, and a record or
//! a braced pattern inside a condition, where `{` would end it).

use crate::cat;
use crate::doc::Doc;
use crate::layout::{bracketed, lines, ty, Inside, Mode, Printer};
use claim_syntax::ast::{power, BinOp, BlockStmt, Expr, ExprKind, FieldInit, MatchArm, Pattern, PatternKind};
use claim_syntax::Span;

impl Printer<'_> {
    pub(crate) fn expr(&mut self, e: &Expr, mode: Mode) -> Doc {
        stacker_grow(|| self.expr_inner(e, mode))
    }

    /// `e` as an operand that must bind at least as tightly as `min`.
    fn operand(&mut self, e: &Expr, min: u8, mode: Mode) -> Doc {
        if e.kind.binding_power() < min {
            cat!["(", self.expr(e, Mode::Full), ")"]
        } else {
            self.expr(e, mode)
        }
    }

    fn expr_inner(&mut self, e: &Expr, mode: Mode) -> Doc {
        use Mode::Full;
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Duration(_) | ExprKind::Digest(..) | ExprKind::Text(_) | ExprKind::Error => {
                self.verbatim(e.span)
            }
            ExprKind::Bool(b) => Doc::text(if *b { "true" } else { "false" }),
            ExprKind::None => "None".into(),
            ExprKind::Name(id) => Doc::text(id.name.as_str()),
            ExprKind::Field(base, f) => cat![self.operand(base, power::POSTFIX, mode), ".", f.name.as_str()],
            ExprKind::Call(callee, args) => {
                let callee_doc = self.operand(callee, power::POSTFIX, mode);
                if let [arg] = args.as_slice() {
                    // One bracketed argument hugs the call's parentheses:
                    // `Key(fold(` … `))` rather than a staircase.
                    if huggable(arg) {
                        return cat![callee_doc, "(", self.expr(arg, Full), ")"];
                    }
                }
                let close = e.span.end.saturating_sub(1);
                let parts = self.parts(args.iter(), |a| a.span, |p, a| p.expr(a, Full), close);
                cat![callee_doc, bracketed("(", ")", parts, Inside::Tight)]
            }
            ExprKind::Record { path, fields } => {
                let name = path.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(".");
                let close = e.span.end.saturating_sub(1);
                let parts = self.parts(fields.iter(), field_init_span, |p, f| p.field_init(f), close);
                let doc = cat![name, " ", bracketed("{", "}", parts, Inside::Spaced)];
                if mode == Mode::Cond {
                    cat!["(", doc, ")"]
                } else {
                    doc
                }
            }
            ExprKind::List(elems) => {
                let close = e.span.end.saturating_sub(1);
                let parts = self.parts(elems.iter(), |a| a.span, |p, a| p.expr(a, Full), close);
                bracketed("[", "]", parts, Inside::Tight)
            }
            ExprKind::Comprehension(c) => {
                let claim_syntax::ast::Comprehension { elem, var, iter, cond } = &**c;
                let elem = self.expr(elem, Full);
                let iter = self.expr(iter, Full);
                let cond = match cond {
                    Some(c) => cat![Doc::Line, "if ", self.expr(c, Full)],
                    None => Doc::Nil,
                };
                let body = cat![Doc::SoftLine, elem, Doc::Line, "for ", var.name.as_str(), " in ", iter, cond];
                Doc::group(cat!["[", Doc::indent(body), Doc::SoftLine, "]"])
            }
            ExprKind::Binary(op, ..) => self.binary_chain(e, *op, mode),
            ExprKind::Not(inner) => cat!["not ", self.operand(inner, power::NOT, mode)],
            ExprKind::Is(subject, pat) => {
                let s = self.operand(subject, power::IS + 1, mode);
                let p = self.pattern(pat);
                let braced = matches!(&pat.kind, PatternKind::Variant { fields: Some(_), .. });
                if mode == Mode::Cond && braced {
                    cat![s, " is (", p, ")"]
                } else {
                    cat![s, " is ", p]
                }
            }
            ExprKind::If(c, a, b) => {
                let c = self.expr(c, Mode::Cond);
                let a = self.expr(a, Full);
                let b = self.expr(b, Full);
                Doc::group(cat!["if ", c, Doc::indent(cat![Doc::Line, "then ", a, Doc::Line, "else ", b])])
            }
            ExprKind::Match(scrutinee, arms) => {
                let s = self.expr(scrutinee, Mode::Cond);
                let close = e.span.end.saturating_sub(1);
                let parts = self.parts(arms.iter(), |a| a.pattern.span.join(a.body.span), |p, a| p.arm(a), close);
                cat!["match ", s, " ", bracketed("{", "}", parts, Inside::Broken)]
            }
            ExprKind::Block(stmts, result) => self.block(stmts, result, e.span),
            ExprKind::Refuse { code, message } => {
                cat!["refuse ", code.name.as_str(), " ", self.expr(message, Full)]
            }
            ExprKind::Some(inner) => cat!["Some(", self.expr(inner, Full), ")"],
        }
    }

    /// `a op b op c`, flattened over one precedence level so that a long
    /// chain breaks before each operator at one indentation.
    fn binary_chain(&mut self, e: &Expr, op: BinOp, mode: Mode) -> Doc {
        let level = BinOp::binding_power(op);
        let mut operands: Vec<(Option<BinOp>, &Expr)> = Vec::new();
        let mut cur = e;
        // Walk down the left spine while it stays on this level.
        while let ExprKind::Binary(o, l, r) = &cur.kind {
            if BinOp::binding_power(*o) != level || (o.is_comparison() && !std::ptr::eq(cur, e)) {
                break;
            }
            operands.push((Some(*o), r));
            cur = l;
        }
        operands.push((None, cur));
        operands.reverse();
        // Comparisons do not chain: both sides bind tighter.
        let left_min = if op.is_comparison() { level + 1 } else { level };
        let mut rest = Vec::new();
        let mut first = Doc::Nil;
        for (i, (o, x)) in operands.iter().enumerate() {
            if i == 0 {
                first = self.operand(x, left_min, mode);
            } else {
                let o = o.map_or("", |o| o.symbol());
                let d = self.operand(x, level + 1, mode);
                rest.push(cat![Doc::Line, o, " ", d]);
            }
        }
        Doc::group(cat![first, Doc::indent(Doc::concat(rest))])
    }

    fn field_init(&mut self, f: &FieldInit) -> Doc {
        match &f.value {
            None => Doc::text(f.name.name.as_str()),
            Some(v) => cat![f.name.name.as_str(), ": ", self.expr(v, Mode::Full)],
        }
    }

    fn arm(&mut self, a: &MatchArm) -> Doc {
        let p = self.pattern(&a.pattern);
        cat![p, " => ", self.expr(&a.body, Mode::Full)]
    }

    fn block(&mut self, stmts: &[BlockStmt], result: &Expr, span: Span) -> Doc {
        if stmts.is_empty() && self.c_is_clear(span) {
            let r = self.expr(result, Mode::Full);
            return Doc::group(cat!["{", Doc::indent(cat![Doc::Line, r]), Doc::Line, "}"]);
        }
        let close = span.end.saturating_sub(1);
        let mut elems: Vec<Option<&BlockStmt>> = stmts.iter().map(Some).collect();
        elems.push(None);
        let parts = self.parts(
            elems,
            |s| s.map_or(result.span, |s| stmt_span(&s)),
            |p, s| match s {
                None => p.expr(result, Mode::Full),
                Some(s) => cat![p.stmt(s), ";"],
            },
            close,
        );
        let body = lines(&parts, &self.c, None);
        cat!["{", Doc::indent(cat![Doc::HardLine, body]), Doc::HardLine, "}"]
    }

    /// Whether no comment waits inside `span` (a one-line block would move
    /// it out).
    fn c_is_clear(&self, span: Span) -> bool {
        !self.c.any_within(span)
    }

    fn stmt(&mut self, s: &BlockStmt) -> Doc {
        match s {
            BlockStmt::Let { name, ty: t, value, .. } => {
                let annot = t.as_ref().map_or(Doc::Nil, |t| cat![": ", ty(t)]);
                cat!["let ", name.name.as_str(), annot, " = ", self.expr(value, Mode::Full)]
            }
            BlockStmt::Require { cond, code, message, .. } => {
                let c = self.expr(cond, Mode::Cond);
                let m = self.expr(message, Mode::Full);
                Doc::group(cat![
                    "require ",
                    c,
                    Doc::indent(cat![Doc::Line, "else refuse ", code.name.as_str(), " ", m])
                ])
            }
        }
    }

    pub(crate) fn pattern(&mut self, p: &Pattern) -> Doc {
        stacker_grow(|| self.pattern_inner(p))
    }

    fn pattern_inner(&mut self, p: &Pattern) -> Doc {
        match &p.kind {
            PatternKind::Wildcard => "_".into(),
            PatternKind::Name(id) => Doc::text(id.name.as_str()),
            PatternKind::Int(_)
            | PatternKind::Text(_)
            | PatternKind::Digest(..)
            | PatternKind::Duration(_)
            | PatternKind::Error => self.verbatim(p.span),
            PatternKind::Bool(b) => Doc::text(if *b { "true" } else { "false" }),
            PatternKind::None => "None".into(),
            PatternKind::Some(inner) => cat!["Some(", self.pattern(inner), ")"],
            PatternKind::Variant { path, fields } => {
                let name = path.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(".");
                match fields {
                    None => Doc::text(name),
                    Some((fields, rest)) => {
                        let close = p.span.end.saturating_sub(1);
                        let mut elems: Vec<Option<&claim_syntax::ast::FieldPattern>> =
                            fields.iter().map(Some).collect();
                        if *rest {
                            elems.push(None);
                        }
                        let rest_at =
                            fields.last().map_or(close, |f| f.pattern.as_ref().map_or(f.name.span.end, |x| x.span.end));
                        let parts = self.parts(
                            elems,
                            |f| match f {
                                None => Span { start: rest_at, end: rest_at },
                                Some(f) => f.pattern.as_ref().map_or(f.name.span, |x| f.name.span.join(x.span)),
                            },
                            |pr, f| match f {
                                None => "..".into(),
                                Some(f) => match &f.pattern {
                                    None => Doc::text(f.name.name.as_str()),
                                    Some(x) => cat![f.name.name.as_str(), ": ", pr.pattern(x)],
                                },
                            },
                            close,
                        );
                        cat![name, " ", bracketed("{", "}", parts, Inside::Spaced)]
                    }
                }
            }
            PatternKind::List { elems, rest } => {
                let close = p.span.end.saturating_sub(1);
                let rest_at = elems.last().map_or(close, |x| x.span.end);
                let mut items: Vec<Option<&Pattern>> = elems.iter().map(Some).collect();
                if *rest {
                    items.push(None);
                }
                let parts = self.parts(
                    items,
                    |x| x.map_or(Span { start: rest_at, end: rest_at }, |x| x.span),
                    |pr, x| x.map_or(Doc::text(".."), |x| pr.pattern(x)),
                    close,
                );
                bracketed("[", "]", parts, Inside::Tight)
            }
        }
    }
}

/// An argument that brings its own brackets, so it can break inside them.
fn huggable(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Call(..)
            | ExprKind::List(_)
            | ExprKind::Comprehension { .. }
            | ExprKind::Record { .. }
            | ExprKind::Block(..)
    )
}

fn field_init_span(f: &&FieldInit) -> Span {
    f.value.as_ref().map_or(f.name.span, |v| f.name.span.join(v.span))
}

fn stmt_span(s: &&BlockStmt) -> Span {
    match s {
        BlockStmt::Let { span, .. } | BlockStmt::Require { span, .. } => *span,
    }
}

/// Deeply nested input must not overflow the stack.
fn stacker_grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(64 * 1024, 4 * 1024 * 1024, f)
}
