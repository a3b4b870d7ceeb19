//! The editor packaging stays in step with the language: the TextMate
//! grammar names every keyword, the VS Code extension starts `claimc lsp`.

use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_grammar_names_every_keyword() {
    let grammar: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/syntaxes/claim.tmLanguage.json")).expect("json");
    let keywords = grammar["repository"]["keywords"]["patterns"].to_string();
    let literals = grammar["repository"]["literals"]["patterns"].to_string();
    for (kw, _) in claim_syntax::token::Keyword::ALL {
        let word = format!("|{kw}|");
        let found =
            [&keywords, &literals].iter().any(|s| s.replace("\\\\b(", "|").replace(")\\\\b", "|").contains(&word));
        assert!(found, "the grammar does not highlight the keyword `{kw}`");
    }
}

#[test]
fn the_extension_starts_the_language_server() {
    let pkg: serde_json::Value = serde_json::from_str(&read("editors/vscode/package.json")).expect("json");
    assert_eq!(pkg["contributes"]["languages"][0]["extensions"][0], ".claim");
    assert_eq!(pkg["main"], "./extension.js");
    let js = read("editors/vscode/extension.js");
    assert!(js.contains("args: [\"lsp\"]"), "extension.js must run `claimc lsp`");
}
