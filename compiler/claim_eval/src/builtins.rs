//! The prelude's built-in functions at run time (§4).

use crate::refusal::{refusal, too_long};
use crate::refusal::{Eval, Stop};
use crate::text::{push_text, show};
use crate::value::{hex_text, joined_text, parse_hex, Value, V};
use claim_diagnostics::Diagnostic;
use claim_sema::hir::Builtin as B;
use claim_syntax::digest::DigestKind;
use claim_syntax::Loc;
use sha2::{Digest, Sha256};
use std::sync::Arc;

fn bad(b: B) -> Stop {
    Stop::Fatal(vec![Diagnostic::error(
        "E0999",
        format!("internal error: built-in {b:?} got arguments of the wrong type"),
    )])
}

pub fn sha256_bytes(data: &[u8]) -> [u8; 32] {
    let out = Sha256::digest(data);
    let mut a = [0u8; 32];
    a.copy_from_slice(&out[..]);
    a
}

/// The key fold: SHA-256 over the netstrings (`len:bytes,`) of the domain
/// and each part, in order.
pub fn fold_sha256<S: AsRef<str>>(domain: &str, parts: &[S]) -> [u8; 32] {
    let mut h = Sha256::new();
    for s in std::iter::once(domain).chain(parts.iter().map(AsRef::as_ref)) {
        // The length's decimal digits, written without an allocation.
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut n = s.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        h.update(&digits[at..]);
        h.update(b":");
        h.update(s.as_bytes());
        h.update(b",");
    }
    let mut a = [0u8; 32];
    a.copy_from_slice(&h.finalize()[..]);
    a
}

fn parse_digest(kind: DigestKind, s: &str, loc: Loc) -> Eval<Value> {
    let body = s.strip_prefix(kind.prefix()).and_then(|r| r.strip_prefix(':')).unwrap_or(s);
    match parse_hex(body, kind.hex_len() / 2) {
        Some(bytes) => Ok(Value::digest(kind, &bytes)),
        None => {
            let mut shown = String::new();
            crate::text::quote(&s.chars().take(80).collect::<String>(), &mut shown);
            Err(refusal(
                "MalformedDigest",
                format!(
                    "{shown} is not a {} digest (`{}:` and {} lowercase hex digits, or the bare hex)",
                    kind.prefix(),
                    kind.prefix(),
                    kind.hex_len()
                ),
                loc,
            ))
        }
    }
}

/// The built-in `b` of `args`, which it only reads (the evaluator passes
/// locals and fields where they are, not copies).
/// Texts it builds are at most `max_len` bytes (`--max-value-len`; longer
/// is `E0407`), as `++` and interpolation are.
pub fn call(b: B, args: &[&Value], max_len: usize, loc: Loc) -> Eval<Value> {
    let v = compute(b, args, max_len, loc)?;
    // A text made from a receipt's value keeps where that came from: a
    // refusal whose message names it points into the receipt (§7).
    let how = match b {
        B::TextOf => "text",
        B::Hex => "hex",
        B::Take => "take",
        B::Lower => "lower",
        B::Upper => "upper",
        B::Trim => "trim",
        B::Replace => "replace",
        B::Split => "split",
        _ => return Ok(v),
    };
    let Some(origin) = crate::value::Origin::through(args.first().and_then(|a| a.origin.as_ref()), how) else {
        return Ok(v);
    };
    Ok(match v.kind {
        V::List(parts) if b == B::Split => Value::list(
            Arc::try_unwrap(parts)
                .unwrap_or_else(|shared| (*shared).clone())
                .into_iter()
                .map(|p| p.with_origin(origin.clone()))
                .collect(),
        ),
        _ => v.with_origin(origin),
    })
}

