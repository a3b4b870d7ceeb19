//! Renaming a name everywhere it is named — and only where the rename keeps
//! the program's meaning. A rename is planned from the references, then
//! tried: the edits are applied to the database, every name of the
//! project's own modules is resolved again, and the edits are put back.
//! It is refused unless every other name still denotes what it did (a new
//! name may not capture or shadow another), no diagnostic is added, and no
//! JSON key a `load` reads changes. Fail closed: a rename the check cannot
//! show to be safe is refused with the reason, never half-applied.

use crate::resolve::{occurrences, Def, Occurrence};
use claim_sema::hir::{self, ExprKind as H, WorldFn};
use claim_sema::ty::{GlobalName, Ty, TypeDef};
use claim_sema::{Database, Db, Program, SourceFile};
use claim_syntax::{FileId, Span};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// What a rename would rename: the name under the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub def: Def,
    /// The name under the cursor.
    pub span: Span,
    pub name: Arc<str>,
}

/// One replacement in one module's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub file: SourceFile,
    pub span: Span,
    pub text: String,
}

/// The name under `offset`, where it can be renamed; else why not.
pub fn prepare(db: &dyn Db, program: Program, file: SourceFile, offset: u32) -> Result<Target, String> {
    let occ = occurrences(db, program, file);
    let o = crate::at_in(&occ, offset).ok_or("there is no name here to rename")?;
    // A shorthand field (`R { name }`) names a field and a local at once:
    // the rename there is of the local, as it is read in the code around.
    let o = occ.iter().find(|x| x.span == o.span && matches!(x.def, Def::Local { .. })).unwrap_or(o).clone();
    let name: Arc<str> = file.text(db).get(o.span.start as usize..o.span.end as usize).unwrap_or_default().into();
    let std_owner = |g: &GlobalName| claim_sema::db::is_std_module(&g.module);
    match &o.def {
        Def::Module(m) => return Err(format!("a module is named by its file: rename `{m}`'s `.claim` file instead")),
        Def::Item(g) | Def::Field { owner: g, .. } | Def::Variant { owner: g, .. } if std_owner(g) => {
            return Err(format!(
                "`{name}` is declared in the standard library (`{}`), which cannot be renamed",
                g.module
            ))
        }
        Def::Refusal(code) => match crate::definition(db, program, &o.def) {
            None => return Err(format!("`{code}` is a built-in refusal code, which cannot be renamed")),
            Some(loc) if is_std_file(db, program, loc.file) => {
                return Err(format!("`{code}` is declared in the standard library, which cannot be renamed"))
            }
            Some(_) => {}
        },
        _ => {}
    }
    Ok(Target { def: o.def, span: o.span, name })
}

/// The edits that rename `target` to `new_name`, before they are tried.
pub fn plan(db: &dyn Db, program: Program, target: &Target, new_name: &str) -> Result<Vec<Edit>, String> {
    check_name(new_name)?;
    if *target.name == *new_name {
        return Ok(Vec::new());
    }
    if let Some(why) = json_key_changes(db, program, &target.def) {
        return Err(why);
    }
    let mut edits = Vec::new();
    // A local is named only in its own module.
    let only = match &target.def {
        Def::Local { file, .. } => Some(*file),
        _ => None,
    };
    for file in own_files(db, program).into_iter().filter(|f| only.is_none_or(|id| f.file_id(db) == id)) {
        let occ = occurrences(db, program, file);
        for o in occ.iter().filter(|o| o.def == target.def) {
            // `R { name }` and `R { name } => …` name a field and a local
            // at once: the one renamed is written out beside the other.
            let other = occ.iter().find(|x| x.span == o.span && x.def != o.def);
            let text = match (&other, &o.def) {
                (Some(_), Def::Field { .. }) => format!("{new_name}: {}", target.name),
                (Some(_), _) => format!("{}: {new_name}", target.name),
                (None, _) => new_name.to_string(),
            };
            edits.push(Edit { file, span: o.span, text });
        }
    }
    edits.sort_by_key(|e| (e.file.file_id(db).0, e.span.start));
    edits.dedup_by(|a, b| a.file == b.file && a.span == b.span);
    Ok(edits)
}

