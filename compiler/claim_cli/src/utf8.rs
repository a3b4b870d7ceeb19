//! Text files as Claim reads them (`.claim` modules and the JSON a fact
//! loads): UTF-8, with a leading byte order mark ignored. Windows tools
//! write one (PowerShell 5's `Out-File -Encoding utf8`, Notepad before
//! 2019), and RFC 8259 lets a JSON parser ignore it; a receipt written so
//! was refused as "not valid JSON" and a module with one failed on an
//! "unexpected character". The mark is dropped as the file is read, so
//! places on its first line are counted from the character after it, as
//! editors count them. (Hashes — `file_sha256`, `git_tree` — read bytes and
//! keep it.)

use std::path::Path;

/// UTF-8's byte order mark (U+FEFF).
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A file that is not UTF-8: its text with what is not replaced (for
/// showing it), and where the first invalid byte is in that text and in
/// the file (which differ by the mark).
#[derive(Debug)]
pub struct NotUtf8 {
    pub lossy: String,
    pub at: usize,
    pub in_file: usize,
}

/// `bytes` as text, without a leading byte order mark.
pub fn decode(mut bytes: Vec<u8>) -> Result<String, NotUtf8> {
    let mark = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    if mark > 0 {
        // Moves the text down three bytes: only for a file with the mark.
        bytes.drain(..mark);
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        NotUtf8 { lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(), at, in_file: at + mark }
    })
}

/// `decode`, replacing what is not UTF-8 (for showing a file).
pub fn decode_lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes.strip_prefix(BOM).unwrap_or(bytes)).into_owned()
}

/// A file's text, as [`std::fs::read_to_string`] reads it but for the
/// byte order mark.
pub fn read_to_string(path: &Path) -> std::io::Result<String> {
    decode(std::fs::read(path)?).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 (an invalid byte at offset {})", e.in_file),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_mark_is_dropped_and_no_other() {
        assert_eq!(decode(b"\xEF\xBB\xBFfact".to_vec()).ok().as_deref(), Some("fact"));
        assert_eq!(decode(b"fact".to_vec()).ok().as_deref(), Some("fact"));
        assert_eq!(decode(b"a\xEF\xBB\xBF".to_vec()).ok().as_deref(), Some("a\u{feff}"), "only at the start");
        assert_eq!(decode(b"\xEF\xBB\xBF\xEF\xBB\xBFx".to_vec()).ok().as_deref(), Some("\u{feff}x"), "only one");
        let e = decode(b"\xEF\xBB\xBFab\xFF".to_vec()).err();
        assert_eq!(e.map(|e| (e.lossy, e.at, e.in_file)), Some(("ab\u{fffd}".to_string(), 2, 5)));
        assert_eq!(decode_lossy(b"\xEF\xBB\xBFa\xFF"), "a\u{fffd}");
    }
}
