//! `claimc lsp`: a language server over stdio (lsp-server, lsp-types) on
//! the same salsa database as `claimc check`. Requests are answered from
//! `claim_ide`; a panic while answering becomes an error response, never a
//! dead server.

mod convert;
mod handlers;
mod workspace;

use convert::{path_of, uri_of, LineIndex};
use lsp_server::{Connection, ExtractError, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use std::collections::HashMap;
use std::path::PathBuf;
use workspace::Workspace;

pub use crate::project::root_of;

/// The command a witness's code lens runs.
pub const RUN_WITNESS: &str = "claim.runWitness";

pub(crate) struct Server {
    conn: Connection,
    ws: Workspace,
    utf8: bool,
    /// What was last published per file, so unchanged files are not re-sent.
    published: HashMap<PathBuf, Vec<lsp::Diagnostic>>,
    /// The last verdict of each witness run from a code lens: (file, name).
    verdicts: HashMap<(PathBuf, String), String>,
    next_request: i32,
    /// Files edited since diagnostics were last published. Publishing
    /// needs the whole program's checks, so it waits until no message has
    /// come for `IDLE`: requests typed between keystrokes are answered
    /// first, from the edited module's own queries.
    dirty: std::collections::BTreeSet<PathBuf>,
    /// The client accepts `workspace/codeLens/refresh`.
    pub(crate) lens_refresh: bool,
}

/// How long the server waits for more edits before publishing diagnostics.
const IDLE: std::time::Duration = std::time::Duration::from_millis(40);

/// Serves on stdio until the client says `exit`.
pub fn serve() -> crate::Output {
    let (conn, io) = Connection::stdio();
    let result = run(conn);
    let joined = io.join();
    let mut out = crate::Output { stdout: String::new(), stderr: String::new(), code: 0 };
    if let Err(e) = result {
        out.stderr = format!("error[E0901]: language server: {e}\n");
        out.code = 2;
    } else if let Err(e) = joined {
        out.stderr = format!("error[E0901]: language server IO: {e}\n");
        out.code = 2;
    }
    out
}

fn capabilities(utf8: bool) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(if utf8 { lsp::PositionEncodingKind::UTF8 } else { lsp::PositionEncodingKind::UTF16 }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(lsp::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
            save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        })),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_highlight_provider: Some(lsp::OneOf::Left(true)),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        signature_help_provider: Some(lsp::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".into(), ",".into()]),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(lsp::CodeActionOptions {
            code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![".".into(), "{".into(), " ".into()]),
            ..Default::default()
        }),
        code_lens_provider: Some(lsp::CodeLensOptions { resolve_provider: Some(false) }),
        execute_command_provider: Some(lsp::ExecuteCommandOptions {
            commands: vec![RUN_WITNESS.to_string()],
            ..Default::default()
        }),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_link_provider: Some(lsp::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        ..Default::default()
    }
}

