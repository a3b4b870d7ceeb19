//! The tokens of Claim (§1). Most are recognised by logos; text literals,
//! whose interpolations nest, are driven by hand in `lexer.rs` and arrive
//! here as `StrStart`, `StrChunk`, `InterpOpen`, …, `InterpClose`, `StrEnd`.

use crate::digest::DigestKind;
use logos::Logos;
use std::fmt;

/// Raw tokens as logos sees them. `Number` covers Int and Duration
/// literals (a digit run with an optional unit suffix), validated later so
/// that a bad unit or an out-of-range value gets a precise diagnostic.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum RawToken {
    #[regex(r"//[^\n]*", priority = 3, allow_greedy = true)]
    Comment,
    #[regex(r"///[^\n]*", priority = 4, allow_greedy = true)]
    DocComment,
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    #[regex(r"[0-9][0-9_]*([A-Za-z_][A-Za-z0-9_]*)?")]
    Number,
    #[regex(r"sha256:[A-Za-z0-9]+")]
    Sha256Lit,
    #[regex(r"sha1:[A-Za-z0-9]+")]
    Sha1Lit,
    #[regex(r"sha512:[A-Za-z0-9]+")]
    Sha512Lit,
    /// A digest of a family Claim does not have, written as a literal: an
    /// error that says so, not a name and a colon.
    #[regex(r"(sha384|sha224|md5):[A-Za-z0-9]+")]
    OtherDigestLit,
    #[token("\"")]
    Quote,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    #[token("..")]
    DotDot,
    #[token("=")]
    Assign,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("++")]
    PlusPlus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("=>")]
    FatArrow,
    #[token("->")]
    Arrow,
    #[token("@")]
    At,
}

/// Owned tokens: what the chumsky grammar, the formatter and the editor
/// read. The lexer stores tokens smaller (`compact.rs`), and the descent,
/// which parses nearly every item, reads those.
#[derive(Clone, Debug, Eq)]
pub enum Token {
    Ident(crate::ast::Name),
    Kw(Keyword),
    Int(i64),
    /// A Duration literal, in milliseconds.
    Duration(i64),
    /// A well-formed digest literal: its kind and lowercase hex.
    Digest(DigestKind, String),
    StrStart,
    StrChunk(String),
    InterpOpen,
    InterpClose,
    StrEnd,
    Punct(&'static str),
    /// Something the lexer could not read; its error is already reported.
    Error,
}

// The parser compares the next token with the ones it expects at every
// step, and punctuation most of all; the same punctuation is usually the
// same static text, so its address answers first.
impl PartialEq for Token {
    fn eq(&self, other: &Token) -> bool {
        use Token::*;
        match (self, other) {
            // Byte by byte (one or two): a `memcmp` call cost more than
            // the comparison, and most comparisons are of different marks.
            (Punct(a), Punct(b)) => {
                std::ptr::eq(*a, *b) || (a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y))
            }
            (Kw(a), Kw(b)) => a == b,
            (Ident(a), Ident(b)) => a == b,
            (StrChunk(a), StrChunk(b)) => a == b,
            (Int(a), Int(b)) | (Duration(a), Duration(b)) => a == b,
            (Digest(k1, a), Digest(k2, b)) => k1 == k2 && a == b,
            (StrStart, StrStart)
            | (InterpOpen, InterpOpen)
            | (InterpClose, InterpClose)
            | (StrEnd, StrEnd)
            | (Error, Error) => true,
            _ => false,
        }
    }
}

/// Reserved words (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keyword {
    Use,
    Newtype,
    Record,
    Enum,
    Refusal,
    Fact,
    Fn,
    Let,
    Require,
    Else,
    Refuse,
    If,
    Then,
    Match,
    Witness,
    Holds,
    Refuses,
    With,
    Frontier,
    Dissolves,
    When,
    For,
    In,
    And,
    Or,
    Not,
    Is,
    True,
    False,
    None,
    Some,
}

