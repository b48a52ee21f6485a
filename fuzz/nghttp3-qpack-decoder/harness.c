/* nghttp3-qpack-decoder — nghttp3's QPACK decoder driven like an HTTP/3 endpoint drives it.
 *
 * Input: records.h's preamble + interop records. Stream 0 feeds the encoder stream; every other record
 * is one complete field section of that request stream. Preamble: hard dynamic table capacity,
 * max blocked streams; knobs bits 0-2 = allocation-failure rate (0 off), bit 3 = feed field sections
 * in random chunks, bit 4 = feed the encoder stream in random chunks.
 * Sections that block wait in a queue ordered by required insert count and resume once enough
 * inserts arrived; more blocked sections than allowed is a decompression failure (RFC 9204 2.1.2).
 * The decoder stream nghttp3 writes is parsed and checked against what happened: every Section
 * Acknowledgment names a finished section with a non-zero required insert count, every Stream
 * Cancellation a stream we cancelled, and Insert Count Increments never exceed the inserts received.
 * Any violated invariant aborts (a finding); protocol errors just end the "connection". */
#include <stdio.h>
#include <stdlib.h>
#include <nghttp3/nghttp3.h>
#include "../common/records.h"
#include "../common/nghttp3_failmem.h"

#define MAX_IDS 1024

typedef struct {
  int64_t stream_id;
  nghttp3_qpack_stream_context *sctx;
  const uint8_t *p;
  size_t left;
  uint64_t ricnt;
} section;

typedef struct {
  nghttp3_qpack_decoder *dec;
  const nghttp3_mem *mem;
  wl_failmem *fm;
  wl_rng rng;
  int chunk_sections, chunk_encoder;
  size_t max_blocked;
  section blocked[256]; /* sorted by ricnt */
  size_t nblocked;
  int64_t want_ack[MAX_IDS]; /* finished sections with ricnt > 0, not yet acknowledged */
  size_t nwant_ack;
  int64_t cancelled[MAX_IDS];
  size_t ncancelled;
  uint64_t increments; /* sum of Insert Count Increments written so far */
} state;

static void finding(const char *what, long long a, long long b) {
  fprintf(stderr, "nghttp3-qpack-decoder: invariant violated: %s (%lld, %lld)\n", what, a, b);
  abort();
}

/* A library error is fine unless it claims NOMEM while no allocation failed. */
static int lib_error(state *s, long rv) {
  if (rv == NGHTTP3_ERR_NOMEM && s->fm->failures == 0) finding("NOMEM without an allocation failure", rv, 0);
  return -1;
}

static size_t chunk(state *s, int on, size_t left) {
  if (!on || left <= 1) return left;
  return 1 + wl_rng_next(&s->rng) % (left < 24 ? left : 24);
}

static int remove_id(int64_t *ids, size_t *n, int64_t id) {
  for (size_t i = 0; i < *n; i++)
    if (ids[i] == id) { ids[i] = ids[--*n]; return 1; }
  return 0;
}

static int read_prefix_int(const uint8_t **p, const uint8_t *end, int bits, uint64_t *out) {
  uint64_t max = (1u << bits) - 1, v = **p & max;
  (*p)++;
  if (v == max) {
    for (int shift = 0;; shift += 7) {
      if (*p == end || shift > 56) return 0;
      uint8_t c = *(*p)++;
      v += (uint64_t)(c & 0x7f) << shift;
      if (!(c & 0x80)) break;
    }
  }
  *out = v;
  return 1;
}

static void check_decoder_stream(state *s) {
  size_t len = nghttp3_qpack_decoder_get_decoder_streamlen(s->dec);
  if (len == 0) return;
  uint8_t *buf = malloc(len);
  nghttp3_buf b = {buf, buf + len, buf, buf};
  nghttp3_qpack_decoder_write_decoder(s->dec, &b);
  if ((size_t)(b.last - b.pos) != len) finding("decoder stream length differs from announced", b.last - b.pos, len);
  uint64_t icnt = nghttp3_qpack_decoder_get_icnt(s->dec);
  for (const uint8_t *p = b.pos; p < b.last;) {
    uint8_t op = *p;
    uint64_t v;
    if (!read_prefix_int(&p, b.last, op & 0x80 ? 7 : 6, &v)) finding("truncated decoder instruction", op, 0);
    if (op & 0x80) {
      if (!remove_id(s->want_ack, &s->nwant_ack, (int64_t)v)) finding("Section Acknowledgment for no pending section", v, 0);
    } else if (op & 0x40) {
      if (!remove_id(s->cancelled, &s->ncancelled, (int64_t)v)) finding("Stream Cancellation for a stream not cancelled", v, 0);
    } else {
      if (v == 0) finding("Insert Count Increment of 0", 0, 0);
      s->increments += v;
      if (s->increments > icnt) finding("Insert Count Increment beyond inserts received", s->increments, icnt);
    }
  }
  free(buf);
}

static void check_field(const nghttp3_qpack_nv *nv) {
  nghttp3_vec name = nghttp3_rcbuf_get_buf(nv->name), value = nghttp3_rcbuf_get_buf(nv->value);
  /* The API guarantees NUL termination; reading it also lets ASan check the buffers' extents. */
  if (name.base[name.len] != 0 || value.base[value.len] != 0) finding("field not NUL-terminated", name.len, value.len);
}

