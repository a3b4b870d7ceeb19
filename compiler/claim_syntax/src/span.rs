//! Byte-offset spans. Every AST node carries one; the file it belongs to is
//! known from context (one parse = one file), and diagnostics pair a span
//! with a [`FileId`].

/// Identifies one source file (or JSON file) of a program run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// A half-open byte range `start..end` into one file's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: clamp(start), end: clamp(end.max(start)) }
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn shift(self, by: usize) -> Span {
        Span::new(self.start as usize + by, self.end as usize + by)
    }
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

/// Spans as the parser makes them: the tokens carry these, so the tree's
/// spans come out of chumsky with no conversion.
impl chumsky::span::Span for Span {
    type Context = ();
    type Offset = u32;

    fn new((): (), range: std::ops::Range<u32>) -> Span {
        Span { start: range.start, end: range.end.max(range.start) }
    }
    fn context(&self) {}
    fn start(&self) -> u32 {
        self.start
    }
    fn end(&self) -> u32 {
        self.end
    }
}

/// A span in a particular file: what a diagnostic label points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

impl Loc {
    pub fn new(file: FileId, span: Span) -> Loc {
        Loc { file, span }
    }
}
