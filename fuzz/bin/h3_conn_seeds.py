#!/usr/bin/env python3
"""h3_conn_seeds.py OUT_DIR — structured seeds for fuzz/nghttp3-h3-conn (input format: the comment at
the top of its harness.c). Two kinds:
  * wired: both sides exist and talk to each other; the ops submit requests, responses, trailers,
    priorities, GOAWAY, closes and resets and move the bytes, so the peer's SETTINGS, HEADERS (QPACK,
    dynamic table included, encoded by nghttp3's own encoder), DATA, PRIORITY_UPDATE, GOAWAY and
    ORIGIN frames are real ones;
  * single side: one client or server fed hand-made peer bytes: SETTINGS variants, HEADERS encoded here
    with the QPACK static table and literals, DATA, trailers, PRIORITY_UPDATE, GOAWAY, ORIGIN, unknown
    and reserved frames and stream types, QPACK encoder/decoder stream instructions.
fuzz/bin/seed-records.py uses the helpers below to wrap nghttp3's QIF encodings the same way."""
import os
import struct
import sys

# ---- HTTP/3 and QPACK wire helpers ----


def varint(v):
    if v < 64: return bytes([v])
    if v < 16384: return struct.pack(">H", 0x4000 | v)
    if v < 2**30: return struct.pack(">I", 0x80000000 | v)
    return struct.pack(">Q", 0xC000000000000000 | v)


def frame(ftype, payload):
    return varint(ftype) + varint(len(payload)) + payload


def qint(prefix_bits, flags, v):
    """QPACK/HPACK prefixed integer (RFC 7541 5.1) with the high bits of the first byte in flags."""
    mx = (1 << prefix_bits) - 1
    if v < mx: return bytes([flags | v])
    out, v = [flags | mx], v - mx
    while v >= 128:
        out.append(0x80 | (v & 127)); v >>= 7
    return bytes(out + [v])


def qstr(prefix_bits, flags, s):
    return qint(prefix_bits, flags, len(s)) + s


STATIC = {(b":authority", b""): 0, (b":path", b"/"): 1, (b"content-length", b"0"): 4, (b":method", b"CONNECT"): 15,
          (b":method", b"GET"): 17, (b":method", b"HEAD"): 18, (b":method", b"OPTIONS"): 19, (b":method", b"POST"): 20,
          (b":scheme", b"http"): 22, (b":scheme", b"https"): 23, (b":status", b"103"): 24, (b":status", b"200"): 25,
          (b":status", b"304"): 26, (b":status", b"404"): 27, (b":status", b"100"): 63, (b":status", b"204"): 64}
STATIC_NAME = {b":authority": 0, b":path": 1, b"age": 2, b"content-length": 4, b"cookie": 5, b"date": 6, b"etag": 7,
               b"if-modified-since": 8, b"location": 12, b"user-agent": 95, b":method": 15, b":scheme": 22,
               b":status": 24, b"content-type": 44}  # other names are sent as literals


def section(fields, ric=0, base=0, sign=0):
    """A field section with the static table and literals only (Required Insert Count 0)."""
    out = qint(8, 0, ric) + qint(7, 0x80 if sign else 0, base)
    for n, v in fields:
        if (n, v) in STATIC:
            out += qint(6, 0xC0, STATIC[(n, v)])
        elif STATIC_NAME.get(n) is not None:
            out += qint(4, 0x50, STATIC_NAME[n]) + qstr(7, 0, v)
        else:
            out += qstr(3, 0x20, n) + qstr(7, 0, v)
    return out


def settings_frame(pairs):
    return frame(0x04, b"".join(varint(k) + varint(v) for k, v in pairs))


