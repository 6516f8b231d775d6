/* cg-write-callgrind.c — counts per function and arc as integer vectors,
 * then one block per function (see the header for the layout). */
#include "config.h"

#include "cg-write-callgrind.h"

#include <math.h>
#include <string.h>

#include "cg-error.h"

typedef struct {
  CgGraph *g;
  const CgCallgrindWriteOptions *o;
  FILE *stream;
  guint ne;
  gboolean nested;      /* the profile has nested marks (--separate-recs=1) */
  gboolean used_levels; /* a "'2" context was written */
  GHashTable *ids[3];   /* per name space: string -> id + 1 */
  const char *ob, *fl;  /* current object and file (NULL before any) */
  GString *line;
} Writer;

enum { SPACE_OB, SPACE_FL, SPACE_FN };

static void G_GNUC_PRINTF (2, 3)
warn (Writer *w, const char *format, ...)
{
  if (w->o == NULL || w->o->warn == NULL)
    return;
  va_list ap;
  va_start (ap, format);
  g_autofree char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  w->o->warn (msg, w->o->warn_data);
}

/* A value as callgrind's unsigned integer count; *@rounded is set when
 * that changes it. */
static guint64
to_count (CgKind kind, CgValue v, guint8 *rounded)
{
  if (kind == CG_KIND_INTEGER)
    return v.n;
  if (!(v.x > 0))
    {
      *rounded |= v.x != 0.0;
      return 0;
    }
  guint64 n = v.x >= 18446744073709551615.0 ? G_MAXUINT64 : (guint64) llround (v.x);
  *rounded |= (gdouble) n != v.x;
  return n;
}

static void
counts_of (const CgKind *kinds, const CgValue *v, guint ne, guint64 *out, guint8 *rounded)
{
  for (guint e = 0; e < ne; e++)
    out[e] = to_count (kinds[e], v[e], &rounded[e]);
}

static gboolean
is_zero (const guint64 *v, guint ne)
{
  for (guint e = 0; e < ne; e++)
    if (v[e])
      return FALSE;
  return TRUE;
}

/* Appends "key=" and @name compressed: "(id) name" the first time,
 * "(id)" after.  The empty string is written plainly (a compressed
 * definition needs a name). */
static void
append_name (Writer *w, const char *key, guint space, const char *name)
{
  g_string_append_printf (w->line, "%s=", key);
  if (*name == '\0')
    {
      g_string_append_c (w->line, '\n');
      return;
    }
  gpointer id1 = g_hash_table_lookup (w->ids[space], name);
  if (id1)
    {
      g_string_append_printf (w->line, "(%u)\n", GPOINTER_TO_UINT (id1) - 1);
      return;
    }
  guint id = g_hash_table_size (w->ids[space]) + 1;
  g_hash_table_insert (w->ids[space], g_strdup (name), GUINT_TO_POINTER (id + 1));
  g_string_append_printf (w->line, "(%u) %s\n", id, name);
}

static const char *
file_of (Writer *w, CgFunctionId f)
{
  const char *file = cg_graph_function_file (w->g, f);
  return *file ? file : "???";
}

/* The context name of @f: plain, or with a suffix ("'2"). */
static char *
context_name (Writer *w, CgFunctionId f, const char *suffix)
{
  return g_strconcat (cg_graph_function_name (w->g, f), suffix, NULL);
}

static void
flush (Writer *w)
{
  fwrite (w->line->str, 1, w->line->len, w->stream);
  g_string_truncate (w->line, 0);
}

static void
begin_block (Writer *w, CgFunctionId f, const char *suffix)
{
  const char *ob = cg_graph_function_object (w->g, f), *fl = file_of (w, f);
  /* the first block names both, even when empty: a reader's implicit
   * empty object need not be the same as an explicit empty cob= */
  if (w->ob == NULL || strcmp (ob, w->ob) != 0)
    append_name (w, "ob", SPACE_OB, ob);
  if (w->fl == NULL || strcmp (fl, w->fl) != 0)
    append_name (w, "fl", SPACE_FL, fl);
  w->ob = ob;
  w->fl = fl;
  g_autofree char *name = context_name (w, f, suffix);
  append_name (w, "fn", SPACE_FN, name);
}

