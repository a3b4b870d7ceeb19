//! The requests: each turns positions into offsets, asks `claim_ide`, and
//! turns the answer back into the protocol's terms.

use super::convert::{path_of, uri_of, LineIndex};
use super::{extract, Server, RUN_WITNESS};
use claim_ide::{CompletionKind, SymbolKind};
use lsp_server::Request;
use lsp_types as lsp;
use serde_json::Value;
use std::path::{Path, PathBuf};

type Answer = Result<Value, String>;

fn json(v: impl serde::Serialize) -> Answer {
    serde_json::to_value(v).map_err(|e| e.to_string())
}

impl Server {
    pub(crate) fn request(&mut self, req: Request) -> Answer {
        use lsp::request::*;
        match req.method.as_str() {
            HoverRequest::METHOD => {
                let p: lsp::HoverParams = extract(req, HoverRequest::METHOD)?;
                self.hover(&p.text_document_position_params)
            }
            GotoDefinition::METHOD => {
                let p: lsp::GotoDefinitionParams = extract(req, GotoDefinition::METHOD)?;
                self.definition(&p.text_document_position_params)
            }
            References::METHOD => {
                let p: lsp::ReferenceParams = extract(req, References::METHOD)?;
                self.references(&p.text_document_position, p.context.include_declaration)
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp::DocumentSymbolParams = extract(req, DocumentSymbolRequest::METHOD)?;
                self.document_symbols(&p.text_document.uri)
            }
            WorkspaceSymbolRequest::METHOD => {
                let p: lsp::WorkspaceSymbolParams = extract(req, WorkspaceSymbolRequest::METHOD)?;
                self.workspace_symbols(&p.query)
            }
            Completion::METHOD => {
                let p: lsp::CompletionParams = extract(req, Completion::METHOD)?;
                self.completion(&p.text_document_position)
            }
            Formatting::METHOD => {
                let p: lsp::DocumentFormattingParams = extract(req, Formatting::METHOD)?;
                self.formatting(&p.text_document.uri)
            }
            CodeLensRequest::METHOD => {
                let p: lsp::CodeLensParams = extract(req, CodeLensRequest::METHOD)?;
                self.code_lens(&p.text_document.uri)
            }
            DocumentHighlightRequest::METHOD => {
                let p: lsp::DocumentHighlightParams = extract(req, DocumentHighlightRequest::METHOD)?;
                self.highlights(&p.text_document_position_params)
            }
            InlayHintRequest::METHOD => {
                let p: lsp::InlayHintParams = extract(req, InlayHintRequest::METHOD)?;
                self.inlay_hints(&p)
            }
            SignatureHelpRequest::METHOD => {
                let p: lsp::SignatureHelpParams = extract(req, SignatureHelpRequest::METHOD)?;
                self.signature_help(&p.text_document_position_params)
            }
            CodeActionRequest::METHOD => {
                let p: lsp::CodeActionParams = extract(req, CodeActionRequest::METHOD)?;
                self.code_actions(&p)
            }
            PrepareRenameRequest::METHOD => {
                let p: lsp::TextDocumentPositionParams = extract(req, PrepareRenameRequest::METHOD)?;
                self.prepare_rename(&p)
            }
            Rename::METHOD => {
                let p: lsp::RenameParams = extract(req, Rename::METHOD)?;
                self.rename(&p.text_document_position, &p.new_name)
            }
            DocumentLinkRequest::METHOD => {
                let p: lsp::DocumentLinkParams = extract(req, DocumentLinkRequest::METHOD)?;
                self.document_links(&p.text_document.uri)
            }
            ExecuteCommand::METHOD => {
                let p: lsp::ExecuteCommandParams = extract(req, ExecuteCommand::METHOD)?;
                self.execute(p)
            }
            other => Err(format!("`{other}` is not supported by claimc lsp")),
        }
    }

    /// A document's project and module, its project loaded if it was not.
    fn document(&mut self, uri: &lsp::Uri) -> Result<(PathBuf, claim_sema::Program, claim_sema::SourceFile), String> {
        let path = path_of(uri).ok_or("not a file URI")?;
        if self.ws.lookup(&path).is_none() {
            self.ws.project_for(&path).map_err(|d| d.message.clone())?;
        }
        let (project, file) = self.ws.lookup(&path).ok_or("the file is not part of a project")?;
        let program = project.program;
        Ok((path, program, file))
    }

