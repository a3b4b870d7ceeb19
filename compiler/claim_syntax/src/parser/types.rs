//! Type expressions: `Int`, `module.Name`, `List<T>`, `Option<T>`, `Map<T>`.

use super::{Extra, PErr, TokenInput};
use crate::ast::{Ident, TypeExpr, TypeExprKind};
use crate::token::Token;
use chumsky::prelude::*;

pub(crate) fn ident<'t, I: TokenInput<'t>, E: PErr<'t, I>>() -> impl Parser<'t, I, Ident, Extra<E>> + Clone {
    select! { Token::Ident(name) = e => { let s: SimpleSpan = e.span(); Ident { name, span: s.into() } } }
        .labelled("name")
}

pub(crate) fn punct<'t, I: TokenInput<'t>, E: PErr<'t, I>>(
    p: &'static str,
) -> impl Parser<'t, I, Token, Extra<E>> + Clone {
    just(Token::Punct(p))
}

pub(crate) fn type_expr<'t, I: TokenInput<'t>, E: PErr<'t, I>>() -> impl Parser<'t, I, TypeExpr, Extra<E>> + Clone {
    recursive(|ty| {
        ident()
            .separated_by(punct("."))
            .at_least(1)
            .collect::<Vec<_>>()
            .then(
                ty.separated_by(punct(","))
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .delimited_by(punct("<"), punct(">"))
                    .or_not(),
            )
            .map_with(|(path, args), e| {
                let s: SimpleSpan = e.span();
                TypeExpr { kind: TypeExprKind::Named { path, args: args.unwrap_or_default() }, span: s.into() }
            })
            .labelled("type")
    })
    .boxed()
}
