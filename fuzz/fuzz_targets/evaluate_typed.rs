//! The `evaluate` target's checks on programs that type-check: the input
//! bytes drive a generator of well-typed modules (functions, facts and
//! witnesses over Int, Text, Bool, lists and digests, built from every
//! operator and text and digest built-in), so every execution reaches the
//! evaluator — byte mutations of source keep only ~2% of programs
//! well-typed. Then: every fact, every witness with the call memo and
//! again traced (which must agree, unless one ran out of time), every
//! frontier. Nothing may panic, hang or exceed memory.
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
}

impl T {
    const ALL: [T; 6] = [T::Int, T::Text, T::Bool, T::Ints, T::Texts, T::Digest];
    fn name(self) -> &'static str {
        match self {
            T::Int => "Int",
            T::Text => "Text",
            T::Bool => "Bool",
            T::Ints => "List<Int>",
            T::Texts => "List<Text>",
            T::Digest => "Sha256",
        }
    }
}

const INTS: [&str; 8] = ["0", "1", "2", "7", "42", "1000000", "9223372036854775807", "4611686018427387904"];
const TEXTS: [&str; 8] = ["\"\"", "\"a\"", "\"é\"", "\"x\\\"y\"", "\"日本\"", "\"tree:\"", "\"a,b,,c\"", "\"sha256:00\""];
const DIGESTS: [&str; 2] = [
    "sha256:0000000000000000000000000000000000000000000000000000000000000000",
    "sha256:d4d4713a061e0d8dff56f05befcdd446a64e92f1af35917a504b4a195600374f",
];

