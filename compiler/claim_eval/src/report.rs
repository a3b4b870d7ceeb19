//! The diagnostics of evaluation: a refusing fact, each kind of witness
//! failure, a dissolved frontier. A refusal's primary label sits at the
//! `refuse`; secondary labels mark the witness statement, the calls that
//! led there, and where the offending values came from.

use crate::difference::{first_difference, more_differences, Difference};
use crate::near_miss::{near_digits, near_texts};
use crate::refusal::{BrokenRead, Mentioned, Refusal};
use crate::text::show;
use crate::value::{Origin, Value};
use claim_diagnostics::Diagnostic;
use claim_sema::hir;
use claim_syntax::ast::BinOp;
use claim_syntax::{FileId, Loc};
use std::sync::Arc;

/// The texts of the JSON files values were read from, by file (what the
/// evaluator was given with `Evaluator::with_texts`, or nothing).
pub type Texts<'a> = &'a dyn Fn(FileId) -> Option<Arc<str>>;

/// A label at the origin of a value, unless it is where we already point.
pub fn origin_label(v: &Value, what: &str, not_at: Loc, texts: Texts<'_>) -> Option<(Loc, String)> {
    let (loc, text) = match v.origin.as_ref()? {
        Origin::Literal(loc) => (*loc, format!("{what} is `{}`, written here", short(v))),
        Origin::Fact(f) => (f.loc, format!("{what} is the fact `{}`", f.name)),
        Origin::Json(at) => match texts(at.file).and_then(|doc| crate::json::path_at(&doc, at.span)) {
            Some(path) => (*at, format!("{what} was read from `{path}`")),
            None => (*at, format!("{what} was read from here")),
        },
        Origin::Fold(f) => (f.loc, format!("{what} is the key fold of {} parts computed here", f.parts.len())),
        Origin::Hashed(h) => (h.loc, format!("{what} is `{}` of `{}`, computed here", h.function, h.path)),
        Origin::Derived(d) => {
            let steps: Vec<String> = d.through.iter().map(|s| format!("`{s}`")).collect();
            let through = match steps.as_slice() {
                [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
                _ => steps.join(""),
            };
            let (loc, source) = match &d.from {
                Origin::Json(at) => match texts(at.file).and_then(|doc| crate::json::path_at(&doc, at.span)) {
                    Some(path) => (*at, format!("`{path}`")),
                    None => (*at, "here".to_string()),
                },
                Origin::Fact(f) => (f.loc, format!("the fact `{}`", f.name)),
                Origin::Fold(f) => (f.loc, "the key fold computed here".to_string()),
                Origin::Hashed(h) => (h.loc, format!("`{}` of `{}`, computed here", h.function, h.path)),
                Origin::Literal(_) | Origin::Derived(_) => return None,
            };
            (loc, format!("{what} was made through {through} from {source}"))
        }
    };
    (!contains(not_at, loc)).then_some((loc, text))
}

fn contains(outer: Loc, inner: Loc) -> bool {
    outer.file == inner.file && outer.span.start <= inner.span.start && inner.span.end <= outer.span.end
}

/// A value shown in a label, shortened where it is long.
pub fn short(v: &Value) -> String {
    let s = show(v);
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(117).collect::<String>())
    } else {
        s
    }
}

fn fold_of(v: &Value) -> Option<(&str, &[Arc<str>])> {
    match v.origin.as_ref()? {
        Origin::Fold(f) => Some((&f.domain, &f.parts)),
        _ => None,
    }
}

fn quote(s: &str) -> String {
    let mut q = String::new();
    crate::text::quote(s, &mut q);
    q
}

/// An expression as written, in backticks, where it is short enough for a
/// label (`` `r.run_id` ``): how a label names a value that is not an
/// operand (what a refusal's message interpolates, what an `is` tests).
pub fn written(at: Loc, texts: Texts<'_>) -> Option<String> {
    const LONGEST: usize = 48;
    let text = texts(at.file)?;
    let s = text.get(at.span.start as usize..at.span.end as usize)?;
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    (!s.is_empty() && s.chars().count() <= LONGEST && !s.contains('`')).then(|| format!("`{s}`"))
}

