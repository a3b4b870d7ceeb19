//! Machine output for CI and reviewers: `json` (one document, schema in
//! `docs/claim-batch.schema.json`), `junit` (one testcase per witness),
//! `github` (workflow commands, so failures appear inline on the pull
//! request) and `sarif` (2.1.0, rules from the diagnostic codes). Every
//! format carries the same facts as the human output: every witness, every
//! diagnostic, the open frontiers and the exit status.

use claim_diagnostics::printable::{self as escape, xml};
use claim_diagnostics::{Diagnostic, Label, Severity, Sources};
use claim_eval::broken::BrokenReport;
use claim_eval::{FrontierReport, WitnessReport};
use serde_json::{json, Value};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Junit,
    Github,
    Sarif,
    Markdown,
}

/// What a run found, for rendering.
pub struct RunReport<'a> {
    pub tool: &'static str,
    pub witnesses: &'a [WitnessReport],
    /// The project each witness belongs to: `(first witness index, name)`.
    pub groups: &'a [(usize, String)],
    pub frontiers: &'a [FrontierReport],
    /// The facts that broke (§7), expected or not.
    pub broken: &'a [claim_eval::broken::BrokenReport],
    /// Errors that stopped the run (exit 2) and warnings.
    pub diagnostics: &'a [Diagnostic],
    pub sources: &'a Sources,
    pub code: i32,
    /// Mermaid derivation graphs with verdicts, one per project (markdown).
    pub graphs: Vec<String>,
    /// Which part of which program this run is, where it ran witnesses
    /// (`claim_batch merge` checks that the shards make one whole).
    pub run: Option<RunIdentity>,
    /// What `--mutate` found, as its JSON (`mutate::to_json`).
    pub mutate: Option<Value>,
}

impl<'a> RunReport<'a> {
    /// The report of a run that ran no witness: its diagnostics alone.
    pub fn nothing_run(
        tool: &'static str,
        diagnostics: &'a [Diagnostic],
        sources: &'a Sources,
        code: i32,
    ) -> RunReport<'a> {
        RunReport {
            tool,
            witnesses: &[],
            groups: &[],
            frontiers: &[],
            broken: &[],
            diagnostics,
            sources,
            code,
            graphs: Vec::new(),
            run: None,
            mutate: None,
        }
    }
}

/// Which part of which program a run is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunIdentity {
    /// `(k, n)`: shard k of n (1 of 1 unsharded).
    pub shard: (u64, u64),
    /// `sha256:…` of the program: its `.claim` files (names and texts),
    /// its entries and its `--filter`.
    pub program: String,
    /// The witnesses the whole program selects (all shards together).
    pub selected: usize,
}

impl RunReport<'_> {
    fn group_of(&self, i: usize) -> &str {
        self.groups.iter().rev().find(|(start, _)| *start <= i).map(|(_, n)| n.as_str()).unwrap_or(".")
    }
    fn counts(&self) -> (usize, usize, usize) {
        let passed = self.witnesses.iter().filter(|w| w.passed()).count();
        let dissolved = self.frontiers.iter().filter(|f| f.dissolved.is_some()).count();
        (passed, self.witnesses.len() - passed, dissolved)
    }
    /// The broken facts no witness expected (§7).
    fn unexpected(&self) -> impl Iterator<Item = &BrokenReport> {
        self.broken.iter().filter(|b| !b.expected)
    }
    /// The summary line (`13/14 PASS, 1 FAIL, 1 BROKEN`), or, where the
    /// run stopped before its witnesses, why.
    fn summary(&self, stopped: impl Fn(&str) -> String) -> String {
        let (passed, failed, dissolved) = self.counts();
        let broken = self.unexpected().count();
        if self.code == 2 && broken == 0 {
            return stopped(self.stopped_because());
        }
        let mut summary = format!("{passed}/{} PASS", self.witnesses.len());
        if failed > 0 {
            let _ = write!(summary, ", {failed} FAIL");
        }
        if dissolved > 0 {
            let _ = write!(summary, ", {dissolved} DISSOLVED");
        }
        if broken > 0 {
            let _ = write!(summary, ", {broken} BROKEN");
        }
        summary
    }
    /// Why a run exits 2, in one line.
    fn stopped_because(&self) -> &'static str {
        if self.diagnostics.iter().any(|d| d.code == "E0902") {
            "no witness ran: nothing was verified"
        } else {
            "the program could not be compiled, read or evaluated; no witness was run"
        }
    }
    fn failures(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .chain(self.witnesses.iter().filter_map(|w| w.failure.as_deref()))
            .chain(self.frontiers.iter().filter_map(|f| f.dissolved.as_ref()))
            .chain(self.unexpected().flat_map(|b| &b.diagnostics))
    }
}

