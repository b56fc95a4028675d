#!/usr/bin/env python3
"""What SQLite alone takes to store the rows of an import: the floor under `chime import`.

Copies the items, alarms and change-journal rows of a store an import filled into a new store
with the same schema, each table by one INSERT ... SELECT (rows in random order, as an import's
random identifiers arrive) inside one transaction, and times each statement and the commit.
No parsing, no Swift, no statement per row: whatever the import does, its store thread cannot
take less than this on the same machine.

    chime-store-bench --only ics --runs 1 --chime CHIME --keep DIR
    Tests/bench/import-floor.py DIR/chime.sqlite --runs 5
"""

import argparse
import os
import sqlite3
import statistics
import tempfile
import time


def one_run(source: str, schema: list[str], folder: str, run: int) -> dict[str, float]:
    path = os.path.join(folder, f"floor-{run}.sqlite")
    db = sqlite3.connect(path, isolation_level=None)
    # As the store opens its files: write-ahead log, foreign keys, a streamed import's page cache.
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA cache_size = -32768")
    for statement in schema:
        db.execute(statement)
    db.execute("ATTACH ? AS source", (source,))
    db.execute("INSERT INTO calendar SELECT * FROM source.calendar")
    # The rows in a random order, held in memory first so that reading them costs nothing below.
    db.execute("CREATE TEMP TABLE items AS SELECT * FROM source.item ORDER BY random()")
    db.execute("CREATE TEMP TABLE alarms AS SELECT * FROM source.alarm ORDER BY random()")
    db.execute("CREATE TEMP TABLE changes AS SELECT entity, identifier, kind FROM source.change ORDER BY seq")
    timings: dict[str, float] = {}
    db.execute("BEGIN")
    for name, sql in [
        ("item", "INSERT INTO item SELECT * FROM items"),
        ("alarm", "INSERT INTO alarm SELECT * FROM alarms"),
        ("change", "INSERT INTO change (entity, identifier, kind) SELECT * FROM changes"),
        ("commit", "COMMIT"),
    ]:
        start = time.perf_counter()
        db.execute(sql)
        timings[name] = (time.perf_counter() - start) * 1e3
    db.close()
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("store", help="a store an import filled")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    source = sqlite3.connect(f"file:{args.store}?mode=ro", uri=True)
    schema = [
        sql for (sql,) in source.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name != 'sqlite_sequence' ORDER BY rowid")
    ]
    counts = {t: source.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("item", "alarm", "change")}
    source.close()
    with tempfile.TemporaryDirectory(prefix="chime-import-floor-") as folder:
        runs = [one_run(args.store, schema, folder, run) for run in range(args.runs)]
    print(f"SQLite {sqlite3.sqlite_version}; {counts['item']} items, {counts['alarm']} alarms, {counts['change']} journal rows; {args.runs} runs")
    for name in ("item", "alarm", "change", "commit"):
        values = [r[name] for r in runs]
        print(f"{name:8} median {statistics.median(values):6.1f} ms (min {min(values):6.1f})")
    totals = [sum(r.values()) for r in runs]
    print(f"{'total':8} median {statistics.median(totals):6.1f} ms (min {min(totals):6.1f})")


if __name__ == "__main__":
    main()
