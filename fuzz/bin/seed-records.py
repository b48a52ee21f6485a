#!/usr/bin/env python3
"""seed-records.py ENC_DIR OUT_DIR — turn QPACK interop encodings (<qif>.out.<table>.<blocked>.<ack>)
into seed inputs: OUT_DIR/<qpack target>/ gets the preamble (table size, max blocked) + the records
as they are, plus one seed per first 1/3/all sections; OUT_DIR/nghttp3-h3-conn/ gets the same field
sections carried in HTTP/3: the peer's control stream (SETTINGS), QPACK encoder stream, and HEADERS
(+ DATA) frames on request streams, for the server side and for the client side."""
import os
import struct
import sys

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


def varint(v):
    if v < 64: return bytes([v])
    if v < 16384: return struct.pack(">H", 0x4000 | v)
    if v < 2**30: return struct.pack(">I", 0x80000000 | v)
    return struct.pack(">Q", 0xC000000000000000 | v)


def frame(ftype, payload):
    return varint(ftype) + varint(len(payload)) + payload


def h3_seed(recs, table, blocked, client):
    # knobs bit 0: client side. The peer announces the same table size in its SETTINGS.
    settings = varint(0x01) + varint(table) + varint(0x07) + varint(blocked) + varint(0x06) + varint(65536)
    peer_uni = [3, 7, 11] if client else [2, 6, 10]
    body = rec(peer_uni[0], varint(0x00) + frame(0x04, settings))
    enc = b"".join(d for s, d in recs if s == 0)
    body += rec(peer_uni[1], varint(0x02) + enc)
    sections = [d for s, d in recs if s != 0]
    streams = [0, 4, 8] if client else [4 * i for i in range(len(sections))]
    for sid, sec in zip(streams, sections):
        body += rec(sid, frame(0x01, sec) + frame(0x00, b"hello, wirelab\n"), fin=True)
    return struct.pack(">HBB", min(table, 65535), min(blocked, 255), 1 if client else 0) + body


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
    print(f"seeds: {n} QPACK seeds per QPACK target, {2 * len(os.listdir(enc_dir))} HTTP/3 seeds", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
