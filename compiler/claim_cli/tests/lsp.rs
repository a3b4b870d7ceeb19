//! Drives `claimc lsp` through its protocol on stdio, as an editor would:
//! initialize, open, a syntax error and its repair, hover, definition,
//! references, symbols, completion, formatting, a witness's code lens and
//! its command, rename, quick fixes, signature help, highlights, inlay
//! hints, shutdown and exit.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next: i64,
    /// Notifications seen while waiting for responses.
    pending: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_claimc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("claimc lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                    let _ = tx.send(v);
                }
            }
        });
        Client { child, stdin, rx, next: 0, pending: Vec::new() }
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let v = self.respond(method, params);
        assert!(v.get("error").is_none(), "{method} failed: {v}");
        v["result"].clone()
    }

    /// The whole response to a request: its result or its error.
    fn respond(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let v = self.rx.recv_timeout(Duration::from_secs(30)).expect("a response within 30 s");
            if v["id"] == json!(id) && v.get("method").is_none() {
                return v;
            }
            self.pending.push(v);
        }
    }

    /// A server started on the project `dir`, initialised: and what it
    /// said it can do.
    fn on(dir: &Path) -> (Client, Value) {
        let mut c = Client::start();
        let init = c.request("initialize", json!({"processId": null, "rootUri": uri(dir), "capabilities": {}}));
        c.notify("initialized", json!({}));
        (c, init["capabilities"].clone())
    }

    /// Shuts the server down, which must exit cleanly, and removes `dir`.
    fn finish(mut self, dir: &Path) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        assert!(self.child.wait().expect("wait").success());
        let _ = std::fs::remove_dir_all(dir);
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        if let Some(i) = self
            .pending
            .iter()
            .position(|v| v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri)
        {
            let v = self.pending.remove(i);
            return v["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
        }
        loop {
            let v = self.rx.recv_timeout(Duration::from_secs(30)).expect("diagnostics within 30 s");
            if v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri {
                return v["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
            self.pending.push(v);
        }
    }
}

fn uri(p: &Path) -> String {
    format!("file://{}", p.display())
}

fn project() -> PathBuf {
    // One folder per test: the tests run in parallel in one process.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("claim-lsp-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("Claim.toml"), "").expect("write");
    std::fs::write(
        dir.join("lib.claim"),
        "/// A wheel and its digest.\nrecord Wheel { name: Text, size: Int }\n\nrefusal TooSmall \"the wheel is too small\"\n\n/// Twice the size.\nfn double(w: Wheel) -> Int {\n  require w.size > 0 else refuse TooSmall \"{w.name}\";\n  w.size * 2\n}\n",
    )
    .expect("write");
    std::fs::write(dir.join("main.claim"), MAIN).expect("write");
    dir
}

const MAIN: &str = "use lib.{Wheel, double}\nuse std.provenance.{produced}\n\nfact w: Wheel = Wheel { name: \"a\", size: 2 }\n\nwitness doubles {\n  holds double(w) == 4\n  refuses double(Wheel { name: \"b\", size: 0 }) with TooSmall\n}\n";

fn pos(text: &str, needle: &str, nth: usize) -> Value {
    let off = text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("needle");
    let line = text[..off].matches('\n').count();
    let col = off - text[..off].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

#[test]
fn the_language_server_answers_through_its_protocol() {
    let dir = project();
    let main = dir.join("main.claim");
    let main_uri = uri(&main);
    let lib_uri = uri(&dir.join("lib.claim"));
    let mut c = Client::start();
    let init = c.request("initialize", json!({"processId": null, "rootUri": uri(&dir), "capabilities": {}}));
    assert_eq!(init["capabilities"]["definitionProvider"], json!(true));
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], json!(2), "incremental sync");
    c.notify("initialized", json!({}));

    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "claim", "version": 1, "text": MAIN}}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new(), "a correct file has no diagnostics");

    // A syntax error typed in (an incremental change: `==` becomes `=`)...
    let eq = pos(MAIN, "==", 0);
    let eq_end = json!({"line": eq["line"], "character": eq["character"].as_u64().unwrap_or(0) + 2});
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 2}, "contentChanges": [{"range": {"start": eq, "end": eq_end}, "text": "="}]}),
    );
    let diags = c.diagnostics_for(&main_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0010");
    assert_eq!(diags[0]["range"]["start"], eq);
    assert!(diags[0]["message"].as_str().unwrap_or("").contains("to compare, write `==`"), "{diags:?}");
    // ... and repaired (a full change).
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 3}, "contentChanges": [{"text": MAIN}]}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new());

    // A type error names the related declaration.
    let bad = MAIN.replace("size: 2 }", "size: \"2\" }");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 4}, "contentChanges": [{"text": bad}]}),
    );
    let diags = c.diagnostics_for(&main_uri);
    assert!(diags.iter().any(|d| d["code"].as_str().is_some_and(|s| s.starts_with("E02"))), "{diags:?}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 5}, "contentChanges": [{"text": MAIN}]}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new());

    // A code declared again points, as related information, at the first
    // declaration in the other file.
    let again = format!("{MAIN}refusal TooSmall \"again\"\n");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 6}, "contentChanges": [{"text": again}]}),
    );
    let diags = c.diagnostics_for(&main_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0213");
    let related = &diags[0]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], lib_uri, "{diags:?}");
    assert_eq!(related["location"]["range"]["start"], json!({"line": 3, "character": 8}), "{diags:?}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 7}, "contentChanges": [{"text": MAIN}]}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new());

    let at = |needle: &str, nth: usize| json!({"textDocument": {"uri": main_uri}, "position": pos(MAIN, needle, nth)});

    // Hover: a fact's type; a function's signature and doc comment; the
    // standard library's docs; the type of an expression.
    let h = c.request("textDocument/hover", at("w: Wheel", 0));
    assert!(h["contents"]["value"].as_str().unwrap_or("").contains("w: Wheel"), "{h}");
    let h = c.request("textDocument/hover", at("double(w)", 0));
    let text = h["contents"]["value"].as_str().unwrap_or("");
    assert!(text.contains("fn double(w: Wheel) -> Int") && text.contains("Twice the size."), "{h}");
    let h = c.request("textDocument/hover", at("produced", 0));
    assert!(h["contents"]["value"].as_str().unwrap_or("").contains("PRODUCED"), "{h}");
    let h = c.request("textDocument/hover", at("== 4", 0));
    assert!(h["contents"]["value"].as_str().unwrap_or("").contains("Bool"), "{h}");

    // Definition: into another module, onto a field, into the stdlib.
    let d = c.request("textDocument/definition", at("double(w)", 0));
    assert_eq!(d["uri"], lib_uri);
    assert_eq!(d["range"]["start"], json!({"line": 6, "character": 3}));
    let d = c.request("textDocument/definition", at("size: 2", 0));
    assert_eq!(d["uri"], lib_uri);
    assert_eq!(d["range"]["start"], json!({"line": 1, "character": 27}));
    let d = c.request("textDocument/definition", at("TooSmall", 0));
    assert_eq!(d["uri"], lib_uri);
    let d = c.request("textDocument/definition", at("produced", 0));
    assert!(d["uri"].as_str().unwrap_or("").ends_with("/provenance.claim"), "{d}");
    let d = c.request("textDocument/definition", at("lib", 0));
    assert_eq!(d["uri"], lib_uri);

    // References: `w` is declared once and read once.
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": main_uri}, "position": pos(MAIN, "w)", 0), "context": {"includeDeclaration": true}}),
    );
    assert_eq!(r.as_array().map(Vec::len), Some(2), "{r}");
    // `Wheel` across both modules: its declaration, a parameter type, the
    // import, the fact's type and two literals.
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": main_uri}, "position": pos(MAIN, "Wheel", 1), "context": {"includeDeclaration": true}}),
    );
    assert_eq!(r.as_array().map(Vec::len), Some(6), "{r}");

    // Symbols.
    let s = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": lib_uri}}));
    let names: Vec<&str> = s.as_array().into_iter().flatten().filter_map(|x| x["name"].as_str()).collect();
    assert_eq!(names, ["Wheel", "TooSmall", "double"]);
    assert_eq!(s[0]["children"].as_array().map(Vec::len), Some(2), "the record's fields");
    let s = c.request("workspace/symbol", json!({"query": "doub"}));
    assert_eq!(s[0]["name"], "double");

    // Completion: fields after `.`, codes after `with`, modules after `use`.
    let edited = MAIN.replace("holds double(w) == 4", "holds w.");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 6}, "contentChanges": [{"text": edited}]}),
    );
    let _ = c.diagnostics_for(&main_uri);
    let labels = |v: &Value| -> Vec<String> {
        v.as_array().into_iter().flatten().filter_map(|x| x["label"].as_str().map(String::from)).collect()
    };
    let p = pos(&edited, "w.", 0);
    let p = json!({"line": p["line"], "character": p["character"].as_u64().unwrap_or(0) + 2});
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": main_uri}, "position": p}));
    assert_eq!(labels(&items), ["name", "size"], "half-typed input still completes");
    let p = pos(&edited, "TooSmall", 0);
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": main_uri}, "position": p}));
    assert!(labels(&items).contains(&"TooSmall".to_string()) && labels(&items).contains(&"Overflow".to_string()));
    let p = json!({"line": 1, "character": 8});
    let items = c.request("textDocument/completion", json!({"textDocument": {"uri": main_uri}, "position": p}));
    assert!(labels(&items).contains(&"std.provenance".to_string()), "{items}");
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": main_uri}, "position": pos(&edited, "fact", 0)}),
    );
    assert!(labels(&items).contains(&"double".to_string()) && labels(&items).contains(&"len".to_string()));

    // Formatting: one whole-document edit to the canonical layout.
    let messy =
        MAIN.replace("fact w: Wheel = Wheel { name: \"a\", size: 2 }", "fact   w :Wheel=Wheel{name:\"a\",size:2}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 7}, "contentChanges": [{"text": messy}]}),
    );
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": main_uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(edits[0]["newText"], MAIN);

    // The witness's code lens runs it.
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": main_uri}}));
    assert_eq!(lenses[0]["command"]["command"], "claim.runWitness");
    let args = lenses[0]["command"]["arguments"].clone();
    let verdict = c.request("workspace/executeCommand", json!({"command": "claim.runWitness", "arguments": args}));
    assert_eq!(verdict, "PASS doubles");
    let lenses = c.request("textDocument/codeLens", json!({"textDocument": {"uri": main_uri}}));
    assert!(lenses[0]["command"]["title"].as_str().unwrap_or("").starts_with("PASS"), "{lenses}");

    let r = c.request("shutdown", Value::Null);
    assert_eq!(r, Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().expect("wait");
    assert!(status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn half_typed_input_never_kills_the_server() {
    let dir = project();
    let main_uri = uri(&dir.join("main.claim"));
    let mut c = Client::start();
    c.request("initialize", json!({"processId": null, "capabilities": {}}));
    c.notify("initialized", json!({}));
    let mut text = String::new();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "claim", "version": 1, "text": ""}}),
    );
    // Type the file one character at a time, asking every request that
    // takes a position at every step.
    for (i, ch) in MAIN.chars().enumerate() {
        text.push(ch);
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": main_uri, "version": i + 2}, "contentChanges": [{"text": text}]}),
        );
        let lines: Vec<&str> = text.split('\n').collect();
        let p = json!({"line": lines.len() - 1, "character": lines.last().map_or(0, |l| l.chars().count())});
        let here = json!({"textDocument": {"uri": main_uri}, "position": p});
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/signatureHelp",
            "textDocument/documentHighlight",
            "textDocument/definition",
        ] {
            c.request(method, here.clone());
        }
        let whole = json!({"start": {"line": 0, "character": 0}, "end": p});
        c.request("textDocument/inlayHint", json!({"textDocument": {"uri": main_uri}, "range": whole}));
        c.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": main_uri}, "range": whole, "context": {"diagnostics": []}}),
        );
        // A rename may be refused (an error answer), never crash the server.
        let mut params = here.clone();
        params["newName"] = json!("renamed");
        let v = c.respond("textDocument/rename", params);
        assert!(v.get("result").is_some() || v["error"]["code"] == json!(-32602), "{v}");
    }
    c.finish(&dir);
}

