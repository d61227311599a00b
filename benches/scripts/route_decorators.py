"""How many route decorators of a Python tree have a route node in a codegraph export.

usage: python3 route_decorators.py ROOT EXPORT.jsonl REGEX [MISSES]
  ROOT         the indexed tree; EXPORT.jsonl  `codegraph export ROOT > EXPORT.jsonl`
  REGEX        what a decorator line looks like, e.g. '^\\s*@\\w+(\\.\\w+)*\\.(route|get|post|put|delete|patch)\\('
  MISSES       how many decorators without a route node to list (default 10)
A decorator counts when a route node starts on its line (the registration's line).
"""
import json, re, os, sys
root, export, pat = sys.argv[1], sys.argv[2], sys.argv[3]
routes = set()
for line in open(export):
    o = json.loads(line)
    if o.get("type") == "node" and o.get("kind") == "route":
        routes.add((o["file"], o["start_line"]))
dec = re.compile(pat)
total = hit = 0; misses = []
for dp, dn, fn in os.walk(root):
    for f in fn:
        if not f.endswith(".py"): continue
        p = os.path.join(dp, f); rel = os.path.relpath(p, root)
        for i, l in enumerate(open(p, encoding="utf-8", errors="replace"), 1):
            if dec.search(l):
                total += 1
                if (rel, i) in routes: hit += 1
                else: misses.append(f"{rel}:{i}: {l.strip()}")
print(f"decorators {total}, with a route node {hit} ({100*hit/max(total,1):.1f}%)")
for m in misses[:int(sys.argv[4]) if len(sys.argv) > 4 else 10]: print("  MISS", m)
