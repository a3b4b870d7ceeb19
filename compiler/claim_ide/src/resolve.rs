//! Every name in a module and what it denotes: read off the syntax tree,
//! with the module's scope for globals and the checked program (types of
//! expressions, record and variant literals) for fields and variants.

use claim_sema::hir;
use claim_sema::scope::Scope;
use claim_sema::ty::{GlobalName, Ty, TypeDef};
use claim_sema::{Db, Program, SourceFile};
use claim_syntax::ast::{
    BlockStmt, Expr, ExprKind, FieldDecl, ItemKind, Pattern, PatternKind, TextPart, TypeExpr, TypeExprKind,
    WitnessStmtKind,
};
use claim_syntax::{FileId, Span};
use std::collections::HashMap;
use std::sync::Arc;

/// What a name denotes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Def {
    /// A type, function, fact, witness or frontier.
    Item(GlobalName),
    Refusal(Arc<str>),
    /// A field of a record (`variant: None`) or of an enum's variant.
    Field {
        owner: GlobalName,
        variant: Option<Arc<str>>,
        name: Arc<str>,
    },
    Variant {
        owner: GlobalName,
        name: Arc<str>,
    },
    /// A parameter, `let`, comprehension variable or pattern binding: where
    /// it is bound.
    Local {
        file: FileId,
        span: Span,
        name: Arc<str>,
    },
    Module(Arc<str>),
}

/// One name in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub span: Span,
    pub def: Def,
    /// This is the declaration itself.
    pub is_decl: bool,
    /// The name's type where it is an expression (hover).
    pub ty: Option<Ty>,
}

pub(crate) struct Resolver<'a> {
    db: &'a dyn Db,
    program: Program,
    module: Arc<str>,
    file: FileId,
    scope: &'a Scope,
    sigs: &'a claim_sema::sigs::ModuleSigs,
    /// Checked expressions by span: their types, and what a literal built.
    hir: HashMap<(u32, u32), &'a hir::Expr>,
    locals: Vec<(Arc<str>, Span, Option<Ty>)>,
    pub(crate) out: Vec<Occurrence>,
}

/// Every occurrence of a name in `file`, in source order.
pub fn occurrences(db: &dyn Db, program: Program, file: SourceFile) -> Vec<Occurrence> {
    // Only this module's own queries: an edit elsewhere in the program does
    // not make the editor wait for the whole program's merge.
    let scope = claim_sema::scope::module_scope(db, program, file);
    let sigs = claim_sema::sigs::module_sigs(db, program, file);
    let module: Arc<str> = file.module(db).as_str().into();
    let mut hir_map = HashMap::new();
    let checked = claim_sema::check::check_module(db, program, file);
    crate::each_expr(&checked.hir, &mut |x: &hir::Expr| {
        hir_map.entry((x.span.start, x.span.end)).or_insert(x);
    });
    let mut r = Resolver {
        db,
        program,
        module,
        file: file.file_id(db),
        scope,
        sigs,
        hir: hir_map,
        locals: Vec::new(),
        out: Vec::new(),
    };
    for item in &claim_sema::parse(db, file).module.items {
        r.item(&item.kind);
    }
    r.out.sort_by_key(|o| (o.span.start, o.span.end));
    r.out
}

