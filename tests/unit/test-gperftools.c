/* test-gperftools.c — /proc/PID/maps text (cg-proc-maps), ELF functions by
 * mapped address (cg-elf-functions) and the gperftools CPU profile reader
 * on profiles made here.
 *
 * Oracles: lines written as proc_pid_maps(5) gives them; this test's own
 * functions, whose run-time addresses the compiler knows, placed through
 * this process's real /proc/self/maps and symbolized back to their names
 * (PIE or not, as the test was built); hand-made profiles whose stacks and
 * counts are known, and the offsets of the bytes that are wrong.
 */
#include "config.h"

#include <string.h>

#include "cg-elf-functions.h"
#include "cg-proc-maps.h"
#include "cg-read-gperftools.h"
#include "cg-test.h"

/* Two functions of this test whose addresses are looked up: global
 * symbols of the test's executable. */
G_GNUC_NO_INLINE void cg_test_gperftools_leaf (void);
G_GNUC_NO_INLINE void cg_test_gperftools_caller (void);

static volatile int sink;

G_GNUC_NO_INLINE void
cg_test_gperftools_leaf (void)
{
  sink++;
}

G_GNUC_NO_INLINE void
cg_test_gperftools_caller (void)
{
  cg_test_gperftools_leaf ();
  sink++;
}

static void
test_maps_parse (void)
{
  static const char text[] =
    "00400000-00452000 r-xp 00000000 08:02 173521      /usr/bin/dbus-daemon\n"
    "00651000-00652000 r--p 00051000 08:02 173521      /usr/bin/dbus-daemon\n"
    "7f2c0000-7f2c1000 r-xp 00003000 fd:01 42 /opt/my app/lib x.so (deleted)\n"
    "7fff0000-7fff2000 r-xp 00000000 00:00 0                  [vdso]\n"
    "7ffe0000-7ffe1000 r-xp 00000000 00:00 0\n"
    "garbage line\n"
    "50000000-40000000 r-xp 00000000 00:00 0 /backwards\n"
    "60000000-60001000 r-xp 00000000 00:00 0 /no/newline";
  g_autoptr (CgProcMaps) maps = cg_proc_maps_parse (text, sizeof text - 1);
  guint n;
  const CgProcMap *m = cg_proc_maps_array (maps, &n);
  CU_ASSERT_EQUAL_FATAL (n, 5);
  CU_ASSERT_STRING_EQUAL (m[0].path, "/usr/bin/dbus-daemon");
  CU_ASSERT_EQUAL (m[0].inode, 173521);
  CU_ASSERT_EQUAL (m[1].start, 0x60000000);
  CU_ASSERT_STRING_EQUAL (m[1].path, "/no/newline");
  CU_ASSERT_STRING_EQUAL (m[2].path, "/opt/my app/lib x.so");
  CU_ASSERT_TRUE (m[2].deleted);
  CU_ASSERT_EQUAL (m[2].offset, 0x3000);
  CU_ASSERT_STRING_EQUAL (m[3].path, "");
  CU_ASSERT_STRING_EQUAL (m[4].path, "[vdso]");
  CU_ASSERT_PTR_EQUAL (cg_proc_maps_find (maps, 0x400000), &m[0]);
  CU_ASSERT_PTR_EQUAL (cg_proc_maps_find (maps, 0x451fff), &m[0]);
  CU_ASSERT_PTR_NULL (cg_proc_maps_find (maps, 0x452000));
  CU_ASSERT_PTR_NULL (cg_proc_maps_find (maps, 0x651000)); /* not executable */
  CU_ASSERT_PTR_NULL (cg_proc_maps_find (maps, 0x3fffff));
  CU_ASSERT_PTR_EQUAL (cg_proc_maps_find (maps, 0x7fff1fff), &m[4]);
  /* a NUL byte makes its line no mapping */
  static const char nul[] = "00400000-00452000 r-xp 00000000 08:02 1 /a\0b\n";
  g_autoptr (CgProcMaps) none = cg_proc_maps_parse (nul, sizeof nul - 1);
  cg_proc_maps_array (none, &n);
  CU_ASSERT_EQUAL (n, 0);
}

