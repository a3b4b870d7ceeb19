//! Expressions and patterns of the descent: chumsky's `pratt` table of
//! `exprs.rs`, its atoms, and `patterns.rs`.

use super::Descent;
use crate::ast::{
    BinOp, BlockStmt, Comprehension, Expr, ExprKind, FieldInit, FieldPattern, MatchArm, Pattern, PatternKind, TextPart,
};
use crate::compact::Tok;
use crate::token::{Keyword, RawToken};

/// Operator powers as chumsky's `pratt` computes them from the table in
/// `exprs.rs`: an infix `left(p)` binds when `2p >= min` and parses its
/// right side at `2p + 1`; a postfix `p` binds when `2p + 1 >= min`; the
/// prefix `not` (3) parses its operand at 6.
const POSTFIX_FIELD_CALL: i32 = 15;
const POSTFIX_IS: i32 = 9;
const PREFIX_NOT: i32 = 6;

fn infix(t: &Tok) -> Option<(BinOp, i32)> {
    Some(match t {
        Tok::Punct(p) => match p {
            RawToken::Star => (BinOp::Mul, 6),
            RawToken::Slash => (BinOp::Div, 6),
            RawToken::PlusPlus => (BinOp::Concat, 5),
            RawToken::Plus => (BinOp::Add, 5),
            RawToken::Minus => (BinOp::Sub, 5),
            RawToken::EqEq => (BinOp::Eq, 4),
            RawToken::NotEq => (BinOp::Ne, 4),
            RawToken::Le => (BinOp::Le, 4),
            RawToken::Ge => (BinOp::Ge, 4),
            RawToken::Lt => (BinOp::Lt, 4),
            RawToken::Gt => (BinOp::Gt, 4),
            _ => return None,
        },
        Tok::Kw(Keyword::And) => (BinOp::And, 2),
        Tok::Kw(Keyword::Or) => (BinOp::Or, 1),
        _ => return None,
    })
}

