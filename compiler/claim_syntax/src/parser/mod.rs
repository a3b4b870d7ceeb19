//! The parser (chumsky 0.13) over the lexer's tokens. One call reports every
//! syntax error it can recover from; recovered regions become `Error` nodes
//! that later phases skip silently.

mod exprs;
mod items;
mod patterns;
mod types;

use crate::ast::{Item, ItemKind, Module, UseDecl};
use crate::error::SyntaxError;
use crate::lexer::{lex, Lexed};
use crate::span::Span;
use crate::token::{Keyword, RawToken, Token, Values};
use chumsky::input::ValueInput;
use chumsky::inspector::SimpleState;
use chumsky::prelude::*;

/// What every parser of the grammar runs with: its error type, and the
/// file's token values as its state (a token holds only the index of its
/// name, text or number; see [`Token`]).
pub(crate) type Extra<'t, E> = extra::Full<E, SimpleState<&'t Values>, ()>;

/// The error type a parse runs with. Most files parse cleanly, so a parse
/// first runs with chumsky's `EmptyErr`, which records nothing about what
/// was expected and costs nearly nothing; only a file that fails is parsed
/// again with `Rich` errors, to report them. (Tracking every alternative
/// tried was about half of the whole compile's time on large corpora.)
pub(crate) trait PErr<'t, I: TokenInput<'t>>:
    chumsky::error::Error<'t, I>
    + chumsky::label::LabelError<'t, I, &'static str>
    + chumsky::label::LabelError<'t, I, chumsky::DefaultExpected<'t, Token>>
    + 't
{
    fn custom(span: Span, message: impl ToString) -> Self;
}

impl<'t, I: TokenInput<'t>> PErr<'t, I> for Rich<'t, Token, Span> {
    fn custom(span: Span, message: impl ToString) -> Self {
        Rich::custom(span, message.to_string())
    }
}

impl<'t, I: TokenInput<'t>> PErr<'t, I> for chumsky::error::EmptyErr {
    fn custom(_: Span, _: impl ToString) -> Self {
        chumsky::error::EmptyErr::default()
    }
}

/// The file's token values, from inside a parser (a token holds only the
/// index of its value).
pub(crate) fn values<'t, I: TokenInput<'t>, E: PErr<'t, I>>(
    e: &mut chumsky::input::MapExtra<'t, '_, I, Extra<'t, E>>,
) -> &'t Values {
    e.state().0
}

/// Any token input the parsers accept.
pub(crate) trait TokenInput<'t>: ValueInput<'t, Token = Token, Span = Span> {}
impl<'t, T: ValueInput<'t, Token = Token, Span = Span>> TokenInput<'t> for T {}

/// The result of parsing one file: the tree (with `Error` nodes where it
/// recovered) and every lexical and syntax error, in source order.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Parsed {
    pub module: Module,
    pub errors: Vec<SyntaxError>,
}

/// Lexes and parses one module.
///
/// The tokens are cut into items first, at the keywords that begin one
/// (they never occur inside an expression), and each item is parsed
/// alone: a broken item cannot swallow the ones after it.
pub fn parse_module(src: &str) -> Parsed {
    parse_items(src, false)
}

/// The `use` items of a module, parsed as [`parse_module`] parses them,
/// without parsing its other items: what a run reads to find the modules
/// of its program before it parses any module whole. Each item is parsed
/// alone, so these are exactly the `use` items of the module's tree.
pub fn parse_uses(src: &str) -> Vec<UseDecl> {
    parse_items(src, true).module.uses().cloned().collect()
}

