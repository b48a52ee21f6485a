/* ngtcp2-pkt-frame — ngtcp2's QUIC packet-header, frame and transport-parameter decoders (issue #16),
 * compiled from the pinned Debian source package (every C file of its lib/; the internal API of
 * lib/ngtcp2_pkt.h). The decoders need no crypto backend: the harness works on unprotected packets,
 * the form RFC 9001 §5.4 header protection and §5.3 packet protection leave once removed (RFC 9001
 * Appendix A's "unprotected" packets), which is where ngtcp2_conn calls these functions.
 *
 * Input (fuzz/common/fdp.h: consumed where it is used): a sequence of ops until the input ends, each a
 * u8 op (bits 0-2 kind, bits 3-7 an argument) and its operands; a length is wl_fdp_len (one byte, 255 =
 * a u16 follows):
 *   0 frames     len + bytes: a packet payload, decoded frame by frame as ngtcp2_conn does
 *                (ngtcp2_pkt_decode_frame until the payload ends or a frame fails)
 *   1 long       len + bytes: a long-header packet (ngtcp2_pkt_decode_version_cid with short_dcidlen =
 *                arg % 21, ngtcp2_pkt_decode_hd_long), then its payload: Version Negotiation versions,
 *                the Retry token and tag, or for Initial/0-RTT/Handshake the packet number (length from
 *                the first byte's low bits) and Length-bounded frames
 *   2 short      len + bytes: a short-header packet with a DCID of arg % 21 bytes (version_cid,
 *                ngtcp2_pkt_decode_hd_short, ngtcp2_pkt_decode_stateless_reset), its frames after the
 *                packet number
 *   3 tparams    len + bytes: ngtcp2_transport_params_decode (the versioned public API), and
 *                ngtcp2_transport_params_decode_new / _del
 *   4 pktnum     u8 packet number length, 8 bytes largest received, 4 bytes truncated packet number:
 *                ngtcp2_pkt_adjust_pkt_num against RFC 9000 Appendix A.3's DecodePacketNumber
 *   5 prefixes   len + bytes: the first frame, then every shorter prefix of it must be rejected (unless
 *                the frame extends to the end of the packet: STREAM without Length, DATAGRAM 0x30,
 *                PADDING)
 *
 * Invariants (abort = finding; each names the RFC 9000 section it stands for):
 *   - a decoder consumes at least one and at most the given bytes, fails only with its documented error
 *     (frames: FRAME_ENCODING; headers: INVALID_ARGUMENT / VERSION_NEGOTIATION; transport parameters:
 *     MALFORMED_TRANSPORT_PARAM), and every pointer it returns (stream / crypto / datagram data, reason
 *     phrase, token, CIDs, available versions) lies inside what it consumed;
 *   - decoded values are in range: varints < 2^62, stream ids >= 0, CIDs <= 20 bytes (§17.2), ACK range
 *     count <= 32 (ngtcp2's NGTCP2_MAX_ACK_RANGES), a PADDING run is zeros, the long packet type matches
 *     §17.2 Table 5 (v1) / RFC 9369 §3.2 (v2), the frame type matches the first byte (§12.4);
 *   - round trips: a decoded frame re-encoded with ngtcp2_pkt_encode_frame into a buffer of exactly the
 *     size it may need decodes back to the same values, consuming exactly what was written; the same for
 *     long and short headers (ngtcp2_pkt_encode_hd_long / _short) and transport parameters
 *     (ngtcp2_transport_params_encode, whose size query must match what it writes);
 *   - references written here from the RFC text: ACK frames are parsed again by the harness (all ranges,
 *     not only the 32 ngtcp2 keeps) and ngtcp2_pkt_validate_ack must agree with §19.3.1's rule that no
 *     acknowledged packet number is negative; transport parameters are walked as §18's
 *     (id, length, value) sequence: ngtcp2 must reject a malformed sequence, and every integer
 *     parameter it keeps must equal the last occurrence's value (§18.2 units: max_idle_timeout and
 *     max_ack_delay in milliseconds); packet numbers against RFC 9000 A.3;
 *   - hd_long succeeding implies version_cid succeeding on the same bytes with the same version and CIDs;
 *   - qlog, written as ngtcp2_conn writes it (packet_received with every frame of a packet; parameters_set
 *     for the peer's transport parameters) into a buffer of NGTCP2_QLOG_BUFLEN: each record is one JSON
 *     value between RS and LF (RFC 7464), and ASan watches qlog's stack buffers (CVE-2026-40170: the
 *     parameters_set buffer overflowed; corpus/regress-cve-2026-40170-qlog-tparams-max crashes an
 *     unpatched 1.11.0).
 * Known findings (fuzz/README.md, reproducers in findings/) are tolerated so that campaigns move on;
 * WL_NGTCP2_STRICT=1 in the environment turns each into an abort:
 *   K1 max_idle_timeout wraps: a value > UINT64_MAX / 10^6 ms is multiplied into nanoseconds without an
 *      overflow check (fixed upstream in v1.23.0, commit 70d26ba3);
 *   K2 ACK ranges beyond the 32nd are skipped, never validated: an ACK whose 33rd range acknowledges
 *      negative packet numbers passes ngtcp2_pkt_validate_ack (§19.3.1 says FRAME_ENCODING_ERROR);
 *   K3 a transport parameter id given twice is accepted, the last value wins (§7.4: an endpoint SHOULD
 *      treat it as TRANSPORT_PARAMETER_ERROR; a SHOULD, so only an observation).
 * Harness rules that are ngtcp2's API contract, not findings: a NEW_TOKEN with an empty token is not
 * re-encoded (the encoder asserts a token; ngtcp2_conn rejects the frame, §19.7); active_connection_id_limit
 * 0 or 1 reads back as the default 2 (the encoder writes only non-default values; ngtcp2_conn rejects < 2,
 * §18.2); an ACK is written to qlog only when ngtcp2_pkt_validate_ack accepts it (ngtcp2_conn closes
 * the connection first; qlog's ACK writer would overflow int64_t on unvalidated ranges);
 * ngtcp2_pkt_adjust_pkt_num is not called where A.3 declines to add the window because the result
 * would pass 2^62 (ngtcp2 asserts there instead; unreachable before 2^62 packets). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ngtcp2/ngtcp2.h>
#include "ngtcp2_pkt.h"
#include "ngtcp2_cid.h"
#include "ngtcp2_transport_params.h"
#include "ngtcp2_qlog.h"
#include "ngtcp2_buf.h"
#include "../common/fdp.h"

#define MAX_VARINT ((1ULL << 62) - 1)

static int strict = -1;
static int is_strict(void) {
  if (strict < 0) {
    const char *s = getenv("WL_NGTCP2_STRICT");
    strict = s && *s == '1';
  }
  return strict;
}

/* WL_NGTCP2_SELFTEST=roundtrip|qlog (fuzz/test.sh): corrupt what the harness checks (the last byte of
 * every re-encoded frame, every qlog record's closing brace) to prove that check reports. */
static int selftest = -1; /* 0 none, 1 roundtrip, 2 qlog */
static int self_test(void) {
  if (selftest < 0) {
    const char *s = getenv("WL_NGTCP2_SELFTEST");
    selftest = !s ? 0 : strcmp(s, "roundtrip") == 0 ? 1 : strcmp(s, "qlog") == 0 ? 2 : 0;
  }
  return selftest;
}

