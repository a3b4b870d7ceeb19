// Starts `claimc lsp` for `.claim` files. No build step: `npm install` and
// open this folder in VS Code (F5), or `npx @vscode/vsce package`.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("claim").get("server.path", "claimc");
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "claim",
    "Claim",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "claim" }] }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
