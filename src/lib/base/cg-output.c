/* cg-output.c — temporary file plus rename(2), the atomic-replace idiom. */
#include "config.h"

#include "cg-output.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-error.h"

struct _CgOutput {
  char *path;     /* as given; NULL for stdout */
  char *target;   /* the file the temporary one replaces: @path or, for a
                   * symbolic link, the file it names; NULL when @path is
                   * written directly */
  char *tmp_path; /* the temporary file while uncommitted */
  FILE *stream;
  char *buffer;   /* the stream's buffer, freed after it is closed */
};

/* Output leaves in writes of this size: the XML writer hands over tens of
 * kilobytes at a time, which stdio's 4 KiB buffer split into thousands of
 * write(2) calls for a large profile. */
#define OUTPUT_BUFFER (256 * 1024)

/* Sets @stream's buffer, @buffer of OUTPUT_BUFFER bytes, before its first
 * output; a terminal keeps its line buffering.  The buffer is given:
 * glibc ignores the size asked for when it allocates one itself. */
static void
buffer_output (FILE *stream, char *buffer)
{
  if (!isatty (fileno (stream)))
    setvbuf (stream, buffer, _IOFBF, OUTPUT_BUFFER);
}

/* stdout's buffer lives as long as stdout, which exit(3) flushes. */
static char stdout_buffer[OUTPUT_BUFFER];

CgOutput *
cg_output_open (const char *path, GError **error)
{
  CgOutput *out = g_new0 (CgOutput, 1);
  if (path == NULL || strcmp (path, "-") == 0)
    {
      out->stream = stdout;
      buffer_output (stdout, stdout_buffer);
      return out;
    }
  out->path = g_strdup (path);
  struct stat st;
  gboolean exists = stat (path, &st) == 0;
  if (exists && !S_ISREG (st.st_mode))
    {
      /* replacing a device or a FIFO by a file would break what uses it */
      out->stream = fopen (path, "w");
      if (out->stream == NULL)
        {
          int err = errno;
          g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot open: %s", path, g_strerror (err));
          cg_output_free (out);
          return NULL;
        }
      out->buffer = g_malloc (OUTPUT_BUFFER);
      buffer_output (out->stream, out->buffer);
      return out;
    }
  /* the file a symbolic link names (a dangling link is replaced) */
  char *resolved = exists ? realpath (path, NULL) : NULL;
  out->target = resolved ? g_strdup (resolved) : g_strdup (path);
  free (resolved);
  g_autofree char *dir = g_path_get_dirname (out->target);
  g_autofree char *base = g_path_get_basename (out->target);
  out->tmp_path = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  int fd = g_mkstemp_full (out->tmp_path, O_RDWR | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot create: %s", path, g_strerror (err));
      g_clear_pointer (&out->tmp_path, g_free);
      cg_output_free (out);
      return NULL;
    }
  out->stream = fdopen (fd, "w");
  if (out->stream == NULL)
    {
      int err = errno;
      close (fd);
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: %s", path, g_strerror (err));
      cg_output_free (out);
      return NULL;
    }
  out->buffer = g_malloc (OUTPUT_BUFFER);
  buffer_output (out->stream, out->buffer);
  return out;
}

FILE *
cg_output_stream (CgOutput *out)
{
  return out->stream;
}

const char *
cg_output_name (const CgOutput *out)
{
  return out->path ? out->path : "<stdout>";
}

gboolean
cg_output_commit (CgOutput *out, GError **error)
{
  errno = 0;
  if (fflush (out->stream) != 0 || ferror (out->stream))
    {
      int err = errno ? errno : cg_output_lost_errno (out->stream);
      g_set_error (error, CG_ERROR, err == EPIPE ? CG_ERROR_CLOSED : CG_ERROR_IO, "%s: write error: %s",
                   cg_output_name (out), g_strerror (err));
      return FALSE;
    }
  if (out->path == NULL)
    return TRUE;
  if (out->target && fsync (fileno (out->stream)) != 0 && errno != EINVAL)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: write error: %s", out->path,
                   g_strerror (errno));
      return FALSE;
    }
  FILE *stream = g_steal_pointer (&out->stream);
  if (fclose (stream) != 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: write error: %s", out->path,
                   g_strerror (errno));
      return FALSE;
    }
  if (out->target && rename (out->tmp_path, out->target) != 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot replace: %s", out->path,
                   g_strerror (errno));
      return FALSE;
    }
  g_clear_pointer (&out->tmp_path, g_free);
  return TRUE;
}

void
cg_output_free (CgOutput *out)
{
  if (out == NULL)
    return;
  if (out->path && out->stream)
    fclose (out->stream);
  g_free (out->buffer);
  if (out->tmp_path)
    unlink (out->tmp_path);
  g_free (out->tmp_path);
  g_free (out->target);
  g_free (out->path);
  g_free (out);
}

int
cg_output_lost_errno (FILE *stream)
{
  /* a pipe's writing end polls as an error once its reader has gone */
  struct pollfd p = { fileno (stream), POLLOUT, 0 };
  return poll (&p, 1, 0) == 1 && (p.revents & POLLERR) ? EPIPE : EIO;
}
