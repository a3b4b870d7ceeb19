#!/usr/bin/env python3
"""Time a rename through `claimc lsp` over stdio.

usage: benches/lsp_rename.py CLAIMC PROJECT_DIR ROUNDS

Opens PROJECT_DIR/m500.claim of a generated corpus (`claim_bench corpus`)
and asks, round by round, for the rename of a function (`named_inputs`,
named in its module) and of a local (a witness's `p`), timing each answer
(the edits, tried on the server's copy and checked before they are given).
"""
import sys, time, os, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server
binp, root, rounds = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3])
server = Server(binp, root, "m500.claim")
uri, text = server.uri, server.text
server.diagnostics()
def pos(needle):
    off = text.index(needle); line = text[:off].count("\n"); col = off - (text[:off].rfind("\n")+1)
    return {"line": line, "character": col}
rid = 10
for what, needle in [("function named_inputs", "named_inputs(candidate)"), ("local p", "p = produced")]:
    times=[]
    for r in range(rounds):
        rid += 1
        t0=time.time()
        server.send({"jsonrpc":"2.0","id":rid,"method":"textDocument/rename","params":{"textDocument":{"uri":uri},"position":pos(needle),"newName":"renamed_%d" % r}})
        while True:
            m = server.recv()
            if m.get("id")==rid: break
        times.append((time.time()-t0)*1000)
        assert "result" in m, m
        n = sum(len(v) for v in m["result"]["changes"].values())
    print("%s: median %.1f ms (min %.1f, max %.1f), %d edits" % (what, statistics.median(times), min(times), max(times), n))
server.kill()
