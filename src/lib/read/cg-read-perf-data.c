/* cg-read-perf-data.c — perf.data through perf script (cg-read-perf-data.h). */
#include "config.h"

#include "cg-read-perf-data.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <string.h>
#include <unistd.h>

#include "cg-error.h"
#include "cg-read-perf.h"

/* the fields cg-read-perf reads best: no time or cpu to skip, pid and tid
 * for --split, the period as the cost, symoff for an inline-only frame's
 * object (a function gcc split, f and f.part.0: perf prints the part's
 * frames as "f+0x4d1 (inlined)" alone, ninja's BuildEdgeFinished) */
#define PERF_FIELDS "comm,pid,tid,period,event,ip,sym,symoff,dso"

/* perf script cuts each call chain it prints at --max-stack frames, by
 * default the reading machine's kernel.perf_event_max_stack (127), even
 * where the file holds more: a stack unwound from --call-graph
 * dwarf,65528's copy (GNU make's $(call) recursion, 900 frames) lost its
 * outer frames, main among them, and with them their totals.  A chain
 * the kernel recorded is already cut at the recording machine's limit;
 * one unwound from a copy of 65528 bytes has at most 8191 frames.  Not
 * larger: perf's libunwind unwinder keeps max-stack addresses in an
 * array on its stack (2^31-1 crashes it). */
#define PERF_MAX_STACK "65535"

gboolean
cg_perf_data_detect (const guint8 *data, gsize len, gboolean complete)
{
  (void) complete;
  if (len < 16 || (memcmp (data, "PERFILE2", 8) != 0 && memcmp (data, "PERFFILE", 8) != 0))
    return FALSE;
  /* then the header's size, a small binary number (64-bit, in the
   * writer's byte order): text after the magic ("PERFFILEi;b 12", found by
   * fuzz/fuzz-detect.c) is no perf.data */
  guint64 le = 0, be = 0;
  for (guint i = 0; i < 8; i++)
    {
      le |= (guint64) data[8 + i] << (8 * i);
      be = (be << 8) | data[8 + i];
    }
  return (le >= 16 && le <= 65536) || (be >= 16 && be <= 65536);
}

/* perf_event_attr (linux/perf_event.h): where its size, sample_type and
 * sample_stack_user lie, and PERF_SAMPLE_STACK_USER */
#define ATTR_SIZE_AT 4
#define ATTR_SAMPLE_TYPE_AT 24
#define ATTR_STACK_USER_AT 88
#define SAMPLE_STACK_USER (1u << 13)

static guint64
number_at (const guint8 *p, guint bytes, gboolean big)
{
  guint64 v = 0;
  for (guint i = 0; i < bytes; i++)
    v |= (guint64) p[big ? bytes - 1 - i : i] << (8 * i);
  return v;
}

/* The bytes of user stack each sample of the perf.data at @path copied
 * for --call-graph dwarf (the largest sample_stack_user of its events
 * that sample the user stack), from the file's header: its attrs
 * section (perf's tools/perf/Documentation/perf.data-file-format.txt).
 * 0 where there is none, or the header cannot be read (a perf.data
 * written to a pipe has its events in the data instead). */
static guint32
stack_user_size (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  guint8 h[40];
  guint32 most = 0;
  if (pread (fd, h, sizeof h, 0) == (gssize) sizeof h)
    {
      gboolean big = number_at (h + 8, 8, FALSE) > 65536;
      guint64 header = number_at (h + 8, 8, big), attr_size = number_at (h + 16, 8, big);
      guint64 at = number_at (h + 24, 8, big), size = number_at (h + 32, 8, big);
      guint8 a[ATTR_STACK_USER_AT + 4];
      /* a few events at most; a damaged header is left to perf script */
      for (guint64 i = 0; header >= sizeof h && attr_size >= sizeof a && attr_size <= 4096 && i < 64
                          && size / attr_size > i;
           i++)
        if (pread (fd, a, sizeof a, (off_t) (at + i * attr_size)) == (gssize) sizeof a
            && number_at (a + ATTR_SIZE_AT, 4, big) >= sizeof a
            && (number_at (a + ATTR_SAMPLE_TYPE_AT, 8, big) & SAMPLE_STACK_USER))
          most = MAX (most, (guint32) number_at (a + ATTR_STACK_USER_AT, 4, big));
    }
  close (fd);
  return most;
}

