//! The digest families a literal or a receipt's digest belongs to.

/// Which digest family a literal belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DigestKind {
    Sha256,
    Sha1,
    Sha512,
}

impl DigestKind {
    pub fn hex_len(self) -> usize {
        match self {
            DigestKind::Sha256 => 64,
            DigestKind::Sha1 => 40,
            DigestKind::Sha512 => 128,
        }
    }
    pub fn prefix(self) -> &'static str {
        match self {
            DigestKind::Sha256 => "sha256",
            DigestKind::Sha1 => "sha1",
            DigestKind::Sha512 => "sha512",
        }
    }
}
