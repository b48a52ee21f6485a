/* nghttp3-h3-conn — a whole nghttp3 connection, server or client side, fed the peer's stream data.
 *
 * Input: records.h's preamble + records. Preamble: our QPACK decoder table capacity, max blocked
 * streams; knobs bit 0 = client side (else server), bits 1-3 = callback failure rate, bits 4-6 =
 * allocation failure rate (0 = off), bit 7 = announce CONNECT protocol and H3 datagrams. Record
 * stream id bits 0-61 = the QUIC stream id, bit 63 = FIN. The peer's control and QPACK streams are
 * whatever unidirectional streams the input opens; our own control/QPACK streams are bound and the
 * connection's output is drained and acknowledged after every record, so the encoder and stream
 * state machines run too. A server answers every finished request; a client has sent requests on
 * streams 0, 4 and 8 so that responses can arrive.
 * Every input runs twice: each record whole, then 1 byte at a time. Invariants (abort = finding):
 * NOMEM only after an injected allocation failure, CALLBACK_FAILURE only after an injected callback
 * failure, and without injected failures both feeds fail at the same record or both succeed (the
 * error code may differ: e.g. control stream type + FIN in one call is CLOSED_CRITICAL_STREAM, byte by
 * byte the next byte is judged first and gives MISSING_SETTINGS; RFC 9114 fixes no precedence). */
#include <stdio.h>
#include <stdlib.h>
#include <nghttp3/nghttp3.h>
#include "../common/records.h"
#include "../common/nghttp3_failmem.h"

typedef struct {
  wl_rng rng;
  uint32_t cb_one_in;
  uint32_t cb_failures;
  int server;
} app;

static void finding(const char *what, long long a, long long b) {
  fprintf(stderr, "nghttp3-h3-conn: invariant violated: %s (%lld, %lld)\n", what, a, b);
  abort();
}

static int maybe_fail(app *a) {
  if (!wl_rng_one_in(&a->rng, a->cb_one_in)) return 0;
  a->cb_failures++;
  return NGHTTP3_ERR_CALLBACK_FAILURE;
}

#define APP(ud) ((app *)(ud))
static int cb_acked(nghttp3_conn *c, int64_t id, uint64_t n, void *ud, void *sud) { (void)c; (void)id; (void)n; (void)sud; return maybe_fail(APP(ud)); }
static int cb_stream_close(nghttp3_conn *c, int64_t id, uint64_t e, void *ud, void *sud) { (void)c; (void)id; (void)e; (void)sud; return maybe_fail(APP(ud)); }
static int cb_recv_data(nghttp3_conn *c, int64_t id, const uint8_t *d, size_t n, void *ud, void *sud) {
  (void)c; (void)id; (void)sud;
  volatile uint8_t x = 0;
  for (size_t i = 0; i < n; i++) x ^= d[i]; /* lets ASan check the whole DATA span */
  return maybe_fail(APP(ud));
}
static int cb_deferred(nghttp3_conn *c, int64_t id, size_t n, void *ud, void *sud) { (void)c; (void)id; (void)n; (void)sud; return maybe_fail(APP(ud)); }
static int cb_begin_headers(nghttp3_conn *c, int64_t id, void *ud, void *sud) { (void)c; (void)id; (void)sud; return maybe_fail(APP(ud)); }
static int cb_recv_header(nghttp3_conn *c, int64_t id, int32_t token, nghttp3_rcbuf *name, nghttp3_rcbuf *value,
                          uint8_t flags, void *ud, void *sud) {
  (void)c; (void)id; (void)token; (void)flags; (void)sud;
  nghttp3_vec n = nghttp3_rcbuf_get_buf(name), v = nghttp3_rcbuf_get_buf(value);
  if (n.base[n.len] != 0 || v.base[v.len] != 0) finding("header not NUL-terminated", n.len, v.len);
  return maybe_fail(APP(ud));
}
static int cb_end_headers(nghttp3_conn *c, int64_t id, int fin, void *ud, void *sud) { (void)c; (void)id; (void)fin; (void)sud; return maybe_fail(APP(ud)); }
static int cb_stop_sending(nghttp3_conn *c, int64_t id, uint64_t e, void *ud, void *sud) { (void)c; (void)id; (void)e; (void)sud; return maybe_fail(APP(ud)); }
static int cb_reset_stream(nghttp3_conn *c, int64_t id, uint64_t e, void *ud, void *sud) { (void)c; (void)id; (void)e; (void)sud; return maybe_fail(APP(ud)); }
static int cb_shutdown(nghttp3_conn *c, int64_t id, void *ud) { (void)c; (void)id; return maybe_fail(APP(ud)); }
static int cb_recv_settings(nghttp3_conn *c, const nghttp3_settings *s, void *ud) { (void)c; (void)s; return maybe_fail(APP(ud)); }
static int cb_recv_origin(nghttp3_conn *c, const uint8_t *o, size_t n, void *ud) {
  (void)c;
  volatile uint8_t x = 0;
  for (size_t i = 0; i < n; i++) x ^= o[i];
  return maybe_fail(APP(ud));
}
static int cb_end_origin(nghttp3_conn *c, void *ud) { (void)c; return maybe_fail(APP(ud)); }
static void cb_rand(uint8_t *dest, size_t n) { for (size_t i = 0; i < n; i++) dest[i] = (uint8_t)(i * 31 + 7); }

