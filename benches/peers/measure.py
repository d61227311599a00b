#!/usr/bin/env python3
"""Runs a command (its output discarded) and prints one line `MEASURE:{"wall_s", "max_rss_kb",
"exit"}` on stdout. Peak RSS is the largest resident set of any waited-for descendant
(ru_maxrss). Used by `codegraph-bench peers` so every tool is measured the same way."""
import json, resource, subprocess, sys, time

t = time.monotonic()
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if p.returncode != 0:
    sys.stderr.write(p.stderr.decode(errors="replace")[-2000:])
print("MEASURE:" + json.dumps({"wall_s": wall, "max_rss_kb": rss, "exit": p.returncode}))
