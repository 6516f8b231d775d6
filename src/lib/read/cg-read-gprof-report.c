/* cg-read-gprof-report.c — gprof's printed report: parse the sections into
 * tables first, then build the profile from them. */
#include "config.h"

#include "cg-read-gprof-report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cg-error.h"
#include "cg-gprof.h"
#include "cg-report-times.h"

#define FLAT_HEADING "Flat profile:"
#define GRAPH_HEADING_BRIEF "\t\t\tCall graph"
#define GRAPH_HEADING "\t\t     Call graph (explanation follows)"
#define INDEX_HEADING "Index by function name"
#define GRANULARITY "granularity: each sample hit covers "
/* AIX's gprof: "ngranularity: Each sample hit covers 4 bytes. Time: 1.17
 * seconds", in the BSD layout, each explanation headed by an SCCS
 * comment ("# @(#)64 1.4 com/cmd/stat/gprof/gprof.callg, ...") */
#define AIX_GRANULARITY "ngranularity: Each sample hit covers "
#define SAMPLE_COUNTS "Each sample counts as "
/* gprof -T's index cells: "%6.6s %-19.19s" (cg_print.c) */
#define TRADITIONAL_INDEX_NAME 19
/* gprof ends each call-graph entry with 47 dashes */
#define SEPARATOR "-----------------------------------------------"

/* One function the report names: by its call-graph index, or (a flat
 * profile alone) by its name. */
typedef struct {
  const char *name;     /* as printed (GStringChunk) */
  guint index;          /* 0: none */
  guint cycle;          /* member of <cycle N>, 0: none */
  gboolean has_entry;   /* its call-graph entry was read */
  const char *graph_self; /* printed self seconds of the entry */
  const char *graph_percent, *graph_children; /* printed % time and children seconds of the entry */
  guint64 ncalls, self_calls; /* the entry's called column, N+M */
  guint entry_line;
  gboolean has_flat;
  const char *flat_self, *flat_percent, *flat_per_call, *flat_total_per_call;
  guint64 flat_calls;
  const char *file;     /* from the index, nullable */
  guint index_row, index_col; /* its cell in the index (+1; 0: none) */
  guint line;           /* where it was first named */
  gboolean left_out;    /* named "name (N)": its entry was not printed */
  CgFunctionId fid;
} Func;

typedef struct {
  const char *name, *self, *percent, *per_call, *total_per_call; /* as printed */
  guint64 calls;
  guint line;
} FlatRow;

typedef struct {
  guint caller, callee;  /* Func numbers */
  guint64 count;
  guint line;
  guint seq;             /* order of first sight */
  guint pred[2];         /* arcs printed just before it and tied with it (+1; 0 = none) */
} Arc;

typedef struct {
  const char *name;      /* the input's */
  const CgReadOptions *options;
  GStringChunk *strings;
  GArray *funcs;         /* Func */
  GHashTable *by_index;  /* index -> Func number + 1 */
  GHashTable *by_name;   /* name -> Func number + 1 (flat rows) */
  GHashTable *shared;    /* the names of several functions */
  GArray *arcs;          /* Arc */
  GHashTable *arc_of;    /* caller << 32 | callee -> arc number + 1 */
  GHashTable *cycle_members; /* cycle number -> GArray of Func numbers */
  GHashTable *cycle_index; /* call-graph index of "<cycle N as a whole>" -> N */
  GArray *flat_rows;     /* FlatRow */
  gboolean has_flat, has_graph, no_time;
  gboolean traditional;  /* gprof -T's layout (4.2 BSD's): no sample size printed */
  gdouble sample_seconds; /* "Each sample counts as" */
  gdouble per_call_scale; /* the flat profile's unit per call, per second (1e3 for ms/call) */
  char dimension[32];
  guint64 granularity;   /* bytes, 0 when not printed */
  const char *graph_percent; /* "for 0.69% of": 100 / the call graph's seconds, NULL when not printed */
  const char *graph_seconds; /* "of 0.20 seconds": the call graph's whole, NULL when not printed */
  const char *flat_cumulative; /* the last flat row's cumulative seconds, NULL before one */
  guint line;            /* current line number */
  guint index_rows;      /* the index's rows of cells */
} Report;

/* ---- lines ---- */

typedef struct {
  const char *data, *end;
  const char *line;
  gsize len;
  guint number;
} Lines;

static gboolean
next_line (Lines *l)
{
  if (l->data >= l->end)
    return FALSE;
  const char *nl = memchr (l->data, '\n', (gsize) (l->end - l->data));
  const char *eol = nl ? nl : l->end;
  l->line = l->data;
  l->len = (gsize) (eol - l->data);
  if (l->len > 0 && l->line[l->len - 1] == '\r')
    l->len--;
  l->data = nl ? nl + 1 : l->end;
  l->number++;
  return TRUE;
}

static gboolean
is (const Lines *l, const char *text)
{
  return l->len == strlen (text) && memcmp (l->line, text, l->len) == 0;
}

static gboolean
starts (const Lines *l, const char *text)
{
  gsize n = strlen (text);
  return l->len >= n && memcmp (l->line, text, n) == 0;
}

static gboolean
blank (const Lines *l)
{
  for (gsize i = 0; i < l->len; i++)
    if (l->line[i] != ' ' && l->line[i] != '\t')
      return FALSE;
  return TRUE;
}

static gboolean G_GNUC_PRINTF (4, 5)
fail (const Report *r, GError **error, guint line, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, CG_ERROR_PARSE, r->name, CG_AT_LINE, line, format, ap);
  va_end (ap);
  return FALSE;
}

/* ---- tokens within a line (a NUL-terminated copy) ---- */

static void
skip_blanks (const char **s)
{
  while (**s == ' ' || **s == '\t')
    (*s)++;
}

/* A decimal as gprof prints with %f: digits, a point, digits.  The token
 * itself is kept (the times are checked against their printed form). */
static gboolean
decimal (const char **s, const char **token, GStringChunk *chunk)
{
  skip_blanks (s);
  const char *p = *s;
  while (g_ascii_isdigit (*p))
    p++;
  if (p == *s || *p != '.' || !g_ascii_isdigit (p[1]))
    return FALSE;
  p++;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p != ' ' && *p != '\0')
    return FALSE;
  if (token)
    *token = g_string_chunk_insert_len (chunk, *s, p - *s);
  *s = p;
  return TRUE;
}

/* decimal() for a number that ends in @end ("0.69%"). */
static gboolean
decimal_before (const char **s, char end, const char **token, GStringChunk *chunk)
{
  const char *p = *s;
  while (g_ascii_isdigit (*p) || *p == '.')
    p++;
  if (p == *s || *p != end)
    return FALSE;
  *token = g_string_chunk_insert_len (chunk, *s, p - *s);
  *s = p + 1;
  return TRUE;
}