/// Parses every item of `src`, or only its `use` items.
fn parse_items(src: &str, only_uses: bool) -> Parsed {
    let Lexed { tokens, values, docs, mut errors, .. } = lex(src);
    let mut state = SimpleState(&values);
    let mut errs = Vec::new();
    let mut module = Module::default();
    // Built once an item needs them: the parser with `Rich` errors only
    // for an item that fails.
    let mut fast = None;
    let mut rich = None;
    for chunk in item_chunks(&tokens) {
        let slice = &tokens[chunk.clone()];
        let (Some(first), Some(last)) = (slice.first(), slice.last()) else {
            continue;
        };
        let span = Span { start: first.1.start, end: last.1.end };
        if only_uses && first.0 != Token::Kw(Keyword::Use) {
            continue;
        }
        if !starts_item(&first.0) && first.0 != Token::Punct(RawToken::At) {
            let what = values.describe(first.0);
            errors.push(
                SyntaxError::new("E0011", span, format!("unexpected {what} at the top level"), "expected an item")
                    .with_help("a file is a sequence of items: `use`, `newtype`, `record`, `enum`, `refusal`, `fact`, `fn`, `witness`, `frontier`"),
            );
            continue;
        }
        // Error recovery scans from each unmatched opening delimiter to the
        // end of the item, and alternatives retry it: on a long item whose
        // delimiters do not pair, the cost outgrows the item by far (a
        // fuzzed 9 KB item took 15 s). Such an item gets one precise error
        // instead of a recovered parse.
        if slice.len() > MAX_RECOVERED_TOKENS {
            if let Some(e) = unpaired_delimiter(slice, &values) {
                errors.push(e);
                module.items.push(Item { kind: ItemKind::Error, span, docs: Vec::new() });
                continue;
            }
        }
        let next_start = tokens.get(chunk.end).map_or(src.len() as u32, |t| t.1.start);
        let eoi = Span { start: last.1.end, end: next_start.max(last.1.end) };
        let fast = fast.get_or_insert_with(items::item::<_, chumsky::error::EmptyErr>);
        let (item, e) = fast.parse_with_state(slice.split_token_span(eoi), &mut state).into_output_errors();
        let item = if e.is_empty() {
            item
        } else {
            // Only an item that fails pays for the errors that say why.
            let parser = rich.get_or_insert_with(items::item::<_, Rich<'_, Token, Span>>);
            let (item, e) = parser.parse_with_state(slice.split_token_span(eoi), &mut state).into_output_errors();
            let ran_out = RanOut::of(&tokens, chunk.clone(), span.end, &values);
            errs.extend(e.into_iter().map(|e| {
                let awaiting = awaiting_else(slice, e.span().start);
                (e, RanOut { awaiting_else: awaiting, ..ran_out.clone() })
            }));
            item
        };
        module.items.push(item.unwrap_or(Item { kind: ItemKind::Error, span, docs: Vec::new() }));
    }
    // A lexical error already reported becomes `Token::Error`; the parse
    // errors it causes would only repeat it.
    let lexed_at: Vec<Span> = errors.iter().map(|e| e.span).collect();
    for (e, ran_out) in errs {
        let span = *e.span();
        if matches!(e.found(), Some(Token::Error)) || lexed_at.iter().any(|s| s.start == span.start) {
            continue;
        }
        errors.push(syntax_error(&e, &ran_out, &values));
    }
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    cap_errors(&mut errors);
    attach_docs(&mut module.items, &docs);
    module.items.shrink_to_fit();
    Parsed { module, errors }
}

/// Where an item's parse ran out of tokens. Each item is parsed alone,
/// so the parser sees the end of its input wherever the next item begins:
/// an error there is about the token that begins it, or about the end of
/// the file only where none does.
#[derive(Clone)]
struct RanOut {
    /// The first token after the item, described, and where it is.
    after: Option<(String, Span)>,
    /// Where the item's last token ends.
    last_end: u32,
    /// The item's keyword and where it is.
    item: Option<(&'static str, Span)>,
    /// The last `if` or `require` before the error: the one whose `else`
    /// the parse may have been waiting for.
    awaiting_else: Option<&'static str>,
}

/// The last `if` or `require` among `tokens` that ends by `at`.
fn awaiting_else(tokens: &[(Token, Span)], at: u32) -> Option<&'static str> {
    tokens
        .iter()
        .take_while(|(_, s)| s.end <= at)
        .filter_map(|(t, _)| match t {
            Token::Kw(k) if matches!(k.as_str(), "if" | "require") => Some(k.as_str()),
            _ => None,
        })
        .last()
}

impl RanOut {
    /// For the item of `tokens[chunk]`, whose last token ends at
    /// `last_end`. Made only for an item that failed: most never do.
    fn of(tokens: &[(Token, Span)], chunk: std::ops::Range<usize>, last_end: u32, values: &Values) -> RanOut {
        RanOut {
            after: tokens.get(chunk.end).map(|(t, s)| (values.describe(*t), *s)),
            last_end,
            item: tokens.get(chunk).unwrap_or_default().iter().find_map(|(t, s)| match t {
                Token::Kw(k) => Some((k.as_str(), *s)),
                _ => None,
            }),
            awaiting_else: None,
        }
    }
}

fn syntax_error(e: &Rich<'_, Token, Span>, ran_out: &RanOut, values: &Values) -> SyntaxError {
    let mut span = *e.span();
    // An error the grammar states itself (an unknown attribute) is said as
    // it is, where it is: it is no token the parse ran into.
    if let chumsky::error::RichReason::Custom(message) = e.reason() {
        return match message.split_once(HELP) {
            Some((message, help)) => SyntaxError::new("E0010", span, message, "here").with_help(help),
            None => SyntaxError::new("E0010", span, message.clone(), "here"),
        };
    }
    let found = match (e.found(), &ran_out.after) {
        (Some(t), _) => values.describe(*t),
        (None, Some((next, at))) => {
            span = *at;
            next.clone()
        }
        (None, None) => {
            // Right after the last token, as the excerpt shows it: not
            // past the blank lines and comments that may follow it.
            span = Span { start: ran_out.last_end, end: ran_out.last_end };
            "end of file".to_string()
        }
    };
    let mut expected: Vec<String> = e.expected().map(|p| pattern_text(p, values)).collect();
    expected.sort();
    expected.dedup();
    // An `if` or a `require` that ended without its `else`: the operators
    // that could also follow are not what is missing.
    let wants_else = expected.iter().any(|x| x == "keyword `else`");
    let label = if expected.is_empty() {
        "unexpected here".to_string()
    } else if wants_else && expected.len() > 6 {
        "expected `else`, or an operator".to_string()
    } else if expected.len() <= 6 {
        format!("expected {}", or_list(&expected))
    } else if ["name", "`(`", "`[`"].iter().all(|w| expected.iter().any(|e| e == w)) {
        "expected an expression".to_string()
    } else if ["`==`", "`+`", "`.`"].iter().all(|w| expected.iter().any(|e| e == w)) {
        "expected an operator, or the end of the expression".to_string()
    } else if let Some(what) =
        ["expression", "pattern", "type", "item", "name"].iter().find(|w| expected.iter().any(|e| e == *w))
    {
        // A long list of tokens reads worse than the one thing they start.
        format!("expected {} {what}", if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" })
    } else {
        format!("expected one of {}", or_list(&expected))
    };
    let mut err = SyntaxError::new("E0010", span, format!("unexpected {found}"), label);
    if e.found() == Some(&Token::Punct(RawToken::Assign)) && expected.iter().any(|x| x == "`==`") {
        err = err.with_help("to compare, write `==`");
    } else if wants_else {
        match ran_out.awaiting_else {
            Some("if") => {
                err = err.with_help("`if` is an expression: it always has an `else` branch (`if c then a else b`)")
            }
            Some("require") => {
                err = err.with_help("a `require` says how it refuses: `require c else refuse Code \"message\";`")
            }
            _ => {}
        }
    }
    if let Some((ctx, ctx_span)) = e.contexts().next() {
        let what = pattern_text(ctx, values);
        err.context = Some((*ctx_span, format!("while parsing this {what}")));
    } else if let (None, Some((keyword, at))) = (e.found(), ran_out.item) {
        err.context = Some((at, format!("this `{keyword}` is not finished")));
    }
    err
}

/// What the parse expected, as a diagnostic says it.
fn pattern_text(p: &chumsky::error::RichPattern<'_, Token>, values: &Values) -> String {
    use chumsky::error::RichPattern;
    match p {
        RichPattern::Token(t) => values.describe(**t),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(i) => format!("`{i}`"),
        RichPattern::EndOfInput => "end of file".to_string(),
        RichPattern::Any => "any token".to_string(),
        _ => "something else".to_string(),
    }
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Items longer than this (in tokens) are parsed with error recovery only
/// when their delimiters pair up. The recovery's cost grows much faster
/// than the item (a fuzzed item of 417 tokens took 2 s); items this short
/// recover in milliseconds, and a long item whose delimiters pair up
/// (every item while an editor closes brackets as they are typed) is
/// parsed and recovered as before.
const MAX_RECOVERED_TOKENS: usize = 128;

/// Between a custom error's message and its help (chumsky's custom errors
/// carry one text).
pub(crate) const HELP: &str = "\u{1f}";

/// The syntax errors a file reports before the rest are summed up in one.
/// A file of another language (a script, a JSON document, a binary's text
/// named `.claim`) has an error every few characters, and hundreds of them
/// bury what a reviewer needs: that the file is not Claim. As with clang's
/// `-ferror-limit`, the first ones are shown; the file still fails closed.
pub const MAX_SYNTAX_ERRORS: usize = 20;

/// Keeps the first [`MAX_SYNTAX_ERRORS`] of `errors` (sorted by place) and
/// puts in place of the rest one `E0015` at the first of them.
fn cap_errors(errors: &mut Vec<SyntaxError>) {
    let Some(first_hidden) = errors.get(MAX_SYNTAX_ERRORS) else { return };
    let hidden = errors.len() - MAX_SYNTAX_ERRORS;
    let more = SyntaxError::new(
        "E0015",
        first_hidden.span,
        format!("too many syntax errors: {hidden} not shown after the first {MAX_SYNTAX_ERRORS}"),
        "the first error not shown",
    )
    .with_help("fix the errors above and check again to see the rest; a file this far from Claim's syntax may not be a Claim file");
    errors.truncate(MAX_SYNTAX_ERRORS);
    errors.push(more);
}

const UNPAIRED_HELP: &str =
    "in a long item, delimiters that do not pair are reported alone; pair them and the rest of the item is checked";

/// The first delimiter of an item that does not pair: a closing one that
/// closes nothing (or the wrong thing), else the innermost one never closed.
fn unpaired_delimiter(tokens: &[(Token, Span)], values: &Values) -> Option<SyntaxError> {
    fn closer_of(t: Token) -> Option<Token> {
        Some(match t {
            Token::Punct(RawToken::LParen) => Token::Punct(RawToken::RParen),
            Token::Punct(RawToken::LBracket) => Token::Punct(RawToken::RBracket),
            Token::Punct(RawToken::LBrace) => Token::Punct(RawToken::RBrace),
            Token::InterpOpen => Token::InterpClose,
            Token::StrStart => Token::StrEnd,
            _ => return None,
        })
    }
    let closes = |t: Token| {
        matches!(
            t,
            Token::Punct(RawToken::RParen | RawToken::RBracket | RawToken::RBrace) | Token::InterpClose | Token::StrEnd
        )
    };
    let describe = |t: Token| values.describe(t);
    let mut open: Vec<(Token, Token, Span)> = Vec::new();
    for &(t, span) in tokens {
        if let Some(close) = closer_of(t) {
            open.push((t, close, span));
        } else if closes(t) {
            match open.last() {
                Some((_, expected, _)) if *expected == t => {
                    open.pop();
                }
                Some((opener, _, at)) => {
                    let mut e = SyntaxError::new(
                        "E0010",
                        span,
                        format!("unexpected {}", describe(t)),
                        format!("this does not close the {}", describe(*opener)),
                    )
                    .with_help(UNPAIRED_HELP);
                    e.context = Some((*at, "the one opened here".to_string()));
                    return Some(e);
                }
                None => {
                    return Some(SyntaxError::new(
                        "E0010",
                        span,
                        format!("unexpected {}", describe(t)),
                        "this closes nothing",
                    ))
                }
            }
        }
    }
    let (opener, _, at) = open.last()?;
    Some(
        SyntaxError::new("E0010", *at, format!("unclosed {}", describe(*opener)), "this is never closed")
            .with_help(UNPAIRED_HELP),
    )
}

/// Cuts the token stream before every item keyword; a leading run of
/// tokens that starts no item is a chunk of its own (reported as junk).
fn item_chunks(tokens: &[(Token, Span)]) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    for (i, (t, _)) in tokens.iter().enumerate() {
        if i > start && starts_item(t) {
            // An attribute right before the keyword belongs to it: `@name`,
            // or `@name(…)` with a few tokens between the parentheses.
            let at = |j: usize| tokens.get(j).map(|(t, _)| t);
            let cut = match (i.checked_sub(2).and_then(at), at(i - 1)) {
                (Some(Token::Punct(RawToken::At)), Some(Token::Ident(_))) => i - 2,
                (_, Some(Token::Punct(RawToken::RParen))) => (i.saturating_sub(12)..i - 1)
                    .rev()
                    .find(|&j| at(j) == Some(&Token::Punct(RawToken::LParen)))
                    .filter(|&j| {
                        j >= 2
                            && matches!(
                                (at(j - 2), at(j - 1)),
                                (Some(Token::Punct(RawToken::At)), Some(Token::Ident(_)))
                            )
                    })
                    .map_or(i, |j| j - 2),
                _ => i,
            };
            if cut > start {
                chunks.push(start..cut);
                start = cut;
            }
        }
    }
    if start < tokens.len() {
        chunks.push(start..tokens.len());
    }
    chunks
}

/// Whether a token starts an item. These keywords never occur inside an
/// expression, so the token stream can be cut into items at them before
/// parsing: a broken item then cannot swallow the items after it.
fn starts_item(t: &Token) -> bool {
    matches!(t, Token::Kw(k) if items::ITEM_START.contains(k))
}

/// Attaches each item's `///` lines: the doc comments after the previous
/// item and before this one.
fn attach_docs(items: &mut [Item], docs: &[(Span, String)]) {
    let mut prev_end = 0u32;
    let mut next = 0usize;
    for item in items.iter_mut() {
        while next < docs.len() && docs[next].0.start < item.span.start {
            if docs[next].0.start >= prev_end {
                item.docs.push(docs[next].1.clone());
            }
            next += 1;
        }
        prev_end = item.span.end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses_in_tree(src: &str) -> Vec<UseDecl> {
        parse_module(src).module.uses().cloned().collect()
    }

    #[test]
    fn the_uses_alone_are_the_uses_of_the_tree() {
        for src in [
            "// a module\nuse std.provenance.{Candidate, keyed}\n  use app.lib\nuse std.oci.{Tag}\n\nfact x: Int = 1\n",
            // After another item on its line, with blanks around the dots,
            // inside a multi-line text, broken, after a broken item.
            "fact x: Int = 1 use std.oci.{Tag}\n",
            "use std . oci.{Tag}\n",
            "fact t: Text = \"a\nuse app.lib\n\"\n",
            "use std.oci.{Tag Digest}\nuse app.lib\n",
            "fn f( -> Int { 1 }\nuse app.lib\n",
            "user\nuse_x = 1\nuse\n/// use a.b\n// use c.d\n",
        ] {
            let alone = parse_uses(src);
            assert_eq!(alone, uses_in_tree(src), "{src:?}");
        }
        let dotted: Vec<String> =
            parse_uses("use std . oci.{Tag}\nfact x: Int = 1 use a.b\n").iter().map(UseDecl::dotted).collect();
        assert_eq!(dotted, ["std.oci", "a.b"]);
    }
}
