//! The digests a fact's value read from JSON files, each with the role its
//! declared type gives it: what the W0006 lint compares. Newtypes are
//! erased at run time (a `ConfigDigest` and a `ManifestDigest` are both
//! bytes), so the role is read from the fact's declared type, walked beside
//! its value.
//!
//! Only the standard library's digest newtypes are roles
//! (`std.oci.ConfigDigest`, `std.oci.ManifestDigest`, `std.digest.BuildKey`,
//! …): they are the vocabulary every team's receipts share, and the brief's
//! rule is theirs — a config digest is never a manifest digest. A newtype
//! of the user's own over one of them keeps its role; a digest typed
//! `Sha256`, or by a newtype of the user's own over `Sha256`, has no known
//! role and is taken to be whatever it is compared with.

use crate::value::{Origin, Value, V};
use claim_sema::ty::{FieldDef, GlobalName, Ty, TypeDef, TypeInfo};
use claim_syntax::Loc;

type Types = rustc_hash::FxHashMap<GlobalName, TypeInfo>;

/// A digest's role: `Role::UNKNOWN`, or one of a program's [`Roles`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Role(u8);

impl Role {
    pub const UNKNOWN: Role = Role(0);

    /// Whether a digest of this role can stand for one of `other`'s: the
    /// same role, or either unknown.
    pub fn agrees(self, other: Role) -> bool {
        self == other || self == Role::UNKNOWN || other == Role::UNKNOWN
    }
}

/// The standard library's newtypes over `Sha256` or `Sha1` in a program,
/// each a [`Role`], and the role arm bindings name their images by.
pub struct Roles<'t> {
    types: &'t Types,
    names: Vec<&'t GlobalName>,
    binding: Role,
}

impl<'t> Roles<'t> {
    pub fn of(types: &'t Types) -> Roles<'t> {
        let mut names: Vec<&GlobalName> = types
            .values()
            .filter(|t| claim_sema::db::is_std_module(&t.name.module))
            .filter(|t| matches!(t.def, TypeDef::Newtype(Ty::Sha256 | Ty::Sha1)))
            .map(|t| &t.name)
            .collect();
        names.sort_by(|a, b| (&*a.module, &*a.name).cmp(&(&*b.module, &*b.name)));
        // Past 255 roles, the rest are unknown: never a wrong warning.
        names.truncate(usize::from(u8::MAX));
        let mut roles = Roles { types, names, binding: Role::UNKNOWN };
        roles.binding = roles.of_bindings();
        roles
    }

    fn role(&self, g: &GlobalName) -> Role {
        match self.names.iter().position(|n| *n == g) {
            Some(i) => Role(u8::try_from(i + 1).unwrap_or(0)),
            None => Role::UNKNOWN,
        }
    }

    /// The role of `image` in every record type named `ArmBinding` whose
    /// first field is `image` (what the lint takes for a binding); unknown
    /// where they differ.
    fn of_bindings(&self) -> Role {
        let mut found = None;
        for t in self.types.values().filter(|t| &*t.name.name == "ArmBinding") {
            let TypeDef::Record { fields, .. } = &t.def else { continue };
            let Some(image) = fields.first().filter(|f| &*f.name == "image") else { continue };
            let role = match &image.ty {
                Ty::Named(g) => self.role(g),
                _ => Role::UNKNOWN,
            };
            if found.is_some_and(|r| r != role) {
                return Role::UNKNOWN;
            }
            found = Some(role);
        }
        found.unwrap_or(Role::UNKNOWN)
    }

    /// The role arm bindings name their images by.
    pub fn binding(&self) -> Role {
        self.binding
    }

    /// The newtype's name, as a message names it (`ManifestDigest`).
    pub fn name(&self, r: Role) -> Option<&'t str> {
        let i = usize::from(r.0).checked_sub(1)?;
        self.names.get(i).map(|g| &*g.name)
    }
}

/// A digest read from a JSON file, copied out of its value with where it
/// was read and its role: what the lint compares. A run collects these
/// from each fact's value on the thread that just decoded it
/// (`collect_json_digests`), while the value is in cache; walking every
/// value afterwards, for the lint alone, cost a cache miss per value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JsonDigest {
    bytes: [u8; 32],
    len: u8,
    pub role: Role,
    pub at: Loc,
}

