//! The `evaluate` target's checks on programs that type-check: the input
//! bytes drive a generator of well-typed modules, so every execution
//! reaches the evaluator — byte mutations of source keep only ~2% of
//! programs well-typed. A module declares a record, an enum, a newtype and
//! a refusal code, then functions, facts, witnesses and frontiers over
//! Int, Text, Bool, Duration, Sha256, lists, options and those types,
//! built from every operator, the text, digest and duration built-ins,
//! comprehensions, `if`, `match` (on variants, options, lists, literals),
//! `is`, blocks with `let` and `require`, and `refuse`. Then: every fact,
//! every witness with the call memo and again traced (which must agree,
//! unless one ran out of time), every frontier. Nothing may panic, hang or
//! exceed memory. Then the formatter: the formatted program parses to the
//! same tree, formats to itself, and runs to the same verdicts.
//!
//! `CLAIM_FUZZ_SHOW=1` prints each program and its diagnostics (to check
//! the generator: a program it makes should compile).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::fmt::Write;

#[path = "shared.rs"]
mod shared;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum T {
    Int,
    Text,
    Bool,
    Ints,
    Texts,
    Digest,
    Dur,
    Opt,
    Rec,
    En,
    Nt,
}

impl T {
    const ALL: [T; 11] = [T::Int, T::Text, T::Bool, T::Ints, T::Texts, T::Digest, T::Dur, T::Opt, T::Rec, T::En, T::Nt];
    fn name(self) -> &'static str {
        match self {
            T::Int => "Int",
            T::Text => "Text",
            T::Bool => "Bool",
            T::Ints => "List<Int>",
            T::Texts => "List<Text>",
            T::Digest => "Sha256",
            T::Dur => "Duration",
            T::Opt => "Option<Int>",
            T::Rec => "R",
            T::En => "E",
            T::Nt => "N",
        }
    }
}

/// Declared by every generated module, for the types above.
const PRELUDE: &str = "record R { n: Int, s: Text }
enum E { A, B { n: Int }, C { s: Text } }
newtype N = Int
refusal Bad \"a generated refusal\"
fn nothing() -> Option<Int> { None }
";

const INTS: [&str; 9] = ["0", "1", "2", "7", "42", "(0 - 3)", "1000000", "9223372036854775807", "4611686018427387904"];
const TEXTS: [&str; 8] =
    ["\"\"", "\"a\"", "\"é\"", "\"x\\\"y\"", "\"日本\"", "\"tree:\"", "\"a,b,,c\"", "\"sha256:00\""];
const DIGESTS: [&str; 2] = [
    "sha256:0000000000000000000000000000000000000000000000000000000000000000",
    "sha256:d4d4713a061e0d8dff56f05befcdd446a64e92f1af35917a504b4a195600374f",
];
const DURATIONS: [&str; 7] = ["0ms", "1ms", "90s", "5min", "3h", "2d", "106751991167d"];

/// What a generated expression may name: locals and parameters in scope,
/// facts and functions declared before it.
struct Gen<'a> {
    data: &'a [u8],
    at: usize,
    fresh: usize,
    facts: Vec<(String, T)>,
    fns: Vec<(String, Vec<T>, T)>,
}

type Locals = [(String, T)];

