/* test-read-amon.c — the amon.out reader on hand-made files.
 *
 * Each file is built byte by byte here, little-endian as formats/amon.md
 * says, so the tests do not depend on the runtime that writes them.
 * Oracles: the values put in the file (times converted at the stated
 * rate), Spivey's rules applied by hand to the few contexts, and for bad
 * files the offset of the byte that is wrong.
 */
#include "config.h"

#include <string.h>

#include "../../src/amon/amon-format.h"
#include "cg-test.h"

static void
u32 (GByteArray *b, guint32 v)
{
  guint8 x[4] = { (guint8) v, (guint8) (v >> 8), (guint8) (v >> 16), (guint8) (v >> 24) };
  g_byte_array_append (b, x, 4);
}

static void
u64 (GByteArray *b, guint64 v)
{
  u32 (b, (guint32) v);
  u32 (b, (guint32) (v >> 32));
}

static void
put32 (GByteArray *b, guint at, guint32 v)
{
  for (int i = 0; i < 4; i++)
    b->data[at + i] = (guint8) (v >> (8 * i));
}

static void
put64 (GByteArray *b, guint at, guint64 v)
{
  put32 (b, at, (guint32) v);
  put32 (b, at + 4, (guint32) (v >> 32));
}

/* the version the files are written in, unless a test says otherwise */
static guint32 file_version = AMON_VERSION;

static void
header (GByteArray *b, guint32 clock, guint64 rate, guint32 flags)
{
  g_byte_array_append (b, (const guint8 *) AMON_MAGIC, AMON_MAGIC_LEN);
  u32 (b, file_version);
  u32 (b, AMON_HEADER_SIZE);
  u32 (b, flags);
  u32 (b, clock);
  u64 (b, rate);
  u64 (b, 1000);  /* resolution, ps */
  u64 (b, 20000); /* overhead, ps */
  u64 (b, 42);    /* pid */
  u64 (b, 0);
}

/* Starts a section; returns where its length goes. */
static guint
section (GByteArray *b, guint32 tag)
{
  u32 (b, tag);
  u32 (b, 0);
  guint at = b->len;
  u64 (b, 0);
  return at;
}

static void
end_section (GByteArray *b, guint at)
{
  put64 (b, at, b->len - at - 8);
}

typedef struct {
  guint32 len;
  guint32 hist[8];
  guint64 ticks, entries, recursive;
  guint32 parent; /* 1 + an earlier context whose history hist starts with: only the rest is written */
} Ctx;

#define M(r) ((r) << 1 | 1)
#define U(r) ((r) << 1)

/* the routines' names: main=0 f=1 g=2 (g unnamed) unless a test says otherwise */
static const char *const default_names[] = { "main", "f", "" };
static const char *const *names = default_names;
static guint32 n_names = 3;
/* routine r's offset in /bin/prog: 0x100 * (r + 1) unless a test says otherwise */
static const guint64 *offsets;
/* TOTALS' fields, and the calls signal handlers made inside a hook (field
 * 17), unless a test says otherwise */
static int n_totals = AMON_TOTAL_N;
static guint64 unseen_calls;

/* routines 0-2 named by names[] in /bin/prog (main object, bias 0x1000) */
static GByteArray *
sample (const Ctx *contexts, guint n, guint64 outside, guint64 rate)
{
  GByteArray *b = g_byte_array_new ();
  header (b, AMON_CLOCK_CPU, rate, 0);
  guint at = section (b, AMON_SECTION_OBJECTS);
  u32 (b, 1);
  u64 (b, 0x1000);
  u32 (b, AMON_OBJECT_MAIN);
  u32 (b, 9);
  g_byte_array_append (b, (const guint8 *) "/bin/prog", 9);
  end_section (b, at);
  at = section (b, AMON_SECTION_ROUTINES);
  u32 (b, n_names);
  for (guint32 r = 0; r < n_names; r++)
    {
      u64 (b, 0x1000 + (offsets ? offsets[r] : 0x100 * (r + 1)));
      u32 (b, 0);
      u32 (b, (guint32) strlen (names[r]));
      g_byte_array_append (b, (const guint8 *) names[r], (guint) strlen (names[r]));
    }
  end_section (b, at);
  at = section (b, AMON_SECTION_CONTEXTS);
  u64 (b, n);
  guint64 time = outside, calls = 0, rec = 0;
  for (guint k = 0; k < n; k++)
    {
      u32 (b, contexts[k].len);
      u32 (b, contexts[k].parent);
      u64 (b, contexts[k].ticks);
      u64 (b, contexts[k].entries);
      u64 (b, contexts[k].recursive);
      for (guint i = contexts[k].parent ? contexts[contexts[k].parent - 1].len : 0; i < contexts[k].len; i++)
        u32 (b, contexts[k].hist[i]);
      time += contexts[k].ticks;
      calls += contexts[k].entries;
      rec += contexts[k].recursive;
    }
  end_section (b, at);
  at = section (b, AMON_SECTION_TOTALS);
  for (int i = 0; i < n_totals; i++)
    u64 (b, i == AMON_TOTAL_TIME ? time : i == AMON_TOTAL_OUTSIDE ? outside : i == AMON_TOTAL_CALLS ? calls
                                                                      : i == AMON_TOTAL_RECURSIVE ? rec
                                                                      : i == AMON_TOTAL_UNSEEN ? unseen_calls : 1);
  end_section (b, at);
  section (b, AMON_SECTION_END);
  return b;
}

/* main -> f -> g -> f -> g (mutual recursion f <-> g), f recursing
 * directly: rate 2 GHz, so ticks / 2 = ns */
static const Ctx mutual[] = {
  { 1, { M (0) }, 200, 1, 0, 0 },
  { 2, { M (0), M (1) }, 400, 1, 3, 0 },
  { 3, { M (0), M (1), M (2) }, 600, 1, 0, 0 },
  { 4, { M (0), U (1), M (2), M (1) }, 800, 1, 0, 0 },
  { 5, { M (0), U (1), U (2), M (1), M (2) }, 1000, 1, 0, 0 },
};

