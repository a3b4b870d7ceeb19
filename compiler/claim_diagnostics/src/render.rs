//! The human renderer: every ariadne call in the project lives here.
//!
//! Labels are given to ariadne in characters (`IndexType::Char`), each
//! byte offset converted here. Its byte mode (`IndexType::Byte`) places
//! labels right, but names a group in a second file by the label's offset
//! in characters taken for one in bytes: past non-ASCII text its header
//! named another line, and where that offset fell inside a character it
//! panicked (a failing witness pointing into a receipt with Japanese text
//! on an earlier line). Its character mode is consistent, given characters.
//!
//! What ariadne is shown of each file is decided in `excerpt`: the same
//! line breaks as every other output, and long lines cut to what is
//! labelled. Each header is then rewritten to name its first label's place
//! (`true_headers`).

use crate::diagnostic::{Diagnostic, Severity};
use crate::excerpt::{self, Window};
use crate::printable::printable;
use crate::sources::Sources;
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};
use claim_syntax::{FileId, Loc};
use std::borrow::Cow;
use std::ops::Range;

/// Renders one diagnostic as text; `color` adds ANSI colours. To render
/// many, use one [`HumanRenderer`]: it indexes each file once.
pub fn render_human(d: &Diagnostic, sources: &Sources, color: bool) -> String {
    HumanRenderer::new(sources, color).render(d)
}

/// A file as ariadne knows it: by its id, shown by its name (escaped as
/// messages are: a file name may hold a line break too).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key<'s> {
    file: FileId,
    name: &'s str,
}

impl std::fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&printable(self.name))
    }
}

impl std::fmt::Debug for Key<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

type Fetch<'s> = Box<dyn FnMut(&Key<'s>) -> Result<Cow<'s, str>, String> + 's>;

/// Bytes between the character counts kept for a file: an offset costs a
/// count of at most this many bytes (the counts take a 128th of the file).
const CHAR_BLOCK: usize = 512;

/// Renders diagnostics against one set of sources, indexing each file (its
/// lines, for ariadne, and its characters) the first time a label points
/// into it and never again: a run with thousands of warnings in one large
/// file stays linear.
pub struct HumanRenderer<'s> {
    sources: &'s Sources,
    color: bool,
    cache: ariadne::FnCache<Key<'s>, Fetch<'s>, Cow<'s, str>>,
    /// For each file a label pointed into: the characters before every
    /// `CHAR_BLOCK` bytes, and before its end.
    chars: Vec<Option<Box<[u32]>>>,
}

impl<'s> HumanRenderer<'s> {
    pub fn new(sources: &'s Sources, color: bool) -> Self {
        HumanRenderer { sources, color, cache: ariadne::FnCache::new(fetch(sources)), chars: Vec::new() }
    }

    pub fn render(&mut self, d: &Diagnostic) -> String {
        let d = in_file_order(d, self.sources);
        self.render_as_given(&d)
    }

