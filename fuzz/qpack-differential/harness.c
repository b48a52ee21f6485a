/* qpack-differential — the same QPACK input to nghttp3's decoder and to ls-qpack's (Debian's pylsqpack
 * build, through fuzz/common/lsqpack_abi.h); they must agree.
 *
 * Input: records.h's preamble (table capacity, max blocked streams; knobs unused) + interop records:
 * stream 0 feeds both encoder streams, every other record is one complete field section. Both decoders
 * run like an endpoint runs them: blocked sections wait and resume once the inserts arrived, and more
 * blocked sections than allowed is an error (ls-qpack enforces that itself; nghttp3 leaves it to the
 * caller, so this harness does it for nghttp3). A record on a stream whose section is still blocked is
 * skipped for both (a real stream would queue it behind). So is encoder-stream data past nghttp3's
 * anti-flood limit (128 KiB of encoder stream with no field section finished in between,
 * NGHTTP3_QPACK_MAX_ENCODERLEN): a resource policy of nghttp3, not a QPACK rule ls-qpack shares.
 * After every record the two sides must agree: both rejected the input, or neither did and the same
 * sections finished with the same header lists and the same need for a Section Acknowledgment (RIC > 0).
 * At the end the same streams must still be blocked. A disagreement aborts and prints both sides.
 * ls-qpack is a prebuilt library: no coverage feedback or sanitizer checks inside it (fuzz/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <nghttp3/nghttp3.h>
#include "../common/records.h"
#include "../common/hlist.h"
#include "../common/lsqpack_session.h"
#include "../common/qpack_refs.h"

#define MAX_EVENTS 300

typedef struct { uint64_t sid; int ack; uint64_t ric; const uint8_t *sec; size_t sec_len; wl_hlist h; } event;
typedef struct { event ev[MAX_EVENTS]; size_t n; int failed; long err; } side;

typedef struct { int64_t sid; nghttp3_qpack_stream_context *sctx; const uint8_t *p; size_t left; uint64_t ricnt; const uint8_t *sec; size_t sec_len; } nsec;

#define NGHTTP3_ENCODER_FLOOD_LIMIT (128 * 1024) /* nghttp3_qpack.h NGHTTP3_QPACK_MAX_ENCODERLEN */
static size_t uninterrupted_encoder; /* mirrors nghttp3's count; reset when a section finishes */
/* The encoder stream as nghttp3 was fed it (the input is at most max_len = 64 KiB). */
static uint8_t enc_seen[1 << 16];
static size_t enc_seen_len;
static int enc_seen_overflow;
static side sides[2]; /* 0 = nghttp3, 1 = ls-qpack: what finished during the current record */
static const char *const names[2] = {"nghttp3 1.15.0", "ls-qpack (pylsqpack 0.3.18)"};

static event *add_event(side *sd, uint64_t sid, int ack, uint64_t ric, const wl_hlist *h) {
  static event spare;
  if (sd->n == MAX_EVENTS) return &spare;
  event *e = &sd->ev[sd->n++];
  e->sid = sid;
  e->ric = ric;
  e->ack = ack;
  memset(&e->h, 0, sizeof e->h);
  wl_hlist_put(&e->h, h->p, h->len);
  e->h.nfields = h->nfields;
  return e;
}

static void lsq_done(void *arg, uint64_t sid, const wl_hlist *h) {
  wl_lsq *s = arg;
  add_event(&sides[1], sid, s->acks != 0, 0, h);
  s->acks = 0;
}

/* nghttp3: 0 finished, 1 blocked, -1 rejected. */
static int n_decode(nghttp3_qpack_decoder *dec, nsec *sec) {
  wl_hlist h = {0};
  for (;;) {
    nghttp3_qpack_nv nv;
    uint8_t flags = 0;
    nghttp3_ssize r = nghttp3_qpack_decoder_read_request(dec, sec->sctx, &nv, &flags, sec->p, sec->left, 1);
    if (r < 0) { wl_hlist_free(&h); sides[0].err = (long)r; return -1; }
    sec->p += r;
    sec->left -= (size_t)r;
    if (flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) {
      nghttp3_vec n = nghttp3_rcbuf_get_buf(nv.name), v = nghttp3_rcbuf_get_buf(nv.value);
      wl_hlist_add(&h, (const char *)n.base, n.len, (const char *)v.base, v.len);
      nghttp3_rcbuf_decref(nv.name);
      nghttp3_rcbuf_decref(nv.value);
    }
    if (flags & NGHTTP3_QPACK_DECODE_FLAG_FINAL) {
      uninterrupted_encoder = 0;
      uint64_t ric = nghttp3_qpack_stream_context_get_ricnt(sec->sctx);
      event *e = add_event(&sides[0], (uint64_t)sec->sid, ric > 0, ric, &h);
      e->sec = sec->sec;
      e->sec_len = sec->sec_len;
      wl_hlist_free(&h);
      return 0;
    }
    if (flags & NGHTTP3_QPACK_DECODE_FLAG_BLOCKED) {
      wl_hlist_free(&h); /* empty: only the prefix decides blocking */
      sec->ricnt = nghttp3_qpack_stream_context_get_ricnt(sec->sctx);
      return 1;
    }
    if (!flags && r == 0) { wl_hlist_free(&h); return -1; } /* cannot happen with fin; never loop */
  }
}

