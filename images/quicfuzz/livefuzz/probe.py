"""The liveness oracle's client: a well-behaved connection that fetches the campaign's file
(HTTP/3 GET, or hq-interop's HTTP/0.9 GET) and checks every byte, as a user would."""
import hashlib
import time

from aioquic.h3.connection import H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic import events
from aioquic.quic.connection import QuicConnection

from . import session


def fetch(addr, server_name, alpn, path, want_sha256, keylog, timeout=5.0) -> str:
    """"" when the file came whole, else what went wrong."""
    conn = QuicConnection(configuration=session.configuration(alpn, server_name, keylog))
    drv = session.Driver(conn, addr)
    body, status, done = bytearray(), [None], [False]
    try:
        conn.connect(addr, time.monotonic())
        if not drv.run_until(lambda: conn._handshake_complete or conn._close_event is not None, timeout):
            return "no handshake within %.0f s" % timeout
        if conn._close_event is not None:
            return "closed during the handshake (0x%x %s)" % (conn._close_event.error_code, conn._close_event.reason_phrase)
        if alpn == "h3":
            h3 = H3Connection(conn)
            sid = conn.get_next_available_stream_id()
            h3.send_headers(sid, [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", server_name.encode()),
                                  (b":path", path.encode())], end_stream=True)

            def step():
                for ev in drv.events:
                    for h in h3.handle_event(ev):
                        if isinstance(h, HeadersReceived):
                            status[0] = dict(h.headers).get(b":status", b"").decode()
                            done[0] = done[0] or h.stream_ended
                        elif isinstance(h, DataReceived):
                            body.extend(h.data)
                            done[0] = done[0] or h.stream_ended
                drv.events.clear()
                return done[0] or conn._close_event is not None
        else:
            sid = conn.get_next_available_stream_id()
            conn.send_stream_data(sid, ("GET %s\r\n" % path).encode(), end_stream=True)
            status[0] = "200"

            def step():
                for ev in drv.events:
                    if isinstance(ev, events.StreamDataReceived) and ev.stream_id == sid:
                        body.extend(ev.data)
                        done[0] = done[0] or ev.end_stream
                drv.events.clear()
                return done[0] or conn._close_event is not None
        if not drv.run_until(step, timeout):
            return "no whole answer within %.0f s (%d bytes)" % (timeout, len(body))
        if not done[0]:
            ce = conn._close_event
            return "closed before the answer ended (0x%x %s)" % (ce.error_code, ce.reason_phrase)
        if status[0] != "200":
            return "status %s" % status[0]
        if hashlib.sha256(bytes(body)).hexdigest() != want_sha256:
            return "the body differs from the file (%d bytes)" % len(body)
        return ""
    finally:
        drv.close()
