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
        "parse_sha512" => Builtin::ParseSha512,
        "sha512" => Builtin::Sha512,
        "sha256" => Builtin::Sha256,
        "fold_sha256" => Builtin::FoldSha256,
        "lower" => Builtin::Lower,
        "upper" => Builtin::Upper,
        "trim" => Builtin::Trim,
        "replace" => Builtin::Replace,
        "parse_int" => Builtin::ParseInt,
        "nth" => Builtin::Nth,
        "first" => Builtin::First,
        "last" => Builtin::Last,
        "unwrap_or" => Builtin::UnwrapOr,
        "sort" => Builtin::Sort,
        "distinct" => Builtin::Distinct,
        "json_get" => Builtin::JsonGet,
        "json_text" => Builtin::JsonText,
        "json_int" => Builtin::JsonInt,
        "json_bool" => Builtin::JsonBool,
        "json_list" => Builtin::JsonList,
        "json_map" => Builtin::JsonMap,
        _ => return None,
    })
}

/// World functions, available by name in fact initializers.
pub fn world(name: &str) -> Option<WorldFn> {
    Some(match name {
        "load" => WorldFn::Load,
        "file_sha256" => WorldFn::FileSha256,
        "file_sha512" => WorldFn::FileSha512,
        "git_tree" => WorldFn::GitTree,
        _ => return None,
    })
}

