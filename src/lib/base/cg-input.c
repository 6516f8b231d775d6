/* cg-input.c — mapped files and buffered streams behind one interface. */
#include "config.h"

#include "cg-input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-decompress.h"
#include "cg-error.h"
#include "cg-readahead.h"

#define READ_CHUNK (1u << 20)
/* The lines handed out at a time by cg_input_next_lines_into: small
 * enough that a block read on one core is still in that core's cache
 * (of a megabyte or two) while it is lexed there. */
#define LINES_CHUNK (1u << 18)
/* The fd of an input read through a function (cg_input_new_from_pull):
 * no descriptor, but not -1, which says the input has ended. */
#define PULLED G_MAXINT

struct _CgInput {
  char *name;
  int fd;               /* -1 once the stream reached its end or for maps; PULLED */
  CgInputPull pull;     /* nullable: what an input not of a descriptor reads */
  gpointer pull_data;
  gboolean close_fd;
  gboolean regular;     /* an uncompressed regular file: can be mapped whole */
  CgDecoder *decoder;   /* a compressed input's, which read_fd reads through */
  CgReadahead *ahead;   /* nullable: runs the decoder on a thread of its own */
  CgCompression compression;
  gint64 raw_size;      /* the file's size (compressed or not), or -1 */
  GMappedFile *map;     /* once cg_input_contents() mapped it */
  const guint8 *data;   /* map contents, or buf->data */
  GByteArray *buf;      /* the read window */
  gsize start;          /* current position within data */
  gsize end;            /* valid bytes in data */
  guint64 base;         /* stream offset of data[0] */
  gint64 size;
  guint64 line_number;
  gboolean terminated;
  CgInputProgress progress;
  gpointer progress_data;
  guint64 read_bytes;   /* read from the file so far (compressed bytes) */
  guint64 reported;     /* read_bytes at the last progress report */
};

static void
set_io_error (GError **error, const char *name, const char *what, int err)
{
  g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: %s: %s", name, what, g_strerror (err));
}

static gboolean sniff (CgInput *in, GError **error);

CgInput *
cg_input_open (const char *path, GError **error)
{
  gboolean is_stdin = path == NULL || strcmp (path, "-") == 0;
  g_autoptr (CgInput) in = g_new0 (CgInput, 1);
  in->name = g_strdup (is_stdin ? "<stdin>" : path);
  in->size = -1;
  in->terminated = TRUE;
  if (is_stdin)
    in->fd = STDIN_FILENO;
  else
    {
      in->fd = open (path, O_RDONLY | O_CLOEXEC);
      if (in->fd < 0)
        {
          set_io_error (error, path, "cannot open", errno);
          return NULL;
        }
      in->close_fd = TRUE;
    }
  struct stat st;
  if (fstat (in->fd, &st) != 0)
    {
      set_io_error (error, in->name, "cannot stat", errno);
      return NULL;
    }
  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: is a directory", in->name);
      return NULL;
    }
  /* Lines and XML are read through a window, not a map: a mapped file's
   * pages count as the process's memory, which must stay well below the
   * size of a large input.  Binary formats map the whole file (see
   * cg_input_contents). */
  in->regular = S_ISREG (st.st_mode);
  in->raw_size = in->regular ? st.st_size : -1;
  if (in->regular)
    in->size = st.st_size;
  in->buf = g_byte_array_new ();
  in->data = in->buf->data;
  if (!sniff (in, error))
    return NULL;
  return g_steal_pointer (&in);
}

CgInput *
cg_input_new_from_fd (int fd, const char *name)
{
  CgInput *in = g_new0 (CgInput, 1);
  in->name = g_strdup (name);
  in->fd = fd;
  in->size = -1;
  in->terminated = TRUE;
  in->buf = g_byte_array_new ();
  in->data = in->buf->data;
  return in;
}

CgInput *
cg_input_new_from_pull (const char *name, CgInputPull pull, gpointer user_data, GError **error)
{
  g_autoptr (CgInput) in = cg_input_new_from_fd (PULLED, name);
  in->pull = pull;
  in->pull_data = user_data;
  if (!sniff (in, error))
    return NULL;
  return g_steal_pointer (&in);
}

CgInput *
cg_input_new_from_bytes (const char *name, const guint8 *data, gsize len)
{
  CgInput *in = g_new0 (CgInput, 1);
  in->name = g_strdup (name);
  in->fd = -1; /* nothing more to read: the bytes are the whole input */
  in->data = data;
  in->end = len;
  in->size = (gint64) len;
  in->raw_size = (gint64) len;
  in->terminated = TRUE;
  return in;
}

