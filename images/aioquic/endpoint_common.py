"""What the wirelab aioquic client and server share: the endpoint contract's environment (keylog,
qlog, log level) applied to an aioquic QuicConfiguration, and the /logs/ output helpers."""
import logging
import os
import sys

from aioquic.quic.configuration import QuicConfiguration
from aioquic.quic.logger import QuicFileLogger

log = logging.getLogger("wirelab")


def setup_logging(role: str) -> None:
    # INFO shows our own lines plus aioquic's few per-connection ones (version, ALPN, close);
    # AIOQUIC_VERBOSE=1 adds aioquic's per-packet debug output (slow for large transfers).
    level = logging.DEBUG if os.environ.get("AIOQUIC_VERBOSE") == "1" else logging.INFO
    logging.basicConfig(
        level=level,
        stream=sys.stdout,
        format="%(asctime)s.%(msecs)03d " + role + " %(name)s %(levelname)s %(message)s",
        datefmt="%H:%M:%S",
    )


def apply_contract_logs(cfg: QuicConfiguration) -> None:
    """SSLKEYLOGFILE gets the TLS secrets (aioquic flushes each line), QLOGDIR one qlog file per
    connection, named by its original destination connection ID."""
    keylog = os.environ.get("SSLKEYLOGFILE")
    if keylog:
        cfg.secrets_log_file = open(keylog, "a")
    qlogdir = os.environ.get("QLOGDIR")
    if qlogdir:
        os.makedirs(qlogdir, exist_ok=True)
        cfg.quic_logger = QuicFileLogger(qlogdir)


def flush_open_qlogs(cfg: QuicConfiguration) -> None:
    """Write the qlog of every connection that has not ended yet. aioquic writes a trace only when
    its connection terminates; a server stopped by `docker stop` would lose the ones still open.
    (_traces is aioquic's private list of open traces: there is no public accessor.)"""
    logger = cfg.quic_logger
    if logger is None:
        return
    for trace in list(getattr(logger, "_traces", [])):
        try:
            logger.end_trace(trace)
        except Exception as exc:  # a half-built trace must not stop the others
            log.warning("qlog: could not write an open trace: %s", exc)
