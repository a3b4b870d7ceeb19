//! The standard library, embedded at build time from the project's
//! `stdlib/` folder, so the binaries need no files beside them.

/// `(module path, source)`.
pub const MODULES: &[(&str, &str)] = &[
    ("std.digest", include_str!("../../../stdlib/digest.claim")),
    ("std.git", include_str!("../../../stdlib/git.claim")),
    ("std.oci", include_str!("../../../stdlib/oci.claim")),
    ("std.provenance", include_str!("../../../stdlib/provenance.claim")),
    ("std.arms", include_str!("../../../stdlib/arms.claim")),
    ("std.extension", include_str!("../../../stdlib/extension.claim")),
    ("std.evidence", include_str!("../../../stdlib/evidence.claim")),
    ("std.budget", include_str!("../../../stdlib/budget.claim")),
    ("std.world", include_str!("../../../stdlib/world.claim")),
    ("std.dsse", include_str!("../../../stdlib/dsse.claim")),
    ("std.intoto", include_str!("../../../stdlib/intoto.claim")),
    ("std.slsa", include_str!("../../../stdlib/slsa.claim")),
    ("std.buildx", include_str!("../../../stdlib/buildx.claim")),
];

pub fn source(module: &str) -> Option<&'static str> {
    MODULES.iter().find(|(m, _)| *m == module).map(|(_, s)| *s)
}

/// What each standard-library module declares, read off its syntax alone
/// (parsed once, the first time a name is not found: see
/// `scope::import_help`, which must know the modules a program has not
/// loaded).
pub fn indexes() -> &'static [(&'static str, crate::index::ItemIndex)] {
    static INDEXES: std::sync::OnceLock<Vec<(&'static str, crate::index::ItemIndex)>> = std::sync::OnceLock::new();
    INDEXES.get_or_init(|| {
        MODULES
            .iter()
            .map(|(m, src)| {
                (*m, crate::index::ItemIndex::build(&claim_syntax::parse_module(src), claim_syntax::FileId(0)))
            })
            .collect()
    })
}
