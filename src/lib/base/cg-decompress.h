/* cg-decompress.h — gzip, xz, zstd and bzip2 streams, decompressed as
 * they are read.
 *
 * An input is told compressed by its magic bytes (those of RFC 1952 for
 * gzip, of the .xz file format 1.1.0 §2.1.1.1, of RFC 8878 §3.1.1 for a
 * zstd frame or skippable frame, and bzip2's "BZh" with its block size
 * and its first block's or end-of-stream magic), never by its name, so
 * that standard input works alike.  The libraries Debian ships do the
 * work: zlib, liblzma, libzstd and libbz2.  Several streams one after the
 * other (`cat a.gz b.gz`, pigz, pbzip2, `xz` with several streams, zstd's
 * frames) decompress to their contents one after the other, as the
 * compressors' own -d does.
 *
 * Memory: the decoder's state (zlib's 32 KiB window, bzip2's blocks of
 * at most 900 kB, xz's dictionary as the file's header sets it, zstd's
 * window up to libzstd's default limit of 128 MiB, as `zstd -d` without
 * --memory) and one buffer of compressed bytes; output goes straight into
 * the caller's buffer, so reading streams in bounded memory.
 *
 * Ownership: a CgDecoder owns its state; the caller owns the pull
 * function's data, which must outlive the decoder.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CG_COMPRESSION_NONE,
  CG_COMPRESSION_GZIP,
  CG_COMPRESSION_XZ,
  CG_COMPRESSION_ZSTD,
  CG_COMPRESSION_BZIP2,
} CgCompression;

/* The magic bytes are at most this long. */
#define CG_COMPRESSION_MAGIC_MAX 10

/* The compression whose magic bytes @data (@len bytes, the first of an
 * input) start with; CG_COMPRESSION_NONE when none (and when @len is too
 * short to tell). */
CgCompression cg_compression_sniff (const guint8 *data, gsize len);

/* "gzip", "xz", "zstd", "bzip2" ("" for NONE).  (transfer none) */
const char *cg_compression_name (CgCompression kind);

/* Gives up to @n compressed bytes into @buf: the count, 0 at the end of
 * the compressed input, -1 with @error set. */
typedef gssize (*CgDecoderPull) (gpointer user_data, guint8 *buf, gsize n, GError **error);

typedef struct _CgDecoder CgDecoder;

/* A decoder of @kind (not NONE) for the input named @name in messages,
 * whose first @prefix_len compressed bytes are @prefix (copied: the
 * bytes the caller read to sniff the kind) and the rest come from @pull.
 * NULL with CG_ERROR_IO when the library cannot allocate its state. */
CgDecoder *cg_decoder_new (CgCompression kind, const char *name, const guint8 *prefix, gsize prefix_len,
                           CgDecoderPull pull, gpointer user_data, GError **error);

void cg_decoder_free (CgDecoder *decoder);

/* Decompresses up to @n bytes into @out, as read(2) does: the count
 * (fewer than @n when more would mean waiting for compressed input), 0
 * at the end of the last stream, -1 on error.  Errors, naming the input
 * and the offset in the compressed bytes where decoding stopped
 * ("NAME: offset N: ..."): CG_ERROR_TRUNCATED when the input ends inside
 * a stream; CG_ERROR_PARSE for corrupt data (a bad header, block or
 * checksum, or bytes after a stream that start no other); CG_ERROR_IO
 * for a stream that needs more memory than allowed, and whatever @pull
 * sets. */
gssize cg_decoder_read (CgDecoder *decoder, guint8 *out, gsize n, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgDecoder, cg_decoder_free)

G_END_DECLS
