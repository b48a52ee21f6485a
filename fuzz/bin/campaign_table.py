#!/usr/bin/env python3
"""campaign_table.py RUN_DIR... — one Markdown row per finished campaign (its stats.json): execs,
exec/s, coverage at 1/5/10/20 min and at the end, corpus, raw/unique crashes with their signature ids
(each marked with the recorded finding it rediscovers, or NEW).
`make fuzz-table RUNS="out/fuzz/<t>/<engine>/<run> ..."` prints docs/fuzzing.md's campaign table.
libFuzzer's coverage is `cov/ft` (PCs/features); AFL++'s is `edges` of the map. Exit 2 on a run
folder without a readable stats.json."""
import json
import os
import sys

MARKS_MIN = (1, 5, 10, 20)


def cov_short(c):
    if not c:
        return "-"
    if "features" in c:
        return f"{c['cov']}/{c['features']}"
    return str(c["edges"])


def cov_at(timeseries, minute):
    """The last sample at or before `minute` (None when the campaign was shorter)."""
    best = None
    for s in timeseries:
        if s["t"] <= minute * 60 + 2.5:  # samples come every 5 s; allow half a period of jitter
            best = s
    if best is None or (timeseries and timeseries[-1]["t"] < minute * 60 - 2.5):
        return None
    return best["coverage"]


def row(doc):
    ts = doc.get("timeseries", [])
    crashes = doc.get("crashes", {})
    sigs = sorted(f"{c.get('id', '?')}" + (f" = {c['known']}" if c.get("known") else " NEW") for c in crashes.get("list", []))
    marks = [cov_short(cov_at(ts, m)) for m in MARKS_MIN]
    cells = [doc["target"], doc["engine"], f"{doc.get('elapsed_s', 0) / 60:.0f} min", f"{doc.get('total_execs', 0):,}",
             f"{doc.get('execs_per_s', 0):,.0f}", *marks, cov_short(doc.get("coverage")), str(doc.get("corpus_size", 0)),
             f"{crashes.get('raw', 0)} / {crashes.get('unique', 0)}" + (f" ({', '.join(sigs)})" if sigs else "")]
    return "| " + " | ".join(cells) + " |"


def main(runs):
    if not runs:
        print("usage: campaign_table.py RUN_DIR...", file=sys.stderr)
        return 2
    docs = []
    for r in runs:
        path = os.path.join(r, "stats.json")
        try:
            with open(path) as f:
                docs.append(json.load(f))
        except (OSError, json.JSONDecodeError) as e:
            print(f"fuzz-table: {path}: unreadable stats ({e.__class__.__name__})", file=sys.stderr)
            return 2
        if "crashes" not in docs[-1] or not isinstance(docs[-1]["crashes"], dict):
            print(f"fuzz-table: {path}: crashes: campaign not finished (no triage result)", file=sys.stderr)
            return 2
    head = ["target", "engine", "time", "execs", "exec/s", *[f"cov {m} min" for m in MARKS_MIN], "cov end",
            "corpus", "crashes raw / unique (signatures)"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for d in sorted(docs, key=lambda d: (d["target"], d["engine"])):
        print(row(d))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
