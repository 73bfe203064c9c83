/* meshc's one native routine: an N-dimensional strided copy of opaque rows with streaming
 * (non-temporal) stores, for the simulator's large host transfers (meshc/sim/stream_copy.py).
 *
 * numpy copies a strided array row by row with ordinary stores, so every destination cache line
 * is first read and then written; for a transfer far larger than the caches whose rows are short
 * (a core's shard row, 1 KiB at 256 MiB), that is the simulator's whole cost. Streaming stores
 * write the lines without reading them. Plain C, no Python headers: loaded with ctypes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MAX_DIMS 32

static void copy_row(char *dst, const char *src, int64_t n, int stream) {
#if defined(__SSE2__)
    if (stream) {
        int64_t i = 0;
        for (; i + 16 <= n; i += 16)
            _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
        if (i < n) memcpy(dst + i, src + i, (size_t)(n - i));
        return;
    }
#else
    (void)stream;
#endif
    memcpy(dst, src, (size_t)n);
}

/* dst[i...] = src[i...] for every index of `shape` (ndim axes, byte strides), each element a
 * contiguous row of `row_bytes` bytes. Streaming stores when dst and every dst stride are 16-byte
 * aligned and the rows hold at least 64 bytes. Returns 0, or -1 for more than MAX_DIMS axes. */
int meshc_stream_copy(char *dst, const char *src, int ndim, const int64_t *shape,
                      const int64_t *dst_strides, const int64_t *src_strides, int64_t row_bytes) {
    int64_t idx[MAX_DIMS] = {0};
    if (ndim < 0 || ndim > MAX_DIMS) return -1;
    for (int d = 0; d < ndim; d++)
        if (shape[d] == 0) return 0;
    int stream = row_bytes >= 64 && ((uintptr_t)dst & 15) == 0;
    for (int d = 0; d < ndim && stream; d++)
        if (dst_strides[d] & 15) stream = 0;
    for (;;) {
        copy_row(dst, src, row_bytes, stream);
        int d = ndim - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < shape[d]) {
                dst += dst_strides[d];
                src += src_strides[d];
                break;
            }
            dst -= dst_strides[d] * (shape[d] - 1);
            src -= src_strides[d] * (shape[d] - 1);
            idx[d] = 0;
        }
        if (d < 0) break;
    }
#if defined(__SSE2__)
    if (stream) _mm_sfence();
#endif
    return 0;
}
