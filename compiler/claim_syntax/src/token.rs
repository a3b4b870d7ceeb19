//! The tokens of Claim (§1). Most are recognised by logos; text literals,
//! whose interpolations nest, are driven by hand in `lexer.rs` and arrive
//! here as `StrStart`, `StrChunk`, `InterpOpen`, …, `InterpClose`, `StrEnd`.

use crate::ast::Name;
use crate::digest::DigestKind;
use logos::Logos;

/// Raw tokens as logos sees them. `Number` covers Int and Duration
/// literals (a digit run with an optional unit suffix), validated later so
/// that a bad unit or an out-of-range value gets a precise diagnostic.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// A token: eight bytes, a kind and, for a token with a value (a name, a
/// text, a number), where the value is kept in the file's [`Values`].
///
/// Why so small: a token that held its name or text inline was 32 bytes,
/// 40 with its span, and built on the stack then copied into the list with
/// wider loads than the stores that built it, which the CPU cannot
/// forward: that one reload was the hottest instruction of a whole batch
/// run. A token and its span are 16 bytes, written straight from
/// registers, compared as one word and copied freely by the parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// `names[i]`.
    Ident(u32),
    Kw(Keyword),
    /// `numbers[i]`.
    Int(u32),
    /// `numbers[i]`, in milliseconds.
    Duration(u32),
    /// `texts[i]`: the lowercase hex of a well-formed digest literal.
    Digest(DigestKind, u32),
    StrStart,
    /// `texts[i]`.
    StrChunk(u32),
    InterpOpen,
    InterpClose,
    StrEnd,
    /// One of logos' punctuation kinds; [`punct`] is its text.
    Punct(RawToken),
    /// Something the lexer could not read; its error is already reported.
    Error,
}

/// The values of a file's tokens, by the index their [`Token`] holds.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Values {
    pub names: Vec<Name>,
    pub texts: Vec<String>,
    pub numbers: Vec<i64>,
}

impl Values {
    /// The name a token holds (empty for an index out of range, which the
    /// lexer never makes).
    pub fn name(&self, i: u32) -> Name {
        self.names.get(i as usize).cloned().unwrap_or_default()
    }

    /// The text a token holds.
    pub fn text(&self, i: u32) -> String {
        self.texts.get(i as usize).cloned().unwrap_or_default()
    }

    /// The number a token holds.
    pub fn number(&self, i: u32) -> i64 {
        self.numbers.get(i as usize).copied().unwrap_or_default()
    }

    /// A token as a diagnostic names it.
    pub fn describe(&self, t: Token) -> String {
        match t {
            Token::Ident(i) => format!("name `{}`", self.name(i)),
            Token::Kw(k) => format!("keyword `{}`", k.as_str()),
            Token::Int(i) => format!("number `{}`", self.number(i)),
            Token::Duration(_) => "duration literal".to_string(),
            Token::Digest(k, _) => format!("{} digest literal", k.prefix()),
            Token::StrStart | Token::StrChunk(_) | Token::StrEnd => "text literal".to_string(),
            Token::InterpOpen => "`{` of an interpolation".to_string(),
            Token::InterpClose => "`}` of an interpolation".to_string(),
            Token::Punct(p) => format!("`{}`", punct(p)),
            Token::Error => "invalid token".to_string(),
        }
    }
}

/// The punctuation and its text: what [`punct`] and the grammar read.
const PUNCTUATION: [(RawToken, &str); 26] = [
    (RawToken::LParen, "("),
    (RawToken::RParen, ")"),
    (RawToken::LBrace, "{"),
    (RawToken::RBrace, "}"),
    (RawToken::LBracket, "["),
    (RawToken::RBracket, "]"),
    (RawToken::Comma, ","),
    (RawToken::Semi, ";"),
    (RawToken::Colon, ":"),
    (RawToken::Dot, "."),
    (RawToken::DotDot, ".."),
    (RawToken::Assign, "="),
    (RawToken::EqEq, "=="),
    (RawToken::NotEq, "!="),
    (RawToken::Lt, "<"),
    (RawToken::Le, "<="),
    (RawToken::Gt, ">"),
    (RawToken::Ge, ">="),
    (RawToken::Plus, "+"),
    (RawToken::PlusPlus, "++"),
    (RawToken::Minus, "-"),
    (RawToken::Star, "*"),
    (RawToken::Slash, "/"),
    (RawToken::FatArrow, "=>"),
    (RawToken::Arrow, "->"),
    (RawToken::At, "@"),
];

/// The text of a punctuation kind (`?` for a kind that is not
/// punctuation, which no `Token::Punct` holds).
pub fn punct(t: RawToken) -> &'static str {
    PUNCTUATION.iter().find(|(p, _)| *p == t).map_or("?", |(_, text)| *text)
}

impl RawToken {
    /// The punctuation written `text`, as the grammar names it. A text
    /// that is no punctuation gives `Comment`, which never reaches the
    /// parser, so it matches nothing (a test checks every text the
    /// grammar uses).
    pub fn punctuation(text: &str) -> RawToken {
        PUNCTUATION.iter().find(|(_, t)| *t == text).map_or(RawToken::Comment, |(p, _)| *p)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_and_its_span_fit_in_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Token>(), 8);
        assert_eq!(std::mem::size_of::<(Token, crate::span::Span)>(), 16);
    }

    #[test]
    fn punctuation_reads_back_as_its_text() {
        for (raw, text) in PUNCTUATION {
            assert_eq!(RawToken::punctuation(text), raw);
            assert_eq!(punct(raw), text);
        }
        assert_eq!(RawToken::punctuation("=/"), RawToken::Comment);
    }

    #[test]
    fn keywords_are_looked_up_as_the_table_says() {
        for (text, kw) in Keyword::ALL {
            assert_eq!(Keyword::lookup(text), Some(kw));
            assert_eq!(kw.as_str(), text);
        }
        for not_kw in ["", "u", "uses", "Use", "fnn", "r", "refusals", "none"] {
            assert_eq!(Keyword::lookup(not_kw), None, "`{not_kw}`");
        }
    }
}
