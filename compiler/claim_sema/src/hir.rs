//! The checked program: names resolved, types known, coercions explicit.
//! The evaluator runs this, never the syntax tree.

use crate::ty::{GlobalName, Ty};
use claim_syntax::ast::BinOp;
use claim_syntax::digest::DigestKind;
use claim_syntax::{Loc, Span};
use std::sync::Arc;

/// A local variable's slot in its frame.
pub type Slot = u32;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lit {
    Int(i64),
    Duration(i64),
    Bool(bool),
    Text(Arc<str>),
    Digest(DigestKind, Arc<[u8]>),
}

/// What an operator does, decided by the checker from its operand types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    Int,
    Duration,
    /// Duration * Int (`swapped`: Int * Duration).
    DurationTimesInt {
        swapped: bool,
    },
    Text,
    List,
    Bool,
    /// `==`/`!=` on any type: structural.
    Structural,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Len,
    Get,
    Keys,
    Raw,
    TextOf,
    Hex,
    Take,
    StartsWith,
    EndsWith,
    Contains,
    Split,
    Join,
    All,
    Any,
    Sum,
    Count,
    Seconds,
    Minutes,
    Hours,
    ParseSha256,
    ParseSha1,
    ParseSha512,
    Sha512,
    Sha256,
    FoldSha256,
    Lower,
    Upper,
    Trim,
    Replace,
    ParseInt,
    Nth,
    First,
    Last,
    UnwrapOr,
    Sort,
    Distinct,
    JsonGet,
    JsonText,
    JsonInt,
    JsonBool,
    JsonList,
    JsonMap,
}

/// The functions that read the outside world (§6): fact initializers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorldFn {
    Load,
    FileSha256,
    FileSha512,
    GitTree,
    OciImage,
    OciImageFor,
    OciIndex,
    GitCommit,
    PublicKey,
    Dsse,
}

