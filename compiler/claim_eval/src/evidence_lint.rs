//! W0006: an arm binding whose image digest no loaded receipt mentions.
//! Seed 003's review found one by hand ("Arm A digest typed in by hand"): a
//! binding is evidence only where some receipt other than the binding table
//! itself names the same image. Runs on the evaluated facts.

use crate::value::{Origin, Value, V};
use claim_diagnostics::Diagnostic;
use claim_syntax::{FileId, Loc};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Digests (their shared bytes), each with the first JSON file that holds
/// it and whether another file holds it too: all the lint asks is whether
/// a file other than a binding's own names the digest. A large run reads
/// hundreds of thousands: hashed, never copied, no set per digest.
type Seen = rustc_hash::FxHashMap<Arc<[u8]>, (FileId, bool)>;

/// Every digest read from a JSON file, with where it was read.
fn json_digests(v: &Value, out: &mut Seen) {
    if let (V::Digest(_, bytes), Some(Origin::Json(at))) = (&v.kind, &v.origin) {
        let (first, elsewhere) = out.entry(bytes.clone()).or_insert((at.file, false));
        *elsewhere |= *first != at.file;
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
    let mut seen = Seen::default();
    for v in facts.clone() {
        json_digests(v, &mut seen);
    }
    let mut out = Vec::new();
    let mut reported = BTreeSet::new();
    for v in facts {
        let mut found = Vec::new();
        bindings(v, &mut found);
        for b in found {
            let (Some(image), Some(arm)) = (b.fields.first(), b.fields.get(1)) else { continue };
            let V::Digest(kind, bytes) = &image.kind else { continue };
            let Some((loc, own_file)) = loc_of(image) else { continue };
            let mentioned = seen.get(bytes).is_some_and(|(first, elsewhere)| *elsewhere || Some(*first) != own_file);
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
    }
    out
}
