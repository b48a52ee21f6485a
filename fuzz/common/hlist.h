/* hlist.h — a decoded header list as one flat byte string (u32 name length, name, u32 value length,
 * value, ...), so two decoders' outputs compare with memcmp and print the same way. */
#ifndef WIRELAB_FUZZ_HLIST_H
#define WIRELAB_FUZZ_HLIST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

typedef struct {
  unsigned char *p;
  size_t len, cap;
  size_t nfields;
} wl_hlist;

static inline void wl_hlist_put(wl_hlist *h, const void *d, size_t n) {
  if (n == 0) return;
  if (h->len + n > h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 256;
    while (cap < h->len + n) cap *= 2;
    unsigned char *p = realloc(h->p, cap);
    if (!p) abort(); /* the harness's own memory, not the library's: no point fuzzing past it */
    h->p = p;
    h->cap = cap;
  }
  memcpy(h->p + h->len, d, n);
  h->len += n;
}

static inline void wl_hlist_add(wl_hlist *h, const char *name, size_t nlen, const char *value, size_t vlen) {
  uint32_t n = (uint32_t)nlen, v = (uint32_t)vlen;
  wl_hlist_put(h, &n, 4);
  wl_hlist_put(h, name, nlen);
  wl_hlist_put(h, &v, 4);
  wl_hlist_put(h, value, vlen);
  h->nfields++;
}

static inline int wl_hlist_equal(const wl_hlist *a, const wl_hlist *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

/* QIF form: "name<TAB>value" per field (bytes escaped when not printable, for the finding reports). */
static inline void wl_hlist_print(const wl_hlist *h, FILE *f, int escape) {
  for (size_t i = 0; i + 4 <= h->len;) {
    for (int part = 0; part < 2; part++) {
      uint32_t n;
      memcpy(&n, h->p + i, 4);
      i += 4;
      for (uint32_t k = 0; k < n; k++) {
        unsigned char c = h->p[i + k];
        if (escape && (c < 0x20 || c > 0x7e || c == '\\')) fprintf(f, "\\x%02x", c);
        else fputc(c, f);
      }
      i += n;
      fputc(part ? '\n' : '\t', f);
    }
  }
}

static inline void wl_hlist_free(wl_hlist *h) { free(h->p); memset(h, 0, sizeof *h); }

#endif