impl Resolver<'_> {
    fn push(&mut self, span: Span, def: Def, is_decl: bool, ty: Option<Ty>) {
        self.out.push(Occurrence { span, def, is_decl, ty });
    }

    fn own(&self, name: &str) -> GlobalName {
        GlobalName::of(self.module.clone(), name.into())
    }

    fn ty_at(&self, span: Span) -> Option<Ty> {
        self.hir.get(&(span.start, span.end)).map(|e| e.ty.clone())
    }

    fn item(&mut self, kind: &ItemKind) {
        self.locals.clear();
        match kind {
            ItemKind::Use(u) => {
                let path: Arc<str> = u.dotted().into();
                self.push(u.path_span(), Def::Module(path.clone()), false, None);
                for id in u.selection.iter().flatten() {
                    let g = GlobalName::of(path.clone(), id.name.as_str().into());
                    self.push(id.span, Def::Item(g), false, None);
                }
            }
            ItemKind::Newtype { name, underlying } => {
                self.push(name.span, Def::Item(self.own(&name.name)), true, None);
                self.type_expr(underlying);
            }
            ItemKind::Record(r) => {
                let owner = self.own(&r.name.name);
                self.push(r.name.span, Def::Item(owner.clone()), true, None);
                self.field_decls(&r.fields, &owner, None);
            }
            ItemKind::Enum { name, variants } => {
                let owner = self.own(&name.name);
                self.push(name.span, Def::Item(owner.clone()), true, None);
                for v in variants {
                    let vname: Arc<str> = v.name.name.as_str().into();
                    self.push(v.name.span, Def::Variant { owner: owner.clone(), name: vname.clone() }, true, None);
                    if let Some(fields) = &v.fields {
                        self.field_decls(fields, &owner, Some(vname));
                    }
                }
            }
            ItemKind::Refusal { name, .. } => self.push(name.span, Def::Refusal(name.name.as_str().into()), true, None),
            ItemKind::Fact { name, ty, init } => {
                let t = self.sigs.facts.get(name.name.as_str()).map(|f| f.ty.clone());
                self.push(name.span, Def::Item(self.own(&name.name)), true, t);
                self.type_expr(ty);
                self.expr(init);
            }
            ItemKind::Fn(f) => {
                self.push(f.name.span, Def::Item(self.own(&f.name.name)), true, None);
                let sig = self.sigs.fns.get(f.name.name.as_str());
                for (i, p) in f.params.iter().enumerate() {
                    let t = sig.and_then(|s| s.params.get(i)).map(|(_, t)| t.clone());
                    self.bind(&p.name.name, p.name.span, t);
                    self.type_expr(&p.ty);
                }
                self.type_expr(&f.ret);
                if let Some(b) = &f.body {
                    self.expr(b);
                }
            }
            ItemKind::Witness { name, stmts } => {
                self.push(name.span, Def::Item(self.own(&name.name)), true, None);
                for s in stmts {
                    match &s.kind {
                        WitnessStmtKind::Let { name, ty, value } => {
                            self.expr(value);
                            if let Some(t) = ty {
                                self.type_expr(t);
                            }
                            let t = self.ty_at(value.span);
                            self.bind(&name.name, name.span, t);
                        }
                        WitnessStmtKind::Holds(e) => self.expr(e),
                        WitnessStmtKind::Refuses { expr, code } => {
                            self.expr(expr);
                            self.push(code.span, Def::Refusal(code.name.as_str().into()), false, None);
                        }
                    }
                }
            }
            ItemKind::Frontier { name, text, condition } => {
                self.push(name.span, Def::Item(self.own(&name.name)), true, None);
                self.expr(text);
                if let Some(c) = condition {
                    self.expr(c);
                }
            }
            ItemKind::Error => {}
        }
    }

    fn field_decls(&mut self, fields: &[FieldDecl], owner: &GlobalName, variant: Option<Arc<str>>) {
        for f in fields {
            let def = Def::Field { owner: owner.clone(), variant: variant.clone(), name: f.name.name.as_str().into() };
            self.push(f.name.span, def, true, None);
            self.type_expr(&f.ty);
        }
    }

    fn bind(&mut self, name: &str, span: Span, ty: Option<Ty>) {
        let def = Def::Local { file: self.file, span, name: name.into() };
        self.push(span, def, true, ty.clone());
        self.locals.push((name.into(), span, ty));
    }

    /// A type path: a declared type in scope, `module.Type`, or a primitive.
    fn type_expr(&mut self, t: &TypeExpr) {
        let TypeExprKind::Named { path, args } = &t.kind else { return };
        match path.as_slice() {
            [one] => {
                if let Some(n) = self.scope.names.get(one.name.as_str()) {
                    self.push(one.span, Def::Item(n.target.clone()), false, None);
                }
            }
            [m, name] => {
                if let Some((full, _)) = self.scope.modules.get(m.name.as_str()) {
                    self.push(m.span, Def::Module(full.clone()), false, None);
                    let g = GlobalName::of(full.clone(), name.name.as_str().into());
                    self.push(name.span, Def::Item(g), false, None);
                }
            }
            _ => {}
        }
        for a in args {
            self.type_expr(a);
        }
    }

    fn expr(&mut self, e: &Expr) {
        let mark = self.locals.len();
        self.expr_inner(e);
        self.locals.truncate(mark);
    }

    fn expr_inner(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(_)
            | ExprKind::Duration(_)
            | ExprKind::Bool(_)
            | ExprKind::Digest(..)
            | ExprKind::None
            | ExprKind::Error => {}
            ExprKind::Text(parts) => {
                for p in parts {
                    if let TextPart::Interp(x) = p {
                        self.expr(x);
                    }
                }
            }
            ExprKind::Name(id) => self.name(id, e.span),
            ExprKind::Field(base, f) => self.field(e, base, f),
            ExprKind::Call(callee, args) => {
                self.expr(callee);
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::Record { path, fields } => {
                let built = self.hir.get(&(e.span.start, e.span.end)).map(|x| &x.kind);
                let (owner, variant) = match built {
                    Some(hir::ExprKind::Record(r)) => (Some((*r.ty).clone()), None),
                    Some(hir::ExprKind::Variant(v)) => (Some((*v.ty).clone()), Some(v.name.clone())),
                    _ => (None, None),
                };
                if let Some(owner) = &owner {
                    if let Some(last) = path.last() {
                        let def = match &variant {
                            Some(v) => Def::Variant { owner: owner.clone(), name: v.clone() },
                            None => Def::Item(owner.clone()),
                        };
                        self.push(last.span, def, false, None);
                    }
                    if path.len() == 2 && variant.is_some() {
                        self.push(path[0].span, Def::Item(owner.clone()), false, None);
                    }
                }
                for f in fields {
                    let fty = f.value.as_ref().and_then(|v| self.ty_at(v.span));
                    if let Some(owner) = &owner {
                        let def = Def::Field {
                            owner: owner.clone(),
                            variant: variant.clone(),
                            name: f.name.name.as_str().into(),
                        };
                        self.push(f.name.span, def, false, fty);
                    }
                    match &f.value {
                        Some(v) => self.expr(v),
                        // `R { name }` also reads the local or fact `name`.
                        None => self.name(&f.name, f.name.span),
                    }
                }
            }
            ExprKind::List(xs) => {
                for x in xs {
                    self.expr(x);
                }
            }
            ExprKind::Comprehension(c) => {
                let claim_syntax::ast::Comprehension { elem, var, iter, cond } = &**c;
                self.expr(iter);
                let mark = self.locals.len();
                let elem_ty = match self.ty_at(iter.span) {
                    Some(Ty::List(t)) => Some((*t).clone()),
                    _ => None,
                };
                self.bind(&var.name, var.span, elem_ty);
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.expr(elem);
                self.locals.truncate(mark);
            }
            ExprKind::Binary(_, l, r) => {
                self.expr(l);
                self.expr(r);
            }
            ExprKind::Not(x) | ExprKind::Some(x) => self.expr(x),
            ExprKind::Is(x, p) => {
                self.expr(x);
                let t = self.ty_at(x.span);
                self.pattern(p, t.as_ref());
            }
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Match(s, arms) => {
                self.expr(s);
                let t = self.ty_at(s.span);
                for arm in arms {
                    let mark = self.locals.len();
                    self.pattern(&arm.pattern, t.as_ref());
                    self.expr(&arm.body);
                    self.locals.truncate(mark);
                }
            }
            ExprKind::Block(stmts, result) => {
                let mark = self.locals.len();
                for s in stmts {
                    match s {
                        BlockStmt::Let { name, ty, value, .. } => {
                            self.expr(value);
                            if let Some(t) = ty {
                                self.type_expr(t);
                            }
                            let t = self.ty_at(value.span);
                            self.bind(&name.name, name.span, t);
                        }
                        BlockStmt::Require { cond, code, message, .. } => {
                            self.expr(cond);
                            self.push(code.span, Def::Refusal(code.name.as_str().into()), false, None);
                            self.expr(message);
                        }
                    }
                }
                self.expr(result);
                self.locals.truncate(mark);
            }
            ExprKind::Refuse { code, message } => {
                self.push(code.span, Def::Refusal(code.name.as_str().into()), false, None);
                self.expr(message);
            }
        }
    }

    /// A bare name: a local, else what the module's scope says.
    fn name(&mut self, id: &claim_syntax::ast::Ident, span: Span) {
        if let Some((_, at, t)) = self.locals.iter().rev().find(|(n, ..)| **n == id.name) {
            let def = Def::Local { file: self.file, span: *at, name: id.name.as_str().into() };
            let t = t.clone();
            self.push(id.span, def, false, t);
            return;
        }
        let ty = self.ty_at(span);
        if let Some(n) = self.scope.names.get(id.name.as_str()) {
            self.push(id.span, Def::Item(n.target.clone()), false, ty);
        } else if let Some((full, _)) = self.scope.modules.get(id.name.as_str()) {
            self.push(id.span, Def::Module(full.clone()), false, None);
        } else if let Some(hir::ExprKind::Variant(v)) = self.hir.get(&(span.start, span.end)).map(|x| &x.kind) {
            self.push(id.span, Def::Variant { owner: (*v.ty).clone(), name: v.name.clone() }, false, ty);
        }
    }

    /// `base.f`: a field, `module.item`, or `Enum.Variant`.
    fn field(&mut self, e: &Expr, base: &Expr, f: &claim_syntax::ast::Ident) {
        if let ExprKind::Name(b) = &base.kind {
            let is_local = self.locals.iter().any(|(n, ..)| **n == b.name);
            if !is_local {
                if let Some((full, _)) = self.scope.modules.get(b.name.as_str()) {
                    let full = full.clone();
                    self.push(b.span, Def::Module(full.clone()), false, None);
                    let g = GlobalName::of(full, f.name.as_str().into());
                    self.push(f.span, Def::Item(g), false, self.ty_at(e.span));
                    return;
                }
                if let Some(n) = self.scope.names.get(b.name.as_str()) {
                    let info = crate::type_info(self.db, self.program, &n.target);
                    if matches!(info.map(|t| t.def), Some(TypeDef::Enum { .. })) {
                        let owner = n.target.clone();
                        self.push(b.span, Def::Item(owner.clone()), false, None);
                        let def = Def::Variant { owner, name: f.name.as_str().into() };
                        self.push(f.span, def, false, self.ty_at(e.span));
                        return;
                    }
                }
            }
        }
        self.expr(base);
        if let Some(Ty::Named(owner)) = self.ty_at(base.span) {
            let def = Def::Field { owner: (*owner).clone(), variant: None, name: f.name.as_str().into() };
            self.push(f.span, def, false, self.ty_at(e.span));
        }
    }

    fn pattern(&mut self, p: &Pattern, ty: Option<&Ty>) {
        let enum_of = |t: Option<&Ty>| match t {
            Some(Ty::Named(g)) => Some((**g).clone()),
            _ => None,
        };
        match &p.kind {
            PatternKind::Name(id) => {
                if let Some(owner) = enum_of(ty) {
                    if self.variant(&owner, &id.name).is_some() {
                        self.push(id.span, Def::Variant { owner, name: id.name.as_str().into() }, false, None);
                        return;
                    }
                }
                self.bind(&id.name, id.span, ty.cloned());
            }
            PatternKind::Some(inner) => {
                let t = match ty {
                    Some(Ty::Option(t)) => Some((**t).clone()),
                    _ => None,
                };
                self.pattern(inner, t.as_ref());
            }
            PatternKind::List { elems, .. } => {
                let t = match ty {
                    Some(Ty::List(t)) => Some((**t).clone()),
                    _ => None,
                };
                for x in elems {
                    self.pattern(x, t.as_ref());
                }
            }
            PatternKind::Variant { path, fields } => {
                let owner = match path.as_slice() {
                    [e, _] => self.scope.names.get(e.name.as_str()).map(|n| n.target.clone()),
                    _ => enum_of(ty),
                };
                let Some(owner) = owner else { return };
                let Some(last) = path.last() else { return };
                if path.len() == 2 {
                    self.push(path[0].span, Def::Item(owner.clone()), false, None);
                }
                let vname: Arc<str> = last.name.as_str().into();
                self.push(last.span, Def::Variant { owner: owner.clone(), name: vname.clone() }, false, None);
                let defs = self.variant(&owner, &vname).and_then(|v| v.fields.clone()).unwrap_or_default();
                for fp in fields.iter().flat_map(|(fs, _)| fs) {
                    let fty = defs.iter().find(|d| *d.name == fp.name.name).map(|d| d.ty.clone());
                    let def = Def::Field {
                        owner: owner.clone(),
                        variant: Some(vname.clone()),
                        name: fp.name.name.as_str().into(),
                    };
                    self.push(fp.name.span, def, false, fty.clone());
                    match &fp.pattern {
                        Some(x) => self.pattern(x, fty.as_ref()),
                        None => self.bind(&fp.name.name, fp.name.span, fty),
                    }
                }
            }
            _ => {}
        }
    }

    fn variant(&self, owner: &GlobalName, name: &str) -> Option<claim_sema::ty::VariantDef> {
        match crate::type_info(self.db, self.program, owner)?.def {
            TypeDef::Enum { variants } => variants.into_iter().find(|v| &*v.name == name),
            _ => None,
        }
    }
}
