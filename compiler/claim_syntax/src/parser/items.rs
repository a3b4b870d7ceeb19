//! Items (§2): use, newtype, record, enum, refusal, fact, fn, witness,
//! frontier. An item that cannot be read is skipped up to the next item
//! keyword, so one broken item does not hide errors in the others.

use super::exprs::{block, expressions, kw, text_literal};
use super::patterns::plain_text;
use super::types::{ident, punct, punct_token, type_expr};
use super::{Extra, PErr, TokenInput};
use crate::ast::{
    FieldDecl, FnDecl, Ident, Item, ItemKind, Param, RecordDecl, UseDecl, VariantDecl, WitnessStmt, WitnessStmtKind,
};
use crate::token::Keyword;
use chumsky::prelude::*;

pub(crate) const ITEM_START: [Keyword; 9] = [
    Keyword::Use,
    Keyword::Newtype,
    Keyword::Record,
    Keyword::Enum,
    Keyword::Refusal,
    Keyword::Fact,
    Keyword::Fn,
    Keyword::Witness,
    Keyword::Frontier,
];

fn braces<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>, O: 't>(
    inner: impl Parser<'t, I, O, Extra<'t, E>> + Clone + 't,
    fallback: impl Fn() -> O + Clone + 't,
) -> impl Parser<'t, I, O, Extra<'t, E>> + Clone {
    inner.delimited_by(punct("{"), punct("}")).recover_with(via_parser(nested_delimiters(
        punct_token("{"),
        punct_token("}"),
        [(punct_token("("), punct_token(")")), (punct_token("["), punct_token("]"))],
        move |_| fallback(),
    )))
}

fn field_decls<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>(
) -> impl Parser<'t, I, (Vec<FieldDecl>, bool), Extra<'t, E>> + Clone {
    let attr = punct("@").ignore_then(ident()).then(plain_text().delimited_by(punct("("), punct(")"))).validate(
        |(name, key), e, emitter| {
            if name.name != "json" {
                emitter.emit(E::custom(
                    e.span(),
                    format!("unknown attribute `@{}`; the only attribute is `@json(\"key\")`", name.name),
                ));
            }
            key
        },
    );
    // A dotted name (`image.name: Text`, a key as buildx writes it) is one
    // error that says how to read that key; the field is kept, named
    // `image_name` and read from `image.name`, so nothing follows from it.
    let name =
        ident().separated_by(punct(".")).at_least(1).collect::<Vec<_>>().validate(|parts: Vec<Ident>, e, emitter| {
            let span = e.span();
            if parts.len() == 1 {
                if let Some(only) = parts.into_iter().next() {
                    return (None, only);
                }
                return (None, Ident { name: "".into(), span });
            }
            let key = parts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(".");
            let name = parts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join("_");
            emitter.emit(E::custom(
                e.span(),
                format!(
                    "a field name cannot contain `.`{}to read the JSON key `{key}`, write `@json(\"{key}\") {name}: …`",
                    super::HELP
                ),
            ));
            (Some(key), Ident { name: name.into(), span })
        });
    let field =
        attr.or_not().then(name).then_ignore(punct(":")).then(type_expr()).map(
            |((json_key, (dotted_key, name)), ty)| Some(FieldDecl { name, ty, json_key: json_key.or(dotted_key) }),
        );
    field.or(punct("..").to(None)).separated_by(punct(",")).allow_trailing().collect::<Vec<_>>().map(|fs| {
        let open = fs.iter().any(Option::is_none);
        (fs.into_iter().flatten().collect(), open)
    })
}

