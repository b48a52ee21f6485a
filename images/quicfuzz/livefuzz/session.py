"""One input on one connection: a real handshake with aioquic (Debian's python3-aioquic 1.2),
then the input's frames written into packets of the type each names, protected with the
connection's real keys, then a PING, and the server's answer recorded.

Why aioquic: it is sans-I/O and its packet writers are plain methods (_write_handshake,
_write_application) called with the packet builder, so a subclass can put any bytes into an
Initial, Handshake or 1-RTT packet without patching the library or the server; it is already an
image here, and Python keeps the frame grammar and the oracle readable. The price is speed:
every input costs a handshake in Python."""
import select
import socket
import ssl
import time

from aioquic.buffer import Buffer
from aioquic.quic import events
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.connection import QuicConnection, QuicConnectionError
from aioquic.quic.packet import QuicFrameType, QuicPacketType
from aioquic.quic.packet_builder import QuicPacketBuilderStop
from aioquic.quic.stream import QuicStream
from aioquic.tls import Epoch

from . import wire

PING_UID = 0x5EED


class FuzzConnection(QuicConnection):
    """A QUIC client that also sends the frames it is given, each in its packet type."""

    def __init__(self, *, configuration, inject):
        super().__init__(configuration=configuration)
        self.inject = {"initial": [], "handshake": [], "1rtt": []}
        for p in inject:
            self.inject[p.get("epoch", "1rtt")].append(p["frames"])
        self.app_ready = False  # 1-RTT frames go once the caller says so (after the handshake)
        self.peer_close = None  # the server's CONNECTION_CLOSE: (frame type, code, frame, reason)
        self.written = 0
        self.offsets = {}
        # the packets that carried injected frames, and what became of each: acknowledged by
        # the server, or declared lost (a server that discards a packet it should have closed
        # the connection for never acknowledges it)
        self.carriers = {}
        self.path_responses = []

    def _write_handshake(self, builder, epoch, now):
        key = {Epoch.INITIAL: "initial", Epoch.HANDSHAKE: "handshake"}[epoch]
        # Initial frames ride the ClientHello, Handshake frames the client's Finished: both go
        # in the first packet of that type the client writes with CRYPTO data in it.
        if self.inject[key] and self._cryptos[epoch].send.is_valid() and not self._crypto_streams[epoch].sender.buffer_is_empty:
            start = builder.start_packet

            def start_and_inject(packet_type, crypto):
                start(packet_type, crypto)
                if self.inject[key]:
                    frames = [f for pk in self.inject[key] for f in pk]
                    self.inject[key] = []
                    self._push(builder, frames)
            builder.start_packet = start_and_inject
            try:
                super()._write_handshake(builder, epoch, now)
            finally:
                del builder.start_packet
            return
        super()._write_handshake(builder, epoch, now)

    def _write_application(self, builder, network_path, now):
        if self.app_ready and self.inject["1rtt"] and self._handshake_complete:
            crypto = self._cryptos[Epoch.ONE_RTT]
            for frames in self.inject["1rtt"]:
                builder.start_packet(QuicPacketType.ONE_RTT, crypto)
                self._push(builder, frames)
            self.inject["1rtt"] = []
        super()._write_application(builder, network_path, now)

    def _push(self, builder, frames):
        """Writes frames as bytes into the packet being built; one that does not fit goes into
        a new packet of the same type (the builder's own private state is what every frame
        writer of aioquic updates too)."""
        for f in frames:
            try:
                b = wire.encode_frame(f, self.offsets)
            except wire.EncodeError:
                continue  # a value no varint carries: the frame cannot be written at all
            if not b:
                continue
            if builder.remaining_buffer_space < len(b):
                if builder.packet_is_empty:
                    continue  # larger than a packet can be: not sendable
                pt, cr = builder._packet_type, builder._packet_crypto
                builder.start_packet(pt, cr)
                if builder.remaining_buffer_space < len(b):
                    continue
            builder._buffer.push_bytes(b)
            pkt = builder._packet
            pkt.is_ack_eliciting = True
            pkt.in_flight = True
            if pkt.packet_number not in self.carriers:
                self.carriers[pkt.packet_number] = None
                pkt.delivery_handlers.append((self._carrier_delivered, [pkt.packet_number]))
            self.written += 1

    def _carrier_delivered(self, state, pn):
        self.carriers[pn] = state.name  # ACKED or LOST (aioquic's QuicDeliveryState)

    def carriers_acked(self):
        """True when the server acknowledged every packet that carried injected frames, False
        when one was lost (never acknowledged), None while any is undecided."""
        states = set(self.carriers.values())
        if "LOST" in states:
            return False
        return None if None in states else True

    def _get_or_create_stream(self, frame_type, stream_id):
        # The injected frames opened streams aioquic did not: the server's answers on them are
        # taken, not refused as "wrong stream initiator".
        if stream_id not in self._streams and (stream_id & 1 == 0) and stream_id not in self._streams_finished:
            self._streams[stream_id] = QuicStream(stream_id=stream_id, max_stream_data_local=1 << 24,
                                                  max_stream_data_remote=0, readable=True, writable=False)
        return super()._get_or_create_stream(frame_type, stream_id)

    def _handle_path_response_frame(self, context, frame_type, buf: Buffer):
        # a PATH_RESPONSE to a PATH_CHALLENGE the input injected: aioquic knows no such challenge
        # and would close the connection itself; the answer is recorded instead
        start = buf.tell()
        data = buf.pull_bytes(8)
        if data in self._local_challenges:
            buf.seek(start)
            return super()._handle_path_response_frame(context, frame_type, buf)
        self.path_responses.append(data)

    def _handle_connection_close_frame(self, context, frame_type, buf: Buffer):
        start = buf.tell()
        try:
            code = buf.pull_uint_var()
            ftype = buf.pull_uint_var() if frame_type == QuicFrameType.TRANSPORT_CLOSE else None
            n = buf.pull_uint_var()
            reason = buf.pull_bytes(n).decode("utf8", "replace")
            self.peer_close = (int(frame_type), code, ftype, reason)
        finally:
            buf.seek(start)
        super()._handle_connection_close_frame(context, frame_type, buf)


