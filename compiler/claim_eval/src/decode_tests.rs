//! The decoder on well-formed receipts of every kind of field, and on
//! each way a receipt can be spoiled: what is JSON of the type decodes,
//! nothing else does.

use crate::json;
use crate::world::Types;
use claim_sema::ty::{GlobalName, Ty};
use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::{FileId, Loc, Span};
use std::collections::BTreeMap;

const TYPES: &str = "newtype ConfigDigest = Sha256\n\
    enum Origin { Built, Adopted { from: Text, at: Option<Int> } }\n\
    record Wheel { name: Text, sha256: Sha256, size: Int }\n\
    record Receipt { @json(\"schema-version\") schema: Text, config: ConfigDigest, origin: Origin,\n\
      wheels: List<Wheel>, manifest: Option<Sha256>, commit: Sha1, budget: Duration, labels: Map<Text>,\n\
      pushed: Bool, .. }\n\
    record Twice { a: Text, @json(\"a\") b: ConfigDigest, c: Option<List<Option<Int>>> }\n\
    record Big { f0: Int, f1: Int, f2: Int, f3: Int, f4: Int, f5: Int, f6: Int, f7: Int, f8: Int, f9: Int,\n\
      f10: Int, f11: Int, f12: Int, f13: Int, f14: Int, f15: Int, f16: Int, f17: Option<Int>, .. }\n\
    record Odd { @json(\"x\\\\y\") a: Int, b: Int }\n";

fn types() -> Types {
    let db = Database::default();
    let file = SourceFile::new(&db, "main".to_string(), TYPES.into(), FileId(0));
    let program =
        Program::new(&db, BTreeMap::from([("main".to_string(), file)]), vec!["main".to_string()], BTreeMap::new());
    let compiled = compile(&db, program);
    // Two fields of one key are refused by the checker (`Twice`), but the
    // decoder still gives both the value: a program with errors is not run,
    // yet nothing may go wrong where one is.
    assert!(compiled.diagnostics.iter().all(|d| d.code == "E0223"), "{:?}", compiled.diagnostics);
    compiled.types.clone()
}

/// Whether `text` decodes into `ty` (it parses, and its value is of the
/// type).
fn decodes(types: &Types, ty: &Ty, text: &str) -> bool {
    let call = Loc::new(FileId(0), Span::default());
    json::parse(text).ok().is_some_and(|doc| crate::decode::decode(&doc, ty, types, FileId(1), call).is_ok())
}

const D: &str = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const C: &str = "0123456789abcdef0123456789abcdef01234567";

