/* nghttp3-h3-conn — whole nghttp3 connections, client and/or server side, driven op by op by the input.
 *
 * Input (fuzz/common/fdp.h: consumed where it is used; failure decisions are bits from the back):
 *   setup   u8 mode: bits 0-1 sides (1 client, 2 server, 0/3 both, wired to each other), bit 2 inject
 *           callback failures, bit 3 inject allocation failures, bit 4 the server announces an ORIGIN
 *           frame (its payload: a length byte + bytes), bit 5 server-side max concurrent streams limit
 *           then per side (client first): u8 flags (bit 0 enable_connect_protocol, bit 1 h3_datagram,
 *           bit 2 eager QPACK indexing, bit 3 glitch rate limit 4/s burst 8, bit 4 the deprecated
 *           recv_settings callback, bit 5 no callbacks at all), u16 QPACK max table
 *           capacity, u8 blocked streams, u16 QPACK encoder table capacity, u16 max field section
 *           size (0 = unlimited); the server then u8 max client bidi streams (0 = 100)
 *   ops     until the input ends: u8 op (bits 0-3 kind, bit 4 side 0 client / 1 server, bits 5-7 a
 *           small argument) + its operands, see run_op(): peer bytes on a stream (whole, or in chunks
 *           the op names), drain what a side writes (forwarded to the other side when both exist,
 *           partial writes, acks now or later, QPACK encoder-stream bytes held back and handed over
 *           later so that the peer's field sections block), submit request / info / response / trailers,
 *           priorities, GOAWAY (shutdown notice, shutdown), close / shutdown read / shutdown write /
 *           block / unblock / resume a stream, acknowledge, and the query APIs.
 * The harness plays the QUIC layer and keeps its rules (nghttp3 asserts several): peer data only on
 * streams the peer may send on, nothing after FIN, after the stream was closed or after the peer reset
 * it (data sent before our STOP_SENDING may still arrive), client stream ids increase, written bytes
 * are acknowledged only once written, one shutdown and no shutdown notice after it. The ORIGIN payload
 * and extra header fields point into the input, which outlives the run.
 * Every input runs twice: stream data in the chunks the input names, then 1 byte at a time.
 * Invariants (abort = finding): NOMEM only after an injected allocation failure, CALLBACK_FAILURE only
 * after an injected callback failure; header names/values NUL-terminated; read_stream never consumes
 * more than given; writev only names streams the side may write and reports a sane length; API calls
 * return only the errors their documentation lists; and without injected failures both feeds stop at
 * the same op (or neither stops), unless one of them is QPACK_DECOMPRESSION_FAILED (see the end). The
 * error code may differ (RFC 9114 fixes no precedence).
 * Compiled with -DWL_TRACE it prints every op's result, the stream bytes it feeds and each finished
 * field section (for reading a reproducer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nghttp3/nghttp3.h>
#include "../common/fdp.h"
#include "../common/nghttp3_failmem.h"

#define MAXID 256 /* stream ids the harness uses: 0..255 */

enum { ST_RFIN = 1, ST_CLOSED = 2, ST_OPENED = 4, ST_RESPONDED = 8, ST_TRAILERS = 16 };

typedef struct {
  uint16_t left;  /* body bytes still to give */
  uint8_t chunk;  /* per read_data call (0 = 1) */
  uint8_t flags;  /* 1: block once (WOULDBLOCK), 2: NO_END_STREAM at EOF */
  uint8_t used;
} body;

typedef struct side side;
struct side {
  nghttp3_conn *conn;
  int server;
  int shutdown_done, notice_done, dead;
  uint8_t st[MAXID];          /* per stream id: ST_* as the QUIC layer of this side sees it */
  body bodies[MAXID / 4];     /* request/response bodies by bidi index */
  uint64_t unacked[MAXID];    /* written but not yet acknowledged */
  int64_t next_bidi;          /* client: next request stream id */
  uint8_t held[8192];         /* QPACK encoder-stream bytes not yet handed to the peer */
  size_t nheld;
  struct h *h;
};

typedef struct h {
  wl_fdp fdp;
  int inject_cb, inject_mem;
  uint32_t cb_failures;
  wl_failmem fm;
  side sides[2]; /* 0 client, 1 server */
  int bytewise;
  uint64_t ts;
} h;

static void finding(const char *what, long long a, long long b) {
  fprintf(stderr, "nghttp3-h3-conn: invariant violated: %s (%lld, %lld)\n", what, a, b);
  abort();
}

static int back_bit(void *ud) { return wl_fdp_back_bit(&((h *)ud)->fdp); }

static side *side_of(nghttp3_conn *c, void *ud) {
  h *H = ud;
  return H->sides[0].conn == c ? &H->sides[0] : &H->sides[1];
}

static int maybe_fail(void *ud) {
  h *H = ud;
  if (!H->inject_cb || !wl_fdp_back_bit(&H->fdp)) return 0;
  H->cb_failures++;
  return NGHTTP3_ERR_CALLBACK_FAILURE;
}

