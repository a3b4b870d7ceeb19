//! Where two unequal values first differ. A failed `==` between two lists
//! of 40 digests, or two records of eight fields, is shown in full in its
//! notes; the reviewer should not have to find the one element that
//! differs by eye. The diagnostic names its place (`[1]`, `.tree`,
//! `[3].sha256`), shows the two values there, and labels where each came
//! from.

use crate::value::{Value, V};

/// The first place where two values differ.
#[derive(Debug)]
pub enum Difference<'v> {
    /// At `path`, `left` and `right` differ (and are not both lists,
    /// records, variants of one name or `Some`).
    At { path: String, left: &'v Value, right: &'v Value },
    /// At `path`, two lists agree on their common elements but one is longer.
    Lengths { path: String, left: usize, right: usize },
}

/// Where `left` and `right` first differ, walking into lists (by index),
/// records and variants (by field) and options; `None` where they are
/// equal, or differ as a whole (nothing inside to point at).
pub fn first_difference<'v>(left: &'v Value, right: &'v Value) -> Option<Difference<'v>> {
    let d = walk(left, right, String::new())?;
    match &d {
        Difference::At { path, .. } if path.is_empty() => None,
        _ => Some(d),
    }
}

fn walk<'v>(left: &'v Value, right: &'v Value, path: String) -> Option<Difference<'v>> {
    if left == right {
        return None;
    }
    match (&left.kind, &right.kind) {
        (V::List(a), V::List(b)) => match a.iter().zip(b.iter()).position(|(x, y)| x != y) {
            Some(i) => walk(&a[i], &b[i], format!("{path}[{i}]")),
            None => Some(Difference::Lengths { path, left: a.len(), right: b.len() }),
        },
        (V::Record(a), V::Record(b)) if a.names == b.names => {
            let i = a.fields.iter().zip(b.fields.iter()).position(|(x, y)| x != y)?;
            walk(&a.fields[i], &b.fields[i], format!("{path}.{}", a.names[i]))
        }
        (V::Variant(a), V::Variant(b)) if a.index == b.index => {
            let i = a.fields.iter().zip(b.fields.iter()).position(|(x, y)| x != y)?;
            let field = match &a.names {
                Some(names) => names.get(i).map(|n| n.to_string()).unwrap_or_else(|| i.to_string()),
                None => i.to_string(),
            };
            walk(&a.fields[i], &b.fields[i], format!("{path}.{field}"))
        }
        (V::Option(Some(a)), V::Option(Some(b))) => walk(a, b, path),
        _ => Some(Difference::At { path, left, right }),
    }
}

/// Where two lists of one length differ besides their first difference:
/// the note a failed `==` adds, so a reviewer knows whether one pin is
/// wrong or every one ("2 more elements differ: `[3]` and `[7]`"). `None`
/// unless both are lists of one length that differ in more than one
/// element.
pub fn more_differences(left: &Value, right: &Value) -> Option<String> {
    const SHOWN: usize = 5;
    let (V::List(a), V::List(b)) = (&left.kind, &right.kind) else { return None };
    if a.len() != b.len() {
        return None;
    }
    let unequal: Vec<usize> = a.iter().zip(b.iter()).enumerate().filter(|(_, (x, y))| x != y).map(|(i, _)| i).collect();
    let more = unequal.get(1..).filter(|m| !m.is_empty())?;
    let places: Vec<String> = more.iter().take(SHOWN).map(|i| format!("[{i}]")).collect();
    let listed = if more.len() > SHOWN {
        format!(
            "{}, and {} more",
            places.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", "),
            more.len() - SHOWN
        )
    } else {
        claim_diagnostics::and_list(&places)
    };
    let (n, verb) = if more.len() == 1 {
        ("1 more element".to_string(), "differs")
    } else {
        (format!("{} more elements", more.len()), "differ")
    };
    Some(format!("{n} {verb}: {listed} (of {})", a.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::RecordVal;
    use std::sync::Arc;

    fn text(s: &str) -> Value {
        Value::text(s)
    }

    fn record(fields: &[(&str, Value)]) -> Value {
        let names: Arc<[Arc<str>]> = fields.iter().map(|(n, _)| Arc::from(*n)).collect();
        Value::new(V::Record(Arc::new(RecordVal {
            name: Arc::from("R"),
            names,
            fields: fields.iter().map(|(_, v)| v.clone()).collect(),
        })))
    }

    fn at(d: Option<Difference<'_>>) -> (String, String, String) {
        match d {
            Some(Difference::At { path, left, right }) => (path, crate::text::show(left), crate::text::show(right)),
            other => panic!("expected a place, got {other:?}"),
        }
    }

    #[test]
    fn a_list_differs_at_its_first_unequal_element() {
        let l = Value::list(vec![text("a"), text("b"), text("c")]);
        let r = Value::list(vec![text("a"), text("x"), text("y")]);
        assert_eq!(at(first_difference(&l, &r)), ("[1]".into(), "\"b\"".into(), "\"x\"".into()));
    }

    #[test]
    fn into_records_inside_lists() {
        let row = |sha: &str| record(&[("path", text("p")), ("sha256", text(sha))]);
        let l = Value::list(vec![row("1"), row("2")]);
        let r = Value::list(vec![row("1"), row("3")]);
        assert_eq!(at(first_difference(&l, &r)).0, "[1].sha256");
    }

    #[test]
    fn lists_that_agree_but_for_their_length() {
        let l = Value::list(vec![text("a")]);
        let r = Value::list(vec![text("a"), text("b")]);
        match first_difference(&l, &r) {
            Some(Difference::Lengths { path, left: 1, right: 2 }) => assert_eq!(path, ""),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_other_places_two_lists_differ_are_counted() {
        let list = |xs: &[&str]| Value::list(xs.iter().map(|x| text(x)).collect());
        let l = list(&["a", "b", "c", "d"]);
        assert_eq!(more_differences(&l, &list(&["x", "b", "c", "d"])), None, "one difference: the place says it");
        assert_eq!(
            more_differences(&l, &list(&["x", "b", "y", "d"])).as_deref(),
            Some("1 more element differs: `[2]` (of 4)")
        );
        assert_eq!(
            more_differences(&l, &list(&["x", "y", "z", "w"])).as_deref(),
            Some("3 more elements differ: `[1]`, `[2]` and `[3]` (of 4)")
        );
        let many: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        let others: Vec<String> = (0..10).map(|i| format!("x{i}")).collect();
        let (a, b) = (
            list(&many.iter().map(String::as_str).collect::<Vec<_>>()),
            list(&others.iter().map(String::as_str).collect::<Vec<_>>()),
        );
        assert_eq!(
            more_differences(&a, &b).as_deref(),
            Some("9 more elements differ: `[1]`, `[2]`, `[3]`, `[4]`, `[5]`, and 4 more (of 10)")
        );
        assert_eq!(more_differences(&l, &list(&["x", "y"])), None, "lengths differ: said otherwise");
    }

    #[test]
    fn equal_values_and_unequal_leaves_have_no_place() {
        let l = Value::list(vec![text("a")]);
        assert!(first_difference(&l, &l.clone()).is_none());
        assert!(first_difference(&text("a"), &text("b")).is_none());
    }
}
