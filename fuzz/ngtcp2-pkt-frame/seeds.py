#!/usr/bin/env python3
"""seeds.py [CORPUS_DIR [FINDINGS_DIR]] — seeds for fuzz/ngtcp2-pkt-frame (input format: the comment at
the top of harness.c) and the reproducers of its known findings.

Seeds: RFC 9001 Appendix A's unprotected packets (A.2 client Initial with the ClientHello's CRYPTO frame,
A.3 server Initial with ACK + CRYPTO, A.4 Retry, A.5 short header with PING) and the QUIC transport
parameters inside A.2's ClientHello; one frame of every RFC 9000 §19 type (ACK with ranges, ACK_ECN, the
eight STREAM type bytes, NEW_CONNECTION_ID, NEW_TOKEN, both DATAGRAM types, both CONNECTION_CLOSE types)
plus unknown types and an over-long PING type; Version Negotiation, v2 (RFC 9369) Initial and Handshake
headers; a transport parameter set with every RFC 9000 §18.2 id, version_information (RFC 9368),
grease_quic_bit and a reserved id (31 * N + 27); RFC 9000 A.3's packet number example.
Findings (not seeds: each aborts only with WL_NGTCP2_STRICT=1): K1, K2 and K3, see harness.c.
Written as files named seed-<name> / known-<name>, plus regress-cve-2026-40170-qlog-tparams-max (every
transport parameter at its longest: qlog's parameters_set record then exceeds the 1024-byte stack buffer
that CVE-2026-40170 overflowed). Merge them with `make fuzz-merge TARGET=ngtcp2-pkt-frame SEEDS=<dir>`
(keeps what adds coverage); keep the regress- file."""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def vi(v, n=None):
    """RFC 9000 §16 variable-length integer, minimal or in n bytes."""
    if n is None:
        n = 1 if v < 64 else 2 if v < 16384 else 4 if v < 2**30 else 8
    bits = {1: 0, 2: 1, 4: 2, 8: 3}[n]
    return (v | bits << (8 * n - 2)).to_bytes(n, "big")


def blen(b):  # the harness's wl_fdp_len: one byte, 255 = a u16 follows
    return bytes([len(b)]) + b if len(b) < 255 else b"\xff" + struct.pack(">H", len(b)) + b


def op(kind, arg=0):
    return bytes([kind | arg << 3])


FRAMES, LONG, SHORT, TPARAMS, PKTNUM, PREFIXES = range(6)

h = bytes.fromhex
# RFC 9001 Appendix A (the same bytes as internal/quicfuzz/initial_test.go)
A2_HDR = h("c300000001088394c8f03e5157080000449e00000002")
A2_PAY = h(
    "060040f1010000ed0303ebf8fa56f12939b9584a3896472ec40bb863cfd3e868"
    "04fe3a47f06a2b69484c00000413011302010000c000000010000e00000b6578"
    "616d706c652e636f6dff01000100000a00080006001d00170018001000070005"
    "04616c706e000500050100000000003300260024001d00209370b2c9caa47fba"
    "baf4559fedba753de171fa71f50f1ce15d43e994ec74d748002b000302030400"
    "0d0010000e0403050306030203080408050806002d00020101001c0002400100"
    "3900320408ffffffffffffffff05048000ffff07048000ffff08011001048000"
    "75300901100f088394c8f03e51570806048000ffff")
A3_HDR = h("c1000000010008f067a5502a4262b50040750001")
A3_PAY = h(
    "02000000000600405a020000560303eefce7f7b37ba1d1632e96677825ddf739"
    "88cfc79825df566dc5430b9a045a1200130100002e00330024001d00209d3c94"
    "0d89690b84d08a60993c144eca684d1081287c834d5311bcf32bb9da1a002b00"
    "020304")
A4_RETRY = h("ff000000010008f067a5502a4262b5746f6b656e04a265ba2eff4d829058fb3f0f2496ba")
A5_SHORT = h("4200bff4") + b"\x01"  # DCID empty, 3-byte packet number, PING


def a2_transport_params():
    i = A2_PAY.index(h("0039"), 4 + 40)  # quic_transport_parameters extension (57) in the ClientHello
    n = int.from_bytes(A2_PAY[i + 2:i + 4], "big")
    return A2_PAY[i + 4:i + 4 + n]


