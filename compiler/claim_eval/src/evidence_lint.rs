//! W0006: an arm binding whose image digest no loaded receipt mentions.
//! Seed 003's review found one by hand ("Arm A digest typed in by hand"): a
//! binding is evidence only where some receipt other than the binding table
//! itself names the same image. Runs on the evaluated facts.

use crate::json_digests::{JsonDigest, Role, Roles};
use crate::value::{Origin, Value, V};
use claim_diagnostics::Diagnostic;
use claim_sema::ty::{GlobalName, Ty, TypeDef, TypeInfo};
use claim_syntax::{FileId, Loc};
use std::collections::BTreeSet;

/// For each digest a binding names, where JSON files hold it. Only those
/// digests are followed: a large run reads hundreds of thousands of digests
/// and binds a few thousand, and keeping every one was most of the lint's
/// time.
type Seen<'v> = rustc_hash::FxHashMap<&'v [u8], Mentions>;

/// Where the JSON files mention one bound image.
#[derive(Clone, Debug, Default)]
struct Mentions {
    /// Of the mentions in the bindings' role (or of no known role): the
    /// first file, and whether another file holds it too (all the lint asks
    /// is whether a file other than the binding's own names it).
    agreeing: Option<(FileId, bool)>,
    /// Mentions in another role (a manifest digest with the bytes of a
    /// bound config digest), at most [`OTHER_ROLES_KEPT`], each of another
    /// file.
    other: Vec<(Loc, Role)>,
}

/// Mentions in another role kept per bound image: enough to find one in a
/// file that is not the binding's own.
const OTHER_ROLES_KEPT: usize = 2;

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
        // Made from a value, not the value: where that came from.
        Origin::Derived(d) => {
            loc_of(&Value { kind: V::Bool(false), origin: Some(d.from.clone()) }).map(|(l, _)| (l, None))
        }
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
            Ty::Bool
            | Ty::Int
            | Ty::Text
            | Ty::Duration
            | Ty::Sha256
            | Ty::Sha1
            | Ty::Sha512
            | Ty::Json
            | Ty::Map(_) => false,
        }
    }
    walk(ty, types, &mut Vec::new())
}

/// W0006 for each binding whose image no other loaded receipt names.
/// `holders` are the values that may hold bindings (`may_hold_bindings` of
/// their facts' types: most of a run's values are receipts, which cannot);
/// `digests` every fact's JSON digests (`collect_json_digests` of each
/// fact's value), where the images are looked for.
/// `everything` gives every fact's value, asked only where a warning is
/// given: a digest of another receipt a digit or two from a warned image
/// is labelled (the binding was likely typed from it with a slip).
/// A digest whose role (`roles`) is not the bindings' is no evidence for a
/// binding: a warning says where the image was read in that other role.
pub fn unmentioned_bindings<'a>(
    holders: impl IntoIterator<Item = &'a Value>,
    digests: impl IntoIterator<Item = &'a JsonDigest> + Clone,
    roles: &Roles<'_>,
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
    let bound = roles.binding();
    for d in digests.clone() {
        let Some(slot) = seen.get_mut(d.bytes()) else { continue };
        if d.role.agrees(bound) {
            let (first, elsewhere) = slot.agreeing.get_or_insert((d.at.file, false));
            *elsewhere |= *first != d.at.file;
        } else if slot.other.len() < OTHER_ROLES_KEPT && slot.other.iter().all(|(at, _)| at.file != d.at.file) {
            slot.other.push((d.at, d.role));
        }
    }
    let mut warned = report(found, &seen);
    if warned.is_empty() {
        return Vec::new();
    }
    the_receipts_own(&mut warned, digests, bound);
    let values = everything();
    let near = near_digests(&warned, &values);
    warned.into_iter().zip(near).map(|(w, near)| w.diagnostic(near, roles)).collect()
}

/// A binding the lint warns about, and what it found.
struct Warned<'v> {
    /// Its arm, as a message shows it.
    arm: String,
    image: &'v Value,
    /// The image as a label shows it (`sha256:…`).
    shown: String,
    loc: Loc,
    own_file: Option<FileId>,
    /// Where a receipt other than its own read the image in another role.
    other: Option<(Loc, Role)>,
    /// That receipt's one digest in the bindings' role (`the_receipts_own`).
    receipts_own: Option<Loc>,
}

