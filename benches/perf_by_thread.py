#!/usr/bin/env python3
"""CPU seconds per thread of a `perf record --call-graph dwarf` profile, split into categories
by the first frame of each sample's stack that matches a category's regular expression, and a
timeline of samples per thread in 0.2 s buckets.

    perf record -F 250 --call-graph dwarf,32768 -o run.perf -- codegraph index DIR --db DB
    perf script -i run.perf -F tid,time,ip,sym > run.txt
    benches/perf_by_thread.py run.txt 250 'fts=write_fts|fts5;edges=insert_edges;tsparse=ts_parser_parse'

The last argument is `name=regex;...` (checked in order, on every frame); the rest of a thread's
samples are listed by their leaf function. The frequency (Hz) turns samples into seconds.
"""
import collections
import re
import sys


def samples(path):
    cur = None
    for line in open(path, errors="replace"):
        if not line.strip():
            if cur:
                yield cur
            cur = None
            continue
        m = re.match(r"^\s*(\d+)\s+([\d.]+):\s*$", line)
        if m:
            cur = [m.group(1), float(m.group(2)), []]
            continue
        parts = line.strip().split(None, 1)
        if cur is not None:
            cur[2].append(parts[1] if len(parts) > 1 else "")
    if cur:
        yield cur


def main():
    path, hz = sys.argv[1], float(sys.argv[2])
    rules = [r.split("=", 1) for r in sys.argv[3].split(";")] if len(sys.argv) > 3 else []
    all_samples = list(samples(path))
    if not all_samples:
        sys.exit("no samples")
    t0 = all_samples[0][1]

    def category(stack):
        for name, pattern in rules:
            if any(re.search(pattern, frame) for frame in stack):
                return name
        return "other:" + (stack[0][:60] if stack else "?")

    threads = collections.Counter(s[0] for s in all_samples)
    for tid, n in threads.most_common(8):
        own = [s for s in all_samples if s[0] == tid]
        times = [s[1] - t0 for s in own]
        print(f"thread {tid}: {n / hz:.2f} CPU-s, {min(times):.2f}-{max(times):.2f} s")
        for name, k in collections.Counter(category(s[2]) for s in own).most_common(12):
            print(f"   {k / hz:7.3f}  {name}")
    print("timeline (samples per thread per 0.2 s):")
    buckets = collections.defaultdict(collections.Counter)
    for tid, t, _ in all_samples:
        buckets[int((t - t0) * 5)][tid] += 1
    for b in sorted(buckets):
        print(f"  {b * 0.2:5.1f} s  {dict(buckets[b])}")


if __name__ == "__main__":
    main()
