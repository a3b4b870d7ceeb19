"""A client of `claimc lsp` over stdio, for the editor's benchmarks: starts
the server on a project, opens a module and waits for its diagnostics."""
import json, subprocess


class Server:
    def __init__(self, claimc, root, module):
        self.p = subprocess.Popen([claimc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.uri = "file://" + root + "/" + module
        self.text = open(root + "/" + module).read()
        self.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"processId": None, "rootUri": "file://" + root, "capabilities": {}}})
        while self.recv().get("id") != 1:
            pass
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        self.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": self.uri, "languageId": "claim", "version": 1, "text": self.text}}})

    def send(self, msg):
        b = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        self.p.stdin.flush()

    def recv(self):
        n = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("claimc lsp closed its output")
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(n))

    def diagnostics(self, pred=lambda params: True):
        """Waits for the opened module's next diagnostics that `pred` accepts."""
        while True:
            m = self.recv()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == self.uri \
                    and pred(m["params"]):
                return m["params"]

    def kill(self):
        self.p.kill()
