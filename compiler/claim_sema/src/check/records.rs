//! Record and variant literals: `Wheel { name, size: 1 }`,
//! `Adopted { from: t }`, `Origin.Adopted { … }`, `mod.Record { … }`. Every
//! field exactly once, in any order; evaluated as written.

use super::expr::mk;
use super::Checker;
use crate::hir::{self, ExprKind as H};
use crate::index::ItemTag;
use crate::resolved::Def;
use crate::ty::{FieldDef, Fields, GlobalName, Ty, TypeDef};
use claim_diagnostics::{and_list, did_you_mean, Diagnostic};
use claim_syntax::ast;
use claim_syntax::Span;
use std::sync::Arc;

/// What a record-literal path names.
pub(super) enum Ctor<'a> {
    Record(GlobalName, &'a Fields),
    Variant(GlobalName, u32, &'a crate::ty::VariantDef),
}

impl<'a> Checker<'a> {
    /// What a record-literal path names, given the expected type.
    pub(super) fn ctor(&self, path: &[ast::Ident], expected: Option<&Ty>) -> Option<Ctor<'a>> {
        let names: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
        let variant_of = |ty: &Ty, v: &str| -> Option<Ctor<'a>> {
            let (n, vs) = self.enum_of(ty)?;
            let (i, d) = vs.iter().enumerate().find(|(_, d)| &*d.name == v)?;
            Some(Ctor::Variant(n, i as u32, d))
        };
        let record = |g: &GlobalName| -> Option<Ctor<'a>> {
            match &self.type_info(g)?.def {
                TypeDef::Record { fields, .. } => Some(Ctor::Record(g.clone(), fields)),
                _ => None,
            }
        };
        let in_module = |alias: &str, name: &str| -> Option<GlobalName> {
            let (m, _) = self.scope.modules.get(alias)?;
            let file = self.module_file(m)?;
            let e = crate::db::item_index(self.db, file).entries.get(name)?;
            (e.tag == ItemTag::Type).then(|| GlobalName::new(m, name))
        };
        let local_type =
            |name: &str| self.scope.names.get(name).filter(|n| n.tag == ItemTag::Type).map(|n| n.target.clone());
        match names.as_slice() {
            [one] => match local_type(one) {
                Some(g) => record(&g),
                None => variant_of(expected?, one),
            },
            [a, b] => match in_module(a, b) {
                Some(g) => record(&g),
                None => variant_of(&Ty::named(local_type(a)?), b),
            },
            [a, b, c] => variant_of(&Ty::named(in_module(a, b)?), c),
            _ => None,
        }
    }

    pub(super) fn record_literal(
        &mut self,
        span: Span,
        path: &[ast::Ident],
        inits: &[ast::FieldInit],
        expected: Option<&Ty>,
    ) -> hir::Expr {
        let dotted = path.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(".");
        let path_span = path.first().map(|f| f.span).unwrap_or(span).join(path.last().map(|l| l.span).unwrap_or(span));
        let ctor = self.ctor(path, expected);
        if self.noted.is_some() {
            self.note_ctor(path, ctor.as_ref());
        }
        match ctor {
            Some(Ctor::Record(g, fields)) => {
                let values = self.field_inits(path_span, &dotted, inits, fields, (&g, None));
                // One shared name for the expression and its type.
                let g = Arc::new(g);
                mk(
                    H::Record(Box::new(hir::RecordExpr {
                        ty: g.clone(),
                        names: fields.names(),
                        fields: values.into(),
                    })),
                    span,
                    Ty::Named(g),
                )
            }
            Some(Ctor::Variant(g, index, def)) => {
                let Some(fields) = &def.fields else {
                    self.error(
                        Diagnostic::error("E0205", format!("variant `{}` has no fields", def.name))
                            .at(self.file, span, "a unit variant")
                            .with_help(format!("write it without braces: `{dotted}`")),
                    );
                    return mk(H::Error, span, Ty::named(g));
                };
                let values = self.field_inits(path_span, &dotted, inits, fields, (&g, Some(&def.name)));
                let g = Arc::new(g);
                let kind = H::Variant(Box::new(hir::VariantExpr {
                    ty: g.clone(),
                    index,
                    name: def.name.clone(),
                    names: Some(fields.names()),
                    fields: values.into(),
                }));
                mk(kind, span, Ty::Named(g))
            }
            None => {
                for i in inits {
                    if let Some(v) = &i.value {
                        self.expr(v, None);
                    }
                }
                if path.first().is_some_and(|p| self.scope.is_unresolved(&p.name)) {
                    return mk(H::Error, span, Ty::Error);
                }
                let mut d = Diagnostic::error("E0201", format!("unknown record or variant `{dotted}`")).at(
                    self.file,
                    path_span,
                    "not a record or variant here",
                );
                if path.len() == 1 {
                    if let Some(owner) = self.enum_with_variant(&dotted) {
                        d = d.with_help(format!("`{dotted}` is a variant of `{owner}`; where the type is not known, qualify it: `{owner}.{dotted} {{ … }}`"));
                    }
                }
                self.error(d);
                mk(H::Error, span, Ty::Error)
            }
        }
    }

    /// Notes what a literal's path names: `Record`, `module.Record`,
    /// `Variant`, `Enum.Variant`, `module.Enum.Variant`.
    fn note_ctor(&mut self, path: &[ast::Ident], ctor: Option<&Ctor<'_>>) {
        match (path, ctor) {
            ([.., last], Some(Ctor::Record(g, _))) => {
                if let [m, _] = path {
                    self.note(m.span, Def::Module(g.module.clone()), false, None);
                }
                self.note(last.span, Def::Item(g.clone()), false, None);
            }
            ([.., last], Some(Ctor::Variant(g, _, d))) => {
                match path {
                    [e, _] => self.note(e.span, Def::Item(g.clone()), false, None),
                    [m, e, _] => {
                        self.note(m.span, Def::Module(g.module.clone()), false, None);
                        self.note(e.span, Def::Item(g.clone()), false, None);
                    }
                    _ => {}
                }
                self.note(last.span, Def::Variant { owner: g.clone(), name: d.name.clone() }, false, None);
            }
            _ => {}
        }
    }

    /// Checks a literal's fields against the declared ones, those of
    /// `owner`'s record or variant. `path_span` is the literal's type or
    /// variant name, where a missing field is reported.
    fn field_inits(
        &mut self,
        path_span: Span,
        what: &str,
        inits: &[ast::FieldInit],
        fields: &[FieldDef],
        owner: (&GlobalName, Option<&Arc<str>>),
    ) -> Vec<(u32, hir::Expr)> {
        let mut out = Vec::new();
        let mut given: Vec<&str> = Vec::new();
        for init in inits {
            let Some((i, def)) = fields.iter().enumerate().find(|(_, f)| *f.name == *init.name.name) else {
                let mut d = Diagnostic::error("E0205", format!("`{what}` has no field `{}`", init.name.name)).at(
                    self.file,
                    init.name.span,
                    "unknown field",
                );
                if let Some(close) = did_you_mean(&init.name.name, fields.iter().map(|f| &*f.name)) {
                    d = d.with_suggestion(close);
                } else {
                    d = d.with_note(format!(
                        "its fields are {}",
                        and_list(&fields.iter().map(|f| f.name.clone()).collect::<Vec<_>>())
                    ));
                }
                self.error(d);
                if let Some(v) = &init.value {
                    self.expr(v, None);
                }
                continue;
            };
            if given.contains(&&*def.name) {
                self.error(Diagnostic::error("E0206", format!("field `{}` is given twice", def.name)).at(
                    self.file,
                    init.name.span,
                    "given again here",
                ));
                continue;
            }
            given.push(&def.name);
            if self.noted.is_some() {
                let (g, variant) = owner;
                let field = Def::Field { owner: g.clone(), variant: variant.cloned(), name: def.name.clone() };
                self.note(init.name.span, field, false, Some(&def.ty));
            }
            let value = match &init.value {
                Some(v) => self.expr(v, Some(&def.ty)),
                None => {
                    let h = self.name(&init.name, Some(&def.ty));
                    self.expect(h, &def.ty)
                }
            };
            out.push((i as u32, value));
        }
        let missing: Vec<&FieldDef> = fields.iter().filter(|f| !given.contains(&&*f.name)).collect();
        if !missing.is_empty() {
            let s = if missing.len() == 1 { "" } else { "s" };
            let names: Vec<Arc<str>> = missing.iter().map(|f| f.name.clone()).collect();
            let mut d = Diagnostic::error("E0204", format!("missing field{s} {} in `{what}`", and_list(&names)))
                .at(self.file, path_span, format!("missing {}", and_list(&names)))
                .with_help("a record literal gives every field exactly once");
            // A few missing fields are each shown where declared (their
            // types beside them); more would bury the literal.
            if missing.len() <= 3 {
                for f in &missing {
                    d = d.with_secondary(f.loc, format!("`{}` is declared here", f.name));
                }
            }
            self.error(d);
        }
        out
    }
}
