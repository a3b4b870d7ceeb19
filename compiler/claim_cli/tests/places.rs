//! Comparisons read their operands where they are when they are places
//! (locals, facts, fields of them) instead of copying them: the answers,
//! the order in which operands refuse, and the failure report must be
//! what evaluating both operands gives. A call's arguments that are
//! places are read where the caller has them, a comprehension over a list
//! the frame borrows binds each element where it is, and `++` takes the
//! elements of a list made for it alone: none may change a value another
//! holds.

mod common;

const MAIN: &str = r#"record Inner { n: Int, tag: Text }
record Outer { inner: Inner, xs: List<Int> }
refusal Tooth "a refusal on the way"

fact o: Outer = Outer { inner: Inner { n: 3, tag: "t" }, xs: [1, 2, 3] }
fact p: Outer = Outer { inner: Inner { n: 4, tag: "t" }, xs: [1, 2] }

fn boom(x: Int) -> Int {
  require x > 100 else refuse Tooth "{x} is small";
  x
}

/// A `require` over places: its operands are copied only for a refusal.
fn same_n(a: Inner, b: Inner) -> Int {
  require a.n == b.n else refuse Tooth "{a.tag} differs";
  a.n
}

fn shadow(o: Outer) -> Bool {
  let a = o.inner;
  let b = o.inner.n;
  a.n == b and [a.n for a in [p.inner, o.inner]] == [4, 3] and a.n == 3
}

fn append(xs: List<Int>, ys: List<Int>) -> List<Int> { xs ++ ys }

fact os: List<Outer> = [o, p]

/// Comprehensions over an argument's list, or a field of one, bind each
/// element where it is: a kept element is copied out, and the variable is
/// read by conditions, nested comprehensions and calls as any local is.
fn below_three(o: Outer) -> List<Int> { [x for x in o.xs if x < 3] }
fn counts(o: Outer) -> List<Int> { [len([y for y in o.xs if y <= x]) for x in o.xs] }
fn tags_over_three(os: List<Outer>) -> List<Text> { [q.inner.tag for q in os if q.inner.n > 3] }
fn inners(os: List<Outer>) -> List<Int> { [i.n for i in [q.inner for q in os]] }
fn boomed(o: Outer, add: Int) -> List<Int> { [boom(x + add) for x in o.xs] }

witness arguments_and_lists_read_in_place_are_left_as_they_were {
  let q = o
  holds append(o.xs, p.xs) == [1, 2, 3, 1, 2]
  holds append(q.xs, [4]) == [1, 2, 3, 4]
  holds [0] ++ q.xs ++ [9] == [0, 1, 2, 3, 9]
  holds append([], [5] ++ [6]) ++ p.xs == [5, 6, 1, 2]
  holds o.xs == [1, 2, 3] and q.xs == [1, 2, 3] and p.xs == [1, 2]
  holds same_n(q.inner, o.inner) == 3
}

witness comprehensions_bind_the_elements_of_a_borrowed_list {
  holds below_three(o) == [1, 2]
  holds counts(o) == [1, 2, 3]
  holds tags_over_three(os) == ["t"]
  holds inners(os) == [3, 4]
  holds boomed(o, 100) == [101, 102, 103]
  refuses boomed(p, 0) with Tooth
  holds o.xs == [1, 2, 3] and os == [o, p]
}

witness places_compare_in_place {
  let q = o
  holds q.inner.n == 3
  holds 3 == q.inner.n
  holds q.inner.tag == p.inner.tag
  holds o.inner != p.inner
  holds o.inner.n < p.inner.n
  holds p.inner.n >= o.inner.n
  holds q == o
  holds len(o.xs) == 3
  holds shadow(o)
}

witness the_left_operand_refuses_first {
  refuses boom(o.inner.n) == boom(p.inner.n) with Tooth
}

witness a_place_on_the_left_still_sees_the_right_refuse {
  refuses o.inner.n == boom(1) with Tooth
}

witness a_false_comparison_of_places_fails {
  holds o.inner.n == p.inner.n
}

witness holds_on_an_int_passes_where_it_evaluates {
  holds len(o.xs)
}

witness a_require_of_places_that_holds {
  holds same_n(o.inner, o.inner) == 3
}

witness a_require_of_places_shows_its_operands {
  holds same_n(o.inner, p.inner) == 3
}

witness the_left_refusal_is_the_one_reported {
  holds boom(o.inner.n) == boom(p.inner.n)
}
"#;

#[test]
fn comparisons_of_places_answer_as_evaluated_operands_do() {
    let dir = std::env::temp_dir().join(format!("claim-places-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("main.claim"), MAIN).expect("write");
    let (code, out) = common::batch_in(&dir);
    assert_eq!(code, 1, "{out}");
    for pass in [
        "places_compare_in_place",
        "the_left_operand_refuses_first",
        "a_place_on_the_left_still_sees_the_right_refuse",
        "arguments_and_lists_read_in_place_are_left_as_they_were",
        "comprehensions_bind_the_elements_of_a_borrowed_list",
    ] {
        assert!(out.contains(&format!("PASS {pass}")), "{pass}: {out}");
    }
    assert!(out.contains("FAIL a_false_comparison_of_places_fails"), "{out}");
    assert!(out.contains("left: 3") && out.contains("right: 4"), "{out}");
    // The left operand runs first: its refusal is the one reported.
    assert!(out.contains("FAIL the_left_refusal_is_the_one_reported"), "{out}");
    assert!(out.contains("3 is small") && !out.contains("4 is small"), "{out}");
    // A `require` over places shows both operands where it refuses, and
    // passes where it holds.
    assert!(out.contains("PASS a_require_of_places_that_holds"), "{out}");
    // `holds` on a value that is not a Bool passes where it evaluates (§5).
    assert!(out.contains("PASS holds_on_an_int_passes_where_it_evaluates"), "{out}");
    let refused = out
        .split("witness `a_require_of_places_shows_its_operands` failed")
        .nth(1)
        .and_then(|rest| rest.split("[E0").next())
        .unwrap_or_default();
    assert!(refused.contains("unexpected refusal `Tooth`"), "{out}");
    assert!(refused.contains("left is `3`, written here") && refused.contains("right is `4`, written here"), "{out}");
    assert!(out.contains("7/10 PASS, 3 FAIL"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
