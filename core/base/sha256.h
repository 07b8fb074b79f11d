/* SHA-256 of a buffer, as 64 hex digits: fingerprints the plan of a run. */
#ifndef HB_SHA256_H
#define HB_SHA256_H

#include <stddef.h>

void sha256_hex(const void *data, size_t len, char out[65]);

#endif
