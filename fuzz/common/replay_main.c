/* replay_main.c — main() for the coverage build (and for engines without a driver): feeds every file
 * named on the command line, or found directly inside a named directory, to LLVMFuzzerTestOneInput
 * once. Coverage profiles are written at exit, so callers pass only inputs that do not crash. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "replay: %s: cannot open\n", path); return -1; }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0, n;
  do {
    if (len == cap) {
      cap = cap ? cap * 2 : 65536;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) { fclose(f); free(buf); return -1; }
      buf = nb;
    }
    n = fread(buf + len, 1, cap - len, f);
    len += n;
  } while (n > 0);
  fclose(f);
  /* Copy into an exact-size buffer so an out-of-bounds read is as visible as under a fuzzer. */
  uint8_t *exact = malloc(len ? len : 1);
  if (len) memcpy(exact, buf, len);
  free(buf);
  LLVMFuzzerTestOneInput(exact, len);
  free(exact);
  return 1;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  long count = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) { fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]); return 2; }
    if (!S_ISDIR(st.st_mode)) { if (run_file(argv[i]) < 0) return 2; count++; continue; }
    DIR *d = opendir(argv[i]);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
      if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (run_file(path) < 0) return 2;
      count++;
    }
    if (d) closedir(d);
  }
  fprintf(stderr, "replay: %ld inputs\n", count);
  return 0;
}
