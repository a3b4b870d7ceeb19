//! Name resolution and type checking of one module (§3, §4), producing the
//! HIR. The checker reports every error it can find and goes on: an
//! expression it could not type gets `Ty::Error`, which fits anywhere and
//! so causes no further errors (no cascades).

mod calls;
mod exhaustive;
mod expr;
mod naming;
mod pattern;
mod records;

use crate::db::{item_index, parse, std_refusal_codes, Db, Program, SourceFile};
use crate::hir;
use crate::resolved::{Def, Occurrence};
use crate::scope::module_scope;
use crate::scope::Scope;
use crate::sigs::module_sigs;
use crate::sigs::{FactSig, FnSig, ModuleSigs, TypeResolver};
use crate::ty::{GlobalName, Ty, TypeDef, TypeInfo};
use claim_diagnostics::Diagnostic;
use claim_syntax::ast::{self, ItemKind};
use claim_syntax::{FileId, Loc, Span};
use std::collections::BTreeSet;
use std::sync::Arc;

pub(crate) struct Checker<'a> {
    db: &'a dyn Db,
    program: Program,
    module: Arc<str>,
    file: FileId,
    scope: &'a Scope,
    sigs: &'a ModuleSigs,
    /// The codes this module resolves itself: built-in, the standard
    /// library's and its own (`db::std_refusal_codes`).
    codes: &'a BTreeSet<Arc<str>>,
    own_codes: rustc_hash::FxHashSet<&'a str>,
    unresolved_codes: Vec<(Arc<str>, Span)>,
    diags: Vec<Diagnostic>,
    /// Locals in scope, innermost last, with where each is bound.
    locals: Vec<(Arc<str>, hir::Slot, Ty, Span)>,
    next_slot: u32,
    /// In a fact initializer, where world functions are allowed.
    in_fact: bool,
    /// The item being checked, as the source of call-graph edges.
    current: Option<Arc<GlobalName>>,
    edges: Vec<(Arc<GlobalName>, Arc<GlobalName>, Span)>,
    /// Codes this module refuses with (`refuse` and `require … else refuse`).
    refused: std::collections::BTreeSet<Arc<str>>,
    /// One shared copy of each name the module's expressions call or read.
    names: rustc_hash::FxHashMap<GlobalName, Arc<GlobalName>>,
    /// The signatures of the other modules this one has looked names up
    /// in: every call and type names one, and asking salsa again each
    /// time (a program lookup and an interned query key) was a fifth of
    /// checking. Asked once, the dependency is recorded all the same.
    other_sigs: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, Option<&'a ModuleSigs>>>,
    /// Every name resolved, with what it denotes, when the editor asks
    /// (`occurrences`); `None` for a check that only needs the HIR.
    noted: Option<Vec<Occurrence>>,
}

fn check(db: &dyn Db, program: Program, file: SourceFile, note: bool) -> (CheckedModule, Vec<Occurrence>) {
    let parsed = parse(db, file);
    let mut c = Checker {
        db,
        program,
        module: file.module(db).as_str().into(),
        file: file.file_id(db),
        scope: module_scope(db, program, file),
        sigs: module_sigs(db, program, file),
        codes: std_refusal_codes(db, program),
        own_codes: item_index(db, file).refusals.iter().map(|(c, _)| &**c).collect(),
        unresolved_codes: Vec::new(),
        diags: Vec::new(),
        locals: Vec::new(),
        next_slot: 0,
        in_fact: false,
        current: None,
        edges: Vec::new(),
        refused: Default::default(),
        names: Default::default(),
        other_sigs: Default::default(),
        noted: note.then(Vec::new),
    };
    let mut out = hir::Module::default();
    for item in &parsed.module.items {
        c.item(item, &mut out);
    }
    naming::check_names(&parsed.module, c.file, &mut c.diags);
    // Each `(from, to)` once, where it is first made: a witness that names
    // a fact three times reads it once, and every use of the edges (cycles,
    // unread names, the graph) wants the first place or none.
    // The set borrows the names (no counts touched) and is sized once.
    let mut edges = c.edges;
    let first: Vec<bool> = {
        let mut seen = rustc_hash::FxHashSet::with_capacity_and_hasher(edges.len(), Default::default());
        edges.iter().map(|(from, to, _)| seen.insert((&**from, &**to))).collect()
    };
    let mut first = first.into_iter();
    edges.retain(|_| first.next().unwrap_or(true));
    // Kept for the whole run: no spare capacity.
    out.functions.shrink_to_fit();
    out.facts.shrink_to_fit();
    out.witnesses.shrink_to_fit();
    out.frontiers.shrink_to_fit();
    let checked = CheckedModule {
        hir: Arc::new(out),
        edges: edges.into(),
        refused: c.refused,
        unresolved_codes: c.unresolved_codes,
        diagnostics: c.diags,
    };
    (checked, c.noted.unwrap_or_default())
}

