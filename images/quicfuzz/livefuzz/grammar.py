"""Frame generators: every frame of wire.py with values chosen where implementations decide
(zero, limits, one past a limit, the varint boundaries, 2^60, 2^62-1) and stream ids of every
kind the connection has (open, receive-only, send-only, not yet created, past the limit). An
input is a conversation: the well-formed opening of the campaign's application protocol, then
what the generators and mutations make of it."""
import random

from . import wire

BOUNDARIES = [0, 1, 2, 63, 64, 16383, 16384, (1 << 30) - 1, 1 << 30, 1 << 60, (1 << 60) + 1,
              wire.MAX_VARINT]


class Target:
    """What the generators know of the server: its transport parameters (from a first
    connection) and the campaign's request, so stream ids and values hit its real limits."""

    def __init__(self, alpn="h3", authority="server4", path="/livefuzz.txt", params=None):
        self.alpn, self.authority, self.path = alpn, authority, path
        p = params or {}
        self.max_streams_bidi = int(p.get("max_streams_bidi") or 100)
        self.max_streams_uni = int(p.get("max_streams_uni") or 3)
        self.max_stream_data = int(p.get("max_stream_data_bidi_remote") or 65536)
        self.max_data = int(p.get("max_data") or 1 << 20)

    def stream_ids(self):
        """Stream ids by what they are to the server (RFC 9000 §2.1)."""
        far = lambda limit: limit + 64
        return {
            "client-bidi": [0, 4, 8],
            "client-uni": [2, 6, 10, 14],
            "server-uni": [3, 7, 11],
            "server-uni-uncreated": [4 * 100 + 3],
            "server-bidi-uncreated": [1, 5],
            "client-bidi-over-limit": [4 * far(self.max_streams_bidi)],
            "client-uni-over-limit": [4 * far(self.max_streams_uni) + 2],
        }


def opening(t: Target) -> list:
    """The well-formed start of the campaign's protocol, as 1-RTT frames: HTTP/3's control
    stream with SETTINGS, the QPACK streams and a GET (RFC 9114 §6.2, §4.1), or hq-interop's
    HTTP/0.9 GET."""
    if t.alpn == "h3":
        return [
            {"t": "STREAM", "stream_id": 2, "h3": {"stream_type": 0, "frames": [{"t": "SETTINGS", "pairs": [[1, 0], [7, 0]]}]}},
            {"t": "STREAM", "stream_id": 6, "h3": {"stream_type": 2, "frames": []}},
            {"t": "STREAM", "stream_id": 10, "h3": {"stream_type": 3, "frames": []}},
            {"t": "STREAM", "stream_id": 0, "fin": True, "h3": {"frames": [{"t": "HEADERS", "block": wire.qpack_get(t.authority, t.path)}]}},
        ]
    return [{"t": "STREAM", "stream_id": 0, "fin": True, "data": ("GET %s\r\n" % t.path).encode().hex()}]


def base_input(t: Target) -> dict:
    return {"alpn": t.alpn, "packets": [{"epoch": "1rtt", "frames": opening(t)}]}


