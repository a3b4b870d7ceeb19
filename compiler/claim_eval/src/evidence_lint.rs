//! W0006: an arm binding whose image digest no loaded receipt mentions.
//! Seed 003's review found one by hand ("Arm A digest typed in by hand"): a
//! binding is evidence only where some receipt other than the binding table
//! itself names the same image. Runs on the evaluated facts.

use crate::value::{Origin, Value, V};
use claim_diagnostics::Diagnostic;
use claim_sema::ty::{GlobalName, Ty, TypeDef, TypeInfo};
use claim_syntax::{FileId, Loc};
use std::collections::BTreeSet;

/// For each digest a binding names: the first JSON file it was read from,
/// and whether another file holds it too (all the lint asks is whether a
/// file other than the binding's own names it). Only those digests are
/// followed: a large run reads hundreds of thousands of digests and binds
/// a few thousand, and keeping every one was most of the lint's time.
type Seen<'v> = rustc_hash::FxHashMap<&'v [u8], Option<(FileId, bool)>>;

/// Every `std.arms.ArmBinding` inside a value.
fn bindings<'v>(v: &'v Value, out: &mut Vec<&'v crate::value::RecordVal>) {
    match &v.kind {
        V::Record(r) if &*r.name == "ArmBinding" && r.names.first().is_some_and(|n| &**n == "image") => out.push(r),
        V::List(items) => items.iter().for_each(|x| bindings(x, out)),
        V::Option(Some(x)) => bindings(x, out),
        V::Record(r) => r.fields.iter().for_each(|x| bindings(x, out)),
        _ => {}
    }
}

fn loc_of(v: &Value) -> Option<(Loc, Option<FileId>)> {
    match v.origin.as_ref()? {
        Origin::Literal(loc) => Some((*loc, None)),
        Origin::Fact(f) => Some((f.loc, None)),
        Origin::Fold(f) => Some((f.loc, None)),
        Origin::Hashed(h) => Some((h.loc, None)),
        Origin::Json(at) => Some((*at, Some(at.file))),
    }
}

/// Whether a value of type `ty` can hold an arm binding where `bindings`
/// looks for one (lists, options, record fields; newtypes are erased at
/// run time). A type it cannot find is walked, to be safe.
pub fn may_hold_bindings(ty: &Ty, types: &rustc_hash::FxHashMap<GlobalName, TypeInfo>) -> bool {
    fn walk<'t>(
        ty: &'t Ty,
        types: &'t rustc_hash::FxHashMap<GlobalName, TypeInfo>,
        visiting: &mut Vec<&'t GlobalName>,
    ) -> bool {
        match ty {
            Ty::List(t) | Ty::Option(t) => walk(t, types, visiting),
            Ty::Named(g) => {
                // A type met again inside itself adds nothing new.
                if visiting.contains(&&**g) {
                    return false;
                }
                visiting.push(g);
                let found = match types.get(&**g).map(|info| &info.def) {
                    None => true,
                    Some(TypeDef::Newtype(inner)) => walk(inner, types, visiting),
                    Some(TypeDef::Record { fields, .. }) => {
                        (&*g.name == "ArmBinding" && fields.first().is_some_and(|f| &*f.name == "image"))
                            || fields.iter().any(|f| walk(&f.ty, types, visiting))
                    }
                    Some(TypeDef::Enum { .. }) => false,
                };
                visiting.pop();
                found
            }
            Ty::Never | Ty::Error => true,
            Ty::Bool | Ty::Int | Ty::Text | Ty::Duration | Ty::Sha256 | Ty::Sha1 | Ty::Map(_) => false,
        }
    }
    walk(ty, types, &mut Vec::new())
}

/// A digest read from a JSON file, copied out of its value with the file:
/// what the lint compares. A run collects these from each fact's value on
/// the thread that just decoded it (`collect_json_digests`), while the value
/// is in cache; walking every value afterwards, for the lint alone, cost a
/// cache miss per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonDigest {
    bytes: [u8; 32],
    len: u8,
    file: FileId,
}