void
cg_input_free (CgInput *in)
{
  if (in == NULL)
    return;
  if (in->close_fd && in->fd >= 0)
    close (in->fd);
  if (in->map)
    g_mapped_file_unref (in->map);
  cg_readahead_free (in->ahead); /* first: its thread uses the decoder */
  cg_decoder_free (in->decoder);
  if (in->buf)
    g_byte_array_unref (in->buf);
  g_free (in->name);
  g_free (in);
}

void
cg_input_set_progress (CgInput *in, CgInputProgress func, gpointer user_data)
{
  in->progress = func;
  in->progress_data = user_data;
}

const char *
cg_input_name (const CgInput *in)
{
  return in->name;
}

gint64
cg_input_size (const CgInput *in)
{
  return in->size;
}

const char *
cg_input_compression (const CgInput *in)
{
  return in->compression != CG_COMPRESSION_NONE ? cg_compression_name (in->compression) : NULL;
}


/* One read() of at most @n bytes of the file into @dest: the count, 0
 * at its end, or -1 with @error set.  Reports progress about every
 * chunk, in the file's bytes (compressed ones for a compressed file). */
static gssize
read_raw (gpointer data, guint8 *dest, gsize n, GError **error)
{
  CgInput *in = data;
  gssize k;
  if (in->pull)
    k = in->pull (in->pull_data, dest, n, error);
  else
    {
      do
        k = read (in->fd, dest, n);
      while (k < 0 && errno == EINTR);
      if (k < 0)
        set_io_error (error, in->name, "read error", errno);
    }
  if (k < 0)
    return -1;
  in->read_bytes += (guint64) k;
  if (in->progress && in->read_bytes - in->reported >= READ_CHUNK)
    {
      in->reported = in->read_bytes;
      in->progress (in->name, in->reported, in->raw_size, in->progress_data);
    }
  return k;
}

/* The readahead thread's read function. */
static gssize
decode (gpointer data, guint8 *dest, gsize n, GError **error)
{
  CgInput *in = data;
  return cg_decoder_read (in->decoder, dest, n, error);
}

/* One read of at most @n bytes of the input (decompressed when it is
 * compressed) into @dest: the count, 0 at its end (which closes the
 * file), or -1 with @error set. */
static gssize
read_fd (CgInput *in, guint8 *dest, gsize n, GError **error)
{
  gssize k = in->ahead     ? cg_readahead_read (in->ahead, dest, n, error)
             : in->decoder ? cg_decoder_read (in->decoder, dest, n, error)
                           : read_raw (in, dest, n, error);
  if (k == 0)
    {
      if (in->close_fd)
        close (in->fd);
      in->fd = -1;
    }
  return k;
}

/* Reads the first bytes of the file and tells whether it is compressed
 * (cg-decompress.h): if so, everything is read through a decoder, which
 * is given those bytes; if not, they are the window's first.  A
 * compressed file is no longer "regular": its size is unknown and it is
 * never mapped. */
static gboolean
sniff (CgInput *in, GError **error)
{
  guint8 head[CG_COMPRESSION_MAGIC_MAX];
  gsize len = 0;
  while (len < sizeof head)
    {
      gssize k = read_raw (in, head + len, sizeof head - len, error);
      if (k < 0)
        return FALSE;
      if (k == 0)
        break;
      len += (gsize) k;
    }
  CgCompression kind = cg_compression_sniff (head, len);
  if (kind != CG_COMPRESSION_NONE)
    {
      in->compression = kind;
      in->decoder = cg_decoder_new (kind, in->name, head, len, read_raw, in, error);
      if (in->decoder == NULL)
        return FALSE;
      /* a file is decompressed ahead on a thread, as by `zstd -dc F |`
       * (a pipe is not: freeing the input would wait for its writer) */
      if (in->regular)
        in->ahead = cg_readahead_new (decode, in);
      in->regular = FALSE;
      in->size = -1;
      return TRUE;
    }
  g_byte_array_append (in->buf, head, (guint) len);
  in->data = in->buf->data;
  in->end = len;
  if (len < sizeof head)
    {
      /* the whole file: it ends here */
      if (in->close_fd)
        close (in->fd);
      in->fd = -1;
    }
  return TRUE;
}

/* Stream mode: read more so that at least @want bytes follow start (or the
 * stream ends).  Returns FALSE on a read error. */
