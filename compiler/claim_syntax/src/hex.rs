//! Digests' lowercase hex, read into bytes: for the checker's digest
//! literals (which the lexer has checked) and the evaluator's digests read
//! from receipts (which it checks here).

use std::sync::Arc;

/// Lowercase hex of exactly `out.len()` bytes into `out`. A receipt holds
/// several digests and a run reads tens of thousands of receipts: decoded
/// a nibble at a time, not through `from_str_radix` per byte.
pub fn hex_into(s: &str, out: &mut [u8]) -> Option<()> {
    // Each byte's value as a digit, or `BAD`: one load per digit.
    const BAD: u8 = 0xff;
    const NIBBLES: [u8; 256] = {
        let mut t = [BAD; 256];
        let mut i = 0;
        while i < 10 {
            t[b'0' as usize + i] = i as u8;
            i += 1;
        }
        let mut i = 0;
        while i < 6 {
            t[b'a' as usize + i] = 10 + i as u8;
            i += 1;
        }
        t
    };
    let b = s.as_bytes();
    if b.len() != out.len() * 2 {
        return None;
    }
    let mut bad = 0u8;
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        let (hi, lo) = (NIBBLES[pair[0] as usize], NIBBLES[pair[1] as usize]);
        // `BAD` has its high bit set, and no digit has: one test at the end.
        bad |= hi | lo;
        *o = (hi << 4) | (lo & 15);
    }
    (bad & 0x80 == 0).then_some(())
}

/// A digest's bytes from its lowercase hex, in one allocation (SHA-512 or
/// shorter; `None` for anything else).
pub fn parse_digest_bytes(s: &str, len: usize) -> Option<Arc<[u8]>> {
    let mut buf = [0u8; 64];
    hex_into(s, buf.get_mut(..len)?)?;
    Some(Arc::from(&buf[..len]))
}