static void finding(const char *what, long long a, long long b) {
  fprintf(stderr, "ngtcp2-pkt-frame: invariant violated: %s (%lld, %lld)\n", what, a, b);
  abort();
}
/* One abort function per known finding, so each has its own stack signature. */
__attribute__((noinline)) static void known_k1_max_idle_timeout_wraps(uint64_t ms, uint64_t got) {
  fprintf(stderr, "ngtcp2-pkt-frame: K1: max_idle_timeout %llu ms decoded as %llu ns (wrapped)\n",
          (unsigned long long)ms, (unsigned long long)got);
  abort();
}
__attribute__((noinline)) static void known_k2_ack_ranges_unvalidated(size_t rangecnt, size_t bad) {
  fprintf(stderr, "ngtcp2-pkt-frame: K2: ACK with %zu ranges: range %zu acknowledges a negative packet "
          "number, ngtcp2_pkt_validate_ack accepts it (only 32 ranges are decoded)\n", rangecnt, bad);
  abort();
}

__attribute__((noinline)) static void known_k3_duplicate_transport_parameter(size_t len) {
  fprintf(stderr, "ngtcp2-pkt-frame: K3: transport parameters (%zu bytes) with an id given twice were accepted "
          "(RFC 9000 §7.4: SHOULD be a TRANSPORT_PARAMETER_ERROR)\n", len);
  abort();
}

/* Exact-size heap copies so ASan sees every read past the end. */
static uint8_t *dup_exact(const uint8_t *p, size_t n) {
  uint8_t *d = malloc(n ? n : 1);
  if (n) memcpy(d, p, n);
  return d;
}

static int inside(const void *ptr, size_t len, const uint8_t *base, size_t n) {
  const uint8_t *q = ptr;
  if (len == 0) return 1;
  return q >= base && q <= base + n && len <= (size_t)(base + n - q);
}

/* --- qlog (RFC 7464 JSON text sequences), as ngtcp2_conn writes it for every received packet and
 * for the peer's transport parameters: each record must be one JSON value between RS and LF. --- */
static ngtcp2_qlog qlog;
static uint8_t *qlog_mem;
static size_t qlog_records;

static const char *js_ws(const char *p, const char *e) { while (p < e && (*p == ' ' || *p == '\t')) p++; return p; }
static const char *js_value(const char *p, const char *e, int depth);
static const char *js_string(const char *p, const char *e) {
  if (p >= e || *p != '"') return NULL;
  for (p++; p < e; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"') return p + 1;
    if (c < 0x20 || c >= 0x7f) return NULL;
    if (c == '\\') { if (++p >= e || !strchr("\"\\/bfnrtu", *p)) return NULL; }
  }
  return NULL;
}
static const char *js_value(const char *p, const char *e, int depth) {
  p = js_ws(p, e);
  if (p >= e || depth > 32) return NULL;
  if (*p == '"') return js_string(p, e);
  if (*p == '{' || *p == '[') {
    char close = *p == '{' ? '}' : ']';
    p = js_ws(p + 1, e);
    if (p < e && *p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        if (!(p = js_string(js_ws(p, e), e))) return NULL;
        p = js_ws(p, e);
        if (p >= e || *p++ != ':') return NULL;
      }
      if (!(p = js_value(p, e, depth + 1))) return NULL;
      p = js_ws(p, e);
      if (p >= e) return NULL;
      if (*p == close) return p + 1;
      if (*p++ != ',') return NULL;
    }
  }
  if (*p == '-' || (*p >= '0' && *p <= '9')) {
    const char *q = p + (*p == '-');
    if (q >= e || *q < '0' || *q > '9') return NULL;
    while (q < e && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' || *q == '-')) q++;
    return q;
  }
  static const char *lit[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(lit[i]);
    if ((size_t)(e - p) >= n && memcmp(p, lit[i], n) == 0) return p + n;
  }
  return NULL;
}

static void qlog_write(void *user_data, uint32_t flags, const void *data, size_t len) {
  (void)user_data; (void)flags;
  const char *p = data, *e = p + len;
  char *copy = NULL;
  if (self_test() == 2 && len >= 3) { copy = malloc(len); memcpy(copy, data, len); copy[len - 2] = ','; p = copy; e = p + len; }
  qlog_records++;
  if (len < 3 || p[0] != '\x1e' || e[-1] != '\n') finding("qlog record is not RS ... LF", (long long)len, 0);
  const char *q = js_value(p + 1, e - 1, 0);
  if (!q || q != e - 1) {
    fprintf(stderr, "qlog record: %.*s\n", (int)len, p);
    finding("qlog record is not one JSON value", (long long)len, q ? (long long)(q - p) : -1);
  }
  free(copy);
}

static void qlog_setup(void) {
  if (qlog_mem) return;
  qlog_mem = malloc(NGTCP2_QLOG_BUFLEN); /* exact size: ngtcp2_conn's qlog buffer */
  ngtcp2_qlog_init(&qlog, qlog_write, 0, NULL);
  ngtcp2_buf_init(&qlog.buf, qlog_mem, NGTCP2_QLOG_BUFLEN);
}

/* --- a reference varint reader (RFC 9000 §16), independent of ngtcp2's ngtcp2_conv.c --- */
static int ref_varint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
  if (*p >= end) return 0;
  size_t n = (size_t)1 << (**p >> 6);
  if ((size_t)(end - *p) < n) return 0;
  uint64_t x = **p & 0x3f;
  for (size_t i = 1; i < n; i++) x = x << 8 | (*p)[i];
  *p += n;
  *v = x;
  return 1;
}

/* Decoders work on at least this union: ngtcp2_frame plus room for 32 ACK ranges (ngtcp2_conn's
 * ngtcp2_max_frame has the same shape). */
typedef union {
  ngtcp2_frame fr;
  struct {
    ngtcp2_ack ack;
    ngtcp2_ack_range ranges[NGTCP2_MAX_ACK_RANGES - 1];
  } ackfr;
} wl_max_frame;

