//! Expressions (§4): atoms, the operator table, blocks and statements.
//!
//! Two flavours share one grammar: the full expression, and the one used
//! in conditions (`if`, `match`, `require`, `dissolves when`), where a `{`
//! always ends the expression, so `match x { … }` is never a record literal.

use super::patterns::pattern;
use super::types::{ident, punct, type_expr};
use super::{Extra, PErr, TokenInput};
use crate::ast::{BinOp, BlockStmt, Comprehension, Expr, ExprKind, FieldInit, Ident, MatchArm, Name, TextPart};
use crate::token::{Keyword, Token};
use chumsky::pratt::{infix, left, postfix, prefix};
use chumsky::prelude::*;

pub(crate) fn kw<'t, I: TokenInput<'t>, E: PErr<'t, I>>(k: Keyword) -> impl Parser<'t, I, Token, Extra<E>> + Clone {
    just(Token::Kw(k))
}

/// An expression parser, boxed so both flavours have one type.
pub(crate) type ExprParser<'t, I, E> = chumsky::Boxed<'t, 't, I, Expr, Extra<E>>;

/// `(full, condition)` expression parsers.
///
/// Built with nested `recursive` so that each parser refers to itself only
/// weakly: two parsers declared separately and defined in terms of each
/// other would hold each other strongly and never be freed (LeakSanitizer
/// found that, fuzzing the parser).
pub(crate) fn expressions<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>() -> (ExprParser<'t, I, E>, ExprParser<'t, I, E>)
{
    let condition = |full: ExprParser<'t, I, E>| {
        recursive(move |cond| operators(atom(full.clone(), cond.boxed(), false), full.clone(), false)).boxed()
    };
    let full = recursive(move |full| {
        let full = full.boxed();
        let cond = condition(full.clone());
        operators(atom(full.clone(), cond, true), full, true)
    })
    .boxed();
    let cond = condition(full.clone());
    (full, cond)
}

/// Binds a span to an expression kind.
fn spanned(kind: ExprKind, span: SimpleSpan) -> Expr {
    Expr { kind, span: span.into() }
}

fn bin(op: BinOp, l: Expr, r: Expr) -> Expr {
    let span = l.span.join(r.span);
    Expr { kind: ExprKind::Binary(op, Box::new(l), Box::new(r)), span }
}

fn operators<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    atom: impl Parser<'t, I, Expr, Extra<E>> + Clone + 't,
    full: impl Parser<'t, I, Expr, Extra<E>> + Clone + 't,
    allow_fields: bool,
) -> impl Parser<'t, I, Expr, Extra<E>> + Clone {
    let args = full
        .clone()
        .separated_by(punct(","))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(punct("("), punct(")"))
        .map_with(|a, e| (a, e.span()));
    let op = |s: &'static str, o: BinOp| punct(s).to(o);
    let cmp = choice((
        op("==", BinOp::Eq),
        op("!=", BinOp::Ne),
        op("<=", BinOp::Le),
        op(">=", BinOp::Ge),
        op("<", BinOp::Lt),
        op(">", BinOp::Gt),
    ));
    let add = choice((op("++", BinOp::Concat), op("+", BinOp::Add), op("-", BinOp::Sub)));
    let mul = choice((op("*", BinOp::Mul), op("/", BinOp::Div)));
    atom.pratt((
        postfix(7, punct(".").ignore_then(ident()), |l: Expr, f: Ident, _| {
            let span = l.span.join(f.span);
            Expr { kind: ExprKind::Field(Box::new(l), f), span }
        }),
        postfix(7, args, |l: Expr, (a, s): (Vec<Expr>, SimpleSpan), _| {
            let span = l.span.join(s.into());
            Expr { kind: ExprKind::Call(Box::new(l), a), span }
        }),
        infix(left(6), mul, |l, o, r, _| bin(o, l, r)),
        infix(left(5), add, |l, o, r, _| bin(o, l, r)),
        infix(left(4), cmp, |l, o, r, _| bin(o, l, r)),
        postfix(4, kw(Keyword::Is).ignore_then(pattern(allow_fields)), |l: Expr, p: crate::ast::Pattern, _| {
            let span = l.span.join(p.span);
            Expr { kind: ExprKind::Is(Box::new(l), Box::new(p)), span }
        }),
        prefix(3, kw(Keyword::Not).map_with(|_, e| e.span()), |s: SimpleSpan, r: Expr, _| {
            let span = crate::span::Span::from(s).join(r.span);
            Expr { kind: ExprKind::Not(Box::new(r)), span }
        }),
        infix(left(2), kw(Keyword::And).to(BinOp::And), |l, o, r, _| bin(o, l, r)),
        infix(left(1), kw(Keyword::Or).to(BinOp::Or), |l, o, r, _| bin(o, l, r)),
    ))
    .labelled("expression")
    .boxed()
}

