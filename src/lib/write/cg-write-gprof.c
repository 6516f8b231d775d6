/* cg-write-gprof.c — gprof's printf formats, one section at a time. */
#include "config.h"

#include "cg-write-gprof.h"

#include <errno.h>
#include <string.h>

#include "cg-error.h"
#include "cg-names.h"
#include "cg-output.h"
#include "cg-value.h"

typedef struct {
  const CgGprof *gp;
  CgGraph *g;
  guint nf;
  gdouble hz;         /* stored values per second, or per unit of dimension */
  const char *dimension; /* the unit printed: seconds for any time (cg_time_unit_seconds) */
  GString *out;
  CgNames *names; /* as printed: demangled when asked (print_name_only) */
  gboolean view2; /* arcs are being seen from the callee (time2) */
} Writer;

static const CgGprofEntry *
E (const Writer *w, guint i)
{
  return cg_gprof_entry (w->gp, i);
}

/* The linker name: what gprof sorts and matches. */
static const char *
name_of (const Writer *w, CgFunctionId f)
{
  return cg_graph_function_name (w->g, f);
}

/* The name as printed. */
static const char *
shown_name (Writer *w, CgFunctionId f)
{
  return cg_names_get (w->names, f);
}

/* ---- flat profile (hist.c) ---- */

static gint
cmp_time (gconstpointer a, gconstpointer b, gpointer data)
{
  const Writer *w = data;
  guint l = *(const guint *) a, r = *(const guint *) b;
  gdouble diff = E (w, r)->time - E (w, l)->time;
  if (diff > 0.0)
    return 1;
  if (diff < 0.0)
    return -1;
  if (E (w, r)->ncalls > E (w, l)->ncalls)
    return 1;
  if (E (w, r)->ncalls < E (w, l)->ncalls)
    return -1;
  return strcmp (name_of (w, l), name_of (w, r));
}

static const struct {
  char prefix;
  gdouble scale;
} si[] = {
  { 'T', 1e-12 }, { 'G', 1e-09 }, { 'M', 1e-06 }, { 'K', 1e-03 }, { ' ', 1e-00 }, { 'm', 1e+03 },
  { 'u', 1e+06 }, { 'n', 1e+09 }, { 'p', 1e+12 }, { 'f', 1e+15 }, { 'a', 1e+18 },
};

static gboolean
shown_in_flat (const Writer *w, CgFunctionId f)
{
  return cg_gprof_in_table (w->gp, CG_GPROF_INCL_FLAT, f)
         || (!cg_gprof_table_used (w->gp, CG_GPROF_INCL_FLAT)
             && !cg_gprof_in_table (w->gp, CG_GPROF_EXCL_FLAT, f));
}

/* What one stored value is, on the line gprof gives to "Each sample
 * counts as 0.01 seconds.": gprof's words for a histogram's samples
 * (gmon.out, a gprof report), byte for byte; other sources are not
 * samples of a clock, and say what their counts are: a nanosecond of
 * perf's cpu-clock period (or Xdebug's 10 ns, libamon's measured ns),
 * or a sample, an event, an instruction where the unit is no time. */
static void
write_counts_line (Writer *w, guint event)
{
  GString *o = w->out;
  const char *unit = cg_graph_event_unit (w->g, event);
  if (cg_gprof_is_exact (w->gp))
    g_string_append_printf (o, "\nTimes are exact, from %u contexts, in %s.\n", cg_gprof_n_contexts (w->gp),
                            w->dimension);
  else if (cg_gprof_has_histogram (w->gp))
    g_string_append_printf (o, "\nEach sample counts as %g %s.\n", 1.0 / w->hz, w->dimension);
  else if (cg_time_unit_seconds (unit) > 0)
    g_string_append_printf (o, "\nEach count is %g %s of %s, not a sample.\n", 1.0 / w->hz, w->dimension,
                            cg_graph_event_name (w->g, event));
  else
    g_string_append_printf (o, "\nCounts are %s, not seconds.\n", *unit ? unit : cg_graph_event_name (w->g, event));
}

