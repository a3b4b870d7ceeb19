//! Document and workspace symbols: the items of a module, with a record's
//! fields and an enum's variants beneath them.

use claim_sema::{Db, Program, SourceFile};
use claim_syntax::ast::ItemKind;
use claim_syntax::{FileId, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Module,
    Type,
    Enum,
    Function,
    Fact,
    Refusal,
    Witness,
    Frontier,
    Field,
    Variant,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The whole declaration.
    pub span: Span,
    /// The declared name.
    pub name_span: Span,
    pub children: Vec<Symbol>,
}

pub fn document_symbols(db: &dyn Db, file: SourceFile) -> Vec<Symbol> {
    let mut out = Vec::new();
    for item in &claim_sema::parse(db, file).module.items {
        let Some(name) = item.kind.name() else { continue };
        let leaf = |name: &claim_syntax::ast::Ident, kind| Symbol {
            name: name.name.to_string(),
            kind,
            span: name.span,
            name_span: name.span,
            children: Vec::new(),
        };
        let (kind, children) = match &item.kind {
            ItemKind::Record(r) => {
                (SymbolKind::Type, r.fields.iter().map(|f| leaf(&f.name, SymbolKind::Field)).collect())
            }
            ItemKind::Enum { variants, .. } => {
                (SymbolKind::Enum, variants.iter().map(|v| leaf(&v.name, SymbolKind::Variant)).collect())
            }
            ItemKind::Newtype { .. } => (SymbolKind::Type, Vec::new()),
            ItemKind::Fn(_) => (SymbolKind::Function, Vec::new()),
            ItemKind::Fact { .. } => (SymbolKind::Fact, Vec::new()),
            ItemKind::Refusal { .. } => (SymbolKind::Refusal, Vec::new()),
            ItemKind::Witness { .. } => (SymbolKind::Witness, Vec::new()),
            ItemKind::Frontier { .. } => (SymbolKind::Frontier, Vec::new()),
            ItemKind::Use(_) | ItemKind::Error => continue,
        };
        out.push(Symbol { name: name.name.to_string(), kind, span: item.span, name_span: name.span, children });
    }
    out
}

/// Items of every module whose name contains `query` (case-insensitive),
/// standard library last.
pub fn workspace_symbols(db: &dyn Db, program: Program, query: &str) -> Vec<(FileId, Symbol)> {
    let q = query.to_lowercase();
    let mut out = Vec::new();
    let mut modules: Vec<(&String, &SourceFile)> = program.modules(db).iter().collect();
    modules.sort_by_key(|(m, _)| (m.starts_with("std."), m.as_str()));
    for (_, f) in modules {
        for s in document_symbols(db, *f) {
            if s.name.to_lowercase().contains(&q) {
                out.push((f.file_id(db), s));
            }
        }
    }
    out
}