/// A text literal with interpolations.
pub(crate) fn text_literal<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    full: impl Parser<'t, I, Expr, Extra<E>> + Clone + 't,
) -> impl Parser<'t, I, Expr, Extra<E>> + Clone {
    let interp = full
        .delimited_by(just(Token::InterpOpen), just(Token::InterpClose))
        .recover_with(via_parser(nested_delimiters(Token::InterpOpen, Token::InterpClose, [], |span: SimpleSpan| {
            spanned(ExprKind::Error, span)
        })))
        .map(TextPart::Interp);
    let chunk = select! { Token::StrChunk(s) => TextPart::Lit(s) };
    chunk
        .or(interp)
        .repeated()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::StrStart), just(Token::StrEnd))
        .map_with(|parts, e| spanned(ExprKind::Text(parts), e.span()))
        .labelled("text literal")
        .boxed()
}

fn atom<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    full: ExprParser<'t, I, E>,
    cond: ExprParser<'t, I, E>,
    allow_fields: bool,
) -> impl Parser<'t, I, Expr, Extra<E>> + Clone {
    let literal = select! {
        Token::Int(n) => ExprKind::Int(n),
        Token::Duration(n) => ExprKind::Duration(n),
        Token::Digest(k, h) => ExprKind::Digest(k, h),
        Token::Kw(Keyword::True) => ExprKind::Bool(true),
        Token::Kw(Keyword::False) => ExprKind::Bool(false),
        Token::Kw(Keyword::None) => ExprKind::None,
        // A token the lexer already reported stands for an expression, so
        // that one bad literal is one error.
        Token::Error => ExprKind::Error,
    }
    .map_with(|k, e| spanned(k, e.span()));

    let text = text_literal(full.clone());

    let some = kw(Keyword::Some)
        .ignore_then(full.clone().delimited_by(punct("("), punct(")")))
        .map_with(|x, e| spanned(ExprKind::Some(Box::new(x)), e.span()));

    let field_init =
        ident().then(punct(":").ignore_then(full.clone()).or_not()).map(|(name, value)| FieldInit { name, value });
    let record_body =
        field_init.separated_by(punct(",")).allow_trailing().collect::<Vec<_>>().delimited_by(punct("{"), punct("}"));
    let path = ident().separated_by(punct(".")).at_least(1).collect::<Vec<_>>();
    let path_atom =
        if allow_fields { path.then(record_body.or_not()).boxed() } else { path.map(|p| (p, None)).boxed() }.map_with(
            |(path, body), e| match body {
                Some(fields) => spanned(ExprKind::Record { path, fields }, e.span()),
                None => {
                    let mut it = path.into_iter();
                    let first = it.next().unwrap_or(Ident { name: Name::default(), span: e.span().into() });
                    let mut expr = Expr { span: first.span, kind: ExprKind::Name(first) };
                    for f in it {
                        let span = expr.span.join(f.span);
                        expr = Expr { kind: ExprKind::Field(Box::new(expr), f), span };
                    }
                    expr
                }
            },
        );

    let list = full
        .clone()
        .then(
            kw(Keyword::For)
                .ignore_then(ident())
                .then_ignore(kw(Keyword::In))
                .then(full.clone())
                .then(kw(Keyword::If).ignore_then(full.clone()).or_not())
                .map(Ok)
                .or(punct(",")
                    .ignore_then(full.clone().separated_by(punct(",")).allow_trailing().collect::<Vec<_>>())
                    .or_not()
                    .map(Err)),
        )
        .or_not()
        .delimited_by(punct("["), punct("]"))
        .map_with(|body, e| {
            let kind = match body {
                None => ExprKind::List(vec![]),
                Some((elem, Ok(((var, iter), cond)))) => {
                    ExprKind::Comprehension(Box::new(Comprehension { elem, var, iter, cond }))
                }
                Some((first, Err(rest))) => {
                    let mut v = vec![first];
                    v.extend(rest.unwrap_or_default());
                    ExprKind::List(v)
                }
            };
            spanned(kind, e.span())
        });

    let if_ = kw(Keyword::If)
        .ignore_then(cond.clone())
        .then_ignore(kw(Keyword::Then))
        .then(full.clone())
        .then_ignore(kw(Keyword::Else))
        .then(full.clone())
        .map_with(|((c, a), b), e| spanned(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), e.span()));

    let arm =
        pattern(true).then_ignore(punct("=>")).then(full.clone()).map(|(pattern, body)| MatchArm { pattern, body });
    let match_ = kw(Keyword::Match)
        .ignore_then(cond.clone())
        .then(
            arm.separated_by(punct(","))
                .allow_trailing()
                .collect::<Vec<_>>()
                .delimited_by(punct("{"), punct("}"))
                .recover_with(via_parser(nested_delimiters(
                    Token::Punct("{"),
                    Token::Punct("}"),
                    [(Token::Punct("("), Token::Punct(")")), (Token::Punct("["), Token::Punct("]"))],
                    |_| Vec::new(),
                ))),
        )
        .map_with(|(s, arms), e| spanned(ExprKind::Match(Box::new(s), arms), e.span()));

    let refuse = kw(Keyword::Refuse)
        .ignore_then(ident().labelled("refusal code"))
        .then(text_literal(full.clone()))
        .map_with(|(code, message), e| spanned(ExprKind::Refuse { code, message: Box::new(message) }, e.span()));

    let block = block(full.clone(), cond.clone());

    let paren = full.clone().delimited_by(punct("("), punct(")"));

    choice((literal, text, some, if_, match_, refuse, block, list, path_atom, paren))
        .recover_with(via_parser(nested_delimiters(
            Token::Punct("("),
            Token::Punct(")"),
            [(Token::Punct("["), Token::Punct("]")), (Token::Punct("{"), Token::Punct("}"))],
            |span: SimpleSpan| spanned(ExprKind::Error, span),
        )))
        .recover_with(via_parser(nested_delimiters(
            Token::Punct("["),
            Token::Punct("]"),
            [(Token::Punct("("), Token::Punct(")")), (Token::Punct("{"), Token::Punct("}"))],
            |span: SimpleSpan| spanned(ExprKind::Error, span),
        )))
        .boxed()
}

