//! What each name in a module denotes, as the checker resolved it. The
//! checker notes every name it resolves (when asked: `check::occurrences`),
//! and the editor's hovers, definitions, references, renames and
//! completions read these notes; the editor has no scope model of its own.

use crate::ty::{GlobalName, Ty};
use claim_syntax::{FileId, Span};
use std::sync::Arc;

/// What a name denotes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Def {
    /// A type, function, fact, witness or frontier.
    Item(GlobalName),
    Refusal(Arc<str>),
    /// A field of a record (`variant: None`) or of an enum's variant.
    Field {
        owner: GlobalName,
        variant: Option<Arc<str>>,
        name: Arc<str>,
    },
    Variant {
        owner: GlobalName,
        name: Arc<str>,
    },
    /// A parameter, `let`, comprehension variable or pattern binding: where
    /// it is bound.
    Local {
        file: FileId,
        span: Span,
        name: Arc<str>,
    },
    Module(Arc<str>),
}

/// One name in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    pub span: Span,
    pub def: Def,
    /// This is the declaration itself.
    pub is_decl: bool,
    /// The name's type where it is a value (hover).
    pub ty: Option<Ty>,
}
