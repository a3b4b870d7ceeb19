//! Every kind of name resolves to its declaration, and finds its
//! references: variants (bare, qualified, in patterns and literals),
//! fields of variants, locals, refusal codes and modules.

mod common;

use claim_ide::{at, definition, references, Def};
use claim_sema::{Database, Program, SourceFile};

const LIB: &str = "enum Origin { Built, Adopted { from: Text } }\nrefusal NotBuilt \"adopted\"\n";
const MAIN: &str = "use lib.{Origin}\n\
fact o: Origin = Adopted { from: \"x\" }\n\
fn built(x: Origin) -> Bool {\n  match x {\n    Built => true,\n    Adopted { from } => from == \"\",\n  }\n}\n\
fn must(x: Origin) -> Bool {\n  require x is Built else refuse NotBuilt \"no\";\n  true\n}\n\
witness w { holds built(Origin.Built) }\n";

fn setup() -> (Database, Program, SourceFile, SourceFile) {
    let (db, program, files) = common::program(&[("lib", LIB), ("main", MAIN)]);
    (db, program, files[0], files[1])
}

fn offset(text: &str, needle: &str, nth: usize) -> u32 {
    text.match_indices(needle).nth(nth).map(|(i, _)| i as u32).expect("needle")
}

#[test]
fn variants_fields_locals_codes_and_modules_resolve() {
    let (db, program, lib, main) = setup();
    assert!(!claim_sema::compile(&db, program).has_errors(), "{:?}", claim_sema::compile(&db, program).diagnostics);
    let def_at = |needle: &str, nth: usize| {
        let o = at(&db, program, main, offset(MAIN, needle, nth)).expect("a name");
        (o.def.clone(), definition(&db, program, &o.def).expect("a definition"))
    };
    let lib_span = |needle: &str| {
        let s = offset(LIB, needle, 0);
        claim_syntax::Span::new(s as usize, s as usize + needle.len())
    };

    // `Built` in a pattern, qualified in an expression, and after `is`.
    for (needle, nth) in [("Built =>", 0), ("Built)", 0), ("Built else", 0)] {
        let (def, loc) = def_at(needle, nth);
        assert!(matches!(def, Def::Variant { .. }), "{needle}: {def:?}");
        assert_eq!((loc.file, loc.span), (lib.file_id(&db), lib_span("Built")), "{needle}");
    }
    // A variant literal, and its field in the literal and in a pattern.
    let (_, loc) = def_at("Adopted {", 0);
    assert_eq!(loc.span, lib_span("Adopted"));
    let (def, loc) = def_at("from: \"x\"", 0);
    assert!(matches!(def, Def::Field { variant: Some(_), .. }), "{def:?}");
    assert_eq!(loc.span, lib_span("from"));
    // A pattern's shorthand field binds a local, read in the arm.
    let (def, loc) = def_at("from ==", 0);
    assert!(matches!(def, Def::Local { .. }), "{def:?}");
    assert_eq!(loc.span.start, offset(MAIN, "from }", 0));
    // A refusal code, and the module of a `use`.
    let (_, loc) = def_at("NotBuilt", 0);
    assert_eq!(loc.span, lib_span("NotBuilt"));
    let (def, loc) = def_at("lib", 0);
    assert_eq!(def, Def::Module("lib".into()));
    assert_eq!(loc.file, lib.file_id(&db));

    // References of `Built`: its declaration and its three uses.
    let (def, _) = def_at("Built =>", 0);
    assert_eq!(references(&db, program, &def, true).len(), 4);
    assert_eq!(references(&db, program, &def, false).len(), 3);
    // The parameter `x` of `built`: bound once, read once (not `must`'s `x`).
    let (def, _) = def_at("x {", 0);
    assert_eq!(references(&db, program, &def, true).len(), 2);
}
