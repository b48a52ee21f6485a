/* lsqpack_abi.h — the part of ls-qpack's decoder API wirelab's harnesses call, declared here because
 * Debian ships ls-qpack only compiled into python3-pylsqpack's extension module
 * (/usr/lib/python3/dist-packages/pylsqpack/_binding.abi3.so, pylsqpack 0.3.18-2) with the lsqpack_*
 * functions exported, while the source package is not served here.
 *
 * Which API: pylsqpack 0.3.18 vendors ls-qpack 1.x (lsqpack_header_list API: header_in/header_read
 * return a struct lsqpack_header_list, lsqpack_dec_init takes an "unblocked" callback, and
 * lsqpack_dec_destroy_header_list is exported), NOT the 2.x lsxpack_header/hset_if API: the .so's
 * lsqpack_dec_header_in takes 9 arguments (3 on the stack) and lsqpack_dec_header_read 7.
 * Declarations only, written from ls-qpack v1.x's public lsqpack.h. fuzz/bin/lsqpack-abi-test.sh
 * proves them (QIF round trips through nghttp3's encoder, corrupted blocks rejected, init footprint). */
#ifndef WIRELAB_LSQPACK_ABI_H
#define WIRELAB_LSQPACK_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* struct lsqpack_dec is caller-allocated and its layout is internal: reserve far more than it needs
 * (lsqpack_dec_init of this build writes 352 bytes; the ABI test measures it). */
#define WL_LSQPACK_DEC_STORAGE (64 * 1024)
struct lsqpack_dec;
typedef union {
  max_align_t align;
  unsigned char bytes[WL_LSQPACK_DEC_STORAGE];
} wl_lsqpack_dec_storage;

/* One decoded field; the strings are not NUL-terminated. */
struct lsqpack_header {
  const char *qh_name;
  const char *qh_value;
  unsigned qh_name_len;
  unsigned qh_value_len;
  unsigned qh_static_id;
  unsigned qh_flags; /* enum: QH_NEVER = 1, QH_ID_SET = 2 */
};

/* A decoded header block. */
struct lsqpack_header_list {
  struct lsqpack_header **qhl_headers;
  unsigned qhl_count;
};

enum lsqpack_read_header_status { LQRHS_DONE, LQRHS_BLOCKED, LQRHS_NEED, LQRHS_ERROR };

#define LSQPACK_LONGEST_HEADER_ACK 10
#define LSQPACK_LONGEST_ICI 6
#define LSQPACK_LONGEST_CANCEL 6

void lsqpack_dec_init(struct lsqpack_dec *, void *logger_ctx, unsigned dyn_table_size,
                      unsigned max_risked_streams, void (*hblock_unblocked)(void *hblock_ctx));
enum lsqpack_read_header_status lsqpack_dec_header_in(struct lsqpack_dec *, void *hblock_ctx, uint64_t stream_id,
                                                      size_t header_block_size, const unsigned char **buf,
                                                      size_t bufsz, struct lsqpack_header_list **hlist,
                                                      unsigned char *dec_buf, size_t *dec_buf_sz);
enum lsqpack_read_header_status lsqpack_dec_header_read(struct lsqpack_dec *, void *hblock_ctx,
                                                        const unsigned char **buf, size_t bufsz,
                                                        struct lsqpack_header_list **hlist,
                                                        unsigned char *dec_buf, size_t *dec_buf_sz);
int lsqpack_dec_enc_in(struct lsqpack_dec *, const unsigned char *, size_t);
void lsqpack_dec_destroy_header_list(struct lsqpack_header_list *);
int lsqpack_dec_ici_pending(const struct lsqpack_dec *);
ssize_t lsqpack_dec_write_ici(struct lsqpack_dec *, unsigned char *, size_t);
int lsqpack_dec_unref_stream(struct lsqpack_dec *, void *hblock_ctx);
void lsqpack_dec_cleanup(struct lsqpack_dec *);

/* Where the last error was detected (line is in ls-qpack's lsqpack.c). */
struct lsqpack_dec_err {
  int type; /* 0 header block, 1 encoder stream */
  int line;
  uint64_t off;
  uint64_t stream_id;
};
const struct lsqpack_dec_err *lsqpack_dec_get_err_info(const struct lsqpack_dec *);

#endif
