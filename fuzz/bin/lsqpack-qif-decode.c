/* lsqpack-qif-decode — the ABI test's tool (fuzz/test.sh): decode a QPACK offline-interop encoding
 * (u64 BE stream id, u32 BE length, data; stream 0 = encoder stream) with ls-qpack through
 * fuzz/common/lsqpack_abi.h and print the header sets as QIF, ordered by stream id, so the output can
 * be compared with the QIF the encoding came from. Exit 1 when ls-qpack rejects the input.
 *   lsqpack-qif-decode FILE TABLE_SIZE MAX_BLOCKED
 *   lsqpack-qif-decode --footprint   prints how many bytes of the storage lsqpack_dec_init writes */
#include <stdio.h>
#include <stdlib.h>
#include "../common/lsqpack_session.h"
#include "../common/records.h"

typedef struct { uint64_t sid; wl_hlist h; } done_set;
static done_set sets[4096];
static size_t nsets;

static void on_done(void *arg, uint64_t sid, const wl_hlist *h) {
  (void)arg;
  if (nsets == sizeof sets / sizeof sets[0]) { fprintf(stderr, "too many header sets\n"); exit(2); }
  sets[nsets].sid = sid;
  wl_hlist_put(&sets[nsets].h, h->p ? h->p : (const unsigned char *)"", h->len);
  nsets++;
}

static int by_sid(const void *a, const void *b) {
  uint64_t x = ((const done_set *)a)->sid, y = ((const done_set *)b)->sid;
  return x < y ? -1 : x > y;
}

static wl_lsq s;

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--footprint") == 0) {
    memset(s.storage.bytes, 0xa5, sizeof s.storage.bytes);
    lsqpack_dec_init((struct lsqpack_dec *)s.storage.bytes, NULL, 4096, 16, wl_lsq_unblocked_cb);
    size_t last = 0;
    for (size_t i = 0; i < sizeof s.storage.bytes; i++) if (s.storage.bytes[i] != 0xa5) last = i + 1;
    printf("%zu %zu\n", last, sizeof s.storage.bytes);
    lsqpack_dec_cleanup((struct lsqpack_dec *)s.storage.bytes);
    return 0;
  }
  if (argc != 4) { fprintf(stderr, "usage: lsqpack-qif-decode FILE TABLE_SIZE MAX_BLOCKED | --footprint\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { fprintf(stderr, "%s: cannot open\n", argv[1]); return 2; }
  static unsigned char buf[1 << 22];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  wl_lsq_init(&s, (unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]), on_done, NULL);
  wl_reader rd = {buf, buf + n};
  wl_record rec;
  int rv = 0;
  while (rv == 0 && wl_next_record(&rd, &rec))
    rv = rec.stream_id == 0 ? wl_lsq_encoder(&s, rec.data, rec.len) : wl_lsq_header_block(&s, rec.stream_id, rec.data, rec.len);
  if (rv == 0 && s.nblocked) { fprintf(stderr, "%s: %zu header blocks still blocked at the end\n", argv[1], s.nblocked); rv = -1; }
  if (rv != 0) { fprintf(stderr, "%s: rejected by ls-qpack\n", argv[1]); wl_lsq_free(&s); return 1; }
  wl_lsq_free(&s);
  qsort(sets, nsets, sizeof sets[0], by_sid);
  for (size_t i = 0; i < nsets; i++) { wl_hlist_print(&sets[i].h, stdout, 0); putchar('\n'); }
  fprintf(stderr, "%s: %zu header sets, %zu section acks\n", argv[1], nsets, s.acks);
  return 0;
}
