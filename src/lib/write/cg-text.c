/* cg-text.c — formatting shared by the views for people. */
#include "config.h"

#include "cg-text.h"

#include "cg-diff.h"
#include "cg-measured.h"
#include "cg-method.h"

#include <math.h>
#include <string.h>

void
cg_append_cost_human (GString *out, CgKind kind, CgValue v, gdouble scale)
{
  CgValue u = cg_value_scaled (&kind, v, scale);
  cg_value_append_human (out, kind, u, kind == CG_KIND_REAL ? 2 : 0);
}

void
cg_flush_if_large (GString *s, FILE *stream)
{
  if (s->len < CG_FLUSH_BYTES)
    return;
  fwrite (s->str, 1, s->len, stream);
  g_string_truncate (s, 0);
}

gboolean
cg_reads_zero (const char *printed)
{
  const char *digits = printed + (*printed == '+' || *printed == '-');
  return strspn (digits, "0.,") == strlen (digits);
}

/* Prefixes the number printed at @out from @start with the sign of @x
 * as printed: "+" where it reads zero.  Returns that sign. */
static int
insert_sign (GString *out, gsize start, gdouble x)
{
  int sign = cg_reads_zero (out->str + start) ? 0 : x < 0 ? -1 : 1;
  g_string_insert_c (out, (gssize) start, sign < 0 ? '-' : '+');
  return sign;
}

int
cg_append_change_human (GString *out, CgKind kind, CgValue base, CgValue new, gdouble scale)
{
  gsize start = out->len;
  if (kind == CG_KIND_INTEGER)
    {
      gboolean down = new.n < base.n;
      cg_append_cost_human (out, kind, (CgValue) { .n = down ? base.n - new.n : new.n - base.n }, scale);
      return insert_sign (out, start, down ? -1 : 1);
    }
  gdouble x = new.x - base.x;
  cg_append_cost_human (out, kind, (CgValue) { .x = fabs (x) }, scale);
  return insert_sign (out, start, x);
}

void
cg_append_change_percent (GString *out, gdouble pct)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gsize start = out->len;
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.2f", fabs (pct)));
  insert_sign (out, start, pct);
  g_string_append_c (out, '%');
}

/* Notes are prose of several hundred characters (libamon's says what it
 * took out, how it knows, and how far to trust the times): wrapped to a
 * terminal's width, they read at a glance where one line ran off it. */
#define NOTE_WIDTH 80
#define NOTE_INDENT "      "

/* The columns of @n bytes of UTF-8: its bytes less its continuation
 * bytes (safe on any bytes: a path need not be UTF-8). */
static glong
columns (const char *s, gsize n)
{
  glong c = 0;
  for (gsize i = 0; i < n; i++)
    c += ((guchar) s[i] & 0xC0) != 0x80;
  return c;
}

/* Appends @lead and @text, wrapped at blanks so that no line is wider
 * than NOTE_WIDTH columns unless one word is, the lines after the first
 * indented by NOTE_INDENT, then a newline.  Runs of blanks and newlines
 * in @text are one space. */
static void
append_wrapped (GString *out, const char *lead, const char *text)
{
  g_string_append (out, lead);
  glong col = columns (lead, strlen (lead));
  gboolean first = TRUE;
  for (const char *p = text; *p;)
    {
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
      const char *word = p;
      while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
        p++;
      if (p == word)
        break;
      glong width = columns (word, (gsize) (p - word));
      if (!first && col + 1 + width > NOTE_WIDTH)
        {
          g_string_append (out, "\n" NOTE_INDENT);
          col = (glong) strlen (NOTE_INDENT);
        }
      else if (!first)
        {
          g_string_append_c (out, ' ');
          col++;
        }
      g_string_append_len (out, word, p - word);
      col += width;
      first = FALSE;
    }
  g_string_append_c (out, '\n');
}

/* What a listing prints as @s's note (NULL: none): its detail where
 * @in_full and it has one, else its note, which points to the detail
 * where it summarises one (cg_append_sources). */
static char *
note_of (const CgSource *s, gboolean in_full)
{
  if (in_full && s->detail)
    return g_strdup (s->detail);
  if (s->note && s->detail)
    return g_strconcat (s->note, " (in full: cgmerge --format=text)", NULL);
  return g_strdup (s->note);
}

/* A note's kind: its text with every run of digits (a number, with its
 * point and exponent) as '#', so that the notes of a program's forked
 * children, which differ only in their numbers, are one kind. */