impl Warned<'_> {
    /// The W0006, with `near` (`near_digests`) where the image was read in
    /// no other role.
    fn diagnostic(self, near: Vec<(Loc, String)>, roles: &Roles<'_>) -> Diagnostic {
        let digest = self.shown;
        let names = self.other.and_then(|(at, r)| Some((at, roles.name(r)?, roles.name(roles.binding())?)));
        let Some((at, theirs, ours)) = names else {
            let d = Diagnostic::warning(
                "W0006",
                format!("the binding of arm {} names an image no loaded receipt mentions", self.arm),
            )
            .at_loc(self.loc, format!("{digest} is in no other receipt"))
            .with_help("load the receipt this digest was read from (a build run, a startup reading) so the binding is evidence, not a transcription");
            return with_near(d, near);
        };
        let mut d = Diagnostic::warning(
            "W0006",
            format!("the binding of arm {} names an image the loaded receipts read only as a `{theirs}`", self.arm),
        )
        .at_loc(self.loc, format!("{digest} is bound here as a `{ours}`"))
        .with_secondary(at, format!("read here as a `{theirs}`"));
        let bind = match self.receipts_own {
            Some(own) => {
                d = d.with_secondary(own, format!("the same receipt reads this digest as its `{ours}`"));
                format!("bind the `{ours}` labelled in the same receipt, if it is this image's")
            }
            None => format!("bind the image's `{ours}` as a receipt records it"),
        };
        d.with_help(format!("a `{theirs}` is never a `{ours}`, whatever its bytes: {bind}"))
    }
}

/// Where a bound image was read in another role (a push receipt's
/// manifest digest), and that receipt reads one digest, and only one, in
/// the bindings' role (its config digest): that digest is the one the
/// binding most likely meant.
fn the_receipts_own<'a>(warned: &mut [Warned<'_>], digests: impl IntoIterator<Item = &'a JsonDigest>, bound: Role) {
    // Per file read in another role: the one digest in the bindings' role
    // (`Some(Some(_))`), several different ones (`Some(None)`), or none yet.
    let mut own: rustc_hash::FxHashMap<FileId, Option<Option<&JsonDigest>>> =
        warned.iter().filter_map(|w| Some((w.other?.0.file, None))).collect();
    if own.is_empty() || bound == Role::UNKNOWN {
        return;
    }
    for d in digests.into_iter().filter(|d| d.role == bound) {
        match own.get_mut(&d.at.file) {
            Some(slot @ None) => *slot = Some(Some(d)),
            Some(slot @ Some(Some(_))) if slot.flatten().is_some_and(|o| o.bytes() != d.bytes()) => *slot = Some(None),
            _ => {}
        }
    }
    for w in warned {
        if let Some(Some(Some(found))) = w.other.and_then(|(at, _)| own.get(&at.file)) {
            w.receipts_own = Some(found.at);
        }
    }
}

/// Digests near a warned binding's image labelled at most.
const NEAR_LABELLED: usize = 3;

