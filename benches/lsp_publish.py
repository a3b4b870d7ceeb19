#!/usr/bin/env python3
"""Time from an edit to its diagnostics, through `claimc lsp` over stdio.

usage: benches/lsp_publish.py CLAIMC PROJECT_DIR ROUNDS

Opens PROJECT_DIR/m500.claim of a generated corpus (`claim_bench corpus`),
then, round by round, replaces its whole text with one that has a type
error and with the original in turn, and times each change until the
server publishes that file's diagnostics (with or without the error). The
server waits for 40 ms without messages before it publishes: that wait is
in every time.
"""
import json, subprocess, sys, time, os, statistics
binp, root, rounds = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3])
p = subprocess.Popen([binp, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def send(msg):
    b = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def recv():
    n = None
    while True:
        line = p.stdout.readline()
        if line in (b"\r\n", b"\n"): break
        if line.lower().startswith(b"content-length:"): n = int(line.split(b":")[1])
    return json.loads(p.stdout.read(n))
uri = "file://" + root + "/m500.claim"
text = open(root + "/m500.claim").read()
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":None,"rootUri":"file://"+root,"capabilities":{}}})
while True:
    m = recv()
    if m.get("id") == 1: break
send({"jsonrpc":"2.0","method":"initialized","params":{}})
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"claim","version":1,"text":text}}})
def wait_for(pred, timeout=60):
    t0=time.time()
    while time.time()-t0 < timeout:
        m = recv()
        if m.get("method")=="textDocument/publishDiagnostics" and pred(m["params"]): return
    raise SystemExit("timeout")
# the first publish: every file
wait_for(lambda prm: prm["uri"]==uri)
times=[]
for r in range(rounds):
    broken = r % 2 == 0
    t = text.replace("len(x.name) > 0", "len(x.name) > \"x\"") if broken else text
    send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":2+r},"contentChanges":[{"text":t}]}})
    t0=time.time()
    wait_for(lambda prm: prm["uri"]==uri and (len(prm["diagnostics"])>0) == broken)
    times.append((time.time()-t0)*1000)
print("edit to published diagnostics: median %.1f ms (min %.1f, max %.1f; includes the server's 40 ms quiet wait)" % (statistics.median(times), min(times), max(times)))
p.kill()