/// World functions the standard library declares with `@world fn`.
pub fn declared_world(name: &str) -> Option<WorldFn> {
    match name {
        "oci_image" => Some(WorldFn::OciImage),
        "oci_image_for" => Some(WorldFn::OciImageFor),
        "oci_index" => Some(WorldFn::OciIndex),
        "git_commit" => Some(WorldFn::GitCommit),
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
    "parse_sha512",
    "sha512",
    "sha256",
    "fold_sha256",
    "lower",
    "upper",
    "trim",
    "replace",
    "parse_int",
    "nth",
    "first",
    "last",
    "unwrap_or",
    "sort",
    "distinct",
    "json_get",
    "json_text",
    "json_int",
    "json_bool",
    "json_list",
    "json_map",
    "load",
    "file_sha256",
    "file_sha512",
    "git_tree",
];

/// The refusal codes that are always declared (§3).
pub const BUILTIN_CODES: &[(&str, &str)] = &[
    ("Overflow", "an Int or Duration computation overflowed"),
    ("DivisionByZero", "division by zero"),
    ("MalformedDigest", "the text is not a digest of the expected kind"),
    ("MalformedInt", "the text is not a decimal integer"),
];

/// Each built-in's signature, as an editor shows it while its arguments
/// are typed (`T` is any type), with one line on what it gives. A test
/// holds the parameter counts to the checker's (`check/calls.rs`).
pub const BUILTIN_SIGNATURES: &[(&str, &str, &str)] = &[
    (
        "len",
        "len(xs: List<T> | Text | Map<T>) -> Int",
        "the elements of a list, the Unicode scalar values of a text, the keys of a map",
    ),
    ("get", "get(m: Map<T>, key: Text) -> Option<T>", "the value under `key`, if there is one"),
    ("keys", "keys(m: Map<T>) -> List<Text>", "a map's keys, in key order"),
    ("raw", "raw(x: N) -> T", "a newtype's underlying value"),
    ("text", "text(x: T) -> Text", "any value as text (a Text is itself)"),
    ("hex", "hex(d: Sha256 | Sha1 | Sha512) -> Text", "a digest's lowercase hex (for a newtype, `hex(raw(d))`)"),
    ("take", "take(t: Text, n: Int) -> Text", "the first `n` characters (`\"\"` where n ≤ 0)"),
    ("starts_with", "starts_with(t: Text, prefix: Text) -> Bool", "whether `t` begins with `prefix`"),
    ("ends_with", "ends_with(t: Text, suffix: Text) -> Bool", "whether `t` ends with `suffix`"),
    ("contains", "contains(t: Text, part: Text) -> Bool", "whether `part` occurs in `t`"),
    ("split", "split(t: Text, sep: Text) -> List<Text>", "the pieces between each `sep` (the characters, for `\"\"`)"),
    ("join", "join(parts: List<Text>, sep: Text) -> Text", "the parts with `sep` between them"),
    ("all", "all(xs: List<Bool>) -> Bool", "whether every element is true (true for `[]`)"),
    ("any", "any(xs: List<Bool>) -> Bool", "whether some element is true"),
    ("sum", "sum(xs: List<Int>) -> Int", "the elements' sum (0 for `[]`); refuses `Overflow`"),
    ("count", "count(xs: List<Bool>) -> Int", "how many elements are true"),
    ("seconds", "seconds(d: Duration) -> Int", "whole seconds"),
    ("minutes", "minutes(d: Duration) -> Int", "whole minutes"),
    ("hours", "hours(d: Duration) -> Int", "whole hours"),
    (
        "parse_sha256",
        "parse_sha256(t: Text) -> Sha256",
        "a digest from 64 lowercase hex digits, bare or after `sha256:`; refuses `MalformedDigest`",
    ),
    (
        "parse_sha1",
        "parse_sha1(t: Text) -> Sha1",
        "a digest from 40 lowercase hex digits, bare or after `sha1:`; refuses `MalformedDigest`",
    ),
    ("sha256", "sha256(t: Text) -> Sha256", "SHA-256 of the text's UTF-8 bytes"),
    ("sha512", "sha512(t: Text) -> Sha512", "SHA-512 of the text's UTF-8 bytes"),
    (
        "parse_sha512",
        "parse_sha512(t: Text) -> Sha512",
        "a digest from 128 lowercase hex digits, bare or after `sha512:`; refuses `MalformedDigest`",
    ),
    (
        "fold_sha256",
        "fold_sha256(domain: Text, parts: List<Text>) -> Sha256",
        "SHA-256 of the netstrings of `domain` and each part, in order",
    ),
    ("lower", "lower(t: Text) -> Text", "the text in lower case (Unicode case mapping)"),
    ("upper", "upper(t: Text) -> Text", "the text in upper case (Unicode case mapping)"),
    ("trim", "trim(t: Text) -> Text", "the text without Unicode white space at either end"),
    (
        "replace",
        "replace(t: Text, from: Text, to: Text) -> Text",
        "every non-overlapping `from`, left to right, replaced by `to` (nothing for an empty `from`)",
    ),
    (
        "parse_int",
        "parse_int(t: Text) -> Int",
        "an optional `-` and decimal digits as an Int; refuses `MalformedInt`, or `Overflow` past i64",
    ),
    ("nth", "nth(xs: List<T>, i: Int) -> Option<T>", "the element at `i` (from 0), or `None` outside the list"),
    ("first", "first(xs: List<T>) -> Option<T>", "the first element, or `None` for `[]`"),
    ("last", "last(xs: List<T>) -> Option<T>", "the last element, or `None` for `[]`"),
    ("unwrap_or", "unwrap_or(o: Option<T>, otherwise: T) -> T", "the value inside `o`, or `otherwise` for `None`"),
    (
        "sort",
        "sort(xs: List<T>) -> List<T>",
        "ascending: Ints, Durations, Texts by code point, digests (and newtypes over them) by their hex",
    ),
    ("distinct", "distinct(xs: List<T>) -> List<T>", "each value once, at its first place"),
    (
        "json_get",
        "json_get(j: Json, pointer: Text) -> Option<Json>",
        "the value an RFC 6901 pointer names (`\"\"` is the whole, `/a/0/b` steps in); `None` where there is none",
    ),
    ("json_text", "json_text(j: Json) -> Option<Text>", "the string, or `None` for any other kind of value"),
    ("json_int", "json_int(j: Json) -> Option<Int>", "the whole number that fits an Int, or `None`"),
    ("json_bool", "json_bool(j: Json) -> Option<Bool>", "the boolean, or `None` for any other kind of value"),
    ("json_list", "json_list(j: Json) -> Option<List<Json>>", "the array's elements, or `None`"),
    ("json_map", "json_map(j: Json) -> Option<Map<Json>>", "the object's members, or `None`"),
    ("load", "load(path: Text) -> T", "a JSON file decoded into the declared type (in facts)"),
    ("file_sha256", "file_sha256(path: Text) -> Sha256", "SHA-256 of a file's bytes, streamed (in facts)"),
    ("file_sha512", "file_sha512(path: Text) -> Sha512", "SHA-512 of a file's bytes, streamed (in facts)"),
    (
        "git_tree",
        "git_tree(path: Text) -> Sha1",
        "the git tree id of a folder, as `git write-tree` gives it (in facts)",
    ),
];
