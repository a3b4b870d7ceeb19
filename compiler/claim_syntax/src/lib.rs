//! Claim's syntax: spans, tokens, the lexer, the tree and the parser.
//! Pure: no IO.

pub mod ast;
pub mod digest;
pub mod error;
pub mod hex;
pub mod lexer;
pub mod nesting;
pub mod parser;
pub mod span;
pub mod token;

pub use error::SyntaxError;
pub use parser::{parse_module, parse_uses, Parsed};
pub use span::{FileId, Loc, Span};