/// Where a label is, as `(file, line, column, end line, end column)`, 1-based.
fn position(l: &Label, s: &Sources) -> (String, usize, usize, usize, usize) {
    let (line, col) = s.line_col(l.loc.file, l.loc.span.start);
    let (end_line, end_col) = s.line_col(l.loc.file, l.loc.span.end);
    (s.name(l.loc.file).to_string(), line, col, end_line, end_col)
}

fn label_json(l: &Label, s: &Sources) -> Value {
    let (file, line, column, end_line, end_column) = position(l, s);
    json!({ "file": file, "line": line, "column": column, "end_line": end_line, "end_column": end_column, "label": l.message })
}

pub fn diagnostic_json(d: &Diagnostic, s: &Sources) -> Value {
    let mut v = json!({
        "code": d.code,
        "severity": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
        "message": d.message,
        "primary": d.primary.as_ref().map(|l| label_json(l, s)),
        "secondary": d.secondary.iter().map(|l| label_json(l, s)).collect::<Vec<_>>(),
        "notes": d.notes,
        "help": d.help,
    });
    // Only where there is one: a reader of the earlier reports sees the
    // same fields.
    if let Some(f) = &d.fix {
        let mut fix = label_json(&Label::new(f.loc, ""), s);
        if let Some(o) = fix.as_object_mut() {
            o.remove("label");
            o.insert("replacement".into(), json!(f.replacement));
        }
        v["fix"] = fix;
    }
    v
}

pub fn render(format: Format, r: &RunReport<'_>) -> String {
    match format {
        Format::Json => json_doc(r),
        Format::Junit => junit(r),
        Format::Github => github(r),
        Format::Sarif => sarif(r),
        Format::Markdown => markdown(r),
        Format::Human => String::new(),
    }
}