impl Gen<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn pick(&mut self, n: usize) -> usize {
        self.byte() as usize % n
    }
    fn name(&mut self, stem: &str) -> String {
        self.fresh += 1;
        format!("{stem}{}", self.fresh)
    }
    fn with(locals: &Locals, name: &str, t: T) -> Vec<(String, T)> {
        let mut inner = locals.to_vec();
        inner.push((name.to_string(), t));
        inner
    }

    /// A name of type `t` in scope (a local or a fact), if there is one.
    fn named(&mut self, t: T, locals: &Locals) -> Option<String> {
        let all: Vec<String> =
            locals.iter().chain(self.facts.iter()).filter(|(_, u)| *u == t).map(|(n, _)| n.clone()).collect();
        if all.is_empty() {
            return None;
        }
        let i = self.pick(all.len());
        all.into_iter().nth(i)
    }

    fn call(&mut self, t: T, depth: u32, locals: &Locals) -> Option<String> {
        let fns: Vec<(String, Vec<T>)> =
            self.fns.iter().filter(|(_, _, r)| *r == t).map(|(n, p, _)| (n.clone(), p.clone())).collect();
        if fns.is_empty() {
            return None;
        }
        let (f, params) = fns[self.pick(fns.len())].clone();
        let args: Vec<String> = params.iter().map(|p| self.expr(*p, depth, locals)).collect();
        Some(format!("{f}({})", args.join(", ")))
    }

    fn leaf(&mut self, t: T) -> String {
        match t {
            T::Int => INTS[self.pick(INTS.len())].to_string(),
            T::Text => TEXTS[self.pick(TEXTS.len())].to_string(),
            T::Bool => ["true", "false"][self.pick(2)].to_string(),
            T::Ints => format!("[{}]", INTS[self.pick(INTS.len())]),
            T::Texts => format!("[{}]", TEXTS[self.pick(TEXTS.len())]),
            T::Digest => DIGESTS[self.pick(DIGESTS.len())].to_string(),
            T::Dur => DURATIONS[self.pick(DURATIONS.len())].to_string(),
            T::Opt => ["nothing()", "Some(0)", "Some(7)"][self.pick(3)].to_string(),
            T::Rec => format!("R {{ n: {}, s: {} }}", self.leaf(T::Int), self.leaf(T::Text)),
            T::En => match self.pick(3) {
                0 => "E.A".to_string(),
                1 => format!("E.B {{ n: {} }}", self.leaf(T::Int)),
                _ => format!("E.C {{ s: {} }}", self.leaf(T::Text)),
            },
            T::Nt => format!("N({})", self.leaf(T::Int)),
        }
    }

    /// Forms that make a value of any type: `if`, a block with `let` and
    /// `require`, a `match` on a variant, a refusal in one branch.
    fn any(&mut self, t: T, d: u32, locals: &Locals) -> String {
        match self.pick(5) {
            0 => format!(
                "(if {} then {} else {})",
                self.expr(T::Bool, d, locals),
                self.expr(t, d, locals),
                self.expr(t, d, locals)
            ),
            1 => {
                let (v, vt) = (self.name("v"), self.ty());
                let init = self.expr(vt, d, locals);
                let inner = Self::with(locals, &v, vt);
                let cond = self.expr(T::Bool, d, &inner);
                let msg = self.expr(T::Text, d, &inner);
                let result = self.expr(t, d, &inner);
                format!("{{ let {v} = {init}; require {cond} else refuse Bad \"{{{v}}}: {{ {msg} }}\"; {result} }}")
            }
            2 => {
                let (n, s) = (self.name("n"), self.name("s"));
                let scrutinee = self.expr(T::En, d, locals);
                let a = self.expr(t, d, locals);
                let b = self.expr(t, d, &Self::with(locals, &n, T::Int));
                let c = self.expr(t, d, &Self::with(locals, &s, T::Text));
                format!("(match ({scrutinee}) {{ A => {a}, B {{ n: {n} }} => {b}, C {{ s: {s} }} => {c} }})")
            }
            3 => format!(
                "(if {} then {} else refuse Bad \"no\")",
                self.expr(T::Bool, d, locals),
                self.expr(t, d, locals)
            ),
            _ => {
                let (x, rest) = (self.name("x"), self.name("xs"));
                let scrutinee = self.expr(T::Ints, d, locals);
                let empty = self.expr(t, d, locals);
                let one = self.expr(t, d, &Self::with(locals, &x, T::Int));
                let more = self.expr(t, d, &Self::with(locals, &rest, T::Ints));
                format!("(match ({scrutinee}) {{ [] => {empty}, [{x}] => {one}, {rest} => {more} }})")
            }
        }
    }

    fn expr(&mut self, t: T, depth: u32, locals: &Locals) -> String {
        let d = depth.saturating_sub(1);
        let choice = if depth == 0 { self.pick(2) } else { self.pick(14) };
        if choice == 1 {
            if let Some(n) = self.named(t, locals) {
                return n;
            }
        }
        if choice == 11 {
            if let Some(c) = self.call(t, d, locals) {
                return c;
            }
        }
        if choice <= 1 || choice == 11 {
            return self.leaf(t);
        }
        if choice >= 12 {
            return self.any(t, d, locals);
        }
        macro_rules! e {
            ($t:expr) => {
                self.expr($t, d, locals)
            };
        }
        match (t, choice) {
            (T::Int, 2) => format!("({} + {})", e!(T::Int), e!(T::Int)),
            (T::Int, 3) => format!("({} - {})", e!(T::Int), e!(T::Int)),
            (T::Int, 4) => format!("({} * {})", e!(T::Int), e!(T::Int)),
            (T::Int, 5) => format!("({} / {})", e!(T::Int), e!(T::Int)),
            (T::Int, 6) => format!("len({})", e!(T::Ints)),
            (T::Int, 7) => format!("len({})", e!(T::Text)),
            (T::Int, 8) => format!("sum({})", e!(T::Ints)),
            (T::Int, 9) => match self.pick(6) {
                0 => format!("count([{}, {}])", self.expr(T::Bool, d, locals), self.expr(T::Bool, d, locals)),
                1 => format!("{}.n", self.expr(T::Rec, d, locals)),
                2 => format!("raw({})", self.expr(T::Nt, d, locals)),
                3 => format!("seconds({})", self.expr(T::Dur, d, locals)),
                4 => format!("minutes({})", self.expr(T::Dur, d, locals)),
                _ => format!("hours({})", self.expr(T::Dur, d, locals)),
            },
            (T::Int, _) => {
                let x = self.name("x");
                let o = self.expr(T::Opt, d, locals);
                let some = self.expr(T::Int, d, &Self::with(locals, &x, T::Int));
                let none = self.expr(T::Int, d, locals);
                format!("(match ({o}) {{ Some({x}) => {some}, None => {none} }})")
            }
            (T::Text, 2) => format!("({} ++ {})", e!(T::Text), e!(T::Text)),
            (T::Text, 3) => format!("take({}, {})", e!(T::Text), e!(T::Int)),
            (T::Text, 4) => format!("hex({})", e!(T::Digest)),
            (T::Text, 5) => format!("text({})", e!(T::Int)),
            (T::Text, 6) => format!("\"<{{ {} }}|{{ {} }}>\"", e!(T::Int), e!(T::Text)),
            (T::Text, 7) => format!("join({}, {})", e!(T::Texts), e!(T::Text)),
            (T::Text, 8) => {
                let u = T::ALL[self.pick(T::ALL.len())];
                format!("text({})", self.expr(u, d, locals))
            }
            (T::Text, 9) => format!("{}.s", e!(T::Rec)),
            (T::Text, _) => {
                let s = e!(T::Text);
                let (a, b) = (e!(T::Text), e!(T::Text));
                format!("(match ({s}) {{ \"a\" => {a}, \"\" => \"empty\", _ => {b} }})")
            }
            (T::Bool, 2) => format!("({} == {})", e!(T::Int), e!(T::Int)),
            (T::Bool, 3) => format!("({} < {})", e!(T::Text), e!(T::Text)),
            (T::Bool, 4) => format!("starts_with({}, {})", e!(T::Text), e!(T::Text)),
            (T::Bool, 5) => format!("contains({}, {})", e!(T::Text), e!(T::Text)),
            (T::Bool, 6) => {
                let f = ["all", "any"][self.pick(2)];
                format!("{f}([{}, {}])", self.expr(T::Bool, d, locals), self.expr(T::Bool, d, locals))
            }
            (T::Bool, 7) => format!("(not {})", e!(T::Bool)),
            (T::Bool, 8) => {
                let op = ["and", "or"][self.pick(2)];
                format!("({} {op} {})", self.expr(T::Bool, d, locals), self.expr(T::Bool, d, locals))
            }
            (T::Bool, 9) => {
                let u = T::ALL[self.pick(T::ALL.len())];
                let op = ["==", "!="][self.pick(2)];
                format!("({} {op} {})", self.expr(u, d, locals), self.expr(u, d, locals))
            }
            (T::Bool, _) => match self.pick(6) {
                0 => format!("({} is Some(_))", self.expr(T::Opt, d, locals)),
                1 => format!("({} is B {{ .. }})", self.expr(T::En, d, locals)),
                2 => format!("({} is [_, _])", self.expr(T::Ints, d, locals)),
                3 => format!("({} <= {})", self.expr(T::Dur, d, locals), self.expr(T::Dur, d, locals)),
                4 => format!("({} > {})", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
                _ => format!("({} is Some(7))", self.expr(T::Opt, d, locals)),
            },
            (T::Ints, 2 | 3) => format!("({} ++ {})", e!(T::Ints), e!(T::Ints)),
            (T::Ints, 4 | 5) => {
                let x = self.name("x");
                let inner = Self::with(locals, &x, T::Int);
                let src = self.expr(T::Ints, d, locals);
                let elem = self.expr(T::Int, d, &inner);
                let cond = self.expr(T::Bool, d, &inner);
                format!("[{elem} for {x} in {src} if {cond}]")
            }
            (T::Ints, 6) => {
                let y = self.name("y");
                format!("[len({y}) for {y} in {}]", e!(T::Texts))
            }
            (T::Ints, 7) => {
                let r = self.name("r");
                format!("[{r}.n for {r} in [{}, {}]]", e!(T::Rec), e!(T::Rec))
            }
            (T::Ints, _) => format!("[{}, {}]", e!(T::Int), e!(T::Int)),
            (T::Texts, 2 | 3) => format!("split({}, {})", e!(T::Text), e!(T::Text)),
            (T::Texts, 4) => format!("({} ++ {})", e!(T::Texts), e!(T::Texts)),
            (T::Texts, 5 | 6) => {
                let x = self.name("x");
                let src = self.expr(T::Texts, d, locals);
                let elem = self.expr(T::Text, d, &Self::with(locals, &x, T::Text));
                format!("[{elem} for {x} in {src}]")
            }
            (T::Texts, _) => format!("[{}, {}]", e!(T::Text), e!(T::Text)),
            (T::Digest, 2..=4) => format!("sha256({})", e!(T::Text)),
            (T::Digest, 5..=7) => format!("fold_sha256({}, {})", e!(T::Text), e!(T::Texts)),
            (T::Digest, _) => format!("parse_sha256({})", e!(T::Text)),
            (T::Dur, 2..=4) => format!("({} + {})", e!(T::Dur), e!(T::Dur)),
            (T::Dur, 5 | 6) => format!("({} - {})", e!(T::Dur), e!(T::Dur)),
            (T::Dur, 7 | 8) => format!("({} * {})", e!(T::Dur), e!(T::Int)),
            (T::Dur, _) => format!("({} * {})", e!(T::Int), e!(T::Dur)),
            (T::Opt, 2..=5) => format!("Some({})", e!(T::Int)),
            (T::Opt, _) => {
                let x = self.name("x");
                let o = self.expr(T::Opt, d, locals);
                let some = self.expr(T::Int, d, &Self::with(locals, &x, T::Int));
                format!("(match ({o}) {{ Some({x}) => Some({some}), None => nothing() }})")
            }
            (T::Rec, _) => format!("R {{ s: {}, n: {} }}", e!(T::Text), e!(T::Int)),
            (T::En, 2..=4) => format!("E.B {{ n: {} }}", e!(T::Int)),
            (T::En, 5..=7) => format!("E.C {{ s: {} }}", e!(T::Text)),
            (T::En, _) => "E.A".to_string(),
            (T::Nt, _) => format!("N({})", e!(T::Int)),
        }
    }

    fn ty(&mut self) -> T {
        T::ALL[self.pick(T::ALL.len())]
    }

    fn witness_stmt(&mut self, depth: u32, locals: &mut Vec<(String, T)>) -> String {
        match self.pick(5) {
            0 => format!("refuses {} with Overflow", self.expr(T::Int, depth, locals)),
            1 => {
                let t = self.ty();
                format!("refuses {} with Bad", self.expr(t, depth, locals))
            }
            2 => format!("refuses {} with MalformedDigest", self.expr(T::Digest, depth, locals)),
            3 => {
                let v = self.name("v");
                let t = self.ty();
                let e = self.expr(t, depth, locals);
                locals.push((v.clone(), t));
                format!("let {v} = {e}")
            }
            _ => format!("holds {}", self.expr(T::Bool, depth, locals)),
        }
    }

    fn program(&mut self) -> String {
        let mut out = PRELUDE.to_string();
        let items = 1 + self.pick(8);
        for _ in 0..items {
            match self.pick(4) {
                0 => {
                    let f = self.name("f");
                    let params: Vec<(String, T)> = (0..self.pick(3)).map(|_| (self.name("p"), self.ty())).collect();
                    let ret = self.ty();
                    let depth = 1 + self.pick(4) as u32;
                    let body = self.expr(ret, depth, &params);
                    let sig: Vec<String> = params.iter().map(|(n, t)| format!("{n}: {}", t.name())).collect();
                    let _ = writeln!(out, "fn {f}({}) -> {} {{ {body} }}", sig.join(", "), ret.name());
                    self.fns.push((f, params.iter().map(|(_, t)| *t).collect(), ret));
                }
                1 => {
                    let g = self.name("g");
                    let t = self.ty();
                    let depth = 1 + self.pick(4) as u32;
                    let e = self.expr(t, depth, &[]);
                    let _ = writeln!(out, "fact {g}: {} = {e}", t.name());
                    self.facts.push((g, t));
                }
                2 => {
                    let w = self.name("w");
                    let depth = 1 + self.pick(5) as u32;
                    let mut locals = Vec::new();
                    let stmts: Vec<String> =
                        (0..1 + self.pick(3)).map(|_| self.witness_stmt(depth, &mut locals)).collect();
                    let _ = writeln!(out, "witness {w} {{\n  {}\n}}", stmts.join("\n  "));
                }
                _ => {
                    let fr = self.name("fr");
                    let depth = 1 + self.pick(4) as u32;
                    let when = if self.pick(4) == 0 {
                        String::new()
                    } else {
                        format!("\n  dissolves when {}", self.expr(T::Bool, depth, &[]))
                    };
                    let _ = writeln!(out, "frontier {fr} {{\n  \"a generated gap\"{when}\n}}");
                }
            }
        }
        out
    }
}