#[test]
fn rename_edits_every_module_or_says_why_not() {
    let dir = project();
    let main_uri = uri(&dir.join("main.claim"));
    let lib_uri = uri(&dir.join("lib.claim"));
    let (mut c, can) = Client::on(&dir);
    assert_eq!(can["renameProvider"]["prepareProvider"], json!(true), "{can}");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "claim", "version": 1, "text": MAIN}}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new());
    let at = |needle: &str| json!({"textDocument": {"uri": main_uri}, "position": pos(MAIN, needle, 0)});

    // The name under the cursor, then every place it is named.
    let r = c.request("textDocument/prepareRename", at("double(w)"));
    assert_eq!(r["placeholder"], "double");
    assert_eq!(r["range"]["start"], pos(MAIN, "double(w)", 0));
    let mut params = at("double(w)");
    params["newName"] = json!("twice");
    let edit = c.request("textDocument/rename", params);
    let changes = &edit["changes"];
    assert_eq!(changes[&main_uri].as_array().map(Vec::len), Some(3), "{edit}");
    assert_eq!(changes[&lib_uri].as_array().map(Vec::len), Some(1), "{edit}");
    assert!(changes[&main_uri].as_array().into_iter().flatten().all(|e| e["newText"] == "twice"), "{edit}");
    assert_eq!(changes[&lib_uri][0]["range"]["start"], json!({"line": 6, "character": 3}));

    // Refused, with the reason: the standard library, a clash, a keyword.
    let error = |v: Value| v["error"]["message"].as_str().unwrap_or("").to_string();
    let e = error(c.respond("textDocument/prepareRename", at("produced")));
    assert_eq!(e, "`produced` is declared in the standard library (`std.provenance`), which cannot be renamed");
    let mut params = at("w: Wheel");
    params["newName"] = json!("double");
    let e = error(c.respond("textDocument/rename", params.clone()));
    assert!(e.starts_with("renaming `w` to `double` would add error E"), "{e}");
    params["newName"] = json!("fact");
    assert_eq!(error(c.respond("textDocument/rename", params)), "`fact` is a keyword, not a name");
    // The server's texts are as they were: the file still has no diagnostics
    // and `w` still renames.
    let mut params = at("w: Wheel");
    params["newName"] = json!("wheel");
    let edit = c.request("textDocument/rename", params);
    assert_eq!(edit["changes"][&main_uri].as_array().map(Vec::len), Some(2), "{edit}");

    c.finish(&dir);
}

