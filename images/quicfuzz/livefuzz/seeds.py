"""The shared seeds (conformance/fuzz-live/seeds/): every campaign answers each one first, so
each RFC rule is tried on every server and the differential oracle compares the servers'
answers to the same bytes. Seeds carry no server's limits: stream ids and values are past any
limit a server advertises in practice. `python3 -m livefuzz.seeds <dir>` writes them."""
import json
import os
import sys

from . import grammar, wire

T = grammar.Target("h3")


def with_frames(alpn, frames, epoch="1rtt", opening=None):
    t = grammar.Target(alpn)
    packets = [{"epoch": "1rtt", "frames": opening if opening is not None else grammar.opening(t)}]
    if frames:
        packets.append({"epoch": epoch, "frames": frames})
    return {"alpn": alpn, "packets": packets}


def transport(alpn):
    """name -> input: one frame each after the opening (RFC 9000, RFC 9221)."""
    S = lambda sid, **kw: dict({"t": "STREAM", "stream_id": sid, "data": "00"}, **kw)
    return {
        "valid-opening": with_frames(alpn, []),
        "valid-ping-path-challenge": with_frames(alpn, [{"t": "PING"}, {"t": "PATH_CHALLENGE", "data8": "0102030405060708"}]),
        "valid-max-data-max": with_frames(alpn, [{"t": "MAX_DATA", "max": wire.MAX_VARINT}, {"t": "DATA_BLOCKED", "limit": 0}]),
        "valid-max-streams-2-60": with_frames(alpn, [{"t": "MAX_STREAMS_BIDI", "max": 1 << 60}, {"t": "STREAMS_BLOCKED_BIDI", "limit": 1}]),
        "unmodelled-data-blocked-past-granted": with_frames(alpn, [{"t": "DATA_BLOCKED", "limit": 1 << 40}]),
        "unmodelled-ack-unsent-packet": with_frames(alpn, [{"t": "ACK", "largest": 100000, "delay": 0, "first_range": 0}]),
        "unmodelled-path-response-unsolicited": with_frames(alpn, [{"t": "PATH_RESPONSE", "data8": "0102030405060708"}]),
        "unmodelled-reset-below-sent": with_frames(alpn, [S(4, data="0102030405"), {"t": "RESET_STREAM", "stream_id": 4, "code": 0, "final_size": 1}]),
        "unmodelled-stream-past-final-size": with_frames(alpn, [S(4, fin=True), S(4, data="0102")]),
        "table3-stream-in-handshake": with_frames(alpn, [S(0)], epoch="handshake"),
        "table3-max-data-in-initial": with_frames(alpn, [{"t": "MAX_DATA", "max": 1 << 20}], epoch="initial"),
        "unknown-frame-type-0x21": with_frames(alpn, [{"t": "RAW", "hex": "21"}]),
        "client-handshake-done": with_frames(alpn, [{"t": "HANDSHAKE_DONE"}]),
        "client-new-token": with_frames(alpn, [{"t": "NEW_TOKEN", "token": "0011223344556677"}]),
        "client-new-token-empty": with_frames(alpn, [{"t": "NEW_TOKEN", "token": ""}]),
        "stream-on-server-uni": with_frames(alpn, [S(3)]),
        "stream-on-server-bidi": with_frames(alpn, [S(1)]),
        "reset-stream-server-uni": with_frames(alpn, [{"t": "RESET_STREAM", "stream_id": 3, "code": 0, "final_size": 0}]),
        "stop-sending-client-uni": with_frames(alpn, [{"t": "STOP_SENDING", "stream_id": 14, "code": 0}]),
        "stop-sending-uncreated-server-uni": with_frames(alpn, [{"t": "STOP_SENDING", "stream_id": 403, "code": 0}]),
        "max-stream-data-client-uni": with_frames(alpn, [{"t": "MAX_STREAM_DATA", "stream_id": 14, "max": 1000}]),
        "max-stream-data-uncreated-server-bidi": with_frames(alpn, [{"t": "MAX_STREAM_DATA", "stream_id": 401, "max": 1000}]),
        "stream-data-blocked-server-uni": with_frames(alpn, [{"t": "STREAM_DATA_BLOCKED", "stream_id": 3, "limit": 0}]),
        "stream-over-limit": with_frames(alpn, [S(400000)]),
        "max-streams-over-2-60": with_frames(alpn, [{"t": "MAX_STREAMS_BIDI", "max": (1 << 60) + 1}]),
        "streams-blocked-over-2-60": with_frames(alpn, [{"t": "STREAMS_BLOCKED_UNI", "limit": (1 << 60) + 1}]),
        "stream-offset-over-2-62": with_frames(alpn, [S(4, offset=wire.MAX_VARINT, data="00")]),
        "stream-flow-control": with_frames(alpn, [S(4, offset=1 << 40, data="00")]),
        "new-connection-id-length-21": with_frames(alpn, [{"t": "NEW_CONNECTION_ID", "seq": 1, "retire_prior_to": 0, "cid": "00" * 20, "cid_len": 21, "reset_token": "11" * 16}]),
        "new-connection-id-length-0": with_frames(alpn, [{"t": "NEW_CONNECTION_ID", "seq": 1, "retire_prior_to": 0, "cid": "", "cid_len": 0, "reset_token": "11" * 16}]),
        "new-connection-id-retire-prior-to": with_frames(alpn, [{"t": "NEW_CONNECTION_ID", "seq": 1, "retire_prior_to": 2, "cid": "0102030405060708", "reset_token": "11" * 16}]),
        "retire-connection-id-never-sent": with_frames(alpn, [{"t": "RETIRE_CONNECTION_ID", "seq": 1 << 20}]),
        "datagram": with_frames(alpn, [{"t": "DATAGRAM", "data": "00"}]),
    }