static CgProfile *
read_bytes (GByteArray *b, CgReadOptions *options, GError **error)
{
  char *path = cg_test_temp_file ((const char *) b->data, b->len);
  CgProfile *p = cg_profile_new ();
  if (!cg_read_file (p, path, options, error))
    g_clear_pointer (&p, cg_profile_free);
  cg_test_remove (path);
  return p;
}

static CgFunctionId
fn (CgGraph *g, const char *name)
{
  return cg_graph_lookup_function (g, cg_graph_intern (g, "/bin/prog", -1), cg_graph_intern (g, name, -1));
}

static guint64
arc_value (CgGraph *g, const CgCosts *c, const CgValue *(*get) (const CgCosts *, CgArcId), const char *a, const char *b)
{
  CgArcId arc = cg_graph_lookup_arc (g, fn (g, a), fn (g, b));
  CU_ASSERT_FATAL (arc != CG_NO_ID);
  return get (c, arc)[0].n;
}

static void
test_mutual_recursion (void)
{
  g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 50, 2000000000u);
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_graph_n_events (g), 1);
  CU_ASSERT_STRING_EQUAL (cg_graph_event_name (g, 0), "cpu-time");
  CU_ASSERT_DOUBLE_EQUAL (cg_graph_event_scale (g, 0), 1e-9, 1e-20);
  /* the unnamed routine at 0x1300, bias 0x1000 */
  CU_ASSERT (fn (g, "0x300") != CG_NO_ID);
  CgFunctionId m = fn (g, "main"), f = fn (g, "f"), x = fn (g, "0x300");
  CU_ASSERT_EQUAL (cg_graph_self_const (g, m)[0].n, 100);
  CU_ASSERT_EQUAL (cg_graph_self_const (g, f)[0].n, 200 + 400);
  CU_ASSERT_EQUAL (cg_graph_self_const (g, x)[0].n, 300 + 500);
  /* entries: calls on the arc into the running routine */
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, m, f)), 1);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, f, x)), 2);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, x, f)), 1);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, f, f)), 3);

  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_AUTO, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_method (c), CG_METHOD_EXACT);
  /* totals: each context once to each distinct routine */
  CU_ASSERT_EQUAL (cg_costs_total_const (c, m)[0].n, 1500);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, f)[0].n, 1400);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, x)[0].n, 1200);
  /* by hand, item by item (ns); self when the arc's callee is the
   * running routine (Spivey compares routines, not activations):
   *  [m f]             200: [m]f: main->f self1; m[f]: main->f self2
   *  [m f g]           300: [m]f: main->f child1; m[f]g: main->f child2,
   *                         f->g self1; f[g]: f->g self2
   *  [m (f) g f]       400: [m]f: f runs, main->f self1; f[g]f: f->g
   *                         child2, g->f self1; g[f]: g->f self2
   *  [m (f) (g) f g]   500: [m]f: main->f child1; g[f]g: g->f child2,
   *                         f->g self1; f[g]: f->g self2 */
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_self_const, "main", "f"), 200 + 400);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_children_const, "main", "f"), 300 + 500);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_self2_const, "main", "f"), 200);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_children2_const, "main", "f"), 300);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_self_const, "f", "0x300"), 300 + 500);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_children_const, "f", "0x300"), 0);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_self2_const, "f", "0x300"), 300 + 500);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_children2_const, "f", "0x300"), 400);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_self_const, "0x300", "f"), 400);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_self2_const, "0x300", "f"), 400);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_children2_const, "0x300", "f"), 500);
  CU_ASSERT_EQUAL (arc_value (g, c, cg_costs_arc_const, "main", "f"), 1400);

  /* as calls into outermost activations: each context to the arc before
   * each routine's first entry, main's to main's spontaneous cost; so
   * every total is its incoming arcs' sum, and g->f carries nothing */
  guint na = cg_graph_n_arcs (g), nf = cg_graph_n_functions (g);
  g_autofree CgValue *in = g_new0 (CgValue, na), *sp = g_new0 (CgValue, nf);
  CU_ASSERT_TRUE (cg_spivey_entering (p, in, sp, NULL));
  CU_ASSERT_EQUAL (sp[m].n, 1500);
  CU_ASSERT_EQUAL (sp[f].n + sp[x].n, 0);
  CU_ASSERT_EQUAL (in[cg_graph_lookup_arc (g, m, f)].n, 1400);
  CU_ASSERT_EQUAL (in[cg_graph_lookup_arc (g, f, x)].n, 1200);
  CU_ASSERT_EQUAL (in[cg_graph_lookup_arc (g, x, f)].n, 0);
  CU_ASSERT_EQUAL (in[cg_graph_lookup_arc (g, f, f)].n, 0);

  /* the cycle actually traversed: f, g closed twice (g->f, f->g) */
  g_autoptr (GArray) cycles = cg_spivey_traversed_cycles (p, &error);
  CU_ASSERT_EQUAL_FATAL (cycles->len, 1);
  CgTraversedCycle *t = &g_array_index (cycles, CgTraversedCycle, 0);
  CU_ASSERT_EQUAL (t->n_members, 2);
  CU_ASSERT_EQUAL (t->traversals, 2);
  CU_ASSERT_EQUAL (t->cost[0].n, 400 + 500);
  g_clear_error (&error);
}

/* A parser, expr -> term -> factor -> expr, on "(1)+(2)": each factor
 * calls work; the contexts libamon wrote for it (times made up, 1 GHz).
 * A4 dropped term from the last two histories, so expr's two entries
 * there hold only expr and factor between them, yet the run never went
 * round a cycle of those two: the one cycle is expr, term, factor, closed
 * by the calls of expr, term and factor that made the last three
 * contexts but one (2 each), and open in those and in the one under them. */
