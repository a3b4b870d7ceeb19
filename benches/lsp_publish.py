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
import sys, time, os, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server
binp, root, rounds = sys.argv[1], os.path.abspath(sys.argv[2]), int(sys.argv[3])
server = Server(binp, root, "m500.claim")
uri, text = server.uri, server.text
# the first publish: every file
server.diagnostics()
times=[]
for r in range(rounds):
    broken = r % 2 == 0
    t = text.replace("len(x.name) > 0", "len(x.name) > \"x\"") if broken else text
    server.send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":2+r},"contentChanges":[{"text":t}]}})
    t0=time.time()
    server.diagnostics(lambda prm: (len(prm["diagnostics"])>0) == broken)
    times.append((time.time()-t0)*1000)
print("edit to published diagnostics: median %.1f ms (min %.1f, max %.1f; includes the server's 40 ms quiet wait)" % (statistics.median(times), min(times), max(times)))
server.kill()
