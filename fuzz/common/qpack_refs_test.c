/* qpack_refs_test.c — wl_qpack_encoder_cut on hand-encoded encoder streams (RFC 9204 4.3), so the
 * differential harness's "nghttp3 has not seen the whole instruction" tolerance applies only to cut
 * instructions. Built and run by fuzz/test.sh; exit 1 when any answer is wrong. */
#include <stdio.h>
#include "qpack_refs.h"

static int fails;

static void expect(const char *what, const char *hex, size_t at, int want) {
  uint8_t b[64];
  size_t n = 0;
  for (; hex[2 * n] && hex[2 * n + 1]; n++) sscanf(hex + 2 * n, "%2hhx", &b[n]);
  int got = wl_qpack_encoder_cut(b, n, at);
  printf("%s %s: cut=%d\n", got == want ? "ok  " : "FAIL", what, got);
  fails += got != want;
}

int main(void) {
  expect("Set Dynamic Table Capacity 256, complete", "3fe101", 3, 0);
  expect("Set Dynamic Table Capacity, integer cut", "3fe1", 2, 1);
  expect("Insert With Name Reference :authority = \"ab\", complete", "c0026162", 4, 0);
  expect("Insert With Name Reference, value announced 10366 bytes, none sent", "c0ffff4f", 4, 1);
  expect("Insert With Literal Name \"a\" = \"b\", complete", "4161" "0162", 4, 0);
  expect("Insert With Literal Name, name announced 3 bytes, 2 sent", "436162", 3, 1);
  expect("Duplicate 0, then a cut insert past the record", "00" "c0ffff4f", 1, 0);
  expect("a complete insert, then a cut one in the same record", "c0026162" "c005", 6, 1);
  expect("the cut instruction began in an earlier record", "c00561", 2, 1);
  return fails != 0;
}
