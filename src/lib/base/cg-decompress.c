/* cg-decompress.c — one read loop over four decompression libraries
 * (cg-decompress.h).  Each library is driven the same way: compressed
 * bytes in, decompressed bytes out, and a step that says whether a
 * stream ended; the loop pulls input, tells a truncated stream from a
 * finished one, and starts the next stream of a concatenation.
 */
#include "config.h"

#include "cg-decompress.h"

#include <bzlib.h>
#include <lzma.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "cg-error.h"

/* compressed bytes read at a time: about what libzstd recommends
 * (ZSTD_DStreamInSize, one block), enough for the others */
#define IN_CHUNK (128u * 1024)

typedef enum {
  STEP_OK,    /* progress, or none possible without more input */
  STEP_END,   /* a stream (gzip member, bzip2 stream, zstd frame) ended */
  STEP_ERROR, /* corrupt data: *why says how */
} Step;

struct _CgDecoder {
  CgCompression kind;
  char *name;
  CgDecoderPull pull;
  gpointer pull_data;
  guint8 *in;        /* compressed bytes, IN_CHUNK of them */
  gsize in_pos, in_len;
  guint64 pulled;    /* compressed bytes pulled before in[0] */
  gboolean input_ended;
  gboolean finished; /* the last stream ended with the input */
  gboolean in_stream; /* inside a stream: its end has not been seen */
  guint n_streams;    /* started so far */
  guint64 stream_out; /* bytes the current stream gave */
  guint64 stream_at;  /* compressed offset where the current stream starts */
  union {
    z_stream z;
    lzma_stream x;
    bz_stream b;
  } s;
  ZSTD_DStream *zstd;
};

static const char *const names[] = { "", "gzip", "xz", "zstd", "bzip2" };

const char *
cg_compression_name (CgCompression kind)
{
  return kind < G_N_ELEMENTS (names) ? names[kind] : "";
}

