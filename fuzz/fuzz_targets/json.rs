//! The JSON loader never panics: arbitrary bytes are parsed and decoded
//! against a fixed record type that uses every kind of field. The W0006 lint's walk of a value beside its type finds every digest a
//! walk without the type finds, at the same places.
#![no_main]
use claim_eval::{json, Types};
use claim_sema::ty::Ty;
use claim_sema::{compile, Database, Program, SourceFile};
use claim_syntax::{FileId, Loc, Span};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::sync::OnceLock;

const TYPES: &str = "newtype ConfigDigest = Sha256\n\
    enum Origin { Built, Adopted { from: Text } }\n\
    record Wheel { name: Text, sha256: Sha256, size: Int }\n\
    record Receipt { @json(\"schema-version\") schema: Text, config: ConfigDigest, origin: Origin, wheels: List<Wheel>,\n\
      manifest: Option<Sha256>, commit: Sha1, budget: Duration, labels: Map<Text>, pushed: Bool, .. }\n";

fn receipt() -> &'static (Types, Ty) {
    static T: OnceLock<(Types, Ty)> = OnceLock::new();
    T.get_or_init(|| {
        let db = Database::default();
        let file = SourceFile::new(&db, "main".to_string(), TYPES.into(), FileId(0));
        let program =
            Program::new(&db, BTreeMap::from([("main".to_string(), file)]), vec!["main".to_string()], BTreeMap::new());
        let types = compile(&db, program).types.clone();
        (types, Ty::named(claim_sema::ty::GlobalName::new("main", "Receipt")))
    })
}

fuzz_target!(|data: &[u8]| {
    let (types, ty) = receipt();
    let text: std::sync::Arc<str> = String::from_utf8_lossy(data).into();
    let strict = json::parse(&text).ok().and_then(|doc| {
        claim_eval::decode::decode(&doc, ty, types, FileId(1), Loc::new(FileId(0), Span::default())).ok()
    });
    if let Some(d) = &strict {
        // The lint's walk beside the type finds the digests the walk
        // without it finds, at the same places.
        let roles = claim_eval::json_digests::Roles::of(types);
        let (mut typed, mut untyped) = (Vec::new(), Vec::new());
        claim_eval::json_digests::collect_json_digests(d, ty, &roles, &mut typed);
        claim_eval::json_digests::collect_json_digests(d, &Ty::Error, &roles, &mut untyped);
        let places = |v: &[claim_eval::json_digests::JsonDigest]| -> Vec<_> {
            v.iter().map(|d| (d.at, d.bytes().to_vec())).collect()
        };
        assert_eq!(places(&typed), places(&untyped));
    }
    if let Ok(doc) = json::parse(&text) {
        if let Ok(v) = claim_eval::decode::decode(&doc, ty, types, FileId(1), Loc::new(FileId(0), Span::default())) {
            // Where a diagnostic would name each value's place in the file.
            each_origin(&v, &mut |at| {
                let _ = json::path_at(&text, at.span);
            });
        }
        let _ = json::path_at(&text, doc.span);
    }
});

fn each_origin(v: &claim_eval::Value, f: &mut impl FnMut(Loc)) {
    if let Some(claim_eval::Origin::Json(at)) = &v.origin {
        f(*at);
    }
    v.for_each_child(|x| each_origin(x, f));
}