/* --- ACK: RFC 9000 §19.3 parsed again, every range, and §19.3.1's rule --- */
static void check_ack_reference(const ngtcp2_ack *a, const uint8_t *p0, size_t n) {
  const uint8_t *p = p0 + 1, *end = p0 + n;
  uint64_t largest, delay, cnt, first, gap, len, ecn[3];
  if (!ref_varint(&p, end, &largest) || !ref_varint(&p, end, &delay) || !ref_varint(&p, end, &cnt) ||
      !ref_varint(&p, end, &first))
    finding("ACK: ngtcp2 accepted a frame the reference cannot read", (long long)n, 0);
  if ((uint64_t)a->largest_ack != largest || a->ack_delay != delay || a->first_ack_range != first)
    finding("ACK: largest / delay / first range differ from the reference", a->largest_ack, (long long)largest);
  if (a->rangecnt != (cnt < NGTCP2_MAX_ACK_RANGES ? cnt : NGTCP2_MAX_ACK_RANGES))
    finding("ACK: range count differs from min(count, 32)", (long long)a->rangecnt, (long long)cnt);
  /* §19.3.1: smallest = largest - first; then per range: largest' = smallest - gap - 2,
   * smallest' = largest' - len; a negative value is a FRAME_ENCODING_ERROR. */
  int neg_at = -1; /* -1: none; 0: first range; i+1: range i */
  uint64_t cur = largest;
  if (first > cur) neg_at = 0;
  else cur -= first;
  for (uint64_t i = 0; i < cnt; i++) {
    if (!ref_varint(&p, end, &gap) || !ref_varint(&p, end, &len))
      finding("ACK: ngtcp2 accepted a frame whose ranges the reference cannot read", (long long)i, (long long)cnt);
    if (i < a->rangecnt && (a->ranges[i].gap != gap || a->ranges[i].len != len))
      finding("ACK: a range differs from the reference", (long long)i, (long long)gap);
    if (neg_at >= 0) continue;
    if (gap + 2 > cur) { neg_at = (int)(i < 1000000 ? i + 1 : 1000000); continue; }
    cur -= gap + 2;
    if (len > cur) { neg_at = (int)(i < 1000000 ? i + 1 : 1000000); continue; }
    cur -= len;
  }
  if (a->type == NGTCP2_FRAME_ACK_ECN) {
    for (int i = 0; i < 3; i++)
      if (!ref_varint(&p, end, &ecn[i])) finding("ACK_ECN: ngtcp2 accepted a frame without ECN counts", i, 0);
    if (a->ecn.ect0 != ecn[0] || a->ecn.ect1 != ecn[1] || a->ecn.ce != ecn[2])
      finding("ACK_ECN: ECN counts differ from the reference", (long long)a->ecn.ect0, (long long)ecn[0]);
  }
  if ((size_t)(p - p0) != n) finding("ACK: ngtcp2's length differs from the reference", (long long)n, (long long)(p - p0));
  int rv = ngtcp2_pkt_validate_ack((ngtcp2_ack *)a, 0);
  if (rv != 0 && rv != NGTCP2_ERR_ACK_FRAME) finding("ngtcp2_pkt_validate_ack: undocumented result", rv, 0);
  if (neg_at < 0 && rv != 0) finding("ngtcp2_pkt_validate_ack rejects a well-formed ACK", rv, (long long)cnt);
  if (neg_at < 0 && cnt <= NGTCP2_MAX_ACK_RANGES && cur < (uint64_t)INT64_MAX) {
    /* cur is now the smallest acknowledged packet number: a min_pkt_num above it is PROTO */
    int r0 = ngtcp2_pkt_validate_ack((ngtcp2_ack *)a, (int64_t)cur), r1 = ngtcp2_pkt_validate_ack((ngtcp2_ack *)a, (int64_t)cur + 1);
    if (r0 != 0 || r1 != NGTCP2_ERR_PROTO) finding("ngtcp2_pkt_validate_ack: min_pkt_num at / above the smallest acknowledged", r0, r1);
  }
  if (neg_at >= 0 && rv == 0) {
    if ((size_t)neg_at <= NGTCP2_MAX_ACK_RANGES)
      finding("ngtcp2_pkt_validate_ack accepts negative packet numbers", neg_at, (long long)cnt);
    if (is_strict()) known_k2_ack_ranges_unvalidated((size_t)cnt, (size_t)neg_at);
  }
}

/* --- frames --- */
static uint64_t frame_type_of(uint8_t b) {
  if (b >= 0x08 && b <= 0x0f) return NGTCP2_FRAME_STREAM;
  return b;
}

static void vec_flat(const ngtcp2_vec *v, size_t n, const uint8_t **base, size_t *len) {
  /* decoders produce at most one vector */
  if (n > 1) finding("decoder produced more than one data vector", (long long)n, 0);
  *base = n ? v[0].base : NULL;
  *len = n ? v[0].len : 0;
}

static int same_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* Do two decoded frames carry the same values (RFC 9000 §19's fields)? */
static int frames_equal(const ngtcp2_frame *a, const ngtcp2_frame *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
  case NGTCP2_FRAME_STREAM:
  case NGTCP2_FRAME_CRYPTO: {
    const uint8_t *x, *y; size_t xn, yn;
    vec_flat(a->stream.data, a->stream.datacnt, &x, &xn);
    vec_flat(b->stream.data, b->stream.datacnt, &y, &yn);
    return a->stream.stream_id == b->stream.stream_id && a->stream.offset == b->stream.offset &&
           a->stream.fin == b->stream.fin && same_bytes(x, xn, y, yn);
  }
  case NGTCP2_FRAME_ACK:
  case NGTCP2_FRAME_ACK_ECN:
    if (a->ack.largest_ack != b->ack.largest_ack || a->ack.ack_delay != b->ack.ack_delay ||
        a->ack.first_ack_range != b->ack.first_ack_range || a->ack.rangecnt != b->ack.rangecnt) return 0;
    for (size_t i = 0; i < a->ack.rangecnt; i++)
      if (a->ack.ranges[i].gap != b->ack.ranges[i].gap || a->ack.ranges[i].len != b->ack.ranges[i].len) return 0;
    return a->type == NGTCP2_FRAME_ACK || (a->ack.ecn.ect0 == b->ack.ecn.ect0 && a->ack.ecn.ect1 == b->ack.ecn.ect1 &&
                                           a->ack.ecn.ce == b->ack.ecn.ce);
  case NGTCP2_FRAME_PADDING: return a->padding.len == b->padding.len;
  case NGTCP2_FRAME_RESET_STREAM:
    return a->reset_stream.stream_id == b->reset_stream.stream_id &&
           a->reset_stream.app_error_code == b->reset_stream.app_error_code &&
           a->reset_stream.final_size == b->reset_stream.final_size;
  case NGTCP2_FRAME_CONNECTION_CLOSE:
  case NGTCP2_FRAME_CONNECTION_CLOSE_APP:
    return a->connection_close.error_code == b->connection_close.error_code &&
           a->connection_close.frame_type == b->connection_close.frame_type &&
           same_bytes(a->connection_close.reason, a->connection_close.reasonlen, b->connection_close.reason,
                      b->connection_close.reasonlen);
  case NGTCP2_FRAME_MAX_DATA: return a->max_data.max_data == b->max_data.max_data;
  case NGTCP2_FRAME_MAX_STREAM_DATA:
    return a->max_stream_data.stream_id == b->max_stream_data.stream_id &&
           a->max_stream_data.max_stream_data == b->max_stream_data.max_stream_data;
  case NGTCP2_FRAME_MAX_STREAMS_BIDI:
  case NGTCP2_FRAME_MAX_STREAMS_UNI: return a->max_streams.max_streams == b->max_streams.max_streams;
  case NGTCP2_FRAME_PING:
  case NGTCP2_FRAME_HANDSHAKE_DONE: return 1;
  case NGTCP2_FRAME_DATA_BLOCKED: return a->data_blocked.offset == b->data_blocked.offset;
  case NGTCP2_FRAME_STREAM_DATA_BLOCKED:
    return a->stream_data_blocked.stream_id == b->stream_data_blocked.stream_id &&
           a->stream_data_blocked.offset == b->stream_data_blocked.offset;
  case NGTCP2_FRAME_STREAMS_BLOCKED_BIDI:
  case NGTCP2_FRAME_STREAMS_BLOCKED_UNI: return a->streams_blocked.max_streams == b->streams_blocked.max_streams;
  case NGTCP2_FRAME_NEW_CONNECTION_ID:
    return a->new_connection_id.seq == b->new_connection_id.seq &&
           a->new_connection_id.retire_prior_to == b->new_connection_id.retire_prior_to &&
           ngtcp2_cid_eq(&a->new_connection_id.cid, &b->new_connection_id.cid) &&
           memcmp(a->new_connection_id.stateless_reset_token, b->new_connection_id.stateless_reset_token,
                  NGTCP2_STATELESS_RESET_TOKENLEN) == 0;
  case NGTCP2_FRAME_STOP_SENDING:
    return a->stop_sending.stream_id == b->stop_sending.stream_id &&
           a->stop_sending.app_error_code == b->stop_sending.app_error_code;
  case NGTCP2_FRAME_PATH_CHALLENGE: return memcmp(a->path_challenge.data, b->path_challenge.data, 8) == 0;
  case NGTCP2_FRAME_PATH_RESPONSE: return memcmp(a->path_response.data, b->path_response.data, 8) == 0;
  case NGTCP2_FRAME_NEW_TOKEN:
    return same_bytes(a->new_token.token, a->new_token.tokenlen, b->new_token.token, b->new_token.tokenlen);
  case NGTCP2_FRAME_RETIRE_CONNECTION_ID: return a->retire_connection_id.seq == b->retire_connection_id.seq;
  case NGTCP2_FRAME_DATAGRAM:
  case NGTCP2_FRAME_DATAGRAM_LEN: {
    const uint8_t *x, *y; size_t xn, yn;
    vec_flat(a->datagram.data, a->datagram.datacnt, &x, &xn);
    vec_flat(b->datagram.data, b->datagram.datacnt, &y, &yn);
    return same_bytes(x, xn, y, yn);
  }
  }
  finding("decoded frame of an unknown type", (long long)a->type, 0);
  return 0;
}