/* A cost line at the function's first line: its counts, trailing zeros
 * left out (but never an empty line, which some readers mistake). */
static void
cost_line (Writer *w, guint32 line, const guint64 *v)
{
  guint n = w->ne;
  while (n > 0 && v[n - 1] == 0)
    n--;
  g_string_append_printf (w->line, "%u", line);
  if (n == 0)
    g_string_append (w->line, " 0");
  for (guint e = 0; e < n; e++)
    g_string_append_printf (w->line, " %" G_GUINT64_FORMAT, v[e]);
  g_string_append_c (w->line, '\n');
}

static void
call_line (Writer *w, CgFunctionId caller, CgFunctionId callee, const char *suffix, guint64 calls,
           const guint64 *inclusive)
{
  append_name (w, "cob", SPACE_OB, cg_graph_function_object (w->g, callee));
  append_name (w, "cfi", SPACE_FL, file_of (w, callee));
  g_autofree char *name = context_name (w, callee, suffix);
  append_name (w, "cfn", SPACE_FN, name);
  g_string_append_printf (w->line, "calls=%" G_GUINT64_FORMAT " %u\n", calls, cg_graph_function_line (w->g, callee));
  cost_line (w, cg_graph_function_line (w->g, caller), inclusive);
}

/* The suffix of a self-call: "'2", or plain where the profile's nested
 * marks must survive (a plain f calling a plain f is what makes the
 * reader mark cycles as nested). */
static const char *
self_call_suffix (Writer *w)
{
  return w->nested ? "" : "'2";
}

