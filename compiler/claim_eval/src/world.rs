//! The outside world, as the evaluator sees it (§6). The CLI implements it
//! (paths, files, JSON, hashing); the evaluator only asks.

use crate::value::Value;
use claim_diagnostics::Diagnostic;
use claim_sema::hir::WorldFn;
use claim_sema::ty::{GlobalName, Ty, TypeInfo};
use claim_syntax::{FileId, Loc};

/// Everything `load` needs to decode into a declared type.
pub type Types = std::sync::Arc<rustc_hash::FxHashMap<GlobalName, TypeInfo>>;

/// A world call: which function, the path as written, the file that names
/// it (paths are relative to it) and the call's location.
pub struct WorldCall<'a> {
    pub path: &'a str,
    pub from: FileId,
    pub call: Loc,
    /// Where the path is a text literal written without escapes, its
    /// letters (inside the quotes): a "did you mean" replaces them.
    pub literal: Option<Loc>,
}

impl<'a> WorldCall<'a> {
    /// The call of `path` at `call`, whose first argument is `arg`: its
    /// letters are [`WorldCall::literal`] where it is a literal that spells
    /// `path` exactly (`hir::Expr::plain_text`).
    pub fn new(path: &'a str, from: FileId, call: Loc, arg: Option<&claim_sema::hir::Expr>) -> WorldCall<'a> {
        let literal = arg.and_then(|a| a.plain_text()).filter(|(t, _)| &***t == path).map(|(_, at)| Loc::new(from, at));
        WorldCall { path, from, call, literal }
    }
}

/// Why a world function failed: the `std.world` refusal code a witness
/// may expect (`refuses receipt with FileMissing`), and the diagnostics
/// that say what was wrong (the path; the spot inside the JSON).
#[derive(Clone, Debug)]
pub struct WorldError {
    pub code: WorldCode,
    pub diagnostics: Vec<Diagnostic>,
}

/// A world function's result.
pub type WorldResult<T> = Result<T, WorldError>;

impl WorldError {
    pub fn new(code: WorldCode, diagnostic: Diagnostic) -> WorldError {
        WorldError { code, diagnostics: vec![diagnostic] }
    }

    pub fn many(code: WorldCode, diagnostics: Vec<Diagnostic>) -> WorldError {
        WorldError { code, diagnostics }
    }

    /// The same, its first diagnostic with one more note.
    pub fn with_note(mut self, note: impl Into<String>) -> WorldError {
        if let Some(d) = self.diagnostics.first_mut() {
            d.notes.push(note.into());
        }
        self
    }

    /// A failure of the implementation, not of what it read: never a
    /// refusal a witness could expect (the run stops, `E0999`).
    pub fn internal(message: impl Into<String>, at: Loc) -> WorldError {
        let d = Diagnostic::error("E0999", format!("internal error: {}", message.into())).at_loc(at, "here");
        WorldError { code: WorldCode::Internal, diagnostics: vec![d] }
    }
}

macro_rules! world_codes {
    ($($code:ident),* $(,)?) => {
        /// The refusal codes of the world functions, declared in Claim by
        /// `std.world` (a test keeps the two lists equal).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum WorldCode {
            $($code,)*
            /// Not a refusal: the implementation failed (`E0999`).
            Internal,
        }

        impl WorldCode {
            /// Every code a witness may expect, in `std.world`'s order.
            pub const ALL: &'static [WorldCode] = &[$(WorldCode::$code),*];

            /// The code's name, as a program writes it.
            pub fn name(self) -> &'static str {
                match self {
                    $(WorldCode::$code => stringify!($code),)*
                    WorldCode::Internal => "Internal",
                }
            }
        }
    };
}

world_codes!(
    FileMissing,
    FileUnreadable,
    OutsideProject,
    FileTooLarge,
    NotJson,
    JsonShape,
    NotGitRepository,
    RevisionUnknown,
    NotAnImage,
    RefUnknown,
    NotAnIndex,
    PlatformRequired,
    PlatformUnknown,
    BlobMissing,
    BlobMismatch,
    LayerContentMismatch,
    MediaTypeUnsupported,
    NotAKey,
    NotAnEnvelope,
    PayloadTypeUnsupported,
    NotBase64,
    ThresholdUnmet,
    KeylessUnsupported,
);

impl WorldCode {
    /// What an IO error reading a file the program names means: missing,
    /// or there and unreadable.
    pub fn of_io(e: &std::io::Error) -> WorldCode {
        match e.kind() {
            std::io::ErrorKind::NotFound => WorldCode::FileMissing,
            _ => WorldCode::FileUnreadable,
        }
    }
}

pub trait World {
    /// Performs the world function `kind` on the path of `call`, with the
    /// arguments after the path (`oci_image`'s reference, `git_commit`'s
    /// id, …), giving a value of `ty` (what `load` decodes into; a world
    /// function's own result type otherwise): a digest for `file_sha256`,
    /// `file_sha512` and `git_tree`.
    fn read(&self, kind: WorldFn, call: &WorldCall<'_>, args: &[Value], ty: &Ty, types: &Types) -> WorldResult<Value>;
}

/// A world with nothing in it: every call is an error. For programs
/// checked without files (tests, the editor).
pub struct NoWorld;

impl World for NoWorld {
    fn read(&self, _: WorldFn, call: &WorldCall<'_>, _: &[Value], _: &Ty, _: &Types) -> WorldResult<Value> {
        let d = Diagnostic::error("E0302", format!("cannot read `{}` here", call.path))
            .at_loc(call.call, "no files are available in this run");
        Err(WorldError::new(WorldCode::FileMissing, d))
    }
}

#[cfg(test)]
mod tests {
    use super::WorldCode;

    /// `std.world` declares exactly the codes the world functions refuse
    /// with, in the same order.
    #[test]
    fn std_world_declares_every_world_code() {
        let source = claim_sema::stdlib::source("std.world").expect("std.world");
        let declared: Vec<&str> = source
            .lines()
            .filter_map(|l| l.strip_prefix("refusal "))
            .filter_map(|l| l.split_whitespace().next())
            .collect();
        let codes: Vec<&str> = WorldCode::ALL.iter().map(|c| c.name()).collect();
        assert_eq!(declared, codes);
    }
}
