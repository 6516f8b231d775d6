/* amon-private.h — what every file of the runtime shares.
 *
 * The runtime runs inside other people's programs: plain C11 and libc
 * only, and none of its functions may be instrumented themselves (a
 * program built with -finstrument-functions may link a libamon built the
 * same way), hence AMON_FN on every function.
 */
#ifndef AMON_PRIVATE_H
#define AMON_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

/* ...and every one in a section of its own, whose bounds the linker
 * gives (__start_amon_text, __stop_amon_text), so that a sample taken in
 * the monitor is known as the monitor's (amon-monitor.c, on_sigprof) */
#define AMON_FN __attribute__ ((no_instrument_function, section ("amon_text")))
#define AMON_HIDDEN __attribute__ ((visibility ("hidden")))
#define AMON_INLINE static inline __attribute__ ((always_inline))
#define AMON_LIKELY(x) __builtin_expect (!!(x), 1)
#define AMON_UNLIKELY(x) __builtin_expect (!!(x), 0)

/* Limits; reaching one stops profiling cleanly (see amon-format.h). */
typedef struct {
  uint32_t max_depth;    /* shadow-stack frames per thread */
  uint32_t max_history;  /* entries in one history */
  uint64_t max_memory;   /* bytes of profiling memory per thread */
} amon_limits;

#define AMON_DEFAULT_MAX_DEPTH (1u << 22)
#define AMON_DEFAULT_MAX_HISTORY (1u << 16)
#define AMON_DEFAULT_MAX_MEMORY ((uint64_t) 1 << 30)

#endif
