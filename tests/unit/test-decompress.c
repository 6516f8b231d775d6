/* test-decompress.c — the decoders of cg-decompress against the
 * libraries' own one-shot compressors (the oracle: what was compressed
 * comes back), fed and drained in every chunk size down to one byte, so
 * that the read loop's hand-overs (a stream ending inside a chunk, a
 * chunk ending inside a header) are all met; concatenated streams,
 * truncation, corruption and trailing bytes with their offsets. */
#include "config.h"

#include <bzlib.h>
#include <lzma.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "cg-decompress.h"
#include "cg-test.h"

/* The text compressed: varied enough that each library makes several
 * blocks or matches, about 200 kB. */
static GString *
sample_text (void)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < 12000; i++)
    g_string_append_printf (s, "main;parse;expr%u;term%u %u\n", i % 17, (i * 7919) % 101, i);
  return s;
}

static GByteArray *
compress_text (CgCompression kind, const GString *text)
{
  GByteArray *out = g_byte_array_new ();
  gsize bound = text->len + text->len / 2 + 65536;
  g_byte_array_set_size (out, (guint) bound);
  gsize n = 0;
  switch (kind)
    {
    case CG_COMPRESSION_GZIP:
      {
        z_stream z = { 0 };
        g_assert (deflateInit2 (&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
        z.next_in = (Bytef *) text->str, z.avail_in = (uInt) text->len;
        z.next_out = out->data, z.avail_out = (uInt) bound;
        g_assert (deflate (&z, Z_FINISH) == Z_STREAM_END);
        n = z.total_out;
        deflateEnd (&z);
        break;
      }
    case CG_COMPRESSION_XZ:
      g_assert (lzma_easy_buffer_encode (6, LZMA_CHECK_CRC64, NULL, (const guint8 *) text->str, text->len, out->data,
                                         &n, bound) == LZMA_OK);
      break;
    case CG_COMPRESSION_ZSTD:
      {
        /* with a checksum, as the zstd tool writes by default */
        ZSTD_CCtx *c = ZSTD_createCCtx ();
        ZSTD_CCtx_setParameter (c, ZSTD_c_checksumFlag, 1);
        n = ZSTD_compress2 (c, out->data, bound, text->str, text->len);
        g_assert (!ZSTD_isError (n));
        ZSTD_freeCCtx (c);
        break;
      }
    case CG_COMPRESSION_BZIP2:
      {
        unsigned int k = (unsigned int) bound;
        g_assert (BZ2_bzBuffToBuffCompress ((char *) out->data, &k, text->str, (unsigned int) text->len, 9, 0, 0)
                  == BZ_OK);
        n = k;
        break;
      }
    case CG_COMPRESSION_NONE:
    default:
      g_assert_not_reached ();
    }
  g_byte_array_set_size (out, (guint) n);
  return out;
}

typedef struct {
  const GByteArray *data;
  gsize pos, chunk;
} Source;

static gssize
pull (gpointer user_data, guint8 *buf, gsize n, G_GNUC_UNUSED GError **error)
{
  Source *s = user_data;
  gsize k = MIN (MIN (n, s->chunk), s->data->len - s->pos);
  memcpy (buf, s->data->data + s->pos, k);
  s->pos += k;
  return (gssize) k;
}

/* Decompresses @data (the first @prefix bytes given to the decoder, the
 * rest pulled @chunk at a time, read @out_chunk at a time): the bytes,
 * or NULL with @error set. */
static GByteArray *
decompress (CgCompression kind, const GByteArray *data, gsize prefix, gsize chunk, gsize out_chunk, GError **error)
{
  prefix = MIN (prefix, data->len);
  Source s = { data, prefix, chunk };
  g_autoptr (CgDecoder) d = cg_decoder_new (kind, "t", data->data, prefix, pull, &s, error);
  if (d == NULL)
    return NULL;
  GByteArray *out = g_byte_array_new ();
  guint8 buf[4096];
  for (;;)
    {
      gssize k = cg_decoder_read (d, buf, MIN (out_chunk, sizeof buf), error);
      if (k < 0)
        {
          g_byte_array_unref (out);
          return NULL;
        }
      if (k == 0)
        return out;
      g_byte_array_append (out, buf, (guint) k);
    }
}

static const CgCompression kinds[] = { CG_COMPRESSION_GZIP, CG_COMPRESSION_XZ, CG_COMPRESSION_ZSTD,
                                       CG_COMPRESSION_BZIP2 };

static void
test_sniff (void)
{
  g_autoptr (GString) text = sample_text ();
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr (GByteArray) z = compress_text (kinds[i], text);
      CU_ASSERT_EQUAL (cg_compression_sniff (z->data, z->len), kinds[i]);
      CU_ASSERT_EQUAL (cg_compression_sniff (z->data, 2), CG_COMPRESSION_NONE);
    }
  CU_ASSERT_EQUAL (cg_compression_sniff ((const guint8 *) "BZh91 is text", 13), CG_COMPRESSION_NONE);
  CU_ASSERT_EQUAL (cg_compression_sniff ((const guint8 *) "events: Ir\n", 11), CG_COMPRESSION_NONE);
}

static void
test_chunks (void)
{
  g_autoptr (GString) text = sample_text ();
  static const gsize chunks[][3] = { { 10, 1, 4096 }, { 3, 7, 1 }, { 0, 4096, 4096 }, { 10, 131072, 333 } };
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr (GByteArray) z = compress_text (kinds[i], text);
      for (guint c = 0; c < G_N_ELEMENTS (chunks); c++)
        {
          GError *error = NULL;
          g_autoptr (GByteArray) whole = decompress (kinds[i], z, chunks[c][0], chunks[c][1], chunks[c][2], &error);
          CU_ASSERT_PTR_NOT_NULL_FATAL (whole);
          CU_ASSERT_EQUAL (whole->len, text->len);
          CU_ASSERT (memcmp (whole->data, text->str, text->len) == 0);
        }
    }
}

