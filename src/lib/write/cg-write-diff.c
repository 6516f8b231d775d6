/* cg-write-diff.c — the views of a profile difference. */
#include "config.h"

#include "cg-write-diff.h"

#include <math.h>
#include <string.h>

#include "cg-error.h"
#include "cg-fit-line.h"
#include "cg-method.h"
#include "cg-names.h"
#include "cg-text.h"

/* the label of a row: as the new profile names it, else as the base does */
static void
append_name (const CgDiff *d, CgNames *new_names, CgNames *base_names, GString *s, CgFunctionId f_new,
             CgFunctionId f_base)
{
  if (f_new != CG_NO_ID)
    {
      if (new_names)
        cg_names_append_label (new_names, s, f_new);
      else
        cg_graph_append_label (cg_profile_graph (cg_diff_new_profile (d)), s, f_new);
    }
  else if (base_names)
    cg_names_append_label (base_names, s, f_base);
  else
    cg_graph_append_label (cg_profile_graph (cg_diff_base (d)), s, f_base);
}

static void
append_label (const CgDiff *d, CgNames *new_names, CgNames *base_names, GString *s, const CgDiffFunction *f)
{
  append_name (d, new_names, base_names, s, f->new, f->base);
}

static void
append_value (const CgDiff *d, GString *s, CgValue v)
{
  g_string_append_c (s, '\t');
  cg_value_append_scaled (s, cg_diff_kind (d), v, cg_diff_scale (d));
}

static const char *const presence_names[] = { "both", "added", "removed" };

void
cg_write_diff_tsv (const CgDiff *d, FILE *stream)
{
  fputs ("function\tbase_total\tnew_total\ttotal_change\tbase_self\tnew_self\tself_change\tpresence\texactness\n",
         stream);
  g_autoptr (GString) s = g_string_new (NULL);
  for (guint i = 0; i < cg_diff_n_functions (d); i++)
    {
      const CgDiffFunction *f = cg_diff_function (d, i);
      g_string_truncate (s, 0);
      append_label (d, NULL, NULL, s, f);
      append_value (d, s, f->base_total);
      append_value (d, s, f->new_total);
      g_string_append_c (s, '\t');
      cg_diff_append_change (d, s, f, TRUE);
      append_value (d, s, f->base_self);
      append_value (d, s, f->new_self);
      g_string_append_c (s, '\t');
      cg_diff_append_change (d, s, f, FALSE);
      g_string_append_printf (s, "\t%s\t%s\n", presence_names[f->presence], f->estimated ? "estimated" : "exact");
      fwrite (s->str, 1, s->len, stream);
    }
}

/* The unit values are shown in for people (ms for a profile of under a
 * second whose event counts seconds, as the other views show it) and
 * the scale from the difference's values to it. */
typedef struct {
  gdouble scale;
  const char *unit;
} Shown;

static Shown
shown_unit (const CgDiff *d)
{
  CgGraph *g = cg_profile_graph (cg_diff_new_profile (d));
  CgKind kind = cg_diff_kind (d);
  gdouble scale = cg_diff_scale (d);
  gdouble largest = MAX (fabs (cg_value_to_double (kind, cg_diff_base_sum (d))),
                         fabs (cg_value_to_double (kind, cg_diff_new_sum (d)))) * scale;
  CgDisplayUnit u = cg_display_unit (cg_graph_event_unit (g, cg_diff_new_event (d)), largest);
  return (Shown) { scale * u.factor, u.unit };
}

/* "Event: NAME (DESCRIPTION), in UNIT": what the numbers below are. */
static void
append_event_line (const CgDiff *d, const Shown *u, GString *s)
{
  CgGraph *g = cg_profile_graph (cg_diff_new_profile (d));
  guint e = cg_diff_new_event (d);
  g_string_append_printf (s, "Event: %s", cg_graph_event_name (g, e));
  if (cg_graph_event_description (g, e))
    g_string_append_printf (s, " (%s)", cg_graph_event_description (g, e));
  if (strcmp (u->unit, cg_graph_event_name (g, e)) != 0)
    g_string_append_printf (s, ", in %s", u->unit);
  g_string_append_c (s, '\n');
}

/* @v in the unit shown, with digit groups */
static void
append_human (const CgDiff *d, const Shown *u, GString *s, CgValue v)
{
  cg_append_cost_human (s, cg_diff_kind (d), v, u->scale);
}

