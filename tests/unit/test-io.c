/* test-io.c — inputs (files, pipes, long lines) and atomic outputs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cg-test.h"

static void
test_lines_from_file (void)
{
  char *path = cg_test_temp_file ("a\r\nbb\n\nccc", -1);
  g_autoptr (CgInput) in = cg_input_open (path, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (in);
  const char *line;
  gsize len;
  const char *want[] = { "a", "bb", "", "ccc" };
  for (guint i = 0; i < 4; i++)
    {
      CU_ASSERT_TRUE_FATAL (cg_input_next_line (in, &line, &len, NULL));
      CU_ASSERT_EQUAL (len, strlen (want[i]));
      CU_ASSERT_EQUAL (memcmp (line, want[i], len), 0);
      CU_ASSERT_EQUAL (cg_input_line_number (in), i + 1);
    }
  CU_ASSERT_FALSE (cg_input_line_terminated (in));
  CU_ASSERT_FALSE (cg_input_next_line (in, &line, &len, NULL));
  cg_test_remove (path);
}

/* Runs @check with @data fed through a pipe as stdin by a child process. */
static void
with_stdin_pipe (const char *data, gsize n, void (*check) (gpointer), gpointer user)
{
  int fds[2];
  CU_ASSERT_EQUAL_FATAL (pipe (fds), 0);
  pid_t pid = fork ();
  if (pid == 0)
    {
      close (fds[0]);
      for (gsize off = 0; off < n;)
        {
          ssize_t k = write (fds[1], data + off, MIN (n - off, 4093)); /* odd chunks */
          if (k <= 0)
            _exit (1);
          off += (gsize) k;
        }
      _exit (0);
    }
  close (fds[1]);
  int saved = dup (STDIN_FILENO);
  dup2 (fds[0], STDIN_FILENO);
  close (fds[0]);
  check (user);
  dup2 (saved, STDIN_FILENO);
  close (saved);
  int status;
  waitpid (pid, &status, 0);
}

static void
check_long_lines (gpointer user)
{
  (void) user;
  g_autoptr (CgInput) in = cg_input_open ("-", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (in);
  CU_ASSERT_STRING_EQUAL (cg_input_name (in), "<stdin>");
  const char *line;
  gsize len;
  /* peeking does not consume */
  const guint8 *head;
  gsize hn;
  CU_ASSERT_TRUE (cg_input_peek (in, 4, &head, &hn, NULL));
  CU_ASSERT_EQUAL (hn, 4);
  CU_ASSERT_EQUAL (memcmp (head, "xxxx", 4), 0);
  CU_ASSERT_TRUE_FATAL (cg_input_next_line (in, &line, &len, NULL));
  CU_ASSERT_EQUAL (len, 3u << 20);
  CU_ASSERT_EQUAL (line[len - 1], 'x');
  for (guint i = 0; i < 1000; i++)
    {
      CU_ASSERT_TRUE_FATAL (cg_input_next_line (in, &line, &len, NULL));
      CU_ASSERT_EQUAL (len, 5);
      CU_ASSERT_EQUAL (memcmp (line, "line.", 5), 0);
    }
  CU_ASSERT_FALSE (cg_input_next_line (in, &line, &len, NULL));
  CU_ASSERT_EQUAL (cg_input_line_number (in), 1001);
}

static void
test_lines_from_pipe (void)
{
  /* a 3 MiB line (longer than the read buffer), then short ones */
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < (3u << 20); i++)
    g_string_append_c (s, 'x');
  g_string_append_c (s, '\n');
  for (guint i = 0; i < 1000; i++)
    g_string_append (s, "line.\n");
  with_stdin_pipe (s->str, s->len, check_long_lines, NULL);
  g_string_free (s, TRUE);
}