static void
write_flat (Writer *w, const CgGprofReport *r, guint event)
{
  GString *o = w->out;
  const char *dimension = w->dimension;
  g_string_append (o, "Flat profile:\n");
  g_autofree guint *sorted = g_new (guint, MAX (w->nf, 1));
  for (guint i = 0; i < w->nf; i++)
    sorted[i] = i;
  cg_gprof_msort (sorted, w->nf, cmp_time, w);

  /* the per-call unit: the largest time per call lands in [1, 1000) */
  guint log_scale = 0;
  gdouble top_time = 0.0;
  gboolean top_dog = FALSE;
  for (guint i = 0; i < w->nf; i++)
    {
      const CgGprofEntry *e = E (w, sorted[i]);
      if (e->ncalls != 0)
        {
          gdouble call_time = (e->time + e->child_time) / (gdouble) e->ncalls;
          if (call_time > top_time)
            {
              top_dog = TRUE;
              top_time = call_time;
            }
        }
    }
  if (top_dog && top_time > 0.0)
    {
      top_time /= w->hz;
      for (log_scale = 0; log_scale < G_N_ELEMENTS (si); log_scale++)
        {
          gdouble scaled = si[log_scale].scale * top_time;
          if (scaled >= 1.0 && scaled < 1000.0)
            break;
        }
    }
  gchar prefix = log_scale < G_N_ELEMENTS (si) ? si[log_scale].prefix : '\0';
  gdouble scale = log_scale < G_N_ELEMENTS (si) ? si[log_scale].scale : 0.0;

  gdouble total = cg_gprof_total_time (w->gp);
  write_counts_line (w, event);
  if (total <= 0.0)
    {
      g_string_append (o, " no time accumulated\n\n");
      total = 1.0;
    }
  char unit[64];
  g_snprintf (unit, sizeof unit, "%c%c/call", prefix, dimension[0] ? dimension[0] : 's');
  if (prefix == '\0')
    g_snprintf (unit, sizeof unit, "%c/call", dimension[0] ? dimension[0] : 's');
  g_string_append_printf (o, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "%  ", "cumulative",
                          "self  ", "", "self  ", "total ", "");
  g_string_append_printf (o, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %-8.8s\n", "time", dimension,
                          dimension, "calls", unit, unit, "name");
  gdouble accum = 0.0;
  for (guint i = 0; i < w->nf; i++)
    {
      CgFunctionId f = sorted[i];
      const CgGprofEntry *e = E (w, f);
      if (!shown_in_flat (w, f) || (!r->zeros && e->ncalls == 0 && e->time == 0))
        continue;
      accum += e->time;
      g_string_append_printf (o, "%6.2f %9.2f %8.2f", total > 0.0 ? 100 * e->time / total : 0.0,
                              accum / w->hz, e->time / w->hz);
      if (e->ncalls != 0)
        g_string_append_printf (o, " %8" G_GUINT64_FORMAT " %8.2f %8.2f  ", e->ncalls,
                                scale * e->time / w->hz / (gdouble) e->ncalls,
                                scale * (e->time + e->child_time) / w->hz / (gdouble) e->ncalls);
      else
        g_string_append_printf (o, " %8.8s %8.8s %8.8s  ", "", "", "");
      g_string_append (o, shown_name (w, f));
      g_string_append_c (o, '\n');
    }
}

/* ---- call graph (cg_print.c) ---- */

static void
append_name (Writer *w, CgFunctionId f)
{
  const CgGprofEntry *e = E (w, f);
  g_string_append (w->out, shown_name (w, f));
  if (e->cycle)
    g_string_append_printf (w->out, " <cycle %u>", e->cycle);
  if (e->index)
    g_string_append_printf (w->out, e->print ? " [%u]" : " (%u)", e->index);
}

/* The entry whose ncalls is the denominator of arcs into @f. */
static const CgGprofEntry *
head_of (Writer *w, CgFunctionId f)
{
  guint c = E (w, f)->cycle;
  return E (w, c ? w->nf + c - 1 : f);
}

