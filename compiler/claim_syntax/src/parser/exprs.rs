//! Expressions (§4): atoms, the operator table, blocks and statements.
//!
//! Two flavours share one grammar: the full expression, and the one used
//! in conditions (`if`, `match`, `require`, `dissolves when`), where a `{`
//! always ends the expression, so `match x { … }` is never a record literal.

use super::patterns::pattern;
use super::types::{ident, punct, punct_token, type_expr};
use super::{values, Extra, PErr, TokenInput};
use crate::ast::{power, BinOp, BlockStmt, Comprehension, Expr, ExprKind, FieldInit, Ident, MatchArm, Name, TextPart};
use crate::span::Span;
use crate::token::{Keyword, Token};
use chumsky::pratt::{infix, left, postfix, prefix};
use chumsky::prelude::*;

pub(crate) fn kw<'t, I: TokenInput<'t>, E: PErr<'t, I>>(k: Keyword) -> impl Parser<'t, I, Token, Extra<'t, E>> + Clone {
    just(Token::Kw(k))
}

/// An expression parser, boxed so both flavours have one type.
pub(crate) type ExprParser<'t, I, E> = chumsky::Boxed<'t, 't, I, Expr, Extra<'t, E>>;

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
fn spanned(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

/// The powers of the table's binary operators, tightest first: each is
/// one level of the parser's operator table (a test holds them to
/// [`BinOp::binding_power`]).
const LEVELS: [u8; 5] = [6, 5, 4, 2, 1];

/// The token an operator is written with.
fn operator_token(op: BinOp) -> Token {
    match op {
        BinOp::And => Token::Kw(Keyword::And),
        BinOp::Or => Token::Kw(Keyword::Or),
        other => punct_token(other.symbol()),
    }
}

/// A binary operator that binds at `power` in the precedence table
/// ([`BinOp::binding_power`]), and which it is. On a token that is none of
/// them, the error expects each of them, by name.
fn operator_at<'t, I: TokenInput<'t>, E: PErr<'t, I>>(power: u8) -> impl Parser<'t, I, BinOp, Extra<'t, E>> + Clone {
    let ops: Vec<(Token, BinOp)> =
        BinOp::ALL.into_iter().filter(|op| op.binding_power() == power).map(|op| (operator_token(op), op)).collect();
    let tokens: Vec<Token> = ops.iter().map(|(t, _)| *t).collect();
    // `one_of` has matched one of `ops`' tokens, so the search finds it.
    one_of(tokens).map(move |t| ops.iter().find(|(o, _)| *o == t).map_or(BinOp::Or, |(_, op)| *op))
}

fn operators<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    atom: impl Parser<'t, I, Expr, Extra<'t, E>> + Clone + 't,
    full: impl Parser<'t, I, Expr, Extra<'t, E>> + Clone + 't,
    allow_fields: bool,
) -> impl Parser<'t, I, Expr, Extra<'t, E>> + Clone {
    let args = full
        .clone()
        .separated_by(punct(","))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(punct("("), punct(")"))
        .map_with(|a, e| (a, e.span()));
    // The table: every binary operator associates to the left, at the
    // power `BinOp::binding_power` gives it; chumsky's `pratt` binds a
    // postfix operator at `p` as tightly as an infix one at `p`, and a
    // prefix `not` at 3 takes an operand that binds tighter than `and`.
    // The operands are boxed while the table folds them: `pratt` moves its
    // left operand through every operator it tries, and a box is an eighth
    // of an expression's size (each becomes a child's box as it is).
    let level = |p: u8| {
        infix(left(u16::from(p)), operator_at(p), |l: Box<Expr>, op, r: Box<Expr>, _| {
            let span = l.span.join(r.span);
            Box::new(Expr { kind: ExprKind::Binary(op, l, r), span })
        })
    };
    let postfix_power = u16::from(power::POSTFIX);
    atom.map(Box::new)
        .pratt((
            postfix(postfix_power, punct(".").ignore_then(ident()), |l: Box<Expr>, f: Ident, _| {
                let span = l.span.join(f.span);
                Box::new(Expr { kind: ExprKind::Field(l, f), span })
            }),
            postfix(postfix_power, args, |l: Box<Expr>, (a, s): (Vec<Expr>, Span), _| {
                let span = l.span.join(s);
                Box::new(Expr { kind: ExprKind::Call(l, a), span })
            }),
            level(LEVELS[0]),
            level(LEVELS[1]),
            level(LEVELS[2]),
            postfix(
                u16::from(power::IS),
                kw(Keyword::Is).ignore_then(pattern(allow_fields)),
                |l: Box<Expr>, p: crate::ast::Pattern, _| {
                    let span = l.span.join(p.span);
                    Box::new(Expr { kind: ExprKind::Is(l, Box::new(p)), span })
                },
            ),
            prefix(u16::from(power::NOT), kw(Keyword::Not).map_with(|_, e| e.span()), |s: Span, r: Box<Expr>, _| {
                let span = s.join(r.span);
                Box::new(Expr { kind: ExprKind::Not(r), span })
            }),
            level(LEVELS[3]),
            level(LEVELS[4]),
        ))
        .map(|e| *e)
        .labelled("expression")
        .boxed()
}

