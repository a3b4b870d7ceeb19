//! The prelude's built-in functions at run time (§4).

use crate::eval::refusal;
use crate::refusal::{Eval, Stop};
use crate::text::{show, text_of};
use crate::value::{hex, parse_hex, Value, V};
use claim_diagnostics::Diagnostic;
use claim_sema::hir::Builtin as B;
use claim_syntax::token::DigestKind;
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
pub fn fold_sha256(domain: &str, parts: &[&str]) -> [u8; 32] {
    let mut h = Sha256::new();
    for s in std::iter::once(domain).chain(parts.iter().copied()) {
        h.update(s.len().to_string().as_bytes());
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

pub fn call(b: B, args: Vec<Value>, loc: Loc) -> Eval<Value> {
    let text = |i: usize| args.get(i).and_then(Value::as_text).ok_or_else(|| bad(b));
    let list = |i: usize| args.get(i).and_then(Value::as_list).ok_or_else(|| bad(b));
    let ints = |i: usize| -> Eval<i64> { args.get(i).and_then(Value::as_int).ok_or_else(|| bad(b)) };
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
        B::Raw => args.into_iter().next().ok_or_else(|| bad(b))?,
        B::TextOf => Value::text(text_of(args.first().ok_or_else(|| bad(b))?)),
        B::Hex => match args.first().map(|v| &v.kind) {
            Some(V::Digest(_, bytes)) => Value::text(hex(bytes)),
            _ => return Err(bad(b)),
        },
        B::Take => {
            let n = ints(1)?;
            let t = text(0)?;
            Value::text(if n <= 0 { String::new() } else { t.chars().take(n as usize).collect() })
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
            Value::text(items.join(text(1)?))
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
        B::Sha256 => Value::digest(DigestKind::Sha256, &sha256_bytes(text(0)?.as_bytes())),
        B::FoldSha256 => {
            let parts: Vec<&str> = list(1)?.iter().map(|v| v.as_text().ok_or_else(|| bad(b))).collect::<Eval<_>>()?;
            let domain = text(0)?;
            // The fold remembers its inputs, so a mismatch can say which part differed.
            Value::digest(DigestKind::Sha256, &fold_sha256(domain, &parts)).with_origin(crate::value::Origin::Fold(
                Arc::new(crate::value::FoldOrigin {
                    domain: domain.into(),
                    parts: parts.iter().map(|p| Arc::from(*p)).collect(),
                    loc,
                }),
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_matches_the_brief_example() {
        assert_eq!(fold_sha256("k", &["ab"]), sha256_bytes(b"1:k,2:ab,"));
        assert_eq!(hex(&fold_sha256("k", &["ab"])), "419ee53cb24a7362f4baa8bc083d58854bec315dc37341880d8b74f450efad59");
    }
}
