//! What the human renderer shows ariadne of a file: its lines broken where
//! every other output breaks them, and a long line cut down to the places
//! the labels point at.
//!
//! Ariadne breaks lines at seven characters (`\r`, form feed, U+2028, …);
//! the JSON, GitHub and SARIF formats and the language server break them at
//! `\n` alone, and a raw carriage return or form feed printed to a terminal
//! garbles the line it is on. So those characters are shown as visible ones
//! of the same length in bytes and in characters: no offset or column moves.
//!
//! A receipt written by a machine is often one line (`jq -c`, a CI step's
//! JSON output), and a log or a base64 blob in one of its fields makes that
//! line megabytes long. Ariadne prints a labelled line whole, three times
//! over (the line, its underlines, its messages): one refusal naming a
//! 12 MB line printed 37 MB. A line longer than [`LONG_LINE`] is therefore
//! shown as the parts around the places labels point at, joined by `…`;
//! the lines no label points at are left empty (ariadne shows only the
//! lines labels start or end on), so the excerpt is small whatever the
//! file's size.

use std::borrow::Cow;

/// A line longer than this, in bytes, is shown in parts.
pub(crate) const LONG_LINE: usize = 240;
/// Bytes shown on either side of a place a label points at.
const CONTEXT: usize = 48;
/// What stands for the part of a long line not shown.
const ELLIPSIS: &str = "…";

/// The character a line-breaking character other than `\n` is shown as,
/// and any other character `printable` escapes in a message (a control
/// character, a change of direction): one of the same length in UTF-8, so
/// offsets and columns stay put. A tab and `\n` are shown as they are, and
/// a `\r` before `\n` is kept (`\r\n` is one break everywhere).
fn stand_in(c: char) -> Option<char> {
    match c {
        '\n' | '\t' => None,
        '\r' | '\u{0B}' | '\u{0C}' => Some(' '),
        '\u{85}' => Some('\u{B6}'),                  // `¶`, two bytes as U+0085
        '\u{2028}' | '\u{2029}' => Some('\u{23CE}'), // `⏎`, three bytes as U+2028
        // An escape sequence or a direction override would act on the
        // terminal or reorder the line as printed.
        c if crate::printable::hidden(c) => Some(match c.len_utf8() {
            1 => '?',
            2 => '\u{BF}', // `¿`
            _ => '\u{FFFD}',
        }),
        _ => None,
    }
}

/// `text` with every line break but `\n` (and `\r\n`) shown as a visible
/// character of the same length; borrowed where there is none.
pub(crate) fn shown(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    // Printable ASCII, tabs and newlines need nothing: most texts are
    // lent as they are. (Tested 64 bytes at a time without stopping early,
    // which the compiler turns into vector compares.)
    let needs = |b: u8| u8::from((b < 0x20 && b != b'\n' && b != b'\t') || b >= 0x7F);
    let maybe = bytes.chunks(64).any(|c| c.iter().fold(0u8, |a, &b| a | needs(b)) != 0);
    if !maybe {
        return Cow::Borrowed(text);
    }
    let mut out: Option<String> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let replaced = if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') { None } else { stand_in(c) };
        match (replaced, &mut out) {
            (Some(r), Some(o)) => o.push(r),
            (Some(r), None) => {
                let mut o = String::with_capacity(text.len());
                o.push_str(&text[..i]);
                o.push(r);
                out = Some(o);
            }
            (None, Some(o)) => o.push(c),
            (None, None) => {}
        }
    }
    out.map_or(Cow::Borrowed(text), Cow::Owned)
}

/// The line around `at`: from after the `\n` before it to the `\n` after it.
fn line_at(bytes: &[u8], at: usize) -> (usize, usize) {
    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    (start, end)
}

/// Whether any of `points` (byte offsets) lies on a line longer than
/// [`LONG_LINE`].
pub(crate) fn needs_window(text: &str, points: &[usize]) -> bool {
    points.iter().any(|&p| {
        let (s, e) = line_at(text.as_bytes(), p.min(text.len()));
        e - s > LONG_LINE
    })
}

