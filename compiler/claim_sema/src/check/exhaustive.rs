//! Exhaustiveness of `match` (§4): a usefulness check over the arms'
//! patterns (Maranget's algorithm, specialised to Claim's constructors:
//! Bool, Option, enum variants, and lists by length). A missing case is
//! reported as a pattern a reader can paste in as a new arm.

use super::Checker;
use crate::hir::{self, PatternKind as P};
use crate::ty::{Ty, TypeDef};
use claim_diagnostics::Diagnostic;
use claim_syntax::Span;

/// A pattern reduced to what coverage needs.
#[derive(Clone, Debug)]
enum Pat {
    Wild,
    Ctor(Ctor, Vec<Pat>),
    /// A list pattern `[p1, …, pn, ..]`: at least n elements.
    ListRest(Vec<Pat>),
}

#[derive(Clone, Debug, PartialEq)]
enum Ctor {
    Bool(bool),
    None,
    Some,
    Variant(u32),
    /// A list of exactly this many elements.
    List(usize),
    /// A literal of a type with infinitely many values.
    Lit(String),
}

impl Checker<'_> {
    pub(super) fn check_exhaustive(
        &mut self,
        ty: &Ty,
        arms: &[(hir::Pattern, hir::Expr)],
        match_span: Span,
        scrutinee: Span,
    ) {
        if ty.has_error() || arms.iter().any(|(p, _)| has_error(p)) {
            return;
        }
        let rows: Vec<Vec<Pat>> = arms.iter().map(|(p, _)| vec![lower(p)]).collect();
        let missing = self.missing_top(&rows, ty);
        if missing.is_empty() {
            return;
        }
        let shown: Vec<String> = missing.iter().map(|p| self.show(p, ty)).collect();
        let list = shown.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ");
        let verb = if shown.len() == 1 { "is" } else { "are" };
        self.error(
            Diagnostic::error("E0207", format!("`match` does not cover every `{ty}`: {list} {verb} not covered"))
                .at(self.file, scrutinee, format!("{list} not covered"))
                .with_secondary(self.loc(match_span), "in this `match`")
                .with_help(format!("add an arm for {list}, or a final `_ => …` arm")),
        );
    }

    /// Every uncovered constructor at the top (so the message can list all
    /// missing variants), or one uncovered value below that.
    fn missing_top(&self, rows: &[Vec<Pat>], ty: &Ty) -> Vec<Pat> {
        let tys = vec![ty.clone()];
        match self.ctors(rows, ty) {
            Some(ctors) => ctors
                .into_iter()
                .filter_map(|c| {
                    let sub = self.ctor_tys(&c, ty);
                    let n = sub.len();
                    let spec = specialize(rows, &c, n);
                    self.useful(&spec, &sub).map(|w| Pat::Ctor(c, w[..n].to_vec()))
                })
                .collect(),
            None => self.useful(rows, &tys).map(|w| w[0].clone()).into_iter().collect(),
        }
    }

    /// The complete set of constructors of `ty` (for lists, the lengths the
    /// rows distinguish), or `None` for an infinite type.
    fn ctors(&self, rows: &[Vec<Pat>], ty: &Ty) -> Option<Vec<Ctor>> {
        match ty {
            Ty::Bool => Some(vec![Ctor::Bool(true), Ctor::Bool(false)]),
            Ty::Option(_) => Some(vec![Ctor::None, Ctor::Some]),
            Ty::Named(_) => {
                let (_, vs) = self.enum_of(ty)?;
                Some((0..vs.len() as u32).map(Ctor::Variant).collect())
            }
            Ty::List(_) => {
                let longest = rows
                    .iter()
                    .filter_map(|r| match r.first() {
                        Some(Pat::Ctor(Ctor::List(n), _)) => Some(*n),
                        Some(Pat::ListRest(p)) => Some(p.len()),
                        _ => None,
                    })
                    .max()
                    .unwrap_or(0);
                Some((0..=longest + 1).map(Ctor::List).collect())
            }
            _ => None,
        }
    }

    fn ctor_tys(&self, c: &Ctor, ty: &Ty) -> Vec<Ty> {
        match (c, ty) {
            (Ctor::Some, Ty::Option(t)) => vec![(**t).clone()],
            (Ctor::List(n), Ty::List(t)) => vec![(**t).clone(); *n],
            (Ctor::Variant(i), Ty::Named(n)) => match self.type_info(n).map(|t| &t.def) {
                Some(TypeDef::Enum { variants }) => variants
                    .get(*i as usize)
                    .and_then(|v| v.fields.as_ref())
                    .map(|fs| fs.iter().map(|f| f.ty.clone()).collect())
                    .unwrap_or_default(),
                _ => vec![],
            },
            _ => vec![],
        }
    }

    /// A value (one pattern per column) that no row matches, if any.
    fn useful(&self, rows: &[Vec<Pat>], tys: &[Ty]) -> Option<Vec<Pat>> {
        let Some(ty) = tys.first() else {
            return rows.is_empty().then(Vec::new);
        };
        let all_wild = rows.iter().all(|r| matches!(r.first(), Some(Pat::Wild)));
        let ctors = if all_wild { None } else { self.ctors(rows, ty) };
        match ctors {
            Some(ctors) => {
                for c in ctors {
                    let sub = self.ctor_tys(&c, ty);
                    let n = sub.len();
                    let spec = specialize(rows, &c, n);
                    let mut tys2 = sub;
                    tys2.extend_from_slice(&tys[1..]);
                    if let Some(w) = self.useful(&spec, &tys2) {
                        let mut out = vec![Pat::Ctor(c, w[..n].to_vec())];
                        out.extend_from_slice(&w[n..]);
                        return Some(out);
                    }
                }
                None
            }
            None => {
                let default: Vec<Vec<Pat>> =
                    rows.iter().filter(|r| matches!(r.first(), Some(Pat::Wild))).map(|r| r[1..].to_vec()).collect();
                let mut w = self.useful(&default, &tys[1..])?;
                w.insert(0, Pat::Wild);
                Some(w)
            }
        }
    }

    fn show(&self, p: &Pat, ty: &Ty) -> String {
        match p {
            Pat::Wild | Pat::Ctor(Ctor::Lit(_), _) => "_".to_string(),
            Pat::ListRest(ps) => format!("[{}, ..]", ps.iter().map(|_| "_").collect::<Vec<_>>().join(", ")),
            Pat::Ctor(c, subs) => {
                let sub_tys = self.ctor_tys(c, ty);
                let shown: Vec<String> = subs.iter().zip(sub_tys.iter()).map(|(s, t)| self.show(s, t)).collect();
                match c {
                    Ctor::Bool(b) => b.to_string(),
                    Ctor::None => "None".to_string(),
                    Ctor::Some => format!("Some({})", shown.first().cloned().unwrap_or_else(|| "_".into())),
                    Ctor::List(_) => format!("[{}]", shown.join(", ")),
                    Ctor::Lit(s) => s.clone(),
                    Ctor::Variant(i) => {
                        let Some((_, vs)) = self.enum_of(ty) else {
                            return "_".into();
                        };
                        let Some(v) = vs.get(*i as usize) else {
                            return "_".into();
                        };
                        match &v.fields {
                            None => v.name.to_string(),
                            Some(fs) if shown.iter().all(|s| s == "_") || fs.is_empty() => {
                                format!("{} {{ .. }}", v.name)
                            }
                            Some(fs) => {
                                let parts: Vec<String> = fs
                                    .iter()
                                    .zip(&shown)
                                    .filter(|(_, s)| *s != "_")
                                    .map(|(f, s)| format!("{}: {s}", f.name))
                                    .collect();
                                format!("{} {{ {}, .. }}", v.name, parts.join(", "))
                            }
                        }
                    }
                }
            }
        }
    }
}