/// Plans the rename of the name under `offset`, tries it on `db`, puts the
/// texts back, and gives the edits where the rename keeps the program's
/// meaning.
pub fn rename(
    db: &mut Database,
    program: Program,
    file: SourceFile,
    offset: u32,
    new_name: &str,
) -> Result<Vec<Edit>, String> {
    let target = prepare(db, program, file, offset)?;
    let edits = plan(db, program, &target, new_name)?;
    if edits.is_empty() {
        return Ok(edits);
    }
    // Only a module that names the old name can come to mean something
    // else: names are imported by name (`use m.{x}`, `m.x`), never all of
    // a module's at once, so a module that does not name it cannot see the
    // new name but where it named it already (which was then an error, and
    // a rename may end an error). Every module's diagnostics are compared.
    let mut edited: Vec<SourceFile> = edits.iter().map(|e| e.file).collect();
    edited.dedup();
    let before = Meaning::of(db, program, &edited);
    let originals = apply(db, &edits);
    // The texts are put back whatever happens on the way: a server whose
    // copy kept a tried rename would disagree with the editor's buffers.
    let after = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| Meaning::of(db, program, &edited)));
    for (f, text) in originals {
        f.edit(db, text);
    }
    let after = after.map_err(|_| "internal error while trying the rename (a bug in claimc; please report it)")?;
    same_meaning(db, &before, &after, &edits, &target, new_name)?;
    Ok(edits)
}

/// Writes `edits` into their modules' texts; gives the texts they replaced.
fn apply(db: &mut Database, edits: &[Edit]) -> Vec<(SourceFile, Arc<str>)> {
    let mut originals = Vec::new();
    let mut by_file: BTreeMap<u32, (SourceFile, Vec<&Edit>)> = BTreeMap::new();
    for e in edits {
        by_file.entry(e.file.file_id(db).0).or_insert((e.file, Vec::new())).1.push(e);
    }
    for (file, mine) in by_file.into_values() {
        let old = file.text(db).clone();
        let mut text = String::with_capacity(old.len());
        let mut at = 0usize;
        for e in mine {
            text.push_str(&old[at..e.span.start as usize]);
            text.push_str(&e.text);
            at = e.span.end as usize;
        }
        text.push_str(&old[at..]);
        file.edit(db, text.into());
        originals.push((file, old));
    }
    originals
}

/// Every name of some modules and what it denotes, and how many
/// diagnostics of each code the program has.
struct Meaning {
    names: Vec<(SourceFile, Arc<str>, Vec<Occurrence>)>,
    codes: BTreeMap<&'static str, (usize, String)>,
}

impl Meaning {
    fn of(db: &dyn Db, program: Program, files: &[SourceFile]) -> Meaning {
        let names = files.iter().map(|f| (*f, f.text(db).clone(), occurrences(db, program, *f))).collect();
        let mut codes: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
        for d in &claim_sema::compile(db, program).diagnostics {
            codes.entry(d.code).or_insert((0, d.message.clone())).0 += 1;
        }
        Meaning { names, codes }
    }
}