def frames_each_type():
    cid = h("1122334455667788")
    tok = bytes(range(16))
    f = {
        "padding": b"\x00" * 7,
        "ping": b"\x01",
        "ack": b"\x02" + vi(100) + vi(25) + vi(2) + vi(3) + vi(1) + vi(4) + vi(0) + vi(2),
        "ack-ecn": b"\x03" + vi(5000) + vi(0) + vi(1) + vi(10) + vi(5) + vi(5) + vi(1) + vi(2) + vi(3),
        "reset-stream": b"\x04" + vi(4) + vi(0x10c) + vi(1000),
        "stop-sending": b"\x05" + vi(8) + vi(0x10c),
        "crypto": b"\x06" + vi(0) + vi(5) + b"hello",
        "new-token": b"\x07" + vi(len(tok)) + tok,
        "max-data": b"\x10" + vi(1 << 20),
        "max-stream-data": b"\x11" + vi(4) + vi(65536),
        "max-streams-bidi": b"\x12" + vi(100),
        "max-streams-uni": b"\x13" + vi(3),
        "data-blocked": b"\x14" + vi(1 << 20),
        "stream-data-blocked": b"\x15" + vi(0) + vi(4096),
        "streams-blocked-bidi": b"\x16" + vi(100),
        "streams-blocked-uni": b"\x17" + vi(3),
        "new-connection-id": b"\x18" + vi(1) + vi(0) + bytes([len(cid)]) + cid + tok,
        "retire-connection-id": b"\x19" + vi(0),
        "path-challenge": b"\x1a" + h("0001020304050607"),
        "path-response": b"\x1b" + h("0001020304050607"),
        "connection-close": b"\x1c" + vi(0x0a) + vi(0x08) + vi(6) + b"reason",
        "connection-close-app": b"\x1d" + vi(0x100) + vi(0),
        "handshake-done": b"\x1e",
        "datagram-len": b"\x31" + vi(4) + b"dgrm",
        "unknown-0x21": b"\x21\x00",
        "ping-overlong-type": b"\x40\x01",  # RFC 9000 §12.4: a type in a longer encoding than needed
    }
    for t in range(8, 16):  # STREAM: OFF=0x04, LEN=0x02, FIN=0x01
        b = bytes([t]) + vi(4)
        if t & 4:
            b += vi(1000, 4)
        if t & 2:
            b += vi(3)
        f["stream-%02x" % t] = b + b"abc"
    f["datagram"] = b"\x30" + b"to-the-end"  # last: no length, runs to the end of the packet
    return f


def tp_all():
    def p(i, v):
        return vi(i) + vi(len(v)) + v
    def pint(i, x):
        return p(i, vi(x))
    cid = h("c5c6c7c8c9cacbcc")
    pref = h("c0000201") + struct.pack(">H", 443) + h("20010db8000000000000000000000001") + struct.pack(">H", 443) \
        + bytes([len(cid)]) + cid + bytes(range(16, 32))
    return (p(0x00, h("8394c8f03e515708")) + pint(0x01, 30000) + p(0x02, bytes(range(16))) + pint(0x03, 1472)
            + pint(0x04, 1 << 20) + pint(0x05, 262144) + pint(0x06, 262144) + pint(0x07, 262144) + pint(0x08, 100)
            + pint(0x09, 3) + pint(0x0a, 3) + pint(0x0b, 25) + p(0x0c, b"") + p(0x0d, pref) + pint(0x0e, 8)
            + p(0x0f, cid) + p(0x10, h("f067a5502a4262b5")) + p(0x11, h("00000001") + h("000000016b3343cf"))
            + pint(0x20, 65535) + p(0x2ab2, b"") + p(31 * 5 + 27, b"grease"))


def tp_max():
    """Every parameter at its longest in qlog: 20-byte CIDs, both tokens, IPv4 + IPv6 preferred address,
    every integer at 2^62 - 1 (within its §18.2 limits). Its qlog parameters_set record is longer than
    1024 bytes: the stack buffer CVE-2026-40170 overflowed (Debian's +deb13u1 patch makes it 2048)."""
    def p(i, v):
        return vi(i) + vi(len(v)) + v
    big = (1 << 62) - 1
    cid = bytes(range(0xe0, 0xf4))
    pref = h("c0000201") + struct.pack(">H", 65535) + bytes(range(16)) + struct.pack(">H", 65535) \
        + bytes([20]) + cid + bytes(range(16, 32))
    out = p(0x00, cid) + p(0x02, bytes(range(16))) + p(0x0d, pref) + p(0x0f, cid) + p(0x10, cid) + p(0x0c, b"") + p(0x2ab2, b"")
    for i, v in ((0x01, 18446744073709), (0x03, big), (0x04, big), (0x05, big), (0x06, big), (0x07, big),
                 (0x08, 1 << 60), (0x09, 1 << 60), (0x0a, 20), (0x0b, 16383), (0x0e, big), (0x20, big)):
        out += p(i, vi(v, 8))
    return out