impl JsonDigest {
    fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// Every digest inside `v` that was read from a JSON file, with its file.
pub fn collect_json_digests(v: &Value, out: &mut Vec<JsonDigest>) {
    if let (V::Digest(_, bytes), Some(Origin::Json(at))) = (&v.kind, &v.origin) {
        let mut d = JsonDigest { bytes: [0; 32], len: 0, file: at.file };
        // Digests are 20 or 32 bytes; a longer one could not be a binding's.
        if let Some(slot) = d.bytes.get_mut(..bytes.len()) {
            slot.copy_from_slice(bytes);
            d.len = bytes.len() as u8;
            out.push(d);
        }
    }
    v.for_each_child(|x| collect_json_digests(x, out));
}

/// W0006 for each binding whose image no other loaded receipt names.
/// `holders` are the values that may hold bindings (`may_hold_bindings` of
/// their facts' types: most of a run's values are receipts, which cannot);
/// `digests` every fact's JSON digests (`collect_json_digests` of each
/// fact's value), where the images are looked for.
/// `everything` gives every fact's value, asked only where a warning is
/// given: a digest of another receipt a digit or two from a warned image
/// is labelled (the binding was likely typed from it with a slip).
pub fn unmentioned_bindings<'a>(
    holders: impl IntoIterator<Item = &'a Value>,
    digests: impl IntoIterator<Item = &'a JsonDigest>,
    everything: impl FnOnce() -> Vec<&'a Value>,
) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for v in holders {
        bindings(v, &mut found);
    }
    let mut seen = seen_of(&found);
    if seen.is_empty() {
        return Vec::new();
    }
    for d in digests {
        if let Some(slot) = seen.get_mut(d.bytes()) {
            let (first, elsewhere) = slot.get_or_insert((d.file, false));
            *elsewhere |= *first != d.file;
        }
    }
    let warned = report(found, &seen);
    if warned.is_empty() {
        return Vec::new();
    }
    let values = everything();
    let near = near_digests(&warned, &values);
    warned.into_iter().zip(near).map(|((d, _, _), near)| with_near(d, near)).collect()
}

/// Digests near a warned binding's image labelled at most.
const NEAR_LABELLED: usize = 3;

/// For each warned binding, up to [`NEAR_LABELLED`] digests read from a
/// receipt other than its own that differ from its image in a digit or
/// two, with what the label says. One walk over every value, whatever the
/// number of warnings: two digests that differ in at most two hex digits
/// differ in at most two bytes, so one of three runs of bytes of the one
/// is the same in the other, and the images are found by those runs.
fn near_digests(warned: &[(Diagnostic, &Value, Option<FileId>)], values: &[&Value]) -> Vec<Vec<(Loc, String)>> {
    fn thirds(bytes: &[u8]) -> [&[u8]; 3] {
        let n = bytes.len();
        [&bytes[..n / 3], &bytes[n / 3..2 * n / 3], &bytes[2 * n / 3..]]
    }
    fn walk<'v>(v: &'v Value, f: &mut impl FnMut(&'v Value)) {
        f(v);
        v.for_each_child(|x| walk(x, f));
    }
    let mut by_third: rustc_hash::FxHashMap<(usize, &[u8]), Vec<usize>> = Default::default();
    for (i, (_, image, _)) in warned.iter().enumerate() {
        if let V::Digest(_, bytes) = &image.kind {
            for (k, third) in thirds(bytes).into_iter().enumerate() {
                by_third.entry((k, third)).or_default().push(i);
            }
        }
    }
    let mut near: Vec<Vec<(Loc, String)>> = vec![Vec::new(); warned.len()];
    let mut tried: Vec<usize> = Vec::new();
    for v in values {
        walk(v, &mut |x| {
            let (V::Digest(_, bytes), Some(Origin::Json(at))) = (&x.kind, &x.origin) else { return };
            tried.clear();
            for (k, third) in thirds(bytes).into_iter().enumerate() {
                for &i in by_third.get(&(k, third)).into_iter().flatten() {
                    if tried.contains(&i) {
                        continue;
                    }
                    tried.push(i);
                    let (_, image, own) = &warned[i];
                    let found = &mut near[i];
                    if found.len() < NEAR_LABELLED && Some(at.file) != *own && !found.iter().any(|(l, _)| l == at) {
                        if let Some(n) = crate::near::near_digits(x, image) {
                            found.push((*at, n));
                        }
                    }
                }
            }
        });
    }
    near
}

/// A W0006 with labels on the digests near its image (`near_digests`).
fn with_near(mut d: Diagnostic, near: Vec<(Loc, String)>) -> Diagnostic {
    if !near.is_empty() {
        d = d.with_help(
            "if the binding was copied from a receipt labelled here, correct its digest to that receipt's; otherwise load the receipt the binding's digest was read from",
        );
    }
    for (at, n) in near {
        d = d.with_secondary(at, format!("this digest differs from the bound image only in {n}"));
    }
    d
}

/// The digests the bindings name, none yet found in a file.
fn seen_of<'v>(found: &[&'v crate::value::RecordVal]) -> Seen<'v> {
    let mut seen = Seen::default();
    for b in found {
        if let Some(V::Digest(_, bytes)) = b.fields.first().map(|image| &image.kind) {
            seen.insert(&bytes[..], None);
        }
    }
    seen
}

