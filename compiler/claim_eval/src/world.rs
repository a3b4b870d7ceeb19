//! The outside world, as the evaluator sees it (§6). The CLI implements it
//! (paths, files, JSON, hashing); the evaluator only asks.

use crate::value::Value;
use claim_diagnostics::Diagnostic;
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

pub trait World {
    /// Reads a JSON file and decodes it into `ty`.
    fn load(&self, call: &WorldCall<'_>, ty: &Ty, types: &Types) -> Result<Value, Vec<Diagnostic>>;
    /// SHA-256 of a file's bytes.
    fn file_sha256(&self, call: &WorldCall<'_>) -> Result<[u8; 32], Vec<Diagnostic>>;
    /// SHA-512 of a file's bytes.
    fn file_sha512(&self, call: &WorldCall<'_>) -> Result<[u8; 64], Vec<Diagnostic>>;
    /// The git tree id of a directory.
    fn git_tree(&self, call: &WorldCall<'_>) -> Result<[u8; 20], Vec<Diagnostic>>;
    /// The image tagged `reference` in the OCI image layout at the path,
    /// as a value of `ty` (`std.oci.Image`), every blob verified.
    fn oci_image(
        &self,
        call: &WorldCall<'_>,
        reference: &str,
        ty: &Ty,
        types: &Types,
    ) -> Result<Value, Vec<Diagnostic>>;
}

/// A world with nothing in it: every call is an error. For programs
/// checked without files (tests, the editor).
pub struct NoWorld;

impl NoWorld {
    fn refuse(call: &WorldCall<'_>) -> Vec<Diagnostic> {
        vec![Diagnostic::error("E0302", format!("cannot read `{}` here", call.path))
            .at_loc(call.call, "no files are available in this run")]
    }
}

impl World for NoWorld {
    fn load(&self, call: &WorldCall<'_>, _: &Ty, _: &Types) -> Result<Value, Vec<Diagnostic>> {
        Err(NoWorld::refuse(call))
    }
    fn file_sha256(&self, call: &WorldCall<'_>) -> Result<[u8; 32], Vec<Diagnostic>> {
        Err(NoWorld::refuse(call))
    }
    fn file_sha512(&self, call: &WorldCall<'_>) -> Result<[u8; 64], Vec<Diagnostic>> {
        Err(NoWorld::refuse(call))
    }
    fn git_tree(&self, call: &WorldCall<'_>) -> Result<[u8; 20], Vec<Diagnostic>> {
        Err(NoWorld::refuse(call))
    }
    fn oci_image(&self, call: &WorldCall<'_>, _: &str, _: &Ty, _: &Types) -> Result<Value, Vec<Diagnostic>> {
        Err(NoWorld::refuse(call))
    }
}
