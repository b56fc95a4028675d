#!/usr/bin/env python3
"""Whole-process benchmark of `chime expand --batch` beside a libical program of the same contract.

The input is chime-bench's workload (2,000 seeded rules, 5 zones, each limited to 500 occurrences or
2040-01-01) as JSON lines. Each run starts `chime expand --batch` and `libical-batch` (compiled here
from libical-batch.c) on the same file, output to a file, interleaved run by run; then chime-bench
measures Chime's engine in process on the same rules, so the three numbers come from one run.
Medians (min in brackets) and the ratios are printed, and appended to --results when given.

    Tests/bench/expand-batch-bench.py --chime .build/release/chime --chime-bench .build/release/chime-bench \\
        [--runs 5] [--results bench-results/expand-batch.txt]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time

from wholeprocess import timed

HERE = os.path.dirname(os.path.abspath(__file__))


def occurrences(path):
    total = errors = 0
    with open(path, "rb") as f:
        for line in f:
            answer = json.loads(line)
            if "error" in answer:
                errors += 1
            else:
                total += len(answer["utc"])
    return total, errors


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--chime", required=True)
    p.add_argument("--chime-bench", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--results")
    p.add_argument("--baseline", help="another chime binary (e.g. an earlier build), timed in the same runs")
    a = p.parse_args()

    work = tempfile.mkdtemp(prefix="chime-batch-bench.")
    batch = os.path.join(work, "batch.jsonl")
    subprocess.run([a.chime_bench, "--write-batch", batch], check=True)
    peer = os.path.join(work, "libical-batch")
    subprocess.run(["cc", "-O2", "-o", peer, os.path.join(HERE, "libical-batch.c"), "-lical"], check=True)

    chime_out, peer_out = os.path.join(work, "chime.jsonl"), os.path.join(work, "libical.jsonl")
    chime_argv = [a.chime, "expand", "--batch"]
    # Warm-up (page cache, zone files) and the counts.
    timed(chime_argv, batch, chime_out)
    timed([peer], batch, peer_out)
    chime_count, chime_errors = occurrences(chime_out)
    peer_count, peer_errors = occurrences(peer_out)
    out_bytes = os.path.getsize(chime_out)

    base_out = os.path.join(work, "baseline.jsonl")
    base_argv = [a.baseline, "expand", "--batch"] if a.baseline else None
    if base_argv:
        timed(base_argv, batch, base_out)
        with open(base_out, "rb") as b, open(chime_out, "rb") as c:
            identical = b.read() == c.read()

    chime_times, peer_times, base_times = [], [], []
    load_before = os.getloadavg()[0]
    for _ in range(a.runs):
        chime_times.append(timed(chime_argv, batch, chime_out))
        peer_times.append(timed([peer], batch, peer_out))
        if base_argv:
            base_times.append(timed(base_argv, batch, base_out))
    engine = subprocess.run([a.chime_bench, "--engine", "chime", "--runs", str(a.runs)],
                            check=True, capture_output=True, text=True).stdout.strip()
    engine_rate = float(engine.rsplit(",", 1)[1].split()[0])
    load_after = os.getloadavg()[0]

    chime_median, peer_median = statistics.median(chime_times), statistics.median(peer_times)
    chime_rate, peer_rate = chime_count / chime_median, peer_count / peer_median
    lines = [
        f"chime expand --batch, whole processes, {a.runs} runs interleaved, median (min); "
        f"{platform.node()}, load average {load_before:.2f} before, {load_after:.2f} after",
        f"input: {sum(1 for _ in open(batch))} lines; chime output {out_bytes:,} bytes",
        f"chime expand --batch   {chime_median * 1e3:8.1f} ms ({min(chime_times) * 1e3:.1f})   "
        f"{chime_count:,} occurrences ({chime_errors} error lines)   {chime_rate:,.0f} occ/s",
        f"libical-batch (C)      {peer_median * 1e3:8.1f} ms ({min(peer_times) * 1e3:.1f})   "
        f"{peer_count:,} occurrences ({peer_errors} error lines)   {peer_rate:,.0f} occ/s",
        f"engine in process      {engine}",
    ]
    if base_argv:
        base_median = statistics.median(base_times)
        lines.append(f"baseline {a.baseline}: {base_median * 1e3:.1f} ms ({min(base_times) * 1e3:.1f})   "
                     f"{chime_count / base_median:,.0f} occ/s; output byte-identical: {identical}; "
                     f"baseline/chime time {base_median / chime_median:.1f}x")
    lines += [
        f"chime/libical throughput: {chime_rate / peer_rate:.1f}x (target >= 20x)",
        f"whole process / engine in process: {chime_rate / engine_rate:.2f} (target >= 0.5)",
    ]
    print("\n".join(lines))
    if a.results:
        os.makedirs(os.path.dirname(os.path.abspath(a.results)), exist_ok=True)
        with open(a.results, "a") as f:
            f.write(time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()) + "\n" + "\n".join(lines) + "\n\n")
    for name in os.listdir(work):
        os.unlink(os.path.join(work, name))
    os.rmdir(work)


if __name__ == "__main__":
    main()