/// `{ let x = e; require c else refuse Code "…"; result }`
pub(crate) fn block<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    full: impl Parser<'t, I, Expr, Extra<E>> + Clone + 't,
    cond: impl Parser<'t, I, Expr, Extra<E>> + Clone + 't,
) -> impl Parser<'t, I, Expr, Extra<E>> + Clone {
    let let_ = kw(Keyword::Let)
        .ignore_then(ident())
        .then(punct(":").ignore_then(type_expr()).or_not())
        .then_ignore(punct("="))
        .then(full.clone())
        .map_with(|((name, ty), value), e| BlockStmt::Let { name, ty, value, span: e.span().into() });
    let require = kw(Keyword::Require)
        .ignore_then(cond)
        .then_ignore(kw(Keyword::Else))
        .then_ignore(kw(Keyword::Refuse))
        .then(ident().labelled("refusal code"))
        .then(text_literal(full.clone()))
        .map_with(|((cond, code), message), e| BlockStmt::Require { cond, code, message, span: e.span().into() });
    let stmt = let_.or(require).then_ignore(punct(";"));
    stmt.repeated()
        .collect::<Vec<_>>()
        .then(full)
        .delimited_by(punct("{"), punct("}"))
        .map_with(|(stmts, result), e| spanned(ExprKind::Block(stmts, Box::new(result)), e.span()))
        .recover_with(via_parser(nested_delimiters(
            Token::Punct("{"),
            Token::Punct("}"),
            [(Token::Punct("("), Token::Punct(")")), (Token::Punct("["), Token::Punct("]"))],
            |span: SimpleSpan| spanned(ExprKind::Error, span),
        )))
        .labelled("block")
        .boxed()
}
