/* fuzz-common.c — the downstream half of every fuzz target. */
#include "config.h"

#include "fuzz-common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes with @write into memory and throws the text away. */
static void
discard (gboolean (*write) (CgProfile *, gpointer, FILE *), CgProfile *p, gpointer data)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (f == NULL)
    return;
  write (p, data, f);
  fclose (f);
  free (buf);
}

static gboolean
write_text (CgProfile *p, gpointer costs, FILE *f)
{
  CgProfileTextOptions o = { .event = 0, .demangle = TRUE, .width = 80 };
  return cg_write_profile_text (p, costs, &o, f, NULL);
}

static gboolean
write_tsv (CgProfile *p, gpointer costs, FILE *f)
{
  cg_write_tsv (cg_profile_graph (p), costs, 0, FALSE, f);
  cg_write_tsv (cg_profile_graph (p), costs, 0, TRUE, f);
  return TRUE;
}

static gboolean
write_tree (CgProfile *p, gpointer costs, FILE *f)
{
  g_autoptr (CgDisplayTree) t = cg_display_tree_new (cg_profile_graph (p), costs, 0);
  CgTreeTextOptions o = { .view = { .event = 0, .threshold = 0.5, .demangle = TRUE } };
  return cg_write_tree_text (p, costs, t, &o, f, NULL);
}

static gboolean
write_cycles (CgProfile *p, gpointer data, FILE *f)
{
  (void) data;
  return cg_write_cycles_text (cg_profile_graph (p), cg_profile_cycles (p), 0, TRUE, FALSE, 80, f, NULL);
}

/* Silent garbage: where the exact method applies (a call tree that holds
 * every self cost) and no self cost is negative (cgtools XML's reals may
 * be), each function's Min_E total, computed here (not a cgtools XML's
 * given one), holds its self cost and lies within the profile's total.
 * Aborts, printing the function, where not. */
static void
check_exact (CgProfile *p)
{
  if (!cg_exact_applies (p, NULL))
    return;
  g_autoptr (CgCosts) costs = cg_method_compute (p, CG_METHOD_EXACT, NULL);
  if (costs == NULL)
    return;
  CgGraph *g = cg_profile_graph (p);
  for (guint e = 0; e < cg_graph_n_events (g); e++)
    {
      CgKind sk = cg_graph_event_kind (g, e), tk = cg_costs_kind (costs, e);
      gdouble all = 0;
      for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
        {
          gdouble self = cg_value_to_double (sk, cg_graph_self_const (g, f)[e]);
          if (self < 0)
            return;
          all += self;
        }
      for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
        {
          gdouble self = cg_value_to_double (sk, cg_graph_self_const (g, f)[e]);
          gdouble total = cg_value_to_double (tk, cg_costs_total_const (costs, f)[e]);
          gdouble slack = 1e-9 * fabs (all) + 1e-6;
          if (total < self - slack || total > all + slack)
            {
              fprintf (stderr, "exact total of %s (event %u) is %.17g: self %.17g, profile %.17g\n",
                       cg_graph_function_name (g, f), e, total, self, all);
              abort ();
            }
        }
    }
}

void
cg_fuzz_run (CgFuzzRead read, const uint8_t *data, size_t size)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("fuzz", data, size);
  /* the size chooses the options, so that every combination is reached */
  CgReadOptions options = { .lenient = size % 2 == 1, .split = (CgSplit) (size / 2 % 4),
                            .kernel = (CgKernelFrames) (size / 8 % 3) };
  if (!read (p, in, &options, NULL) || cg_graph_n_events (cg_profile_graph (p)) == 0)
    return;
  CgGraph *g = cg_profile_graph (p);
  cg_profile_set_cycles (p, cg_cycles_find (g, NULL, NULL));
  discard (write_cycles, p, NULL);
  CgCosts *costs = cg_method_ensure (p, CG_METHOD_AUTO, NULL);
  if (costs)
    {
      check_exact (p);
      discard (write_text, p, costs);
      discard (write_tsv, p, costs);
      discard (write_tree, p, costs);
    }
  /* the XML written must read back */
  char *xml = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&xml, &len);
  if (f)
    {
      gboolean ok = cg_write_xml (p, f, "fuzz", NULL);
      fclose (f);
      if (ok)
        {
          g_autoptr (CgProfile) q = cg_profile_new ();
          g_autoptr (CgInput) back = cg_input_new_from_bytes ("fuzz.xml", (const guint8 *) xml, len);
          GError *error = NULL;
          if (!cg_read_input (q, back, NULL, &error))
            {
              fprintf (stderr, "written XML does not read back: %s\n", error->message);
              abort ();
            }
        }
      free (xml);
    }
  cg_collapse_cycles (p, NULL);
}

/* What reading @data cut in @split pieces gives: the profile's XML, or
 * the error. */
static char *
outcome (CgFuzzReadSplit read, gsize split, const uint8_t *data, size_t size)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("fuzz", data, size);
  GError *error = NULL;
  if (!read (p, in, split, &error))
    {
      char *message = g_strdup_printf ("error %d: %s", error->code, error->message);
      g_error_free (error);
      return message;
    }
  char *xml = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&xml, &len);
  if (f == NULL)
    abort ();
  gboolean ok = cg_write_xml (p, f, "fuzz", NULL);
  fclose (f);
  char *copy = g_strdup (ok ? xml : "unwritable");
  free (xml);
  return copy;
}

void
cg_fuzz_compare_splits (const char *target, CgFuzzReadSplit read, const uint8_t *data, size_t size)
{
  g_autofree char *one = outcome (read, 0, data, size);
  g_autofree char *usual = outcome (read, G_MAXSIZE, data, size);
  g_autofree char *small = outcome (read, 1 + size % 61, data, size);
  if (strcmp (one, usual) != 0 || strcmp (one, small) != 0)
    {
      fprintf (stderr, "%s: the second thread changed the result\none thread:\n%s\nusual pieces:\n%s\n"
               "pieces of %zu:\n%s\n", target, one, usual, 1 + size % 61, small);
      abort ();
    }
}