fn run(conn: Connection) -> Result<(), Box<dyn std::error::Error + Sync + Send>> {
    let (id, params) = conn.initialize_start()?;
    let init: lsp::InitializeParams = serde_json::from_value(params)?;
    let utf8 = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&lsp::PositionEncodingKind::UTF8));
    let lens_refresh = init
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.code_lens.as_ref())
        .and_then(|c| c.refresh_support)
        .unwrap_or(false);
    let result = lsp::InitializeResult {
        capabilities: capabilities(utf8),
        server_info: Some(lsp::ServerInfo {
            name: "claimc lsp".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    };
    conn.initialize_finish(id, serde_json::to_value(result)?)?;
    let mut server = Server {
        conn,
        ws: Workspace::new(write_stdlib()),
        utf8,
        published: HashMap::new(),
        verdicts: HashMap::new(),
        next_request: 0,
        dirty: Default::default(),
        lens_refresh,
    };
    server.main_loop()
}

/// Writes the embedded standard library where an editor can open it.
fn write_stdlib() -> Option<PathBuf> {
    let dir = std::env::temp_dir().join(format!("claim-stdlib-{}", env!("CARGO_PKG_VERSION")));
    std::fs::create_dir_all(&dir).ok()?;
    for (m, src) in crate::stdlib::MODULES {
        let path = dir.join(format!("{}.claim", m.trim_start_matches("std.")));
        if std::fs::read_to_string(&path).ok().as_deref() != Some(*src) {
            std::fs::write(&path, src).ok()?;
        }
    }
    Some(dir)
}

impl Server {
    fn main_loop(&mut self) -> Result<(), Box<dyn std::error::Error + Sync + Send>> {
        loop {
            let msg = if self.dirty.is_empty() {
                match self.conn.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            } else {
                match self.conn.receiver.recv_timeout(IDLE) {
                    Ok(m) => m,
                    Err(e) if e.is_timeout() => {
                        let dirty = std::mem::take(&mut self.dirty);
                        for path in dirty {
                            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.publish(&path)));
                        }
                        continue;
                    }
                    Err(_) => break,
                }
            };
            match msg {
                Message::Request(req) => {
                    if self.conn.handle_shutdown(&req)? {
                        return Ok(());
                    }
                    let id = req.id.clone();
                    let method = req.method.clone();
                    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.request(req)));
                    let resp = match answer {
                        Ok(Ok(value)) => Response::new_ok(id, value),
                        Ok(Err(message)) => Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, message),
                        Err(_) => Response::new_err(
                            id,
                            lsp_server::ErrorCode::InternalError as i32,
                            format!("internal error answering `{method}` (a bug in claimc; please report it)"),
                        ),
                    };
                    self.conn.sender.send(Message::Response(resp))?;
                }
                Message::Notification(n) => {
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.notification(n)));
                }
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    fn notification(&mut self, n: Notification) {
        use lsp::notification::*;
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD) {
                    if let Some(path) = path_of(&p.text_document.uri) {
                        self.changed(&path, p.text_document.text);
                    }
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp::DidChangeTextDocumentParams>(DidChangeTextDocument::METHOD) {
                    let Some(path) = path_of(&p.text_document.uri) else { return };
                    let mut text = self.ws.open.get(&path).cloned().unwrap_or_default();
                    for c in p.content_changes {
                        match c.range {
                            None => text = c.text,
                            Some(r) => {
                                let ix = LineIndex::new(&text, self.utf8);
                                let (a, b) = (ix.offset(r.start) as usize, ix.offset(r.end) as usize);
                                if a <= b && b <= text.len() && text.is_char_boundary(a) && text.is_char_boundary(b) {
                                    text.replace_range(a..b, &c.text);
                                }
                            }
                        }
                    }
                    self.changed(&path, text);
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = n.extract::<lsp::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD) {
                    if let Some(path) = path_of(&p.text_document.uri) {
                        self.ws.open.remove(&path);
                        // Back to what is on disk.
                        if let Ok(text) = crate::utf8::read_to_string(&path) {
                            if self.ws.set_text(&path, text).is_ok() {
                                self.ws.open.remove(&path);
                                self.dirty.insert(path);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn changed(&mut self, path: &std::path::Path, text: String) {
        if self.ws.set_text(path, text).is_ok() {
            self.dirty.insert(path.to_path_buf());
        }
    }

    /// Publishes the diagnostics of every file of the project holding
    /// `path` that changed since last time (an edit in one module can
    /// break its importers).
    fn publish(&mut self, path: &std::path::Path) {
        let Ok(i) = self.ws.project_for(path) else { return };
        let program = self.ws.projects[i].program;
        let compiled = claim_sema::compile(&self.ws.db, program);
        // The project's own files (the standard library's are not shown).
        let own: std::collections::HashSet<claim_syntax::FileId> = self.ws.projects[i]
            .modules
            .iter()
            .filter(|(m, _)| !claim_sema::db::is_std_module(m))
            .map(|(_, f)| f.file_id(&self.ws.db))
            .collect();
        // The texts and line indexes of the files the diagnostics name,
        // each made once: copying every file's text and indexing a file
        // for each diagnostic made a publish on a large project slow.
        let mut texts: HashMap<claim_syntax::FileId, std::sync::Arc<str>> = HashMap::new();
        for d in &compiled.diagnostics {
            for l in d.primary.iter().chain(d.secondary.iter()) {
                if let std::collections::hash_map::Entry::Vacant(e) = texts.entry(l.loc.file) {
                    if let Some(t) = self.ws.shared_text(l.loc.file) {
                        e.insert(t);
                    }
                }
            }
        }
        let indexes: HashMap<claim_syntax::FileId, LineIndex<'_>> =
            texts.iter().map(|(id, t)| (*id, LineIndex::new(t, self.utf8))).collect();
        let mut by_file: HashMap<PathBuf, Vec<lsp::Diagnostic>> = HashMap::new();
        for d in &compiled.diagnostics {
            let Some(primary) = &d.primary else { continue };
            if !own.contains(&primary.loc.file) {
                continue;
            }
            let Some(path) = self.ws.paths.get(&primary.loc.file) else { continue };
            let Some(ix) = indexes.get(&primary.loc.file) else { continue };
            let related = |l: &claim_diagnostics::Label| {
                let uri = uri_of(self.ws.paths.get(&l.loc.file)?)?;
                Some(lsp::Location { uri, range: indexes.get(&l.loc.file)?.range(l.loc.span) })
            };
            if let Some(ld) = convert::diagnostic(d, ix, related) {
                by_file.entry(path.clone()).or_default().push(ld);
            }
        }
        // A file with none now is published empty where it had some, or
        // was never published.
        for id in &own {
            let Some(p) = self.ws.paths.get(id) else { continue };
            if !by_file.contains_key(p) && self.published.get(p).is_none_or(|was| !was.is_empty()) {
                by_file.insert(p.clone(), Vec::new());
            }
        }
        for (p, diags) in by_file {
            if self.published.get(&p) == Some(&diags) {
                continue;
            }
            let Some(uri) = uri_of(&p) else { continue };
            let params = lsp::PublishDiagnosticsParams { uri, diagnostics: diags.clone(), version: None };
            let n = Notification::new(lsp::notification::PublishDiagnostics::METHOD.to_string(), params);
            let _ = self.conn.sender.send(Message::Notification(n));
            self.published.insert(p, diags);
        }
    }

    pub(crate) fn send_request(&mut self, method: &str, params: serde_json::Value) {
        self.next_request += 1;
        let r = Request::new(RequestId::from(format!("claim-{}", self.next_request)), method.to_string(), params);
        let _ = self.conn.sender.send(Message::Request(r));
    }

    pub(crate) fn notify(&self, method: &str, params: impl serde::Serialize) {
        let _ = self.conn.sender.send(Message::Notification(Notification::new(method.to_string(), params)));
    }
}

pub(crate) fn extract<P: serde::de::DeserializeOwned>(req: Request, method: &str) -> Result<P, String> {
    req.extract(method).map(|(_, p)| p).map_err(|e| match e {
        ExtractError::JsonError { error, .. } => format!("invalid parameters: {error}"),
        ExtractError::MethodMismatch(r) => format!("unexpected method `{}`", r.method),
    })
}
