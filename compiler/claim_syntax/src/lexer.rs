//! The lexer: logos for ordinary tokens, and a hand-driven mode for text
//! literals, whose `{…}` interpolations hold whole expressions (including
//! other text literals and braces) and so cannot be one regular token.
//!
//! Lexing never fails: anything unreadable becomes an `Error` token plus a
//! `SyntaxError`, so the parser can go on and report more.

use crate::digest::DigestKind;
use crate::error::SyntaxError;
use crate::span::Span;
use crate::token::{Keyword, RawToken, Token, Values};
use logos::Logos;

/// The result of lexing one file.
#[derive(Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<(Token, Span)>,
    /// The names, texts and numbers the tokens hold.
    pub values: Values,
    /// Doc comments (`///`), in order, with the text after `///`.
    pub docs: Vec<(Span, String)>,
    /// Every comment, `//` and `///` alike, as written (trailing blanks
    /// trimmed): what the formatter keeps in place.
    pub comments: Vec<(Span, String)>,
    pub errors: Vec<SyntaxError>,
}

/// Lexes `src` into tokens and their values (see [`Token`]).
pub fn lex(src: &str) -> Lexed {
    // Sized for the usual density (a token per four to five bytes of
    // code): growing the list as it went copied it a dozen times, a
    // fourteenth of the parse. The list lives only as long as the parse;
    // past a million tokens (a file of megabytes, perhaps all comment) it
    // grows as it needs instead of reserving for a density it may not have.
    let tokens = Vec::with_capacity((src.len() / 4 + 8).min(1 << 20));
    let mut lx = Lexer { src, pos: 0, out: Lexed { tokens, ..Lexed::default() } };
    lx.code(false);
    lx.out
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    out: Lexed,
}

impl<'s> Lexer<'s> {
    fn push(&mut self, tok: Token, start: usize, end: usize) {
        self.out.tokens.push((tok, Span::new(start, end)));
    }

    /// The index the next value of `list` will have.
    fn next_index<T>(list: &[T]) -> u32 {
        u32::try_from(list.len()).unwrap_or(u32::MAX)
    }

    fn error(&mut self, e: SyntaxError) {
        self.out.errors.push(e);
    }

