//! Names, punctuation and type expressions: `Int`, `module.Name`,
//! `List<T>`, `Option<T>`, `Map<T>`.

use super::{values, Extra, PErr, TokenInput};
use crate::ast::{Ident, TypeExpr, TypeExprKind};
use crate::token::{RawToken, Token};
use chumsky::prelude::*;

pub(crate) fn ident<'t, I: TokenInput<'t>, E: PErr<'t, I>>() -> impl Parser<'t, I, Ident, Extra<'t, E>> + Clone {
    select! { Token::Ident(i) = e => Ident { name: values(e).name(i), span: e.span() } }.labelled("name")
}

/// The punctuation token written `text`.
pub(crate) fn punct_token(text: &str) -> Token {
    Token::Punct(RawToken::punctuation(text))
}

pub(crate) fn punct<'t, I: TokenInput<'t>, E: PErr<'t, I>>(
    text: &'static str,
) -> impl Parser<'t, I, Token, Extra<'t, E>> + Clone {
    just(punct_token(text))
}

pub(crate) fn type_expr<'t, I: TokenInput<'t>, E: PErr<'t, I>>() -> impl Parser<'t, I, TypeExpr, Extra<'t, E>> + Clone {
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
            .map_with(|(path, args), e| TypeExpr {
                kind: TypeExprKind::Named { path, args: args.unwrap_or_default() },
                span: e.span(),
            })
            .labelled("type")
    })
    .boxed()
}