impl WorldFn {
    pub fn name(self) -> &'static str {
        match self {
            WorldFn::Load => "load",
            WorldFn::FileSha256 => "file_sha256",
            WorldFn::FileSha512 => "file_sha512",
            WorldFn::GitTree => "git_tree",
            WorldFn::OciImage => "oci_image",
            WorldFn::OciImageFor => "oci_image_for",
            WorldFn::OciIndex => "oci_index",
            WorldFn::GitCommit => "git_commit",
            WorldFn::PublicKey => "public_key",
            WorldFn::Dsse => "dsse",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    pub ty: Ty,
}

impl Expr {
    /// A text literal the source spells letter for letter (no escapes: one
    /// would make the source longer than the text), and the span of its
    /// letters inside the quotes: where a fix of a path or an editor's
    /// link goes.
    pub fn plain_text(&self) -> Option<(&Arc<str>, Span)> {
        match &self.kind {
            ExprKind::Lit(Lit::Text(t))
                if self.span.end.checked_sub(self.span.start) == u32::try_from(t.len() + 2).ok() =>
            {
                Some((t, Span { start: self.span.start + 1, end: self.span.end - 1 }))
            }
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextPart {
    Lit(Arc<str>),
    Expr(Expr),
}

// A checked program is mostly expressions (a run holds hundreds of
// thousands): an expression is kept to seven words. Larger payloads are
// boxed, lists are boxed slices (no spare capacity), names are shared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Lit(Lit),
    Text(Box<[TextPart]>),
    /// A local by its slot (its name is the source's, at the span).
    Local(Slot),
    Fact(Arc<GlobalName>),
    Call(Arc<GlobalName>, Box<[Expr]>),
    Builtin(Builtin, Box<[Expr]>),
    /// A world call; the result type is `Expr::ty` (what `load` decodes into).
    World(WorldFn, Box<[Expr]>),
    Field(Box<Expr>, u32, Arc<str>),
    Record(Box<RecordExpr>),
    Variant(Box<VariantExpr>),
    List(Box<[Expr]>),
    Comprehension {
        elem: Box<Expr>,
        slot: Slot,
        iter: Box<Expr>,
        cond: Option<Box<Expr>>,
    },
    Binary(BinOp, OpKind, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Is(Box<Expr>, Box<Pattern>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Match(Box<Expr>, Box<[(Pattern, Expr)]>),
    Block(Box<[Stmt]>, Box<Expr>),
    Refuse {
        code: Arc<str>,
        message: Box<Expr>,
    },
    Some(Box<Expr>),
    None,
    /// Newtype conversion `N(e)`: the identity at run time.
    Wrap(Box<Expr>),
    /// A region with an error already reported; never evaluated.
    Error,
}

/// A record built from its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordExpr {
    pub ty: Arc<GlobalName>,
    pub names: Arc<[Arc<str>]>,
    /// Fields as written: `(declaration index, value)`, evaluated in this order.
    pub fields: Box<[(u32, Expr)]>,
}

/// An enum variant, with its fields if it has any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantExpr {
    pub ty: Arc<GlobalName>,
    pub index: u32,
    pub name: Arc<str>,
    pub names: Option<Arc<[Arc<str>]>>,
    /// Fields as written: `(declaration index, value)`, evaluated in this order.
    pub fields: Box<[(u32, Expr)]>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Let { slot: Slot, value: Expr },
    Require { cond: Expr, code: Arc<str>, message: Expr, span: Span },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub kind: PatternKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternKind {
    Wildcard,
    Bind(Slot),
    Lit(Lit),
    None,
    Some(Box<Pattern>),
    /// A variant by index, with field patterns by declaration index.
    Variant {
        index: u32,
        fields: Vec<(u32, Pattern)>,
    },
    List {
        elems: Vec<Pattern>,
        rest: bool,
    },
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: GlobalName,
    pub params: Vec<(Arc<str>, Ty)>,
    pub ret: Ty,
    pub body: Expr,
    pub frame_size: u32,
    pub loc: Loc,
    pub docs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fact {
    pub name: GlobalName,
    pub ty: Ty,
    pub init: Expr,
    pub frame_size: u32,
    pub loc: Loc,
    pub docs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessStmtKind {
    Let { slot: Slot, value: Expr },
    Holds(Expr),
    Refuses { expr: Expr, code: Arc<str>, code_span: Span },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessStmt {
    pub kind: WitnessStmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub name: Arc<str>,
    pub module: Arc<str>,
    pub stmts: Vec<WitnessStmt>,
    pub frame_size: u32,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frontier {
    pub name: Arc<str>,
    pub module: Arc<str>,
    pub text: Expr,
    pub condition: Option<Expr>,
    pub frame_size: u32,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: Arc<str>,
    pub summary: Arc<str>,
    pub loc: Loc,
}

/// One module, checked.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Module {
    pub functions: Vec<Function>,
    pub facts: Vec<Fact>,
    pub witnesses: Vec<Witness>,
    pub frontiers: Vec<Frontier>,
}

/// Calls `f` on an expression and every expression inside it.
pub fn visit<'e>(e: &'e Expr, f: &mut impl FnMut(&'e Expr)) {
    f(e);
    let each = |xs: &'e [Expr], f: &mut dyn FnMut(&'e Expr)| {
        for x in xs {
            visit_dyn(x, f);
        }
    };
    match &e.kind {
        ExprKind::Lit(_) | ExprKind::Local(..) | ExprKind::Fact(_) | ExprKind::None | ExprKind::Error => {}
        ExprKind::Text(parts) => {
            for p in parts {
                if let TextPart::Expr(x) = p {
                    visit(x, f);
                }
            }
        }
        ExprKind::Call(_, args) | ExprKind::Builtin(_, args) | ExprKind::World(_, args) | ExprKind::List(args) => {
            each(args, f)
        }
        ExprKind::Field(x, _, _) | ExprKind::Not(x) | ExprKind::Some(x) | ExprKind::Wrap(x) | ExprKind::Is(x, _) => {
            visit(x, f)
        }
        ExprKind::Record(r) => {
            for (_, x) in &r.fields {
                visit(x, f);
            }
        }
        ExprKind::Variant(v) => {
            for (_, x) in &v.fields {
                visit(x, f);
            }
        }
        ExprKind::Comprehension { elem, iter, cond, .. } => {
            visit(iter, f);
            if let Some(c) = cond {
                visit(c, f);
            }
            visit(elem, f);
        }
        ExprKind::Binary(_, _, l, r) => {
            visit(l, f);
            visit(r, f);
        }
        ExprKind::If(c, a, b) => {
            visit(c, f);
            visit(a, f);
            visit(b, f);
        }
        ExprKind::Match(s, arms) => {
            visit(s, f);
            for (_, x) in arms.iter() {
                visit(x, f);
            }
        }
        ExprKind::Block(stmts, r) => {
            for s in stmts.iter() {
                match s {
                    Stmt::Let { value, .. } => visit(value, f),
                    Stmt::Require { cond, message, .. } => {
                        visit(cond, f);
                        visit(message, f);
                    }
                }
            }
            visit(r, f);
        }
        ExprKind::Refuse { message, .. } => visit(message, f),
    }
}

/// The first expression or pattern of the module that the checker left
/// without a type (`Ty::Error`, an error node). The checker makes one only
/// where it reports an error; in a program without errors one is a bug in
/// the checker, and the program must not run (it would mis-match, or fail
/// open).
pub fn first_untyped(m: &Module) -> Option<Span> {
    let mut found: Option<Span> = None;
    let mut look = |e: &Expr| {
        if found.is_some() {
            return;
        }
        // A pattern over a value that never arrives (a `refuse`) is never
        // tried, and is checked against nothing.
        let pattern = match &e.kind {
            ExprKind::Match(s, arms) if s.ty != Ty::Never => arms.iter().find_map(|(p, _)| untyped_pattern(p)),
            ExprKind::Is(s, p) if s.ty != Ty::Never => untyped_pattern(p),
            _ => None,
        };
        if e.ty.has_error() || matches!(e.kind, ExprKind::Error) {
            found = Some(e.span);
        } else if pattern.is_some() {
            found = pattern;
        }
    };
    let witness_exprs = m.witnesses.iter().flat_map(|w| w.stmts.iter()).map(|s| match &s.kind {
        WitnessStmtKind::Let { value, .. } => value,
        WitnessStmtKind::Holds(e) => e,
        WitnessStmtKind::Refuses { expr, .. } => expr,
    });
    let frontier_exprs = m.frontiers.iter().flat_map(|f| std::iter::once(&f.text).chain(f.condition.as_ref()));
    for e in m
        .functions
        .iter()
        .map(|f| &f.body)
        .chain(m.facts.iter().map(|f| &f.init))
        .chain(witness_exprs)
        .chain(frontier_exprs)
    {
        visit(e, &mut look);
    }
    found
}

fn untyped_pattern(p: &Pattern) -> Option<Span> {
    match &p.kind {
        PatternKind::Error => Some(p.span),
        PatternKind::Some(x) => untyped_pattern(x),
        PatternKind::Variant { fields, .. } => fields.iter().find_map(|(_, x)| untyped_pattern(x)),
        PatternKind::List { elems, .. } => elems.iter().find_map(untyped_pattern),
        PatternKind::Wildcard | PatternKind::Bind(_) | PatternKind::Lit(_) | PatternKind::None => None,
    }
}

fn visit_dyn<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    visit(e, &mut |x| f(x));
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_expression_is_seven_words() {
        assert_eq!(std::mem::size_of::<super::Expr>(), 56);
        assert_eq!(std::mem::size_of::<super::ExprKind>(), 32);
    }
}
