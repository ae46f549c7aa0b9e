/* ldcheck CPU backend: <assert.h> for kernels compiled as C++.
 *
 * This directory is searched before the system headers, so <assert.h> and
 * <cassert> land here. A failed assert in a kernel then fails the launch with
 * a message naming the block and thread (as CUDA's device-side assert fails
 * the kernel) instead of aborting the whole ldcheck process.
 *
 * Like the system header, this has no include guard: NDEBUG is honoured at
 * each inclusion. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#ifdef __cplusplus
extern "C"
#endif
    __attribute__((noreturn)) void
    ldc_assert_fail(const char *expr, const char *file, int line, const char *func);
#define assert(e) ((e) ? (void)0 : ldc_assert_fail(#e, __FILE__, __LINE__, __func__))
#endif
