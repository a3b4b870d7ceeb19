//! The texts diagnostics point into: `.claim` modules and the JSON files
//! facts loaded, each under the name a reader should see.

use claim_syntax::FileId;

#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
}

impl Sources {
    pub fn new() -> Sources {
        Sources::default()
    }
    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push((name.into(), text.into()));
        FileId(self.files.len() as u32 - 1)
    }
    pub fn name(&self, id: FileId) -> &str {
        self.files.get(id.0 as usize).map(|f| f.0.as_str()).unwrap_or("<unknown>")
    }
    pub fn text(&self, id: FileId) -> &str {
        self.files.get(id.0 as usize).map(|f| f.1.as_str()).unwrap_or("")
    }
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.files.iter().map(|(n, t)| (n.as_str(), t.as_str()))
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: FileId, offset: u32) -> (usize, usize) {
        let text = self.text(id);
        let mut off = (offset as usize).min(text.len());
        while off > 0 && !text.is_char_boundary(off) {
            off -= 1;
        }
        let before = &text[..off];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
        (line, col)
    }
}