    /// Lexes code from `self.pos`. In an interpolation, stops after the `}`
    /// that closes it (brace depth zero) and emits `InterpClose`.
    fn code(&mut self, interpolation: bool) {
        let open = self.pos.saturating_sub(1);
        let mut depth = 0usize;
        'restart: loop {
            let base = self.pos;
            let mut raw = RawToken::lexer(&self.src[base..]);
            while let Some(res) = raw.next() {
                let r = raw.span();
                let (start, end) = (base + r.start, base + r.end);
                let slice = raw.slice();
                let tok = match res {
                    Err(()) => {
                        // A run of unreadable characters is one error.
                        if let (Some(last), Some((Token::Error, prev))) =
                            (self.out.errors.last_mut(), self.out.tokens.last_mut())
                        {
                            if last.code == "E0002" && last.span.end as usize == start && prev.end as usize == start {
                                last.span.end = end as u32;
                                prev.end = end as u32;
                                last.message = format!(
                                    "unexpected characters `{}`",
                                    &self.src[last.span.start as usize..end].escape_default()
                                );
                                continue;
                            }
                        }
                        let ch = slice.chars().next().unwrap_or('?');
                        self.error(SyntaxError::new(
                            "E0002",
                            Span::new(start, end),
                            format!("unexpected character `{}`", ch.escape_default()),
                            "not part of any token",
                        ));
                        Token::Error
                    }
                    Ok(RawToken::Comment) => {
                        self.out.comments.push((Span::new(start, end), slice.trim_end().to_string()));
                        continue;
                    }
                    Ok(RawToken::DocComment) => {
                        self.out.comments.push((Span::new(start, end), slice.trim_end().to_string()));
                        let text = slice.trim_start_matches("///");
                        let text = text.strip_prefix(' ').unwrap_or(text);
                        self.out.docs.push((Span::new(start, end), text.trim_end().to_string()));
                        continue;
                    }
                    Ok(RawToken::Quote) => {
                        self.push(Token::StrStart, start, end);
                        self.pos = end;
                        self.text(start);
                        continue 'restart;
                    }
                    Ok(RawToken::LBrace) => {
                        depth += 1;
                        Token::Punct(RawToken::LBrace)
                    }
                    Ok(RawToken::RBrace) => {
                        if interpolation && depth == 0 {
                            self.push(Token::InterpClose, start, end);
                            self.pos = end;
                            return;
                        }
                        depth = depth.saturating_sub(1);
                        Token::Punct(RawToken::RBrace)
                    }
                    Ok(RawToken::Ident) => match Keyword::lookup(slice) {
                        Some(kw) => Token::Kw(kw),
                        None => {
                            let i = Self::next_index(&self.out.values.names);
                            self.out.values.names.push(crate::ast::Name::new(slice));
                            Token::Ident(i)
                        }
                    },
                    Ok(RawToken::Number) => self.number(slice, start, end),
                    Ok(RawToken::Sha256Lit) => self.digest(DigestKind::Sha256, slice, start, end),
                    Ok(RawToken::Sha1Lit) => self.digest(DigestKind::Sha1, slice, start, end),
                    Ok(RawToken::Sha512Lit) => self.digest(DigestKind::Sha512, slice, start, end),
                    Ok(RawToken::OtherDigestLit) => {
                        let family = slice.split(':').next().unwrap_or(slice);
                        self.error(
                            SyntaxError::new(
                                "E0005",
                                Span::new(start, end),
                                format!("Claim has no {family} digests"),
                                format!("a {family} digest literal"),
                            )
                            .with_help("digest literals are `sha256:`, `sha1:` or `sha512:` and their hex"),
                        );
                        Token::Error
                    }
                    Ok(p) => Token::Punct(p),
                };
                self.push(tok, start, end);
            }
            self.pos = self.src.len();
            if interpolation {
                self.error(SyntaxError::new(
                    "E0003",
                    Span::new(open, open + 1),
                    "unterminated interpolation in text literal",
                    "this `{` is never closed",
                ));
                self.push(Token::InterpClose, self.pos, self.pos);
            }
            return;
        }
    }

    /// Lexes the inside of a text literal whose `"` was at `quote`.
    fn text(&mut self, quote: usize) {
        let bytes = self.src.as_bytes();
        let mut chunk = String::new();
        let mut chunk_start = self.pos;
        loop {
            let Some(c) = self.src[self.pos..].chars().next() else {
                self.flush(&mut chunk, chunk_start);
                self.error(
                    SyntaxError::new(
                        "E0003",
                        Span::new(quote, quote + 1),
                        "unterminated text literal",
                        "this `\"` is never closed",
                    )
                    .with_help("close the text with `\"`"),
                );
                self.push(Token::StrEnd, self.pos, self.pos);
                return;
            };
            let at = self.pos;
            match c {
                '"' => {
                    self.flush(&mut chunk, chunk_start);
                    self.push(Token::StrEnd, at, at + 1);
                    self.pos = at + 1;
                    return;
                }
                '\\' => {
                    let (decoded, len) = self.escape(at);
                    if let Some(ch) = decoded {
                        chunk.push(ch);
                    }
                    self.pos = at + len;
                }
                '{' if bytes.get(at + 1) == Some(&b'{') => {
                    chunk.push('{');
                    self.pos = at + 2;
                }
                '}' if bytes.get(at + 1) == Some(&b'}') => {
                    chunk.push('}');
                    self.pos = at + 2;
                }
                '{' => {
                    self.flush(&mut chunk, chunk_start);
                    self.push(Token::InterpOpen, at, at + 1);
                    self.pos = at + 1;
                    self.code(true);
                    chunk_start = self.pos;
                }
                '}' => {
                    self.error(
                        SyntaxError::new(
                            "E0004",
                            Span::new(at, at + 1),
                            "a lone `}` in a text literal",
                            "write `}}` for a literal brace",
                        )
                        .with_help("outside an interpolation, braces in text are doubled: `{{` and `}}`"),
                    );
                    self.pos = at + 1;
                }
                _ => {
                    // The run up to the next quote, backslash or brace, at
                    // once (all ASCII, so the run ends on a character's
                    // boundary); a character at a time was ~8% of lexing.
                    let run = bytes[at..].iter().position(|b| matches!(b, b'"' | b'\\' | b'{' | b'}'));
                    let end = run.map_or(bytes.len(), |n| at + n);
                    chunk.push_str(&self.src[at..end]);
                    self.pos = end;
                }
            }
        }
    }

    fn flush(&mut self, chunk: &mut String, start: usize) {
        if !chunk.is_empty() {
            let i = Self::next_index(&self.out.values.texts);
            self.out.values.texts.push(std::mem::take(chunk));
            self.push(Token::StrChunk(i), start, self.pos);
        }
    }

    /// Decodes the escape at `at` (a backslash); returns the character (None
    /// after an error) and the escape's length in bytes.
    fn escape(&mut self, at: usize) -> (Option<char>, usize) {
        let rest = &self.src[at + 1..];
        let Some(next) = rest.chars().next() else {
            return (None, 1);
        };
        let simple = match next {
            '\\' => Some('\\'),
            '"' => Some('"'),
            'n' => Some('\n'),
            't' => Some('\t'),
            _ => None,
        };
        if let Some(ch) = simple {
            return (Some(ch), 2);
        }
        if next == 'u' {
            if let Some(body) = rest.strip_prefix("u{") {
                if let Some(close) = body.find('}') {
                    let hex = &body[..close];
                    let len = 3 + close + 1;
                    let ch = u32::from_str_radix(hex, 16)
                        .ok()
                        .filter(|_| !hex.is_empty() && hex.len() <= 6)
                        .and_then(char::from_u32);
                    if ch.is_none() {
                        self.error(SyntaxError::new(
                            "E0004",
                            Span::new(at, at + len),
                            format!("invalid unicode escape `\\u{{{hex}}}`"),
                            "not a Unicode scalar value",
                        ));
                    }
                    return (ch, len);
                }
            }
            self.error(
                SyntaxError::new("E0004", Span::new(at, at + 2), "malformed unicode escape", "expected `\\u{…}`")
                    .with_help("write a code point in hex between braces, e.g. `\\u{e9}`"),
            );
            return (None, 2);
        }
        let len = 1 + next.len_utf8();
        self.error(
            SyntaxError::new(
                "E0004",
                Span::new(at, at + len),
                format!("unknown escape `\\{}`", next.escape_default()),
                "unknown escape",
            )
            .with_help("the escapes are `\\\\`, `\\\"`, `\\n`, `\\t` and `\\u{…}`"),
        );
        (None, len)
    }

    fn number(&mut self, slice: &str, start: usize, end: usize) -> Token {
        let split = slice.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(slice.len());
        let (digits, unit) = slice.split_at(split);
        let clean: String = digits.chars().filter(|c| *c != '_').collect();
        let span = Span::new(start, end);
        let Ok(n) = clean.parse::<i64>() else {
            self.error(
                SyntaxError::new("E0006", span, "integer literal out of range", "does not fit in a 64-bit signed Int")
                    .with_help("the largest Int is 9223372036854775807"),
            );
            return Token::Error;
        };
        let factor: i64 = match unit {
            "" => return self.number_tok(n, Token::Int),
            "ms" => 1,
            "s" => 1_000,
            "min" => 60_000,
            "h" => 3_600_000,
            "d" => 86_400_000,
            other => {
                self.error(
                    SyntaxError::new("E0007", span, format!("unknown duration unit `{other}`"), "not a unit")
                        .with_help(
                            "the duration units are `ms`, `s`, `min`, `h` and `d`, written right after the number",
                        ),
                );
                return Token::Error;
            }
        };
        match n.checked_mul(factor) {
            Some(ms) => self.number_tok(ms, Token::Duration),
            None => {
                self.error(SyntaxError::new(
                    "E0006",
                    span,
                    "duration literal out of range",
                    "more milliseconds than a 64-bit signed Int holds",
                ));
                Token::Error
            }
        }
    }

    fn number_tok(&mut self, n: i64, tok: fn(u32) -> Token) -> Token {
        let i = Self::next_index(&self.out.values.numbers);
        self.out.values.numbers.push(n);
        tok(i)
    }

    fn digest_tok(&mut self, kind: DigestKind, hex: &str) -> Token {
        let i = Self::next_index(&self.out.values.texts);
        self.out.values.texts.push(hex.to_string());
        Token::Digest(kind, i)
    }

    fn digest(&mut self, kind: DigestKind, slice: &str, start: usize, end: usize) -> Token {
        let body = &slice[kind.prefix().len() + 1..];
        let span = Span::new(start, end);
        let want = kind.hex_len();
        // The usual literal, checked byte by byte in one pass; anything
        // else is looked at again to say what is wrong with it.
        if body.len() == want && body.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
            return self.digest_tok(kind, body);
        }
        let problem = if let Some(c) = body.chars().find(|c| c.is_ascii_uppercase() && c.is_ascii_hexdigit()) {
            Some(format!("uppercase hex digit `{c}`; digest literals are lowercase"))
        } else if let Some(c) = body.chars().find(|c| !c.is_ascii_hexdigit()) {
            Some(format!("`{c}` is not a hex digit"))
        } else if body.len() != want {
            Some(format!("{} hex digits, expected {want}", body.len()))
        } else {
            None
        };
        match problem {
            None => self.digest_tok(kind, body),
            Some(label) => {
                let mut e =
                    SyntaxError::new("E0005", span, format!("malformed {} digest literal", kind.prefix()), label);
                if body.chars().take(8).any(|c| !c.is_ascii_hexdigit())
                    && body.starts_with(|c: char| c.is_ascii_alphabetic())
                {
                    e = e.with_help(format!(
                        "to name a field `{}` and then a value, put a space after the colon: `{}: {body}`",
                        kind.prefix(),
                        kind.prefix()
                    ));
                } else {
                    e = e.with_help(format!(
                        "a {} literal is `{}:` and exactly {want} lowercase hex digits",
                        kind.prefix(),
                        kind.prefix()
                    ));
                }
                self.error(e);
                Token::Error
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::punct;

    /// Each token with the value it holds, as text.
    fn toks(src: &str) -> Vec<String> {
        let l = lex(src);
        l.tokens
            .iter()
            .map(|&(t, _)| match t {
                Token::Ident(i) => format!("name {}", l.values.name(i)),
                Token::Int(i) => format!("int {}", l.values.number(i)),
                Token::Duration(i) => format!("ms {}", l.values.number(i)),
                Token::StrChunk(i) => format!("chunk {}", l.values.text(i)),
                Token::Punct(p) => punct(p).to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn durations_and_ints() {
        assert_eq!(toks("3h 250ms 1_000"), ["ms 10800000", "ms 250", "int 1000"]);
    }

    #[test]
    fn nested_interpolation() {
        let t = toks(r#""a{join(xs, ", ")}b""#);
        assert_eq!(t[..3], ["StrStart", "chunk a", "InterpOpen"]);
        assert!(t.iter().any(|t| t == "chunk , "));
        assert_eq!(t[t.len() - 2], "chunk b");
        assert_eq!(t[t.len() - 1], "StrEnd");
    }

    #[test]
    fn braces_nest_inside_interpolation() {
        let t = toks(r#""{W { a: 1 }}""#);
        assert_eq!(t.iter().filter(|t| *t == "}").count(), 1);
        assert_eq!(t.iter().filter(|t| *t == "InterpClose").count(), 1);
    }

    #[test]
    fn digest_errors_say_what_is_wrong() {
        let l = lex("sha256:abc");
        assert_eq!(l.errors[0].label, "3 hex digits, expected 64");
        let l = lex("sha1:da39a3ee5e6b4b0d3255bzef95601890afd80709");
        assert!(l.errors[0].label.contains("`z` is not a hex digit"));
    }

    #[test]
    fn field_named_sha256() {
        assert_eq!(toks("sha256: x")[0], "name sha256");
    }
}