/// An excerpt of a text for ariadne, and where the places asked for moved.
#[derive(Debug)]
pub(crate) struct Window {
    pub(crate) text: String,
    /// Each place asked for, in the text and in the excerpt, sorted.
    moved: Vec<(usize, usize)>,
}

impl Window {
    /// Where a place in the text is in the excerpt (a place not asked for
    /// goes to the nearest one that was).
    pub(crate) fn offset(&self, at: usize) -> usize {
        match self.moved.binary_search_by_key(&at, |m| m.0) {
            Ok(i) => self.moved[i].1,
            Err(i) => self.moved.get(i).or_else(|| self.moved.last()).map_or(0, |m| m.1),
        }
    }
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// The excerpt of `text` for labels pointing at `points` (byte offsets on
/// character boundaries): every line a point is on, [`shown`], a long one
/// in parts around its points; the lines between left empty and the text
/// after the last of them left out. (Only what is kept is shown: a file
/// with thousands of diagnostics on one long line is not read whole for
/// each.)
pub(crate) fn window(text: &str, points: &[usize]) -> Window {
    let bytes = text.as_bytes();
    let mut points: Vec<usize> = points.iter().map(|&p| floor_char(text, p.min(text.len()))).collect();
    points.sort_unstable();
    points.dedup();
    let mut out = String::new();
    let mut moved = Vec::with_capacity(points.len());
    // Where the text has been copied (or skipped) to.
    let mut done = 0;
    let mut i = 0;
    while i < points.len() {
        let (start, end) = line_at(bytes, points[i]);
        let here = points[i..].iter().take_while(|&&p| p <= end).count();
        let on_line = &points[i..i + here];
        i += here;
        // The lines between: their breaks only.
        let skipped = memchr::memchr_iter(b'\n', &bytes[done..start]).count();
        out.extend(std::iter::repeat_n('\n', skipped));
        let out_start = out.len();
        if end - start <= LONG_LINE {
            out.push_str(&shown(&text[start..end]));
            moved.extend(on_line.iter().map(|&p| (p, out_start + (p - start))));
        } else {
            let mut parts: Vec<(usize, usize)> = Vec::new();
            for &p in on_line {
                let part =
                    (floor_char(text, p.saturating_sub(CONTEXT).max(start)), ceil_char(text, (p + CONTEXT).min(end)));
                match parts.last_mut() {
                    // Parts close together are shown as one: an ellipsis
                    // for a few bytes would hide more than it saves.
                    Some(last) if part.0 <= last.1 + CONTEXT => last.1 = last.1.max(part.1),
                    _ => parts.push(part),
                }
            }
            let mut shown_to = start;
            for &(from, to) in &parts {
                if from > shown_to {
                    out.push_str(ELLIPSIS);
                }
                let at = out.len();
                out.push_str(&shown(&text[from..to]));
                moved.extend(on_line.iter().filter(|&&p| from <= p && p <= to).map(|&p| (p, at + (p - from))));
                shown_to = to;
            }
            if shown_to < end {
                out.push_str(ELLIPSIS);
            }
        }
        done = end;
    }
    // The last line keeps its break: a place on the empty line after it
    // (a label at a file's last newline) is then on a line of its own, as
    // in the text, and not at the end of the one before.
    if done < bytes.len() {
        out.push('\n');
    }
    Window { text: out, moved }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_but_newline_are_shown_at_the_same_length() {
        let text = "a\rb\r\nc\u{0B}d\u{0C}e\u{85}f\u{2028}g\u{2029}h\n";
        let s = shown(text);
        assert_eq!(s, "a b\r\nc d e\u{B6}f\u{23CE}g\u{23CE}h\n");
        assert_eq!(s.len(), text.len());
        assert_eq!(s.chars().count(), text.chars().count());
        assert!(matches!(shown("plain\nlines\twith tabs\n"), Cow::Borrowed(_)));
        // Escape sequences, other controls and direction overrides.
        let text = "a\u{1b}[2J\u{7f}\u{9b}\u{202e}b\u{0}\n";
        let s = shown(text);
        assert_eq!(s, "a?[2J?\u{BF}\u{FFFD}b?\n");
        assert_eq!((s.len(), s.chars().count()), (text.len(), text.chars().count()));
        // Bytes those characters share with others (`…` ends in 0xA6,
        // `©` in 0xA9) change nothing.
        assert_eq!(shown("\u{a9} \u{2026} \u{e8}"), "\u{a9} \u{2026} \u{e8}");
    }

    #[test]
    fn a_short_line_is_shown_whole_and_other_lines_empty() {
        let text = "first line\nsecond\nthird line here\nlast\n";
        assert!(!needs_window(text, &[13]));
        let w = window(text, &[13, 19]);
        assert_eq!(w.text, "\nsecond\nthird line here\n");
        assert_eq!(&w.text[w.offset(13)..w.offset(13) + 4], "cond");
        assert_eq!(&w.text[w.offset(19)..w.offset(19) + 4], "hird");
    }

    #[test]
    fn a_long_line_is_shown_around_its_points() {
        let long = format!("{{\"log\":\"{}\",\"key\":\"abc\"}}", "x".repeat(100_000));
        let text = format!("head\n{long}\ntail\n");
        let key = text.find("abc").unwrap_or(0);
        let log = text.find("\"x").unwrap_or(0);
        assert!(needs_window(&text, &[key]));
        let w = window(&text, &[log, key, key + 3]);
        assert!(w.text.len() < 400, "{}", w.text);
        assert!(w.text.starts_with("\n{\"log\":\"xx"), "{}", w.text);
        assert!(w.text.contains("\u{2026}"), "{}", w.text);
        assert!(w.text.ends_with(",\"key\":\"abc\"}\n"), "{}", w.text);
        assert_eq!(&w.text[w.offset(key)..w.offset(key + 3)], "abc");
    }

    /// Every place asked for shows the same character in the excerpt, on
    /// the same line, in order, whatever the lines' lengths and contents.
    #[test]
    fn every_place_keeps_its_character_and_line() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..200 {
            let mut text = String::new();
            for _ in 0..1 + next(6) {
                let len = [0, 3, 200, 300, 5_000][next(5)];
                text.extend((0..len).map(|_| ['a', 'é', '€', '😀', ' '][next(5)]));
                text.push('\n');
            }
            let points: Vec<usize> = (0..1 + next(6)).map(|_| floor_char(&text, next(text.len() + 1))).collect();
            let w = window(&text, &points);
            for &p in &points {
                let at = w.offset(p);
                // The end of a line may be the end of the excerpt.
                let (want, got) = (text[p..].chars().next(), w.text[at..].chars().next());
                assert!(want == got || (want.is_none_or(|c| c == '\n') && got.is_none()), "at {p}");
                let lines = |s: &str, i: usize| s.as_bytes()[..i].iter().filter(|&&b| b == b'\n').count();
                assert_eq!(lines(&text, p), lines(&w.text, at), "line of {p}");
            }
            // As many line breaks as the text has up to the end of the
            // last place's line (ariadne numbers lines by them).
            let last = points.iter().max().copied().unwrap_or(0);
            let through = memchr::memchr(b'\n', &text.as_bytes()[last..]).map_or(text.len(), |i| last + i + 1);
            let breaks = |s: &str| s.bytes().filter(|&b| b == b'\n').count();
            assert_eq!(breaks(&w.text), breaks(&text[..through]), "breaks");
            let mut sorted = points.clone();
            sorted.sort_unstable();
            let offsets: Vec<usize> = sorted.iter().map(|&p| w.offset(p)).collect();
            assert!(offsets.windows(2).all(|o| o[0] <= o[1]), "in order");
            // A long line's excerpt is at most a part per point (with the
            // gap to the part before it, where they merged).
            let most = points.len() * (3 * CONTEXT + 8 + ELLIPSIS.len()) + ELLIPSIS.len();
            assert!(w.text.lines().all(|l| l.len() <= LONG_LINE.max(most)), "short lines");
        }
    }
}