static gboolean
in_one_cycle (Writer *w, CgFunctionId a, CgFunctionId b)
{
  return E (w, a)->cycle != 0 && E (w, a)->cycle == E (w, b)->cycle;
}

/* cmp_arc: self-arcs least, then arcs inside a cycle (by count), then by
 * time + child time and count. */
static gint
cmp_arc (gconstpointer a, gconstpointer b, gpointer data)
{
  Writer *w = data;
  CgArcId l = *(const CgArcId *) a, r = *(const CgArcId *) b;
  CgFunctionId lp = cg_graph_arc_caller (w->g, l), lc = cg_graph_arc_callee (w->g, l);
  CgFunctionId rp = cg_graph_arc_caller (w->g, r), rc = cg_graph_arc_callee (w->g, r);
  guint64 lcount = cg_gprof_arc (w->gp, l)->calls, rcount = cg_gprof_arc (w->gp, r)->calls;
  if (lp == lc)
    return -1;
  if (rp == rc)
    return 1;
  gboolean lin = in_one_cycle (w, lp, lc), rin = in_one_cycle (w, rp, rc);
  if (lin && rin)
    return (lcount > rcount) - (lcount < rcount);
  if (lin)
    return -1;
  if (rin)
    return 1;
  const CgGprofArc *la = cg_gprof_arc (w->gp, l), *ra = cg_gprof_arc (w->gp, r);
  gdouble lt = w->view2 ? la->time2 + la->child_time2 : la->time + la->child_time;
  gdouble rt = w->view2 ? ra->time2 + ra->child_time2 : ra->time + ra->child_time;
  if (lt < rt)
    return -1;
  if (lt > rt)
    return 1;
  return (lcount > rcount) - (lcount < rcount);
}

static gint
cmp_arc_descending (gconstpointer a, gconstpointer b, gpointer data)
{
  return cmp_arc (b, a, data);
}

/* gprof's insertion sorts put each arc before the first one not smaller
 * (parents) or not larger (children), so equal arcs end up in reverse
 * list order: a stable sort of the reversed list gives the same. */
static CgArcId *
sorted_arcs (Writer *w, const CgArcId *list, guint n, gboolean descending)
{
  CgArcId *v = g_new (CgArcId, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    v[i] = list[n - 1 - i];
  g_qsort_with_data (v, (gint) n, sizeof *v, descending ? cmp_arc_descending : cmp_arc, w);
  return v;
}

/* Whether two times print alike in the arc lines' "%7.2f". */
static gboolean
print_alike (gdouble x, gdouble y)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  g_snprintf (a, sizeof a, "%.2f", x);
  g_snprintf (b, sizeof b, "%.2f", y);
  return strcmp (a, b) == 0;
}

/* An arc line: seen from the caller (a child line: time, child_time) or,
 * with w->view2, from the callee (a parent line: time2, child_time2).
 * Exact context data end a line whose other view prints differently
 * with that view, named by Spivey's letters. */
static void
write_arc_line (Writer *w, CgArcId a, CgFunctionId other, CgFunctionId callee)
{
  GString *o = w->out;
  guint64 count = cg_gprof_arc (w->gp, a)->calls;
  if (cg_graph_arc_caller (w->g, a) == callee || in_one_cycle (w, cg_graph_arc_caller (w->g, a), callee))
    {
      g_string_append_printf (o, "%6.6s %5.5s %7.7s %7.7s %7" G_GUINT64_FORMAT " %7.7s     ", "", "", "",
                              "", count, "");
      append_name (w, other);
      g_string_append_c (o, '\n');
      return;
    }
  const CgGprofArc *ar = cg_gprof_arc (w->gp, a);
  gdouble self = (w->view2 ? ar->time2 : ar->time) / w->hz;
  gdouble child = (w->view2 ? ar->child_time2 : ar->child_time) / w->hz;
  gdouble other_self = (w->view2 ? ar->time : ar->time2) / w->hz;
  gdouble other_child = (w->view2 ? ar->child_time : ar->child_time2) / w->hz;
  g_string_append_printf (o, "%6.6s %5.5s %7.2f %7.2f %7" G_GUINT64_FORMAT "/%-7" G_GUINT64_FORMAT "     ", "",
                          "", self, child, count, head_of (w, callee)->ncalls);
  append_name (w, other);
  if (cg_gprof_is_exact (w->gp) && !(print_alike (self, other_self) && print_alike (child, other_child)))
    g_string_append_printf (o, "  (self%c %.2f, child%c %.2f)", w->view2 ? '1' : '2', other_self,
                            w->view2 ? '1' : '2', other_child);
  g_string_append_c (o, '\n');
}

