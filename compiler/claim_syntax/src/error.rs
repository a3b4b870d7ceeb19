//! Errors found while lexing and parsing. They are plain data; the
//! diagnostics crate turns them into rendered reports.

use crate::span::Span;

/// One syntax error: where, what, and optionally how to fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// A stable code (`E00xx`), explained by `claimc explain`.
    pub code: &'static str,
    pub span: Span,
    pub message: String,
    /// The text of the primary label.
    pub label: String,
    pub help: Option<String>,
    /// A related location with its label ("while parsing this …").
    pub context: Option<(Span, String)>,
}

impl SyntaxError {
    pub fn new(code: &'static str, span: Span, message: impl Into<String>, label: impl Into<String>) -> Self {
        SyntaxError { code, span, message: message.into(), label: label.into(), help: None, context: None }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}
