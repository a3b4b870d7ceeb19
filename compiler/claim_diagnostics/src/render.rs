//! The human renderer: every ariadne call in the project lives here.
//! Labels are byte-indexed (`IndexType::Byte`): ariadne's default counts
//! characters and would misplace labels after any non-ASCII text.

use crate::diagnostic::{Diagnostic, Severity};
use crate::sources::Sources;
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind};

/// Renders one diagnostic as text; `color` adds ANSI colours. To render
/// many, use one [`HumanRenderer`]: it indexes each file once.
pub fn render_human(d: &Diagnostic, sources: &Sources, color: bool) -> String {
    HumanRenderer::new(sources, color).render(d)
}

type Fetch<'s> = Box<dyn FnMut(&String) -> Result<&'s str, String> + 's>;

/// Renders diagnostics against one set of sources, indexing each file (its
/// lines, for ariadne) the first time a label points into it and never
/// again: a run with thousands of warnings in one large file stays linear.
pub struct HumanRenderer<'s> {
    sources: &'s Sources,
    color: bool,
    cache: ariadne::FnCache<String, Fetch<'s>, &'s str>,
}

impl<'s> HumanRenderer<'s> {
    pub fn new(sources: &'s Sources, color: bool) -> Self {
        let fetch: Fetch<'s> = Box::new(move |name: &String| {
            sources.iter().find(|(n, _)| n == name).map(|(_, t)| t).ok_or_else(|| format!("no source `{name}`"))
        });
        HumanRenderer { sources, color, cache: ariadne::FnCache::new(fetch) }
    }

    pub fn render(&mut self, d: &Diagnostic) -> String {
        render_with(d, self.sources, self.color, &mut self.cache)
    }
}

fn render_with(d: &Diagnostic, sources: &Sources, color: bool, cache: impl ariadne::Cache<String>) -> String {
    let Some(primary) = &d.primary else {
        return render_plain(d);
    };
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let name = |loc: &claim_syntax::Loc| sources.name(loc.file).to_string();
    let range = |loc: &claim_syntax::Loc| clamp(sources.text(loc.file), loc.span.range());
    let config = Config::default().with_index_type(IndexType::Byte).with_color(color);
    let mut report = Report::build(kind, (name(&primary.loc), range(&primary.loc)))
        .with_config(config)
        .with_code(d.code)
        .with_message(&d.message)
        .with_label(
            Label::new((name(&primary.loc), range(&primary.loc)))
                .with_message(&primary.message)
                .with_color(if d.severity == Severity::Error { Color::Red } else { Color::Yellow })
                .with_order(0),
        );
    for (i, s) in d.secondary.iter().enumerate() {
        report = report.with_label(
            Label::new((name(&s.loc), range(&s.loc)))
                .with_message(&s.message)
                .with_color(Color::Blue)
                .with_order(i as i32 + 1),
        );
    }
    for n in &d.notes {
        report = report.with_note(n);
    }
    if let Some(h) = &d.help {
        report = report.with_help(h);
    }
    let mut out = Vec::new();
    if report.finish().write(cache, &mut out).is_err() {
        return render_plain(d);
    }
    let text = String::from_utf8_lossy(&out);
    // Trailing spaces carry nothing and make snapshots brittle.
    text.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
}

/// A diagnostic without a source location.
fn render_plain(d: &Diagnostic) -> String {
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut s = format!("{kind}[{}]: {}\n", d.code, d.message);
    for n in &d.notes {
        s.push_str(&format!("  = note: {n}\n"));
    }
    if let Some(h) = &d.help {
        s.push_str(&format!("  = help: {h}\n"));
    }
    s
}

/// Keeps a range inside the text and on character boundaries.
fn clamp(text: &str, r: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let mut start = r.start.min(text.len());
    let mut end = r.end.min(text.len()).max(start);
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    while end < text.len() && !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}
