/* nghttp3_failmem.h — an nghttp3_mem whose allocations fail at input-chosen points, so the fuzzer
 * walks nghttp3's NGHTTP3_ERR_NOMEM paths (ASan then reports leaks and use-after-free on unwinding). */
#ifndef WIRELAB_FUZZ_NGHTTP3_FAILMEM_H
#define WIRELAB_FUZZ_NGHTTP3_FAILMEM_H

#include <stdlib.h>
#include <nghttp3/nghttp3.h>
#include "records.h"

typedef struct {
  wl_rng rng;
  uint32_t one_in; /* fail 1 allocation in one_in (0: never) */
  uint32_t failures;
  int (*decide)(void *); /* when set, decides each allocation instead of rng/one_in (1 = fail) */
  void *decide_ud;
} wl_failmem;

static int wl_failmem_fail(wl_failmem *fm) {
  if (fm->decide ? !fm->decide(fm->decide_ud) : !wl_rng_one_in(&fm->rng, fm->one_in)) return 0;
  fm->failures++;
  return 1;
}
static void *wl_fm_malloc(size_t n, void *ud) { return wl_failmem_fail(ud) ? NULL : malloc(n); }
static void wl_fm_free(void *p, void *ud) { (void)ud; free(p); }
static void *wl_fm_calloc(size_t n, size_t s, void *ud) { return wl_failmem_fail(ud) ? NULL : calloc(n, s); }
static void *wl_fm_realloc(void *p, size_t n, void *ud) { return wl_failmem_fail(ud) ? NULL : realloc(p, n); }

/* rate selects 1-in-2^(rate+2) failures; 0 turns injection off. */
static inline nghttp3_mem wl_failmem_init(wl_failmem *fm, unsigned rate, const uint8_t *data, size_t size) {
  wl_rng_seed(&fm->rng, data, size);
  fm->rng.s ^= 0xa110c;
  fm->one_in = rate ? 1u << (rate + 2) : 0;
  fm->failures = 0;
  fm->decide = NULL;
  fm->decide_ud = NULL;
  nghttp3_mem mem = {fm, wl_fm_malloc, wl_fm_free, wl_fm_calloc, wl_fm_realloc};
  return mem;
}

/* Every allocation asks decide(ud) whether to fail (e.g. a bit consumed from the input, fdp.h). */
static inline nghttp3_mem wl_failmem_init_fn(wl_failmem *fm, int (*decide)(void *), void *ud) {
  fm->rng.s = 1;
  fm->one_in = 0;
  fm->failures = 0;
  fm->decide = decide;
  fm->decide_ud = ud;
  nghttp3_mem mem = {fm, wl_fm_malloc, wl_fm_free, wl_fm_calloc, wl_fm_realloc};
  return mem;
}

#endif
