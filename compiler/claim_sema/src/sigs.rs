//! Signatures: the resolved types of a module's declarations (type
//! definitions, function signatures, fact types). Other modules' checks
//! depend on these, not on bodies, so editing a body re-checks little.

use crate::db::{item_index, parse, Db, Program, SourceFile};
use crate::index::ItemTag;
use crate::scope::module_scope;
use crate::scope::Scope;
use crate::ty::{FieldDef, Fields, GlobalName, Ty, TypeDef, TypeInfo, VariantDef};
use claim_diagnostics::{did_you_mean, Diagnostic};
use claim_syntax::ast::{FieldDecl, ItemKind, TypeExpr, TypeExprKind};
use claim_syntax::{FileId, Loc, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnSig {
    pub params: Vec<(Arc<str>, Ty)>,
    pub ret: Ty,
    pub loc: Loc,
    /// For a `@world fn` of the standard library: the world function.
    pub world: Option<crate::hir::WorldFn>,
}

/// Checks a function's attribute and body: only the standard library may
/// declare a world function (`@world`, no body), and only one it provides.
fn world_decl(
    f: &claim_syntax::ast::FnDecl,
    module: &str,
    file: FileId,
    d: &mut Vec<Diagnostic>,
) -> Option<crate::hir::WorldFn> {
    let name = &f.name.name;
    match &f.attribute {
        Some(a) if a.name != "world" => {
            d.push(Diagnostic::error("E0222", format!("unknown attribute `@{}` on a function", a.name)).at(
                file,
                a.span,
                "not an attribute of functions",
            ));
            None
        }
        Some(a) => {
            let known = crate::builtins::declared_world(name).filter(|_| module.starts_with("std."));
            match (known, &f.body) {
                (Some(w), None) => Some(w),
                (Some(_), Some(_)) => {
                    d.push(Diagnostic::error("E0222", format!("world function `{name}` cannot have a body")).at(
                        file,
                        f.name.span,
                        "declared with a body",
                    ));
                    None
                }
                (None, _) => {
                    d.push(
                        Diagnostic::error("E0222", format!("`@world` cannot declare `{name}`"))
                            .at(file, a.span, "only the standard library declares world functions")
                            .with_help("read the world in a fact with `load`, `file_sha256`, `git_tree` or `std.oci.oci_image`"),
                    );
                    None
                }
            }
        }
        None if f.body.is_none() => {
            d.push(Diagnostic::error("E0222", format!("function `{name}` has no body")).at(
                file,
                f.name.span,
                "expected `{ … }` after the return type",
            ));
            None
        }
        None => None,
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactSig {
    pub ty: Ty,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ModuleSigs {
    pub types: BTreeMap<Arc<str>, TypeInfo>,
    /// Looked up at every call and fact reference (hashed, as the scope's
    /// names are: nothing walks these in an order a user sees).
    pub fns: rustc_hash::FxHashMap<Arc<str>, FnSig>,
    pub facts: rustc_hash::FxHashMap<Arc<str>, FactSig>,
    pub diagnostics: Vec<Diagnostic>,
}

const PRIMITIVES: &[&str] =
    &["Bool", "Int", "Text", "Duration", "Sha256", "Sha1", "Sha512", "Json", "List", "Option", "Map"];

/// Resolves type expressions in one module's scope.
pub struct TypeResolver<'a> {
    pub db: &'a dyn Db,
    pub program: Program,
    pub scope: &'a Scope,
    pub file: FileId,
}

impl TypeResolver<'_> {
    pub fn resolve(&self, t: &TypeExpr, diags: &mut Vec<Diagnostic>) -> Ty {
        let TypeExprKind::Named { path, args } = &t.kind else {
            return Ty::Error;
        };
        let names: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
        let arity = |want: usize, diags: &mut Vec<Diagnostic>| -> bool {
            if args.len() != want {
                diags.push(
                    Diagnostic::error(
                        "E0219",
                        format!(
                            "`{}` takes {want} type argument{}, not {}",
                            names.join("."),
                            if want == 1 { "" } else { "s" },
                            args.len()
                        ),
                    )
                    .at(self.file, t.span, "wrong number of type arguments"),
                );
                return false;
            }
            true
        };
        let prim = match names.as_slice() {
            ["Bool"] => Some(Ty::Bool),
            ["Int"] => Some(Ty::Int),
            ["Text"] => Some(Ty::Text),
            ["Duration"] => Some(Ty::Duration),
            ["Sha256"] => Some(Ty::Sha256),
            ["Sha1"] => Some(Ty::Sha1),
            ["Sha512"] => Some(Ty::Sha512),
            ["Json"] => Some(Ty::Json),
            _ => None,
        };
        if let Some(p) = prim {
            return if arity(0, diags) { p } else { Ty::Error };
        }
        if let [g @ ("List" | "Option" | "Map")] = names.as_slice() {
            if !arity(1, diags) {
                return Ty::Error;
            }
            let inner = self.resolve(&args[0], diags);
            return match *g {
                "List" => Ty::list(inner),
                "Option" => Ty::option(inner),
                _ => Ty::map(inner),
            };
        }
        let found = match names.as_slice() {
            [one] => self.scope.names.get(*one).filter(|n| n.tag == ItemTag::Type).map(|n| n.target.clone()),
            [alias, name] => self.scope.modules.get(*alias).and_then(|(m, _)| {
                let file = self.program.modules(self.db).get(&**m)?;
                let e = item_index(self.db, *file).entries.get(*name)?;
                (e.tag == ItemTag::Type).then(|| GlobalName::new(m, name))
            }),
            _ => None,
        };
        match found {
            Some(g) => {
                if !arity(0, diags) {
                    return Ty::Error;
                }
                Ty::named(g)
            }
            // A type a failed `use` meant to import: the `use` is the error.
            None if names.first().is_some_and(|n| self.scope.is_unresolved(n)) => Ty::Error,
            None => {
                let full = names.join(".");
                let mut d = Diagnostic::error("E0202", format!("unknown type `{full}`")).at(
                    self.file,
                    t.span,
                    "not a type in scope",
                );
                let candidates = PRIMITIVES.iter().copied().chain(
                    self.scope.sorted_names().into_iter().filter(|(_, n)| n.tag == ItemTag::Type).map(|(k, _)| &**k),
                );
                let imported = match names.as_slice() {
                    [one] => {
                        crate::scope::with_import_help(self.db, self.program, self.file, one, ItemTag::Type, &mut d)
                    }
                    _ => false,
                };
                if let Some(close) = did_you_mean(&full, candidates).filter(|_| !imported) {
                    // The name alone: not a `List<…>`'s arguments after it.
                    let name = match (path.first(), path.last()) {
                        (Some(a), Some(b)) => Span { start: a.span.start, end: b.span.end },
                        _ => t.span,
                    };
                    d = d.with_suggestion_at(Loc::new(self.file, name), close);
                }
                diags.push(d);
                Ty::Error
            }
        }
    }
}

impl ModuleSigs {
    pub fn build(db: &dyn Db, program: Program, file: SourceFile) -> ModuleSigs {
        let fid = file.file_id(db);
        let module: Arc<str> = file.module(db).as_str().into();
        let scope = module_scope(db, program, file);
        let index = item_index(db, file);
        let r = TypeResolver { db, program, scope, file: fid };
        let mut sigs = ModuleSigs::default();
        let mut d = Vec::new();
        for (i, item) in parse(db, file).module.items.iter().enumerate() {
            let Some(name) = item.kind.name() else {
                continue;
            };
            // Only the first of two same-named items gets a signature.
            if index.duplicates.binary_search(&(i as u32)).is_ok() {
                continue;
            }
            let key: Arc<str> = name.name.as_str().into();
            let loc = Loc::new(fid, name.span);
            let gname = GlobalName::of(module.clone(), key.clone());
            let def = match &item.kind {
                ItemKind::Newtype { underlying, .. } => Some(TypeDef::Newtype(r.resolve(underlying, &mut d))),
                ItemKind::Record(rec) => {
                    let camel = rec.json_case.is_some();
                    if let Some(case) = rec.json_case.as_ref().filter(|c| c.name != "camelCase") {
                        let mut e = Diagnostic::error("E0224", format!("unknown JSON case `{}`", case.name))
                            .at(fid, case.span, "a record's fields are read in `camelCase` or as written")
                            .with_help("write `@json(camelCase)`, or give a field its key with `@json(\"…\")`");
                        if case.name.eq_ignore_ascii_case("camelcase") {
                            e = e.with_suggestion("camelCase");
                        }
                        d.push(e);
                    }
                    Some(TypeDef::Record {
                        fields: Fields::new(fields(&r, &rec.fields, camel, &mut d)),
                        open: rec.open,
                    })
                }
                ItemKind::Enum { variants, .. } => {
                    let mut seen = BTreeSet::new();
                    let mut vs = Vec::new();
                    for v in variants {
                        if !seen.insert(v.name.name.clone()) {
                            d.push(
                                Diagnostic::error("E0105", format!("variant `{}` is declared twice", v.name.name)).at(
                                    fid,
                                    v.name.span,
                                    "declared again here",
                                ),
                            );
                            continue;
                        }
                        vs.push(VariantDef {
                            name: v.name.name.as_str().into(),
                            fields: v.fields.as_ref().map(|f| Fields::new(fields(&r, f, false, &mut d))),
                            loc: Loc::new(fid, v.name.span),
                        });
                    }
                    Some(TypeDef::Enum { variants: vs })
                }
                ItemKind::Fn(f) => {
                    let mut seen = BTreeSet::new();
                    let params = f
                        .params
                        .iter()
                        .map(|p| {
                            if !seen.insert(p.name.name.clone()) {
                                d.push(
                                    Diagnostic::error("E0220", format!("parameter `{}` is bound twice", p.name.name))
                                        .at(fid, p.name.span, "bound again here"),
                                );
                            }
                            (Arc::from(p.name.name.as_str()), r.resolve(&p.ty, &mut d))
                        })
                        .collect();
                    let world = world_decl(f, &module, fid, &mut d);
                    sigs.fns.insert(key.clone(), FnSig { params, ret: r.resolve(&f.ret, &mut d), loc, world });
                    None
                }
                ItemKind::Fact { ty, .. } => {
                    sigs.facts.insert(key.clone(), FactSig { ty: r.resolve(ty, &mut d), loc });
                    None
                }
                _ => None,
            };
            if let Some(def) = def {
                sigs.types.insert(key, TypeInfo { name: gname, def, loc, docs: item.docs.clone() });
            }
        }
        sigs.diagnostics = d;
        sigs
    }
}

/// The camelCase form of a field's name, as `@json(camelCase)` reads it:
/// each `_x` becomes `X` (`build_type` → `buildType`).
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' && !upper {
            upper = true;
            continue;
        }
        if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if upper {
        out.push('_');
    }
    out
}