CgCompression
cg_compression_sniff (const guint8 *p, gsize n)
{
  /* gzip: ID1 ID2 and CM = 8 (deflate), the only method defined */
  if (n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8)
    return CG_COMPRESSION_GZIP;
  if (n >= 6 && memcmp (p, "\xFD" "7zXZ\0", 6) == 0)
    return CG_COMPRESSION_XZ;
  /* a zstd frame, or a skippable frame (0x184D2A50 to 0x184D2A5F) */
  if (n >= 4 && memcmp (p, "\x28\xB5\x2F\xFD", 4) == 0)
    return CG_COMPRESSION_ZSTD;
  if (n >= 4 && (p[0] & 0xF0) == 0x50 && memcmp (p + 1, "\x2A\x4D\x18", 3) == 0)
    return CG_COMPRESSION_ZSTD;
  /* "BZh" and a block size, then a block's magic (the digits of pi) or
   * the end-of-stream magic (sqrt(pi)) of an empty stream: ten bytes, as
   * "BZh9" alone could start a text */
  if (n >= 10 && memcmp (p, "BZh", 3) == 0 && p[3] >= '1' && p[3] <= '9'
      && (memcmp (p + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0 || memcmp (p + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
    return CG_COMPRESSION_BZIP2;
  return CG_COMPRESSION_NONE;
}

/* ---- the four libraries, each: start, step, and end ---- */

static gboolean
start_stream (CgDecoder *d)
{
  switch (d->kind)
    {
    case CG_COMPRESSION_GZIP:
      memset (&d->s.z, 0, sizeof d->s.z);
      return inflateInit2 (&d->s.z, 16 + MAX_WBITS) == Z_OK; /* 16: gzip's wrapper only */
    case CG_COMPRESSION_XZ:
      {
        lzma_stream init = LZMA_STREAM_INIT;
        d->s.x = init;
        /* one stream at a time (not LZMA_CONCATENATED), so that bytes
         * after the last are told from a corrupt stream */
        return lzma_stream_decoder (&d->s.x, UINT64_MAX, 0) == LZMA_OK;
      }
    case CG_COMPRESSION_ZSTD:
      d->zstd = ZSTD_createDStream ();
      return d->zstd != NULL && !ZSTD_isError (ZSTD_initDStream (d->zstd));
    case CG_COMPRESSION_BZIP2:
      memset (&d->s.b, 0, sizeof d->s.b);
      return BZ2_bzDecompressInit (&d->s.b, 0, 0) == BZ_OK;
    case CG_COMPRESSION_NONE:
    default:
      return FALSE;
    }
}

static void
end_stream (CgDecoder *d)
{
  switch (d->kind)
    {
    case CG_COMPRESSION_GZIP:
      inflateEnd (&d->s.z);
      break;
    case CG_COMPRESSION_XZ:
      lzma_end (&d->s.x);
      break;
    case CG_COMPRESSION_ZSTD:
      ZSTD_freeDStream (d->zstd);
      d->zstd = NULL;
      break;
    case CG_COMPRESSION_BZIP2:
      BZ2_bzDecompressEnd (&d->s.b);
      break;
    case CG_COMPRESSION_NONE:
    default:
      break;
    }
}

/* The next stream of a concatenation, after one ended: zlib starts
 * over, liblzma and libbz2 anew; libzstd goes on by itself. */
static gboolean
next_stream (CgDecoder *d)
{
  if (d->kind == CG_COMPRESSION_GZIP)
    return inflateReset (&d->s.z) == Z_OK;
  if (d->kind == CG_COMPRESSION_XZ)
    {
      lzma_end (&d->s.x);
      return start_stream (d);
    }
  if (d->kind == CG_COMPRESSION_BZIP2)
    {
      BZ2_bzDecompressEnd (&d->s.b);
      return start_stream (d);
    }
  return TRUE;
}

static const char *
bzip2_why (int rc)
{
  switch (rc)
    {
    case BZ_DATA_ERROR_MAGIC:
      return "bad magic";
    case BZ_MEM_ERROR:
      return "out of memory";
    case BZ_DATA_ERROR:
    default:
      return "bad block or checksum";
    }
}

static const char *
xz_why (lzma_ret rc)
{
  switch (rc)
    {
    case LZMA_FORMAT_ERROR:
      return "bad stream header";
    case LZMA_OPTIONS_ERROR:
      return "options liblzma does not support";
    case LZMA_MEM_ERROR:
    case LZMA_MEMLIMIT_ERROR:
      return "out of memory";
    case LZMA_DATA_ERROR:
    default:
      return "bad block or checksum";
    }
}

/* Decompresses from @in (@in_len bytes; *@used consumed) into @out (@out_len;
 * *@made written).  @finish: no input follows @in. */
static Step
step (CgDecoder *d, const guint8 *in, gsize in_len, gsize *used, guint8 *out, gsize out_len, gsize *made,
      gboolean finish, const char **why)
{
  /* the libraries count in unsigned int (zlib, bzip2): a chunk at a time */
  uInt in_n = (uInt) MIN (in_len, (gsize) G_MAXUINT), out_n = (uInt) MIN (out_len, (gsize) G_MAXUINT);
  switch (d->kind)
    {
    case CG_COMPRESSION_GZIP:
      {
        z_stream *z = &d->s.z;
        z->next_in = (Bytef *) in, z->avail_in = in_n, z->next_out = out, z->avail_out = out_n;
        int rc = inflate (z, Z_NO_FLUSH);
        *used = in_n - z->avail_in, *made = out_n - z->avail_out;
        if (rc == Z_STREAM_END)
          return STEP_END;
        if (rc == Z_OK || rc == Z_BUF_ERROR)
          return STEP_OK;
        *why = rc == Z_MEM_ERROR ? "out of memory" : z->msg ? z->msg : "bad block";
        return STEP_ERROR;
      }
    case CG_COMPRESSION_XZ:
      {
        lzma_stream *x = &d->s.x;
        x->next_in = in, x->avail_in = in_len, x->next_out = out, x->avail_out = out_len;
        lzma_ret rc = lzma_code (x, finish ? LZMA_FINISH : LZMA_RUN);
        *used = in_len - x->avail_in, *made = out_len - x->avail_out;
        if (rc == LZMA_STREAM_END)
          return STEP_END;
        /* LZMA_BUF_ERROR: no progress; the loop tells truncation */
        if (rc == LZMA_OK || rc == LZMA_BUF_ERROR)
          return STEP_OK;
        *why = xz_why (rc);
        return STEP_ERROR;
      }
    case CG_COMPRESSION_ZSTD:
      {
        ZSTD_inBuffer ib = { in, in_len, 0 };
        ZSTD_outBuffer ob = { out, out_len, 0 };
        size_t rc = ZSTD_decompressStream (d->zstd, &ob, &ib);
        *used = ib.pos, *made = ob.pos;
        if (ZSTD_isError (rc))
          {
            *why = ZSTD_getErrorName (rc);
            return STEP_ERROR;
          }
        /* 0: a frame ended and everything it holds was written */
        return rc == 0 ? STEP_END : STEP_OK;
      }
    case CG_COMPRESSION_BZIP2:
      {
        bz_stream *b = &d->s.b;
        b->next_in = (char *) in, b->avail_in = in_n, b->next_out = (char *) out, b->avail_out = out_n;
        int rc = BZ2_bzDecompress (b);
        *used = in_n - b->avail_in, *made = out_n - b->avail_out;
        if (rc == BZ_STREAM_END)
          return STEP_END;
        if (rc == BZ_OK)
          return STEP_OK;
        *why = bzip2_why (rc);
        return STEP_ERROR;
      }
    case CG_COMPRESSION_NONE:
    default:
      *used = *made = 0;
      *why = "no compression";
      return STEP_ERROR;
    }
}

/* ---- the read loop ---- */

CgDecoder *
cg_decoder_new (CgCompression kind, const char *name, const guint8 *prefix, gsize prefix_len, CgDecoderPull pull,
                gpointer user_data, GError **error)
{
  g_return_val_if_fail (prefix_len <= IN_CHUNK, NULL);
  CgDecoder *d = g_new0 (CgDecoder, 1);
  d->kind = kind;
  d->name = g_strdup (name);
  d->pull = pull;
  d->pull_data = user_data;
  d->in = g_malloc (IN_CHUNK);
  if (prefix_len > 0)
    memcpy (d->in, prefix, prefix_len);
  d->in_len = prefix_len;
  if (!start_stream (d))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO, "%s: cannot start %s decompression", name,
                   cg_compression_name (kind));
      if (kind == CG_COMPRESSION_ZSTD)
        end_stream (d); /* the others' failed starts hold nothing */
      d->kind = CG_COMPRESSION_NONE;
      cg_decoder_free (d);
      return NULL;
    }
  d->in_stream = TRUE;
  d->n_streams = 1;
  return d;
}

void
cg_decoder_free (CgDecoder *d)
{
  if (d == NULL)
    return;
  end_stream (d);
  g_free (d->in);
  g_free (d->name);
  g_free (d);
}

/* Compressed input after in_pos: TRUE when there is some, FALSE at its
 * end or on error (*@failed). */
static gboolean
have_input (CgDecoder *d, gboolean *failed, GError **error)
{
  *failed = FALSE;
  if (d->in_pos < d->in_len)
    return TRUE;
  if (d->input_ended)
    return FALSE;
  d->pulled += d->in_len;
  d->in_pos = d->in_len = 0;
  gssize k = d->pull (d->pull_data, d->in, IN_CHUNK, error);
  if (k < 0)
    {
      *failed = TRUE;
      return FALSE;
    }
  d->in_len = (gsize) k;
  d->input_ended = k == 0;
  return k > 0;
}

static gssize
corrupt (CgDecoder *d, GError **error, CgError code, const char *why)
{
  g_set_error (error, CG_ERROR, code, "%s: offset %" G_GUINT64_FORMAT ": %s", d->name,
               d->pulled + d->in_pos, why);
  return -1;
}

gssize
cg_decoder_read (CgDecoder *d, guint8 *out, gsize n, GError **error)
{
  gsize produced = 0;
  while (produced < n && !d->finished)
    {
      gboolean failed;
      /* with output in hand, return it rather than wait for input */
      if (d->in_pos == d->in_len && !d->input_ended && produced > 0)
        break;
      gboolean more = have_input (d, &failed, error);
      if (failed)
        return -1;
      if (!d->in_stream && d->kind == CG_COMPRESSION_XZ)
        {
          /* stream padding: null bytes between xz streams */
          while (more && d->in[d->in_pos] == 0)
            if (++d->in_pos == d->in_len)
              {
                more = have_input (d, &failed, error);
                if (failed)
                  return -1;
              }
        }
      if (!d->in_stream)
        {
          /* a stream ended: the input ends too, or another stream starts */
          if (!more)
            {
              d->finished = TRUE;
              break;
            }
          if (!next_stream (d))
            return corrupt (d, error, CG_ERROR_IO, "cannot start the next stream");
          d->in_stream = TRUE;
          d->n_streams++;
          d->stream_out = 0;
          d->stream_at = d->pulled + d->in_pos;
        }
      gsize used, made;
      const char *why = NULL;
      Step s = step (d, d->in + d->in_pos, d->in_len - d->in_pos, &used, out + produced, n - produced, &made,
                     !more, &why);
      d->in_pos += used;
      produced += made;
      d->stream_out += made;
      if (s == STEP_ERROR && d->n_streams > 1 && d->stream_out == 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_PARSE,
                       "%s: offset %" G_GUINT64_FORMAT ": bytes after the end of the %s data that start no other %s stream",
                       d->name, d->stream_at, cg_compression_name (d->kind), cg_compression_name (d->kind));
          return -1;
        }
      if (s == STEP_ERROR)
        {
          g_autofree char *what = g_strdup_printf ("corrupt %s data (%s)", cg_compression_name (d->kind), why);
          return corrupt (d, error, CG_ERROR_PARSE, what);
        }
      if (s == STEP_END)
        d->in_stream = FALSE;
      else if (!more && used == 0 && made == 0)
        {
          g_autofree char *why_end = g_strdup_printf ("the %s data end in the middle of a stream (a truncated file?)",
                                                      cg_compression_name (d->kind));
          return corrupt (d, error, CG_ERROR_TRUNCATED, why_end);
        }
    }
  return (gssize) produced;
}
