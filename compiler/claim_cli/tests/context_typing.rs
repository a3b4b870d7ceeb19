//! Context-typed literals (digest literals, `[]`, `None`, bare variants)
//! take their type from where they stand (§4 "Types flow both ways"). A
//! type settled one way on one path and another way on another gave wrong
//! verdicts: a list of `if` branches holding digest literals did not match
//! `[a]`, and `[]` did not take its type from the other operand of `==`.
//!
//! Two generated tests hold the class down, each with its verdicts computed
//! here, by a model of the values, and asserted witness by witness:
//! - a matrix: every context-typed form × every position that gives or takes
//!   a type × every consumer, one witness a cell;
//! - a property: random compositions of those, each run as written and
//!   with every context-typed literal bound first by a typed `let`: both
//!   must pass, so the two give the same verdicts.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

#[derive(Clone, Debug, PartialEq)]
enum Ty {
    S256,
    S1,
    S512,
    /// `newtype Cfg = Sha256`
    Cfg,
    /// `enum Color { Red, Green }`
    Color,
    List(Box<Ty>),
    Opt(Box<Ty>),
}

impl Ty {
    fn text(&self) -> String {
        match self {
            Ty::S256 => "Sha256".into(),
            Ty::S1 => "Sha1".into(),
            Ty::S512 => "Sha512".into(),
            Ty::Cfg => "Cfg".into(),
            Ty::Color => "Color".into(),
            Ty::List(t) => format!("List<{}>", t.text()),
            Ty::Opt(t) => format!("Option<{}>", t.text()),
        }
    }
    /// A name for the helpers made for this type (`id_…`, `Holder…`).
    fn key(&self) -> String {
        self.text().replace('<', "_").replace('>', "")
    }
    /// The digest type a literal of this type is written as.
    fn digest(&self) -> Option<(&'static str, usize)> {
        match self {
            Ty::S256 | Ty::Cfg => Some(("sha256", 64)),
            Ty::S1 => Some(("sha1", 40)),
            Ty::S512 => Some(("sha512", 128)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum V {
    /// A digest: its hex is one digit repeated.
    Digest(&'static str, usize, u8),
    Color(bool),
    List(Vec<V>),
    Opt(Option<Box<V>>),
}

impl V {
    /// `text(v)`, as §4 renders it.
    fn text(&self) -> String {
        match self {
            V::Digest(kind, n, d) => format!("{kind}:{}", hex(*n, *d)),
            V::Color(red) => if *red { "Red" } else { "Green" }.into(),
            V::List(xs) => format!("[{}]", xs.iter().map(V::text).collect::<Vec<_>>().join(", ")),
            V::Opt(None) => "None".into(),
            V::Opt(Some(x)) => format!("Some({})", x.text()),
        }
    }
}

fn hex(n: usize, d: u8) -> String {
    std::iter::repeat_n(char::from_digit(d as u32, 16).unwrap_or('0'), n).collect()
}

/// How far an expression settles its own type, as the checker ranks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Typing {
    Needs,
    Defaults,
    Own,
}

/// A generated expression: its text as written, its text with every
/// context-typed literal replaced by a typed local, its value and typing.
#[derive(Clone, Debug)]
struct E {
    text: String,
    annotated: String,
    val: V,
    typing: Typing,
}

/// What a program needs besides its witnesses: a typed fact, an identity
/// function and a one-field record per type asked for.
#[derive(Default)]
struct Program {
    facts: Vec<String>,
    helpers: BTreeMap<String, String>,
    witnesses: Vec<(String, String)>,
    /// The typed lets of the witness being built.
    lets: Vec<String>,
    /// Literals bound so far (each `lit_N` once in a program).
    literals: usize,
}

/// A small deterministic generator (xorshift), so a failure reproduces.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

impl Program {
    /// A context-typed literal of `ty` holding `v`: written out, and bound
    /// by a typed let in the annotated twin.
    fn literal(&mut self, text: String, ty: &Ty, val: V, typing: Typing) -> E {
        let name = format!("lit_{}", self.literals);
        self.literals += 1;
        self.lets.push(format!("let {name}: {} = {text}", ty.text()));
        E { text, annotated: name, val, typing }
    }

    fn digest(&mut self, ty: &Ty, d: u8) -> E {
        let (kind, n) = ty.digest().unwrap_or(("sha256", 64));
        self.literal(format!("{kind}:{}", hex(n, d)), ty, V::Digest(kind, n, d), Typing::Defaults)
    }

    /// A value of `ty` written with types of its own (qualified variants,
    /// typed facts).
    fn typed(&mut self, ty: &Ty, val: &V) -> E {
        let text = self.spelled(ty, val);
        let name = format!("f{}", self.facts.len());
        self.facts.push(format!("fact {name}: {} = {text}", ty.text()));
        E { text: name.clone(), annotated: name, val: val.clone(), typing: Typing::Own }
    }

    /// How a value of `ty` is spelled where `ty` is known (a fact's value).
    fn spelled(&self, ty: &Ty, val: &V) -> String {
        match (ty, val) {
            (Ty::Color, V::Color(red)) => if *red { "Color.Red" } else { "Color.Green" }.into(),
            (Ty::List(t), V::List(xs)) => {
                format!("[{}]", xs.iter().map(|x| self.spelled(t, x)).collect::<Vec<_>>().join(", "))
            }
            (Ty::Opt(t), V::Opt(Some(x))) => format!("Some({})", self.spelled(t, x)),
            _ => val.text(),
        }
    }

    /// `id_T(e)`: a call argument, which gives `e` its type.
    fn call(&mut self, ty: &Ty, e: E) -> E {
        let t = ty.text();
        let f = format!("id_{}", ty.key().to_lowercase());
        self.helpers.insert(f.clone(), format!("fn {f}(x: {t}) -> {t} {{ x }}"));
        E { text: format!("{f}({})", e.text), annotated: format!("{f}({})", e.annotated), typing: Typing::Own, ..e }
    }

    /// `HolderT { v: e }.v`: a record field, which gives `e` its type.
    fn field(&mut self, ty: &Ty, e: E) -> E {
        let t = ty.text();
        let r = format!("Holder{}", ty.key().replace('_', ""));
        self.helpers.insert(r.clone(), format!("record {r} {{ v: {t} }}"));
        E {
            text: format!("{r} {{ v: {} }}.v", e.text),
            annotated: format!("{r} {{ v: {} }}.v", e.annotated),
            typing: Typing::Own,
            ..e
        }
    }
}

/// Siblings sharing one type: the strongest first among equals gives the
/// others their type, as the checker orders them; `ctx` is whether the
/// context gives one.
fn siblings_settle(items: &[&E], ctx: bool) -> bool {
    ctx || items.iter().map(|e| e.typing).max().is_some_and(|t| t > Typing::Needs)
}

/// Wraps `e` (a value of `ty`) in a position, with `other` a sibling of
/// the same type where the position has one. Returns the new expression
/// and its type.
fn position(p: &mut Program, pos: usize, ty: &Ty, e: E, other: E) -> (E, Ty) {
    let max = e.typing.max(other.typing);
    let join = |a: &E, b: &E, f: &dyn Fn(&str, &str) -> String| (f(&a.text, &b.text), f(&a.annotated, &b.annotated));
    let (text, annotated, val, t) = match pos {
        // `[e, other]` and `[other, e]`
        0 | 1 => {
            let (a, b) = if pos == 0 { (&e, &other) } else { (&other, &e) };
            let (t, an) = join(a, b, &|x, y| format!("[{x}, {y}]"));
            (t, an, V::List(vec![a.val.clone(), b.val.clone()]), Ty::List(Box::new(ty.clone())))
        }
        // `if true then e else other`, `if false then other else e`
        2 | 3 => {
            let (c, a, b) = if pos == 2 { ("true", &e, &other) } else { ("false", &other, &e) };
            let (t, an) = join(a, b, &|x, y| format!("(if {c} then {x} else {y})"));
            (t, an, e.val.clone(), ty.clone())
        }
        // `match 2 { 1 => other, _ => e }`
        4 => {
            let (t, an) = join(&other, &e, &|x, y| format!("(match 2 {{ 1 => {x}, _ => {y} }})"));
            (t, an, e.val.clone(), ty.clone())
        }
        // `Some(e)`
        5 => {
            let r = E {
                text: format!("Some({})", e.text),
                annotated: format!("Some({})", e.annotated),
                val: V::Opt(Some(Box::new(e.val.clone()))),
                typing: e.typing,
            };
            return (r, Ty::Opt(Box::new(ty.clone())));
        }
        // `[e for _i in [1, 2]]`
        6 => {
            let r = E {
                text: format!("[{} for _i in [1, 2]]", e.text),
                annotated: format!("[{} for _i in [1, 2]]", e.annotated),
                val: V::List(vec![e.val.clone(), e.val.clone()]),
                typing: e.typing,
            };
            return (r, Ty::List(Box::new(ty.clone())));
        }
        // `{ let _u = 1; e }`
        7 => {
            let r = E {
                text: format!("{{ let _u = 1; {} }}", e.text),
                annotated: format!("{{ let _u = 1; {} }}", e.annotated),
                ..e
            };
            return (r, ty.clone());
        }
        8 => return (p.call(ty, e), ty.clone()),
        _ => return (p.field(ty, e), ty.clone()),
    };
    (E { text, annotated, val, typing: max }, t)
}
const POSITIONS: usize = 10;
/// Positions where `e` has a sibling, which must settle the pair's type.
fn has_sibling(pos: usize) -> bool {
    pos <= 4
}

/// The consumers of a value `x` of `ty` that settles its own type: boolean
/// expressions, each with the verdict the model gives.
fn consumers(p: &mut Program, ty: &Ty, x: &E, rng: &mut Rng) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    let mut add = |t: String, a: String, want: bool| out.push((t, a, want));
    // `==` and `!=` against a value of the same type, on either side.
    let other = value(p, ty, rng, true, x.typing);
    let same = other.val == x.val;
    add(format!("{} == {}", x.text, other.text), format!("{} == {}", x.annotated, other.annotated), same);
    add(format!("{} != {}", x.text, other.text), format!("{} != {}", x.annotated, other.annotated), !same);
    if other.typing < x.typing {
        add(format!("{} == {}", other.text, x.text), format!("{} == {}", other.annotated, x.annotated), same);
    }
    let itself = p.typed(ty, &x.val);
    add(format!("{} == {}", x.text, itself.text), format!("{} == {}", x.annotated, itself.text), true);
    // `text()`
    let rendered = x.val.text();
    add(format!("text({}) == \"{rendered}\"", x.text), format!("text({}) == \"{rendered}\"", x.annotated), true);
    // Patterns, in `is` and in `match`.
    let pats: Vec<(String, bool)> = match (ty, &x.val) {
        (Ty::List(_), V::List(xs)) => vec![
            ("[]".into(), xs.is_empty()),
            ("[_]".into(), xs.len() == 1),
            ("[_, _]".into(), xs.len() == 2),
            ("[_, ..]".into(), !xs.is_empty()),
        ],
        (Ty::Opt(_), V::Opt(o)) => vec![("Some(_)".into(), o.is_some()), ("None".into(), o.is_none())],
        (Ty::Color, V::Color(red)) => vec![("Red".into(), *red), ("Green".into(), !*red)],
        (_, v @ V::Digest(kind, n, d)) => {
            vec![(v.text(), true), (format!("{kind}:{}", hex(*n, (d + 1) % 16)), false)]
        }
        _ => vec![],
    };
    for (pat, want) in pats {
        add(format!("({} is {pat})", x.text), format!("({} is {pat})", x.annotated), want);
        add(
            format!("match ({}) {{ {pat} => true, _ => false }}", x.text),
            format!("match ({}) {{ {pat} => true, _ => false }}", x.annotated),
            want,
        );
    }
    // A list pattern that binds, and `len`.
    if let (Ty::List(_), V::List(xs)) = (ty, &x.val) {
        let n = xs.len().min(2);
        let m = format!("{{ [] => 0, [a] => 1, [a, b, ..] => 2 }} == {n}");
        add(format!("match ({}) {m}", x.text), format!("match ({}) {m}", x.annotated), true);
        add(format!("len({}) == {}", x.text, xs.len()), format!("len({}) == {}", x.annotated, xs.len()), true);
    }
    out
}

/// A value of `ty`, at most as strong as `max`, that settles its own type
/// unless `ctx` gives it one; at random among the forms that can.
fn value(p: &mut Program, ty: &Ty, rng: &mut Rng, ctx: bool, max: Typing) -> E {
    leaf(p, ty, rng, ctx, max).unwrap_or_else(|| p.typed(ty, &sample(ty, rng)))
}

fn sample(ty: &Ty, rng: &mut Rng) -> V {
    match ty {
        Ty::Color => V::Color(rng.coin()),
        Ty::List(t) => V::List((0..rng.below(3)).map(|_| sample(t, rng)).collect()),
        Ty::Opt(t) => V::Opt(rng.coin().then(|| Box::new(sample(t, rng)))),
        t => {
            let (kind, n) = t.digest().unwrap_or(("sha256", 64));
            V::Digest(kind, n, rng.below(3) as u8)
        }
    }
}

/// A context-typed literal of `ty` where one can stand: a digest literal
/// (settling its digest type alone, a newtype only from context), `[]`,
/// `None`, a bare variant (only from context).
fn leaf(p: &mut Program, ty: &Ty, rng: &mut Rng, ctx: bool, max: Typing) -> Option<E> {
    match ty {
        Ty::Cfg if !ctx => None,
        t if t.digest().is_some() && max >= Typing::Defaults => Some(p.digest(ty, rng.below(3) as u8)),
        Ty::Color if ctx => {
            let red = rng.coin();
            Some(p.literal(if red { "Red" } else { "Green" }.into(), ty, V::Color(red), Typing::Needs))
        }
        Ty::List(_) if ctx => Some(p.literal("[]".into(), ty, V::List(vec![]), Typing::Needs)),
        Ty::Opt(_) if ctx => Some(p.literal("None".into(), ty, V::Opt(None), Typing::Needs)),
        _ => None,
    }
}

/// The forms of context-typed literal the matrix starts from.
fn forms() -> Vec<(&'static str, Ty)> {
    vec![
        ("sha256 literal", Ty::S256),
        ("sha1 literal", Ty::S1),
        ("sha512 literal", Ty::S512),
        ("digest literal into a newtype", Ty::Cfg),
        ("[]", Ty::List(Box::new(Ty::S1))),
        ("[] of a newtype", Ty::List(Box::new(Ty::Cfg))),
        ("None", Ty::Opt(Box::new(Ty::S256))),
        ("bare variant", Ty::Color),
    ]
}

impl Program {
    fn witness(&mut self, name: String, text: &str, want: bool) {
        let holds = if want { format!("holds {text}") } else { format!("holds not ({text})") };
        self.witnesses.push((name, holds));
    }

    fn witness_annotated(&mut self, name: String, text: &str, want: bool) {
        let lets = std::mem::take(&mut self.lets);
        let mut body = lets.join("\n  ");
        let holds = if want { format!("holds {text}") } else { format!("holds not ({text})") };
        body.push_str("\n  ");
        body.push_str(&holds);
        self.witnesses.push((name, body));
    }

    fn source(&self) -> String {
        let mut s = String::from("newtype Cfg = Sha256\nenum Color { Red, Green }\n");
        for h in self.helpers.values() {
            writeln!(s, "{h}").ok();
        }
        for f in &self.facts {
            writeln!(s, "{f}").ok();
        }
        for (name, body) in &self.witnesses {
            writeln!(s, "witness {name} {{\n  {body}\n}}").ok();
        }
        s
    }
}

/// Runs the program; the verdict of each witness by name.
fn verdicts(tag: &str, src: &str) -> (BTreeMap<String, bool>, String) {
    let dir = common::project_dir("ctx", tag, &[("main.claim", src)]);
    let (code, out) = common::batch_in(&dir);
    let mut v = BTreeMap::new();
    for line in out.lines() {
        if let Some(n) = line.strip_prefix("PASS ") {
            v.insert(n.to_string(), true);
        } else if let Some(n) = line.strip_prefix("FAIL ") {
            v.insert(n.to_string(), false);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    (v, format!("exit {code}\n{out}"))
}

/// Runs both programs and asserts that every witness passed in each: the
/// model's verdict is what each `holds` states.
fn assert_all_pass(tag: &str, p: &Program, cells: &[(String, String)]) {
    let src = p.source();
    let (v, out) = verdicts(tag, &src);
    let mut wrong = Vec::new();
    for (name, what) in cells {
        match v.get(name) {
            Some(true) => {}
            Some(false) => wrong.push(format!("FAIL {name}: {what}")),
            None => wrong.push(format!("no verdict for {name}: {what}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cells wrong:\n{}\n\nprogram:\n{src}\noutput (head):\n{}",
        wrong.len(),
        cells.len(),
        wrong.iter().take(20).cloned().collect::<Vec<_>>().join("\n"),
        out.lines().take(60).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn every_form_in_every_position_gives_the_modelled_verdict_to_every_consumer() {
    let mut p = Program::default();
    let mut rng = Rng(0x5eed_c0de);
    let mut cells = Vec::new();
    for (form, ty) in forms() {
        for pos in 0..POSITIONS {
            // The literal, and a sibling that settles the pair's type
            // where the literal cannot alone: a typed value, or a digest
            // literal of the same digest type.
            for sibling_typed in [true, false] {
                let Some(e) = leaf(&mut p, &ty, &mut rng, true, Typing::Own) else { continue };
                let other = if sibling_typed {
                    p.typed(&ty, &sample(&ty, &mut rng))
                } else {
                    match leaf(&mut p, &ty, &mut rng, false, Typing::Own) {
                        Some(o) => o,
                        None => continue,
                    }
                };
                let settles_alone = match pos {
                    _ if has_sibling(pos) => siblings_settle(&[&e, &other], false),
                    8 | 9 => true,
                    _ => e.typing > Typing::Needs && ty != Ty::Cfg,
                };
                if !settles_alone {
                    // `Some([])`, `[None for _i in …]`: no context gives
                    // one; a compile error, which the fixtures test.
                    p.lets.clear();
                    continue;
                }
                let (x, xty) = position(&mut p, pos, &ty, e, other);
                let mut lets = std::mem::take(&mut p.lets);
                for (i, (t, _, want)) in consumers(&mut p, &xty, &x, &mut rng).into_iter().enumerate() {
                    let name = format!("m{}_{}", cells.len(), i);
                    cells.push((
                        name.clone(),
                        format!("{form} at position {pos} (sibling typed: {sibling_typed}): {t}"),
                    ));
                    p.witness(name, &t, want);
                }
                lets.clear();
                p.lets.clear();
            }
        }
    }
    assert!(cells.len() > 500, "the matrix has {} cells", cells.len());
    assert_all_pass("matrix", &p, &cells);
}

/// Random compositions of positions, two or three deep, each as written and
/// with every context-typed literal bound by a typed `let` first.
#[test]
fn annotating_every_context_typed_literal_keeps_every_verdict() {
    let mut p = Program::default();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut cells = Vec::new();
    let forms = forms();
    let mut made = 0;
    while made < 400 {
        let (form, ty) = forms[rng.below(forms.len())].clone();
        let Some(mut x) = leaf(&mut p, &ty, &mut rng, true, Typing::Own) else { continue };
        let mut xty = ty.clone();
        let mut path = Vec::new();
        for _ in 0..2 + rng.below(2) {
            let pos = rng.below(POSITIONS);
            let other = value(&mut p, &xty, &mut rng, true, Typing::Own);
            path.push(pos);
            (x, xty) = position(&mut p, pos, &xty, x, other);
        }
        // The whole must settle its type alone to be consumed: where it
        // does not, give it one through a call.
        if x.typing == Typing::Needs || matches!(xty, Ty::Cfg) || contains_cfg(&xty) {
            x = p.call(&xty, x);
        }
        let lets = std::mem::take(&mut p.lets);
        let mut consumed = consumers(&mut p, &xty, &x, &mut rng);
        // Literals the consumers made (the other operand of `==`) are
        // bound too.
        let mut all_lets = lets;
        all_lets.append(&mut p.lets);
        let (t, annotated, want) = consumed.swap_remove(rng.below(consumed.len()));
        let what = format!("{form} through positions {path:?}: {t}");
        let name = format!("r{made}");
        p.witness(name.clone(), &t, want);
        cells.push((name, what.clone()));
        let twin = format!("r{made}_annotated");
        p.lets = all_lets;
        p.witness_annotated(twin.clone(), &annotated, want);
        cells.push((twin, format!("(annotated) {what}")));
        made += 1;
    }
    assert_all_pass("property", &p, &cells);
}

fn contains_cfg(t: &Ty) -> bool {
    match t {
        Ty::Cfg => true,
        Ty::List(x) | Ty::Opt(x) => contains_cfg(x),
        _ => false,
    }
}
