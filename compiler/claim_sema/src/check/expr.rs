//! Expressions: bidirectional checking. `expected` flows down from
//! declarations, parameters, fields, the other operand of `==` and the other
//! branches, which is how `[]`, `None`, bare variants and digest literals get
//! their types (§4 "Types flow both ways").

use super::Checker;
use crate::hir::{self, ExprKind as H, Lit, OpKind};
use crate::index::ItemTag;
use crate::resolved::Def;
use crate::ty::{GlobalName, Ty, TypeDef};
use claim_diagnostics::{did_you_mean, Diagnostic};
use claim_syntax::ast::{self, BinOp, ExprKind as A};
use claim_syntax::digest::DigestKind;
use claim_syntax::Span;
use std::sync::Arc;

pub(super) fn compatible(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        (Ty::Error | Ty::Never, _) | (_, Ty::Error | Ty::Never) => true,
        (Ty::List(x), Ty::List(y)) | (Ty::Option(x), Ty::Option(y)) | (Ty::Map(x), Ty::Map(y)) => compatible(x, y),
        _ => a == b,
    }
}

/// How far an expression settles its own type ([`Checker::typing`]),
/// weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Typing {
    /// Only from its context: `[]`, `None`, `refuse`, a bare variant.
    Needs,
    /// Its own unless the context says otherwise: a digest literal is its
    /// digest type, or a newtype over it where one is expected.
    Defaults,
    /// Its own, whatever the context.
    Own,
}

pub(super) fn mk(kind: H, span: Span, ty: Ty) -> hir::Expr {
    hir::Expr { kind, span, ty }
}

/// The dotted names of `a.b.c` when it is only names.
pub(super) fn path_segments(e: &ast::Expr) -> Option<Vec<&ast::Ident>> {
    match &e.kind {
        A::Name(id) => Some(vec![id]),
        A::Field(base, f) => {
            let mut v = path_segments(base)?;
            v.push(f);
            Some(v)
        }
        _ => None,
    }
}

/// The name `a.b.c` starts from when it is only names (`a`).
fn path_root(mut e: &ast::Expr) -> Option<&ast::Ident> {
    loop {
        match &e.kind {
            A::Name(id) => return Some(id),
            A::Field(base, _) => e = base,
            _ => return None,
        }
    }
}

/// A digest literal's bytes (the lexer has checked its hex: lowercase, of
/// the digest's length).
pub(super) fn decode_hex(hex: &str) -> Arc<[u8]> {
    claim_syntax::hex::parse_digest_bytes(hex, hex.len() / 2).unwrap_or_else(|| Arc::from(&[][..]))
}

impl<'a> Checker<'a> {
    pub(crate) fn expr(&mut self, e: &ast::Expr, expected: Option<&Ty>) -> hir::Expr {
        let h = self.expr_inner(e, expected);
        match expected {
            Some(exp) => self.expect(h, exp),
            None => h,
        }
    }

    /// Reports a mismatch; the result has the expected type so that the
    /// error is reported once.
    pub(super) fn expect(&mut self, mut h: hir::Expr, exp: &Ty) -> hir::Expr {
        if compatible(&h.ty, exp) {
            if h.ty == Ty::Never {
                h.ty = exp.clone();
            }
            return h;
        }
        let mut d = Diagnostic::error("E0203", "mismatched types").at(
            self.file,
            h.span,
            format!("expected `{exp}`, found `{}`", h.ty),
        );
        let (under_exp, under_found) = (self.newtype_of(exp), self.newtype_of(&h.ty));
        if let (Some(u1), Some(u2)) = (under_exp, under_found) {
            if u1 == u2 {
                d = d.with_note(format!(
                    "`{}` and `{exp}` are distinct newtypes over `{u1}`: a value of one is never the other",
                    h.ty
                ));
            }
        } else if under_exp == Some(&h.ty) {
            d = d.with_help(format!(
                "only a digest literal converts implicitly; convert a computed value explicitly: `{exp}(…)`"
            ));
        } else if under_found == Some(exp) {
            d = d.with_help(format!("use `raw(…)` to get the `{exp}` inside {}", crate::ty::a(&h.ty)));
        }
        if let Ty::Named(n) = exp {
            if let Some(info) = self.type_info(n) {
                d = d.with_secondary(info.loc, format!("`{exp}` is declared here"));
            }
        }
        self.error(d);
        h.ty = exp.clone();
        h
    }

