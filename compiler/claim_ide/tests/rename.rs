//! Rename: every place a name is named is renamed, across modules and in
//! shorthand fields; a rename that would capture another name, clash with
//! a declaration, change a JSON key a `load` reads, or touch the standard
//! library is refused with the reason, and the database is left as it was.

mod common;

use claim_ide::rename::{rename, Edit};
use claim_sema::{Database, Program, SourceFile};

const LIB: &str = "\
enum Origin { Built, Adopted { from: Text } }
record Receipt { run: Int, @json(\"tree\") observed: Text }
refusal NotBuilt \"adopted\"
fn is_built(x: Origin) -> Bool { x is Built }
";
const MAIN: &str = "\
use lib.{Origin, Receipt, is_built}
record Summary { count: Int, label: Text }
fact r: Receipt = load(\"r.json\")
fact o: Origin = Adopted { from: \"x\" }
fn source(x: Origin) -> Text {
  match x {
    Built => \"here\",
    Adopted { from } => from,
  }
}
fn summary(count: Int) -> Summary {
  let label = \"n\";
  Summary { count, label: label }
}
fn sum(x: Int) -> Int {
  let y = 1;
  x + y
}
witness w {
  holds is_built(o) == false
  holds source(o) == \"x\"
  holds summary(r.run).count == r.run
}
";

fn setup() -> (Database, Program, SourceFile, SourceFile) {
    let (db, program, files) = common::program(&[("lib", LIB), ("main", MAIN)]);
    (db, program, files[0], files[1])
}

fn offset(text: &str, needle: &str) -> u32 {
    text.find(needle).map(|i| i as u32).expect("needle")
}

/// The texts of (lib, main) with `edits` applied.
fn applied(db: &Database, lib: SourceFile, main: SourceFile, edits: &[Edit]) -> (String, String) {
    let one = |f: SourceFile| {
        let old = f.text(db).to_string();
        let mut mine: Vec<&Edit> = edits.iter().filter(|e| e.file == f).collect();
        mine.sort_by_key(|e| std::cmp::Reverse(e.span.start));
        let mut text = old;
        for e in mine {
            text.replace_range(e.span.start as usize..e.span.end as usize, &e.text);
        }
        text
    };
    (one(lib), one(main))
}

#[test]
fn a_rename_reaches_every_module_and_keeps_the_program_compiling() {
    let (mut db, program, lib, main) = setup();
    assert!(!claim_sema::compile(&db, program).has_errors(), "{:?}", claim_sema::compile(&db, program).diagnostics);
    let edits = rename(&mut db, program, main, offset(MAIN, "is_built(o)"), "was_built").expect("renames");
    assert_eq!(edits.len(), 3, "{edits:?}");
    // The database is as it was.
    assert_eq!(&**lib.text(&db), LIB);
    assert_eq!(&**main.text(&db), MAIN);
    let (l, m) = applied(&db, lib, main, &edits);
    assert!(l.contains("fn was_built(x: Origin)") && m.contains("use lib.{Origin, Receipt, was_built}"));
    assert!(m.contains("holds was_built(o) == false") && !m.contains("is_built"));

    // A type: its uses in both modules, and its variants and fields still
    // resolve (no false refusal for names whose owner was renamed).
    let edits = rename(&mut db, program, lib, offset(LIB, "Origin"), "Provenance").expect("renames a type");
    let (l, m) = applied(&db, lib, main, &edits);
    assert!(l.starts_with("enum Provenance {") && m.contains("fn source(x: Provenance)"), "{l}\n{m}");
    assert_eq!(edits.len(), 5, "{edits:?}");
    // Applied, the program compiles as before.
    lib.edit(&mut db, l.into());
    main.edit(&mut db, m.into());
    assert!(!claim_sema::compile(&db, program).has_errors(), "{:?}", claim_sema::compile(&db, program).diagnostics);
}

#[test]
fn shorthand_fields_are_written_out_on_the_renamed_side() {
    let (mut db, program, lib, main) = setup();
    // The field `from` of `Adopted`: its shorthand pattern keeps binding `from`.
    let edits = rename(&mut db, program, lib, offset(LIB, "from"), "source_run").expect("renames a field");
    let (l, m) = applied(&db, lib, main, &edits);
    assert!(l.contains("Adopted { source_run: Text }"), "{l}");
    assert!(m.contains("Adopted { source_run: \"x\" }") && m.contains("Adopted { source_run: from } => from,"), "{m}");
    // The local `from` bound by that shorthand: the field keeps its name.
    let edits = rename(&mut db, program, main, offset(MAIN, "from } =>"), "who").expect("renames a local");
    let (_, m) = applied(&db, lib, main, &edits);
    assert!(m.contains("Adopted { from: who } => who,"), "{m}");
    // A shorthand record literal `Summary { count, … }`, from the parameter.
    let edits = rename(&mut db, program, main, offset(MAIN, "count: Int) ->"), "n").expect("renames a parameter");
    let (_, m) = applied(&db, lib, main, &edits);
    assert!(m.contains("fn summary(n: Int) -> Summary") && m.contains("Summary { count: n, label: label }"), "{m}");
}

#[test]
fn a_rename_that_would_capture_or_clash_is_refused() {
    let (mut db, program, lib, main) = setup();
    // `x` to `y` in `sum`: the `let y` would capture the parameter's use.
    let err = rename(&mut db, program, main, offset(MAIN, "x: Int) -> Int"), "y").expect_err("captures");
    assert_eq!(err, "renaming `x` to `y` would make `y` at line 17, column 3 of `main` refer to something else");
    // A fact named like another fact of its module.
    let err = rename(&mut db, program, main, offset(MAIN, "o: Origin"), "r").expect_err("clashes");
    assert_eq!(err, "renaming `o` to `r` would add error E0105: `r` is declared twice in this module");
    // Not a name, or a keyword.
    let err = rename(&mut db, program, main, offset(MAIN, "sum("), "2x").expect_err("not a name");
    assert_eq!(err, "`2x` is not a name");
    let err = rename(&mut db, program, main, offset(MAIN, "sum("), "match").expect_err("keyword");
    assert_eq!(err, "`match` is a keyword, not a name");
    // Nothing was left changed.
    assert_eq!((&**lib.text(&db), &**main.text(&db)), (LIB, MAIN));
}

#[test]
fn json_keys_modules_and_the_standard_library_are_kept() {
    let (mut db, program, lib, main) = setup();
    // `run` is read from the key `run` of a loaded `Receipt`.
    let err = rename(&mut db, program, lib, offset(LIB, "run: Int"), "run_id").expect_err("a JSON key");
    assert!(err.contains("`run` is read from the JSON key `run`") && err.contains("@json(\"run\") run"), "{err}");
    // `observed` has its key written out: renaming it keeps the key.
    let edits = rename(&mut db, program, lib, offset(LIB, "observed"), "observed_tree").expect("keyed field");
    assert_eq!(edits.len(), 1);
    // A field of a record no `load` reads may be renamed freely.
    let edits = rename(&mut db, program, main, offset(MAIN, "label: Text"), "title").expect("not loaded");
    assert_eq!(edits.len(), 2, "{edits:?}");
    // A variant of a loaded enum is its JSON tag: `o` is not loaded, but
    // `Origin` is no receipt's type here, so it may be renamed.
    rename(&mut db, program, lib, offset(LIB, "Built,"), "Made").expect("not a loaded enum");
    let err = rename(&mut db, program, main, offset(MAIN, "lib.{"), "library").expect_err("a module");
    assert!(err.starts_with("a module is named by its file"), "{err}");
    let err = rename(&mut db, program, main, offset(MAIN, "lib.{") + 1000, "x").expect_err("nothing there");
    assert_eq!(err, "there is no name here to rename");
}

#[test]
fn a_variant_of_a_loaded_enum_is_its_json_tag() {
    let text =
        "enum Origin { Built, Adopted }\nfact o: List<Origin> = load(\"o.json\")\nwitness w { holds len(o) > 0 }\n";
    let (mut db, program, files) = common::program(&[("main", text)]);
    let main = files[0];
    let err = rename(&mut db, program, main, offset(text, "Built"), "Made").expect_err("a JSON tag");
    assert!(err.starts_with("`Built` is a variant of `Origin`, which `load` reads from JSON"), "{err}");
    // The type's own name is no key: it may be renamed.
    assert_eq!(rename(&mut db, program, main, offset(text, "Origin"), "Source").map(|e| e.len()), Ok(2));
}
