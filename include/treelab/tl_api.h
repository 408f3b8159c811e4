/* What libtreelab and libtreelab-experiments export: the functions and data marked TL_API.
 *
 * API: the libraries are built with hidden visibility, so only declarations carrying TL_API
 * (all tl_-prefixed, all in these headers) are part of the ABI; everything else is internal
 * and may change without notice. */
#ifndef TL_API_H
#define TL_API_H

#if defined(__GNUC__) || defined(__clang__)
#define TL_API __attribute__((visibility("default")))
#else
#define TL_API
#endif

#endif