#[test]
fn a_misspelt_name_has_a_quick_fix() {
    let dir = project();
    let main_uri = uri(&dir.join("main.claim"));
    let (mut c, can) = Client::on(&dir);
    assert_eq!(can["codeActionProvider"]["codeActionKinds"], json!(["quickfix"]), "{can}");
    let typo = MAIN.replace("holds double(w) == 4", "holds doubel(w) == 4");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "claim", "version": 1, "text": typo}}),
    );
    let diags = c.diagnostics_for(&main_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let range = diags[0]["range"].clone();
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": main_uri}, "range": range, "context": {"diagnostics": diags}}),
    );
    assert_eq!(actions.as_array().map(Vec::len), Some(1), "{actions}");
    assert_eq!(actions[0]["title"], "replace `doubel` with `double`");
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["diagnostics"][0]["code"], "E0201");
    let edit = &actions[0]["edit"]["changes"][&main_uri][0];
    assert_eq!((&edit["range"], &edit["newText"]), (&range, &json!("double")), "{actions}");
    // A function of another module, not imported: the fix adds its `use`.
    let unimported = typo.replace("use lib.{Wheel, double}\n", "use lib.{Wheel}\n").replace("doubel", "double");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 2}, "contentChanges": [{"text": unimported}]}),
    );
    let diags = c.diagnostics_for(&main_uri);
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": main_uri}, "range": diags[0]["range"], "context": {"diagnostics": diags}}),
    );
    assert_eq!(actions[0]["title"], "add `use lib.{double}`", "{actions}");
    let edit = &actions[0]["edit"]["changes"][&main_uri][0];
    assert_eq!(
        (&edit["range"]["start"], &edit["newText"]),
        (&json!({"line": 2, "character": 0}), &json!("use lib.{double}\n"))
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 3}, "contentChanges": [{"text": typo}]}),
    );
    let _ = c.diagnostics_for(&main_uri);
    // Elsewhere in the file there is nothing to fix.
    let elsewhere = json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}});
    let none = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": main_uri}, "range": elsewhere, "context": {"diagnostics": []}}),
    );
    assert_eq!(none, json!([]));
    // Applied, the file has no diagnostics.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 4}, "contentChanges": [{"range": range, "text": "double"}]}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new());

    c.finish(&dir);
}

