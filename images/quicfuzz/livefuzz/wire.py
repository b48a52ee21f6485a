"""Frames as data, and their exact bytes: every QUIC frame of RFC 9000 §19 (plus DATAGRAM, RFC
9221), HTTP/3 frames and stream types (RFC 9114 §6, §7) and a raw escape hatch. An input file holds
frames in this form, so a finding replays byte for byte and reads as what was sent."""

# RFC 9000 §19 frame types (STREAM is 0x08-0x0f: OFF 0x04, LEN 0x02, FIN 0x01).
FRAME_TYPES = {
    "PADDING": 0x00, "PING": 0x01, "ACK": 0x02, "RESET_STREAM": 0x04, "STOP_SENDING": 0x05,
    "CRYPTO": 0x06, "NEW_TOKEN": 0x07, "STREAM": 0x08, "MAX_DATA": 0x10, "MAX_STREAM_DATA": 0x11,
    "MAX_STREAMS_BIDI": 0x12, "MAX_STREAMS_UNI": 0x13, "DATA_BLOCKED": 0x14,
    "STREAM_DATA_BLOCKED": 0x15, "STREAMS_BLOCKED_BIDI": 0x16, "STREAMS_BLOCKED_UNI": 0x17,
    "NEW_CONNECTION_ID": 0x18, "RETIRE_CONNECTION_ID": 0x19, "PATH_CHALLENGE": 0x1A,
    "PATH_RESPONSE": 0x1B, "CONNECTION_CLOSE": 0x1C, "APPLICATION_CLOSE": 0x1D,
    "HANDSHAKE_DONE": 0x1E, "DATAGRAM": 0x31,
}

# The fields each frame has, in wire order (STREAM and RAW are encoded apart).
FIELDS = {
    "PADDING": [], "PING": [], "HANDSHAKE_DONE": [],
    "ACK": ["largest", "delay", "first_range"],
    "RESET_STREAM": ["stream_id", "code", "final_size"],
    "STOP_SENDING": ["stream_id", "code"],
    "CRYPTO": ["offset", "data"],
    "NEW_TOKEN": ["token"],
    "MAX_DATA": ["max"], "MAX_STREAM_DATA": ["stream_id", "max"],
    "MAX_STREAMS_BIDI": ["max"], "MAX_STREAMS_UNI": ["max"],
    "DATA_BLOCKED": ["limit"], "STREAM_DATA_BLOCKED": ["stream_id", "limit"],
    "STREAMS_BLOCKED_BIDI": ["limit"], "STREAMS_BLOCKED_UNI": ["limit"],
    "NEW_CONNECTION_ID": ["seq", "retire_prior_to", "cid", "reset_token"],
    "RETIRE_CONNECTION_ID": ["seq"],
    "PATH_CHALLENGE": ["data8"], "PATH_RESPONSE": ["data8"],
    "CONNECTION_CLOSE": ["code", "frame_type", "reason"],
    "APPLICATION_CLOSE": ["code", "reason"],
    "DATAGRAM": ["data"],
}

MAX_VARINT = (1 << 62) - 1
# Every frame type a CONNECTION_CLOSE may name: RFC 9000's 0x00-0x1e, DATAGRAM's (RFC 9221), and
# the drafts the lab's stacks implement (IMMEDIATE_ACK 0x1f, RESET_STREAM_AT 0x24, ACK_FREQUENCY 0xaf).
KNOWN_FRAME_TYPES = set(range(0x00, 0x20)) | {0x24, 0x30, 0x31, 0xAF}

# HTTP/3 (RFC 9114 §7.2, §11.2.1) and the types HTTP/2 used that HTTP/3 reserves (§7.2.8).
H3_FRAMES = {"DATA": 0x00, "HEADERS": 0x01, "CANCEL_PUSH": 0x03, "SETTINGS": 0x04,
             "PUSH_PROMISE": 0x05, "GOAWAY": 0x07, "MAX_PUSH_ID": 0x0D}