static gboolean
fill (CgInput *in, gsize want, GError **error)
{
  if (in->map || in->fd < 0)
    return TRUE;
  while (in->end - in->start < want)
    {
      if (in->start > 0)
        {
          /* slide the unread bytes to the front */
          memmove (in->buf->data, in->buf->data + in->start, in->end - in->start);
          in->base += in->start;
          in->end -= in->start;
          in->start = 0;
        }
      gsize need = MAX (want, in->end + READ_CHUNK);
      /* a small file gets a buffer its size (and one byte to see its
       * end), not a whole chunk: merging a hundred gmon.out files of a few
       * kilobytes spent a third of its time allocating and faulting in
       * megabyte buffers.  A file that grew since fstat reads on in
       * chunks. */
      if (in->regular && in->size >= 0 && in->base + in->end < (guint64) in->size)
        {
          /* compared as 64-bit: a file's size may exceed a 32-bit gsize */
          guint64 rest = (guint64) in->size - in->base + 1;
          if (rest < need)
            need = MAX (want, (gsize) rest);
        }
      if (in->buf->len < need)
        g_byte_array_set_size (in->buf, (guint) MIN (need, (gsize) G_MAXUINT));
      if (in->buf->len <= in->end)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a line longer than 4 GiB",
                       in->name);
          return FALSE;
        }
      in->data = in->buf->data;
      gssize n = read_fd (in, in->buf->data + in->end, in->buf->len - in->end, error);
      if (n < 0)
        return FALSE;
      if (n == 0)
        break;
      in->end += (gsize) n;
    }
  return TRUE;
}

gboolean
cg_input_peek (CgInput *in, gsize n, const guint8 **data, gsize *len, GError **error)
{
  if (!fill (in, n, error))
    return FALSE;
  *data = in->data + in->start;
  *len = MIN (n, in->end - in->start);
  return TRUE;
}

gboolean
cg_input_next_line (CgInput *in, const char **line, gsize *len, GError **error)
{
  const guint8 *nl;
  gsize scanned = 0;
  for (;;)
    {
      /* memchr must not see a null pointer, even for 0 bytes (an empty file) */
      gsize left = in->end - in->start - scanned;
      nl = left > 0 ? memchr (in->data + in->start + scanned, '\n', left) : NULL;
      if (nl || in->map || in->fd < 0)
        break;
      scanned = in->end - in->start;
      if (!fill (in, in->end - in->start + READ_CHUNK, error))
        return FALSE;
    }
  if (nl == NULL && in->start == in->end)
    return FALSE;
  const guint8 *p = in->data + in->start;
  gsize n = nl ? (gsize) (nl - p) : in->end - in->start;
  in->start += n + (nl ? 1 : 0);
  in->terminated = nl != NULL;
  if (n > 0 && p[n - 1] == '\r')
    n--;
  in->line_number++;
  *line = (const char *) p;
  *len = n;
  return TRUE;
}

gboolean
cg_input_next_lines (CgInput *in, const char **data, gsize *len, GError **error)
{
  gsize clean = 0; /* leading bytes known to hold no newline */
  for (;;)
    {
      gsize n = in->end - in->start;
      const guint8 *p = in->data + in->start;
      /* the last newline is near the end: lines are short */
      gsize k = n;
      while (k > clean && p[k - 1] != '\n')
        k--;
      if (k == clean)
        k = 0;
      if (k == 0 && in->fd >= 0 && in->map == NULL)
        {
          /* no whole line yet (or a line longer than the window) */
          clean = n;
          if (!fill (in, n + READ_CHUNK, error))
            return FALSE;
          continue;
        }
      if (k == 0)
        k = n; /* the end: an unterminated last line, or nothing */
      if (k == 0)
        return FALSE;
      in->start += k;
      in->terminated = p[k - 1] == '\n';
      *data = (const char *) p;
      *len = k;
      return TRUE;
    }
}

/* The offset just past the last newline in @p[0..@n), or 0. */
static gsize
past_last_newline (const guint8 *p, gsize n)
{
  /* lines are short: the last newline is near the end */
  while (n > 0 && p[n - 1] != '\n')
    n--;
  return n;
}

