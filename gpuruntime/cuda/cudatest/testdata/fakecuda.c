/*
 * A fake CUDA driver for package cuda's tests: the entry points the package
 * binds, with the driver's C signatures, doing just enough on the host to
 * check the binding (argument passing, sizes, error codes, logs). "Device"
 * memory is malloc'd host memory. Built by the tests with
 *   cc -shared -fPIC -o libfakecuda.so fakecuda.c
 * and -DFAKE_OMIT_MEMSETD8 to leave one symbol out.
 *
 * Conventions the tests rely on:
 *   cuInit(flags != 0)                  -> CUDA_ERROR_NO_DEVICE
 *   cuMemAlloc_v2(size > 1 TiB)         -> CUDA_ERROR_OUT_OF_MEMORY
 *   cuMemsetD8_v2(value 0xEE)           -> code 12345, unknown to cuGetErrorName
 *   cuModuleLoadDataEx(image "FAIL...") -> CUDA_ERROR_INVALID_PTX, error log written
 *   kernel "probe" has parameters (int, void*, struct{16 bytes}); a launch
 *     copies the dimensions and each parameter, at its size, into the global
 *     "launch_record" (struct record below)
 *   kernel "noargs" has no parameters
 *   every module has its own kernels and its own module-scope variables;
 *     one whose image contains "fake: without heavy" has no kernel "heavy"
 *     (a module of a build that leaves a kernel to another)
 *     "launch_record", "counter" (unsigned) and "self" (an 8-byte pointer,
 *     initially the address of that module's counter, as
 *     `__device__ unsigned *self = &counter;`); "fake_module_loads" counts
 *     successful cuModuleLoadDataEx calls (one variable for all modules),
 *     "fake_missing_lookups" cuModuleGetFunction calls of a kernel the
 *     module lacks
 *   fake_stat(0) is how many primary-context retains are not released,
 *     fake_stat(1) how many events are not destroyed, fake_stat(2) how many
 *     texture objects (cuTexObjectCreate, at the end); fake_fail_events(n)
 *     makes every cuEventCreate after the next n fail (n < 0: none fail)
 *   registers: a kernel uses its own count ("probe" 42, "noargs" 8, "heavy"
 *     128, "stubborn" 128 but never fewer than 80, "bounded" 32), or the
 *     module's CU_JIT_MAX_REGISTERS when that is lower; its
 *     CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK is what 65536 registers per
 *     block allow (per warp, in units of 8 per thread), at most 1024, and
 *     256 for "bounded" (as __launch_bounds__(256)); a launch of more
 *     threads fails with CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
 *   kernel "heavy" (and "stubborn", "bounded") takes one pointer to 4
 *     unsigned long longs and, as one thread would, does
 *     *self += 1 and writes {module's register limit, self == &counter,
 *     counter, threads per block} to it
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
    SUCCESS = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3,
    NO_DEVICE = 100, INVALID_DEVICE = 101, INVALID_CONTEXT = 201,
    INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500,
    LAUNCH_OUT_OF_RESOURCES = 701,
};

static int initialized;
static __thread void *current_ctx;
static int primary_ctx_token;

CUresult cuGetErrorName(CUresult r, const char **p) {
    switch (r) {
    case SUCCESS: *p = "CUDA_SUCCESS"; return 0;
    case INVALID_VALUE: *p = "CUDA_ERROR_INVALID_VALUE"; return 0;
    case OUT_OF_MEMORY: *p = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
    case NOT_INITIALIZED: *p = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
    case NO_DEVICE: *p = "CUDA_ERROR_NO_DEVICE"; return 0;
    case INVALID_DEVICE: *p = "CUDA_ERROR_INVALID_DEVICE"; return 0;
    case INVALID_CONTEXT: *p = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
    case INVALID_PTX: *p = "CUDA_ERROR_INVALID_PTX"; return 0;
    case INVALID_HANDLE: *p = "CUDA_ERROR_INVALID_HANDLE"; return 0;
    case NOT_FOUND: *p = "CUDA_ERROR_NOT_FOUND"; return 0;
    case LAUNCH_OUT_OF_RESOURCES: *p = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; return 0;
    }
    *p = NULL;
    return INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult r, const char **p) {
    switch (r) {
    case SUCCESS: *p = "no error"; return 0;
    case INVALID_VALUE: *p = "fake: invalid argument"; return 0;
    case OUT_OF_MEMORY: *p = "fake: out of memory"; return 0;
    case NOT_INITIALIZED: *p = "fake: initialization error"; return 0;
    case NO_DEVICE: *p = "fake: no CUDA-capable device is detected"; return 0;
    case INVALID_DEVICE: *p = "fake: invalid device ordinal"; return 0;
    case INVALID_CONTEXT: *p = "fake: invalid device context"; return 0;
    case INVALID_PTX: *p = "fake: a PTX JIT compilation failed"; return 0;
    case INVALID_HANDLE: *p = "fake: invalid resource handle"; return 0;
    case NOT_FOUND: *p = "fake: named symbol not found"; return 0;
    case LAUNCH_OUT_OF_RESOURCES: *p = "fake: too many resources requested for launch"; return 0;
    }
    *p = NULL;
    return INVALID_VALUE;
}

CUresult cuInit(unsigned int flags) {
    if (flags != 0) return NO_DEVICE;
    initialized = 1;
    return SUCCESS;
}

CUresult cuDriverGetVersion(int *v) { *v = 12040; return SUCCESS; }

CUresult cuDeviceGetCount(int *n) {
    if (!initialized) return NOT_INITIALIZED;
    *n = 2;
    return SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    if (!initialized) return NOT_INITIALIZED;
    if (ordinal < 0 || ordinal >= 2) return INVALID_DEVICE;
    *d = ordinal;
    return SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d) {
    if (d < 0 || d >= 2) return INVALID_DEVICE;
    snprintf(name, (size_t)len, "Fake GPU %d", d);
    return SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) {
    if (d < 0 || d >= 2) return INVALID_DEVICE;
    switch (attr) {
    case 1: *v = 1024; break;      /* max threads per block */
    case 8: *v = 48 * 1024; break; /* max shared per block */
    case 10: *v = 32; break;       /* warp size */
    case 12: *v = 65536; break;    /* max registers per block */
    case 16: *v = 132; break;      /* SM count */
    case 39: *v = 2048; break;     /* max threads per SM */
    case 75: *v = 9; break;        /* cc major */
    case 76: *v = 0; break;        /* cc minor */
    case 82: *v = 65536; break;    /* max registers per SM */
    case 97: *v = 227 * 1024; break; /* optin shared per block */
    case 106: *v = 32; break;      /* max blocks per SM */
    default: return INVALID_VALUE;
    }
    return SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice d) {
    if (d < 0 || d >= 2) return INVALID_DEVICE;
    *bytes = (size_t)80 << 30;
    return SUCCESS;
}

