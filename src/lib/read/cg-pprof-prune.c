/* cg-pprof-prune.c — drop_frames and keep_frames as pprof matches them. */
#include "config.h"

#include "cg-pprof-prune.h"

#include <string.h>

struct _CgPprofPrune {
  GRegex *drop, *keep;
};

/* ^(EXPR)$, $ at the very end only, as Go's regexp has it; bytes, not
 * UTF-8 (names need not be valid UTF-8) */
static GRegex *
anchored (const char *expr, GError **error)
{
  g_autofree char *pattern = g_strdup_printf ("^(%s)$", expr);
  return g_regex_new (pattern, G_REGEX_DOLLAR_ENDONLY | G_REGEX_RAW | G_REGEX_OPTIMIZE, 0, error);
}

CgPprofPrune *
cg_pprof_prune_new (const char *drop, const char *keep, GError **error)
{
  CgPprofPrune *p = g_new0 (CgPprofPrune, 1);
  p->drop = anchored (drop, error);
  if (p->drop != NULL && keep != NULL && *keep != '\0')
    p->keep = anchored (keep, error);
  if (p->drop == NULL || (keep != NULL && *keep != '\0' && p->keep == NULL))
    {
      cg_pprof_prune_free (p);
      return NULL;
    }
  return p;
}

void
cg_pprof_prune_free (CgPprofPrune *p)
{
  if (p == NULL)
    return;
  if (p->drop)
    g_regex_unref (p->drop);
  if (p->keep)
    g_regex_unref (p->keep);
  g_free (p);
}

gboolean
cg_pprof_prune_drops (const CgPprofPrune *p, const char *name, gsize len, GError **error)
{
  if (len > 0 && name[0] == '.')
    name++, len--;
  const char *paren = len > 1 ? memchr (name + 1, '(', len - 1) : NULL;
  static const char anon[] = "(anonymous namespace)";
  if (paren && !((gsize) (name + len - paren) >= sizeof anon - 1 && memcmp (paren, anon, sizeof anon - 1) == 0))
    len = (gsize) (paren - name);
  /* GRegex wants a string it can read to its end: names may hold NULs */
  g_autofree char *s = g_strndup (name, len);
  if (strlen (s) != len)
    return FALSE;
  /* PCRE backtracks, where pprof's RE2 does not: an expression such as
   * (a|aa)* takes up to PCRE's match limit for each name, and the match
   * that reaches it is an error, so that a hostile profile costs one such
   * match, not one per function */
  GError *local = NULL;
  gboolean drop = g_regex_match_full (p->drop, s, (gssize) len, 0, 0, NULL, &local);
  if (drop && p->keep && local == NULL)
    drop = !g_regex_match_full (p->keep, s, (gssize) len, 0, 0, NULL, &local);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return drop;
}