static void
test_concatenated (void)
{
  g_autoptr (GString) text = sample_text ();
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr (GByteArray) z = compress_text (kinds[i], text);
      g_autoptr (GByteArray) two = g_byte_array_new ();
      g_byte_array_append (two, z->data, z->len);
      if (kinds[i] == CG_COMPRESSION_XZ)
        g_byte_array_append (two, (const guint8 *) "\0\0\0\0", 4); /* stream padding */
      g_byte_array_append (two, z->data, z->len);
      GError *error = NULL;
      g_autoptr (GByteArray) out = decompress (kinds[i], two, 10, 1000, 4096, &error);
      CU_ASSERT_PTR_NOT_NULL_FATAL (out);
      CU_ASSERT_EQUAL (out->len, 2 * text->len);
      CU_ASSERT (memcmp (out->data + text->len, text->str, text->len) == 0);
    }
}

static void
test_broken (void)
{
  g_autoptr (GString) text = sample_text ();
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr (GByteArray) z = compress_text (kinds[i], text);
      /* truncated: the offset is where the data stop */
      g_autoptr (GByteArray) cut = g_byte_array_new ();
      g_byte_array_append (cut, z->data, z->len / 2);
      GError *error = NULL;
      CU_ASSERT_PTR_NULL (decompress (kinds[i], cut, 10, 999, 4096, &error));
      g_autofree char *want = g_strdup_printf ("t: offset %u: the %s data end in the middle", cut->len,
                                               cg_compression_name (kinds[i]));
      CG_ASSERT_ERROR (error, CG_ERROR_TRUNCATED, want);
      g_clear_error (&error);
      /* trailing bytes that start no other stream: the offset is theirs */
      g_autoptr (GByteArray) trail = g_byte_array_new ();
      g_byte_array_append (trail, z->data, z->len);
      g_byte_array_append (trail, (const guint8 *) "trailing text\n", 14);
      CU_ASSERT_PTR_NULL (decompress (kinds[i], trail, 10, 999, 4096, &error));
      g_autofree char *at = g_strdup_printf ("t: offset %u: bytes after the end of the %s data", z->len,
                                             cg_compression_name (kinds[i]));
      CG_ASSERT_ERROR (error, CG_ERROR_PARSE, at);
      g_clear_error (&error);
      /* corrupt: an error at some offset, never the wrong bytes */
      g_autoptr (GByteArray) bad = g_byte_array_new ();
      g_byte_array_append (bad, z->data, z->len);
      bad->data[bad->len / 2] ^= 0x55;
      g_autoptr (GByteArray) out = decompress (kinds[i], bad, 10, 999, 4096, &error);
      CU_ASSERT_PTR_NULL (out);
      CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "t: offset ");
      g_clear_error (&error);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "magic bytes", test_sniff },
    { "every chunk size in and out", test_chunks },
    { "concatenated streams", test_concatenated },
    { "truncated, trailing and corrupt data", test_broken },
    { NULL, NULL },
  };
  return cg_test_main ("decompress", cases);
}
