//! W0006: an arm binding whose image digest no loaded receipt mentions.
//! Seed 003's review found one by hand ("Arm A digest typed in by hand"): a
//! binding is evidence only where some receipt other than the binding table
//! itself names the same image. Runs on the evaluated facts.

use crate::value::{Origin, Value, V};
use claim_diagnostics::Diagnostic;
use claim_syntax::{FileId, Loc};
use std::collections::BTreeSet;

/// For each digest a binding names: the first JSON file it was read from,
/// and whether another file holds it too (all the lint asks is whether a
/// file other than the binding's own names it). Only those digests are
/// followed: a large run reads hundreds of thousands of digests and binds
/// a few thousand, and keeping every one was most of the lint's time.
type Seen<'v> = rustc_hash::FxHashMap<&'v [u8], Option<(FileId, bool)>>;

/// Every digest a binding names, as it is read from a JSON file, with where.
fn json_digests(v: &Value, out: &mut Seen<'_>) {
    if let (V::Digest(_, bytes), Some(Origin::Json(at))) = (&v.kind, &v.origin) {
        if let Some(slot) = out.get_mut(&bytes[..]) {
            let (first, elsewhere) = slot.get_or_insert((at.file, false));
            *elsewhere |= *first != at.file;
        }
    }
    v.for_each_child(|x| json_digests(x, out));
}

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
        Origin::Json(at) => Some((*at, Some(at.file))),
    }
}

/// W0006 for each binding whose image no other loaded receipt names.
pub fn unmentioned_bindings<'a>(facts: impl IntoIterator<Item = &'a Value> + Clone) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for v in facts.clone() {
        bindings(v, &mut found);
    }
    let mut seen = Seen::default();
    for b in &found {
        if let Some(V::Digest(_, bytes)) = b.fields.first().map(|image| &image.kind) {
            seen.insert(&bytes[..], None);
        }
    }
    if seen.is_empty() {
        return Vec::new();
    }
    for v in facts {
        json_digests(v, &mut seen);
    }
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
        out.push(
            Diagnostic::warning(
                "W0006",
                format!("the binding of arm {} names an image no loaded receipt mentions", crate::text::show(arm)),
            )
            .at_loc(loc, format!("{}:{} is in no other receipt", kind.prefix(), crate::value::hex(bytes)))
            .with_help("load the receipt this digest was read from (a build run, a startup reading) so the binding is evidence, not a transcription"),
        );
    }
    out
}