    /// `render`, with the labels in the order given.
    fn render_as_given(&mut self, d: &Diagnostic) -> String {
        let sources = self.sources;
        let labels: Vec<&crate::Label> = d.primary.iter().chain(&d.secondary).collect();
        let bytes: Vec<Range<usize>> = labels.iter().map(|l| range(sources, &l.loc)).collect();
        // The files with a labelled line too long to print whole get an
        // excerpt for this diagnostic alone (its labels decide the parts).
        let mut long: Vec<(FileId, Vec<usize>)> = Vec::new();
        for (l, r) in labels.iter().zip(&bytes) {
            match long.iter_mut().find(|(f, _)| *f == l.loc.file) {
                Some((_, points)) => points.extend([r.start, r.end]),
                None => long.push((l.loc.file, vec![r.start, r.end])),
            }
        }
        long.retain(|(f, points)| excerpt::needs_window(sources.text(*f), points));
        let windows: Vec<(FileId, Window)> =
            long.into_iter().map(|(f, points)| (f, excerpt::window(sources.text(f), &points))).collect();
        let window_of = |file: FileId| windows.iter().find(|(f, _)| *f == file).map(|(_, w)| w);
        let ranges: Vec<Range<usize>> = labels
            .iter()
            .zip(&bytes)
            .map(|(l, r)| match window_of(l.loc.file) {
                Some(w) => {
                    let (from, to) = (w.offset(r.start), w.offset(r.end));
                    let chars = |r: Range<usize>| w.text.as_bytes().get(r).map_or(0, count_chars);
                    let start = chars(0..from);
                    start..start + chars(from..to.max(from))
                }
                None => self.char_offset(l.loc.file, r.start)..self.char_offset(l.loc.file, r.end),
            })
            .collect();
        let text = if windows.is_empty() {
            render_with(d, sources, self.color, &mut self.cache, &ranges)
        } else {
            let mut fetch_file = fetch(sources);
            let cache = ariadne::FnCache::new(|key: &Key<'s>| match windows.iter().find(|(f, _)| *f == key.file) {
                Some((_, w)) => Ok(Cow::Borrowed(w.text.as_str())),
                None => fetch_file(key),
            });
            render_with(d, sources, self.color, cache, &ranges)
        };
        self.true_headers(text, d)
    }

    /// The rendered text with each group's header (`╭─[ name:line:column ]`)
    /// naming where its first label is, as every other output gives it.
    /// Ariadne names the primary label's place for every group in the
    /// primary's file, and counts columns in the text it was given: in an
    /// excerpt, from the `…` that stands for the start of a long line.
    fn true_headers(&mut self, text: String, d: &Diagnostic) -> String {
        let sources = self.sources;
        let starts = group_starts(d, sources);
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        let headers: Vec<usize> = (0..lines.len()).filter(|&i| is_header(lines[i])).collect();
        if headers.len() != starts.len() {
            // Not the groups this renderer knows: left as ariadne wrote them.
            return text;
        }
        let mut out = String::with_capacity(text.len());
        let mut next = headers.iter().zip(&starts).peekable();
        for (i, line) in lines.iter().enumerate() {
            let Some((_, loc)) = next.next_if(|(h, _)| **h == i) else {
                out.push_str(line);
                continue;
            };
            let prefix = format!(" {}:", printable(sources.name(loc.file)));
            let fixed = line.find(&prefix).and_then(|at| {
                let rest = &line[at + prefix.len()..];
                let end = rest.find(' ')?;
                let (l, c) = self.line_col(loc.file, loc.span.start as usize);
                Some(format!("{}{prefix}{l}:{c}{}", &line[..at], &rest[end..]))
            });
            out.push_str(fixed.as_deref().unwrap_or(line));
        }
        out
    }

    /// The line and column (from 1, in characters) of a byte offset, as
    /// `Sources::line_col` gives them, the column counted from this
    /// renderer's index of the file's characters.
    fn line_col(&mut self, file: FileId, at: usize) -> (usize, usize) {
        let (line, start, at) = self.sources.line_start(file, at as u32);
        (line, self.char_offset(file, at) - self.char_offset(file, start) + 1)
    }

    /// The characters before byte `at` (a character boundary) of a file.
    fn char_offset(&mut self, file: FileId, at: usize) -> usize {
        let text = self.sources.text(file).as_bytes();
        let i = file.0 as usize;
        if self.chars.len() <= i {
            self.chars.resize(i + 1, None);
        }
        let blocks = self.chars[i].get_or_insert_with(|| {
            let mut before = 0u32;
            std::iter::once(0)
                .chain(text.chunks(CHAR_BLOCK).map(|c| {
                    before += count_chars(c) as u32;
                    before
                }))
                .collect()
        });
        let at = at.min(text.len());
        let block = at / CHAR_BLOCK;
        blocks.get(block).map_or(0, |&n| n as usize) + count_chars(&text[block * CHAR_BLOCK..at])
    }
}

/// The characters that begin in `bytes`: each byte but a UTF-8
/// continuation byte.
fn count_chars(bytes: &[u8]) -> usize {
    crate::sources::count_where(bytes, |b| (b as i8) >= -0x40)
}

/// Ariadne's source for a file: its text as `excerpt::shown` shows it.
fn fetch(sources: &Sources) -> Fetch<'_> {
    Box::new(move |key: &Key<'_>| Ok(excerpt::shown(sources.text(key.file))))
}

