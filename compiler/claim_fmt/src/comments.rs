//! Comments are not in the tree; the formatter takes them from the lexer
//! and places each at the nearest place a line can start: before an item,
//! a statement, a field, an arm or an element (a leading comment), or after
//! one on the same line (a trailing comment). A comment in the middle of an
//! expression moves to the next such place; none is ever dropped.

use claim_syntax::Span;

pub(crate) struct Comments<'s> {
    src: &'s str,
    list: Vec<(Span, String)>,
    used: Vec<bool>,
    /// Every comment before this index is used.
    cursor: usize,
}

/// One line of a sequence: a comment on its own line, or an element with
/// the comment that trails it.
pub(crate) enum Part<D> {
    Comment { text: String, span: Span },
    Elem { doc: D, span: Span, trailing: Option<(Span, String)> },
}

impl<D> Part<D> {
    pub(crate) fn start(&self) -> u32 {
        match self {
            Part::Comment { span, .. } | Part::Elem { span, .. } => span.start,
        }
    }
    pub(crate) fn end(&self) -> u32 {
        match self {
            Part::Comment { span, .. } => span.end,
            Part::Elem { span, trailing, .. } => trailing.as_ref().map_or(span.end, |(s, _)| s.end),
        }
    }
}

impl<'s> Comments<'s> {
    pub(crate) fn new(src: &'s str, list: Vec<(Span, String)>) -> Self {
        let used = vec![false; list.len()];
        Comments { src, list, used, cursor: 0 }
    }

    /// The unused comments that start before `pos`, in order.
    pub(crate) fn take_before(&mut self, pos: u32) -> Vec<(Span, String)> {
        let mut out = Vec::new();
        while let Some((span, text)) = self.list.get(self.cursor) {
            if span.start >= pos {
                break;
            }
            if !self.used[self.cursor] {
                out.push((*span, text.clone()));
            }
            self.used[self.cursor] = true;
            self.cursor += 1;
        }
        out
    }

    /// The comment on the same line right after `end` (only blanks, `,` and
    /// `;` between), if any.
    pub(crate) fn take_trailing(&mut self, end: u32) -> Option<(Span, String)> {
        let mut i = self.cursor;
        while i < self.list.len() && (self.used[i] || self.list[i].0.start < end) {
            i += 1;
        }
        let (span, text) = self.list.get(i)?;
        let gap = self.src.get(end as usize..span.start as usize)?;
        if !gap.chars().all(|c| matches!(c, ' ' | '\t' | ',' | ';')) {
            return None;
        }
        self.used[i] = true;
        Some((*span, text.clone()))
    }

    /// Marks the comments inside `span` as printed: they are part of text
    /// copied verbatim (an interpolation's comment).
    pub(crate) fn skip_within(&mut self, span: Span) {
        for (i, (s, _)) in self.list.iter().enumerate().skip(self.cursor) {
            if s.start >= span.end {
                break;
            }
            if s.start >= span.start {
                self.used[i] = true;
            }
        }
    }

    /// Whether the source has a blank line between `a` and `b`.
    pub(crate) fn blank_between(&self, a: u32, b: u32) -> bool {
        self.src.get(a as usize..b as usize).is_some_and(|gap| gap.matches('\n').count() >= 2)
    }
}

impl Comments<'_> {
    /// Whether an unprinted comment starts inside `span`.
    pub(crate) fn any_within(&self, span: Span) -> bool {
        self.list
            .iter()
            .enumerate()
            .skip(self.cursor)
            .any(|(i, (s, _))| !self.used[i] && s.start >= span.start && s.start < span.end)
    }
}