class Generator:
    def __init__(self, rng: random.Random, t: Target):
        self.rng, self.t = rng, t
        self.ids = t.stream_ids()

    def value(self, limit=None) -> int:
        r = self.rng.random()
        if limit is not None and r < 0.3:
            v = limit + self.rng.choice([-1, 0, 1, 64])
        elif r < 0.8:
            v = self.rng.choice(BOUNDARIES)
        else:
            v = self.rng.randrange(0, 1 << self.rng.choice([6, 14, 30, 62]))
        return min(max(v, 0), wire.MAX_VARINT)  # every value is one a varint can carry

    def stream_id(self) -> int:
        kind = self.rng.choice(list(self.ids))
        return self.rng.choice(self.ids[kind])

    def bytes_hex(self, n) -> str:
        return bytes(self.rng.randrange(256) for _ in range(n)).hex()

    def frame(self) -> dict:
        """One frame of any type, the HTTP/3 ones included when the campaign speaks h3."""
        # closing frames end the conversation (the server drains, silent): seldom worth a try
        kinds = [k for k in wire.FIELDS if not k.endswith("CLOSE")] + ["STREAM", "STREAM", "STREAM", "RAW"]
        if self.rng.random() < 0.02:
            kinds = ["CONNECTION_CLOSE", "APPLICATION_CLOSE"]
        if self.t.alpn == "h3":
            kinds += ["H3", "H3", "H3", "H3"]
        k = self.rng.choice(kinds)
        g = getattr(self, "gen_" + k.lower(), None)
        if g is not None:
            return g()
        f = {"t": k}
        for name in wire.FIELDS[k]:
            if name == "stream_id":
                f[name] = self.stream_id()
            elif name in ("data", "token"):
                f[name] = self.bytes_hex(self.rng.choice([0, 1, 8, 64]))
            elif name == "reason":
                f[name] = self.rng.choice(["", "fuzz"])
            elif name == "cid":
                n = self.rng.choice([0, 1, 8, 20, 21])
                f[name] = self.bytes_hex(min(n, 20))
                f["cid_len"] = n
            elif name == "reset_token":
                f[name] = self.bytes_hex(16)
            elif name == "data8":
                f[name] = self.bytes_hex(8)
            elif name == "max" and k == "MAX_STREAM_DATA":
                f[name] = self.value(self.t.max_stream_data)
            elif name in ("max", "limit") and k.startswith(("MAX_STREAMS", "STREAMS_BLOCKED")):
                f[name] = self.value(1 << 60)
            else:
                f[name] = self.value()
        return f

    def gen_stream(self) -> dict:
        f = {"t": "STREAM", "stream_id": self.stream_id(), "fin": self.rng.random() < 0.3,
             "data": self.bytes_hex(self.rng.choice([0, 1, 16, 200]))}
        if self.rng.random() < 0.3:
            f["offset"] = self.value(self.t.max_stream_data)
        return f

    def gen_raw(self) -> dict:
        """Bytes no frame of RFC 9000 starts with (an unknown frame type, §12.4), or noise."""
        unknown = self.rng.choice([0x20, 0x21, 0x22, 0x23, 0x25, 0x2E, 0x3F, 0x4021, 0x7FFF])
        tail = self.bytes_hex(self.rng.choice([0, 1, 4]))
        return {"t": "RAW", "hex": wire.varint(unknown).hex() + tail}

    def gen_h3(self) -> dict:
        """A STREAM frame carrying HTTP/3: on the control stream, a request stream, or a new
        unidirectional stream of some type (RFC 9114 §6.2, RFC 9204 §4.2)."""
        where = self.rng.choice(["control", "request", "new-uni", "encoder"])
        fr = [self.h3_frame() for _ in range(self.rng.choice([1, 1, 2]))]
        if where == "control":
            return {"t": "STREAM", "stream_id": 2, "fin": self.rng.random() < 0.1, "h3": {"frames": fr}}
        if where == "request":
            return {"t": "STREAM", "stream_id": self.rng.choice([0, 4, 8]), "fin": self.rng.random() < 0.5, "h3": {"frames": fr}}
        if where == "encoder":
            ins = self.rng.choice(["3f", "3fe11f", "20", "3fe1ff00"])  # Set Dynamic Table Capacity
            return {"t": "STREAM", "stream_id": 6, "data": ins}
        st = self.rng.choice([0x00, 0x01, 0x02, 0x03, 0x21, 0x54])
        return {"t": "STREAM", "stream_id": self.rng.choice([14, 18, 22]),
                "h3": {"stream_type": st, "frames": fr if st in (0x00, 0x01) else []}}

    def h3_frame(self) -> dict:
        k = self.rng.choice(["DATA", "HEADERS", "SETTINGS", "GOAWAY", "MAX_PUSH_ID", "CANCEL_PUSH",
                             "PUSH_PROMISE", "RESERVED", "UNKNOWN"])
        if k == "SETTINGS":
            ids = [0x01, 0x06, 0x07, 0x08, 0x33, self.rng.choice([0x02, 0x03, 0x04, 0x05])]
            return {"t": "SETTINGS", "pairs": [[self.rng.choice(ids), self.value()] for _ in range(self.rng.choice([0, 1, 2]))]}
        if k == "HEADERS":
            return {"t": "HEADERS", "block": self.rng.choice([wire.qpack_get(self.t.authority, self.t.path), "0000", "ff", self.bytes_hex(6)])}
        if k in ("GOAWAY", "MAX_PUSH_ID", "CANCEL_PUSH"):
            return {"t": k, "id": self.value()}
        if k == "PUSH_PROMISE":
            return {"t": k, "id": 0, "block": "0000d1"}
        if k == "RESERVED":
            return {"t": "DATA", "type": self.rng.choice(wire.H3_RESERVED_H2_FRAMES), "payload": self.bytes_hex(2)}
        if k == "UNKNOWN":  # a grease type (RFC 9114 §7.2.8): MUST be ignored
            return {"t": "DATA", "type": 0x1F * self.rng.randrange(1, 40) + 0x21, "payload": self.bytes_hex(3)}
        return {"t": "DATA", "payload": self.bytes_hex(self.rng.choice([0, 10]))}