#[test]
fn well_formed_receipts_decode() {
    let types = types();
    let receipt = Ty::named(GlobalName::new("main", "Receipt"));
    let good = [
        format!(
            r#"{{"schema-version": "1", "config": "{D}", "origin": "Built", "wheels": [], "commit": "{C}",
               "budget": "3h", "labels": {{}}, "pushed": false}}"#
        ),
        // Every kind of value, keys out of order, unknown keys (the record
        // is open) holding every kind of JSON, escapes, a manifest present.
        format!(
            r#" {{ "pushed" : true, "extra": {{"x": [1, -2.5e3, null, "s\"", {{}}]}}, "labels": {{"a\u0041": "x\ny", "b": ""}},
               "wheels": [{{"name": "torch", "sha256": "{D}", "size": 12}}, {{"size": -3, "name": "é", "sha256": "{}"}}],
               "manifest": "{D}", "origin": {{"Adopted": {{"from": "ghcr.io/x:1", "at": 7}}}}, "budget": "250ms",
               "commit": "{C}", "config": "{}", "schema-version": "2", "more": true }} "#,
            &D[7..],
            &D[7..]
        ),
        format!(
            r#"{{"schema-version": "1", "config": "{D}", "origin": {{"Adopted": {{"from": "x"}}}}, "wheels": [],
               "manifest": null, "commit": "{C}", "budget": "2d", "labels": {{}}, "pushed": false}}"#
        ),
    ];
    for text in &good {
        assert!(decodes(&types, &receipt, text), "decodes: {text}");
    }
    let twice = Ty::named(GlobalName::new("main", "Twice"));
    assert!(decodes(&types, &twice, &format!(r#"{{"a": "{D}", "c": [1, null, 3]}}"#)));
    assert!(decodes(&types, &twice, &format!(r#"{{"c": null, "a": "{D}"}}"#)));
    let big = Ty::named(GlobalName::new("main", "Big"));
    let fields: Vec<String> = (0..17).rev().map(|i| format!(r#""f{i}": {i}"#)).collect();
    assert!(decodes(&types, &big, &format!("{{{}, \"other\": [1]}}", fields.join(", "))));
}

#[test]
fn every_malformed_text_is_refused() {
    let types = types();
    let receipt = Ty::named(GlobalName::new("main", "Receipt"));
    let base = format!(
        r#"{{"schema-version": "1", "config": "{D}", "origin": "Built", "wheels": [{{"name": "w", "sha256": "{D}", "size": 1}}],
           "commit": "{C}", "budget": "3h", "labels": {{"k": "v"}}, "pushed": false}}"#
    );
    assert!(decodes(&types, &receipt, &base));
    let spoiled = [
        ("\"pushed\": false", "\"pushed\": 0"),
        ("\"pushed\": false", "\"pushed\": false,"),
        ("\"pushed\": false", "\"pushed\": false, \"pushed\": true"),
        ("\"pushed\": false", "\"pushed\": false, \"x\": 1, \"x\": 2"),
        ("\"pushed\": false", "\"pushed\": fals"),
        ("\"pushed\": false", "\"pushed\": false}} "),
        ("\"size\": 1", "\"size\": 1.5"),
        ("\"size\": 1", "\"size\": 01"),
        ("\"size\": 1", "\"size\": 00"),
        ("\"budget\": \"3h\"", "\"budget\": \"03h\""),
        ("\"size\": 1", "\"size\": 99999999999999999999"),
        ("\"size\": 1", "\"size\": 1, \"extra\": 2"),
        ("\"size\": 1", "\"size\": 1,"),
        (", \"size\": 1", ""),
        ("\"budget\": \"3h\"", "\"budget\": \"3 hours\""),
        ("\"origin\": \"Built\"", "\"origin\": \"Bilt\""),
        ("\"origin\": \"Built\"", "\"origin\": {\"Built\": {}}"),
        ("\"origin\": \"Built\"", "\"origin\": \"Adopted\""),
        ("\"origin\": \"Built\"", "\"origin\": {\"Adopted\": {\"from\": \"x\"}, \"Built\": 1}"),
        ("\"origin\": \"Built\"", "\"origin\": {\"Adopted\": {\"from\": \"x\", \"to\": 1}}"),
        ("\"origin\": \"Built\"", "\"origin\": {}"),
        ("\"labels\": {\"k\": \"v\"}", "\"labels\": {\"k\": \"v\", \"k\": \"w\"}"),
        ("\"labels\": {\"k\": \"v\"}", "\"labels\": {\"k\": 1}"),
        ("\"labels\": {\"k\": \"v\"}", "\"labels\": [\"v\"]"),
        ("\"wheels\": [", "\"wheels\": [1, "),
        ("\"size\": 1}]", "\"size\": 1},]"),
        ("\"size\": 1}]", "\"size\": 1}, ]"),
        ("\"commit\": \"0123", "\"commit\": \"0X23"),
        ("\"commit\": \"0123", "\"commit\": \"012"),
        ("\"config\": \"sha256:", "\"config\": \"sha1:"),
        ("\"config\": \"sha256:0", "\"config\": \"sha256:A"),
        ("\"schema-version\": \"1\"", "\"schema-version\": \"1\t\""),
        ("\"schema-version\": \"1\"", "\"schema-version\": \"\\q\""),
        ("\"schema-version\": \"1\", ", ""),
    ];
    for (from, to) in spoiled {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        assert!(!decodes(&types, &receipt, &text), "refused: {text}");
    }
    // Truncated anywhere, it is a syntax error.
    for end in 0..base.len() {
        if base.is_char_boundary(end) && !base[end..].trim().is_empty() {
            assert!(!decodes(&types, &receipt, &base[..end]), "truncated at {end}");
        }
    }
}

#[test]
fn nesting_past_the_limit_is_refused() {
    let types = types();
    let deep = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let mut ty = Ty::Int;
    for _ in 0..json::MAX_DEPTH + 1 {
        ty = Ty::list(ty);
    }
    assert!(!decodes(&types, &ty, &deep(json::MAX_DEPTH + 1)));
    let mut ty = Ty::Int;
    for _ in 0..json::MAX_DEPTH {
        ty = Ty::list(ty);
    }
    assert!(decodes(&types, &ty, &deep(json::MAX_DEPTH)));
}

/// Keys in any order, escaped or not, read as their fields; a longer key,
/// a repeated one and a key without its colon do not.
#[test]
fn keys_read_as_their_fields_in_any_order() {
    let types = types();
    let receipt = Ty::named(GlobalName::new("main", "Receipt"));
    // In the declared order, then sorted.
    let declared = format!(
        r#"{{"schema-version": "1", "config": "{D}", "origin": "Built", "wheels": [], "manifest": null,
           "commit": "{C}", "budget": "3h", "labels": {{}}, "pushed": false}}"#
    );
    let sorted = format!(
        r#"{{"budget": "3h", "commit": "{C}", "config": "{D}", "labels": {{}}, "manifest": null,
           "origin": "Built", "pushed": false, "schema-version": "1", "wheels": []}}"#
    );
    for base in [&declared, &sorted, &declared] {
        variants_of(&types, &receipt, base);
    }
    // A key with a backslash: written so, it is an escape (`\y`, which
    // JSON does not have), not the key.
    let odd = Ty::named(GlobalName::new("main", "Odd"));
    assert!(decodes(&types, &odd, r#"{"x\\y": 1, "b": 2}"#));
    assert!(!decodes(&types, &odd, r#"{"x\y": 1, "b": 2}"#));
}

fn variants_of(types: &Types, receipt: &Ty, base: &str) {
    assert!(decodes(types, receipt, base));
    let read = [
        ("\"config\": ", "\"con\\u0066ig\": "),
        ("\"config\": ", "\"config\" \n: "),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": 1"),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": {\"a\": [0, -0.5, 1e-7, 10]}"),
        ("\"manifest\": null,", ""),
        ("\"config\": \"{D}\"", "\"config\": \"{D}\", \"extra\": [1]"),
    ];
    for (from, to) in read {
        let text = base.replacen(&from.replace("{D}", D), &to.replace("{D}", D), 1);
        assert_ne!(text, base, "{from}");
        assert!(decodes(types, receipt, &text), "decodes: {text}");
    }
    let refused = [
        ("\"config\": ", "\"configx\": "),
        ("\"config\": ", "\"config\" "),
        ("\"config\": ", "\"config\": \"{D}\", \"config\": "),
        ("\"schema-version\": \"1\", ", "\"schema-version\": \"1\", \"schema-version\": \"1\", "),
        ("\"origin\": \"Built\", ", "\"origin\": \"Built\", \"con\\u0066ig\": \"{D}\", "),
        ("\"manifest\": null,", "\"manifest\" "),
        // A field the record ignores is still JSON, checked as strictly:
        // a key written twice at any depth, a number with a leading zero.
        ("\"pushed\": false", "\"pushed\": false, \"configx\": {\"a\": 1, \"a\": 2}"),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": [{\"b\": {\"c\": 1, \"c\": 1}}]"),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": 007"),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": -01"),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": 1."),
        ("\"pushed\": false", "\"pushed\": false, \"configx\": 1e"),
    ];
    for (from, to) in refused {
        let text = base.replacen(from, &to.replace("{D}", D), 1);
        assert_ne!(text, base, "{from}");
        assert!(!decodes(types, receipt, &text), "refused: {text}");
    }
}