/* a signed change for people: "+1,234" or "-0.25" (cg-text.h) */
static void
append_change_human (const CgDiff *d, const Shown *u, GString *s, CgValue base, CgValue new)
{
  cg_append_change_human (s, cg_diff_kind (d), base, new, u->scale);
}

/* The rows of a text view: right-aligned columns of numbers, each as
 * wide as its widest cell or its title (where they were 16 wide each,
 * which left a name 10 of a terminal's 80 columns), then the row's names,
 * fitted to the width (cg_fit_line: they lose their middle, the numbers
 * never). */
typedef struct {
  guint n_columns;
  const char *const *titles;
  GPtrArray *cells;  /* n_columns strings per row */
  GArray *keys;      /* per row: what its names are (an index the writer knows) */
  gsize *widths;
} Table;

static void
table_init (Table *t, const char *const *titles)
{
  t->titles = titles;
  t->n_columns = g_strv_length ((char **) titles);
  t->cells = g_ptr_array_new_with_free_func (g_free);
  t->keys = g_array_new (FALSE, FALSE, sizeof (guint));
  t->widths = g_new0 (gsize, t->n_columns);
  for (guint c = 0; c < t->n_columns; c++)
    t->widths[c] = strlen (titles[c]);
}

static void
table_clear (Table *t)
{
  g_ptr_array_unref (t->cells);
  g_array_unref (t->keys);
  g_free (t->widths);
}

/* Adds @cell as the next cell of the last row (of @key, where it is the
 * row's first). */
static void
table_cell (Table *t, guint key, const char *cell)
{
  if (t->cells->len % t->n_columns == 0)
    g_array_append_val (t->keys, key);
  t->widths[t->cells->len % t->n_columns] = MAX (t->widths[t->cells->len % t->n_columns], strlen (cell));
  g_ptr_array_add (t->cells, g_strdup (cell));
}

/* The titles, and "  @what" where the names begin. */
static void
table_titles (const Table *t, GString *s, const char *what)
{
  for (guint c = 0; c < t->n_columns; c++)
    g_string_append_printf (s, "%*s ", (int) t->widths[c], t->titles[c]);
  g_string_append_printf (s, " %s\n", what);
}

/* Row @r's numbers into @s (emptied first). */
static void
table_numbers (const Table *t, guint r, GString *s)
{
  g_string_truncate (s, 0);
  for (guint c = 0; c < t->n_columns; c++)
    g_string_append_printf (s, "%*s ", (int) t->widths[c], (const char *) t->cells->pdata[r * t->n_columns + c]);
}

/* Appends the name of a row's function @k (0, or 1 after a separator)
 * to @s, as a piece for cg_fit_line. */
static void
fit_piece (GString *s, GArray *pieces, gsize start, guint k, CgFitKind kind)
{
  if (s->len > start)
    g_array_append_val (pieces, ((CgFitPiece) { start, s->len, k, kind }));
}

/* The change, base and new cells of a text row; a side the row is absent
 * from (@presence) reads "-".  @cell is scratch. */
static void
append_change_columns (const CgDiff *d, const Shown *u, Table *t, guint key, GString *cell, CgValue base,
                       CgValue new, CgDiffPresence presence)
{
  g_string_truncate (cell, 0);
  append_change_human (d, u, cell, base, new);
  table_cell (t, key, cell->str);
  g_string_truncate (cell, 0);
  append_human (d, u, cell, base);
  table_cell (t, key, presence == CG_DIFF_ADDED ? "-" : cell->str);
  g_string_truncate (cell, 0);
  append_human (d, u, cell, new);
  table_cell (t, key, presence == CG_DIFF_REMOVED ? "-" : cell->str);
}

/* The footer line on the rows whose changes read zero in the unit shown
 * (0.00 s for a change under 5 ms): counted, as the unchanged ones, not
 * listed; the tsv form has them. */
static void
append_small (FILE *stream, const Shown *u, guint small, const char *what)
{
  if (small > 0)
    fprintf (stream, "%u more %s%s changed by at most 0.005 %s each (%s 0.00): not listed;\n"
                     "--format=tsv lists them.\n",
             small, what, small == 1 ? "" : "s", u->unit, small == 1 ? "it reads" : "they read");
}