impl<'a> Checker<'a> {
    fn loc(&self, span: Span) -> Loc {
        Loc::new(self.file, span)
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// A fact's initializer. A fact is the typed boundary with the world:
    /// one declared as a newtype over `T` accepts a world call that gives a
    /// `T` (`fact tree: GitTree = git_tree("//")`), and holds it as the
    /// newtype. Nothing else converts implicitly.
    fn fact_init(&mut self, init: &ast::Expr, ty: &Ty) -> hir::Expr {
        let names_load = matches!(&init.kind, ast::ExprKind::Call(callee, _)
            if matches!(&callee.kind, ast::ExprKind::Name(id) if id.name.as_str() == "load"));
        let Some(under) = self.newtype_of(ty).cloned() else { return self.expr(init, Some(ty)) };
        if !matches!(init.kind, ast::ExprKind::Call(..)) || names_load {
            return self.expr(init, Some(ty));
        }
        let h = self.expr(init, None);
        if matches!(h.kind, hir::ExprKind::World(..)) && h.ty == under {
            let span = h.span;
            return hir::Expr { kind: hir::ExprKind::Wrap(Box::new(h)), span, ty: ty.clone() };
        }
        self.expect(h, ty)
    }

    fn item(&mut self, item: &ast::Item, out: &mut hir::Module) {
        self.locals.clear();
        self.next_slot = 0;
        self.in_fact = false;
        if self.noted.is_some() {
            self.note_declarations(&item.kind);
        }
        // The item's program-wide name, made once: its HIR keeps a copy
        // (a witness or frontier is named apart, below). The scope's own
        // (for an item declared here) is the one this module's code refers
        // to it by: sharing its texts, a fact's value is found by the
        // evaluator's table without comparing them.
        let named = match &item.kind {
            ItemKind::Witness { .. } | ItemKind::Frontier { .. } => None,
            kind => kind.name().map(|n| match self.scope.names.get(n.name.as_str()) {
                Some(entry) if !entry.imported && *entry.target.module == *self.module => entry.target.clone(),
                _ => GlobalName::of(self.module.clone(), n.name.as_str().into()),
            }),
        };
        self.current = named.clone().map(Arc::new);
        match &item.kind {
            ItemKind::Fn(f) => {
                let Some(sig) = self.sigs.fns.get(f.name.name.as_str()).cloned() else {
                    return;
                };
                for (param, (name, ty)) in f.params.iter().zip(&sig.params) {
                    self.bind(name.clone(), param.name.span, ty.clone());
                }
                // A world declaration (or a body-less fn, already reported)
                // has nothing to check or run.
                let Some(body) = &f.body else { return };
                let body = self.expr(body, Some(&sig.ret));
                out.functions.push(hir::Function {
                    name: named.unwrap_or_else(|| GlobalName::new(&self.module, &f.name.name)),
                    params: sig.params.clone(),
                    ret: sig.ret.clone(),
                    body,
                    frame_size: self.next_slot,
                    loc: self.loc(f.name.span),
                    docs: item.docs.clone(),
                });
            }
            ItemKind::Fact { name, init, .. } => {
                let Some(sig) = self.sigs.facts.get(name.name.as_str()).cloned() else {
                    return;
                };
                self.in_fact = true;
                let init = self.fact_init(init, &sig.ty);
                out.facts.push(hir::Fact {
                    name: named.unwrap_or_else(|| GlobalName::new(&self.module, &name.name)),
                    ty: sig.ty,
                    init,
                    frame_size: self.next_slot,
                    loc: self.loc(name.span),
                    docs: item.docs.clone(),
                });
            }
            ItemKind::Witness { name, stmts } => {
                // What a witness reads counts as read (for the lints); the
                // space keeps this name apart from every item's.
                self.current =
                    Some(Arc::new(GlobalName::of(self.module.clone(), format!("witness {}", name.name).into())));
                let stmts = stmts.iter().map(|s| self.witness_stmt(s)).collect();
                out.witnesses.push(hir::Witness {
                    name: name.name.as_str().into(),
                    module: self.module.clone(),
                    stmts,
                    frame_size: self.next_slot,
                    loc: self.loc(name.span),
                });
            }
            ItemKind::Frontier { name, text, condition } => {
                self.current =
                    Some(Arc::new(GlobalName::of(self.module.clone(), format!("frontier {}", name.name).into())));
                let text = self.expr(text, Some(&Ty::Text));
                let condition = condition.as_ref().map(|c| self.expr(c, Some(&Ty::Bool)));
                out.frontiers.push(hir::Frontier {
                    name: name.name.as_str().into(),
                    module: self.module.clone(),
                    text,
                    condition,
                    frame_size: self.next_slot,
                    loc: self.loc(name.span),
                });
            }
            _ => {}
        }
    }

    fn witness_stmt(&mut self, s: &ast::WitnessStmt) -> hir::WitnessStmt {
        let kind = match &s.kind {
            ast::WitnessStmtKind::Let { name, ty, value } => {
                let (slot, value) = self.let_binding(name, ty.as_deref(), value);
                hir::WitnessStmtKind::Let { slot, value }
            }
            ast::WitnessStmtKind::Holds(e) => hir::WitnessStmtKind::Holds(self.expr(e, None)),
            ast::WitnessStmtKind::Refuses { expr, code } => {
                let expr = self.expr(expr, None);
                self.check_code(code);
                hir::WitnessStmtKind::Refuses { expr, code: code.name.as_str().into(), code_span: code.span }
            }
        };
        hir::WitnessStmt { kind, span: s.span }
    }

    /// `let name[: ty] = value`: checks the value, then binds the name.
    fn let_binding(
        &mut self,
        name: &ast::Ident,
        ty: Option<&ast::TypeExpr>,
        value: &ast::Expr,
    ) -> (hir::Slot, hir::Expr) {
        let declared = ty.map(|t| self.resolve_type(t));
        let value = self.expr(value, declared.as_ref());
        let ty = declared.unwrap_or_else(|| value.ty.clone());
        (self.bind(name.name.as_str().into(), name.span, ty), value)
    }

    fn resolve_type(&mut self, t: &ast::TypeExpr) -> Ty {
        let r = TypeResolver { db: self.db, program: self.program, scope: self.scope, file: self.file };
        let ty = r.resolve(t, &mut self.diags);
        self.note_type(t, &ty);
        ty
    }

    /// Binds a local declared at `span`.
    fn bind(&mut self, name: Arc<str>, span: Span, ty: Ty) -> hir::Slot {
        let slot = self.next_slot;
        self.next_slot += 1;
        if self.noted.is_some() {
            let def = Def::Local { file: self.file, span, name: name.clone() };
            self.note(span, def, true, Some(&ty));
        }
        self.locals.push((name, slot, ty, span));
        slot
    }

    /// The innermost local named `id`, used here: its slot and its type
    /// (a use keeps no name: the source has it, at the use's span).
    fn local_named(&mut self, id: &ast::Ident) -> Option<(hir::Slot, Ty)> {
        let (_, slot, ty, at) = self.innermost_local(&id.name)?;
        let (slot, ty, at) = (*slot, ty.clone(), *at);
        if self.noted.is_some() {
            let def = Def::Local { file: self.file, span: at, name: id.name.as_str().into() };
            self.note(id.span, def, false, Some(&ty));
        }
        Some((slot, ty))
    }

    /// The innermost binding of `name` (whether a name is a local asks
    /// only this: nothing is copied).
    fn innermost_local(&self, name: &str) -> Option<&(Arc<str>, hir::Slot, Ty, Span)> {
        self.locals.iter().rev().find(|(n, ..)| &**n == name)
    }

    /// Notes what the name at `span` denotes, when the editor asks. (A
    /// caller on a path every check takes asks `noted.is_some()` first, so
    /// a check that keeps no notes builds no `Def`.)
    fn note(&mut self, span: Span, def: Def, is_decl: bool, ty: Option<&Ty>) {
        if let Some(noted) = &mut self.noted {
            noted.push(Occurrence { span, def, is_decl, ty: ty.cloned() });
        }
    }

    /// Notes the names of a type expression, read against the type the
    /// resolver made of it.
    fn note_type(&mut self, t: &ast::TypeExpr, ty: &Ty) {
        if self.noted.is_none() {
            return;
        }
        let ast::TypeExprKind::Named { path, args } = &t.kind else { return };
        match (path.as_slice(), ty) {
            ([one], Ty::Named(g)) => self.note(one.span, Def::Item((**g).clone()), false, None),
            ([m, name], Ty::Named(g)) => {
                self.note(m.span, Def::Module(g.module.clone()), false, None);
                self.note(name.span, Def::Item((**g).clone()), false, None);
            }
            _ => {}
        }
        if let ([arg], Ty::List(inner) | Ty::Option(inner) | Ty::Map(inner)) = (args.as_slice(), ty) {
            self.note_type(arg, inner);
        }
    }

    /// Notes an item's declared names and the types its signature names.
    fn note_declarations(&mut self, kind: &ItemKind) {
        let own = |this: &Self, name: &ast::Ident| GlobalName::of(this.module.clone(), name.name.as_str().into());
        match kind {
            ItemKind::Use(u) => {
                let path: Arc<str> = u.dotted().into();
                self.note(u.path_span(), Def::Module(path.clone()), false, None);
                for id in u.selection.iter().flatten() {
                    let g = GlobalName::of(path.clone(), id.name.as_str().into());
                    self.note(id.span, Def::Item(g), false, None);
                }
            }
            ItemKind::Newtype { name, underlying } => {
                let g = own(self, name);
                self.note(name.span, Def::Item(g.clone()), true, None);
                if let Some(TypeDef::Newtype(u)) = self.type_info(&g).map(|i| &i.def) {
                    self.note_type(underlying, u);
                }
            }
            ItemKind::Record(r) => {
                let g = own(self, &r.name);
                self.note(r.name.span, Def::Item(g.clone()), true, None);
                let defs = match self.type_info(&g).map(|i| &i.def) {
                    Some(TypeDef::Record { fields, .. }) => Some(&fields[..]),
                    _ => None,
                };
                self.note_fields(&r.fields, defs, &g, None);
            }
            ItemKind::Enum { name, variants } => {
                let g = own(self, name);
                self.note(name.span, Def::Item(g.clone()), true, None);
                let defs = match self.type_info(&g).map(|i| &i.def) {
                    Some(TypeDef::Enum { variants }) => &variants[..],
                    _ => &[],
                };
                for v in variants {
                    let vname: Arc<str> = v.name.name.as_str().into();
                    self.note(v.name.span, Def::Variant { owner: g.clone(), name: vname.clone() }, true, None);
                    if let Some(fields) = &v.fields {
                        let decl = defs.iter().find(|d| d.name == vname).and_then(|d| d.fields.as_deref());
                        self.note_fields(fields, decl, &g, Some(vname));
                    }
                }
            }
            ItemKind::Refusal { name, .. } => {
                self.note(name.span, Def::Refusal(name.name.as_str().into()), true, None);
            }
            ItemKind::Fact { name, ty, .. } => {
                let sig = self.sigs.facts.get(name.name.as_str()).map(|f| f.ty.clone());
                self.note(name.span, Def::Item(own(self, name)), true, sig.as_ref());
                if let Some(t) = &sig {
                    self.note_type(ty, t);
                }
            }
            ItemKind::Fn(f) => {
                self.note(f.name.span, Def::Item(own(self, &f.name)), true, None);
                if let Some(sig) = self.sigs.fns.get(f.name.name.as_str()) {
                    for (p, (_, t)) in f.params.iter().zip(&sig.params) {
                        self.note_type(&p.ty, t);
                    }
                    self.note_type(&f.ret, &sig.ret);
                }
            }
            ItemKind::Witness { name, .. } | ItemKind::Frontier { name, .. } => {
                self.note(name.span, Def::Item(own(self, name)), true, None);
            }
            ItemKind::Error => {}
        }
    }

    /// Notes the fields a record or variant declares, and their types.
    fn note_fields(
        &mut self,
        fields: &[ast::FieldDecl],
        defs: Option<&[crate::ty::FieldDef]>,
        owner: &GlobalName,
        variant: Option<Arc<str>>,
    ) {
        for f in fields {
            let name: Arc<str> = f.name.name.as_str().into();
            let def = Def::Field { owner: owner.clone(), variant: variant.clone(), name: name.clone() };
            self.note(f.name.span, def, true, None);
            if let Some(d) = defs.and_then(|ds| ds.iter().find(|d| d.name == name)) {
                self.note_type(&f.ty, &d.ty);
            }
        }
    }

    /// Checks that a refusal code is declared: here, in the standard
    /// library or built in; any other is left to the merge, which knows
    /// every module's (`crate::program::undeclared_code`).
    fn check_code(&mut self, code: &ast::Ident) {
        if self.noted.is_some() {
            self.note(code.span, Def::Refusal(code.name.as_str().into()), false, None);
        }
        let name = code.name.as_str();
        if self.codes.contains(name) || self.own_codes.contains(name) {
            return;
        }
        self.unresolved_codes.push((name.into(), code.span));
    }

    /// The source file of a module of this program.
    fn module_file(&self, module: &str) -> Option<SourceFile> {
        self.program.modules(self.db).get(module).copied()
    }

    fn sigs_of(&self, module: &str) -> Option<&'a ModuleSigs> {
        if module == &*self.module {
            return Some(self.sigs);
        }
        if let Some(sigs) = self.other_sigs.borrow().get(module) {
            return *sigs;
        }
        let sigs = self.module_file(module).map(|file| &**module_sigs(self.db, self.program, file));
        self.other_sigs.borrow_mut().insert(module.into(), sigs);
        sigs
    }