/* Returns 0 when the section finished, 1 when it blocked, -1 on error. */
static int decode(state *s, section *sec) {
  for (;;) {
    size_t n = chunk(s, s->chunk_sections, sec->left);
    int fin = n == sec->left;
    nghttp3_qpack_nv nv;
    uint8_t flags = 0;
    nghttp3_ssize r = nghttp3_qpack_decoder_read_request(s->dec, sec->sctx, &nv, &flags, sec->p, n, fin);
    if (r < 0) return lib_error(s, r);
    if ((size_t)r > n) finding("read_request consumed more than given", r, n);
    sec->p += r;
    sec->left -= (size_t)r;
    if (flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) {
      check_field(&nv);
      nghttp3_rcbuf_decref(nv.name);
      nghttp3_rcbuf_decref(nv.value);
    }
    if (flags & NGHTTP3_QPACK_DECODE_FLAG_FINAL) {
      if (nghttp3_qpack_stream_context_get_ricnt(sec->sctx) > 0 && s->nwant_ack < MAX_IDS)
        s->want_ack[s->nwant_ack++] = sec->stream_id;
      return 0;
    }
    if (flags & NGHTTP3_QPACK_DECODE_FLAG_BLOCKED) {
      sec->ricnt = nghttp3_qpack_stream_context_get_ricnt(sec->sctx);
      if (sec->ricnt <= nghttp3_qpack_decoder_get_icnt(s->dec))
        finding("blocked although required insert count is reached", sec->ricnt, nghttp3_qpack_decoder_get_icnt(s->dec));
      return 1;
    }
    if (!(flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) && (size_t)r != n) finding("read_request stopped early without a flag", r, n);
    /* nghttp3 returns right after emitting a field, even the last one, without looking at fin; the
     * section ends (FLAG_FINAL + Section Acknowledgment) only on a further call with the remaining
     * 0 bytes and fin, which either finishes it or fails. So with fin given, a call that emits
     * nothing must finish, block or fail; anything else would loop forever. */
    if (fin && !flags) finding("read_request made no progress at the end of a section", r, n);
  }
}

static int enqueue_blocked(state *s, section *sec) {
  if (s->nblocked >= s->max_blocked || s->nblocked >= sizeof s->blocked / sizeof s->blocked[0]) return -1;
  size_t i = s->nblocked++;
  while (i > 0 && s->blocked[i - 1].ricnt > sec->ricnt) { s->blocked[i] = s->blocked[i - 1]; i--; }
  s->blocked[i] = *sec;
  return 0;
}

static int unblock(state *s) {
  uint64_t icnt = nghttp3_qpack_decoder_get_icnt(s->dec);
  while (s->nblocked && s->blocked[0].ricnt <= icnt) {
    section sec = s->blocked[0];
    memmove(s->blocked, s->blocked + 1, --s->nblocked * sizeof sec);
    int rv = decode(s, &sec);
    nghttp3_qpack_stream_context_del(sec.sctx);
    if (rv == 1) finding("still blocked after required inserts arrived", sec.ricnt, icnt);
    if (rv < 0) return -1;
  }
  return 0;
}

static int on_encoder(state *s, const uint8_t *p, size_t len) {
  while (len) {
    size_t n = chunk(s, s->chunk_encoder, len);
    nghttp3_ssize r = nghttp3_qpack_decoder_read_encoder(s->dec, p, n);
    if (r < 0) return lib_error(s, r);
    if ((size_t)r != n) finding("read_encoder consumed a different amount", r, n);
    p += n;
    len -= n;
  }
  return unblock(s);
}

static int on_section(state *s, int64_t stream_id, const uint8_t *p, size_t len) {
  section sec = {stream_id, NULL, p, len, 0};
  int rv = nghttp3_qpack_stream_context_new(&sec.sctx, stream_id, s->mem);
  if (rv != 0) return lib_error(s, rv);
  rv = decode(s, &sec);
  if (rv == 1 && enqueue_blocked(s, &sec) == 0) return 0;
  nghttp3_qpack_stream_context_del(sec.sctx);
  return rv == 0 ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wl_reader rd;
  wl_preamble pre;
  if (!wl_read_preamble(&rd, data, size, &pre)) return 0;
  wl_failmem fm;
  nghttp3_mem mem = wl_failmem_init(&fm, pre.knobs & 7, data, size);
  static state s; /* large; zeroed per input below */
  memset(&s, 0, sizeof s);
  s.mem = &mem;
  s.fm = &fm;
  wl_rng_seed(&s.rng, data, size);
  s.chunk_sections = pre.knobs >> 3 & 1;
  s.chunk_encoder = pre.knobs >> 4 & 1;
  s.max_blocked = pre.max_blocked;
  if (nghttp3_qpack_decoder_new(&s.dec, pre.table_capacity, pre.max_blocked, &mem) != 0) return 0;
  nghttp3_qpack_decoder_set_max_concurrent_streams(s.dec, 64);

  wl_record rec;
  int rv = 0;
  while (rv == 0 && wl_next_record(&rd, &rec)) {
    if (rec.stream_id == 0)
      rv = on_encoder(&s, rec.data, rec.len);
    else
      rv = on_section(&s, (int64_t)(rec.stream_id & 0x3fffffffffffffffull), rec.data, rec.len);
    if (rv == 0) check_decoder_stream(&s);
  }
  /* Streams still blocked at the end are reset by the peer: cancel them like an endpoint would. */
  for (size_t i = 0; i < s.nblocked; i++) {
    if (rv == 0) {
      if (nghttp3_qpack_decoder_cancel_stream(s.dec, s.blocked[i].stream_id) != 0) rv = -1;
      else if (s.ncancelled < MAX_IDS) s.cancelled[s.ncancelled++] = s.blocked[i].stream_id;
    }
    nghttp3_qpack_stream_context_del(s.blocked[i].sctx);
  }
  if (rv == 0) check_decoder_stream(&s);
  nghttp3_qpack_decoder_del(s.dec);
  return 0;
}
