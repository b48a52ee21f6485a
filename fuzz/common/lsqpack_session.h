/* lsqpack_session.h — drives ls-qpack's decoder (through lsqpack_abi.h) the way an HTTP/3 endpoint
 * does: encoder-stream bytes in, complete header blocks in, blocked blocks kept until the decoder's
 * unblocked callback fires, then resumed. Every finished block is handed to a callback with its
 * header list. Shared by the lsqpack-decoder and qpack-differential harnesses and the ABI test tool. */
#ifndef WIRELAB_FUZZ_LSQPACK_SESSION_H
#define WIRELAB_FUZZ_LSQPACK_SESSION_H

#include "lsqpack_abi.h"
#include "hlist.h"

#define WL_LSQ_MAX_BLOCKS 256

typedef void (*wl_lsq_done_fn)(void *arg, uint64_t stream_id, const wl_hlist *fields);

typedef struct {
  uint64_t stream_id;
  const unsigned char *p; /* what is left of the block (the input outlives the session) */
  size_t left, total;
  int unblocked;
} wl_lsq_block;

typedef struct {
  wl_lsqpack_dec_storage storage;
  struct lsqpack_dec *dec;
  wl_lsq_block *blocked[WL_LSQ_MAX_BLOCKS];
  size_t nblocked;
  size_t acks; /* Section Acknowledgments written to dec_buf */
  wl_lsq_done_fn done;
  void *arg;
} wl_lsq;

static void wl_lsq_unblocked_cb(void *ctx) { ((wl_lsq_block *)ctx)->unblocked = 1; }

static void wl_lsq_block_free(wl_lsq_block *b) { free(b); }

static inline void wl_lsq_init(wl_lsq *s, unsigned capacity, unsigned max_blocked, wl_lsq_done_fn done, void *arg) {
  s->dec = (struct lsqpack_dec *)s->storage.bytes;
  s->nblocked = 0;
  s->acks = 0;
  s->done = done;
  s->arg = arg;
  lsqpack_dec_init(s->dec, NULL, capacity, max_blocked, wl_lsq_unblocked_cb);
}

/* One step of a block: 0 finished (done() called), 1 still waiting, -1 rejected. */
static int wl_lsq_step(wl_lsq *s, wl_lsq_block *b, int first) {
  unsigned char ack[64];
  size_t acklen = sizeof ack;
  const unsigned char *p = b->p;
  struct lsqpack_header_list *hl = NULL;
  enum lsqpack_read_header_status st =
    first ? lsqpack_dec_header_in(s->dec, b, b->stream_id, b->total, &p, b->left, &hl, ack, &acklen)
          : lsqpack_dec_header_read(s->dec, b, &p, b->left, &hl, ack, &acklen);
  b->left -= (size_t)(p - b->p);
  b->p = p;
  switch (st) {
  case LQRHS_DONE:
  {
    if (acklen > 0) s->acks++;
    wl_hlist h = {0};
    for (unsigned i = 0; hl && i < hl->qhl_count; i++) {
      const struct lsqpack_header *f = hl->qhl_headers[i];
      wl_hlist_add(&h, f->qh_name, f->qh_name_len, f->qh_value, f->qh_value_len);
    }
    if (hl) lsqpack_dec_destroy_header_list(hl);
    s->done(s->arg, b->stream_id, &h);
    wl_hlist_free(&h);
    return 0;
  }
  case LQRHS_BLOCKED:
    b->unblocked = 0;
    return 1;
  case LQRHS_NEED: /* the whole block was given: needing more means it is truncated */
    lsqpack_dec_unref_stream(s->dec, b);
    return -1;
  default:
    return -1;
  }
}

/* A complete header block for stream_id: 0 finished or queued as blocked, -1 rejected. */
static inline int wl_lsq_header_block(wl_lsq *s, uint64_t stream_id, const unsigned char *p, size_t len) {
  wl_lsq_block *b = calloc(1, sizeof *b);
  if (!b) abort();
  b->stream_id = stream_id;
  b->p = p;
  b->left = b->total = len;
  int rv = wl_lsq_step(s, b, 1);
  if (rv == 1 && s->nblocked < WL_LSQ_MAX_BLOCKS) {
    s->blocked[s->nblocked++] = b;
    return 0;
  }
  if (rv == 1) lsqpack_dec_unref_stream(s->dec, b);
  wl_lsq_block_free(b);
  return rv == 0 ? 0 : -1;
}

/* Encoder-stream bytes, then every block they unblocked is resumed: 0 ok, -1 rejected. */
static inline int wl_lsq_encoder(wl_lsq *s, const unsigned char *p, size_t len) {
  if (lsqpack_dec_enc_in(s->dec, p, len) < 0) return -1;
  for (size_t i = 0; i < s->nblocked;) {
    wl_lsq_block *b = s->blocked[i];
    if (!b->unblocked) { i++; continue; }
    int rv = wl_lsq_step(s, b, 0);
    if (rv == 1) { i++; continue; }
    memmove(s->blocked + i, s->blocked + i + 1, (--s->nblocked - i) * sizeof *s->blocked);
    wl_lsq_block_free(b);
    if (rv < 0) return -1;
  }
  return 0;
}

static inline int wl_lsq_is_blocked(const wl_lsq *s, uint64_t stream_id) {
  for (size_t i = 0; i < s->nblocked; i++)
    if (s->blocked[i]->stream_id == stream_id) return 1;
  return 0;
}

static inline void wl_lsq_free(wl_lsq *s) {
  for (size_t i = 0; i < s->nblocked; i++) {
    lsqpack_dec_unref_stream(s->dec, s->blocked[i]);
    wl_lsq_block_free(s->blocked[i]);
  }
  s->nblocked = 0;
  lsqpack_dec_cleanup(s->dec);
}

#endif