/// How a label names a value a refusal's message interpolates: by the
/// interpolation as written (`` `r.run_id` ``, `` an element of `xs` ``).
fn mentioned_name(m: &Mentioned, texts: Texts<'_>) -> String {
    match (written(m.at, texts), m.element) {
        (Some(s), false) => s,
        (Some(s), true) => format!("an element of {s}"),
        (None, false) => "the value".to_string(),
        (None, true) => "an element of a list".to_string(),
    }
}

/// Elements of one interpolated list labelled at most: a binding table's
/// every image, each a label on one minified line, buried the refusal.
const ELEMENTS_LABELLED: usize = 3;
/// Places of the elements not labelled that a note lists by JSONPath.
const PLACES_LISTED: usize = 5;
/// Notes on digests a digit or two from one the message names, at most.
const NEAR_NOTES: usize = 3;

/// The labels of the values a refusal's message interpolates; past
/// [`ELEMENTS_LABELLED`] elements of one list, a note says how many more
/// there are and where they were read.
fn with_mentioned(mut d: Diagnostic, r: &Refusal, texts: Texts<'_>) -> Diagnostic {
    // Per interpolated list: its elements labelled, the file of the last
    // one read from JSON, and the elements left over.
    struct List<'r> {
        at: Loc,
        labelled: usize,
        file: Option<FileId>,
        rest: Vec<&'r Value>,
    }
    let mut lists: Vec<List<'_>> = Vec::new();
    for m in &r.mentioned {
        if m.element {
            let i = match lists.iter().position(|l| l.at == m.at) {
                Some(i) => i,
                None => {
                    lists.push(List { at: m.at, labelled: 0, file: None, rest: Vec::new() });
                    lists.len() - 1
                }
            };
            let list = &mut lists[i];
            if list.labelled == ELEMENTS_LABELLED {
                list.rest.push(&m.value);
                continue;
            }
            list.labelled += 1;
            if let Some(at) = json_place(&m.value) {
                list.file = Some(at.file);
            }
        }
        if let Some((loc, text)) = origin_label(&m.value, &mentioned_name(m, texts), r.site, texts) {
            d = d.with_secondary(loc, text);
        }
    }
    for list in lists.iter().filter(|l| !l.rest.is_empty()) {
        d = d.with_note(elements_not_labelled(list.at, &list.rest, list.file, texts));
    }
    // A digest the message names beside a list of them, a digit or two
    // from one: an image bound to no arm because its digest was mistyped.
    // (At most three such notes: a list may repeat one digest.)
    let mut near_notes = 0;
    for one in r.mentioned.iter().filter(|m| !m.element) {
        for element in r.mentioned.iter().filter(|e| e.element && e.at != one.at) {
            if near_notes == NEAR_NOTES {
                return d;
            }
            if let Some(near) = near_digits(&one.value, &element.value) {
                near_notes += 1;
                let name = written(one.at, texts).unwrap_or_else(|| "the value".to_string());
                let list = written(element.at, texts).unwrap_or_else(|| "a list".to_string());
                let read = json_place(&element.value)
                    .and_then(|at| crate::json::path_at(&texts(at.file)?, at.span))
                    .map(|path| format!(" read from `{path}`"))
                    .unwrap_or_default();
                d = d.with_note(format!("{name} and the element of {list}{read} differ only in {near}"));
            }
        }
    }
    d
}

fn json_place(v: &Value) -> Option<Loc> {
    match v.origin.as_ref()? {
        Origin::Json(loc) => Some(*loc),
        _ => None,
    }
}

/// The note for the elements of one interpolated list left unlabelled:
/// how many, and their JSONPaths where all were read from the file the
/// labelled ones were (`file`).
fn elements_not_labelled(at: Loc, values: &[&Value], file: Option<FileId>, texts: Texts<'_>) -> String {
    let list = written(at, texts).unwrap_or_else(|| "the list".to_string());
    let n = values.len();
    let head = format!("{n} more {} of {list}", if n == 1 { "element" } else { "elements" });
    let places: Option<Vec<Loc>> = values.iter().map(|v| json_place(v)).collect();
    let paths: Option<Vec<String>> = places.filter(|p| p.iter().all(|l| Some(l.file) == file)).and_then(|p| {
        let doc = texts(file?)?;
        p.iter().take(PLACES_LISTED).map(|loc| crate::json::path_at(&doc, loc.span)).collect()
    });
    match paths {
        Some(paths) => {
            let verb = if n == 1 { "was" } else { "were" };
            let listed = match n - paths.len() {
                0 => claim_diagnostics::and_list(&paths),
                more => {
                    let quoted: Vec<String> = paths.iter().map(|p| format!("`{p}`")).collect();
                    let places = if more == 1 { "place" } else { "places" };
                    format!("{} and {more} more {places}", quoted.join(", "))
                }
            };
            format!("{head} {verb} read from {listed} of the same file")
        }
        None if n == 1 => format!("{head} is not labelled"),
        None => format!("{head} are not labelled"),
    }
}

