#!/usr/bin/env python3
"""wirelab's aioquic interop client: downloads URLs into a folder over HTTP/0.9 (ALPN
hq-interop) or HTTP/3 (ALPN h3), shaping its connections after an interop TESTCASE.

Usage: aioquic_client.py --testcase T [--downloads DIR] [--ca FILE] [--insecure] URL...
  handshake, transfer, retry, amplificationlimit: every URL on one connection (hq-interop)
  http3:        every URL on one connection over h3
  chacha20:     offer only TLS_CHACHA20_POLY1305_SHA256
  keyupdate:    update the 1-RTT keys once the handshake is confirmed, then download
  v2:           start in QUIC v1 and offer v2 in version_information (the server may switch)
  multiconnect: one connection per URL, one after the other
  resumption:   the first URL, then the rest on a second connection resuming the TLS session
  zerortt:      the first URL, then the rest sent as 0-RTT data on a resumed second connection
Exit 0 only if every URL was downloaded completely; 1 otherwise (with the reason)."""
import argparse
import asyncio
import os
import ssl
import sys
import time
import urllib.parse

from aioquic.asyncio.client import connect
from aioquic.asyncio.protocol import QuicConnectionProtocol
from aioquic.h0.connection import H0_ALPN, H0Connection
from aioquic.h3.connection import H3_ALPN, H3Connection
from aioquic.h3.events import DataReceived, HeadersReceived
from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.events import ConnectionTerminated, QuicEvent, StreamReset
from aioquic.quic.packet import QuicProtocolVersion
from aioquic.tls import CipherSuite

from endpoint_common import apply_contract_logs, log, setup_logging

TESTCASES = ("handshake", "transfer", "retry", "amplificationlimit", "http3", "chacha20",
             "keyupdate", "v2", "multiconnect", "resumption", "zerortt")

# A connection that makes no progress this long ends with an error (well inside the runner's
# 60 s per test), so a stuck transfer fails cleanly instead of being killed. multiconnect cases
# (handshakeloss/-corruption: 30% loss, 300 s for 50 connections) keep aioquic's default 60 s:
# aioquic's PTO probes are bare PINGs with exponential backoff, so after a run of lost packets
# its next probe can come 30+ s later (seen: 4th of 50 connections idle-timed out at 30 s).
IDLE_TIMEOUT = float(os.environ.get("AIOQUIC_IDLE_TIMEOUT", "30"))
MULTICONNECT_IDLE_TIMEOUT = float(os.environ.get("AIOQUIC_MULTICONNECT_IDLE_TIMEOUT", "60"))
# Upper bound for one connection's downloads (the long cases: crosstraffic, 25 MB in 180 s).
CONNECTION_TIMEOUT = float(os.environ.get("AIOQUIC_CONNECTION_TIMEOUT", "170"))


class Request:
    def __init__(self, url: str, downloads: str):
        u = urllib.parse.urlsplit(url)
        self.url = url
        self.authority = u.netloc.encode()
        self.target = (u.path or "/").encode() + (b"?" + u.query.encode() if u.query else b"")
        name = urllib.parse.unquote(u.path).lstrip("/") or "index.html"
        self.file = os.path.normpath(os.path.join(downloads, name))
        if not self.file.startswith(os.path.normpath(downloads) + os.sep):
            raise ValueError("URL %s: path leaves the downloads folder" % url)
        self.status = None
        self.body = bytearray()
        self.done = None  # future, set by the connection


class FetchProtocol(QuicConnectionProtocol):
    """One QUIC connection: sends requests over hq-interop or h3 and collects the responses."""

    # Why the last connection ended, for the error line: aioquic's connect() raises a bare
    # ConnectionError when the handshake fails (bad certificate, idle timeout, peer's close).
    last_close = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        alpn = self._quic.configuration.alpn_protocols[0]
        self._h3 = alpn in H3_ALPN
        self._http = H3Connection(self._quic) if self._h3 else H0Connection(self._quic)
        self._requests = {}  # stream id -> Request

    def request(self, req: Request) -> None:
        req.done = self._loop.create_future()
        sid = self._quic.get_next_available_stream_id()
        self._requests[sid] = req
        self._http.send_headers(sid, [(b":method", b"GET"), (b":scheme", b"https"),
                                      (b":authority", req.authority), (b":path", req.target),
                                      (b"user-agent", b"wirelab-aioquic")], end_stream=True)

    def quic_event_received(self, event: QuicEvent) -> None:
        if isinstance(event, ConnectionTerminated):
            reason = "connection closed: error 0x%x %s" % (event.error_code, event.reason_phrase)
            FetchProtocol.last_close = reason.strip()
            for req in self._requests.values():
                if not req.done.done():
                    req.done.set_exception(ConnectionError(FetchProtocol.last_close))
            return
        if isinstance(event, StreamReset) and event.stream_id in self._requests:
            req = self._requests[event.stream_id]
            if not req.done.done():
                req.done.set_exception(ConnectionError("%s: stream reset by the server (0x%x)" % (req.url, event.error_code)))
            return
        for ev in self._http.handle_event(event):
            req = self._requests.get(ev.stream_id)
            if req is None or req.done.done():
                continue
            if isinstance(ev, HeadersReceived):
                if self._h3:
                    req.status = dict(ev.headers).get(b":status", b"").decode()
            elif isinstance(ev, DataReceived):
                req.body += ev.data
            if getattr(ev, "stream_ended", False):
                if self._h3 and req.status != "200":
                    req.done.set_exception(ConnectionError("%s: HTTP status %s" % (req.url, req.status)))
                else:
                    req.done.set_result(None)