static gboolean
count (const char **s, guint64 *value)
{
  skip_blanks (s);
  if (!g_ascii_isdigit (**s))
    return FALSE;
  guint64 v = 0;
  const char *p = *s;
  for (; g_ascii_isdigit (*p); p++)
    {
      if (v > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (guint64) (*p - '0');
    }
  *value = v;
  *s = p;
  return TRUE;
}

/* ---- functions and arcs ---- */

static guint
add_func (Report *r, const char *name, guint index)
{
  Func f = { 0 };
  f.name = g_string_chunk_insert_const (r->strings, name);
  f.index = index;
  f.line = r->line;
  g_array_append_val (r->funcs, f);
  guint k = r->funcs->len - 1;
  if (index)
    g_hash_table_insert (r->by_index, GUINT_TO_POINTER (index), GUINT_TO_POINTER (k + 1));
  if (!g_hash_table_contains (r->by_name, f.name))
    g_hash_table_insert (r->by_name, (gpointer) f.name, GUINT_TO_POINTER (k + 1));
  else
    g_hash_table_add (r->shared, (gpointer) f.name);
  return k;
}

static Func *
func (Report *r, guint k)
{
  return &g_array_index (r->funcs, Func, k);
}

/* The function of call-graph @index named @name, made on first sight. */
static gboolean
func_at (Report *r, guint index, const char *name, guint *k, GError **error)
{
  gpointer v = g_hash_table_lookup (r->by_index, GUINT_TO_POINTER (index));
  if (v == NULL)
    {
      if (g_hash_table_contains (r->cycle_index, GUINT_TO_POINTER (index)))
        return fail (r, error, r->line, "[%u] is a cycle's entry, not a function's", index);
      *k = add_func (r, name, index);
      return TRUE;
    }
  *k = GPOINTER_TO_UINT (v) - 1;
  if (strcmp (func (r, *k)->name, name) != 0)
    return fail (r, error, r->line, "[%u] is '%s' here but '%s' on line %u", index, name, func (r, *k)->name,
                 func (r, *k)->line);
  return TRUE;
}

/* Whether @name is a line-by-line report's (gprof -l): "name (file.c:12
 * @ 4012a0)", a source line and its address, not a function. */
static gboolean
is_source_line (const char *name)
{
  const char *at = strstr (name, " @ ");
  gsize n = strlen (name);
  if (at == NULL || n == 0 || name[n - 1] != ')' || at - name < 4 || !g_ascii_isdigit (at[-1]))
    return FALSE;
  const char *p = at - 1;
  while (p > name && g_ascii_isdigit (*p))
    p--;
  if (*p != ':')
    return FALSE;
  for (const char *h = at + 3; h < name + n - 1; h++)
    if (!g_ascii_isxdigit (*h))
      return FALSE;
  return at + 3 < name + n - 1 && strstr (name, " (") != NULL;
}

static gboolean
refuse_lines (const Report *r, GError **error, guint line)
{
  return cg_read_fail (error, CG_ERROR_UNSUPPORTED, r->name, CG_AT_LINE, line,
                       "a line-by-line report (gprof -l): its rows are source lines, not functions; "
                       "print the report without -l, or read the gmon.out itself");
}

/* A name as the call graph prints it: "name <cycle N> [index]", with
 * "(index)" for a function whose entry is not printed.  Cuts @s. */
static gboolean
reference (Report *r, char *s, guint *k, guint *cycle, GError **error)
{
  skip_blanks ((const char **) &s);
  gsize n = strlen (s);
  while (n > 0 && s[n - 1] == ' ')
    n--;
  char close = n > 0 ? s[n - 1] : '\0';
  char open = close == ']' ? '[' : '(';
  gsize i = n > 0 ? n - 1 : 0;
  while (i > 0 && g_ascii_isdigit (s[i - 1]))
    i--;
  if ((close != ']' && close != ')') || i == n - 1 || i < 2 || s[i - 1] != open || s[i - 2] != ' ')
    return fail (r, error, r->line, "expected a function's name and its index, as in 'main [2]'");
  guint64 index = g_ascii_strtoull (s + i, NULL, 10);
  if (index == 0 || index > G_MAXUINT32)
    return fail (r, error, r->line, "index %" G_GUINT64_FORMAT " out of range", index);
  gsize end = i - 2;
  s[end] = '\0';
  *cycle = 0;
  char *c = g_strrstr (s, " <cycle ");
  if (c && end > 0 && s[end - 1] == '>')
    {
      *cycle = (guint) g_ascii_strtoull (c + 8, NULL, 10);
      *c = '\0';
    }
  if (*s == '\0')
    return fail (r, error, r->line, "a function without a name");
  if (is_source_line (s))
    return refuse_lines (r, error, r->line);
  if (!func_at (r, (guint) index, s, k, error))
    return FALSE;
  if (*cycle)
    func (r, *k)->cycle = *cycle;
  /* gprof prints "(N)" for a function its filters left out (-q NAME,
   * --graph=NAME, -f, -F...); a whole call graph has "[N]" only */
  func (r, *k)->left_out |= close == ')';
  return TRUE;
}

/* The arc @caller -> @callee with @calls, seen in a listing whose
 * previous line was the arc @prev (+1; 0 none), tied with it when @tied. */
static gboolean
add_arc (Report *r, guint caller, guint callee, guint64 calls, guint *prev, gboolean tied, guint side,
         GError **error)
{
  guint64 key = (guint64) caller << 32 | callee;
  gpointer v = g_hash_table_lookup (r->arc_of, &key);
  guint a;
  if (v == NULL)
    {
      Arc arc = { caller, callee, calls, r->line, r->arcs->len, { 0, 0 } };
      g_array_append_val (r->arcs, arc);
      a = r->arcs->len - 1;
      g_hash_table_insert (r->arc_of, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (a + 1));
    }
  else
    {
      a = GPOINTER_TO_UINT (v) - 1;
      Arc *arc = &g_array_index (r->arcs, Arc, a);
      if (arc->count != calls)
        return fail (r, error, r->line, "%s -> %s: %" G_GUINT64_FORMAT " calls here, %" G_GUINT64_FORMAT
                     " on line %u", func (r, caller)->name, func (r, callee)->name, calls, arc->count, arc->line);
    }
  if (tied && *prev)
    g_array_index (r->arcs, Arc, a).pred[side] = *prev;
  *prev = a + 1;
  return TRUE;
}

/* ---- the flat profile (hist.c's print_line) ---- */


static gboolean
flat_row (Report *r, const Lines *l, GError **error)
{
  g_autofree char *line = g_strndup (l->line, l->len);
  const char *s = line, *percent, *cumulative, *self;
  guint64 calls;
  if (!decimal (&s, &percent, r->strings) || !decimal (&s, &cumulative, r->strings)
      || !decimal (&s, &self, r->strings))
    return fail (r, error, l->number, "expected a flat profile row: %% time, cumulative and self seconds");
  const char *at = s, *per_call = NULL, *total_per_call = NULL;
  calls = 0;
  if (count (&at, &calls))
    {
      /* calls, then self and total per call */
      if (!decimal (&at, &per_call, r->strings) || !decimal (&at, &total_per_call, r->strings))
        return fail (r, error, l->number, "expected the time per call after the calls");
      s = at;
    }
  skip_blanks (&s);
  if (*s == '\0')
    return fail (r, error, l->number, "a flat profile row without a name");
  if (is_source_line (s))
    return refuse_lines (r, error, l->number);
  gsize n = strlen (s);
  if (r->traditional)
    {
      /* gprof -T: "name [index]"; the BSDs' (macOS's) "name (index)"
       * for a function the call graph does not print (mcount) */
      gsize i = n > 0 ? n - 1 : 0;
      while (i > 0 && g_ascii_isdigit (s[i - 1]))
        i--;
      char open = n > 0 && s[n - 1] == ')' ? '(' : '[';
      if (n > 0 && (s[n - 1] == ']' || s[n - 1] == ')') && i < n - 1 && i >= 3 && s[i - 1] == open
          && s[i - 2] == ' ')
        n = i - 2;
      /* and a cycle member's "name <cycle N> [index]" */
      const char *c = g_strstr_len (s, (gssize) n, " <cycle ");
      if (c != NULL && n > 0 && s[n - 1] == '>')
        n = (gsize) (c - s);
    }
  FlatRow row = { g_string_chunk_insert_len (r->strings, s, (gssize) n), self, percent, per_call, total_per_call,
                  calls, l->number };
  g_array_append_val (r->flat_rows, row);
  r->flat_cumulative = cumulative;
  return TRUE;
}

/* How well the call-graph entry of @f agrees with the flat row @row:
 * one point for the calls (the flat profile prints N+M of the entry's
 * called column, blank for none), one for the self seconds (both printed
 * to a hundredth). */
static guint
entry_agrees (const Func *f, const FlatRow *row)
{
  if (!f->has_entry)
    return 0;
  guint score = f->ncalls + f->self_calls == row->calls;
  if (f->graph_self != NULL
      && fabs (g_ascii_strtod (f->graph_self, NULL) - g_ascii_strtod (row->self, NULL)) < 0.0051)
    score++;
  return score;
}

/* Each flat profile row to its function: the call graph's function of
 * that name, or a function of its own.  Functions of one name (static
 * functions of several files, printed without their files; a C++
 * class's deleting and complete destructors, both "X::~X()") are told
 * apart by the calls and self seconds their entries print: the flat
 * profile lists them by self time, the call graph names them first
 * where another entry calls them, so their orders differ (a light
 * "work" called by main, named in main's entry before a heavy one's
 * entry, took the heavy one's flat row and time).  Where the numbers
 * do not tell (no entry, or equal numbers), the first such function. */
static void
match_flat_rows (Report *r)
{
  for (guint i = 0; i < r->flat_rows->len; i++)
    {
      const FlatRow *row = &g_array_index (r->flat_rows, FlatRow, i);
      gpointer v = g_hash_table_lookup (r->by_name, row->name);
      guint k = v && !func (r, GPOINTER_TO_UINT (v) - 1)->has_flat ? GPOINTER_TO_UINT (v) - 1 : G_MAXUINT;
      /* a name of several functions: rare, looked for one by one */
      gboolean shared = v && g_hash_table_contains (r->shared, row->name);
      guint best = k == G_MAXUINT ? 0 : entry_agrees (func (r, k), row);
      for (guint j = 0; shared && j < r->funcs->len && best < 2; j++)
        if (j != k && !func (r, j)->has_flat && strcmp (func (r, j)->name, row->name) == 0)
          {
            guint score = entry_agrees (func (r, j), row);
            if (k == G_MAXUINT || score > best)
              {
                k = j;
                best = score;
              }
          }
      if (k == G_MAXUINT)
        {
          r->line = row->line;
          k = add_func (r, row->name, 0);
        }
      Func *f = func (r, k);
      f->has_flat = TRUE;
      f->flat_self = row->self;
      f->flat_percent = row->percent;
      f->flat_per_call = row->per_call;
      f->flat_total_per_call = row->total_per_call;
      f->flat_calls = row->calls;
    }
}

/* The unit of the times per call, from the heading "... calls  ms/call
 * ms/call  name": gprof's SI prefixes T G M K (blank) m u n p f a. */
static gdouble
per_call_scale (const Lines *l)
{
  static const char prefixes[] = "TGMK munpfa";
  g_autofree char *line = g_strndup (l->line, l->len);
  const char *call = strstr (line, "/call");
  if (call == NULL || call - line < 2)
    return 0.0;
  const char *p = strchr (prefixes, call[-2]);
  if (p == NULL || call[-2] == '\0')
    return 0.0;
  return pow (10.0, 3.0 * (gdouble) (p - prefixes) - 12.0);
}

static gboolean read_flat_table (Report *r, Lines *l, gboolean *blurb, GError **error);

static gboolean
read_flat (Report *r, Lines *l, gboolean *blurb, GError **error)
{
  if (r->has_flat)
    return fail (r, error, l->number, "a second flat profile");
  r->has_flat = TRUE;
  if (!next_line (l) || !blank (l) || !next_line (l) || !starts (l, SAMPLE_COUNTS))
    return fail (r, error, l->number, "expected an empty line and 'Each sample counts as ... seconds.'");
  g_autofree char *line = g_strndup (l->line + strlen (SAMPLE_COUNTS), l->len - strlen (SAMPLE_COUNTS));
  char *end;
  r->sample_seconds = g_ascii_strtod (line, &end);
  gsize d = end && *end == ' ' ? strcspn (end + 1, ".") : 0;
  if (end == line || !(r->sample_seconds > 0.0) || !isfinite (r->sample_seconds) || d == 0
      || d >= sizeof r->dimension || strcmp (end + 1 + d, ".") != 0)
    return fail (r, error, l->number, "expected 'Each sample counts as' a number of seconds");
  memcpy (r->dimension, end + 1, d);
  r->dimension[d] = '\0';
  if (!next_line (l))
    return cg_read_fail (error, CG_ERROR_TRUNCATED, r->name, CG_AT_LINE, l->number,
                         "the report ends inside the flat profile's heading");
  if (is (l, " no time accumulated"))
    {
      r->no_time = TRUE;
      if (!next_line (l) || !blank (l) || !next_line (l))
        return fail (r, error, l->number, "expected the flat profile's heading");
    }
  return read_flat_table (r, l, blurb, error);
}

/* The flat profile's two heading lines (@l at the first) and its rows. */
static gboolean
read_flat_table (Report *r, Lines *l, gboolean *blurb, GError **error)
{
  if (!starts (l, "  %   cumulative   self") || !next_line (l) || !starts (l, " time  "))
    return fail (r, error, l->number, "expected the flat profile's two heading lines");
  r->per_call_scale = per_call_scale (l);
  while (next_line (l))
    {
      r->line = l->number;
      if (is (l, "\f"))
        return TRUE;
      if (blank (l))
        {
          *blurb = TRUE; /* the explanation follows, unless -b */
          return TRUE;
        }
      if (!flat_row (r, l, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- the call graph (cg_print.c) ---- */

typedef struct {
  guint prev_parent, prev_child; /* previous arc line (+1) */
  const char *prev_key;          /* its printed self, children and count */
  guint k;                       /* the entry's function, or G_MAXUINT before it */
  guint cycle;                   /* a cycle's entry: its number */
} Entry;

/* An arc line: "self children count/total name [i]", or "count name [i]"
 * for calls within a cycle and a function's calls of itself. */
static gboolean
arc_line (Report *r, char *line, Entry *e, GError **error)
{
  const char *s = line, *self = "", *children = "";
  guint64 calls, total;
  gboolean timed = decimal (&s, &self, r->strings);
  if (timed && !decimal (&s, &children, r->strings))
    return fail (r, error, r->line, "expected the children's seconds after the self seconds");
  if (!count (&s, &calls) || (timed && (*s++ != '/' || !count (&s, &total))))
    return fail (r, error, r->line, timed ? "expected calls/total calls" : "expected a call count");
  guint other, cycle;
  if (!reference (r, (char *) s, &other, &cycle, error))
    return FALSE;
  gboolean parent = e->k == G_MAXUINT;
  if (parent && e->cycle)
    return fail (r, error, r->line, "a cycle's entry lists its members, not its callers");
  g_autofree char *key = g_strdup_printf ("%s %s %" G_GUINT64_FORMAT, self, children, calls);
  gboolean tied = e->prev_key && strcmp (e->prev_key, key) == 0;
  e->prev_key = g_string_chunk_insert (r->strings, key);
  if (parent)
    {
      /* the callee is the entry's function, named on the next line: kept
       * until then */
      Arc pending = { other, G_MAXUINT, calls, r->line, 0, { tied, 0 } };
      g_array_append_val (r->arcs, pending);
      return TRUE;
    }
  return add_arc (r, e->k, other, calls, &e->prev_child, tied, 0, error);
}

/* Whether @index, printed in gprof's 6 columns ("[" and 5 digits), reads
 * @printed. */
static gboolean
index_cut_to (guint64 index, guint64 printed)
{
  while (index >= 100000)
    index /= 10;
  return index == printed && index >= 10000;
}

/* The entry's own line: "[i] %time self children called name [i]", the
 * called column "N", "N+M" or blank; or a cycle's "<cycle N as a whole>". */
static gboolean
primary_line (Report *r, char *line, Entry *e, guint n_pending, GError **error)
{
  const char *s = line + 1;
  guint64 index, ncalls = 0, self_calls = 0;
  const char *percent, *self, *children;
  /* gprof prints "[index]" in 6 columns ("%-6.6s", GNU's cg_print.c and
   * 4.4 BSD's printgprof.c alike): from [10000] on the ']' is cut off,
   * "[10000   0.0 ...", and from [100000] a digit too; the name's own
   * "[index]" that ends the line is whole, and is the entry's */
  gboolean cut = FALSE;
  if (count (&s, &index) && *s != ']' && s == line + 6 && (*s == ' ' || *s == '\t'))
    cut = TRUE;
  else if (s == line + 1 || *s != ']')
    return fail (r, error, r->line, "expected '[index] %% time self children' at an entry's start");
  else
    s++;
  if (index == 0 || index > G_MAXUINT32 || !decimal (&s, &percent, r->strings) || !decimal (&s, &self, r->strings)
      || !decimal (&s, &children, r->strings))
    return fail (r, error, r->line, "expected '[index] %% time self children' at an entry's start");
  const char *at = s;
  if (count (&at, &ncalls))
    {
      s = at;
      if (*s == '+' && (s++, !count (&s, &self_calls)))
        return fail (r, error, r->line, "expected the recursive calls after '+'");
    }
  skip_blanks (&s);
  guint number;
  char rest[32];
  if (sscanf (s, "<cycle %u as a whole> %31s", &number, rest) == 2)
    {
      guint whole;
      if (cut && (sscanf (rest, "[%u]", &whole) != 1 || !index_cut_to (whole, index)))
        return fail (r, error, r->line, "the entry [%" G_GUINT64_FORMAT "... names %s", index, rest);
      if (cut)
        index = whole;
      if (number == 0)
        return fail (r, error, r->line, "gprof numbers cycles from 1");
      if (n_pending > 0 || g_hash_table_contains (r->cycle_members, GUINT_TO_POINTER (number)))
        return fail (r, error, r->line, "a second entry of <cycle %u as a whole>, or one with callers", number);
      g_hash_table_insert (r->cycle_members, GUINT_TO_POINTER (number), g_array_new (FALSE, FALSE, sizeof (guint)));
      g_hash_table_insert (r->cycle_index, GUINT_TO_POINTER ((guint) index), GUINT_TO_POINTER (number));
      e->cycle = number;
      e->k = G_MAXUINT - 1;
      return TRUE;
    }
  guint k, cycle;
  if (!reference (r, (char *) s, &k, &cycle, error))
    return FALSE;
  if (cut && index_cut_to (func (r, k)->index, index))
    index = func (r, k)->index;
  if (func (r, k)->index != index)
    return fail (r, error, r->line, "the entry [%" G_GUINT64_FORMAT "%s names %s [%u]", index, cut ? "..." : "]",
                 func (r, k)->name, func (r, k)->index);
  Func *f = func (r, k);
  if (f->has_entry)
    return fail (r, error, r->line, "a second entry for %s [%u]", f->name, f->index);
  f->has_entry = TRUE;
  f->graph_self = self;
  f->graph_percent = percent;
  f->graph_children = children;
  f->ncalls = ncalls;
  f->self_calls = self_calls;
  f->entry_line = r->line;
  e->k = k;
  /* the parent lines seen before: their callee is known now */
  guint prev = 0;
  e->prev_key = NULL;
  g_autofree Arc *pending = n_pending ? g_memdup2 (&g_array_index (r->arcs, Arc, r->arcs->len - n_pending),
                                                   n_pending * sizeof (Arc))
                                       : NULL;
  g_array_set_size (r->arcs, r->arcs->len - n_pending);
  for (guint i = 0; i < n_pending; i++)
    {
      Arc p = pending[i];
      guint saved = r->line;
      r->line = p.line;
      gboolean ok = add_arc (r, p.caller, k, p.count, &prev, p.pred[0] != 0, 1, error);
      r->line = saved;
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* A member line of a cycle's entry: "self children called name [i]". */
static gboolean
member_line (Report *r, char *line, Entry *e, GError **error)
{
  const char *s = line;
  guint64 ncalls, self_calls;
  if (!decimal (&s, NULL, r->strings) || !decimal (&s, NULL, r->strings) || !count (&s, &ncalls)
      || (*s == '+' && (s++, !count (&s, &self_calls))))
    return fail (r, error, r->line, "expected a cycle member: self, children, calls and name");
  guint k, cycle;
  if (!reference (r, (char *) s, &k, &cycle, error))
    return FALSE;
  if (cycle != e->cycle)
    return fail (r, error, r->line, "a member of <cycle %u> in <cycle %u>'s entry", cycle, e->cycle);
  g_array_append_val ((GArray *) g_hash_table_lookup (r->cycle_members, GUINT_TO_POINTER (e->cycle)), k);
  return TRUE;
}

static gboolean
graph_line (Report *r, const Lines *l, Entry *e, guint *n_pending, GError **error)
{
  g_autofree char *line = g_strndup (l->line, l->len);
  const char *s = line;
  skip_blanks (&s);
  if (l->len > 0 && line[0] == '[')
    {
      if (e->k != G_MAXUINT)
        return fail (r, error, l->number, "a second entry line before the dashes that end an entry");
      gboolean ok = primary_line (r, line, e, *n_pending, error);
      *n_pending = 0;
      return ok;
    }
  if (strcmp (s, "<spontaneous>") == 0)
    {
      if (e->k != G_MAXUINT || *n_pending > 0)
        return fail (r, error, l->number, "<spontaneous> among an entry's callers");
      return TRUE;
    }
  if (e->cycle)
    return member_line (r, line, e, error);
  if (e->k == G_MAXUINT)
    ++*n_pending;
  return arc_line (r, line, e, error);
}

static gboolean read_entries (Report *r, Lines *l, gboolean *blurb, GError **error);

static gboolean
read_graph (Report *r, Lines *l, gboolean *blurb, GError **error)
{
  if (r->has_graph)
    return fail (r, error, l->number, "a second call graph");
  r->has_graph = TRUE;
  if (!next_line (l) || !blank (l) || !next_line (l) || !blank (l) || !next_line (l) || !starts (l, GRANULARITY))
    return fail (r, error, l->number, "expected two empty lines and 'granularity: each sample hit covers'");
  const char *s = l->line + strlen (GRANULARITY);
  if (!count (&s, &r->granularity) || strncmp (s, " byte(s)", 8) != 0)
    return fail (r, error, l->number, "expected the bytes each sample hit covers");
  s += 8;
  if (strcmp (s, " no time propagated") == 0)
    r->no_time = TRUE;
  const char *percent;
  if (strncmp (s, " for ", 5) == 0 && (s += 5, decimal_before (&s, '%', &percent, r->strings)))
    {
      r->graph_percent = percent;
      const char *seconds;
      if (strncmp (s, " of ", 4) == 0 && (s += 4, decimal (&s, &seconds, r->strings)))
        r->graph_seconds = seconds;
    }
  if (!next_line (l) || !blank (l) || !next_line (l) || !starts (l, "index % time    self  children    called"))
    return fail (r, error, l->number, "expected the call graph's heading line");
  return read_entries (r, l, blurb, error);
}

/* The call graph's entries, up to a form feed, or the blank line before
 * the explanation; in gprof -T's layout blank lines stand around the
 * dashes, and the entries end at a form feed, the next section's
 * granularity line or the end. */
static gboolean
read_entries (Report *r, Lines *l, gboolean *blurb, GError **error)
{
  Entry e = { 0, 0, NULL, G_MAXUINT, 0 };
  guint n_pending = 0;
  Lines before = *l;
  while ((before = *l, next_line (l)))
    {
      r->line = l->number;
      if (is (l, "\f"))
        break;
      if (r->traditional
          && (starts (l, GRANULARITY) || starts (l, AIX_GRANULARITY) || starts (l, "#") || is (l, "flat profile:")
              || is (l, INDEX_HEADING)))
        {
          /* the next section (AIX's: its comment first; without the
           * form feed, its explanation's or the index's heading) */
          *l = before;
          break;
        }
      if (blank (l) && r->traditional)
        continue;
      if (blank (l))
        {
          *blurb = TRUE;
          break;
        }
      if (is (l, SEPARATOR))
        {
          if (e.k == G_MAXUINT)
            return fail (r, error, l->number, "an entry without its '[index]' line");
          e = (Entry) { 0, 0, NULL, G_MAXUINT, 0 };
          continue;
        }
      if (!graph_line (r, l, &e, &n_pending, error))
        return FALSE;
    }
  if (e.k != G_MAXUINT || n_pending > 0)
    return cg_read_fail (error, CG_ERROR_TRUNCATED, r->name, CG_AT_LINE, l->number,
                         "the report ends inside a call-graph entry");
  return TRUE;
}

/* ---- gprof -T's layout (4.2 BSD's) ---- */

/* A table of gprof -T: its granularity line (@l), an empty line, and
 * the flat profile's heading, or the call graph's three lines ("called/
 * total  parents", "index  %time    self descendants  called+self
 * name  index", "called/total  children") and an empty line.  Its flat
 * profile does not print the sample's size: hundredths of a second, as
 * for a call graph alone. */
static gboolean
read_traditional (Report *r, Lines *l, gboolean *blurb, GError **error)
{
  r->traditional = TRUE;
  gboolean aix = starts (l, AIX_GRANULARITY);
  const char *s = l->line + strlen (aix ? AIX_GRANULARITY : GRANULARITY), *percent = NULL;
  const char *unit = aix ? " bytes." : " byte(s)";
  guint64 granularity;
  if (!count (&s, &granularity) || strncmp (s, unit, strlen (unit)) != 0)
    return fail (r, error, l->number, "expected the bytes each sample hit covers");
  s += strlen (unit);
  if (strncmp (s, " for ", 5) == 0)
    s += 5, decimal_before (&s, '%', &percent, r->strings);
  if (!next_line (l) || !blank (l) || !next_line (l))
    return fail (r, error, l->number, "expected an empty line and a table's heading");
  if (starts (l, "  %   cumulative   self"))
    {
      if (r->has_flat)
        return fail (r, error, l->number, "a second flat profile");
      r->has_flat = TRUE;
      r->sample_seconds = 0.01;
      g_strlcpy (r->dimension, "seconds", sizeof r->dimension);
      return read_flat_table (r, l, blurb, error);
    }
  if (!starts (l, "                                  called/total       parents"))
    return fail (r, error, l->number, "expected the heading of a flat profile or a call graph (gprof -T)");
  if (r->has_graph)
    return fail (r, error, l->number, "a second call graph");
  r->has_graph = TRUE;
  r->granularity = granularity;
  r->graph_percent = percent;
  /* GNU gprof spells "descendants"; the BSDs' gprof (macOS's too) keeps
   * 4.2 BSD's "descendents" */
  if (!next_line (l)
      || !(starts (l, "index  %time    self descendants  called+self")
           || starts (l, "index  %time    self descendents  called+self"))
      || !next_line (l) || !starts (l, "                                  called/total       children")
      || !next_line (l) || !blank (l))
    return fail (r, error, l->number, "expected the call graph's heading lines (gprof -T)");
  return read_entries (r, l, blurb, error);
}

/* ---- the index (cg_print.c's cg_print_index) ---- */

/* The end of a name that the call graph did not print: the blanks
 * before the next cell ("[12] " or "(12) ") or the line's end. */
static const char *
next_cell (const char *s)
{
  const char *end = s;
  for (const char *p = s; *p; p++)
    {
      if (*p == ' ')
        continue;
      if (p > s && p[-1] == ' ' && (*p == '[' || *p == '('))
        {
          const char *q = p + 1;
          while (g_ascii_isdigit (*q))
            q++;
          if (q > p + 1 && *q == (*p == '[' ? ']' : ')') && q[1] == ' ')
            return end;
          if (q == p + 6 && *q == ' ') /* its close cut (BSD layout, 10000 on) */
            return end;
        }
      end = p + 1;
    }
  return end;
}

/* macOS's gprof (4.4 BSD's layout) prints a C++ function demangled in
 * its call graph, but in its index the symbol's own name ("__ZN3c3d4Data
 * C4Etttt", with the leading underscore of Mach-O), cut to the cell's 19
 * columns and demangled again where the cut still demangles ("c3d::Data::
 * Data(unsigned short, unsigned short, unsigned short)" for a function of
 * four).  So where the graph's @name is C++'s, a cell @s that is a
 * mangled name, or a demangled one, stands for it: its length in
 * *@shown (19 columns, or up to the next cell).  No file follows it. */
static gboolean
cell_end (char c)
{
  return c == ' ' || c == '\0' || c == '[' || c == '(';
}

static gboolean
linker_cell (const char *name, const char *s, gsize *shown)
{
  gboolean cxx = strstr (name, "::") != NULL || strchr (name, '(') != NULL;
  gboolean mangled = g_str_has_prefix (s, "__Z") || g_str_has_prefix (s, "_Z");
  if (!cxx || !(mangled || strstr (s, "::") != NULL))
    return FALSE;
  gsize n = strnlen (s, TRADITIONAL_INDEX_NAME);
  if (n == TRADITIONAL_INDEX_NAME && !cell_end (s[n]))
    n = (gsize) (next_cell (s) - s); /* demangled: longer than the cell */
  *shown = n;
  return n > 0;
}

/* Whether the index's cell @s starts with @name, cut to the BSD layout's
 * 19 columns. */
static gboolean
cell_names (const char *s, const char *name)
{
  gsize n = MIN (strlen (name), TRADITIONAL_INDEX_NAME);
  return strncmp (s, name, n) == 0;
}

/* One row: cells " [i] name (file)" laid out in columns.  The names are
 * known from the call graph, so a cell's name is matched, not guessed at
 * (names may hold blanks); what follows it in parentheses is the file. */
static gboolean
index_row (Report *r, const char *s, guint row, GError **error)
{
  for (guint col = 1;; col++)
    {
      skip_blanks (&s);
      if (*s == '\0')
        return TRUE;
      char close = *s == '[' ? ']' : *s == '(' ? ')' : '\0';
      guint64 index;
      const char *cell = s++;
      if (close == '\0' || !count (&s, &index))
        return fail (r, error, r->line, "expected '[index] name' in the index");
      /* the BSD layout prints "[index]" in 6 columns too ("%6.6s"): from
       * 10000 on its close is cut, "[25689 _PointLightExpandBo", and
       * from 100000 a digit ("(12205 _moncount" for "_moncount (122058)") */
      gboolean cut_index = r->traditional && *s == ' ' && s == cell + 6 && index >= 10000;
      if ((!cut_index && *s++ != close) || *s++ != ' ')
        return fail (r, error, r->line, "expected '[index] name' in the index");
      gpointer c = g_hash_table_lookup (r->cycle_index, GUINT_TO_POINTER ((guint) index));
      gpointer v = g_hash_table_lookup (r->by_index, GUINT_TO_POINTER ((guint) index));
      if (cut_index && c == NULL && (v == NULL || !cell_names (s, func (r, GPOINTER_TO_UINT (v) - 1)->name)))
        for (guint k = 0; k < r->funcs->len; k++)
          if (index_cut_to (func (r, k)->index, index) && cell_names (s, func (r, k)->name))
            {
              v = GUINT_TO_POINTER (k + 1);
              break;
            }
      if (c == NULL && v == NULL && close == ')' && index <= G_MAXUINT32)
        {
          /* a function numbered but printed nowhere else: with -z,
           * those gprof never prints (mcount, __mcount_internal) */
          const char *end = next_cell (s);
          if (end == s)
            return fail (r, error, r->line, "(%" G_GUINT64_FORMAT ") in the index has no name", index);
          g_autofree char *unseen = g_strndup (s, (gsize) (end - s));
          v = GUINT_TO_POINTER (add_func (r, unseen, (guint) index) + 1);
        }
      g_autofree char *cycle = c ? g_strdup_printf ("<cycle %u>", GPOINTER_TO_UINT (c)) : NULL;
      const char *name = c ? cycle : v ? func (r, GPOINTER_TO_UINT (v) - 1)->name : NULL;
      /* gprof -T prints a name in a cell of 19 columns, cut
       * ("pager_write_pagelis[1151]" where the next cell follows) */
      gsize shown = name ? strlen (name) : 0;
      gboolean cut = r->traditional && shown >= TRADITIONAL_INDEX_NAME;
      /* (macOS's prints a name demangled from 19 columns whole) */
      if (cut && strncmp (s, name, shown) == 0 && cell_end (s[shown]))
        cut = FALSE;
      if (cut)
        shown = TRADITIONAL_INDEX_NAME;
      gboolean same = name != NULL && strncmp (s, name, shown) == 0 && (!cut || cell_end (s[shown]));
      if (!same && name != NULL && r->traditional && v && linker_cell (name, s, &shown))
        {
          s += shown; /* macOS's gprof: the symbol's own name, not the graph's */
          continue;
        }
      if (!same)
        return fail (r, error, r->line, "[%" G_GUINT64_FORMAT "] in the index is not the call graph's %s", index,
                     name ? name : "(no such entry)");
      s += shown;
      if (v)
        {
          func (r, GPOINTER_TO_UINT (v) - 1)->index_row = row;
          func (r, GPOINTER_TO_UINT (v) - 1)->index_col = col;
        }
      const char *close_paren;
      if (v && s[0] == ' ' && s[1] == '(' && (close_paren = strchr (s + 2, ')')) != NULL)
        {
          /* "(12)" followed by a blank is the next cell of a function not
           * printed; a file has a name */
          const char *q = s + 2;
          while (g_ascii_isdigit (*q))
            q++;
          if (q != close_paren || q == s + 2)
            {
              func (r, GPOINTER_TO_UINT (v) - 1)->file
                  = g_string_chunk_insert_len (r->strings, s + 2, close_paren - (s + 2));
              s = close_paren + 1;
            }
        }
      if (*s != ' ' && *s != '\0' && !cut)
        return fail (r, error, r->line, "expected blanks after %s in the index", name);
    }
}

static gboolean
read_index (Report *r, Lines *l, GError **error)
{
  if (!next_line (l) || !blank (l))
    return fail (r, error, l->number, "expected an empty line after the index's heading");
  while (next_line (l))
    {
      r->line = l->number;
      if (is (l, "\f"))
        return TRUE;
      g_autofree char *line = g_strndup (l->line, l->len);
      if (!index_row (r, line, ++r->index_rows, error))
        return FALSE;
    }
  return TRUE;
}

/* Sections: after each table, gprof without -b prints an explanation;
 * copyright notices stand between sections; a form feed starts the next
 * section. */
static gboolean
parse (Report *r, const char *data, gsize len, GError **error)
{
  Lines l = { data, data + len, NULL, 0, 0 };
  if (len > 0 && data[len - 1] != '\n')
    {
      guint n = 1;
      for (gsize i = 0; i < len; i++)
        n += data[i] == '\n';
      return cg_read_fail (error, CG_ERROR_TRUNCATED, r->name, CG_AT_LINE, n,
                           "the report ends inside a line (gprof ends every line)");
    }
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    l.data += 3;
  gboolean blurb = FALSE;
  while (next_line (&l))
    {
      r->line = l.number;
      gboolean ok = TRUE;
      if (is (&l, "\f"))
        blurb = FALSE;
      else if (starts (&l, GRANULARITY) || starts (&l, AIX_GRANULARITY))
        ok = read_traditional (r, &l, &blurb, error); /* gprof -T: no explanation holds the line */
      /* the headings end an explanation too: no explanation holds them,
       * and a report copied through a web page or an editor has often
       * lost its form feeds */
      else if (is (&l, FLAT_HEADING))
        ok = read_flat (r, &l, &blurb, error);
      else if (is (&l, GRAPH_HEADING_BRIEF) || is (&l, GRAPH_HEADING))
        ok = read_graph (r, &l, &blurb, error);
      else if (is (&l, INDEX_HEADING))
        ok = read_index (r, &l, error);
      else if (blurb || blank (&l))
        continue;
      else if (is (&l, "call graph profile:") || is (&l, "flat profile:"))
        blurb = TRUE; /* gprof -T's explanations come before their tables */
      else if (starts (&l, "Copyright ") || starts (&l, "#"))
        blurb = TRUE; /* AIX's: an SCCS comment heads each explanation */
      else
        ok = fail (r, error, l.number,
                   "expected a section of a gprof report ('Flat profile:', 'Call graph' or 'Index by function name')");
      if (!ok)
        return FALSE;
    }
  if (!r->has_flat && !r->has_graph)
    return cg_read_fail (error, CG_ERROR_TRUNCATED, r->name, CG_AT_LINE, l.number,
                         "the report holds neither a flat profile nor a call graph");
  return TRUE;
}

/* ---- building the profile ---- */

/* gprof prints an entry for every function it names "name [N]" that was
 * called or took time (one its filters left out is "name (N)"), so a
 * function called from another whose entry never came means the report
 * lost its end: a report cut after an entry's dashes parses, but lacks
 * the rest of the call graph (gawk's and lua's reports cut there lost a
 * quarter of their arcs and their functions' totals).  Under --lenient,
 * a warning and what is there. */
static gboolean
check_entries (Report *r, GError **error)
{
  if (!r->has_graph)
    return TRUE;
  g_autofree guint *first = g_new0 (guint, MAX (r->funcs->len, 1)); /* line of the first call in, 0 none */
  for (guint i = 0; i < r->arcs->len; i++)
    {
      const Arc *a = &g_array_index (r->arcs, Arc, i);
      if (a->caller != a->callee && a->count > 0 && (first[a->callee] == 0 || a->line < first[a->callee]))
        first[a->callee] = a->line;
    }
  guint missing = 0, n = 0;
  gboolean entries = g_hash_table_size (r->cycle_members) > 0, flat_calls = FALSE;
  for (guint k = 0; k < r->funcs->len; k++)
    entries |= func (r, k)->has_entry;
  for (guint i = 0; i < r->flat_rows->len; i++)
    flat_calls |= g_array_index (r->flat_rows, FlatRow, i).calls > 0;
  /* the flat profile's calls are the call graph's arcs: a graph cut
   * right after its heading has none */
  if (!entries && flat_calls && !r->options->lenient)
    return cg_read_fail (error, CG_ERROR_TRUNCATED, r->name, CG_AT_LINE, r->line,
                         "the call graph has no entry, but the flat profile counts calls: the report is cut short");
  for (guint k = 0; k < r->funcs->len; k++)
    {
      const Func *f = func (r, k);
      if (f->has_entry || f->left_out || first[k] == 0)
        continue;
      n++;
      if (missing == 0 || first[k] < first[missing - 1])
        missing = k + 1;
    }
  if (n == 0)
    return TRUE;
  const Func *f = func (r, missing - 1);
  if (!r->options->lenient)
    return cg_read_fail (error, CG_ERROR_TRUNCATED, r->name, CG_AT_LINE, first[missing - 1],
                         "%s [%u] is called here, but the call graph has no entry for it (nor for %u other "
                         "called function%s): the report is cut short",
                         f->name, f->index, n - 1, n == 2 ? "" : "s");
  cg_read_warn (r->options,
                "%s:%u: %s [%u] is called here, but the call graph has no entry for it (nor for %u other "
                "called function%s): the report is cut short; read as it is",
                r->name, first[missing - 1], f->name, f->index, n - 1, n == 2 ? "" : "s");
  return TRUE;
}

/* Each entry's called column is the sum of its callers' calls (N) and
 * of its own (M), as gprof counts them: a report that says otherwise
 * cannot be a graph's. */
static gboolean
check_calls (Report *r, GError **error)
{
  g_autofree guint64 *in = g_new0 (guint64, MAX (r->funcs->len, 1));
  g_autofree guint64 *self = g_new0 (guint64, MAX (r->funcs->len, 1));
  for (guint i = 0; i < r->arcs->len; i++)
    {
      const Arc *a = &g_array_index (r->arcs, Arc, i);
      guint64 *sum = a->caller == a->callee ? &self[a->callee] : &in[a->callee];
      if (*sum > G_MAXUINT64 - a->count)
        return cg_read_fail (error, CG_ERROR_OVERFLOW, r->name, CG_AT_LINE, a->line, "a sum of calls exceeds 64 bits");
      *sum += a->count;
    }
  for (guint k = 0; k < r->funcs->len; k++)
    {
      const Func *f = func (r, k);
      if (f->has_entry && (f->ncalls != in[k] || f->self_calls != self[k]))
        return fail (r, error, f->entry_line,
                     "%s [%u] is called %" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT " times, but the arcs into it add "
                     "up to %" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT,
                     f->name, f->index, f->ncalls, f->self_calls, in[k], self[k]);
    }
  return TRUE;
}

/* Arcs in an order that keeps the report's ties: an arc printed right
 * after an equal one in a listing comes after it (gprof prints equal arcs
 * in order of first appearance); otherwise in order of sight.  Depth-first
 * over predecessors with an explicit stack; a circle of such constraints
 * (a report no gprof printed) is cut where it closes. */
static guint *
arc_order (Report *r)
{
  guint n = r->arcs->len;
  guint *order = g_new (guint, MAX (n, 1));
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1)); /* 1 on the stack, 2 placed */
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  guint placed = 0;
  for (guint a = 0; a < n; a++)
    {
      if (state[a])
        continue;
      g_array_append_val (stack, a);
      state[a] = 1;
      while (stack->len > 0)
        {
          guint top = g_array_index (stack, guint, stack->len - 1);
          const Arc *arc = &g_array_index (r->arcs, Arc, top);
          guint next = G_MAXUINT;
          for (guint s = 0; s < 2 && next == G_MAXUINT; s++)
            if (arc->pred[s] && state[arc->pred[s] - 1] == 0)
              next = arc->pred[s] - 1;
          if (next != G_MAXUINT)
            {
              state[next] = 1;
              g_array_append_val (stack, next);
              continue;
            }
          state[top] = 2;
          order[placed++] = top;
          g_array_set_size (stack, stack->len - 1);
        }
    }
  return order;
}

static gint
by_number (gconstpointer a, gconstpointer b, G_GNUC_UNUSED gpointer data)
{
  guint x = GPOINTER_TO_UINT (*(const gpointer *) a), y = GPOINTER_TO_UINT (*(const gpointer *) b);
  return (x > y) - (x < y);
}

/* gprof numbers every function, printed or not, in order of total time
 * (cmp_total), so a report's indexes have gaps where functions without
 * time or calls were numbered but not printed.  One function with no
 * time and no calls stands for each, named "<unprinted [N]>", so that the
 * printed entries keep their numbers; its name must sort where gprof's
 * cmp_total sorts the one it stands for.  Among equal totals it puts
 * names without a leading '_' first, then more calls first, then strcmp
 * (cg_gprof_name_sorts_last): so a placeholder starts with '(', which is
 * among those sorted last and before their other names, when the
 * function numbered after the gap is an unprinted one (no time, no
 * calls) sorted last (C++ programs' _Z names, numbered after every C
 * name),
 * and after an unprinted function known by name (a caller of no time
 * and no calls: a static initializer _GLOBAL__sub_I_...) it carries that
 * name first, which it must follow.  N is zero-padded so that the
 * placeholders of a gap sort in its order (ninja's report: [109] to
 * [254], between [108] and [255], took [42] to [192]).  Gaps after the
 * last printed index change no number and get none. */
static void
fill_gaps (Report *r)
{
  guint top = 0;
  for (guint k = 0; k < r->funcs->len; k++)
    top = MAX (top, func (r, k)->index);
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, r->cycle_index);
  while (g_hash_table_iter_next (&it, &key, NULL))
    top = MAX (top, GPOINTER_TO_UINT (key));
  int width = snprintf (NULL, 0, "%u", top);
  /* the function before the gap, by its position: add_func moves them */
  guint before = 0;
  for (guint i = 1; i < top; i++)
    {
      gpointer v = g_hash_table_lookup (r->by_index, GUINT_TO_POINTER (i));
      if (v != NULL || g_hash_table_contains (r->cycle_index, GUINT_TO_POINTER (i)))
        {
          before = v ? GPOINTER_TO_UINT (v) : 0;
          continue;
        }
      const Func *lo = before ? func (r, before - 1) : NULL;
      guint j = i + 1;
      while (j < top && !g_hash_table_contains (r->by_index, GUINT_TO_POINTER (j)))
        j++;
      gpointer w = g_hash_table_lookup (r->by_index, GUINT_TO_POINTER (j));
      const Func *hi = w ? func (r, GPOINTER_TO_UINT (w) - 1) : NULL;
      /* a printed function has calls or time, so it sorts before every
       * '_' name of neither: only an unprinted one can follow those, or
       * in a report of no time one whose only calls are its own
       * (fmt 9.1's tests: "_init [1937]", "0+1", after [821] to [1936]) */
      gboolean idle = !hi || !hi->has_entry || (r->no_time && hi->ncalls == 0);
      gboolean last = hi != NULL && idle && cg_gprof_name_sorts_last (hi->name);
      g_autoptr (GString) name = g_string_new (NULL);
      if (lo != NULL && !lo->has_entry && cg_gprof_name_sorts_last (lo->name) == last)
        g_string_append_printf (name, "%s ", lo->name);
      else if (last)
        g_string_append_c (name, '('); /* the first name of those sorted last */
      g_string_append_printf (name, "<unprinted [%0*u]>", width, i);
      add_func (r, name->str, i);
    }
}

/* A cell's place in the index, which gprof fills column by column in
 * name order. */
static guint
index_place (const Report *r, const Func *f)
{
  return (f->index_col - 1) * r->index_rows + f->index_row - 1;
}

/* Functions of one name (static functions of several files) in @order
 * take the places they hold there among themselves in the order of their
 * index cells: gprof's index sorts by name alone, stably, so equal names
 * keep the executable's symbol order, which is the order cgtools' index
 * sorts them in too.  One pass over @order, then each group of a name. */
static void
keep_index_order (Report *r, guint *order, guint n)
{
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) g_array_unref);
  g_autoptr (GPtrArray) shared = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    {
      const char *name = func (r, order[i])->name;
      GArray *slots = g_hash_table_lookup (groups, name);
      if (slots == NULL)
        g_hash_table_insert (groups, (gpointer) name, slots = g_array_new (FALSE, FALSE, sizeof (guint)));
      else if (slots->len == 1)
        g_ptr_array_add (shared, slots);
      g_array_append_val (slots, i);
    }
  g_autoptr (GArray) funcs = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint g = 0; g < shared->len; g++)
    {
      GArray *slots = g_ptr_array_index (shared, g);
      gboolean all_in_index = TRUE;
      g_array_set_size (funcs, 0);
      for (guint a = 0; a < slots->len; a++)
        {
          guint k = order[g_array_index (slots, guint, a)];
          all_in_index &= func (r, k)->index_row != 0;
          g_array_append_val (funcs, k);
        }
      if (!all_in_index)
        continue;
      /* a few functions share a name: insertion sort by index place */
      for (guint a = 1; a < funcs->len; a++)
        for (guint b = a; b > 0; b--)
          {
            guint *x = &g_array_index (funcs, guint, b - 1), *y = &g_array_index (funcs, guint, b);
            if (index_place (r, func (r, *x)) <= index_place (r, func (r, *y)))
              break;
            guint t = *x;
            *x = *y;
            *y = t;
          }
      for (guint a = 0; a < funcs->len; a++)
        order[g_array_index (slots, guint, a)] = g_array_index (funcs, guint, a);
    }
}

/* Functions in an order that numbers the cycles as the report did: gprof
 * numbers them in the order of the function through which its search
 * first entered each, and searches from the functions in order. */
static guint *
func_order (Report *r)
{
  guint n = r->funcs->len, placed = 0;
  guint *order = g_new (guint, MAX (n, 1));
  g_autofree guint8 *done = g_new0 (guint8, MAX (n, 1));
  g_autofree gpointer *numbers = g_hash_table_get_keys_as_array (r->cycle_members, NULL);
  guint nc = g_hash_table_size (r->cycle_members);
  g_qsort_with_data (numbers, (gint) nc, sizeof *numbers, by_number, NULL);
  for (guint c = 0; c < nc; c++)
    {
      GArray *m = g_hash_table_lookup (r->cycle_members, numbers[c]);
      for (guint i = 0; i < m->len; i++)
        {
          guint k = g_array_index (m, guint, i);
          if (!done[k])
            {
              done[k] = 1;
              order[placed++] = k;
            }
        }
    }
  for (guint k = 0; k < n; k++)
    if (!done[k])
      order[placed++] = k;
  keep_index_order (r, order, n);
  return order;
}

typedef struct {
  CgReportTime *rows;
  gdouble *ticks;
  gdouble true_w;
  guint64 samples;
  gdouble rate;
} Times;

/* Whether the rows of a call graph printed without its flat profile
 * (gprof -q) can take their entries' percentages: gprof prints a self
 * time to a hundredth of a second, and where a histogram bin straddles
 * two functions it splits the bin's samples, so the printed self times
 * of ninja 1.11's -q report added up to 0.21 s for the 0.20 s its
 * granularity line and main's entry said (EvalString::AddText and
 * BindingEnv::LookupRule 0.01 each for half a sample).  An entry's %
 * time (outside any cycle) is its self and children's share of the
 * graph's whole, which the granularity line prints ("for 5.00% of 0.20
 * seconds"): with those, the samples and ticks are solved as a flat
 * profile's are.  Not where the graph is of some functions only (its
 * whole is the program's). */
static gboolean
graph_percents_known (Report *r)
{
  if (r->has_flat || !r->has_graph || r->graph_seconds == NULL || r->no_time)
    return FALSE;
  for (guint k = 0; k < r->funcs->len; k++)
    if (func (r, k)->left_out && !func (r, k)->has_entry)
      return FALSE;
  return TRUE;
}

static gboolean
set_times (Report *r, Times *t)
{
  guint n = r->funcs->len;
  t->rows = g_new0 (CgReportTime, MAX (n, 1));
  t->ticks = g_new0 (gdouble, MAX (n, 1));
  gboolean graph = graph_percents_known (r);
  for (guint k = 0; k < n; k++)
    {
      const Func *f = func (r, k);
      CgReportTime *row = &t->rows[k];
      row->self = f->has_flat ? f->flat_self : f->graph_self ? f->graph_self : "0.00";
      row->percent = f->has_flat ? f->flat_percent : NULL;
      if (graph && f->has_entry && f->cycle == 0)
        {
          row->percent = f->graph_percent;
          row->children = f->graph_children;
        }
      row->per_call = f->has_flat ? f->flat_per_call : NULL;
      row->calls = f->flat_calls;
      row->scale = r->per_call_scale;
      /* gprof's flat profile lists every function with time (hist.c) */
      row->none = r->has_flat && !f->has_flat;
    }
  guint width = (guint) MIN (r->granularity / 2, 1u << 20);
  gboolean fit = cg_report_times_solve (t->rows, n, t->rate, width, r->no_time,
                                        graph ? r->graph_seconds : r->flat_cumulative, &t->samples, t->ticks,
                                        &t->true_w);
  if (!graph || fit)
    return fit;
  /* percentages no samples give: the printed seconds alone, as before */
  for (guint k = 0; k < n; k++)
    t->rows[k].percent = t->rows[k].children = NULL;
  t->true_w = 0.0;
  return cg_report_times_solve (t->rows, n, t->rate, width, r->no_time, NULL, &t->samples, t->ticks, &t->true_w);
}

/* gprof's percentages are of all samples, and its flat profile lists
 * every function with time (a flat profile of some functions only, -p
 * NAME, takes its percentages of those): rows that hold fewer samples
 * than the percentages are of lost some, a report cut inside its flat
 * profile (lua 5.4.4's gprof -b -p report cut after two of its five rows
 * with time read as 60 ms where it printed 90).  Samples in code no
 * symbol covers count in gprof's total too, so only a warning. */
static void
warn_rows_missing (Report *r, const Times *t)
{
  if (!r->has_flat || r->no_time || r->flat_rows->len == 0)
    return;
  gdouble held = 0.0;
  for (guint k = 0; k < r->funcs->len; k++)
    held += t->ticks[k];
  if ((gdouble) t->samples - held < 0.5)
    return;
  const FlatRow *last = &g_array_index (r->flat_rows, FlatRow, r->flat_rows->len - 1);
  cg_read_warn (r->options,
                "%s:%u: the flat profile's percentages are of %" G_GUINT64_FORMAT " samples, but its rows hold %.1f: "
                "rows with time are missing (a report cut short?), or samples fell in code no function covers",
                r->name, last->line, t->samples, held);
}

/* The bins' width closer: gprof's analysis of the ticks found, whose sums
 * (a function's total time per call; the call graph's 100 %) scale with
 * 1 / width, checked against what the report printed of them.  Only for
 * a report read into an empty profile (the analysis would see the others
 * too). */
static void
refine_width (Report *r, CgProfile *profile, guint event, Times *t)
{
  CgGraph *g = cg_profile_graph (profile);
  if (t->true_w <= 0.0 || !r->has_flat || !r->has_graph)
    return;
  g_autoptr (CgGprof) gp = cg_gprof_new (profile, event, NULL);
  gdouble lo = t->true_w * 0.999, hi = t->true_w * 1.001, w0 = t->true_w;
  for (guint k = 0; k < r->funcs->len; k++)
    {
      const Func *f = func (r, k);
      if (!f->has_flat || f->flat_calls == 0 || f->flat_total_per_call == NULL)
        continue;
      const CgGprofEntry *e = cg_gprof_entry (gp, f->fid);
      gdouble v = r->per_call_scale * (e->time + e->child_time) / t->rate / (gdouble) f->flat_calls;
      gdouble p = g_ascii_strtod (f->flat_total_per_call, NULL);
      if (v <= 0.0)
        continue;
      lo = MAX (lo, v * w0 / (p + 0.005));
      if (p > 0.005)
        hi = MIN (hi, v * w0 / (p - 0.005));
    }
  gdouble pt = cg_gprof_print_time (gp);
  if (r->graph_percent && pt > 0.0)
    {
      gdouble x = g_ascii_strtod (r->graph_percent, NULL);
      lo = MAX (lo, pt * w0 * (x - 0.005) / 100);
      hi = MIN (hi, pt * w0 * (x + 0.005) / 100);
    }
  if (lo > hi)
    return;
  guint n = r->funcs->len;
  g_autofree gdouble *ticks = g_memdup2 (t->ticks, MAX (n, 1) * sizeof (gdouble));
  if (!cg_report_times_rescale (t->rows, n, t->rate, t->samples, w0, lo, hi, ticks))
    return;
  for (guint k = 0; k < n; k++)
    cg_graph_self (g, func (r, k)->fid)[event].x += ticks[k] - t->ticks[k];
}

/* A call graph gprof printed for some functions only: the others have
 * no times here, and the whole is the printed part's, which every
 * percentage of the views is of. */
static void
warn_left_out (Report *r)
{
  guint n = 0;
  const Func *first = NULL;
  for (guint k = 0; k < r->funcs->len; k++)
    {
      const Func *f = func (r, k);
      if (f->left_out && !f->has_entry)
        {
          if (first == NULL || f->line < first->line)
            first = f;
          n++;
        }
    }
  if (n > 0)
    cg_read_warn (r->options,
                  "%s:%u: a call graph of some functions only (gprof -q NAME, --graph=NAME, -f, -e...): %u "
                  "function%s it names as 'NAME (N)' (the first: %s) %s no entry here, so %s calls (and, "
                  "outside the flat profile, %s times) are missing, and the totals are the printed part's, "
                  "not the program's",
                  r->name, first->line, n, n == 1 ? "" : "s", first->name, n == 1 ? "has" : "have",
                  n == 1 ? "its" : "their", n == 1 ? "its" : "their");
}

static gboolean
add_histogram (Report *r, CgProfile *profile, guint event, guint32 rate, guint64 samples, GError **error)
{
  CgHistogram *h = cg_profile_histogram (profile);
  gdouble width = (gdouble) (r->granularity / 2);
  if (h == NULL)
    cg_profile_set_histogram (profile, h = cg_histogram_new (event, rate, width));
  else if (cg_histogram_event (h) != event)
    return cg_read_fail (error, CG_ERROR_MISMATCH, r->name, CG_AT_LINE, 1,
                         "the profile already has a histogram of another event");
  else if (cg_histogram_rate (h) != rate && cg_histogram_rate (h) != 0 && rate != 0)
    return cg_read_fail (error, CG_ERROR_MISMATCH, r->name, CG_AT_LINE, 1,
                         "sampled %u times a second, but the profile %u times", rate, cg_histogram_rate (h));
  else if (r->has_graph && cg_histogram_granularity (h) != r->granularity && cg_histogram_bin_width (h) > 0)
    return cg_read_fail (error, CG_ERROR_MISMATCH, r->name, CG_AT_LINE, 1,
                         "each sample covers %" G_GUINT64_FORMAT " bytes, but %" G_GUINT64_FORMAT
                         " in the profile (gprof sums only profiles of one scale)",
                         r->granularity, cg_histogram_granularity (h));
  else if (cg_histogram_rate (h) == 0 && rate != 0)
    {
      /* the first rate known: a report with a flat profile after one
       * without */
      g_autoptr (CgHistogram) fresh = cg_histogram_new (event, rate, MAX (width, cg_histogram_bin_width (h)));
      cg_histogram_add_samples (fresh, cg_histogram_samples (h));
      cg_histogram_set_call_graph (fresh, cg_histogram_call_graph (h));
      cg_profile_set_histogram (profile, h = g_steal_pointer (&fresh));
    }
  /* the self times now hold more than any gmon.out's bins */
  cg_histogram_forget_counts (h);
  if (!cg_histogram_add_samples (h, samples))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: the sum of samples exceeds 64 bits", r->name);
      return FALSE;
    }
  cg_histogram_set_call_graph (h, cg_histogram_call_graph (h) || r->has_graph);
  return TRUE;
}