static char *
note_kind (const char *note)
{
  GString *k = g_string_sized_new (strlen (note));
  for (const char *c = note; *c; c++)
    if (g_ascii_isdigit (*c))
      {
        while (g_ascii_isdigit (c[1]) || ((c[1] == '.' || c[1] == 'e' || c[1] == '-' || c[1] == '+')
                                          && g_ascii_isdigit (c[2])))
          c++;
        g_string_append_c (k, '#');
      }
    else
      g_string_append_c (k, *c);
  return g_string_free (k, FALSE);
}

/* The notes of @p's sources, each kind once (note_kind), in the order
 * first seen, into @out: "Note (PATH): NOTE", with " and N others alike"
 * (" and 1 other alike") where more sources have one of that kind. */
static void
note_kinds (CgProfile *p, gboolean in_full, GPtrArray *out)
{
  guint n = cg_profile_n_sources (p);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree guint *first = g_new0 (guint, n), *count = g_new0 (guint, n);
  guint kinds = 0;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *note = note_of (cg_profile_source (p, i), in_full);
      if (!note)
        continue;
      char *k = note_kind (note);
      gpointer at;
      if (g_hash_table_lookup_extended (seen, k, NULL, &at))
        {
          count[GPOINTER_TO_UINT (at)]++;
          g_free (k);
          continue;
        }
      g_hash_table_insert (seen, k, GUINT_TO_POINTER (kinds));
      first[kinds] = i;
      count[kinds++] = 1;
    }
  for (guint j = 0; j < kinds; j++)
    {
      const CgSource *s = cg_profile_source (p, first[j]);
      g_autofree char *text = note_of (s, in_full);
      GString *note = g_string_new (NULL);
      g_string_append_printf (note, "Note (%s", s->path ? s->path : "-");
      if (count[j] > 1)
        g_string_append_printf (note, " and %u %s alike", count[j] - 1, count[j] == 2 ? "other" : "others");
      g_string_append_printf (note, "): %s", text);
      g_ptr_array_add (out, g_string_free (note, FALSE));
    }
}

/* cg_source_notes, with the details where @in_full (cg_append_sources). */
static GPtrArray *
source_notes (CgProfile *p, gboolean in_full)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);
  if (cg_profile_n_sources (p) > CG_SOURCES_LISTED)
    note_kinds (p, in_full, notes);
  else
    for (guint i = 0; i < cg_profile_n_sources (p); i++)
      {
        const CgSource *s = cg_profile_source (p, i);
        g_autofree char *note = note_of (s, in_full);
        if (note)
          g_ptr_array_add (notes, g_strdup_printf ("Note (%s): %s", s->path ? s->path : "-", note));
      }
  return notes;
}

GPtrArray *
cg_source_notes (CgProfile *p)
{
  return source_notes (p, FALSE);
}

void
cg_append_narrow_note (GString *out, const char *event_unit, const char *unit, gdouble factor, gboolean short_calls)
{
  if (!event_unit && !short_calls)
    return;
  g_string_append (out, "Numbers to fit the width: ");
  if (event_unit)
    g_string_append_printf (out, "costs in %s (%s of %s), to two decimals%s", unit,
                            factor == 1e-3   ? "thousands"
                            : factor == 1e-6 ? "millions"
                            : factor == 1e-9 ? "billions"
                                             : "multiples",
                            event_unit, short_calls ? "; " : "");
  if (short_calls)
    g_string_append (out, "calls of 10,000 or more to three digits (k: thousand, M: million, G: billion)");
  g_string_append (out, ".  --width=0 shows them whole.\n");
}

void
cg_append_sources (GString *out, CgProfile *p, gboolean in_full)
{
  guint n = cg_profile_n_sources (p);
  if (n <= CG_SOURCES_LISTED)
    {
      for (guint i = 0; i < n; i++)
        {
          const CgSource *s = cg_profile_source (p, i);
          g_string_append_printf (out, "Profile: %s (%s)", s->path ? s->path : "-", s->format ? s->format : "?");
          if (s->command)
            g_string_append_printf (out, " of: %s", s->command);
          g_string_append_c (out, '\n');
          g_autofree char *note = note_of (s, in_full);
          if (note)
            append_wrapped (out, "Note: ", note);
        }
      return;
    }
  /* many (a program's forked children, a series of dumps): one line for
   * all, their formats counted, then each kind of note once */
  g_string_append_printf (out, "Profiles: %u files (", n);
  g_autoptr (GHashTable) formats = g_hash_table_new (g_str_hash, g_str_equal);
  gboolean one_format = TRUE;
  for (guint i = 1; i < n; i++)
    one_format &= g_strcmp0 (cg_profile_source (p, i)->format, cg_profile_source (p, 0)->format) == 0;
  for (guint i = 0; i < n; i++)
    {
      const char *f = cg_profile_source (p, i)->format;
      f = f ? f : "?";
      if (g_hash_table_contains (formats, f))
        continue;
      guint same = 0;
      for (guint j = i; j < n; j++)
        {
          const char *g = cg_profile_source (p, j)->format;
          same += g_strcmp0 (g ? g : "?", f) == 0;
        }
      if (one_format)
        g_string_append (out, f);
      else
        g_string_append_printf (out, "%s%u %s", g_hash_table_size (formats) ? ", " : "", same, f);
      g_hash_table_add (formats, (gpointer) f);
    }
  g_string_append (out, "):");
  for (guint i = 0; i < CG_SOURCES_LISTED - 1; i++)
    {
      const CgSource *s = cg_profile_source (p, i);
      g_string_append_printf (out, " %s,", s->path ? s->path : "-");
    }
  g_string_truncate (out, out->len - 1);
  g_string_append_printf (out, " and %u more\n", n - (CG_SOURCES_LISTED - 1));
  g_autoptr (GPtrArray) notes = source_notes (p, in_full);
  for (guint i = 0; i < notes->len; i++)
    append_wrapped (out, "", g_ptr_array_index (notes, i));
}

