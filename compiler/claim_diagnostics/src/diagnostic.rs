//! Diagnostics as plain data. Every phase builds these; renderers (human,
//! json, …) turn them into text. Messages follow one style: lowercase, no
//! final period, user names in backticks; extra sentences go in `help`/`notes`.

use claim_syntax::{FileId, Loc, Span, SyntaxError};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

/// A label: a location and what to say there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub loc: Loc,
    pub message: String,
}

impl Label {
    pub fn new(loc: Loc, message: impl Into<String>) -> Label {
        Label { loc, message: message.into() }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// A stable code: `E0xxx` errors by phase, `W0xxx` warnings.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// Where the problem is; `None` only for problems with no source
    /// location (a missing entry file, a command-line mistake).
    pub primary: Option<Label>,
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
    pub help: Option<String>,
    /// An edit that would resolve it, where one is sure enough to offer
    /// (the editor's quick fix): a close name for a misspelt one.
    pub fix: Option<Fix>,
}

/// A replacement of the text at `loc`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    pub loc: Loc,
    pub replacement: String,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
            fix: None,
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message) }
    }
    pub fn at(mut self, file: FileId, span: Span, label: impl Into<String>) -> Diagnostic {
        self.primary = Some(Label::new(Loc::new(file, span), label));
        self
    }
    pub fn at_loc(mut self, loc: Loc, label: impl Into<String>) -> Diagnostic {
        self.primary = Some(Label::new(loc, label));
        self
    }
    pub fn with_secondary(mut self, loc: Loc, label: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label::new(loc, label));
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    /// Suggests `close` for the misspelt name under the primary label: said
    /// in `help`, and offered as a fix of that label's text.
    pub fn with_suggestion(self, close: impl Into<String>) -> Diagnostic {
        match self.primary.as_ref().map(|p| p.loc) {
            Some(loc) => self.with_suggestion_at(loc, close),
            None => {
                let close = close.into();
                self.with_help(format!("did you mean `{close}`?"))
            }
        }
    }
    /// As `with_suggestion`, where the misspelt name is `loc`, not all of
    /// the primary label's text.
    pub fn with_suggestion_at(mut self, loc: Loc, close: impl Into<String>) -> Diagnostic {
        let close = close.into();
        self.help = Some(format!("did you mean `{close}`?"));
        self.fix = Some(Fix { loc, replacement: close });
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
    /// The primary location, for sorting.
    pub fn sort_key(&self) -> (Option<Loc>, &'static str) {
        (self.primary.as_ref().map(|l| l.loc), self.code)
    }

    pub fn from_syntax(file: FileId, e: &SyntaxError) -> Diagnostic {
        let mut d = Diagnostic::error(e.code, e.message.clone()).at(file, e.span, e.label.clone());
        if let Some((span, label)) = &e.context {
            d = d.with_secondary(Loc::new(file, *span), label.clone());
        }
        d.help = e.help.clone();
        d
    }
}

/// Turns a list into "`a`, `b` and `c`".
pub fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("`{}`", s.as_ref())).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The closest candidate to `name`, if one is close enough to suggest;
/// else the one candidate (if only one) of which `name` is a whole word at
/// either end: `Standing` for `ExtensionStanding`, `key` for `build_key`
/// (a name written without the prefix or suffix its declaration has).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let candidates: Vec<&str> = candidates.into_iter().filter(|c| *c != name).collect();
    let close = candidates.iter().map(|c| (edit_distance(name, c), *c)).filter(|(d, _)| *d <= limit).min();
    if let Some((_, c)) = close {
        return Some(c.to_string());
    }
    let mut words = candidates.iter().filter(|c| has_word_at_an_end(c, name));
    match (words.next(), words.next()) {
        (Some(c), None) => Some(c.to_string()),
        _ => None,
    }
}

/// Whether `word` is all of `name`'s first or last word(s): after or before
/// a `_`, or, in CamelCase, before a capital (`ExtensionStanding` ends with
/// the word `Standing`; `Outstanding` does not).
fn has_word_at_an_end(name: &str, word: &str) -> bool {
    if word.chars().count() < 3 || name.len() <= word.len() {
        return false;
    }
    let snake = name.strip_suffix(word).is_some_and(|rest| rest.ends_with('_'))
        || name.strip_prefix(word).is_some_and(|rest| rest.starts_with('_'));
    let camel = word.starts_with(|c: char| c.is_ascii_uppercase()) && name.ends_with(word)
        || name.strip_prefix(word).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()));
    snake || camel
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_close_names_only() {
        assert_eq!(did_you_mean("NotPositiv", ["NotPositive", "TooLarge"]), Some("NotPositive".into()));
        assert_eq!(did_you_mean("zzz", ["NotPositive"]), None);
    }

    #[test]
    fn a_name_missing_its_prefix_or_suffix_is_suggested_when_only_one_has_it() {
        let items = ["ExtensionStanding", "RankReading", "build_key", "key_of", "Outstanding"];
        assert_eq!(did_you_mean("Standing", items), Some("ExtensionStanding".into()));
        assert_eq!(did_you_mean("Rank", items), Some("RankReading".into()));
        assert_eq!(did_you_mean("build", items), Some("build_key".into()));
        // Two have the word: which is meant is the author's to say.
        assert_eq!(did_you_mean("key", items), None);
        // Not a whole word, or too short to tell.
        assert_eq!(did_you_mean("standing", ["Outstanding"]), None);
        assert_eq!(did_you_mean("Reading", ["RankReadings"]), None);
        assert_eq!(did_you_mean("of", ["key_of"]), None);
    }

    #[test]
    fn lists_read_as_prose() {
        assert_eq!(and_list(&["a", "b", "c"]), "`a`, `b` and `c`");
    }
}