typedef struct {
  nghttp3_qpack_decoder *dec;
  nsec blocked[256];
  size_t nblocked, max_blocked;
} nside;

static int n_unblock(nside *n) {
  uint64_t icnt = nghttp3_qpack_decoder_get_icnt(n->dec);
  for (size_t i = 0; i < n->nblocked;) {
    if (n->blocked[i].ricnt > icnt) { i++; continue; }
    nsec sec = n->blocked[i];
    memmove(n->blocked + i, n->blocked + i + 1, (--n->nblocked - i) * sizeof sec);
    int rv = n_decode(n->dec, &sec);
    nghttp3_qpack_stream_context_del(sec.sctx);
    if (rv != 0) return -1;
  }
  return 0;
}

static int n_section(nside *n, int64_t sid, const uint8_t *p, size_t len) {
  nsec sec = {sid, NULL, p, len, 0, p, len};
  if (nghttp3_qpack_stream_context_new(&sec.sctx, sid, nghttp3_mem_default()) != 0) abort();
  int rv = n_decode(n->dec, &sec);
  if (rv == 1 && n->nblocked < n->max_blocked && n->nblocked < 256) { n->blocked[n->nblocked++] = sec; return 0; }
  nghttp3_qpack_stream_context_del(sec.sctx);
  return rv == 0 ? 0 : -1;
}

static int n_is_blocked(const nside *n, int64_t sid) {
  for (size_t i = 0; i < n->nblocked; i++) if (n->blocked[i].sid == sid) return 1;
  return 0;
}

static int by_sid(const void *a, const void *b) {
  uint64_t x = ((const event *)a)->sid, y = ((const event *)b)->sid;
  return x < y ? -1 : x > y;
}

static wl_lsq lsq;

/* One abort site per kind of disagreement, so crash triage (stack signatures) keeps the kinds apart. */
__attribute__((noinline)) static void disagree_on_sections(void) { abort(); }
__attribute__((noinline)) static void disagree_nghttp3_rejects(void) { abort(); }
__attribute__((noinline)) static void disagree_lsqpack_rejects(void) { abort(); }
__attribute__((noinline)) static void disagree_on_blocked(void) { abort(); }

static void dump(const side *sd, int which) {
  fprintf(stderr, "--- %s: %s, %zu section(s) finished", names[which], sd->failed ? "REJECTED" : "accepted", sd->n);
  if (sd->failed && which == 0) fprintf(stderr, " (%s)", nghttp3_strerror((int)sd->err));
  if (sd->failed && which == 1) {
    const struct lsqpack_dec_err *e = lsqpack_dec_get_err_info(lsq.dec);
    if (e) fprintf(stderr, " (%s, lsqpack.c line %d, offset %llu)", e->type ? "encoder stream" : "header block", e->line, (unsigned long long)e->off);
  }
  fputc('\n', stderr);
  for (size_t i = 0; i < sd->n; i++) {
    fprintf(stderr, "stream %llu (section ack %s):\n", (unsigned long long)sd->ev[i].sid, sd->ev[i].ack ? "yes" : "no");
    wl_hlist_print(&sd->ev[i].h, stderr, 1);
  }
}

static const uint8_t *cur_data;
static size_t cur_len;

