/* fdp.h — a FuzzedDataProvider for C harnesses: the input is consumed at the point a decision is
 * made, so a mutation changes one decision (one setting, one operation, one injected failure) and
 * leaves the rest of the run alone. Like LLVM's FuzzedDataProvider, operations and their data come
 * from the front of the input and yes/no decisions that arise at unpredictable times (callback and
 * allocation failures) from single bits at its back: a harness that injects no failure never reads
 * the back, and an extra injected failure does not shift the operations. Both ends meet in the
 * middle; an exhausted provider answers 0 (and "do not fail"). Header-only, no allocation. */
#ifndef WIRELAB_FUZZ_FDP_H
#define WIRELAB_FUZZ_FDP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  const uint8_t *p, *end; /* front cursor, back cursor (exclusive) */
  uint8_t bits;           /* back bits not yet used, LSB first */
  int nbits;
} wl_fdp;

static inline void wl_fdp_init(wl_fdp *f, const uint8_t *data, size_t size) {
  f->p = data;
  f->end = data + size;
  f->bits = 0;
  f->nbits = 0;
}

static inline size_t wl_fdp_left(const wl_fdp *f) { return (size_t)(f->end - f->p); }

static inline uint8_t wl_fdp_u8(wl_fdp *f) { return f->p < f->end ? *f->p++ : 0; }

static inline uint16_t wl_fdp_u16(wl_fdp *f) {
  uint16_t hi = wl_fdp_u8(f);
  return (uint16_t)(hi << 8 | wl_fdp_u8(f));
}

/* A length: one byte, 255 = a u16 follows. */
static inline size_t wl_fdp_len(wl_fdp *f) {
  size_t n = wl_fdp_u8(f);
  return n == 255 ? wl_fdp_u16(f) : n;
}

/* Up to n bytes from the front; *got says how many there were. */
static inline const uint8_t *wl_fdp_bytes(wl_fdp *f, size_t n, size_t *got) {
  size_t left = wl_fdp_left(f);
  const uint8_t *r = f->p;
  *got = n < left ? n : left;
  f->p += *got;
  return r;
}

/* One bit from the back (0 once the input is used up). */
static inline int wl_fdp_back_bit(wl_fdp *f) {
  if (f->nbits == 0) {
    if (f->end <= f->p) return 0;
    f->bits = *--f->end;
    f->nbits = 8;
  }
  int b = f->bits & 1;
  f->bits >>= 1;
  f->nbits--;
  return b;
}

#endif
