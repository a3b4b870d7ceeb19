//! Patterns of `match` arms and `is` (§4).

use super::types::{ident, punct};
use super::{values, Extra, PErr, TokenInput};
use crate::ast::{FieldPattern, Pattern, PatternKind};
use crate::token::{Keyword, Token};
use chumsky::prelude::*;

/// A plain text literal (no interpolation), as patterns and refusal
/// summaries take.
pub(crate) fn plain_text<'t, I: TokenInput<'t>, E: PErr<'t, I>>() -> impl Parser<'t, I, String, Extra<'t, E>> + Clone {
    just(Token::StrStart)
        .ignore_then(select! { Token::StrChunk(i) = e => values(e).text(i) }.or_not())
        .then_ignore(just(Token::StrEnd))
        .map(|s| s.unwrap_or_default())
        .labelled("text literal")
}

/// Patterns; `allow_fields` is false where a `{` must end the pattern
/// (after `is` in a condition), so `V { .. }` there needs parentheses.
pub(crate) fn pattern<'t, I: TokenInput<'t>, E: PErr<'t, I>>(
    allow_fields: bool,
) -> impl Parser<'t, I, Pattern, Extra<'t, E>> + Clone {
    // `recursive` refers to itself weakly, so the parser is freed after use.
    let full = recursive(|full| pattern_with(full, true)).boxed();
    if allow_fields {
        full
    } else {
        pattern_with(full, false).boxed()
    }
}

fn pattern_with<'t, I: TokenInput<'t>, E: PErr<'t, I>>(
    full: impl Parser<'t, I, Pattern, Extra<'t, E>> + Clone + 't,
    allow_fields: bool,
) -> impl Parser<'t, I, Pattern, Extra<'t, E>> + Clone {
    let literal = select! {
        Token::Int(i) = e => PatternKind::Int(values(e).number(i)),
        Token::Duration(i) = e => PatternKind::Duration(values(e).number(i)),
        Token::Digest(k, i) = e => PatternKind::Digest(k, values(e).text(i)),
        Token::Kw(Keyword::True) => PatternKind::Bool(true),
        Token::Kw(Keyword::False) => PatternKind::Bool(false),
        Token::Kw(Keyword::None) => PatternKind::None,
    }
    .or(plain_text().map(PatternKind::Text));

    let some = just(Token::Kw(Keyword::Some))
        .ignore_then(full.clone().delimited_by(punct("("), punct(")")))
        .map(|p| PatternKind::Some(Box::new(p)));

    let list_elem = punct("..").to(None).or(full.clone().map(Some));
    let list = list_elem
        .separated_by(punct(","))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(punct("["), punct("]"))
        .validate(|elems, e, emitter| {
            let mut rest = false;
            let mut pats = Vec::new();
            let n = elems.len();
            for (i, el) in elems.into_iter().enumerate() {
                match el {
                    Some(p) => pats.push(p),
                    None if i + 1 == n => rest = true,
                    None => emitter.emit(E::custom(e.span(), "`..` may only end a list pattern")),
                }
            }
            PatternKind::List { elems: pats, rest }
        });

    let field_pat = ident()
        .then(punct(":").ignore_then(full.clone()).or_not())
        .map(|(name, pattern)| Some(FieldPattern { name, pattern }))
        .or(punct("..").to(None));
    let fields = field_pat
        .separated_by(punct(","))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(punct("{"), punct("}"))
        .map(|fs| {
            let rest = fs.iter().any(Option::is_none);
            (fs.into_iter().flatten().collect::<Vec<_>>(), rest)
        });
    let path = ident().separated_by(punct(".")).at_least(1).collect::<Vec<_>>();
    let path_pat = if allow_fields { path.then(fields.or_not()).boxed() } else { path.map(|p| (p, None)).boxed() };
    let named = path_pat.map(|(path, fields)| PatternKind::named(path, fields));

    choice((literal, some, list, named))
        .map_with(|kind, e| Pattern { kind, span: e.span() })
        .or(full.delimited_by(punct("("), punct(")")))
        .labelled("pattern")
}