static int primary_retained, live_events, events_left = -1;
static int live_textures;
int fake_stat(int which) { return which == 0 ? primary_retained : which == 1 ? live_events : live_textures; }
void fake_fail_events(int n) { events_left = n; }
CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) {
    if (d < 0 || d >= 2) return INVALID_DEVICE;
    *ctx = &primary_ctx_token;
    primary_retained++;
    return SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) {
    if (d < 0 || d >= 2) return INVALID_DEVICE;
    primary_retained--;
    return SUCCESS;
}
CUresult cuCtxCreate_v2(void **ctx, unsigned int flags, CUdevice d) {
    (void)flags;
    if (d < 0 || d >= 2) return INVALID_DEVICE;
    *ctx = malloc(1);
    current_ctx = *ctx;
    return SUCCESS;
}
CUresult cuCtxDestroy_v2(void *ctx) {
    if (ctx == NULL || ctx == &primary_ctx_token) return INVALID_CONTEXT;
    if (current_ctx == ctx) current_ctx = NULL;
    free(ctx);
    return SUCCESS;
}
CUresult cuCtxSetCurrent(void *ctx) { current_ctx = ctx; return SUCCESS; }
CUresult cuCtxGetCurrent(void **ctx) { *ctx = current_ctx; return SUCCESS; }
/* As the real driver: needs a context current on the calling thread. */
CUresult cuCtxSynchronize(void) { return current_ctx ? SUCCESS : INVALID_CONTEXT; }

/* ---- modules ---- */

struct record {
    unsigned int grid[3], block[3], shared, nparams;
    unsigned long long stream;
    unsigned char params[4 + 8 + 16];
};

struct module;
struct func {
    const char *name;
    int nparams;
    size_t sizes[4];
    int regs, min_regs, bound; /* registers wanted, fewest possible, max threads (0: none) */
    int max_dynamic_shared;
    struct module *mod;
};