static int cb_acked(nghttp3_conn *c, int64_t id, uint64_t n, void *ud, void *sud) { (void)c; (void)id; (void)n; (void)sud; return maybe_fail(ud); }
static int cb_stream_close(nghttp3_conn *c, int64_t id, uint64_t e, void *ud, void *sud) { (void)c; (void)id; (void)e; (void)sud; return maybe_fail(ud); }
static int cb_recv_data(nghttp3_conn *c, int64_t id, const uint8_t *d, size_t n, void *ud, void *sud) {
  (void)c; (void)sud;
  if ((id & 3) != 0) finding("DATA delivered on a non-request stream", id, n);
  volatile uint8_t x = 0;
  for (size_t i = 0; i < n; i++) x ^= d[i]; /* lets ASan check the whole DATA span */
  return maybe_fail(ud);
}
static int cb_deferred(nghttp3_conn *c, int64_t id, size_t n, void *ud, void *sud) { (void)c; (void)id; (void)n; (void)sud; return maybe_fail(ud); }
static int cb_begin_headers(nghttp3_conn *c, int64_t id, void *ud, void *sud) { (void)c; (void)id; (void)sud; return maybe_fail(ud); }
static int cb_recv_header(nghttp3_conn *c, int64_t id, int32_t token, nghttp3_rcbuf *name, nghttp3_rcbuf *value,
                          uint8_t flags, void *ud, void *sud) {
  (void)c; (void)id; (void)token; (void)flags; (void)sud;
  nghttp3_vec n = nghttp3_rcbuf_get_buf(name), v = nghttp3_rcbuf_get_buf(value);
  if (n.base[n.len] != 0 || v.base[v.len] != 0) finding("header not NUL-terminated", n.len, v.len);
  return maybe_fail(ud);
}
static int cb_end_headers(nghttp3_conn *c, int64_t id, int fin, void *ud, void *sud) {
  (void)c; (void)id; (void)fin; (void)sud;
#ifdef WL_TRACE
  fprintf(stderr, "  %s: end of a field section on stream %lld%s\n", side_of(c, ud)->server ? "server" : "client", (long long)id, fin ? " (fin)" : "");
#endif
  return maybe_fail(ud);
}
static int cb_stop_sending(nghttp3_conn *c, int64_t id, uint64_t e, void *ud, void *sud) { (void)c; (void)id; (void)e; (void)sud; return maybe_fail(ud); }
static int cb_end_stream(nghttp3_conn *c, int64_t id, void *ud, void *sud) { (void)c; (void)id; (void)sud; return maybe_fail(ud); }
static int cb_reset_stream(nghttp3_conn *c, int64_t id, uint64_t e, void *ud, void *sud) { (void)c; (void)id; (void)e; (void)sud; return maybe_fail(ud); }
static int cb_shutdown(nghttp3_conn *c, int64_t id, void *ud) { (void)c; (void)id; return maybe_fail(ud); }
static int cb_recv_settings(nghttp3_conn *c, const nghttp3_proto_settings *s, void *ud) { (void)c; (void)s; return maybe_fail(ud); }
static int cb_recv_origin(nghttp3_conn *c, const uint8_t *o, size_t n, void *ud) {
  (void)c;
  volatile uint8_t x = 0;
  for (size_t i = 0; i < n; i++) x ^= o[i];
  return maybe_fail(ud);
}
static int cb_end_origin(nghttp3_conn *c, void *ud) { (void)c; return maybe_fail(ud); }
static void cb_rand(uint8_t *dest, size_t n) { for (size_t i = 0; i < n; i++) dest[i] = (uint8_t)(i * 31 + 7); }

/* Bodies point into one static buffer (nghttp3 keeps ALIEN buffers until they are acknowledged). */
static const uint8_t body_bytes[4096] = {'w', 'i', 'r', 'e', 'l', 'a', 'b'};

static nghttp3_ssize cb_read_data(nghttp3_conn *c, int64_t id, nghttp3_vec *vec, size_t veccnt, uint32_t *pflags,
                                  void *ud, void *sud) {
  (void)sud;
  side *s = side_of(c, ud);
  if (veccnt == 0) finding("read_data with no vector", id, 0);
  if (id < 0 || id >= MAXID || (id & 3)) finding("read_data on a stream the harness gave no body", id, 0);
  body *b = &s->bodies[id / 4];
  if (!b->used) finding("read_data on a stream the harness gave no body", id, 1);
  int rv = maybe_fail(ud);
  if (rv) return rv;
  if (b->flags & 1) { b->flags &= (uint8_t)~1; return NGHTTP3_ERR_WOULDBLOCK; }
  size_t n = b->chunk ? b->chunk * 16u : 1;
  if (n > b->left) n = b->left;
  b->left = (uint16_t)(b->left - n);
  nghttp3_ssize cnt = 1;
  vec[0].base = (uint8_t *)body_bytes + (b->left % 2048);
  vec[0].len = n;
  if ((b->chunk & 64) && veccnt >= 3 && n >= 2) { /* the same bytes as two pieces around an empty one */
    vec[2].base = vec[0].base + n / 2;
    vec[2].len = n - n / 2;
    vec[0].len = n / 2;
    vec[1].base = vec[0].base;
    vec[1].len = 0;
    cnt = 3;
  }
  if (b->left == 0) {
    *pflags |= NGHTTP3_DATA_FLAG_EOF;
    if (b->flags & 2) *pflags |= NGHTTP3_DATA_FLAG_NO_END_STREAM;
  }
  return n ? cnt : 0; /* 0 bytes only with EOF (an empty body) */
}

