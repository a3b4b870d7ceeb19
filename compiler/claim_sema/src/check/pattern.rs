//! Patterns (§4): checked against the scrutinee's type; in a pattern a
//! name that is a unit variant of the matched enum is that variant, any
//! other lower-case name binds.

use super::expr::decode_hex;
use super::Checker;
use crate::hir::{self, Lit, PatternKind as P};
use crate::resolved::Def;
use crate::ty::Ty;
use claim_diagnostics::{and_list, did_you_mean, Diagnostic};
use claim_syntax::ast::{self, PatternKind as A};
use claim_syntax::digest::DigestKind;

impl Checker<'_> {
    pub(super) fn pattern(&mut self, p: &ast::Pattern, ty: &Ty, allow_bind: bool) -> hir::Pattern {
        let kind = self.pattern_kind(p, ty, allow_bind);
        hir::Pattern { kind, span: p.span }
    }

    fn pattern_mismatch(&mut self, p: &ast::Pattern, ty: &Ty, what: &str) -> P {
        if !ty.is_lenient() {
            self.error(Diagnostic::error("E0218", format!("{what} cannot match {}", crate::ty::a(ty))).at(
                self.file,
                p.span,
                format!("expected a pattern for `{ty}`"),
            ));
        }
        P::Error
    }

    fn pattern_kind(&mut self, p: &ast::Pattern, ty: &Ty, allow_bind: bool) -> P {
        match &p.kind {
            A::Wildcard => P::Wildcard,
            A::Error => P::Error,
            A::Int(n) => self.lit_pattern(p, ty, Ty::Int, Lit::Int(*n), "an Int"),
            A::Duration(n) => self.lit_pattern(p, ty, Ty::Duration, Lit::Duration(*n), "a Duration"),
            A::Bool(b) => self.lit_pattern(p, ty, Ty::Bool, Lit::Bool(*b), "a Bool"),
            A::Text(s) => self.lit_pattern(p, ty, Ty::Text, Lit::Text(s.as_str().into()), "a Text"),
            A::Digest(k, hex) => {
                let base = match k {
                    DigestKind::Sha256 => Ty::Sha256,
                    DigestKind::Sha1 => Ty::Sha1,
                    DigestKind::Sha512 => Ty::Sha512,
                };
                let fits = *ty == base || self.newtype_of(ty) == Some(&base);
                let want = if fits { ty.clone() } else { base };
                self.lit_pattern(p, ty, want, Lit::Digest(*k, decode_hex(hex)), "a digest")
            }
            A::None => match ty {
                Ty::Option(_) => P::None,
                _ => self.pattern_mismatch(p, ty, "`None`"),
            },
            A::Some(inner) => match ty {
                Ty::Option(t) => P::Some(Box::new(self.pattern(inner, t, allow_bind))),
                _ => {
                    self.pattern(inner, &Ty::Error, allow_bind);
                    self.pattern_mismatch(p, ty, "`Some(…)`")
                }
            },
            A::List { elems, rest } => {
                let elem_ty = match ty {
                    Ty::List(t) => (**t).clone(),
                    _ => {
                        for e in elems {
                            self.pattern(e, &Ty::Error, allow_bind);
                        }
                        return self.pattern_mismatch(p, ty, "a list pattern");
                    }
                };
                P::List { elems: elems.iter().map(|e| self.pattern(e, &elem_ty, allow_bind)).collect(), rest: *rest }
            }
            A::Name(id) => {
                if let Some((owner, variants)) = self.enum_of(ty) {
                    if let Some((i, v)) = variants.iter().enumerate().find(|(_, v)| *v.name == *id.name) {
                        if self.noted.is_some() {
                            self.note(id.span, Def::Variant { owner, name: v.name.clone() }, false, None);
                        }
                        if v.fields.is_some() {
                            self.error(
                                Diagnostic::error("E0218", format!("variant `{}` carries fields", id.name))
                                    .at(self.file, id.span, "fields not matched")
                                    .with_help(format!("write `{} {{ .. }}`", id.name)),
                            );
                        }
                        return P::Variant { index: i as u32, fields: vec![] };
                    }
                }
                if id.name.starts_with(|c: char| c.is_ascii_uppercase()) && !ty.is_lenient() {
                    let mut d = Diagnostic::error("E0218", format!("`{}` is not a variant of `{ty}`", id.name)).at(
                        self.file,
                        id.span,
                        "no such variant",
                    );
                    if let Some((_, vs)) = self.enum_of(ty) {
                        if let Some(close) = did_you_mean(&id.name, vs.iter().map(|v| &*v.name)) {
                            d = d.with_suggestion(close);
                        }
                    }
                    self.error(d);
                    return P::Error;
                }
                self.binding(id, ty, allow_bind)
            }
            A::Variant { path, fields } => self.variant_pattern(p, path, fields.as_ref(), ty, allow_bind),
        }
    }

    fn binding(&mut self, id: &ast::Ident, ty: &Ty, allow_bind: bool) -> P {
        if !allow_bind {
            self.error(
                Diagnostic::error(
                    "E0217",
                    format!("`is` patterns bind nothing, so `{}` cannot be bound here", id.name),
                )
                .at(self.file, id.span, "would bind a name")
                .with_help("use `_` in its place, or `match` to bind it"),
            );
            return P::Error;
        }
        P::Bind(self.bind(id.name.as_str().into(), id.span, ty.clone()))
    }

    fn lit_pattern(&mut self, p: &ast::Pattern, ty: &Ty, lit_ty: Ty, lit: Lit, what: &str) -> P {
        if ty.is_lenient() || *ty == lit_ty {
            P::Lit(lit)
        } else {
            self.pattern_mismatch(p, ty, &format!("{what} literal"))
        }
    }

    fn variant_pattern(
        &mut self,
        p: &ast::Pattern,
        path: &[ast::Ident],
        fields: Option<&(Vec<ast::FieldPattern>, bool)>,
        ty: &Ty,
        allow_bind: bool,
    ) -> P {
        let bind_all = |this: &mut Self| {
            for f in fields.map(|f| f.0.as_slice()).unwrap_or_default() {
                match &f.pattern {
                    Some(sub) => {
                        this.pattern(sub, &Ty::Error, allow_bind);
                    }
                    None => {
                        this.binding(&f.name, &Ty::Error, allow_bind);
                    }
                }
            }
        };
        let Some((enum_name, variants)) = self.enum_of(ty) else {
            bind_all(self);
            let dotted = path.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(".");
            return self.pattern_mismatch(p, ty, &format!("variant `{dotted}`"));
        };
        let Some(last) = path.last() else {
            return P::Error;
        };
        // A qualified path must name the matched enum.
        if path.len() >= 2 {
            let qual = &path[path.len() - 2];
            if *qual.name == *enum_name.name {
                if self.noted.is_some() {
                    self.note(qual.span, Def::Item(enum_name.clone()), false, None);
                }
            } else {
                bind_all(self);
                self.error(
                    Diagnostic::error("E0218", format!("`{}` is not the matched enum `{}`", qual.name, enum_name.name))
                        .at(self.file, qual.span, "another type"),
                );
                return P::Error;
            }
        }
        let Some((index, def)) = variants.iter().enumerate().find(|(_, v)| *v.name == *last.name) else {
            bind_all(self);
            let mut d = Diagnostic::error("E0218", format!("`{}` is not a variant of `{}`", last.name, enum_name.name))
                .at(self.file, last.span, "no such variant");
            if let Some(close) = did_you_mean(&last.name, variants.iter().map(|v| &*v.name)) {
                d = d.with_suggestion(close);
            }
            self.error(d);
            return P::Error;
        };
        if self.noted.is_some() {
            self.note(last.span, Def::Variant { owner: enum_name.clone(), name: def.name.clone() }, false, None);
        }
        let Some((fpats, rest)) = fields else {
            if def.fields.is_some() {
                self.error(
                    Diagnostic::error("E0218", format!("variant `{}` carries fields", def.name))
                        .at(self.file, last.span, "fields not matched")
                        .with_help(format!("write `{} {{ .. }}`", def.name)),
                );
            }
            return P::Variant { index: index as u32, fields: vec![] };
        };
        let Some(decls) = &def.fields else {
            bind_all(self);
            self.error(
                Diagnostic::error("E0218", format!("variant `{}` has no fields", def.name))
                    .at(self.file, p.span, "a unit variant")
                    .with_help(format!("write `{}` without braces", def.name)),
            );
            return P::Error;
        };
        let mut out = Vec::new();
        let mut named = Vec::new();
        for f in fpats {
            let Some((fi, fd)) = decls.iter().enumerate().find(|(_, d)| *d.name == *f.name.name) else {
                self.error(
                    Diagnostic::error("E0205", format!("variant `{}` has no field `{}`", def.name, f.name.name)).at(
                        self.file,
                        f.name.span,
                        "unknown field",
                    ),
                );
                continue;
            };
            if named.contains(&fi) {
                self.error(Diagnostic::error("E0206", format!("field `{}` is matched twice", fd.name)).at(
                    self.file,
                    f.name.span,
                    "matched again here",
                ));
                continue;
            }
            named.push(fi);
            if self.noted.is_some() {
                let def =
                    Def::Field { owner: enum_name.clone(), variant: Some(def.name.clone()), name: fd.name.clone() };
                self.note(f.name.span, def, false, Some(&fd.ty));
            }
            let sub = match &f.pattern {
                Some(sub) => self.pattern(sub, &fd.ty, allow_bind),
                None => hir::Pattern { kind: self.binding(&f.name, &fd.ty, allow_bind), span: f.name.span },
            };
            out.push((fi as u32, sub));
        }
        if !rest {
            let missing: Vec<_> =
                decls.iter().enumerate().filter(|(i, _)| !named.contains(i)).map(|(_, d)| d.name.clone()).collect();
            if !missing.is_empty() {
                self.error(
                    Diagnostic::error("E0218", format!("pattern does not mention {}", and_list(&missing)))
                        .at(self.file, p.span, "fields not mentioned")
                        .with_help("name every field, or end the field list with `..`"),
                );
            }
        }
        P::Variant { index: index as u32, fields: out }
    }
}