    /// The file, its text and the byte offset of a position.
    fn locate(
        &mut self,
        p: &lsp::TextDocumentPositionParams,
    ) -> Result<(PathBuf, claim_sema::SourceFile, u32), String> {
        let (path, _, file) = self.document(&p.text_document.uri)?;
        let text = file.text(&self.ws.db).clone();
        let offset = LineIndex::new(&text, self.utf8).offset(p.position);
        Ok((path, file, offset))
    }

    fn program_of(&self, path: &Path) -> Option<claim_sema::Program> {
        self.ws.lookup(path).map(|(p, _)| p.program)
    }

    fn location(&self, loc: claim_syntax::Loc) -> Option<lsp::Location> {
        let path = self.ws.paths.get(&loc.file)?;
        let text = self.ws.text(loc.file)?;
        Some(lsp::Location { uri: uri_of(path)?, range: LineIndex::new(&text, self.utf8).range(loc.span) })
    }

    fn hover(&mut self, p: &lsp::TextDocumentPositionParams) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let Some((markdown, span)) = claim_ide::hover(&self.ws.db, program, file, offset) else {
            return Ok(Value::Null);
        };
        let text = file.text(&self.ws.db);
        json(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(LineIndex::new(text, self.utf8).range(span)),
        })
    }

    fn definition(&mut self, p: &lsp::TextDocumentPositionParams) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let found = claim_ide::at(&self.ws.db, program, file, offset)
            .and_then(|o| claim_ide::definition(&self.ws.db, program, &o.def))
            .and_then(|loc| self.location(loc));
        match found {
            Some(l) => json(lsp::GotoDefinitionResponse::Scalar(l)),
            None => Ok(Value::Null),
        }
    }

    fn references(&mut self, p: &lsp::TextDocumentPositionParams, include_decl: bool) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let Some(o) = claim_ide::at(&self.ws.db, program, file, offset) else {
            return Ok(Value::Null);
        };
        let locs: Vec<lsp::Location> = claim_ide::references(&self.ws.db, program, &o.def, include_decl)
            .into_iter()
            .filter_map(|l| self.location(l))
            .collect();
        json(locs)
    }

    /// The other places in the file that name what the cursor is on.
    fn highlights(&mut self, p: &lsp::TextDocumentPositionParams) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let text = file.text(&self.ws.db).clone();
        let ix = LineIndex::new(&text, self.utf8);
        let out: Vec<lsp::DocumentHighlight> = claim_ide::highlights(&self.ws.db, program, file, offset)
            .into_iter()
            .map(|(span, decl)| lsp::DocumentHighlight {
                range: ix.range(span),
                kind: Some(if decl { lsp::DocumentHighlightKind::WRITE } else { lsp::DocumentHighlightKind::READ }),
            })
            .collect();
        json(out)
    }

    /// The types of the locals bound without one written, in the range.
    fn inlay_hints(&mut self, p: &lsp::InlayHintParams) -> Answer {
        let (_, program, file) = self.document(&p.text_document.uri)?;
        let text = file.text(&self.ws.db).clone();
        let ix = LineIndex::new(&text, self.utf8);
        let (from, to) = (ix.offset(p.range.start), ix.offset(p.range.end));
        let hints: Vec<lsp::InlayHint> = claim_ide::inlay_types(&self.ws.db, program, file)
            .into_iter()
            .filter(|(at, _)| from <= *at && *at <= to)
            .map(|(at, label)| lsp::InlayHint {
                position: ix.position(at),
                label: lsp::InlayHintLabel::String(label),
                kind: Some(lsp::InlayHintKind::TYPE),
                text_edits: None,
                tooltip: None,
                padding_left: None,
                padding_right: None,
                data: None,
            })
            .collect();
        json(hints)
    }

    /// Each path a world call names as a literal, linked to the file or
    /// folder it reads, where that exists inside the project: a reviewer
    /// opens the receipt from the `load` that reads it.
    fn document_links(&mut self, uri: &lsp::Uri) -> Answer {
        let (path, program, file) = self.document(uri)?;
        let root = self.ws.lookup(&path).map(|(p, _)| p.root.clone()).ok_or("the file is not part of a project")?;
        let dir = path.parent().unwrap_or(&root).to_path_buf();
        let text = file.text(&self.ws.db).clone();
        let ix = LineIndex::new(&text, self.utf8);
        let links: Vec<lsp::DocumentLink> = claim_ide::world_paths(&self.ws.db, program, file)
            .into_iter()
            .filter_map(|(span, written)| {
                let target = link_target(&root, &dir, &written)?;
                Some(lsp::DocumentLink {
                    range: ix.range(span),
                    target: Some(uri_of(&target)?),
                    tooltip: Some(format!("open `{written}`")),
                    data: None,
                })
            })
            .collect();
        json(links)
    }

    /// The signature of the call being typed, its parameter under the cursor
    /// marked.
    fn signature_help(&mut self, p: &lsp::TextDocumentPositionParams) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let Some(s) = claim_ide::signature_help(&self.ws.db, program, file, offset) else {
            return Ok(Value::Null);
        };
        // Parameter ranges in the label, in the agreed position encoding.
        let units = |b: u32| -> u32 {
            let head = s.label.get(..b as usize).unwrap_or("");
            if self.utf8 {
                head.len() as u32
            } else {
                head.encode_utf16().count() as u32
            }
        };
        let parameters = s
            .params
            .iter()
            .map(|(a, b)| lsp::ParameterInformation {
                label: lsp::ParameterLabel::LabelOffsets([units(*a), units(*b)]),
                documentation: None,
            })
            .collect();
        let documentation = s.docs.map(|d| {
            lsp::Documentation::MarkupContent(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: d })
        });
        json(lsp::SignatureHelp {
            signatures: vec![lsp::SignatureInformation {
                label: s.label.clone(),
                documentation,
                parameters: Some(parameters),
                active_parameter: Some(s.active),
            }],
            active_signature: Some(0),
            active_parameter: Some(s.active),
        })
    }

    /// A quick fix for each diagnostic in the range that carries one (a
    /// close name for a misspelt one).
    // `WorkspaceEdit` keys its changes by `Uri`: see `rename`.
    #[allow(clippy::mutable_key_type)]
    fn code_actions(&mut self, p: &lsp::CodeActionParams) -> Answer {
        let uri = &p.text_document.uri;
        let (_, program, file) = self.document(uri)?;
        let id = file.file_id(&self.ws.db);
        let text = file.text(&self.ws.db).clone();
        let ix = LineIndex::new(&text, self.utf8);
        let (from, to) = (ix.offset(p.range.start), ix.offset(p.range.end));
        let mut actions = Vec::new();
        for d in &claim_sema::compile(&self.ws.db, program).diagnostics {
            let Some(fix) = d.fix.as_ref().filter(|f| f.loc.file == id) else { continue };
            // Offered where the diagnostic is (an import's fix edits the
            // top of the file, far from the name it imports).
            let at = d.primary.as_ref().filter(|p| p.loc.file == id).map_or(fix.loc.span, |p| p.loc.span);
            if at.end < from || at.start > to {
                continue;
            }
            let span = fix.loc.span;
            let old = text.get(span.start as usize..span.end as usize).unwrap_or_default();
            let title = match old {
                "" => format!("add `{}`", fix.replacement.trim()),
                _ => format!("replace `{old}` with `{}`", fix.replacement),
            };
            let edit = lsp::TextEdit { range: ix.range(span), new_text: fix.replacement.clone() };
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title,
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: super::convert::diagnostic(d, &ix, |_| None).map(|x| vec![x]),
                edit: Some(lsp::WorkspaceEdit {
                    changes: Some([(uri.clone(), vec![edit])].into_iter().collect()),
                    ..Default::default()
                }),
                is_preferred: Some(true),
                ..Default::default()
            }));
        }
        json(actions)
    }

    /// The range of the name a rename would rename, or why there is none
    /// (an error the editor shows before asking for the new name).
    fn prepare_rename(&mut self, p: &lsp::TextDocumentPositionParams) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let target = claim_ide::rename::prepare(&self.ws.db, program, file, offset)?;
        let range = LineIndex::new(file.text(&self.ws.db), self.utf8).range(target.span);
        json(lsp::PrepareRenameResponse::RangeWithPlaceholder { range, placeholder: target.name.to_string() })
    }

    /// Every edit of the rename, in every module of the project; refused,
    /// with the reason, where it would change what the program means.
    // The protocol's `WorkspaceEdit` keys its changes by `Uri` (which
    // caches its parse inside); the keys are never changed once made.
    #[allow(clippy::mutable_key_type)]
    fn rename(&mut self, p: &lsp::TextDocumentPositionParams, new_name: &str) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let edits = claim_ide::rename::rename(&mut self.ws.db, program, file, offset, new_name)?;
        let mut changes: std::collections::HashMap<lsp::Uri, Vec<lsp::TextEdit>> = Default::default();
        for e in edits {
            let id = e.file.file_id(&self.ws.db);
            let path = self.ws.paths.get(&id).ok_or("a module without a path")?;
            let uri = uri_of(path).ok_or("a module without a file URI")?;
            let range = LineIndex::new(e.file.text(&self.ws.db), self.utf8).range(e.span);
            changes.entry(uri).or_default().push(lsp::TextEdit { range, new_text: e.text });
        }
        json(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() })
    }

    fn document_symbols(&mut self, uri: &lsp::Uri) -> Answer {
        let (_, _, file) = self.document(uri)?;
        let text = file.text(&self.ws.db).clone();
        let ix = LineIndex::new(&text, self.utf8);
        #[allow(deprecated)]
        fn convert(s: &claim_ide::Symbol, ix: &LineIndex<'_>) -> lsp::DocumentSymbol {
            lsp::DocumentSymbol {
                name: s.name.clone(),
                detail: None,
                kind: symbol_kind(s.kind),
                tags: None,
                deprecated: None,
                range: ix.range(s.span),
                selection_range: ix.range(s.name_span),
                children: Some(s.children.iter().map(|c| convert(c, ix)).collect()),
            }
        }
        let symbols: Vec<lsp::DocumentSymbol> =
            claim_ide::document_symbols(&self.ws.db, file).iter().map(|s| convert(s, &ix)).collect();
        json(lsp::DocumentSymbolResponse::Nested(symbols))
    }

    fn workspace_symbols(&mut self, query: &str) -> Answer {
        let mut out = Vec::new();
        for project in &self.ws.projects {
            for (file, s) in claim_ide::workspace_symbols(&self.ws.db, project.program, query) {
                let Some(location) = self.location(claim_syntax::Loc::new(file, s.name_span)) else { continue };
                #[allow(deprecated)]
                out.push(lsp::SymbolInformation {
                    name: s.name.clone(),
                    kind: symbol_kind(s.kind),
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: None,
                });
            }
        }
        json(out)
    }

    fn completion(&mut self, p: &lsp::TextDocumentPositionParams) -> Answer {
        let (path, file, offset) = self.locate(p)?;
        let program = self.program_of(&path).ok_or("no project")?;
        let items: Vec<lsp::CompletionItem> = claim_ide::completions(&self.ws.db, program, file, offset)
            .into_iter()
            .map(|c| lsp::CompletionItem {
                label: c.label,
                kind: Some(completion_kind(c.kind)),
                detail: c.detail,
                ..Default::default()
            })
            .collect();
        json(lsp::CompletionResponse::Array(items))
    }

    fn formatting(&mut self, uri: &lsp::Uri) -> Answer {
        let path = path_of(uri).ok_or("not a file URI")?;
        let text = match self.ws.open.get(&path) {
            Some(t) => t.clone(),
            None => crate::utf8::read_to_string(&path).map_err(|e| e.to_string())?,
        };
        // A file with syntax errors is left alone; the errors are already
        // published as diagnostics.
        let Ok(formatted) = claim_fmt::format_source(&text) else {
            return Ok(Value::Null);
        };
        if formatted == text {
            return json(Vec::<lsp::TextEdit>::new());
        }
        let ix = LineIndex::new(&text, self.utf8);
        let whole = lsp::Range { start: lsp::Position::new(0, 0), end: ix.position(text.len() as u32) };
        json(vec![lsp::TextEdit { range: whole, new_text: formatted }])
    }

    fn code_lens(&mut self, uri: &lsp::Uri) -> Answer {
        let (path, _, file) = self.document(uri)?;
        let text = file.text(&self.ws.db).clone();
        let ix = LineIndex::new(&text, self.utf8);
        let mut lenses = Vec::new();
        for s in claim_ide::document_symbols(&self.ws.db, file) {
            if s.kind != SymbolKind::Witness {
                continue;
            }
            let title = match self.verdicts.get(&(path.clone(), s.name.clone())) {
                Some(v) => format!("{v} · run again"),
                None => "▶ run witness".to_string(),
            };
            lenses.push(lsp::CodeLens {
                range: ix.range(s.name_span),
                command: Some(lsp::Command {
                    title,
                    command: RUN_WITNESS.to_string(),
                    arguments: Some(vec![json(uri)?, Value::String(s.name.clone())]),
                }),
                data: None,
            });
        }
        json(lenses)
    }

    /// Runs one witness as `claim_batch` would, on the files as saved, and
    /// reports its verdict (also shown on the lens from then on).
    fn execute(&mut self, p: lsp::ExecuteCommandParams) -> Answer {
        if p.command != RUN_WITNESS {
            return Err(format!("unknown command `{}`", p.command));
        }
        let (Some(uri), Some(Value::String(name))) = (p.arguments.first(), p.arguments.get(1)) else {
            return Err("expected arguments [uri, witness name]".into());
        };
        let uri: lsp::Uri = serde_json::from_value(uri.clone()).map_err(|e| e.to_string())?;
        let path = path_of(&uri).ok_or("not a file URI")?;
        let root = super::root_of(&path);
        let opts = crate::options::BatchOptions::json_run(vec![root], Some(name.clone()));
        let out = crate::batch::run(&opts);
        let report: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
        let witness = report["witnesses"].as_array().and_then(|ws| ws.iter().find(|w| w["name"] == name.as_str()));
        let verdict = match witness {
            Some(w) if w["status"] == "pass" => "PASS".to_string(),
            Some(w) => {
                let why = w["diagnostics"][0]["message"].as_str().unwrap_or("failed");
                format!("FAIL: {why}")
            }
            None => {
                let why = report["diagnostics"][0]["message"].as_str().unwrap_or("the program did not compile");
                format!("NOT RUN: {why}")
            }
        };
        self.verdicts.insert((path, name.clone()), verdict.clone());
        let message = format!("{verdict} {name}");
        self.notify(
            <lsp::notification::ShowMessage as lsp::notification::Notification>::METHOD,
            lsp::ShowMessageParams {
                typ: if verdict == "PASS" { lsp::MessageType::INFO } else { lsp::MessageType::ERROR },
                message: message.clone(),
            },
        );
        if self.lens_refresh {
            self.send_request(<lsp::request::CodeLensRefresh as lsp::request::Request>::METHOD, Value::Null);
        }
        Ok(Value::String(message))
    }
}

