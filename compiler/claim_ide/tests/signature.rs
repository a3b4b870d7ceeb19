//! Signature help while a call's arguments are typed (the text does not
//! parse yet), for the module's functions, an imported module's, and the
//! built-ins — whose signatures are held to the checker's arities.

mod common;

use claim_ide::signature_help;
use claim_sema::compile;

const LIB: &str = "/// The key of a recipe over a tree.\nfn key(recipe: Text, tree: Text) -> Text { recipe ++ tree }\n";

/// The signature at the end of `main` (a module that imports `lib`).
fn help_at_end(main: &str) -> Option<claim_ide::Signature> {
    let (db, program, files) = common::program(&[("lib", LIB), ("main", main)]);
    signature_help(&db, program, files[1], main.len() as u32)
}

fn active(s: &claim_ide::Signature) -> &str {
    let (a, b) = s.params[s.active as usize];
    &s.label[a as usize..b as usize]
}

#[test]
fn the_parameter_under_the_cursor_is_marked() {
    let s = help_at_end("use lib.{key}\nwitness w { holds key(").expect("a signature");
    assert_eq!(s.label, "key(recipe: Text, tree: Text) -> Text");
    assert_eq!(active(&s), "recipe: Text");
    assert_eq!(s.docs.as_deref(), Some("The key of a recipe over a tree."));
    // Commas inside nested calls, lists and texts do not count.
    let s = help_at_end("use lib.{key}\nwitness w { holds key(text([1, 2]) ++ \"a, {len(\"b, c\")}\", ").expect("sig");
    assert_eq!(active(&s), "tree: Text");
    let s = help_at_end("use lib.{key}\nwitness w { holds key(text([1, 2]) ++ \"a, b\"").expect("sig");
    assert_eq!(active(&s), "recipe: Text");
    // Through an imported module's name.
    let s = help_at_end("use lib\nwitness w { holds lib.key(\"r\", ").expect("sig");
    assert_eq!(active(&s), "tree: Text");
    // A built-in, inside another call's argument.
    let s = help_at_end("use lib.{key}\nwitness w { holds key(fold_sha256(\"d\", ").expect("sig");
    assert_eq!(s.label, "fold_sha256(domain: Text, parts: List<Text>) -> Sha256");
    assert_eq!(active(&s), "parts: List<Text>");
    // A call at the very start of the text (nothing before its name).
    assert_eq!(help_at_end("len(").map(|s| s.label), Some("len(xs: List<T> | Text | Map<T>) -> Int".to_string()));
    // Past the last parameter, the last stays marked.
    let s = help_at_end("fact x: Int = len(\"a\", ").expect("sig");
    assert_eq!(active(&s), "xs: List<T> | Text | Map<T>");
}

#[test]
fn outside_a_call_there_is_none() {
    for text in [
        "witness w { holds 1 == ",
        "use lib.{key}\nwitness w { holds key(\"a\", \"b\") == ",
        "fact xs: List<Int> = [len(\"a\"), ",
        "fact t: Text = \"len(",
        "fact n: Int = (1 + ",
        "witness w { holds unknown(",
    ] {
        assert_eq!(help_at_end(text), None, "{text}");
    }
}

/// Each built-in's signature has as many parameters as the checker wants:
/// a call with one argument more is refused as taking that many.
#[test]
fn builtin_signatures_match_the_checker() {
    for name in claim_sema::builtins::BUILTIN_NAMES {
        let b = claim_sema::builtins::BUILTINS
            .iter()
            .find(|b| b.name == *name)
            .unwrap_or_else(|| panic!("`{name}` has no signature"));
        let (label, doc) = (b.signature, b.doc);
        assert!(label.starts_with(&format!("{name}(")) && !doc.is_empty(), "{label}");
        let inner = &label[label.find('(').expect("(") + 1..label.find(')').expect(")")];
        let want = if inner.is_empty() { 0 } else { inner.split(", ").count() };
        let args = vec!["1"; want + 1].join(", ");
        let text = format!("fact x: Int = {name}({args})\n");
        let (db, program, _) = common::program(&[("main", &text)]);
        let diags = compile(&db, program).diagnostics.clone();
        let plural = if want == 1 { "" } else { "s" };
        let expected = format!("`{name}` takes {want} argument{plural}, but {} were given", want + 1);
        assert!(diags.iter().any(|d| d.message == expected), "{text}: {diags:?}");
    }
}