GET = [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", b"example.org"), (b":path", b"/")]
POST = [(b":method", b"POST"), (b":scheme", b"https"), (b":authority", b"example.org"), (b":path", b"/up"),
        (b"content-length", b"5")]
CONNECT = [(b":method", b"CONNECT"), (b":authority", b"example.org:443")]
XCONNECT = [(b":method", b"CONNECT"), (b":protocol", b"websocket"), (b":scheme", b"https"),
            (b":authority", b"example.org"), (b":path", b"/chat")]
RESP = [(b":status", b"200"), (b"content-type", b"text/plain")]
RESP_CL = [(b":status", b"200"), (b"content-length", b"5")]
INFO = [(b":status", b"103")]
TRAILERS = [(b"grpc-status", b"0")]

# ---- harness input encoding ----
CLIENT, SERVER = 0, 1


def side_settings(flags=0, cap=4096, blocked=16, enccap=4096, mfs=0, server=False, max_bidi=0):
    b = struct.pack(">BHBHH", flags, cap, blocked, enccap, mfs)
    return b + (bytes([max_bidi]) if server else b"")


def header(sides, client=None, server=None, inject_cb=False, inject_mem=False, origin=None, max_conc=False):
    """sides: 'client', 'server' or 'both'."""
    mode = {"client": 1, "server": 2, "both": 3}[sides] | (4 if inject_cb else 0) | (8 if inject_mem else 0) \
        | (16 if origin is not None else 0) | (32 if max_conc else 0)
    out = bytes([mode])
    if origin is not None:
        out += bytes([len(origin)]) + origin
    if sides in ("client", "both"):
        out += client if client is not None else side_settings()
    if sides in ("server", "both"):
        out += server if server is not None else side_settings(server=True)
    return out


def length(n):
    return bytes([n]) if n < 255 else b"\xff" + struct.pack(">H", n)


def op(kind, side, arg=0):
    return bytes([kind | side << 4 | arg << 5])


def read(side, sid, data, fin=False, chunk=0, ts=0):
    """peer bytes on stream sid: bidi 4k or (uni) 4k+2 (to a server) / 4k+3 (to a client)."""
    sel = (sid // 4) | (0x80 if sid % 4 else 0)
    return op(0, side, ts) + bytes([sel]) + length(len(data)) + bytes([(1 if fin else 0) | chunk << 1]) + data


def drain(side, ack_now=True, cap=0, fwd_chunk=0, rounds=0, hold=False):
    return op(2, side, rounds) + bytes([(0 if ack_now else 1) | cap << 1 | fwd_chunk << 3 | (0x80 if hold else 0)])


def ack(side, half=False, release=False):
    return op(3, side, (1 if half else 0) | (2 if release else 0))


def body(spec=0, chunk=0):
    return bytes([spec]) + (bytes([chunk]) if spec else b"")


def extra(name, value):
    return bytes([len(name)]) + name + length(len(value)) + value


def request(sel=0, spec=0, chunk=0, extra_hdr=None):
    """client: submit a request; sel bits 0-2 header set, 3 extra header, 4 never-index, 5 no-copy."""
    b = op(4, CLIENT) + bytes([sel | (8 if extra_hdr else 0)])
    if extra_hdr: b += extra(*extra_hdr)
    return b + body(spec, chunk)


def response(sid, sel=0, spec=0, chunk=0, info=False, extra_hdr=None):
    b = op(5, SERVER, 1 if info else 0) + bytes([sid // 4, sel | (8 if extra_hdr else 0)])
    if extra_hdr: b += extra(*extra_hdr)
    return b if info else b + body(spec, chunk)


def trailers(side, sid, sel=0):
    return op(6, side) + bytes([sid // 4, sel])


def prio_client(sid, value):
    return op(7, CLIENT) + bytes([sid // 4, len(value)]) + value


def prio_server(sid, urgency, inc=0):
    return op(7, SERVER, urgency) + bytes([sid // 4 | inc << 6])


def goaway(side, shutdown=False):
    return op(8, side, 1 if shutdown else 0)


def close(side, sid, code=0):
    sel = sid // 4 | ({0: 0, 1: 0, 2: 0x40, 3: 0x80}[sid % 4])
    return op(9, side) + bytes([sel, code])


def shut_read(side, sid, also_write=False):
    return op(10, side, 1 if also_write else 0) + bytes([sid // 4])


def shut_write(side, sid):
    return op(11, side) + bytes([sid // 4])


def flow(side, sid, what):
    return op(12, side, {"block": 0, "unblock": 3, "resume": 6}[what]) + bytes([sid // 4])


def query(side, sid, arg=0):
    return op(13, side, arg) + bytes([sid // 4])


def roundtrip(side=CLIENT, release=False):
    return op(15 if release else 14, side)


# ---- seeds ----


def wired_seeds():
    S = {}
    hs = header("both")
    # a GET and its response, step by step
    S["wired-get"] = hs + drain(CLIENT) + drain(SERVER) + request(0) + drain(CLIENT) + response(0, 0) \
        + drain(SERVER) + roundtrip()
    # POST with a body (blocks once), response with a body and trailers, client trailers too
    S["wired-post-trailers"] = hs + roundtrip() + request(1, spec=0x80 | 1, chunk=36) + drain(CLIENT) \
        + trailers(CLIENT, 0) + roundtrip() + response(0, 0, spec=0x80 | 3, chunk=5) + trailers(SERVER, 0, 0) \
        + roundtrip(SERVER) + roundtrip()
    S["wired-block-resume"] = hs + roundtrip() + request(1, spec=0x40 | 1, chunk=36) + drain(CLIENT) \
        + flow(CLIENT, 0, "resume") + drain(CLIENT) + response(0, 3, spec=0x40 | 1, chunk=36) + drain(SERVER) \
        + flow(SERVER, 0, "block") + drain(SERVER) + flow(SERVER, 0, "unblock") + flow(SERVER, 0, "resume") \
        + roundtrip(SERVER) + roundtrip()
    # many requests with a dynamic table (eager indexing) and blocked streams, delayed acks
    eager = side_settings(flags=4, cap=4096, blocked=100, enccap=4096)
    eager_s = side_settings(flags=4 | 3, cap=4096, blocked=100, enccap=4096, server=True)
    h2 = header("both", client=eager, server=eager_s)
    ops = roundtrip()
    for i in range(6):
        ops += request([0, 4, 6, 3, 2, 0][i], extra_hdr=(b"x-id", b"v%d" % i))
    ops += drain(CLIENT, ack_now=False, cap=2) + drain(CLIENT, ack_now=False) + ack(CLIENT, half=True) + drain(SERVER)
    for i in range(6):
        ops += response(4 * i, [0, 1, 2, 0, 6, 0][i], spec=1 if i % 2 == 0 else 0, chunk=36)
    ops += drain(SERVER, ack_now=False, cap=1, fwd_chunk=3) + drain(SERVER) + ack(SERVER) + roundtrip() + roundtrip(SERVER)
    S["wired-dynamic-table"] = h2 + ops
    # encoder-stream bytes held back: the server's sections block until they arrive (and the client's)
    S["wired-blocked"] = h2 + roundtrip() + request(0, extra_hdr=(b"x-a", b"1")) + request(6, extra_hdr=(b"x-b", b"2")) \
        + drain(CLIENT, hold=True) + drain(SERVER) + ack(CLIENT, release=True) + roundtrip() \
        + request(4, extra_hdr=(b"x-a", b"1")) + drain(CLIENT, hold=True, fwd_chunk=2) + close(SERVER, 8) \
        + roundtrip(release=True) + response(0, 0, extra_hdr=(b"x-c", b"3")) + response(4, 2) \
        + drain(SERVER, hold=True) + drain(CLIENT) + ack(SERVER, release=True) + roundtrip(SERVER, release=True)
    S["wired-blocked-cancel"] = h2 + roundtrip() + request(0, extra_hdr=(b"x-a", b"1")) + drain(CLIENT, hold=True) \
        + shut_read(SERVER, 0) + close(SERVER, 0) + roundtrip(SERVER) + ack(CLIENT, release=True) + roundtrip()
    # the same, requests received out of order: drain with a small write cap
    S["wired-partial-writes"] = h2 + roundtrip() + request(0, extra_hdr=(b"cookie", b"a" * 300)) + request(6) \
        + drain(CLIENT, cap=1) + drain(CLIENT, cap=3) + drain(SERVER, ack_now=False) + roundtrip() \
        + response(4, 0) + response(0, 2) + roundtrip(SERVER)
    # priorities both ways
    S["wired-priority"] = hs + roundtrip() + request(0) + request(4) + prio_client(0, b"u=1, i") \
        + prio_client(4, b"u=7") + roundtrip() + prio_server(0, 2, 1) \
        + prio_server(4, 6) + response(0, 0, spec=1, chunk=1) + response(4, 1) + roundtrip(SERVER) + roundtrip() \
        + prio_client(0, b"u=9,i=?2") + roundtrip()
    # GOAWAY: notice, shutdown, then a request the server rejects; client shutdown too
    S["wired-goaway"] = hs + roundtrip() + request(0) + request(0) + roundtrip() + goaway(SERVER) + roundtrip(SERVER) \
        + request(0) + roundtrip() + goaway(SERVER, True) + roundtrip(SERVER) + request(0) + roundtrip() \
        + goaway(CLIENT) + goaway(CLIENT, True) + roundtrip() + query(SERVER, 0) + close(SERVER, 0) \
        + close(CLIENT, 0) + query(SERVER, 0)
    # resets and closes
    S["wired-reset"] = hs + roundtrip() + request(1, spec=1, chunk=36) + request(0) + drain(CLIENT) \
        + shut_read(SERVER, 0, True) + shut_write(SERVER, 4) + roundtrip(SERVER) + shut_read(CLIENT, 4) \
        + response(4, 0) + close(SERVER, 0, 7) + close(CLIENT, 0) + roundtrip() + close(SERVER, 4) \
        + query(CLIENT, 4, 7) + close(CLIENT, 4)
    # CONNECT and extended CONNECT (enable_connect_protocol, h3_datagram), info responses
    xc = side_settings(flags=3, cap=0, blocked=0, enccap=0)
    xs = side_settings(flags=3, cap=0, blocked=0, enccap=0, server=True)
    S["wired-connect"] = header("both", client=xc, server=xs) + roundtrip() + request(2, spec=2, chunk=1) \
        + request(3, spec=2, chunk=2) + roundtrip() + response(0, 0, info=True) + response(0, 0, spec=3) \
        + response(4, 0, spec=1, chunk=3) + roundtrip(SERVER) + roundtrip()
    # ORIGIN frame from the server, limited concurrent streams
    origin = b"\x00\x13https://example.org\x00\x12http://example.com"
    S["wired-origin"] = header("both", origin=origin, max_conc=True) + roundtrip(SERVER) + roundtrip() \
        + request(0) + roundtrip() + response(0, 0) + roundtrip(SERVER)
    # small max field section size: the server refuses big headers
    small = side_settings(cap=256, blocked=1, enccap=256, mfs=64, server=True)
    S["wired-field-section-size"] = header("both", server=small) + roundtrip(SERVER) + roundtrip() \
        + request(0, extra_hdr=(b"x-big", b"y" * 200)) + roundtrip() + response(0, 0) + roundtrip(SERVER)
    # invalid requests / responses: the peer's HTTP checks (rq_bad, rs_bad, 101, bad trailers)
    S["wired-malformed"] = hs + roundtrip() + request(5) + request(0, extra_hdr=(b"Bad Name", b"v\r\n")) \
        + roundtrip() + response(0, 4) + response(4, 5) + roundtrip(SERVER)
    S["wired-bad-trailers"] = hs + roundtrip() + request(1, spec=0x80 | 1, chunk=1) + drain(CLIENT) \
        + trailers(CLIENT, 0, 1) + roundtrip()
    # injected failures (bits at the end: every callback / allocation asks one)
    S["wired-failures-cb"] = header("both", inject_cb=True) + S["wired-get"][len(hs):] + b"\x00" * 6 + b"\x20"
    S["wired-failures-mem"] = header("both", inject_mem=True) + S["wired-post-trailers"][len(hs):] + b"\x10" + b"\x00" * 12
    # glitch rate limit with timestamps
    g = side_settings(flags=8, server=True)
    S["wired-glitch"] = header("both", server=g) + roundtrip() + read(SERVER, 14, varint(0x21) + b"xx", ts=1) \
        + read(SERVER, 18, varint(0x21), ts=1) + read(SERVER, 22, b"", fin=True, ts=1) + request(0) + roundtrip()
    # Priority field values (structured-field dictionaries, RFC 9651) in request headers and
    # PRIORITY_UPDATE frames: every bare item type, parameters, inner lists
    sf = [b"u=0", b"u=7, i", b"i=?0, u=2;p=1", b'u=1, a="str\\"ing", i', b"u=2, x=:aGVsbG8=:", b"u=3, y=tok/en:a*",
          b"u=4, d=1.250, n=-12", b'u=5, l=(1 "a" tok ?1);q=2, i=?1', b"u=6, t=@1659578233", b'u=1, s=%"f%c3%bc"',
          b"u=8", b"i=1", b"u=1.5", b"u=, i", b"a=b;c", b"u=1, u=2", b"  u=1  ,  i  "]
    ops = roundtrip()
    for i, v in enumerate(sf):
        ops += request(0, extra_hdr=(b"priority", v))
    ops += roundtrip()
    S["wired-priority-sf"] = hs + ops + response(0, 0) + roundtrip(SERVER)
    for i, v in enumerate(sf):
        S["wired-priority-update-%02d" % i] = hs + roundtrip() + request(0) + request(0) + prio_client(4, v) + roundtrip() \
            + prio_client(0, v) + roundtrip()
    # the glitch rate limit (burst 8): too many unknown frames and streams, timestamps advancing or not
    g = side_settings(flags=8, server=True)
    unk = b"".join(frame(0x21 + 0x1f * k, b"g") for k in range(10))
    S["wired-glitch-burst"] = header("both", server=g) + roundtrip() + read(SERVER, 2, unk, ts=1) \
        + request(0) + roundtrip()
    S["srv-glitch-streams"] = header("server", server=g) + read(SERVER, 2, peer_control(False)) + b"".join(
        read(SERVER, 14 + 4 * k, varint(0x21 + 0x1f * k) + b"x", ts=2 if k % 3 else 1) for k in range(12))
    # no callbacks at all / the deprecated recv_settings callback
    S["wired-no-callbacks"] = header("both", client=side_settings(flags=32), server=side_settings(flags=32, server=True)) \
        + S["wired-post-trailers"][len(hs):]
    S["wired-settings-v1"] = header("both", client=side_settings(flags=16), server=side_settings(flags=16, server=True)) \
        + S["wired-get"][len(hs):]
    # bodies: empty (EOF at once), pieces with an empty vector, a second request on a stream in use
    S["wired-bodies"] = hs + roundtrip() + request(0, spec=0x80, chunk=0) + request(0, spec=1, chunk=0x40 | 4) \
        + op(4, CLIENT, 1) + b"\x00\x00" + roundtrip() + response(0, 0, spec=0x80, chunk=0) + trailers(SERVER, 0) \
        + response(4, 0, spec=2, chunk=0x40 | 9) + roundtrip(SERVER) + roundtrip()
    return S


def peer_control(client_side, pairs=None, extra=b""):
    pairs = pairs if pairs is not None else [(0x01, 4096), (0x07, 16), (0x06, 65536)]
    return varint(0x00) + settings_frame(pairs) + extra


def single_seeds():
    S = {}
    srv, cli = header("server"), header("client")
    ctrl = peer_control(False)
    # server: control stream, encoder/decoder streams, requests
    reqs = frame(0x01, section(GET))
    S["srv-get"] = srv + read(SERVER, 2, ctrl) + read(SERVER, 0, reqs, fin=True) + drain(SERVER) \
        + response(0, 0) + drain(SERVER)
    S["srv-post-data-trailers"] = srv + read(SERVER, 2, ctrl, chunk=3) \
        + read(SERVER, 0, frame(0x01, section(POST)) + frame(0x00, b"hello") + frame(0x01, section(TRAILERS)), fin=True, chunk=2) \
        + response(0, 3, spec=1, chunk=1) + drain(SERVER)
    S["srv-qpack-streams"] = srv + read(SERVER, 2, ctrl) + read(SERVER, 6, varint(0x02) + b"\x3f\xe1\x1f" \
        + qstr(5, 0x40, b"x-a") + qstr(7, 0, b"b") + b"\x00") + read(SERVER, 10, varint(0x03) + b"\x40\x44") \
        + read(SERVER, 0, frame(0x01, b"\x02\x00" + section(GET)[2:] + b"\x80"), fin=True) + drain(SERVER)
    S["srv-priority-update"] = srv + read(SERVER, 2, ctrl + frame(0xF0700, varint(0) + b"u=2, i")
                                              + frame(0xF0700, varint(8) + b"u=5")) \
        + read(SERVER, 0, frame(0x01, section(GET + [(b"priority", b"u=0")])), fin=True) \
        + read(SERVER, 8, frame(0x01, section(GET)), fin=True) + drain(SERVER)
    S["srv-goaway-unknown"] = srv + read(SERVER, 2, ctrl + frame(0x07, varint(0)) + frame(0x21, b"grease")
                                             + frame(0x0d, varint(3)) + frame(0x03, varint(0))) + drain(SERVER)
    S["srv-unknown-streams"] = srv + read(SERVER, 2, ctrl) + read(SERVER, 14, varint(0x21) + b"zz") \
        + read(SERVER, 22, b"", fin=True) \
        + read(SERVER, 0, frame(0x21, b"x") + frame(0x01, section(CONNECT)) + frame(0x00, b"tunnel"), chunk=1) \
        + read(SERVER, 18, varint(0x01), fin=True)
    S["srv-bad-settings"] = srv + read(SERVER, 2, varint(0x00) + settings_frame([(0x01, 1), (0x01, 2), (0x02, 3)]))
    S["srv-h2-frames"] = srv + read(SERVER, 2, ctrl + frame(0x02, b"\x00")) + read(SERVER, 0, frame(0x06, b"x" * 8))
    S["srv-xconnect"] = header("server", server=side_settings(flags=3, server=True)) + read(SERVER, 2, peer_control(False, [(0x08, 1), (0x33, 1), (0x06, 100)])) \
        + read(SERVER, 0, frame(0x01, section(XCONNECT)) + frame(0x00, b"ws"), chunk=4) + response(0, 0) + drain(SERVER)
    S["srv-malformed"] = srv + read(SERVER, 2, ctrl) + read(SERVER, 0, frame(0x01, section(
        [(b":method", b"GET"), (b":path", b""), (b"te", b"gzip"), (b"connection", b"x"), (b":authority", b"a b")])), fin=True) \
        + read(SERVER, 4, frame(0x01, section(POST)) + frame(0x00, b"toolongbody"), fin=True) \
        + read(SERVER, 8, frame(0x00, b"data first"), fin=True)
    S["srv-goaway-then-requests"] = srv + read(SERVER, 2, ctrl) + goaway(SERVER) + goaway(SERVER, True) \
        + drain(SERVER) + read(SERVER, 0, reqs, fin=True) + read(SERVER, 40, reqs, fin=True) + drain(SERVER) \
        + query(SERVER, 0)
    # client: responses on its request streams
    cctrl = peer_control(True)
    resp = frame(0x01, section(RESP)) + frame(0x00, b"hello")
    S["cli-get"] = cli + request(0) + request(1, spec=1, chunk=1) + drain(CLIENT) + read(CLIENT, 3, cctrl) \
        + read(CLIENT, 0, resp, fin=True) + read(CLIENT, 4, frame(0x01, section(INFO)) + frame(0x01, section(RESP_CL))
                                                   + frame(0x00, b"12345") + frame(0x01, section(TRAILERS)), fin=True, chunk=5)
    S["cli-goaway-origin"] = cli + request(0) + request(0) + drain(CLIENT) + read(CLIENT, 3, cctrl
        + frame(0x0c, b"\x00\x13https://example.org") + frame(0x0c, b"") + frame(0x07, varint(4)) + frame(0x07, varint(0))) \
        + request(0) + drain(CLIENT)
    S["cli-qpack-streams"] = cli + request(0) + drain(CLIENT) + read(CLIENT, 3, cctrl) \
        + read(CLIENT, 7, varint(0x02) + b"\x3f\xe1\x1f" + qstr(5, 0x40, b"x-b") + qstr(7, 0, b"c") + b"\x00") \
        + read(CLIENT, 11, varint(0x03) + b"\x40") + read(CLIENT, 0, frame(0x01, b"\x03\x81" + section(RESP)[2:] + b"\x10"), fin=True)
    S["cli-bad"] = cli + request(0) + drain(CLIENT) + read(CLIENT, 3, cctrl + frame(0xF0700, varint(0) + b"u=1")) \
        + read(CLIENT, 0, frame(0x01, section([(b":status", b"99")])))
    S["cli-push"] = cli + request(0) + drain(CLIENT) + read(CLIENT, 3, cctrl) + read(CLIENT, 7, varint(0x01) + varint(0)) \
        + read(CLIENT, 0, frame(0x05, varint(0) + section(GET)))
    # HTTP field checks (RFC 9114 4.2-4.3, RFC 9110): one malformed request / response per stream
    bad_reqs = [GET + [(b"host", b"example.org")], [(b":method", b"GET"), (b":scheme", b"https"), (b"host", b"a b"), (b":path", b"/")],
                [(b":method", b"GET"), (b":scheme", b"1http"), (b":authority", b"a"), (b":path", b"/")],
                [(b":method", b"GET"), (b":scheme", b"ht tp"), (b":authority", b"a"), (b":path", b"/")],
                [(b":method", b""), (b":scheme", b"https"), (b":authority", b"a"), (b":path", b"/")],
                [(b":method", b"G(T"), (b":scheme", b"https"), (b":authority", b"a"), (b":path", b"/")],
                POST[:-1] + [(b"content-length", b"1x")], POST + [(b"content-length", b"5")],
                GET + [(b"te", b"gzip")], [(b":method", b"GET"), (b":protocol", b"ws"), (b":scheme", b"https"),
                                           (b":authority", b"a"), (b":path", b"/")],
                [(b":method", b"GET"), (b":scheme", b"https"), (b":path", b"/")]]
    for i, fields in enumerate(bad_reqs):
        S["srv-bad-request-%02d" % i] = srv + read(SERVER, 2, ctrl) + read(SERVER, 0, frame(0x01, section(fields)), fin=True) \
            + read(SERVER, 4, reqs, fin=True)
    bad_resps = [[(b":status", b"204"), (b"content-length", b"0")], [(b":status", b"204"), (b"content-length", b"1")],
                 [(b":status", b"204"), (b"content-length", b"0"), (b"content-length", b"0")],
                 [(b":status", b"103"), (b"content-length", b"7")], [(b":status", b"200"), (b"te", b"gzip")],
                 [(b":status", b"200"), (b"te", b"trailers")], [(b":status", b"200"), (b"content-length", b"-1")],
                 [(b":status", b"200"), (b"content-length", b"1"), (b"content-length", b"1")]]
    for i, fields in enumerate(bad_resps):
        S["cli-bad-response-%02d" % i] = cli + request(0) + request(2) + drain(CLIENT) + read(CLIENT, 3, cctrl) \
            + read(CLIENT, 0, frame(0x01, section(fields)), fin=True) \
            + read(CLIENT, 4, frame(0x01, section([(b":status", b"200"), (b"content-length", b"3")])) + frame(0x00, b"abc"), fin=True)
    # the glitch rate limit (burst 8, no time passing): each kind of suspicious event 10 times
    gs, gc = header("server", server=side_settings(flags=8, server=True)), header("client", client=side_settings(flags=8))
    S["srv-glitch-empty-uni"] = gs + read(SERVER, 2, ctrl) + b"".join(
        read(SERVER, 6 + 4 * k, b"", ts=1) + read(SERVER, 6 + 4 * k, b"", fin=True, ts=1) for k in range(10))
    S["srv-glitch-max-push-id"] = gs + read(SERVER, 2, ctrl + b"".join(frame(0x0d, varint(3)) for _ in range(10)), ts=1)
    S["srv-max-push-id-decreasing"] = srv + read(SERVER, 2, ctrl + frame(0x0d, varint(5)) + frame(0x0d, varint(2)))
    S["cli-origin-no-callbacks"] = header("client", client=side_settings(flags=32)) + request(0) + drain(CLIENT) \
        + read(CLIENT, 3, cctrl + frame(0x0c, b"\x00\x13https://example.org") + frame(0x0c, b""))
    S["srv-uni-fin-in-type"] = srv + read(SERVER, 2, ctrl) + read(SERVER, 6, b"\x40") + read(SERVER, 6, b"", fin=True)
    S["srv-glitch-unknown-uni"] = gs + read(SERVER, 2, ctrl) + b"".join(
        read(SERVER, 6 + 4 * k, varint(0x21 + 0x1f * k), fin=k % 2 == 0, ts=1) for k in range(10))
    S["cli-glitch-origin"] = gc + request(0) + drain(CLIENT) + read(CLIENT, 3, cctrl + b"".join(
        frame(0x0c, b"\x00\x13https://example.org") for _ in range(10)), ts=1)
    S["cli-glitch-goaway"] = gc + request(0) + drain(CLIENT) + read(CLIENT, 3, cctrl + b"".join(
        frame(0x07, varint(4)) for _ in range(10)), ts=1)
    return S


def h3_wrap(enc_records, table, blocked, client):
    """fuzz/bin/seed-records.py: QIF field sections encoded by nghttp3 (records: (stream, data), stream 0 =
    encoder stream) carried in HTTP/3 to one side: peer SETTINGS, encoder stream, HEADERS (+ DATA)."""
    side = CLIENT if client else SERVER
    st = side_settings(cap=min(table, 65535), blocked=min(blocked, 255), server=not client)
    b = header("client" if client else "server", **({"client": st} if client else {"server": st}))
    sections = [d for s, d in enc_records if s != 0]
    if client:
        b += b"".join(request(0) for _ in sections[:16]) + drain(CLIENT)
    b += read(side, 3 if client else 2, peer_control(client, [(0x01, table), (0x07, blocked), (0x06, 65536)]))
    enc = b"".join(d for s, d in enc_records if s == 0)
    uni_enc = 7 if client else 6
    b += read(side, uni_enc, varint(0x02) + enc[:len(enc) // 2])
    for i, sec in enumerate(sections[:16]):
        b += read(side, 4 * i, frame(0x01, sec) + frame(0x00, b"hello, wirelab\n"), fin=True)
        if i == 0: b += read(side, uni_enc, enc[len(enc) // 2:])
    b += drain(side)
    return b


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    seeds = {**wired_seeds(), **single_seeds()}
    for name, blob in seeds.items():
        open(os.path.join(out_dir, "seed-" + name), "wb").write(blob)
    print(f"seeds: nghttp3-h3-conn: {len(seeds)} structured seeds", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