    /// How far an expression settles its own type. Siblings that give
    /// each other a type (list elements, `if` and `match` branches, the
    /// operands of `==`, `!=` and `++`) are checked strongest first, and
    /// the first type found is expected of the rest: so `[]` and `None`
    /// take a type from a digest literal beside them, a digest literal
    /// takes a newtype from a typed sibling, and a list of branches that
    /// all hold digest literals still has its digest type.
    pub(super) fn typing(&self, e: &ast::Expr) -> Typing {
        match &e.kind {
            A::List(v) => v.iter().map(|x| self.typing(x)).max().unwrap_or(Typing::Needs),
            A::None | A::Refuse { .. } => Typing::Needs,
            A::Digest(..) => Typing::Defaults,
            A::Some(x) | A::Block(_, x) => self.typing(x),
            A::Name(id) => {
                if self.innermost_local(&id.name).is_none() && !self.scope.names.contains_key(id.name.as_str()) {
                    Typing::Needs
                } else {
                    Typing::Own
                }
            }
            A::Record { path, .. } if path.len() == 1 && !self.scope.names.contains_key(path[0].name.as_str()) => {
                Typing::Needs
            }
            A::If(_, a, b) | A::Binary(BinOp::Concat, a, b) => self.typing(a).max(self.typing(b)),
            A::Comprehension(c) => self.typing(&c.elem),
            A::Match(_, arms) => arms.iter().map(|a| self.typing(&a.body)).max().unwrap_or(Typing::Needs),
            _ => Typing::Own,
        }
    }

    /// Checks siblings that share one type (list elements, branches),
    /// strongest [`Typing`] first (the first written among equals): the
    /// first type found, or `expected`, is expected of every other. Each
    /// is checked by `check(self, index, expected)`; the results are in
    /// the siblings' order, with the type they share (`None` where every
    /// one refuses or none could be typed).
    pub(super) fn siblings(
        &mut self,
        exprs: &[&ast::Expr],
        expected: Option<&Ty>,
        mut check: impl FnMut(&mut Self, usize, Option<&Ty>) -> hir::Expr,
    ) -> (Vec<hir::Expr>, Option<Ty>) {
        let mut order: Vec<usize> = (0..exprs.len()).collect();
        if expected.is_none() && exprs.len() > 1 {
            // Stable: the first written leads among equals. Each typing is
            // asked once (it walks the sibling's literal).
            order.sort_by_cached_key(|i| std::cmp::Reverse(self.typing(exprs[*i])));
        }
        let mut shared: Option<Ty> = expected.cloned();
        let mut out: Vec<Option<hir::Expr>> = vec![None; exprs.len()];
        for i in order {
            let h = check(self, i, shared.as_ref().filter(|t| **t != Ty::Never));
            if shared.as_ref().is_none_or(|t| *t == Ty::Never) {
                shared = Some(h.ty.clone());
            }
            out[i] = Some(h);
        }
        (out.into_iter().flatten().collect(), shared)
    }