static void
write_entry (Writer *w, CgFunctionId f, gdouble print_time)
{
  GString *o = w->out;
  const CgGprofEntry *e = E (w, f);
  guint n;
  const CgArcId *parents = cg_gprof_parents (w->gp, f, &n);
  if (n == 0)
    g_string_append_printf (o, "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n", "", "", "", "",
                            "", "");
  else
    {
      /* exact context data: the time of activations nobody called, so
       * that the caller lines add up to the primary line */
      if (e->spont_self != 0.0 || e->spont_child != 0.0)
        g_string_append_printf (o, "%6.6s %5.5s %7.2f %7.2f %7.7s %7.7s     <spontaneous>\n", "", "",
                                e->spont_self / w->hz, e->spont_child / w->hz, "", "");
      w->view2 = TRUE;
      g_autofree CgArcId *v = sorted_arcs (w, parents, n, FALSE);
      for (guint i = 0; i < n; i++)
        write_arc_line (w, v[i], cg_graph_arc_caller (w->g, v[i]), f);
      w->view2 = FALSE;
    }

  char buf[32];
  g_snprintf (buf, sizeof buf, "[%u]", e->index);
  g_string_append_printf (o, "%-6.6s %5.1f %7.2f %7.2f", buf,
                          100 * (e->prop_self + e->prop_child) / print_time, e->prop_self / w->hz,
                          e->prop_child / w->hz);
  if (e->ncalls + e->self_calls != 0)
    {
      g_string_append_printf (o, " %7" G_GUINT64_FORMAT, e->ncalls);
      if (e->self_calls != 0)
        g_string_append_printf (o, "+%-7" G_GUINT64_FORMAT " ", e->self_calls);
      else
        g_string_append_printf (o, " %7.7s ", "");
    }
  else
    g_string_append_printf (o, " %7.7s %7.7s ", "", "");
  append_name (w, f);
  g_string_append_c (o, '\n');

  const CgArcId *children = cg_gprof_children (w->gp, f, &n);
  g_autofree CgArcId *v = sorted_arcs (w, children, n, TRUE);
  for (guint i = 0; i < n; i++)
    write_arc_line (w, v[i], cg_graph_arc_callee (w->g, v[i]), cg_graph_arc_callee (w->g, v[i]));
}

/* sort_members: by propagated time, then calls, descending; ties keep
 * the list order. */
static gint
cmp_member_descending (gconstpointer a, gconstpointer b, gpointer data)
{
  Writer *w = data;
  const CgGprofEntry *l = E (w, *(const CgFunctionId *) a), *r = E (w, *(const CgFunctionId *) b);
  gdouble lt = l->prop_self + l->prop_child, rt = r->prop_self + r->prop_child;
  guint64 lc = l->ncalls + l->self_calls, rc = r->ncalls + r->self_calls;
  if (lt != rt)
    return lt > rt ? -1 : 1;
  return (lc < rc) - (lc > rc);
}