def save(req: Request) -> None:
    os.makedirs(os.path.dirname(req.file), exist_ok=True)
    with open(req.file, "wb") as f:
        f.write(req.body)


def configuration(args, testcase: str) -> QuicConfiguration:
    cfg = QuicConfiguration(is_client=True,
                            alpn_protocols=H3_ALPN if testcase == "http3" else H0_ALPN,
                            idle_timeout=MULTICONNECT_IDLE_TIMEOUT if testcase == "multiconnect" else IDLE_TIMEOUT,
                            # Generous flow control: the sender, not the window, should set the pace.
                            max_data=64 << 20, max_stream_data=32 << 20)
    if args.insecure or not os.path.exists(args.ca):
        cfg.verify_mode = ssl.CERT_NONE
    else:
        cfg.load_verify_locations(cafile=args.ca)
    if testcase == "chacha20":
        cfg.cipher_suites = [CipherSuite.CHACHA20_POLY1305_SHA256]
    if testcase == "v2":
        # First Initial in v1; version_information lists v2 first so a server that can switches.
        cfg.original_version = QuicProtocolVersion.VERSION_1
        cfg.supported_versions = [QuicProtocolVersion.VERSION_2, QuicProtocolVersion.VERSION_1]
    else:
        cfg.supported_versions = [QuicProtocolVersion.VERSION_1]
    apply_contract_logs(cfg)
    return cfg


async def wait_confirmed(proto: FetchProtocol, limit: float) -> None:
    """Wait until the handshake is confirmed (HANDSHAKE_DONE received): RFC 9001 §6.1 forbids a
    key update before that. aioquic has no event for it, so poll its private flag."""
    deadline = time.monotonic() + limit
    while not getattr(proto._quic, "_handshake_confirmed", True):
        if time.monotonic() > deadline:
            raise ConnectionError("handshake not confirmed after %.0f s" % limit)
        await proto.ping()


async def one_connection(host: str, port: int, cfg: QuicConfiguration, reqs, testcase: str,
                         early: bool = False, on_ticket=None, want_ticket=None) -> None:
    """Open one connection, fetch reqs on it, save the files, close it cleanly."""
    start = time.monotonic()
    async with connect(host, port, configuration=cfg, create_protocol=FetchProtocol,
                       session_ticket_handler=on_ticket, wait_connected=not early) as proto:
        if testcase == "keyupdate":
            await wait_confirmed(proto, 10)
            proto.request_key_update()
            log.info("1-RTT key update requested")
        for r in reqs:
            proto.request(r)
        proto.transmit()  # with early=True this is the first flight: Initial + 0-RTT
        await asyncio.gather(*(r.done for r in reqs))
        for r in reqs:
            save(r)
        if want_ticket is not None:
            # The session ticket comes after the handshake; give it a moment if it is not here.
            for _ in range(100):
                if want_ticket():
                    break
                await asyncio.sleep(0.05)
        log.info("connection done: %d file(s), %d bytes in %.2f s", len(reqs),
                 sum(len(r.body) for r in reqs), time.monotonic() - start)


async def run(args) -> None:
    reqs = [Request(u, args.downloads) for u in args.urls]
    u = urllib.parse.urlsplit(args.urls[0])
    host, port = u.hostname, u.port or 443
    tc = args.testcase
    cfg = configuration(args, tc)

    async def bounded(coro):
        await asyncio.wait_for(coro, CONNECTION_TIMEOUT)

    if tc == "multiconnect":
        for i, r in enumerate(reqs):
            log.info("connection %d/%d: %s", i + 1, len(reqs), r.url)
            await bounded(one_connection(host, port, cfg, [r], tc))
    elif tc in ("resumption", "zerortt"):
        if len(reqs) < 2:
            raise ValueError("%s needs at least 2 URLs" % tc)
        tickets = []
        await bounded(one_connection(host, port, cfg, reqs[:1], tc, on_ticket=tickets.append,
                                     want_ticket=lambda: bool(tickets)))
        if not tickets:
            raise ConnectionError("no session ticket received on the first connection")
        t = tickets[-1]
        log.info("session ticket received (max_early_data %s); second connection", t.max_early_data_size)
        cfg.session_ticket = t
        if tc == "zerortt" and t.max_early_data_size is None:
            raise ConnectionError("the server's session ticket does not allow early data")
        await bounded(one_connection(host, port, cfg, reqs[1:], tc, early=(tc == "zerortt")))
    else:
        await bounded(one_connection(host, port, cfg, reqs, tc))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--testcase", required=True, choices=TESTCASES)
    ap.add_argument("--downloads", default="/downloads")
    ap.add_argument("--ca", default="/certs/ca.pem", help="CA to verify the server with (if it exists)")
    ap.add_argument("--insecure", action="store_true", help="do not verify the server certificate")
    ap.add_argument("urls", nargs="+")
    args = ap.parse_args()
    try:
        asyncio.run(run(args))
    except asyncio.TimeoutError:
        log.error("FAILED: a connection took longer than %.0f s", CONNECTION_TIMEOUT)
        return 1
    except (ConnectionError, OSError, ValueError) as exc:
        log.error("FAILED: %s", str(exc) or FetchProtocol.last_close or type(exc).__name__)
        return 1
    log.info("all %d file(s) downloaded", len(args.urls))
    return 0


if __name__ == "__main__":
    setup_logging("client")
    sys.exit(main())
