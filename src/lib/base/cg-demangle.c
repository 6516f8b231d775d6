/* cg-demangle.c — bfd_demangle's wrapping of libiberty's cplus_demangle. */
#include "config.h"

#include "cg-demangle.h"

#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#endif

gboolean
cg_demangle_available (void)
{
#ifdef HAVE_LIBIBERTY
  return TRUE;
#else
  return FALSE;
#endif
}

char *
cg_demangle (const char *name)
{
#ifdef HAVE_LIBIBERTY
  /* ELF symbols have no leading character to skip; leading dots and
   * dollars (XCOFF, PowerPC64 ELF) and an "@VERSION" suffix would confuse
   * the demangler: off while demangling, back afterwards */
  const char *start = name;
  while (*start == '.' || *start == '$')
    start++;
  /* what the automatic style demangles (Rust's legacy and v0 names, the
   * C++ ABI's, its _GLOBAL_ constructors) all starts so: anything else
   * is a C name, answered without the demangler's work */
  if (!g_str_has_prefix (start, "_Z") && !g_str_has_prefix (start, "_R") && !g_str_has_prefix (start, "_GLOBAL_"))
    return NULL;
  const char *suffix = strchr (start, '@');
  g_autofree char *core = suffix ? g_strndup (start, (gsize) (suffix - start)) : NULL;
  char *d = cplus_demangle (core ? core : start, DMGL_ANSI | DMGL_PARAMS);
  if (d == NULL)
    return NULL;
  char *out = g_strconcat ("", d, suffix, NULL);
  if (start != name)
    {
      char *with_prefix = g_strdup_printf ("%.*s%s", (int) (start - name), name, out);
      g_free (out);
      out = with_prefix;
    }
  free (d);
  return out;
#else
  (void) name;
  return NULL;
#endif
}