/* Values and pointers of one decoded frame that occupied p[0..n). */
static void check_frame_values(const ngtcp2_frame *f, const uint8_t *p, size_t n, size_t left) {
  if (f->type != frame_type_of(p[0])) finding("decoded frame type differs from the type byte", (long long)f->type, p[0]);
  switch (f->type) {
  case NGTCP2_FRAME_STREAM:
  case NGTCP2_FRAME_CRYPTO: {
    const uint8_t *d; size_t dn;
    vec_flat(f->stream.data, f->stream.datacnt, &d, &dn);
    if (dn && !inside(d, dn, p, n)) finding("STREAM/CRYPTO data outside the frame", (long long)dn, (long long)n);
    if (f->stream.datacnt && dn == 0) finding("STREAM/CRYPTO: an empty data vector", 0, 0);
    if (f->stream.stream_id < 0 || f->stream.offset > MAX_VARINT) finding("STREAM: id/offset out of range", f->stream.stream_id, 0);
    if (f->type == NGTCP2_FRAME_STREAM) {
      if (f->stream.fin != (p[0] & 1)) finding("STREAM: FIN differs from the type bit", f->stream.fin, p[0]);
      if (!(p[0] & 2) && n != left) finding("STREAM without Length does not extend to the end", (long long)n, (long long)left);
      if (!(p[0] & 4) && f->stream.offset != 0) finding("STREAM without Offset has an offset", (long long)f->stream.offset, 0);
    }
    break;
  }
  case NGTCP2_FRAME_ACK:
  case NGTCP2_FRAME_ACK_ECN:
    if (f->ack.rangecnt > NGTCP2_MAX_ACK_RANGES) finding("ACK: more ranges than the buffer holds", (long long)f->ack.rangecnt, 0);
    if (f->ack.largest_ack < 0) finding("ACK: negative largest", f->ack.largest_ack, 0);
    check_ack_reference(&f->ack, p, n);
    break;
  case NGTCP2_FRAME_PADDING:
    if (f->padding.len != n) finding("PADDING: len differs from what was consumed", (long long)f->padding.len, (long long)n);
    for (size_t i = 0; i < n; i++) if (p[i]) finding("PADDING run contains a non-zero byte", (long long)i, p[i]);
    if (n < left && p[n] == 0) finding("PADDING run stopped before the next zero byte", (long long)n, (long long)left);
    break;
  case NGTCP2_FRAME_CONNECTION_CLOSE:
  case NGTCP2_FRAME_CONNECTION_CLOSE_APP:
    if (f->connection_close.reasonlen && !inside(f->connection_close.reason, f->connection_close.reasonlen, p, n))
      finding("CONNECTION_CLOSE reason outside the frame", (long long)f->connection_close.reasonlen, (long long)n);
    break;
  case NGTCP2_FRAME_NEW_CONNECTION_ID:
    if (f->new_connection_id.cid.datalen < 1 || f->new_connection_id.cid.datalen > NGTCP2_MAX_CIDLEN)
      finding("NEW_CONNECTION_ID: CID length outside 1..20 (§19.15)", (long long)f->new_connection_id.cid.datalen, 0);
    break;
  case NGTCP2_FRAME_NEW_TOKEN:
    if (!inside(f->new_token.token, f->new_token.tokenlen, p, n)) finding("NEW_TOKEN token outside the frame", (long long)f->new_token.tokenlen, (long long)n);
    break;
  case NGTCP2_FRAME_DATAGRAM:
  case NGTCP2_FRAME_DATAGRAM_LEN: {
    const uint8_t *d; size_t dn;
    vec_flat(f->datagram.data, f->datagram.datacnt, &d, &dn);
    if (dn && !inside(d, dn, p, n)) finding("DATAGRAM data outside the frame", (long long)dn, (long long)n);
    if (f->type == NGTCP2_FRAME_DATAGRAM && n != left) finding("DATAGRAM 0x30 does not extend to the end", (long long)n, (long long)left);
    break;
  }
  case NGTCP2_FRAME_RESET_STREAM: if (f->reset_stream.stream_id < 0) finding("RESET_STREAM: negative id", 0, 0); break;
  case NGTCP2_FRAME_STOP_SENDING: if (f->stop_sending.stream_id < 0) finding("STOP_SENDING: negative id", 0, 0); break;
  case NGTCP2_FRAME_MAX_STREAM_DATA: if (f->max_stream_data.stream_id < 0) finding("MAX_STREAM_DATA: negative id", 0, 0); break;
  case NGTCP2_FRAME_STREAM_DATA_BLOCKED: if (f->stream_data_blocked.stream_id < 0) finding("STREAM_DATA_BLOCKED: negative id", 0, 0); break;
  default: break;
  }
}

/* Re-encode into a buffer of exactly the size the encoder may need (the decoded length + 8: a STREAM
 * frame without Length gains one), decode again and compare. */
static void check_frame_roundtrip(const ngtcp2_frame *f, size_t n) {
  if (f->type == NGTCP2_FRAME_NEW_TOKEN && f->new_token.tokenlen == 0) return; /* see the header comment */
  wl_max_frame copy, again;
  memcpy(&copy, f, sizeof copy);
  size_t cap = n + 8;
  uint8_t *buf = malloc(cap);
  ngtcp2_ssize m = ngtcp2_pkt_encode_frame(buf, cap, &copy.fr);
  if (m <= 0) finding("ngtcp2_pkt_encode_frame failed on a decoded frame", (long long)m, (long long)f->type);
  if ((size_t)m > cap) finding("ngtcp2_pkt_encode_frame wrote more than the buffer", (long long)m, (long long)cap);
  uint8_t *enc = dup_exact(buf, (size_t)m);
  free(buf);
  /* one byte less: NOBUF, and nothing written past it (ASan) */
  uint8_t *small = malloc((size_t)m - 1 ? (size_t)m - 1 : 1);
  memcpy(&copy, f, sizeof copy);
  ngtcp2_ssize ms = ngtcp2_pkt_encode_frame(small, (size_t)m - 1, &copy.fr);
  if (ms != NGTCP2_ERR_NOBUF) finding("ngtcp2_pkt_encode_frame: a buffer one byte short is not NOBUF", (long long)ms, (long long)m);
  free(small);
  if (self_test() == 1 && m > 1) enc[m - 1] ^= 0x01;
  memset(&again, 0, sizeof again);
  ngtcp2_ssize m2 = ngtcp2_pkt_decode_frame(&again.fr, enc, (size_t)m);
  if (m2 != m) finding("re-encoded frame does not decode to its own length", (long long)m2, (long long)m);
  if (!frames_equal(f, &again.fr)) finding("re-encoded frame decodes to other values", (long long)f->type, (long long)m);
  free(enc);
}