static void compare(size_t rec_index, const char *what) {
  int same = sides[0].failed == sides[1].failed;
  if (same && !sides[0].failed) {
    same = sides[0].n == sides[1].n;
    qsort(sides[0].ev, sides[0].n, sizeof(event), by_sid);
    qsort(sides[1].ev, sides[1].n, sizeof(event), by_sid);
    for (size_t i = 0; same && i < sides[0].n; i++)
      same = sides[0].ev[i].sid == sides[1].ev[i].sid && sides[0].ev[i].ack == sides[1].ev[i].ack &&
             wl_hlist_equal(&sides[0].ev[i].h, &sides[1].ev[i].h);
  }
  if (!same) {
    fprintf(stderr, "qpack-differential: decoders disagree at record %zu (%s, %zu bytes):", rec_index, what, cur_len);
    for (size_t k = 0; k < cur_len && k < 96; k++) fprintf(stderr, " %02x", cur_data[k]);
    fprintf(stderr, "%s\n", cur_len > 96 ? " ..." : "");
    dump(&sides[0], 0);
    dump(&sides[1], 1);
    if (sides[0].failed != sides[1].failed) sides[0].failed ? disagree_nghttp3_rejects() : disagree_lsqpack_rejects();
    disagree_on_sections();
  }
  for (int k = 0; k < 2; k++) {
    for (size_t i = 0; i < sides[k].n; i++) wl_hlist_free(&sides[k].ev[i].h);
    sides[k].n = 0;
  }
}

static nside ng;

static void clear_events(side *sd) {
  for (size_t i = 0; i < sd->n; i++) wl_hlist_free(&sd->ev[i].h);
  sd->n = 0;
}

/* One record to the sides still alive. */
static void feed(const wl_record *rec) {
  if (rec->stream_id == 0) {
    if (uninterrupted_encoder + rec->len > NGHTTP3_ENCODER_FLOOD_LIMIT) return;
    uninterrupted_encoder += rec->len;
    if (!sides[0].failed) {
      if (enc_seen_len + rec->len <= sizeof enc_seen) memcpy(enc_seen + enc_seen_len, rec->data, rec->len);
      else enc_seen_overflow = 1;
      enc_seen_len += rec->len;
      nghttp3_ssize r = nghttp3_qpack_decoder_read_encoder(ng.dec, rec->data, rec->len);
      if (r < 0) sides[0].err = (long)r;
      sides[0].failed = r < 0 || n_unblock(&ng) != 0;
    }
    if (!sides[1].failed) sides[1].failed = wl_lsq_encoder(&lsq, rec->data, rec->len) != 0;
    return;
  }
  uint64_t sid = rec->stream_id & 0x3fffffffffffffffull;
  if ((!sides[0].failed && n_is_blocked(&ng, (int64_t)sid)) || (!sides[1].failed && wl_lsq_is_blocked(&lsq, sid))) return;
  /* WL_DIFF_STRICT=1 (fuzz/test.sh) turns the two known-finding filters below off. */
  static int strict = -1;
  if (strict < 0) strict = getenv("WL_DIFF_STRICT") != NULL;
  /* Known finding (fuzz/README.md): ls-qpack 1.x rejects a field section with no field lines, which
   * RFC 9204 4.5 allows ("possibly empty"). Skipped so the campaign can find something new. */
  wl_qshape shape;
  if (!strict && wl_qpack_shape(rec->data, rec->len, 1ull << 62, &shape) && shape.lines == 0) return; /* RIC only sets Base */
  /* Known finding too: ls-qpack accepts Sign = 1 with Required Insert Count 0, which RFC 9204 4.5.1.2
   * says MUST be treated as invalid (RIC <= Delta Base); nghttp3 rejects it. */
  if (!strict && rec->len >= 2 && rec->data[0] == 0 && (rec->data[1] & 0x80)) return;
  if (!sides[0].failed) sides[0].failed = n_section(&ng, (int64_t)sid, rec->data, rec->len) != 0;
  if (!sides[1].failed) sides[1].failed = wl_lsq_header_block(&lsq, sid, rec->data, rec->len) != 0;
}

/* A Required Insert Count larger than the newest entry referenced + 1 is an error a decoder MAY
 * report (QPACK: "larger than defined above ... MAY treat this as" an error): ls-qpack does, also
 * when it resumes a blocked section; nghttp3 does not. Both are conformant, so when ls-qpack fails
 * in a record in which nghttp3 finished such a section, the input ends here as if both rejected it. */
