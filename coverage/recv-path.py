#!/usr/bin/env python3
"""recv-path.py COVERAGE_JSON — nghttp3-h3-conn's receive-path coverage from the gcovr JSON report that
`make coverage` writes (out/coverage/nghttp3-h3-conn/coverage.json). The receive path: nghttp3_conn.c,
nghttp3_stream.c, nghttp3_frame.c, nghttp3_http.c, sfparse.c whole, plus the QPACK decoder's functions
of nghttp3_qpack.c / nghttp3_qpack_huffman.c (the nghttp3-qpack-decoder gate's only_functions: a line
belongs to the function that starts last before it). A gate name must be a fuzz target folder, so this
set is not a second gate; coverage/README.md reports it. Prints lines, branches (and the whole lib)."""
import json
import re
import sys

WHOLE = re.compile(r"nghttp3[^/]*/lib/.*\.[ch]$")
FILES = re.compile(r"nghttp3[^/]*/lib/(nghttp3_(conn|stream|frame|http)\.c|sfparse/sfparse\.c)$")
QPACK = re.compile(r"nghttp3[^/]*/lib/nghttp3_qpack(_huffman)?\.c$")
DECODER_FUNCS = [re.compile(p) for p in (
    r"(nghttp3_)?qpack_decoder_.*", r"nghttp3_qpack_(stream_context|read_state)_.*", r"qpack_read_.*",
    r"qpack_context_(init|free)", r"nghttp3_qpack_context_dtable_(add|get)", r"nghttp3_qpack_entry_(init|free)",
    r"table_space", r"nghttp3_qpack_put_varint(_len)?", r"nghttp3_qpack_huffman_decode.*")]


def count(lines):
    lt = lc = bt = bc = 0
    for ln in lines:
        if ln.get("gcovr/noncode") or ln.get("gcovr/excluded"):
            continue
        lt += 1
        lc += ln["count"] > 0
        for b in ln.get("branches", []):
            bt += 1
            bc += b["count"] > 0
    return lt, lc, bt, bc


def decoder_lines(f):
    starts = sorted((fn["lineno"], fn["name"]) for fn in f.get("functions", []))
    keep = []
    for ln in f["lines"]:
        owner = None
        for start, name in starts:
            if start <= ln["line_number"]:
                owner = name
            else:
                break
        if owner and any(p.fullmatch(owner) for p in DECODER_FUNCS):
            keep.append(ln)
    return keep


def main(path):
    d = json.load(open(path))
    recv, whole = [0, 0, 0, 0], [0, 0, 0, 0]
    for f in d["files"]:
        name = f["file"]
        if not WHOLE.search(name):
            continue
        whole = [a + b for a, b in zip(whole, count(f["lines"]))]
        if FILES.search(name):
            recv = [a + b for a, b in zip(recv, count(f["lines"]))]
        elif QPACK.search(name):
            recv = [a + b for a, b in zip(recv, count(decoder_lines(f)))]
    pct = lambda c, t: 100.0 * c / t if t else 100.0
    for label, (lt, lc, bt, bc) in (("receive path", recv), ("whole lib", whole)):
        print(f"{label}: lines {lc}/{lt} {pct(lc, lt):.1f}%, branches {bc}/{bt} {pct(bc, bt):.1f}%")


if __name__ == "__main__":
    main(sys.argv[1])