impl JsonDigest {
    pub fn bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// Every digest inside `v`, a value of type `ty`, that was read from a JSON
/// file, with where and its role. Where the value is not of the shape its
/// type says (never, for a checked program), the rest of it is walked
/// without roles.
pub fn collect_json_digests(v: &Value, ty: &Ty, roles: &Roles<'_>, out: &mut Vec<JsonDigest>) {
    walk(v, ty, Role::UNKNOWN, roles, out);
}

fn walk(v: &Value, ty: &Ty, role: Role, roles: &Roles<'_>, out: &mut Vec<JsonDigest>) {
    match (ty, &v.kind) {
        (Ty::Sha256 | Ty::Sha1, V::Digest(_, bytes)) => push(v, bytes, role, out),
        (Ty::List(t), V::List(items)) => items.iter().for_each(|x| walk(x, t, Role::UNKNOWN, roles, out)),
        (Ty::Option(t), V::Option(x)) => x.iter().for_each(|x| walk(x, t, Role::UNKNOWN, roles, out)),
        (Ty::Map(t), V::Map(m)) => m.values().for_each(|x| walk(x, t, Role::UNKNOWN, roles, out)),
        (Ty::Named(g), _) => match roles.types.get(&**g).map(|info| &info.def) {
            // A newtype of a newtype keeps the standard library's role.
            Some(TypeDef::Newtype(inner)) => {
                let own = roles.role(g);
                walk(v, inner, if own == Role::UNKNOWN { role } else { own }, roles, out)
            }
            Some(TypeDef::Record { fields, .. }) => match &v.kind {
                V::Record(r) => beside_fields(v, &r.fields, Some(fields), roles, out),
                _ => untyped(v, out),
            },
            Some(TypeDef::Enum { variants }) => match &v.kind {
                V::Variant(x) => {
                    let defs = usize::try_from(x.index).ok().and_then(|i| variants.get(i)?.fields.as_deref());
                    beside_fields(v, &x.fields, defs, roles, out)
                }
                _ => untyped(v, out),
            },
            None => untyped(v, out),
        },
        _ => untyped(v, out),
    }
}

/// The field values of `v` (a record or a variant) beside their
/// declarations; where the two do not line up, `v` without roles.
fn beside_fields(v: &Value, values: &[Value], defs: Option<&[FieldDef]>, roles: &Roles<'_>, out: &mut Vec<JsonDigest>) {
    match defs {
        Some(defs) if defs.len() == values.len() => {
            values.iter().zip(defs).for_each(|(x, f)| walk(x, &f.ty, Role::UNKNOWN, roles, out))
        }
        _ => untyped(v, out),
    }
}

/// The digests inside `v`, with no role.
fn untyped(v: &Value, out: &mut Vec<JsonDigest>) {
    if let V::Digest(_, bytes) = &v.kind {
        push(v, bytes, Role::UNKNOWN, out);
    }
    v.for_each_child(|x| untyped(x, out));
}

fn push(v: &Value, bytes: &[u8], role: Role, out: &mut Vec<JsonDigest>) {
    // A digest read from a receipt, or recomputed from bytes by a world
    // function (`oci_image_for`'s config digest, `file_sha256`): both are
    // the program's own evidence, where a literal is a transcription.
    let at = match &v.origin {
        Some(Origin::Json(at)) => *at,
        Some(Origin::Hashed(h)) => h.loc,
        _ => return,
    };
    let mut d = JsonDigest { bytes: [0; 32], len: 0, role, at };
    // Digests are 20 or 32 bytes; a longer one could not be a binding's.
    if let Some(slot) = d.bytes.get_mut(..bytes.len()) {
        slot.copy_from_slice(bytes);
        d.len = bytes.len() as u8;
        out.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use claim_sema::{compile, Database, Program, SourceFile};
    use claim_syntax::FileId;
    use std::collections::BTreeMap;

    const SRC: &str = "use std.oci.{ConfigDigest, ManifestDigest, LayerDigest}\n\
        use std.arms.{ArmBinding}\n\
        newtype Mine = ConfigDigest\n\
        newtype Own = Sha256\n\
        enum Where { Pushed { manifest: ManifestDigest }, Local }\n\
        record Push { manifest: ManifestDigest, config: ConfigDigest, plain: Sha256, own: Own, mine: Mine,\n\
          layers: List<Option<LayerDigest>>, at: Where, bound: List<ArmBinding> }\n";

    /// Only digests read from JSON are collected, at any depth: a digest
    /// from a literal or a fold is not.
    #[test]
    fn only_digests_read_from_json_are_collected() {
        use claim_syntax::digest::DigestKind;
        use claim_syntax::{Loc, Span};
        let digest = |byte: u8, len: usize, file: Option<u32>| Value {
            kind: V::Digest(DigestKind::Sha256, vec![byte; len].into()),
            origin: file.map(|f| Origin::Json(Loc::new(FileId(f), Span::new(0, 1)))),
        };
        let v = Value::list(vec![
            digest(1, 32, Some(3)),
            digest(2, 32, None),
            Value::new(V::Option(Some(std::sync::Arc::new(digest(3, 20, Some(4)))))),
        ]);
        let types = Default::default();
        let mut out = Vec::new();
        collect_json_digests(&v, &Ty::Error, &Roles::of(&types), &mut out);
        let got: Vec<(Vec<u8>, FileId)> = out.iter().map(|d| (d.bytes().to_vec(), d.at.file)).collect();
        assert_eq!(got, [(vec![1; 32], FileId(3)), (vec![3; 20], FileId(4))]);
    }

    fn hex(byte: u8) -> String {
        format!("sha256:{}", format!("{byte:02x}").repeat(32))
    }

    /// Each digest gets the role of the standard newtype it was declared
    /// as, through lists, options, records, variants and newtypes of the
    /// user's own; a plain `Sha256` or a newtype of the user's over one has
    /// no known role.
    #[test]
    fn digests_carry_the_role_their_declared_type_gives() {
        let db = Database::default();
        let mut files =
            BTreeMap::from([("main".to_string(), SourceFile::new(&db, "main".to_string(), SRC.into(), FileId(0)))]);
        for (i, (module, src)) in claim_sema::stdlib::MODULES.iter().enumerate() {
            let id = FileId(100 + u32::try_from(i).expect("few"));
            files.insert(module.to_string(), SourceFile::new(&db, module.to_string(), (*src).into(), id));
        }
        let program = Program::new(&db, files, vec!["main".to_string()], BTreeMap::new());
        let compiled = compile(&db, program);
        assert!(compiled.diagnostics.iter().all(|d| !d.is_error()), "{:?}", compiled.diagnostics);
        let roles = Roles::of(&compiled.types);
        assert_eq!(roles.name(roles.binding()), Some("ConfigDigest"));
        let text = format!(
            r#"{{"manifest": "{}", "config": "{}", "plain": "{}", "own": "{}", "mine": "{}",
                "layers": [null, "{}"], "at": {{"Pushed": {{"manifest": "{}"}}}},
                "bound": [{{"image": "{}", "arm": "a", "evidence": "e"}}]}}"#,
            hex(1),
            hex(2),
            hex(3),
            hex(4),
            hex(5),
            hex(6),
            hex(7),
            hex(8)
        );
        let push = Ty::named(GlobalName::new("main", "Push"));
        let doc = crate::json::parse(&text).expect("parses");
        let call = claim_syntax::Loc::new(FileId(0), claim_syntax::Span::default());
        let v = crate::decode::decode(&doc, &push, &compiled.types, FileId(1), call).expect("decodes");
        let mut out = Vec::new();
        collect_json_digests(&v, &push, &roles, &mut out);
        let got: Vec<(u8, Option<&str>)> = out.iter().map(|d| (d.bytes()[0], roles.name(d.role))).collect();
        assert_eq!(
            got,
            [
                (1, Some("ManifestDigest")),
                (2, Some("ConfigDigest")),
                (3, None),
                (4, None),
                (5, Some("ConfigDigest")),
                (6, Some("LayerDigest")),
                (7, Some("ManifestDigest")),
                (8, Some("ConfigDigest")),
            ]
        );
        assert!(out.iter().all(|d| d.at.file == FileId(1)));
        // Without its type, every digest is still found, of no known role.
        let mut untyped = Vec::new();
        collect_json_digests(&v, &Ty::Error, &roles, &mut untyped);
        assert_eq!(untyped.len(), 8);
        assert!(untyped.iter().all(|d| d.role == Role::UNKNOWN));
    }
}
