/* cg-lookup.c — exact names, then names by their end, then suggestions. */
#include "config.h"

#include "cg-lookup.h"

#include <string.h>

#include "cg-demangle.h"
#include "cg-error.h"
#include "cg-focus.h"
#include "cg-names.h"

/* The functions listed in an error, and the closest names suggested */
#define MAX_LISTED 10
#define MAX_CLOSEST 5

/* @name without clone suffixes, parameter lists, template arguments and
 * ABI tags ("YAML::ScanScalar[abi:cxx11]") (transfer full). */
static char *
stripped (const char *name)
{
  g_autofree char *plain = g_strndup (name, cg_strip_clone_suffixes (name, strlen (name)));
  char *out = cg_strip_cxx (plain);
  for (char *tag; (tag = strstr (out, "[abi:")) != NULL;)
    {
      const char *end = strchr (tag, ']');
      if (end == NULL)
        break;
      memmove (tag, end + 1, strlen (end + 1) + 1);
    }
  return out;
}

/* @name without clone suffixes and without its parameter list: the last
 * parenthesized group and what follows it (" const"), where the name
 * ends with one (transfer full). */
static char *
without_parameters (const char *name)
{
  gsize len = cg_strip_clone_suffixes (name, strlen (name));
  const char *close = g_strrstr_len (name, (gssize) len, ")");
  if (close == NULL || strspn (close + 1, " const&volatile") < (gsize) (name + len - close - 1))
    return g_strndup (name, len);
  guint depth = 0;
  for (const char *p = close; p > name; p--)
    {
      if (*p == ')')
        depth++;
      else if (*p == '(' && --depth == 0)
        return g_strndup (name, (gsize) (p - name));
    }
  return g_strndup (name, len);
}

/* Whether @name is @tail, or ends with it after "::" or a space (the
 * return type of a template function: "void std::vector::push_back"). */
static gboolean
ends_at_boundary (const char *name, const char *tail)
{
  gsize n = strlen (name), t = strlen (tail);
  if (t == 0 || t > n || memcmp (name + n - t, tail, t) != 0)
    return FALSE;
  if (t == n)
    return TRUE;
  char before = name[n - t - 1];
  return before == ' ' || (before == ':' && n - t >= 2 && name[n - t - 2] == ':');
}

/* Keeps the entries of @ids for which @keep says TRUE, where that leaves
 * some but not all of them. */
static void
narrow (GArray *ids, const guint8 *keep)
{
  guint kept = 0;
  for (guint i = 0; i < ids->len; i++)
    kept += keep[i];
  if (kept == 0 || kept == ids->len)
    return;
  guint j = 0;
  for (guint i = 0; i < ids->len; i++)
    if (keep[i])
      g_array_index (ids, CgFunctionId, j++) = g_array_index (ids, CgFunctionId, i);
  g_array_set_size (ids, j);
}

/* Rule 2: the functions whose stripped demangled name ends with @typed
 * stripped, narrowed as cg-lookup.h says. */
static GArray *
by_end (CgGraph *g, CgNames *names, const char *typed)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CgFunctionId));
  g_autofree char *want = stripped (typed);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      g_autofree char *have = stripped (cg_names_get (names, f));
      if (ends_at_boundary (have, want))
        g_array_append_val (out, f);
    }
  if (out->len < 2)
    return out;
  /* what the typed name says beyond the stripped one: its template
   * arguments, then its parameters too */
  g_autofree guint8 *keep = g_new0 (guint8, out->len);
  g_autofree char *typed_bare = without_parameters (typed);
  for (guint pass = 0; pass < 3; pass++)
    for (guint i = 0; i < out->len; i++)
      {
        const char *name = cg_names_get (names, g_array_index (out, CgFunctionId, i));
        gsize plain = cg_strip_clone_suffixes (name, strlen (name));
        if (pass == 0)
          {
            g_autofree char *bare = without_parameters (name);
            keep[i] = ends_at_boundary (bare, typed_bare);
          }
        else if (pass == 1)
          {
            g_autofree char *whole = g_strndup (name, plain);
            keep[i] = ends_at_boundary (whole, typed);
          }
        else
          keep[i] = plain == strlen (name);
        if (i + 1 == out->len)
          narrow (out, keep);
      }
  return out;
}

/* The edit distance of @a and @b ignoring case, or @limit + 1 where it
 * exceeds @limit. */