    fn type_info(&self, name: &GlobalName) -> Option<&'a TypeInfo> {
        self.sigs_of(&name.module)?.types.get(&name.name)
    }

    fn fn_sig(&self, name: &GlobalName) -> Option<&'a FnSig> {
        self.sigs_of(&name.module)?.fns.get(&name.name)
    }

    fn fact_sig(&self, name: &GlobalName) -> Option<&'a FactSig> {
        self.sigs_of(&name.module)?.facts.get(&name.name)
    }

    /// The enum definition behind a type, if it is an enum.
    fn enum_of(&self, ty: &Ty) -> Option<(GlobalName, &'a [crate::ty::VariantDef])> {
        let Ty::Named(n) = ty else { return None };
        match &self.type_info(n)?.def {
            TypeDef::Enum { variants } => Some(((**n).clone(), variants.as_slice())),
            _ => None,
        }
    }

    /// The underlying type of a newtype.
    fn newtype_of(&self, ty: &Ty) -> Option<&'a Ty> {
        let Ty::Named(n) = ty else { return None };
        match &self.type_info(n)?.def {
            TypeDef::Newtype(u) => Some(u),
            _ => None,
        }
    }

    /// The module's shared copy of `name`, which is only borrowed: a name
    /// met again (most are) is neither copied nor dropped, each of which
    /// was an atomic update of its two texts' counts.
    fn shared(&mut self, name: &GlobalName) -> Arc<GlobalName> {
        if let Some(shared) = self.names.get(name) {
            return shared.clone();
        }
        let shared = Arc::new(name.clone());
        self.names.insert(name.clone(), shared.clone());
        shared
    }

    fn edge(&mut self, to: Arc<GlobalName>, span: Span) {
        if let Some(from) = &self.current {
            self.edges.push((from.clone(), to, span));
        }
    }
}