#[test]
fn signature_help_while_a_call_is_typed() {
    let dir = project();
    let main_uri = uri(&dir.join("main.claim"));
    let (mut c, can) = Client::on(&dir);
    assert_eq!(can["signatureHelpProvider"]["triggerCharacters"], json!(["(", ","]), "{can}");
    // Half typed: `produced(w, ` does not parse yet.
    let typing = MAIN.replace("holds double(w) == 4", "holds produced(w, ");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "claim", "version": 1, "text": typing}}),
    );
    let at = pos(&typing, "produced(w, ", 0);
    let end = json!({"line": at["line"], "character": at["character"].as_u64().unwrap_or(0) + 12});
    let h = c.request("textDocument/signatureHelp", json!({"textDocument": {"uri": main_uri}, "position": end}));
    let sig = &h["signatures"][0];
    assert_eq!(sig["label"], "produced(c: Candidate, r: BuildReceipt) -> Produced", "{h}");
    assert_eq!(h["activeParameter"], 1);
    assert_eq!(sig["parameters"][1]["label"], json!([23, 38]), "`r: BuildReceipt`");
    assert!(sig["documentation"]["value"].as_str().is_some_and(|d| d.contains("PRODUCED")), "{h}");
    // Outside a call, none.
    let h = c.request(
        "textDocument/signatureHelp",
        json!({"textDocument": {"uri": main_uri}, "position": {"line": 0, "character": 3}}),
    );
    assert_eq!(h, Value::Null);

    c.finish(&dir);
}

