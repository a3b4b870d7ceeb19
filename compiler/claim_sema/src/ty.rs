//! Types (§3) and the declared type definitions they name.

use claim_syntax::Loc;
use std::fmt;
use std::sync::Arc;

/// What reads what, `(from, to, where)`: a module's calls and fact
/// references, each pair once.
pub type Edges = Arc<[(Arc<GlobalName>, Arc<GlobalName>, claim_syntax::Span)]>;

/// A program-wide name: the module that declares an item, and its name.
/// Made with [`GlobalName::of`] or [`GlobalName::new`].
#[derive(Clone)]
pub struct GlobalName {
    pub module: Arc<str>,
    pub name: Arc<str>,
    /// The hash of the two texts, found once: names are keys of the
    /// program-wide maps, hashed again at every lookup.
    hash: u64,
}

impl fmt::Debug for GlobalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GlobalName").field("module", &self.module).field("name", &self.name).finish()
    }
}

// Names of one module share its `Arc`, and the program-wide maps compare
// names constantly: equal pointers skip comparing the text, and unequal
// hashes skip it too.
impl PartialEq for GlobalName {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
            && (Arc::ptr_eq(&self.module, &other.module) || self.module == other.module)
            && (Arc::ptr_eq(&self.name, &other.name) || self.name == other.name)
    }
}

impl Eq for GlobalName {}

// By the text, as equality is: equal names hash alike.
impl std::hash::Hash for GlobalName {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialOrd for GlobalName {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for GlobalName {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let module = if Arc::ptr_eq(&self.module, &other.module) {
            std::cmp::Ordering::Equal
        } else {
            self.module.cmp(&other.module)
        };
        module.then_with(|| {
            if Arc::ptr_eq(&self.name, &other.name) {
                std::cmp::Ordering::Equal
            } else {
                self.name.cmp(&other.name)
            }
        })
    }
}

impl GlobalName {
    pub fn of(module: Arc<str>, name: Arc<str>) -> GlobalName {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        module.hash(&mut h);
        name.hash(&mut h);
        GlobalName { module, name, hash: h.finish() }
    }

    pub fn new(module: &str, name: &str) -> GlobalName {
        GlobalName::of(module.into(), name.into())
    }
}

impl fmt::Display for GlobalName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    Int,
    Text,
    Duration,
    Sha256,
    Sha1,
    Sha512,
    /// Any JSON value (§3).
    Json,
    List(Arc<Ty>),
    Option(Arc<Ty>),
    Map(Arc<Ty>),
    /// A declared newtype, record or enum. Shared: every checked expression
    /// carries its type, and this keeps a type two words.
    Named(Arc<GlobalName>),
    /// The type of `refuse …`: fits anywhere.
    Never,
    /// Already reported; fits anywhere and reports nothing more.
    Error,
}