gboolean
cg_input_next_lines_into (CgInput *in, GByteArray *out, GError **error)
{
  if (in->map || in->fd < 0)
    {
      /* the bytes are all here: copy a chunk's worth of whole lines */
      gsize n = in->end - in->start;
      const guint8 *p = in->data + in->start;
      if (n == 0)
        return FALSE;
      gsize k = n;
      if (n > LINES_CHUNK)
        {
          k = past_last_newline (p, LINES_CHUNK);
          if (k == 0)
            {
              const guint8 *nl = memchr (p + LINES_CHUNK, '\n', n - LINES_CHUNK);
              k = nl ? (gsize) (nl - p) + 1 : n;
            }
        }
      if (k > G_MAXUINT - out->len)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a line longer than 4 GiB", in->name);
          return FALSE;
        }
      g_byte_array_append (out, p, (guint) k);
      in->start += k;
      in->terminated = p[k - 1] == '\n';
      return TRUE;
    }
  /* the window's unread bytes (the start of a line) come first, then the
   * stream is read straight into @out until a chunk holds a newline */
  gsize from = out->len, carried = in->end - in->start;
  if (carried > G_MAXUINT - from)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a line longer than 4 GiB", in->name);
      return FALSE;
    }
  g_byte_array_append (out, in->data + in->start, (guint) carried);
  in->base += in->end;
  in->start = in->end = 0;
  for (;;)
    {
      gsize have = out->len;
      if (G_MAXUINT - have < LINES_CHUNK)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a line longer than 4 GiB", in->name);
          return FALSE;
        }
      g_byte_array_set_size (out, (guint) (have + LINES_CHUNK));
      gssize n = read_fd (in, out->data + have, LINES_CHUNK, error);
      g_byte_array_set_size (out, (guint) (have + (gsize) MAX (n, 0)));
      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          /* the end: what is left is an unterminated last line, or nothing */
          in->terminated = out->len == from || out->data[out->len - 1] == '\n';
          return out->len > from;
        }
      gsize k = past_last_newline (out->data + have, (gsize) n);
      if (k > 0)
        {
          /* the partial line after the last newline waits in the window */
          gsize tail = (gsize) n - k;
          if (in->buf->len < tail)
            g_byte_array_set_size (in->buf, (guint) tail);
          in->data = in->buf->data;
          memcpy (in->buf->data, out->data + have + k, tail);
          in->end = tail;
          in->base += (guint64) n - tail;
          g_byte_array_set_size (out, (guint) (have + k));
          in->terminated = TRUE;
          return TRUE;
        }
      in->base += (guint64) n;
    }
}

guint64
cg_input_line_number (const CgInput *in)
{
  return in->line_number;
}

gboolean
cg_input_line_terminated (const CgInput *in)
{
  return in->terminated;
}

guint64
cg_input_offset (const CgInput *in)
{
  return in->base + in->start;
}

gssize
cg_input_read (CgInput *in, void *buf, gsize n, GError **error)
{
  if (in->start == in->end && !fill (in, MIN (n, (gsize) READ_CHUNK), error))
    return -1;
  gsize k = MIN (n, in->end - in->start);
  memcpy (buf, in->data + in->start, k);
  in->start += k;
  return (gssize) k;
}

gboolean
cg_input_skip (CgInput *in, guint64 n, GError **error)
{
  while (n > 0)
    {
      if (in->start == in->end && !fill (in, 1, error))
        return FALSE;
      gsize k = (gsize) MIN (n, (guint64) (in->end - in->start));
      if (k == 0)
        return TRUE; /* the end of the input */
      in->start += k;
      n -= k;
    }
  return TRUE;
}

gboolean
cg_input_contents (CgInput *in, const guint8 **data, gsize *len, GError **error)
{
  /* a regular file nothing has been consumed of is mapped whole */
  if (in->regular && in->map == NULL && in->base == 0 && in->start == 0 && in->fd >= 0 && in->size > 0)
    {
      GError *local = NULL;
      GMappedFile *map = g_mapped_file_new_from_fd (in->fd, FALSE, &local);
      if (map)
        {
          in->map = map;
          in->data = (const guint8 *) g_mapped_file_get_contents (map);
          in->end = g_mapped_file_get_length (map);
          if (in->close_fd)
            close (in->fd);
          in->fd = -1;
        }
      g_clear_error (&local); /* else fall back to reading */
    }
  while (in->fd >= 0)
    if (!fill (in, in->end - in->start + READ_CHUNK, error))
      return FALSE;
  *data = in->data + in->start;
  *len = in->end - in->start;
  return TRUE;
}

gboolean
cg_input_check_rest (CgInput *in, GError **error)
{
  if (in->compression == CG_COMPRESSION_NONE)
    return TRUE;
  in->start = in->end; /* the window's bytes are read already */
  g_autofree guint8 *scratch = NULL;
  while (in->fd >= 0)
    {
      if (scratch == NULL)
        scratch = g_malloc (READ_CHUNK);
      gssize k = read_fd (in, scratch, READ_CHUNK, error);
      if (k < 0)
        return FALSE;
      in->base += (guint64) k;
    }
  return TRUE;
}
