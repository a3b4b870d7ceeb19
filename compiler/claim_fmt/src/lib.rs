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
    let mut p = items::Printer::new(src, comments);
    let doc = p.module(&parsed.module);
    Ok(doc::render(&doc, WIDTH, INDENT))
}