/* Decode one frame at p[0..left); returns what it consumed, or 0 when it failed. */
static size_t one_frame(const uint8_t *p, size_t left, int roundtrip) {
  wl_max_frame mf;
  memset(&mf, 0, sizeof mf);
  ngtcp2_ssize n = ngtcp2_pkt_decode_frame(&mf.fr, p, left);
  if (n < 0) {
    if (n != NGTCP2_ERR_FRAME_ENCODING) finding("ngtcp2_pkt_decode_frame: undocumented error", (long long)n, p[0]);
    return 0;
  }
  if (n == 0 || (size_t)n > left) finding("ngtcp2_pkt_decode_frame consumed 0 or more than given", (long long)n, (long long)left);
  check_frame_values(&mf.fr, p, (size_t)n, left);
  if (roundtrip) {
    /* ngtcp2_conn logs an ACK only after ngtcp2_pkt_validate_ack accepted it (it closes the
     * connection otherwise); qlog's ACK writer relies on that (it subtracts ranges in int64_t). */
    int is_ack = mf.fr.type == NGTCP2_FRAME_ACK || mf.fr.type == NGTCP2_FRAME_ACK_ECN;
    if (!is_ack || ngtcp2_pkt_validate_ack(&mf.fr.ack, 0) == 0) ngtcp2_qlog_write_frame(&qlog, &mf.fr);
    check_frame_roundtrip(&mf.fr, (size_t)n);
  }
  return (size_t)n;
}

/* A packet payload, frame after frame, on an exact-size copy, logged to qlog as ngtcp2_conn does
 * (packet_received: the frames, then the header; hd NULL: a 1-RTT header with an 8-byte DCID). */
static void frames(const uint8_t *data, size_t len, const ngtcp2_pkt_hd *hd, size_t pktlen) {
  if (len == 0) return;
  uint8_t *p = dup_exact(data, len);
  size_t off = 0, n;
  ngtcp2_pkt_hd def;
  if (!hd) {
    ngtcp2_cid dcid;
    ngtcp2_cid_init(&dcid, (const uint8_t *)"\x83\x94\xc8\xf0\x3e\x51\x57\x08", 8);
    ngtcp2_pkt_hd_init(&def, NGTCP2_PKT_FLAG_NONE, NGTCP2_PKT_1RTT, &dcid, NULL, 0, 1, NGTCP2_PROTO_VER_V1);
    hd = &def;
    pktlen = len + 10;
  }
  ngtcp2_qlog_pkt_received_start(&qlog);
  while (off < len && (n = one_frame(p + off, len - off, 1)) > 0) off += n;
  ngtcp2_qlog_pkt_received_end(&qlog, hd, pktlen);
  free(p);
}

/* Every prefix shorter than the frame must be rejected, unless the frame runs to the end. */
static void prefixes(const uint8_t *data, size_t len) {
  if (len == 0) return;
  size_t n = one_frame(data, len, 0);
  if (n == 0) return;
  uint8_t t = data[0];
  if (t == 0x00 || t == NGTCP2_FRAME_DATAGRAM || (t >= 0x08 && t <= 0x0f && !(t & 2))) return;
  for (size_t k = 1; k <= n && k <= 64; k++) { /* k == n: the empty payload */
    uint8_t *q = dup_exact(data, n - k);
    wl_max_frame mf;
    ngtcp2_ssize r = ngtcp2_pkt_decode_frame(&mf.fr, q, n - k);
    if (r >= 0) finding("a truncated frame was accepted", (long long)(n - k), (long long)n);
    free(q);
  }
}

/* --- packet headers --- */
static uint8_t v1_type(uint8_t bits) { /* RFC 9000 §17.2 Table 5 */
  static const uint8_t t[4] = {NGTCP2_PKT_INITIAL, NGTCP2_PKT_0RTT, NGTCP2_PKT_HANDSHAKE, NGTCP2_PKT_RETRY};
  return t[bits & 3];
}
static uint8_t v2_type(uint8_t bits) { /* RFC 9369 §3.2 */
  static const uint8_t t[4] = {NGTCP2_PKT_RETRY, NGTCP2_PKT_INITIAL, NGTCP2_PKT_0RTT, NGTCP2_PKT_HANDSHAKE};
  return t[bits & 3];
}

static void check_hd_common(const ngtcp2_pkt_hd *hd, const uint8_t *pkt, size_t n) {
  if (hd->dcid.datalen > NGTCP2_MAX_CIDLEN || hd->scid.datalen > NGTCP2_MAX_CIDLEN)
    finding("header: CID longer than 20 bytes", (long long)hd->dcid.datalen, (long long)hd->scid.datalen);
  if (hd->tokenlen && !inside(hd->token, hd->tokenlen, pkt, n)) finding("header: token outside the header", (long long)hd->tokenlen, (long long)n);
  if (hd->len > MAX_VARINT) finding("header: Length beyond 2^62", (long long)hd->len, 0);
}

static void hd_equal(const ngtcp2_pkt_hd *a, const ngtcp2_pkt_hd *b, const char *what) {
  if (a->type != b->type || a->version != b->version || !ngtcp2_cid_eq(&a->dcid, &b->dcid) ||
      !ngtcp2_cid_eq(&a->scid, &b->scid) || !same_bytes(a->token, a->tokenlen, b->token, b->tokenlen) ||
      a->len != b->len || (a->flags & NGTCP2_PKT_FLAG_FIXED_BIT_CLEAR) != (b->flags & NGTCP2_PKT_FLAG_FIXED_BIT_CLEAR))
    finding(what, a->type, b->type);
}