static void
test_cycle_never_traversed (void)
{
  static const char *const parser[] = { "main", "expr", "term", "factor", "work" };
  static const Ctx contexts[] = {
    { 1, { M (0) }, 100, 1, 0, 0 },
    { 2, { M (0), M (1) }, 100, 1, 0, 0 },
    { 3, { M (0), M (1), M (2) }, 100, 2, 0, 0 },
    { 4, { M (0), M (1), M (2), M (3) }, 100, 2, 0, 0 },
    { 5, { M (0), M (1), M (2), M (3), M (4) }, 1000, 2, 0, 0 },
    { 5, { M (0), U (1), M (2), M (3), M (1) }, 10, 2, 0, 0 },
    { 6, { M (0), U (1), U (2), M (3), M (1), M (2) }, 20, 2, 0, 0 },
    { 6, { M (0), U (1), U (3), M (1), M (2), M (3) }, 40, 2, 0, 0 },
    { 7, { M (0), U (1), U (3), M (1), M (2), M (3), M (4) }, 1000, 2, 0, 0 },
  };
  names = parser;
  n_names = G_N_ELEMENTS (parser);
  g_autoptr (GByteArray) b = sample (contexts, G_N_ELEMENTS (contexts), 0, 1000000000u);
  names = default_names;
  n_names = 3;
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  g_autoptr (GArray) cycles = cg_spivey_traversed_cycles (p, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cycles);
  CU_ASSERT_EQUAL_FATAL (cycles->len, 1);
  CgTraversedCycle *t = &g_array_index (cycles, CgTraversedCycle, 0);
  CU_ASSERT_EQUAL_FATAL (t->n_members, 3);
  CgFunctionId want[] = { fn (g, "expr"), fn (g, "term"), fn (g, "factor") };
  for (guint i = 0; i < 3; i++)
    {
      gboolean found = FALSE;
      for (guint j = 0; j < 3; j++)
        found |= t->members[j] == want[i];
      CU_ASSERT_TRUE (found);
    }
  CU_ASSERT_EQUAL (t->traversals, 6);
  CU_ASSERT_EQUAL (t->cost[0].n, 10 + 20 + 40 + 1000);
}

/* The note every view prints: what the monitor took out as its own cost
 * (TOTALS field 15), of what it measured (that plus field 4), at the
 * average per event, and how the cost was calibrated (CALIBRATION,
 * version 2; version 1: the header's cost); a warning where the cost is
 * most of the measurement.  The numbers are the ones put in the file:
 * 3050 ns charged, 9150 taken out (75%, so an error of 10% in the cost
 * moves the times by 10 * 75/25 = 30%), 5 calls + 3 recursive + 1
 * return (9150 / 9 = 1016.67 ns each), 20 ns per event in the header. */
