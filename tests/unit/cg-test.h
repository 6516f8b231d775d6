/* cg-test.h — the shared frame of cgtools' CUnit programs.
 *
 * CUnit's customary ending, `CU_cleanup_registry(); return CU_get_error();`,
 * returns 0 even when tests failed.  cg_test_main() returns what automake's
 * harness understands: 0 all passed, 1 a test failed, 77 skipped, 99 the
 * framework itself failed.
 */
#pragma once

#include <CUnit/Basic.h>
#include <glib.h>

#include "cg.h"

typedef struct {
  const char *name;
  CU_TestFunc run;
} CgTestCase;

/* Runs @cases (terminated by a {NULL, NULL} entry) as suite @suite. */
int cg_test_main (const char *suite, const CgTestCase *cases);

/* Writes @contents to a new temporary file and returns its path (free
 * with cg_test_remove). */
char *cg_test_temp_file (const char *contents, gssize len);
void cg_test_remove (char *path);

/* Reads @contents (any format cgmerge reads) into a new profile.  On
 * failure returns NULL and sets @error. */
CgProfile *cg_test_read_string (const char *contents, GError **error);

/* A new profile with one event "time" (seconds) of @kind, event 0, and
 * the functions named by the NULL-terminated arguments, ids 0, 1, ... in
 * object "o". */
CgProfile *cg_test_profile_new (CgKind kind, const char *name, ...) G_GNUC_NULL_TERMINATED;

/* Asserts that @error is set in CG_ERROR with @code and that its message
 * contains @fragment (NULL: anything). */
#define CG_ASSERT_ERROR(error, code, fragment) \
  cg_test_assert_error ((error), (code), (fragment), __FILE__, __LINE__)
void cg_test_assert_error (const GError *error, int code, const char *fragment, const char *file, int line);

/* Total of function @name (in any object) in @costs for event 0, or
 * G_MAXUINT64 when absent. */
guint64 cg_test_total (CgGraph *graph, const CgCosts *costs, const char *name);
