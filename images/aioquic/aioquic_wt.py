"""wirelab's WebTransport client and server on aioquic's HTTP/3 layer, behind upstream's
WebTransport endpoint contract (docs/webtransport.md): PROTOCOLS, REQUESTS, /www/<endpoint>/,
/downloads/<endpoint>/, GET/PUSH on uni streams, bidi streams and datagrams.

aioquic 1.2 speaks WebTransport draft-02 (SETTINGS_ENABLE_WEBTRANSPORT, :protocol webtransport);
the application protocol negotiation (WT-Available-Protocols / WT-Protocol, a later draft's) is
this adapter's own, on top of aioquic's headers.

WIRELAB_WT_MISBEHAVE (wirelab's own tests only, cmd/wirelab/testdata) makes the server break
one rule on purpose: wrong-protocol (it picks by its own preference, not the client's),
datagram-without-session (PUSH datagrams without the quarter stream id), untyped-stream (PUSH
on a uni stream without the WebTransport type and session id).
"""
import argparse
import asyncio
import logging
import os
import sys
from typing import Dict, List, Optional
from urllib.parse import urlparse

from aioquic.asyncio import QuicConnectionProtocol, connect, serve
from aioquic.buffer import encode_uint_var
from aioquic.h3.connection import H3_ALPN, ErrorCode, H3Connection
from aioquic.h3.events import DatagramReceived, HeadersReceived, WebTransportStreamDataReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import ConnectionTerminated, ProtocolNegotiated, QuicEvent, StreamDataReceived

from endpoint_common import apply_contract_logs, flush_open_qlogs, setup_logging

log = logging.getLogger("wirelab")
MISBEHAVE = os.environ.get("WIRELAB_WT_MISBEHAVE", "")
PROTOCOL_TOKENS = (b"webtransport", b"webtransport-h3")
# How long a requester waits for every file: well inside the case's 60 s limit, so that a peer
# that never answers ends the cell with this endpoint's exit (and the trace's reason), not the
# lab's timeout, also on a loaded machine.
SAVE_WAIT_S = 35


def sf_list(items: List[str]) -> str:
    """A Structured Field List of Strings (RFC 9651)."""
    return ", ".join('"' + i.replace("\\", "\\\\").replace('"', '\\"') + '"' for i in items)


def sf_strings(value: str) -> List[str]:
    out = []
    for member in value.split(","):
        member = member.strip().split(";")[0]
        if len(member) >= 2 and member[0] == member[-1] == '"':
            out.append(member[1:-1].replace('\\"', '"').replace("\\\\", "\\"))
    return out