/* Copies the rest of @input to a new temporary file; its path in @path. */
static gboolean
copy_to_file (CgInput *input, char **path, GError **error)
{
  GError *local = NULL;
  int fd = g_file_open_tmp ("cgtools-XXXXXX.perf.data", path, &local);
  if (fd < 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot copy it for perf: %s", cg_input_name (input),
                   local->message);
      g_error_free (local);
      return FALSE;
    }
  guint8 buf[1 << 16];
  gssize n;
  gboolean ok = TRUE;
  while (ok && (n = cg_input_read (input, buf, sizeof buf, error)) > 0)
    for (gssize done = 0; ok && done < n;)
      {
        gssize w = write (fd, buf + done, (gsize) (n - done));
        if (w < 0 && errno == EINTR)
          continue;
        if (w < 0)
          {
            g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: %s", *path, g_strerror (errno));
            ok = FALSE;
          }
        done += w;
      }
  ok = ok && n == 0;
  if (close (fd) != 0 && ok)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: %s", *path, g_strerror (errno));
      ok = FALSE;
    }
  return ok;
}

/* perf's messages, from the file its standard error went to: all of them,
 * without the final newline. */
static char *
read_messages (int fd)
{
  GString *s = g_string_new (NULL);
  char buf[4096];
  gssize n;
  if (lseek (fd, 0, SEEK_SET) == 0)
    while ((n = read (fd, buf, sizeof buf)) > 0 && s->len < (1u << 16))
      g_string_append_len (s, buf, n);
  while (s->len > 0 && g_ascii_isspace (s->str[s->len - 1]))
    g_string_truncate (s, s->len - 1);
  return g_string_free (s, FALSE);
}

/* Runs perf script on @path (with -G, --hide-call-graph, where @leaves:
 * each sample's own address, symbol and DSO) and reads its output into
 * @profile as @pass says. */
static gboolean
run_perf_script (CgProfile *profile, const char *perf, const char *path, const char *name,
                 const CgReadOptions *options, gboolean leaves, CgPerfPass *pass, GError **error)
{
  g_autofree char *err_path = NULL;
  int err_fd = g_file_open_tmp ("cgtools-perf-XXXXXX.txt", &err_path, error);
  if (err_fd < 0)
    return FALSE;
  unlink (err_path);
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_take_stderr_fd (launcher, dup (err_fd));
  /* --no-demangle: perf demangles without parameter lists, which joins
   * C++ overloads into one function (ninja's two CanonicalizePath, one
   * calling the other, read as one recursive function); the linker's
   * names keep them apart, as gmon.out and callgrind give them, and the
   * views demangle them whole */
  const char *argv[] = { perf, "script", "--no-demangle", "--max-stack=" PERF_MAX_STACK, "-i", path,
                         "-F", PERF_FIELDS, leaves ? "-G" : NULL, NULL };
  GError *local = NULL;
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (launcher, argv, &local);
  if (p == NULL)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot run %s script: %s", name, perf, local->message);
      g_error_free (local);
      close (err_fd);
      return FALSE;
    }
  int out = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (g_subprocess_get_stdout_pipe (p)));
  g_autofree char *in_name = g_strdup_printf ("%s (perf script)", name);
  g_autoptr (CgInput) in = cg_input_new_from_fd (out, in_name);
  if (options)
    cg_input_set_progress (in, options->progress, options->progress_data);
  GError *read_error = NULL;
  gboolean ok = cg_read_perf_as (profile, in, options, "perf.data", name, pass, &read_error);
  if (!ok)
    g_subprocess_force_exit (p); /* it may be blocked on a full pipe */
  g_subprocess_wait (p, NULL, NULL);
  g_autofree char *messages = read_messages (err_fd);
  close (err_fd);
  gboolean perf_ok = g_subprocess_get_if_exited (p) && g_subprocess_get_exit_status (p) == 0;
  /* SIGKILL after a reading error is force_exit's; any other signal is
   * perf's own crash, whose reason comes first, as an exit status's
   * does: perf 6.1 dies of SIGBUS on a perf.data cut short inside its
   * data, having printed nothing, which read as "no sample of perf
   * script in the input" */
  int sig = g_subprocess_get_if_signaled (p) ? g_subprocess_get_term_sig (p) : 0;
  if (!perf_ok && (ok || sig != SIGKILL))
    {
      /* perf's reason comes first: what it printed, if anything, is cut short */
      g_clear_error (&read_error);
      g_autofree char *how = sig ? g_strdup_printf ("died of signal %d (%s)", sig, g_strsignal (sig))
                                 : g_strdup ("failed");
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: perf script %s%s%s", name, how,
                   *messages ? ": " : " (and said nothing)", messages);
      return FALSE;
    }
  if (!ok)
    {
      g_propagate_error (error, read_error);
      return FALSE;
    }
  if (*messages && !leaves)
    cg_read_warn (options, "%s: perf script says: %s", name, messages);
  return TRUE;
}