/// Whether the program after the edits means what it did before, with
/// `target` named `new_name`; else the first difference, said.
fn same_meaning(
    db: &dyn Db,
    before: &Meaning,
    after: &Meaning,
    edits: &[Edit],
    target: &Target,
    new_name: &str,
) -> Result<(), String> {
    let what = format!("renaming `{}` to `{new_name}`", target.name);
    for (code, (n, message)) in &after.codes {
        if before.codes.get(code).is_none_or(|(m, _)| n > m) {
            let kind = if code.starts_with('W') { "warning" } else { "error" };
            return Err(format!("{what} would add {kind} {code}: {message}"));
        }
    }
    for ((file, _, old), (_, text, new)) in before.names.iter().zip(&after.names) {
        let id = file.file_id(db);
        let mine: Vec<&Edit> = edits.iter().filter(|e| e.file == *file).collect();
        let shift = |p: u32| -> u32 {
            let delta: i64 = mine
                .iter()
                .filter(|e| e.span.end <= p)
                .map(|e| e.text.len() as i64 - i64::from(e.span.end - e.span.start))
                .sum();
            (i64::from(p) + delta) as u32
        };
        let moved = |s: Span| Span { start: shift(s.start), end: shift(s.end) };
        // Each edit's place in the new text, where its names are compared
        // as a bag (a written-out shorthand has two names where it had one).
        let regions: Vec<Span> = mine
            .iter()
            .map(|e| Span { start: shift(e.span.start), end: shift(e.span.start) + e.text.len() as u32 })
            .collect();
        let region_of = |s: Span, rs: &[Span]| rs.iter().position(|r| r.start <= s.start && s.end <= r.end);
        let old_regions: Vec<Span> = mine.iter().map(|e| e.span).collect();
        // A local is known by where it is bound: moved with the text
        // around it, or, bound inside an edit, by that edit.
        let local = |d: &Def, rs: &[Span], at: &dyn Fn(Span) -> Span| match d {
            Def::Local { file: f, span, name } if *f == id => match region_of(*span, rs) {
                Some(i) => format!("local {name} bound in edit {i}"),
                None => format!("local {name} bound at {:?}", at(*span)),
            },
            other => format!("{other:?}"),
        };
        let mut expect_out = Vec::new();
        let mut expect_in = vec![Vec::new(); mine.len()];
        for o in old {
            let def = local(&renamed(&o.def, &target.def, new_name), &old_regions, &moved);
            match region_of(o.span, &old_regions) {
                Some(i) => expect_in[i].push((def, o.is_decl)),
                None => expect_out.push((moved(o.span), def, o.is_decl)),
            }
        }
        let mut found_out = Vec::new();
        let mut found_in = vec![Vec::new(); mine.len()];
        for o in new {
            let def = local(&o.def, &regions, &|s| s);
            match region_of(o.span, &regions) {
                Some(i) => found_in[i].push((def, o.is_decl)),
                None => found_out.push((o.span, def, o.is_decl)),
            }
        }
        let sort = |v: &mut Vec<(Span, String, bool)>| v.sort_by(|a, b| (a.0.start, &a.1).cmp(&(b.0.start, &b.1)));
        sort(&mut expect_out);
        sort(&mut found_out);
        for v in expect_in.iter_mut().chain(found_in.iter_mut()) {
            v.sort();
        }
        if expect_out != found_out || expect_in != found_in {
            let at = first_difference(&expect_out, &found_out)
                .or_else(|| expect_in.iter().zip(&found_in).zip(&regions).find(|((a, b), _)| a != b).map(|(_, r)| *r))
                .unwrap_or_default();
            let (line, col) = line_col(text, at.start);
            let name = text.get(at.start as usize..at.end as usize).unwrap_or("");
            return Err(format!(
                "{what} would make `{name}` at line {line}, column {col} of `{}` refer to something else",
                file.module(db)
            ));
        }
    }
    Ok(())
}

/// Where two sorted lists of names first differ, in the new text.
fn first_difference(expected: &[(Span, String, bool)], found: &[(Span, String, bool)]) -> Option<Span> {
    let n = expected.iter().zip(found).position(|(a, b)| a != b).unwrap_or(expected.len().min(found.len()));
    match (expected.get(n), found.get(n)) {
        (None, None) => None,
        (Some(a), Some(b)) => Some(if a.0.start <= b.0.start { a.0 } else { b.0 }),
        (Some(x), None) | (None, Some(x)) => Some(x.0),
    }
}