/// What a key fold on either side of a failed comparison says: with two
/// folds, the first part that differs; with one, what it folded.
pub fn fold_notes(left: &Value, right: &Value) -> Vec<String> {
    match (fold_of(left), fold_of(right)) {
        (Some((d1, p1)), Some((d2, p2))) => {
            if d1 != d2 {
                return vec![format!("the key folds differ in their domain: {} vs {}", quote(d1), quote(d2))];
            }
            match p1.iter().zip(p2.iter()).position(|(a, b)| a != b) {
                Some(i) => {
                    vec![format!("the key folds differ at part {}: {} vs {}", i + 1, quote(&p1[i]), quote(&p2[i]))]
                }
                None if p1.len() != p2.len() => vec![format!(
                    "the key folds have {} and {} parts; the first {} agree",
                    p1.len(),
                    p2.len(),
                    p1.len().min(p2.len())
                )],
                None => Vec::new(),
            }
        }
        (Some((d, p)), None) | (None, Some((d, p))) => {
            let side = if fold_of(left).is_some() { "left" } else { "right" };
            let shown: Vec<String> = p.iter().map(|x| quote(x)).collect();
            vec![format!("{side} is fold_sha256({}, [{}])", quote(d), shown.join(", "))]
        }
        (None, None) => Vec::new(),
    }
}

/// Where the two values at a difference came from: a label on a whole
/// value that holds one of these (a receipt's whole object) is left out.
fn inner_places(diff: Option<&Difference<'_>>, not_at: Loc, texts: Texts<'_>) -> Vec<Loc> {
    match diff {
        Some(Difference::At { left, right, .. }) => {
            [left, right].iter().filter_map(|v| origin_label(v, "", not_at, texts)).map(|(loc, _)| loc).collect()
        }
        _ => Vec::new(),
    }
}

/// What a failed `==` found inside its operands, in a label's words.
fn difference_text(diff: &Difference<'_>) -> String {
    match diff {
        Difference::At { path, .. } => format!("they differ at `{path}`"),
        Difference::Lengths { path, left, right } if path.is_empty() => {
            format!("{left} elements against {right}, the first {} equal", left.min(right))
        }
        Difference::Lengths { path, left, right } => {
            format!("at `{path}`, {left} elements against {right}, the first {} equal", left.min(right))
        }
    }
}

/// The note and labels of where two compared values first differ: the two
/// values there, and where each came from.
/// (`labelled`: a label already says what the difference is.)
fn with_difference(
    mut d: Diagnostic,
    diff: Option<&Difference<'_>>,
    labelled: bool,
    not_at: Loc,
    texts: Texts<'_>,
) -> Diagnostic {
    match diff {
        Some(Difference::At { path, left, right }) => {
            d = d
                .with_note(format!("left at `{path}`:  {}", show(left)))
                .with_note(format!("right at `{path}`: {}", show(right)));
            for (what, v) in [("left", left), ("right", right)] {
                if let Some((loc, text)) = origin_label(v, &format!("{what} at `{path}`"), not_at, texts) {
                    d = d.with_secondary(loc, text);
                }
            }
            d
        }
        // A refusal's labels are elsewhere: its note says it.
        Some(diff @ Difference::Lengths { .. }) if !labelled => d.with_note(difference_text(diff)),
        _ => d,
    }
}

/// The note on two compared digests a digit or two apart, or two long
/// texts with a long start in common (at the place where the values first
/// differ, or the values themselves).
fn near_note(inside: Option<&Difference<'_>>, left: &Value, right: &Value) -> Option<String> {
    let (path, l, r) = match inside {
        Some(Difference::At { path, left, right }) => (Some(path), *left, *right),
        Some(Difference::Lengths { .. }) => return None,
        None => (None, left, right),
    };
    let the = |what: &str| match path {
        Some(p) => format!("the {what} at `{p}`"),
        None => format!("the two {what}"),
    };
    if let Some(n) = near_digits(l, r) {
        return Some(format!("{} differ only in {n}", the("digests")));
    }
    near_texts(l, r).map(|n| format!("{} {n}", the("texts")))
}

