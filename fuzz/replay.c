/* replay.c — runs a fuzz target's LLVMFuzzerTestOneInput() on files, for
 * `make check` (the regression corpus in fuzz/regressions/TARGET, given by
 * name) and for reproducing a finding by hand:
 *   replay-callgrind crash-1234         one file
 *   replay-callgrind                    fuzz/regressions/callgrind/ *
 * Exit 0 when every input ran (a crash ends the process instead). */
#include "config.h"

#include <glib.h>
#include <stdio.h>

#include "fuzz-common.h"

static int
replay_file (const char *path)
{
  g_autofree char *data = NULL;
  gsize len;
  if (!g_file_get_contents (path, &data, &len, NULL))
    {
      fprintf (stderr, "replay: cannot read %s\n", path);
      return 1;
    }
  LLVMFuzzerTestOneInput ((const uint8_t *) data, len);
  return 0;
}

int
main (int argc, char **argv)
{
  int status = 0;
  if (argc > 1)
    {
      for (int i = 1; i < argc; i++)
        status |= replay_file (argv[i]);
      return status;
    }
  const char *top = g_getenv ("top_srcdir");
  g_autofree char *dir = g_build_filename (top ? top : ".", "fuzz", "regressions", FUZZ_TARGET, NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    {
      fprintf (stderr, "replay: no directory %s\n", dir);
      return 99;
    }
  guint n = 0;
  for (const char *name; (name = g_dir_read_name (d));)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          status |= replay_file (path);
          n++;
        }
    }
  printf ("replayed %u inputs from %s\n", n, dir);
  return status;
}
