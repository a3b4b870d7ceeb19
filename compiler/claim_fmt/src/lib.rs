//! `claimc fmt`: the one canonical layout of a Claim file.
//!
//! The file is parsed, and the tree printed through a Wadler-style document
//! (`doc.rs`) at a width of 100 columns with two-space indentation. Literals
//! are copied as written (a digest, a number, a text with its escapes and
//! interpolations), so formatting never changes a value. Comments come from
//! the lexer and are placed by position (`comments.rs`). A file with syntax
//! errors is not formatted: the errors are returned instead.
//!
//! Pure: no IO.

mod comments;
pub mod doc;
mod exprs;
mod items;
mod layout;

use claim_syntax::{parse_module, SyntaxError};

/// The width a formatted line aims to stay within.
pub const WIDTH: usize = 100;
/// Spaces per indentation level.
pub const INDENT: usize = 2;

/// The formatted text of `src`, or its syntax errors.
pub fn format_source(src: &str) -> Result<String, Vec<SyntaxError>> {
    let parsed = parse_module(src);
    if !parsed.errors.is_empty() {
        return Err(parsed.errors);
    }
    let comments = claim_syntax::lexer::lex(src).comments;
    let mut p = layout::Printer::new(src, comments);
    let doc = p.module(&parsed.module);
    Ok(doc::render(&doc, WIDTH, INDENT))
}

/// The syntax tree of `src` as text, with every span blanked: what
/// formatting must keep (the formatter's tests and the `evaluate_typed`
/// fuzz target compare a file's with its formatted text's).
pub fn tree_shape(src: &str) -> String {
    let dbg = format!("{:?}", parse_module(src).module);
    let mut out = String::with_capacity(dbg.len());
    let mut rest = dbg.as_str();
    while let Some(i) = rest.find("Span { start: ") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let close = after.find('}').map_or(after.len(), |j| j + 1);
        out.push('_');
        rest = &after[close..];
    }
    out.push_str(rest);
    out
}