static gboolean
changed (const CgDiff *d, const CgDiffFunction *f)
{
  return f->presence != CG_DIFF_BOTH || cg_diff_change (d, f->base_total, f->new_total) != 0
         || cg_diff_change (d, f->base_self, f->new_self) != 0;
}

/* The text's order: by the absolute change of self cost, where the time
 * went, then of total, then as the difference lists them (by total, then
 * label).  The tsv keeps the difference's order, its contract; the text
 * leads with the functions whose own cost changed, as gprof's flat
 * profile, perf diff and pprof's top do, where the callers every change
 * passes through (main, an interpreter's dispatch loop: fifteen rows of
 * one change in Lua's) filled the first screen. */
typedef struct {
  const CgDiff *d;
  gdouble *self, *total; /* per row of the difference: absolute changes */
} TextOrder;

static gint
by_self_change (gconstpointer a, gconstpointer b, gpointer data)
{
  const TextOrder *o = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  if (o->self[i] != o->self[j])
    return o->self[i] > o->self[j] ? -1 : 1;
  if (o->total[i] != o->total[j])
    return o->total[i] > o->total[j] ? -1 : 1;
  return i < j ? -1 : i > j;
}

/* The rows of the difference in the text's order.  (transfer full) */
static guint *
text_order (const CgDiff *d)
{
  guint n = cg_diff_n_functions (d);
  g_autofree gdouble *self = g_new (gdouble, MAX (n, 1));
  g_autofree gdouble *total = g_new (gdouble, MAX (n, 1));
  guint *order = g_new (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const CgDiffFunction *f = cg_diff_function (d, i);
      self[i] = fabs (cg_diff_change (d, f->base_self, f->new_self));
      total[i] = fabs (cg_diff_change (d, f->base_total, f->new_total));
      order[i] = i;
    }
  TextOrder o = { d, self, total };
  g_qsort_with_data (order, (gint) n, sizeof (guint), by_self_change, &o);
  return order;
}

/* Where both profiles were sampled: how many samples, what "?" marks,
 * and that the machine's own noise is more.  The total's change has no
 * sampling noise (the samples are the run's time, taken at a rate): it
 * is that of the runs. */
static void
append_noise_lines (const CgDiff *d, GString *s)
{
  if (!cg_diff_sampled (d))
    return;
  cg_append_diff_samples (s, d);
  g_string_append (s, "\"?\" marks functions whose changes of total and self both lie within their\n"
                      "sampling noise (twice the standard deviation of their samples' count, about\n"
                      "its square root): no sure change. Runs also vary with the machine's load,\n"
                      "which two profiles cannot show: compare several runs of each.\n");
}

/* The names of both profiles as @o says. */
static CgNames *
names_of (CgProfile *p, const CgDiffTextOptions *o)
{
  CgNames *names = cg_names_new (cg_profile_graph (p), o->demangle);
  if (o->strip)
    cg_names_set_strip (names);
  return names;
}

/* Neither profile records a call (cachegrind files): each total is
 * the function's own cost, which no method makes exact. */
static gboolean
no_calls (const CgDiff *d)
{
  const CgGraph *b = cg_profile_graph (cg_diff_base (d)), *n = cg_profile_graph (cg_diff_new_profile (d));
  return cg_graph_n_arcs (b) == 0 && cg_graph_n_arcs (n) == 0
         && cg_graph_n_functions (b) + cg_graph_n_functions (n) > 0;
}

/* The two profiles' own notes (what their readers took out of their
 * times or estimated), printed after the table so that the changes
 * fill the first screen: two amon.out's notes ran to 44 lines before
 * it.  The head says they follow (cg_append_source_notes). */
static GString *
source_notes (const CgDiff *d, GString *head)
{
  GString *notes = g_string_new (NULL);
  cg_append_source_notes (notes, cg_diff_base (d));
  cg_append_source_notes (notes, cg_diff_new_profile (d));
  if (notes->len)
    g_string_append (head, "Notes on the two profiles (what was taken out of their times, or estimated)\n"
                           "follow the table.\n");
  return notes;
}