def server_params(conn: QuicConnection) -> dict:
    return {
        "max_streams_bidi": conn._remote_max_streams_bidi, "max_streams_uni": conn._remote_max_streams_uni,
        "max_stream_data_bidi_remote": conn._remote_max_stream_data_bidi_remote,
        "max_stream_data_uni": conn._remote_max_stream_data_uni, "max_data": conn._remote_max_data,
        "max_datagram_frame_size": conn._remote_max_datagram_frame_size,
    }


def configuration(alpn: str, server_name: str, keylog) -> QuicConfiguration:
    cfg = QuicConfiguration(is_client=True, alpn_protocols=[alpn], server_name=server_name,
                            verify_mode=ssl.CERT_NONE, idle_timeout=10.0)
    cfg.secrets_log_file = keylog
    return cfg


class Driver:
    """Moves datagrams between a connection and a UDP socket until a condition holds."""

    def __init__(self, conn: QuicConnection, addr):
        self.conn, self.addr = conn, addr
        self.sock = socket.socket(socket.AF_INET6 if ":" in addr[0] else socket.AF_INET, socket.SOCK_DGRAM)
        self.events = []

    def flush(self):
        for data, _ in self.conn.datagrams_to_send(time.monotonic()):
            try:
                self.sock.sendto(data, self.addr)
            except OSError:
                pass

    def run_until(self, cond, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while True:
            self.flush()
            self._drain()
            if cond():
                return True
            now = time.monotonic()
            if now >= end:
                return False
            wait = end - now
            t = self.conn.get_timer()
            if t is not None:
                wait = max(0.0, min(wait, t - now))
            r, _, _ = select.select([self.sock], [], [], wait)
            if r:
                while True:
                    try:
                        data, src = self.sock.recvfrom(65536, socket.MSG_DONTWAIT)
                    except (BlockingIOError, InterruptedError):
                        break
                    except OSError:
                        break
                    self.conn.receive_datagram(data, src, time.monotonic())
            t = self.conn.get_timer()
            if t is not None and t <= time.monotonic():
                self.conn.handle_timer(time.monotonic())

    def _drain(self):
        while True:
            ev = self.conn.next_event()
            if ev is None:
                return
            self.events.append(ev)

    def close(self):
        try:
            self.conn.close()
            self.flush()
        finally:
            self.sock.close()


def server_settings(drv: Driver):
    """The SETTINGS the server sent on its control stream (RFC 9114 §7.2.4), or None."""
    data = b"".join(e.data for e in drv.events if isinstance(e, events.StreamDataReceived) and e.stream_id == 3)
    st, i = wire.read_varint(data)
    if st != 0x00:
        return None
    typ, i = wire.read_varint(data, i)
    n, i = wire.read_varint(data, i)
    if typ != 0x04 or n is None or i + n > len(data):
        return None
    out, j, end = {}, i, i + n
    while j < end:
        k, j = wire.read_varint(data, j)
        v, j = wire.read_varint(data, j)
        if k is None or v is None:
            return None
        out[k] = v
    return out


def run(inp: dict, addr, server_name: str, keylog, handshake_timeout=3.0, settle=1.5, grace=0.15) -> dict:
    """Sends one input on a fresh connection and returns what the server did: the handshake,
    its CONNECTION_CLOSE (transport 0x1c or application 0x1d, code, frame type, reason), whether
    it acknowledged the PING sent after the input (alive), its stream resets, and the parameters
    and SETTINGS it sent (for the oracle)."""
    t0 = time.monotonic()
    conn = FuzzConnection(configuration=configuration(inp.get("alpn", "h3"), server_name, keylog), inject=inp["packets"])
    drv = Driver(conn, addr)
    out = {"handshake": False, "close": None, "alive": False, "local_close": None, "own_close": closes_itself(inp)}
    if out["own_close"]:
        settle = min(settle, 0.3)  # a draining server answers nothing: no need to wait long
    try:
        conn.connect(addr, time.monotonic())
        done = lambda: conn._handshake_complete or conn.peer_close is not None or conn._close_event is not None
        drv.run_until(done, handshake_timeout)
        out["handshake"] = bool(conn._handshake_complete)
        out["params"] = server_params(conn)
        if out["handshake"] and conn.peer_close is None and inp.get("alpn") == "h3":
            drv.run_until(lambda: server_settings(drv) is not None or conn.peer_close is not None, 0.5)
        out["settings"] = server_settings(drv)
        if out["handshake"] and conn.peer_close is None and conn._close_event is None:
            conn.app_ready = True
            conn.send_ping(PING_UID)
            acked = lambda: any(isinstance(e, events.PingAcknowledged) for e in drv.events)
            drv.run_until(lambda: conn.peer_close is not None or conn._close_event is not None or acked(), settle)
            if acked() and conn.peer_close is None:
                # an HTTP/3 layer may close after the transport acknowledged the packet
                drv.run_until(lambda: conn.peer_close is not None, grace)
            out["alive"] = acked() and conn.peer_close is None
            if out["alive"] and conn.carriers and conn.carriers_acked() is None:
                # the PING's ACK normally acknowledges the carriers too; else wait for their fate
                drv.run_until(lambda: conn.carriers_acked() is not None or conn.peer_close is not None, settle)
        out["carriers_acked"] = conn.carriers_acked() if conn.carriers else None
        if conn.peer_close is not None:
            ft, code, ftype, reason = conn.peer_close
            out["close"] = {"app": ft == QuicFrameType.APPLICATION_CLOSE, "code": code, "frame_type": ftype, "reason": reason[:200]}
        elif conn._close_event is not None:
            ce = conn._close_event
            out["local_close"] = {"code": ce.error_code, "reason": (ce.reason_phrase or "")[:200]}
        out["resets"] = sorted({(e.stream_id, e.error_code) for e in drv.events if isinstance(e, events.StreamReset)})
        out["injected"] = conn.written
    finally:
        drv.close()
    out["ms"] = round((time.monotonic() - t0) * 1000, 1)
    return out


def closes_itself(inp: dict) -> bool:
    """The input holds a CONNECTION_CLOSE of the client's own: the server drains, silently."""
    return any(f["t"] in ("CONNECTION_CLOSE", "APPLICATION_CLOSE") for p in inp["packets"] for f in p["frames"])


def signature(out: dict) -> str:
    """The answer in one word: what the differential oracle compares and the corpus keys on."""
    if out.get("own_close") and not out.get("close"):
        return "drained"
    if out.get("close"):
        c = out["close"]
        return "%s:0x%x" % ("app" if c["app"] else "transport", c["code"])
    if not out.get("handshake"):
        return "no-handshake"
    if out.get("local_close"):
        return "client-closed"
    if not out.get("alive"):
        return "silent"
    # alive: the frames were taken, or the packets carrying them were discarded unanswered
    return "dropped" if out.get("carriers_acked") is False else "alive"
