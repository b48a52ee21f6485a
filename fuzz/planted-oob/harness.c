/* planted-oob — TEST-ONLY target with a deliberately planted heap out-of-bounds read, the known answer
 * that proves wirelab's crash pipeline (find, deduplicate, minimize, reproduce) end to end.
 * A QPACK-like record on a request stream whose section starts with the two-byte prefix 0xff 'H'
 * carries a one-byte literal length that is trusted without a bounds check — the bug class of the
 * picoquic QPACK heap OOB read. Everything else parses records like the real targets do.
 * seed-0 already carries the prefix with an in-bounds length (ff 'H' 05 "hello"): one mutation of the length
 * byte crashes. With only 'H' to find as well, AFL++ missed it in 60 s once in CI (a flaky pipeline test);
 * fuzzer strength is measured by the real campaigns, this target only proves the pipeline. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../common/records.h"

static volatile uint32_t sink;

static void parse_section(const uint8_t *p, size_t len) {
  /* Copy into an exact-size heap buffer so reading past the record is a heap-buffer-overflow. */
  uint8_t *sec = malloc(len ? len : 1);
  memcpy(sec, p, len);
  if (len >= 3 && sec[0] == 0xff && sec[1] == 'H') {
    size_t lit = sec[2];
    for (size_t i = 0; i < lit; i++) sink += sec[3 + i]; /* BUG (planted): no check that 3 + lit <= len */
  } else {
    for (size_t i = 0; i < len; i++) sink += sec[i];
  }
  free(sec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wl_reader rd;
  wl_preamble pre;
  wl_record rec;
  if (!wl_read_preamble(&rd, data, size, &pre)) return 0;
  while (wl_next_record(&rd, &rec))
    if (rec.stream_id != 0) parse_section(rec.data, rec.len);
  return 0;
}