static void allow_ric_policy(void) {
  wl_qshape shape;
  if (!sides[1].failed || sides[0].failed) return;
  for (size_t k = 0; k < sides[0].n; k++) {
    const event *e = &sides[0].ev[k];
    if (e->sec && wl_qpack_shape(e->sec, e->sec_len, e->ric, &shape) && e->ric > shape.need_ric) sides[0].failed = 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wl_reader rd;
  wl_preamble pre;
  if (!wl_read_preamble(&rd, data, size, &pre)) return 0;
  memset(&ng, 0, sizeof ng);
  memset(sides, 0, sizeof sides);
  uninterrupted_encoder = 0;
  enc_seen_len = 0;
  enc_seen_overflow = 0;
  ng.max_blocked = pre.max_blocked;
  if (nghttp3_qpack_decoder_new(&ng.dec, pre.table_capacity, pre.max_blocked, nghttp3_mem_default()) != 0) abort();
  wl_lsq_init(&lsq, pre.table_capacity, pre.max_blocked, lsq_done, &lsq);

  /* When only one side rejects, the other keeps going: detecting an error later is not a
   * disagreement (ls-qpack rejects an oversized insert before its last byte arrives, nghttp3 checks
   * a blocked section's Base before blocking, ls-qpack when it resumes). It is one when the other
   * side never rejects and goes on finishing sections. */
  int rejected = -1;
  size_t rejected_at = 0, i = 0;
  uint64_t rej_sid = UINT64_MAX; /* the field section rejected, or UINT64_MAX: the encoder stream */
  size_t rej_enc_end = 0;        /* encoder bytes nghttp3 had when ls-qpack rejected the encoder stream */
  const uint8_t *rej_data = NULL;
  size_t rej_len = 0;
  wl_record rec;
  while (!(sides[0].failed && sides[1].failed) && wl_next_record(&rd, &rec)) {
    cur_data = rec.data;
    cur_len = rec.len;
    feed(&rec);
    allow_ric_policy();
    if (rejected < 0 && sides[0].failed == sides[1].failed) {
      compare(i, rec.stream_id == 0 ? "encoder stream" : "field section");
    } else if (rejected < 0) {
      rejected = sides[0].failed ? 0 : 1;
      rejected_at = i;
      rej_sid = rec.stream_id == 0 ? UINT64_MAX : rec.stream_id & 0x3fffffffffffffffull;
      rej_enc_end = enc_seen_len;
      rej_data = rec.data;
      rej_len = rec.len;
      clear_events(&sides[rejected]);
    }
    i++;
  }
  /* After a rejected encoder stream any section finished by the other side is a disagreement; after a
   * rejected field section, only that section finishing (sections on other streams may be fine). */
  int finished_anyway = 0;
  for (size_t k = 0; rejected >= 0 && k < sides[!rejected].n; k++)
    finished_anyway |= rej_sid == UINT64_MAX || sides[!rejected].ev[k].sid == rej_sid;
  /* ls-qpack rejects an instruction as soon as its announced lengths cannot fit the table, before its
   * last byte (RFC 9204 4.3 lets a decoder detect the error then); if the input ends before nghttp3 has
   * the whole instruction, nghttp3 has not judged it, and sections it finishes from earlier entries
   * prove nothing. Residual blind spot: a complete instruction ls-qpack rejects earlier in the same
   * record as such a cut one. */
  if (rejected == 1 && rej_sid == UINT64_MAX && !enc_seen_overflow && wl_qpack_encoder_cut(enc_seen, enc_seen_len, rej_enc_end))
    finished_anyway = 0;
  if (rejected >= 0 && !sides[!rejected].failed && finished_anyway) {
    fprintf(stderr, "qpack-differential: decoders disagree: %s rejected record %zu (%zu bytes):", names[rejected], rejected_at, rej_len);
    for (size_t k = 0; k < rej_len && k < 96; k++) fprintf(stderr, " %02x", rej_data[k]);
    fprintf(stderr, "%s\n%s accepted it and every later record, finishing these sections from there on:\n", rej_len > 96 ? " ..." : "", names[!rejected]);
    dump(&sides[0], 0);
    dump(&sides[1], 1);
    rejected == 0 ? disagree_nghttp3_rejects() : disagree_lsqpack_rejects();
  }
  if (rejected < 0 && !sides[0].failed) {
    int same = ng.nblocked == lsq.nblocked;
    for (size_t k = 0; same && k < ng.nblocked; k++) same = wl_lsq_is_blocked(&lsq, (uint64_t)ng.blocked[k].sid);
    if (!same) {
      fprintf(stderr, "qpack-differential: decoders disagree on blocked streams at the end: %s %zu, %s %zu\n",
              names[0], ng.nblocked, names[1], lsq.nblocked);
      disagree_on_blocked();
    }
  }
  clear_events(&sides[0]);
  clear_events(&sides[1]);
  for (size_t k = 0; k < ng.nblocked; k++) nghttp3_qpack_stream_context_del(ng.blocked[k].sctx);
  nghttp3_qpack_decoder_del(ng.dec);
  wl_lsq_free(&lsq);
  return 0;
}