/// W0006 for each binding in `found` whose image `seen` found in no file
/// but its own.
fn report<'v>(
    found: Vec<&'v crate::value::RecordVal>,
    seen: &Seen<'_>,
) -> Vec<(Diagnostic, &'v Value, Option<FileId>)> {
    let mut out = Vec::new();
    let mut reported = BTreeSet::new();
    for b in found {
        let (Some(image), Some(arm)) = (b.fields.first(), b.fields.get(1)) else { continue };
        let V::Digest(kind, bytes) = &image.kind else { continue };
        let Some((loc, own_file)) = loc_of(image) else { continue };
        let mentioned = seen
            .get(&bytes[..])
            .copied()
            .flatten()
            .is_some_and(|(first, elsewhere)| elsewhere || Some(first) != own_file);
        if mentioned || !reported.insert(loc) {
            continue;
        }
        out.push((
            Diagnostic::warning(
                "W0006",
                format!("the binding of arm {} names an image no loaded receipt mentions", crate::text::show(arm)),
            )
            .at_loc(loc, format!("{}:{} is in no other receipt", kind.prefix(), crate::value::hex(bytes)))
            .with_help("load the receipt this digest was read from (a build run, a startup reading) so the binding is evidence, not a transcription"),
            image,
            own_file,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::RecordVal;
    use claim_syntax::token::DigestKind;
    use claim_syntax::Span;
    use std::sync::Arc;

    fn digest(byte: u8, len: usize, origin: Option<Origin>) -> Value {
        Value { kind: V::Digest(DigestKind::Sha256, vec![byte; len].into()), origin }
    }

    fn json(file: u32) -> Option<Origin> {
        Some(Origin::Json(Loc::new(FileId(file), Span::new(0, 1))))
    }

    fn binding(image: Value) -> Value {
        let names: Arc<[Arc<str>]> = vec![Arc::from("image"), Arc::from("arm")].into();
        Value::new(V::Record(Arc::new(RecordVal {
            name: "ArmBinding".into(),
            names,
            fields: vec![image, Value::text("A")],
        })))
    }

    /// Digests read from JSON are collected with their files, at any depth;
    /// a digest from a literal or a fold is not.
    #[test]
    fn only_digests_read_from_json_are_collected() {
        let v = Value::list(vec![
            digest(1, 32, json(3)),
            digest(2, 32, None),
            Value::new(V::Option(Some(Arc::new(digest(3, 20, json(4)))))),
        ]);
        let mut out = Vec::new();
        collect_json_digests(&v, &mut out);
        let got: Vec<(Vec<u8>, FileId)> = out.iter().map(|d| (d.bytes().to_vec(), d.file)).collect();
        assert_eq!(got, [(vec![1; 32], FileId(3)), (vec![3; 20], FileId(4))]);
    }

    /// A binding is evidence where another file names its image, and
    /// warned about where only its own file does.
    #[test]
    fn a_binding_named_only_by_its_own_file_is_warned_about() {
        let bound = binding(digest(7, 32, json(1)));
        let mut own = Vec::new();
        collect_json_digests(&bound, &mut own);
        let said = unmentioned_bindings([&bound], own.iter(), Vec::new);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].code, "W0006");
        let mut elsewhere = own.clone();
        collect_json_digests(&digest(7, 32, json(2)), &mut elsewhere);
        assert!(unmentioned_bindings([&bound], elsewhere.iter(), || panic!("asked for values without a warning"))
            .is_empty());
    }

    /// A warned binding's image a digit from a digest another receipt
    /// holds: that digest is labelled; one of the binding's own file, or
    /// many digits away, is not.
    #[test]
    fn a_digest_a_digit_from_a_warned_image_is_labelled() {
        let bound = binding(digest(7, 32, json(1)));
        let mut own = Vec::new();
        collect_json_digests(&bound, &mut own);
        let mut slip = vec![7u8; 32];
        slip[31] = 8;
        let near = |file| Value { kind: V::Digest(DigestKind::Sha256, slip.clone().into()), origin: json(file) };
        let (elsewhere, same_file, far) = (near(2), near(1), digest(9, 32, json(3)));
        // Two digits apart at either end: found by the middle of the bytes.
        let mut ends = vec![7u8; 32];
        ends[0] = 0x17;
        ends[31] = 0x06;
        let ends = Value { kind: V::Digest(DigestKind::Sha256, ends.into()), origin: json(4) };
        let said = unmentioned_bindings([&bound], own.iter(), || vec![&bound, &same_file, &far, &elsewhere, &ends]);
        assert_eq!(said.len(), 1, "{said:?}");
        let labels: Vec<(u32, &str)> = said[0].secondary.iter().map(|l| (l.loc.file.0, &*l.message)).collect();
        assert_eq!(
            labels,
            [
                (2, "this digest differs from the bound image only in hex digit 64 of 64: `8` against `7`"),
                (
                    4,
                    "this digest differs from the bound image only in hex digits 1 and 64 of 64: `1` and `6` against `0` and `7`"
                ),
            ]
        );
        assert!(said[0].help.as_deref().is_some_and(|h| h.starts_with("if the binding was copied")), "{said:?}");
    }
}