gboolean
cg_write_callgrind (CgProfile *p, const CgCosts *costs, const CgCallgrindWriteOptions *o, FILE *stream,
                    GError **error)
{
  CgGraph *g = cg_profile_graph (p);
  guint ne = cg_graph_n_events (g), nf = cg_graph_n_functions (g), na = cg_graph_n_arcs (g);
  const CgKind *kinds = cg_graph_event_kinds (g);
  const CgKind *cost_kinds = cg_costs_kinds (costs);
  gboolean measured = cg_costs_method (costs) == CG_METHOD_MEASURED && cg_graph_has_inclusive (g);
  g_autoptr (GString) line = g_string_new (NULL);
  Writer w = { g, o, stream, ne, FALSE, FALSE, { NULL, NULL, NULL }, NULL, NULL, line };
  for (guint i = 0; i < 3; i++)
    w.ids[i] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  /* the counts to write: self, arc inclusive (zero on self-arcs) and
   * spontaneous, per function or arc, ne per row */
  g_autofree guint64 *self = g_new0 (guint64, MAX ((gsize) nf * ne, 1));
  g_autofree guint64 *spont = g_new0 (guint64, MAX ((gsize) nf * ne, 1));
  g_autofree guint64 *inc = g_new0 (guint64, MAX ((gsize) na * ne, 1));
  g_autofree guint64 *totals = g_new0 (guint64, MAX (ne, 1));
  g_autofree guint64 *tmp = g_new0 (guint64, MAX (ne, 1));
  g_autofree guint8 *rounded = g_new0 (guint8, MAX (ne, 1)); /* per event */
  gboolean ok = TRUE;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      w.nested |= (cg_graph_function_flags (g, f) & CG_FUNCTION_NESTED) != 0;
      counts_of (kinds, cg_graph_self_const (g, f), ne, &self[(gsize) f * ne], rounded);
      for (guint e = 0; e < ne; e++)
        ok &= g_uint64_checked_add (&totals[e], totals[e], self[(gsize) f * ne + e]);
      if (strchr (cg_graph_function_name (g, f), '\''))
        warn (&w, "function '%s': callgrind takes an apostrophe for the start of a context, so it reads back"
                  " as another function", cg_graph_function_name (g, f));
    }
  for (CgArcId a = 0; a < na; a++)
    if (cg_graph_arc_caller (g, a) != cg_graph_arc_callee (g, a))
      counts_of (measured ? kinds : cost_kinds,
                 measured ? cg_graph_arc_inclusive_const (g, a) : cg_costs_arc_const (costs, a), ne,
                 &inc[(gsize) a * ne], rounded);
  guint inconsistent = 0;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint64 *sp = &spont[(gsize) f * ne];
      if (measured)
        {
          const CgValue *v = cg_graph_spontaneous (g, f);
          if (v)
            counts_of (kinds, v, ne, sp, rounded);
          continue;
        }
      /* what the arcs into f do not account for of its total */
      counts_of (cost_kinds, cg_costs_total_const (costs, f), ne, sp, rounded);
      guint n;
      const CgArcId *in = cg_graph_in_arcs (g, f, &n);
      gboolean short_fall = FALSE;
      for (guint i = 0; i < n; i++)
        for (guint e = 0; e < ne && cg_graph_arc_caller (g, in[i]) != f; e++)
          {
            guint64 x = inc[(gsize) in[i] * ne + e];
            short_fall |= x > sp[e];
            sp[e] = x > sp[e] ? 0 : sp[e] - x;
          }
      inconsistent += short_fall;
    }
  if (!ok)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "the total cost exceeds the range of 64-bit counters");
      goto out;
    }
  if (inconsistent)
    warn (&w, "%u function%s whose arcs carry more than their total (an estimating method's totals): written with"
              " the arcs' costs", inconsistent, inconsistent == 1 ? "" : "s");
  for (guint e = 0; e < ne; e++)
    {
      if (rounded[e])
        warn (&w, "event %s has fractional values: written rounded to integers", cg_graph_event_name (g, e));
      if (cg_graph_event_scale (g, e) != 1.0)
        warn (&w, "event %s: callgrind's format has no scale, so its values are written in stored units (%s / %g)",
              cg_graph_event_name (g, e), cg_graph_event_unit (g, e), cg_graph_event_scale (g, e));
    }

  /* header */
  g_string_append (line, "# callgrind format\nversion: 1\n");
  g_string_append_printf (line, "creator: %s\n", o && o->creator ? o->creator : PACKAGE_STRING);
  for (guint i = 0; i < cg_profile_n_sources (p); i++)
    {
      const CgSource *source = cg_profile_source (p, i);
      if (source->command && *source->command)
        {
          g_autofree char *command = g_strdelimit (g_strdup (source->command), "\n\r", ' ');
          g_string_append_printf (line, "cmd: %s\n", command);
          break;
        }
    }
  g_string_append_printf (line, "# inclusive costs on calls= lines: method %s\npositions: line\n",
                          cg_method_to_string (cg_costs_method (costs)));
  for (guint e = 0; e < ne; e++)
    {
      const char *description = cg_graph_event_description (g, e);
      if (description)
        {
          g_autofree char *name = g_strdelimit (g_strdup (cg_graph_event_name (g, e)), " \t:=", '_');
          g_string_append_printf (line, "event: %s : %s\n", name, description);
        }
    }
  g_string_append (line, "events:");
  for (guint e = 0; e < ne; e++)
    {
      g_autofree char *name = g_strdelimit (g_strdup (cg_graph_event_name (g, e)), " \t:=", '_');
      g_string_append_printf (line, " %s", name);
    }
  g_string_append (line, "\nsummary:");
  for (guint e = 0; e < ne; e++)
    g_string_append_printf (line, " %" G_GUINT64_FORMAT, totals[e]);
  g_string_append (line, "\n\n");
  flush (&w);

  guint unexpressed = 0;
  for (CgFunctionId f = 0; f < nf; f++)
    {
      guint32 at = cg_graph_function_line (g, f);
      const guint64 *s = &self[(gsize) f * ne], *sp = &spont[(gsize) f * ne];
      guint n_in, n_out;
      const CgArcId *in = cg_graph_in_arcs (g, f, &n_in);
      const CgArcId *out = cg_graph_out_arcs (g, f, &n_out);
      gboolean called = FALSE;
      CgArcId self_arc = CG_NO_ID, any_arc = n_out > 0 ? out[0] : CG_NO_ID;
      for (guint i = 0; i < n_in; i++)
        called |= cg_graph_arc_caller (g, in[i]) != f;
      for (guint i = 0; i < n_out; i++)
        if (cg_graph_arc_callee (g, out[i]) == f)
          self_arc = out[i];
      guint64 self_calls = self_arc == CG_NO_ID ? 0 : cg_graph_arc_calls (g, self_arc);

      /* uncalled: the reader takes self + calls' inclusive as the total,
       * so the difference d must go somewhere */
      g_autofree guint64 *d = g_new0 (guint64, MAX (ne, 1));
      gboolean short_of = FALSE; /* self + calls exceed the total */
      if (!called)
        for (guint e = 0; e < ne; e++)
          {
            guint64 have = s[e];
            for (guint i = 0; i < n_out; i++)
              if (out[i] != self_arc && !g_uint64_checked_add (&have, have, inc[(gsize) out[i] * ne + e]))
                have = G_MAXUINT64;
            short_of |= have > sp[e];
            d[e] = have > sp[e] ? 0 : sp[e] - have;
          }
      if (short_of && self_arc != CG_NO_ID)
        {
          /* everything one level down, and f's total on its self-call */
          begin_block (&w, f, "");
          call_line (&w, f, f, "'2", self_calls, sp);
          begin_block (&w, f, "'2");
          if (!is_zero (s, ne))
            cost_line (&w, at, s);
          for (guint i = 0; i < n_out; i++)
            if (out[i] != self_arc)
              call_line (&w, f, cg_graph_arc_callee (g, out[i]), "", cg_graph_arc_calls (g, out[i]),
                         &inc[(gsize) out[i] * ne]);
          w.used_levels = TRUE;
          flush (&w);
          continue;
        }
      unexpressed += short_of;

      /* called and spontaneous: the spontaneous part in its own context;
       * as much of it as can be is self cost moved there */
      g_autofree guint64 *moved = g_new0 (guint64, MAX (ne, 1));
      g_autofree guint64 *rest = g_new0 (guint64, MAX (ne, 1));
      if (called)
        for (guint e = 0; e < ne; e++)
          {
            moved[e] = MIN (s[e], sp[e]);
            rest[e] = sp[e] - moved[e];
          }
      begin_block (&w, f, "");
      for (guint e = 0; e < ne; e++)
        tmp[e] = s[e] - moved[e];
      if (!is_zero (tmp, ne))
        cost_line (&w, at, tmp);
      for (guint i = 0; i < n_out; i++)
        if (out[i] != self_arc)
          call_line (&w, f, cg_graph_arc_callee (g, out[i]), "", cg_graph_arc_calls (g, out[i]),
                     &inc[(gsize) out[i] * ne]);
      gboolean d_placed = is_zero (d, ne);
      if (self_arc != CG_NO_ID)
        {
          gboolean carries = !d_placed && !w.nested;
          memset (tmp, 0, ne * sizeof (guint64));
          call_line (&w, f, f, self_call_suffix (&w), self_calls, carries ? d : tmp);
          d_placed |= carries;
        }
      /* what is left goes on a call into a deeper activation of a
       * callee: it carries cost, adds no calls and no arc cost */
      const guint64 *extra = !d_placed ? d : called && !is_zero (rest, ne) ? rest : NULL;
      if (called && !is_zero (sp, ne))
        {
          begin_block (&w, f, "'<spontaneous>");
          if (!is_zero (moved, ne))
            cost_line (&w, at, moved);
        }
      if (extra && any_arc != CG_NO_ID)
        {
          call_line (&w, f, cg_graph_arc_callee (g, any_arc), "'2", 0, extra);
          w.used_levels = TRUE;
        }
      else if (extra)
        unexpressed++;
      flush (&w);
    }
  if (unexpressed)
    warn (&w, "%u function%s whose total callgrind's format cannot express (spontaneous costs that neither its self"
              " cost nor its calls can carry): their totals will read back differently",
          unexpressed, unexpressed == 1 ? "" : "s");
  if (w.nested && w.used_levels)
    warn (&w, "the profile's nested marks (--separate-recs=1) cannot be kept: cycle members' totals will read back"
              " as the sums of their calls");

  g_string_append (line, "\ntotals:");
  for (guint e = 0; e < ne; e++)
    g_string_append_printf (line, " %" G_GUINT64_FORMAT, totals[e]);
  g_string_append_c (line, '\n');
  flush (&w);
out:
  for (guint i = 0; i < 3; i++)
    g_hash_table_unref (w.ids[i]);
  return ok;
}
