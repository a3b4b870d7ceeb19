//! Two digests that differ in a digit or two. A digest typed in by hand
//! (an arm's config digest copied from a build report, a pin in a
//! receipt) is wrong by a slip of the hand far more often than by naming
//! another artifact, and two unrelated digests differ in nearly every
//! digit: so where a comparison or a lookup fails between digests that
//! differ in at most [`NEAR`] hex digits, the diagnostic says which ones,
//! instead of leaving a reviewer to compare 64 digits by eye.

use crate::value::{Value, V};

/// Hex digits two digests may differ in and still be called near.
const NEAR: usize = 2;

/// A hex digit where two digests differ: its place (1-based) and each
/// side's digit.
type Digit = (usize, char, char);

/// The hex digits in which two digests of one kind differ, and how many
/// digits each has; `None` unless they differ in 1 to [`NEAR`] digits.
fn differing_digits(left: &Value, right: &Value) -> Option<(Vec<Digit>, usize)> {
    let (V::Digest(k1, a), V::Digest(k2, b)) = (&left.kind, &right.kind) else { return None };
    if k1 != k2 || a.len() != b.len() {
        return None;
    }
    let digit = |n: u8| char::from_digit(u32::from(n), 16).unwrap_or('?');
    let mut found = Vec::new();
    for (i, (x, y)) in a.iter().zip(b.iter()).enumerate() {
        for (shift, place) in [(4, 2 * i + 1), (0, 2 * i + 2)] {
            let (p, q) = ((x >> shift) & 0xF, (y >> shift) & 0xF);
            if p != q {
                if found.len() == NEAR {
                    return None;
                }
                found.push((place, digit(p), digit(q)));
            }
        }
    }
    (!found.is_empty()).then_some((found, 2 * a.len()))
}

/// What a note says of two near digests: "hex digit 11 of 64: `1`
/// against `2`", or of two such digits; `None` where they are not near.
pub fn near_digits(left: &Value, right: &Value) -> Option<String> {
    let (found, of) = differing_digits(left, right)?;
    Some(match found.as_slice() {
        [(at, p, q)] => format!("hex digit {at} of {of}: `{p}` against `{q}`"),
        [(a1, p1, q1), (a2, p2, q2)] if a2 - a1 == 1 => {
            format!("hex digits {a1} and {a2} of {of}: `{p1}{p2}` against `{q1}{q2}`")
        }
        [(a1, p1, q1), (a2, p2, q2)] => {
            format!("hex digits {a1} and {a2} of {of}: `{p1}` and `{p2}` against `{q1}` and `{q2}`")
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::near_digits;
    use crate::value::Value;
    use claim_syntax::token::DigestKind;

    fn sha256(hex: &str) -> Value {
        let bytes: Vec<u8> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect();
        Value::digest(DigestKind::Sha256, &bytes)
    }

    #[test]
    fn digests_a_digit_or_two_apart_are_named_by_the_digits() {
        let a = "ea39410ed01d396caad86339d877c1adb181a983baadffd22c722069109ea664";
        let one = a.replacen("ed01", "ed02", 1);
        assert_eq!(near_digits(&sha256(a), &sha256(&one)).as_deref(), Some("hex digit 11 of 64: `1` against `2`"));
        // Two neighbours swapped, the slip of a hand.
        let swapped = a.replacen("ea39", "ae39", 1);
        assert_eq!(
            near_digits(&sha256(a), &sha256(&swapped)).as_deref(),
            Some("hex digits 1 and 2 of 64: `ea` against `ae`")
        );
        let apart = a.replacen("ea39", "eb39", 1).replacen("ed01", "ed0f", 1);
        assert_eq!(
            near_digits(&sha256(a), &sha256(&apart)).as_deref(),
            Some("hex digits 2 and 11 of 64: `a` and `1` against `b` and `f`")
        );
        let three = a.replacen("ea39", "ae38", 1);
        assert_eq!(near_digits(&sha256(a), &sha256(&three)), None, "three digits: not near");
        assert_eq!(near_digits(&sha256(a), &sha256(a)), None, "equal: nothing to say");
        let other = "5de3c355aa29ec7d6b1e6f3d0c0e6a8bd5bb5b0a0a1b5ce3c9e1bdc5ad2c9e11";
        assert_eq!(near_digits(&sha256(a), &sha256(other)), None);
        assert_eq!(near_digits(&sha256(a), &Value::text(a)), None, "not two digests");
    }
}