fn compute(b: B, args: &[&Value], max_len: usize, loc: Loc) -> Eval<Value> {
    let text = |i: usize| args.get(i).and_then(|v| v.as_text()).ok_or_else(|| bad(b));
    let list = |i: usize| args.get(i).and_then(|v| v.as_list()).ok_or_else(|| bad(b));
    let ints = |i: usize| -> Eval<i64> { args.get(i).and_then(|v| v.as_int()).ok_or_else(|| bad(b)) };
    let json = |i: usize| match args.get(i).map(|v| &v.kind) {
        Some(V::Json(j)) => Ok(&**j),
        _ => Err(bad(b)),
    };
    let option = |v: Option<Value>| Value::new(V::Option(v.map(Arc::new)));
    let bools = |i: usize| -> Eval<Vec<bool>> { list(i)?.iter().map(|v| v.as_bool().ok_or_else(|| bad(b))).collect() };
    Ok(match b {
        B::Len => Value::int(match args.first().map(|v| &v.kind) {
            Some(V::List(l)) => l.len() as i64,
            Some(V::Text(t)) => t.chars().count() as i64,
            Some(V::Map(m)) => m.len() as i64,
            _ => return Err(bad(b)),
        }),
        B::Get => match args.first().map(|v| &v.kind) {
            Some(V::Map(m)) => Value::new(V::Option(m.get(text(1)?).cloned().map(Arc::new))),
            _ => return Err(bad(b)),
        },
        B::Keys => match args.first().map(|v| &v.kind) {
            Some(V::Map(m)) => Value::list(m.keys().map(|k| Value::text(k.as_str())).collect()),
            _ => return Err(bad(b)),
        },
        B::Raw => args.first().map(|v| (*v).clone()).ok_or_else(|| bad(b))?,
        B::TextOf => match args.first() {
            // A text's text is itself: shared, not copied.
            Some(Value { kind: V::Text(t), .. }) => Value::new(V::Text(t.clone())),
            Some(v) => {
                let mut s = String::new();
                push_text(&mut s, v, max_len);
                if s.len() > max_len {
                    return Err(too_long(max_len, "this `text` makes at least", s.len().to_string(), true, loc));
                }
                Value::text(s)
            }
            None => return Err(bad(b)),
        },
        B::Hex => match args.first().map(|v| &v.kind) {
            Some(V::Digest(_, bytes)) => Value::new(V::Text(hex_text(bytes))),
            _ => return Err(bad(b)),
        },
        B::Take => {
            let n = ints(1)?;
            let Some(V::Text(t)) = args.first().map(|v| &v.kind) else { return Err(bad(b)) };
            // The first `n` characters end where the next one starts.
            let end = if n <= 0 { 0 } else { t.char_indices().nth(n as usize).map_or(t.len(), |(i, _)| i) };
            Value::new(V::Text(if end == t.len() { t.clone() } else { joined_text(&[&t[..end]]) }))
        }
        B::StartsWith => Value::bool(text(0)?.starts_with(text(1)?)),
        B::EndsWith => Value::bool(text(0)?.ends_with(text(1)?)),
        B::Contains => Value::bool(text(0)?.contains(text(1)?)),
        B::Split => {
            let (t, sep) = (text(0)?, text(1)?);
            let parts: Vec<Value> = if sep.is_empty() {
                t.chars().map(|c| Value::text(c.to_string())).collect()
            } else {
                t.split(sep).map(Value::text).collect()
            };
            Value::list(parts)
        }
        B::Join => {
            let items: Vec<&str> = list(0)?.iter().map(|v| v.as_text().ok_or_else(|| bad(b))).collect::<Eval<_>>()?;
            let sep = text(1)?;
            let seps = sep.len().saturating_mul(items.len().saturating_sub(1));
            let len = items.iter().fold(seps, |n, t| n.saturating_add(t.len()));
            if len > max_len {
                return Err(too_long(max_len, "this `join` makes", len.to_string(), true, loc));
            }
            Value::text(items.join(sep))
        }
        B::All => Value::bool(bools(0)?.iter().all(|x| *x)),
        B::Any => Value::bool(bools(0)?.iter().any(|x| *x)),
        B::Count => Value::int(bools(0)?.iter().filter(|x| **x).count() as i64),
        B::Sum => {
            let mut total: i64 = 0;
            for v in list(0)? {
                let n = v.as_int().ok_or_else(|| bad(b))?;
                total = total
                    .checked_add(n)
                    .ok_or_else(|| refusal("Overflow", format!("the sum overflows at {}", show(v)), loc))?;
            }
            Value::int(total)
        }
        B::Seconds => Value::int(ints(0)? / 1_000),
        B::Minutes => Value::int(ints(0)? / 60_000),
        B::Hours => Value::int(ints(0)? / 3_600_000),
        B::ParseSha256 => parse_digest(DigestKind::Sha256, text(0)?, loc)?,
        B::ParseSha1 => parse_digest(DigestKind::Sha1, text(0)?, loc)?,
        B::ParseSha512 => parse_digest(DigestKind::Sha512, text(0)?, loc)?,
        B::Sha512 => Value::digest(DigestKind::Sha512, &sha2::Sha512::digest(text(0)?.as_bytes())),
        B::Sha256 => Value::digest(DigestKind::Sha256, &sha256_bytes(text(0)?.as_bytes())),
        B::FoldSha256 => {
            let texts = |v: &Value| match &v.kind {
                V::Text(t) => Ok(t.clone()),
                _ => Err(bad(b)),
            };
            // Shared with the list, not copied.
            let parts: Arc<[Arc<str>]> = list(1)?.iter().map(texts).collect::<Eval<_>>()?;
            let domain = args.first().map(|v| texts(v)).ok_or_else(|| bad(b))??;
            let folded = fold_sha256(&domain, &parts);
            // The fold remembers its inputs, so a mismatch can say which part differed.
            Value::digest(DigestKind::Sha256, &folded)
                .with_origin(crate::value::Origin::Fold(Arc::new(crate::value::FoldOrigin { domain, parts, loc })))
        }
        B::Lower => Value::text(text(0)?.to_lowercase()),
        B::Upper => Value::text(text(0)?.to_uppercase()),
        B::Trim => Value::text(text(0)?.trim()),
        B::Replace => {
            let (t, from, to) = (text(0)?, text(1)?, text(2)?);
            if from.is_empty() {
                (*args[0]).clone()
            } else {
                let count = t.matches(from).count();
                let len = t.len().saturating_sub(count * from.len()).saturating_add(count.saturating_mul(to.len()));
                if len > max_len {
                    return Err(too_long(max_len, "this `replace` makes", len.to_string(), true, loc));
                }
                Value::text(t.replace(from, to))
            }
        }
        B::ParseInt => parse_int(text(0)?, loc)?,
        B::Nth => {
            let (xs, i) = (list(0)?, ints(1)?);
            let at = usize::try_from(i).ok().and_then(|i| xs.get(i));
            Value::new(V::Option(at.cloned().map(Arc::new)))
        }
        B::First => Value::new(V::Option(list(0)?.first().cloned().map(Arc::new))),
        B::Last => Value::new(V::Option(list(0)?.last().cloned().map(Arc::new))),
        B::UnwrapOr => match args.first().map(|v| &v.kind) {
            Some(V::Option(Some(x))) => (**x).clone(),
            Some(V::Option(None)) => args.get(1).map(|v| (*v).clone()).ok_or_else(|| bad(b))?,
            _ => return Err(bad(b)),
        },
        B::Sort => {
            let mut xs = list(0)?.to_vec();
            if xs.iter().any(|x| sort_key(x).is_none()) {
                return Err(bad(b));
            }
            // Stable: equal values keep their order (their origins differ).
            xs.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
            Value::list(xs)
        }
        B::JsonGet => {
            let (j, pointer) = (json(0)?, text(1)?);
            Value::new(V::Option(j.pointer(pointer).map(|x| Arc::new(Value::new(V::Json(Arc::new(x.clone())))))))
        }
        B::JsonText => option(json(0)?.as_str().map(Value::text)),
        B::JsonBool => option(json(0)?.as_bool().map(Value::bool)),
        B::JsonInt => option(json(0)?.as_f64().and_then(whole).map(Value::int)),
        B::JsonList => option(
            json(0)?
                .as_array()
                .map(|xs| Value::list(xs.iter().map(|x| Value::new(V::Json(Arc::new(x.clone())))).collect())),
        ),
        B::JsonMap => option(json(0)?.as_object().map(|m| {
            let m = m.iter().map(|(k, x)| (k.clone(), Value::new(V::Json(Arc::new(x.clone()))))).collect();
            Value::new(V::Map(Arc::new(m)))
        })),
        B::Distinct => {
            let mut out: Vec<Value> = Vec::new();
            for x in list(0)? {
                if !out.contains(x) {
                    out.push(x.clone());
                }
            }
            Value::list(out)
        }
    })
}

