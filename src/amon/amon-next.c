/* amon-next.c — the definition a wrapper stands in front of (amon-next.h). */
#define _GNU_SOURCE 1

#include "amon-next.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

AMON_FN void *
amon_next (void **cache, const char *name, const char *missing)
{
  void *f = __atomic_load_n (cache, __ATOMIC_ACQUIRE);
  if (f == NULL)
    {
      f = dlsym (RTLD_NEXT, name);
      if (f == NULL)
        {
          static const char amon[] = "amon: ";
          ssize_t w = write (STDERR_FILENO, amon, sizeof amon - 1);
          w = write (STDERR_FILENO, missing, __builtin_strlen (missing));
          w = write (STDERR_FILENO, name, __builtin_strlen (name));
          w = write (STDERR_FILENO, "\n", 1);
          (void) w;
          abort ();
        }
      __atomic_store_n (cache, f, __ATOMIC_RELEASE);
    }
  return f;
}