/* perf script on @path, twice where some samples' call chains came out
 * empty: perf drops a whole chain where it meets an entry it does not
 * know (cc1's frame-pointer chains end in ffffffffffffffff now and then),
 * but still knows the sample's own address, which perf report charges
 * the sample to and -G prints.  Those samples get that one frame (under
 * their root frame); where the second pass does not print the same
 * samples, they are charged as perf script printed them. */
static gboolean
read_perf_data_passes (CgProfile *profile, const char *perf, const char *path, const char *name,
                       const CgReadOptions *options, CgPerfInlined *inlined, GError **error)
{
  g_autoptr (GArray) empty = g_array_new (FALSE, FALSE, sizeof (CgPerfHeld));
  CgPerfPass first = { .held = empty, .inlined = inlined, .stack_user = stack_user_size (path) };
  if (!run_perf_script (profile, perf, path, name, options, FALSE, &first, error))
    return FALSE;
  if (empty->len == 0)
    return TRUE;
  g_autoptr (GArray) select = g_array_sized_new (FALSE, FALSE, sizeof (guint64), empty->len);
  for (guint i = 0; i < empty->len; i++)
    g_array_append_val (select, g_array_index (empty, CgPerfHeld, i).ordinal);
  /* the leaves are held until the second pass is known to have printed
   * the same samples */
  g_autoptr (GArray) leaves = g_array_new (FALSE, FALSE, sizeof (CgPerfHeld));
  CgPerfPass second = { .held = leaves, .hold_all = TRUE, .select = select, .no_source = TRUE };
  GError *local = NULL;
  if (run_perf_script (profile, perf, path, name, options, TRUE, &second, &local)
      && second.n_samples == first.n_samples && leaves->len == empty->len)
    return cg_perf_charge_held (profile, leaves, name, error);
  cg_read_warn (options, "%s: %u sample%s perf printed without a call chain charged to %s root frame%s: %s", name,
                empty->len, empty->len == 1 ? "" : "s", empty->len == 1 ? "its" : "their", empty->len == 1 ? "" : "s",
                local ? local->message : "perf script -G printed other samples");
  g_clear_error (&local);
  return cg_perf_charge_held (profile, empty, name, error);
}

/* perf script on @path, twice where some samples' call chains came out
 * empty: perf drops a whole chain where it meets an entry it does not
 * know (cc1's frame-pointer chains end in ffffffffffffffff now and then),
 * but still knows the sample's own address, which perf report charges
 * the sample to and -G prints.  Those samples get that one frame (under
 * their root frame); where the second pass does not print the same
 * samples, they are charged as perf script printed them.  Then the
 * inlined frames perf printed no object for are placed (the held
 * samples name frames of the tree, which placing them rebuilds). */
static gboolean
read_perf_data (CgProfile *profile, const char *perf, const char *path, const char *name,
                const CgReadOptions *options, GError **error)
{
  g_autoptr (CgPerfInlined) inlined = cg_perf_inlined_new (profile);
  return read_perf_data_passes (profile, perf, path, name, options, inlined, error)
         && cg_perf_place_inlined (profile, inlined, error);
}

gboolean
cg_read_perf_data (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  const char *name = cg_input_name (input);
  g_autofree char *perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_UNSUPPORTED,
                   "%s: a perf.data file, which cgtools reads through perf script, but perf is not installed "
                   "(Debian and Ubuntu: apt-get install linux-perf; Fedora: dnf install perf); or run "
                   "'perf script > perf.txt' where perf is and read perf.txt",
                   name);
      return FALSE;
    }
  /* a regular file is given to perf by its path; anything else (standard
   * input, a pipe) is copied to a file first, as perf seeks in it */
  if (cg_input_size (input) >= 0 && strcmp (name, "<stdin>") != 0)
    return read_perf_data (profile, perf, name, name, options, error);
  g_autofree char *copy = NULL;
  gboolean ok = copy_to_file (input, &copy, error) && read_perf_data (profile, perf, copy, name, options, error);
  if (copy)
    unlink (copy);
  return ok;
}
