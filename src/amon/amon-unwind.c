/* amon-unwind.c — C++ exceptions, backtraces and thread exits through
 * the -pg mode's swapped return addresses.
 *
 * An unwinder (libgcc's, which C++ and glibc's backtrace(3) use) finds each frame's caller by
 * looking its return address up in the unwind tables; the trampoline's
 * address has no entry, so a walk through a hooked frame would stop
 * there (std::terminate for an exception).  So the entry points that
 * start a walk are wrapped: they put the real addresses back
 * (amon_pg_unhook) and call the real function, found with
 * dlsym (RTLD_NEXT), as libamon comes before libgcc_s and libstdc++ in
 * the lookup order when a program is linked with -lamon.  When the
 * exception is caught (__cxa_begin_catch, which every C++ catch calls)
 * the frames below the catching one are gone and those above are swapped
 * again (amon_pg_rehook); a cleanup that goes on unwinding calls
 * _Unwind_Resume, which puts them back again.  uftrace (libmcount) does
 * the same around __cxa_throw and __cxa_begin_catch.
 *
 * Wrapping needs dynamic linking: in libamon.a (no PIC) this file is
 * empty, and exceptions are served by the trampoline's own unwind entry
 * and personality routine (amon-mcount-x86_64.S), which put each real
 * address back as the unwinder leaves its frame; the wrappers add to it
 * the rehook at the catch and backtraces through every frame.
 */
#define _GNU_SOURCE 1

#include "amon-hook.h"

#if defined(AMON_HAVE_PG) && defined(PIC)

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "amon-mcount.h"
#include "amon-next.h"

/* libgcc's types, opaque here: the wrappers only pass them on */
struct _Unwind_Exception;
struct _Unwind_Context;
typedef int amon_reason; /* _Unwind_Reason_Code */
typedef amon_reason (*amon_trace_fn) (struct _Unwind_Context *, void *);
typedef amon_reason (*amon_stop_fn) (int, int, uint64_t, struct _Unwind_Exception *, struct _Unwind_Context *, void *);

#define EXPORT AMON_FN __attribute__ ((visibility ("default")))

amon_reason _Unwind_RaiseException (struct _Unwind_Exception *e) EXPORT;
amon_reason _Unwind_Resume_or_Rethrow (struct _Unwind_Exception *e) EXPORT;
void _Unwind_Resume (struct _Unwind_Exception *e) EXPORT __attribute__ ((noreturn));
amon_reason _Unwind_ForcedUnwind (struct _Unwind_Exception *e, amon_stop_fn stop, void *arg) EXPORT;
amon_reason _Unwind_Backtrace (amon_trace_fn trace, void *arg) EXPORT;
void *__cxa_begin_catch (void *e) EXPORT;
int backtrace (void **buffer, int size) EXPORT;
void pthread_exit (void *value) EXPORT __attribute__ ((noreturn));

/* The next definition of @name, looked up once; never NULL. */
AMON_FN static void *
next (void **cache, const char *name)
{
  return amon_next (cache, name, "the -pg mode wraps an unwinder entry point that is not in the program: ");
}

#define HERE ((uintptr_t) __builtin_frame_address (0))

amon_reason
_Unwind_RaiseException (struct _Unwind_Exception *e)
{
  static void *real;
  amon_pg_unhook (HERE);
  amon_reason r = ((amon_reason (*) (struct _Unwind_Exception *)) next (&real, __func__)) (e);
  /* it returns only when no handler was found: the program ends */
  amon_pg_rehook (HERE);
  return r;
}

amon_reason
_Unwind_Resume_or_Rethrow (struct _Unwind_Exception *e)
{
  static void *real;
  amon_pg_unhook (HERE);
  amon_reason r = ((amon_reason (*) (struct _Unwind_Exception *)) next (&real, __func__)) (e);
  amon_pg_rehook (HERE);
  return r;
}

void
_Unwind_Resume (struct _Unwind_Exception *e)
{
  static void *real;
  /* the cleanup's frame, whose stack pointer is this frame's canonical
   * frame address, is where the unwinding goes on from: the frames below
   * are gone, and what the unwinder takes from here is its time */
  amon_pg_unwound (HERE + 16);
  /* a handler inside a cleanup may have swapped them again */
  amon_pg_unhook (HERE);
  ((void (*) (struct _Unwind_Exception *)) next (&real, __func__)) (e);
  abort ();
}

amon_reason
_Unwind_ForcedUnwind (struct _Unwind_Exception *e, amon_stop_fn stop, void *arg)
{
  static void *real;
  amon_pg_unhook (HERE);
  return ((amon_reason (*) (struct _Unwind_Exception *, amon_stop_fn, void *)) next (&real, __func__)) (e, stop, arg);
}

amon_reason
_Unwind_Backtrace (amon_trace_fn trace, void *arg)
{
  static void *real;
  amon_pg_unhook (HERE);
  amon_reason r = ((amon_reason (*) (amon_trace_fn, void *)) next (&real, __func__)) (trace, arg);
  amon_pg_rehook (HERE);
  return r;
}

void *
__cxa_begin_catch (void *e)
{
  static void *real;
  /* the catching frame's stack pointer: this frame's canonical frame
   * address, as the frame pointer is kept here */
  amon_pg_rehook (HERE + 16);
  return ((void *(*) (void *)) next (&real, __func__)) (e);
}

/* glibc's backtrace(3) and pthread_exit unwind with a libgcc_s they
 * opened themselves, past the wrappers above */
int
backtrace (void **buffer, int size)
{
  static void *real;
  amon_pg_unhook (HERE);
  int n = ((int (*) (void **, int)) next (&real, __func__)) (buffer, size);
  amon_pg_rehook (HERE);
  return n;
}

void
pthread_exit (void *value)
{
  static void *real;
  amon_pg_unhook (HERE);
  ((void (*) (void *)) next (&real, __func__)) (value);
  abort ();
}

#endif
