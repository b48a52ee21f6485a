/* qpack_refs.h — a small reader of an encoded field section's shape (RFC 9204 4.5), the differential
 * harness's referee for two known, permitted differences: how many field lines there are, and which
 * dynamic-table entry is the newest one referenced (RIC larger than that + 1 is an error a decoder
 * MAY report); and whether an encoder stream ends inside an instruction. Strings are skipped, not decoded. */
#ifndef WIRELAB_FUZZ_QPACK_REFS_H
#define WIRELAB_FUZZ_QPACK_REFS_H

#include <stddef.h>
#include <stdint.h>

/* RFC 7541 5.1 prefix integer; 0 when truncated or too large. */
static inline int wl_qint(const uint8_t **p, const uint8_t *end, int bits, uint64_t *v) {
  if (*p >= end) return 0;
  uint64_t max = (1u << bits) - 1;
  *v = **p & max;
  (*p)++;
  if (*v < max) return 1;
  for (int shift = 0; shift <= 56; shift += 7) {
    if (*p >= end) return 0;
    uint8_t c = *(*p)++;
    *v += (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return 1;
  }
  return 0;
}

static inline int wl_qskip_string(const uint8_t **p, const uint8_t *end, int bits) {
  uint64_t n;
  if (!wl_qint(p, end, bits, &n) || n > (uint64_t)(end - *p)) return 0;
  *p += n;
  return 1;
}

typedef struct {
  size_t lines;       /* field lines */
  uint64_t need_ric;  /* newest dynamic entry referenced + 1 (0: none) */
} wl_qshape;

/* ric: the section's Required Insert Count as the decoder reconstructed it. 1 = parsed. */
static inline int wl_qpack_shape(const uint8_t *p, size_t len, uint64_t ric, wl_qshape *out) {
  const uint8_t *end = p + len;
  uint64_t v, delta;
  out->lines = 0;
  out->need_ric = 0;
  if (!wl_qint(&p, end, 8, &v) || p >= end) return 0;
  int sign = *p >> 7;
  if (!wl_qint(&p, end, 7, &delta)) return 0;
  if (sign && delta >= ric) return 0;
  uint64_t base = sign ? ric - delta - 1 : ric + delta;
  while (p < end) {
    uint8_t c = *p;
    uint64_t abs = UINT64_MAX;
    if (c & 0x80) { /* indexed */
      if (!wl_qint(&p, end, 6, &v)) return 0;
      if (!(c & 0x40)) { if (v >= base) return 0; abs = base - 1 - v; }
    } else if (c & 0x40) { /* literal, name reference */
      if (!wl_qint(&p, end, 4, &v) || !wl_qskip_string(&p, end, 7)) return 0;
      if (!(c & 0x10)) { if (v >= base) return 0; abs = base - 1 - v; }
    } else if (c & 0x20) { /* literal, literal name */
      if (!wl_qskip_string(&p, end, 3) || !wl_qskip_string(&p, end, 7)) return 0;
    } else if (c & 0x10) { /* indexed, post-base */
      if (!wl_qint(&p, end, 4, &v)) return 0;
      abs = base + v;
    } else { /* literal, post-base name reference */
      if (!wl_qint(&p, end, 3, &v) || !wl_qskip_string(&p, end, 7)) return 0;
      abs = base + v;
    }
    if (abs != UINT64_MAX && abs + 1 > out->need_ric) out->need_ric = abs + 1;
    out->lines++;
  }
  return 1;
}

/* 1 when the instruction on the encoder stream p[0..len) that holds byte at-1 (the last byte of a
 * record) is not complete within len bytes (RFC 9204 4.3: Insert With Name Reference 1T+6, Insert
 * With Literal Name 01H+5, Set Dynamic Table Capacity 001+5, Duplicate 000+5; strings H+7). A
 * decoder fed p has then not seen that instruction whole. */
static inline int wl_qpack_encoder_cut(const uint8_t *p, size_t len, size_t at) {
  const uint8_t *start = p, *end = p + len;
  uint64_t v;
  while (p < end && (size_t)(p - start) < at) {
    const uint8_t *ins = p;
    uint8_t c = *p;
    int ok;
    if (c & 0x80) ok = wl_qint(&p, end, 6, &v) && wl_qskip_string(&p, end, 7);
    else if (c & 0x40) ok = wl_qskip_string(&p, end, 5) && wl_qskip_string(&p, end, 7);
    else ok = wl_qint(&p, end, 5, &v);
    if (!ok) return (size_t)(ins - start) < at;
  }
  return 0;
}

#endif