static const nghttp3_nv response[] = {
  {(uint8_t *)":status", (uint8_t *)"200", 7, 3, NGHTTP3_NV_FLAG_NONE},
  {(uint8_t *)"content-type", (uint8_t *)"text/plain", 12, 10, NGHTTP3_NV_FLAG_NONE},
};
static const nghttp3_nv request[] = {
  {(uint8_t *)":method", (uint8_t *)"GET", 7, 3, NGHTTP3_NV_FLAG_NONE},
  {(uint8_t *)":scheme", (uint8_t *)"https", 7, 5, NGHTTP3_NV_FLAG_NONE},
  {(uint8_t *)":authority", (uint8_t *)"example.org", 10, 11, NGHTTP3_NV_FLAG_NONE},
  {(uint8_t *)":path", (uint8_t *)"/index.html", 5, 11, NGHTTP3_NV_FLAG_NONE},
};

/* A finished request gets a response: the server's encoder and write path run on real state. */
static int cb_end_stream(nghttp3_conn *c, int64_t id, void *ud, void *sud) {
  (void)sud;
  if (APP(ud)->server) {
    int rv = nghttp3_conn_submit_response(c, id, response, 2, NULL);
    /* Any non-zero return, NOMEM from an injected allocation failure included, is reported by nghttp3
     * as CALLBACK_FAILURE: count it as a failing callback. */
    if (rv != 0) { APP(ud)->cb_failures++; return NGHTTP3_ERR_CALLBACK_FAILURE; }
  }
  return maybe_fail(APP(ud));
}

/* Send everything the connection wants to send and acknowledge it at once. */
static int drain(nghttp3_conn *conn) {
  for (int round = 0; round < 64; round++) {
    int64_t sid = -1;
    int fin = 0;
    nghttp3_vec vec[16];
    nghttp3_ssize n = nghttp3_conn_writev_stream(conn, &sid, &fin, vec, 16);
    if (n < 0) return (int)n;
    if (sid == -1) return 0;
    size_t len = 0;
    for (nghttp3_ssize i = 0; i < n; i++) len += vec[i].len;
    int rv = nghttp3_conn_add_write_offset(conn, sid, len);
    if (rv == 0) rv = nghttp3_conn_add_ack_offset(conn, sid, len);
    if (rv != 0) return rv;
    if (len == 0 && !fin) return 0;
  }
  return 0;
}

/* QUIC only delivers data on streams the peer may send on: client bidi and client uni streams to a
 * server; to a client, server uni streams and the request streams it opened (0, 4, 8). nghttp3 asserts
 * this precondition, so the harness plays the QUIC layer and drops other records. */
static int peer_may_send(int server, int64_t sid) {
  if (server) return (sid & 3) == 0 || (sid & 3) == 2;
  return (sid & 3) == 3 || sid == 0 || sid == 4 || sid == 8;
}

typedef struct { int rv; int record; } outcome;