def http3():
    """name -> input: HTTP/3 and QPACK (RFC 9114, RFC 9204)."""
    t = grammar.Target("h3")
    op = grammar.opening(t)
    get = wire.qpack_get(t.authority, t.path)
    ctrl = lambda frames, **kw: dict({"t": "STREAM", "stream_id": 2, "h3": {"frames": frames}}, **kw)
    req4 = lambda frames: {"t": "STREAM", "stream_id": 4, "fin": True, "h3": {"frames": frames}}
    uni = lambda sid, st, frames=(): {"t": "STREAM", "stream_id": sid, "h3": {"stream_type": st, "frames": list(frames)}}
    no_settings = [uni(2, 0, [{"t": "DATA", "payload": "00"}])] + op[1:]
    h2_setting = [uni(2, 0, [{"t": "SETTINGS", "pairs": [[2, 0]]}])] + op[1:]
    dup_setting = [uni(2, 0, [{"t": "SETTINGS", "pairs": [[6, 100], [6, 200]]}])] + op[1:]
    datagram_2 = [uni(2, 0, [{"t": "SETTINGS", "pairs": [[0x33, 2]]}])] + op[1:]
    return {
        # a grease frame on the control stream (a grease uni stream would be the fourth: past
        # the limit of 3 that nginx and haproxy advertise)
        "h3-valid-grease": with_frames("h3", [ctrl([{"t": "DATA", "type": 0x21 + 0x1F, "payload": "00"}])]),
        "h3-valid-second-request": with_frames("h3", [req4([{"t": "HEADERS", "block": get}])]),
        "h3-unmodelled-duplicate-setting": with_frames("h3", [], opening=dup_setting),
        "h3-unmodelled-goaway-from-client": with_frames("h3", [ctrl([{"t": "GOAWAY", "id": 0}])]),
        "h3-control-first-frame-not-settings": with_frames("h3", [], opening=no_settings),
        "h3-second-settings": with_frames("h3", [ctrl([{"t": "SETTINGS", "pairs": []}])]),
        "h3-data-on-control-stream": with_frames("h3", [ctrl([{"t": "DATA", "payload": "00"}])]),
        "h3-headers-on-control-stream": with_frames("h3", [ctrl([{"t": "HEADERS", "block": get}])]),
        "h3-max-push-id-on-request-stream": with_frames("h3", [req4([{"t": "MAX_PUSH_ID", "id": 0}])]),
        "h3-settings-on-request-stream": with_frames("h3", [req4([{"t": "SETTINGS", "pairs": []}])]),
        "h3-http2-ping-frame": with_frames("h3", [req4([{"t": "DATA", "type": 0x06, "payload": "0000000000000000"}])]),
        "h3-push-promise-from-client": with_frames("h3", [req4([{"t": "PUSH_PROMISE", "id": 0, "block": "0000d1"}])]),
        "h3-http2-setting-enable-push": with_frames("h3", [], opening=h2_setting),
        "h3-datagram-setting-2": with_frames("h3", [], opening=datagram_2),
        "h3-client-push-stream": with_frames("h3", [uni(14, 0x01, [])]),
        "h3-second-control-stream": with_frames("h3", [uni(14, 0x00, [{"t": "SETTINGS", "pairs": []}])]),
        "h3-second-qpack-encoder-stream": with_frames("h3", [uni(14, 0x02)]),
        "h3-control-stream-fin": with_frames("h3", [ctrl([], fin=True)]),
        "h3-qpack-encoder-stream-fin": with_frames("h3", [{"t": "STREAM", "stream_id": 6, "fin": True, "data": ""}]),
        "qpack-capacity-2-30": with_frames("h3", [{"t": "STREAM", "stream_id": 6, "data": wire.qpack_set_capacity(1 << 30)}]),
    }


def all_seeds() -> dict:
    out = {}
    for alpn in ("h3", "hq-interop"):
        for name, inp in transport(alpn).items():
            out["%s-%s" % (alpn, name)] = inp
    for name, inp in http3().items():
        out[name if name.startswith("h3-") else "h3-" + name] = inp
    return out


def main(argv):
    d = argv[1]
    os.makedirs(d, exist_ok=True)
    for name, inp in sorted(all_seeds().items()):
        with open(os.path.join(d, name + ".json"), "w") as f:
            json.dump(inp, f, indent=1, sort_keys=True)
            f.write("\n")
    print("%d seeds in %s" % (len(all_seeds()), d))


if __name__ == "__main__":
    main(sys.argv)
