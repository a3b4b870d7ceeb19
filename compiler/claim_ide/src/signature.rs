//! Signature help: while a call's arguments are typed, the callee's
//! signature with the argument under the cursor. Read off the tokens
//! before the cursor, not the syntax tree: a call being typed does not
//! parse yet (`produced(candidate, ` has no `)`).

use claim_sema::{Db, Program, SourceFile};
use claim_syntax::token::{RawToken as P, Token};

/// A callee's signature, the byte ranges of its parameters in `label`, and
/// which one the cursor is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub label: String,
    pub params: Vec<(u32, u32)>,
    pub active: u32,
    /// Markdown: the doc comment, or a built-in's one line.
    pub docs: Option<String>,
}

/// The signature of the call whose arguments hold `offset`, if the callee
/// is a function or built-in in scope.
pub fn signature_help(db: &dyn Db, program: Program, file: SourceFile, offset: u32) -> Option<Signature> {
    let text = file.text(db);
    let before = text.get(..offset as usize)?;
    let lexed = claim_syntax::lexer::lex(before);
    let tokens = &lexed.tokens;
    // Back to the `(` that is still open, counting the commas between.
    let (mut depth, mut commas) = (0usize, 0u32);
    let mut open = None;
    for (i, (t, _)) in tokens.iter().enumerate().rev() {
        match t {
            Token::Punct(P::RParen | P::RBracket | P::RBrace) | Token::InterpClose => depth += 1,
            Token::Punct(P::LParen) if depth == 0 => {
                open = Some(i);
                break;
            }
            Token::Punct(P::LParen | P::LBracket | P::LBrace) | Token::InterpOpen => match depth.checked_sub(1) {
                Some(d) => depth = d,
                // An open list, record or text: not a call's argument.
                None => return None,
            },
            Token::Punct(P::Comma) if depth == 0 => commas += 1,
            // A statement's end: no call spans it.
            Token::Punct(P::Semi) if depth == 0 => return None,
            _ => {}
        }
    }
    let open = open?;
    let name = match tokens.get(open.checked_sub(1)?)? {
        (Token::Ident(n), _) => lexed.values.names.get(*n as usize)?.as_str(),
        _ => return None,
    };
    // `m.f(`: a function of an imported module.
    let token = |back: usize| open.checked_sub(back).and_then(|i| tokens.get(i));
    let module = match (token(3), token(2)) {
        (Some((Token::Ident(m), _)), Some((Token::Punct(P::Dot), _))) => {
            lexed.values.names.get(*m as usize).map(|m| m.as_str())
        }
        _ => None,
    };
    let mut sig = function(db, program, file, module, name).or_else(|| builtin(module, name))?;
    sig.active = commas.min(sig.params.len().saturating_sub(1) as u32);
    Some(sig)
}

fn function(db: &dyn Db, program: Program, file: SourceFile, module: Option<&str>, name: &str) -> Option<Signature> {
    let scope = claim_sema::scope::module_scope(db, program, file);
    let target = match module {
        Some(m) => claim_sema::ty::GlobalName::new(&scope.modules.get(m)?.0, name),
        None => scope.names.get(name).filter(|n| n.tag == claim_sema::index::ItemTag::Fn)?.target.clone(),
    };
    let owner = crate::module_file(db, program, &target.module)?;
    let sig = claim_sema::sigs::module_sigs(db, program, owner).fns.get(&target.name)?.clone();
    let mut label = format!("{}(", target.name);
    let mut params = Vec::new();
    for (i, (p, t)) in sig.params.iter().enumerate() {
        if i > 0 {
            label.push_str(", ");
        }
        let start = label.len() as u32;
        label.push_str(&format!("{p}: {t}"));
        params.push((start, label.len() as u32));
    }
    label.push_str(&format!(") -> {}", sig.ret));
    let docs = crate::item_named(&claim_sema::parse(db, owner).module.items, &target.name)
        .map(|i| i.docs.join("\n"))
        .filter(|d| !d.is_empty());
    Some(Signature { label, params, active: 0, docs })
}

fn builtin(module: Option<&str>, name: &str) -> Option<Signature> {
    if module.is_some() {
        return None;
    }
    let b = claim_sema::builtins::BUILTINS.iter().find(|b| b.name == name)?;
    let (label, doc) = (b.signature, b.doc);
    // The parameters are between the parentheses, split at the commas.
    let open = label.find('(')? + 1;
    let close = label.find(')')?;
    let mut params = Vec::new();
    let mut start = open;
    for (i, ch) in label[open..close].char_indices() {
        if ch == ',' {
            params.push((start as u32, (open + i) as u32));
            start = open + i + 2;
        }
    }
    if close > open {
        params.push((start as u32, close as u32));
    }
    Some(Signature { label: label.to_string(), params, active: 0, docs: Some(doc.to_string()) })
}