fn with_refusal(mut d: Diagnostic, r: &Refusal, start: &str, texts: Texts<'_>) -> Diagnostic {
    for (name, site) in &r.chain {
        d = d.with_secondary(*site, format!("calls `{name}`"));
    }
    if let Some((part, op)) = r.false_part {
        d = d.with_secondary(part, format!("`{}` is false", op.symbol()));
    }
    for n in &r.context {
        d = d.with_note(n.clone());
    }
    let inside = match r.operands.as_slice() {
        [(_, l), (_, rt)] => first_difference(l, rt),
        _ => None,
    };
    let inner = inner_places(inside.as_ref(), r.site, texts);
    for (what, v) in &r.operands {
        d = d.with_note(format!("{what}: {}", short(v)));
        if let Some((loc, text)) = origin_label(v, what, r.site, texts) {
            if !inner.iter().any(|i| contains(loc, *i)) {
                d = d.with_secondary(loc, text);
            }
        }
    }
    if let [(_, l), (_, rt)] = r.operands.as_slice() {
        d = with_difference(d, inside.as_ref(), false, r.site, texts);
        if let Some(near) = near_note(inside.as_ref(), l, rt) {
            d = d.with_note(near);
        }
        if let Some(more) = more_differences(l, rt) {
            d = d.with_note(more);
        }
        for n in fold_notes(l, rt) {
            d = d.with_note(n);
        }
    }
    d = with_mentioned(d, r, texts);
    if let Some(read) = &r.broken {
        d = with_broken(d, read);
    }
    if !r.chain.is_empty() {
        let path: Vec<String> =
            std::iter::once(start.to_string()).chain(r.chain.iter().map(|(n, _)| format!("`{n}`"))).collect();
        d = d.with_note(format!("call chain: {}", path.join(" → ")));
    }
    d
}

/// What a witness shows of a broken fact it read (§7): where the fact
/// broke, in the words of its own diagnostic (the spot in the receipt).
fn with_broken(mut d: Diagnostic, read: &BrokenRead) -> Diagnostic {
    let root = &read.root;
    if *root.fact.name != *read.read {
        d = d.with_note(format!("`{}` is broken because it reads `{}`, which broke", read.read, root.fact.name));
    }
    for broke in &root.diagnostics {
        if let Some(p) = &broke.primary {
            d = d.with_secondary(p.loc, format!("`{}` broke here: {}", root.fact.name, p.message));
        }
    }
    d.with_help(format!("where this input must be rejected, state it: `refuses {} with {}`", read.read, root.code))
}

pub fn fact_refused(fact: &hir::Fact, r: &Refusal, texts: Texts<'_>) -> Diagnostic {
    let d = Diagnostic::error("E0301", format!("fact `{}` refused with `{}`", fact.name.name, r.code))
        .at_loc(r.site, format!("refused: {}", r.message))
        .with_secondary(fact.loc, "while evaluating this fact")
        .with_help("a fact that refuses is broken: every witness that reads it meets its refusal, and the run fails unless a passing witness expects it (`refuses fact with Code`)");
    with_refusal(d, r, &format!("fact `{}`", fact.name.name), texts)
}

pub fn unexpected_refusal(w: &hir::Witness, stmt: Loc, r: &Refusal, texts: Texts<'_>) -> Diagnostic {
    let label = match &r.broken {
        Some(read) => format!("reads the broken fact `{}`: refused with `{}`", read.read, r.code),
        None => format!("refused with `{}`: {}", r.code, r.message),
    };
    let message = match &r.broken {
        // The fact's own words: a JUnit reader sees why at once.
        Some(read) => format!(
            "witness `{}` failed: it reads the broken fact `{}` (`{}`): {}",
            w.name, read.read, r.code, read.root.message
        ),
        None => format!("witness `{}` failed: unexpected refusal `{}`", w.name, r.code),
    };
    let d = Diagnostic::error("E0402", message)
        .at_loc(r.site, label)
        .with_secondary(stmt, "the witness needed a value here");
    with_refusal(d, r, &format!("witness `{}`", w.name), texts)
}

