//! `text()`: the canonical text of a value (§4). A Text is itself at the
//! top; nested inside a list, option, map, record or variant it is quoted
//! and escaped as in JSON, so `text(["a, b"])` is unambiguous.

use crate::value::{push_hex, Value, V};
use std::fmt::Write;

pub fn text_of(v: &Value) -> String {
    let mut s = String::new();
    push_text(&mut s, v, usize::MAX);
    s
}

/// Appends `text_of(v)` to `out`, stopping soon after `out` grows longer
/// than `cap` bytes (whether it did is `out.len() > cap`): a list of long
/// texts would otherwise be written out whole, however long, before any
/// limit could be checked.
pub fn push_text(out: &mut String, v: &Value, cap: usize) {
    match &v.kind {
        V::Text(t) => out.push_str(t),
        _ => write_value(out, v, cap),
    }
}

/// A value as a diagnostic shows it: like `text()`, but a Text is quoted.
pub fn show(v: &Value) -> String {
    let mut s = String::new();
    write_value(&mut s, v, usize::MAX);
    s
}

pub fn duration_text(ms: i64) -> String {
    if ms == 0 {
        return "0s".to_string();
    }
    const UNITS: [(i64, &str); 5] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "min"), (1_000, "s"), (1, "ms")];
    for (size, unit) in UNITS {
        if ms % size == 0 {
            return format!("{}{unit}", ms / size);
        }
    }
    format!("{ms}ms")
}

pub fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_value(out: &mut String, v: &Value, cap: usize) {
    match &v.kind {
        V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        V::Int(n) => {
            let _ = write!(out, "{n}");
        }
        V::Duration(ms) => out.push_str(&duration_text(*ms)),
        V::Text(t) => quote(t, out),
        // Its canonical form (RFC 8785): sorted keys, no spaces, numbers
        // as ECMAScript writes them.
        V::Json(j) => out.push_str(&serde_jcs::to_string(&**j).unwrap_or_default()),
        V::Digest(k, bytes) => {
            out.push_str(k.prefix());
            out.push(':');
            push_hex(bytes, out);
        }
        V::List(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if out.len() > cap {
                    return;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, x, cap);
            }
            out.push(']');
        }
        V::Option(None) => out.push_str("None"),
        V::Option(Some(x)) => {
            out.push_str("Some(");
            write_value(out, x, cap);
            out.push(')');
        }
        V::Map(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if out.len() > cap {
                    return;
                }
                if i > 0 {
                    out.push_str(", ");
                }
                quote(k, out);
                out.push_str(": ");
                write_value(out, x, cap);
            }
            out.push('}');
        }
        V::Record(r) => write_fields(out, &r.name, &r.names, &r.fields, cap),
        V::Variant(var) => match &var.names {
            None => out.push_str(&var.name),
            Some(names) => write_fields(out, &var.name, names, &var.fields, cap),
        },
    }
}

fn write_fields(out: &mut String, name: &str, names: &[std::sync::Arc<str>], fields: &[Value], cap: usize) {
    out.push_str(name);
    if fields.is_empty() {
        out.push_str(" {}");
        return;
    }
    out.push_str(" { ");
    for (i, (n, x)) in names.iter().zip(fields).enumerate() {
        if out.len() > cap {
            return;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(n);
        out.push_str(": ");
        write_value(out, x, cap);
    }
    out.push_str(" }");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_use_the_largest_exact_unit() {
        assert_eq!(duration_text(3 * 3_600_000), "3h");
        assert_eq!(duration_text(90 * 60_000), "90min");
        assert_eq!(duration_text(1500), "1500ms");
        assert_eq!(duration_text(-60_000), "-1min");
        assert_eq!(duration_text(0), "0s");
    }
}