/// What a generated expression may name: locals and parameters in scope,
/// facts and functions declared before it.
struct Gen<'a> {
    data: &'a [u8],
    at: usize,
    fresh: usize,
    facts: Vec<(String, T)>,
    fns: Vec<(String, Vec<T>, T)>,
}

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

    /// A name of type `t` in scope (a local or a fact), if there is one.
    fn named(&mut self, t: T, locals: &[(String, T)]) -> Option<String> {
        let all: Vec<String> =
            locals.iter().chain(self.facts.iter()).filter(|(_, u)| *u == t).map(|(n, _)| n.clone()).collect();
        if all.is_empty() {
            return None;
        }
        let i = self.pick(all.len());
        all.into_iter().nth(i)
    }

    fn call(&mut self, t: T, depth: u32, locals: &[(String, T)]) -> Option<String> {
        let fns: Vec<(String, Vec<T>)> =
            self.fns.iter().filter(|(_, _, r)| *r == t).map(|(n, p, _)| (n.clone(), p.clone())).collect();
        if fns.is_empty() {
            return None;
        }
        let (f, params) = fns[self.pick(fns.len())].clone();
        let args: Vec<String> = params.iter().map(|p| self.expr(*p, depth, locals)).collect();
        Some(format!("{f}({})", args.join(", ")))
    }

    fn expr(&mut self, t: T, depth: u32, locals: &[(String, T)]) -> String {
        let d = depth.saturating_sub(1);
        let choice = if depth == 0 { self.pick(2) } else { self.pick(12) };
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
        let leaf = choice <= 1 || choice == 11;
        match t {
            T::Int if leaf => INTS[self.pick(INTS.len())].to_string(),
            T::Int => match choice {
                2 => format!("({} + {})", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
                3 => format!("({} - {})", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
                4 => format!("({} * {})", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
                5 => format!("({} / {})", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
                6 => format!("len({})", self.expr(T::Ints, d, locals)),
                7 => format!("len({})", self.expr(T::Text, d, locals)),
                8 => format!("sum({})", self.expr(T::Ints, d, locals)),
                9 => format!("count([{}, {}])", self.expr(T::Bool, d, locals), self.expr(T::Bool, d, locals)),
                _ => format!(
                    "(if {} then {} else {})",
                    self.expr(T::Bool, d, locals),
                    self.expr(T::Int, d, locals),
                    self.expr(T::Int, d, locals)
                ),
            },
            T::Text if leaf => TEXTS[self.pick(TEXTS.len())].to_string(),
            T::Text => match choice {
                2 => format!("({} ++ {})", self.expr(T::Text, d, locals), self.expr(T::Text, d, locals)),
                3 => format!("take({}, {})", self.expr(T::Text, d, locals), self.expr(T::Int, d, locals)),
                4 => format!("hex({})", self.expr(T::Digest, d, locals)),
                5 => format!("text({})", self.expr(T::Int, d, locals)),
                6 => format!("\"<{{{}}}|{{{}}}>\"", self.expr(T::Int, d, locals), self.expr(T::Text, d, locals)),
                7 => format!("join({}, {})", self.expr(T::Texts, d, locals), self.expr(T::Text, d, locals)),
                8 => format!("text({})", self.expr(T::Ints, d, locals)),
                9 => format!("text({})", self.expr(T::Digest, d, locals)),
                _ => format!("\"{{{}}}\"", self.expr(T::Texts, d, locals)),
            },
            T::Bool if leaf => ["true", "false"][self.pick(2)].to_string(),
            T::Bool => match choice {
                2 => format!("({} == {})", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
                3 => format!("({} < {})", self.expr(T::Text, d, locals), self.expr(T::Text, d, locals)),
                4 => format!("starts_with({}, {})", self.expr(T::Text, d, locals), self.expr(T::Text, d, locals)),
                5 => format!("contains({}, {})", self.expr(T::Text, d, locals), self.expr(T::Text, d, locals)),
                6 => format!("all([{}, {}])", self.expr(T::Bool, d, locals), self.expr(T::Bool, d, locals)),
                7 => format!("(not {})", self.expr(T::Bool, d, locals)),
                8 => format!("({} and {})", self.expr(T::Bool, d, locals), self.expr(T::Bool, d, locals)),
                9 => format!("({} == {})", self.expr(T::Digest, d, locals), self.expr(T::Digest, d, locals)),
                _ => format!("({} == {})", self.expr(T::Ints, d, locals), self.expr(T::Ints, d, locals)),
            },
            T::Ints if leaf => format!("[{}]", INTS[self.pick(INTS.len())]),
            T::Ints => match choice {
                2 | 3 => format!("({} ++ {})", self.expr(T::Ints, d, locals), self.expr(T::Ints, d, locals)),
                4 | 5 => {
                    let x = self.name("x");
                    let mut inner = locals.to_vec();
                    inner.push((x.clone(), T::Int));
                    let src = self.expr(T::Ints, d, locals);
                    let elem = self.expr(T::Int, d, &inner);
                    let cond = self.expr(T::Bool, d, &inner);
                    format!("[{elem} for {x} in {src} if {cond}]")
                }
                6 => {
                    let y = self.name("y");
                    format!("[len({y}) for {y} in {}]", self.expr(T::Texts, d, locals))
                }
                _ => format!("[{}, {}]", self.expr(T::Int, d, locals), self.expr(T::Int, d, locals)),
            },
            T::Texts if leaf => format!("[{}]", TEXTS[self.pick(TEXTS.len())]),
            T::Texts => match choice {
                2 | 3 => format!("split({}, {})", self.expr(T::Text, d, locals), self.expr(T::Text, d, locals)),
                4 => format!("({} ++ {})", self.expr(T::Texts, d, locals), self.expr(T::Texts, d, locals)),
                5 | 6 => {
                    let x = self.name("x");
                    let mut inner = locals.to_vec();
                    inner.push((x.clone(), T::Text));
                    let src = self.expr(T::Texts, d, locals);
                    let elem = self.expr(T::Text, d, &inner);
                    format!("[{elem} for {x} in {src}]")
                }
                _ => format!("[{}, {}]", self.expr(T::Text, d, locals), self.expr(T::Text, d, locals)),
            },
            T::Digest if leaf => DIGESTS[self.pick(DIGESTS.len())].to_string(),
            T::Digest => match choice {
                2..=4 => format!("sha256({})", self.expr(T::Text, d, locals)),
                5..=7 => format!("fold_sha256({}, {})", self.expr(T::Text, d, locals), self.expr(T::Texts, d, locals)),
                _ => format!("parse_sha256({})", self.expr(T::Text, d, locals)),
            },
        }
    }

    fn ty(&mut self) -> T {
        T::ALL[self.pick(T::ALL.len())]
    }

    fn program(&mut self) -> String {
        let mut out = String::new();
        let items = 1 + self.pick(8);
        for _ in 0..items {
            match self.pick(3) {
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
                _ => {
                    let w = self.name("w");
                    let depth = 1 + self.pick(5) as u32;
                    let stmt = match self.pick(4) {
                        0 => format!("refuses {} with Overflow", self.expr(T::Int, depth, &[])),
                        1 => format!("refuses {} with MalformedDigest", self.expr(T::Digest, depth, &[])),
                        2 => {
                            let v = self.name("v");
                            let t = self.ty();
                            let e = self.expr(t, depth, &[]);
                            let check = self.expr(T::Bool, depth, &[(v.clone(), t)]);
                            format!("let {v} = {e}\n  holds {check}")
                        }
                        _ => format!("holds {}", self.expr(T::Bool, depth, &[])),
                    };
                    let _ = writeln!(out, "witness {w} {{\n  {stmt}\n}}");
                }
            }
        }
        out
    }
}

fuzz_target!(|data: &[u8]| {
    let text = Gen { data, at: 0, fresh: 0, facts: Vec::new(), fns: Vec::new() }.program();
    shared::with_compiled(text.clone(), |compiled| {
        if std::env::var_os("CLAIM_FUZZ_SHOW").is_some() {
            let errors: Vec<String> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.code, d.message))
                .collect();
            eprintln!("----\n{text}{}", errors.join("\n"));
        }
        shared::evaluate_all(compiled);
    });
});
