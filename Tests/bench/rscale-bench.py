#!/usr/bin/env python3
"""Whole-process benchmark of rules in other calendars (RFC 7529 RSCALE): `chime expand --batch`
beside the libical batch program (libical-batch.c; Debian's libical is built with ICU, so it
expands RSCALE rules), and beside the same starts on Gregorian rules.

Workloads (seeded, all-day starts spread over 1990-2030): a yearly Chinese rule (up to 100
occurrences each), a monthly Hebrew rule (up to 250 each), and the same starts as plain yearly and
monthly rules; none past 2100 (a start in a leap month recurs only in the rare years that have
that leap month, and 100 of them reach past the year 6000).
Each is run once to count and compare the two engines' dates, then timed, the two programs
interleaved run by run. Medians (min in brackets) and the ratios are printed.

    Tests/bench/rscale-bench.py --chime .build/release/chime [--runs 5] [--rules 400]
"""
import argparse
import datetime
import json
import os
import random
import statistics
import subprocess
import tempfile

from wholeprocess import timed

HERE = os.path.dirname(os.path.abspath(__file__))

WORKLOADS = [
    ("chinese yearly", "RSCALE=CHINESE;FREQ=YEARLY", 100),
    ("gregorian yearly", "FREQ=YEARLY", 100),
    ("hebrew monthly", "RSCALE=HEBREW;FREQ=MONTHLY", 250),
    ("gregorian monthly", "FREQ=MONTHLY", 250),
]


def write_workload(path, rule, count, rules, seed):
    rng = random.Random(seed)
    first = datetime.date(1990, 1, 1)
    with open(path, "w") as f:
        for i in range(rules):
            day = first + datetime.timedelta(days=rng.randrange(0, 41 * 365))
            f.write(json.dumps({"id": str(i), "dtstart": day.strftime("%Y%m%d"), "tzid": "floating",
                                "rrule": rule, "limit": {"count": count, "until_utc": "21000101T000000Z"}}) + "\n")


def answers(path):
    result = {}
    with open(path, "rb") as f:
        for line in f:
            a = json.loads(line)
            result[a["id"]] = a.get("local", [])
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--chime", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--rules", type=int, default=400)
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="chime-rscale-bench.")
    peer = os.path.join(work, "libical-batch")
    subprocess.run(["cc", "-O2", "-o", peer, os.path.join(HERE, "libical-batch.c"), "-lical"], check=True)
    print(f"whole processes, {a.runs} runs interleaved, median (min); {a.rules} rules per workload")
    for n, (name, rule, count) in enumerate(WORKLOADS):
        batch = os.path.join(work, f"w{n}.jsonl")
        write_workload(batch, rule, count, a.rules, seed=7529)
        chime_out, peer_out = os.path.join(work, "chime.jsonl"), os.path.join(work, "peer.jsonl")
        timed([a.chime, "expand", "--batch"], batch, chime_out)
        timed([peer], batch, peer_out)
        ours, theirs = answers(chime_out), answers(peer_out)
        total = sum(len(v) for v in ours.values())
        same = sum(1 for k in ours if ours[k] == theirs.get(k))
        chime_times, peer_times = [], []
        for _ in range(a.runs):
            chime_times.append(timed([a.chime, "expand", "--batch"], batch, chime_out))
            peer_times.append(timed([peer], batch, peer_out))
        cm, pm = statistics.median(chime_times), statistics.median(peer_times)
        print(f"{name:18} {rule:28} chime {cm * 1e3:7.1f} ms ({min(chime_times) * 1e3:.1f}) {total / cm:>12,.0f} occ/s | "
              f"libical {pm * 1e3:7.1f} ms ({min(peer_times) * 1e3:.1f}) {sum(len(v) for v in theirs.values()) / pm:>12,.0f} occ/s | "
              f"chime/libical {pm / cm:5.1f}x | {total:,} occurrences, {same}/{len(ours)} rules give the same dates")
    for name in os.listdir(work):
        os.unlink(os.path.join(work, name))
    os.rmdir(work)


if __name__ == "__main__":
    main()