#[test]
fn highlights_and_inlay_hints() {
    let dir = project();
    let main_uri = uri(&dir.join("main.claim"));
    let (mut c, can) = Client::on(&dir);
    assert_eq!(can["documentHighlightProvider"], json!(true), "{can}");
    assert_eq!(can["inlayHintProvider"], json!(true), "{can}");
    let text = MAIN.replace("holds double(w) == 4", "let twice = double(w)\n  holds twice == 4");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "claim", "version": 1, "text": text}}),
    );
    assert_eq!(c.diagnostics_for(&main_uri), Vec::<Value>::new());
    // `twice`: bound (a write), then read.
    let h = c.request(
        "textDocument/documentHighlight",
        json!({"textDocument": {"uri": main_uri}, "position": pos(&text, "twice ==", 0)}),
    );
    assert_eq!(h.as_array().map(Vec::len), Some(2), "{h}");
    assert_eq!((&h[0]["kind"], &h[1]["kind"]), (&json!(3), &json!(2)), "write, then read");
    assert_eq!(h[0]["range"]["start"], pos(&text, "twice =", 0));
    // Its type, after its name.
    let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}});
    let hints = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": main_uri}, "range": whole}));
    assert_eq!(hints.as_array().map(Vec::len), Some(1), "{hints}");
    assert_eq!(hints[0]["label"], ": Int");
    let p = pos(&text, "twice =", 0);
    assert_eq!(hints[0]["position"], json!({"line": p["line"], "character": p["character"].as_u64().unwrap_or(0) + 5}));
    // Outside the asked range, none.
    let first = json!({"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}});
    let hints = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": main_uri}, "range": first}));
    assert_eq!(hints, json!([]));

    c.finish(&dir);
}

/// A path a world call names as a literal links to what it reads: below
/// the module's folder, or the project root after `//`, a file or a
/// folder. A path that does not exist, leaves the project, or is built
/// with `++` has no link.
#[test]
fn literal_paths_link_to_what_they_read() {
    let dir = project();
    std::fs::create_dir_all(dir.join("sub/receipts")).expect("mkdir");
    std::fs::create_dir_all(dir.join("tree")).expect("mkdir");
    std::fs::write(dir.join("sub/receipts/build.json"), r#"{"n": 1}"#).expect("write");
    std::fs::write(dir.join("wheel.whl"), "bytes").expect("write");
    let text = "record R { n: Int }\n\
                fact a: R = load(\"receipts/build.json\")\n\
                fact b: Sha256 = file_sha256(\"//wheel.whl\")\n\
                fact c: Sha1 = git_tree(\"../tree\")\n\
                fact d: R = load(\"receipts/missing.json\")\n\
                fact e: Sha256 = file_sha256(\"../../outside\")\n\
                fact f: R = load(\"receipts/\" ++ \"build.json\")\n";
    let sub_uri = uri(&dir.join("sub/m.claim"));
    std::fs::write(dir.join("sub/m.claim"), text).expect("write");
    let (mut c, can) = Client::on(&dir);
    assert_eq!(can["documentLinkProvider"]["resolveProvider"], json!(false), "{can}");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": sub_uri, "languageId": "claim", "version": 1, "text": text}}),
    );
    let links = c.request("textDocument/documentLink", json!({"textDocument": {"uri": sub_uri}}));
    let got: Vec<(Value, Value)> =
        links.as_array().expect("links").iter().map(|l| (l["range"]["start"].clone(), l["target"].clone())).collect();
    let at = |needle: &str| {
        let p = pos(text, needle, 0);
        json!({"line": p["line"], "character": p["character"].as_u64().unwrap_or(0) + 1})
    };
    assert_eq!(
        got,
        [
            (at("\"receipts/build.json"), json!(uri(&dir.join("sub/receipts/build.json")))),
            (at("\"//wheel.whl"), json!(uri(&dir.join("wheel.whl")))),
            (at("\"../tree"), json!(uri(&dir.join("tree")))),
        ],
        "{links}"
    );
    assert_eq!(links[0]["tooltip"], "open `receipts/build.json`");
    c.finish(&dir);
}
