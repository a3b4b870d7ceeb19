//! Items, statements, and the layouts of sequences shared by everything.

use crate::cat;
use crate::comments::{Comments, Part};
use crate::doc::Doc;
use claim_syntax::ast::{
    FieldDecl, FnDecl, Item, ItemKind, Module, TypeExpr, TypeExprKind, WitnessStmt, WitnessStmtKind,
};
use claim_syntax::Span;

pub(crate) struct Printer<'s> {
    pub(crate) src: &'s str,
    pub(crate) c: Comments<'s>,
}

/// How a bracketed list is laid out when it fits on one line.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Inside {
    /// `[a, b]`, `(a, b)`
    Tight,
    /// `{ a, b }`
    Spaced,
    /// Never on one line (match arms).
    Broken,
}

impl<'s> Printer<'s> {
    pub(crate) fn new(src: &'s str, comments: Vec<(Span, String)>) -> Self {
        Printer { src, c: Comments::new(src, comments) }
    }

    /// The source text of a span, as written.
    pub(crate) fn verbatim(&mut self, span: Span) -> Doc {
        self.c.skip_within(span);
        Doc::text(self.src.get(span.range()).unwrap_or_default())
    }

    pub(crate) fn module(&mut self, m: &Module) -> Doc {
        // Closing at the end of the file takes every comment after the last item.
        let parts = self.parts(m.items.iter(), |i| i.span, |p, i| p.item(i), u32::MAX);
        lines(&parts, &self.c, None)
    }

    /// The parts of a sequence: each element with its leading and trailing
    /// comments, then the comments before `close`.
    pub(crate) fn parts<T>(
        &mut self,
        elems: impl IntoIterator<Item = T>,
        span_of: impl Fn(&T) -> Span,
        mut print: impl FnMut(&mut Self, &T) -> Doc,
        close: u32,
    ) -> Vec<Part<Doc>> {
        let mut out = Vec::new();
        for e in elems {
            let span = span_of(&e);
            for (span, text) in self.c.take_before(span.start) {
                out.push(Part::Comment { text, span });
            }
            let doc = print(self, &e);
            let trailing = self.c.take_trailing(span.end);
            out.push(Part::Elem { doc, span, trailing });
        }
        for (span, text) in self.c.take_before(close) {
            out.push(Part::Comment { text, span });
        }
        out
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
                cat!["fact ", name.name.as_str(), ": ", ty(t), " = ", self.expr(init, crate::exprs::Mode::Full)]
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
                            let c = condition.as_ref().map_or(Doc::Nil, |c| p.expr(c, crate::exprs::Mode::Cond));
                            cat!["dissolves when ", c]
                        } else {
                            p.expr(text, crate::exprs::Mode::Full)
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
            Some(body) => cat![head, " ", self.expr(body, crate::exprs::Mode::Full)],
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
        use crate::exprs::Mode::Full;
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

pub(crate) fn ty(t: &TypeExpr) -> Doc {
    Doc::text(type_text(t))
}

fn type_text(t: &TypeExpr) -> String {
    match &t.kind {
        TypeExprKind::Named { path, args } => {
            let mut s = path.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(".");
            if !args.is_empty() {
                s.push('<');
                s.push_str(&args.iter().map(type_text).collect::<Vec<_>>().join(", "));
                s.push('>');
            }
            s
        }
        TypeExprKind::Error => String::new(),
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

fn comment_doc(text: &str) -> Doc {
    // A comment must end its line: whatever holds it cannot be flat.
    cat![text, Doc::Concat(Vec::new(), true)]
}

/// A sequence laid out one part per line, blank lines kept (one at most)
/// where the source had them. `sep` ends every element (`;` in blocks).
pub(crate) fn lines(parts: &[Part<Doc>], c: &Comments<'_>, sep: Option<&str>) -> Doc {
    let mut out = Vec::new();
    let mut prev_end: Option<u32> = None;
    for part in parts {
        if let Some(end) = prev_end {
            out.push(if c.blank_between(end, part.start()) { Doc::BlankLine } else { Doc::HardLine });
        }
        match part {
            Part::Comment { text, .. } => out.push(comment_doc(text)),
            Part::Elem { doc, trailing, .. } => {
                out.push(doc.clone());
                if let Some(s) = sep {
                    out.push(s.into());
                }
                if let Some((_, t)) = trailing {
                    out.push(" ".into());
                    out.push(comment_doc(t));
                }
            }
        }
        prev_end = Some(part.end());
    }
    Doc::concat(out)
}

/// `{` lines `}`, or `{}` when empty.
pub(crate) fn block_lines(parts: &[Part<Doc>], c: &Comments<'_>) -> Doc {
    if parts.is_empty() {
        return "{}".into();
    }
    cat!["{", Doc::indent(cat![Doc::HardLine, lines(parts, c, None)]), Doc::HardLine, "}"]
}

/// A bracketed, comma-separated list: on one line if it fits, otherwise one
/// element per line with a trailing comma.
pub(crate) fn bracketed(open: &str, close: &str, parts: Vec<Part<Doc>>, inside: Inside) -> Doc {
    if parts.is_empty() {
        return cat![open, close];
    }
    let n_elems = parts.iter().filter(|p| matches!(p, Part::Elem { .. })).count();
    let mut seen = 0;
    let mut inner = Vec::new();
    let count = parts.len();
    for (i, part) in parts.into_iter().enumerate() {
        let more = i + 1 < count;
        match part {
            Part::Comment { text, .. } => {
                inner.push(comment_doc(&text));
                if more {
                    inner.push(Doc::HardLine);
                }
            }
            Part::Elem { doc, trailing, .. } => {
                seen += 1;
                // `..` closes a record or pattern; nothing follows it.
                let rest = matches!(&doc, Doc::Text(t) if &**t == "..");
                inner.push(doc);
                inner.push(if seen < n_elems {
                    Doc::text(",")
                } else if rest {
                    Doc::Nil
                } else {
                    Doc::IfBreak(",".into(), "".into())
                });
                if let Some((_, t)) = trailing {
                    inner.push(" ".into());
                    inner.push(comment_doc(&t));
                }
                if more {
                    inner.push(Doc::Line);
                }
            }
        }
    }
    let edge = if inside == Inside::Tight { Doc::SoftLine } else { Doc::Line };
    let force = if inside == Inside::Broken { Doc::Concat(Vec::new(), true) } else { Doc::Nil };
    Doc::group(cat![open, Doc::indent(cat![edge.clone(), Doc::concat(inner)]), edge, close, force])
}
