//! What an editor asks of a program: the name under the cursor and what it
//! denotes, its definition and references, hover text, symbols,
//! completions, signatures, highlights, inlay types and renames. Pure:
//! answers are computed from the salsa database the caller keeps (a rename
//! tries its edits on it and puts the texts back), and positions are byte
//! offsets (the caller converts).

mod complete;
pub mod rename;
mod resolve;
mod signature;
mod symbols;

pub use complete::{completions, Completion, CompletionKind};
pub use resolve::{occurrences, Def, Occurrence};
pub use signature::{signature_help, Signature};
pub use symbols::{document_symbols, workspace_symbols, Symbol, SymbolKind};

use claim_sema::hir;
use claim_sema::ty::{GlobalName, TypeDef};
use claim_sema::{Db, Program, SourceFile};
use claim_syntax::ast::{Item, ItemKind};
use claim_syntax::{Loc, Span};

/// The occurrence under `offset` (a cursor right after a name counts).
pub fn at(db: &dyn Db, program: Program, file: SourceFile, offset: u32) -> Option<Occurrence> {
    at_in(&occurrences(db, program, file), offset).cloned()
}

/// `at`, among a module's occurrences already found.
pub(crate) fn at_in(occ: &[Occurrence], offset: u32) -> Option<&Occurrence> {
    occ.iter().filter(|o| o.span.start <= offset && offset <= o.span.end).min_by_key(|o| o.span.end - o.span.start)
}

/// The source file of a module.
pub fn module_file(db: &dyn Db, program: Program, module: &str) -> Option<SourceFile> {
    program.modules(db).get(module).copied()
}

fn item_named<'a>(items: &'a [Item], name: &str) -> Option<&'a Item> {
    items.iter().find(|i| i.kind.name().is_some_and(|n| n.name == name))
}

/// A declared type, from its own module's signatures: the editor's
/// answers never wait for the whole program's merge.
pub(crate) fn type_info(db: &dyn Db, program: Program, owner: &GlobalName) -> Option<claim_sema::ty::TypeInfo> {
    let file = module_file(db, program, &owner.module)?;
    claim_sema::sigs::module_sigs(db, program, file).types.get(&owner.name).cloned()
}

/// A refusal code's summary: built in, or from its declaration.
pub(crate) fn refusal_summary(db: &dyn Db, program: Program, code: &str) -> Option<String> {
    if let Some((_, s)) = claim_sema::builtins::BUILTIN_CODES.iter().find(|(n, _)| *n == code) {
        return Some((*s).to_string());
    }
    program.modules(db).values().find_map(|f| {
        claim_sema::parse(db, *f).module.items.iter().find_map(|i| match &i.kind {
            ItemKind::Refusal { name, summary } if name.name == code => Some(summary.clone()),
            _ => None,
        })
    })
}

/// Where `def` is declared.
pub fn definition(db: &dyn Db, program: Program, def: &Def) -> Option<Loc> {
    match def {
        Def::Item(g) => {
            let file = module_file(db, program, &g.module)?;
            let item = item_named(&claim_sema::parse(db, file).module.items, &g.name)?;
            Some(Loc::new(file.file_id(db), item.kind.name()?.span))
        }
        Def::Refusal(code) => program.modules(db).values().find_map(|f| {
            claim_sema::db::item_index(db, *f).refusals.iter().find(|(c, _)| c == code).map(|(_, loc)| *loc)
        }),
        Def::Field { owner, variant, name } => {
            let fields = match (type_info(db, program, owner)?.def, variant) {
                (TypeDef::Record { fields, .. }, None) => fields,
                (TypeDef::Enum { variants }, Some(v)) => variants.into_iter().find(|x| x.name == *v)?.fields?,
                _ => return None,
            };
            fields.iter().find(|f| f.name == *name).map(|f| f.loc)
        }
        Def::Variant { owner, name } => match type_info(db, program, owner)?.def {
            TypeDef::Enum { variants } => variants.iter().find(|v| v.name == *name).map(|v| v.loc),
            _ => None,
        },
        Def::Local { file, span, .. } => Some(Loc::new(*file, *span)),
        Def::Module(m) => Some(Loc::new(module_file(db, program, m)?.file_id(db), Span::default())),
    }
}

