#!/usr/bin/env python3
"""Random samples of edges for hand checks (docs/ACCURACY.md), reproducible from a seed.

usage: sample_edges.py EXPORT.jsonl ROOT --seed N SPEC...
  EXPORT.jsonl  `codegraph export ROOT` output
  SPEC          KIND:N (N edges of that kind) or KIND:symbols:N (only edges to symbols,
                not to files); specs draw in order from one random stream seeded with N
Prints each sampled edge with the source line it cites: `file:line [text] -> kind name (file)`.
"""
import argparse
import json
import os
import random
import signal


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    ap = argparse.ArgumentParser()
    ap.add_argument("export")
    ap.add_argument("root")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("specs", nargs="+")
    a = ap.parse_args()
    nodes, edges = {}, {}
    with open(a.export) as f:
        for line in f:
            v = json.loads(line)
            if v.get("type") == "node":
                nodes[v["id"]] = v
            elif v.get("type") == "edge":
                edges.setdefault(v["kind"], []).append(v)

    def cited(path, n):
        try:
            with open(os.path.join(a.root, path)) as f:
                return f.read().split("\n")[n - 1].strip()[:100]
        except (OSError, IndexError, TypeError):
            return "?"

    rng = random.Random(a.seed)
    for spec in a.specs:
        parts = spec.split(":")
        kind, n = parts[0], int(parts[-1])
        pool = edges.get(kind, [])
        if len(parts) == 3 and parts[1] == "symbols":
            pool = [e for e in pool if not e["dst"].startswith("file:")]
        print(f"===== {spec} ({len(pool)} edges)")
        for e in rng.sample(pool, min(n, len(pool))):
            s, d = nodes.get(e["src"], {}), nodes.get(e["dst"], {})
            print(
                f"{s.get('file')}:{e['line']} [{cited(s.get('file'), e['line'])}] -> "
                f"{d.get('kind')} {d.get('qualified_name')} ({d.get('file')})"
            )


if __name__ == "__main__":
    main()