enum { F_PROBE, F_NOARGS, F_HEAVY, F_STUBBORN, F_BOUNDED, NFUNCS };
static const struct func templates[NFUNCS] = {
    {"probe", 3, {4, 8, 16, 0}, 42, 16, 0, 48 * 1024, NULL},
    {"noargs", 0, {0}, 8, 8, 0, 48 * 1024, NULL},
    {"heavy", 1, {8, 0}, 128, 16, 0, 48 * 1024, NULL},
    {"stubborn", 1, {8, 0}, 128, 80, 0, 48 * 1024, NULL},
    {"bounded", 1, {8, 0}, 32, 16, 256, 48 * 1024, NULL},
};

struct module {
    char image_head[16];
    int max_regs; /* CU_JIT_MAX_REGISTERS, 0 for none */
    struct func funcs[NFUNCS];
    struct record launch_record;
    unsigned int counter;
    unsigned long long self;
};

static unsigned long long module_loads;
static unsigned long long missing_lookups; /* cuModuleGetFunction of a kernel a module lacks */

static int func_regs(const struct func *f) {
    int r = f->regs;
    if (f->mod->max_regs > 0 && r > f->mod->max_regs) r = f->mod->max_regs;
    if (r < f->min_regs) r = f->min_regs;
    return r;
}

static int func_max_threads(const struct func *f) {
    int per_thread = (func_regs(f) + 7) / 8 * 8;
    int t = 65536 / (per_thread * 32) * 32;
    if (t > 1024) t = 1024;
    if (f->bound > 0 && t > f->bound) t = f->bound;
    return t;
}

static void write_log(unsigned int n, int *opts, void **vals, int buf_opt, int size_opt, const char *msg) {
    char *buf = NULL;
    size_t size = 0;
    int size_idx = -1;
    for (unsigned int i = 0; i < n; i++) {
        if (opts[i] == buf_opt) buf = (char *)vals[i];
        if (opts[i] == size_opt) { size = (size_t)(uintptr_t)vals[i]; size_idx = (int)i; }
    }
    if (buf == NULL || size == 0) return;
    snprintf(buf, size, "%s", msg);
    size_t used = strlen(buf) + 1;
    vals[size_idx] = (void *)(uintptr_t)used; /* OUT: bytes filled, as the driver does */
}

CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned int n, int *opts, void **vals) {
    const char *img = (const char *)image;
    if (image == NULL) return INVALID_VALUE;
    if (strncmp(img, "FAIL", 4) == 0) {
        write_log(n, opts, vals, 5, 6,
                  "ptxas application ptx input, line 7; error   : Unknown symbol 'bogus'\n"
                  "ptxas fatal   : Ptx assembly aborted due to errors\n");
        return INVALID_PTX;
    }
    char info[128];
    /* strlen: PTX images must arrive NUL-terminated. */
    snprintf(info, sizeof info, "fake JIT: %zu bytes, %u options\n", strlen(img), n);
    write_log(n, opts, vals, 3, 4, info);
    struct module *m = calloc(1, sizeof *m);
    strncpy(m->image_head, img, sizeof m->image_head - 1);
    for (unsigned int i = 0; i < n; i++)
        if (opts[i] == 0) m->max_regs = (int)(uintptr_t)vals[i]; /* CU_JIT_MAX_REGISTERS */
    for (int i = 0; i < NFUNCS; i++) {
        m->funcs[i] = templates[i];
        m->funcs[i].mod = m;
    }
    if (strstr(img, "fake: without heavy") != NULL) m->funcs[F_HEAVY].name = "";
    m->self = (unsigned long long)(uintptr_t)&m->counter;
    module_loads++;
    *mod = m;
    return SUCCESS;
}

CUresult cuModuleUnload(void *mod) {
    if (mod == NULL) return INVALID_HANDLE;
    free(mod);
    return SUCCESS;
}

CUresult cuModuleGetFunction(void **f, void *mod, const char *name) {
    struct module *m = (struct module *)mod;
    if (m == NULL) return INVALID_HANDLE;
    for (int i = 0; i < NFUNCS; i++) {
        if (strcmp(name, m->funcs[i].name) == 0) {
            *f = &m->funcs[i];
            return SUCCESS;
        }
    }
    missing_lookups++;
    return NOT_FOUND;
}

CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, void *mod, const char *name) {
    struct module *m = (struct module *)mod;
    void *addr;
    size_t size;
    if (m == NULL) return INVALID_HANDLE;
    if (strcmp(name, "launch_record") == 0) { addr = &m->launch_record; size = sizeof m->launch_record; }
    else if (strcmp(name, "counter") == 0) { addr = &m->counter; size = sizeof m->counter; }
    else if (strcmp(name, "self") == 0) { addr = &m->self; size = sizeof m->self; }
    else if (strcmp(name, "fake_module_loads") == 0) { addr = &module_loads; size = sizeof module_loads; }
    else if (strcmp(name, "fake_missing_lookups") == 0) { addr = &missing_lookups; size = sizeof missing_lookups; }
    else return NOT_FOUND;
    if (p) *p = (CUdeviceptr)(uintptr_t)addr;
    if (bytes) *bytes = size;
    return SUCCESS;
}

CUresult cuFuncGetAttribute(int *v, int attr, void *fp) {
    struct func *f = (struct func *)fp;
    if (f == NULL) return INVALID_HANDLE;
    switch (attr) {
    case 0: *v = func_max_threads(f); return SUCCESS;
    case 1: *v = 0; return SUCCESS; /* static shared */
    case 3: *v = 4 * (f->regs - func_regs(f) > 0 ? f->regs - func_regs(f) : 0); return SUCCESS; /* spills */
    case 4: *v = func_regs(f); return SUCCESS;
    }
    return INVALID_VALUE;
}

CUresult cuFuncSetAttribute(void *fp, int attr, int v) {
    struct func *f = (struct func *)fp;
    if (f == NULL) return INVALID_HANDLE;
    if (attr != 8 || v < 0 || v > 227 * 1024) return INVALID_VALUE;
    f->max_dynamic_shared = v;
    return SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *fp, int threads, size_t shared) {
    struct func *f = (struct func *)fp;
    if (f == NULL) return INVALID_HANDLE;
    if (threads <= 0) return INVALID_VALUE;
    if (threads > func_max_threads(f) || shared > (size_t)f->max_dynamic_shared) { *n = 0; return SUCCESS; }
    int alloc = (threads + 31) / 32 * 32;
    int by_threads = 2048 / alloc;
    int by_regs = 65536 / (((func_regs(f) + 7) / 8 * 8) * alloc);
    int best = 32;
    if (by_threads < best) best = by_threads;
    if (by_regs < best) best = by_regs;
    if (shared > 0 && (int)((228 * 1024) / shared) < best) best = (int)((228 * 1024) / shared);
    *n = best;
    return SUCCESS;
}

CUresult cuLaunchKernel(void *fp, unsigned int gx, unsigned int gy, unsigned int gz,
                        unsigned int bx, unsigned int by, unsigned int bz,
                        unsigned int shared, void *stream, void **params, void **extra) {
    struct func *f = (struct func *)fp;
    if (f == NULL) return INVALID_HANDLE;
    if (extra != NULL) return INVALID_VALUE;
    if (f->nparams > 0 && params == NULL) return INVALID_VALUE;
    if ((int)shared > f->max_dynamic_shared) return INVALID_VALUE;
    unsigned long long threads = (unsigned long long)bx * by * bz;
    if (threads > (unsigned long long)func_max_threads(f)) return LAUNCH_OUT_OF_RESOURCES;
    struct module *m = f->mod;
    struct record *r = &m->launch_record;
    memset(r, 0, sizeof *r);
    r->grid[0] = gx; r->grid[1] = gy; r->grid[2] = gz;
    r->block[0] = bx; r->block[1] = by; r->block[2] = bz;
    r->shared = shared;
    r->nparams = (unsigned int)f->nparams;
    r->stream = (unsigned long long)(uintptr_t)stream;
    size_t off = 0;
    for (int i = 0; i < f->nparams && off + f->sizes[i] <= sizeof r->params; i++) {
        memcpy(r->params + off, params[i], f->sizes[i]);
        off += f->sizes[i];
    }
    if (f != &m->funcs[F_PROBE] && f != &m->funcs[F_NOARGS]) {
        unsigned long long *out;
        memcpy(&out, params[0], sizeof out);
        unsigned int *c = (unsigned int *)(uintptr_t)m->self;
        *c += 1;
        out[0] = (unsigned long long)m->max_regs;
        out[1] = m->self == (unsigned long long)(uintptr_t)&m->counter;
        out[2] = m->counter;
        out[3] = threads;
    }
    return SUCCESS;
}

