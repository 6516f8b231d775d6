/* cg-test.c — CUnit set-up and helpers for the unit tests. */
#include "config.h"

#include "cg-test.h"

#include <stdarg.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
cg_test_main (const char *suite, const CgTestCase *cases)
{
  if (CU_initialize_registry () != CUE_SUCCESS)
    return 99;
  CU_pSuite s = CU_add_suite (suite, NULL, NULL);
  if (s == NULL)
    {
      CU_cleanup_registry ();
      return 99;
    }
  for (const CgTestCase *c = cases; c->name; c++)
    if (CU_add_test (s, c->name, c->run) == NULL)
      {
        CU_cleanup_registry ();
        return 99;
      }
  CU_basic_set_mode (CU_BRM_VERBOSE);
  if (CU_basic_run_tests () != CUE_SUCCESS)
    {
      CU_cleanup_registry ();
      return 99;
    }
  unsigned failed = CU_get_number_of_tests_failed ();
  unsigned run = CU_get_number_of_tests_run ();
  CU_cleanup_registry ();
  if (run == 0)
    return 99;
  return failed ? 1 : 0;
}

char *
cg_test_temp_file (const char *contents, gssize len)
{
  char *path = NULL;
  int fd = g_file_open_tmp ("cgtest-XXXXXX", &path, NULL);
  g_assert (fd >= 0);
  close (fd);
  g_assert (g_file_set_contents (path, contents, len, NULL));
  return path;
}

void
cg_test_remove (char *path)
{
  if (path)
    unlink (path);
  g_free (path);
}

CgProfile *
cg_test_read_string (const char *contents, GError **error)
{
  char *path = cg_test_temp_file (contents, -1);
  CgProfile *p = cg_profile_new ();
  if (!cg_read_file (p, path, NULL, error))
    g_clear_pointer (&p, cg_profile_free);
  cg_test_remove (path);
  return p;
}

CgProfile *
cg_test_profile_new (CgKind kind, const char *name, ...)
{
  CgProfile *p = cg_profile_new ();
  guint e;
  g_assert (cg_profile_ensure_event (p, "time", "seconds", kind, &e, NULL) && e == 0);
  va_list ap;
  va_start (ap, name);
  for (; name != NULL; name = va_arg (ap, const char *))
    cg_graph_ensure_function (cg_profile_graph (p), "o", name);
  va_end (ap);
  return p;
}

void
cg_test_assert_error (const GError *error, int code, const char *fragment, const char *file, int line)
{
  CU_assertImplementation (error != NULL, (unsigned) line, "error is set", file, "", CU_FALSE);
  if (error == NULL)
    return;
  gboolean ok = error->domain == CG_ERROR && error->code == code;
  CU_assertImplementation (ok, (unsigned) line, "error code as expected", file, "", CU_FALSE);
  if (fragment)
    {
      gboolean found = strstr (error->message, fragment) != NULL;
      if (!found)
        fprintf (stderr, "\n  message \"%s\" lacks \"%s\"\n", error->message, fragment);
      CU_assertImplementation (found, (unsigned) line, "error message names the problem", file, "", CU_FALSE);
    }
}

guint64
cg_test_total (CgGraph *g, const CgCosts *c, const char *name)
{
  for (CgFunctionId f = 0; f < cg_graph_n_functions (g); f++)
    if (strcmp (cg_graph_function_name (g, f), name) == 0)
      return cg_costs_total_const (c, f)[0].n;
  return G_MAXUINT64;
}
