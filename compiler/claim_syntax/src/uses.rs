//! The modules a source names in its `use` items, read from its lines
//! without lexing or parsing it.
//!
//! A batch run reads every module before it checks any: it must know the
//! whole program (the entries and every module they `use`) first. Parsing
//! every module then to find its `use` items held every syntax tree at
//! once, first-touching pages for all of them, only to check them later;
//! with this scan a run parses each module where it checks it, part by
//! part, and frees each part's trees before the next part's are made.
//!
//! The scan is a guess, and is treated as one: it is exact for a module
//! written the usual way (each `use` at the start of its line, its path
//! written without spaces), and the caller compares it with the parsed
//! module's `use` items (`parsed_uses`) before trusting anything built on
//! it. A `use` that does not start its line, a path with spaces around its
//! dots, or a line of a multi-line text that starts with `use ` make the
//! two differ, and the caller then loads the program the slow way.

use crate::ast::{ItemKind, Module};

/// The module paths of the lines that start with `use ` (after blanks),
/// in the order of the lines: `use std.oci.{Tag}` names `std.oci`.
///
/// Found by searching the text for `use` (a vector search), each match
/// then asked whether only blanks stand before it on its line: going
/// through a module line by line was ~3 ms of a 1,000-module run's load.
pub fn scan_uses(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(b, b"use") {
        let line_start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |nl| nl + 1);
        if !b[line_start..at].iter().all(|c| matches!(c, b' ' | b'\t')) {
            continue;
        }
        if let Some(path) = used_path(&src[at + 3..]) {
            out.push(path.to_string());
        }
    }
    out
}

/// The path a `use` at the start of a line names, from what follows the
/// word: none where no blank follows it (`user`, `use_x`, `use` alone).
fn used_path(rest: &str) -> Option<&str> {
    let trimmed = rest.trim_start_matches([' ', '\t']);
    if trimmed.len() == rest.len() {
        return None;
    }
    dotted_path(trimmed)
}

/// The longest `ident(.ident)*` at the start of `s`.
fn dotted_path(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    let ident = |at: usize| -> usize {
        let mut end = at;
        while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
            end += 1;
        }
        let starts = b.get(at).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        if starts {
            end
        } else {
            at
        }
    };
    let mut end = ident(0);
    if end == 0 {
        return None;
    }
    while b.get(end) == Some(&b'.') {
        let next = ident(end + 1);
        if next == end + 1 {
            break;
        }
        end = next;
    }
    s.get(..end)
}

/// The module paths of a parsed module's `use` items, in order: what
/// `scan_uses` of its text should have found.
pub fn parsed_uses(module: &Module) -> impl Iterator<Item = String> + '_ {
    module.items.iter().filter_map(|item| match &item.kind {
        ItemKind::Use(u) => Some(u.dotted()),
        _ => None,
    })
}

/// Whether `scan_uses` found exactly the `use` items the parse did.
pub fn scan_agrees(scanned: &[String], module: &Module) -> bool {
    let mut parsed = parsed_uses(module);
    scanned.iter().all(|s| parsed.next().is_some_and(|p| p == *s)) && parsed.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agrees(src: &str) -> bool {
        scan_agrees(&scan_uses(src), &crate::parse_module(src).module)
    }

    #[test]
    fn the_usual_uses_are_found_in_order() {
        let src =
            "// a module\nuse std.provenance.{Candidate, keyed}\n  use app.lib\nuse std.oci.{Tag}\n\nfact x: Int = 1\n";
        assert_eq!(scan_uses(src), ["std.provenance", "app.lib", "std.oci"]);
        assert!(agrees(src));
    }

    #[test]
    fn words_that_only_begin_with_use_are_not_uses() {
        assert_eq!(scan_uses("user\nuse_x = 1\nuse\n/// use a.b\n// use c.d\n"), Vec::<String>::new());
    }

    /// The scan line by line, as it was written first: what `scan_uses`
    /// must find.
    fn by_lines(src: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in src.lines() {
            let line = line.trim_start_matches([' ', '\t']);
            if let Some(path) = line.strip_prefix("use").and_then(used_path) {
                out.push(path.to_string());
            }
        }
        out
    }

    #[test]
    fn the_search_finds_what_reading_line_by_line_finds() {
        // Texts made of pieces that sit at a line's start, after blanks,
        // after other words, and across `\r\n` and a missing last newline.
        let pieces = [
            "use",
            "use ",
            "use\t",
            "  use a.b",
            "\tuse c",
            "x use d.e",
            "reuse f",
            "user",
            "use_g",
            "\n",
            "\r\n",
            "\n\n",
            " ",
            "\t",
            "a.b.c",
            ".{T}",
            "fact x: Int = 1",
            "// use h",
            "use  i.j.k",
            "use\r\n",
            "é use k",
            "ûse l",
            "\"use m\"",
        ];
        let mut seed: u64 = 0x9e3779b97f4a7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let len = next(12);
            let src: String = (0..len).map(|_| pieces[next(pieces.len())]).collect();
            assert_eq!(scan_uses(&src), by_lines(&src), "{src:?}");
        }
        for src in ["use a", "\nuse a\n", "a\n  use b.c.{D}\n\tuse e\r\nuse f", "use", "useuse a", " use\tuse b"] {
            assert_eq!(scan_uses(src), by_lines(src), "{src:?}");
        }
    }

    #[test]
    fn unusual_writing_is_caught_by_the_comparison() {
        // A `use` after another item on its line: the scan misses it.
        assert!(!agrees("fact x: Int = 1 use std.oci.{Tag}\n"));
        // Spaces around the dots: the scan reads `std` only.
        assert!(!agrees("use std . oci.{Tag}\n"));
        // A line of a multi-line text: the scan sees a use the parse does not.
        assert!(!agrees("fact t: Text = \"a\nuse app.lib\n\"\n"));
    }
}
