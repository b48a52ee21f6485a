"""The RFC oracle's model: walk an input's frames in the order they are sent and find the first
that breaks a rule of conformance/fuzz-live/rules.yml (one predicate per rule id below). Each
frame is a violation (of a rule), allowed (nothing in the RFCs lets the server close for it), or
uncertain (its effect is not modelled, or the RFC says SHOULD or MAY): judging stops there."""
from . import wire

HANDSHAKE_ALLOWED = {"PADDING", "PING", "ACK", "CRYPTO", "CONNECTION_CLOSE"}  # RFC 9000 §12.4 Table 3
# Frame types no specification or implemented draft assigns (RFC 9000 §12.4, the IANA registry:
# 0x1f, 0x24, 0x30-0x31, 0xaf and the multipath range are taken).
UNKNOWN_FRAME_TYPES = {0x20, 0x21, 0x22, 0x23, 0x25, 0x2E, 0x3F, 0x4021, 0x7FFF}
H3_CONTROL_ONLY = {0x03, 0x04, 0x07, 0x0D}  # CANCEL_PUSH, SETTINGS, GOAWAY, MAX_PUSH_ID
H2_SETTINGS = {0x02, 0x03, 0x04, 0x05}  # RFC 9114 §7.2.4.1, §11.2.2
CRITICAL = {0x00: "control", 0x02: "qpack-encoder", 0x03: "qpack-decoder"}

RULE_IDS = {
    "frame-not-allowed-in-packet-type", "unknown-frame-type", "client-handshake-done",
    "client-new-token", "new-token-empty", "stream-on-send-only-or-uncreated", "reset-stream-on-send-only",
    "stop-sending-on-receive-only-or-uncreated", "max-stream-data-on-receive-only-or-uncreated",
    "stream-data-blocked-on-send-only", "stream-limit-exceeded", "max-streams-over-2-60",
    "streams-blocked-over-2-60", "stream-offset-over-2-62", "stream-flow-control-exceeded",
    "new-connection-id-length", "new-connection-id-retire-prior-to",
    "retire-connection-id-never-sent", "datagram-not-negotiated",
    "h3-control-first-frame-not-settings", "h3-second-settings",
    "h3-frame-not-allowed-on-control-stream", "h3-control-frame-on-request-stream",
    "h3-reserved-http2-frame-type", "h3-push-promise-from-client", "h3-http2-setting", "h3-datagram-setting-value",
    "h3-client-push-stream", "h3-second-critical-stream", "h3-critical-stream-closed",
    "qpack-capacity-over-maximum",
}

VIOLATION, ALLOWED, UNCERTAIN = "violation", "allowed", "uncertain"


class Server:
    """What the server told this connection: its transport parameters and HTTP/3 SETTINGS."""

    def __init__(self, params=None, settings=None, alpn="h3"):
        p = params or {}
        self.alpn = alpn
        self.max_streams_bidi = p.get("max_streams_bidi") or 0
        self.max_streams_uni = p.get("max_streams_uni") or 0
        self.max_stream_data_bidi = p.get("max_stream_data_bidi_remote") or 0
        self.max_stream_data_uni = p.get("max_stream_data_uni") or 0
        self.max_datagram = p.get("max_datagram_frame_size") or 0
        self.max_data = p.get("max_data") or 0
        self.settings = settings  # None: the server's SETTINGS did not arrive


def ordered(inp: dict):
    """(epoch, frame) in send order: Initial frames ride the ClientHello's packet, Handshake
    frames the client's Finished, 1-RTT frames follow once the handshake completed."""
    for epoch in ("initial", "handshake", "1rtt"):
        for p in inp["packets"]:
            if p.get("epoch", "1rtt") == epoch:
                for f in p["frames"]:
                    yield epoch, f


def judge(inp: dict, srv: Server):
    """(status, rule id or "", index of the frame in send order, its name) for the input's first
    violation, as judge_all's first."""
    status, found = judge_all(inp, srv)
    if status == VIOLATION:
        return (VIOLATION,) + found[0]
    return status, "", -1, ""