    fn expr_inner(&mut self, e: &ast::Expr, expected: Option<&Ty>) -> hir::Expr {
        let span = e.span;
        match &e.kind {
            A::Int(n) => mk(H::Lit(Lit::Int(*n)), span, Ty::Int),
            A::Duration(n) => mk(H::Lit(Lit::Duration(*n)), span, Ty::Duration),
            A::Bool(b) => mk(H::Lit(Lit::Bool(*b)), span, Ty::Bool),
            A::Digest(kind, hex) => {
                let base = match kind {
                    DigestKind::Sha256 => Ty::Sha256,
                    DigestKind::Sha1 => Ty::Sha1,
                    DigestKind::Sha512 => Ty::Sha512,
                };
                // The one implicit conversion: a digest literal into a newtype
                // over its digest type, where that newtype is expected.
                let ty = match expected {
                    Some(exp) if self.newtype_of(exp) == Some(&base) => exp.clone(),
                    _ => base,
                };
                mk(H::Lit(Lit::Digest(*kind, decode_hex(hex))), span, ty)
            }
            A::Text(parts) => {
                let parts = parts
                    .iter()
                    .map(|p| match p {
                        ast::TextPart::Lit(s) => hir::TextPart::Lit(s.as_str().into()),
                        ast::TextPart::Interp(x) => hir::TextPart::Expr(self.expr(x, None)),
                    })
                    .collect::<Vec<_>>();
                match parts.as_slice() {
                    [] => mk(H::Lit(Lit::Text("".into())), span, Ty::Text),
                    [hir::TextPart::Lit(s)] => mk(H::Lit(Lit::Text(s.clone())), span, Ty::Text),
                    _ => mk(H::Text(parts.into()), span, Ty::Text),
                }
            }
            A::Name(id) => self.name(id, expected),
            A::Field(base, field) => {
                // Only a path from a module or a type is qualified; most
                // field reads start from a local or a fact, and are not
                // collected into a path (at every level of the chain) first.
                if path_root(e).is_some_and(|root| self.may_qualify(root)) {
                    if let Some(h) = path_segments(e).and_then(|segs| self.qualified_path(&segs, expected)) {
                        return h;
                    }
                }
                let base = self.expr(base, None);
                self.field_access(base, field)
            }
            A::Call(callee, args) => self.call(e, callee, args, expected),
            A::Record { path, fields } => self.record_literal(span, path, fields, expected),
            A::List(elems) => self.list(span, elems, expected),
            A::Comprehension(c) => {
                let claim_syntax::ast::Comprehension { elem, var, iter, cond } = &**c;
                let iter = self.expr(iter, None);
                let item_ty = match &iter.ty {
                    Ty::List(t) => (**t).clone(),
                    t if t.is_lenient() => Ty::Error,
                    t => {
                        self.error(Diagnostic::error("E0203", "a comprehension needs a list").at(
                            self.file,
                            iter.span,
                            format!("this is {}, not a list", crate::ty::a(&t)),
                        ));
                        Ty::Error
                    }
                };
                let mark = self.locals.len();
                let slot = self.bind(var.name.as_str().into(), var.span, item_ty);
                let cond = cond.as_ref().map(|c| Box::new(self.expr(c, Some(&Ty::Bool))));
                let elem_expected = match expected {
                    Some(Ty::List(t)) => Some((**t).clone()),
                    _ => None,
                };
                let elem = self.expr(elem, elem_expected.as_ref());
                self.locals.truncate(mark);
                let ty = Ty::list(elem.ty.clone());
                mk(H::Comprehension { elem: Box::new(elem), slot, iter: Box::new(iter), cond }, span, ty)
            }
            A::Binary(op, l, r) => self.binary(span, *op, l, r),
            A::Not(x) => {
                let x = self.expr(x, Some(&Ty::Bool));
                mk(H::Not(Box::new(x)), span, Ty::Bool)
            }
            A::Is(x, pat) => {
                let x = self.expr(x, None);
                let mark = self.locals.len();
                let p = self.pattern(pat, &x.ty, false);
                self.locals.truncate(mark);
                mk(H::Is(Box::new(x), Box::new(p)), span, Ty::Bool)
            }
            A::If(c, a, b) => {
                let c = self.expr(c, Some(&Ty::Bool));
                let (branches, shared) = self.siblings(&[a, b], expected, |this, i, t| this.expr([a, b][i], t));
                // Two in, two out: `siblings` gives one result for each.
                let Ok([a, b]) = <[hir::Expr; 2]>::try_from(branches) else {
                    return mk(H::Error, span, Ty::Error);
                };
                let ty = shared.unwrap_or(Ty::Never);
                mk(H::If(Box::new(c), Box::new(a), Box::new(b)), span, ty)
            }
            A::Match(scrutinee, arms) => self.match_expr(span, scrutinee, arms, expected),
            A::Block(stmts, result) => {
                let mark = self.locals.len();
                let stmts: Box<[_]> = stmts
                    .iter()
                    .map(|s| match s {
                        ast::BlockStmt::Let { name, ty, value, .. } => {
                            let (slot, value) = self.let_binding(name, ty.as_ref(), value);
                            hir::Stmt::Let { slot, value }
                        }
                        ast::BlockStmt::Require { cond, code, message, span } => {
                            let cond = self.expr(cond, Some(&Ty::Bool));
                            self.check_code(code);
                            let message = self.expr(message, Some(&Ty::Text));
                            self.refused.insert(code.name.as_str().into());
                            hir::Stmt::Require { cond, code: code.name.as_str().into(), message, span: *span }
                        }
                    })
                    .collect();
                let result = self.expr(result, expected);
                self.locals.truncate(mark);
                let ty = result.ty.clone();
                mk(H::Block(stmts, Box::new(result)), span, ty)
            }
            A::Refuse { code, message } => {
                self.check_code(code);
                self.refused.insert(code.name.as_str().into());
                let message = self.expr(message, Some(&Ty::Text));
                mk(
                    H::Refuse { code: code.name.as_str().into(), message: Box::new(message) },
                    span,
                    expected.cloned().unwrap_or(Ty::Never),
                )
            }
            A::Some(x) => {
                let inner = match expected {
                    Some(Ty::Option(t)) => Some((**t).clone()),
                    _ => None,
                };
                let x = self.expr(x, inner.as_ref());
                let ty = Ty::option(x.ty.clone());
                mk(H::Some(Box::new(x)), span, ty)
            }
            A::None => match expected {
                Some(t @ Ty::Option(_)) => mk(H::None, span, t.clone()),
                Some(t) if t.is_lenient() => mk(H::None, span, Ty::Error),
                Some(t) => {
                    self.error(Diagnostic::error("E0203", "mismatched types").at(
                        self.file,
                        span,
                        format!("expected `{t}`, found an `Option`"),
                    ));
                    mk(H::None, span, Ty::Error)
                }
                None => {
                    self.error(
                        Diagnostic::error("E0208", "cannot tell the type of `None`")
                            .at(self.file, span, "type annotation needed")
                            .with_help("give the binding a type, e.g. `let x: Option<Text> = None`"),
                    );
                    mk(H::None, span, Ty::Error)
                }
            },
            A::Error => mk(H::Error, span, Ty::Error),
        }
    }

