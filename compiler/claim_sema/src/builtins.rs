//! The prelude's built-in functions (§4) and the world functions (§6), by
//! name. Their typing rules live in `check/calls.rs`.

use crate::hir::{Builtin, WorldFn};

pub fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "len" => Builtin::Len,
        "get" => Builtin::Get,
        "keys" => Builtin::Keys,
        "raw" => Builtin::Raw,
        "text" => Builtin::TextOf,
        "hex" => Builtin::Hex,
        "take" => Builtin::Take,
        "starts_with" => Builtin::StartsWith,
        "ends_with" => Builtin::EndsWith,
        "contains" => Builtin::Contains,
        "split" => Builtin::Split,
        "join" => Builtin::Join,
        "all" => Builtin::All,
        "any" => Builtin::Any,
        "sum" => Builtin::Sum,
        "count" => Builtin::Count,
        "seconds" => Builtin::Seconds,
        "minutes" => Builtin::Minutes,
        "hours" => Builtin::Hours,
        "parse_sha256" => Builtin::ParseSha256,
        "parse_sha1" => Builtin::ParseSha1,
        "sha256" => Builtin::Sha256,
        "fold_sha256" => Builtin::FoldSha256,
        _ => return None,
    })
}

/// World functions, available by name in fact initializers.
pub fn world(name: &str) -> Option<WorldFn> {
    Some(match name {
        "load" => WorldFn::Load,
        "file_sha256" => WorldFn::FileSha256,
        "git_tree" => WorldFn::GitTree,
        _ => return None,
    })
}

/// World functions the standard library declares with `@world fn`.
pub fn declared_world(name: &str) -> Option<WorldFn> {
    match name {
        "oci_image" => Some(WorldFn::OciImage),
        _ => None,
    }
}

pub const BUILTIN_NAMES: &[&str] = &[
    "len",
    "get",
    "keys",
    "raw",
    "text",
    "hex",
    "take",
    "starts_with",
    "ends_with",
    "contains",
    "split",
    "join",
    "all",
    "any",
    "sum",
    "count",
    "seconds",
    "minutes",
    "hours",
    "parse_sha256",
    "parse_sha1",
    "sha256",
    "fold_sha256",
    "load",
    "file_sha256",
    "git_tree",
];

/// The refusal codes that are always declared (§3).
pub const BUILTIN_CODES: &[(&str, &str)] = &[
    ("Overflow", "an Int or Duration computation overflowed"),
    ("DivisionByZero", "division by zero"),
    ("MalformedDigest", "the text is not a digest of the expected kind"),
];