static void
write_cycle (Writer *w, guint number, gdouble print_time)
{
  GString *o = w->out;
  const CgGprofEntry *c = E (w, w->nf + number - 1);
  char buf[32];
  g_snprintf (buf, sizeof buf, "[%u]", c->index);
  g_string_append_printf (o, "%-6.6s %5.1f %7.2f %7.2f %7" G_GUINT64_FORMAT, buf,
                          100 * (c->prop_self + c->prop_child) / print_time, c->prop_self / w->hz,
                          c->prop_child / w->hz, c->ncalls);
  if (c->self_calls != 0)
    g_string_append_printf (o, "+%-7" G_GUINT64_FORMAT, c->self_calls);
  else
    g_string_append_printf (o, " %7.7s", "");
  g_string_append_printf (o, " <cycle %u as a whole> [%u]\n", number, c->index);
  guint n;
  const CgFunctionId *list = cg_gprof_members (w->gp, number, &n);
  g_autofree CgFunctionId *m = g_memdup2 (list, (gsize) MAX (n, 1) * sizeof *m);
  g_qsort_with_data (m, (gint) n, sizeof *m, cmp_member_descending, w);
  for (guint i = 0; i < n; i++)
    {
      const CgGprofEntry *e = E (w, m[i]);
      g_string_append_printf (o, "%6.6s %5.5s %7.2f %7.2f %7" G_GUINT64_FORMAT, "", "", e->prop_self / w->hz,
                              e->prop_child / w->hz, e->ncalls);
      if (e->self_calls != 0)
        g_string_append_printf (o, "+%-7" G_GUINT64_FORMAT, e->self_calls);
      else
        g_string_append_printf (o, " %7.7s", "");
      g_string_append (o, "     ");
      append_name (w, m[i]);
      g_string_append_c (o, '\n');
    }
}

static void
write_graph (Writer *w, const CgGprofReport *r, gboolean first)
{
  GString *o = w->out;
  if (!first)
    g_string_append (o, "\f\n");
  g_string_append (o, "\t\t\tCall graph\n\n");
  /* a source without a histogram (perf, folded stacks, callgrind) has
   * no bins of code, nor a sample's share to say: its counts are per
   * function, and the line gives their sum as the exact one does */
  gboolean whole = cg_gprof_is_exact (w->gp) || !cg_gprof_has_histogram (w->gp);
  if (cg_gprof_is_exact (w->gp))
    g_string_append_printf (o, "\ngranularity: exact times of %u contexts", cg_gprof_n_contexts (w->gp));
  else if (whole)
    g_string_append (o, "\ngranularity: counts per function, no histogram");
  else
    g_string_append_printf (o, "\ngranularity: each sample hit covers %" G_GUINT64_FORMAT " byte(s)",
                            cg_gprof_granularity (w->gp));
  /* gprof says seconds whatever the histogram's dimension; costs of
   * another unit (perf's ns, folded samples) are said in theirs */
  const char *unit = w->dimension;
  if (cg_gprof_granularity (w->gp) > 0 || cg_gprof_is_exact (w->gp) || !*unit)
    unit = "seconds";
  gdouble print_time = cg_gprof_print_time (w->gp);
  if (print_time > 0.0 && whole)
    g_string_append_printf (o, ", %.2f %s in all\n\n", print_time / w->hz, unit);
  else if (print_time > 0.0)
    g_string_append_printf (o, " for %.2f%% of %.2f %s\n\n", 100.0 / print_time, print_time / w->hz, unit);
  else
    {
      g_string_append (o, " no time propagated\n\n");
      print_time = 1.0;
    }
  g_string_append (o, "index % time    self  children    called     name\n");
  const guint *order = cg_gprof_order (w->gp);
  guint n = w->nf + cg_gprof_n_cycles (w->gp);
  for (guint i = 0; i < n; i++)
    {
      guint k = order[i];
      const CgGprofEntry *e = E (w, k);
      if ((!r->zeros && e->ncalls == 0 && e->self_calls == 0 && e->prop_self == 0 && e->prop_child == 0)
          || !e->print)
        continue;
      if (k >= w->nf)
        write_cycle (w, e->cycle, print_time);
      else
        write_entry (w, k, print_time);
      g_string_append (o, "-----------------------------------------------\n");
    }
}

