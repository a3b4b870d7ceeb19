//! How deeply a module's expressions, patterns and types nest: the limit on
//! nesting (`--max-nesting`) is checked against this. Walked with an
//! explicit stack, so a tree of any depth is measured without recursion.

use crate::ast::{
    BlockStmt, Expr, ExprKind, ItemKind, Module, Pattern, PatternKind, TextPart, TypeExpr, TypeExprKind,
    WitnessStmtKind,
};
use crate::span::Span;

enum Node<'a> {
    Expr(&'a Expr),
    Pat(&'a Pattern),
    Ty(&'a TypeExpr),
}

/// The deepest nesting in the module and the span of the node that reaches
/// it (depth 1 is a node directly in an item).
pub fn max_depth(module: &Module) -> (usize, Span) {
    deepest(module.items.iter())
}

/// `max_depth`, where it is deeper than `limit`; `None` where it is not.
/// Only items that could be deeper are walked: every level of a nesting
/// has a token of its own (an operator, a bracket, a keyword, a name) but
/// a recovered `Error` leaf, and a token is at least a byte, so an item
/// nests no deeper than its length in bytes plus one. Walking every tree
/// of a large project was a tenth of loading it.
pub fn deeper_than(module: &Module, limit: usize) -> Option<(usize, Span)> {
    let (depth, at) =
        deepest(module.items.iter().filter(|i| i.span.end.saturating_sub(i.span.start) as usize >= limit));
    (depth > limit).then_some((depth, at))
}

fn deepest<'a>(items: impl Iterator<Item = &'a crate::ast::Item>) -> (usize, Span) {
    let mut stack: Vec<(Node<'_>, usize)> = Vec::new();
    for item in items {
        match &item.kind {
            ItemKind::Newtype { underlying, .. } => stack.push((Node::Ty(underlying), 1)),
            ItemKind::Record(r) => stack.extend(r.fields.iter().map(|f| (Node::Ty(&f.ty), 1))),
            ItemKind::Enum { variants, .. } => {
                stack.extend(variants.iter().flat_map(|v| v.fields.iter().flatten()).map(|f| (Node::Ty(&f.ty), 1)))
            }
            ItemKind::Fact { ty, init, .. } => stack.extend([(Node::Ty(ty), 1), (Node::Expr(init), 1)]),
            ItemKind::Fn(f) => {
                stack.extend(f.params.iter().map(|p| (Node::Ty(&p.ty), 1)));
                stack.push((Node::Ty(&f.ret), 1));
                stack.extend(f.body.iter().map(|b| (Node::Expr(b), 1)));
            }
            ItemKind::Witness { stmts, .. } => {
                for s in stmts {
                    match &s.kind {
                        WitnessStmtKind::Let { ty, value, .. } => {
                            stack.extend(ty.iter().map(|t| (Node::Ty(t), 1)));
                            stack.push((Node::Expr(value), 1));
                        }
                        WitnessStmtKind::Holds(e) | WitnessStmtKind::Refuses { expr: e, .. } => {
                            stack.push((Node::Expr(e), 1))
                        }
                    }
                }
            }
            ItemKind::Frontier { text, condition, .. } => {
                stack.push((Node::Expr(text), 1));
                stack.extend(condition.iter().map(|c| (Node::Expr(c), 1)));
            }
            ItemKind::Use(_) | ItemKind::Refusal { .. } | ItemKind::Error => {}
        }
    }
    let mut best = (0usize, Span::default());
    while let Some((node, d)) = stack.pop() {
        let span = match &node {
            Node::Expr(e) => e.span,
            Node::Pat(p) => p.span,
            Node::Ty(t) => t.span,
        };
        if d > best.0 {
            best = (d, span);
        }
        let n = d + 1;
        match node {
            Node::Ty(t) => {
                if let TypeExprKind::Named { args, .. } = &t.kind {
                    stack.extend(args.iter().map(|a| (Node::Ty(a), n)));
                }
            }
            Node::Pat(p) => match &p.kind {
                PatternKind::Some(x) => stack.push((Node::Pat(x), n)),
                PatternKind::Variant { fields: Some((fs, _)), .. } => {
                    stack.extend(fs.iter().filter_map(|f| f.pattern.as_ref()).map(|x| (Node::Pat(x), n)))
                }
                PatternKind::List { elems, .. } => stack.extend(elems.iter().map(|x| (Node::Pat(x), n))),
                _ => {}
            },
            Node::Expr(e) => match &e.kind {
                ExprKind::Text(parts) => stack.extend(parts.iter().filter_map(|p| match p {
                    TextPart::Interp(x) => Some((Node::Expr(x), n)),
                    TextPart::Lit(_) => None,
                })),
                ExprKind::Field(x, _) | ExprKind::Not(x) | ExprKind::Some(x) => stack.push((Node::Expr(x), n)),
                ExprKind::Refuse { message, .. } => stack.push((Node::Expr(message), n)),
                ExprKind::Call(f, args) => {
                    stack.push((Node::Expr(f), n));
                    stack.extend(args.iter().map(|a| (Node::Expr(a), n)));
                }
                ExprKind::Record { fields, .. } => {
                    stack.extend(fields.iter().filter_map(|f| f.value.as_ref()).map(|v| (Node::Expr(v), n)))
                }
                ExprKind::List(xs) => stack.extend(xs.iter().map(|x| (Node::Expr(x), n))),
                ExprKind::Comprehension(c) => {
                    let crate::ast::Comprehension { elem, iter, cond, .. } = &**c;
                    stack.extend([(Node::Expr(elem), n), (Node::Expr(iter), n)]);
                    stack.extend(cond.iter().map(|c| (Node::Expr(c), n)));
                }
                ExprKind::Binary(_, l, r) => stack.extend([(Node::Expr(l), n), (Node::Expr(r), n)]),
                ExprKind::Is(x, p) => stack.extend([(Node::Expr(x), n), (Node::Pat(p), n)]),
                ExprKind::If(c, a, b) => stack.extend([(Node::Expr(c), n), (Node::Expr(a), n), (Node::Expr(b), n)]),
                ExprKind::Match(s, arms) => {
                    stack.push((Node::Expr(s), n));
                    for a in arms {
                        stack.extend([(Node::Pat(&a.pattern), n), (Node::Expr(&a.body), n)]);
                    }
                }
                ExprKind::Block(stmts, r) => {
                    for s in stmts {
                        match s {
                            BlockStmt::Let { ty, value, .. } => {
                                stack.extend(ty.iter().map(|t| (Node::Ty(t), n)));
                                stack.push((Node::Expr(value), n));
                            }
                            BlockStmt::Require { cond, message, .. } => {
                                stack.extend([(Node::Expr(cond), n), (Node::Expr(message), n)])
                            }
                        }
                    }
                    stack.push((Node::Expr(r), n));
                }
                ExprKind::Int(_)
                | ExprKind::Duration(_)
                | ExprKind::Bool(_)
                | ExprKind::Digest(..)
                | ExprKind::Name(_)
                | ExprKind::None
                | ExprKind::Error => {}
            },
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `.claim` file of the repository and the conformance suite.
    fn sources() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut out = Vec::new();
        let mut dirs = vec![
            root.join("stdlib"),
            root.join("claims"),
            root.join("examples"),
            root.join("tests"),
            root.join("../shared/conformance"),
        ];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "claim") {
                    out.extend(std::fs::read_to_string(&p).ok());
                }
            }
        }
        out
    }

    #[test]
    fn walking_only_long_items_finds_what_walking_all_does() {
        let mut texts = sources();
        assert!(texts.len() > 50, "found {} files", texts.len());
        // Deep ones, where the long item is not the first or the last.
        texts.push(format!("fact a: Int = 1\nfact b: Int = {}1\nfact c: Int = 2\n", "1 + ".repeat(40)));
        texts.push(format!("fact a: Int = 1\nfact b: List<Int> = {}1{}\n", "[".repeat(30), "]".repeat(30)));
        for text in &texts {
            let m = crate::parse_module(text).module;
            let all = max_depth(&m);
            for limit in [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 10_000] {
                assert_eq!(deeper_than(&m, limit), (all.0 > limit).then_some(all), "limit {limit}:\n{text}");
            }
        }
    }

    #[test]
    fn nesting_is_measured_without_recursion() {
        let deep = format!("fact x: Int = {}1{}\n", "(".repeat(20_000), ")".repeat(20_000));
        let parsed = crate::parse_module(&deep);
        assert!(parsed.errors.is_empty());
        // Parentheses are not nodes; the literal is one expression deep.
        assert_eq!(max_depth(&parsed.module).0, 1);
        let deep = format!("fact x: List<Int> = {}1{}\n", "[".repeat(3000), "]".repeat(3000));
        let parsed = crate::parse_module(&deep);
        let (d, span) = max_depth(&parsed.module);
        assert_eq!(d, 3001);
        assert_eq!(&deep[span.range()], "1");
    }
}
