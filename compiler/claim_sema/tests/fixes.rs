//! A misspelt name's "did you mean" is also a fix: an edit of exactly the
//! misspelt name (not of what surrounds it), which, applied, compiles.

use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::FileId;
use std::collections::BTreeMap;

const LIB: &str = "\
enum Origin { Built, Adopted }
record Wheel { name: Text, size: Int }
refusal TooSmall \"small\"
fn double(n: Int) -> Int { n * 2 }
fact base: Int = 2
";

/// `main` with each misspelling, and what its fix must replace it with.
const CASES: &[(&str, &str, &str)] = &[
    ("use lib.{double}\nwitness w { holds doubel(2) == 4 }\n", "doubel", "double"),
    ("use lib.{doubel}\nwitness w { holds true }\n", "doubel", "double"),
    ("use lob.{double}\nwitness w { holds true }\n", "lob", "lib"),
    (
        "use lib.{Wheel}\nfact w: Wheel = Wheel { name: \"a\", sise: 1 }\nwitness v { holds w.size == 1 }\n",
        "sise",
        "size",
    ),
    (
        "use lib.{Wheel}\nfact w: Wheel = Wheel { name: \"a\", size: 1 }\nwitness v { holds w.sise == 1 }\n",
        "sise",
        "size",
    ),
    ("use lib.{Origin}\nfact o: Origin = Origin.Buil\nwitness v { holds o is Built }\n", "Buil", "Built"),
    ("use lib.{Wheel}\nfact ws: Lst<Wheel> = []\nwitness v { holds len(ws) == 0 }\n", "Lst", "List"),
    ("fact count: Int = 1\nwitness v { holds cont == 1 }\n", "cont", "count"),
    (
        "fn f(n: Int) -> Int { require n > 0 else refuse TooSmal \"x\"; n }\nwitness v { holds f(1) == 1 }\n",
        "TooSmal",
        "TooSmall",
    ),
];

/// Compiles `text` as `main` beside `lib`, which must give exactly one fix;
/// checks it with `check` (the fix and the text it edits), applies it, and
/// requires the result to compile. Gives the fixed text.
fn apply_the_one_fix(text: &str, check: impl Fn(&claim_diagnostics::Fix)) -> String {
    let db = Database::default();
    let lib = SourceFile::new(&db, "lib".to_string(), LIB.into(), FileId(0));
    let main = SourceFile::new(&db, "main".to_string(), text.into(), FileId(1));
    let modules = BTreeMap::from([("lib".to_string(), lib), ("main".to_string(), main)]);
    let program = Program::new(&db, modules, vec!["main".to_string()], BTreeMap::new());
    let diags = compile(&db, program).diagnostics.clone();
    let fixes: Vec<_> = diags.iter().filter_map(|d| d.fix.clone()).collect();
    assert_eq!(fixes.len(), 1, "{text}: {diags:?}");
    let fix = &fixes[0];
    assert_eq!(fix.loc.file, FileId(1), "{text}");
    check(fix);
    let mut fixed = text.to_string();
    fixed.replace_range(fix.loc.span.start as usize..fix.loc.span.end as usize, &fix.replacement);
    let mut db = db;
    main.edit(&mut db, fixed.clone().into());
    assert!(!compile(&db, program).has_errors(), "{fixed}: {:?}", compile(&db, program).diagnostics);
    fixed
}

#[test]
fn each_suggestion_is_a_fix_that_compiles() {
    for (text, wrong, right) in CASES {
        apply_the_one_fix(text, |fix| {
            let span = fix.loc.span.start as usize..fix.loc.span.end as usize;
            assert_eq!((&text[span], fix.replacement.as_str()), (*wrong, *right), "{text}");
        });
    }
}

/// A name another module declares, not imported: the fix writes its `use`
/// — after the last `use`, or else below the file's header comment and
/// above the first item's doc comment — and the program then compiles.
#[test]
fn a_name_declared_elsewhere_is_imported_by_its_fix() {
    const CASES: &[(&str, &str)] = &[
        (
            "// A header.\n\n/// The doubling.\nwitness w { holds double(2) == 4 }\n",
            "// A header.\n\nuse lib.{double}\n\n/// The doubling.\nwitness w { holds double(2) == 4 }\n",
        ),
        (
            "use lib.{Wheel}\nfact w: Wheel = Wheel { name: \"a\", size: 2 }\nwitness v { holds double(w.size) == 4 }\n",
            "use lib.{Wheel}\nuse lib.{double}\nfact w: Wheel = Wheel { name: \"a\", size: 2 }\nwitness v { holds double(w.size) == 4 }\n",
        ),
        (
            "fact w: Wheel = Wheel { name: \"a\", size: 2 }\nwitness v { holds w.size == 2 }\n",
            "use lib.{Wheel}\n\nfact w: Wheel = Wheel { name: \"a\", size: 2 }\nwitness v { holds w.size == 2 }\n",
        ),
        ("witness v { holds base == 2 }\n", "use lib.{base}\n\nwitness v { holds base == 2 }\n"),
    ];
    for (text, want) in CASES {
        let fixed =
            apply_the_one_fix(text, |fix| assert!(fix.loc.span.start == fix.loc.span.end, "an insertion: {fix:?}"));
        assert_eq!(&fixed, want);
    }
}