/* ---- header sets ---- */
#define NV(n, v) {(uint8_t *)(n), (uint8_t *)(v), sizeof(n) - 1, sizeof(v) - 1, NGHTTP3_NV_FLAG_NONE}
static const nghttp3_nv rq_get[] = {NV(":method", "GET"), NV(":scheme", "https"), NV(":authority", "example.org"), NV(":path", "/index.html"), NV("user-agent", "wirelab")};
static const nghttp3_nv rq_post[] = {NV(":method", "POST"), NV(":scheme", "https"), NV(":authority", "example.org"), NV(":path", "/upload"), NV("content-length", "100"), NV("content-type", "application/json")};
static const nghttp3_nv rq_connect[] = {NV(":method", "CONNECT"), NV(":authority", "example.org:443")};
static const nghttp3_nv rq_xconnect[] = {NV(":method", "CONNECT"), NV(":protocol", "websocket"), NV(":scheme", "https"), NV(":authority", "example.org"), NV(":path", "/chat"), NV("sec-websocket-version", "13")};
static const nghttp3_nv rq_head[] = {NV(":method", "HEAD"), NV(":scheme", "http"), NV(":authority", "example.org"), NV(":path", "/"), NV("priority", "u=1, i"), NV("te", "trailers")};
static const nghttp3_nv rq_bad[] = {NV(":method", "GET"), NV(":path", "/"), NV("connection", "close"), NV(":scheme", "https"), NV("Upper", "x"), NV("host", "example.org")};
static const nghttp3_nv rq_opts[] = {NV(":method", "OPTIONS"), NV(":scheme", "https"), NV(":authority", "example.org"), NV(":path", "*"), NV("priority", "u=7"), NV("cookie", "a=b"), NV("cookie", "c=d")};
static const nghttp3_nv rs_200[] = {NV(":status", "200"), NV("content-type", "text/plain"), NV("server", "wirelab")};
static const nghttp3_nv rs_204[] = {NV(":status", "204"), NV("priority", "u=2")};
static const nghttp3_nv rs_304[] = {NV(":status", "304"), NV("etag", "\"x\"")};
static const nghttp3_nv rs_cl[] = {NV(":status", "200"), NV("content-length", "100")};
static const nghttp3_nv rs_bad[] = {NV(":status", "20x"), NV(":path", "/"), NV("transfer-encoding", "chunked")};
static const nghttp3_nv rs_101[] = {NV(":status", "101")};
static const nghttp3_nv in_100[] = {NV(":status", "100")};
static const nghttp3_nv in_103[] = {NV(":status", "103"), NV("link", "</s.css>; rel=preload")};
static const nghttp3_nv tr_ok[] = {NV("grpc-status", "0"), NV("x-checksum", "abc")};
static const nghttp3_nv tr_bad[] = {NV(":status", "200"), NV("content-length", "1")};
typedef struct { const nghttp3_nv *nv; size_t n; } nvset;
#define SET(a) {a, sizeof(a) / sizeof(a[0])}
static const nvset requests[8] = {SET(rq_get), SET(rq_post), SET(rq_connect), SET(rq_xconnect), SET(rq_head), SET(rq_bad), SET(rq_opts), SET(rq_get)};
static const nvset responses[8] = {SET(rs_200), SET(rs_204), SET(rs_304), SET(rs_cl), SET(rs_bad), SET(rs_101), SET(rs_200), SET(rs_cl)};
static const nvset infos[2] = {SET(in_100), SET(in_103)};
static const nvset trailers[2] = {SET(tr_ok), SET(tr_bad)};

/* A header set from the table, optionally plus one header whose name and value come from the input
 * (selector bit 3) and with per-field flags (bits 4-5: NEVER_INDEX, NO_COPY). */
typedef struct { nghttp3_nv nv[12]; size_t n; } nvbuf;
static void build_nv(h *H, nvbuf *out, const nvset *set, uint8_t sel) {
  out->n = 0;
  for (size_t i = 0; i < set->n; i++) {
    out->nv[out->n] = set->nv[i];
    if (sel & 0x10) out->nv[out->n].flags |= NGHTTP3_NV_FLAG_NEVER_INDEX;
    if (sel & 0x20) out->nv[out->n].flags |= NGHTTP3_NV_FLAG_NO_COPY_NAME | NGHTTP3_NV_FLAG_NO_COPY_VALUE;
    out->n++;
  }
  if (sel & 0x08) {
    size_t nl, vl;
    const uint8_t *n = wl_fdp_bytes(&H->fdp, wl_fdp_u8(&H->fdp) & 63, &nl);
    const uint8_t *v = wl_fdp_bytes(&H->fdp, wl_fdp_len(&H->fdp), &vl);
    out->nv[out->n++] = (nghttp3_nv){(uint8_t *)n, (uint8_t *)v, nl, vl, (uint8_t)(sel >> 6)};
    int okn = nghttp3_check_header_name(n, nl), okv = nghttp3_check_header_value(v, vl);
    if ((okn != 0 && okn != 1) || (okv != 0 && okv != 1)) finding("check_header_name/value: not a boolean", okn, okv);
  }
}

/* A body for a request/response: u8 spec (0 = none; bits 0-5 length in 64-byte units, bit 6 block
 * once, bit 7 no END_STREAM at EOF, trailers expected), u8 chunk (16-byte units; its bits 0-5 are
 * also added to the length). Always consumed, whether or not the submission happens. */
static const nghttp3_data_reader reader = {cb_read_data};
static body take_body(h *H) {
  uint8_t spec = wl_fdp_u8(&H->fdp);
  uint8_t chunk = spec ? wl_fdp_u8(&H->fdp) : 0;
  body b = {0};
  if (!spec) return b;
  b = (body){.left = (uint16_t)((spec & 63) * 64 + (chunk & 63)), .chunk = chunk, .flags = (uint8_t)(spec >> 6), .used = 1};
  return b; /* left 0: the first read_data call gives EOF and no data */
}
static const nghttp3_data_reader *install_body(side *s, int64_t id, body b) {
  if (!b.used) return NULL;
  s->bodies[id / 4] = b;
  return &reader;
}

/* ---- the QUIC layer ---- */
static int peer_may_send(const side *s, int64_t id) {
  if (id < 0 || id >= MAXID) return 0;
  if (s->st[id] & (ST_RFIN | ST_CLOSED)) return 0;
  if (s->server) return (id & 3) == 0 || (id & 3) == 2;
  return (id & 3) == 3 || ((id & 3) == 0 && (s->st[id] & ST_OPENED));
}
static int local_writable(const side *s, int64_t id) {
  if (s->server) return (id & 3) == 0 || (id & 3) == 3;
  return (id & 3) == 0 || (id & 3) == 2;
}