static outcome run(const uint8_t *data, size_t size, int bytewise) {
  outcome out = {0, -1};
  wl_reader rd;
  wl_preamble pre;
  if (!wl_read_preamble(&rd, data, size, &pre)) return out;
  app a = {.cb_one_in = (pre.knobs >> 1 & 7) ? 1u << ((pre.knobs >> 1 & 7) + 2) : 0, .server = !(pre.knobs & 1)};
  wl_rng_seed(&a.rng, data, size);
  wl_failmem fm;
  nghttp3_mem mem = wl_failmem_init(&fm, (pre.knobs >> 4 & 7) ? (pre.knobs >> 4 & 7) + 1 : 0, data, size);

  nghttp3_callbacks cb = {
    .acked_stream_data = cb_acked, .stream_close = cb_stream_close, .recv_data = cb_recv_data,
    .deferred_consume = cb_deferred, .begin_headers = cb_begin_headers, .recv_header = cb_recv_header,
    .end_headers = cb_end_headers, .begin_trailers = cb_begin_headers, .recv_trailer = cb_recv_header,
    .end_trailers = cb_end_headers, .stop_sending = cb_stop_sending, .end_stream = cb_end_stream,
    .reset_stream = cb_reset_stream, .shutdown = cb_shutdown, .recv_settings = cb_recv_settings,
    .recv_origin = cb_recv_origin, .end_origin = cb_end_origin, .rand = cb_rand,
  };
  nghttp3_settings settings;
  nghttp3_settings_default(&settings);
  settings.qpack_max_dtable_capacity = pre.table_capacity;
  settings.qpack_encoder_max_dtable_capacity = 4096;
  settings.qpack_blocked_streams = pre.max_blocked;
  settings.enable_connect_protocol = pre.knobs >> 7;
  settings.h3_datagram = pre.knobs >> 7;

  nghttp3_conn *conn = NULL;
  int rv = a.server ? nghttp3_conn_server_new(&conn, &cb, &settings, &mem, &a)
                    : nghttp3_conn_client_new(&conn, &cb, &settings, &mem, &a);
  if (rv != 0) { out.rv = rv; goto check; }
  if (a.server) {
    nghttp3_conn_set_max_client_streams_bidi(conn, 100);
    rv = nghttp3_conn_bind_control_stream(conn, 3);
    if (rv == 0) rv = nghttp3_conn_bind_qpack_streams(conn, 7, 11);
  } else {
    rv = nghttp3_conn_bind_control_stream(conn, 2);
    if (rv == 0) rv = nghttp3_conn_bind_qpack_streams(conn, 6, 10);
    for (int64_t sid = 0; rv == 0 && sid <= 8; sid += 4) rv = nghttp3_conn_submit_request(conn, sid, request, 4, NULL, NULL);
  }
  if (rv == 0) rv = drain(conn);
  wl_record rec;
  for (int i = 0; rv == 0 && wl_next_record(&rd, &rec); i++) {
    int64_t sid = (int64_t)(rec.stream_id & 0x3fffffffffffffffull);
    int fin = (int)(rec.stream_id >> 63);
    if (!peer_may_send(a.server, sid)) continue;
    size_t step = bytewise ? 1 : rec.len;
    size_t off = 0;
    do {
      size_t n = rec.len - off < step ? rec.len - off : step;
      nghttp3_ssize r = nghttp3_conn_read_stream(conn, sid, rec.data + off, n, fin && off + n == rec.len);
      if (r < 0) { rv = (int)r; break; }
      if ((size_t)r > n) finding("read_stream consumed more than given", r, n);
      off += n;
    } while (off < rec.len);
    if (rv == 0) rv = drain(conn);
    if (rv != 0) out.record = i;
  }
  out.rv = rv;
  nghttp3_conn_del(conn);
check:
  if (rv == NGHTTP3_ERR_NOMEM && fm.failures == 0) finding("NOMEM without an allocation failure", rv, 0);
  if (rv == NGHTTP3_ERR_CALLBACK_FAILURE && a.cb_failures == 0) finding("CALLBACK_FAILURE without a failing callback", rv, 0);
  if (a.cb_one_in || fm.one_in) out.record = -2; /* injected failures depend on the feed: not comparable */
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  outcome whole = run(data, size, 0);
  outcome bytes = run(data, size, 1);
  if (whole.record != -2 && bytes.record != -2 && ((whole.rv == 0) != (bytes.rv == 0) || whole.record != bytes.record)) {
    fprintf(stderr, "whole feed: rv %d (%s) at record %d; byte feed: rv %d (%s) at record %d\n", whole.rv,
            nghttp3_strerror(whole.rv), whole.record, bytes.rv, nghttp3_strerror(bytes.rv), bytes.record);
    finding("whole and byte-at-a-time feeds disagree", whole.rv, bytes.rv);
  }
  return 0;
}