static void
test_cost_note (void)
{
  g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  guint end = b->len - AMON_SECTION_HEADER_SIZE;
  put64 (b, end - 8 * AMON_TOTAL_N + 8 * AMON_TOTAL_OVERHEAD, 9150);
  g_byte_array_set_size (b, end);
  guint at = section (b, AMON_SECTION_CALIBRATION);
  u64 (b, 40);
  u32 (b, 20);
  u32 (b, 0);
  u64 (b, 20000);
  u64 (b, 19000);
  u64 (b, 21000);
  u64 (b, 90000);
  end_section (b, at);
  section (b, AMON_SECTION_END);
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL_FATAL (cg_profile_n_sources (p), 1);
  /* the views' summary, and the note in full (the inputs' report) */
  CU_ASSERT_STRING_EQUAL (cg_profile_source (p, 0)->note,
                          "instrumentation cost taken out: 9.15e-06 s of 1.22e-05 s measured (9 calls and returns);"
                          " the times are dominated by the probe: 75% of what was measured was the monitor's");
  const char *note = cg_profile_source (p, 0)->detail;
  CU_ASSERT_PTR_NOT_NULL_FATAL (note);
  CU_ASSERT_STRING_EQUAL (note, "instrumentation cost taken out: 9.15e-06 s of 1.22e-05 s measured (9 calls and"
                                " returns, 1016.67 ns each on average with the monitor's other work (threads' set-up,"
                                " calibrations); the cost in force was the lowest of the last"
                                " 20 of 40 calibrations over the run: lowest 19.00, median 21.00, highest 90.00 ns);"
                                " the times are dominated by the"
                                " probe: 75% of what was measured was the monitor's, so an error of 10% in its cost"
                                " per call moves them by 30%");

  /* version 1: no CALIBRATION section, one calibration at start-up; the
   * cost taken out (1 ns) is small: no warning */
  g_autoptr (GByteArray) old = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  put32 (old, 8, 1);
  g_autoptr (CgProfile) q = read_bytes (old, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CU_ASSERT_STRING_EQUAL (cg_profile_source (q, 0)->note,
                          "instrumentation cost taken out: 1e-09 s of 3.05e-06 s measured (9 calls and returns)");
  CU_ASSERT_STRING_EQUAL (cg_profile_source (q, 0)->detail,
                          "instrumentation cost taken out: 1e-09 s of 3.05e-06 s measured (9 calls and returns at"
                          " 20.00 ns each, calibrated once at start-up)");

  /* the samples' fields (80 bytes), then the split's (88): 600 of 1000
   * samples in the program's code, 1000 clock units (1 us) taken from the
   * contexts, 1 thread checked, 1 whose split the samples set, at a
   * weight of 84.3% */
  g_autoptr (GByteArray) c = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  end = c->len - AMON_SECTION_HEADER_SIZE;
  g_byte_array_set_size (c, end);
  at = section (c, AMON_SECTION_CALIBRATION);
  u64 (c, 40);
  u32 (c, 20);
  u32 (c, 0);
  u64 (c, 20000);
  u64 (c, 19000);
  u64 (c, 21000);
  u64 (c, 90000);
  u64 (c, 600);
  u64 (c, 400);
  u64 (c, (guint64) -1000);
  u64 (c, 1);
  u32 (c, 1);
  u32 (c, 843);
  end_section (c, at);
  section (c, AMON_SECTION_END);
  g_autoptr (CgProfile) r = read_bytes (c, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (r);
  note = cg_profile_source (r, 0)->detail;
  CU_ASSERT_PTR_NULL (strstr (cg_profile_source (r, 0)->note, "samples"));
  CU_ASSERT_PTR_NOT_NULL (strstr (note, "; the run's own samples, 600 of 1000 in the program's code, give the"
                                        " program's time to within 5%, and the calibrations do not: the total was"
                                        " moved 1e-06 s down to it"));
  CU_ASSERT_PTR_NOT_NULL (strstr (note, "; in 1 of the threads checked their split between contexts disputed the"
                                        " calibrations' beyond its noise"));
  CU_ASSERT_PTR_NOT_NULL (strstr (note, "and the samples set up to 84% of it there"));
  /* a weight past a whole, as a hostile file may give, is left out */
  put32 (c, at + 8 + 84, 4000000000u); /* at: the section's length, then its record */
  g_autoptr (CgProfile) h = read_bytes (c, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (h);
  CU_ASSERT_PTR_NULL (strstr (cg_profile_source (h, 0)->detail, "their split between contexts"));
  /* and where the probe held most of the time (9150 of 12200 ns taken
   * out, as above), the samples that set the total read it low, or high
   * where the program's code ran slower beside the monitor (jsonnet
   * 0.18's bench.06: 13-65% above the bare run): both said */
  put32 (c, at + 8 + 84, 843);
  put64 (c, end - 8 * AMON_TOTAL_N + 8 * AMON_TOTAL_OVERHEAD, 9150);
  g_autoptr (CgProfile) d = read_bytes (c, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (d);
  CU_ASSERT_PTR_NOT_NULL (strstr (cg_profile_source (d, 0)->note, "the times are dominated by the probe"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cg_profile_source (d, 0)->detail, "and their total may read 20-40% low: the"
                                  " program's own work that ran beside the hooks' counter reads is seen by no sample; or"
                                  " high, as much or more, where the program's own code ran slower beside the monitor"));
  CU_ASSERT_PTR_NULL (strstr (cg_profile_source (r, 0)->detail, "may read 20-40% low"));
}

/* The blind windows' estimate where only some of the threads had them
 * (SQLite 3.40's shell with PRAGMA threads=4: 1 of 67 threads, the
 * sorter's workers too short): the three estimates are sums over
 * different threads (the calibrations' over all), so the note compares
 * them over the threads the blind windows set, and says that the total
 * it gives is theirs, and what the others hold.  Here 3 threads, 3,050
 * ns charged in all; the blind windows set 1,000 ns of one thread, which
 * the samples checked alone; the calibrations put all three at 6,050 ns,
 * so that thread at 6,050 - (3,050 - 1,000) = 4,000 ns; its samples at
 * 800 ns; 400 of the blind windows' 1,000 samples in the program's code:
 * two standard errors of 7.7%. */
static void
test_blind_part (void)
{
  for (guint checked = 1; checked <= 2; checked++)
    {
      g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
      guint end = b->len - AMON_SECTION_HEADER_SIZE;
      put64 (b, end - 8 * AMON_TOTAL_N + 8 * AMON_TOTAL_THREADS, 3);
      g_byte_array_set_size (b, end);
      guint at = section (b, AMON_SECTION_CALIBRATION);
      u64 (b, 40);
      u32 (b, 20);
      u32 (b, 0);
      u64 (b, 20000);
      u64 (b, 19000);
      u64 (b, 21000);
      u64 (b, 90000);
      u64 (b, 600);      /* samples in the program's code */
      u64 (b, 400);      /* in the monitor's */
      u64 (b, 0);        /* no correction's residue */
      u64 (b, checked);  /* threads checked */
      u32 (b, 0);
      u32 (b, 0);
      u64 (b, 1000000);  /* blind windows' events */
      u64 (b, 5000);     /* their CPU time */
      u64 (b, 400);      /* their samples in the program's code */
      u64 (b, 600);      /* in the monitor's */
      u64 (b, 1);        /* threads the blind windows set */
      u64 (b, 6050);     /* the calibrations' estimate, all threads */
      u64 (b, 800);      /* all the samples', the threads checked */
      u64 (b, 1000);     /* the blind windows', their thread */
      end_section (b, at);
      section (b, AMON_SECTION_END);
      GError *error = NULL;
      g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
      CU_ASSERT_PTR_NOT_NULL_FATAL (p);
      const char *note = cg_profile_source (p, 0)->note, *detail = cg_profile_source (p, 0)->detail;
      CU_ASSERT_PTR_NOT_NULL_FATAL (note);
      CU_ASSERT_PTR_NOT_NULL_FATAL (detail);
      if (checked == 1)
        {
          CU_ASSERT (g_str_has_prefix (note, "the total of 1 of the 3 threads is an estimate, 1e-06 s (its samples'"
                                             " error 8%), within a range of 8e-07 to 4e-06 s; "));
          CU_ASSERT_PTR_NOT_NULL (strstr (note, "; 2 of the 3 threads had too few samples to check the cost per"
                                                " call (2.05e-06 s of the total)"));
          CU_ASSERT (g_str_has_prefix (detail, "the total of 1 of the 3 threads (those whose blind windows had the"
                                               " samples) is an estimate, 1e-06 s (its samples' error 8%), within a"
                                               " range of 8e-07 to 4e-06 s: the calibrations put their own time at"
                                               " 4e-06 s and all their samples at 8e-07 s, "));
          CU_ASSERT_PTR_NOT_NULL (strstr (detail, ": the others keep the calibrated cost (2.05e-06 s of the total)"));
        }
      else
        {
          /* a thread checked without blind windows: the other two
           * estimates are not known over the blind windows' thread */
          CU_ASSERT (g_str_has_prefix (note, "instrumentation cost taken out: "));
          CU_ASSERT (g_str_has_prefix (detail, "instrumentation cost taken out: "));
          CU_ASSERT_PTR_NULL (strstr (detail, "of the total"));
        }
    }
}

/* The calls a signal handler made while it interrupted one of the
 * monitor's hooks, which the monitor left out and counted (TOTALS field
 * 17), are said after the cost's note; a file of the first libamon, whose
 * TOTALS has 17 fields, is read as before. */
static void
test_unseen_note (void)
{
  GError *error = NULL;
  unseen_calls = 1415;
  g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  const char *note = cg_profile_source (p, 0)->note;
  CU_ASSERT_PTR_NOT_NULL_FATAL (note);
  CU_ASSERT (g_str_has_prefix (note, "instrumentation cost taken out: "));
  CU_ASSERT (g_str_has_suffix (note, "; 1415 calls that signal handlers made while they interrupted the monitor's"
                                     " hooks are not in the profile: their time is charged where they interrupted"
                                     " (libamon(3), CAVEATS)"));
  /* the first files: 17 fields, no such count */
  n_totals = AMON_TOTAL_MIN;
  g_autoptr (GByteArray) old = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  n_totals = AMON_TOTAL_N;
  unseen_calls = 0;
  g_autoptr (CgProfile) q = read_bytes (old, NULL, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (q);
  CU_ASSERT_PTR_NULL (strstr (cg_profile_source (q, 0)->note, "signal handlers"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cg_profile_source (q, 0)->note, "instrumentation cost taken out: "));
  /* fewer than 17 is an error */
  n_totals = AMON_TOTAL_MIN - 1;
  g_autoptr (GByteArray) short_totals = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  n_totals = AMON_TOTAL_N;
  g_autoptr (CgProfile) r = read_bytes (short_totals, NULL, &error);
  CU_ASSERT_PTR_NULL (r);
  CU_ASSERT_PTR_NOT_NULL_FATAL (error);
  CU_ASSERT_PTR_NOT_NULL (strstr (error->message, "the totals section has 128 bytes, 136 expected"));
  g_clear_error (&error);
}

static void
test_merge_sums (void)
{
  g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  char *path = cg_test_temp_file ((const char *) b->data, b->len);
  g_autoptr (CgProfile) p = cg_profile_new ();
  CU_ASSERT (cg_read_file (p, path, NULL, NULL));
  CU_ASSERT (cg_read_file (p, path, NULL, NULL));
  cg_test_remove (path);
  CU_ASSERT_EQUAL (cg_contexts_n (cg_profile_contexts (p)), G_N_ELEMENTS (mutual));
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_graph_self_const (g, fn (g, "f"))[0].n, 2 * (400 + 800));
  CU_ASSERT_EQUAL (cg_contexts_recursive (cg_profile_contexts (p), 1), 6);
  CU_ASSERT_EQUAL (cg_profile_n_sources (p), 2);
}

static void
warned (const char *message, gpointer data)
{
  g_string_append_printf (data, "%s\n", message);
}

/* Two runs' files with the two CPU clocks: the sum is made, and said to
 * mix them (cgmerge took the first one's description without a word). */
static void
test_merge_mixed_clocks (void)
{
  g_autoptr (GByteArray) a = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  put32 (b, 20, AMON_CLOCK_SAMPLE);
  char *pa = cg_test_temp_file ((const char *) a->data, a->len), *pb = cg_test_temp_file ((const char *) b->data, b->len);
  g_autoptr (GString) w = g_string_new (NULL);
  CgReadOptions o = { .warn = warned, .warn_data = w };
  g_autoptr (CgProfile) p = cg_profile_new ();
  CU_ASSERT (cg_read_file (p, pa, &o, NULL));
  CU_ASSERT_STRING_EQUAL (w->str, "");
  CU_ASSERT (cg_read_file (p, pa, &o, NULL));
  CU_ASSERT_STRING_EQUAL (w->str, "");
  CU_ASSERT (cg_read_file (p, pb, &o, NULL));
  CU_ASSERT_PTR_NOT_NULL (strstr (w->str, ": its cpu-time is CPU time of each thread, sampled (libamon, AMON_CLOCK=sample),"
                                          " an earlier input's CPU time of each thread (libamon, AMON_CLOCK=cpu): the sum"
                                          " mixes the two"));
  cg_test_remove (pa);
  cg_test_remove (pb);
  CU_ASSERT_EQUAL (cg_graph_self_const (cg_profile_graph (p), fn (cg_profile_graph (p), "f"))[0].n, 3 * (400 + 800));
}

static void
test_stopped_and_lenient (void)
{
  g_autoptr (GByteArray) b = sample (mutual, 2, 0, 1000000000u);
  /* insert a STOPPED section before END and set the flag */
  g_byte_array_set_size (b, b->len - AMON_SECTION_HEADER_SIZE);
  put32 (b, 16, AMON_FLAG_STOPPED);
  guint at = section (b, AMON_SECTION_STOPPED);
  u32 (b, AMON_STOP_DEPTH);
  u32 (b, 5);
  g_byte_array_append (b, (const guint8 *) "depth", 5);
  end_section (b, at);
  section (b, AMON_SECTION_END);
  g_autoptr (GString) w = g_string_new (NULL);
  CgReadOptions o = { .warn = warned, .warn_data = w };
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, &o, &error);
  CU_ASSERT_PTR_NOT_NULL (p);
  CU_ASSERT (strstr (w->str, "stopped early") != NULL);
  CU_ASSERT (strstr (w->str, "depth") != NULL);
}

typedef struct {
  const char *what;
  guint at;          /* byte to change, from the start */
  int width;         /* 4 or 8 */
  guint64 value;
  gint truncate;     /* > 0: keep only this many bytes */
  int code;
  const char *fragment;
} Bad;

static void
test_malformed (void)
{
  g_autoptr (GByteArray) good = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  /* offsets in the sample: header 64; OBJECTS at 64 (payload 80..109);
   * ROUTINES at 109 (payload 125..); see the layout in formats/amon.md */
  guint objects = 64, routines = objects + 16 + 4 + 16 + 9;
  guint contexts = routines + 16 + 4 + 3 * 16 + 4 + 1;
  guint first_ctx = contexts + 16 + 8;
  const Bad cases[] = {
    { "short header", 0, 0, 0, 40, CG_ERROR_TRUNCATED, "offset 40: the file ends inside its 64-byte header" },
    { "version", 8, 4, 4, 0, CG_ERROR_UNSUPPORTED, "offset 8: amon.out version 4" },
    { "old version", 8, 4, 0, 0, CG_ERROR_UNSUPPORTED, "offset 8: amon.out version 0" },
    { "header size", 12, 4, 1u << 30, 0, CG_ERROR_PARSE, "offset 12: header size" },
    { "clock", 20, 4, 9, 0, CG_ERROR_PARSE, "offset 20: unknown clock 9" },
    { "rate", 24, 8, 0, 0, CG_ERROR_PARSE, "offset 24: the clock rate is 0" },
    { "section past the end", objects + 8, 8, 1u << 20, 0, CG_ERROR_TRUNCATED, "runs past the end of the file" },
    { "object count", objects + 16, 4, 1000000, 0, CG_ERROR_PARSE, "1000000 objects cannot fit" },
    { "path length", objects + 16 + 4 + 12, 4, 500, 0, CG_ERROR_PARSE, "an object's path needs 500 bytes" },
    { "routine count", routines + 16, 4, G_MAXUINT32, 0, CG_ERROR_PARSE, "4294967295 routines cannot fit" },
    { "routine object", routines + 16 + 4 + 8, 4, 7, 0, CG_ERROR_PARSE, "refers to object 7 of 1" },
    { "context count", contexts + 16, 8, G_MAXUINT64, 0, CG_ERROR_PARSE, "contexts cannot fit" },
    { "empty history", first_ctx, 4, 0, 0, CG_ERROR_PARSE, "has an empty history" },
    { "long history", first_ctx, 4, 1000000, 0, CG_ERROR_PARSE, "history of 1000000 entries cannot fit" },
    { "routine index", first_ctx + 32, 4, M (3), 0, CG_ERROR_PARSE, "refers to routine 3 of 3" },
    { "unmarked last", first_ctx + 32, 4, U (0), 0, CG_ERROR_PARSE, "last entry is unmarked" },
    { "later parent", first_ctx + 4, 4, 1, 0, CG_ERROR_PARSE, "offset 210: context 0 names context 0 as its parent, not an earlier one" },
    /* the second context: 1 entry, its parent the first, of 1 entry */
    { "no longer than its parent", first_ctx + 36, 8, 1 | (guint64) 1 << 32, 0, CG_ERROR_PARSE,
      "offset 242: context 1's history of 1 entries does not extend its parent's of 1" },
    { "no END", 0, 0, 0, -AMON_SECTION_HEADER_SIZE, CG_ERROR_TRUNCATED, "ends before its END section" },
    { "totals", 0, 0, 0, 0, CG_ERROR_MISMATCH, "the totals say" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Bad *c = &cases[i];
      g_autoptr (GByteArray) b = g_byte_array_new ();
      g_byte_array_append (b, good->data, good->len);
      if (c->width == 4)
        put32 (b, c->at, (guint32) c->value);
      else if (c->width == 8)
        put64 (b, c->at, c->value);
      if (c->truncate > 0)
        g_byte_array_set_size (b, (guint) c->truncate);
      else if (c->truncate < 0)
        g_byte_array_set_size (b, b->len - (guint) -c->truncate);
      if (c->code == CG_ERROR_MISMATCH)
        put64 (b, b->len - 16 - 8 * AMON_TOTAL_N + 8 * AMON_TOTAL_TIME, 12345);
      GError *error = NULL;
      g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
      if (p != NULL || error == NULL || strstr (error->message, c->fragment) == NULL)
        printf ("case %s: %s\n", c->what, error ? error->message : "no error");
      CU_ASSERT_PTR_NULL (p);
      CG_ASSERT_ERROR (error, c->code, c->fragment);
      g_clear_error (&error);
    }
  /* the same mismatch is a warning when lenient */
  g_autoptr (GByteArray) b = g_byte_array_new ();
  g_byte_array_append (b, good->data, good->len);
  put64 (b, b->len - 16 - 8 * AMON_TOTAL_N + 8 * AMON_TOTAL_TIME, 12345);
  g_autoptr (GString) w = g_string_new (NULL);
  CgReadOptions o = { .lenient = TRUE, .warn = warned, .warn_data = w };
  g_autoptr (CgProfile) p = read_bytes (b, &o, NULL);
  CU_ASSERT_PTR_NOT_NULL (p);
  CU_ASSERT (strstr (w->str, "the totals say 12345 clock units") != NULL);
}

/* Version 3: a context that names its parent holds only the entries past
 * the parent's history (one, or several), and reads as the same contexts
 * written in full in version 3 and in version 2: histories, marks,
 * entries, recursive calls and times, context by context. */
static void
test_parents (void)
{
  static const Ctx chain[] = {
    { 1, { M (0) }, 200, 1, 0, 0 },
    { 2, { M (0), M (1) }, 400, 1, 3, 1 },
    { 3, { M (0), M (1), M (2) }, 600, 1, 0, 2 },
    { 4, { M (0), U (1), M (2), M (1) }, 800, 1, 0, 1 },
    { 5, { M (0), U (1), U (2), M (1), M (2) }, 1000, 1, 0, 1 },
  };
  _Static_assert (G_N_ELEMENTS (chain) == G_N_ELEMENTS (mutual), "the contexts of mutual");
  g_autoptr (GByteArray) b = sample (chain, G_N_ELEMENTS (chain), 50, 1000000000u);
  g_autoptr (GByteArray) full = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  file_version = 2;
  g_autoptr (GByteArray) v2 = sample (mutual, G_N_ELEMENTS (mutual), 50, 1000000000u);
  file_version = AMON_VERSION;
  CU_ASSERT_EQUAL (full->len - b->len, 4 * (1 + 2 + 1 + 1));
  g_autoptr (CgProfile) p = read_bytes (b, NULL, NULL);
  CU_ASSERT_FATAL (p != NULL);
  for (int v = 0; v < 2; v++)
    {
      g_autoptr (CgProfile) q = read_bytes (v ? v2 : full, NULL, NULL);
      CU_ASSERT_FATAL (q != NULL);
      CgContexts *a = cg_profile_contexts (p), *c = cg_profile_contexts (q);
      CU_ASSERT_EQUAL_FATAL (cg_contexts_n (a), G_N_ELEMENTS (mutual));
      CU_ASSERT_EQUAL_FATAL (cg_contexts_n (c), G_N_ELEMENTS (mutual));
      for (CgContextId k = 0; k < G_N_ELEMENTS (mutual); k++)
        {
          guint la, lc;
          const CgFunctionId *fa = cg_contexts_functions (a, k, &la), *fc = cg_contexts_functions (c, k, &lc);
          CU_ASSERT_EQUAL (la, mutual[k].len);
          CU_ASSERT_EQUAL_FATAL (la, lc);
          CU_ASSERT (memcmp (fa, fc, la * sizeof *fa) == 0);
          CU_ASSERT (memcmp (cg_contexts_marks (a, k), cg_contexts_marks (c, k), la) == 0);
          for (guint i = 0; i < la; i++)
            CU_ASSERT_EQUAL (cg_contexts_marks (a, k)[i], mutual[k].hist[i] & 1);
          CU_ASSERT_EQUAL (cg_contexts_entries (a, k), cg_contexts_entries (c, k));
          CU_ASSERT_EQUAL (cg_contexts_recursive (a, k), mutual[k].recursive);
          CU_ASSERT_EQUAL (cg_contexts_recursive (a, k), cg_contexts_recursive (c, k));
          CU_ASSERT_EQUAL (cg_contexts_cost_const (a, k)[0].n, mutual[k].ticks);
          CU_ASSERT_EQUAL (cg_contexts_cost_const (a, k)[0].n, cg_contexts_cost_const (c, k)[0].n);
        }
    }
}

static void
test_marks_checked (void)
{
  Ctx bad[] = { { 3, { M (0), M (1), M (1) }, 1, 1, 0, 0 } };
  g_autoptr (GByteArray) b = sample (bad, 1, 0, 1000000000u);
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NULL (p);
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "repeats the one before it");
  g_clear_error (&error);
  Ctx bad2[] = { { 3, { M (1), M (0), M (1) }, 1, 1, 0, 0 } };
  g_autoptr (GByteArray) b2 = sample (bad2, 1, 0, 1000000000u);
  g_autoptr (CgProfile) p2 = read_bytes (b2, NULL, &error);
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "marked at an entry that is not its last");
  g_clear_error (&error);
}

/* Two routines f at one offset of one object (a library loaded twice)
 * are one function of cgtools: their histories, valid over routines, are
 * made valid over functions, and a call from one to the other is a direct
 * recursion of f.  The XML written reads back (the fuzzer found that it
 * did not). */
static void
test_aliased_routines (void)
{
  static const char *const two_f[] = { "main", "f", "f" };
  static const guint64 one_offset[] = { 0x100, 0x200, 0x200 };
  static const Ctx contexts[] = {
    { 1, { M (0) }, 100, 1, 0, 0 },
    { 2, { M (0), M (1) }, 200, 3, 0, 0 },
    { 3, { M (0), M (1), M (2) }, 400, 5, 2, 0 },
    { 2, { M (0), M (2) }, 800, 7, 0, 0 },
    { 4, { M (0), U (1), M (2), M (1) }, 1600, 11, 0, 0 },
  };
  names = two_f;
  offsets = one_offset;
  g_autoptr (GByteArray) b = sample (contexts, G_N_ELEMENTS (contexts), 0, 1000000000u);
  names = default_names;
  offsets = NULL;
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NULL (error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CgArcId main_f = cg_graph_lookup_arc (g, fn (g, "main"), fn (g, "f"));
  CgArcId f_f = cg_graph_lookup_arc (g, fn (g, "f"), fn (g, "f"));
  CU_ASSERT_FATAL (main_f != CG_NO_ID && f_f != CG_NO_ID);
  /* entries of main f, twice; the calls f -> f and f's own recursion */
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, main_f), 3 + 7);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, f_f), 5 + 2 + 11);
  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_EXACT, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, fn (g, "main"))[0].n, 3100);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, fn (g, "f"))[0].n, 3000);
  char *xml = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&xml, &len);
  CU_ASSERT_FATAL (cg_write_xml (p, f, "aliases", NULL));
  fclose (f);
  g_autoptr (CgProfile) q = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("aliases.xml", (const guint8 *) xml, len);
  CU_ASSERT (cg_read_input (q, in, NULL, &error));
  CU_ASSERT_PTR_NULL (error);
  g_clear_error (&error);
  free (xml);
}