/// What `sort` orders a value by: Ints and Durations by number, Texts by
/// code point (as Rust orders `str`), digests by their bytes (which order
/// as their hex does).
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum SortKey<'v> {
    Number(i64),
    Text(&'v str),
    Bytes(&'v [u8]),
}

fn sort_key(v: &Value) -> Option<SortKey<'_>> {
    match &v.kind {
        V::Int(n) | V::Duration(n) => Some(SortKey::Number(*n)),
        V::Text(t) => Some(SortKey::Text(t)),
        V::Digest(_, bytes) => Some(SortKey::Bytes(bytes)),
        _ => None,
    }
}

/// A JSON number as an Int where it is a whole number an Int holds
/// exactly (JSON numbers are doubles: beyond 2^53 they are not exact).
fn whole(n: f64) -> Option<i64> {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    (n.fract() == 0.0 && n.abs() <= EXACT).then_some(n as i64)
}

/// `parse_int`: an optional `-` and decimal digits, nothing else.
fn parse_int(s: &str, loc: Loc) -> Eval<Value> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        let mut shown = String::new();
        crate::text::quote(&s.chars().take(80).collect::<String>(), &mut shown);
        return Err(refusal(
            "MalformedInt",
            format!("{shown} is not a decimal integer (an optional `-` and the digits 0-9)"),
            loc,
        ));
    }
    s.parse::<i64>().map(Value::int).map_err(|_| {
        let mut shown = String::new();
        crate::text::quote(&s.chars().take(80).collect::<String>(), &mut shown);
        refusal("Overflow", format!("{shown} is out of range for `Int` (a 64-bit signed whole number)"), loc)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_matches_the_brief_example() {
        assert_eq!(fold_sha256("k", &["ab"]), sha256_bytes(b"1:k,2:ab,"));
        assert_eq!(
            crate::value::hex(&fold_sha256("k", &["ab"])),
            "419ee53cb24a7362f4baa8bc083d58854bec315dc37341880d8b74f450efad59"
        );
    }

    #[test]
    fn fold_writes_every_length_in_decimal() {
        for n in [0usize, 1, 9, 10, 99, 100, 1234, 100_000] {
            let part = "x".repeat(n);
            let want = sha256_bytes(format!("1:k,{n}:{part},").as_bytes());
            assert_eq!(fold_sha256("k", &[part.as_str()]), want, "{n} bytes");
        }
    }

    fn text_call(b: B, args: Vec<Value>) -> String {
        let args: Vec<&Value> = args.iter().collect();
        let v = call(b, &args, usize::MAX, Loc::new(claim_syntax::FileId(0), claim_syntax::Span::new(0, 0)))
            .expect("a value");
        v.as_text().expect("a text").to_string()
    }

    #[test]
    fn take_counts_characters_and_hex_writes_any_length() {
        let take = |t: &str, n: i64| text_call(B::Take, vec![Value::text(t), Value::int(n)]);
        assert_eq!(take("héllo", 2), "hé");
        assert_eq!(take("héllo", 5), "héllo");
        assert_eq!(take("héllo", 50), "héllo");
        assert_eq!(take("héllo", 0), "");
        assert_eq!(take("héllo", -3), "");
        for n in [0usize, 1, 32, 64, 65, 200] {
            let bytes: Vec<u8> = (0..n).map(|i| (i * 37) as u8).collect();
            let want: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            let got = text_call(B::Hex, vec![Value::digest(DigestKind::Sha256, &bytes)]);
            assert_eq!(got, want, "{n} bytes");
        }
    }
}