typedef struct { int rv; int op; } outcome;

static int fatal_read(int64_t rv) { return rv < 0; } /* any error from read_stream closes the connection */

/* Feeds n bytes of stream id to side s in chunks (0 = whole; the byte-wise run uses 1). */
static int feed(h *H, side *s, int64_t id, const uint8_t *d, size_t n, int fin, size_t chunk) {
  static const uint8_t none[1] = {0};
  if (!peer_may_send(s, id)) return 0;
#ifdef WL_TRACE
  fprintf(stderr, "  feed %s stream %lld: %zu bytes%s:", s->server ? "server" : "client", (long long)id, n, fin ? " fin" : "");
  for (size_t i = 0; i < n && i < 24; i++) fprintf(stderr, " %02x", d[i]);
  fprintf(stderr, "\n");
#endif
  if (H->bytewise) chunk = 1;
  if (chunk == 0) chunk = n ? n : 1;
  size_t off = 0;
  do {
    size_t k = n - off < chunk ? n - off : chunk;
    int last = off + k == n;
    nghttp3_ssize r = H->ts == UINT64_MAX
                        ? nghttp3_conn_read_stream(s->conn, id, k ? d + off : none, k, fin && last)
                        : nghttp3_conn_read_stream2(s->conn, id, k ? d + off : none, k, fin && last, H->ts);
    if (fatal_read(r)) return (int)r;
    if ((size_t)r > k) finding("read_stream consumed more than given", r, (long long)k);
    off += k;
  } while (off < n);
  if (fin) s->st[id] |= ST_RFIN;
  return 0;
}

/* QPACK encoder-stream bytes a side wrote but the harness holds back (QUIC may deliver the request
 * streams first: the peer's sections block, RFC 9204 2.1.2), handed over by flush_held(). */
static int local_qenc(const side *s, int64_t id) { return id == (s->server ? 7 : 6); }

static int flush_held(h *H, side *s) {
  side *peer = &H->sides[s->server ? 0 : 1];
  size_t n = s->nheld;
  s->nheld = 0;
  if (!n || !peer->conn || peer->dead) return 0;
  int rv = feed(H, peer, s->server ? 7 : 6, s->held, n, 0, 0);
  if (rv) peer->dead = 1;
  return rv;
}

/* Hands the first `wrote` bytes of vec to the peer (or holds encoder-stream bytes back). */
static int forward(h *H, side *s, int64_t sid, const nghttp3_vec *vec, size_t n, size_t wrote, int fin, size_t chunk, int hold) {
  side *peer = &H->sides[s->server ? 0 : 1];
  if (!peer->conn || peer->dead) return 0;
  int rv;
  if (local_qenc(s, sid) && hold) {
    size_t done = 0;
    for (size_t i = 0; i < n && done < wrote; i++) {
      size_t k = vec[i].len < wrote - done ? vec[i].len : wrote - done;
      if (s->nheld + k > sizeof s->held && (rv = flush_held(H, s)) != 0) return rv;
      if (k > sizeof s->held) { rv = feed(H, peer, sid, vec[i].base, k, 0, chunk); if (rv) { peer->dead = 1; return rv; } }
      else { memcpy(s->held + s->nheld, vec[i].base, k); s->nheld += k; }
      done += k;
    }
    return 0;
  }
  if (local_qenc(s, sid) && (rv = flush_held(H, s)) != 0) return rv; /* keep the stream's order */
  uint8_t buf[4096];
  size_t off = 0;
  for (size_t i = 0; i < n && off < wrote && off < sizeof buf; i++) {
    size_t k = vec[i].len < wrote - off ? vec[i].len : wrote - off;
    if (k > sizeof buf - off) k = sizeof buf - off;
    memcpy(buf + off, vec[i].base, k);
    off += k;
  }
  if (off == wrote) {
    if (!off && !fin) return 0;
    rv = feed(H, peer, sid, buf, off, fin, chunk);
  } else { /* too long for buf: vector by vector */
    size_t done = 0;
    rv = 0;
    for (size_t i = 0; i < n && done < wrote && rv == 0; i++) {
      size_t k = vec[i].len < wrote - done ? vec[i].len : wrote - done;
      rv = feed(H, peer, sid, vec[i].base, k, fin && done + k == wrote, chunk);
      done += k;
    }
  }
  if (rv) peer->dead = 1;
  return rv;
}

/* Write out what side s has (at most rounds writev calls, each write cut to at most cap bytes when
 * cap != 0), forward it to the other side when it exists (hold: keep QPACK encoder-stream bytes back),
 * acknowledge it now or leave it unacked. */
static int drain(h *H, side *s, int rounds, size_t cap, int ack_now, size_t fwd_chunk, int hold) {
  for (int round = 0; round < rounds; round++) {
    int64_t sid = -1;
    int fin = 0;
    nghttp3_vec vec[16];
    nghttp3_ssize n = nghttp3_conn_writev_stream(s->conn, &sid, &fin, vec, 16);
    if (n < 0) {
      if (n != NGHTTP3_ERR_NOMEM && n != NGHTTP3_ERR_CALLBACK_FAILURE && n != NGHTTP3_ERR_STREAM_DATA_OVERFLOW)
        finding("writev_stream: undocumented error", n, 0);
      return (int)n;
    }
    if (sid == -1) return 0;
    if (n > 16) finding("writev_stream: more vectors than given", n, 16);
    if (sid < 0 || sid >= MAXID || !local_writable(s, sid)) finding("writev_stream: stream the side may not write", sid, s->server);
    if (fin && (sid & 3) != 0) finding("writev_stream: FIN on a critical unidirectional stream", sid, 0);
    size_t len = 0;
    for (nghttp3_ssize i = 0; i < n; i++) len += vec[i].len;
    if (len > 1u << 20) finding("writev_stream: absurd length", (long long)len, sid);
    size_t wrote = cap && len > cap ? cap : len;
    if (wrote < len) fin = 0;
    int rv = nghttp3_conn_add_write_offset(s->conn, sid, wrote);
    if (rv != 0) return rv;
    rv = forward(H, s, sid, vec, (size_t)n, wrote, fin, fwd_chunk, hold);
    if (rv != 0) return rv;
    /* acknowledged only now: an acknowledgment frees what the vectors point to */
    if (ack_now) rv = nghttp3_conn_add_ack_offset(s->conn, sid, wrote + s->unacked[sid]), s->unacked[sid] = 0;
    else s->unacked[sid] += wrote;
    if (rv != 0) return rv;
    if (wrote == 0 && !fin) return 0;
  }
  return 0;
}