/* Two static functions f of two files (one name, two offsets of one
 * object) are two functions, each in the object "/bin/prog@0xOFFSET", as
 * gprof lists them apart: their calls are not summed, and f calling the
 * other f is no recursion.  Oracle: the contexts written, by hand. */
static void
test_same_name_apart (void)
{
  static const char *const two_f[] = { "main", "f", "f" };
  static const Ctx contexts[] = {
    { 1, { M (0) }, 100, 1, 0, 0 },
    { 2, { M (0), M (1) }, 200, 3, 0, 0 },
    { 3, { M (0), M (1), M (2) }, 400, 5, 0, 0 },
    { 2, { M (0), M (2) }, 800, 7, 0, 0 },
  };
  names = two_f;
  g_autoptr (GByteArray) b = sample (contexts, G_N_ELEMENTS (contexts), 0, 1000000000u);
  names = default_names;
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes (b, NULL, &error);
  CU_ASSERT_PTR_NULL (error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId f1 = cg_graph_lookup_function (g, cg_graph_intern (g, "/bin/prog@0x200", -1), cg_graph_intern (g, "f", -1));
  CgFunctionId f2 = cg_graph_lookup_function (g, cg_graph_intern (g, "/bin/prog@0x300", -1), cg_graph_intern (g, "f", -1));
  CU_ASSERT_FATAL (f1 != CG_NO_ID && f2 != CG_NO_ID && f1 != f2);
  CU_ASSERT_EQUAL (cg_graph_lookup_arc (g, f1, f1), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_graph_lookup_arc (g, f2, f2), CG_NO_ID);
  CgArcId m1 = cg_graph_lookup_arc (g, fn (g, "main"), f1), m2 = cg_graph_lookup_arc (g, fn (g, "main"), f2);
  CgArcId a12 = cg_graph_lookup_arc (g, f1, f2);
  CU_ASSERT_FATAL (m1 != CG_NO_ID && m2 != CG_NO_ID && a12 != CG_NO_ID);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, m1), 3);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, m2), 7);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, a12), 5);
  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_EXACT, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, f1)[0].n, 600);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, f2)[0].n, 1200);
}