/// Every place `def` is named, across the program (its declaration too
/// when `include_decl`), in module order.
pub fn references(db: &dyn Db, program: Program, def: &Def, include_decl: bool) -> Vec<Loc> {
    let mut out = Vec::new();
    let files: Vec<SourceFile> = match def {
        Def::Local { file, .. } => program.modules(db).values().filter(|f| f.file_id(db) == *file).copied().collect(),
        _ => program.modules(db).values().copied().collect(),
    };
    for f in files {
        for o in occurrences(db, program, f) {
            if o.def == *def && (include_decl || !o.is_decl) {
                out.push(Loc::new(f.file_id(db), o.span));
            }
        }
    }
    out.dedup();
    out
}

/// Every place in `file` that names what the name at `offset` denotes, and
/// whether it is the declaration (the editor highlights them).
pub fn highlights(db: &dyn Db, program: Program, file: SourceFile, offset: u32) -> Vec<(Span, bool)> {
    let occ = occurrences(db, program, file);
    let Some(o) = at_in(&occ, offset) else { return Vec::new() };
    let mut out: Vec<(Span, bool)> = occ.iter().filter(|x| x.def == o.def).map(|x| (x.span, x.is_decl)).collect();
    out.dedup();
    out
}

/// The type of each local bound without one written (`let p = …`, a
/// comprehension's variable, a pattern's binding), as the offset after its
/// name and the type: what an editor shows inline. A shorthand field
/// pattern (`{ from }`) is left out: a type there would read as a field.
pub fn inlay_types(db: &dyn Db, program: Program, file: SourceFile) -> Vec<(u32, String)> {
    let text = file.text(db);
    let occ = occurrences(db, program, file);
    occ.iter()
        .filter(|o| o.is_decl && matches!(o.def, Def::Local { .. }))
        .filter(|o| !occ.iter().any(|x| x.span == o.span && x.def != o.def))
        .filter(|o| !text.get(o.span.end as usize..).unwrap_or("").trim_start().starts_with(':'))
        .filter_map(|o| {
            let ty = o.ty.as_ref()?;
            (!matches!(ty, claim_sema::ty::Ty::Error)).then(|| (o.span.end, format!(": {ty}")))
        })
        .collect()
}

/// Hover text (Markdown) and the span it describes.
pub fn hover(db: &dyn Db, program: Program, file: SourceFile, offset: u32) -> Option<(String, Span)> {
    if let Some(o) = at(db, program, file, offset) {
        return Some((describe(db, program, &o), o.span));
    }
    // Not a name: the type of the smallest expression under the cursor.
    let m = &claim_sema::check::check_module(db, program, file).hir;
    let mut best: Option<&hir::Expr> = None;
    each_expr(m, &mut |x: &hir::Expr| {
        if x.span.start <= offset
            && offset < x.span.end
            && best.is_none_or(|b| x.span.end - x.span.start < b.span.end - b.span.start)
        {
            best = Some(x);
        }
    });
    let e = best?;
    Some((format!("```claim\n{}\n```", e.ty), e.span))
}

/// The paths a module's world calls (`load`, `file_sha256`, `git_tree`,
/// `oci_image`) name as text literals written without escapes: the span
/// of each literal's letters (inside the quotes), and the path. An editor
/// links each to the file or folder it names.
pub fn world_paths(db: &dyn Db, program: Program, file: SourceFile) -> Vec<(Span, std::sync::Arc<str>)> {
    let m = &claim_sema::check::check_module(db, program, file).hir;
    let mut found = Vec::new();
    each_expr(m, &mut |e| {
        let hir::ExprKind::World(_, args) = &e.kind else { return };
        if let Some((path, letters)) = args.first().and_then(hir::Expr::plain_text) {
            found.push((letters, path.clone()));
        }
    });
    found.sort_by_key(|(span, _)| span.start);
    found.dedup_by_key(|(span, _)| span.start);
    found
}

