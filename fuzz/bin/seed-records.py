#!/usr/bin/env python3
"""seed-records.py ENC_DIR OUT_DIR — turn QPACK interop encodings (<qif>.out.<table>.<blocked>.<ack>)
into seed inputs: OUT_DIR/<qpack target>/ gets the preamble (table size, max blocked) + the records
as they are, plus one seed per first 1/3/all sections; OUT_DIR/nghttp3-h3-conn/ gets the same field
sections carried in HTTP/3: the peer's control stream (SETTINGS), QPACK encoder stream, and HEADERS
(+ DATA) frames on request streams, for the server side and for the client side, plus the structured
seeds of h3_conn_seeds.py (wired client + server sessions, hand-made peer frames)."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h3_conn_seeds  # noqa: E402

QPACK_TARGETS = ["nghttp3-qpack-decoder", "lsqpack-decoder", "qpack-differential"]


def records(blob):
    out, i = [], 0
    while i + 12 <= len(blob):
        sid, n = struct.unpack(">QI", blob[i:i + 12])
        out.append((sid, blob[i + 12:i + 12 + n]))
        i += 12 + n
    return out


def rec(sid, data, fin=False):
    return struct.pack(">QI", sid | (1 << 63 if fin else 0), len(data)) + data


def h3_seed(recs, table, blocked, client):
    # nghttp3-h3-conn's input format (its harness.c): one side fed the peer's SETTINGS, QPACK encoder
    # stream and HEADERS (+ DATA) frames; h3_conn_seeds.py writes it.
    return h3_conn_seeds.h3_wrap(recs, table, blocked, client)


def main(enc_dir, out_dir):
    n = 0
    for name in sorted(os.listdir(enc_dir)):
        parts = name.split(".")
        table, blocked = int(parts[-3]), int(parts[-2])
        recs = records(open(os.path.join(enc_dir, name), "rb").read())
        pre = struct.pack(">HBB", min(table, 65535), min(blocked, 255), 0)
        secs = [i for i, (s, _) in enumerate(recs) if s != 0]
        for cut in sorted({1, 3, len(secs)}):
            if cut > len(secs): continue
            upto = secs[cut - 1] + 1
            blob = pre + b"".join(rec(s, d) for s, d in recs[:upto])
            for t in QPACK_TARGETS:
                os.makedirs(os.path.join(out_dir, t), exist_ok=True)
                open(os.path.join(out_dir, t, f"{name}.{cut}"), "wb").write(blob)
            n += 1
        os.makedirs(os.path.join(out_dir, "nghttp3-h3-conn"), exist_ok=True)
        for client in (0, 1):
            open(os.path.join(out_dir, "nghttp3-h3-conn", f"{name}.{'client' if client else 'server'}"), "wb").write(
                h3_seed(recs, table, blocked, client))
    h3_conn_seeds.main(os.path.join(out_dir, "nghttp3-h3-conn"))
    print(f"seeds: {n} QPACK seeds per QPACK target, {2 * len(os.listdir(enc_dir))} HTTP/3 seeds", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