def seeds():
    s = {}
    s["rfc9001-a2-client-initial"] = op(LONG) + blen(A2_HDR + A2_PAY + b"\x00" * 16)
    s["rfc9001-a3-server-initial"] = op(LONG) + blen(A3_HDR + A3_PAY)
    s["rfc9001-a4-retry"] = op(LONG) + blen(A4_RETRY)
    s["rfc9001-a5-short"] = op(SHORT, 0) + blen(A5_SHORT)
    s["rfc9001-a2-transport-params"] = op(TPARAMS) + blen(a2_transport_params())
    s["rfc9001-a2-crypto-frames"] = op(FRAMES) + blen(A2_PAY)
    s["rfc9001-a3-ack-crypto-frames"] = op(FRAMES) + blen(A3_PAY)
    fs = frames_each_type()
    for name, b in fs.items():
        s["frame-" + name] = op(FRAMES) + blen(b)
        s["prefix-" + name] = op(PREFIXES) + blen(b)
    s["frames-all"] = op(FRAMES) + blen(b"".join(fs.values()))
    s["frames-raw"] = op(6) + b"".join(v for k, v in fs.items() if k != "datagram")
    dcid, scid = h("8394c8f03e515708"), h("f067a5502a4262b5")
    s["vn"] = op(LONG) + blen(h("80") + b"\0\0\0\0" + bytes([8]) + dcid + bytes([8]) + scid + h("000000016b3343cf1a2a3a4a"))
    pay = fs["ping"] + fs["crypto"] + b"\x00" * 4
    v2_init = h("d1") + h("6b3343cf") + bytes([8]) + dcid + bytes([8]) + scid + vi(0) + vi(2 + len(pay), 2) + h("0002")
    s["v2-initial"] = op(LONG) + blen(v2_init + pay)
    v2_hs = h("f0") + h("6b3343cf") + bytes([0]) + bytes([8]) + scid + vi(1 + len(pay), 2) + h("07")
    s["v2-handshake"] = op(LONG) + blen(v2_hs + pay)
    v1_0rtt = h("d3") + h("00000001") + bytes([8]) + dcid + bytes([0]) + vi(4 + len(fs["stream-0b"])) + h("00000009") + fs["stream-0b"]
    s["v1-0rtt"] = op(LONG) + blen(v1_0rtt)
    v1_hs = h("e0") + h("00000001") + bytes([8]) + dcid + bytes([8]) + scid + vi(1 + len(pay)) + h("03") + pay
    s["v1-handshake"] = op(LONG) + blen(v1_hs)
    v2_0rtt = h("e1") + h("6b3343cf") + bytes([8]) + dcid + bytes([0]) + vi(2 + len(pay)) + h("0004") + pay
    s["v2-0rtt"] = op(LONG) + blen(v2_0rtt)
    s["short-8-dcid"] = op(SHORT, 8) + blen(h("41") + dcid + h("0102") + fs["ack"] + fs["stream-0f"] + fs["datagram"])
    s["stateless-reset"] = op(SHORT, 20) + blen(h("5f") + bytes(range(30)) + bytes(range(100, 116)))
    s["tparams-all"] = op(TPARAMS) + blen(tp_all())
    pref4 = h("c0000201") + struct.pack(">H", 443) + bytes(18) + bytes([4]) + h("01020304") + bytes(16)
    s["tparams-preferred-ipv4-only"] = op(TPARAMS) + blen(vi(0x0d) + vi(len(pref4)) + pref4)
    # RFC 9000 A.3: largest 0xa82f30ea, truncated 0x9b32 in 2 bytes -> 0xa82f9b32
    s["pktnum-rfc9000-a3"] = op(PKTNUM) + bytes([1]) + (0xa82f30ea).to_bytes(8, "big") + (0x9b32).to_bytes(4, "big")
    return s


def findings():
    f = {}
    # K1: max_idle_timeout 18446744073710 ms (584 years) times 10^6 wraps to 448,384 ns (0.45 ms)
    f["k1-max-idle-timeout-wraps"] = op(TPARAMS) + blen(vi(0x01) + vi(8) + vi(18446744073710, 8))
    # K2: 33 ACK ranges, the 33rd acknowledges below packet 0 (largest 100, 32 ranges of gap 0 len 0
    # take it to 100 - 32 * 2 = 36, then gap 40 reaches below 0)
    ack = b"\x02" + vi(100) + vi(0) + vi(33) + vi(0) + (vi(0) + vi(0)) * 32 + vi(40) + vi(0)
    f["k2-ack-33rd-range-negative"] = op(FRAMES) + blen(ack)
    # K3: initial_max_data twice (1000, then 2^20): accepted, the last value wins
    f["k3-duplicate-transport-parameter"] = op(TPARAMS) + blen(vi(0x04) + vi(2) + vi(1000, 2) + vi(0x04) + vi(4) + vi(1 << 20, 4))
    return f


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    found = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "findings")
    os.makedirs(corpus, exist_ok=True)
    os.makedirs(found, exist_ok=True)
    s, f = seeds(), findings()
    for name, b in s.items():
        open(os.path.join(corpus, "seed-" + name), "wb").write(b)
    # kept in the corpus whether or not a merge finds it adds coverage: the regression input of
    # CVE-2026-40170 (crashes ngtcp2 1.11.0 without Debian's +deb13u1 patch)
    open(os.path.join(corpus, "regress-cve-2026-40170-qlog-tparams-max"), "wb").write(op(TPARAMS) + blen(tp_max()))
    for name, b in f.items():
        open(os.path.join(found, "known-" + name), "wb").write(b)
    print(f"seeds: ngtcp2-pkt-frame: {len(s)} seeds in {corpus}, {len(f)} findings in {found}", file=sys.stderr)


if __name__ == "__main__":
    main()