static void long_packet(const uint8_t *data, size_t len, size_t short_dcidlen) {
  if (len == 0) return;
  uint8_t *pkt = dup_exact(data, len);
  ngtcp2_version_cid vc;
  int vrv = ngtcp2_pkt_decode_version_cid(&vc, pkt, len, short_dcidlen);
  if (vrv != 0 && vrv != NGTCP2_ERR_INVALID_ARGUMENT && vrv != NGTCP2_ERR_VERSION_NEGOTIATION)
    finding("ngtcp2_pkt_decode_version_cid: undocumented error", vrv, 0);
  if (vrv == 0 || vrv == NGTCP2_ERR_VERSION_NEGOTIATION) {
    if (!inside(vc.dcid, vc.dcidlen, pkt, len) || (vc.scidlen && !inside(vc.scid, vc.scidlen, pkt, len)))
      finding("version_cid: CID outside the packet", (long long)vc.dcidlen, (long long)vc.scidlen);
  }
  ngtcp2_pkt_hd hd;
  ngtcp2_ssize n = ngtcp2_pkt_decode_hd_long(&hd, pkt, len);
  if (n < 0) {
    if (n != NGTCP2_ERR_INVALID_ARGUMENT) finding("ngtcp2_pkt_decode_hd_long: undocumented error", (long long)n, 0);
    free(pkt);
    return;
  }
  if ((size_t)n > len || n < 7) finding("hd_long consumed more than given (or too little)", (long long)n, (long long)len);
  check_hd_common(&hd, pkt, (size_t)n);
  if (!(pkt[0] & 0x80)) finding("hd_long accepted a short header", pkt[0], 0);
  if (hd.dcid.datalen != pkt[5] || memcmp(hd.dcid.data, pkt + 6, hd.dcid.datalen) != 0)
    finding("hd_long: DCID differs from the packet", (long long)hd.dcid.datalen, pkt[5]);
  if (vrv != 0 || vc.version != hd.version || vc.dcidlen != hd.dcid.datalen || vc.scidlen != hd.scid.datalen ||
      memcmp(vc.dcid, hd.dcid.data, vc.dcidlen) != 0 || (vc.scidlen && memcmp(vc.scid, hd.scid.data, vc.scidlen) != 0))
    finding("hd_long decoded a header version_cid does not agree with", vrv, (long long)hd.version);
  if (hd.version == 0) {
    if (hd.type != NGTCP2_PKT_VERSION_NEGOTIATION) finding("version 0 is not Version Negotiation", hd.type, 0);
  } else {
    uint8_t want = hd.version == NGTCP2_PROTO_VER_V2 ? v2_type(pkt[0] >> 4) : v1_type(pkt[0] >> 4);
    if (hd.version != NGTCP2_PROTO_VER_V1 && hd.version != NGTCP2_PROTO_VER_V2)
      finding("hd_long accepted an unsupported version as a long header", (long long)hd.version, 0);
    if (hd.type != want) finding("long packet type differs from RFC 9000 Table 5 / RFC 9369", hd.type, want);
    if (!(pkt[0] & 0x40) != !!(hd.flags & NGTCP2_PKT_FLAG_FIXED_BIT_CLEAR)) finding("fixed bit flag wrong", pkt[0], hd.flags);
    if (hd.type != NGTCP2_PKT_INITIAL && hd.tokenlen) finding("token outside an Initial", hd.type, (long long)hd.tokenlen);
  }
  const uint8_t *pay = pkt + n;
  size_t paylen = len - (size_t)n;
  if (hd.type == NGTCP2_PKT_VERSION_NEGOTIATION) {
    if (paylen % 4 == 0 && paylen) { /* ngtcp2_conn checks this before decoding */
      uint32_t *sv = malloc(paylen);
      size_t nsv = ngtcp2_pkt_decode_version_negotiation(sv, pay, paylen);
      if (nsv != paylen / 4) finding("VN: version count", (long long)nsv, (long long)paylen);
      for (size_t i = 0; i < nsv; i++)
        if (sv[i] != ((uint32_t)pay[4 * i] << 24 | (uint32_t)pay[4 * i + 1] << 16 | (uint32_t)pay[4 * i + 2] << 8 | pay[4 * i + 3]))
          finding("VN: a version differs from the bytes", (long long)i, (long long)sv[i]);
      free(sv);
    }
  } else if (hd.type == NGTCP2_PKT_RETRY) {
    ngtcp2_pkt_retry retry;
    if (ngtcp2_pkt_decode_retry(&retry, pay, paylen) == 0) {
      if (retry.tokenlen + NGTCP2_RETRY_TAGLEN != paylen || !inside(retry.token, retry.tokenlen, pay, paylen) ||
          memcmp(retry.tag, pay + paylen - NGTCP2_RETRY_TAGLEN, NGTCP2_RETRY_TAGLEN) != 0)
        finding("Retry: token / tag do not split the payload", (long long)retry.tokenlen, (long long)paylen);
    } else if (paylen > NGTCP2_RETRY_TAGLEN) finding("Retry: rejected a payload with token and tag", (long long)paylen, 0);
  } else {
    size_t pnlen = (size_t)(pkt[0] & 3) + 1;
    if (hd.len >= pnlen && paylen >= pnlen) {
      size_t flen = hd.len - pnlen < paylen - pnlen ? hd.len - pnlen : paylen - pnlen;
      ngtcp2_pkt_hd hq = hd;
      hq.pkt_numlen = pnlen;
      frames(pay + pnlen, flen, &hq, len);
    }
  }
  /* round trip of the header (the encoder writes Length in 4 bytes: < 2^30) */
  if (hd.type != NGTCP2_PKT_VERSION_NEGOTIATION && hd.len < (1u << 30)) {
    ngtcp2_pkt_hd h2 = hd, h3;
    h2.pkt_numlen = (size_t)(pkt[0] & 3) + 1;
    h2.pkt_num = 0;
    size_t cap = (size_t)n + 8 + 4;
    uint8_t *buf = malloc(cap);
    ngtcp2_ssize m = ngtcp2_pkt_encode_hd_long(buf, cap, &h2);
    if (m <= 0 || (size_t)m > cap) finding("ngtcp2_pkt_encode_hd_long failed on a decoded header", (long long)m, (long long)cap);
    uint8_t *small = malloc((size_t)m - 1);
    if (ngtcp2_pkt_encode_hd_long(small, (size_t)m - 1, &h2) != NGTCP2_ERR_NOBUF) finding("encode_hd_long: one byte short is not NOBUF", (long long)m, 0);
    free(small);
    size_t hdrlen = (size_t)m - (hd.type == NGTCP2_PKT_RETRY ? 0 : h2.pkt_numlen);
    uint8_t *enc = dup_exact(buf, (size_t)m);
    free(buf);
    ngtcp2_ssize m2 = ngtcp2_pkt_decode_hd_long(&h3, enc, (size_t)m);
    if (m2 < 0 || (size_t)m2 != hdrlen) finding("re-encoded long header does not decode to its length", (long long)m2, (long long)hdrlen);
    hd_equal(&hd, &h3, "re-encoded long header decodes to other values");
    if (hd.type != NGTCP2_PKT_RETRY && (size_t)(enc[0] & 3) + 1 != h2.pkt_numlen) finding("packet number length bits", enc[0], 0);
    free(enc);
  }
  free(pkt);
}

static void short_packet(const uint8_t *data, size_t len, size_t dcidlen) {
  if (len == 0) return;
  uint8_t *pkt = dup_exact(data, len);
  ngtcp2_version_cid vc;
  int vrv = ngtcp2_pkt_decode_version_cid(&vc, pkt, len, dcidlen);
  ngtcp2_pkt_hd hd;
  ngtcp2_ssize n = ngtcp2_pkt_decode_hd_short(&hd, pkt, len, dcidlen);
  if (n < 0) {
    if (n != NGTCP2_ERR_INVALID_ARGUMENT) finding("ngtcp2_pkt_decode_hd_short: undocumented error", (long long)n, 0);
  } else {
    if ((size_t)n != 1 + dcidlen || (size_t)n > len) finding("hd_short length", (long long)n, (long long)dcidlen);
    if (pkt[0] & 0x80) finding("hd_short accepted a long header", pkt[0], 0);
    check_hd_common(&hd, pkt, (size_t)n);
    if (hd.type != NGTCP2_PKT_1RTT || hd.dcid.datalen != dcidlen || memcmp(hd.dcid.data, pkt + 1, dcidlen) != 0)
      finding("hd_short: type or DCID differ from the packet", hd.type, (long long)hd.dcid.datalen);
    if (vrv != 0 || vc.version != 0 || vc.dcidlen != dcidlen || vc.dcid != pkt + 1)
      finding("hd_short decoded a header version_cid does not agree with", vrv, (long long)vc.dcidlen);
    size_t pnlen = (size_t)(pkt[0] & 3) + 1;
    if (len - (size_t)n >= pnlen) {
      ngtcp2_pkt_hd hq = hd;
      hq.pkt_numlen = pnlen;
      frames(pkt + n + pnlen, len - (size_t)n - pnlen, &hq, len);
    }
    /* round trip, key phase from the (unprotected) first byte */
    ngtcp2_pkt_hd h2 = hd, h3;
    h2.pkt_numlen = pnlen;
    h2.pkt_num = 0;
    if (pkt[0] & NGTCP2_SHORT_KEY_PHASE_BIT) h2.flags |= NGTCP2_PKT_FLAG_KEY_PHASE;
    uint8_t *buf = malloc(1 + dcidlen + pnlen);
    ngtcp2_ssize m = ngtcp2_pkt_encode_hd_short(buf, 1 + dcidlen + pnlen, &h2);
    if (m != (ngtcp2_ssize)(1 + dcidlen + pnlen)) finding("ngtcp2_pkt_encode_hd_short length", (long long)m, (long long)dcidlen);
    uint8_t *small = malloc((size_t)m - 1);
    if (ngtcp2_pkt_encode_hd_short(small, (size_t)m - 1, &h2) != NGTCP2_ERR_NOBUF) finding("encode_hd_short: one byte short is not NOBUF", (long long)m, 0);
    free(small);
    if ((buf[0] & 0x47) != (pkt[0] & 0x47)) finding("re-encoded short header: first byte bits differ", buf[0], pkt[0]);
    ngtcp2_pkt_hd_init(&h3, 0, 0, NULL, &hd.dcid, 0, 0, 0); /* overwritten by the decode */
    if (ngtcp2_pkt_decode_hd_short(&h3, buf, (size_t)m, dcidlen) != (ngtcp2_ssize)(1 + dcidlen))
      finding("re-encoded short header does not decode", (long long)dcidlen, 0);
    hd_equal(&hd, &h3, "re-encoded short header decodes to other values");
    free(buf);
  }
  ngtcp2_pkt_stateless_reset sr;
  int rv = ngtcp2_pkt_decode_stateless_reset(&sr, pkt, len);
  if (rv == 0) {
    if (sr.randlen + NGTCP2_STATELESS_RESET_TOKENLEN != len || sr.rand != pkt ||
        memcmp(sr.stateless_reset_token, pkt + len - NGTCP2_STATELESS_RESET_TOKENLEN, NGTCP2_STATELESS_RESET_TOKENLEN) != 0)
      finding("stateless reset: token is not the last 16 bytes", (long long)sr.randlen, (long long)len);
  } else if (len >= NGTCP2_MIN_STATELESS_RESET_RANDLEN + NGTCP2_STATELESS_RESET_TOKENLEN) {
    finding("stateless reset: rejected a long enough datagram", rv, (long long)len);
  }
  free(pkt);
}

