//! Items and witness statements.

use crate::cat;
use crate::doc::Doc;
use crate::layout::{block_lines, bracketed, lines, ty, Inside, Mode, Printer};
use claim_syntax::ast::{FieldDecl, FnDecl, Item, ItemKind, Module, WitnessStmt, WitnessStmtKind};
use claim_syntax::Span;

impl Printer<'_> {
    pub(crate) fn module(&mut self, m: &Module) -> Doc {
        // Closing at the end of the file takes every comment after the last item.
        let parts = self.parts(m.items.iter(), |i| i.span, |p, i| p.item(i), u32::MAX);
        lines(&parts, &self.c, None)
    }

    fn item(&mut self, item: &Item) -> Doc {
        match &item.kind {
            ItemKind::Use(u) => {
                let path = u.dotted();
                match &u.selection {
                    None => cat!["use ", path],
                    Some(sel) => {
                        let close = item.span.end.saturating_sub(1);
                        let parts = self.parts(sel.iter(), |i| i.span, |_, i| Doc::text(i.name.as_str()), close);
                        cat!["use ", path, ".", bracketed("{", "}", parts, Inside::Tight)]
                    }
                }
            }
            ItemKind::Newtype { name, underlying } => cat!["newtype ", name.name.as_str(), " = ", ty(underlying)],
            ItemKind::Record(r) => {
                let close = item.span.end.saturating_sub(1);
                let body = self.field_decls(&r.fields, r.open, close);
                let attr = r.json_case.as_ref().map(|c| format!("@json({}) ", c.name)).unwrap_or_default();
                cat![attr, "record ", r.name.name.as_str(), " ", body]
            }
            ItemKind::Enum { name, variants } => {
                let close = item.span.end.saturating_sub(1);
                let parts = self.parts(
                    variants.iter(),
                    |v| {
                        let end = v.fields.as_ref().and_then(|f| f.last()).map_or(v.name.span.end, |f| f.ty.span.end);
                        Span { start: v.name.span.start, end }
                    },
                    |p, v| match &v.fields {
                        None => Doc::text(v.name.name.as_str()),
                        Some(fields) => {
                            let end = fields.last().map_or(v.name.span.end, |f| f.ty.span.end);
                            cat![v.name.name.as_str(), " ", p.field_decls(fields, false, end)]
                        }
                    },
                    close,
                );
                cat!["enum ", name.name.as_str(), " ", bracketed("{", "}", parts, Inside::Spaced)]
            }
            ItemKind::Refusal { name, .. } => {
                let summary = Span { start: name.span.end, end: item.span.end };
                let text = self.src.get(summary.range()).unwrap_or_default().trim_start().to_string();
                self.c.skip_within(summary);
                cat!["refusal ", name.name.as_str(), " ", text]
            }
            ItemKind::Fact { name, ty: t, init } => {
                cat!["fact ", name.name.as_str(), ": ", ty(t), " = ", self.expr(init, Mode::Full)]
            }
            ItemKind::Fn(f) => self.function(f),
            ItemKind::Witness { name, stmts } => {
                let close = item.span.end.saturating_sub(1);
                let parts = self.parts(stmts.iter(), |s| s.span, |p, s| p.witness_stmt(s), close);
                cat!["witness ", name.name.as_str(), " ", block_lines(&parts, &self.c)]
            }
            ItemKind::Frontier { name, text, condition } => {
                let close = item.span.end.saturating_sub(1);
                let mut elems: Vec<(Span, bool)> = vec![(text.span, false)];
                if let Some(c) = condition {
                    elems.push((c.span, true));
                }
                let parts = self.parts(
                    elems,
                    |(s, _)| *s,
                    |p, (_, is_cond)| {
                        if *is_cond {
                            let c = condition.as_ref().map_or(Doc::Nil, |c| p.expr(c, Mode::Cond));
                            cat!["dissolves when ", c]
                        } else {
                            p.expr(text, Mode::Full)
                        }
                    },
                    close,
                );
                cat!["frontier ", name.name.as_str(), " ", block_lines(&parts, &self.c)]
            }
            ItemKind::Error => self.verbatim(item.span),
        }
    }

    fn function(&mut self, f: &FnDecl) -> Doc {
        let params_end = f.ret.span.start;
        let parts = self.parts(
            f.params.iter(),
            |p| p.name.span.join(p.ty.span),
            |_, p| cat![p.name.name.as_str(), ": ", ty(&p.ty)],
            params_end,
        );
        let attr = f.attribute.as_ref().map_or(Doc::Nil, |a| cat!["@", a.name.as_str(), " "]);
        let head =
            cat![attr, "fn ", f.name.name.as_str(), bracketed("(", ")", parts, Inside::Tight), " -> ", ty(&f.ret)];
        match &f.body {
            None => head,
            Some(body) => cat![head, " ", self.expr(body, Mode::Full)],
        }
    }

    /// `{ a: T, @json("k") b: U, .. }`
    fn field_decls(&mut self, fields: &[FieldDecl], open: bool, close: u32) -> Doc {
        let rest_at = fields.last().map_or(close, |f| f.ty.span.end);
        let mut elems: Vec<Option<&FieldDecl>> = fields.iter().map(Some).collect();
        if open {
            elems.push(None);
        }
        let parts = self.parts(
            elems,
            |f| f.map_or(Span { start: rest_at, end: rest_at }, |f| f.name.span.join(f.ty.span)),
            |_, f| match f {
                None => Doc::text(".."),
                Some(f) => {
                    let key = f.json_key.as_ref().map_or(Doc::Nil, |k| cat!["@json(", quote(k), ") "]);
                    cat![key, f.name.name.as_str(), ": ", ty(&f.ty)]
                }
            },
            close,
        );
        bracketed("{", "}", parts, Inside::Spaced)
    }

    fn witness_stmt(&mut self, s: &WitnessStmt) -> Doc {
        use Mode::Full;
        match &s.kind {
            WitnessStmtKind::Let { name, ty: t, value } => {
                let annot = t.as_ref().map_or(Doc::Nil, |t| cat![": ", ty(t)]);
                cat!["let ", name.name.as_str(), annot, " = ", self.expr(value, Full)]
            }
            WitnessStmtKind::Holds(e) => cat!["holds ", self.expr(e, Full)],
            WitnessStmtKind::Refuses { expr, code } => {
                let e = self.expr(expr, Full);
                Doc::group(cat!["refuses ", e, Doc::indent(cat![Doc::Line, "with ", code.name.as_str()])])
            }
        }
    }
}

/// A text literal for `s` (no interpolation), escaped as the lexer reads it.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '{' => out.push_str("{{"),
            '}' => out.push_str("}}"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
