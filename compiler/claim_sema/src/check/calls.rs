//! Calls: user functions, newtype conversions `N(e)`, the prelude's
//! built-ins (§4) and the world functions (§6, fact initializers only).

use super::expr::{mk, path_segments};
use super::Checker;
use crate::builtins::{builtin, world, BUILTIN_NAMES};
use crate::hir::{self, Builtin as B, ExprKind as H, WorldFn};
use crate::index::ItemTag;
use crate::resolved::Def;
use crate::sigs::FnSig;
use crate::ty::{GlobalName, Ty, TypeDef};
use claim_diagnostics::{did_you_mean, Diagnostic};
use claim_syntax::ast;
use claim_syntax::Span;

enum Callee {
    User(GlobalName),
    Newtype(GlobalName, Ty),
    Builtin(B),
    World(WorldFn),
}

impl Checker<'_> {
    pub(super) fn call(
        &mut self,
        e: &ast::Expr,
        callee: &ast::Expr,
        args: &[ast::Expr],
        expected: Option<&Ty>,
    ) -> hir::Expr {
        let span = e.span;
        let Some(target) = self.callee(callee) else {
            // Checked alone, with no type to expect: not one to infer
            // from either (an argument `[]` is not a second error).
            for a in args {
                self.expr(a, Some(&Ty::Error));
            }
            return mk(H::Error, span, Ty::Error);
        };
        match target {
            Callee::User(name) => {
                let Some(sig) = self.fn_sig(&name) else {
                    return mk(H::Error, span, Ty::Error);
                };
                if !self.arity(&name.name, sig.params.len(), args, span, Some(sig)) {
                    return mk(H::Error, span, Ty::Error);
                }
                let args: Vec<_> = args.iter().zip(&sig.params).map(|(a, (_, t))| self.expr(a, Some(t))).collect();
                if let Some(w) = sig.world {
                    self.world_allowed(w, callee.span);
                    // `dsse` decodes its payload, as `load` decodes a file,
                    // into the type the context demands (§6).
                    let ret = match (w, expected) {
                        (WorldFn::Dsse, Some(t)) => t.clone(),
                        (WorldFn::Dsse, None) => {
                            self.error(
                                Diagnostic::error(
                                    "E0208",
                                    "cannot tell what type `dsse` should decode its payload into",
                                )
                                .at(self.file, span, "type annotation needed")
                                .with_help("declare the fact's type: `fact att: Statement = dsse(\"…\", keys, 1)`"),
                            );
                            Ty::Error
                        }
                        _ => sig.ret.clone(),
                    };
                    return mk(H::World(w, args.into()), span, ret);
                }
                let name = self.shared(&name);
                self.edge(name.clone(), callee.span);
                mk(H::Call(name, args.into()), span, sig.ret.clone())
            }
            Callee::Newtype(name, under) => {
                if !self.arity(&name.name, 1, args, span, None) {
                    return mk(H::Error, span, Ty::Error);
                }
                let x = self.expr(&args[0], Some(&under));
                mk(H::Wrap(Box::new(x)), span, Ty::named(name))
            }
            Callee::Builtin(b) => self.builtin_call(b, callee, args, span),
            Callee::World(w) => {
                self.world_allowed(w, callee.span);
                if !self.arity(w.name(), 1, args, span, None) {
                    return mk(H::Error, span, Ty::Error);
                }
                let path = self.expr(&args[0], Some(&Ty::Text));
                let ty = match w {
                    WorldFn::FileSha256 => Ty::Sha256,
                    WorldFn::GitTree => Ty::Sha1,
                    WorldFn::FileSha512 => Ty::Sha512,
                    WorldFn::OciImage
                    | WorldFn::OciImageFor
                    | WorldFn::OciIndex
                    | WorldFn::GitCommit
                    | WorldFn::PublicKey
                    | WorldFn::Dsse => Ty::Error,
                    WorldFn::Load => match expected {
                        Some(t) => t.clone(),
                        None => {
                            self.error(
                                Diagnostic::error("E0208", "cannot tell what type `load` should decode into")
                                    .at(self.file, span, "type annotation needed")
                                    .with_help("declare the fact's type: `fact receipt: Receipt = load(\"…\")`"),
                            );
                            Ty::Error
                        }
                    },
                };
                mk(H::World(w, Box::new([path])), span, ty)
            }
        }
    }

    /// World functions read files: only fact initializers may call them.
    fn world_allowed(&mut self, w: WorldFn, span: Span) {
        if self.in_fact {
            return;
        }
        self.error(
            Diagnostic::error("E0216", format!("`{}` may only be called in a fact initializer", w.name()))
                .at(self.file, span, "reads the outside world here")
                .with_help(format!(
                    "declare a fact (`fact name: T = {}(…)`) and use it here: facts are read once, before any witness runs",
                    w.name()
                )),
        );
    }

    /// Whether a call gives `want` arguments; if not, reports it (with
    /// where a user function `decl` is declared: its line shows what it
    /// takes) and checks the arguments alone.
    fn arity(&mut self, name: &str, want: usize, args: &[ast::Expr], span: Span, decl: Option<&FnSig>) -> bool {
        if args.len() == want {
            return true;
        }
        let plural = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        let mut d = Diagnostic::error(
            "E0209",
            format!(
                "`{name}` takes {want} argument{}, but {} {} given",
                plural(want, "", "s"),
                args.len(),
                plural(args.len(), "was", "were")
            ),
        )
        .at(self.file, span, format!("{} argument{}", args.len(), plural(args.len(), "", "s")));
        if let Some(sig) = decl {
            d = d.with_secondary(sig.loc, format!("`{name}` is declared here"));
        }
        self.error(d);
        for a in args {
            self.expr(a, Some(&Ty::Error));
        }
        false
    }

    fn callee(&mut self, callee: &ast::Expr) -> Option<Callee> {
        let Some(segs) = path_segments(callee) else {
            self.expr(callee, None);
            self.not_callable(callee.span, "this expression");
            return None;
        };
        let from_item = |this: &Self, target: GlobalName, tag: ItemTag| -> Result<Callee, &'static str> {
            match tag {
                ItemTag::Fn => Ok(Callee::User(target)),
                ItemTag::Type => match this.type_info(&target).map(|i| &i.def) {
                    Some(TypeDef::Newtype(u)) => Ok(Callee::Newtype(target, u.clone())),
                    Some(TypeDef::Record { .. }) => Err("a record is built with `Name { field: value, … }`"),
                    _ => Err("an enum is not callable; name one of its variants"),
                },
                ItemTag::Fact => Err("a fact is a value"),
            }
        };
        match segs.as_slice() {
            [one] => {
                let name = one.name.as_str();
                if self.local_named(one).is_some() {
                    self.not_callable(one.span, &format!("`{name}` is a value and"));
                    return None;
                }
                if let Some(n) = self.scope.names.get(name) {
                    if self.noted.is_some() {
                        self.note(one.span, Def::Item(n.target.clone()), false, None);
                    }
                    return match from_item(self, n.target.clone(), n.tag) {
                        Ok(c) => Some(c),
                        Err(why) => {
                            self.error(
                                Diagnostic::error("E0210", format!("`{name}` is not callable"))
                                    .at(self.file, one.span, why),
                            );
                            None
                        }
                    };
                }
                if let Some(b) = builtin(name) {
                    return Some(Callee::Builtin(b));
                }
                if let Some(w) = world(name) {
                    return Some(Callee::World(w));
                }
                if self.scope.is_unresolved(name) {
                    return None;
                }
                let candidates = self
                    .scope
                    .names
                    .iter()
                    .filter(|(_, n)| n.tag == ItemTag::Fn)
                    .map(|(k, _)| &**k)
                    .chain(BUILTIN_NAMES.iter().copied());
                let mut d = Diagnostic::error("E0201", format!("unknown function `{name}`")).at(
                    self.file,
                    one.span,
                    "not found in this scope",
                );
                // A function of another module, not imported, is the
                // likelier intent than a near name here.
                let imported =
                    crate::scope::with_import_help(self.db, self.program, self.file, name, ItemTag::Fn, &mut d);
                if let Some(close) = did_you_mean(name, candidates).filter(|_| !imported) {
                    d = d.with_suggestion(close);
                }
                self.error(d);
                None
            }
            [alias, item]
                if self.innermost_local(&alias.name).is_none()
                    && self.scope.modules.contains_key(alias.name.as_str()) =>
            {
                let (module, _) = self.scope.modules.get(alias.name.as_str()).cloned()?;
                let file = self.module_file(&module)?;
                let entry = crate::db::item_index(self.db, file).entries.get(item.name.as_str()).cloned();
                let span = alias.span.join(item.span);
                if self.noted.is_some() {
                    self.note(alias.span, Def::Module(module.clone()), false, None);
                    if entry.is_some() {
                        self.note(item.span, Def::Item(GlobalName::new(&module, &item.name)), false, None);
                    }
                }
                match entry {
                    Some(e) => match from_item(self, GlobalName::new(&module, &item.name), e.tag) {
                        Ok(c) => Some(c),
                        Err(why) => {
                            self.error(
                                Diagnostic::error("E0210", format!("`{}.{}` is not callable", alias.name, item.name))
                                    .at(self.file, span, why),
                            );
                            None
                        }
                    },
                    None => {
                        self.error(
                            Diagnostic::error("E0201", format!("module `{module}` has no item named `{}`", item.name))
                                .at(self.file, item.span, "not declared there"),
                        );
                        None
                    }
                }
            }
            _ => {
                // A callee that is already an error (an unknown name, or
                // one a failed `use` meant to import) is not reported again.
                if !matches!(self.expr(callee, None).ty, Ty::Error) {
                    self.not_callable(callee.span, "this expression");
                }
                None
            }
        }
    }

    fn not_callable(&mut self, span: Span, what: &str) {
        self.error(
            Diagnostic::error("E0210", "not callable")
                .at(self.file, span, format!("{what} is not a function"))
                .with_help("only functions, built-ins and newtype conversions can be called"),
        );
    }

    fn builtin_call(&mut self, b: B, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> hir::Expr {
        let name: &str = match &callee.kind {
            ast::ExprKind::Name(id) => &id.name,
            _ => "built-in",
        };
        let fixed: Option<(&[Ty], Ty)> = match b {
            B::Take => Some((&[Ty::Text, Ty::Int], Ty::Text)),
            B::StartsWith | B::EndsWith | B::Contains => Some((&[Ty::Text, Ty::Text], Ty::Bool)),
            B::Seconds | B::Minutes | B::Hours => Some((&[Ty::Duration], Ty::Int)),
            B::ParseSha256 | B::Sha256 => Some((&[Ty::Text], Ty::Sha256)),
            B::ParseSha1 => Some((&[Ty::Text], Ty::Sha1)),
            B::ParseSha512 | B::Sha512 => Some((&[Ty::Text], Ty::Sha512)),
            B::Lower | B::Upper | B::Trim => Some((&[Ty::Text], Ty::Text)),
            B::Replace => Some((&[Ty::Text, Ty::Text, Ty::Text], Ty::Text)),
            B::ParseInt => Some((&[Ty::Text], Ty::Int)),
            B::JsonText => Some((&[Ty::Json], Ty::option(Ty::Text))),
            B::JsonInt => Some((&[Ty::Json], Ty::option(Ty::Int))),
            B::JsonBool => Some((&[Ty::Json], Ty::option(Ty::Bool))),
            B::JsonList => Some((&[Ty::Json], Ty::option(Ty::list(Ty::Json)))),
            B::JsonMap => Some((&[Ty::Json], Ty::option(Ty::map(Ty::Json)))),
            B::JsonGet => Some((&[Ty::Json, Ty::Text], Ty::option(Ty::Json))),
            _ => None,
        };
        if let Some((params, ret)) = fixed {
            if !self.arity(name, params.len(), args, span, None) {
                return mk(H::Error, span, Ty::Error);
            }
            let args = args.iter().zip(params).map(|(a, t)| self.expr(a, Some(t))).collect();
            return mk(H::Builtin(b, args), span, ret);
        }
        let list = |t: Ty| Ty::list(t);
        let fixed_generic: Option<(Vec<Ty>, Ty)> = match b {
            B::Split => Some((vec![Ty::Text, Ty::Text], list(Ty::Text))),
            B::Join => Some((vec![list(Ty::Text), Ty::Text], Ty::Text)),
            B::All | B::Any => Some((vec![list(Ty::Bool)], Ty::Bool)),
            B::Count => Some((vec![list(Ty::Bool)], Ty::Int)),
            B::Sum => Some((vec![list(Ty::Int)], Ty::Int)),
            B::FoldSha256 => Some((vec![Ty::Text, list(Ty::Text)], Ty::Sha256)),
            _ => None,
        };
        if let Some((params, ret)) = fixed_generic {
            if !self.arity(name, params.len(), args, span, None) {
                return mk(H::Error, span, Ty::Error);
            }
            let args = args.iter().zip(&params).map(|(a, t)| self.expr(a, Some(t))).collect();
            return mk(H::Builtin(b, args), span, ret);
        }
        if matches!(b, B::Nth | B::First | B::Last | B::UnwrapOr | B::Sort | B::Distinct) {
            return self.list_call(b, name, args, span);
        }
        // The polymorphic ones: len, get, keys, raw, text, hex.
        let want = if b == B::Get { 2 } else { 1 };
        if !self.arity(name, want, args, span, None) {
            return mk(H::Error, span, Ty::Error);
        }
        let first = self.expr(&args[0], None);
        let t = first.ty.clone();
        let bad = |this: &mut Self, needs: &str| {
            this.error(Diagnostic::error("E0203", format!("`{name}` takes {needs}, not `{t}`")).at(
                this.file,
                first.span,
                format!("this is {}", crate::ty::a(&t)),
            ));
            Ty::Error
        };
        let ret = if t.is_lenient() {
            match b {
                B::Len => Ty::Int,
                B::TextOf | B::Hex => Ty::Text,
                B::Keys => list(Ty::Text),
                _ => Ty::Error,
            }
        } else {
            match b {
                B::Len => match t {
                    Ty::List(_) | Ty::Text | Ty::Map(_) => Ty::Int,
                    _ => bad(self, "a List, a Text or a Map"),
                },
                B::Get => match &t {
                    Ty::Map(v) => Ty::option((**v).clone()),
                    _ => bad(self, "a Map"),
                },
                B::Keys => match t {
                    Ty::Map(_) => list(Ty::Text),
                    _ => bad(self, "a Map"),
                },
                B::Raw => match self.newtype_of(&t) {
                    Some(u) => u.clone(),
                    None => bad(self, "a newtype value"),
                },
                B::TextOf => Ty::Text,
                B::Hex => match t {
                    Ty::Sha256 | Ty::Sha1 | Ty::Sha512 => Ty::Text,
                    _ if self.newtype_of(&t).is_some_and(|u| matches!(u, Ty::Sha256 | Ty::Sha1 | Ty::Sha512)) => {
                        let help = format!("`hex` takes a digest; use `hex(raw(…))` for {}", crate::ty::a(&t));
                        self.error(
                            Diagnostic::error("E0203", format!("`hex` takes a digest, not `{t}`"))
                                .at(self.file, first.span, "a newtype")
                                .with_help(help),
                        );
                        Ty::Error
                    }
                    _ => bad(self, "a Sha256, Sha1 or Sha512"),
                },
                _ => Ty::Error,
            }
        };
        let mut hargs = vec![first];
        if b == B::Get {
            hargs.push(self.expr(&args[1], Some(&Ty::Text)));
        }
        mk(H::Builtin(b, hargs.into()), span, ret)
    }

    /// The generic helpers over lists and options: `nth`, `first`, `last`,
    /// `sort`, `distinct` take a `List<T>`; `unwrap_or` an `Option<T>` and
    /// a `T`, either of which may give the other its type (`unwrap_or(None,
    /// 7)`, `unwrap_or(first(xs), [])`).
    fn list_call(&mut self, b: B, name: &str, args: &[ast::Expr], span: Span) -> hir::Expr {
        let want = if matches!(b, B::Nth | B::UnwrapOr) { 2 } else { 1 };
        if !self.arity(name, want, args, span, None) {
            return mk(H::Error, span, Ty::Error);
        }
        if b == B::UnwrapOr {
            let (o, d) = if self.typing(&args[1]) > self.typing(&args[0]) {
                let d = self.expr(&args[1], None);
                let o = self.expr(&args[0], Some(&Ty::option(d.ty.clone())).filter(|_| !d.ty.is_lenient()));
                (o, d)
            } else {
                let o = self.expr(&args[0], None);
                let inner = self.inside(name, &o, "an `Option`", |t| match t {
                    Ty::Option(t) => Some((**t).clone()),
                    _ => None,
                });
                let d = self.expr(&args[1], inner.as_ref());
                (o, d)
            };
            let ty = match &o.ty {
                Ty::Option(t) => (**t).clone(),
                _ => d.ty.clone(),
            };
            return mk(H::Builtin(b, vec![o, d].into()), span, ty);
        }
        let xs = self.expr(&args[0], None);
        let elem = self.inside(name, &xs, "a list", |t| match t {
            Ty::List(t) => Some((**t).clone()),
            _ => None,
        });
        if b == B::Sort {
            if let Some(t) = &elem {
                let under = self.newtype_of(t).cloned().unwrap_or_else(|| t.clone());
                if !matches!(under, Ty::Int | Ty::Duration | Ty::Text | Ty::Sha256 | Ty::Sha1 | Ty::Sha512)
                    && !t.is_lenient()
                {
                    self.error(
                        Diagnostic::error("E0203", format!("`sort` cannot order `{t}`"))
                            .at(self.file, xs.span, format!("a list of `{t}`"))
                            .with_help("`sort` orders Ints, Durations, Texts and digests (and newtypes over them)"),
                    );
                }
            }
        }
        let mut hargs = vec![xs];
        if b == B::Nth {
            hargs.push(self.expr(&args[1], Some(&Ty::Int)));
        }
        let ty = match (b, elem) {
            (_, None) => Ty::Error,
            (B::Nth | B::First | B::Last, Some(t)) => Ty::option(t),
            (_, Some(t)) => Ty::list(t),
        };
        mk(H::Builtin(b, hargs.into()), span, ty)
    }

    /// The type inside `h`'s (`of` says which: an option's value, a list's
    /// element); where `h` is of another type, `E0203` that `name` takes
    /// `what`, once, and `None`.
    fn inside(&mut self, name: &str, h: &hir::Expr, what: &str, of: impl Fn(&Ty) -> Option<Ty>) -> Option<Ty> {
        if h.ty.is_lenient() {
            return None;
        }
        let inner = of(&h.ty);
        if inner.is_none() {
            let t = h.ty.clone();
            self.error(Diagnostic::error("E0203", format!("`{name}` takes {what}, not `{t}`")).at(
                self.file,
                h.span,
                format!("this is {}", crate::ty::a(&t)),
            ));
        }
        inner
    }
}