H3_RESERVED_H2_FRAMES = (0x02, 0x06, 0x08, 0x09)
# Unidirectional stream types: HTTP/3 control and push (RFC 9114 §6.2), QPACK (RFC 9204 §4.2).
STREAM_TYPES = {"control": 0x00, "push": 0x01, "qpack-encoder": 0x02, "qpack-decoder": 0x03}


class EncodeError(ValueError):
    """An input whose frame cannot be written (a malformed file, not a mutation)."""


def varint(v: int) -> bytes:
    """RFC 9000 §16: the shortest encoding of v."""
    if v < 0 or v > MAX_VARINT:
        raise EncodeError(f"varint out of range: {v}")
    if v < 1 << 6:
        return bytes([v])
    if v < 1 << 14:
        return (v | 0x4000).to_bytes(2, "big")
    if v < 1 << 30:
        return (v | 0x80000000).to_bytes(4, "big")
    return (v | 0xC000000000000000).to_bytes(8, "big")


def read_varint(b: bytes, i: int = 0):
    """(value, next index), or (None, i) when b ends inside the varint."""
    if i >= len(b):
        return None, i
    n = 1 << (b[i] >> 6)
    if i + n > len(b):
        return None, i
    v = b[i] & 0x3F
    for k in range(1, n):
        v = (v << 8) | b[i + k]
    return v, i + n


def unhex(s) -> bytes:
    if isinstance(s, (bytes, bytearray)):
        return bytes(s)
    return bytes.fromhex(s or "")


def frame_name(f: dict) -> str:
    """The name a frame is counted under: its type, or RAW:<first byte> for raw bytes."""
    if f["t"] == "RAW":
        b = unhex(f.get("hex", ""))
        return "RAW:%02x" % b[0] if b else "RAW:empty"
    return f["t"]


def encode_frame(f: dict, stream_offsets: dict) -> bytes:
    """The bytes of one frame. stream_offsets carries each stream's next offset through an
    input, so a STREAM frame without an explicit offset continues its stream."""
    t = f["t"]
    if t == "RAW":
        return unhex(f.get("hex", ""))
    if t == "STREAM":
        return encode_stream(f, stream_offsets)
    if t not in FIELDS:
        raise EncodeError(f"unknown frame type {t!r}")
    out = bytearray(varint(FRAME_TYPES[t]))
    for name in FIELDS[t]:
        v = f.get(name, 0)
        if name in ("data", "token", "reason"):
            data = unhex(v) if name != "reason" else str(v or "").encode()
            if t == "DATAGRAM" or t == "NEW_TOKEN" or t == "CRYPTO" or name == "reason":
                out += varint(len(data))
            out += data
        elif name == "cid":
            cid = unhex(v)
            out += bytes([f.get("cid_len", len(cid)) & 0xFF]) + cid
        elif name == "reset_token":
            out += unhex(v).ljust(16, b"\0")[:16]
        elif name == "data8":
            out += unhex(v).ljust(8, b"\0")[:8]
        elif name == "first_range":
            out += varint(0) + varint(int(v))  # ACK: range count 0, then the first range
        else:
            out += varint(int(v))
    return bytes(out)


def encode_stream(f: dict, stream_offsets: dict) -> bytes:
    sid = int(f["stream_id"])
    data = stream_payload(f)
    off = f.get("offset")
    if off is None:
        off = stream_offsets.get(sid, 0)
    stream_offsets[sid] = max(stream_offsets.get(sid, 0), int(off) + len(data))
    typ = 0x08 | 0x02 | (0x04 if off else 0) | (0x01 if f.get("fin") else 0)
    out = varint(typ) + varint(sid)
    if off:
        out += varint(int(off))
    return out + varint(len(data)) + data


