//! Completions at a cursor, by what precedes it: module paths after `use`,
//! a module's items after `use m.{`, refusal codes after `with`/`refuse`,
//! fields (or a module's items, or an enum's variants) after `.`, and
//! otherwise every name in scope.

use crate::resolve::{occurrences, Def};
use claim_sema::ty::{Ty, TypeDef};
use claim_sema::{Db, Program, SourceFile};
use claim_syntax::token::Keyword;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Module,
    Type,
    Function,
    Fact,
    Field,
    Variant,
    Refusal,
    Local,
    Keyword,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
}

fn c(label: impl Into<String>, kind: CompletionKind, detail: Option<String>) -> Completion {
    Completion { label: label.into(), kind, detail }
}

pub fn completions(db: &dyn Db, program: Program, file: SourceFile, offset: u32) -> Vec<Completion> {
    let text = file.text(db);
    // Up to the cursor (or the character it is inside of).
    let mut end = (offset as usize).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let line = text[..end].rsplit('\n').next().unwrap_or("");
    // The word being typed, and what is before it (after the character
    // that ends it, however many bytes that takes: `→`, say).
    let word_start = line
        .char_indices()
        .rev()
        .find(|(_, ch)| !(ch.is_alphanumeric() || *ch == '_'))
        .map_or(0, |(i, ch)| i + ch.len_utf8());
    let before = line[..word_start].trim_end();
    let mut out = Vec::new();

    if let Some(path) = line.trim_start().strip_prefix("use ") {
        if let Some((module, _)) = path.split_once(".{") {
            // `use a.b.{X, |`
            if let Some(f) = program.modules(db).get(module.trim()) {
                for (name, e) in &claim_sema::db::item_index(db, *f).entries {
                    out.push(c(name.to_string(), item_kind(e.tag), Some(module.trim().to_string())));
                }
            }
            return out;
        }
        let prefix = path.trim();
        for m in program.modules(db).keys() {
            if m.starts_with(prefix.rsplit_once('.').map_or("", |(p, _)| p)) {
                out.push(c(m.clone(), CompletionKind::Module, None));
            }
        }
        return out;
    }

    if before.ends_with("with") || before.ends_with("refuse") {
        for code in claim_sema::db::refusal_codes(db, program) {
            let summary = crate::refusal_summary(db, program, code);
            out.push(c(code.to_string(), CompletionKind::Refusal, summary));
        }
        return out;
    }

    let scope = claim_sema::scope::module_scope(db, program, file);
    if let Some(base) = before.strip_suffix('.') {
        let base_name = base.rsplit(|ch: char| !(ch.is_alphanumeric() || ch == '_')).next().unwrap_or("");
        if let Some((full, _)) = scope.modules.get(base_name) {
            if let Some(f) = program.modules(db).get(&**full) {
                for (name, e) in &claim_sema::db::item_index(db, *f).entries {
                    out.push(c(name.to_string(), item_kind(e.tag), Some(full.to_string())));
                }
            }
            return out;
        }
        // The base's type, from any occurrence of that name in the file.
        let occs = occurrences(db, program, file);
        let mut ty = None;
        for o in occs.iter().filter(|o| o.span.end <= offset) {
            let name = match &o.def {
                Def::Local { name, .. } => name.clone(),
                Def::Item(g) => g.name.clone(),
                _ => continue,
            };
            if &*name == base_name {
                if let Def::Item(g) = &o.def {
                    if let Some(TypeDef::Enum { variants }) = crate::type_info(db, program, g).map(|t| t.def) {
                        return variants.iter().map(|v| c(v.name.to_string(), CompletionKind::Variant, None)).collect();
                    }
                }
                if o.ty.is_some() {
                    ty = o.ty.clone();
                }
            }
        }
        if let Some(Ty::Named(g)) = ty {
            if let Some(TypeDef::Record { fields, .. }) = crate::type_info(db, program, &g).map(|t| t.def) {
                for f in fields {
                    out.push(c(f.name.to_string(), CompletionKind::Field, Some(f.ty.to_string())));
                }
            }
        }
        return out;
    }

    // Names in scope: locals bound before the cursor in this item, the
    // module's names, module aliases, built-ins and keywords.
    let item_start = claim_sema::parse(db, file)
        .module
        .items
        .iter()
        .filter(|i| i.span.start <= offset)
        .map(|i| i.span.start)
        .next_back()
        .unwrap_or(0);
    let mut seen = std::collections::HashSet::new();
    for o in occurrences(db, program, file) {
        if let Def::Local { name, span, .. } = &o.def {
            if o.is_decl && span.start >= item_start && span.end <= offset && seen.insert(name.clone()) {
                out.push(c(name.to_string(), CompletionKind::Local, o.ty.as_ref().map(ToString::to_string)));
            }
        }
    }
    for (name, n) in scope.sorted_names() {
        out.push(c(name.to_string(), item_kind(n.tag), Some(n.target.module.to_string())));
    }
    for m in scope.modules.keys() {
        out.push(c(m.to_string(), CompletionKind::Module, None));
    }
    for b in claim_sema::builtins::BUILTIN_NAMES {
        out.push(c(*b, CompletionKind::Function, Some("built-in".to_string())));
    }
    for (k, _) in Keyword::ALL {
        out.push(c(k, CompletionKind::Keyword, None));
    }
    out
}

fn item_kind(tag: claim_sema::index::ItemTag) -> CompletionKind {
    match tag {
        claim_sema::index::ItemTag::Type => CompletionKind::Type,
        claim_sema::index::ItemTag::Fn => CompletionKind::Function,
        claim_sema::index::ItemTag::Fact => CompletionKind::Fact,
    }
}
