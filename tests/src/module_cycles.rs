//! No module of a crate imports one that imports it back. Each crate's
//! modules are read from `compiler/*/src`; a module imports another where it
//! names it through `crate::` or `super::` (in a `use` tree or a path),
//! outside comments, text and its `#[cfg(test)]` module. A new cycle fails;
//! so does one listed in `KNOWN` that is gone (the list only shrinks).

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The cycles not yet taken apart, by crate: the modules of each. None is
/// left; a cycle to be tolerated for a while would be named here.
const KNOWN: &[(&str, &[&str])] = &[];

type Module = Vec<String>;

/// Every module of a crate's `src` (binaries apart), by its path.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, src: &Path, out: &mut BTreeMap<Module, PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                if path != src.join("bin") {
                    walk(&path, src, out);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).expect("under src").with_extension("");
            let mut parts: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            match parts.last().map(String::as_str) {
                Some("lib" | "main") if parts.len() == 1 => parts.clear(),
                Some("mod") => {
                    parts.pop();
                }
                _ => {}
            }
            out.insert(parts, path);
        }
    }
    let mut out = BTreeMap::new();
    walk(src, src, &mut out);
    out
}

/// The text without comments, text literals and the test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                out.push_str("\"\"");
            }
            // A char literal (`'"'`, `'{'`), not a lifetime (`'a`).
            '\'' => {
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    chars.next();
                    chars.next();
                    while chars.next().is_some_and(|c| c != '\'') {}
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                } else {
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// A token of a path or `use` tree.
#[derive(Debug, PartialEq)]
enum Tok {
    Ident(String),
    Sep,
    Open,
    Close,
    Comma,
    Other,
}

fn tokens(code: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(code[start..i].to_string()));
            continue;
        }
        out.push(match c {
            b':' if b.get(i + 1) == Some(&b':') => {
                i += 1;
                Tok::Sep
            }
            b'{' => Tok::Open,
            b'}' => Tok::Close,
            b',' => Tok::Comma,
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            _ => Tok::Other,
        });
        i += 1;
    }
    out
}

/// The paths a `use` tree or a path starting at `toks[*i]` names, each
/// after `prefix`.
fn tree(toks: &[Tok], i: &mut usize, prefix: Module, out: &mut Vec<Module>) {
    let mut path = prefix;
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(name)) => {
                if name == "super" {
                    path.pop();
                } else if name != "self" {
                    path.push(name.clone());
                }
                *i += 1;
                if toks.get(*i) == Some(&Tok::Sep) {
                    *i += 1;
                    continue;
                }
                out.push(path);
                return;
            }
            Some(Tok::Open) => {
                *i += 1;
                loop {
                    tree(toks, i, path.clone(), out);
                    match toks.get(*i) {
                        Some(Tok::Comma) => *i += 1,
                        Some(Tok::Close) => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                    if toks.get(*i) == Some(&Tok::Close) {
                        *i += 1;
                        return;
                    }
                }
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// The modules `module` names through `crate::` and `super::`.
fn imports(module: &Module, text: &str, all: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let toks = tokens(&code(text));
    let mut paths = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Tok::Ident(word) = t else { continue };
        if toks.get(i + 1) != Some(&Tok::Sep) || (i > 0 && toks[i - 1] == Tok::Sep) {
            continue;
        }
        let base = match word.as_str() {
            "crate" => Vec::new(),
            // `super` of `a::b` is `a`; of a crate's top module, the root.
            "super" => module[..module.len().saturating_sub(1)].to_vec(),
            _ => continue,
        };
        let mut j = i + 2;
        tree(&toks, &mut j, base, &mut paths);
    }
    let mut out = BTreeSet::new();
    for p in paths {
        // The longest prefix that is a module, other than the root and
        // the module itself.
        let found = (1..=p.len()).rev().map(|n| p[..n].to_vec()).find(|m| all.contains_key(m));
        if let Some(m) = found.filter(|m| m != module && !module.starts_with(m)) {
            out.insert(m);
        }
    }
    out
}

/// Each crate's cycles: the modules of each strongly connected part.
fn cycles() -> BTreeMap<(String, BTreeSet<String>), ()> {
    let compiler = Path::new(env!("CARGO_MANIFEST_DIR")).join("../compiler");
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir(&compiler).expect("compiler").flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let krate = entry.file_name().to_string_lossy().into_owned();
        let all = modules(&src);
        let mut graph = DiGraph::<Module, ()>::new();
        let nodes: BTreeMap<Module, _> = all.keys().map(|m| (m.clone(), graph.add_node(m.clone()))).collect();
        for (m, path) in &all {
            let text = std::fs::read_to_string(path).expect("read");
            for to in imports(m, &text, &all) {
                graph.add_edge(nodes[m], nodes[&to], ());
            }
        }
        for part in tarjan_scc(&graph) {
            if part.len() > 1 {
                let names = part.iter().map(|n| graph[*n].join("::")).collect();
                found.insert((krate.clone(), names), ());
            }
        }
    }
    found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let found = cycles();
    let known: BTreeMap<(String, BTreeSet<String>), ()> =
        KNOWN.iter().map(|(k, ms)| ((k.to_string(), ms.iter().map(|m| m.to_string()).collect()), ())).collect();
    let new: Vec<_> = found.keys().filter(|c| !known.contains_key(*c)).collect();
    let gone: Vec<_> = known.keys().filter(|c| !found.contains_key(*c)).collect();
    assert!(new.is_empty(), "modules that import each other (take the cycle apart): {new:?}");
    assert!(gone.is_empty(), "cycles taken apart: remove them from `KNOWN`: {gone:?}");
}

#[test]
fn the_reader_finds_what_a_module_names() {
    let all: BTreeMap<Module, PathBuf> = [vec![], vec!["a".into()], vec!["b".into()], vec!["b".into(), "c".into()]]
        .into_iter()
        .map(|m| (m, PathBuf::new()))
        .collect();
    let text = "use crate::{a::{X, Y}, b::c::Z};\n// crate::b::Other\nfn f() { let s = \"crate::a\"; super::b::g(); }\n#[cfg(test)]\nmod tests { use crate::a; }";
    let found = imports(&vec!["a".into()], text, &all);
    let names: Vec<String> = found.iter().map(|m| m.join("::")).collect();
    assert_eq!(names, ["b", "b::c"]);
    let up: Vec<String> =
        imports(&vec!["b".into(), "c".into()], "use super::super::a;", &all).iter().map(|m| m.join("::")).collect();
    assert_eq!(up, ["a"], "`super::super` of `b::c` is the root");
}
