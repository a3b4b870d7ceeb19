//! What names a module sees: its own items, and what its `use`s import
//! (§2). `use` is not transitive, and a collision is an error at the `use`.

use crate::db::{item_index, parse, Db, Program, SourceFile};
use crate::index::ItemTag;
use crate::ty::GlobalName;
use claim_diagnostics::{did_you_mean, Diagnostic};
use claim_syntax::ast::ItemKind;
use claim_syntax::{Loc, Span};
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopeName {
    pub target: GlobalName,
    pub tag: ItemTag,
    /// Where the name entered this module: its declaration or the `use`.
    pub span: Span,
    pub imported: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Scope {
    /// Looked up at every name the module's code uses: hashed, not sorted
    /// (a sorted map compared the name with five or six keys each time, a
    /// text comparison each). Walks that show their order to a user go
    /// through `sorted_names`.
    pub names: rustc_hash::FxHashMap<Arc<str>, ScopeName>,
    /// `use a.b` binds `b` → `a.b`.
    pub modules: BTreeMap<Arc<str>, (Arc<str>, Span)>,
    /// Every module this one imports, with the `use` path's span.
    pub imports: Vec<(Arc<str>, Span)>,
    /// Names a `use` meant to bring in but could not (its module was not
    /// found or not readable, or did not declare the name): the `use` is
    /// already an error, so using them is not reported again.
    pub unresolved: rustc_hash::FxHashSet<Arc<str>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Scope {
    /// The names in scope, by name: for suggestions and completions, whose
    /// order a user sees (and which must not depend on hashing).
    pub fn sorted_names(&self) -> Vec<(&Arc<str>, &ScopeName)> {
        let mut names: Vec<_> = self.names.iter().collect();
        names.sort_unstable_by(|a, b| a.0.cmp(b.0));
        names
    }

    pub fn build(db: &dyn Db, program: Program, file: SourceFile) -> Scope {
        let module_name: Arc<str> = file.module(db).as_str().into();
        let fid = file.file_id(db);
        let mut scope = Scope::default();
        let entries = &item_index(db, file).entries;
        // The module's own names and, usually, a few imported ones: sized
        // once rather than rehashed at each doubling.
        scope.names.reserve(entries.len() + 8);
        for (name, e) in entries {
            scope.names.insert(
                name.clone(),
                ScopeName {
                    target: GlobalName::of(module_name.clone(), name.clone()),
                    tag: e.tag,
                    span: e.span,
                    imported: false,
                },
            );
        }
        let modules = program.modules(db);
        for item in &parse(db, file).module.items {
            let ItemKind::Use(u) = &item.kind else {
                continue;
            };
            let path = u.dotted();
            let path_span = u.path_span();
            if let Some(reason) = program.unreadable(db).get(&path) {
                scope.diagnostics.push(
                    Diagnostic::error("E0106", format!("module `{path}` cannot be read: {reason}")).at(
                        fid,
                        path_span,
                        "names a file that cannot be read",
                    ),
                );
                scope.unresolved_use(u);
                continue;
            }
            let Some(target) = modules.get(&path) else {
                let mut d = Diagnostic::error("E0101", format!("module `{path}` not found")).at(
                    fid,
                    path_span,
                    "no such module",
                );
                if let Some(close) = did_you_mean(&path, modules.keys().map(String::as_str)) {
                    d = d.with_suggestion(close);
                } else if path.starts_with("std.") {
                    d = d.with_help("the standard library modules are listed by `claimc doc --list`");
                } else {
                    d = d.with_note(format!(
                        "`use {path}` names the file `{}.claim` under the project root",
                        path.replace('.', "/")
                    ));
                }
                scope.diagnostics.push(d);
                scope.unresolved_use(u);
                continue;
            };
            let target_module: Arc<str> = path.as_str().into();
            scope.imports.push((target_module.clone(), path_span));
            match &u.selection {
                None => {
                    let Some(alias) = u.path.last() else { continue };
                    let key: Arc<str> = alias.name.as_str().into();
                    if let Some(prev) = scope.conflict(&key) {
                        scope.diagnostics.push(collision(fid, alias.span, &alias.name, prev, &module_name));
                        continue;
                    }
                    scope.modules.insert(key, (target_module, alias.span));
                }
                Some(selected) => {
                    let index = item_index(db, *target);
                    for sel in selected {
                        let key: Arc<str> = sel.name.as_str().into();
                        let Some(entry) = index.entries.get(&key) else {
                            if index.refusals.iter().any(|(c, _)| *c == key) {
                                // Refusal codes are global; selecting one is harmless.
                                continue;
                            }
                            let mut d =
                                Diagnostic::error("E0104", format!("module `{path}` has no item named `{}`", sel.name))
                                    .at(fid, sel.span, "not declared there");
                            if let Some(close) = did_you_mean(&sel.name, index.entries.keys().map(|k| &**k)) {
                                d = d.with_suggestion(close);
                            }
                            scope.diagnostics.push(d);
                            scope.unresolved.insert(key);
                            continue;
                        };
                        if let Some(prev) = scope.conflict(&key) {
                            scope.diagnostics.push(collision(fid, sel.span, &sel.name, prev, &module_name));
                            continue;
                        }
                        scope.names.insert(
                            key.clone(),
                            ScopeName {
                                target: GlobalName::of(target_module.clone(), key),
                                tag: entry.tag,
                                span: sel.span,
                                imported: true,
                            },
                        );
                    }
                }
            }
        }
        scope
    }

    /// Whether `name` is one a failed `use` meant to import.
    pub fn is_unresolved(&self, name: &str) -> bool {
        !self.unresolved.is_empty() && self.unresolved.contains(name)
    }

    /// Records the names a `use` that could not be resolved meant to bring
    /// in: the selected ones, or the module's alias.
    fn unresolved_use(&mut self, u: &claim_syntax::ast::UseDecl) {
        match &u.selection {
            Some(selected) => self.unresolved.extend(selected.iter().map(|s| Arc::from(s.name.as_str()))),
            None => self.unresolved.extend(u.path.last().map(|a| Arc::from(a.name.as_str()))),
        }
    }

    /// What already holds `name` here, if anything.
    fn conflict(&self, name: &str) -> Option<(Span, bool)> {
        if let Some(n) = self.names.get(name) {
            return Some((n.span, n.imported));
        }
        self.modules.get(name).map(|(_, span)| (*span, true))
    }
}

/// Help for a name a module does not know (`E0201`/`E0202`): the modules
/// that declare it, as an item of kind `tag` (the module itself does not,
/// or the name would be known), and the `use` that imports it. `None`
/// where no module does.
pub fn import_help(db: &dyn Db, program: Program, name: &str, tag: ItemTag) -> Option<String> {
    import_suggestion(db, program, name, tag).map(|(help, _)| help)
}

/// Adds the help of `import_help` to `d`, and where exactly one module
/// declares the name, the fix that writes its `use` into `file`. Whether
/// there was help to add.
pub fn with_import_help(
    db: &dyn Db,
    program: Program,
    file: claim_syntax::FileId,
    name: &str,
    tag: ItemTag,
    d: &mut Diagnostic,
) -> bool {
    let Some((help, module)) = import_suggestion(db, program, name, tag) else { return false };
    d.help = Some(help);
    let source = program.modules(db).values().find(|f| f.file_id(db) == file).copied();
    if let (Some(module), Some(source)) = (module, source) {
        let (at, text) = import_at(source.text(db), &parse(db, source).module.items, &module, name);
        d.fix = Some(claim_diagnostics::Fix { loc: Loc::new(file, Span::new(at, at)), replacement: text });
    }
    true
}

/// Where a new `use` goes in `text`, and what to write there: a line after
/// the last `use`, or else before the first line that is neither blank nor
/// a plain `//` comment (a file's header comment stays first; the first
/// item's `///` docs stay with it), with a blank line after it.
fn import_at(text: &str, items: &[claim_syntax::ast::Item], module: &str, name: &str) -> (usize, String) {
    let line = format!("use {module}.{{{name}}}");
    if let Some(last) = items.iter().rfind(|i| matches!(i.kind, ItemKind::Use(_))) {
        let end = (last.span.end as usize).min(text.len());
        return match text[end..].find('\n') {
            Some(i) => (end + i + 1, format!("{line}\n")),
            None => (text.len(), format!("\n{line}\n")),
        };
    }
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        let t = l.trim();
        if !(t.is_empty() || (t.starts_with("//") && !t.starts_with("///"))) {
            break;
        }
        at += l.len();
    }
    (at, format!("{line}\n\n"))
}

/// The help of `import_help`, and the module to import from where exactly
/// one declares the name.
fn import_suggestion(db: &dyn Db, program: Program, name: &str, tag: ItemTag) -> Option<(String, Option<String>)> {
    let declares = |index: &crate::index::ItemIndex| index.entries.get(name).is_some_and(|e| e.tag == tag);
    let modules = program.modules(db);
    let mut declaring: Vec<&str> =
        modules.iter().filter(|(_, file)| declares(item_index(db, **file))).map(|(m, _)| m.as_str()).collect();
    // The standard library's modules the program has not loaded (it loads
    // only those some module imports).
    declaring.extend(
        crate::stdlib::indexes()
            .iter()
            .filter(|(m, index)| !modules.contains_key(*m) && declares(index))
            .map(|(m, _)| *m),
    );
    declaring.sort_unstable();
    match declaring.as_slice() {
        [] => None,
        [one] => Some((
            format!("`{name}` is declared in `{one}`: import it with `use {one}.{{{name}}}`"),
            Some((*one).to_string()),
        )),
        many => {
            let shown: Vec<String> = many.iter().take(3).map(|m| format!("`{m}`")).collect();
            let more = if many.len() > 3 { format!(" and {} more", many.len() - 3) } else { String::new() };
            Some((format!("`{name}` is declared in {}{more}: import it from one with `use`", shown.join(", ")), None))
        }
    }
}

fn collision(file: claim_syntax::FileId, span: Span, name: &str, prev: (Span, bool), _module: &str) -> Diagnostic {
    let (prev_span, prev_imported) = prev;
    let (message, label) = if prev_imported {
        (format!("`{name}` is imported twice"), "imported again here")
    } else {
        (format!("the import `{name}` collides with an item of this module"), "imported here")
    };
    Diagnostic::error("E0103", message)
        .at(file, span, label)
        .with_secondary(Loc::new(file, prev_span), if prev_imported { "first imported here" } else { "declared here" })
        .with_help("import the module qualified instead (`use a.b` and then `b.name`), or rename the local item")
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn module_scope(db: &dyn Db, program: Program, file: SourceFile) -> Arc<Scope> {
    Arc::new(Scope::build(db, program, file))
}

/// How many scopes salsa keeps (`forget.rs`).
pub(crate) fn keep_scopes(db: &mut dyn Db, n: usize) {
    module_scope::set_lru_capacity(db, n);
}