impl Descent<'_> {
    // ---- expressions ----

    /// A full expression (`fields`: a `{` after a path starts a record
    /// literal), or a condition's (where a `{` ends it).
    pub(super) fn expr(&mut self, fields: bool) -> Option<Expr> {
        self.pratt(fields, i32::MIN)
    }

    /// chumsky's `pratt_go`: a prefix `not` or an atom, then, as long as
    /// one binds at `min`, postfix operators (tried first) and infix ones.
    fn pratt(&mut self, fields: bool, min: i32) -> Option<Expr> {
        self.deeper()?;
        let mut lhs = if self.at_kw(Keyword::Not) {
            let not = self.toks[self.pos].1;
            self.pos += 1;
            let operand = self.pratt(fields, PREFIX_NOT)?;
            let span = not.join(operand.span);
            Expr { kind: ExprKind::Not(Box::new(operand)), span }
        } else {
            self.atom(fields)?
        };
        loop {
            if POSTFIX_FIELD_CALL >= min && self.at_punct(".") {
                self.pos += 1;
                let f = self.ident()?;
                let span = lhs.span.join(f.span);
                lhs = Expr { kind: ExprKind::Field(Box::new(lhs), f), span };
                continue;
            }
            if POSTFIX_FIELD_CALL >= min && self.at_punct("(") {
                let start = self.pos;
                let args = self.list("(", ")", |p| p.expr(true), Self::starts_expr)?;
                let span = lhs.span.join(self.span_from(start));
                lhs = Expr { kind: ExprKind::Call(Box::new(lhs), args), span };
                continue;
            }
            if POSTFIX_IS >= min && self.at_kw(Keyword::Is) {
                self.pos += 1;
                let p = self.pattern(fields)?;
                let span = lhs.span.join(p.span);
                lhs = Expr { kind: ExprKind::Is(Box::new(lhs), Box::new(p)), span };
                continue;
            }
            match self.peek().and_then(infix) {
                Some((op, prec)) if 2 * prec >= min => {
                    self.pos += 1;
                    let rhs = self.pratt(fields, 2 * prec + 1)?;
                    let span = lhs.span.join(rhs.span);
                    lhs = Expr { kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span };
                }
                _ => break,
            }
        }
        self.depth -= 1;
        Some(lhs)
    }

    /// Whether the next token can start an expression (for lists, where
    /// chumsky's `separated_by` stops at the first element that fails).
    fn starts_expr(&self) -> bool {
        match self.peek() {
            Some(Tok::Kw(k)) => matches!(
                k,
                Keyword::Not
                    | Keyword::True
                    | Keyword::False
                    | Keyword::None
                    | Keyword::Some
                    | Keyword::If
                    | Keyword::Match
                    | Keyword::Refuse
            ),
            Some(Tok::Punct(p)) => matches!(p, RawToken::LParen | RawToken::LBracket | RawToken::LBrace),
            Some(Tok::Ident(_) | Tok::Int(_) | Tok::Duration(_) | Tok::Digest(..) | Tok::StrStart | Tok::Error) => true,
            Some(Tok::StrChunk(_) | Tok::InterpOpen | Tok::InterpClose | Tok::StrEnd) | None => false,
        }
    }

    fn atom(&mut self, fields: bool) -> Option<Expr> {
        let start = self.pos;
        let &(tok, span) = self.toks.get(self.pos)?;
        let literal = |kind| Some(Expr { kind, span });
        match tok {
            Tok::Int(i) => {
                self.pos += 1;
                literal(ExprKind::Int(self.pay.number(i)))
            }
            Tok::Duration(i) => {
                self.pos += 1;
                literal(ExprKind::Duration(self.pay.number(i)))
            }
            Tok::Digest(k, i) => {
                self.pos += 1;
                literal(ExprKind::Digest(k, self.pay.text(i, true)))
            }
            Tok::Error => {
                self.pos += 1;
                literal(ExprKind::Error)
            }
            Tok::StrStart => self.text(),
            Tok::Ident(_) => self.path_atom(fields),
            Tok::Kw(k) => match k {
                Keyword::True | Keyword::False | Keyword::None => {
                    self.pos += 1;
                    literal(match k {
                        Keyword::True => ExprKind::Bool(true),
                        Keyword::False => ExprKind::Bool(false),
                        _ => ExprKind::None,
                    })
                }
                Keyword::Some => {
                    self.pos += 1;
                    self.punct("(")?;
                    let inner = self.expr(true)?;
                    self.punct(")")?;
                    Some(Expr { kind: ExprKind::Some(Box::new(inner)), span: self.span_from(start) })
                }
                Keyword::If => {
                    self.pos += 1;
                    let c = self.expr(false)?;
                    self.kw(Keyword::Then)?;
                    let a = self.expr(true)?;
                    self.kw(Keyword::Else)?;
                    let b = self.expr(true)?;
                    Some(Expr {
                        kind: ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                        span: self.span_from(start),
                    })
                }
                Keyword::Match => {
                    self.pos += 1;
                    let scrutinee = self.expr(false)?;
                    let arms = self.list("{", "}", Self::arm, Self::starts_pattern)?;
                    Some(Expr { kind: ExprKind::Match(Box::new(scrutinee), arms), span: self.span_from(start) })
                }
                Keyword::Refuse => {
                    self.pos += 1;
                    let code = self.ident()?;
                    let message = Box::new(self.text()?);
                    Some(Expr { kind: ExprKind::Refuse { code, message }, span: self.span_from(start) })
                }
                _ => None,
            },
            Tok::Punct(p) => match p {
                RawToken::LBrace => self.block(),
                RawToken::LBracket => self.list_expr(),
                RawToken::LParen => {
                    self.pos += 1;
                    let inner = self.expr(true)?;
                    self.punct(")")?;
                    Some(inner)
                }
                _ => None,
            },
            Tok::StrChunk(_) | Tok::InterpOpen | Tok::InterpClose | Tok::StrEnd => None,
        }
    }

    /// A path, then in a full expression an optional record body: tried,
    /// and taken back if it does not parse (chumsky's `or_not`), so that
    /// `match if c then a else x { … }` reads the arms as the match's.
    /// The path is read straight into its expression (a name, then a
    /// field for each further segment): a list of its segments, made and
    /// freed again for every name, was a sixth of what parsing allocated.
    /// Only a record body, which is rare, takes the segments as a list.
    fn path_atom(&mut self, fields: bool) -> Option<Expr> {
        let start = self.pos;
        let first = self.ident()?;
        let mut expr = Expr { span: first.span, kind: ExprKind::Name(first) };
        while self.at_punct(".") && matches!(self.peek_at(1), Some(Tok::Ident(_))) {
            self.pos += 1;
            if let Some(f) = self.ident() {
                let span = expr.span.join(f.span);
                expr = Expr { kind: ExprKind::Field(Box::new(expr), f), span };
            }
        }
        if fields && self.at_punct("{") {
            let path = segments(expr);
            let init = |p: &mut Self| {
                let name = p.ident()?;
                let value = if p.punct(":").is_some() { Some(p.expr(true)?) } else { None };
                Some(FieldInit { name, value })
            };
            let body = self.tentatively(|p| p.list("{", "}", init, |p| matches!(p.peek(), Some(Tok::Ident(_)))));
            if let Some(fields) = body {
                return Some(Expr { kind: ExprKind::Record { path, fields }, span: self.span_from(start) });
            }
            let mut it = path.into_iter();
            let first = it.next()?;
            expr = Expr { span: first.span, kind: ExprKind::Name(first) };
            for f in it {
                let span = expr.span.join(f.span);
                expr = Expr { kind: ExprKind::Field(Box::new(expr), f), span };
            }
        }
        Some(expr)
    }

    fn list_expr(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.punct("[")?;
        let kind = if self.at_punct("]") {
            ExprKind::List(Vec::new())
        } else {
            let first = self.expr(true)?;
            if self.kw(Keyword::For).is_some() {
                let var = self.ident()?;
                self.kw(Keyword::In)?;
                let iter = self.expr(true)?;
                let cond = if self.kw(Keyword::If).is_some() { Some(self.expr(true)?) } else { None };
                ExprKind::Comprehension(Box::new(Comprehension { elem: first, var, iter, cond }))
            } else {
                let mut elems = vec![first];
                if self.punct(",").is_some() {
                    while self.starts_expr() {
                        elems.push(self.expr(true)?);
                        if self.punct(",").is_none() {
                            break;
                        }
                    }
                }
                ExprKind::List(elems)
            }
        };
        self.punct("]")?;
        Some(Expr { kind, span: self.span_from(start) })
    }

    /// `{ (let … ; | require … ;)* result }`
    pub(super) fn block(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.punct("{")?;
        let mut stmts = super::Gather::default();
        loop {
            let at = self.pos;
            let stmt = match self.peek()? {
                Tok::Kw(Keyword::Let) => {
                    let (name, ty, value) = self.let_binding()?;
                    BlockStmt::Let { name, ty, value, span: self.span_from(at) }
                }
                Tok::Kw(Keyword::Require) => {
                    self.pos += 1;
                    let cond = self.expr(false)?;
                    self.kw(Keyword::Else)?;
                    self.kw(Keyword::Refuse)?;
                    let code = self.ident()?;
                    let message = self.text()?;
                    BlockStmt::Require { cond, code, message, span: self.span_from(at) }
                }
                _ => break,
            };
            self.punct(";")?;
            stmts.push(stmt);
        }
        let result = self.expr(true)?;
        self.punct("}")?;
        Some(Expr { kind: ExprKind::Block(stmts.finish(), Box::new(result)), span: self.span_from(start) })
    }

    /// A text literal with interpolations.
    pub(super) fn text(&mut self) -> Option<Expr> {
        let start = self.pos;
        self.token(Tok::StrStart)?;
        let mut parts = Vec::new();
        loop {
            match self.peek()? {
                Tok::StrChunk(_) => {
                    parts.push(TextPart::Lit(self.take_chunk()));
                    self.pos += 1;
                }
                Tok::InterpOpen => {
                    self.pos += 1;
                    parts.push(TextPart::Interp(self.expr(true)?));
                    self.token(Tok::InterpClose)?;
                }
                Tok::StrEnd => break,
                _ => return None,
            }
        }
        self.pos += 1;
        Some(Expr { kind: ExprKind::Text(parts), span: self.span_from(start) })
    }

    /// A text literal without interpolations, as patterns, refusal
    /// summaries and `@json` keys take.
    pub(super) fn plain_text(&mut self) -> Option<String> {
        self.token(Tok::StrStart)?;
        let text = match self.peek() {
            Some(Tok::StrChunk(_)) => {
                let s = self.take_chunk();
                self.pos += 1;
                s
            }
            _ => String::new(),
        };
        self.token(Tok::StrEnd)?;
        Some(text)
    }

    // ---- patterns ----

    fn arm(&mut self) -> Option<MatchArm> {
        let pattern = self.pattern(true)?;
        self.punct("=>")?;
        Some(MatchArm { pattern, body: self.expr(true)? })
    }

    fn starts_pattern(&self) -> bool {
        match self.peek() {
            Some(Tok::Kw(k)) => matches!(k, Keyword::True | Keyword::False | Keyword::None | Keyword::Some),
            Some(Tok::Punct(p)) => matches!(p, RawToken::LParen | RawToken::LBracket),
            Some(Tok::Ident(_) | Tok::Int(_) | Tok::Duration(_) | Tok::Digest(..) | Tok::StrStart) => true,
            _ => false,
        }
    }

    /// A pattern; `fields` is false where a `{` must end it (after `is` in
    /// a condition). Nested patterns always allow fields.
    fn pattern(&mut self, fields: bool) -> Option<Pattern> {
        self.deeper()?;
        let start = self.pos;
        let &(tok, span) = self.toks.get(self.pos)?;
        let kind = match tok {
            Tok::Int(i) => Some(PatternKind::Int(self.pay.number(i))),
            Tok::Duration(i) => Some(PatternKind::Duration(self.pay.number(i))),
            Tok::Digest(k, i) => Some(PatternKind::Digest(k, self.pay.text(i, true))),
            Tok::Kw(Keyword::True) => Some(PatternKind::Bool(true)),
            Tok::Kw(Keyword::False) => Some(PatternKind::Bool(false)),
            Tok::Kw(Keyword::None) => Some(PatternKind::None),
            _ => None,
        };
        let pattern = if let Some(kind) = kind {
            self.pos += 1;
            Pattern { kind, span }
        } else {
            match tok {
                Tok::StrStart => {
                    let text = self.plain_text()?;
                    Pattern { kind: PatternKind::Text(text), span: self.span_from(start) }
                }
                Tok::Kw(Keyword::Some) => {
                    self.pos += 1;
                    self.punct("(")?;
                    let inner = self.pattern(true)?;
                    self.punct(")")?;
                    Pattern { kind: PatternKind::Some(Box::new(inner)), span: self.span_from(start) }
                }
                Tok::Punct(RawToken::LBracket) => {
                    let starts = |p: &Self| p.at_punct("..") || p.starts_pattern();
                    let elems = self.list(
                        "[",
                        "]",
                        |p| if p.punct("..").is_some() { Some(None) } else { Some(Some(p.pattern(true)?)) },
                        starts,
                    )?;
                    // `..` anywhere but last is an error chumsky reports.
                    let rest = matches!(elems.last(), Some(None));
                    let n = elems.len();
                    if elems.iter().take(n.saturating_sub(1)).any(Option::is_none) {
                        return None;
                    }
                    let elems = elems.into_iter().flatten().collect();
                    Pattern { kind: PatternKind::List { elems, rest }, span: self.span_from(start) }
                }
                Tok::Ident(_) => self.named_pattern(fields)?,
                Tok::Punct(RawToken::LParen) => {
                    self.pos += 1;
                    let inner = self.pattern(true)?;
                    self.punct(")")?;
                    inner
                }
                _ => return None,
            }
        };
        self.depth -= 1;
        Some(pattern)
    }

    /// `_`, a name, or a variant with optional fields (tried and taken back
    /// if they do not parse, as chumsky's `or_not` does).
    fn named_pattern(&mut self, fields: bool) -> Option<Pattern> {
        let start = self.pos;
        let path = self.path()?;
        let mut body = None;
        if fields && self.at_punct("{") {
            let field = |p: &mut Self| {
                if p.punct("..").is_some() {
                    return Some(None);
                }
                let name = p.ident()?;
                let pattern = if p.punct(":").is_some() { Some(p.pattern(true)?) } else { None };
                Some(Some(FieldPattern { name, pattern }))
            };
            let starts = |p: &Self| p.at_punct("..") || matches!(p.peek(), Some(Tok::Ident(_)));
            if let Some(fs) = self.tentatively(|p| p.list("{", "}", field, starts)) {
                let rest = fs.iter().any(Option::is_none);
                body = Some((fs.into_iter().flatten().collect(), rest));
            }
        }
        Some(Pattern { kind: PatternKind::named(path, body), span: self.span_from(start) })
    }
}

/// The segments of a path read as a name and its fields, in order.
fn segments(expr: Expr) -> Vec<crate::ast::Ident> {
    let mut out = Vec::new();
    let mut at = expr;
    loop {
        match at.kind {
            ExprKind::Field(base, f) => {
                out.push(f);
                at = *base;
            }
            ExprKind::Name(first) => {
                out.push(first);
                break;
            }
            // Not made by `path_atom`; nothing to take.
            _ => break,
        }
    }
    out.reverse();
    out.shrink_to_fit();
    out
}