    pub(super) fn name(&mut self, id: &ast::Ident, expected: Option<&Ty>) -> hir::Expr {
        let span = id.span;
        if let Some((slot, ty)) = self.local_named(id) {
            return mk(H::Local(slot), span, ty);
        }
        let scope = self.scope;
        if let Some(n) = scope.names.get(id.name.as_str()) {
            if self.noted.is_some() {
                let ty = (n.tag == ItemTag::Fact).then(|| self.fact_sig(&n.target).map(|s| s.ty.clone())).flatten();
                self.note(span, Def::Item(n.target.clone()), false, ty.as_ref());
            }
            return match n.tag {
                ItemTag::Fact => self.fact_ref(&n.target, span),
                ItemTag::Fn => {
                    self.error(
                        Diagnostic::error("E0210", format!("function `{}` is not a value", id.name))
                            .at(self.file, span, "a function")
                            .with_help(format!("call it: `{}(…)`", id.name)),
                    );
                    mk(H::Error, span, Ty::Error)
                }
                ItemTag::Type => {
                    self.error(Diagnostic::error("E0201", format!("type `{}` is not a value", id.name)).at(
                        self.file,
                        span,
                        "a type, used as a value",
                    ));
                    mk(H::Error, span, Ty::Error)
                }
            };
        }
        if let Some(exp) = expected {
            if let Some((enum_name, variants)) = self.enum_of(exp) {
                if let Some((i, v)) = variants.iter().enumerate().find(|(_, v)| *v.name == *id.name) {
                    if self.noted.is_some() {
                        let def = Def::Variant { owner: enum_name.clone(), name: v.name.clone() };
                        self.note(span, def, false, Some(exp));
                    }
                    if v.fields.is_some() {
                        self.error(
                            Diagnostic::error("E0204", format!("variant `{}` carries fields", id.name))
                                .at(self.file, span, "fields missing")
                                .with_help(format!("write `{} {{ … }}` with every field", id.name)),
                        );
                    }
                    return mk(
                        H::Variant(Box::new(hir::VariantExpr {
                            ty: Arc::new(enum_name),
                            index: i as u32,
                            name: v.name.clone(),
                            names: None,
                            fields: Box::new([]),
                        })),
                        span,
                        exp.clone(),
                    );
                }
            }
        }
        if let (Some((module, _)), true) = (scope.modules.get(id.name.as_str()), self.noted.is_some()) {
            self.note(span, Def::Module(module.clone()), false, None);
        }
        self.unknown_name(id, expected);
        mk(H::Error, span, Ty::Error)
    }

    pub(super) fn fact_ref(&mut self, target: &GlobalName, span: Span) -> hir::Expr {
        let ty = self.fact_sig(target).map(|s| s.ty.clone()).unwrap_or(Ty::Error);
        let target = self.shared(target);
        self.edge(target.clone(), span);
        mk(H::Fact(target), span, ty)
    }