class Session:
    """One WebTransport session: answers GETs from the endpoint's folder under /www, saves PUSHed
    files under /downloads/<endpoint>/, and issues its own GETs when it is the requester."""

    def __init__(self, proto: "WTProtocol", session_id: int, endpoint: str) -> None:
        self.proto, self.h3, self.quic = proto, proto.h3, proto._quic
        self.id, self.endpoint = session_id, endpoint
        self.buffers: Dict[int, bytes] = {}
        self.own_bidi: Dict[int, str] = {}  # bidi streams we opened -> the file requested
        self.wanted: set = set()
        self.all_saved = asyncio.Event()

    # --- requester ---
    def request(self, transport: str, names: List[str]) -> None:
        self.wanted = set(names)
        if not names:
            self.all_saved.set()
        if transport == "datagram":
            asyncio.ensure_future(self._request_datagrams(names))
            return
        for n in names:
            sid = self.h3.create_webtransport_stream(self.id, is_unidirectional=(transport == "unidirectional"))
            if transport == "bidirectional":
                self.own_bidi[sid] = n
            self.quic.send_stream_data(sid, b"GET " + n.encode(), end_stream=True)
        self.proto.transmit()

    async def _request_datagrams(self, names: List[str]) -> None:
        for n in names:
            self.h3.send_datagram(self.id, b"GET " + n.encode())
            self.proto.transmit()
            await asyncio.sleep(0.01)  # pacing: 200 requests must not overrun the peer's queue

    def save(self, name: str, data: bytes) -> None:
        name = os.path.basename(name.strip())
        path = os.path.join("/downloads", self.endpoint, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        self.wanted.discard(name)
        log.info("saved %s (%d bytes), %d to go", name, len(data), len(self.wanted))
        if not self.wanted:
            self.all_saved.set()

    # --- responder ---
    def read(self, name: str) -> Optional[bytes]:
        path = os.path.join("/www", self.endpoint, os.path.basename(name.strip()))
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as exc:
            log.warning("GET %s: %s", name, exc)
            return None

    def push_uni(self, name: str, data: bytes) -> None:
        if MISBEHAVE == "untyped-stream":
            sid = self.quic.get_next_available_stream_id(is_unidirectional=True)
        else:
            sid = self.h3.create_webtransport_stream(self.id, is_unidirectional=True)
        self.quic.send_stream_data(sid, b"PUSH " + name.encode() + b"\n" + data, end_stream=True)

    def push_datagram(self, name: str, data: bytes) -> None:
        payload = b"PUSH " + name.encode() + b"\n" + data
        if MISBEHAVE == "datagram-without-session":
            self.quic.send_datagram_frame(payload)
        else:
            self.h3.send_datagram(self.id, payload)

    # --- events ---
    def stream_data(self, stream_id: int, data: bytes, ended: bool) -> None:
        self.buffers[stream_id] = self.buffers.get(stream_id, b"") + data
        if not ended:
            return
        msg = self.buffers.pop(stream_id)
        uni = stream_id & 2 != 0
        if stream_id in self.own_bidi:
            self.save(self.own_bidi.pop(stream_id), msg)
        elif msg.startswith(b"GET "):
            name = msg[4:].decode().strip()
            data = self.read(name)
            if data is None:
                return
            if uni:
                self.push_uni(os.path.basename(name), data)
            else:
                self.quic.send_stream_data(stream_id, data, end_stream=True)
        elif msg.startswith(b"PUSH ") and b"\n" in msg:
            head, body = msg[5:].split(b"\n", 1)
            self.save(head.decode(), body)
        else:
            log.warning("stream %d: neither GET nor PUSH (%d bytes)", stream_id, len(msg))
        self.proto.transmit()

    def datagram(self, data: bytes) -> None:
        if data.startswith(b"GET "):
            name = os.path.basename(data[4:].decode().strip())
            body = self.read(name)
            if body is not None:
                self.push_datagram(name, body)
        elif data.startswith(b"PUSH ") and b"\n" in data:
            head, body = data[5:].split(b"\n", 1)
            self.save(head.decode(), body)
        self.proto.transmit()


class WTProtocol(QuicConnectionProtocol):
    """A QUIC connection carrying HTTP/3 with WebTransport; the role's hooks decide the rest."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.h3: Optional[H3Connection] = None
        self.session: Optional[Session] = None
        self.settings = asyncio.Event()
        self.closed = asyncio.Event()
        self.on_headers = None  # (stream_id, headers) -> None

    def quic_event_received(self, event: QuicEvent) -> None:
        if isinstance(event, ProtocolNegotiated):
            self.h3 = H3Connection(self._quic, enable_webtransport=True)
        if isinstance(event, ConnectionTerminated):
            log.info("connection closed: error 0x%x %s", event.error_code, event.reason_phrase)
            self.closed.set()
        s = self.session
        # Our own bidi streams carry the answer raw (no signal on the peer's side), which
        # aioquic would parse as HTTP/3 frames: handle them here.
        if s and isinstance(event, StreamDataReceived) and event.stream_id in s.own_bidi:
            s.stream_data(event.stream_id, event.data, event.end_stream)
            return
        if self.h3 is None:
            return
        for ev in self.h3.handle_event(event):
            if isinstance(ev, HeadersReceived) and self.on_headers:
                self.on_headers(ev.stream_id, ev.headers)
            elif isinstance(ev, WebTransportStreamDataReceived) and self.session:
                self.session.stream_data(ev.stream_id, ev.data, ev.stream_ended)
            elif isinstance(ev, DatagramReceived) and self.session and ev.stream_id == self.session.id:
                self.session.datagram(ev.data)
            elif self.session and getattr(ev, "stream_id", None) == self.session.id and getattr(ev, "stream_ended", False):
                self.closed.set()  # the peer ended the CONNECT stream: the session is over
        if self.h3.received_settings is not None:
            self.settings.set()


def configuration(is_client: bool) -> QuicConfiguration:
    cfg = QuicConfiguration(is_client=is_client, alpn_protocols=H3_ALPN, max_datagram_frame_size=65536)
    apply_contract_logs(cfg)
    return cfg


def write_negotiated(protocol: str) -> None:
    with open("/downloads/negotiated_protocol.txt", "w") as f:
        f.write(protocol)


def transport_of(testcase: str) -> str:
    for t in ("unidirectional", "bidirectional", "datagram"):
        if f"-{t}-" in testcase:
            return t
    return ""


async def run_client(testcase: str, requests: List[str], protocols: List[str]) -> int:
    urls = [urlparse(u) for u in requests]
    endpoint = urls[0].path.strip("/").split("/")[0]
    names = [u.path.strip("/").split("/", 1)[1] for u in urls if "/" in u.path.strip("/")]
    cfg = configuration(True)
    cfg.load_verify_locations("/certs/ca.pem")
    cfg.server_name = urls[0].hostname
    async with connect(urls[0].hostname, urls[0].port or 443, configuration=cfg, create_protocol=WTProtocol) as proto:
        # RFC 9220 §3: no extended CONNECT before the server's SETTINGS said it may.
        await asyncio.wait_for(proto.settings.wait(), 10)
        answered = asyncio.get_running_loop().create_future()
        sid = proto._quic.get_next_available_stream_id()

        def on_response(stream_id: int, headers) -> None:
            # The session exists from the moment its 2xx is read: the server may send its GETs
            # in the same datagram as the response, and events handled before this coroutine
            # resumes must find the session (else they were dropped: a GET never answered).
            resp = dict(headers)
            if stream_id != sid or answered.done():
                return
            if resp.get(b":status", b"").startswith(b"2"):
                proto.session = Session(proto, sid, endpoint)
            answered.set_result(resp)

        proto.on_headers = on_response
        headers = [(b":method", b"CONNECT"), (b":protocol", b"webtransport"), (b":scheme", b"https"),
                   (b":authority", urls[0].netloc.encode()), (b":path", b"/" + endpoint.encode())]
        if protocols:
            headers.append((b"wt-available-protocols", sf_list(protocols).encode()))
        proto.h3.send_headers(sid, headers)
        proto.transmit()
        resp = await asyncio.wait_for(answered, 10)
        status = resp.get(b":status", b"").decode()
        if not status.startswith("2"):
            log.error("CONNECT /%s answered %s", endpoint, status)
            return 1
        chosen = sf_strings(resp.get(b"wt-protocol", b"").decode())
        log.info("session %d on /%s, protocol %s", sid, endpoint, chosen)
        proto.on_headers = None
        if testcase == "handshake":
            write_negotiated(chosen[0] if chosen else "")
        elif testcase == "transfer":
            await proto.closed.wait()  # answer the server's requests until it ends the session
            return 0
        else:
            proto.session.request(transport_of(testcase), names)
            await asyncio.wait_for(proto.session.all_saved.wait(), SAVE_WAIT_S)
        proto._quic.send_stream_data(sid, b"", end_stream=True)  # FIN on CONNECT ends the session
        proto.transmit()
        proto.close(error_code=ErrorCode.H3_NO_ERROR)  # RFC 9114 §5.2: an HTTP/3 close says H3_NO_ERROR
    return 0


async def run_server(testcase: str, requests: List[str], protocols: List[str]) -> int:
    endpoints = sorted(d for d in os.listdir("/www") if os.path.isdir(os.path.join("/www", d)))
    done = asyncio.get_running_loop().create_future()
    cfg = configuration(False)
    cfg.load_cert_chain("/certs/cert.pem", "/certs/priv.key")

    class ServerProtocol(WTProtocol):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.on_headers = self.connect

        def connect(self, sid: int, headers) -> None:
            h = dict(headers)
            path = h.get(b":path", b"").decode().strip("/")
            if h.get(b":method") != b"CONNECT" or h.get(b":protocol") not in PROTOCOL_TOKENS or path not in endpoints:
                self.h3.send_headers(sid, [(b":status", b"404")], end_stream=True)
                self.transmit()
                return
            offered = sf_strings(h.get(b"wt-available-protocols", b"").decode())
            chosen = next((p for p in offered if p in protocols), "")
            if MISBEHAVE == "wrong-protocol":
                chosen = next((p for p in protocols if p in offered), "")
            reply = [(b":status", b"200")]
            if chosen:
                reply.append((b"wt-protocol", sf_list([chosen]).encode()))
            self.h3.send_headers(sid, reply)
            self.transmit()
            self.session = Session(self, sid, path)
            self.on_headers = None
            log.info("session %d on /%s, protocol %r", sid, path, chosen)
            if testcase == "handshake":
                write_negotiated(chosen)
            elif testcase != "transfer":
                names = [r.split("/", 1)[1] for r in requests if r.startswith(path + "/")]
                self.session.request(transport_of(testcase), names)
                asyncio.ensure_future(self.finish_when_saved())
            asyncio.ensure_future(self.report_close())

        async def finish_when_saved(self) -> None:
            await asyncio.wait_for(self.session.all_saved.wait(), SAVE_WAIT_S)
            self._quic.send_stream_data(self.session.id, b"", end_stream=True)
            self.transmit()
            self.close(error_code=ErrorCode.H3_NO_ERROR)

        async def report_close(self) -> None:
            await self.closed.wait()
            if not done.done():
                done.set_result(0)

    server = await serve("::", 443, configuration=cfg, create_protocol=ServerProtocol)
    log.info("serving WebTransport endpoints %s on UDP 443", endpoints)
    try:
        return await done  # the session's end ends the server, as upstream's servers do
    finally:
        server.close()
        flush_open_qlogs(cfg)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--role", choices=["client", "server"], required=True)
    p.add_argument("--testcase", required=True)
    a = p.parse_args()
    setup_logging(a.role)
    requests = os.environ.get("REQUESTS", "").split()
    protocols = os.environ.get("PROTOCOLS", "").split()
    if MISBEHAVE:
        log.warning("misbehaving on purpose: %s", MISBEHAVE)
    run = run_client if a.role == "client" else run_server
    try:
        return asyncio.run(run(a.testcase, requests, protocols))
    except asyncio.TimeoutError:
        log.error("timed out")
        return 1


if __name__ == "__main__":
    sys.exit(main())