fn has_error(p: &hir::Pattern) -> bool {
    match &p.kind {
        P::Error => true,
        P::Some(x) => has_error(x),
        P::Variant { fields, .. } => fields.iter().any(|(_, f)| has_error(f)),
        P::List { elems, .. } => elems.iter().any(has_error),
        _ => false,
    }
}

fn lower(p: &hir::Pattern) -> Pat {
    match &p.kind {
        P::Wildcard | P::Bind(_) | P::Error => Pat::Wild,
        P::Lit(hir::Lit::Bool(b)) => Pat::Ctor(Ctor::Bool(*b), vec![]),
        P::Lit(l) => Pat::Ctor(Ctor::Lit(format!("{l:?}")), vec![]),
        P::None => Pat::Ctor(Ctor::None, vec![]),
        P::Some(x) => Pat::Ctor(Ctor::Some, vec![lower(x)]),
        P::Variant { index, fields } => {
            // Sub-patterns by declaration order; unmentioned fields are wild.
            let n = fields.iter().map(|(i, _)| *i as usize + 1).max().unwrap_or(0);
            let mut subs = vec![Pat::Wild; n];
            for (i, f) in fields {
                subs[*i as usize] = lower(f);
            }
            Pat::Ctor(Ctor::Variant(*index), subs)
        }
        P::List { elems, rest: false } => Pat::Ctor(Ctor::List(elems.len()), elems.iter().map(lower).collect()),
        P::List { elems, rest: true } => Pat::ListRest(elems.iter().map(lower).collect()),
    }
}

/// The rows that match constructor `c` (of arity `n`), with its
/// sub-patterns in place of the first column.
fn specialize(rows: &[Vec<Pat>], c: &Ctor, n: usize) -> Vec<Vec<Pat>> {
    rows.iter()
        .filter_map(|r| {
            let (first, rest) = r.split_first()?;
            let mut head: Vec<Pat> = match first {
                Pat::Wild => vec![Pat::Wild; n],
                Pat::Ctor(c2, subs) if c2 == c => {
                    let mut s = subs.clone();
                    s.resize(n, Pat::Wild);
                    s
                }
                Pat::ListRest(prefix) => match c {
                    Ctor::List(len) if *len >= prefix.len() => {
                        let mut s = prefix.clone();
                        s.resize(*len, Pat::Wild);
                        s
                    }
                    _ => return None,
                },
                _ => return None,
            };
            head.extend_from_slice(rest);
            Some(head)
        })
        .collect()
}
