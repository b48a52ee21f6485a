#!/usr/bin/env python3
"""stats.py watch|final RUN_DIR — a campaign's numbers, read from the engines' own output.

watch: every INTERVAL seconds (env FUZZ_STATS_INTERVAL, default 5) print one live line and rewrite
RUN_DIR/stats.json, until RUN_DIR/.fuzzing disappears. final: write stats.json once more with the
deduplicated crashes (RUN_DIR/crashes/*/meta.json, written by triage.sh).
Sources: libFuzzer status lines in RUN_DIR/log/worker-*.log (one file per process run, so restarts
after a crash add up); AFL++ fuzzer_stats of every instance in RUN_DIR/afl/*/."""
import glob
import json
import os
import re
import sys
import time

LF_RE = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+)(?: corp: (\d+)/)?", re.M)


def count_files(d):
    try:
        return sum(1 for e in os.scandir(d) if e.is_file() and not e.name.startswith("."))
    except FileNotFoundError:
        return 0


def dir_bytes(d):
    try:
        return sum(e.stat().st_size for e in os.scandir(d) if e.is_file())
    except FileNotFoundError:
        return 0


def sample_libfuzzer(run):
    execs, cov, ft = 0, 0, 0
    for log in glob.glob(os.path.join(run, "log", "worker-*.log")):
        last = None
        with open(log, errors="replace") as f:
            for m in LF_RE.finditer(f.read()):
                last = m
        if last:
            execs += int(last.group(1))
            cov, ft = max(cov, int(last.group(2))), max(ft, int(last.group(3)))
    raw = [p for p in glob.glob(os.path.join(run, "raw", "*")) if re.search(r"/(crash|leak|timeout|oom)-", p)]
    return {"execs": execs, "corpus": count_files(os.path.join(run, "corpus")),
            "coverage": {"cov": cov, "features": ft}, "crashes": len(raw)}


def read_afl_stats(path):
    out = {}
    with open(path, errors="replace") as f:
        for line in f:
            k, _, v = line.partition(":")
            out[k.strip()] = v.strip()
    return out


def sample_afl(run):
    # fuzzer_stats is rewritten only every 60 s (AFL++'s STATS_UPDATE_SEC), so corpus and crash counts
    # come from the instances' queue/ and crashes/ folders, which change at once.
    execs, edges, total_edges, corpus, crashes = 0, 0, 0, 0, 0
    for inst in glob.glob(os.path.join(run, "afl", "*", "")):
        if os.path.exists(os.path.join(inst, "fuzzer_stats")):
            s = read_afl_stats(os.path.join(inst, "fuzzer_stats"))
            execs += int(s.get("execs_done", 0))
            edges = max(edges, int(s.get("edges_found", 0)))
            total_edges = max(total_edges, int(s.get("total_edges", 0)))
        corpus = max(corpus, len(glob.glob(os.path.join(inst, "queue", "id:*"))))
        crashes += len(glob.glob(os.path.join(inst, "crashes", "id:*")))
    return {"execs": execs, "corpus": corpus, "coverage": {"edges": edges, "map_size": total_edges}, "crashes": crashes}


def sample(run, engine):
    return sample_afl(run) if engine == "afl" else sample_libfuzzer(run)


def cov_text(c):
    if "features" in c:
        return f"cov {c['cov']} ft {c['features']}"
    return f"edges {c['edges']}/{c['map_size']}"


def write(run, doc):
    tmp = os.path.join(run, ".stats.json.tmp")
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, os.path.join(run, "stats.json"))


def load(run):
    try:
        with open(os.path.join(run, "stats.json")) as f:
            return json.load(f)
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def base_doc(run):
    meta = json.load(open(os.path.join(run, "campaign.json")))
    doc = load(run) or {}
    doc.update(meta)
    doc.setdefault("timeseries", [])
    return doc


def summarize(doc, s, elapsed):
    doc.update({"elapsed_s": round(elapsed, 1), "total_execs": s["execs"],
                "execs_per_s": round(s["execs"] / elapsed, 1) if elapsed > 0 else 0,
                "corpus_size": s["corpus"], "coverage": s["coverage"], "raw_crashes": s["crashes"]})


def watch(run):
    interval = float(os.environ.get("FUZZ_STATS_INTERVAL", "5"))
    doc = base_doc(run)
    engine, t0 = doc["engine"], doc["started_unix"]
    prev_t, prev_e = t0, 0
    while True:
        alive = os.path.exists(os.path.join(run, ".fuzzing"))
        now = time.time()
        s = sample(run, engine)
        rate = (s["execs"] - prev_e) / (now - prev_t) if now > prev_t else 0
        prev_t, prev_e = now, s["execs"]
        elapsed = now - t0
        doc["timeseries"].append({"t": round(elapsed, 1), "execs": s["execs"], "execs_per_s": round(rate, 1),
                                  "corpus": s["corpus"], "coverage": s["coverage"], "crashes": s["crashes"]})
        summarize(doc, s, elapsed)
        write(run, doc)
        note = "  (AFL++ refreshes execs/edges every 60 s)" if engine == "afl" and elapsed < 65 else ""
        print(f"fuzz: {doc['target']}/{engine} {elapsed:5.0f}s/{doc['duration_s']}s  execs {s['execs']} "
              f"({rate:.0f}/s)  {cov_text(s['coverage'])}  corpus {s['corpus']}  crashes {s['crashes']}{note}", flush=True)
        if not alive:
            return 0
        end = time.time() + interval
        while time.time() < end and os.path.exists(os.path.join(run, ".fuzzing")):
            time.sleep(0.2)


def final(run):
    doc = base_doc(run)
    crashes = []
    for m in sorted(glob.glob(os.path.join(run, "crashes", "*", "meta.json"))):
        crashes.append(json.load(open(m)))
    new = sum(1 for c in crashes if not c.get("known"))
    doc["crashes"] = {"raw": doc.get("raw_crashes", 0), "unique": len(crashes), "new": new, "list": crashes}
    write(run, doc)
    c = doc.get("coverage", {})
    print(f"fuzz: {doc['target']}/{doc['engine']} done: {doc.get('total_execs', 0)} execs in {doc.get('elapsed_s', 0)}s "
          f"({doc.get('execs_per_s', 0)}/s), {cov_text(c) if c else 'no coverage data'}, corpus {doc.get('corpus_size', 0)}, "
          f"crashes {doc['crashes']['raw']} raw / {len(crashes)} unique ({len(crashes) - new} known findings)")
    return 0


if __name__ == "__main__":
    sys.exit({"watch": watch, "final": final}[sys.argv[1]](sys.argv[2]))
