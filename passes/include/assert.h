// ldcheck prelude: <assert.h> (and <cassert>) for device code: assert calls
// the device-side __assertfail, as CUDA's does. Searched before the system
// headers, whose assert calls a host function. No include guard: NDEBUG is
// honoured at each inclusion.
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, 1))
#endif
