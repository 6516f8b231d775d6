/* test-read-gmon.c — the gmon.out reader on hand-made files against the
 * bundled exprparse executable (x86-64, non-PIE): what it credits and
 * links, computed by hand from gprof's rules, and every way a file can be
 * broken, each with its error code and byte offset. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cg-test.h"

/* symbols of data/gmon/exprparse/exprparse (readelf -s) */
#define MAIN 0x401140u
#define FRAME_DUMMY 0x4013d0u
#define SKIP_SPACE 0x4013e0u
#define EVAL_ALL 0x401b30u
#define FINI 0x401c4cu
#define ETEXT 0x401c55u

static char *
exe_path (void)
{
  const char *top = g_getenv ("top_srcdir");
  return g_build_filename (top ? top : ".", "data", "gmon", "exprparse", "exprparse", NULL);
}

/* ---- building files ---- */

static void
put32 (GByteArray *b, guint32 v)
{
  v = GUINT32_TO_LE (v);
  g_byte_array_append (b, (const guint8 *) &v, 4);
}

static void
put64 (GByteArray *b, guint64 v)
{
  v = GUINT64_TO_LE (v);
  g_byte_array_append (b, (const guint8 *) &v, 8);
}

static GByteArray *
header (guint32 version)
{
  GByteArray *b = g_byte_array_new ();
  g_byte_array_append (b, (const guint8 *) "gmon", 4);
  put32 (b, version);
  for (int i = 0; i < 12; i++)
    g_byte_array_append (b, (const guint8 *) "", 1);
  return b;
}

static void
histogram (GByteArray *b, guint64 low, guint64 high, guint32 n, const guint16 *bins)
{
  guint8 tag = 0;
  g_byte_array_append (b, &tag, 1);
  put64 (b, low);
  put64 (b, high);
  put32 (b, n);
  put32 (b, 100);
  char dim[15] = "seconds";
  g_byte_array_append (b, (const guint8 *) dim, 15);
  g_byte_array_append (b, (const guint8 *) "s", 1);
  for (guint32 i = 0; i < n; i++)
    {
      guint16 v = GUINT16_TO_LE (bins ? bins[i] : 0);
      g_byte_array_append (b, (const guint8 *) &v, 2);
    }
}

static void
arc (GByteArray *b, guint64 from, guint64 self, guint32 count)
{
  guint8 tag = 1;
  g_byte_array_append (b, &tag, 1);
  put64 (b, from);
  put64 (b, self);
  put32 (b, count);
}

/* Reads the files @files (NULL-terminated byte arrays) into one profile,
 * with @exe (NULL: the exprparse binary).  Frees the arrays. */
static CgProfile *
read_files (GByteArray **files, const char *exe, gboolean bsd_allowed, GError **error)
{
  g_autofree char *default_exe = exe_path ();
  CgReadOptions options = { .executable = exe ? exe : default_exe };
  (void) bsd_allowed;
  g_autoptr (CgProfile) p = cg_profile_new ();
  gboolean ok = TRUE;
  for (guint i = 0; files[i]; i++)
    {
      char *path = cg_test_temp_file ((const char *) files[i]->data, files[i]->len);
      if (ok)
        ok = cg_read_file (p, path, &options, error);
      cg_test_remove (path);
      g_byte_array_unref (files[i]);
    }
  return ok ? g_steal_pointer (&p) : NULL;
}

static CgProfile *
read_one (GByteArray *b, GError **error)
{
  GByteArray *files[] = { b, NULL };
  return read_files (files, NULL, FALSE, error);
}

/* The object the reader names the executable's functions by: its
 * absolute path without symbolic links. */
static char *
exe_object (void)
{
  g_autofree char *exe = exe_path ();
  char *real = realpath (exe, NULL);
  return real ? real : g_steal_pointer (&exe);
}

static gdouble
self_of (CgProfile *p, const char *name)
{
  g_autofree char *exe = exe_object ();
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId f = cg_graph_lookup_function (g, cg_graph_intern (g, exe, -1), cg_graph_intern (g, name, -1));
  CU_ASSERT_NOT_EQUAL_FATAL (f, CG_NO_ID);
  return cg_graph_self_const (g, f)[0].x;
}

