/* SHA-256 (FIPS 180-4) over bytes given piece by piece: data files' and cells files' checksums. */
#ifndef TL_SHA256_H
#define TL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "treelab/tl_api.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} tl_sha256;

TL_API void tl_sha256_init(tl_sha256 *c);
TL_API void tl_sha256_update(tl_sha256 *c, const void *p, size_t n);
/* The digest (c is spent): 32 bytes into out. */
TL_API void tl_sha256_final(tl_sha256 *c, unsigned char out[32]);
/* The digest as 64 lowercase hex characters plus NUL (c is spent). */
TL_API void tl_sha256_hex(tl_sha256 *c, char out[65]);

#ifdef __cplusplus
}
#endif

#endif