/// A text literal with interpolations.
pub(crate) fn text_literal<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    full: impl Parser<'t, I, Expr, Extra<'t, E>> + Clone + 't,
) -> impl Parser<'t, I, Expr, Extra<'t, E>> + Clone {
    let interp = full
        .delimited_by(just(Token::InterpOpen), just(Token::InterpClose))
        .recover_with(via_parser(nested_delimiters(Token::InterpOpen, Token::InterpClose, [], |span: Span| {
            spanned(ExprKind::Error, span)
        })))
        .map(TextPart::Interp);
    let chunk = select! { Token::StrChunk(i) = e => TextPart::Lit(values(e).text(i)) };
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
) -> impl Parser<'t, I, Expr, Extra<'t, E>> + Clone {
    let literal = select! {
        Token::Int(i) = e => ExprKind::Int(values(e).number(i)),
        Token::Duration(i) = e => ExprKind::Duration(values(e).number(i)),
        Token::Digest(k, i) = e => ExprKind::Digest(k, values(e).text(i)),
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
                    let first = it.next().unwrap_or(Ident { name: Name::default(), span: e.span() });
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
                    punct_token("{"),
                    punct_token("}"),
                    [(punct_token("("), punct_token(")")), (punct_token("["), punct_token("]"))],
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

    // Each alternative begins with a different token, so their order
    // changes no parse: the common ones come first.
    choice((path_atom, literal, text, paren, list, block, if_, match_, some, refuse))
        .recover_with(via_parser(nested_delimiters(
            punct_token("("),
            punct_token(")"),
            [(punct_token("["), punct_token("]")), (punct_token("{"), punct_token("}"))],
            |span: Span| spanned(ExprKind::Error, span),
        )))
        .recover_with(via_parser(nested_delimiters(
            punct_token("["),
            punct_token("]"),
            [(punct_token("("), punct_token(")")), (punct_token("{"), punct_token("}"))],
            |span: Span| spanned(ExprKind::Error, span),
        )))
        .boxed()
}

/// `{ let x = e; require c else refuse Code "…"; result }`
pub(crate) fn block<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
    full: impl Parser<'t, I, Expr, Extra<'t, E>> + Clone + 't,
    cond: impl Parser<'t, I, Expr, Extra<'t, E>> + Clone + 't,
) -> impl Parser<'t, I, Expr, Extra<'t, E>> + Clone {
    let let_ = kw(Keyword::Let)
        .ignore_then(ident())
        .then(punct(":").ignore_then(type_expr()).or_not())
        .then_ignore(punct("="))
        .then(full.clone())
        .map_with(|((name, ty), value), e| BlockStmt::Let { name, ty, value, span: e.span() });
    let require = kw(Keyword::Require)
        .ignore_then(cond)
        .then_ignore(kw(Keyword::Else))
        .then_ignore(kw(Keyword::Refuse))
        .then(ident().labelled("refusal code"))
        .then(text_literal(full.clone()))
        .map_with(|((cond, code), message), e| BlockStmt::Require { cond, code, message, span: e.span() });
    let stmt = let_.or(require).then_ignore(punct(";"));
    stmt.repeated()
        .collect::<Vec<_>>()
        .then(full)
        .delimited_by(punct("{"), punct("}"))
        .map_with(|(stmts, result), e| spanned(ExprKind::Block(stmts, Box::new(result)), e.span()))
        .recover_with(via_parser(nested_delimiters(
            punct_token("{"),
            punct_token("}"),
            [(punct_token("("), punct_token(")")), (punct_token("["), punct_token("]"))],
            |span: Span| spanned(ExprKind::Error, span),
        )))
        .labelled("block")
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operator_levels_are_the_tables() {
        let mut powers: Vec<u8> = BinOp::ALL.iter().map(|op| op.binding_power()).collect();
        powers.sort_unstable_by(|a, b| b.cmp(a));
        powers.dedup();
        assert_eq!(powers, LEVELS);
        // `not` and `is` sit between the levels as the table says.
        assert!(LEVELS.contains(&power::IS) && !LEVELS.contains(&power::NOT));
        assert!(LEVELS.iter().all(|p| *p < power::POSTFIX));
    }
}