fuzz_target!(|data: &[u8]| {
    let text = Gen { data, at: 0, fresh: 0, facts: Vec::new(), fns: Vec::new() }.program();
    let before = shared::with_compiled(text.clone(), |db, program, compiled| {
        if std::env::var_os("CLAIM_FUZZ_SHOW").is_some() {
            let errors: Vec<String> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            eprintln!("----\n{text}{}", errors.join("\n"));
        }
        shared::evaluate_all(db, program, compiled)
    });
    // The formatter keeps the program: the formatted text parses to the
    // same tree, formats to itself, and runs to the same verdicts (those
    // that finished both times).
    let Ok(formatted) = claim_fmt::format_source(&text) else { return };
    assert!(
        claim_syntax::parse_module(&formatted).errors.is_empty(),
        "the formatted text does not parse:\n{formatted}"
    );
    assert_eq!(
        claim_fmt::tree_shape(&text),
        claim_fmt::tree_shape(&formatted),
        "formatting changed the program:\n{formatted}"
    );
    assert_eq!(claim_fmt::format_source(&formatted).ok().as_ref(), Some(&formatted), "formatting is not idempotent");
    let after: std::collections::BTreeMap<String, Option<String>> =
        shared::with_compiled(formatted.clone(), shared::evaluate_all).into_iter().collect();
    if std::env::var_os("CLAIM_FUZZ_SHOW").is_some() {
        let same = before.iter().filter(|(n, v)| after.get(n) == Some(v)).count();
        eprintln!(
            "formatted: {} bytes (was {}); verdicts {} of {} the same",
            formatted.len(),
            text.len(),
            same,
            before.len()
        );
    }
    for (name, verdict) in before {
        if let Some(again) = after.get(&name) {
            assert_eq!(&verdict, again, "`{name}` changed when formatted:\n{text}\n----\n{formatted}");
        }
    }
});