void
cg_append_source_notes (GString *out, CgProfile *p)
{
  g_autoptr (GPtrArray) notes = cg_source_notes (p);
  for (guint i = 0; i < notes->len; i++)
    append_wrapped (out, "", g_ptr_array_index (notes, i));
}

char *
cg_overlap_note (const CgGraph *g, const CgCosts *c, guint event)
{
  guint n;
  gdouble pct;
  CgFunctionId f = cg_measured_above_all (g, c, event, &n, &pct);
  if (f == CG_NO_ID)
    return NULL;
  g_autoptr (GString) s = g_string_new (NULL);
  g_string_append_printf (s, "Measured totals exceed the profile's total (its self costs, 100 %%): %s's is"
                             " %.2f %%", cg_graph_function_name (g, f), pct);
  if (n > 1)
    g_string_append_printf (s, ", and %u other function%s %s above 100 %% too", n - 1, n == 2 ? "'s" : "s'",
                            n == 2 ? "is" : "are");
  g_string_append (s, ".  The file's inclusive costs of calls overlap (its producer timed calls that ran in one"
                      " another or on several threads at once, or time that no function's self cost holds):"
                      " such totals are the file's, not exact, and no share of the profile.");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

void
cg_append_overlap_note (GString *out, const char *lead, const CgGraph *g, const CgCosts *c, guint event)
{
  g_autofree char *note = cg_overlap_note (g, c, event);
  if (note)
    append_wrapped (out, lead, note);
}

gboolean
cg_append_diff_overlap_notes (GString *out, const CgDiff *d)
{
  gboolean any = FALSE;
  for (int side = 0; side < 2; side++)
    {
      CgProfile *p = side == 0 ? cg_diff_base (d) : cg_diff_new_profile (d);
      const CgCosts *c = cg_profile_costs (p);
      guint event = side == 0 ? cg_diff_base_event (d) : cg_diff_new_event (d);
      g_autofree char *note = c ? cg_overlap_note (cg_profile_graph (p), c, event) : NULL;
      if (note && out)
        append_wrapped (out, side == 0 ? "Note (base): " : "Note (new): ", note);
      any |= note != NULL;
    }
  return any;
}

void
cg_append_method_note (GString *out, const CgGraph *graph, const CgCosts *costs, guint event)
{
  const CgMethodInfo *info = cg_method_info (cg_costs_method (costs));
  g_string_append_printf (out, "Method: %s", cg_method_to_string (cg_costs_method (costs)));
  g_autofree char *overlap = cg_overlap_note (graph, costs, event);
  if (overlap)
    g_string_append (out, " (the file's measured inclusive costs, which overlap: totals above 100 % are not exact)");
  else if (cg_graph_n_arcs (graph) == 0 && cg_graph_n_functions (graph) > 0)
    /* no method's note holds: the totals are what the file lacked */
    g_string_append (out, " (no calls recorded: each function's total is its own cost only)");
  else if (info)
    g_string_append_printf (out, " (%s)", info->note (costs));
}

void
cg_append_diff_samples (GString *out, const CgDiff *d)
{
  if (!cg_diff_sampled (d))
    return;
  CgKind kind = cg_diff_kind (d);
  g_string_append (out, "Sampled: ");
  for (int base = 1; base >= 0; base--)
    {
      gdouble all = cg_value_to_double (kind, base ? cg_diff_base_sum (d) : cg_diff_new_sum (d)) * cg_diff_scale (d);
      cg_append_cost_human (out, CG_KIND_INTEGER, (CgValue) { .n = (guint64) llround (all / cg_diff_sample_cost (d, base)) },
                            1.0);
      g_string_append (out, base ? " samples in the base, " : " in the new profile.\n");
    }
}
