//! The case convention (§1): types, variants and refusal codes are
//! `UpperCamel`; facts, functions, fields, witnesses and frontiers are
//! `snake_case`. A name in the other case is a warning (W0001), not an error.

use claim_diagnostics::Diagnostic;
use claim_syntax::ast::{Ident, ItemKind, Module};
use claim_syntax::FileId;

pub(super) fn check_names(module: &Module, file: FileId, diags: &mut Vec<Diagnostic>) {
    let mut warn = |id: &Ident, upper: bool, what: &str| {
        let ok = if upper { is_upper_camel(&id.name) } else { is_snake(&id.name) };
        if ok {
            return;
        }
        let (case, suggestion) =
            if upper { ("UpperCamel", to_upper_camel(&id.name)) } else { ("snake_case", to_snake(&id.name)) };
        diags.push(
            Diagnostic::warning("W0001", format!("{what} `{}` should be {case}", id.name))
                .at(file, id.span, format!("not {case}"))
                .with_help(format!("write `{suggestion}`")),
        );
    };
    for item in &module.items {
        match &item.kind {
            ItemKind::Newtype { name, .. } => warn(name, true, "type"),
            ItemKind::Record(r) => {
                warn(&r.name, true, "type");
                for f in &r.fields {
                    warn(&f.name, false, "field");
                }
            }
            ItemKind::Enum { name, variants } => {
                warn(name, true, "type");
                for v in variants {
                    warn(&v.name, true, "variant");
                    for f in v.fields.iter().flatten() {
                        warn(&f.name, false, "field");
                    }
                }
            }
            ItemKind::Refusal { name, .. } => warn(name, true, "refusal code"),
            ItemKind::Fact { name, .. } => warn(name, false, "fact"),
            ItemKind::Fn(f) => warn(&f.name, false, "function"),
            ItemKind::Witness { name, .. } => warn(name, false, "witness"),
            ItemKind::Frontier { name, .. } => warn(name, false, "frontier"),
            ItemKind::Use(_) | ItemKind::Error => {}
        }
    }
}

fn is_upper_camel(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && !s.contains('_')
}

fn is_snake(s: &str) -> bool {
    !s.chars().any(|c| c.is_ascii_uppercase())
}

fn to_snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn to_upper_camel(s: &str) -> String {
    s.split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut cs = p.chars();
            cs.next().map(|f| f.to_ascii_uppercase().to_string() + cs.as_str()).unwrap_or_default()
        })
        .collect()
}
