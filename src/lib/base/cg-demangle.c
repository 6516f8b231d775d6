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

/* cplus_demangle with @options, as bfd_demangle wraps it. */
static char *
demangle_with (const char *name, int options)
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
  char *d = cplus_demangle (core ? core : start, options);
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
  (void) options;
  return NULL;
#endif
}

char *
cg_demangle (const char *name)
{
#ifdef HAVE_LIBIBERTY
  return demangle_with (name, DMGL_ANSI | DMGL_PARAMS);
#else
  return demangle_with (name, 0);
#endif
}

char *
cg_demangle_plain (const char *name)
{
#ifdef HAVE_LIBIBERTY
  return demangle_with (name, DMGL_NO_OPTS);
#else
  return demangle_with (name, 0);
#endif
}

/* Whether @c can end a name that a template argument or parameter list
 * follows ("f<", "f(", "f<int>(" once stripped to "f("). */
static gboolean
ends_name (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '>' || c == ')' || c == ']';
}

/* The length of the operator symbol after "operator" at @p ("<<", "()",
 * "[]", "->*", "new[]"...), 0 when @p starts no symbol. */
static gsize
operator_symbol (const char *p)
{
  if (strncmp (p, "()", 2) == 0 || strncmp (p, "[]", 2) == 0)
    return 2;
  return strspn (p, "<>=!+-*/%^&|~,");
}

/* The end of the bracketed group that starts at @p ('<' or '('): the
 * character after its closing bracket, or NULL when it does not close. */
static const char *
group_end (const char *p)
{
  gsize depth = 0;
  for (; *p; p++)
    {
      if (strncmp (p, "operator", 8) == 0)
        {
          p += 8 + operator_symbol (p + 8) - 1;
          continue;
        }
      if (*p == '<' || *p == '(')
        depth++;
      else if ((*p == '>' || *p == ')') && depth > 0 && --depth == 0)
        return p + 1;
    }
  return NULL;
}

char *
cg_strip_cxx (const char *name)
{
  GString *out = g_string_sized_new (strlen (name));
  const char *p = name;
  /* after "operator<" or a stripped "<T>", a bracket opens what is
   * stripped next ("operator< <T>(...)", "f<T>(...)") */
  gboolean after_operator = FALSE;
  while (*p)
    {
      if (strncmp (p, "operator", 8) == 0 && (p == name || !ends_name (p[-1]) || p[-1] == ':'))
        {
          gsize n = 8 + operator_symbol (p + 8);
          g_string_append_len (out, p, (gssize) n);
          p += n;
          after_operator = TRUE;
          if (p[0] == ' ' && p[1] == '<')
            p++;
          continue;
        }
      gboolean follows = after_operator || (out->len > 0 && ends_name (out->str[out->len - 1]));
      after_operator = FALSE;
      if ((*p == '<' || *p == '(') && follows)
        {
          const char *end = group_end (p);
          if (end == NULL)
            {
              g_string_free (out, TRUE);
              return g_strdup (name);
            }
          gboolean params = *p == '(';
          p = end;
          /* f<T>(...): the parameters follow the stripped arguments */
          after_operator = !params;
          /* a member function's qualifiers belong to its parameter list */
          while (params && (g_str_has_prefix (p, " const") || g_str_has_prefix (p, " volatile")
                            || g_str_has_prefix (p, " &&") || g_str_has_prefix (p, " &")))
            p += strcspn (p + 1, " [") + 1;
          continue;
        }
      g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* Compilers' suffixes for clones of a function, as they appear after a
 * (mangled or plain) name, optionally with a number: gcc's .constprop.N,
 * .isra.N, .part.N, .cold, .lto_priv.N, .localalias; clang's .llvm.N. */
static const char *const clone_suffixes[] = {
  ".constprop", ".isra", ".part", ".cold", ".lto_priv", ".localalias", ".llvm", ".specialized",
};

/* Length of @name without one trailing clone suffix (".part.0", " [clone
 * .part.0]"), or its length when it has none. */
static gsize
strip_one_suffix (const char *name, gsize len)
{
  /* demangled: "f(int) [clone .constprop.0]" */
  if (len > 9 && name[len - 1] == ']')
    {
      const char *open = g_strrstr_len (name, (gssize) len, " [clone .");
      if (open)
        return (gsize) (open - name);
    }
  gsize end = len;
  while (end > 0 && g_ascii_isdigit (name[end - 1]))
    end--;
  if (end < len && end > 0 && name[end - 1] == '.')
    end--; /* ".N" */
  for (guint i = 0; i < G_N_ELEMENTS (clone_suffixes); i++)
    {
      gsize n = strlen (clone_suffixes[i]);
      if (end > n && memcmp (name + end - n, clone_suffixes[i], n) == 0)
        return end - n;
    }
  return len;
}

gsize
cg_strip_clone_suffixes (const char *name, gsize len)
{
  gsize stripped;
  while ((stripped = strip_one_suffix (name, len)) < len)
    len = stripped;
  return len;
}
