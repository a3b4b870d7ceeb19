#!/usr/bin/env python3
"""Time a rename through `claimc lsp` over stdio.

usage: benches/lsp_rename.py CLAIMC PROJECT_DIR ROUNDS

Opens PROJECT_DIR/m500.claim of a generated corpus (`claim_bench corpus`)
and asks, round by round, for the rename of a function (`named_inputs`,
named in its module) and of a local (a witness's `p`), timing each answer
(the edits, tried on the server's copy and checked before they are given).
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
while recv().get("id") != 1: pass
send({"jsonrpc":"2.0","method":"initialized","params":{}})
send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"claim","version":1,"text":text}}})
while True:
    m = recv()
    if m.get("method")=="textDocument/publishDiagnostics" and m["params"]["uri"]==uri: break
def pos(needle):
    off = text.index(needle); line = text[:off].count("\n"); col = off - (text[:off].rfind("\n")+1)
    return {"line": line, "character": col}
rid = 10
for what, needle in [("function named_inputs", "named_inputs(candidate)"), ("local p", "p = produced")]:
    times=[]
    for r in range(rounds):
        rid += 1
        t0=time.time()
        send({"jsonrpc":"2.0","id":rid,"method":"textDocument/rename","params":{"textDocument":{"uri":uri},"position":pos(needle),"newName":"renamed_%d" % r}})
        while True:
            m = recv()
            if m.get("id")==rid: break
        times.append((time.time()-t0)*1000)
        assert "result" in m, m
        n = sum(len(v) for v in m["result"]["changes"].values())
    print("%s: median %.1f ms (min %.1f, max %.1f), %d edits" % (what, statistics.median(times), min(times), max(times), n))
p.kill()