/* This process's maps, as gperftools saves them at the end of a profile. */
static char *
own_maps (gsize *len)
{
  char *text = NULL;
  if (!g_file_get_contents ("/proc/self/maps", &text, len, NULL))
    return NULL;
  return text;
}

/* The name the maps and the mapped file give @address of this process. */
static const char *
name_of (const CgProcMaps *maps, CgElfFunctions **loaded, guint64 address)
{
  const CgProcMap *m = cg_proc_maps_find (maps, address);
  if (m == NULL)
    return NULL;
  if (*loaded == NULL)
    *loaded = cg_elf_functions_load (m->path, NULL);
  guint64 object_address;
  if (*loaded == NULL || !cg_elf_functions_address (*loaded, address - m->start + m->offset, &object_address))
    return NULL;
  return cg_elf_functions_lookup (*loaded, object_address, NULL);
}

static void
test_own_functions (void)
{
  gsize len;
  g_autofree char *text = own_maps (&len);
  if (text == NULL)
    return; /* no /proc: nothing to compare with */
  g_autoptr (CgProcMaps) maps = cg_proc_maps_parse (text, len);
  CgElfFunctions *exe = NULL;
  guint64 leaf = (guint64) (guintptr) cg_test_gperftools_leaf, caller = (guint64) (guintptr) cg_test_gperftools_caller;
  CU_ASSERT_STRING_EQUAL (name_of (maps, &exe, leaf), "cg_test_gperftools_leaf");
  CU_ASSERT_STRING_EQUAL (name_of (maps, &exe, caller + 1), "cg_test_gperftools_caller");
  CU_ASSERT_TRUE (exe != NULL && cg_elf_functions_count (exe) > 10);
  cg_elf_functions_free (exe);
  GError *error = NULL;
  CU_ASSERT_PTR_NULL (cg_elf_functions_load ("/nonexistent/lib.so", &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "/nonexistent/lib.so");
  g_clear_error (&error);
  CU_ASSERT_PTR_NULL (cg_elf_functions_load ("/dev/null", &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "not a regular file");
  g_clear_error (&error);
  CU_ASSERT_PTR_NULL (cg_elf_functions_load ("/proc/self/maps", &error));
  g_clear_error (&error);
}

/* A profile in 8-byte little-endian words: header (period 2000 us), the
 * @n words of @records, the trailer, then @maps. */
static GByteArray *
profile (const guint64 *records, guint n, const char *maps, gsize maps_len)
{
  GByteArray *b = g_byte_array_new ();
  guint64 header[] = { 0, 3, 0, 2000, 0 }, trailer[] = { 0, 1, 0 };
  for (guint part = 0; part < 3; part++)
    {
      const guint64 *w = part == 0 ? header : part == 1 ? records : trailer;
      guint k = part == 0 ? 5 : part == 1 ? n : 3;
      for (guint i = 0; i < k; i++)
        {
          guint8 x[8];
          for (guint j = 0; j < 8; j++)
            x[j] = (guint8) (w[i] >> (8 * j));
          g_byte_array_append (b, x, 8);
        }
    }
  g_byte_array_append (b, (const guint8 *) maps, (guint) maps_len);
  return b;
}

/* Reads @len bytes at @data (through a file, as cgmerge reads one). */
static CgProfile *
read_bytes (const char *data, gssize len, GError **error)
{
  char *path = cg_test_temp_file (data, len);
  CgProfile *p = cg_profile_new ();
  if (!cg_read_file (p, path, NULL, error))
    g_clear_pointer (&p, cg_profile_free);
  cg_test_remove (path);
  return p;
}

static guint64
self_of (CgProfile *p, const char *name, const char *event)
{
  CgGraph *g = cg_profile_graph (p);
  guint n = cg_graph_n_functions (g);
  gint e = cg_graph_find_event (g, event);
  for (CgFunctionId f = 0; e >= 0 && f < n; f++)
    if (strcmp (cg_graph_function_name (g, f), name) == 0)
      return cg_graph_self (g, f)[e].n;
  return G_MAXUINT64;
}

static void
test_read_own (void)
{
  gsize len;
  g_autofree char *maps = own_maps (&len);
  if (maps == NULL)
    return;
  guint64 leaf = (guint64) (guintptr) cg_test_gperftools_leaf, caller = (guint64) (guintptr) cg_test_gperftools_caller;
  /* the leaf's PC, then a return address just past the caller's first
   * byte (less 1, its first byte), and the leaf's PC again (an unwinder
   * that found it twice: dropped) */
  guint64 records[] = { 5, 2, leaf + 1, caller + 1, 2, 3, leaf, leaf, caller + 1 };
  g_autoptr (GByteArray) b = profile (records, G_N_ELEMENTS (records), maps, len);
  CU_ASSERT_TRUE (cg_gperftools_detect (b->data, MIN (b->len, 4096), FALSE));
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes ((const char *) b->data, (gssize) b->len, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL (self_of (p, "cg_test_gperftools_leaf", "samples"), 7);
  CU_ASSERT_EQUAL (self_of (p, "cg_test_gperftools_leaf", "cpu"), 7 * 2000 * 1000);
  CU_ASSERT_EQUAL (self_of (p, "cg_test_gperftools_caller", "samples"), 0);
  CgGraph *g = cg_profile_graph (p);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 2);
  CU_ASSERT_EQUAL (cg_graph_n_arcs (g), 1);
  CU_ASSERT_EQUAL (cg_tree_n_frames (cg_profile_tree (p)), 2);
}

static void
test_damage (void)
{
  static const char maps[] = "00400000-00402000 r-xp 00000000 08:01 1 /nonexistent/prog\n";
  guint64 records[] = { 3, 2, 0x400010, 0x400020, 1, 1, 0x400030 };
  g_autoptr (GByteArray) b = profile (records, G_N_ELEMENTS (records), maps, sizeof maps - 1);
  static const struct {
    guint at;           /* word index changed */
    guint64 value;
    int code;
    const char *message;
  } cases[] = {
    { 9, 0, CG_ERROR_PARSE, "offset 72: a record with a count of 0 and 1 PCs" },
    { 10, 0, CG_ERROR_PARSE, "offset 72: a record of depth 0" },
    { 10, 100, CG_ERROR_TRUNCATED, "offset 72: a record of 100 PCs, and the input ends" },
    { 6, G_MAXUINT64, CG_ERROR_PARSE, "offset 40: a record of 18446744073709551615 PCs, more than any" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GByteArray) c = g_byte_array_new ();
      g_byte_array_append (c, b->data, b->len);
      for (guint j = 0; j < 8; j++)
        c->data[cases[i].at * 8 + j] = (guint8) (cases[i].value >> (8 * j));
      GError *error = NULL;
      g_autoptr (CgProfile) p = read_bytes ((const char *) c->data, (gssize) c->len, &error);
      CU_ASSERT_PTR_NULL (p);
      CG_ASSERT_ERROR (error, cases[i].code, cases[i].message);
      g_clear_error (&error);
    }
  /* cut before the trailer, and inside the header */
  for (guint cut = 0; cut < 2; cut++)
    {
      GError *error = NULL;
      g_autoptr (CgProfile) p = read_bytes ((const char *) b->data, cut ? 24 : 13 * 8, &error);
      CU_ASSERT_PTR_NULL (p);
      CG_ASSERT_ERROR (error, CG_ERROR_TRUNCATED, cut ? "offset 24: the input ends inside the header"
                                                      : "offset 96: the input ends before the trailer");
      g_clear_error (&error);
    }
  /* a file it cannot read: [prog], 4 samples */
  GError *error = NULL;
  g_autoptr (CgProfile) p = read_bytes ((const char *) b->data, (gssize) b->len, &error);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  CU_ASSERT_EQUAL (self_of (p, "[prog]", "samples"), 4);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "maps text", test_maps_parse },
    { "this test's functions through its maps", test_own_functions },
    { "a profile of this test's functions", test_read_own },
    { "damaged and cut profiles", test_damage },
    { NULL, NULL },
  };
  return cg_test_main ("gperftools", cases);
}