    fn unknown_name(&mut self, id: &ast::Ident, expected: Option<&Ty>) {
        if self.scope.is_unresolved(&id.name) {
            return;
        }
        let mut candidates: Vec<String> = self.locals.iter().map(|(n, ..)| n.to_string()).collect();
        candidates.extend(self.scope.sorted_names().into_iter().map(|(k, _)| k.to_string()));
        if let Some((_, vs)) = expected.and_then(|t| self.enum_of(t)) {
            candidates.extend(vs.iter().map(|v| v.name.to_string()));
        }
        let mut d = Diagnostic::error("E0201", format!("unknown name `{}`", id.name)).at(
            self.file,
            id.span,
            "not found in this scope",
        );
        // A fact of another module, not imported, is the likelier intent
        // than a near name here (as for functions and types).
        let imported =
            crate::scope::with_import_help(self.db, self.program, self.file, &id.name, ItemTag::Fact, &mut d);
        if imported {
            // The help names the module that declares it.
        } else if let Some(close) = did_you_mean(&id.name, candidates.iter().map(String::as_str)) {
            d = d.with_suggestion(close);
        } else if let Some(owner) = self.enum_with_variant(&id.name) {
            d = d.with_help(format!(
                "`{}` is a variant of `{owner}`; where the type is not known, qualify it: `{owner}.{}`",
                id.name, id.name
            ));
        } else if self.program.modules(self.db).keys().any(|m| m.rsplit('.').next() == Some(id.name.as_str())) {
            d = d.with_help("`use` is not transitive: import what this module names in this module itself");
        }
        self.error(d);
    }

    pub(super) fn enum_with_variant(&self, variant: &str) -> Option<String> {
        self.scope.sorted_names().into_iter().filter(|(_, n)| n.tag == ItemTag::Type).find_map(|(k, n)| {
            let (_, vs) = self.enum_of(&Ty::named(n.target.clone()))?;
            vs.iter().any(|v| &*v.name == variant).then(|| k.to_string())
        })
    }

    /// Whether a path from `root` may name an item of another module or
    /// a variant of a type: what [`Self::qualified_path`] looks for.
    fn may_qualify(&self, root: &ast::Ident) -> bool {
        let name = root.name.as_str();
        !self.locals.iter().any(|(n, ..)| &**n == name)
            && (self.scope.modules.contains_key(name)
                || self.scope.names.get(name).is_some_and(|n| n.tag == ItemTag::Type))
    }

    /// `module.item`, `Enum.Variant`, `module.Enum.Variant`, followed by any
    /// field accesses. `None` where the first name is an ordinary value.
    fn qualified_path(&mut self, segs: &[&ast::Ident], expected: Option<&Ty>) -> Option<hir::Expr> {
        let first = segs[0];
        if self.innermost_local(&first.name).is_some() {
            return None;
        }
        let (head, used) = if let Some((module, _)) = self.scope.modules.get(first.name.as_str()).cloned() {
            let item = segs[1];
            let span = first.span.join(item.span);
            let file = self.module_file(&module)?;
            let entry = crate::db::item_index(self.db, file).entries.get(item.name.as_str()).cloned();
            let target = GlobalName::new(&module, &item.name);
            if self.noted.is_some() {
                self.note(first.span, Def::Module(module.clone()), false, None);
                if let Some(e) = &entry {
                    let ty = (e.tag == ItemTag::Fact).then(|| self.fact_sig(&target).map(|s| s.ty.clone())).flatten();
                    self.note(item.span, Def::Item(target.clone()), false, ty.as_ref());
                }
            }
            match entry.map(|e| e.tag) {
                Some(ItemTag::Fact) => (self.fact_ref(&target, span), 2),
                Some(ItemTag::Type) if segs.len() >= 3 => {
                    (self.unit_variant(&Ty::named(target), segs[2], span.join(segs[2].span))?, 3)
                }
                Some(tag) => {
                    self.error(
                        Diagnostic::error(
                            "E0210",
                            format!("`{}.{}` is a {}, not a value", first.name, item.name, tag.describe()),
                        )
                        .at(self.file, span, "not a value"),
                    );
                    (mk(H::Error, span, Ty::Error), 2)
                }
                None => {
                    let names = crate::db::item_index(self.db, file).entries.keys().map(|k| &**k).collect::<Vec<_>>();
                    let mut d = Diagnostic::error(
                        "E0201",
                        format!("module `{module}` has no item named `{}`", item.name),
                    )
                    .at(self.file, item.span, "not declared there");
                    if let Some(close) = did_you_mean(&item.name, names) {
                        d = d.with_suggestion(close);
                    }
                    self.error(d);
                    (mk(H::Error, span, Ty::Error), 2)
                }
            }
        } else if let Some(n) = self.scope.names.get(first.name.as_str()).filter(|n| n.tag == ItemTag::Type) {
            let ty = Ty::named(n.target.clone());
            self.enum_of(&ty)?;
            if self.noted.is_some() {
                self.note(first.span, Def::Item(n.target.clone()), false, None);
            }
            let span = first.span.join(segs[1].span);
            (self.unit_variant(&ty, segs[1], span)?, 2)
        } else {
            return None;
        };
        let _ = expected;
        let mut h = head;
        for f in &segs[used..] {
            h = self.field_access(h, f);
        }
        Some(h)
    }