static guint64
calls_of (CgProfile *p, const char *caller, const char *callee)
{
  g_autofree char *exe = exe_object ();
  CgGraph *g = cg_profile_graph (p);
  const char *o = cg_graph_intern (g, exe, -1);
  CgFunctionId a = cg_graph_lookup_function (g, o, cg_graph_intern (g, caller, -1));
  CgFunctionId b = cg_graph_lookup_function (g, o, cg_graph_intern (g, callee, -1));
  CU_ASSERT_NOT_EQUAL_FATAL (a, CG_NO_ID);
  CU_ASSERT_NOT_EQUAL_FATAL (b, CG_NO_ID);
  CgArcId arc_id = cg_graph_lookup_arc (g, a, b);
  return arc_id == CG_NO_ID ? 0 : cg_graph_arc_calls (g, arc_id);
}

/* 16 samples in a bin of 3.2 units (6.4 bytes) that covers 4 bytes of
 * frame_dummy and 2 of skip_space: gprof's rule gives them 2 × 16 / 3.2
 * and 1 × 16 / 3.2 ticks. */
static GByteArray *
straddling_file (void)
{
  GByteArray *b = header (1);
  guint16 bins[5] = { 0, 0, 16, 0, 0 };
  histogram (b, FRAME_DUMMY, FRAME_DUMMY + 32, 5, bins);
  arc (b, MAIN + 0x10, SKIP_SPACE + 10, 7);
  arc (b, MAIN + 0x10, EVAL_ALL + 4, 2);
  arc (b, MAIN + 0x20, SKIP_SPACE + 10, 1); /* same pair: summed */
  arc (b, MAIN + 0x10, ETEXT + 1, 3);        /* not a function: charged to _fini */
  arc (b, MAIN + 0x10, 0x300000, 5);         /* no symbol: dropped */
  return b;
}

static void
test_credit_and_arcs (void)
{
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_one (straddling_file (), &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_DOUBLE_EQUAL (self_of (p, "frame_dummy"), 2.0 * 16 / 3.2, 1e-12);
  CU_ASSERT_DOUBLE_EQUAL (self_of (p, "skip_space"), 1.0 * 16 / 3.2, 1e-12);
  CU_ASSERT_EQUAL (calls_of (p, "main", "skip_space"), 8);
  CU_ASSERT_EQUAL (calls_of (p, "main", "eval_all"), 2);
  CU_ASSERT_EQUAL (calls_of (p, "main", "_fini"), 3);
  CU_ASSERT_EQUAL (cg_graph_n_arcs (cg_profile_graph (p)), 3);
  CgHistogram *h = cg_profile_histogram (p);
  CU_ASSERT_PTR_NOT_NULL_FATAL (h);
  CU_ASSERT_EQUAL (cg_histogram_rate (h), 100);
  CU_ASSERT_EQUAL (cg_histogram_samples (h), 16);
  CU_ASSERT_EQUAL (cg_histogram_granularity (h), 6);
  CU_ASSERT_TRUE (cg_histogram_call_graph (h));
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_DOUBLE_EQUAL (cg_graph_event_scale (g, 0), 0.01, 1e-15);
  CU_ASSERT_STRING_EQUAL (cg_graph_event_unit (g, 0), "seconds");
  /* every kept symbol is a function, in address order */
  CU_ASSERT_STRING_EQUAL (cg_graph_function_name (g, 0), "_init");
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 25);
}