fn line_col(text: &str, offset: u32) -> (usize, usize) {
    let before = text.get(..offset as usize).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `def` as it is named once `target` is named `new`.
fn renamed(def: &Def, target: &Def, new: &str) -> Def {
    let global = |g: &GlobalName| match target {
        Def::Item(t) if t == g => GlobalName::new(&g.module, new),
        _ => g.clone(),
    };
    let own = |d: &Def| d == target;
    match def {
        Def::Item(g) => Def::Item(global(g)),
        Def::Refusal(_) if own(def) => Def::Refusal(new.into()),
        Def::Field { owner, variant, name } => Def::Field {
            owner: global(owner),
            variant: match (variant, target) {
                (Some(v), Def::Variant { owner: o, name: n }) if o == owner && n == v => Some(new.into()),
                _ => variant.clone(),
            },
            name: if own(def) { new.into() } else { name.clone() },
        },
        Def::Variant { owner, name } => {
            Def::Variant { owner: global(owner), name: if own(def) { new.into() } else { name.clone() } }
        }
        Def::Local { file, span, name } => {
            Def::Local { file: *file, span: *span, name: if own(def) { new.into() } else { name.clone() } }
        }
        other => other.clone(),
    }
}

/// A name the lexer reads as one identifier, not a keyword.
fn check_name(new: &str) -> Result<(), String> {
    let lexed = claim_syntax::lexer::lex(new);
    match (lexed.errors.is_empty(), lexed.tokens.as_slice()) {
        (true, [(claim_syntax::token::Token::Ident(_), s)]) if s.start == 0 && s.end as usize == new.len() => Ok(()),
        (true, [(claim_syntax::token::Token::Kw(_), _)]) => Err(format!("`{new}` is a keyword, not a name")),
        _ => Err(format!("`{}` is not a name", new.escape_default())),
    }
}

/// Why renaming `def` would change what a `load` reads, if it would: a
/// field whose JSON key is its name, or any variant, of a type some `load`
/// decodes.
fn json_key_changes(db: &dyn Db, program: Program, def: &Def) -> Option<String> {
    let (owner, variant, field) = match def {
        Def::Field { owner, variant, name } => (owner, variant.as_deref(), Some(name)),
        Def::Variant { owner, name } => (owner, Some(&**name), None),
        _ => return None,
    };
    if !loaded_types(db, program).contains(owner) {
        return None;
    }
    let info = crate::type_info(db, program, owner)?;
    match (field, info.def) {
        (None, _) => Some(format!(
            "`{}` is a variant of `{}`, which `load` reads from JSON by its variants' names: renaming it would change what the receipts must say",
            variant.unwrap_or(""),
            owner.name
        )),
        (Some(name), TypeDef::Record { fields, .. }) => fields.iter().find(|f| f.name == *name && f.json_key == *name).map(|_| keyed_by_name(name, owner)),
        (Some(name), TypeDef::Enum { variants }) => variants
            .iter()
            .filter(|v| Some(&*v.name) == variant)
            .flat_map(|v| v.fields.iter().flatten())
            .find(|f| f.name == *name && f.json_key == *name)
            .map(|_| keyed_by_name(name, owner)),
        _ => None,
    }
}

fn keyed_by_name(name: &str, owner: &GlobalName) -> String {
    format!(
        "`{name}` is read from the JSON key `{name}` of {} that `load` reads: renaming it would change the key; write `@json(\"{name}\") {name}` first to keep the key",
        claim_sema::ty::a(&owner.name)
    )
}

/// Every declared type a `load` decodes, with the types inside them.
fn loaded_types(db: &dyn Db, program: Program) -> HashSet<GlobalName> {
    let mut roots = Vec::new();
    for file in program.modules(db).values() {
        let checked = claim_sema::check::check_module(db, program, *file);
        crate::each_expr(&checked.hir, &mut |e: &hir::Expr| {
            if let H::World(WorldFn::Load, _) = e.kind {
                roots.push(e.ty.clone());
            }
        });
    }
    let mut seen = HashSet::new();
    while let Some(t) = roots.pop() {
        match t {
            Ty::List(t) | Ty::Option(t) | Ty::Map(t) => roots.push((*t).clone()),
            Ty::Named(g) => {
                if !seen.insert((*g).clone()) {
                    continue;
                }
                match crate::type_info(db, program, &g).map(|i| i.def) {
                    Some(TypeDef::Newtype(t)) => roots.push(t),
                    Some(TypeDef::Record { fields, .. }) => roots.extend(fields.into_iter().map(|f| f.ty)),
                    Some(TypeDef::Enum { variants }) => {
                        roots.extend(variants.into_iter().flat_map(|v| v.fields.into_iter().flatten()).map(|f| f.ty))
                    }
                    None => {}
                }
            }
            _ => {}
        }
    }
    seen
}

/// The project's own modules (the standard library's cannot be renamed in).
fn own_files(db: &dyn Db, program: Program) -> Vec<SourceFile> {
    program.modules(db).iter().filter(|(m, _)| !claim_sema::db::is_std_module(m)).map(|(_, f)| *f).collect()
}

fn is_std_file(db: &dyn Db, program: Program, id: FileId) -> bool {
    program.modules(db).iter().any(|(m, f)| f.file_id(db) == id && claim_sema::db::is_std_module(m))
}