/// A label's byte range in its file, kept inside the text and on
/// character boundaries.
fn range(sources: &Sources, loc: &Loc) -> Range<usize> {
    clamp(sources.text(loc.file), loc.span.range())
}

/// The diagnostic with its secondary labels ordered so that each file is
/// shown as few times as ariadne allows (see `group_starts`): the labels
/// of one file together, by line, where the file first appears (the
/// primary's first). In the primary's file, the lines before the
/// primary's are shown apart from it anyway, and are taken as a file of
/// their own. Labels on one line keep their order (ariadne draws them by
/// it). Only the grouping changes: a receipt's three labels, in the order
/// a refusal mentioned them, were shown in two groups of the same file.
fn in_file_order<'d>(d: &'d Diagnostic, sources: &Sources) -> Cow<'d, Diagnostic> {
    let Some(primary) = &d.primary else {
        return Cow::Borrowed(d);
    };
    let end_line = |loc: &Loc| {
        let r = range(sources, loc);
        shown_line(sources, loc.file, r.end.saturating_sub(1).max(r.start))
    };
    let primary_line = end_line(&primary.loc);
    let part = |l: &crate::Label, line: usize| (l.loc.file, l.loc.file == primary.loc.file && line < primary_line);
    let mut parts: Vec<(FileId, bool)> = vec![(primary.loc.file, false)];
    let mut keys = Vec::with_capacity(d.secondary.len());
    for l in &d.secondary {
        let line = end_line(&l.loc);
        let p = part(l, line);
        let rank = parts.iter().position(|q| *q == p).unwrap_or_else(|| {
            parts.push(p);
            parts.len() - 1
        });
        keys.push((rank, line));
    }
    if keys.windows(2).all(|w| w[0] <= w[1]) {
        return Cow::Borrowed(d);
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&i| keys[i]); // stable
    let mut sorted = d.clone();
    sorted.secondary = order.into_iter().map(|i| d.secondary[i].clone()).collect();
    Cow::Owned(sorted)
}

/// Where each of ariadne's source groups begins, in its order: its first
/// label's file and place. Ariadne takes the labels in their order (the
/// primary first) and starts a group wherever the file changes or a label
/// ends on an earlier line than the one before it.
fn group_starts(d: &Diagnostic, sources: &Sources) -> Vec<Loc> {
    let mut starts: Vec<Loc> = Vec::new();
    let mut last: Option<(FileId, usize)> = None;
    for l in d.primary.iter().chain(&d.secondary) {
        let r = range(sources, &l.loc);
        let end_line = shown_line(sources, l.loc.file, r.end.saturating_sub(1).max(r.start));
        if !last.is_some_and(|(file, line)| file == l.loc.file && line <= end_line) {
            starts.push(Loc::new(l.loc.file, claim_syntax::Span::new(r.start, r.end)));
        }
        last = Some((l.loc.file, end_line));
    }
    starts
}

/// The line ariadne shows a place on: its line, but for the end of a text
/// that ends with a line break, the last line (each of ariadne's lines ends
/// with its break, and none begins after the last).
fn shown_line(sources: &Sources, file: FileId, at: usize) -> usize {
    let text = sources.text(file);
    let line = sources.line_start(file, at as u32).0;
    if at >= text.len() && text.ends_with('\n') {
        line.saturating_sub(1).max(1)
    } else {
        line
    }
}

/// Whether a rendered line is a group's header: `╭─[` or `├─[` after the
/// margin, whatever colours are around them.
fn is_header(line: &str) -> bool {
    let mut plain = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // An ANSI sequence: up to its final letter.
            chars.by_ref().find(char::is_ascii_alphabetic);
        } else {
            plain.push(c);
        }
    }
    let plain = plain.trim();
    (plain.starts_with("\u{256d}\u{2500}[") || plain.starts_with("\u{251c}\u{2500}[")) && plain.ends_with(']')
}

