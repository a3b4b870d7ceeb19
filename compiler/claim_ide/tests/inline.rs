//! What an editor shows in place: the types of locals bound without one
//! written, and the other places that name what is under the cursor.

mod common;

use claim_ide::{highlights, inlay_types};
use claim_sema::{Database, Program, SourceFile};

const MAIN: &str = "\
enum Origin { Built, Adopted { from: Text } }
record Wheel { name: Text, size: Int }
fact wheels: List<Wheel> = [Wheel { name: \"a\", size: 1 }]
fn sizes(ws: List<Wheel>) -> List<Int> { [w.size for w in ws] }
fn source(o: Origin) -> Text {
  match o {
    Built => \"here\",
    Adopted { from } => from,
  }
}
witness w {
  let total = len(sizes(wheels))
  let named: Int = 1
  holds total == named
}
";

fn setup() -> (Database, Program, SourceFile) {
    let (db, program, files) = common::program(&[("main", MAIN)]);
    (db, program, files[0])
}

fn after(needle: &str) -> u32 {
    (MAIN.find(needle).expect("needle") + needle.len()) as u32
}

#[test]
fn locals_without_a_written_type_show_theirs() {
    let (db, program, main) = setup();
    let hints = inlay_types(&db, program, main);
    // `w` of the comprehension and `total`; not the parameters, not
    // `named: Int`, not the shorthand `{ from }`.
    assert_eq!(hints, [(after("for w"), ": Wheel".to_string()), (after("let total"), ": Int".to_string())]);
}

#[test]
fn every_place_that_names_it_is_highlighted() {
    let (db, program, main) = setup();
    let at = |needle: &str| MAIN.find(needle).expect("needle") as u32;
    // `total`: bound, then read.
    let h = highlights(&db, program, main, at("total =="));
    assert_eq!(h.iter().map(|(_, decl)| *decl).collect::<Vec<_>>(), [true, false]);
    // `Wheel`: declared, then named in three places.
    let h = highlights(&db, program, main, at("Wheel {"));
    assert_eq!(h.len(), 4, "{h:?}");
    assert_eq!(h[0], (claim_syntax::Span::new(at("Wheel {") as usize, at("Wheel {") as usize + 5), true));
    // Nothing under the cursor: nothing highlighted.
    assert!(highlights(&db, program, main, at("  holds")).is_empty());
}

/// Found by the `ide` fuzz target: a completion right after a character of
/// several bytes that ends a word (`→`, `�`) cut that character in two and
/// panicked. Anywhere in such a text, every request answers.
#[test]
fn requests_after_multibyte_characters_answer() {
    let text = "witness w { holds \u{2192}\u{fffd}x\u{e9} == \"\u{1F600}\" }\n";
    let (db, program, files) = common::program(&[("main", text)]);
    let main = files[0];
    for offset in 0..=text.len() as u32 + 2 {
        let _ = claim_ide::completions(&db, program, main, offset);
        let _ = claim_ide::hover(&db, program, main, offset);
        let _ = claim_ide::signature_help(&db, program, main, offset);
        let _ = highlights(&db, program, main, offset);
    }
    let after_arrow = text.find('\u{2192}').expect("arrow") as u32 + 3;
    let names: Vec<String> =
        claim_ide::completions(&db, program, main, after_arrow).into_iter().map(|c| c.label).collect();
    assert!(names.contains(&"len".to_string()), "{names:?}");
}
