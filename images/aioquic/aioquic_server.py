#!/usr/bin/env python3
"""wirelab's aioquic interop server: serves /www on UDP 443 (all addresses, IPv4 and IPv6) over
HTTP/0.9 (ALPN hq-interop) or HTTP/3 (ALPN h3), chosen per connection by the negotiated ALPN.

Usage: aioquic_server.py [--retry] [--h3-first] [--port N] [--www DIR] [--certs DIR]
Every connection may resume a session and send 0-RTT; QUIC v1 and v2 are both accepted, and a
client that offers v2 in its version_information is moved to v2 (RFC 9368 compatible version
negotiation, aioquic's own logic)."""
import argparse
import asyncio
import os
import signal
import socket
import sys
import urllib.parse

from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.asyncio.server import QuicServer
from aioquic.h0.connection import H0_ALPN, H0Connection
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import ProtocolNegotiated, QuicEvent

from endpoint_common import apply_contract_logs, flush_open_qlogs, log, setup_logging


def resolve(www: str, target: bytes):
    """Map a request target onto a file under www; None if it leaves www or is no file."""
    path = urllib.parse.unquote(target.decode("utf-8", "replace").split("?", 1)[0])
    full = os.path.realpath(os.path.join(www, path.lstrip("/")))
    root = os.path.realpath(www)
    if full != root and not full.startswith(root + os.sep):
        return None
    return full if os.path.isfile(full) else None


class FileServerProtocol(QuicConnectionProtocol):
    """One QUIC connection: picks HTTP/0.9 or HTTP/3 once ALPN is known, answers GET with files."""

    www = "/www"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._http = None
        self._h3 = False

    def quic_event_received(self, event: QuicEvent) -> None:
        if isinstance(event, ProtocolNegotiated):
            self._h3 = event.alpn_protocol in H3_ALPN
            if self._h3:
                self._http = H3Connection(self._quic)
            elif event.alpn_protocol in H0_ALPN:
                self._http = H0Connection(self._quic)
            log.info("connection %s: ALPN %s", self._quic.original_destination_connection_id.hex(),
                     event.alpn_protocol)
        if self._http is not None:
            for ev in self._http.handle_event(event):
                if isinstance(ev, HeadersReceived):
                    self._answer(ev.stream_id, dict(ev.headers))

    def _answer(self, stream_id: int, headers: dict) -> None:
        method = headers.get(b":method", b"")
        target = headers.get(b":path", b"")
        status, body = 200, b""
        if method != b"GET":
            status = 405
        else:
            path = resolve(self.www, target)
            if path is None:
                status = 404
            else:
                with open(path, "rb") as f:
                    body = f.read()
        log.info("stream %d: %s %s -> %d (%d bytes, %s)", stream_id, method.decode(errors="replace"),
                 target.decode(errors="replace"), status, len(body), "h3" if self._h3 else "hq")
        if self._h3:
            self._http.send_headers(stream_id, [(b":status", str(status).encode()),
                                                (b"content-length", str(len(body)).encode())])
            self._http.send_data(stream_id, body, end_stream=True)
        elif status == 200:
            self._http.send_data(stream_id, body, end_stream=True)
        else:
            # HTTP/0.9 has no status: refuse the stream so the client sees an error, not a file.
            self._quic.reset_stream(stream_id, 0x10C)  # H3_REQUEST_REJECTED's value; hq has none
        self.transmit()


def dual_stack_socket(port: int) -> socket.socket:
    """One UDP socket on all IPv6 and (mapped) IPv4 addresses; IPv4 only where IPv6 is off."""
    try:
        sock = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(("::", port, 0, 0))
    except OSError as exc:
        log.warning("no IPv6 socket (%s): listening on IPv4 only", exc)
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("0.0.0.0", port))
    return sock


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--retry", action="store_true", help="validate every client address with a Retry")
    ap.add_argument("--h3-first", action="store_true", help="prefer h3 when a client offers both ALPNs")
    ap.add_argument("--port", type=int, default=443)
    ap.add_argument("--www", default="/www")
    ap.add_argument("--certs", default="/certs")
    args = ap.parse_args()

    alpns = H3_ALPN + H0_ALPN if args.h3_first else H0_ALPN + H3_ALPN
    cfg = QuicConfiguration(is_client=False, alpn_protocols=alpns)
    # cert.pem holds the whole chain (leaf first); aioquic sends every certificate in it.
    cfg.load_cert_chain(os.path.join(args.certs, "cert.pem"), os.path.join(args.certs, "priv.key"))
    apply_contract_logs(cfg)
    FileServerProtocol.www = args.www

    # Session tickets live in memory for the server's life: enough for resumption and 0-RTT,
    # whose two connections go to the same server process. Popped on use (single use).
    tickets = {}
    loop = asyncio.get_running_loop()
    _, server = await loop.create_datagram_endpoint(
        lambda: QuicServer(configuration=cfg, create_protocol=FileServerProtocol,
                           session_ticket_fetcher=lambda label: tickets.pop(label, None),
                           session_ticket_handler=lambda t: tickets.__setitem__(t.ticket, t),
                           retry=args.retry),
        sock=dual_stack_socket(args.port),
    )
    log.info("serving %s on UDP port %d (ALPN %s, retry %s)", args.www, args.port, ",".join(alpns),
             "on" if args.retry else "off")

    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("stopping: closing connections, writing open qlogs")
    server.close()
    await asyncio.sleep(0.05)  # let the CONNECTION_CLOSE datagrams leave
    flush_open_qlogs(cfg)
    return 0


if __name__ == "__main__":
    setup_logging("server")
    sys.exit(asyncio.run(main()))