def stream_payload(f: dict) -> bytes:
    """A STREAM frame's data: raw hex, or HTTP/3 as data (a stream type, then frames)."""
    if "h3" not in f:
        return unhex(f.get("data", ""))
    h3 = f["h3"]
    out = bytearray()
    if h3.get("stream_type") is not None:
        out += varint(int(h3["stream_type"]))
    for fr in h3.get("frames", []):
        out += encode_h3_frame(fr)
    return bytes(out)


def encode_h3_frame(fr: dict) -> bytes:
    t = fr["t"]
    if t == "RAW":
        return unhex(fr.get("hex", ""))
    typ = fr.get("type", H3_FRAMES.get(t))
    if typ is None:
        raise EncodeError(f"unknown HTTP/3 frame {t!r}")
    if t == "SETTINGS":
        payload = b"".join(varint(int(k)) + varint(int(v)) for k, v in fr.get("pairs", []))
    elif t in ("CANCEL_PUSH", "GOAWAY", "MAX_PUSH_ID"):
        payload = varint(int(fr.get("id", 0)))
    elif t == "PUSH_PROMISE":
        payload = varint(int(fr.get("id", 0))) + unhex(fr.get("block", ""))
    elif t == "HEADERS":
        payload = unhex(fr.get("block", ""))
    else:  # DATA, a reserved or unknown type: opaque payload
        payload = unhex(fr.get("payload", ""))
    return varint(int(typ)) + varint(len(payload)) + payload


def qpack_get(authority: str, path: str) -> str:
    """A GET request's QPACK field section from the static table alone (RFC 9204 Appendix A:
    :authority 0, :path 1, :method GET 17, :scheme https 23), so it needs no encoder state and
    replays anywhere: Required Insert Count 0, Base 0, then the field lines."""
    def literal_with_name_ref(index: int, value: bytes) -> bytes:
        # 01NT + 4-bit static index, then a 7-bit-prefixed length, no Huffman (RFC 9204 §4.5.4)
        if index > 14 or len(value) > 126:
            raise EncodeError("field too long for the short encoding")
        return bytes([0x50 | index, len(value)]) + value
    block = bytes([0x00, 0x00, 0xC0 | 17, 0xC0 | 23])
    block += literal_with_name_ref(0, authority.encode()) + literal_with_name_ref(1, path.encode())
    return block.hex()


def qpack_set_capacity(v: int) -> str:
    """QPACK's Set Dynamic Table Capacity instruction (RFC 9204 §4.3.1: 001 + a 5-bit prefix
    integer, RFC 7541 §5.1) as hex."""
    if v < 31:
        return bytes([0x20 | v]).hex()
    out, v = bytearray([0x3F]), v - 31
    while v >= 128:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out).hex()


def describe(f: dict) -> str:
    """A frame in a few words for a finding: its type, stream, offset, FIN, HTTP/3 content."""
    t = f["t"]
    if t == "RAW":
        return "raw bytes %s" % f.get("hex", "")[:24]
    if t != "STREAM":
        fields = ", ".join("%s=%s" % (k, f[k]) for k in FIELDS.get(t, []) if k in f and isinstance(f[k], int))
        return "%s(%s)" % (t, fields) if fields else t
    parts = ["stream %d" % int(f.get("stream_id", 0))]
    if f.get("offset") is not None:
        parts.append("offset %d" % int(f["offset"]))
    if "h3" in f:
        h3 = f["h3"]
        if h3.get("stream_type") is not None:
            parts.append("stream type 0x%x" % int(h3["stream_type"]))
        names = [fr["t"] if fr.get("type") is None else "type 0x%x" % int(fr["type"]) for fr in h3.get("frames", [])]
        if names:
            parts.append("HTTP/3 " + " ".join(names))
    elif f.get("data"):
        parts.append("%d bytes" % (len(f["data"]) // 2))
    if f.get("fin"):
        parts.append("FIN")
    return "STREAM(%s)" % ", ".join(parts)