static guint
distance (const char *a, const char *b, guint limit)
{
  gsize m = strlen (a), n = strlen (b);
  if ((m > n ? m - n : n - m) > limit)
    return limit + 1;
  g_autofree guint *row = g_new (guint, n + 1);
  for (gsize j = 0; j <= n; j++)
    row[j] = (guint) j;
  for (gsize i = 1; i <= m; i++)
    {
      guint diagonal = row[0], least = row[0] = (guint) i;
      for (gsize j = 1; j <= n; j++)
        {
          guint up = row[j];
          guint cost = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;
          row[j] = MIN (MIN (up + 1, row[j - 1] + 1), diagonal + cost);
          diagonal = up;
          least = MIN (least, row[j]);
        }
      if (least > limit)
        return limit + 1;
    }
  return row[n];
}

/* The last @parts "::"-separated parts of @name, after its return type. */
static const char *
last_parts (const char *name, guint parts)
{
  const char *space = strrchr (name, ' ');
  const char *p = space ? space + 1 : name;
  const char *end = p + strlen (p);
  guint seen = 0;
  for (const char *q = end; q > p + 1; q--)
    if (q[-1] == ':' && q[-2] == ':' && ++seen == parts)
      return q;
  return p;
}

typedef struct {
  guint score; /* 0: the typed name is inside it; else 1 + edits */
  char *name;  /* stripped, owned */
} Close;

static gint
by_score (gconstpointer a, gconstpointer b)
{
  const Close *x = a, *y = b;
  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  gsize lx = strlen (x->name), ly = strlen (y->name);
  if (lx != ly)
    return lx < ly ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
clear_close (gpointer p)
{
  g_free (((Close *) p)->name);
}

void
cg_lookup_append_closest (CgGraph *g, const char *typed, GString *out)
{
  g_autoptr (CgNames) names = cg_names_new (g, TRUE);
  g_autofree char *want = stripped (typed);
  /* a parameter list begun and not closed ("Handel(") */
  char *open = strchr (want, '(');
  if (open && !strchr (open, ')'))
    *open = '\0';
  g_autofree char *want_folded = g_ascii_strdown (want, -1);
  guint parts = 1;
  for (const char *p = strstr (want, "::"); p; p = strstr (p + 2, "::"))
    parts++;
  guint limit = MAX (1, (guint) strlen (want) / 3);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (Close));
  g_array_set_clear_func (found, clear_close);
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    {
      g_autofree char *have = stripped (cg_names_get (names, f));
      if (g_hash_table_contains (seen, have))
        continue;
      g_autofree char *folded = g_ascii_strdown (have, -1);
      /* within a few edits of the last parts, or of their beginning (a
       * name typed half and misspelt) */
      const char *tail = last_parts (have, parts);
      g_autofree char *start = g_strndup (tail, strlen (want));
      guint score = strstr (folded, want_folded)
                        ? 0
                        : 1 + MIN (distance (tail, want, limit), distance (start, want, limit));
      if (score > limit + 1)
        continue;
      Close c = { score, g_steal_pointer (&have) };
      g_array_append_val (found, c);
      g_hash_table_add (seen, c.name);
    }
  if (found->len == 0)
    return;
  g_array_sort (found, by_score);
  g_string_append (out, found->len == 1 ? "; the closest name: " : "; the closest names: ");
  for (guint i = 0; i < MIN (found->len, MAX_CLOSEST); i++)
    g_string_append_printf (out, "%s%s", i ? ", " : "", g_array_index (found, Close, i).name);
}

GArray *
cg_lookup_functions (CgGraph *g, const char *option, const char *typed, gboolean all, GError **error)
{
  g_autoptr (GArray) exact = cg_focus_match (g, NULL, typed);
  if (exact->len > 0)
    return g_steal_pointer (&exact);
  g_autoptr (CgNames) names = cg_names_new (g, TRUE);
  g_autoptr (GArray) end = by_end (g, names, typed);
  if (end->len == 1 || (all && end->len > 0))
    return g_steal_pointer (&end);
  g_autoptr (GString) message = g_string_new (NULL);
  g_string_append_printf (message, "--%s=%s: ", option, typed);
  if (end->len == 0)
    {
      g_string_append (message, "the profile has no such function");
      cg_lookup_append_closest (g, typed, message);
    }
  else
    {
      cg_names_set_short (names);
      g_string_append_printf (message, "%u functions have that name; give one of them in full:", end->len);
      for (guint i = 0; i < MIN (end->len, MAX_LISTED); i++)
        {
          g_string_append (message, "\n  ");
          cg_names_append_label (names, message, g_array_index (end, CgFunctionId, i));
        }
      if (end->len > MAX_LISTED)
        g_string_append_printf (message, "\n  and %u more", end->len - MAX_LISTED);
    }
  g_set_error_literal (error, CG_ERROR, CG_ERROR_USAGE, message->str);
  return NULL;
}