fn symbol_kind(k: SymbolKind) -> lsp::SymbolKind {
    match k {
        SymbolKind::Module => lsp::SymbolKind::MODULE,
        SymbolKind::Type => lsp::SymbolKind::STRUCT,
        SymbolKind::Enum => lsp::SymbolKind::ENUM,
        SymbolKind::Function => lsp::SymbolKind::FUNCTION,
        SymbolKind::Fact => lsp::SymbolKind::CONSTANT,
        SymbolKind::Refusal => lsp::SymbolKind::EVENT,
        SymbolKind::Witness => lsp::SymbolKind::METHOD,
        SymbolKind::Frontier => lsp::SymbolKind::PROPERTY,
        SymbolKind::Field => lsp::SymbolKind::FIELD,
        SymbolKind::Variant => lsp::SymbolKind::ENUM_MEMBER,
    }
}

fn completion_kind(k: CompletionKind) -> lsp::CompletionItemKind {
    match k {
        CompletionKind::Module => lsp::CompletionItemKind::MODULE,
        CompletionKind::Type => lsp::CompletionItemKind::STRUCT,
        CompletionKind::Function => lsp::CompletionItemKind::FUNCTION,
        CompletionKind::Fact => lsp::CompletionItemKind::CONSTANT,
        CompletionKind::Field => lsp::CompletionItemKind::FIELD,
        CompletionKind::Variant => lsp::CompletionItemKind::ENUM_MEMBER,
        CompletionKind::Refusal => lsp::CompletionItemKind::EVENT,
        CompletionKind::Local => lsp::CompletionItemKind::VARIABLE,
        CompletionKind::Keyword => lsp::CompletionItemKind::KEYWORD,
    }
}

/// The file or folder a path a program names is, as `load` reads it:
/// relative to the module's folder, or to the project root after `//`.
/// `None` where it does not exist or lies outside the project (by `..` or
/// through a symlink): such a path is an error when the program runs, and
/// the editor shows no link for it.
fn link_target(root: &Path, dir: &Path, written: &str) -> Option<PathBuf> {
    use std::path::Component;
    let (mut full, rel) = match written.strip_prefix("//") {
        Some(rest) => (root.to_path_buf(), rest),
        None => (dir.to_path_buf(), written),
    };
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(part) => full.push(part),
            Component::CurDir => {}
            Component::ParentDir if full.starts_with(root) && full != root => {
                full.pop();
            }
            _ => return None,
        }
    }
    let (real, real_root) = (full.canonicalize().ok()?, root.canonicalize().ok()?);
    real.starts_with(&real_root).then_some(full)
}
