/* amon-next.h — the definition that a wrapper of libamon's stands in
 * front of: the C library's sigaction(2) and signal(3) (amon-signal.c),
 * the unwinder's entry points (amon-unwind.c). */
#ifndef AMON_NEXT_H
#define AMON_NEXT_H

#include "amon-private.h"

/* The next definition of symbol @name after libamon's (dlsym(RTLD_NEXT)),
 * looked up at the first call and kept in *@cache; never NULL: where
 * there is none, writes "amon: " @missing @name to standard error and
 * aborts, as a wrapper has nothing to call.  Not async-signal-safe at the
 * first call (dlsym); safe once *@cache is set. */
void *amon_next (void **cache, const char *name, const char *missing) AMON_FN AMON_HIDDEN;

#endif