fn fields(r: &TypeResolver<'_>, decls: &[FieldDecl], camel: bool, d: &mut Vec<Diagnostic>) -> Vec<FieldDef> {
    let camel_keys: Vec<Option<String>> =
        decls.iter().map(|f| (camel && f.json_key.is_none()).then(|| camel_case(&f.name.name))).collect();
    let mut seen = BTreeSet::new();
    // Each JSON key is read by one field: two that read the same key would
    // both take its value, and in an open record the key the second was
    // meant to read would be skipped without a word.
    let mut keys: BTreeMap<&str, &FieldDecl> = BTreeMap::new();
    let mut out = Vec::new();
    for (f, camel_key) in decls.iter().zip(&camel_keys) {
        if !seen.insert(f.name.name.clone()) {
            d.push(Diagnostic::error("E0206", format!("field `{}` is declared twice", f.name.name)).at(
                r.file,
                f.name.span,
                "declared again here",
            ));
            continue;
        }
        let key = f.json_key.as_deref().or(camel_key.as_deref()).unwrap_or(&f.name.name);
        if let Some(first) = keys.insert(key, f) {
            d.push(
                Diagnostic::error(
                    "E0223",
                    format!("fields `{}` and `{}` both read the JSON key `{key}`", first.name.name, f.name.name),
                )
                .at(r.file, f.name.span, format!("reads `{key}` again"))
                .with_secondary(Loc::new(r.file, first.name.span), format!("`{}` reads `{key}`", first.name.name))
                .with_help("give one of them the key it is meant to read with `@json(\"…\")`"),
            );
        }
        out.push(FieldDef {
            name: f.name.name.as_str().into(),
            ty: r.resolve(&f.ty, d),
            json_key: key.into(),
            loc: Loc::new(r.file, f.name.span),
        });
    }
    out
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn module_sigs(db: &dyn Db, program: Program, file: SourceFile) -> Arc<ModuleSigs> {
    Arc::new(ModuleSigs::build(db, program, file))
}

/// How many signatures salsa keeps (`forget.rs`).
pub(crate) fn keep_sigs(db: &mut dyn Db, n: usize) {
    module_sigs::set_lru_capacity(db, n);
}
