//! Tokens as the lexer stores them: eight bytes each, with what does not
//! fit (names, texts, numbers) in tables beside the list.
//!
//! Why not [`Token`] itself: a `Token` is 32 bytes (a name or a text
//! inline), 40 with its span. Each was built on the stack and then copied
//! into the list with wider loads than the stores that built it, which the
//! CPU cannot forward: the reload waited for the stores to reach the cache,
//! and that one instruction was the hottest of a whole batch run (1.5% of
//! its samples). A `Tok` and its span are 16 bytes, written straight from
//! registers: lexing the 1,000-module corpus went from 18 to 14 ms, and
//! parsing it from 43 to 38 ms (one thread, `claim_bench parse`). The
//! descent reads these; the chumsky grammar, which needs owned tokens,
//! reads them expanded ([`Compact::expand`]), as do the tools.

use crate::ast::Name;
use crate::digest::DigestKind;
use crate::error::SyntaxError;
use crate::span::Span;
use crate::token::{Keyword, RawToken, Token};

/// A token of eight bytes: a kind, and where its value is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `names[i]`.
    Ident(u32),
    Kw(Keyword),
    /// `numbers[i]`.
    Int(u32),
    /// `numbers[i]`, in milliseconds.
    Duration(u32),
    /// `texts[i]`: the lowercase hex.
    Digest(DigestKind, u32),
    StrStart,
    /// `texts[i]`.
    StrChunk(u32),
    InterpOpen,
    InterpClose,
    StrEnd,
    /// One of logos' punctuation kinds; [`punct`] is its text.
    Punct(RawToken),
    Error,
}

/// The values of a file's tokens, by the index their `Tok` holds.
#[derive(Debug, Default)]
pub struct Payload {
    pub names: Vec<Name>,
    pub texts: Vec<String>,
    pub numbers: Vec<i64>,
}

/// The result of lexing one file, as the lexer stores it.
#[derive(Debug, Default)]
pub struct Compact {
    pub toks: Vec<(Tok, Span)>,
    pub pay: Payload,
    /// Doc comments (`///`), in order, with the text after `///`.
    pub docs: Vec<(Span, String)>,
    /// Every comment, `//` and `///` alike, as written (trailing blanks
    /// trimmed): what the formatter keeps in place.
    pub comments: Vec<(Span, String)>,
    pub errors: Vec<SyntaxError>,
}

impl Payload {
    fn at<T: Clone + Default>(list: &[T], i: u32) -> T {
        list.get(i as usize).cloned().unwrap_or_default()
    }

    fn take<T: Default>(list: &mut [T], i: u32) -> T {
        list.get_mut(i as usize).map(std::mem::take).unwrap_or_default()
    }

    /// The number a token holds.
    pub fn number(&self, i: u32) -> i64 {
        self.numbers.get(i as usize).copied().unwrap_or_default()
    }

    /// The name or text a token holds: copied where it may be read again,
    /// taken otherwise (it is then empty).
    pub fn name(&mut self, i: u32, copy: bool) -> Name {
        if copy {
            Self::at(&self.names, i)
        } else {
            Self::take(&mut self.names, i)
        }
    }

    pub fn text(&mut self, i: u32, copy: bool) -> String {
        if copy {
            Self::at(&self.texts, i)
        } else {
            Self::take(&mut self.texts, i)
        }
    }

    /// The owned token `t` stands for, its values copied.
    pub fn token(&self, t: Tok) -> Token {
        match t {
            Tok::Ident(i) => Token::Ident(Self::at(&self.names, i)),
            Tok::Kw(k) => Token::Kw(k),
            Tok::Int(i) => Token::Int(self.number(i)),
            Tok::Duration(i) => Token::Duration(self.number(i)),
            Tok::Digest(k, i) => Token::Digest(k, Self::at(&self.texts, i)),
            Tok::StrStart => Token::StrStart,
            Tok::StrChunk(i) => Token::StrChunk(Self::at(&self.texts, i)),
            Tok::InterpOpen => Token::InterpOpen,
            Tok::InterpClose => Token::InterpClose,
            Tok::StrEnd => Token::StrEnd,
            Tok::Punct(p) => Token::Punct(punct(p)),
            Tok::Error => Token::Error,
        }
    }

    /// As [`Payload::token`], its values taken, not copied.
    fn take_token(&mut self, t: Tok) -> Token {
        match t {
            Tok::Ident(i) => Token::Ident(Self::take(&mut self.names, i)),
            Tok::Digest(k, i) => Token::Digest(k, Self::take(&mut self.texts, i)),
            Tok::StrChunk(i) => Token::StrChunk(Self::take(&mut self.texts, i)),
            other => self.token(other),
        }
    }
}

/// The result of lexing one file, as owned tokens: what [`Compact::expand`]
/// gives the chumsky grammar and the tools that read tokens (the formatter,
/// the editor).
#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<(Token, Span)>,
    /// Doc comments (`///`), in order, with the text after `///`.
    pub docs: Vec<(Span, String)>,
    /// Every comment, `//` and `///` alike, as written (trailing blanks
    /// trimmed): what the formatter keeps in place.
    pub comments: Vec<(Span, String)>,
    pub errors: Vec<SyntaxError>,
}

impl Compact {
    /// The owned tokens.
    pub fn expand(self) -> Lexed {
        let Compact { toks, mut pay, docs, comments, errors } = self;
        let tokens = toks.into_iter().map(|(t, s)| (pay.take_token(t), s)).collect();
        Lexed { tokens, docs, comments, errors }
    }
}

/// The text of a punctuation kind.
pub fn punct(t: RawToken) -> &'static str {
    match t {
        RawToken::LParen => "(",
        RawToken::RParen => ")",
        RawToken::LBrace => "{",
        RawToken::RBrace => "}",
        RawToken::LBracket => "[",
        RawToken::RBracket => "]",
        RawToken::Comma => ",",
        RawToken::Semi => ";",
        RawToken::Colon => ":",
        RawToken::Dot => ".",
        RawToken::DotDot => "..",
        RawToken::Assign => "=",
        RawToken::EqEq => "==",
        RawToken::NotEq => "!=",
        RawToken::Lt => "<",
        RawToken::Le => "<=",
        RawToken::Gt => ">",
        RawToken::Ge => ">=",
        RawToken::Plus => "+",
        RawToken::PlusPlus => "++",
        RawToken::Minus => "-",
        RawToken::Star => "*",
        RawToken::Slash => "/",
        RawToken::FatArrow => "=>",
        RawToken::Arrow => "->",
        RawToken::At => "@",
        _ => "?",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_and_its_span_fit_in_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Tok>(), 8);
        assert_eq!(std::mem::size_of::<(Tok, Span)>(), 16);
    }
}