static int ack_all(side *s, int half) {
  for (int64_t id = 0; id < MAXID; id++) {
    if (!s->unacked[id]) continue;
    uint64_t n = half ? (s->unacked[id] + 1) / 2 : s->unacked[id];
    int rv = nghttp3_conn_add_ack_offset(s->conn, id, n);
    s->unacked[id] -= n;
    if (rv) return rv;
  }
  return 0;
}

/* a stream id from a selector: bits 0-5 index, bits 6-7 kind (0 bidi, 1 client uni, 2 server uni, 3 bidi) */
static int64_t pick_stream(uint8_t sel) {
  int64_t idx = sel & 63;
  switch (sel >> 6) {
  case 1: return idx * 4 + 2;
  case 2: return idx * 4 + 3;
  default: return idx * 4;
  }
}

static int legal(int rv, const int *ok) {
  if (rv == 0) return 1;
  for (; *ok; ok++) if (rv == *ok) return 1;
  return 0;
}
#define CHECK(call, rv, ...) do { static const int ok_[] = {__VA_ARGS__, 0}; \
    if (!legal(rv, ok_)) finding(call ": undocumented error", rv, 0); } while (0)

/* One op. Returns 0 to go on, or the error that closes the connection. */
static int run_op(h *H) {
  wl_fdp *f = &H->fdp;
  uint8_t op = wl_fdp_u8(f);
  side *s = &H->sides[op >> 4 & 1];
  if (!s->conn) s = &H->sides[s->server ? 0 : 1];
  if (!s->conn || s->dead) s = &H->sides[s->server ? 0 : 1];
  if (!s->conn || s->dead) return -1;
  int arg = op >> 5;
  int rv = 0;
  switch (op & 15) {
  case 0: case 1: { /* peer bytes: stream selector, length, flags (bit 0 FIN, bits 1-7 chunk size) */
    uint8_t sel = wl_fdp_u8(f);
    int64_t id = sel & 0x80 ? (sel & 63) * 4 + (s->server ? 2 : 3) : (sel & 63) * 4;
    size_t want = wl_fdp_len(f), got;
    uint8_t fl = wl_fdp_u8(f);
    const uint8_t *d = wl_fdp_bytes(f, want, &got);
    if (arg) H->ts = (H->ts == UINT64_MAX ? 0 : H->ts) + (uint64_t)(arg - 1) * 250000000ull;
    rv = feed(H, s, id, d, got, fl & 1, fl >> 1);
    break;
  }
  case 2: { /* drain: u8 flags (bit 0 leave unacked, bits 1-2 cap 0/7/64/300, bits 3-6 forward chunk,
             * bit 7 hold QPACK encoder-stream bytes back) */
    uint8_t fl = wl_fdp_u8(f);
    static const size_t caps[4] = {0, 7, 64, 300};
    rv = drain(H, s, arg ? arg * 8 : 256, caps[fl >> 1 & 3], !(fl & 1), fl >> 3 & 15, fl >> 7);
    break;
  }
  case 3: { /* acknowledge what was written (arg bit 0: only half), arg bit 1: hand held encoder bytes over */
    rv = ack_all(s, arg & 1);
    CHECK("add_ack_offset", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_CALLBACK_FAILURE);
    if (rv == 0 && (arg & 2)) rv = flush_held(H, s);
    break;
  }
  case 4: { /* client: submit request (u8 header selector, body) */
    uint8_t sel = wl_fdp_u8(f);
    nvbuf nv;
    build_nv(H, &nv, &requests[sel & 7], sel);
    body b = take_body(H);
    if (s->server) break;
    int64_t id = s->next_bidi;
    if ((arg & 1) && id >= 4 && !(s->st[id - 4] & ST_CLOSED)) id -= 4; /* still open: STREAM_IN_USE */
    if (id >= MAXID) break;
    const nghttp3_data_reader *dr = install_body(s, id, b);
    rv = nghttp3_conn_submit_request(s->conn, id, nv.nv, nv.n, dr, NULL);
    CHECK("submit_request", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_CONN_CLOSING, NGHTTP3_ERR_STREAM_IN_USE);
    if (rv == 0 && id != s->next_bidi) finding("submit_request accepted a stream id in use", id, 0);
    if (rv == 0) { s->st[id] |= ST_OPENED; s->next_bidi += 4; }
    else if (rv == NGHTTP3_ERR_CONN_CLOSING || rv == NGHTTP3_ERR_STREAM_IN_USE) rv = 0;
    break;
  }
  case 5: { /* server: response / info (arg bit 0) on a stream, u8 header selector, body */
    uint8_t sid = wl_fdp_u8(f), sel = wl_fdp_u8(f);
    int64_t id = pick_stream(sid);
    nvbuf nv;
    build_nv(H, &nv, arg & 1 ? &infos[sel & 1] : &responses[sel & 7], sel);
    body b = arg & 1 ? (body){0} : take_body(H);
    if (!s->server || (s->st[id] & (ST_RESPONDED | ST_CLOSED)) || (id & 3)) break;
    if (arg & 1) {
      rv = nghttp3_conn_submit_info(s->conn, id, nv.nv, nv.n);
      CHECK("submit_info", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_STREAM_NOT_FOUND);
    } else {
      const nghttp3_data_reader *dr = install_body(s, id, b);
      rv = nghttp3_conn_submit_response(s->conn, id, nv.nv, nv.n, dr);
      CHECK("submit_response", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_STREAM_NOT_FOUND);
      if (rv == 0) s->st[id] |= ST_RESPONDED;
    }
    if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND) rv = 0;
    break;
  }
  case 6: { /* trailers on a stream (u8 stream, u8 selector) */
    uint8_t sid = wl_fdp_u8(f), sel = wl_fdp_u8(f);
    int64_t id = pick_stream(sid);
    nvbuf nv;
    build_nv(H, &nv, &trailers[sel & 1], sel);
    if ((id & 3) || (s->st[id] & (ST_CLOSED | ST_TRAILERS))) break;
    if (s->server ? !(s->st[id] & ST_RESPONDED) : !(s->st[id] & ST_OPENED)) break;
    rv = nghttp3_conn_submit_trailers(s->conn, id, nv.nv, nv.n);
    CHECK("submit_trailers", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_STREAM_NOT_FOUND, NGHTTP3_ERR_INVALID_STATE);
    if (rv == 0) s->st[id] |= ST_TRAILERS;
    if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND || rv == NGHTTP3_ERR_INVALID_STATE) rv = 0;
    break;
  }
  case 7: { /* priority: client a PRIORITY_UPDATE field value from the input, server urgency (arg) and
             * incremental (selector bit 6); selector bit 7: a non-request stream */
    uint8_t sid = wl_fdp_u8(f);
    int64_t id = (sid & 63) * 4 + (sid & 0x80 ? 2 : 0);
    if (!s->server) {
      size_t got;
      const uint8_t *d = wl_fdp_bytes(f, wl_fdp_u8(f) & 31, &got);
      nghttp3_pri parsed = {.urgency = NGHTTP3_DEFAULT_URGENCY, .inc = 0};
      int pr = nghttp3_pri_parse_priority(&parsed, d, got);
      CHECK("pri_parse_priority", pr, NGHTTP3_ERR_INVALID_ARGUMENT);
      if (pr == 0 && (parsed.urgency >= NGHTTP3_URGENCY_LEVELS || parsed.inc > 1)) finding("parsed priority out of range", parsed.urgency, parsed.inc);
      rv = nghttp3_conn_set_client_stream_priority(s->conn, id, d, got);
      CHECK("set_client_stream_priority", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_STREAM_NOT_FOUND, NGHTTP3_ERR_INVALID_ARGUMENT);
    } else {
      nghttp3_pri pri = {.urgency = (uint32_t)(arg & 7), .inc = (uint8_t)(sid >> 6 & 1)};
      if (pri.urgency >= NGHTTP3_URGENCY_LEVELS) pri.urgency = 0;
      rv = nghttp3_conn_set_server_stream_priority(s->conn, id, &pri);
      CHECK("set_server_stream_priority", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_STREAM_NOT_FOUND, NGHTTP3_ERR_INVALID_ARGUMENT);
      nghttp3_pri got;
      int r2 = nghttp3_conn_get_stream_priority(s->conn, &got, id);
      CHECK("get_stream_priority", r2, NGHTTP3_ERR_STREAM_NOT_FOUND, NGHTTP3_ERR_INVALID_ARGUMENT);
      if (r2 == 0 && rv == 0 && (got.urgency != pri.urgency || got.inc != pri.inc)) finding("server priority not kept", got.urgency, pri.urgency);
      if (r2 == 0 && (got.urgency >= NGHTTP3_URGENCY_LEVELS || got.inc > 1)) finding("stream priority out of range", got.urgency, got.inc);
    }
    if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND || rv == NGHTTP3_ERR_INVALID_ARGUMENT) rv = 0;
    break;
  }
  case 8: { /* GOAWAY: arg bit 0 shutdown (once), else shutdown notice (only before shutdown) */
    if (arg & 1) {
      if (s->shutdown_done) break;
      rv = nghttp3_conn_shutdown(s->conn);
      CHECK("shutdown", rv, NGHTTP3_ERR_NOMEM);
      s->shutdown_done = 1;
    } else {
      if (s->shutdown_done) break;
      rv = nghttp3_conn_submit_shutdown_notice(s->conn);
      CHECK("submit_shutdown_notice", rv, NGHTTP3_ERR_NOMEM);
    }
    break;
  }
  case 9: { /* close a stream (QUIC says it is closed both ways), u8 stream, u8 error code */
    int64_t id = pick_stream(wl_fdp_u8(f));
    uint64_t code = 0x100 + wl_fdp_u8(f);
    if (s->st[id] & ST_CLOSED) break;
    rv = nghttp3_conn_close_stream(s->conn, id, code);
    /* NOMEM and QPACK_FATAL (the Stream Cancellation for a blocked stream overflows the decoder
     * stream) are not in close_stream's documentation but come from the same decoder call that
     * shutdown_stream_read documents them for: legal, not a finding. */
    CHECK("close_stream", rv, NGHTTP3_ERR_STREAM_NOT_FOUND, NGHTTP3_ERR_H3_CLOSED_CRITICAL_STREAM, NGHTTP3_ERR_CALLBACK_FAILURE,
          NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_QPACK_FATAL);
    if (rv == 0) { s->st[id] |= ST_CLOSED; s->unacked[id] = 0; }
    if (rv == NGHTTP3_ERR_STREAM_NOT_FOUND) { s->st[id] |= ST_CLOSED; rv = 0; }
    break;
  }
  case 10: { /* shutdown_stream_read: we sent STOP_SENDING (data in flight may still arrive) or, arg bit
              * 1, the peer reset the stream (nothing more arrives); arg bit 0: also our write side */
    int64_t id = pick_stream(wl_fdp_u8(f));
    rv = nghttp3_conn_shutdown_stream_read(s->conn, id);
    CHECK("shutdown_stream_read", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_QPACK_FATAL);
    if (rv == 0 && (id & 3) == 0 && (arg & 2)) s->st[id] |= ST_RFIN;
    if (arg & 1) nghttp3_conn_shutdown_stream_write(s->conn, id);
    break;
  }
  case 11: { /* STOP_SENDING from the peer: shutdown_stream_write */
    int64_t id = pick_stream(wl_fdp_u8(f));
    if ((id & 3) == 0) nghttp3_conn_shutdown_stream_write(s->conn, id);
    break;
  }
  case 12: { /* flow control: arg 0-2 block, 3-5 unblock, 6-7 resume */
    int64_t id = pick_stream(wl_fdp_u8(f));
    if (arg < 3) nghttp3_conn_block_stream(s->conn, id);
    else if (arg < 6) { rv = nghttp3_conn_unblock_stream(s->conn, id); CHECK("unblock_stream", rv, NGHTTP3_ERR_NOMEM); }
    else { rv = nghttp3_conn_resume_stream(s->conn, id); CHECK("resume_stream", rv, NGHTTP3_ERR_NOMEM); }
    (void)nghttp3_conn_is_stream_writable(s->conn, id);
    break;
  }
  case 13: { /* queries and knobs */
    int64_t id = pick_stream(wl_fdp_u8(f));
    int64_t wsid = 7;
    int wfin = 7;
    nghttp3_ssize wn = nghttp3_conn_writev_stream(s->conn, &wsid, &wfin, NULL, 0);
    if (wn != 0 || wsid != -1 || wfin != 0) finding("writev_stream with no vector wrote", wn, wsid);
    if (nghttp3_conn_bind_control_stream(s->conn, s->server ? 15 : 14) != NGHTTP3_ERR_INVALID_STATE) finding("control stream bound twice", id, 0);
    if (nghttp3_conn_bind_qpack_streams(s->conn, s->server ? 19 : 18, s->server ? 23 : 22) != NGHTTP3_ERR_INVALID_STATE) finding("QPACK streams bound twice", id, 0);
    rv = nghttp3_conn_add_write_offset(s->conn, id, 0);
    if (rv == 0) rv = nghttp3_conn_add_ack_offset(s->conn, id, 0);
    CHECK("add_write_offset/add_ack_offset 0", rv, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_CALLBACK_FAILURE);
    if (rv) break;
    uint64_t left = nghttp3_conn_get_frame_payload_left(s->conn, id);
    if (left > (1ull << 62)) finding("frame payload left beyond a varint", (long long)left, id);
    if (s->server) (void)nghttp3_conn_is_drained(s->conn);
    if (arg & 1) nghttp3_conn_set_max_concurrent_streams(s->conn, (size_t)(arg * 2));
    if (arg & 2) { rv = nghttp3_conn_set_stream_user_data(s->conn, id, H); CHECK("set_stream_user_data", rv, NGHTTP3_ERR_STREAM_NOT_FOUND); rv = 0; }
    if ((arg & 4) && s->unacked[id]) {
      /* update_ack_offset to an offset behind the acknowledged one is INVALID_ARGUMENT */
      rv = nghttp3_conn_update_ack_offset(s->conn, id, 0);
      CHECK("update_ack_offset", rv, NGHTTP3_ERR_INVALID_ARGUMENT, NGHTTP3_ERR_NOMEM, NGHTTP3_ERR_CALLBACK_FAILURE);
      if (rv == NGHTTP3_ERR_INVALID_ARGUMENT) rv = 0;
    }
    break;
  }
  default: /* 14, 15: drain both sides and acknowledge (a round trip); 15 first hands held bytes over */
    if ((op & 15) == 15) {
      rv = flush_held(H, &H->sides[0]);
      if (rv == 0) rv = flush_held(H, &H->sides[1]);
      if (rv != 0) break;
    }
    rv = drain(H, s, 256, 0, 1, 0, 0);
    if (rv == 0) {
      side *o = &H->sides[s->server ? 0 : 1];
      if (o->conn && !o->dead) rv = drain(H, o, 256, 0, 1, 0, 0);
    }
    break;
  }
  return rv;
}