/* --- transport parameters (RFC 9000 §18) --- */
typedef struct {
  int ok;            /* the (id, length, value) sequence is well-formed */
  int dups;          /* an id seen twice (§7.4: SHOULD be a TRANSPORT_PARAMETER_ERROR) */
  int have[0x12];    /* last value of integer params 0x01, 0x03..0x0b, 0x0e, and 0x20 in have[0x11] */
  uint64_t val[0x12];
} tp_ref;

static void tp_walk(const uint8_t *p, size_t n, tp_ref *r) {
  const uint8_t *end = p + n;
  uint64_t seen[64];
  size_t nseen = 0;
  memset(r, 0, sizeof *r);
  while (p < end) {
    uint64_t id, vlen, v;
    if (!ref_varint(&p, end, &id) || !ref_varint(&p, end, &vlen) || vlen > (uint64_t)(end - p)) return;
    for (size_t i = 0; i < nseen; i++) if (seen[i] == id) r->dups = 1;
    if (nseen < 64) seen[nseen++] = id;
    const uint8_t *q = p;
    int slot = -1;
    if (id == 0x01 || (id >= 0x03 && id <= 0x0b) || id == 0x0e) slot = (int)id;
    if (id == 0x20) slot = 0x11;
    if (slot >= 0) {
      r->have[slot] = 0;
      if (ref_varint(&q, p + vlen, &v) && q == p + vlen) { r->have[slot] = 1; r->val[slot] = v; }
    }
    p += vlen;
  }
  r->ok = 1;
}

static int tp_equal(const ngtcp2_transport_params *a, const ngtcp2_transport_params *b) {
#define EQ(f) (a->f == b->f)
  uint64_t acl_a = a->active_connection_id_limit < 2 ? 2 : a->active_connection_id_limit; /* see the header */
  uint64_t acl_b = b->active_connection_id_limit < 2 ? 2 : b->active_connection_id_limit;
  if (!(EQ(initial_max_stream_data_bidi_local) && EQ(initial_max_stream_data_bidi_remote) &&
        EQ(initial_max_stream_data_uni) && EQ(initial_max_data) && EQ(initial_max_streams_bidi) &&
        EQ(initial_max_streams_uni) && EQ(max_idle_timeout) && EQ(max_udp_payload_size) && acl_a == acl_b &&
        EQ(ack_delay_exponent) && EQ(max_ack_delay) && EQ(max_datagram_frame_size) &&
        EQ(stateless_reset_token_present) && EQ(disable_active_migration) && EQ(original_dcid_present) &&
        EQ(initial_scid_present) && EQ(retry_scid_present) && EQ(preferred_addr_present) &&
        EQ(grease_quic_bit) && EQ(version_info_present)))
    return 0;
  if (a->stateless_reset_token_present && memcmp(a->stateless_reset_token, b->stateless_reset_token, 16) != 0) return 0;
  if (a->original_dcid_present && !ngtcp2_cid_eq(&a->original_dcid, &b->original_dcid)) return 0;
  if (a->initial_scid_present && !ngtcp2_cid_eq(&a->initial_scid, &b->initial_scid)) return 0;
  if (a->retry_scid_present && !ngtcp2_cid_eq(&a->retry_scid, &b->retry_scid)) return 0;
  if (a->preferred_addr_present) {
    const ngtcp2_preferred_addr *x = &a->preferred_addr, *y = &b->preferred_addr;
    if (!ngtcp2_cid_eq(&x->cid, &y->cid) || memcmp(x->stateless_reset_token, y->stateless_reset_token, 16) != 0 ||
        x->ipv4_present != y->ipv4_present || x->ipv6_present != y->ipv6_present)
      return 0;
    if (x->ipv4_present && (x->ipv4.sin_port != y->ipv4.sin_port ||
                            memcmp(&x->ipv4.sin_addr, &y->ipv4.sin_addr, sizeof x->ipv4.sin_addr) != 0)) return 0;
    if (x->ipv6_present && (x->ipv6.sin6_port != y->ipv6.sin6_port ||
                            memcmp(&x->ipv6.sin6_addr, &y->ipv6.sin6_addr, sizeof x->ipv6.sin6_addr) != 0)) return 0;
  }
  if (a->version_info_present &&
      (a->version_info.chosen_version != b->version_info.chosen_version ||
       !same_bytes(a->version_info.available_versions, a->version_info.available_versionslen,
                   b->version_info.available_versions, b->version_info.available_versionslen)))
    return 0;
  return 1;
#undef EQ
}