impl Keyword {
    pub const ALL: [(&'static str, Keyword); 31] = [
        ("use", Keyword::Use),
        ("newtype", Keyword::Newtype),
        ("record", Keyword::Record),
        ("enum", Keyword::Enum),
        ("refusal", Keyword::Refusal),
        ("fact", Keyword::Fact),
        ("fn", Keyword::Fn),
        ("let", Keyword::Let),
        ("require", Keyword::Require),
        ("else", Keyword::Else),
        ("refuse", Keyword::Refuse),
        ("if", Keyword::If),
        ("then", Keyword::Then),
        ("match", Keyword::Match),
        ("witness", Keyword::Witness),
        ("holds", Keyword::Holds),
        ("refuses", Keyword::Refuses),
        ("with", Keyword::With),
        ("frontier", Keyword::Frontier),
        ("dissolves", Keyword::Dissolves),
        ("when", Keyword::When),
        ("for", Keyword::For),
        ("in", Keyword::In),
        ("and", Keyword::And),
        ("or", Keyword::Or),
        ("not", Keyword::Not),
        ("is", Keyword::Is),
        ("true", Keyword::True),
        ("false", Keyword::False),
        ("None", Keyword::None),
        ("Some", Keyword::Some),
    ];

    /// Every identifier the lexer reads is looked up: a `match` on the
    /// text compiles to a switch on its length and a comparison or two (a
    /// scan of the table checked length and first letter of each entry,
    /// a tenth of lexing). A test checks it against `ALL`.
    pub fn lookup(s: &str) -> Option<Keyword> {
        Some(match s {
            "use" => Keyword::Use,
            "newtype" => Keyword::Newtype,
            "record" => Keyword::Record,
            "enum" => Keyword::Enum,
            "refusal" => Keyword::Refusal,
            "fact" => Keyword::Fact,
            "fn" => Keyword::Fn,
            "let" => Keyword::Let,
            "require" => Keyword::Require,
            "else" => Keyword::Else,
            "refuse" => Keyword::Refuse,
            "if" => Keyword::If,
            "then" => Keyword::Then,
            "match" => Keyword::Match,
            "witness" => Keyword::Witness,
            "holds" => Keyword::Holds,
            "refuses" => Keyword::Refuses,
            "with" => Keyword::With,
            "frontier" => Keyword::Frontier,
            "dissolves" => Keyword::Dissolves,
            "when" => Keyword::When,
            "for" => Keyword::For,
            "in" => Keyword::In,
            "and" => Keyword::And,
            "or" => Keyword::Or,
            "not" => Keyword::Not,
            "is" => Keyword::Is,
            "true" => Keyword::True,
            "false" => Keyword::False,
            "None" => Keyword::None,
            "Some" => Keyword::Some,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        Keyword::ALL.iter().find(|(_, kw)| *kw == self).map(|(k, _)| *k).unwrap_or("?")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Ident(s) => write!(f, "{s}"),
            Token::Kw(k) => write!(f, "{}", k.as_str()),
            Token::Int(n) => write!(f, "{n}"),
            Token::Duration(ms) => write!(f, "{ms}ms"),
            Token::Digest(k, hex) => write!(f, "{}:{hex}", k.prefix()),
            Token::StrStart | Token::StrEnd => write!(f, "\""),
            Token::StrChunk(_) => write!(f, "text"),
            Token::InterpOpen => write!(f, "{{"),
            Token::InterpClose => write!(f, "}}"),
            Token::Punct(p) => write!(f, "{p}"),
            Token::Error => write!(f, "invalid token"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_equal_by_what_they_say_not_where_it_is_stored() {
        let elsewhere: &'static str = String::from("(").leak();
        assert_eq!(Token::Punct("("), Token::Punct(elsewhere));
        assert_ne!(Token::Punct("("), Token::Punct(")"));
        assert_ne!(Token::Punct("=="), Token::Punct("="));
        assert_eq!(Token::Ident("a".into()), Token::Ident("a".into()));
        assert_ne!(Token::Ident("a".into()), Token::StrChunk("a".into()));
        assert_ne!(Token::Int(3), Token::Duration(3));
        assert_eq!(Token::Digest(DigestKind::Sha1, "ab".into()), Token::Digest(DigestKind::Sha1, "ab".into()));
        assert_ne!(Token::Digest(DigestKind::Sha1, "ab".into()), Token::Digest(DigestKind::Sha256, "ab".into()));
        assert_eq!(Token::StrEnd, Token::StrEnd);
        for (text, kw) in Keyword::ALL {
            assert_eq!(Keyword::lookup(text), Some(kw));
            assert_eq!(kw.as_str(), text);
        }
        for not_kw in ["", "u", "uses", "Use", "fnn", "r", "refusals", "none"] {
            assert_eq!(Keyword::lookup(not_kw), None, "`{not_kw}`");
        }
        assert_ne!(Token::StrStart, Token::StrEnd);
        assert_ne!(Token::Error, Token::Punct("("));
    }
}