    /// `Enum.Variant` as a value.
    fn unit_variant(&mut self, ty: &Ty, v: &ast::Ident, span: Span) -> Option<hir::Expr> {
        let (enum_name, variants) = self.enum_of(ty)?;
        match variants.iter().enumerate().find(|(_, d)| *d.name == *v.name) {
            Some((i, d)) => {
                if self.noted.is_some() {
                    let def = Def::Variant { owner: enum_name.clone(), name: d.name.clone() };
                    self.note(v.span, def, false, Some(ty));
                }
                if d.fields.is_some() {
                    self.error(
                        Diagnostic::error("E0204", format!("variant `{}` carries fields", v.name))
                            .at(self.file, span, "fields missing")
                            .with_help(format!("write `{}.{} {{ … }}` with every field", enum_name.name, v.name)),
                    );
                }
                Some(mk(
                    H::Variant(Box::new(hir::VariantExpr {
                        ty: Arc::new(enum_name),
                        index: i as u32,
                        name: d.name.clone(),
                        names: None,
                        fields: Box::new([]),
                    })),
                    span,
                    ty.clone(),
                ))
            }
            None => {
                let mut d = Diagnostic::error("E0218", format!("`{}` has no variant `{}`", enum_name.name, v.name)).at(
                    self.file,
                    v.span,
                    "no such variant",
                );
                if let Some(close) = did_you_mean(&v.name, variants.iter().map(|v| &*v.name)) {
                    d = d.with_suggestion(close);
                }
                self.error(d);
                Some(mk(H::Error, span, Ty::Error))
            }
        }
    }

    pub(super) fn field_access(&mut self, base: hir::Expr, field: &ast::Ident) -> hir::Expr {
        let span = base.span.join(field.span);
        if base.ty.is_lenient() {
            return mk(H::Error, span, Ty::Error);
        }
        if let Ty::Named(n) = &base.ty {
            if let Some(info) = self.type_info(n) {
                if let TypeDef::Record { fields, .. } = &info.def {
                    if let Some((i, f)) = fields.iter().enumerate().find(|(_, f)| *f.name == *field.name) {
                        let ty = f.ty.clone();
                        if self.noted.is_some() {
                            let def = Def::Field { owner: (**n).clone(), variant: None, name: f.name.clone() };
                            self.note(field.span, def, false, Some(&ty));
                        }
                        return mk(H::Field(Box::new(base), i as u32, f.name.clone()), span, ty);
                    }
                    let mut d =
                        Diagnostic::error("E0205", format!("record `{}` has no field `{}`", n.name, field.name))
                            .at(self.file, field.span, "unknown field")
                            .with_secondary(info.loc, format!("`{}` is declared here", n.name));
                    if let Some(close) = did_you_mean(&field.name, fields.iter().map(|f| &*f.name)) {
                        d = d.with_suggestion(close);
                    }
                    self.error(d);
                    return mk(H::Error, span, Ty::Error);
                }
            }
        }
        let mut d = Diagnostic::error("E0205", format!("`{}` has no fields", base.ty)).at(
            self.file,
            field.span,
            format!("`.{}` on `{}`", field.name, base.ty),
        );
        // An enum's variants may carry the field: a `match` reads it.
        if let Some((_, variants)) = self.enum_of(&base.ty) {
            if let Some(v) = variants.iter().find(|v| v.fields.iter().flatten().any(|f| *f.name == *field.name)) {
                d = d.with_secondary(v.loc, format!("the variant `{}` has a field `{}`", v.name, field.name)).with_help(
                    format!(
                        "an enum's fields are read by matching on its variant: `match … {{ {} {{ {}, .. }} => {}, _ => … }}`",
                        v.name, field.name, field.name
                    ),
                );
            }
        }
        self.error(d);
        mk(H::Error, span, Ty::Error)
    }