/* ---- memory ---- */

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
    if (bytes == 0) return INVALID_VALUE;
    if (bytes > ((size_t)1 << 40)) return OUT_OF_MEMORY;
    void *m = malloc(bytes);
    if (m == NULL) return OUT_OF_MEMORY;
    *p = (CUdeviceptr)(uintptr_t)m;
    return SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
    if (p == 0) return INVALID_VALUE;
    free((void *)(uintptr_t)p);
    return SUCCESS;
}

#ifndef FAKE_OMIT_MEMSETD8
CUresult cuMemsetD8_v2(CUdeviceptr p, unsigned char v, size_t n) {
    if (v == 0xEE) return 12345;
    memset((void *)(uintptr_t)p, v, n);
    return SUCCESS;
}
#endif

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) {
    memcpy((void *)(uintptr_t)dst, src, n);
    return SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) {
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return SUCCESS;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n) {
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
    return SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n, void *s) {
    (void)s;
    return cuMemcpyHtoD_v2(dst, src, n);
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n, void *s) {
    (void)s;
    return cuMemcpyDtoH_v2(dst, src, n);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n, void *s) {
    (void)s;
    return cuMemcpyDtoD_v2(dst, src, n);
}

CUresult cuMemGetInfo_v2(size_t *free_, size_t *total) {
    *free_ = (size_t)79 << 30;
    *total = (size_t)80 << 30;
    return SUCCESS;
}

/* ---- streams and events ---- */

CUresult cuStreamCreate(void **s, unsigned int flags) {
    (void)flags;
    *s = malloc(1);
    return SUCCESS;
}
CUresult cuStreamSynchronize(void *s) { (void)s; return SUCCESS; }
CUresult cuStreamDestroy_v2(void *s) {
    if (s == NULL) return INVALID_HANDLE;
    free(s);
    return SUCCESS;
}

struct event { double t_ms; int recorded; };

CUresult cuEventCreate(void **e, unsigned int flags) {
    (void)flags;
    if (events_left == 0) return OUT_OF_MEMORY;
    if (events_left > 0) events_left--;
    *e = calloc(1, sizeof(struct event));
    live_events++;
    return SUCCESS;
}
CUresult cuEventRecord(void *ep, void *s) {
    (void)s;
    struct event *e = (struct event *)ep;
    if (e == NULL) return INVALID_HANDLE;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    e->t_ms = (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
    e->recorded = 1;
    return SUCCESS;
}
CUresult cuEventSynchronize(void *e) { return e ? SUCCESS : INVALID_HANDLE; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
    struct event *s = (struct event *)a, *e = (struct event *)b;
    if (s == NULL || e == NULL) return INVALID_HANDLE;
    if (!s->recorded || !e->recorded) return INVALID_HANDLE;
    *ms = (float)(e->t_ms - s->t_ms);
    return SUCCESS;
}
CUresult cuEventDestroy_v2(void *e) {
    if (e == NULL) return INVALID_HANDLE;
    free(e);
    live_events--;
    return SUCCESS;
}

/* Texture objects: the handle encodes what the descriptors said, read at
 * the offsets of cuda.h's CUDA_RESOURCE_DESC (linear member) and
 * CUDA_TEXTURE_DESC, so that a test can check the Go mirrors' layout:
 * (devPtr + sizeInBytes) | format << 48 | channels << 56 | flags << 60.
 * fake_stat(2) is how many are not destroyed. */
CUresult cuTexObjectCreate(unsigned long long *t, const void *res, const void *tex, const void *view) {
    const unsigned char *r = res, *x = tex;
    unsigned int type, format, channels, flags, rflags;
    unsigned long long p, size;
    if (t == NULL || res == NULL || tex == NULL || view != NULL) return INVALID_VALUE;
    memcpy(&type, r, 4);
    memcpy(&p, r + 8, 8);
    memcpy(&format, r + 16, 4);
    memcpy(&channels, r + 20, 4);
    memcpy(&size, r + 24, 8);
    memcpy(&rflags, r + 136, 4);
    memcpy(&flags, x + 16, 4);
    if (type != 2 || rflags != 0 || channels == 0 || size == 0) return INVALID_VALUE;
    *t = ((p + size) & 0xffffffffffffull) | (unsigned long long)format << 48 | (unsigned long long)channels << 56 | (unsigned long long)flags << 60;
    live_textures++;
    return SUCCESS;
}
CUresult cuTexObjectDestroy(unsigned long long t) {
    if (t == 0) return INVALID_VALUE;
    live_textures--;
    return SUCCESS;
}