static int cb_recv_settings_v1(nghttp3_conn *c, const nghttp3_settings *s, void *ud) { (void)c; (void)s; return maybe_fail(ud); }

static int setup_side(h *H, side *s, const nghttp3_callbacks *cb_full, const nghttp3_mem *mem, int origin, const uint8_t *ob, size_t ol) {
  wl_fdp *f = &H->fdp;
  nghttp3_settings st;
  nghttp3_settings_default(&st);
  uint8_t fl = wl_fdp_u8(f);
  nghttp3_callbacks cbs = *cb_full;
  if (fl & 16) { cbs.recv_settings2 = NULL; cbs.recv_settings = cb_recv_settings_v1; } /* the deprecated one */
  if (fl & 32) cbs = (nghttp3_callbacks){0}; /* no callbacks at all: nghttp3 must cope */
  const nghttp3_callbacks *cb = &cbs;
  st.enable_connect_protocol = fl & 1;
  st.h3_datagram = fl >> 1 & 1;
  st.qpack_indexing_strat = fl & 4 ? NGHTTP3_QPACK_INDEXING_STRAT_EAGER : NGHTTP3_QPACK_INDEXING_STRAT_NONE;
  if (fl & 8) { st.glitch_ratelim_burst = 8; st.glitch_ratelim_rate = 4; }
  st.qpack_max_dtable_capacity = wl_fdp_u16(f);
  st.qpack_blocked_streams = wl_fdp_u8(f);
  st.qpack_encoder_max_dtable_capacity = wl_fdp_u16(f);
  uint16_t mfs = wl_fdp_u16(f);
  if (mfs) st.max_field_section_size = mfs;
  nghttp3_vec ov = {(uint8_t *)ob, ol};
  if (s->server && origin) st.origin_list = &ov;
  int rv = s->server ? nghttp3_conn_server_new(&s->conn, cb, &st, mem, H) : nghttp3_conn_client_new(&s->conn, cb, &st, mem, H);
  if (rv != 0) { s->conn = NULL; return rv; }
  if (s->server) {
    uint8_t m = wl_fdp_u8(f);
    nghttp3_conn_set_max_client_streams_bidi(s->conn, m ? m : 100);
    rv = nghttp3_conn_bind_control_stream(s->conn, 3);
    if (rv == 0) rv = nghttp3_conn_bind_qpack_streams(s->conn, 7, 11);
  } else {
    rv = nghttp3_conn_bind_control_stream(s->conn, 2);
    if (rv == 0) rv = nghttp3_conn_bind_qpack_streams(s->conn, 6, 10);
  }
  return rv;
}

