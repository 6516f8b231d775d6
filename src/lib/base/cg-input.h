/* cg-input.h — one input file or stdin, read as lines or as bytes.
 *
 * A file or stream compressed with gzip, xz, zstd or bzip2 is told by its
 * magic bytes and read decompressed (cg-decompress.h), as it streams: its
 * lines, its bytes and its contents are the decompressed ones, and its
 * offsets count decompressed bytes.
 *
 * Lines and bytes are read through a sliding window that grows only as far
 * as the longest line, so memory stays small however large the input is
 * (a memory-mapped file would count its whole size as the process's
 * memory).  Binary formats that want the whole input get it mapped
 * (GMappedFile) when it is a regular file, read otherwise.  Lines may be
 * any length.
 *
 * Ownership: a CgInput owns its buffer; line pointers are valid until the
 * next read call.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgInput CgInput;

/* Receives progress: @done bytes of @total (-1 when unknown). */
typedef void (*CgInputProgress) (const char *name, guint64 done, gint64 total, gpointer user_data);

/* Opens @path; NULL or "-" means stdin.  Error CG_ERROR_IO naming the file. */
CgInput *cg_input_open (const char *path, GError **error);
/* A stream read from @fd (borrowed: not closed; a pipe from another
 * process, say), named @name in messages. */
CgInput *cg_input_new_from_fd (int fd, const char *name);
/* Reads up to @n bytes into @dest: the count, 0 at the end, or -1 with
 * @error set (naming the input). */
typedef gssize (*CgInputPull) (gpointer user_data, guint8 *dest, gsize n, GError **error);
/* An input whose bytes @pull reads (@user_data borrowed: it must outlive
 * the input), named @name in messages; compressed bytes are read
 * decompressed, as a file's.  A member of an archive, say.  NULL with
 * @error set where its first bytes cannot be read (@pull's error, or
 * CG_ERROR_FORMAT for a compressed start its decoder refuses). */
CgInput *cg_input_new_from_pull (const char *name, CgInputPull pull, gpointer user_data, GError **error);
/* An input over @len bytes at @data (borrowed: they must outlive the
 * input), named @name in messages.  For fuzzing and tests. */
CgInput *cg_input_new_from_bytes (const char *name, const guint8 *data, gsize len);

void cg_input_free (CgInput *input);

/* Calls @func about every megabyte read (nullable: no reports). */
void cg_input_set_progress (CgInput *input, CgInputProgress func, gpointer user_data);

/* The name used in messages: the path, or "<stdin>". */
const char *cg_input_name (const CgInput *input);

/* Size in bytes when known (regular files not compressed), else -1. */
gint64 cg_input_size (const CgInput *input);

/* "gzip", "xz", "zstd" or "bzip2" for a compressed input, else NULL.
 * (transfer none) */
const char *cg_input_compression (const CgInput *input);

/* Reads the rest of a compressed input and drops it, so that the
 * decompressor checks it to its end: FALSE with its error (a truncated
 * or corrupt stream, naming the file and the offset).  For the
 * cause of a reader's error (corrupt data decompress to garbage before
 * a checksum tells them corrupt) and for a reader that stops before the
 * end.  TRUE at once for an input not compressed. */
gboolean cg_input_check_rest (CgInput *input, GError **error);

/* Makes up to @n bytes from the current position available without
 * consuming them; *@len < @n only at the end of input. */
gboolean cg_input_peek (CgInput *input, gsize n, const guint8 **data, gsize *len, GError **error);

/* The next line, without its "\n" (and without a "\r" before it).
 * Returns FALSE at the end of input, or on error with @error set. */
gboolean cg_input_next_line (CgInput *input, const char **line, gsize *len, GError **error);

/* The next run of whole lines, each with its "\n" (bytes as they are, "\r"
 * included), about a read chunk at a time: for readers that split lines
 * themselves while they scan them.  At the end of the input the last run
 * may end without a newline.  Returns FALSE at the end of input, or on
 * error with @error set.  Lines returned so are not counted by
 * cg_input_line_number. */
gboolean cg_input_next_lines (CgInput *input, const char **data, gsize *len, GError **error);

/* Like cg_input_next_lines, but appends the lines to @out (borrowed),
 * which a stream reads straight into: one copy of the bytes, not two,
 * for a reader that keeps blocks of its own.  About a quarter megabyte of
 * lines (more when a line is longer).  Returns FALSE at the end of input, or on
 * error with @error set (CG_ERROR_IO; CG_ERROR_OVERFLOW when @out would
 * pass 4 GiB); @out then holds what it held before, and perhaps part of
 * a line. */
gboolean cg_input_next_lines_into (CgInput *input, GByteArray *out, GError **error);

/* 1-based number of the line last returned by cg_input_next_line. */
guint64 cg_input_line_number (const CgInput *input);

/* Whether the last line returned ended with a newline (FALSE means the
 * input stopped in the middle of a line). */
gboolean cg_input_line_terminated (const CgInput *input);

/* Byte offset of the current position from the start of the input. */
guint64 cg_input_offset (const CgInput *input);

/* Reads up to @n bytes; returns the count (0 at the end) or -1 on error. */
gssize cg_input_read (CgInput *input, void *buf, gsize n, GError **error);
/* Consumes up to @n bytes without copying them (fewer only at the end of
 * the input); what cg_input_peek returned is then invalid.  FALSE on
 * error, with @error set. */
gboolean cg_input_skip (CgInput *input, guint64 n, GError **error);

/* The rest of the input as one block (the map itself for files; read
 * into memory from a stream, and decompressed into memory from a
 * compressed file, so bounded by the decompressed size).  Valid until the
 * input is freed. */
gboolean cg_input_contents (CgInput *input, const guint8 **data, gsize *len, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgInput, cg_input_free)

G_END_DECLS