static gboolean
build (Report *r, CgProfile *profile, GError **error)
{
  CgGraph *g = cg_profile_graph (profile);
  /* a call graph alone does not say the rate: its seconds are kept in
   * hundredths, gprof's usual ticks */
  gdouble rate = r->has_flat ? round (1.0 / r->sample_seconds) : 100.0;
  if (!(rate >= 1.0 && rate <= G_MAXUINT32))
    return cg_read_fail (error, CG_ERROR_PARSE, r->name, CG_AT_LINE, 3, "a sample of %g seconds is out of range",
                         r->sample_seconds);
  match_flat_rows (r);
  fill_gaps (r);
  /* ticks are counted exactly in a double up to 2^53, and samples in 64
   * bits: a report beyond that was not printed by gprof */
  gdouble all = 0.0;
  for (guint k = 0; k < r->funcs->len; k++)
    {
      const Func *f = func (r, k);
      const char *self = f->has_flat ? f->flat_self : f->graph_self;
      all += self ? g_ascii_strtod (self, NULL) * rate : 0.0;
      if (!(all <= 9007199254740992.0))
        return cg_read_fail (error, CG_ERROR_OVERFLOW, r->name, CG_AT_LINE, f->line,
                             "%s's seconds make more than 2^53 samples in all", f->name);
    }
  guint event;
  gboolean new_event = cg_graph_find_event (g, "time") < 0;
  GError *local = NULL;
  if (!cg_profile_ensure_event (profile, "time", r->has_flat ? r->dimension : "seconds", CG_KIND_REAL, &event,
                                &local))
    {
      g_set_error (error, CG_ERROR, local->code, "%s: %s", r->name, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (new_event)
    {
      cg_graph_set_event_description (g, event, "sampled time (gprof report)");
      cg_graph_set_event_scale (g, event, 1.0 / rate);
    }
  else if (fabs (cg_graph_event_scale (g, event) * rate - 1.0) > 1e-9)
    return cg_read_fail (error, CG_ERROR_MISMATCH, r->name, CG_AT_LINE, 1,
                         "sampled %g times a second, but the profile's time is in units of %g seconds", rate,
                         cg_graph_event_scale (g, event));

  gboolean empty = cg_graph_n_functions (g) == 0;
  g_autofree guint *forder = func_order (r);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < r->funcs->len; i++)
    {
      Func *f = func (r, forder[i]);
      /* a second function of one name (static functions of two files):
       * its file, or its index, keeps it apart */
      g_autofree char *object = NULL;
      if (g_hash_table_contains (names, f->name))
        object = f->file ? g_strdup (f->file) : g_strdup_printf ("[%u]", f->index);
      g_hash_table_add (names, (gpointer) f->name);
      f->fid = cg_graph_ensure_function (g, object ? object : "", f->name);
      if (f->fid == CG_NO_ID)
        return cg_read_fail (error, CG_ERROR_OVERFLOW, r->name, CG_AT_LINE, f->line, "too many functions");
      if (f->file)
        cg_graph_function_set_location (g, f->fid, f->file, 0);
    }
  Times t = { NULL, NULL, 0.0, 0, rate };
  gboolean fit = set_times (r, &t);
  g_autofree CgReportTime *rows = t.rows;
  g_autofree gdouble *ticks = t.ticks;
  for (guint k = 0; k < r->funcs->len; k++)
    cg_graph_self (g, func (r, k)->fid)[event].x += t.ticks[k];
  if (!fit)
    cg_read_warn (r->options,
                  "%s: no number of samples gives every percentage of the flat profile as printed; "
                  "the percentages printed again may differ",
                  r->name);
  else
    warn_rows_missing (r, &t);

  g_autofree guint *aorder = arc_order (r);
  for (guint i = 0; i < r->arcs->len; i++)
    {
      const Arc *a = &g_array_index (r->arcs, Arc, aorder[i]);
      CgArcId id = cg_graph_ensure_arc (g, func (r, a->caller)->fid, func (r, a->callee)->fid);
      if (id == CG_NO_ID || !cg_graph_arc_add_calls (g, id, a->count))
        return cg_read_fail (error, CG_ERROR_OVERFLOW, r->name, CG_AT_LINE, a->line, "a sum of calls exceeds 64 bits");
    }
  warn_left_out (r);
  if (r->has_flat && !r->has_graph)
    /* the flat profile's calls and total ms/call columns have no caller:
     * a user reading cgcost's totals must know they are self times */
    cg_read_warn (r->options,
                  "%s: a flat profile without its call graph: no calls between functions are known, so every "
                  "total is the function's self time (the calls and total ms/call columns are not kept)",
                  r->name);
  gboolean ok = add_histogram (r, profile, event, r->has_flat ? (guint32) rate : 0, t.samples, error);
  if (ok && empty)
    refine_width (r, profile, event, &t);
  if (!ok)
    return FALSE;
  cg_profile_add_source (profile, "gprof-report", r->name, NULL, "GNU gprof");
  return TRUE;
}

gboolean
cg_read_gprof_report (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  const guint8 *data;
  gsize len;
  if (!cg_input_contents (input, &data, &len, error))
    return FALSE;
  Report r = { 0 };
  r.name = cg_input_name (input);
  r.options = options;
  r.strings = g_string_chunk_new (4096);
  r.funcs = g_array_new (FALSE, FALSE, sizeof (Func));
  r.by_index = g_hash_table_new (NULL, NULL);
  r.by_name = g_hash_table_new (g_str_hash, g_str_equal);
  r.shared = g_hash_table_new (g_str_hash, g_str_equal);
  r.arcs = g_array_new (FALSE, FALSE, sizeof (Arc));
  r.arc_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  r.cycle_members = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  r.cycle_index = g_hash_table_new (NULL, NULL);
  r.flat_rows = g_array_new (FALSE, FALSE, sizeof (FlatRow));
  strcpy (r.dimension, "seconds");
  gboolean ok = parse (&r, (const char *) data, len, error) && check_entries (&r, error) && check_calls (&r, error)
                && build (&r, profile, error);
  g_array_unref (r.flat_rows);
  g_hash_table_unref (r.cycle_index);
  g_hash_table_unref (r.cycle_members);
  g_hash_table_unref (r.arc_of);
  g_array_unref (r.arcs);
  g_hash_table_unref (r.shared);
  g_hash_table_unref (r.by_name);
  g_hash_table_unref (r.by_index);
  g_array_unref (r.funcs);
  g_string_chunk_free (r.strings);
  return ok;
}

static gboolean
prefix (const guint8 *data, gsize len, const char *text)
{
  gsize n = strlen (text);
  return len >= n && memcmp (data, text, n) == 0;
}

/* Whether @data starts with @text, the granularity line's words, and
 * then the line's count of bytes as the reader wants it ("4 byte(s)"). */
static gboolean
prefix_granularity (const guint8 *data, gsize len, const char *text)
{
  gsize n = strlen (text), k = n;
  if (!prefix (data, len, text))
    return FALSE;
  while (k < len && k - n < 20 && g_ascii_isdigit (data[k]))
    k++;
  return k > n && prefix (data + k, len - k, " byte(s)");
}

/* AIX's gprof: its first line the SCCS id of the explanation it prints
 * first ("# @(#)64\t1.4  com/cmd/stat/gprof/gprof.callg, bos, ..."). */
static gboolean
aix_report (const guint8 *data, gsize len)
{
  const guint8 *nl = memchr (data, '\n', len);
  gsize n = nl ? (gsize) (nl - data) : len;
  return n > 6 && memcmp (data, "# @(#)", 6) == 0
         && (g_strstr_len ((const char *) data, (gssize) n, "/gprof/gprof.callg,") != NULL
             || g_strstr_len ((const char *) data, (gssize) n, "/gprof/gprof.flat,") != NULL);
}

gboolean
cg_gprof_report_detect (const guint8 *data, gsize len, G_GNUC_UNUSED gboolean complete)
{
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    data += 3, len -= 3;
  return prefix (data, len, FLAT_HEADING "\n\n" SAMPLE_COUNTS)
         || prefix_granularity (data, len, GRAPH_HEADING_BRIEF "\n\n\n" GRANULARITY)
         || prefix_granularity (data, len, GRAPH_HEADING "\n\n\n" GRANULARITY)
         /* gprof -T, with -b and without */
         || prefix_granularity (data, len, "\n" GRANULARITY) || prefix (data, len, "\n\n\ncall graph profile:\n")
         || prefix (data, len, "\n\n\nflat profile:\n") || aix_report (data, len);
}