impl Ty {
    pub fn named(g: GlobalName) -> Ty {
        Ty::Named(Arc::new(g))
    }
    pub fn list(t: Ty) -> Ty {
        Ty::List(Arc::new(t))
    }
    pub fn option(t: Ty) -> Ty {
        Ty::Option(Arc::new(t))
    }
    pub fn map(t: Ty) -> Ty {
        Ty::Map(Arc::new(t))
    }
    /// Whether this type absorbs any other (no further errors about it).
    pub fn is_lenient(&self) -> bool {
        matches!(self, Ty::Never | Ty::Error)
    }
    pub fn has_error(&self) -> bool {
        match self {
            Ty::Error => true,
            Ty::List(t) | Ty::Option(t) | Ty::Map(t) => t.has_error(),
            _ => false,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "Bool"),
            Ty::Int => write!(f, "Int"),
            Ty::Text => write!(f, "Text"),
            Ty::Duration => write!(f, "Duration"),
            Ty::Sha256 => write!(f, "Sha256"),
            Ty::Sha1 => write!(f, "Sha1"),
            Ty::Sha512 => write!(f, "Sha512"),
            Ty::Json => write!(f, "Json"),
            Ty::List(t) => write!(f, "List<{t}>"),
            Ty::Option(t) => write!(f, "Option<{t}>"),
            Ty::Map(t) => write!(f, "Map<{t}>"),
            Ty::Named(n) => write!(f, "{}", n.name),
            Ty::Never => write!(f, "Never"),
            Ty::Error => write!(f, "?"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDef {
    pub name: Arc<str>,
    pub ty: Ty,
    /// The JSON key (`@json("…")`, else the field name).
    pub json_key: Arc<str>,
    pub loc: Loc,
}

/// The fields of a record or of a variant, in declaration order, with
/// their names made once into the list every value of the type shares (a
/// value's names are what `text()` prints). Decoding a receipt built that
/// list afresh for every file, cloning each name: atomic increments of
/// counts both threads share, ~3% of the time facts take to be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fields {
    list: Vec<FieldDef>,
    names: Arc<[Arc<str>]>,
}

impl Fields {
    pub fn new(list: Vec<FieldDef>) -> Fields {
        let names = list.iter().map(|f| f.name.clone()).collect();
        Fields { list, names }
    }

    /// The field names, shared.
    pub fn names(&self) -> Arc<[Arc<str>]> {
        self.names.clone()
    }
}

impl From<Vec<FieldDef>> for Fields {
    fn from(list: Vec<FieldDef>) -> Fields {
        Fields::new(list)
    }
}

impl FromIterator<FieldDef> for Fields {
    fn from_iter<I: IntoIterator<Item = FieldDef>>(iter: I) -> Fields {
        Fields::new(iter.into_iter().collect())
    }
}

impl Default for Fields {
    fn default() -> Fields {
        Fields::new(Vec::new())
    }
}

impl IntoIterator for Fields {
    type Item = FieldDef;
    type IntoIter = std::vec::IntoIter<FieldDef>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

impl<'a> IntoIterator for &'a Fields {
    type Item = &'a FieldDef;
    type IntoIter = std::slice::Iter<'a, FieldDef>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl std::ops::Deref for Fields {
    type Target = [FieldDef];
    fn deref(&self) -> &[FieldDef] {
        &self.list
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantDef {
    pub name: Arc<str>,
    /// `None` for a unit variant.
    pub fields: Option<Fields>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeDef {
    Newtype(Ty),
    Record { fields: Fields, open: bool },
    Enum { variants: Vec<VariantDef> },
}

/// A declared type with its definition, where it was declared and its docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeInfo {
    pub name: GlobalName,
    pub def: TypeDef,
    pub loc: Loc,
    pub docs: Vec<String>,
}

impl TypeInfo {
    pub fn describe(&self) -> &'static str {
        match self.def {
            TypeDef::Newtype(_) => "newtype",
            TypeDef::Record { .. } => "record",
            TypeDef::Enum { .. } => "enum",
        }
    }
}

/// A type named with its article, as a label says it: "a `Sha256`", "an
/// `Option<ManifestDigest>`" (by the first letter of the name as shown).
pub fn a(ty: &impl fmt::Display) -> String {
    let shown = ty.to_string();
    let article = if shown.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} `{shown}`")
}

#[cfg(test)]
mod tests {
    use super::{a, FieldDef, Fields, Ty};
    use claim_syntax::{FileId, Loc, Span};
    use std::sync::Arc;

    #[test]
    fn every_value_of_a_record_shares_one_list_of_its_field_names() {
        let field = |n: &str| FieldDef {
            name: n.into(),
            ty: Ty::Text,
            json_key: n.into(),
            loc: Loc::new(FileId(0), Span::new(0, 0)),
        };
        let fields = Fields::new(vec![field("recipe"), field("tree")]);
        let (one, two) = (fields.names(), fields.names());
        assert!(Arc::ptr_eq(&one, &two));
        assert_eq!(one.iter().map(|n| &**n).collect::<Vec<_>>(), ["recipe", "tree"]);
        assert_eq!(fields.iter().map(|f| &*f.json_key).collect::<Vec<_>>(), ["recipe", "tree"]);
    }

    #[test]
    fn a_type_is_named_with_its_article() {
        assert_eq!(a(&Ty::Sha256), "a `Sha256`");
        assert_eq!(a(&Ty::Int), "an `Int`");
        assert_eq!(a(&Ty::Option(Arc::new(Ty::Text))), "an `Option<Text>`");
        assert_eq!(a(&Ty::List(Arc::new(Ty::Int))), "a `List<Int>`");
    }
}