/// One item, which must span the whole input it is given.
pub(crate) fn item<'t, I: TokenInput<'t> + 't, E: PErr<'t, I>>() -> impl Parser<'t, I, Item, Extra<'t, E>> {
    let (full, cond) = expressions::<I, E>();

    let use_ = kw(Keyword::Use)
        .ignore_then(ident().separated_by(punct(".")).at_least(1).collect::<Vec<_>>())
        .then(
            punct(".")
                .ignore_then(
                    ident()
                        .separated_by(punct(","))
                        .allow_trailing()
                        .collect::<Vec<_>>()
                        .delimited_by(punct("{"), punct("}")),
                )
                .or_not(),
        )
        .map(|(path, selection)| ItemKind::Use(UseDecl { path, selection }));

    let newtype = kw(Keyword::Newtype)
        .ignore_then(ident())
        .then_ignore(punct("="))
        .then(type_expr())
        .map(|(name, underlying)| ItemKind::Newtype { name, underlying });

    // `@json(camelCase) record …`: how the fields' JSON keys are written.
    let json_case = punct("@").ignore_then(ident()).then(ident().delimited_by(punct("("), punct(")"))).validate(
        |(attr, case), e, emitter| {
            // The case's name is checked with the record (`E0224`).
            if attr.name != "json" {
                emitter.emit(E::custom(
                    e.span(),
                    format!("unknown attribute `@{}`; a record takes `@json(camelCase)`", attr.name),
                ));
            }
            case
        },
    );
    let record = json_case
        .or_not()
        .then_ignore(kw(Keyword::Record))
        .then(ident())
        .then(braces(field_decls(), || (Vec::new(), true)))
        .map(|((json_case, name), (fields, open))| ItemKind::Record(RecordDecl { name, fields, open, json_case }));

    let variant = ident()
        .then(field_decls().delimited_by(punct("{"), punct("}")).or_not())
        .map(|(name, fields)| VariantDecl { name, fields: fields.map(|(f, _)| f) });
    let enum_ = kw(Keyword::Enum)
        .ignore_then(ident())
        .then(braces(variant.separated_by(punct(",")).allow_trailing().collect::<Vec<_>>(), Vec::new))
        .map(|(name, variants)| ItemKind::Enum { name, variants });

    let refusal = kw(Keyword::Refusal)
        .ignore_then(ident())
        .then(plain_text().labelled("summary text"))
        .map(|(name, summary)| ItemKind::Refusal { name, summary });

    let fact = kw(Keyword::Fact)
        .ignore_then(ident())
        .then_ignore(punct(":"))
        .then(type_expr())
        .then_ignore(punct("="))
        .then(full.clone())
        .map(|((name, ty), init)| ItemKind::Fact { name, ty, init });

    let param = ident().then_ignore(punct(":")).then(type_expr()).map(|(name, ty)| Param { name, ty });
    // `@world fn name(…) -> T` with no body: a world function that the
    // standard library declares (checked in sema).
    let fn_attr = punct("@").ignore_then(ident()).or_not();
    let fn_ = fn_attr
        .then_ignore(kw(Keyword::Fn))
        .then(ident())
        .then(param.separated_by(punct(",")).allow_trailing().collect::<Vec<_>>().delimited_by(punct("("), punct(")")))
        .then_ignore(punct("->"))
        .then(type_expr())
        .then(block(full.clone(), cond.clone()).or_not())
        .map(|((((attr, name), params), ret), body)| {
            ItemKind::Fn(Box::new(FnDecl { name, params, ret, body, attribute: attr }))
        });

    let w_let = kw(Keyword::Let)
        .ignore_then(ident())
        .then(punct(":").ignore_then(type_expr()).or_not())
        .then_ignore(punct("="))
        .then(full.clone())
        .map(|((name, ty), value)| WitnessStmtKind::Let { name, ty: ty.map(Box::new), value });
    let w_holds = kw(Keyword::Holds).ignore_then(full.clone()).map(WitnessStmtKind::Holds);
    let w_refuses = kw(Keyword::Refuses)
        .ignore_then(full.clone())
        .then_ignore(kw(Keyword::With))
        .then(ident().labelled("refusal code"))
        .map(|(expr, code)| WitnessStmtKind::Refuses { expr, code });
    let w_stmt = choice((w_let, w_holds, w_refuses))
        .map_with(|kind, e| WitnessStmt { kind, span: e.span() })
        .then_ignore(punct(";").or_not());
    let witness = kw(Keyword::Witness)
        .ignore_then(ident())
        .then(braces(w_stmt.repeated().collect::<Vec<_>>(), Vec::new))
        .map(|(name, stmts)| ItemKind::Witness { name, stmts });

    let frontier = kw(Keyword::Frontier)
        .ignore_then(ident())
        .then(braces(
            text_literal(full.clone())
                .then(kw(Keyword::Dissolves).ignore_then(kw(Keyword::When)).ignore_then(cond.clone()).or_not())
                .map(Some),
            || None,
        ))
        .map(|(name, body)| match body {
            Some((text, condition)) => ItemKind::Frontier { name, text, condition },
            None => ItemKind::Error,
        });

    choice((use_, newtype, record, enum_, refusal, fact, fn_, witness, frontier))
        .map_with(|kind, e| Item { kind, span: e.span(), docs: Vec::new() })
        .labelled("item")
        .then_ignore(end())
}