/* Summed files are credited from the summed bins, as gprof does. */
static void
test_sum_recredits (void)
{
  GError *error = NULL;
  GByteArray *files[] = { straddling_file (), straddling_file (), straddling_file (), NULL };
  g_autoptr (CgProfile) p = read_files (files, NULL, FALSE, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  gdouble width = (gdouble) (32 / 2) / 5;
  CU_ASSERT_EQUAL (self_of (p, "frame_dummy"), 2.0 * 48.0 / width);
  CU_ASSERT_EQUAL (self_of (p, "skip_space"), 1.0 * 48.0 / width);
  CU_ASSERT_EQUAL (calls_of (p, "main", "skip_space"), 24);
  CU_ASSERT_EQUAL (cg_histogram_samples (cg_profile_histogram (p)), 48);
}

/* The 4.4BSD layout of the same data reads the same. */
static void
test_bsd44 (void)
{
  GByteArray *b = g_byte_array_new ();
  put64 (b, FRAME_DUMMY);
  put64 (b, FRAME_DUMMY + 32);
  put32 (b, 40 + 2 * 5);
  put32 (b, 0x00051879);
  put32 (b, 100);
  for (int i = 0; i < 3; i++)
    put32 (b, 0);
  guint16 bins[5] = { 0, 0, 16, 0, 0 };
  g_byte_array_append (b, (const guint8 *) bins, sizeof bins);
  put64 (b, MAIN + 0x10);
  put64 (b, SKIP_SPACE + 10);
  put64 (b, 7);
  g_byte_array_append (b, (const guint8 *) "xyz", 3); /* a partial arc: ignored */
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_one (b, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_DOUBLE_EQUAL (self_of (p, "frame_dummy"), 10.0, 1e-12);
  CU_ASSERT_EQUAL (calls_of (p, "main", "skip_space"), 7);
  CU_ASSERT_EQUAL (cg_histogram_rate (cg_profile_histogram (p)), 100);
}

static void
test_header_only_and_bb (void)
{
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_one (header (1), &error);
  CU_ASSERT_PTR_NOT_NULL (p);
  GByteArray *b = header (1);
  guint8 tag = 2;
  g_byte_array_append (b, &tag, 1);
  put32 (b, 1);
  put64 (b, SKIP_SPACE);
  put64 (b, 5);
  g_autoptr (CgProfile) q = read_one (b, &error);
  CU_ASSERT_PTR_NOT_NULL (q);
}

/* ---- broken files: code, offset, message ---- */

typedef struct {
  const char *what;
  GByteArray *(*make) (void);
  int code;
  const char *fragment;
} Broken;

static GByteArray *
short_header (void)
{
  GByteArray *b = header (1);
  g_byte_array_set_size (b, 10);
  return b;
}

static GByteArray *
cut_histogram_header (void)
{
  GByteArray *b = header (1);
  histogram (b, FRAME_DUMMY, FRAME_DUMMY + 32, 5, NULL);
  g_byte_array_set_size (b, 20 + 1 + 30);
  return b;
}

static GByteArray *
cut_bins (void)
{
  GByteArray *b = header (1);
  histogram (b, FRAME_DUMMY, FRAME_DUMMY + 32, 5, NULL);
  g_byte_array_set_size (b, b->len - 3);
  return b;
}

static GByteArray *
cut_arc (void)
{
  GByteArray *b = header (1);
  arc (b, MAIN + 0x10, SKIP_SPACE + 10, 7);
  g_byte_array_set_size (b, b->len - 5);
  return b;
}

static GByteArray *
unknown_tag (void)
{
  GByteArray *b = header (1);
  guint8 tag = 7;
  g_byte_array_append (b, &tag, 1);
  return b;
}

static GByteArray *
bad_version (void)
{
  return header (2);
}

static GByteArray *
bad_magic (void)
{
  GByteArray *b = straddling_file ();
  b->data[3] = 'x';
  return b;
}

static GByteArray *
runtime_addresses (void)
{
  GByteArray *b = header (1);
  histogram (b, 0x555555554000, 0x555555555c78, 8, NULL);
  return b;
}

static GByteArray *
arc_outside (void)
{
  GByteArray *b = header (1);
  arc (b, 0x555555555150, SKIP_SPACE + 10, 7);
  return b;
}

static GByteArray *
huge_bin_count (void)
{
  GByteArray *b = header (1);
  histogram (b, FRAME_DUMMY, FRAME_DUMMY + 32, 5, NULL);
  /* n_bins := 0xffffffff: must be refused before anything is allocated */
  guint32 n = 0xffffffffu;
  memcpy (b->data + 20 + 1 + 16, &n, 4);
  return b;
}

static const Broken broken[] = {
  { "short header", short_header, CG_ERROR_TRUNCATED, "offset 10: the file ends inside the 20-byte" },
  { "cut histogram header", cut_histogram_header, CG_ERROR_TRUNCATED, "offset 51: the file ends inside a histogram record's header" },
  { "cut bins", cut_bins, CG_ERROR_TRUNCATED, "the file ends inside a histogram's bins" },
  { "cut arc", cut_arc, CG_ERROR_TRUNCATED, "offset 36: the file ends inside a call-graph arc" },
  { "unknown tag", unknown_tag, CG_ERROR_PARSE, "offset 20: unknown record tag 7" },
  { "bad version", bad_version, CG_ERROR_PARSE, "offset 4: unsupported gmon.out version 2" },
  { "bad magic", bad_magic, CG_ERROR_FORMAT, "offset 0: not a gmon.out file" },
  { "run-time addresses", runtime_addresses, CG_ERROR_MISMATCH, "offset 20: the histogram covers [0x555555554000" },
  { "arc outside", arc_outside, CG_ERROR_MISMATCH, "offset 20: the arc's caller address 0x555555555150 lies outside" },
  { "huge bin count", huge_bin_count, CG_ERROR_TRUNCATED, "the file ends inside a histogram's bins" },
};

static void
test_broken (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      GError *error = NULL;
      g_autoptr (CgProfile) p = read_one (broken[i].make (), &error);
      CU_ASSERT_PTR_NULL (p);
      CG_ASSERT_ERROR (error, broken[i].code, broken[i].fragment);
      /* every message names the file */
      CU_ASSERT_TRUE (error && strstr (error->message, "cgtest-") != NULL);
      g_clear_error (&error);
    }
}

static void
test_bad_executable (void)
{
  GError *error = NULL;
  GByteArray *files[] = { straddling_file (), NULL };
  g_autoptr (CgProfile) p = read_files (files, "/nonexistent/a.out", FALSE, &error);
  CU_ASSERT_PTR_NULL (p);
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "/nonexistent/a.out: ");
  g_clear_error (&error);
  /* a file that is not ELF */
  char *text = cg_test_temp_file ("not an executable\n", -1);
  GByteArray *files2[] = { straddling_file (), NULL };
  g_autoptr (CgProfile) q = read_files (files2, text, FALSE, &error);
  CU_ASSERT_PTR_NULL (q);
  CG_ASSERT_ERROR (error, CG_ERROR_FORMAT, "not an ELF executable");
  g_clear_error (&error);
  cg_test_remove (text);
}

