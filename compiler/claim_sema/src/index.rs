//! The names a module declares, read off its syntax tree alone: what other
//! modules may import, and duplicate declarations within the module.

use claim_diagnostics::Diagnostic;
use claim_syntax::ast::{ItemKind, Module};
use claim_syntax::{FileId, Loc, Parsed, Span};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ItemTag {
    Type,
    Fn,
    Fact,
}

impl ItemTag {
    pub fn describe(self) -> &'static str {
        match self {
            ItemTag::Type => "type",
            ItemTag::Fn => "function",
            ItemTag::Fact => "fact",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexEntry {
    pub tag: ItemTag,
    /// The declared name's span.
    pub span: Span,
    /// The item's position in the module.
    pub item: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ItemIndex {
    /// Types, facts and functions: one namespace per module.
    pub entries: BTreeMap<Arc<str>, IndexEntry>,
    /// Refusal codes (program-global), with where they are declared.
    pub refusals: Vec<(Arc<str>, Loc)>,
    /// The positions of items named like an earlier one (E0105), in
    /// order: the signatures skip them without looking each name up.
    pub duplicates: Vec<u32>,
    pub diagnostics: Vec<Diagnostic>,
}

impl ItemIndex {
    pub fn build(parsed: &Parsed, file: FileId) -> ItemIndex {
        let mut index = ItemIndex::default();
        index.add_module(&parsed.module, file);
        index
    }

    fn add_module(&mut self, module: &Module, file: FileId) {
        for (i, item) in module.items.iter().enumerate() {
            let tag = match &item.kind {
                ItemKind::Newtype { .. } | ItemKind::Record(_) | ItemKind::Enum { .. } => ItemTag::Type,
                ItemKind::Fn(_) => ItemTag::Fn,
                ItemKind::Fact { .. } => ItemTag::Fact,
                ItemKind::Refusal { name, .. } => {
                    self.refusals.push((name.name.as_str().into(), Loc::new(file, name.span)));
                    continue;
                }
                _ => continue,
            };
            let Some(name) = item.kind.name() else {
                continue;
            };
            let key: Arc<str> = name.name.as_str().into();
            if let Some(prev) = self.entries.get(&key) {
                self.diagnostics.push(
                    Diagnostic::error("E0105", format!("`{}` is declared twice in this module", name.name))
                        .at(file, name.span, format!("second {} named `{}`", item.kind.describe(), name.name))
                        .with_secondary(Loc::new(file, prev.span), "first declared here")
                        .with_help("types, facts and functions share one namespace per module; rename one of them"),
                );
                self.duplicates.push(i as u32);
                continue;
            }
            self.entries.insert(key, IndexEntry { tag, span: name.span, item: i as u32 });
        }
    }
}