gboolean
cg_write_diff_text (const CgDiff *d, const char *base_name, const char *new_name, const CgDiffTextOptions *o,
                    FILE *stream, GError **error)
{
  (void) error;
  CgProfile *np = cg_diff_new_profile (d), *bp = cg_diff_base (d);
  g_autoptr (CgNames) new_names = names_of (np, o);
  g_autoptr (CgNames) base_names = names_of (bp, o);
  const CgCosts *nc = cg_profile_costs (np);
  g_autoptr (GString) s = g_string_new (NULL);
  CgValue bsum = cg_diff_base_sum (d), nsum = cg_diff_new_sum (d);
  g_string_append_printf (s, "Difference from %s (base) to %s (new)\n", base_name, new_name);
  g_autoptr (GString) notes = source_notes (d, s);
  gboolean overlap = cg_append_diff_overlap_notes (s, d);
  if (nc)
    g_string_append_printf (s, "Method: %s for both; %s\n", cg_method_to_string (cg_costs_method (nc)),
                            overlap ? "totals above 100 % are not exact (see the note), nor are their differences"
                            : no_calls (d) ? "no calls recorded: each function's total is its own cost only"
                            : cg_diff_is_exact (d) ? "every total is exact, and so is every difference"
                                                 : "\"~\" marks differences of estimated totals");
  Shown u = shown_unit (d);
  g_autofree char *events = cg_diff_events_note (d, u.unit);
  if (events)
    g_string_append_printf (s, "Compared: %s.\n", events);
  append_event_line (d, &u, s);
  g_string_append (s, "Total: base ");
  append_human (d, &u, s, bsum);
  g_string_append_printf (s, " %s, new ", u.unit);
  append_human (d, &u, s, nsum);
  g_string_append_printf (s, " %s, change ", u.unit);
  append_change_human (d, &u, s, bsum, nsum);
  g_string_append_printf (s, " %s", u.unit);
  gdouble whole = cg_value_to_double (cg_diff_kind (d), bsum);
  if (whole > 0)
    {
      g_string_append (s, " (");
      cg_append_change_percent (s, 100.0 * cg_diff_change (d, bsum, nsum) / (whole * cg_diff_scale (d)));
      g_string_append_c (s, ')');
    }
  g_string_append_c (s, '\n');
  if (cg_diff_base_factor (d) != 1.0)
    g_string_append_printf (s, "The base is scaled by %.6g to the new profile's total (--normalize).\n",
                            cg_diff_base_factor (d));
  append_noise_lines (d, s);
  g_string_append (s, "Changes of total (self plus callees) and of self cost, by the change of self\n"
                      "cost (where the time went), then of total; \"+\" marks functions only in the\n"
                      "new profile, \"-\" those only in the base.\n\n");
  static const char *const titles[] = { "total change", "base total", "new total", "self change", NULL };
  Table t;
  table_init (&t, titles);
  guint unchanged = 0, small = 0;
  g_autoptr (GString) cell = g_string_new (NULL);
  g_autoptr (GString) total = g_string_new (NULL);
  g_autofree guint *order = text_order (d);
  for (guint k = 0; k < cg_diff_n_functions (d); k++)
    {
      guint i = order[k];
      const CgDiffFunction *f = cg_diff_function (d, i);
      if (!changed (d, f))
        {
          unchanged++;
          continue;
        }
      g_string_truncate (total, 0);
      append_change_human (d, &u, total, f->base_total, f->new_total);
      g_string_truncate (cell, 0);
      append_change_human (d, &u, cell, f->base_self, f->new_self);
      if (cg_reads_zero (total->str) && cg_reads_zero (cell->str))
        {
          small++;
          continue;
        }
      append_change_columns (d, &u, &t, i, total, f->base_total, f->new_total, f->presence);
      table_cell (&t, i, cell->str);
    }
  cg_fit_fold_lines (s, o->width);
  table_titles (&t, s, "function");
  fwrite (s->str, 1, s->len, stream);
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (CgFitPiece));
  for (guint r = 0; r < t.keys->len; r++)
    {
      const CgDiffFunction *f = cg_diff_function (d, g_array_index (t.keys, guint, r));
      table_numbers (&t, r, s);
      if (cg_diff_sampled (d))
        g_string_append (s, cg_diff_within_noise (d, f->base_total, f->new_total)
                                    && cg_diff_within_noise (d, f->base_self, f->new_self)
                                ? "?"
                                : " ");
      g_string_append (s, f->estimated ? "~" : " ");
      g_string_append (s, f->presence == CG_DIFF_ADDED ? "+" : f->presence == CG_DIFF_REMOVED ? "-" : " ");
      gsize start = s->len;
      append_label (d, new_names, base_names, s, f);
      g_array_set_size (pieces, 0);
      fit_piece (s, pieces, start, 0, CG_FIT_NAME);
      cg_fit_line (s, start, pieces, o->width, g_get_charset (NULL) ? "\u2026" : "...");
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
    }
  table_clear (&t);
  fprintf (stream, "\n%u function%s unchanged.\n", unchanged, unchanged == 1 ? "" : "s");
  append_small (stream, &u, small, "function");
  if (notes->len)
    fprintf (stream, "\n%s", notes->str);
  return TRUE;
}