    fn list(&mut self, span: Span, elems: &[ast::Expr], expected: Option<&Ty>) -> hir::Expr {
        let elem_ty = match expected {
            Some(Ty::List(t)) => Some((**t).clone()),
            Some(t) if t.is_lenient() => Some(Ty::Error),
            Some(t) => {
                // A list where something else is expected: say so here, once.
                self.error(Diagnostic::error("E0203", "mismatched types").at(
                    self.file,
                    span,
                    format!("expected `{t}`, found a list"),
                ));
                for x in elems {
                    self.expr(x, None);
                }
                return mk(H::List(Box::new([])), span, Ty::Error);
            }
            None => None,
        };
        if elems.is_empty() {
            return match elem_ty {
                Some(t) => mk(H::List(Box::new([])), span, Ty::list(t)),
                None => {
                    self.error(
                        Diagnostic::error("E0208", "cannot tell the element type of `[]`")
                            .at(self.file, span, "type annotation needed")
                            .with_help("give the binding a type, e.g. `let xs: List<Text> = []`"),
                    );
                    mk(H::List(Box::new([])), span, Ty::Error)
                }
            };
        }
        let refs: Vec<&ast::Expr> = elems.iter().collect();
        let (items, shared) = self.siblings(&refs, elem_ty.as_ref(), |this, i, t| this.expr(refs[i], t));
        let ty = match shared {
            Some(t) if t != Ty::Error => Ty::list(t),
            _ => Ty::Error,
        };
        mk(H::List(items.into()), span, ty)
    }

    fn binary(&mut self, span: Span, op: BinOp, l: &ast::Expr, r: &ast::Expr) -> hir::Expr {
        let bin =
            |op, kind, l: hir::Expr, r: hir::Expr, ty| mk(H::Binary(op, kind, Box::new(l), Box::new(r)), span, ty);
        match op {
            BinOp::And | BinOp::Or => {
                let l = self.expr(l, Some(&Ty::Bool));
                let r = self.expr(r, Some(&Ty::Bool));
                bin(op, OpKind::Bool, l, r, Ty::Bool)
            }
            BinOp::Eq | BinOp::Ne => {
                let (l, r) = if self.typing(r) > self.typing(l) {
                    let r = self.expr(r, None);
                    let l = self.expr_operand(l, &r.ty, r.span);
                    (l, r)
                } else {
                    let l = self.expr(l, None);
                    let r = self.expr_operand(r, &l.ty, l.span);
                    (l, r)
                };
                bin(op, OpKind::Structural, l, r, Ty::Bool)
            }
            _ => {
                let (l, r) = if op == BinOp::Concat && self.typing(r) > self.typing(l) {
                    let r = self.expr(r, None);
                    let l = self.expr(l, Some(&r.ty));
                    (l, r)
                } else {
                    let l = self.expr(l, None);
                    let want = if op == BinOp::Concat { Some(l.ty.clone()) } else { None };
                    let r = self.expr(r, want.as_ref().filter(|t| !t.is_lenient()));
                    (l, r)
                };
                let (lt, rt) = (l.ty.clone(), r.ty.clone());
                if lt.is_lenient() || rt.is_lenient() {
                    let ty = if op.is_comparison() {
                        Ty::Bool
                    } else if lt.is_lenient() {
                        rt
                    } else {
                        lt
                    };
                    return bin(op, OpKind::Int, l, r, if ty == Ty::Never { Ty::Error } else { ty });
                }
                let kind = match (op, &lt, &rt) {
                    (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Ty::Int, Ty::Int) => Some((OpKind::Int, Ty::Bool)),
                    (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Ty::Duration, Ty::Duration) => {
                        Some((OpKind::Duration, Ty::Bool))
                    }
                    (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Ty::Text, Ty::Text) => {
                        Some((OpKind::Text, Ty::Bool))
                    }
                    (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, Ty::Int, Ty::Int) => {
                        Some((OpKind::Int, Ty::Int))
                    }
                    (BinOp::Add | BinOp::Sub, Ty::Duration, Ty::Duration) => Some((OpKind::Duration, Ty::Duration)),
                    (BinOp::Mul, Ty::Duration, Ty::Int) => {
                        Some((OpKind::DurationTimesInt { swapped: false }, Ty::Duration))
                    }
                    (BinOp::Mul, Ty::Int, Ty::Duration) => {
                        Some((OpKind::DurationTimesInt { swapped: true }, Ty::Duration))
                    }
                    (BinOp::Concat, Ty::Text, Ty::Text) => Some((OpKind::Text, Ty::Text)),
                    (BinOp::Concat, Ty::List(a), Ty::List(b)) if a == b => Some((OpKind::List, lt.clone())),
                    _ => None,
                };
                match kind {
                    Some((k, ty)) => bin(op, k, l, r, ty),
                    None => {
                        let mut d = Diagnostic::error(
                            "E0211",
                            format!("`{}` does not apply to `{lt}` and `{rt}`", op.symbol()),
                        )
                        .at(self.file, span, format!("`{lt}` {} `{rt}`", op.symbol()));
                        d = d.with_help(match op {
                            BinOp::Concat => "`++` joins two Texts or two lists of one element type; for other values interpolate: `\"{a}{b}\"`".to_string(),
                            BinOp::Add if lt == Ty::Text && rt == Ty::Text => "join texts with `++`".to_string(),
                            BinOp::Add if lt == Ty::Text || rt == Ty::Text => {
                                "`+` adds two Ints or two Durations; to put a value into a text, interpolate it: `\"…{x}…\"`".to_string()
                            }
                            _ => "`+ - * /` apply to Int, `+ -` to Duration, `*` to a Duration and an Int; comparisons to Int, Duration and Text".to_string(),
                        });
                        self.error(d);
                        bin(op, OpKind::Int, l, r, if op.is_comparison() { Ty::Bool } else { Ty::Error })
                    }
                }
            }
        }
    }