/* A symbols cache loads an executable once for all the inputs that name
 * it: once loaded, the executable may even go away.  A failed load is
 * not kept. */
static void
test_symbols_cache (void)
{
  GError *error = NULL;
  g_autofree char *original = exe_path ();
  gchar *contents;
  gsize len;
  CU_ASSERT_TRUE_FATAL (g_file_get_contents (original, &contents, &len, NULL));
  char *exe = cg_test_temp_file (contents, (gssize) len);
  g_free (contents);
  g_autoptr (CgSymbolsCache) cache = cg_symbols_cache_new ();
  const CgSymbols *first = cg_symbols_cache_get (cache, exe, CG_SYMBOLS_GPROF, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (first);
  CU_ASSERT_PTR_EQUAL (cg_symbols_cache_get (cache, exe, CG_SYMBOLS_GPROF, &error), first);
  g_autoptr (CgSymbols) fresh = cg_symbols_load (exe, CG_SYMBOLS_GPROF, &error);
  guint n_cached, n_fresh;
  cg_symbols_array (first, &n_cached);
  cg_symbols_array (fresh, &n_fresh);
  CU_ASSERT_EQUAL (n_cached, n_fresh);

  CgReadOptions options = { .executable = exe, .symbols = cache };
  g_autoptr (CgProfile) p = cg_profile_new ();
  for (guint i = 0; i < 3; i++)
    {
      GByteArray *file = straddling_file ();
      char *path = cg_test_temp_file ((const char *) file->data, file->len);
      g_byte_array_unref (file);
      if (i == 1)
        cg_test_remove (g_strdup (exe)); /* gone: the cache still has it */
      CU_ASSERT_TRUE (cg_read_file (p, path, &options, &error));
      CU_ASSERT_PTR_NULL (error);
      g_clear_error (&error);
      cg_test_remove (path);
    }
  /* the same sums as three reads that each load the executable (the
   * functions' object is the copy's path) */
  CgGraph *g = cg_profile_graph (p);
  const char *object = cg_graph_intern (g, exe, -1);
  CgFunctionId frame_dummy = cg_graph_lookup_function (g, object, cg_graph_intern (g, "frame_dummy", -1));
  CgFunctionId main_f = cg_graph_lookup_function (g, object, cg_graph_intern (g, "main", -1));
  CgFunctionId skip_space = cg_graph_lookup_function (g, object, cg_graph_intern (g, "skip_space", -1));
  CU_ASSERT_FATAL (frame_dummy != CG_NO_ID && main_f != CG_NO_ID && skip_space != CG_NO_ID);
  gdouble width = (gdouble) (32 / 2) / 5;
  CU_ASSERT_EQUAL (cg_graph_self_const (g, frame_dummy)[0].x, 2.0 * 48.0 / width);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, main_f, skip_space)), 24);
  /* without the cache, the next input needs the executable again */
  GByteArray *files[] = { straddling_file (), NULL };
  g_autoptr (CgProfile) q = read_files (files, exe, FALSE, &error);
  CU_ASSERT_PTR_NULL (q);
  CG_ASSERT_ERROR (error, CG_ERROR_IO, exe);
  g_clear_error (&error);
  /* a failed load is not cached: it fails again, with its error */
  CU_ASSERT_PTR_NULL (cg_symbols_cache_get (cache, "/nonexistent/a.out", CG_SYMBOLS_GPROF, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "/nonexistent/a.out: ");
  g_clear_error (&error);
  CU_ASSERT_PTR_NULL (cg_symbols_cache_get (cache, "/nonexistent/a.out", CG_SYMBOLS_GPROF, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "/nonexistent/a.out: ");
  g_clear_error (&error);
  g_free (exe);
}

/* Histograms that gprof refuses to sum. */
static void
test_incompatible_histograms (void)
{
  GError *error = NULL;
  GByteArray *a = header (1), *b = header (1);
  histogram (a, FRAME_DUMMY, FRAME_DUMMY + 32, 8, NULL);
  histogram (b, FRAME_DUMMY + 16, FRAME_DUMMY + 48, 8, NULL);
  GByteArray *files[] = { a, b, NULL };
  g_autoptr (CgProfile) p = read_files (files, NULL, FALSE, &error);
  CU_ASSERT_PTR_NULL (p);
  CG_ASSERT_ERROR (error, CG_ERROR_MISMATCH, "overlapping histogram records");
  g_clear_error (&error);
  GByteArray *c = header (1), *d = header (1);
  histogram (c, FRAME_DUMMY, FRAME_DUMMY + 32, 8, NULL);
  histogram (d, FRAME_DUMMY + 64, FRAME_DUMMY + 96, 4, NULL);
  GByteArray *files2[] = { c, d, NULL };
  g_autoptr (CgProfile) q = read_files (files2, NULL, FALSE, &error);
  CU_ASSERT_PTR_NULL (q);
  CG_ASSERT_ERROR (error, CG_ERROR_MISMATCH, "different scales");
  g_clear_error (&error);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "credit and arcs", test_credit_and_arcs },
    { "sum re-credits the summed bins", test_sum_recredits },
    { "4.4BSD format", test_bsd44 },
    { "header only, basic blocks", test_header_only_and_bb },
    { "broken files", test_broken },
    { "bad executable", test_bad_executable },
    { "symbols cache", test_symbols_cache },
    { "incompatible histograms", test_incompatible_histograms },
    { NULL, NULL },
  };
  return cg_test_main ("read-gmon", cases);
}
