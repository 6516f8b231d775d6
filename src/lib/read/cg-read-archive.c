/* cg-read-archive.c — the profiles in a tar or zip archive (see the
 * header).  libarchive reads the archive from the input, which has undone
 * the archive's compression already; each member is an input of its own
 * whose bytes libarchive hands out as it reads them, so a member of
 * gigabytes is read as a file of gigabytes is, in bounded memory. */
#include "config.h"

#include "cg-read-archive.h"

#include <string.h>

#include <archive.h>
#include <archive_entry.h>

#include "cg-error.h"

#define BLOCK (64u * 1024)

/* A tar header's checksum (POSIX: the sum of its 512 bytes, the 8 of
 * the checksum field counted as blanks) against the octal number in
 * that field: text whose byte 257 happens to read "ustar" is no tar. */
static gboolean
tar_checksum_ok (const guint8 *h)
{
  guint64 sum = 0, field = 0;
  for (guint i = 0; i < 512; i++)
    sum += i >= 148 && i < 156 ? (guint) ' ' : h[i];
  guint i = 148;
  while (i < 156 && h[i] == ' ')
    i++;
  if (i == 156 || h[i] < '0' || h[i] > '7')
    return FALSE;
  for (; i < 156 && h[i] >= '0' && h[i] <= '7'; i++)
    field = field * 8 + (guint) (h[i] - '0');
  return field == sum;
}

gboolean
cg_archive_detect (const guint8 *head, gsize len)
{
  /* POSIX ustar ("ustar\0") and GNU tar ("ustar  ") put "ustar" at 257;
   * zip starts with a local file header, "PK\3\4" */
  if (len >= 512 && memcmp (head + 257, "ustar", 5) == 0)
    return tar_checksum_ok (head);
  return len >= 4 && memcmp (head, "PK\3\4", 4) == 0;
}

typedef struct {
  CgInput *input;
  guint8 *block;
  GError *error; /* the input's, which libarchive cannot carry */
} Source;

/* libarchive's read callback: the next block of the archive. */
static la_ssize_t
source_read (struct archive *a, void *data, const void **buffer)
{
  (void) a;
  Source *s = data;
  gssize k = cg_input_read (s->input, s->block, BLOCK, &s->error);
  *buffer = s->block;
  return k < 0 ? ARCHIVE_FATAL : (la_ssize_t) k;
}

/* The error for libarchive's failure on @a, reading the input named
 * @name: the input's own where it had one (a read error, a truncated or
 * corrupt compressed stream), else libarchive's message, at the
 * archive's offset. */
static void
set_archive_error (GError **error, Source *s, struct archive *a, const char *name)
{
  if (s->error)
    {
      g_propagate_error (error, g_steal_pointer (&s->error));
      return;
    }
  const char *why = archive_error_string (a);
  g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: offset %" G_GINT64_FORMAT ": %s", name,
               (gint64) archive_filter_bytes (a, -1), why ? why : "the archive cannot be read");
}

typedef struct {
  struct archive *archive;
  Source *source;
  const char *name; /* "ARCHIVE(MEMBER)" */
} Member;

/* The member input's pull function: its next bytes from libarchive. */
static gssize
member_read (gpointer data, guint8 *dest, gsize n, GError **error)
{
  Member *m = data;
  la_ssize_t k = archive_read_data (m->archive, dest, n);
  if (k < 0)
    {
      set_archive_error (error, m->source, m->archive, m->name);
      return -1;
    }
  return (gssize) k;
}

/* Reads the member at @a's position, named "@name(@path)"; @s is the
 * archive's source, whose error explains libarchive's. */
static gboolean
read_member_at (CgProfile *profile, struct archive *a, Source *s, const char *name, const char *path,
             const CgReadOptions *options, CgFormatRead read, GError **error)
{
  g_autofree char *member_name = g_strdup_printf ("%s(%s)", name, path);
  Member m = { a, s, member_name };
  g_autoptr (CgInput) member = cg_input_new_from_pull (member_name, member_read, &m, error);
  if (member == NULL)
    return FALSE;
  if (options)
    cg_input_set_progress (member, options->progress, options->progress_data);
  const guint8 *head;
  gsize len;
  if (!cg_input_peek (member, 512, &head, &len, error))
    return FALSE;
  if (len == 0)
    {
      cg_read_warn (options, "%s: empty, skipped", member_name);
      return TRUE;
    }
  /* one level: an archive in an archive is refused, not opened, so
   * that no input nests readers deeper than that */
  if (cg_archive_detect (head, len))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT,
                   "%s: an archive inside the archive, which cgtools does not open: extract it and give it as an"
                   " input", member_name);
      return FALSE;
    }
  return read (profile, member, options, error);
}

gboolean
cg_read_archive (CgProfile *profile, CgInput *input, const CgReadOptions *options, CgFormatRead read_member,
                 GError **error)
{
  const char *name = cg_input_name (input);
  g_autofree guint8 *block = g_malloc (BLOCK);
  Source s = { input, block, NULL };
  struct archive *a = archive_read_new ();
  /* the input undid any compression around the archive: only the two
   * structures sniffed are read (zip as it streams, its central
   * directory at the end unread) */
  archive_read_support_format_tar (a);
  archive_read_support_format_gnutar (a);
  archive_read_support_format_zip_streamable (a);
  gboolean ok = archive_read_open (a, &s, NULL, source_read, NULL) == ARCHIVE_OK;
  if (!ok)
    set_archive_error (error, &s, a, name);
  guint n_read = 0;
  while (ok)
    {
      struct archive_entry *entry;
      int rc = archive_read_next_header (a, &entry);
      if (rc == ARCHIVE_EOF)
        break;
      if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN)
        {
          set_archive_error (error, &s, a, name);
          ok = FALSE;
          break;
        }
      if (archive_entry_filetype (entry) != AE_IFREG)
        continue;
      const char *path = archive_entry_pathname (entry);
      ok = read_member_at (profile, a, &s, name, path ? path : "?", options, read_member, error);
      n_read++;
    }
  g_clear_error (&s.error);
  archive_read_free (a);
  if (ok && n_read == 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: an archive with no files in it", name);
      return FALSE;
    }
  return ok;
}