static void
test_collapse_keeps_totals (void)
{
  g_autoptr (GByteArray) b = sample (mutual, G_N_ELEMENTS (mutual), 0, 1000000000u);
  g_autoptr (CgProfile) p = read_bytes (b, NULL, NULL);
  CU_ASSERT_FATAL (cg_collapse_cycles (p, NULL));
  CgGraph *g = cg_profile_graph (p);
  g_autoptr (CgCosts) c = cg_method_compute (p, CG_METHOD_EXACT, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (c);
  CgFunctionId cyc = cg_graph_lookup_function (g, cg_graph_intern (g, "", -1), cg_graph_intern (g, "<cycle 1>", -1));
  CU_ASSERT_FATAL (cyc != CG_NO_ID);
  /* the cycle f, g is active in every context but main's */
  CU_ASSERT_EQUAL (cg_costs_total_const (c, cyc)[0].n, 400 + 600 + 800 + 1000);
  CU_ASSERT_EQUAL (cg_costs_total_const (c, fn (g, "main"))[0].n, 3000);
  CgArcId a = cg_graph_lookup_arc (g, fn (g, "main"), cyc);
  CU_ASSERT_FATAL (a != CG_NO_ID);
  CU_ASSERT_EQUAL (cg_costs_arc_const (c, a)[0].n, 2800);
}

/* The invariant as formats/amon.md states it, by brute force: every
 * entry is marked exactly when no later entry has its routine; the last
 * two entries differ. */
static gboolean
history_ok (const CgFunctionId *f, const guint8 *m, guint len)
{
  if (len == 0 || (len >= 2 && f[len - 1] == f[len - 2]))
    return FALSE;
  for (guint i = 0; i < len; i++)
    {
      gboolean later = FALSE;
      for (guint j = i + 1; j < len; j++)
        later |= f[j] == f[i];
      if (later == (m[i] != 0))
        return FALSE;
    }
  return TRUE;
}

/* cg_contexts_check_history keeps the routines seen in a table on the
 * stack for histories up to 512 entries and in a GHashTable past that:
 * both agree with the brute force, on valid histories and on ones with
 * one mark flipped. */
static void
test_history_check (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  CgFunctionId f[700];
  guint8 m[700];
  guint checked = 0, valid = 0;
  for (guint round = 0; round < 3000; round++)
    {
      guint len = 1 + g_rand_int_range (rand, 0, round % 3 == 2 ? 700 : round % 3 ? 300 : 40);
      guint nr = 1 + g_rand_int_range (rand, 0, len);
      for (guint i = 0; i < len; i++)
        f[i] = g_rand_int_range (rand, 0, nr);
      /* the right marks, then perhaps one wrong */
      for (guint i = 0; i < len; i++)
        {
          m[i] = 1;
          for (guint j = i + 1; j < len; j++)
            if (f[j] == f[i])
              m[i] = 0;
        }
      if (g_rand_boolean (rand))
        m[g_rand_int_range (rand, 0, len)] ^= 1;
      const char *why = NULL;
      gboolean ok = cg_contexts_check_history (f, m, len, &why);
      CU_ASSERT_EQUAL (ok, history_ok (f, m, len));
      CU_ASSERT (ok || why != NULL);
      checked++;
      valid += ok;
    }
  CU_ASSERT (valid > 100 && valid < checked - 100);
  g_rand_free (rand);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "history invariants: short and long histories against brute force", test_history_check },
    { "mutual recursion: totals, the four arc times, traversed cycles", test_mutual_recursion },
    { "a cycle the run never went round is not listed", test_cycle_never_traversed },
    { "the instrumentation cost taken out is noted", test_cost_note },
    { "the blind windows' estimate of some threads says so", test_blind_part },
    { "the calls of signal handlers left out are noted", test_unseen_note },
    { "two files sum", test_merge_sums },
    { "two files of the two CPU clocks sum, with a warning", test_merge_mixed_clocks },
    { "a stopped profile is read with a warning", test_stopped_and_lenient },
    { "malformed files: offsets and codes", test_malformed },
    { "mark bits are checked", test_marks_checked },
    { "version 3's parents read as histories written in full", test_parents },
    { "routines at one offset are one function", test_aliased_routines },
    { "routines of one name at two offsets are two functions", test_same_name_apart },
    { "collapsing cycles keeps exact totals", test_collapse_keeps_totals },
    { NULL, NULL },
  };
  return cg_test_main ("read-amon", cases);
}