/// For each warned binding, up to [`NEAR_LABELLED`] digests read from a
/// receipt other than its own that differ from its image in a digit or
/// two, with what the label says. One walk over every value, whatever the
/// number of warnings: two digests that differ in at most two hex digits
/// differ in at most two bytes, so one of three runs of bytes of the one
/// is the same in the other, and the images are found by those runs.
fn near_digests(warned: &[Warned<'_>], values: &[&Value]) -> Vec<Vec<(Loc, String)>> {
    fn thirds(bytes: &[u8]) -> [&[u8]; 3] {
        let n = bytes.len();
        [&bytes[..n / 3], &bytes[n / 3..2 * n / 3], &bytes[2 * n / 3..]]
    }
    fn walk<'v>(v: &'v Value, f: &mut impl FnMut(&'v Value)) {
        f(v);
        v.for_each_child(|x| walk(x, f));
    }
    let mut by_third: rustc_hash::FxHashMap<(usize, &[u8]), Vec<usize>> = Default::default();
    for (i, w) in warned.iter().enumerate() {
        if let V::Digest(_, bytes) = &w.image.kind {
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
                    let Warned { image, own_file: own, .. } = &warned[i];
                    let found = &mut near[i];
                    if found.len() < NEAR_LABELLED && Some(at.file) != *own && !found.iter().any(|(l, _)| l == at) {
                        if let Some(n) = crate::near_miss::near_digits(x, image) {
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
            seen.insert(&bytes[..], Mentions::default());
        }
    }
    seen
}

/// Each binding in `found` whose image `seen` found in no file but its
/// own, in the bindings' role.
fn report<'v>(found: Vec<&'v crate::value::RecordVal>, seen: &Seen<'_>) -> Vec<Warned<'v>> {
    let mut out = Vec::new();
    let mut reported = BTreeSet::new();
    for b in found {
        let (Some(image), Some(arm)) = (b.fields.first(), b.fields.get(1)) else { continue };
        let V::Digest(kind, bytes) = &image.kind else { continue };
        let Some((loc, own_file)) = loc_of(image) else { continue };
        let mentions = seen.get(&bytes[..]);
        let mentioned =
            mentions.and_then(|m| m.agreeing).is_some_and(|(first, elsewhere)| elsewhere || Some(first) != own_file);
        if mentioned || !reported.insert(loc) {
            continue;
        }
        let other = mentions.and_then(|m| m.other.iter().find(|(at, _)| Some(at.file) != own_file)).copied();
        let shown = format!("{}:{}", kind.prefix(), crate::value::hex(bytes));
        out.push(Warned { arm: crate::text::show(arm), image, shown, loc, own_file, other, receipts_own: None });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::RecordVal;
    use claim_syntax::digest::DigestKind;
    use claim_syntax::Span;
    use std::sync::Arc;

    fn digest(byte: u8, len: usize, origin: Option<Origin>) -> Value {
        Value { kind: V::Digest(DigestKind::Sha256, vec![byte; len].into()), origin }
    }

    fn json(file: u32) -> Option<Origin> {
        Some(Origin::Json(Loc::new(FileId(file), Span::new(0, 1))))
    }

    /// Digests collected without types: every one is of no known role.
    fn collect(v: &Value, out: &mut Vec<JsonDigest>) {
        crate::json_digests::collect_json_digests(v, &Ty::Error, &Roles::of(&NO_TYPES), out);
    }

    static NO_TYPES: std::sync::LazyLock<rustc_hash::FxHashMap<GlobalName, TypeInfo>> =
        std::sync::LazyLock::new(Default::default);

    fn binding(image: Value) -> Value {
        let names: Arc<[Arc<str>]> = vec![Arc::from("image"), Arc::from("arm")].into();
        Value::new(V::Record(Arc::new(RecordVal {
            name: "ArmBinding".into(),
            names,
            fields: vec![image, Value::text("A")],
        })))
    }

    /// A binding is evidence where another file names its image, and
    /// warned about where only its own file does.
    #[test]
    fn a_binding_named_only_by_its_own_file_is_warned_about() {
        let bound = binding(digest(7, 32, json(1)));
        let mut own = Vec::new();
        collect(&bound, &mut own);
        let said = unmentioned_bindings([&bound], own.iter(), &Roles::of(&NO_TYPES), Vec::new);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].code, "W0006");
        let mut elsewhere = own.clone();
        collect(&digest(7, 32, json(2)), &mut elsewhere);
        assert!(unmentioned_bindings([&bound], elsewhere.iter(), &Roles::of(&NO_TYPES), || panic!(
            "asked for values without a warning"
        ))
        .is_empty());
    }

    /// A warned binding's image a digit from a digest another receipt
    /// holds: that digest is labelled; one of the binding's own file, or
    /// many digits away, is not.
    #[test]
    fn a_digest_a_digit_from_a_warned_image_is_labelled() {
        let bound = binding(digest(7, 32, json(1)));
        let mut own = Vec::new();
        collect(&bound, &mut own);
        let mut slip = vec![7u8; 32];
        slip[31] = 8;
        let near = |file| Value { kind: V::Digest(DigestKind::Sha256, slip.clone().into()), origin: json(file) };
        let (elsewhere, same_file, far) = (near(2), near(1), digest(9, 32, json(3)));
        // Two digits apart at either end: found by the middle of the bytes.
        let mut ends = vec![7u8; 32];
        ends[0] = 0x17;
        ends[31] = 0x06;
        let ends = Value { kind: V::Digest(DigestKind::Sha256, ends.into()), origin: json(4) };
        let said = unmentioned_bindings([&bound], own.iter(), &Roles::of(&NO_TYPES), || {
            vec![&bound, &same_file, &far, &elsewhere, &ends]
        });
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