def judge_all(inp: dict, srv: Server):
    """Every violation of the input, in send order: (VIOLATION, [(rule, index, frame name)...]).
    A server may report any of them (it need not act on frames in order: an HTTP/3 error is
    seen after the transport handled the whole packet), so all of them are collected; a frame
    past the first violation that the model cannot judge makes the whole input unjudged
    (UNCERTAIN, []), as does an uncertain frame before it. No violation: (ALLOWED, [])."""
    m = _Model(srv)
    found = []
    for i, (epoch, f) in enumerate(ordered(inp)):
        status, rule = m.frame(epoch, f)
        if status == UNCERTAIN:
            return UNCERTAIN, []
        if status == VIOLATION:
            for r in (rule if isinstance(rule, tuple) else (rule,)):
                found.append((r, i, wire.frame_name(f)))
    return (VIOLATION, found) if found else (ALLOWED, [])


class _Model:
    def __init__(self, srv: Server):
        self.srv = srv
        self.sent = {}  # stream id -> bytes sent contiguously from offset 0
        self.highest = {}  # stream id -> the highest offset sent on it (connection flow control)
        self.fin = set()
        self.types = {}  # client uni stream id -> its stream type
        self.critical = {}  # stream type -> stream id
        self.control_frames = 0

    def frame(self, epoch, f):
        t = f["t"]
        if t in ("CONNECTION_CLOSE", "APPLICATION_CLOSE"):
            return UNCERTAIN, ""  # the input closes the connection itself: the server drains
        if epoch != "1rtt":
            if t == "RAW":
                # an unknown type breaks two rules at once; other bytes are not modelled
                unknown = self.f_raw(f)[0] == VIOLATION
                return (VIOLATION, ("frame-not-allowed-in-packet-type", "unknown-frame-type")) if unknown else (UNCERTAIN, "")
            if t == "DATAGRAM":
                return VIOLATION, ("frame-not-allowed-in-packet-type", "datagram-not-negotiated")
            if t not in HANDSHAKE_ALLOWED:
                return VIOLATION, "frame-not-allowed-in-packet-type"
            return (ALLOWED, "") if t in ("PADDING", "PING") else (UNCERTAIN, "")
        handler = getattr(self, "f_" + t.lower(), None)
        if handler is None:
            return UNCERTAIN, ""
        return handler(f)

    # --- stream ids (RFC 9000 §2.1: bit 0 the initiator, bit 1 uni) ---
    def over_limit(self, sid):
        """True past the server's limit with room for MAX_STREAMS in flight; None when near it."""
        limit = self.srv.max_streams_uni if sid & 2 else self.srv.max_streams_bidi
        idx = sid >> 2
        if idx < limit:
            return False
        return True if idx >= limit + 64 else None

    def client_stream(self, sid, rule_if_over="stream-limit-exceeded"):
        over = self.over_limit(sid)
        if over is None:
            return UNCERTAIN, ""
        if over:
            return VIOLATION, rule_if_over
        return None

    def client_frame(self, sid, state_rule):
        """A frame on a client-initiated stream: past the limit (§4.6) and on a stream of the
        wrong direction (state_rule) are both violations, and the server may report either."""
        over = self.over_limit(sid)
        if over is None:
            return UNCERTAIN, ""
        rules = (("stream-limit-exceeded",) if over else ()) + ((state_rule,) if state_rule else ())
        return (VIOLATION, rules) if rules else (ALLOWED, "")

    def f_padding(self, f):
        return ALLOWED, ""

    f_ping = f_padding
    f_max_data = f_padding
    f_path_challenge = f_padding

    def f_data_blocked(self, f):
        # blocked at a limit the server never granted: no MUST, but a server may call it a
        # flow-control error (ngtcp2 does), so it is not judged
        return (ALLOWED, "") if f.get("limit", 0) <= self.srv.max_data else (UNCERTAIN, "")

    def f_raw(self, f):
        b = wire.unhex(f.get("hex", ""))
        typ, _ = wire.read_varint(b)
        if typ in UNKNOWN_FRAME_TYPES:
            return VIOLATION, "unknown-frame-type"
        return UNCERTAIN, ""

    def f_handshake_done(self, f):
        return VIOLATION, "client-handshake-done"

    def f_new_token(self, f):
        if not wire.unhex(f.get("token", "")):
            return VIOLATION, ("client-new-token", "new-token-empty")
        return VIOLATION, "client-new-token"

    def f_max_streams_bidi(self, f):
        return (VIOLATION, "max-streams-over-2-60") if f.get("max", 0) > 1 << 60 else (ALLOWED, "")

    f_max_streams_uni = f_max_streams_bidi

    def f_streams_blocked_bidi(self, f, granted=None):
        limit = f.get("limit", 0)
        if limit > 1 << 60:
            return VIOLATION, "streams-blocked-over-2-60"
        granted = self.srv.max_streams_bidi if granted is None else granted
        return (ALLOWED, "") if limit <= granted else (UNCERTAIN, "")  # past what was granted: see DATA_BLOCKED

    def f_streams_blocked_uni(self, f):
        return self.f_streams_blocked_bidi(f, self.srv.max_streams_uni)

    def f_new_connection_id(self, f):
        n = f.get("cid_len", len(wire.unhex(f.get("cid", ""))))
        if n < 1 or n > 20:
            return VIOLATION, "new-connection-id-length"
        if f.get("retire_prior_to", 0) > f.get("seq", 0):
            return VIOLATION, "new-connection-id-retire-prior-to"
        return UNCERTAIN, ""  # active_connection_id_limit and reuse of a sequence are not modelled

    def f_retire_connection_id(self, f):
        # No server issues 2^20 connection ids in the second a fuzzed connection lives.
        return (VIOLATION, "retire-connection-id-never-sent") if f.get("seq", 0) >= 1 << 20 else (UNCERTAIN, "")

    def f_datagram(self, f):
        if not self.srv.max_datagram:
            return VIOLATION, "datagram-not-negotiated"
        return (ALLOWED, "") if len(wire.unhex(f.get("data", ""))) + 9 <= self.srv.max_datagram else (UNCERTAIN, "")

    def f_reset_stream(self, f):
        sid = f.get("stream_id", 0)
        if sid & 1:
            return (VIOLATION, "reset-stream-on-send-only") if sid & 2 else (UNCERTAIN, "")
        r = self.client_stream(sid)
        if r:
            return r
        final = f.get("final_size", 0)
        limit = self.srv.max_stream_data_uni if sid & 2 else self.srv.max_stream_data_bidi
        if final > 16 * limit + (1 << 20):
            # a final size counts against flow control (RFC 9000 §4.5, §4.1) whatever the stream
            rules = ("stream-flow-control-exceeded",) + (("h3-critical-stream-closed",) if sid in self.critical.values() else ())
            return VIOLATION, rules
        if final != self.sent.get(sid, 0) or sid in self.fin or self.highest.get(sid, 0) > final:
            return UNCERTAIN, ""  # a final size that changes or cuts sent data: SHOULD (FINAL_SIZE_ERROR)
        if sid in self.critical.values():
            return VIOLATION, "h3-critical-stream-closed"
        return ALLOWED, ""

    def f_stop_sending(self, f):
        sid = f.get("stream_id", 0)
        if sid & 1:
            # a server-initiated stream: created ones (3, 7, 11 in HTTP/3) are the server's to send on
            created = self.srv.alpn == "h3" and sid & 2 and sid in (3, 7, 11)
            return (UNCERTAIN, "") if created else (VIOLATION, "stop-sending-on-receive-only-or-uncreated")
        return self.client_frame(sid, "stop-sending-on-receive-only-or-uncreated" if sid & 2 else None)

    def f_max_stream_data(self, f):
        sid = f.get("stream_id", 0)
        if sid & 1:
            created = self.srv.alpn == "h3" and sid & 2 and sid in (3, 7, 11)
            return (ALLOWED, "") if created else (VIOLATION, "max-stream-data-on-receive-only-or-uncreated")
        return self.client_frame(sid, "max-stream-data-on-receive-only-or-uncreated" if sid & 2 else None)

    def f_stream_data_blocked(self, f):
        sid = f.get("stream_id", 0)
        if sid & 1:
            return (VIOLATION, "stream-data-blocked-on-send-only") if sid & 2 else (UNCERTAIN, "")
        r = self.client_stream(sid)
        if r:
            return r
        granted = self.srv.max_stream_data_uni if sid & 2 else self.srv.max_stream_data_bidi
        return (ALLOWED, "") if f.get("limit", 0) <= granted else (UNCERTAIN, "")

    def f_stream(self, f):
        sid = int(f.get("stream_id", 0))
        data = wire.stream_payload(f)
        if sid & 1:
            # the server's uni streams are send-only, it opens no bidi; an offset past 2^62-1 on
            # top is a second violation the server may report instead
            past = (0 if f.get("offset") is None else int(f["offset"])) + len(data) > wire.MAX_VARINT
            return VIOLATION, ("stream-on-send-only-or-uncreated",) + (("stream-offset-over-2-62",) if past else ())
        r = self.client_stream(sid)
        if r:
            return r
        off = f.get("offset")
        off = self.sent.get(sid, 0) if off is None else int(off)
        end = off + len(data)
        if end > wire.MAX_VARINT:
            return VIOLATION, "stream-offset-over-2-62"
        limit = self.srv.max_stream_data_uni if sid & 2 else self.srv.max_stream_data_bidi
        if end > limit:
            # MAX_STREAM_DATA may be in flight: only far past the window is certain
            return (VIOLATION, "stream-flow-control-exceeded") if end > 16 * limit + (1 << 20) else (UNCERTAIN, "")
        self.highest[sid] = max(self.highest.get(sid, 0), end)
        total = sum(self.highest.values())
        if self.srv.max_data and total > self.srv.max_data:
            # the connection's window (RFC 9000 §4.1) counts every stream's highest offset
            return (VIOLATION, "stream-flow-control-exceeded") if total > 16 * self.srv.max_data + (1 << 20) else (UNCERTAIN, "")
        if sid in self.fin or off != self.sent.get(sid, 0):
            return UNCERTAIN, ""  # past a final size (SHOULD) or out of order: not modelled
        self.sent[sid] = end
        if self.srv.alpn != "h3":
            ok = sid == 0 and off == 0 and data.startswith(b"GET /") and data.endswith(b"\r\n") and f.get("fin")
            if f.get("fin"):
                self.fin.add(sid)
            return (ALLOWED, "") if ok else (UNCERTAIN, "")
        status = self.h3(sid, off, f, data)
        if f.get("fin"):
            self.fin.add(sid)
        return status

    # --- HTTP/3 on the streams (RFC 9114 §6, §7; RFC 9204 §4.2) ---
    def h3(self, sid, off, f, data):
        h3 = f.get("h3")
        if not sid & 2:
            if h3 is None:
                return UNCERTAIN, ""
            return self.request(sid, off, h3.get("frames", []), f.get("fin"))
        if off == 0:
            st = None if h3 is None else h3.get("stream_type")
            if st is None:
                return UNCERTAIN, ""
            if st == 0x01:
                return VIOLATION, "h3-client-push-stream"
            if st in CRITICAL:
                if st in self.critical:
                    return VIOLATION, "h3-second-critical-stream"
                self.critical[st] = sid
            elif (st - 0x21) % 0x1F != 0:
                return UNCERTAIN, ""  # WebTransport's 0x54 or another stream type a server may know
            self.types[sid] = st
        elif h3 is not None and h3.get("stream_type") is not None:
            return UNCERTAIN, ""
        st = self.types.get(sid)
        if st not in CRITICAL:
            return ALLOWED, ""  # a grease stream type: its data is discarded
        content = self.critical_content(st, f, data[1:] if off == 0 else data)
        if not f.get("fin") or content[0] == UNCERTAIN:
            return content
        # a critical stream closed (RFC 9114 §6.2.1, RFC 9204 §4.2), and what it carried may break a rule too
        extra = content[1] if content[0] == VIOLATION else ()
        return VIOLATION, ("h3-critical-stream-closed",) + (extra if isinstance(extra, tuple) else (extra,))

    def critical_content(self, st, f, payload):
        """What a control, QPACK encoder or decoder stream carries past its type."""
        h3 = f.get("h3")
        if st == 0x00:
            return self.control(h3.get("frames", [])) if h3 is not None else (UNCERTAIN, "")
        if h3 is not None:
            return (ALLOWED, "") if not h3.get("frames") else (UNCERTAIN, "")
        if not payload:
            return ALLOWED, ""
        return self.qpack_encoder(payload) if st == 0x02 else (UNCERTAIN, "")

    def control(self, frames):
        """The frames of the client's control stream (RFC 9114 §6.2.1, §7.2): every violation
        among them, or uncertain at the first frame the model does not follow."""
        found = []
        for fr in frames:
            typ = fr.get("type", wire.H3_FRAMES.get(fr["t"]))
            first = self.control_frames == 0
            self.control_frames += 1
            if fr["t"] == "RAW" or typ is None:
                return UNCERTAIN, ""
            if first and typ != 0x04:
                found.append("h3-control-first-frame-not-settings")
            if typ == 0x04:
                if not first:
                    found.append("h3-second-settings")
                    continue
                ids = [int(k) for k, _ in fr.get("pairs", [])]
                if any(k in H2_SETTINGS for k in ids):
                    found.append("h3-http2-setting")
                if any(int(k) == 0x33 and int(v) > 1 for k, v in fr.get("pairs", [])):
                    # a server that sent H3_DATAGRAM speaks RFC 9297 and must refuse the value; one
                    # that did not may still know the setting (nghttp3 does) or must ignore it
                    # as unknown (RFC 9114 §7.2.4): no telling which
                    if self.srv.settings is None or 0x33 not in self.srv.settings:
                        return UNCERTAIN, ""
                    found.append("h3-datagram-setting-value")
                if any(int(k) == 0x08 and int(v) > 1 for k, v in fr.get("pairs", [])):
                    return UNCERTAIN, ""  # ENABLE_CONNECT_PROTOCOL other than 0/1: not modelled
                if len(set(ids)) != len(ids):
                    return UNCERTAIN, ""  # duplicates: MAY
            elif typ in wire.H3_RESERVED_H2_FRAMES:
                found.append("h3-reserved-http2-frame-type")
            elif typ in (0x00, 0x01, 0x05):
                found.append("h3-frame-not-allowed-on-control-stream")
            elif typ in H3_CONTROL_ONLY:
                return UNCERTAIN, ""  # GOAWAY / MAX_PUSH_ID / CANCEL_PUSH ids: not modelled
            elif (typ - 0x21) % 0x1F != 0:
                return UNCERTAIN, ""
        return (VIOLATION, tuple(found)) if found else (ALLOWED, "")

    def request(self, sid, off, frames, fin):
        """The frames of a request stream: the valid GET, or the frame types RFC 9114 forbids
        there (every one of them); HEADERS and DATA otherwise are not modelled."""
        valid_get = off == 0 and fin and len(frames) == 1 and frames[0]["t"] == "HEADERS" and \
            frames[0].get("type", 0x01) == 0x01 and wire.unhex(frames[0].get("block", "")).startswith(bytes([0, 0, 0xD1, 0xD7, 0x50]))
        if valid_get:
            return ALLOWED, ""
        found = []
        for fr in frames:
            typ = fr.get("type", wire.H3_FRAMES.get(fr["t"]))
            if fr["t"] == "RAW" or typ is None:
                return UNCERTAIN, ""
            if typ in wire.H3_RESERVED_H2_FRAMES:
                found.append("h3-reserved-http2-frame-type")
            elif typ == 0x05:
                found.append("h3-push-promise-from-client")
            elif typ in H3_CONTROL_ONLY:
                found.append("h3-control-frame-on-request-stream")
            else:
                return UNCERTAIN, ""  # HEADERS and DATA: message semantics are not modelled
        return (VIOLATION, tuple(found)) if found else (UNCERTAIN, "")

    def qpack_encoder(self, data):
        """Set Dynamic Table Capacity (001 + 5-bit prefix integer, RFC 9204 §4.3.1) above the
        server's SETTINGS_QPACK_MAX_TABLE_CAPACITY (0x01; 0 when absent)."""
        if not data or data[0] & 0xE0 != 0x20 or self.srv.settings is None:
            return UNCERTAIN, ""
        v, i, shift = data[0] & 0x1F, 1, 0
        if v == 0x1F:
            while True:
                if i >= len(data):
                    return UNCERTAIN, ""
                b = data[i]
                v += (b & 0x7F) << shift
                shift, i = shift + 7, i + 1
                if not b & 0x80:
                    break
        if v > self.srv.settings.get(0x01, 0):
            return VIOLATION, "qpack-capacity-over-maximum"
        return (ALLOWED, "") if i == len(data) else (UNCERTAIN, "")
