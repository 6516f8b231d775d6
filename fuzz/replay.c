/* replay.c — runs a fuzz target's LLVMFuzzerTestOneInput() on files, for
 * `make check` (the regression corpus in fuzz/regressions/TARGET, given by
 * name) and for reproducing a finding by hand:
 *   replay-callgrind crash-1234         one file
 *   replay-callgrind                    fuzz/regressions/callgrind/ *
 *   replay-detect                       fuzz/regressions/ * / * and fuzz/seeds/ * / *
 * Exit 0 when every input ran (a crash ends the process instead). */
#include "config.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

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

/* Replays the files in @dir, counting them in *@n; 99 when @dir cannot
 * be opened. */
static int
replay_dir (const char *dir, guint *n)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    {
      fprintf (stderr, "replay: no directory %s\n", dir);
      return 99;
    }
  int status = 0;
  guint before = *n;
  for (const char *name; (name = g_dir_read_name (d));)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          status |= replay_file (path);
          (*n)++;
        }
    }
  printf ("replayed %u inputs from %s\n", *n - before, dir);
  return status;
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
  /* the detectors' target meets every format's corpus: all the seeds and
   * regressions; the others their own regressions */
  gboolean all = strcmp (FUZZ_TARGET, "detect") == 0;
  const char *const kinds[] = { "regressions", "seeds" };
  guint n = 0;
  for (guint k = 0; k < (all ? 2u : 1u); k++)
    {
      g_autofree char *kind_dir = g_build_filename (top ? top : ".", "fuzz", kinds[k], NULL);
      g_autoptr (GDir) targets = all ? g_dir_open (kind_dir, 0, NULL) : NULL;
      const char *target = all ? (targets ? g_dir_read_name (targets) : NULL) : FUZZ_TARGET;
      for (; target; target = all ? g_dir_read_name (targets) : NULL)
        {
          g_autofree char *dir = g_build_filename (kind_dir, target, NULL);
          int rc = replay_dir (dir, &n);
          if (rc == 99 && all)
            continue; /* a file, not a corpus */
          status |= rc;
        }
    }
  if (n == 0)
    return 99;
  return status;
}
