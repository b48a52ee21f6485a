#include <stdio.h>
#include <stdlib.h>
#include <string.h>
unsigned char *parse_frame(const unsigned char *p, size_t n) {
  unsigned char *buf = malloc(8);
  memcpy(buf, p, n);
  return buf;
}
int main(int argc, char **argv) { unsigned char in[16] = {1}; unsigned char *b = parse_frame(in, argc > 1 ? 16 : 8); printf("%d\n", b[0]); free(b); return 0; }
