//! The case convention (§1): types, variants and refusal codes are
//! `UpperCamel`; facts, functions, fields, witnesses and frontiers are
//! `snake_case`. A name in the other case is a warning (W0001), not an error.

use claim_diagnostics::Diagnostic;
use claim_syntax::ast::{FieldDecl, Ident, ItemKind, Module};
use claim_syntax::FileId;

pub(super) fn check_names(module: &Module, file: FileId, diags: &mut Vec<Diagnostic>) {
    let warn = |id: &Ident, upper: bool, what: &str| -> Option<Diagnostic> {
        let ok = if upper { is_upper_camel(&id.name) } else { is_snake(&id.name) };
        if ok {
            return None;
        }
        let (case, suggestion) =
            if upper { ("UpperCamel", to_upper_camel(&id.name)) } else { ("snake_case", to_snake(&id.name)) };
        Some(
            Diagnostic::warning("W0001", format!("{what} `{}` should be {case}", id.name))
                .at(file, id.span, format!("not {case}"))
                .with_help(format!("write `{suggestion}`")),
        )
    };
    let mut warn = |id: &Ident, upper: bool, what: &str| diags.extend(warn(id, upper, what));
    let mut fields: Vec<Diagnostic> = Vec::new();
    for item in &module.items {
        match &item.kind {
            ItemKind::Newtype { name, .. } => warn(name, true, "type"),
            ItemKind::Record(r) => {
                warn(&r.name, true, "type");
                for f in &r.fields {
                    field_name(f, r.json_case.is_some(), file, &mut fields);
                }
            }
            ItemKind::Enum { name, variants } => {
                warn(name, true, "type");
                for v in variants {
                    warn(&v.name, true, "variant");
                    for f in v.fields.iter().flatten() {
                        field_name(f, false, file, &mut fields);
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
    diags.extend(fields);
}

/// A field's name in the wrong case. Its name is also the JSON key it is
/// read from, unless `@json("…")` says otherwise: the help never suggests a
/// rename that would stop a receipt from decoding, but the `@json` that
/// keeps the key (or nothing more where the record is `@json(camelCase)`
/// and the key is the new name's camelCase form).
fn field_name(f: &FieldDecl, camel: bool, file: FileId, diags: &mut Vec<Diagnostic>) {
    let name = f.name.name.as_str();
    if is_snake(name) {
        return;
    }
    let snake = to_snake(name);
    let mut d = Diagnostic::warning("W0001", format!("field `{name}` should be snake_case")).at(
        file,
        f.name.span,
        "not snake_case",
    );
    d = if f.json_key.is_some() || (camel && crate::sigs::camel_case(&snake) == name) {
        d.with_help(format!("write `{snake}`: the field's JSON key stays as it is"))
    } else {
        d.with_help(format!("write `@json(\"{name}\") {snake}`, which keeps the JSON key `{name}`"))
            .with_note(format!("renamed alone, the field would be read from the key `{snake}`, and a receipt that writes `{name}` would not decode"))
    };
    diags.push(d);
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