static outcome run(const uint8_t *data, size_t size, int bytewise, int *comparable) {
  outcome out = {0, -1};
  h *H = calloc(1, sizeof *H);
  wl_fdp_init(&H->fdp, data, size);
  H->bytewise = bytewise;
  H->ts = UINT64_MAX;
  H->sides[0].server = 0;
  H->sides[1].server = 1;
  uint8_t mode = wl_fdp_u8(&H->fdp);
  H->inject_cb = mode >> 2 & 1;
  H->inject_mem = mode >> 3 & 1;
  *comparable = !H->inject_cb && !H->inject_mem;
  size_t ol = 0;
  const uint8_t *ob = NULL;
  if (mode & 16) ob = wl_fdp_bytes(&H->fdp, wl_fdp_u8(&H->fdp), &ol);
  nghttp3_mem mem = H->inject_mem ? wl_failmem_init_fn(&H->fm, back_bit, H) : *nghttp3_mem_default();
  const nghttp3_mem *memp = H->inject_mem ? &mem : NULL; /* NULL: nghttp3's default allocator */
  if (!H->inject_mem) H->fm.failures = 0;
  nghttp3_callbacks cb = {
    .acked_stream_data = cb_acked, .stream_close = cb_stream_close, .recv_data = cb_recv_data,
    .deferred_consume = cb_deferred, .begin_headers = cb_begin_headers, .recv_header = cb_recv_header,
    .end_headers = cb_end_headers, .begin_trailers = cb_begin_headers, .recv_trailer = cb_recv_header,
    .end_trailers = cb_end_headers, .stop_sending = cb_stop_sending, .end_stream = cb_end_stream,
    .reset_stream = cb_reset_stream, .shutdown = cb_shutdown, .recv_origin = cb_recv_origin,
    .end_origin = cb_end_origin, .rand = cb_rand, .recv_settings2 = cb_recv_settings,
  };
  int sides = mode & 3;
  int rv = 0;
  for (int i = 0; i < 2 && rv == 0; i++) {
    side *s = &H->sides[i];
    s->h = H;
    if (sides == 1 + !i) continue; /* 1: client only, 2: server only */
    rv = setup_side(H, s, &cb, memp, mode & 16, ob, ol);
    if (s->server && s->conn && (mode & 32)) nghttp3_conn_set_max_concurrent_streams(s->conn, 4);
  }
  if (rv != 0) { out.rv = rv; out.op = 0; goto done; }
  for (int i = 0; rv == 0 && wl_fdp_left(&H->fdp) > 0; i++) {
    rv = run_op(H);
#ifdef WL_TRACE
    fprintf(stderr, "op %d -> %d (%d left)\n", i, rv, (int)wl_fdp_left(&H->fdp));
#endif
    if (rv == -1) { rv = 0; break; }
    if (rv != 0) out.op = i;
  }
  out.rv = rv;
done:
  if (rv == NGHTTP3_ERR_NOMEM && H->fm.failures == 0) finding("NOMEM without an allocation failure", rv, out.op);
  if (rv == NGHTTP3_ERR_CALLBACK_FAILURE && H->cb_failures == 0) finding("CALLBACK_FAILURE without a failing callback", rv, out.op);
  for (int i = 0; i < 2; i++) nghttp3_conn_del(H->sides[i].conn);
  free(H);
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int cmp;
  outcome whole = run(data, size, 0, &cmp);
  outcome bytes = run(data, size, 1, &cmp);
  /* Tolerated: one feed fails with QPACK_DECOMPRESSION_FAILED. A blocked section is decoded as soon
   * as its Required Insert Count is reached; if the peer's encoder stream then evicts an entry that
   * section references (reducing the capacity or inserting; RFC 9204 2.1.1 and 4.3.1 forbid the
   * encoder to), the byte-wise feed decodes the section before the eviction and the chunked feed
   * after it, which RFC 9204 2.2.3 makes a connection error. Both are correct decoders. */
  int qpack_timing = whole.rv == NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED || bytes.rv == NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED;
  if (cmp && !qpack_timing && ((whole.rv == 0) != (bytes.rv == 0) || whole.op != bytes.op)) {
    fprintf(stderr, "chunked feed: rv %d (%s) at op %d; byte feed: rv %d (%s) at op %d\n", whole.rv,
            nghttp3_strerror(whole.rv), whole.op, bytes.rv, nghttp3_strerror(bytes.rv), bytes.op);
    finding("chunked and byte-at-a-time feeds disagree", whole.rv, bytes.rv);
  }
  return 0;
}
