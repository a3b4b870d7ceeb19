//! Two digests that differ in a digit or two. A digest typed in by hand
//! (an arm's config digest copied from a build report, a pin in a
//! receipt) is wrong by a slip of the hand far more often than by naming
//! another artifact, and two unrelated digests differ in nearly every
//! digit: so where a comparison or a lookup fails between digests that
//! differ in at most [`NEAR`] hex digits, the diagnostic says which ones,
//! instead of leaving a reviewer to compare 64 digits by eye. Long texts
//! that agree on a long start (two tags of one image name) likewise say
//! where they part.

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

/// Texts shorter than this are read at a glance: no note.
const LONG_TEXT: usize = 16;
/// Characters two texts must agree on before the note says where they part.
const SHARED: usize = 8;
/// Characters of each text shown after the place they part.
const SHOWN: usize = 24;

/// What a note says of two long texts that agree on a long start (two
/// tags of one image name, two paths of one folder): "agree on their first
/// 22 characters, then read `"3ced…"` against `"4ced…"`"; `None` where
/// they are short, part early or are not two texts.
pub fn near_texts(left: &Value, right: &Value) -> Option<String> {
    let (V::Text(a), V::Text(b)) = (&left.kind, &right.kind) else { return None };
    if a == b || a.chars().count() < LONG_TEXT || b.chars().count() < LONG_TEXT {
        return None;
    }
    let (shared, at) = a
        .char_indices()
        .zip(b.chars())
        .take_while(|((_, x), y)| x == y)
        .fold((0, 0), |(n, _), ((i, x), _)| (n + 1, i + x.len_utf8()));
    if shared < SHARED {
        return None;
    }
    let rest = |t: &str| {
        let mut q = String::new();
        let shown: String = t.chars().take(SHOWN).collect();
        crate::text::quote(&shown, &mut q);
        if t.chars().count() > SHOWN {
            q.insert(q.len() - 1, '…');
        }
        q
    };
    let (ra, rb) = (&a[at..], &b[at..]);
    Some(match (ra.is_empty(), rb.is_empty()) {
        (true, _) => format!(
            "agree on their first {shared} characters, where the left ends and the right goes on `{}`",
            rest(rb)
        ),
        (_, true) => format!(
            "agree on their first {shared} characters, where the right ends and the left goes on `{}`",
            rest(ra)
        ),
        _ => format!("agree on their first {shared} characters, then read `{}` against `{}`", rest(ra), rest(rb)),
    })
}

#[cfg(test)]
mod tests {
    use super::{near_digits, near_texts};
    use crate::value::Value;
    use claim_syntax::digest::DigestKind;

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

    #[test]
    fn long_texts_with_a_long_start_in_common_say_where_they_part() {
        let t = |s: &str| Value::text(s);
        assert_eq!(
            near_texts(&t("gunbc-vllm-dsv41-gb10:3cedb66f0ec0869e"), &t("gunbc-vllm-dsv41-gb10:4cedb66f0ec0869e"))
                .as_deref(),
            Some("agree on their first 22 characters, then read `\"3cedb66f0ec0869e\"` against `\"4cedb66f0ec0869e\"`")
        );
        assert_eq!(
            near_texts(&t("receipts/m0/build-1.json"), &t("receipts/m0/build-12.json")).as_deref(),
            Some("agree on their first 19 characters, then read `\".json\"` against `\"2.json\"`")
        );
        assert_eq!(
            near_texts(&t("serving-runtime/v7"), &t("serving-runtime/v7-rc1")).as_deref(),
            Some("agree on their first 18 characters, where the left ends and the right goes on `\"-rc1\"`")
        );
        // A long rest is cut; a multi-byte character is counted once.
        let long = format!("é-shared-start:{}", "x".repeat(40));
        let other = format!("é-shared-start:{}", "y".repeat(40));
        assert_eq!(
            near_texts(&t(&long), &t(&other)).as_deref(),
            Some(
                format!(
                    "agree on their first 15 characters, then read `\"{}…\"` against `\"{}…\"`",
                    "x".repeat(24),
                    "y".repeat(24)
                )
                .as_str()
            )
        );
        assert_eq!(near_texts(&t("short"), &t("shorter")), None, "short texts");
        assert_eq!(near_texts(&t("abcdefg-long-text-1"), &t("abcdefX-long-text-1")), None, "part before 8 characters");
        assert_eq!(near_texts(&t("same-long-text-here"), &t("same-long-text-here")), None, "equal");
    }
}