/// `ranges`: each label's, in characters, the primary's first.
fn render_with<'s>(
    d: &Diagnostic,
    sources: &'s Sources,
    color: bool,
    cache: impl ariadne::Cache<Key<'s>>,
    ranges: &[Range<usize>],
) -> String {
    let Some(primary) = &d.primary else {
        return render_plain(d);
    };
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let name = |loc: &Loc| Key { file: loc.file, name: sources.name(loc.file) };
    let at = |i: usize| ranges.get(i).cloned().unwrap_or(0..0);
    let config = Config::default().with_index_type(IndexType::Char).with_color(color);
    let mut report = Report::build(kind, (name(&primary.loc), at(0)))
        .with_config(config)
        .with_code(d.code)
        .with_message(printable(&d.message))
        .with_label(
            Label::new((name(&primary.loc), at(0)))
                .with_message(printable(&primary.message))
                .with_color(if d.severity == Severity::Error { Color::Red } else { Color::Yellow })
                .with_order(0),
        );
    for (i, s) in d.secondary.iter().enumerate() {
        report = report.with_label(
            Label::new((name(&s.loc), at(i + 1)))
                .with_message(printable(&s.message))
                .with_color(Color::Blue)
                .with_order(i as i32 + 1),
        );
    }
    for n in &d.notes {
        report = report.with_note(printable(n));
    }
    if let Some(h) = &d.help {
        report = report.with_help(printable(h));
    }
    let mut out = Vec::new();
    if report.finish().write(cache, &mut out).is_err() {
        return render_plain(d);
    }
    let text = String::from_utf8_lossy(&out);
    // Trailing spaces carry nothing and make snapshots brittle.
    text.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

/// A diagnostic without a source location.
fn render_plain(d: &Diagnostic) -> String {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut s = format!("{kind}[{}]: {}\n", d.code, printable(&d.message));
    for n in &d.notes {
        s.push_str(&format!("  = note: {}\n", printable(n)));
    }
    if let Some(h) = &d.help {
        s.push_str(&format!("  = help: {}\n", printable(h)));
    }
    s
}

/// Keeps a range inside the text and on character boundaries.
fn clamp(text: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let mut start = r.start.min(text.len());
    let mut end = r.end.min(text.len()).max(start);
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    while end < text.len() && !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;
    use claim_syntax::Span;

    /// The rendered text's section headers, in order.
    fn headers(text: &str) -> Vec<&str> {
        text.lines().filter(|l| is_header(l)).collect()
    }

    /// A diagnostic whose primary label is in `main.claim` and whose
    /// second label is past non-ASCII text in `r.json`.
    fn across_files() -> (Sources, Diagnostic) {
        let mut sources = Sources::new();
        let main = sources.add("main.claim", "fact a: Int = 1\nwitness w { holds a == 2 }\n");
        let json = sources.add("r.json", "{\n  \"note\": \"überprüft — 検証済み\",\n  \"a\": 1\n}\n");
        let at = "{\n  \"note\": \"überprüft — 検証済み\",\n  \"a\": ".len();
        let d = Diagnostic::error("E0401", "`holds` is false")
            .at(main, Span::new(34, 40), "`==` is false")
            .with_secondary(Loc::new(json, Span::new(at, at + 1)), "read from `$.a`")
            .with_secondary(Loc::new(main, Span::new(14, 15)), "written here");
        (sources, d)
    }

    #[test]
    fn each_header_names_its_own_first_label() {
        let (sources, d) = across_files();
        for color in [false, true] {
            let text = render_human(&d, &sources, color);
            let headers = headers(&text);
            assert_eq!(headers.len(), 3, "{text}");
            assert!(headers[0].contains(" main.claim:2:19 "), "{text}");
            // Past the non-ASCII line, ariadne's own header named 3:2.
            assert!(headers[1].contains(" r.json:3:8 "), "{text}");
            // Ariadne's own named the primary's place again.
            assert!(headers[2].contains(" main.claim:1:15 "), "{text}");
        }
    }

    #[test]
    fn a_long_line_is_shown_in_parts_with_its_true_column() {
        let mut sources = Sources::new();
        let line = format!("{{\"log\":\"{}\",\"a\":1}}", "x".repeat(20_000));
        let at = line.len() - 2;
        let json = sources.add("r.json", line);
        let d = Diagnostic::error("E0401", "`holds` is false").at(json, Span::new(at, at + 1), "read from `$.a`");
        let text = render_human(&d, &sources, false);
        assert!(text.len() < 1_000, "{text}");
        assert!(text.contains(&format!(" r.json:1:{} ", at + 1)), "{text}");
        assert!(text.contains("\u{2026}xxxx"), "{text}");
    }

    /// Character offsets from the kept counts agree with counting from the
    /// start, in every block and at the end (a text of whole blocks too).
    #[test]
    fn character_offsets_agree_with_counting() {
        for len in [3 * CHAR_BLOCK, 3 * CHAR_BLOCK + 5] {
            // Eleven bytes of one-, two-, three- and four-byte characters.
            let mut text = "a\u{e9}\u{20ac}\u{1f600}\n".repeat(len / 11);
            while text.len() < len {
                text.push('x');
            }
            let mut sources = Sources::new();
            let id = sources.add("t", text.as_str());
            let mut r = HumanRenderer::new(&sources, false);
            let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            for &at in boundaries.iter().step_by(7).chain(boundaries.last()) {
                assert_eq!(r.char_offset(id, at), text[..at].chars().count(), "at {at} of {}", text.len());
            }
        }
    }

    /// A label on an empty line of an excerpted file stays on that line
    /// (found by the `render` fuzz target: the excerpt dropped the line's
    /// break, ariadne put the label on the line before and grouped the
    /// labels otherwise, and every header was left as ariadne wrote it).
    #[test]
    fn a_label_on_an_empty_line_of_an_excerpt_keeps_its_line() {
        let text = format!("{}\nshort\n\nend\n", "y".repeat(300));
        let mut sources = Sources::new();
        let main = sources.add("main.claim", text.as_str());
        let d = Diagnostic::error("E0401", "`holds` is false")
            .at(main, Span::new(10, 12), "here")
            .with_secondary(Loc::new(main, Span::new(307, 307)), "on the empty line")
            .with_secondary(Loc::new(main, Span::new(302, 303)), "on the short one");
        // In this order (which `render` would regroup), the empty line's
        // label ends a group and the short line's begins another.
        let text = HumanRenderer::new(&sources, false).render_as_given(&d);
        let headers = headers(&text);
        assert_eq!(headers.len(), 2, "{text}");
        assert!(headers[0].contains(" main.claim:1:11 "), "{text}");
        assert!(headers[1].contains(" main.claim:2:2 "), "{text}");
    }

    /// The labels of one file are shown together, by line: a receipt
    /// mentioned at lines 5 and then 2 is one section, not two; the lines
    /// above the primary's in its own file are one more.
    #[test]
    fn labels_are_grouped_by_file_and_line() {
        let mut sources = Sources::new();
        let main = sources.add("main.claim", "fact a\nfact b\nwitness w\nholds x\n");
        let receipt = sources.add("run.json", "{\n\"a\": 1,\n\"b\": 2,\n\"c\": 3,\n\"d\": 4\n}\n");
        let at = |file, line: usize, col: usize| {
            let start: usize = sources.text(file).split_inclusive('\n').take(line - 1).map(str::len).sum();
            Loc::new(file, Span::new(start + col - 1, start + col))
        };
        let d = Diagnostic::error("E0402", "refused")
            .at_loc(at(main, 3, 1), "refused here")
            .with_secondary(at(receipt, 5, 2), "read from `$.d`")
            .with_secondary(at(main, 1, 6), "the fact")
            .with_secondary(at(receipt, 2, 2), "read from `$.a`")
            .with_secondary(at(main, 4, 1), "in this statement");
        let text = render_human(&d, &sources, false);
        let headers = headers(&text);
        assert_eq!(headers.len(), 3, "{text}");
        assert!(headers[0].contains(" main.claim:3:1 "), "{text}");
        assert!(headers[1].contains(" run.json:2:2 "), "{text}");
        assert!(headers[2].contains(" main.claim:1:6 "), "{text}");
        // The machine formats keep the checker's order: the diagnostic is
        // not changed.
        assert_eq!(d.secondary[0].message, "read from `$.d`");
    }
}