    /// The other operand of `==`/`!=`: must have the first one's type
    /// (`other`, of the operand at `other_span`).
    fn expr_operand(&mut self, e: &ast::Expr, other: &Ty, other_span: Span) -> hir::Expr {
        if *other == Ty::Error {
            // Already reported: nothing to compare with, and no second
            // error for this side (`[] == []` is one mistake).
            return self.expr(e, Some(&Ty::Error));
        }
        if *other == Ty::Never {
            return self.expr(e, None);
        }
        let h = self.expr_inner(e, Some(other));
        if compatible(&h.ty, other) {
            return self.expect(h, other);
        }
        let mut d = Diagnostic::error("E0203", format!("cannot compare `{other}` with `{}`", h.ty))
            .at(self.file, h.span, format!("this is {}", crate::ty::a(&h.ty)))
            .with_secondary(self.loc(other_span), format!("this is {}", crate::ty::a(&other)))
            .with_note("`==` and `!=` compare two values of the same type");
        // An option against what it may hold (`build.manifest == m`).
        let inside = |opt: &Ty, t: &Ty| matches!(opt, Ty::Option(x) if compatible(t, x));
        if inside(other, &h.ty) || inside(&h.ty, other) {
            d = d.with_help("to compare an option with a value, write the value as `Some(…)`; to ask only whether it has one, write `… is Some(_)`");
        }
        self.error(d);
        let mut h = h;
        h.ty = Ty::Error;
        h
    }

    fn match_expr(
        &mut self,
        span: Span,
        scrutinee: &ast::Expr,
        arms: &[ast::MatchArm],
        expected: Option<&Ty>,
    ) -> hir::Expr {
        let s = self.expr(scrutinee, None);
        let bodies: Vec<&ast::Expr> = arms.iter().map(|a| &a.body).collect();
        let mut patterns: Vec<Option<hir::Pattern>> = vec![None; arms.len()];
        let (bodies, result) = self.siblings(&bodies, expected, |this, i, t| {
            let mark = this.locals.len();
            patterns[i] = Some(this.pattern(&arms[i].pattern, &s.ty, true));
            let body = this.expr(&arms[i].body, t);
            this.locals.truncate(mark);
            body
        });
        let arms: Vec<(hir::Pattern, hir::Expr)> = patterns.into_iter().flatten().zip(bodies).collect();
        self.check_exhaustive(&s.ty, &arms, span, s.span);
        let ty = match result {
            Some(Ty::Never) | None => expected.cloned().unwrap_or(Ty::Never),
            Some(t) => t,
        };
        mk(H::Match(Box::new(s), arms.into()), span, ty)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_digest_literal_decodes_to_its_bytes() {
        assert_eq!(&*super::decode_hex("00ff10a9"), &[0x00, 0xff, 0x10, 0xa9]);
        let hex = "d4d4713a061e0d8dff56f05befcdd446a64e92f1af35917a504b4a195600374f";
        let bytes = super::decode_hex(hex);
        assert_eq!(bytes.len(), 32);
        let back: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(back, hex);
    }
}
