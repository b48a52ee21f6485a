/* records.h — the QPACK offline-interop record stream every wirelab QPACK/H3 harness reads, plus the
 * small deterministic helpers they share (PRNG, failing allocator hooks). Header-only so each harness
 * is one translation unit that libFuzzer, AFL++, coverage and ClusterFuzzLite builds compile alike.
 *
 * Input layout: a 4-byte preamble, then records until the input ends.
 *   preamble: u16 BE dynamic table capacity, u8 max blocked streams, u8 knobs (harness-specific)
 *   record:   u64 BE stream id (0 = QPACK encoder stream), u32 BE length, length bytes of data
 * A record whose length runs past the input is truncated to what is left (fuzzers cut inputs
 * anywhere; keeping the tail still exercises the parser). */
#ifndef WIRELAB_FUZZ_RECORDS_H
#define WIRELAB_FUZZ_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  uint16_t table_capacity;
  uint8_t max_blocked;
  uint8_t knobs;
} wl_preamble;

typedef struct {
  const uint8_t *p, *end;
} wl_reader;

typedef struct {
  uint64_t stream_id;
  const uint8_t *data;
  size_t len;
} wl_record;

static inline int wl_read_preamble(wl_reader *r, const uint8_t *data, size_t size, wl_preamble *pre) {
  if (size < 4) return 0;
  pre->table_capacity = (uint16_t)(data[0] << 8 | data[1]);
  pre->max_blocked = data[2];
  pre->knobs = data[3];
  r->p = data + 4;
  r->end = data + size;
  return 1;
}

static inline uint64_t wl_be(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v = v << 8 | p[i];
  return v;
}

/* Returns 1 and fills rec while records remain. */
static inline int wl_next_record(wl_reader *r, wl_record *rec) {
  if ((size_t)(r->end - r->p) < 12) return 0;
  rec->stream_id = wl_be(r->p, 8);
  uint64_t len = wl_be(r->p + 8, 4);
  r->p += 12;
  size_t left = (size_t)(r->end - r->p);
  rec->len = len > left ? left : (size_t)len;
  rec->data = r->p;
  r->p += rec->len;
  return 1;
}

/* xorshift64*: the harness's own randomness (chunk sizes, callback and allocation failures) must be
 * a function of the input alone, or crashes would not reproduce. */
typedef struct { uint64_t s; } wl_rng;

static inline void wl_rng_seed(wl_rng *g, const uint8_t *data, size_t size) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ size;
  for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
  g->s = h ? h : 1;
}

static inline uint32_t wl_rng_next(wl_rng *g) {
  g->s ^= g->s >> 12; g->s ^= g->s << 25; g->s ^= g->s >> 27;
  return (uint32_t)((g->s * 0x2545f4914f6cdd1dull) >> 32);
}

/* 1 in n (n == 0: never). */
static inline int wl_rng_one_in(wl_rng *g, uint32_t n) { return n && wl_rng_next(g) % n == 0; }

#endif
