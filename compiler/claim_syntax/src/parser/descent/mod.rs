//! The fast path of the parser: a hand-written recursive descent over one
//! item's tokens, for items that are well formed — nearly all of them.
//!
//! It follows the chumsky grammar of `items.rs`, `exprs.rs`, `patterns.rs`
//! and `types.rs` choice for choice — the same ordered alternatives, the
//! same operator powers, the same backtracking where the grammar
//! backtracks — and builds the same tree with the same spans. At the first
//! token it does not expect it gives up (`None`), and the chumsky grammar
//! parses the item instead, with its error recovery and messages. So it
//! only ever answers what chumsky would have answered, sooner: the
//! combinators interpreted every alternative they tried, and were a third
//! of a large project's run. `parse_module_by_combinators` parses without
//! it; the `parse_agree` fuzz target and the tests in `descent_tests.rs`
//! compare the two on every input they have.
//!
//! Giving up is always safe, so where matching chumsky exactly would need
//! more than one token of lookahead and the input is unusual, it gives up.

mod exprs;

use crate::ast::{
    FieldDecl, FnDecl, Ident, Item, ItemKind, Param, RecordDecl, TypeExpr, TypeExprKind, UseDecl, VariantDecl,
    WitnessStmt, WitnessStmtKind,
};
use crate::compact::{punct, Payload, Tok};
use crate::span::Span;
use crate::token::Keyword;

/// Deeper than this, the descent gives up and chumsky (which the run's
/// large stack and the nesting limit are sized for) parses the item.
const MAX_DEPTH: u32 = 200;

/// Parses one whole item, or gives up. The names and texts it reads are
/// taken out of `pay` (copied only where it may go back and read them
/// again), so a caller must not read these tokens' values again: after a
/// give-up it lexes the item afresh.
pub(crate) fn item(tokens: &[(Tok, Span)], pay: &mut Payload) -> Option<Item> {
    let len = tokens.len();
    let mut p = Descent { toks: tokens, pay, pos: 0, depth: 0, tentative: 0 };
    let kind = p.item_kind()?;
    if p.pos != len {
        return None;
    }
    Some(Item { kind, span: p.span_from(0), docs: Vec::new() })
}

struct Descent<'a> {
    toks: &'a [(Tok, Span)],
    pay: &'a mut Payload,
    pos: usize,
    depth: u32,
    /// How many parses that may be taken back (`tentatively`) are under
    /// way: inside one, names and texts are copied out of their tokens,
    /// since they may be read again.
    tentative: u32,
}