/// One module, type-checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CheckedModule {
    pub hir: Arc<hir::Module>,
    /// Calls and fact references, `(from, to, where)`, each pair once.
    /// Shared with the module's summary and the checked program.
    pub edges: crate::ty::Edges,
    /// Refusal codes the module refuses with.
    pub refused: std::collections::BTreeSet<Arc<str>>,
    /// Codes it names that neither it, the standard library nor the
    /// built-ins declare, with where: the merge looks them up among every
    /// module's (`E0212` if none declares them).
    pub unresolved_codes: Vec<(Arc<str>, Span)>,
    pub diagnostics: Vec<Diagnostic>,
}

#[salsa::tracked(returns(ref), lru = 1_000_000_000)] // KEEP_ALL
pub fn check_module(db: &dyn Db, program: Program, file: SourceFile) -> Arc<CheckedModule> {
    Arc::new(check(db, program, file, false).0)
}

/// Every name in `file` the checker resolved, with what it denotes, in
/// source order: what the editor reads. The module is checked again with
/// its notes kept, so a run that only needs the HIR does not keep them.
#[salsa::tracked(returns(ref))]
pub fn occurrences(db: &dyn Db, program: Program, file: SourceFile) -> Arc<[Occurrence]> {
    let (_, mut noted) = check(db, program, file, true);
    noted.sort_by_key(|o| (o.span.start, o.span.end));
    noted.into()
}

/// How many checked modules salsa keeps (`forget.rs`).
pub(crate) fn keep_checked(db: &mut dyn Db, n: usize) {
    check_module::set_lru_capacity(db, n);
}
