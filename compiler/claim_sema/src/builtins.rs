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
        "public_key" => Some(WorldFn::PublicKey),
        "dsse" => Some(WorldFn::Dsse),
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

/// A built-in as the reference and the editor show it.
pub struct BuiltinDoc {
    pub name: &'static str,
    /// As an editor shows it while the arguments are typed (`T` is any
    /// type).
    pub signature: &'static str,
    /// One line on what it gives.
    pub doc: &'static str,
    /// For a function: a Bool expression that holds in the reference's
    /// example project (`BUILTIN_EXAMPLE_FACTS`); for a world function,
    /// a fact that calls it. A test runs every one.
    pub example: &'static str,
}

/// The facts the built-ins' examples read, with the files they load.
pub const BUILTIN_EXAMPLE_FACTS: &str = "newtype ConfigDigest = Sha256
fact empty: ConfigDigest = sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
// labels.json: {\"org.opencontainers.image.title\": \"sparkring\", \"tier\": \"gpu\"}
fact labels: Map<Text> = load(\"labels.json\")
// receipt.json: {\"builder\": {\"id\": \"https://github.com/acme/builder\"}, \"steps\": [3, 4], \"ok\": true}
fact receipt: Json = load(\"receipt.json\")
";

/// Each built-in: its signature, what it gives, and an example. A test
/// holds the parameter counts to the checker's (`check/calls.rs`), and
/// another runs every example.
pub const BUILTINS: &[BuiltinDoc] = &[
    BuiltinDoc {
        name: "len",
        signature: "len(xs: List<T> | Text | Map<T>) -> Int",
        doc: "the elements of a list, the Unicode scalar values of a text, the keys of a map",
        example: "len([1, 2, 3]) == 3 and len(\"héllo\") == 5 and len(labels) == 2",
    },
    BuiltinDoc {
        name: "get",
        signature: "get(m: Map<T>, key: Text) -> Option<T>",
        doc: "the value under `key`, if there is one",
        example: "get(labels, \"tier\") == Some(\"gpu\") and get(labels, \"arch\") == None",
    },
    BuiltinDoc {
        name: "keys",
        signature: "keys(m: Map<T>) -> List<Text>",
        doc: "a map's keys, in key order",
        example: "keys(labels) == [\"org.opencontainers.image.title\", \"tier\"]",
    },
    BuiltinDoc {
        name: "raw",
        signature: "raw(x: N) -> T",
        doc: "a newtype's underlying value",
        example: "raw(empty) == sha256(\"\")",
    },
    BuiltinDoc {
        name: "text",
        signature: "text(x: T) -> Text",
        doc: "any value as text (a Text is itself)",
        example: "text(42) == \"42\" and text(90min) == \"90min\" and text([1, 2]) == \"[1, 2]\"",
    },
    BuiltinDoc {
        name: "hex",
        signature: "hex(d: Sha256 | Sha1 | Sha512) -> Text",
        doc: "a digest's lowercase hex (for a newtype, `hex(raw(d))`)",
        example: "hex(raw(empty)) == \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"",
    },
    BuiltinDoc {
        name: "take",
        signature: "take(t: Text, n: Int) -> Text",
        doc: "the first `n` characters (`\"\"` where n ≤ 0)",
        example: "take(\"sparkring\", 5) == \"spark\"",
    },
    BuiltinDoc {
        name: "starts_with",
        signature: "starts_with(t: Text, prefix: Text) -> Bool",
        doc: "whether `t` begins with `prefix`",
        example: "starts_with(\"ghcr.io/acme/app\", \"ghcr.io/\")",
    },
    BuiltinDoc {
        name: "ends_with",
        signature: "ends_with(t: Text, suffix: Text) -> Bool",
        doc: "whether `t` ends with `suffix`",
        example: "ends_with(\"app-1.0-py3-none-any.whl\", \".whl\")",
    },
    BuiltinDoc {
        name: "contains",
        signature: "contains(t: Text, part: Text) -> Bool",
        doc: "whether `part` occurs in `t`",
        example: "contains(\"linux/amd64\", \"amd64\")",
    },
    BuiltinDoc {
        name: "split",
        signature: "split(t: Text, sep: Text) -> List<Text>",
        doc: "the pieces between each `sep` (the characters, for `\"\"`)",
        example: "split(\"linux/amd64\", \"/\") == [\"linux\", \"amd64\"]",
    },
    BuiltinDoc {
        name: "join",
        signature: "join(parts: List<Text>, sep: Text) -> Text",
        doc: "the parts with `sep` between them",
        example: "join([\"linux\", \"arm64\"], \"/\") == \"linux/arm64\"",
    },
    BuiltinDoc {
        name: "all",
        signature: "all(xs: List<Bool>) -> Bool",
        doc: "whether every element is true (true for `[]`)",
        example: "all([n > 0 for n in [1, 2, 3]])",
    },
    BuiltinDoc {
        name: "any",
        signature: "any(xs: List<Bool>) -> Bool",
        doc: "whether some element is true",
        example: "any([n == 2 for n in [1, 2, 3]])",
    },
    BuiltinDoc {
        name: "sum",
        signature: "sum(xs: List<Int>) -> Int",
        doc: "the elements' sum (0 for `[]`); refuses `Overflow`",
        example: "sum([1, 2, 3]) == 6",
    },
    BuiltinDoc {
        name: "count",
        signature: "count(xs: List<Bool>) -> Int",
        doc: "how many elements are true",
        example: "count([n > 1 for n in [1, 2, 3]]) == 2",
    },
    BuiltinDoc {
        name: "seconds",
        signature: "seconds(d: Duration) -> Int",
        doc: "whole seconds",
        example: "seconds(2min) == 120",
    },
    BuiltinDoc {
        name: "minutes",
        signature: "minutes(d: Duration) -> Int",
        doc: "whole minutes",
        example: "minutes(2h) == 120",
    },
    BuiltinDoc {
        name: "hours",
        signature: "hours(d: Duration) -> Int",
        doc: "whole hours",
        example: "hours(150min) == 2",
    },
    BuiltinDoc {
        name: "parse_sha256",
        signature: "parse_sha256(t: Text) -> Sha256",
        doc: "a digest from 64 lowercase hex digits, bare or after `sha256:`; refuses `MalformedDigest`",
        example: "parse_sha256(\"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\") == sha256(\"\")",
    },
    BuiltinDoc {
        name: "parse_sha1",
        signature: "parse_sha1(t: Text) -> Sha1",
        doc: "a digest from 40 lowercase hex digits, bare or after `sha1:`; refuses `MalformedDigest`",
        example: "parse_sha1(\"da39a3ee5e6b4b0d3255bfef95601890afd80709\") == sha1:da39a3ee5e6b4b0d3255bfef95601890afd80709",
    },
    BuiltinDoc {
        name: "parse_sha512",
        signature: "parse_sha512(t: Text) -> Sha512",
        doc: "a digest from 128 lowercase hex digits, bare or after `sha512:`; refuses `MalformedDigest`",
        example: "parse_sha512(\"sha512:cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e\") == sha512(\"\")",
    },
    BuiltinDoc {
        name: "sha512",
        signature: "sha512(t: Text) -> Sha512",
        doc: "SHA-512 of the text's UTF-8 bytes",
        example: "sha512(\"\") == parse_sha512(\"cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e\")",
    },
    BuiltinDoc {
        name: "sha256",
        signature: "sha256(t: Text) -> Sha256",
        doc: "SHA-256 of the text's UTF-8 bytes",
        example: "sha256(\"\") == sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    },
    BuiltinDoc {
        name: "fold_sha256",
        signature: "fold_sha256(domain: Text, parts: List<Text>) -> Sha256",
        doc: "SHA-256 of the netstrings of `domain` and each part, in order",
        example: "fold_sha256(\"claim\", [\"a\"]) == sha256(\"5:claim,1:a,\")",
    },
    BuiltinDoc {
        name: "lower",
        signature: "lower(t: Text) -> Text",
        doc: "the text in lower case (Unicode case mapping)",
        example: "lower(\"ABC-Déf\") == \"abc-déf\"",
    },
    BuiltinDoc {
        name: "upper",
        signature: "upper(t: Text) -> Text",
        doc: "the text in upper case (Unicode case mapping)",
        example: "upper(\"amd64\") == \"AMD64\"",
    },
    BuiltinDoc {
        name: "trim",
        signature: "trim(t: Text) -> Text",
        doc: "the text without Unicode white space at either end",
        example: "trim(\"  v1.2 \") == \"v1.2\"",
    },
    BuiltinDoc {
        name: "replace",
        signature: "replace(t: Text, from: Text, to: Text) -> Text",
        doc: "every non-overlapping `from`, left to right, replaced by `to` (nothing for an empty `from`)",
        example: "replace(\"aaa\", \"aa\", \"b\") == \"ba\"",
    },
    BuiltinDoc {
        name: "parse_int",
        signature: "parse_int(t: Text) -> Int",
        doc: "an optional `-` and decimal digits as an Int; refuses `MalformedInt`, or `Overflow` past i64",
        example: "parse_int(\"007\") == 7 and parse_int(\"-3\") + 3 == 0",
    },
    BuiltinDoc {
        name: "nth",
        signature: "nth(xs: List<T>, i: Int) -> Option<T>",
        doc: "the element at `i` (from 0), or `None` outside the list",
        example: "nth([10, 20], 1) == Some(20) and nth([10, 20], 2) == None",
    },
    BuiltinDoc {
        name: "first",
        signature: "first(xs: List<T>) -> Option<T>",
        doc: "the first element, or `None` for `[]`",
        example: "first([10, 20]) == Some(10)",
    },
    BuiltinDoc {
        name: "last",
        signature: "last(xs: List<T>) -> Option<T>",
        doc: "the last element, or `None` for `[]`",
        example: "last([10, 20]) == Some(20)",
    },
    BuiltinDoc {
        name: "unwrap_or",
        signature: "unwrap_or(o: Option<T>, otherwise: T) -> T",
        doc: "the value inside `o`, or `otherwise` for `None`",
        example: "unwrap_or(get(labels, \"arch\"), \"amd64\") == \"amd64\"",
    },
    BuiltinDoc {
        name: "sort",
        signature: "sort(xs: List<T>) -> List<T>",
        doc: "ascending: Ints, Durations, Texts by code point, digests (and newtypes over them) by their hex",
        example: "sort([3, 1, 2]) == [1, 2, 3] and sort([\"b\", \"B\", \"a\"]) == [\"B\", \"a\", \"b\"]",
    },
    BuiltinDoc {
        name: "distinct",
        signature: "distinct(xs: List<T>) -> List<T>",
        doc: "each value once, at its first place",
        example: "distinct([2, 1, 2]) == [2, 1]",
    },
    BuiltinDoc {
        name: "json_get",
        signature: "json_get(j: Json, pointer: Text) -> Option<Json>",
        doc: "the value an RFC 6901 pointer names (`\"\"` is the whole, `/a/0/b` steps in); `None` where there is none",
        example: "json_get(receipt, \"/builder/id\") is Some(_) and json_get(receipt, \"/builder/name\") == None",
    },
    BuiltinDoc {
        name: "json_text",
        signature: "json_text(j: Json) -> Option<Text>",
        doc: "the string, or `None` for any other kind of value",
        example: "json_text(unwrap_or(json_get(receipt, \"/builder/id\"), receipt)) == Some(\"https://github.com/acme/builder\")",
    },
    BuiltinDoc {
        name: "json_int",
        signature: "json_int(j: Json) -> Option<Int>",
        doc: "the whole number that fits an Int, or `None`",
        example: "json_int(unwrap_or(json_get(receipt, \"/steps/1\"), receipt)) == Some(4)",
    },
    BuiltinDoc {
        name: "json_bool",
        signature: "json_bool(j: Json) -> Option<Bool>",
        doc: "the boolean, or `None` for any other kind of value",
        example: "json_bool(unwrap_or(json_get(receipt, \"/ok\"), receipt)) == Some(true)",
    },
    BuiltinDoc {
        name: "json_list",
        signature: "json_list(j: Json) -> Option<List<Json>>",
        doc: "the array's elements, or `None`",
        example: "len(unwrap_or(json_list(unwrap_or(json_get(receipt, \"/steps\"), receipt)), [])) == 2",
    },
    BuiltinDoc {
        name: "json_map",
        signature: "json_map(j: Json) -> Option<Map<Json>>",
        doc: "the object's members, or `None`",
        example: "json_map(receipt) is Some(_) and json_map(unwrap_or(json_get(receipt, \"/ok\"), receipt)) == None",
    },
    BuiltinDoc {
        name: "load",
        signature: "load(path: Text) -> T",
        doc: "a JSON file decoded into the declared type (in facts)",
        example: "fact tiers: Map<Text> = load(\"labels.json\")",
    },
    BuiltinDoc {
        name: "file_sha256",
        signature: "file_sha256(path: Text) -> Sha256",
        doc: "SHA-256 of a file's bytes, streamed (in facts)",
        example: "fact readme: Sha256 = file_sha256(\"src/a.txt\")",
    },
    BuiltinDoc {
        name: "file_sha512",
        signature: "file_sha512(path: Text) -> Sha512",
        doc: "SHA-512 of a file's bytes, streamed (in facts)",
        example: "fact readme512: Sha512 = file_sha512(\"src/a.txt\")",
    },
    BuiltinDoc {
        name: "git_tree",
        signature: "git_tree(path: Text) -> Sha1",
        doc: "the git tree id of a folder, as `git write-tree` gives it (in facts)",
        example: "fact tree: Sha1 = git_tree(\"src\")",
    },
];