impl Descent<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn peek_at(&self, ahead: usize) -> Option<&Tok> {
        self.toks.get(self.pos + ahead).map(|t| &t.0)
    }

    fn at_punct(&self, s: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(p)) if punct(*p) == s)
    }

    fn at_kw(&self, k: Keyword) -> bool {
        matches!(self.peek(), Some(Tok::Kw(x)) if *x == k)
    }

    fn punct(&mut self, s: &str) -> Option<()> {
        self.at_punct(s).then(|| self.pos += 1)
    }

    fn kw(&mut self, k: Keyword) -> Option<()> {
        self.at_kw(k).then(|| self.pos += 1)
    }

    fn token(&mut self, t: Tok) -> Option<()> {
        (self.peek() == Some(&t)).then(|| self.pos += 1)
    }

    /// The span chumsky gives what was consumed since token `start`: from
    /// its start to the end of the last token taken.
    fn span_from(&self, start: usize) -> Span {
        let first = self.toks.get(start).map_or(0, |t| t.1.start);
        let last = self.pos.checked_sub(1).and_then(|i| self.toks.get(i)).map_or(first, |t| t.1.end);
        Span { start: first, end: last }
    }

    fn ident(&mut self) -> Option<Ident> {
        let tentative = self.tentative > 0;
        let &(Tok::Ident(i), span) = self.toks.get(self.pos)? else { return None };
        self.pos += 1;
        // Taken, not copied (an allocation per name saved), unless it
        // may be read again.
        let name = self.pay.name(i, tentative);
        Some(Ident { name, span })
    }

    /// `f`, taken back (the cursor where it was) if it gives up: chumsky's
    /// `or_not`. What it reads is copied out of the tokens, not taken.
    fn tentatively<T>(&mut self, f: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let before = (self.pos, self.depth);
        self.tentative += 1;
        let r = f(self);
        self.tentative -= 1;
        if r.is_none() {
            (self.pos, self.depth) = before;
        }
        r
    }

    /// The text of the `StrChunk` at the cursor, taken out of its token.
    fn take_chunk(&mut self) -> String {
        let tentative = self.tentative > 0;
        match self.toks.get(self.pos) {
            Some(&(Tok::StrChunk(i), _)) => self.pay.text(i, tentative),
            _ => String::new(),
        }
    }

    fn deeper(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// `ident ("." ident)*`, leaving a `.` not followed by a name unread
    /// (chumsky's `separated_by` without a trailing separator).
    fn path(&mut self) -> Option<Vec<Ident>> {
        let first = self.ident()?;
        let more = |p: &Self| p.at_punct(".") && matches!(p.peek_at(1), Some(Tok::Ident(_)));
        // Most paths are one name or two: each allocated once, at its size.
        if !more(self) {
            return Some(vec![first]);
        }
        let mut path = Vec::with_capacity(2);
        path.push(first);
        while more(self) {
            self.pos += 1;
            path.extend(self.ident());
        }
        path.shrink_to_fit();
        Some(path)
    }

    /// `open (elem ("," elem)* ","?)? close`: chumsky's
    /// `separated_by(",").allow_trailing()` between delimiters. An element
    /// that starts but fails gives up the whole parse.
    fn list<T>(
        &mut self,
        open: &str,
        close: &str,
        mut elem: impl FnMut(&mut Self) -> Option<T>,
        starts: impl Fn(&Self) -> bool,
    ) -> Option<Vec<T>> {
        self.punct(open)?;
        let mut out = Gather::default();
        while !self.at_punct(close) {
            if !starts(self) {
                return None;
            }
            out.push(elem(self)?);
            if self.punct(",").is_none() {
                break;
            }
        }
        self.punct(close)?;
        Some(out.finish())
    }

    // ---- items ----

    fn item_kind(&mut self) -> Option<ItemKind> {
        let Some(Tok::Kw(k)) = self.peek() else {
            return if self.at_punct("@") { self.attributed_item() } else { None };
        };
        match k {
            Keyword::Use => self.use_item(),
            Keyword::Newtype => {
                self.pos += 1;
                let name = self.ident()?;
                self.punct("=")?;
                Some(ItemKind::Newtype { name, underlying: self.type_expr()? })
            }
            Keyword::Record => {
                self.pos += 1;
                let name = self.ident()?;
                let (fields, open) = self.field_decls()?;
                Some(ItemKind::Record(RecordDecl { name, fields, open, json_case: None }))
            }
            Keyword::Enum => {
                self.pos += 1;
                let name = self.ident()?;
                let variants = self.list("{", "}", Self::variant, |p| matches!(p.peek(), Some(Tok::Ident(_))))?;
                Some(ItemKind::Enum { name, variants })
            }
            Keyword::Refusal => {
                self.pos += 1;
                let name = self.ident()?;
                Some(ItemKind::Refusal { name, summary: self.plain_text()? })
            }
            Keyword::Fact => {
                self.pos += 1;
                let name = self.ident()?;
                self.punct(":")?;
                let ty = self.type_expr()?;
                self.punct("=")?;
                Some(ItemKind::Fact { name, ty, init: self.expr(true)? })
            }
            Keyword::Fn => self.fn_item(),
            Keyword::Witness => self.witness(),
            Keyword::Frontier => {
                self.pos += 1;
                let name = self.ident()?;
                self.punct("{")?;
                let text = self.text()?;
                let condition = if self.kw(Keyword::Dissolves).is_some() {
                    self.kw(Keyword::When)?;
                    Some(self.expr(false)?)
                } else {
                    None
                };
                self.punct("}")?;
                Some(ItemKind::Frontier { name, text, condition })
            }
            _ => None,
        }
    }

    fn use_item(&mut self) -> Option<ItemKind> {
        self.kw(Keyword::Use)?;
        let path = self.path()?;
        let selection = if self.punct(".").is_some() {
            Some(self.list("{", "}", Self::ident, |p| matches!(p.peek(), Some(Tok::Ident(_))))?)
        } else {
            None
        };
        Some(ItemKind::Use(UseDecl { path, selection }))
    }

    /// `{ field, .., }` of a record or variant; `true` if it has `..`.
    fn field_decls(&mut self) -> Option<(Vec<FieldDecl>, bool)> {
        let starts = |p: &Self| matches!(p.peek(), Some(Tok::Ident(_))) || p.at_punct("@") || p.at_punct("..");
        let fields = self.list("{", "}", Self::field_decl, starts)?;
        let open = fields.iter().any(Option::is_none);
        Some((fields.into_iter().flatten().collect(), open))
    }

    fn field_decl(&mut self) -> Option<Option<FieldDecl>> {
        if self.punct("..").is_some() {
            return Some(None);
        }
        let json_key = if self.punct("@").is_some() {
            // Any other attribute is an error chumsky reports.
            if self.ident()?.name != "json" {
                return None;
            }
            self.punct("(")?;
            let key = self.plain_text()?;
            self.punct(")")?;
            Some(key)
        } else {
            None
        };
        let name = self.ident()?;
        self.punct(":")?;
        Some(Some(FieldDecl { name, ty: self.type_expr()?, json_key }))
    }

    fn variant(&mut self) -> Option<VariantDecl> {
        let name = self.ident()?;
        let fields = if self.at_punct("{") { Some(self.field_decls()?.0) } else { None };
        Some(VariantDecl { name, fields })
    }

    /// An item after `@`: `@json(camelCase) record …`, or `@world fn …`.
    /// Any other attribute is an error chumsky reports.
    fn attributed_item(&mut self) -> Option<ItemKind> {
        // Read once, never again: the descent takes names out of the
        // tokens as it reads them.
        self.punct("@")?;
        let attr = self.ident()?;
        if !self.at_punct("(") {
            return self.fn_rest(Some(attr));
        }
        self.punct("(")?;
        let case = self.ident()?;
        self.punct(")")?;
        if attr.name != "json" {
            return None;
        }
        self.kw(Keyword::Record)?;
        let name = self.ident()?;
        let (fields, open) = self.field_decls()?;
        Some(ItemKind::Record(RecordDecl { name, fields, open, json_case: Some(case) }))
    }

    fn fn_item(&mut self) -> Option<ItemKind> {
        self.fn_rest(None)
    }

    /// `fn …` after its attribute, if it has one.
    fn fn_rest(&mut self, attribute: Option<Ident>) -> Option<ItemKind> {
        self.kw(Keyword::Fn)?;
        let name = self.ident()?;
        let params = self.list(
            "(",
            ")",
            |p| {
                let name = p.ident()?;
                p.punct(":")?;
                Some(Param { name, ty: p.type_expr()? })
            },
            |p| matches!(p.peek(), Some(Tok::Ident(_))),
        )?;
        self.punct("->")?;
        let ret = self.type_expr()?;
        let body = if self.at_punct("{") { Some(self.block()?) } else { None };
        Some(ItemKind::Fn(Box::new(FnDecl { name, params, ret, body, attribute })))
    }

    fn witness(&mut self) -> Option<ItemKind> {
        self.kw(Keyword::Witness)?;
        let name = self.ident()?;
        self.punct("{")?;
        let mut stmts = Gather::default();
        while !self.at_punct("}") {
            let start = self.pos;
            let kind = match self.peek()? {
                Tok::Kw(Keyword::Let) => {
                    let (name, ty, value) = self.let_binding()?;
                    WitnessStmtKind::Let { name, ty: ty.map(Box::new), value }
                }
                Tok::Kw(Keyword::Holds) => {
                    self.pos += 1;
                    WitnessStmtKind::Holds(self.expr(true)?)
                }
                Tok::Kw(Keyword::Refuses) => {
                    self.pos += 1;
                    let expr = self.expr(true)?;
                    self.kw(Keyword::With)?;
                    WitnessStmtKind::Refuses { expr, code: self.ident()? }
                }
                _ => return None,
            };
            stmts.push(WitnessStmt { kind, span: self.span_from(start) });
            let _ = self.punct(";");
        }
        self.punct("}")?;
        Some(ItemKind::Witness { name, stmts: stmts.finish() })
    }

    /// `let name (: type)? = value`, in a witness or a block.
    fn let_binding(&mut self) -> Option<(Ident, Option<TypeExpr>, crate::ast::Expr)> {
        self.kw(Keyword::Let)?;
        let name = self.ident()?;
        let ty = if self.punct(":").is_some() { Some(self.type_expr()?) } else { None };
        self.punct("=")?;
        Some((name, ty, self.expr(true)?))
    }

    // ---- types ----

    fn type_expr(&mut self) -> Option<TypeExpr> {
        self.deeper()?;
        let start = self.pos;
        let path = self.path()?;
        let args = if self.at_punct("<") {
            self.list("<", ">", Self::type_expr, |p| matches!(p.peek(), Some(Tok::Ident(_))))?
        } else {
            Vec::new()
        };
        self.depth -= 1;
        Some(TypeExpr { kind: TypeExprKind::Named { path, args }, span: self.span_from(start) })
    }
}

/// A list gathered element by element, allocated once at its size where
/// it has one element (most of a program's lists: a call's arguments, a
/// witness's statements): the first is held aside until a second comes.
/// Pushed into a `Vec` from the start, a list of one had room for four
/// and was shrunk, a second allocation.
pub(super) struct Gather<T> {
    first: Option<T>,
    rest: Vec<T>,
}

impl<T> Default for Gather<T> {
    fn default() -> Self {
        Gather { first: None, rest: Vec::new() }
    }
}

impl<T> Gather<T> {
    pub(super) fn push(&mut self, e: T) {
        match self.first.take() {
            None if self.rest.is_empty() => self.first = Some(e),
            Some(f) => {
                self.rest.reserve(4);
                self.rest.push(f);
                self.rest.push(e);
            }
            None => self.rest.push(e),
        }
    }

    /// The list, no larger than its elements (shrunk where it grew).
    pub(super) fn finish(self) -> Vec<T> {
        match self.first {
            Some(f) => vec![f],
            None => {
                let mut v = self.rest;
                v.shrink_to_fit();
                v
            }
        }
    }
}
