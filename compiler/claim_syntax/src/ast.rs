//! The syntax tree of one module. Every node carries its byte span.
//!
//! Spans take part in equality here on purpose: salsa compares query results
//! to decide whether dependents may reuse theirs, and a tree equal "but for
//! spans" would leave diagnostics pointing at stale offsets.

use crate::digest::DigestKind;
use crate::span::Span;

/// A name as written. Names up to 24 bytes (nearly all) are kept inside
/// the value instead of on the heap: a module's syntax tree is mostly
/// names, and allocating, then freeing, one string for each was a large
/// part of parsing and of dropping a tree.
pub type Name = compact_str::CompactString;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: Name,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Module {
    pub items: Vec<Item>,
}

impl Module {
    /// The module's `use` items, in order.
    pub fn uses(&self) -> impl Iterator<Item = &UseDecl> {
        self.items.iter().filter_map(|item| match &item.kind {
            ItemKind::Use(u) => Some(u),
            _ => None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
    /// The `///` lines right above the item.
    pub docs: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Use(UseDecl),
    Newtype {
        name: Ident,
        underlying: TypeExpr,
    },
    Record(RecordDecl),
    Enum {
        name: Ident,
        variants: Vec<VariantDecl>,
    },
    Refusal {
        name: Ident,
        summary: String,
    },
    Fact {
        name: Ident,
        ty: TypeExpr,
        init: Expr,
    },
    /// Boxed: a function is the largest item and among the rarest.
    Fn(Box<FnDecl>),
    Witness {
        name: Ident,
        stmts: Vec<WitnessStmt>,
    },
    Frontier {
        name: Ident,
        text: Expr,
        condition: Option<Expr>,
    },
    /// A region the parser could not read; its errors are already reported.
    Error,
}

impl ItemKind {
    /// The declared name, where the item has one.
    pub fn name(&self) -> Option<&Ident> {
        match self {
            ItemKind::Newtype { name, .. }
            | ItemKind::Enum { name, .. }
            | ItemKind::Refusal { name, .. }
            | ItemKind::Fact { name, .. }
            | ItemKind::Witness { name, .. }
            | ItemKind::Frontier { name, .. } => Some(name),
            ItemKind::Record(r) => Some(&r.name),
            ItemKind::Fn(f) => Some(&f.name),
            ItemKind::Use(_) | ItemKind::Error => None,
        }
    }
    /// What the item is, in the words of the language.
    pub fn describe(&self) -> &'static str {
        match self {
            ItemKind::Use(_) => "use",
            ItemKind::Newtype { .. } => "newtype",
            ItemKind::Record(_) => "record",
            ItemKind::Enum { .. } => "enum",
            ItemKind::Refusal { .. } => "refusal code",
            ItemKind::Fact { .. } => "fact",
            ItemKind::Fn(_) => "function",
            ItemKind::Witness { .. } => "witness",
            ItemKind::Frontier { .. } => "frontier",
            ItemKind::Error => "item",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UseDecl {
    pub path: Vec<Ident>,
    /// `use a.b.{X, Y}`: the selected names; `None` for `use a.b`.
    pub selection: Option<Vec<Ident>>,
}

impl UseDecl {
    pub fn dotted(&self) -> String {
        self.path.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(".")
    }
    pub fn path_span(&self) -> Span {
        match (self.path.first(), self.path.last()) {
            (Some(a), Some(b)) => a.span.join(b.span),
            _ => Span::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordDecl {
    pub name: Ident,
    pub fields: Vec<FieldDecl>,
    /// Declared with `..`: JSON may carry fields the record does not name.
    pub open: bool,
    /// `@json(camelCase)` before `record`: each field is read from the
    /// camelCase form of its name. The case's name, as written (the
    /// checker takes `camelCase` only, `E0224`).
    pub json_case: Option<Ident>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    /// `@json("key")`: the JSON key when it differs from the field name.
    pub json_key: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantDecl {
    pub name: Ident,
    /// `None` for a unit variant.
    pub fields: Option<Vec<FieldDecl>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub ret: TypeExpr,
    /// `None` only for a `@world` declaration (standard library).
    pub body: Option<Expr>,
    /// `@world` before `fn`.
    pub attribute: Option<Ident>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeExprKind {
    /// `Name`, `module.Name`, `List<T>`, …
    Named {
        path: Vec<Ident>,
        args: Vec<TypeExpr>,
    },
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessStmt {
    pub kind: WitnessStmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessStmtKind {
    /// The annotation is boxed: most `let`s have none.
    Let {
        name: Ident,
        ty: Option<Box<TypeExpr>>,
        value: Expr,
    },
    Holds(Expr),
    Refuses {
        expr: Expr,
        code: Ident,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Concat => "++",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
    }

    /// How tightly the operator binds (every binary operator associates
    /// to the left): the one precedence table, which the parser's operator
    /// table and the formatter's parentheses both read. The forms that are
    /// not binary operators have their places in [`power`].
    pub fn binding_power(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 4,
            BinOp::Concat | BinOp::Add | BinOp::Sub => 5,
            BinOp::Mul | BinOp::Div => 6,
        }
    }

    /// Every operator, loosest first.
    pub const ALL: [BinOp; 13] = [
        BinOp::Or,
        BinOp::And,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::Concat,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::Div,
    ];
}

/// Where the forms that are not binary operators sit in the precedence
/// table of [`BinOp::binding_power`].
pub mod power {
    /// An `if`: its `else` branch runs to the end, so it binds least.
    pub const IF: u8 = 0;
    /// `not e`: looser than a comparison, tighter than `and`.
    pub const NOT: u8 = 3;
    /// `e is P`: as tight as a comparison.
    pub const IS: u8 = 4;
    /// `e.f` and `e(…)`.
    pub const POSTFIX: u8 = 7;
    /// An atom: nothing binds tighter.
    pub const ATOM: u8 = 8;
}

impl ExprKind {
    /// How tightly this form binds, in the table of
    /// [`BinOp::binding_power`] and [`power`].
    pub fn binding_power(&self) -> u8 {
        match self {
            ExprKind::Binary(op, ..) => op.binding_power(),
            ExprKind::Not(_) => power::NOT,
            ExprKind::Is(..) => power::IS,
            ExprKind::If(..) => power::IF,
            _ => power::ATOM,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextPart {
    Lit(String),
    Interp(Expr),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInit {
    pub name: Ident,
    /// `None` for shorthand `Wheel { name }`.
    pub value: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockStmt {
    Let { name: Ident, ty: Option<TypeExpr>, value: Expr, span: Span },
    Require { cond: Expr, code: Ident, message: Expr, span: Span },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchArm {
    pub pattern: Pattern,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(i64),
    Duration(i64),
    Bool(bool),
    Digest(DigestKind, String),
    Text(Vec<TextPart>),
    Name(Ident),
    /// `e.field` — also `module.item` and `Enum.Variant`; the resolver decides.
    Field(Box<Expr>, Ident),
    Call(Box<Expr>, Vec<Expr>),
    Record {
        path: Vec<Ident>,
        fields: Vec<FieldInit>,
    },
    List(Vec<Expr>),
    /// `[elem for var in iter if cond]`, boxed: it is rare and large.
    Comprehension(Box<Comprehension>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// The pattern is boxed: it is as large as an expression's other
    /// variants together, and `is` is rare.
    Is(Box<Expr>, Box<Pattern>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Match(Box<Expr>, Vec<MatchArm>),
    Block(Vec<BlockStmt>, Box<Expr>),
    Refuse {
        code: Ident,
        message: Box<Expr>,
    },
    Some(Box<Expr>),
    None,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comprehension {
    pub elem: Expr,
    pub var: Ident,
    pub iter: Expr,
    pub cond: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub kind: PatternKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldPattern {
    pub name: Ident,
    /// `None` for shorthand `{ from }`, which binds `from`.
    pub pattern: Option<Pattern>,
}

impl PatternKind {
    /// A pattern that starts with a name: `_`, a binding (or unit
    /// variant), or a variant with a path or fields. Both parsers build
    /// them here, so they cannot disagree.
    pub fn named(mut path: Vec<Ident>, fields: Option<(Vec<FieldPattern>, bool)>) -> PatternKind {
        if path.len() == 1 && fields.is_none() {
            let id = path.remove(0);
            if id.name == "_" {
                PatternKind::Wildcard
            } else {
                PatternKind::Name(id)
            }
        } else {
            PatternKind::Variant { path, fields }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternKind {
    Wildcard,
    /// A bare name: a binding, or a unit variant of the matched enum.
    Name(Ident),
    Int(i64),
    Text(String),
    Bool(bool),
    Digest(DigestKind, String),
    Duration(i64),
    None,
    Some(Box<Pattern>),
    /// `Variant`, `Enum.Variant`, `Variant { f, g: p, .. }`.
    Variant {
        path: Vec<Ident>,
        fields: Option<(Vec<FieldPattern>, bool)>,
    },
    List {
        elems: Vec<Pattern>,
        rest: bool,
    },
    Error,
}

#[cfg(test)]
mod tests {
    /// A large project's syntax trees are the run's largest structure while
    /// they are alive; these sizes keep them from growing back by accident
    /// (an `is` pattern inline made every expression 80 bytes).
    #[test]
    fn nodes_stay_small() {
        assert_eq!(std::mem::size_of::<super::Expr>(), 56);
        assert_eq!(std::mem::size_of::<super::WitnessStmt>(), 104);
        assert_eq!(std::mem::size_of::<super::Item>(), 184);
    }
}
