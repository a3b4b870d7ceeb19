//! The server's state: one salsa database, the projects it has opened (a
//! `Program` input each), and every file's text — the editor's buffer for
//! open files, the disk for the rest. An edit sets one `SourceFile`'s text,
//! so salsa re-checks only what depends on it.

use crate::project::{module_name, root_of, usage_error};
use claim_diagnostics::Diagnostic;
use claim_sema::{Database, Program, SourceFile};
use claim_syntax::FileId;
use salsa::Setter;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub struct Project {
    pub root: PathBuf,
    pub program: Program,
    pub modules: BTreeMap<String, SourceFile>,
}

#[derive(Default)]
pub struct Workspace {
    pub db: Database,
    pub projects: Vec<Project>,
    /// Every file the database holds, by id and by path.
    pub paths: HashMap<FileId, PathBuf>,
    pub files: HashMap<PathBuf, SourceFile>,
    /// Open documents' texts (the editor's, not the disk's).
    pub open: HashMap<PathBuf, String>,
    next_id: u32,
    /// Where the embedded standard library is written so that "go to
    /// definition" can open it.
    pub stdlib_dir: Option<PathBuf>,
}

impl Workspace {
    pub fn new(stdlib_dir: Option<PathBuf>) -> Workspace {
        Workspace { stdlib_dir, ..Workspace::default() }
    }

    fn file(&mut self, path: &Path, module: &str, text: String) -> SourceFile {
        if let Some(f) = self.files.get(path) {
            if **f.text(&self.db) != *text {
                f.edit(&mut self.db, text.into());
            }
            return *f;
        }
        let id = FileId(self.next_id);
        self.next_id += 1;
        let f = SourceFile::loaded(&self.db, module.to_string(), text.into(), id);
        self.paths.insert(id, path.to_path_buf());
        self.files.insert(path.to_path_buf(), f);
        f
    }

    fn text_of(&self, path: &Path) -> Option<String> {
        if let Some(t) = self.open.get(path) {
            return Some(t.clone());
        }
        std::fs::read(path).ok().map(|b| crate::utf8::decode_lossy(&b))
    }

    /// The project holding `path`, loading it (every `.claim` file under
    /// its root, and the standard library) the first time.
    pub fn project_for(&mut self, path: &Path) -> Result<usize, Box<Diagnostic>> {
        let root = root_of(path);
        if let Some(i) = self.projects.iter().position(|p| p.root == root) {
            // A file new to the project (just created) joins it.
            if !self.projects[i].modules.values().any(|f| self.files.get(path) == Some(f)) {
                self.reload(i);
            }
            return Ok(i);
        }
        let modules = self.scan(&root)?;
        let entries: Vec<String> = modules.keys().filter(|m| !m.starts_with("std.")).cloned().collect();
        let program = Program::loaded(&self.db, modules.clone(), entries, BTreeMap::new());
        self.projects.push(Project { root, program, modules });
        Ok(self.projects.len() - 1)
    }

    fn scan(&mut self, root: &Path) -> Result<BTreeMap<String, SourceFile>, Box<Diagnostic>> {
        let mut found = Vec::new();
        if root.join("Claim.toml").is_file() {
            crate::project::claim_files(root, &mut found)
                .map_err(|e| Box::new(usage_error(format!("cannot read `{}`: {e}", root.display()))))?;
        } else {
            // No manifest: the file's own folder, not everything below it
            // (a `.claim` file opened from a home directory must not make
            // the server walk the home directory).
            let entries = std::fs::read_dir(root)
                .map_err(|e| Box::new(usage_error(format!("cannot read `{}`: {e}", root.display()))))?;
            found.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "claim")),
            );
            found.sort();
        }
        for open in self.open.keys() {
            if open.starts_with(root) && !found.contains(open) && root_of(open) == root {
                found.push(open.clone());
            }
        }
        let mut modules = BTreeMap::new();
        for path in found {
            let module = module_name(root, &path);
            let text = self.text_of(&path).unwrap_or_default();
            let f = self.file(&path, &module, text);
            modules.insert(module, f);
        }
        for (m, src) in crate::stdlib::MODULES {
            let path = match &self.stdlib_dir {
                Some(d) => d.join(format!("{}.claim", m.trim_start_matches("std."))),
                None => PathBuf::from(format!("<std>/{}.claim", m.trim_start_matches("std."))),
            };
            let f = self.file(&path, m, (*src).to_string());
            modules.insert((*m).to_string(), f);
        }
        Ok(modules)
    }

    /// Rescans a project's files (a file was created or deleted).
    pub fn reload(&mut self, i: usize) {
        let root = self.projects[i].root.clone();
        if let Ok(modules) = self.scan(&root) {
            let entries: Vec<String> = modules.keys().filter(|m| !m.starts_with("std.")).cloned().collect();
            let program = self.projects[i].program;
            if program.modules(&self.db) != &modules {
                program.set_modules(&mut self.db).to(modules.clone());
                program.set_entries(&mut self.db).to(entries);
            }
            self.projects[i].modules = modules;
        }
    }

    /// Sets an open document's text.
    pub fn set_text(&mut self, path: &Path, text: String) -> Result<usize, Box<Diagnostic>> {
        self.open.insert(path.to_path_buf(), text.clone());
        let i = self.project_for(path)?;
        if let Some(f) = self.files.get(path).copied() {
            if **f.text(&self.db) != *text {
                f.edit(&mut self.db, text.into());
            }
        }
        Ok(i)
    }

    /// The project and source file of a path, if loaded.
    pub fn lookup(&self, path: &Path) -> Option<(&Project, SourceFile)> {
        let f = *self.files.get(path)?;
        let p = self.projects.iter().find(|p| p.modules.values().any(|x| *x == f))?;
        Some((p, f))
    }

    /// A file's text, shared (no copy).
    pub fn shared_text(&self, id: FileId) -> Option<std::sync::Arc<str>> {
        let path = self.paths.get(&id)?;
        self.files.get(path).map(|f| f.text(&self.db).clone())
    }

    pub fn text(&self, id: FileId) -> Option<String> {
        let path = self.paths.get(&id)?;
        self.files.get(path).map(|f| f.text(&self.db).to_string())
    }
}