fn json_doc(r: &RunReport<'_>) -> String {
    let (passed, failed, dissolved) = r.counts();
    let witnesses: Vec<Value> = r
        .witnesses
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let (line, _) = r.sources.line_col(w.loc.file, w.loc.span.start);
            json!({
                "name": &*w.name,
                "module": &*w.module,
                "project": r.group_of(i),
                "file": r.sources.name(w.loc.file),
                "line": line,
                "status": if w.passed() { "pass" } else { "fail" },
                "duration_ms": w.duration.as_secs_f64() * 1000.0,
                "diagnostics": w.failure.iter().map(|d| diagnostic_json(d, r.sources)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let frontiers: Vec<Value> = r
        .frontiers
        .iter()
        .map(|f| {
            let (line, _) = r.sources.line_col(f.loc.file, f.loc.span.start);
            json!({
                "name": &*f.name,
                "file": r.sources.name(f.loc.file),
                "line": line,
                "text": f.text,
                "status": if f.dissolved.is_some() { "dissolved" } else { "open" },
                "diagnostics": f.dissolved.iter().map(|d| diagnostic_json(d, r.sources)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let broken: Vec<Value> = r
        .broken
        .iter()
        .map(|b| {
            let f = &b.fact;
            let (line, _) = r.sources.line_col(f.loc.file, f.loc.span.start);
            json!({
                "name": &*f.fact.name,
                "module": &*f.fact.module,
                "file": r.sources.name(f.loc.file),
                "line": line,
                "code": &*f.code,
                "message": f.message,
                "status": if b.expected { "expected" } else { "unexpected" },
                "readers": b.readers.iter().map(|n| &**n).collect::<Vec<_>>(),
                "diagnostics": b.diagnostics.iter().map(|d| diagnostic_json(d, r.sources)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let unexpected = r.unexpected().count();
    let diagnostics = r.diagnostics.iter().map(|d| diagnostic_json(d, r.sources)).collect();
    let tool = json!({ "name": r.tool, "version": env!("CARGO_PKG_VERSION") });
    let counts = Counts { passed, failed, dissolved, unexpected };
    let mut doc = document(tool, r.code, counts, (witnesses, frontiers, broken), diagnostics);
    if let Some(m) = &r.mutate {
        doc["mutate"] = m.clone();
    }
    if let Some(run) = &r.run {
        doc["run"] = json!({
            "shard": { "index": run.shard.0, "count": run.shard.1 },
            "program": run.program,
            "selected": run.selected,
        });
    }
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// The counts of a report's summary.
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub dissolved: usize,
    /// Broken facts no witness expected.
    pub unexpected: usize,
}

/// The JSON report (`docs/claim-batch.schema.json`) of a run or of merged
/// shards: its version, tool, exit code, summary and the lists of
/// witnesses, frontiers, broken facts and diagnostics (the `run` and
/// `mutate` parts are the caller's).
pub fn document(
    tool: Value,
    code: i32,
    counts: Counts,
    (witnesses, frontiers, broken): (Vec<Value>, Vec<Value>, Vec<Value>),
    diagnostics: Vec<Value>,
) -> Value {
    json!({
        "version": 1,
        "tool": tool,
        "exit_code": code,
        "summary": {
            "total": witnesses.len(),
            "passed": counts.passed,
            "failed": counts.failed,
            "dissolved": counts.dissolved,
            "broken": counts.unexpected,
        },
        "witnesses": witnesses,
        "frontiers": frontiers,
        "broken": broken,
        "diagnostics": diagnostics,
    })
}

fn junit(r: &RunReport<'_>) -> String {
    let (_, failed, dissolved) = r.counts();
    let broken: Vec<&BrokenReport> = r.unexpected().collect();
    let errors = r.diagnostics.iter().filter(|d| d.is_error()).count();
    let total = r.witnesses.len() + dissolved + broken.len() + usize::from(errors > 0);
    // A fold from 0, not `sum`: the sum of no `f64` is -0.0, printed `-0.000000`.
    let time: f64 = r.witnesses.iter().fold(0.0, |t, w| t + w.duration.as_secs_f64());
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{total}\" failures=\"{}\" errors=\"{}\" time=\"{time:.6}\">",
        xml(r.tool),
        failed + dissolved + broken.len(),
        usize::from(errors > 0)
    );
    let mut suites: Vec<(String, Vec<usize>)> = Vec::new();
    for i in 0..r.witnesses.len() {
        let g = r.group_of(i).to_string();
        match suites.last_mut() {
            Some((name, v)) if *name == g => v.push(i),
            _ => suites.push((g, vec![i])),
        }
    }
    let mut renderer = claim_diagnostics::HumanRenderer::new(r.sources, false);
    let mut plain = |d: &Diagnostic| renderer.render(d);
    for (name, idx) in &suites {
        let fails = idx.iter().filter(|i| !r.witnesses[**i].passed()).count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{fails}\" errors=\"0\">",
            xml(name),
            idx.len()
        );
        for i in idx {
            let w = &r.witnesses[*i];
            // Jenkins' JUnit schema (tests/schemas/junit-4.xsd) has `file`
            // but no `line`; the failure's text names the line.
            let _ = write!(
                out,
                "    <testcase name=\"{}\" classname=\"{}\" file=\"{}\" time=\"{:.6}\"",
                xml(&w.name),
                xml(&w.module),
                xml(r.sources.name(w.loc.file)),
                w.duration.as_secs_f64()
            );
            match &w.failure {
                None => out.push_str("/>\n"),
                Some(d) => {
                    let _ = writeln!(
                        out,
                        ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                        xml(&d.message),
                        d.code,
                        escape::xml_text(&plain(d))
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    if dissolved > 0 || errors > 0 || !broken.is_empty() {
        let _ = writeln!(
            out,
            "  <testsuite name=\"program\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
            dissolved + broken.len() + usize::from(errors > 0),
            dissolved + broken.len(),
            usize::from(errors > 0)
        );
        // A broken fact no witness expected fails the run: a case of its
        // own, with the fact's message (§7).
        for b in &broken {
            let f = &b.fact;
            let text: String = b.diagnostics.iter().map(&mut plain).collect();
            let _ = writeln!(
                out,
                "    <testcase name=\"fact {}\" classname=\"{}\" file=\"{}\">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                xml(&f.fact.name),
                xml(&f.fact.module),
                xml(r.sources.name(f.loc.file)),
                xml(&format!("the fact `{}` is broken (`{}`): {}", f.fact.name, f.code, f.message)),
                b.diagnostics.first().map(|d| d.code).unwrap_or("E0301"),
                escape::xml_text(&text)
            );
        }
        for f in r.frontiers.iter().filter(|f| f.dissolved.is_some()) {
            if let Some(d) = &f.dissolved {
                let _ = writeln!(
                    out,
                    "    <testcase name=\"frontier {}\" classname=\"{}\">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                    xml(&f.name),
                    xml(&f.module),
                    xml(&d.message),
                    d.code,
                    escape::xml_text(&plain(d))
                );
            }
        }
        if errors > 0 {
            let text: String = r.diagnostics.iter().filter(|d| d.is_error()).map(plain).collect();
            let _ = writeln!(
                out,
                "    <testcase name=\"compile and load\" classname=\"program\">\n      <error message=\"the program could not be compiled, read or evaluated; no witness was run\" type=\"{}\">{}</error>\n    </testcase>",
                r.diagnostics.iter().find(|d| d.is_error()).map(|d| d.code).unwrap_or("E0999"),
                escape::xml_text(&text)
            );
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

fn github(r: &RunReport<'_>) -> String {
    let mut out = String::new();
    for w in r.witnesses {
        let _ = writeln!(out, "{} {}", if w.passed() { "PASS" } else { "FAIL" }, w.name);
    }
    for d in r.failures() {
        let kind = if d.is_error() { "error" } else { "warning" };
        // An annotation must sit in the repository: where the primary label is
        // in the standard library, use the first label that is not.
        let in_repo = |l: &&Label| !r.sources.name(l.loc.file).starts_with("<std>");
        let at = d.primary.iter().chain(d.secondary.iter()).find(in_repo).or(d.primary.as_ref());
        // The annotation marks one place; the body says where the others
        // are (the receipt field a wrong value was read from, the file a
        // digest hashed), so the reviewer can go there from the pull request.
        let mut body = vec![d.message.clone()];
        if let Some(l) = at {
            body.push(format!("{}: {}", d.code, l.message));
        }
        for l in d.primary.iter().chain(d.secondary.iter()).filter(|l| !at.is_some_and(|a| std::ptr::eq(*l, a))) {
            let (file, line, col, _, _) = position(l, r.sources);
            body.push(format!("{file}:{line}:{col}: {}", l.message));
        }
        body.extend(d.notes.iter().map(|n| format!("note: {n}")));
        body.extend(d.help.iter().map(|h| format!("help: {h}")));
        let body = escape::github_data(body.iter().map(String::as_str));
        match at {
            Some(l) => {
                let (file, line, col, end_line, end_col) = position(l, r.sources);
                let _ = writeln!(
                    out,
                    "::{kind} file={},line={line},col={col},endLine={end_line},endColumn={end_col},title={}::{body}",
                    escape::github_property(&file),
                    escape::github_property(&format!("{} {}", d.code, d.message)),
                );
            }
            None => {
                let _ = writeln!(out, "::{kind} title={}::{body}", escape::github_property(d.code));
            }
        }
    }
    let _ = writeln!(out, "{}", r.summary(|why| format!("error: {why}")));
    out
}

fn sarif(r: &RunReport<'_>) -> String {
    let diags: Vec<&Diagnostic> = r.failures().collect();
    let mut codes: Vec<&str> = diags.iter().map(|d| d.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|c| {
            let (title, text) = claim_diagnostics::codes::CODES
                .iter()
                .find(|(code, _, _)| code == c)
                .map(|(_, t, x)| (*t, *x))
                .unwrap_or(("", ""));
            json!({ "id": c, "name": title, "shortDescription": { "text": title }, "fullDescription": { "text": text }, "help": { "text": text } })
        })
        .collect();
    let location = |l: &Label| {
        let (file, line, col, end_line, end_col) = position(l, r.sources);
        json!({
            "physicalLocation": {
                "artifactLocation": { "uri": escape::uri_path(&file) },
                "region": { "startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col }
            },
            "message": { "text": l.message }
        })
    };
    let results: Vec<Value> = diags
        .iter()
        .map(|d| {
            let mut text = d.message.clone();
            if let Some(l) = &d.primary {
                text.push_str(&format!(": {}", l.message));
            }
            let mut result = json!({
                "ruleId": d.code,
                "ruleIndex": codes.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": if d.is_error() { "error" } else { "warning" },
                "message": { "text": text },
                "locations": d.primary.iter().map(location).collect::<Vec<_>>(),
                "relatedLocations": d.secondary.iter().enumerate().map(|(i, l)| {
                    let mut v = location(l);
                    v["id"] = json!(i);
                    v
                }).collect::<Vec<_>>(),
            });
            if let Some(f) = &d.fix {
                let (file, line, col, end_line, end_col) = position(&Label::new(f.loc, ""), r.sources);
                result["fixes"] = json!([{
                    "description": { "text": match f.loc.span.start == f.loc.span.end {
                        true => format!("add `{}`", f.replacement.trim()),
                        false => format!("replace with `{}`", f.replacement),
                    } },
                    "artifactChanges": [{
                        "artifactLocation": { "uri": escape::uri_path(&file) },
                        "replacements": [{
                            "deletedRegion": { "startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col },
                            "insertedContent": { "text": f.replacement }
                        }]
                    }]
                }]);
            }
            result
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": r.tool, "version": env!("CARGO_PKG_VERSION"), "rules": rules } },
            "results": results,
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

fn markdown(r: &RunReport<'_>) -> String {
    let mut out = String::new();
    let title = r.summary(|why| format!("not passed: {why}"));
    let _ = writeln!(out, "## Claim: {title}\n");
    if !r.witnesses.is_empty() {
        out.push_str("| | witness | project |\n| --- | --- | --- |\n");
        for (i, w) in r.witnesses.iter().enumerate() {
            let _ = writeln!(
                out,
                "| {} | `{}` | {} |",
                if w.passed() { "PASS" } else { "**FAIL**" },
                escape::markdown_code(&w.name),
                escape::markdown(r.group_of(i))
            );
        }
        out.push('\n');
    }
    let failures: Vec<&Diagnostic> = r.failures().filter(|d| d.is_error()).collect();
    if !failures.is_empty() {
        out.push_str("### Failures\n\n");
        for d in failures {
            let _ = writeln!(
                out,
                "<details><summary><code>{}</code> {}</summary>\n\n```text\n{}```\n</details>\n",
                d.code,
                xml(&d.message),
                claim_diagnostics::render_human(d, r.sources, false).replace("```", "`\u{200b}``")
            );
        }
    }
    let open: Vec<&FrontierReport> = r.frontiers.iter().filter(|f| f.dissolved.is_none()).collect();
    if !open.is_empty() {
        out.push_str("### Open frontiers\n\n");
        for f in open {
            let (line, _) = r.sources.line_col(f.loc.file, f.loc.span.start);
            let _ = writeln!(
                out,
                "- `{}` ({}:{line}): {}",
                escape::markdown_code(&f.name),
                escape::markdown(r.sources.name(f.loc.file)),
                escape::markdown(&f.text)
            );
        }
        out.push('\n');
    }
    if let Some(m) = &r.mutate {
        out.push_str(&mutate_markdown(m));
    }
    for g in &r.graphs {
        let _ = writeln!(out, "<details><summary>Derivation graph</summary>\n\n```mermaid\n{g}```\n</details>\n");
    }
    out
}

/// `--mutate`'s part of the Markdown report: the score, then what no
/// witness notices, from the JSON `mutate::to_json` made.
fn mutate_markdown(m: &Value) -> String {
    let score = &m["score"];
    let mut out = format!(
        "### Mutation analysis\n\n{} of {} fact leaves witnessed, {} of {} refusal codes shown ({} mutants)\n\n",
        score["witnessed"], score["leaves"], score["shown"], score["codes"], score["mutants"]
    );
    let unwitnessed: Vec<&Value> =
        m["leaves"].as_array().into_iter().flatten().filter(|l| l["status"] == "unwitnessed").collect();
    if !unwitnessed.is_empty() {
        out.push_str("| fact | leaf | why |\n| --- | --- | --- |\n");
        for l in unwitnessed {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {} |",
                escape::markdown_code(l["fact"].as_str().unwrap_or("")),
                escape::markdown_code(l["path"].as_str().unwrap_or("")),
                escape::markdown(l["detail"].as_str().unwrap_or(""))
            );
        }
        out.push('\n');
    }
    let unshown: Vec<&str> = m["codes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["shown"] == false)
        .filter_map(|c| c["code"].as_str())
        .collect();
    if !unshown.is_empty() {
        let codes: Vec<String> = unshown.iter().map(|c| format!("`{}`", escape::markdown_code(c))).collect();
        let _ = writeln!(out, "No witness shows these refusals can fire: {}\n", codes.join(", "));
    }
    // Exemptions that say nothing true any more, or name nothing.
    for d in m["diagnostics"].as_array().into_iter().flatten() {
        if matches!(d["code"].as_str(), Some("W0010" | "E0017")) {
            let _ = writeln!(
                out,
                "- {}: {}",
                d["code"].as_str().unwrap_or(""),
                escape::markdown(d["message"].as_str().unwrap_or(""))
            );
        }
    }
    let exempt = m["exempt"].as_array().map_or(&[][..], |e| e.as_slice());
    if !exempt.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>Exempt ({})</summary>\n\n| name | reason |\n| --- | --- |",
            exempt.len()
        );
        for e in exempt {
            let _ = writeln!(
                out,
                "| `{}` | {} |",
                escape::markdown_code(e["name"].as_str().unwrap_or("")),
                escape::markdown(e["reason"].as_str().unwrap_or(""))
            );
        }
        out.push_str("</details>\n");
    }
    out
}