/* ---- arcs ---- */

/* the change of an arc's cost as a signed plain decimal */
static void
append_arc_change (const CgDiff *d, GString *s, const CgDiffArc *a)
{
  CgDiffFunction as_row = { .base_total = a->base_cost, .new_total = a->new_cost };
  cg_diff_append_change (d, s, &as_row, TRUE);
}

void
cg_write_diff_arcs_tsv (const CgDiff *d, FILE *stream)
{
  fputs ("caller\tcallee\tbase_calls\tnew_calls\tbase_inclusive\tnew_inclusive\tinclusive_change\tpresence\texactness\n",
         stream);
  g_autoptr (GArray) arcs = cg_diff_arcs (d);
  g_autoptr (GString) s = g_string_new (NULL);
  for (guint i = 0; i < arcs->len; i++)
    {
      const CgDiffArc *a = &g_array_index (arcs, CgDiffArc, i);
      g_string_truncate (s, 0);
      append_name (d, NULL, NULL, s, a->new_caller, a->base_caller);
      g_string_append_c (s, '\t');
      append_name (d, NULL, NULL, s, a->new_callee, a->base_callee);
      g_string_append_printf (s, "\t%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT, a->base_calls, a->new_calls);
      append_value (d, s, a->base_cost);
      append_value (d, s, a->new_cost);
      g_string_append_c (s, '\t');
      append_arc_change (d, s, a);
      g_string_append_printf (s, "\t%s\t%s\n", presence_names[a->presence], a->estimated ? "estimated" : "exact");
      fwrite (s->str, 1, s->len, stream);
    }
}

gboolean
cg_write_diff_arcs_text (const CgDiff *d, const char *base_name, const char *new_name, const CgDiffTextOptions *o,
                         FILE *stream, GError **error)
{
  (void) error;
  CgProfile *np = cg_diff_new_profile (d);
  g_autoptr (CgNames) new_names = names_of (np, o);
  g_autoptr (CgNames) base_names = names_of (cg_diff_base (d), o);
  const CgCosts *nc = cg_profile_costs (np);
  g_autoptr (GString) s = g_string_new (NULL);
  g_string_append_printf (s, "Difference of the arcs from %s (base) to %s (new)\n", base_name, new_name);
  g_autoptr (GString) notes = source_notes (d, s);
  gboolean overlap = cg_append_diff_overlap_notes (s, d);
  if (nc)
    g_string_append_printf (s, "Method: %s for both; %s\n", cg_method_to_string (cg_costs_method (nc)),
                            overlap ? "the file's inclusive costs overlap (see the note): costs are not exact"
                            : cg_diff_is_exact (d) ? "every arc's cost is exact, and so is every difference"
                                                 : "\"~\" marks differences of estimated costs");
  Shown u = shown_unit (d);
  g_autofree char *events = cg_diff_events_note (d, u.unit);
  if (events)
    g_string_append_printf (s, "Compared: %s.\n", events);
  append_event_line (d, &u, s);
  if (cg_diff_base_factor (d) != 1.0)
    g_string_append_printf (s, "The base is scaled by %.6g to the new profile's total (--normalize).\n",
                            cg_diff_base_factor (d));
  g_string_append (s, "Changes of the inclusive cost of each caller's calls to each callee; \"+\"\n"
                      "marks arcs only in the new profile, \"-\" those only in the base.\n\n");
  static const char *const titles[] = { "change", "base", "new", "base calls", "new calls", NULL };
  Table t;
  table_init (&t, titles);
  g_autoptr (GArray) arcs = cg_diff_arcs (d);
  g_autoptr (GString) cell = g_string_new (NULL);
  guint unchanged = 0, small = 0;
  for (guint i = 0; i < arcs->len; i++)
    {
      const CgDiffArc *a = &g_array_index (arcs, CgDiffArc, i);
      if (a->presence == CG_DIFF_BOTH && cg_diff_change (d, a->base_cost, a->new_cost) == 0
          && a->base_calls == a->new_calls)
        {
          unchanged++;
          continue;
        }
      g_string_truncate (cell, 0);
      append_change_human (d, &u, cell, a->base_cost, a->new_cost);
      if (cg_reads_zero (cell->str) && a->base_calls == a->new_calls)
        {
          small++;
          continue;
        }
      append_change_columns (d, &u, &t, i, cell, a->base_cost, a->new_cost, a->presence);
      g_string_truncate (cell, 0);
      cg_value_append_human (cell, CG_KIND_INTEGER, (CgValue) { .n = a->base_calls }, 0);
      table_cell (&t, i, cell->str);
      g_string_truncate (cell, 0);
      cg_value_append_human (cell, CG_KIND_INTEGER, (CgValue) { .n = a->new_calls }, 0);
      table_cell (&t, i, cell->str);
    }
  cg_fit_fold_lines (s, o->width);
  table_titles (&t, s, "caller -> callee");
  fwrite (s->str, 1, s->len, stream);
  g_autoptr (GArray) pieces = g_array_new (FALSE, FALSE, sizeof (CgFitPiece));
  for (guint r = 0; r < t.keys->len; r++)
    {
      const CgDiffArc *a = &g_array_index (arcs, CgDiffArc, g_array_index (t.keys, guint, r));
      table_numbers (&t, r, s);
      g_string_append (s, a->estimated ? "~" : " ");
      g_string_append (s, a->presence == CG_DIFF_ADDED ? "+" : a->presence == CG_DIFF_REMOVED ? "-" : " ");
      gsize names = s->len;
      g_array_set_size (pieces, 0);
      append_name (d, new_names, base_names, s, a->new_caller, a->base_caller);
      fit_piece (s, pieces, names, 0, CG_FIT_NAME);
      gsize start = s->len;
      g_string_append (s, " -> ");
      fit_piece (s, pieces, start, 1, CG_FIT_SEPARATOR);
      start = s->len;
      append_name (d, new_names, base_names, s, a->new_callee, a->base_callee);
      fit_piece (s, pieces, start, 1, CG_FIT_NAME);
      cg_fit_line (s, names, pieces, o->width, g_get_charset (NULL) ? "\u2026" : "...");
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
    }
  table_clear (&t);
  fprintf (stream, "\n%u arc%s unchanged.\n", unchanged, unchanged == 1 ? "" : "s");
  append_small (stream, &u, small, "arc");
  if (notes->len)
    fprintf (stream, "\n%s", notes->str);
  return TRUE;
}

/* ---- folded ---- */

typedef struct {
  guint32 parent; /* G_MAXUINT32 for a root */
  guint32 key;    /* a new function's id, or n_new + a base function's */
  CgValue base, new;
} Node;

/* The merged call tree: frames of both trees with equal paths (by
 * matched functions) are one node. */
typedef struct {
  GArray *nodes;      /* Node */
  GHashTable *index;  /* (parent, key) packed in a guint64 -> node + 1 */
} Merged;

static guint32
merged_node (Merged *m, guint32 parent, guint32 key)
{
  guint64 *k = g_new (guint64, 1);
  *k = ((guint64) parent << 32) | key;
  gpointer v = g_hash_table_lookup (m->index, k);
  if (v)
    {
      g_free (k);
      return GPOINTER_TO_UINT (v) - 1;
    }
  Node n = { parent, key, CG_VALUE_ZERO, CG_VALUE_ZERO };
  g_array_append_val (m->nodes, n);
  g_hash_table_insert (m->index, k, GUINT_TO_POINTER (m->nodes->len));
  return m->nodes->len - 1;
}

/* Adds the frames of @tree into @m; @key_of maps @tree's functions. */
static gboolean
merge_tree (Merged *m, const CgTree *tree, const guint32 *key_of, gboolean is_base, CgKind kind, guint event,
            gdouble scale, gdouble factor, CgKind diff_kind)
{
  guint n = cg_tree_n_frames (tree);
  g_autofree guint32 *node_of = g_new (guint32, MAX (n, 1));
  /* parents precede their children */
  for (CgFrameId x = 0; x < n; x++)
    {
      CgFrameId p = cg_tree_parent (tree, x);
      guint32 node = merged_node (m, p == CG_NO_ID ? G_MAXUINT32 : node_of[p], key_of[cg_tree_function (tree, x)]);
      node_of[x] = node;
      CgValue v = cg_tree_self_const (tree, x)[event];
      if (diff_kind == CG_KIND_REAL)
        v = (CgValue) { .x = cg_value_to_double (kind, v) * scale * factor };
      Node *rec = &g_array_index (m->nodes, Node, node);
      if (!cg_value_add (diff_kind, is_base ? &rec->base : &rec->new, v))
        return FALSE;
    }
  return TRUE;
}

gboolean
cg_write_diff_folded (const CgDiff *d, FILE *stream, GError **error)
{
  CgProfile *np = cg_diff_new_profile (d), *bp = cg_diff_base (d);
  const CgTree *nt = cg_profile_tree (np), *bt = cg_profile_tree (bp);
  if (nt == NULL || bt == NULL)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                   "--format=folded needs whole stacks, and the %s profile has no call tree", nt ? "base" : "new");
      return FALSE;
    }
  CgGraph *ng = cg_profile_graph (np), *bg = cg_profile_graph (bp);
  guint nn = cg_graph_n_functions (ng), nb = cg_graph_n_functions (bg);
  g_autofree guint32 *new_key = g_new (guint32, MAX (nn, 1));
  g_autofree guint32 *base_key = g_new (guint32, MAX (nb, 1));
  for (guint i = 0; i < cg_diff_n_functions (d); i++)
    {
      const CgDiffFunction *f = cg_diff_function (d, i);
      if (f->new != CG_NO_ID)
        new_key[f->new] = f->new;
      if (f->base != CG_NO_ID)
        base_key[f->base] = f->new != CG_NO_ID ? f->new : nn + f->base;
    }
  Merged m = { g_array_new (FALSE, FALSE, sizeof (Node)), g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL) };
  guint be = cg_diff_base_event (d), ne = cg_diff_new_event (d);
  gboolean ok = merge_tree (&m, bt, base_key, TRUE, cg_graph_event_kind (bg, be), be, cg_graph_event_scale (bg, be),
                            cg_diff_base_factor (d), cg_diff_kind (d))
                && merge_tree (&m, nt, new_key, FALSE, cg_graph_event_kind (ng, ne), ne,
                               cg_graph_event_scale (ng, ne), 1.0, cg_diff_kind (d));
  if (!ok)
    g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "a stack's count exceeds the range of 64-bit counters");
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 i = 0; ok && i < m.nodes->len; i++)
    {
      const Node *rec = &g_array_index (m.nodes, Node, i);
      if (cg_value_is_zero (cg_diff_kind (d), rec->base) && cg_value_is_zero (cg_diff_kind (d), rec->new))
        continue;
      g_array_set_size (path, 0);
      for (guint32 x = i; x != G_MAXUINT32; x = g_array_index (m.nodes, Node, x).parent)
        g_array_append_val (path, x);
      g_string_truncate (s, 0);
      for (guint j = path->len; j-- > 0;)
        {
          guint32 key = g_array_index (m.nodes, Node, g_array_index (path, guint32, j)).key;
          if (j + 1 < path->len)
            g_string_append_c (s, ';');
          g_string_append (s, key < nn ? cg_graph_function_name (ng, key) : cg_graph_function_name (bg, key - nn));
        }
      g_string_append_c (s, ' ');
      cg_value_append_scaled (s, cg_diff_kind (d), rec->base, cg_diff_scale (d));
      g_string_append_c (s, ' ');
      cg_value_append_scaled (s, cg_diff_kind (d), rec->new, cg_diff_scale (d));
      g_string_append_c (s, '\n');
      fwrite (s->str, 1, s->len, stream);
    }
  g_array_unref (m.nodes);
  g_hash_table_unref (m.index);
  return ok;
}