static void
check_empty_stdin (gpointer user)
{
  (void) user;
  g_autoptr (CgProfile) p = cg_profile_new ();
  GError *error = NULL;
  CU_ASSERT_FALSE (cg_read_file (p, "-", NULL, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_FORMAT, "<stdin>: empty input");
  g_clear_error (&error);
}

static void
test_missing_and_directory (void)
{
  GError *error = NULL;
  CU_ASSERT_PTR_NULL (cg_input_open ("/nonexistent/file", &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "/nonexistent/file: cannot open");
  g_clear_error (&error);
  CU_ASSERT_PTR_NULL (cg_input_open ("/", &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "is a directory");
  g_clear_error (&error);
  g_autoptr (CgProfile) p = cg_profile_new ();
  char *empty = cg_test_temp_file ("", 0);
  CU_ASSERT_FALSE (cg_read_file (p, empty, NULL, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_FORMAT, "empty input");
  g_clear_error (&error);
  char *other = cg_test_temp_file ("hello world\n", -1);
  CU_ASSERT_FALSE (cg_read_file (p, other, NULL, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_FORMAT, ":1: unknown input format");
  g_clear_error (&error);
  cg_test_remove (empty);
  cg_test_remove (other);
  with_stdin_pipe ("", 0, check_empty_stdin, NULL);
}

/* Text with a 3 MiB line among short lines of every length up to 199,
 * and no newline at its end. */
static GString *
runs_text (void)
{
  GString *s = g_string_new (NULL);
  GRand *rand = g_rand_new_with_seed (7);
  for (guint i = 0; i < 40000; i++)
    {
      if (i == 20000)
        for (guint k = 0; k < (3u << 20); k++)
          g_string_append_c (s, 'y');
      for (gint k = g_rand_int_range (rand, 0, 200); k > 0; k--)
        g_string_append_c (s, (char) ('a' + k % 26));
      g_string_append_c (s, '\n');
    }
  g_string_append (s, "last");
  g_rand_free (rand);
  return s;
}

/* Reads @in to its end with cg_input_next_lines_into after peeking 10
 * bytes, and checks that the runs are whole lines that add up to @want. */
static void
check_runs (CgInput *in, const GString *want, gboolean pipe)
{
  const guint8 *head;
  gsize hn;
  CU_ASSERT_TRUE (cg_input_peek (in, 10, &head, &hn, NULL));
  g_autoptr (GByteArray) all = g_byte_array_new ();
  g_autoptr (GByteArray) run = g_byte_array_new ();
  guint runs = 0;
  for (;;)
    {
      g_byte_array_set_size (run, 0);
      g_byte_array_append (run, (const guint8 *) "kept", 4); /* appended to, not replaced */
      GError *error = NULL;
      if (!cg_input_next_lines_into (in, run, &error))
        {
          CU_ASSERT_PTR_NULL (error);
          CU_ASSERT_EQUAL (run->len, 4);
          break;
        }
      runs++;
      CU_ASSERT_FATAL (run->len > 4);
      CU_ASSERT_EQUAL (memcmp (run->data, "kept", 4), 0);
      gboolean last = all->len + run->len - 4 == want->len;
      /* whole lines, but for the unterminated last one */
      CU_ASSERT_EQUAL (run->data[run->len - 1] == '\n', !last);
      CU_ASSERT_EQUAL (cg_input_line_terminated (in), !last);
      g_byte_array_append (all, run->data + 4, run->len - 4);
      CU_ASSERT_EQUAL (cg_input_offset (in), all->len);
    }
  CU_ASSERT_EQUAL_FATAL (all->len, want->len);
  CU_ASSERT_EQUAL (memcmp (all->data, want->str, want->len), 0);
  /* about a quarter megabyte at a time from a file or bytes (the 3 MiB
   * line comes whole, in one run); a pipe gives less at a time */
  if (!pipe)
    CU_ASSERT (runs >= want->len >> 19 && runs <= (want->len >> 18) + 2);
}

static void
check_runs_stdin (gpointer user)
{
  g_autoptr (CgInput) in = cg_input_open ("-", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (in);
  check_runs (in, user, TRUE);
}

static void
test_runs_into_buffer (void)
{
  g_autoptr (GString) s = runs_text ();
  char *path = cg_test_temp_file (s->str, (gssize) s->len);
  g_autoptr (CgInput) file = cg_input_open (path, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (file);
  check_runs (file, s, FALSE);
  with_stdin_pipe (s->str, s->len, check_runs_stdin, s);
  g_autoptr (CgInput) bytes = cg_input_new_from_bytes ("bytes", (const guint8 *) s->str, s->len);
  check_runs (bytes, s, FALSE);
  cg_test_remove (path);
}

static guint
count_entries (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}

static void
test_atomic_output (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cgout-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  CU_ASSERT_TRUE (g_file_set_contents (path, "old\n", -1, NULL));
  /* abandoned: the old file stays and no temporary file remains */
  CgOutput *out = cg_output_open (path, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  fputs ("partial", cg_output_stream (out));
  fflush (cg_output_stream (out));
  CU_ASSERT_EQUAL (count_entries (dir), 2);
  cg_output_free (out);
  g_autofree char *contents = NULL;
  CU_ASSERT_TRUE (g_file_get_contents (path, &contents, NULL, NULL));
  CU_ASSERT_STRING_EQUAL (contents, "old\n");
  CU_ASSERT_EQUAL (count_entries (dir), 1);
  /* committed: replaced whole */
  out = cg_output_open (path, NULL);
  fputs ("new\n", cg_output_stream (out));
  CU_ASSERT_TRUE (cg_output_commit (out, NULL));
  cg_output_free (out);
  g_free (contents);
  CU_ASSERT_TRUE (g_file_get_contents (path, &contents, NULL, NULL));
  CU_ASSERT_STRING_EQUAL (contents, "new\n");
  CU_ASSERT_EQUAL (count_entries (dir), 1);
  unlink (path);
  rmdir (dir);
  /* a directory that does not exist */
  GError *error = NULL;
  CU_ASSERT_PTR_NULL (cg_output_open ("/nonexistent/dir/out", &error));
  CG_ASSERT_ERROR (error, CG_ERROR_IO, "cannot create");
  g_clear_error (&error);
}

/* A disk that fills up: a file-size limit makes writes past 4 KiB fail
 * (EFBIG, with SIGXFSZ ignored), as a full disk fails them with ENOSPC.
 * Checked in a child process, which reports through its exit status. */
static void
test_full_disk (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cgfull-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.xml", NULL);
  CU_ASSERT_TRUE (g_file_set_contents (path, "previous\n", -1, NULL));
  pid_t pid = fork ();
  if (pid == 0)
    {
      struct rlimit limit = { 4096, 4096 };
      signal (SIGXFSZ, SIG_IGN);
      if (setrlimit (RLIMIT_FSIZE, &limit) != 0)
        _exit (3);
      CgOutput *out = cg_output_open (path, NULL);
      if (out == NULL)
        _exit (4);
      for (int i = 0; i < 100000; i++)
        fputs ("0123456789", cg_output_stream (out));
      GError *error = NULL;
      gboolean ok = cg_output_commit (out, &error);
      cg_output_free (out);
      int status = ok ? 1 : error->code == CG_ERROR_IO && strstr (error->message, "write error") ? 0 : 2;
      /* _exit skips the autofree cleanup: free by hand for leak checkers */
      g_clear_error (&error);
      g_clear_pointer (&dir, g_free);
      g_clear_pointer (&path, g_free);
      _exit (status);
    }
  int status = -1;
  waitpid (pid, &status, 0);
  CU_ASSERT_TRUE (WIFEXITED (status));
  CU_ASSERT_EQUAL (WEXITSTATUS (status), 0);
  /* the target is untouched and no temporary file is left */
  g_autofree char *contents = NULL;
  CU_ASSERT_TRUE (g_file_get_contents (path, &contents, NULL, NULL));
  CU_ASSERT_STRING_EQUAL (contents, "previous\n");
  CU_ASSERT_EQUAL (count_entries (dir), 1);
  unlink (path);
  rmdir (dir);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "lines from a mapped file", test_lines_from_file },
    { "lines from a pipe, longer than the buffer", test_lines_from_pipe },
    { "runs of whole lines read into a buffer", test_runs_into_buffer },
    { "missing, directory, empty and unknown inputs", test_missing_and_directory },
    { "outputs are atomic", test_atomic_output },
    { "a full disk is an error and leaves the target", test_full_disk },
    { NULL, NULL },
  };
  return cg_test_main ("io", cases);
}