pub fn wrong_code(
    w: &hir::Witness,
    expected: &str,
    code_loc: Loc,
    stmt: Loc,
    r: &Refusal,
    texts: Texts<'_>,
) -> Diagnostic {
    let d = Diagnostic::error(
        "E0404",
        format!("witness `{}` failed: expected refusal `{expected}`, but it refused with `{}`", w.name, r.code),
    )
    .at_loc(r.site, format!("refused with `{}`: {}", r.code, r.message))
    .with_secondary(code_loc, format!("expected `{expected}`"))
    .with_secondary(stmt, "in this statement");
    with_refusal(d, r, &format!("witness `{}`", w.name), texts)
}

pub fn expected_refusal(
    w: &hir::Witness,
    expected: &str,
    stmt: Loc,
    expr: Loc,
    v: &Value,
    texts: Texts<'_>,
) -> Diagnostic {
    let mut d =
        Diagnostic::error("E0403", format!("witness `{}` failed: expected refusal `{expected}`, but it held", w.name))
            .at_loc(expr, format!("evaluated to `{}`", short(v)))
            .with_note(format!("value: {}", short(v)));
    if let Some((loc, text)) = origin_label(v, "the value", stmt, texts) {
        d = d.with_secondary(loc, text);
    }
    d
}

/// The operands of the comparison that made a `holds` false, where known.
pub struct FalseComparison {
    pub op: BinOp,
    pub left: (Loc, Value),
    pub right: (Loc, Value),
    /// Where the comparison sits, outermost first (the element of an
    /// `all(…)` that was false): a note each.
    pub context: Vec<String>,
}

pub fn holds_false(w: &hir::Witness, stmt: Loc, culprit: Option<FalseComparison>, texts: Texts<'_>) -> Diagnostic {
    let mut d = Diagnostic::error("E0401", format!("witness `{}` failed: `holds` is false", w.name));
    match culprit {
        Some(c) => {
            let whole = Loc::new(c.left.0.file, c.left.0.span.join(c.right.0.span));
            let inside = (c.op == BinOp::Eq).then(|| first_difference(&c.left.1, &c.right.1)).flatten();
            let why = match &inside {
                Some(diff) => format!("`{}` is false: {}", c.op.symbol(), difference_text(diff)),
                None => format!("`{}` is false", c.op.symbol()),
            };
            d = d
                .at_loc(whole, why)
                .with_secondary(c.left.0, format!("left: {}", short(&c.left.1)))
                .with_secondary(c.right.0, format!("right: {}", short(&c.right.1)));
            for n in c.context {
                d = d.with_note(n);
            }
            d = with_difference(d, inside.as_ref(), true, whole, texts);
            if let Some(near) = (c.op == BinOp::Eq).then(|| near_note(inside.as_ref(), &c.left.1, &c.right.1)).flatten()
            {
                d = d.with_note(near);
            }
            if let Some(more) = more_differences(&c.left.1, &c.right.1).filter(|_| c.op == BinOp::Eq) {
                d = d.with_note(more);
            }
            // Two lists of one element each say no more than the place
            // where they differ, which the notes above show.
            let single = |v: &Value| v.as_list().is_some_and(|l| l.len() == 1);
            if !(inside.is_some() && single(&c.left.1) && single(&c.right.1)) {
                d = d
                    .with_note(format!("left:  {}", show(&c.left.1)))
                    .with_note(format!("right: {}", show(&c.right.1)));
            }
            for n in fold_notes(&c.left.1, &c.right.1) {
                d = d.with_note(n);
            }
            let inner = inner_places(inside.as_ref(), whole, texts);
            for (what, (loc, v)) in [("left", &c.left), ("right", &c.right)] {
                if let Some((oloc, text)) = origin_label(v, what, *loc, texts) {
                    if !inner.iter().any(|i| contains(oloc, *i)) {
                        d = d.with_secondary(oloc, text);
                    }
                }
            }
            if !contains(whole, stmt) && !contains(stmt, whole) {
                d = d.with_secondary(stmt, "in this statement");
            }
        }
        None => d = d.at_loc(stmt, "this is false"),
    }
    d
}

pub fn fatal_in_witness(w: &hir::Witness, stmt: Loc, mut diags: Vec<Diagnostic>) -> Diagnostic {
    diags.pop().map(|d| d.with_secondary(stmt, format!("in witness `{}`", w.name))).unwrap_or_else(|| {
        Diagnostic::error("E0999", format!("internal error: witness `{}` stopped without a reason", w.name))
            .at_loc(stmt, "here")
    })
}

