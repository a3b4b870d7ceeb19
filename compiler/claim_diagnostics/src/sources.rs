//! The texts diagnostics point into: `.claim` modules and the JSON files
//! facts loaded, each under the name a reader should see.

use claim_syntax::FileId;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Cloned whenever a report is rendered, so every file is shared: a clone
/// copies one pointer per file, never a text.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<Arc<SourceText>>,
}

#[derive(Debug)]
struct SourceText {
    name: String,
    text: Arc<str>,
    /// Where each line starts, for `line_col` in logarithmic time (machine
    /// formats ask it for every label). Found when first asked: most files
    /// of a run (tens of thousands of JSON receipts) are never shown.
    /// Offsets fit `u32`: no file over the load limits is read.
    lines: std::sync::OnceLock<Box<[u32]>>,
    /// Whether a line was asked of it before: the first question is
    /// answered by counting (see `line_col`), the second builds the index.
    asked: std::sync::atomic::AtomicBool,
}

/// A file to add to the sources ([`Sources::add_new`]).
pub struct NewFile(Arc<SourceText>);

impl NewFile {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> NewFile {
        NewFile(Arc::new(SourceText::new(name.into(), text.into())))
    }
}

impl SourceText {
    fn new(name: String, text: Arc<str>) -> SourceText {
        SourceText { name, text, lines: std::sync::OnceLock::new(), asked: Default::default() }
    }

    fn lines(&self) -> &[u32] {
        // `memchr` finds the newlines a word at a time; `match_indices`
        // cost ~180 instructions a line, and a report that names a line of
        // each of 1,000 modules (their open frontiers) indexed them all.
        self.lines.get_or_init(|| {
            std::iter::once(0).chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i as u32 + 1)).collect()
        })
    }
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }
    /// Adds a file and returns its id. The text may be shared with the
    /// compiler's own copy of the file.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.add_new(NewFile::new(name, text))
    }
    /// Adds a file made beforehand: where the sources are shared under a
    /// lock, the file is made (an allocation) before the lock is taken.
    pub fn add_new(&mut self, file: NewFile) -> FileId {
        self.files.push(file.0);
        FileId(self.files.len() as u32 - 1)
    }
    /// Replaces a file's text (it changed on disk, in `--watch`).
    pub fn set_text(&mut self, id: FileId, text: impl Into<Arc<str>>) {
        if let Some(file) = self.files.get_mut(id.0 as usize) {
            *file = Arc::new(SourceText::new(file.name.clone(), text.into()));
        }
    }
    /// Every file, as `(name, text)`, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|f| (f.name.as_str(), &*f.text))
    }
    pub fn name(&self, id: FileId) -> &str {
        self.files.get(id.0 as usize).map(|f| f.name.as_str()).unwrap_or("<unknown>")
    }
    pub fn text(&self, id: FileId) -> &str {
        self.files.get(id.0 as usize).map(|f| &*f.text).unwrap_or("")
    }
    /// The text, shared.
    pub fn shared_text(&self, id: FileId) -> Option<Arc<str>> {
        self.files.get(id.0 as usize).map(|f| f.text.clone())
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|f| (f.name.as_str(), &*f.text))
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: FileId, offset: u32) -> (usize, usize) {
        let (line, start, off) = self.line_start(id, offset);
        (line, self.text(id)[start..off].chars().count() + 1)
    }

    /// The 1-based line of a byte offset, where that line starts, and the
    /// offset kept inside the text and on a character boundary. (Counting
    /// a long line's characters is left to the caller: the renderer counts
    /// them from an index of its own.)
    pub fn line_start(&self, id: FileId, offset: u32) -> (usize, usize, usize) {
        let text = self.text(id);
        let mut off = (offset as usize).min(text.len());
        while off > 0 && !text.is_char_boundary(off) {
            off -= 1;
        }
        let file = self.files.get(id.0 as usize);
        let first = file.is_some_and(|f| f.lines.get().is_none() && !f.asked.swap(true, Ordering::Relaxed));
        let (line, start) = if first {
            // Asked once, a file is counted up to the offset (a comparison
            // a byte, in vector registers) rather than indexed: a report
            // naming one line of each of 1,000 modules (their open
            // frontiers) spent more building the indexes, on its one
            // thread, than it used of them.
            let before = &text.as_bytes()[..off];
            (newlines(before) + 1, memchr::memrchr(b'\n', before).map_or(0, |i| i + 1))
        } else {
            let starts = file.map(|f| f.lines()).unwrap_or(&[0]);
            let line = starts.partition_point(|s| *s as usize <= off).max(1);
            (line, (starts.get(line - 1).copied().unwrap_or(0) as usize).min(off))
        };
        (line, start, off)
    }
}

/// The newlines in `bytes`.
fn newlines(bytes: &[u8]) -> usize {
    count_where(bytes, |b| b == b'\n')
}

/// The bytes of `bytes` that `test` holds for, 32 a step: a fixed-size
/// chunk summed into a byte is what the compiler turns into vector
/// compares (a plain `filter().count()` stayed a byte at a time).
pub(crate) fn count_where(bytes: &[u8], test: impl Fn(u8) -> bool) -> usize {
    let mut chunks = bytes.chunks_exact(32);
    let mut n = 0;
    for chunk in &mut chunks {
        n += usize::from(chunk.iter().fold(0u8, |a, &b| a + u8::from(test(b))));
    }
    n + chunks.remainder().iter().filter(|&&b| test(b)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first question of a file (counted) and later ones (indexed)
    /// answer alike, at every offset.
    #[test]
    fn counting_and_indexing_agree() {
        // Lines of every length around the 32-byte steps, some with a
        // two-byte character.
        let text: String = (0..40).map(|n| format!("{}\u{e9}{}\n", "x".repeat(n), "y".repeat(n % 7))).collect();
        let text = text.as_str();
        let mut indexed = Sources::new();
        let id = indexed.add("a", text);
        for off in 0..=text.len() as u32 + 2 {
            let mut fresh = Sources::new();
            let fid = fresh.add("a", text);
            let counted = fresh.line_col(fid, off);
            assert_eq!(counted, indexed.line_col(id, off), "offset {off}");
            assert_eq!(counted, fresh.line_col(fid, off), "offset {off}, asked again");
        }
    }

    #[test]
    fn line_and_column_count_characters_from_one() {
        let mut s = Sources::new();
        let id = s.add("a", "ab\n\u{e9}x\n\nz");
        assert_eq!(s.line_col(id, 0), (1, 1));
        assert_eq!(s.line_col(id, 2), (1, 3), "the newline ends line 1");
        assert_eq!(s.line_col(id, 3), (2, 1));
        assert_eq!(s.line_col(id, 5), (2, 2), "`x` follows a two-byte `é`");
        assert_eq!(s.line_col(id, 7), (3, 1));
        assert_eq!(s.line_col(id, 8), (4, 1));
        assert_eq!(s.line_col(id, 99), (4, 2), "past the end clamps to the end");
    }
}
