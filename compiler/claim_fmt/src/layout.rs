//! The printer and the layouts every construct shares: a sequence's parts
//! with their comments, one per line or bracketed, and the text of a type.
//! Items (`items.rs`) and expressions (`exprs.rs`) are printed on top of it.

use crate::cat;
use crate::comments::{Comments, Part};
use crate::doc::Doc;
use claim_syntax::ast::{TypeExpr, TypeExprKind};
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
/// Whether an expression is read as a condition (`if`, `match`, `require`,
/// `dissolves when`), where a `{` ends it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Full,
    Cond,
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
