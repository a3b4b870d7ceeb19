//! The derivation graph: facts → functions (the standings they derive) →
//! witnesses and frontiers, from what reads what. As Graphviz `dot`, or as
//! `mermaid` so that it renders in a pull-request comment; with verdicts,
//! witnesses are coloured by PASS/FAIL and frontiers by open/dissolved.

use claim_sema::ty::GlobalName;
use claim_sema::Compiled;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    Dot,
    Mermaid,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Fact,
    Function,
    Witness,
    Frontier,
}

/// Verdicts by witness or frontier name: `true` for PASS / open.
pub type Verdicts = BTreeMap<String, bool>;

fn kind_and_label(n: &GlobalName, c: &Compiled) -> (Kind, String) {
    if let Some(w) = n.name.strip_prefix("witness ") {
        return (Kind::Witness, w.to_string());
    }
    if let Some(f) = n.name.strip_prefix("frontier ") {
        return (Kind::Frontier, f.to_string());
    }
    let qualified = if n.module.starts_with("std.") { format!("{}.{}", n.module, n.name) } else { n.name.to_string() };
    if c.fact(n).is_some() {
        (Kind::Fact, qualified)
    } else {
        (Kind::Function, qualified)
    }
}

/// Renders the graph of one program.
pub fn render(c: &Compiled, format: GraphFormat, verdicts: Option<&Verdicts>) -> String {
    let reads: BTreeSet<(&GlobalName, &GlobalName)> =
        c.reads.iter().flat_map(|m| m.iter()).map(|(a, b, _)| (&**a, &**b)).collect();
    let mut nodes: BTreeSet<&GlobalName> = BTreeSet::new();
    for (from, to) in &reads {
        nodes.insert(from);
        nodes.insert(to);
    }
    // Facts nobody reads still belong in the picture.
    for m in c.modules.values() {
        for f in &m.facts {
            nodes.insert(&f.name);
        }
    }
    let ids: BTreeMap<&GlobalName, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut out = String::new();
    match format {
        GraphFormat::Dot => out.push_str("digraph claim {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n"),
        GraphFormat::Mermaid => out.push_str("flowchart LR\n"),
    }
    for (n, i) in &ids {
        let (kind, label) = kind_and_label(n, c);
        let verdict = verdicts.and_then(|v| v.get(&label)).copied();
        match format {
            GraphFormat::Dot => {
                let shape = match kind {
                    Kind::Fact => "cylinder",
                    Kind::Function => "box",
                    Kind::Witness => "ellipse",
                    Kind::Frontier => "octagon",
                };
                let colour = match verdict {
                    Some(true) => ", style=filled, fillcolor=\"#c8f7c5\"",
                    Some(false) => ", style=filled, fillcolor=\"#f7c5c5\"",
                    None => "",
                };
                let prefix = match kind {
                    Kind::Fact => "fact ",
                    Kind::Function => "fn ",
                    Kind::Witness => "witness ",
                    Kind::Frontier => "frontier ",
                };
                let _ = writeln!(out, "  n{i} [label=\"{prefix}{}\", shape={shape}{colour}];", label.replace('"', "'"));
            }
            GraphFormat::Mermaid => {
                let text = label.replace('"', "'");
                let shape = match kind {
                    Kind::Fact => format!("[(\"{text}\")]"),
                    Kind::Function => format!("[\"{text}\"]"),
                    Kind::Witness => format!("([\"{text}\"])"),
                    Kind::Frontier => format!("{{{{\"{text}\"}}}}"),
                };
                let class = match verdict {
                    Some(true) => ":::pass",
                    Some(false) => ":::fail",
                    None => "",
                };
                let _ = writeln!(out, "  n{i}{shape}{class}");
            }
        }
    }
    // Data flows from what is read to its reader.
    for (from, to) in &reads {
        let (Some(a), Some(b)) = (ids.get(*to), ids.get(*from)) else { continue };
        match format {
            GraphFormat::Dot => {
                let _ = writeln!(out, "  n{a} -> n{b};");
            }
            GraphFormat::Mermaid => {
                let _ = writeln!(out, "  n{a} --> n{b}");
            }
        }
    }
    match format {
        GraphFormat::Dot => out.push_str("}\n"),
        GraphFormat::Mermaid => {
            if verdicts.is_some() {
                out.push_str(
                    "  classDef pass fill:#c8f7c5,stroke:#2e7d32\n  classDef fail fill:#f7c5c5,stroke:#c62828\n",
                );
            }
        }
    }
    out
}