/// `E0408`: a fact ran past `--timeout-per-fact`.
pub fn fact_timed_out(f: &hir::Fact, limit: Option<std::time::Duration>) -> Diagnostic {
    let limit = limit.map(|l| crate::text::duration_text(l.as_millis() as i64)).unwrap_or_default();
    Diagnostic::error("E0408", format!("fact `{}` exceeded its time limit of {limit}", f.name.name))
        .at_loc(f.loc, "still evaluating this fact when the limit passed")
        .with_help("raise the limit with `--timeout-per-fact`, or make the fact do less work")
}

pub fn timed_out(w: &hir::Witness, stmt: Loc, limit: std::time::Duration) -> Diagnostic {
    Diagnostic::error(
        "E0406",
        format!(
            "witness `{}` exceeded its time limit of {}",
            w.name,
            crate::text::duration_text(limit.as_millis() as i64)
        ),
    )
    .at_loc(stmt, "still evaluating this statement when the limit passed")
    .with_help("raise the limit with `--timeout-per-witness`, or make the witness do less work")
}

/// `E0405`, with the condition (at `condition`) and where the values
/// that made it true came from (`why`).
pub fn dissolved(f: &hir::Frontier, text: &str, condition: Loc, why: Vec<(Loc, String)>) -> Diagnostic {
    let mut d = Diagnostic::error("E0405", format!("frontier `{}` has dissolved", f.name))
        .at_loc(f.loc, "its `dissolves when` condition is now true")
        .with_secondary(condition, "now true")
        .with_note(format!("it declared: {text}"))
        .with_help("the gap is closed: delete this frontier, and state what now holds as a witness");
    for (loc, label) in why {
        d = d.with_secondary(loc, label);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::written;
    use claim_syntax::{FileId, Loc, Span};
    use std::sync::Arc;

    fn name(source: &str, at: &str) -> Option<String> {
        let start = source.find(at).expect("in the source");
        let text: Arc<str> = source.into();
        let texts = move |_| Some(text.clone());
        written(Loc::new(FileId(0), Span::new(start, start + at.len())), &texts)
    }

    #[test]
    fn elements_past_the_labelled_are_one_note() {
        use super::elements_not_labelled;
        use crate::value::{Origin, Value};
        // File 0 the program, file 1 the receipt its list was read from.
        let source: Arc<str> = "{[b.image for b in bs]}".into();
        let receipt: Arc<str> = r#"[{"image":"a"},{"image":"b"},{"image":"c"},{"image":"d"}]"#.into();
        let at = Loc::new(FileId(0), Span::new(1, 22));
        let (s, r) = (source.clone(), receipt.clone());
        let texts = move |f: FileId| Some(if f.0 == 0 { s.clone() } else { r.clone() });
        let read = |letter: &str, file: u32| {
            let start = receipt.find(&format!("\"{letter}\"")).expect("in the receipt");
            Value::text(letter).with_origin(Origin::Json(Loc::new(FileId(file), Span::new(start, start + 3))))
        };
        let (c, d) = (read("c", 1), read("d", 1));
        assert_eq!(
            elements_not_labelled(at, &[&c, &d], Some(FileId(1)), &texts),
            "2 more elements of `[b.image for b in bs]` were read from `$[2].image` and `$[3].image` of the same file"
        );
        // Read from another file than the labelled ones, or from no JSON:
        // counted, not placed.
        assert_eq!(
            elements_not_labelled(at, &[&d], Some(FileId(2)), &texts),
            "1 more element of `[b.image for b in bs]` is not labelled"
        );
        let literal = Value::text("e");
        assert_eq!(
            elements_not_labelled(at, &[&c, &literal], Some(FileId(1)), &texts),
            "2 more elements of `[b.image for b in bs]` are not labelled"
        );
    }

    #[test]
    fn an_interpolation_is_named_as_written_when_short() {
        let source = "refuse Bad \"run {r.run_id} at {raw(\n   c.revision)}\"";
        assert_eq!(name(source, "r.run_id").as_deref(), Some("`r.run_id`"));
        // Line breaks and indentation inside it become one space.
        assert_eq!(name(source, "raw(\n   c.revision)").as_deref(), Some("`raw( c.revision)`"));
        let long = format!("refuse Bad \"{{{}}}\"", "a.b".repeat(20));
        assert_eq!(name(&long, &"a.b".repeat(20)), None, "too long for a label: \"the value\"");
    }
}