static void tparams(const uint8_t *data, size_t len) {
  uint8_t *buf = dup_exact(data, len);
  ngtcp2_transport_params tp;
  tp_ref ref;
  tp_walk(buf, len, &ref);
  int rv = ngtcp2_transport_params_decode(&tp, buf, len);
  if (rv != 0 && rv != NGTCP2_ERR_MALFORMED_TRANSPORT_PARAM) finding("transport_params_decode: undocumented error", rv, 0);
  if (rv == 0 && !ref.ok) finding("transport_params_decode accepted a malformed (id, length, value) sequence (§18)", (long long)len, 0);
  ngtcp2_transport_params *pn = NULL;
  int rvn = ngtcp2_transport_params_decode_new(&pn, buf, len, NULL);
  if (rvn != rv || (rv == 0) != (pn != NULL)) finding("transport_params_decode_new disagrees with decode", rvn, rv);
  if (rv != 0) { free(buf); return; }
  if (ref.dups && is_strict()) known_k3_duplicate_transport_parameter(len);
  /* ranges the decoder promises (§18.2) */
  if (tp.ack_delay_exponent > 20 || tp.max_ack_delay >= 16384 * NGTCP2_MILLISECONDS ||
      tp.initial_max_streams_bidi > (1ULL << 60) || tp.initial_max_streams_uni > (1ULL << 60))
    finding("transport parameter outside its §18.2 range", (long long)tp.ack_delay_exponent, (long long)tp.max_ack_delay);
  if ((tp.original_dcid_present && tp.original_dcid.datalen > 20) || (tp.initial_scid_present && tp.initial_scid.datalen > 20) ||
      (tp.retry_scid_present && tp.retry_scid.datalen > 20) ||
      (tp.preferred_addr_present && (tp.preferred_addr.cid.datalen < 1 || tp.preferred_addr.cid.datalen > 20)))
    finding("transport parameter CID length out of range", 0, 0);
  if (tp.version_info_present &&
      (tp.version_info.chosen_version == 0 || tp.version_info.available_versionslen % 4 ||
       !inside(tp.version_info.available_versions, tp.version_info.available_versionslen, buf, len)))
    finding("version_information malformed or outside the input", (long long)tp.version_info.available_versionslen, 0);
  /* integer parameters: the last occurrence's value, in §18.2's units */
  static const struct { int slot; size_t off; int ms; } ints[] = {
    {0x01, offsetof(ngtcp2_transport_params, max_idle_timeout), 1},
    {0x03, offsetof(ngtcp2_transport_params, max_udp_payload_size), 0},
    {0x04, offsetof(ngtcp2_transport_params, initial_max_data), 0},
    {0x05, offsetof(ngtcp2_transport_params, initial_max_stream_data_bidi_local), 0},
    {0x06, offsetof(ngtcp2_transport_params, initial_max_stream_data_bidi_remote), 0},
    {0x07, offsetof(ngtcp2_transport_params, initial_max_stream_data_uni), 0},
    {0x08, offsetof(ngtcp2_transport_params, initial_max_streams_bidi), 0},
    {0x09, offsetof(ngtcp2_transport_params, initial_max_streams_uni), 0},
    {0x0a, offsetof(ngtcp2_transport_params, ack_delay_exponent), 0},
    {0x0b, offsetof(ngtcp2_transport_params, max_ack_delay), 1},
    {0x0e, offsetof(ngtcp2_transport_params, active_connection_id_limit), 0},
    {0x11, offsetof(ngtcp2_transport_params, max_datagram_frame_size), 0},
  };
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
    if (!ref.have[ints[i].slot]) continue;
    uint64_t got, want = ref.val[ints[i].slot];
    memcpy(&got, (const uint8_t *)&tp + ints[i].off, sizeof got);
    if (ints[i].ms) {
      if (want > UINT64_MAX / NGTCP2_MILLISECONDS) { /* not representable in ngtcp2_duration */
        if (is_strict()) known_k1_max_idle_timeout_wraps(want, got);
        continue;
      }
      want *= NGTCP2_MILLISECONDS;
    }
    if (got != want) finding("transport parameter differs from its last occurrence's value", ints[i].slot, (long long)got);
  }
  /* qlog's parameters_set, as ngtcp2_conn logs the peer's parameters: a client logs the server's
   * original_destination_connection_id too (the longest record; CVE-2026-40170 overflowed its stack
   * buffer, fixed by Debian's patch) */
  ngtcp2_qlog_parameters_set_transport_params(&qlog, &tp, /* server = */ 0, NGTCP2_QLOG_SIDE_REMOTE);
  ngtcp2_qlog_parameters_set_transport_params(&qlog, &tp, /* server = */ 1, NGTCP2_QLOG_SIDE_REMOTE);
  /* round trip */
  ngtcp2_ssize need = ngtcp2_transport_params_encode(NULL, 0, &tp);
  if (need < 0) finding("transport_params_encode size query failed", (long long)need, 0);
  uint8_t *enc = malloc(need ? (size_t)need : 1);
  ngtcp2_ssize m = ngtcp2_transport_params_encode(enc, (size_t)need, &tp);
  if (m != need) finding("transport_params_encode wrote other than its size query", (long long)m, (long long)need);
  if (need > 0) {
    uint8_t *small = malloc((size_t)need - 1 ? (size_t)need - 1 : 1);
    if (ngtcp2_transport_params_encode(small, (size_t)need - 1, &tp) != NGTCP2_ERR_NOBUF) finding("transport_params_encode: one byte short is not NOBUF", (long long)need, 0);
    free(small);
  }
  ngtcp2_transport_params tp2;
  int rv2 = ngtcp2_transport_params_decode(&tp2, enc, (size_t)m);
  if (rv2 != 0) finding("re-encoded transport parameters do not decode", rv2, (long long)m);
  if (!tp_equal(&tp, &tp2)) {
    int wrapped = ref.have[0x01] && ref.val[0x01] > UINT64_MAX / NGTCP2_MILLISECONDS;
    if (!wrapped || is_strict()) finding("re-encoded transport parameters decode to other values", (long long)m, (long long)len);
  }
  free(enc);
  /* the allocating variant copies the available versions */
  if (!tp_equal(&tp, pn)) finding("transport_params_decode_new differs from decode", 0, 0);
  if (pn->version_info.available_versionslen && inside(pn->version_info.available_versions, 1, buf, len))
    finding("transport_params_decode_new points into the input", 0, 0);
  ngtcp2_transport_params *pc = NULL;
  if (ngtcp2_transport_params_copy_new(&pc, pn, ngtcp2_mem_default()) != 0 || !pc || !tp_equal(pn, pc)) finding("transport_params_copy_new", 0, 0);
  ngtcp2_transport_params_del(pc, NULL);
  ngtcp2_transport_params_del(pn, NULL);
  free(buf);
}

/* --- packet numbers: RFC 9000 Appendix A.3 --- */
static void pktnum(wl_fdp *f) {
  size_t nlen = (size_t)(wl_fdp_u8(f) & 3) + 1;
  uint64_t largest = 0, trunc = 0;
  for (int i = 0; i < 8; i++) largest = largest << 8 | wl_fdp_u8(f);
  for (int i = 0; i < 4; i++) trunc = trunc << 8 | wl_fdp_u8(f);
  largest &= MAX_VARINT;
  if (largest == MAX_VARINT) largest--; /* the largest received is at most 2^62 - 2 so expected fits */
  trunc &= (nlen == 4 ? 0xffffffffULL : ((1ULL << (8 * nlen)) - 1));
  uint64_t expected = largest + 1, win = 1ULL << (8 * nlen), hwin = win / 2, mask = win - 1;
  uint64_t cand = (expected & ~mask) | trunc, want;
  if (cand + hwin <= expected) {
    if (cand >= (1ULL << 62) - win) return; /* A.3 keeps the candidate; ngtcp2 asserts (header comment) */
    want = cand + win;
  } else if (cand > expected + hwin && cand >= win) want = cand - win;
  else want = cand;
  int64_t got = ngtcp2_pkt_adjust_pkt_num((int64_t)largest, (int64_t)trunc, nlen);
  if ((uint64_t)got != want) finding("ngtcp2_pkt_adjust_pkt_num differs from RFC 9000 A.3", got, (long long)want);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wl_fdp f;
  qlog_setup();
  wl_fdp_init(&f, data, size);
  while (wl_fdp_left(&f) > 0) {
    uint8_t op = wl_fdp_u8(&f);
    size_t got;
    const uint8_t *b;
    switch (op & 7) {
    case 0: b = wl_fdp_bytes(&f, wl_fdp_len(&f), &got); frames(b, got, NULL, 0); break;
    case 1: b = wl_fdp_bytes(&f, wl_fdp_len(&f), &got); long_packet(b, got, (size_t)(op >> 3) % 21); break;
    case 2: b = wl_fdp_bytes(&f, wl_fdp_len(&f), &got); short_packet(b, got, (size_t)(op >> 3) % 21); break;
    case 3: b = wl_fdp_bytes(&f, wl_fdp_len(&f), &got); tparams(b, got); break;
    case 4: pktnum(&f); break;
    case 5: b = wl_fdp_bytes(&f, wl_fdp_len(&f), &got); { uint8_t *q = dup_exact(b, got); prefixes(q, got); free(q); } break;
    default: /* 6, 7: the rest of the input is one packet payload (raw frames, as upstream's decode_frame) */
      b = wl_fdp_bytes(&f, wl_fdp_left(&f), &got); frames(b, got, NULL, 0); break;
    }
  }
  return 0;
}
