//! Between the protocol's terms and the compiler's: URIs and paths, line
//! and column (UTF-16 or UTF-8, as negotiated) and byte offsets, and
//! diagnostics.

use claim_diagnostics::{Diagnostic, Severity};
use lsp_types as lsp;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Line starts of a text, for position conversions.
pub struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
    utf8: bool,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str, utf8: bool) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts, utf8 }
    }

    pub fn position(&self, offset: u32) -> lsp::Position {
        let offset = (offset as usize).min(self.text.len());
        let line = self.starts.partition_point(|s| *s <= offset).saturating_sub(1);
        let start = self.starts[line];
        let seg = self.text.get(start..offset).unwrap_or("");
        let character = if self.utf8 { seg.len() } else { seg.chars().map(char::len_utf16).sum() };
        lsp::Position { line: line as u32, character: character as u32 }
    }

    pub fn offset(&self, p: lsp::Position) -> u32 {
        let Some(start) = self.starts.get(p.line as usize).copied() else {
            return self.text.len() as u32;
        };
        let end = self.starts.get(p.line as usize + 1).map_or(self.text.len(), |e| e.saturating_sub(1));
        let line = self.text.get(start..end).unwrap_or("");
        let mut units = 0u32;
        for (i, ch) in line.char_indices() {
            if units >= p.character {
                return (start + i) as u32;
            }
            units += if self.utf8 { ch.len_utf8() as u32 } else { ch.len_utf16() as u32 };
        }
        end as u32
    }

    pub fn range(&self, span: claim_syntax::Span) -> lsp::Range {
        lsp::Range { start: self.position(span.start), end: self.position(span.end) }
    }
}

pub fn path_of(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let mut bytes = Vec::with_capacity(rest.len());
    let raw = rest.as_bytes();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'%' && i + 2 < raw.len() {
            if let Ok(b) = u8::from_str_radix(std::str::from_utf8(&raw[i + 1..i + 3]).unwrap_or("zz"), 16) {
                bytes.push(b);
                i += 3;
                continue;
            }
        }
        bytes.push(raw[i]);
        i += 1;
    }
    String::from_utf8(bytes).ok().map(PathBuf::from)
}

pub fn uri_of(path: &Path) -> Option<lsp::Uri> {
    let mut s = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    lsp::Uri::from_str(&s).ok()
}

/// A compiler diagnostic as the protocol shows it: the primary label's
/// range, the message with the label, help and notes, and the secondary
/// labels as related information.
pub fn diagnostic(
    d: &Diagnostic,
    index: &LineIndex<'_>,
    related: impl Fn(&claim_diagnostics::Label) -> Option<lsp::Location>,
) -> Option<lsp::Diagnostic> {
    let primary = d.primary.as_ref()?;
    let mut message = d.message.clone();
    if !primary.message.is_empty() {
        message.push_str(&format!("\n{}", primary.message));
    }
    for n in &d.notes {
        message.push_str(&format!("\nnote: {n}"));
    }
    if let Some(h) = &d.help {
        message.push_str(&format!("\nhelp: {h}"));
    }
    let info: Vec<lsp::DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .filter_map(|l| Some(lsp::DiagnosticRelatedInformation { location: related(l)?, message: l.message.clone() }))
        .collect();
    Some(lsp::Diagnostic {
        range: index.range(primary.loc.span),
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        }),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("claim".to_string()),
        message,
        related_information: if info.is_empty() { None } else { Some(info) },
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_in_utf16_and_utf8() {
        let text = "ab\n\u{e9}x\u{1F600}y\n";
        for utf8 in [false, true] {
            let ix = LineIndex::new(text, utf8);
            for (off, _) in text.char_indices() {
                assert_eq!(ix.offset(ix.position(off as u32)), off as u32);
            }
        }
        let ix = LineIndex::new(text, false);
        // `y` is after `é`, `x` and an emoji (two UTF-16 units).
        assert_eq!(ix.position(text.find('y').unwrap_or(0) as u32), lsp::Position { line: 1, character: 4 });
    }

    #[test]
    fn uris_round_trip_with_spaces() {
        let p = PathBuf::from("/tmp/a b/c.claim");
        let u = uri_of(&p).expect("uri");
        assert_eq!(u.as_str(), "file:///tmp/a%20b/c.claim");
        assert_eq!(path_of(&u), Some(p));
    }
}