static gint
cmp_name (gconstpointer a, gconstpointer b, gpointer data)
{
  const Writer *w = data;
  return strcmp (name_of (w, *(const guint *) a), name_of (w, *(const guint *) b));
}

static void
write_index (Writer *w, const CgGprofReport *r)
{
  GString *o = w->out;
  guint nc = cg_gprof_n_cycles (w->gp);
  g_autofree guint *names = g_new (guint, w->nf + nc + 1);
  guint nnames = 0;
  for (guint f = 0; f < w->nf; f++)
    if (r->zeros || E (w, f)->ncalls != 0 || E (w, f)->time != 0)
      names[nnames++] = f;
  cg_gprof_msort (names, nnames, cmp_name, w);
  guint todo = nnames;
  for (guint c = 1; c <= nc; c++)
    names[todo++] = w->nf + c - 1;
  g_string_append (o, "\f\nIndex by function name\n\n");
  gint column_width = ((gint) r->width - 1) / 3;
  guint rows = (todo + 2) / 3;
  for (guint i = 0; i < rows; i++)
    {
      gint col = 0, starting_col = 0;
      for (guint j = i; j < todo; j += rows)
        {
          const CgGprofEntry *e = E (w, names[j]);
          char buf[32];
          g_snprintf (buf, sizeof buf, e->print ? "[%u]" : "(%u)", e->index);
          col += (gint) strlen (buf);
          for (; col < starting_col + 5; ++col)
            g_string_append_c (o, ' ');
          g_string_append_printf (o, " %s ", buf);
          if (j < nnames)
            {
              /* gprof names a static function's file here by its base
               * name, where the executable's DWARF gives it (in gmon.out
               * data only static functions have a file: cg-symbols.h) */
              const char *name = shown_name (w, names[j]), *file = cg_graph_function_file (w->g, names[j]);
              const char *slash = strrchr (file, '/');
              gsize before = o->len;
              g_string_append (o, name);
              if (*file != '\0')
                g_string_append_printf (o, " (%s)", slash ? slash + 1 : file);
              col += (gint) (o->len - before);
            }
          else
            {
              g_snprintf (buf, sizeof buf, "<cycle %u>", e->cycle);
              g_string_append (o, buf);
              col += (gint) strlen (buf);
            }
          starting_col += column_width;
        }
      g_string_append_c (o, '\n');
    }
}

gboolean
cg_write_gprof (const CgGprof *gp, const CgGprofReport *report, FILE *stream, GError **error)
{
  CgGraph *g = cg_gprof_graph (gp);
  guint nf = cg_graph_n_functions (g);
  g_autoptr (CgNames) names = cg_names_new (g, report->demangle);
  Writer w = { gp, g, nf, cg_gprof_rate (gp), cg_graph_event_unit (g, cg_gprof_event (gp)), g_string_new (NULL),
               names, FALSE };
  /* a time in another unit (Xdebug's 10ns, callgrind's sysTime in us)
   * is printed in seconds, as gprof prints its times */
  gdouble seconds = cg_time_unit_seconds (w.dimension);
  if (seconds > 0)
    {
      w.hz /= seconds;
      w.dimension = "seconds";
    }
  gboolean first = TRUE;
  if (report->notes && *report->notes)
    g_string_append_printf (w.out, "%s\n", report->notes);
  if (report->flat)
    {
      write_flat (&w, report, cg_gprof_event (gp));
      first = FALSE;
    }
  if (report->graph)
    {
      write_graph (&w, report, first);
      write_index (&w, report);
    }
  errno = 0;
  gboolean ok = fwrite (w.out->str, 1, w.out->len, stream) == w.out->len;
  g_string_free (w.out, TRUE);
  if (!ok)
    {
      int e = errno ? errno : cg_output_lost_errno (stream);
      g_set_error (error, CG_ERROR, e == EPIPE ? CG_ERROR_CLOSED : CG_ERROR_IO, "write error: %s", g_strerror (e));
    }
  return ok;
}