/// Calls `f` on every checked expression of a module.
pub(crate) fn each_expr<'a>(m: &'a hir::Module, f: &mut impl FnMut(&'a hir::Expr)) {
    let mut roots: Vec<&'a hir::Expr> = Vec::new();
    roots.extend(m.functions.iter().map(|x| &x.body));
    roots.extend(m.facts.iter().map(|x| &x.init));
    for w in &m.witnesses {
        for s in &w.stmts {
            match &s.kind {
                hir::WitnessStmtKind::Let { value, .. } | hir::WitnessStmtKind::Holds(value) => roots.push(value),
                hir::WitnessStmtKind::Refuses { expr, .. } => roots.push(expr),
            }
        }
    }
    for x in &m.frontiers {
        roots.push(&x.text);
        roots.extend(x.condition.iter());
    }
    for r in roots {
        hir::visit(r, f);
    }
}

fn code(s: &str) -> String {
    format!("```claim\n{s}\n```")
}

fn describe(db: &dyn Db, program: Program, o: &Occurrence) -> String {
    let typed = |name: &str| match &o.ty {
        Some(t) => code(&format!("{name}: {t}")),
        None => code(name),
    };
    match &o.def {
        Def::Local { name, .. } => typed(name),
        Def::Module(m) => code(&format!("module {m}")),
        Def::Refusal(c) => match refusal_summary(db, program, c) {
            Some(s) => format!("{}\n\n{s}", code(&format!("refusal {c}"))),
            None => code(&format!("refusal {c}")),
        },
        Def::Field { owner, variant, name } => {
            let of = match variant {
                Some(v) => format!("{}.{v}", owner.name),
                None => owner.name.to_string(),
            };
            let t = field_ty(db, program, owner, variant.as_deref(), name);
            let head = match t {
                Some(t) => code(&format!("{name}: {t}")),
                None => code(name),
            };
            format!("{head}\n\nfield of `{of}` ({})", owner.module)
        }
        Def::Variant { owner, name } => {
            format!("{}\n\nvariant of `{}` ({})", code(&format!("{}.{name}", owner.name)), owner.name, owner.module)
        }
        Def::Item(g) => item_hover(db, program, g).unwrap_or_else(|| typed(&g.name)),
    }
}

fn field_ty(
    db: &dyn Db,
    program: Program,
    owner: &GlobalName,
    variant: Option<&str>,
    name: &str,
) -> Option<claim_sema::ty::Ty> {
    let fields = match (type_info(db, program, owner)?.def, variant) {
        (TypeDef::Record { fields, .. }, None) => fields,
        (TypeDef::Enum { variants }, Some(v)) => variants.into_iter().find(|x| &*x.name == v)?.fields?,
        _ => return None,
    };
    fields.iter().find(|f| &*f.name == name).map(|f| f.ty.clone())
}

/// The declaration as written (a function's header, a fact's type, a
/// type's whole declaration up to 12 lines) and its doc comment.
fn item_hover(db: &dyn Db, program: Program, g: &GlobalName) -> Option<String> {
    let file = module_file(db, program, &g.module)?;
    let text = file.text(db);
    let item = item_named(&claim_sema::parse(db, file).module.items, &g.name)?;
    let end = match &item.kind {
        ItemKind::Fn(f) => f.body.as_ref().map_or(item.span.end, |b| b.span.start),
        ItemKind::Fact { init, .. } => init.span.start,
        ItemKind::Witness { name, .. } | ItemKind::Frontier { name, .. } => name.span.end,
        _ => item.span.end,
    };
    let mut decl =
        text.get(item.span.start as usize..end as usize)?.trim_end().trim_end_matches('=').trim_end().to_string();
    let lines: Vec<&str> = decl.lines().collect();
    if lines.len() > 12 {
        decl = format!("{}\n  …", lines[..12].join("\n"));
    }
    let mut out = code(&decl);
    if !item.docs.is_empty() {
        out.push_str("\n\n");
        out.push_str(&item.docs.join("\n"));
    }
    out.push_str(&format!("\n\n*{}* `{}`", item.kind.describe(), g.module));
    Some(out)
}
