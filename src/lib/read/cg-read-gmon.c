/* cg-read-gmon.c — gmon.out: parse everything first, then add it. */
#include "config.h"

#include "cg-read-gmon.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cg-cold-part.h"
#include "cg-demangle.h"
#include "cg-elf-functions.h"
#include "cg-error.h"
#include "cg-symbols.h"

#define HEADER_SIZE 20
#define TAG_TIME_HIST 0
#define TAG_CG_ARC 1
#define TAG_BB_COUNT 2
#define BSD44_VERSION 0x00051879u

typedef struct {
  guint64 low, high;
  guint32 n_bins;
  guint32 rate;
  char dimension[16];
  gsize offset;        /* of the record */
  const guint8 *bins;  /* n_bins 16-bit counts in the file */
} HistRecord;

typedef struct {
  guint64 from, self, count;
  gsize offset;
} ArcRecord;

typedef struct {
  const char *name;    /* the input's */
  const guint8 *data;
  gsize len;
  guint ptr;           /* 4 or 8 */
  gboolean big_endian;
  const CgSymbols *symbols;
  GArray *hists;       /* HistRecord */
  GArray *arcs;        /* ArcRecord */
  guint64 bb_records;
  gboolean call_graph; /* arc records were read */
  guint64 exe_low, exe_high;
  gboolean unchecked;  /* the records' addresses are not checked against the executable */
} Parser;

/* ---- bytes ---- */

static guint32
get_u32 (const Parser *p, gsize off)
{
  guint32 v;
  memcpy (&v, p->data + off, 4);
  return p->big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

static guint64
get_u64 (const Parser *p, gsize off)
{
  guint64 v;
  memcpy (&v, p->data + off, 8);
  return p->big_endian ? GUINT64_FROM_BE (v) : GUINT64_FROM_LE (v);
}

static guint64
get_vma (const Parser *p, gsize off)
{
  return p->ptr == 4 ? get_u32 (p, off) : get_u64 (p, off);
}

static guint16
get_u16 (gboolean big_endian, const guint8 *at)
{
  guint16 v;
  memcpy (&v, at, 2);
  return big_endian ? GUINT16_FROM_BE (v) : GUINT16_FROM_LE (v);
}

static gboolean G_GNUC_PRINTF (5, 6)
fail (const Parser *p, GError **error, int code, gsize offset, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, code, p->name, CG_AT_OFFSET, offset, format, ap);
  va_end (ap);
  return FALSE;
}

/* The @n bytes at @off exist, else a truncation error naming @what. */
static gboolean
need (const Parser *p, gsize off, guint64 n, const char *what, GError **error)
{
  if (off <= p->len && n <= p->len - off)
    return TRUE;
  return fail (p, error, CG_ERROR_TRUNCATED, p->len,
               "the file ends inside %s (it needs %" G_GUINT64_FORMAT " bytes from offset %" G_GSIZE_FORMAT
               ", %" G_GSIZE_FORMAT " are left)",
               what, n, off, off <= p->len ? p->len - off : 0);
}

/* ---- checks against the executable ---- */

static gboolean
histogram_fits (const Parser *p, const HistRecord *h, GError **error)
{
  /* glibc rounds low down and high up to 4 bytes */
  guint64 lo = p->exe_low & ~(guint64) 7, hi = p->exe_high + 8;
  if (p->unchecked || (h->low >= lo && h->high <= hi))
    return TRUE;
  return fail (p, error, CG_ERROR_MISMATCH, h->offset,
               "the histogram covers [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
               "x) but %s spans [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER
               "x): the profile is not of this executable, or it holds run-time addresses "
               "(a PIE profiled with glibc older than 2.27)",
               h->low, h->high, cg_symbols_path (p->symbols), p->exe_low, p->exe_high);
}

static gboolean
arc_fits (const Parser *p, const ArcRecord *a, GError **error)
{
  /* glibc only records calls made from the executable's text */
  guint64 lo = p->exe_low & ~(guint64) 15, hi = p->exe_high + 16;
  if (p->unchecked || (a->from >= lo && a->from < hi))
    return TRUE;
  return fail (p, error, CG_ERROR_MISMATCH, a->offset,
               "the arc's caller address 0x%" G_GINT64_MODIFIER "x lies outside %s [0x%" G_GINT64_MODIFIER
               "x, 0x%" G_GINT64_MODIFIER "x): the profile is not of this executable, or it holds "
               "run-time addresses (a PIE profiled with glibc older than 2.27)",
               a->from, cg_symbols_path (p->symbols), p->exe_low, p->exe_high);
}

/* ---- the tagged format ---- */

static gboolean
parse_histogram (Parser *p, gsize *off, GError **error)
{
  gsize start = *off - 1;
  gsize head = 2 * (gsize) p->ptr + 4 + 4 + 15 + 1;
  if (!need (p, *off, head, "a histogram record's header", error))
    return FALSE;
  HistRecord h = { 0 };
  h.offset = start;
  h.low = get_vma (p, *off);
  h.high = get_vma (p, *off + p->ptr);
  h.n_bins = get_u32 (p, *off + 2 * p->ptr);
  h.rate = get_u32 (p, *off + 2 * p->ptr + 4);
  memcpy (h.dimension, p->data + *off + 2 * p->ptr + 8, 15);
  h.dimension[15] = '\0';
  *off += head;
  if (h.low > h.high)
    return fail (p, error, CG_ERROR_PARSE, start,
                 "the histogram's range [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) is reversed",
                 h.low, h.high);
  if (h.n_bins == 0)
    return fail (p, error, CG_ERROR_PARSE, start, "the histogram has no bins");
  if (h.rate == 0)
    return fail (p, error, CG_ERROR_PARSE, start, "the histogram's sampling rate is 0");
  if (!need (p, *off, 2 * (guint64) h.n_bins, "a histogram's bins", error))
    return FALSE;
  h.bins = p->data + *off;
  *off += 2 * (gsize) h.n_bins;
  if (!histogram_fits (p, &h, error))
    return FALSE;
  g_array_append_val (p->hists, h);
  return TRUE;
}

static gboolean
parse_arc (Parser *p, gsize *off, guint count_size, gsize start, GError **error)
{
  ArcRecord a = { 0 };
  a.offset = start;
  gsize size = 2 * (gsize) p->ptr + count_size;
  if (!need (p, *off, size, "a call-graph arc", error))
    return FALSE;
  a.from = get_vma (p, *off);
  a.self = get_vma (p, *off + p->ptr);
  a.count = count_size == 4 ? get_u32 (p, *off + 2 * p->ptr) : get_vma (p, *off + 2 * p->ptr);
  *off += size;
  if (!arc_fits (p, &a, error))
    return FALSE;
  g_array_append_val (p->arcs, a);
  p->call_graph = TRUE;
  return TRUE;
}

/* Skips a NUL-terminated string (version 0 basic-block records). */
static gboolean
skip_string (Parser *p, gsize *off, GError **error)
{
  const guint8 *nul = *off < p->len ? memchr (p->data + *off, 0, p->len - *off) : NULL;
  if (nul == NULL)
    return need (p, *off, p->len - MIN (*off, p->len) + 1, "a basic-block record's string", error);
  *off = (gsize) (nul - p->data) + 1;
  return TRUE;
}

static gboolean
parse_bb (Parser *p, gsize *off, guint32 version, GError **error)
{
  if (!need (p, *off, 4, "a basic-block record", error))
    return FALSE;
  guint32 n = get_u32 (p, *off);
  *off += 4;
  if (version == 0)
    {
      /* version 0: a string, then per block two host words, two strings
       * and an int (gprof's bb_read_rec) */
      if (!skip_string (p, off, error))
        return FALSE;
      for (guint32 b = 0; b < n; b++)
        if (!need (p, *off, 16, "a basic-block record", error) || (*off += 16, !skip_string (p, off, error))
            || !skip_string (p, off, error) || !need (p, *off, 4, "a basic-block record", error)
            || (*off += 4, FALSE))
          return FALSE;
    }
  else
    {
      if (!need (p, *off, (guint64) n * 2 * p->ptr, "a basic-block record", error))
        return FALSE;
      *off += (gsize) n * 2 * p->ptr;
    }
  p->bb_records++;
  return TRUE;
}

static gboolean
parse_tagged (Parser *p, GError **error)
{
  if (p->len < HEADER_SIZE)
    return fail (p, error, CG_ERROR_TRUNCATED, p->len,
                 "the file ends inside the 20-byte gmon.out header");
  guint32 version = get_u32 (p, 4);
  if (version != 1 && version != 0)
    return fail (p, error, CG_ERROR_PARSE, 4, "unsupported gmon.out version %u (gprof reads 0 and 1)",
                 version);
  gsize off = HEADER_SIZE;
  while (off < p->len)
    {
      guint8 tag = p->data[off++];
      gboolean ok;
      switch (tag)
        {
        case TAG_TIME_HIST:
          ok = parse_histogram (p, &off, error);
          break;
        case TAG_CG_ARC:
          ok = parse_arc (p, &off, 4, off - 1, error);
          break;
        case TAG_BB_COUNT:
          ok = parse_bb (p, &off, version, error);
          break;
        default:
          return fail (p, error, CG_ERROR_PARSE, off - 1,
                       "unknown record tag %u (gmon.out knows 0, 1 and 2): the file is corrupt", tag);
        }
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/* ---- the old BSD formats ---- */

static gboolean
parse_bsd (Parser *p, GError **error)
{
  gsize ptr = p->ptr;
  if (!need (p, 0, 2 * ptr + 8, "the BSD gmon.out header", error))
    return FALSE;
  HistRecord h = { 0 };
  h.low = get_vma (p, 0);
  h.high = get_vma (p, ptr);
  guint32 ncnt = get_u32 (p, 2 * ptr);
  guint32 version = get_u32 (p, 2 * ptr + 4);
  gsize header;
  if (version == BSD44_VERSION)
    {
      if (!need (p, 0, 2 * ptr + 12, "the 4.4BSD gmon.out header", error))
        return FALSE;
      h.rate = get_u32 (p, 2 * ptr + 8);
      header = 2 * ptr + 4 + 4 + 4 + 12;
    }
  else
    {
      /* no rate: gprof takes the system's clock tick */
      long hz = sysconf (_SC_CLK_TCK);
      h.rate = hz > 0 ? (guint32) hz : 100;
      header = 2 * ptr + 4;
    }
  strcpy (h.dimension, "seconds");
  if (ncnt < header || h.low > h.high)
    return fail (p, error, CG_ERROR_FORMAT, 0,
                 "not a gmon.out file (no \"gmon\" magic, and not the old BSD format either)");
  h.n_bins = (ncnt - (guint32) header) / 2;
  h.offset = 0;
  if (!need (p, header, 2 * (guint64) h.n_bins, "the histogram's bins", error))
    return FALSE;
  h.bins = p->data + header;
  if (h.n_bins > 0)
    {
      if (!histogram_fits (p, &h, error))
        return FALSE;
      g_array_append_val (p->hists, h);
    }
  /* arcs until the end; a partial last one is ignored, as by gprof */
  gsize off = header + 2 * (gsize) h.n_bins;
  while (p->len - off >= 3 * ptr)
    if (!parse_arc (p, &off, (guint) ptr, off, error))
      return FALSE;
  p->call_graph = TRUE;
  return TRUE;
}

/* ---- crediting (gprof's hist_assign_samples_1) ---- */

/* Adds the credits of @counts over [@low, ...) to @credit (one per
 * symbol), in gprof's order of bins, so sums are gprof's to the bit. */
static void
credit_bins (const CgSymbol *sym, guint n, guint64 low, guint32 n_bins, gdouble width,
             const guint64 *counts, gdouble *credit)
{
  guint64 lowpc = low / 2;
  /* the last symbol reaches the end of .text (gprof reads past its
   * table here) */
  guint64 last_high = MAX ((sym[n - 1].end + 1) / 2, sym[n - 1].address / 2);
  guint k = 1;
  for (guint32 i = 0; i < n_bins; i++)
    {
      guint64 c = counts[i];
      if (c == 0)
        continue;
      guint64 bin_low = lowpc + (guint64) (width * (gdouble) i);
      guint64 bin_high = lowpc + (guint64) (width * (gdouble) (i + 1));
      gdouble count_time = (gdouble) c;
      for (guint j = k - 1; j < n; k = ++j)
        {
          guint64 sym_low = sym[j].address / 2;
          guint64 sym_high = j + 1 < n ? sym[j + 1].address / 2 : last_high;
          if (bin_high < sym_low)
            break;
          if (bin_low >= sym_high)
            continue;
          guint64 overlap = MIN (bin_high, sym_high) - MAX (bin_low, sym_low);
          if (overlap > 0)
            credit[j] += (gdouble) overlap * count_time / width;
        }
    }
}

/* ---- adding to the profile ---- */

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  const CgSymbols *symbols;
  const CgSymbol *sym;
  guint n_sym;
  CgFunctionId *fid;
  guint event;
} Target;

/* One function per symbol.  A name that several symbols have (two
 * files' static helper) is a function per symbol, as in gprof, each in
 * the object cg_elf_apart_object names after what
 * cg_elf_functions_apart tells it apart by (its source file in the
 * symbol table), else after its address, as the perf, gperftools and
 * amon.out readers name them, so that their profiles of the program
 * merge function by function.  A static function's source file (from
 * DWARF) is its file.  The object is the executable's absolute path
 * without symbolic links, as perf and callgrind name the objects they
 * saw mapped, so that the gmon.out's functions are the same functions as
 * theirs in a merge (lua 5.4.4 profiled with --executable=../lua and by
 * callgrind were two sets of functions).  A cold part (NAME.cold, a
 * function with all symbols: cg-cold-part.h) is NAME's where one symbol
 * has that name, as the perf reader counts it. */
static void
ensure_functions (Target *t)
{
  CgGraph *g = t->graph;
  g_autofree char *real = realpath (cg_symbols_path (t->symbols), NULL);
  const char *exe = real ? real : cg_symbols_path (t->symbols);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal); /* name -> symbols of it */
  for (guint i = 0; i < t->n_sym; i++)
    g_hash_table_insert (names, (gpointer) t->sym[i].name,
                         GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (names, t->sym[i].name)) + 1));
  g_autoptr (CgElfFunctions) elf = NULL;
  gboolean loaded = FALSE;
  /* cold parts (all symbols only) after the others: theirs is their
   * function's */
  g_autoptr (GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal); /* name -> 1 + its symbol */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < t->n_sym; i++)
      {
        const CgSymbol *s = &t->sym[i];
        gsize len = strlen (s->name), base = cg_cold_part_base (s->name, len);
        if ((base < len) != (pass == 1))
          continue;
        if (base < len)
          {
            g_autofree char *function = g_strndup (s->name, base);
            guint at = GPOINTER_TO_UINT (g_hash_table_lookup (index, function));
            if (at > 0 && GPOINTER_TO_UINT (g_hash_table_lookup (names, function)) == 1)
              {
                t->fid[i] = t->fid[at - 1];
                continue;
              }
          }
        g_hash_table_insert (index, (gpointer) s->name, GUINT_TO_POINTER (i + 1));
        if (GPOINTER_TO_UINT (g_hash_table_lookup (names, s->name)) < 2)
          t->fid[i] = cg_graph_ensure_function (g, exe, s->name);
        else
          {
            if (!loaded)
              elf = cg_elf_functions_load (cg_symbols_path (t->symbols), NULL);
            loaded = TRUE;
            const char *apart = elf ? cg_elf_functions_apart (elf, s->address, s->name) : NULL;
            g_autofree char *address = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", s->address);
            g_autofree char *object = cg_elf_apart_object (exe, apart ? apart : address);
            t->fid[i] = cg_graph_ensure_function (g, object, s->name);
          }
        if (s->file)
          cg_graph_function_set_location (g, t->fid[i], s->file, 0);
      }
}

static gboolean
overflow (const Parser *p, GError **error)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s: a sum of counts exceeds 64 bits", p->name);
  return FALSE;
}

/* Adds the histograms: checks them against the profile's, then credits. */
static gboolean
add_histograms (Target *t, const Parser *p, GError **error)
{
  CgHistogram *h = cg_profile_histogram (t->profile);
  if (p->hists->len == 0)
    {
      if (h == NULL && p->call_graph)
        cg_profile_set_histogram (t->profile, h = cg_histogram_new (t->event, 0, 0.0));
      if (h)
        cg_histogram_set_call_graph (h, cg_histogram_call_graph (h) || p->call_graph);
      return TRUE;
    }
  g_autofree guint *range_of = g_new (guint, p->hists->len);
  g_autoptr (CgHistogram) fresh = NULL;
  for (guint r = 0; r < p->hists->len; r++)
    {
      const HistRecord *rec = &g_array_index (p->hists, HistRecord, r);
      gdouble width = (gdouble) ((rec->high - rec->low) / 2) / rec->n_bins;
      if (h == NULL || cg_histogram_n_ranges (h) == 0)
        {
          /* the first histogram sets the rate and the bin width */
          fresh = cg_histogram_new (t->event, rec->rate, width);
          if (h)
            {
              cg_histogram_add_samples (fresh, cg_histogram_samples (h));
              cg_histogram_set_call_graph (fresh, cg_histogram_call_graph (h));
            }
          cg_profile_set_histogram (t->profile, h = g_steal_pointer (&fresh));
        }
      else if (cg_histogram_event (h) != t->event)
        return fail (p, error, CG_ERROR_MISMATCH, rec->offset,
                     "the profile already has a histogram of another event");
      GError *local = NULL;
      if (!cg_histogram_add_range (h, rec->low, rec->high, rec->n_bins, width, &range_of[r], &local))
        {
          fail (p, error, local->code, rec->offset, "%s", local->message);
          g_error_free (local);
          return FALSE;
        }
    }
  cg_histogram_set_call_graph (h, cg_histogram_call_graph (h) || p->call_graph);

  gdouble width = cg_histogram_bin_width (h);
  g_autofree gdouble *credit = g_new0 (gdouble, t->n_sym);
  guint64 samples = 0;
  gboolean known = cg_histogram_counts_known (h);
  for (guint r = 0; r < p->hists->len; r++)
    {
      const HistRecord *rec = &g_array_index (p->hists, HistRecord, r);
      g_autofree guint64 *own = known ? NULL : g_new0 (guint64, rec->n_bins);
      guint64 *counts = known ? cg_histogram_counts_mut (h, range_of[r]) : own;
      /* only bins that have samples are written: the counts are
       * allocated zeroed, and pages never written are no memory (a
       * program with 200 MB of code has 50 million bins, 400 MB of
       * counts, of which a few pages hold samples) */
      for (guint32 i = 0; i < rec->n_bins; i++)
        {
          guint16 c = get_u16 (p->big_endian, rec->bins + 2 * (gsize) i);
          if (c == 0)
            continue;
          counts[i] += c;
          samples += c; /* < 2^32 bins of < 2^16: cannot overflow */
        }
      if (!known)
        credit_bins (t->sym, t->n_sym, rec->low, rec->n_bins, width, own, credit);
    }
  if (known)
    /* all counts of all files so far: credit the sums as gprof does */
    for (guint r = 0; r < cg_histogram_n_ranges (h); r++)
      {
        guint64 low, high;
        guint32 n_bins;
        cg_histogram_range (h, r, &low, &high, &n_bins);
        const guint64 *counts = cg_histogram_counts (h, r);
        if (counts)
          credit_bins (t->sym, t->n_sym, low, n_bins, width, counts, credit);
      }
  if (!cg_histogram_add_samples (h, samples))
    return overflow (p, error);
  /* a sample is one tick, the stored unit: what the noise of a
   * difference is reckoned from (cg-diff) */
  cg_graph_add_event_samples (t->graph, t->event, samples, (gdouble) samples);

  for (guint i = 0; i < t->n_sym; i++)
    {
      CgValue *self = &cg_graph_self (t->graph, t->fid[i])[t->event];
      if (known)
        {
          gdouble old = cg_histogram_credit (h, t->fid[i]);
          /* a self time made of these credits alone is replaced, so that
           * it is exactly gprof's sum */
          self->x = self->x == old ? credit[i] : self->x - old + credit[i];
          cg_histogram_set_credit (h, t->fid[i], credit[i]);
        }
      else
        self->x += credit[i];
    }
  return TRUE;
}

/* Whether the instruction that ends at @at is a call with a 32-bit
 * displacement: e8 rel32 (clang's call mcount), or ff /2 with a disp32
 * (gcc's call *mcount@GOTPCREL(%rip), i386's call *mcount@GOT(%ebx)). */
static gboolean
after_call (const guint8 *at)
{
  guint8 modrm = at[-5];
  return at[-5] == 0xe8
         || (at[-6] == 0xff && (modrm & 0x38) == 0x10 && ((modrm & 0xc7) == 0x05 || (modrm & 0xc0) == 0x80));
}

/* The arc records whose callee address does not follow a call
 * instruction in the executable's .text, of those in it: the address is
 * where the profiling hook (mcount, __fentry__) returns to, just after
 * its call in the callee's prologue (gcc and clang, 32- and 64-bit, PIE
 * or not: bc, Lua, gawk, zlib).  Most records failing so means the
 * executable is not the one profiled (another build of the program);
 * gprof reads such a profile without a word.  A record naming a
 * function's first byte is hooked too: gprof -s writes its gmon.sum's
 * arcs as the symbols' addresses (cg_write_arcs), not the hooks'.  x86
 * only: 0 of 0 elsewhere. */
static void
count_unhooked (const Target *t, const Parser *p, guint *unhooked, guint *checked)
{
  guint machine = cg_symbols_machine (t->symbols);
  *unhooked = *checked = 0;
  if (machine != EM_X86_64 && machine != EM_386 && machine != EM_IAMCU)
    return;
  /* the six bytes before each address, read from the file: not the whole
   * of .text, 200 MB in a program that large, for a few bytes an arc */
  for (guint i = 0; i < p->arcs->len; i++)
    {
      guint64 self = g_array_index (p->arcs, ArcRecord, i).self;
      guint8 code[6];
      if (self < 6 || !cg_symbols_text_bytes (t->symbols, self - 6, code, 6))
        continue;
      (*checked)++;
      gint s = cg_symbols_lookup (t->symbols, self);
      gboolean entry = s >= 0 && t->sym[s].address == self;
      *unhooked += !entry && !after_call (code + 6);
    }
}

/* @a + @b, or G_MAXUINT64 past it: counts from a hostile file only
 * make a warning's numbers. */
static guint64
sum_capped (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

/* Adds @weight to @name's in @weights and to *@sum when @name is set. */
static void
weigh (GHashTable *weights, const char *name, guint64 weight, guint64 *sum)
{
  if (name == NULL || weight == 0)
    return;
  guint64 *w = g_hash_table_lookup (weights, name);
  if (w == NULL)
    g_hash_table_insert (weights, (gpointer) name, w = g_new0 (guint64, 1));
  *w = sum_capped (*w, weight);
  *sum = sum_capped (*sum, weight);
}

static gint
by_weight (gconstpointer a, gconstpointer b, gpointer weights)
{
  guint64 x = *(guint64 *) g_hash_table_lookup (weights, *(const char *const *) a);
  guint64 y = *(guint64 *) g_hash_table_lookup (weights, *(const char *const *) b);
  return x != y ? (x < y) - (x > y) : strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* With gprof's choice of symbols, says how much of the profile lies in
 * the local functions it leaves out (gcc's clones and split parts,
 * clang's instances for a lambda: cg_symbols_left_out), which it charges to the function before them in
 * memory: a sample by its bin's first address, a call by its caller's or
 * callee's address.  Said when that is 1% of the samples or of the calls
 * or more: a program whose hot loop gcc cloned showed its whole time in
 * crt's frame_dummy, called by the clone's caller.  Not said when the
 * user chose gprof's choice (--symbols=gprof). */
static void
warn_left_out (const Parser *p, const CgReadOptions *options)
{
  if (options == NULL || options->symbol_choice != CG_SYMBOLS_GPROF || options->symbols_chosen)
    return;
  g_autoptr (GHashTable) weights = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  guint64 samples = 0, samples_out = 0, calls = 0, calls_out = 0, unused = 0;
  for (guint r = 0; r < p->hists->len; r++)
    {
      const HistRecord *rec = &g_array_index (p->hists, HistRecord, r);
      gdouble bytes = (gdouble) (rec->high - rec->low) / rec->n_bins;
      for (guint32 i = 0; i < rec->n_bins; i++)
        {
          guint16 c = get_u16 (p->big_endian, rec->bins + 2 * (gsize) i);
          samples += c;
          if (c > 0)
            weigh (weights, cg_symbols_left_out (p->symbols, rec->low + (guint64) (bytes * i)), c, &samples_out);
        }
    }
  for (guint i = 0; i < p->arcs->len; i++)
    {
      const ArcRecord *a = &g_array_index (p->arcs, ArcRecord, i);
      const char *from = cg_symbols_left_out (p->symbols, a->from), *to = cg_symbols_left_out (p->symbols, a->self);
      calls = sum_capped (calls, a->count);
      if (from || to)
        calls_out = sum_capped (calls_out, a->count);
      weigh (weights, from, a->count, &unused);
      weigh (weights, to, a->count, &unused);
    }
  if ((gdouble) samples_out * 100 < (gdouble) MAX (samples, 1) && (gdouble) calls_out * 100 < (gdouble) MAX (calls, 1))
    return;
  g_autofree char *share = samples_out == 0 ? g_strdup ("none")
                                            : g_strdup_printf ("%.1f%%", 100.0 * (gdouble) samples_out / (gdouble) samples);
  guint n = 0;
  g_autofree gpointer *names = g_hash_table_get_keys_as_array (weights, &n);
  g_qsort_with_data (names, (gint) n, sizeof *names, by_weight, weights);
  g_autoptr (GString) list = g_string_new (NULL);
  for (guint i = 0; i < n && i < 3; i++)
    {
      g_autofree char *shown = cg_demangle (names[i]);
      g_string_append_printf (list, "%s%s", i ? ", " : "", shown ? shown : (const char *) names[i]);
    }
  if (n > 3)
    g_string_append_printf (list, " and %u more", n - 3);
  /* what they are: a '$' is clang's (gprof refuses any name with one) */
  gboolean dollar = FALSE, other = FALSE;
  for (guint i = 0; i < n; i++)
    if (strchr (names[i], '$') != NULL)
      dollar = TRUE;
    else
      other = TRUE;
  const char *kinds = !dollar ? "gcc's clones and split parts"
                      : other ? "gcc's clones and split parts and clang's functions named after a lambda (a '$' in"
                                " the name)"
                              : "clang's functions named after a lambda (a '$' in the name)";
  cg_read_warn (options,
                "%s: %s of the samples and %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT " calls lie in"
                " local functions that gprof does not count as functions, %s (%s): as"
                " gprof does, they are charged to the function before each in memory (--symbols=all makes them"
                " functions; --symbols=gprof keeps gprof's choice without this warning)",
                p->name, share, calls_out, calls, kinds, list->str);
}

/* Says so where the file has a histogram and calls but not one sample,
 * as gprof's flat profile says "no time accumulated": every time then
 * reads 0, and cgtree, which hides lines below 1% of the total, showed
 * an empty tree without a word.  profil(3) takes a sample only where
 * SIGPROF finds the program in its own code, and the process's timer
 * sends the signal to a thread that does not block it: xz 5.4's liblzma
 * blocks every signal in its worker threads, so a 4-thread compression
 * of 15 s of CPU time left all its samples to the main thread, waiting
 * in libc, outside the histogram. */
static void
warn_no_samples (const Parser *p, const CgReadOptions *options)
{
  if (p->hists->len == 0 || !p->call_graph)
    return;
  for (guint r = 0; r < p->hists->len; r++)
    {
      const HistRecord *rec = &g_array_index (p->hists, HistRecord, r);
      for (guint32 i = 0; i < rec->n_bins; i++)
        if (get_u16 (p->big_endian, rec->bins + 2 * (gsize) i) != 0)
          return;
    }
  cg_read_warn (options,
                "%s: the histogram holds no samples (gprof: \"no time accumulated\"), so every time reads 0"
                " and only the calls were measured: a sample is taken where SIGPROF finds the program in its"
                " own code, and none is where the run was shorter than one sampling period, or its time went"
                " to shared libraries, or to threads that block signals (liblzma's do), the signal then going"
                " to a thread that waits; libamon (-lamon) or perf record times every thread",
                p->name);
}

/* gprof's cg_tally for each arc record, in file order. */
static gboolean
add_arcs (Target *t, const Parser *p, GError **error)
{
  for (guint i = 0; i < p->arcs->len; i++)
    {
      const ArcRecord *a = &g_array_index (p->arcs, ArcRecord, i);
      gint caller = cg_symbols_lookup (t->symbols, a->from);
      gint callee = cg_symbols_lookup (t->symbols, a->self);
      if (caller < 0 || callee < 0)
        continue;
      while (callee >= 0 && !t->sym[callee].is_function)
        callee--;
      if (callee < 0)
        continue;
      CgArcId arc = cg_graph_ensure_arc (t->graph, t->fid[caller], t->fid[callee]);
      if (arc == CG_NO_ID || !cg_graph_arc_add_calls (t->graph, arc, a->count))
        return overflow (p, error);
    }
  return TRUE;
}

/* gprof's -c: count-0 arcs to every symbol entry that a call instruction
 * (e8 rel32) in a symbol's code reaches (i386_find_call: every byte
 * offset is tried; the displacement is not sign-extended, so only
 * forward calls are found, exactly as gprof finds them). */
static void
add_static_arcs (Target *t)
{
  CgHistogram *h = cg_profile_histogram (t->profile);
  guint64 text_addr;
  gsize text_size;
  const guint8 *text = cg_symbols_text (t->symbols, &text_addr, &text_size);
  if (h == NULL || cg_histogram_n_ranges (h) == 0 || text == NULL)
    return;
  gboolean big = cg_symbols_byte_order (t->symbols) == G_BIG_ENDIAN;
  /* the arcs found, each once, in the order found: gprof revives arcs
   * that its arc specs deleted in this order (cg-histogram.h) */
  g_autoptr (GArray) scanned = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) seen = g_array_new (FALSE, TRUE, sizeof (guint8));
  for (guint s = 0; s < t->n_sym; s++)
    {
      guint64 lo = t->sym[s].address;
      guint64 hi = s + 1 < t->n_sym ? t->sym[s + 1].address : t->sym[s].end + 1;
      /* clipped to the histogram (hist_clip_symbol_address) */
      gboolean found = FALSE;
      for (guint r = 0; r < cg_histogram_n_ranges (h) && !found; r++)
        {
          guint64 rl, rh;
          guint32 nb;
          cg_histogram_range (h, r, &rl, &rh, &nb);
          if (MAX (rl, lo) < MIN (rh, hi))
            {
              lo = MAX (rl, lo);
              hi = MIN (rh, hi);
              found = TRUE;
            }
        }
      if (!found)
        continue;
      for (guint64 pc = MAX (lo, text_addr); pc < hi && pc + 5 <= text_addr + text_size; pc++)
        {
          const guint8 *ip = text + (pc - text_addr);
          if (*ip != 0xe8)
            continue;
          guint32 disp;
          memcpy (&disp, ip + 1, 4);
          disp = big ? GUINT32_FROM_BE (disp) : GUINT32_FROM_LE (disp);
          guint64 dest = (guint64) disp + pc + 5;
          gboolean in_histogram = FALSE;
          for (guint r = 0; r < cg_histogram_n_ranges (h); r++)
            {
              guint64 rl, rh;
              guint32 nb;
              cg_histogram_range (h, r, &rl, &rh, &nb);
              /* gprof's hist_check_address takes an unsigned int */
              in_histogram |= rl <= (guint32) dest && (guint32) dest < rh;
            }
          if (!in_histogram)
            continue;
          gint child = cg_symbols_lookup (t->symbols, dest);
          if (child < 0 || t->sym[child].address != dest)
            continue;
          CgArcId a = cg_graph_ensure_arc (t->graph, t->fid[s], t->fid[child]);
          if (a == CG_NO_ID)
            continue;
          if (a >= seen->len)
            g_array_set_size (seen, a + 1);
          if (!g_array_index (seen, guint8, a))
            {
              g_array_index (seen, guint8, a) = 1;
              g_array_append_val (scanned, a);
            }
        }
    }
  cg_histogram_set_static_arcs (h, (const guint32 *) scanned->data, scanned->len);
}

/* After @p failed to parse: when the file reads whole with the other word
 * size, what is wrong is the executable, and *@error says so. */
static void
other_word_size (const Parser *p, gboolean bsd, const char *exe, GError **error)
{
  g_autoptr (GArray) hists = g_array_new (FALSE, FALSE, sizeof (HistRecord));
  g_autoptr (GArray) arcs = g_array_new (FALSE, FALSE, sizeof (ArcRecord));
  Parser q = *p;
  q.ptr = 12 - p->ptr;
  q.unchecked = TRUE;
  q.hists = hists;
  q.arcs = arcs;
  q.bb_records = 0;
  q.call_graph = FALSE;
  if (!(bsd ? parse_bsd (&q, NULL) : parse_tagged (&q, NULL)))
    return;
  g_clear_error (error);
  g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH,
               "%s: written by a %u-bit program, but %s is a %u-bit executable: the profile is not of it", p->name,
               8 * q.ptr, exe, 8 * p->ptr);
}

/* @exe's symbols from the caller's cache, or from one of our own in
 * *@own when the caller keeps none. */
static const CgSymbols *
executable_symbols (const CgReadOptions *options, const char *exe, CgSymbolsCache **own, GError **error)
{
  CgSymbolsCache *cache = options ? options->symbols : NULL;
  if (cache == NULL)
    cache = *own = cg_symbols_cache_new ();
  /* gprof's default, a.out, is rarely the program: say how to name it */
  if ((options == NULL || options->executable == NULL) && !g_file_test (exe, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, CG_ERROR, CG_ERROR_IO,
                   "a gmon.out is read with the profiled executable, and there is no %s (gprof's default) here:"
                   " give it with --executable=PROGRAM",
                   exe);
      return NULL;
    }
  return cg_symbols_cache_get (cache, exe, options ? options->symbol_choice : CG_SYMBOLS_GPROF, error);
}

gboolean
cg_read_gmon (CgProfile *profile, CgInput *input, gboolean bsd, const CgReadOptions *options,
              GError **error)
{
  const char *exe = options && options->executable ? options->executable : "a.out";
  g_autoptr (CgSymbolsCache) own = NULL;
  const CgSymbols *symbols = executable_symbols (options, exe, &own, error);
  if (symbols == NULL)
    return FALSE;
  const guint8 *data;
  gsize len;
  if (!cg_input_contents (input, &data, &len, error))
    return FALSE;
  Parser p = {
    .name = cg_input_name (input),
    .data = data,
    .len = len,
    .ptr = cg_symbols_pointer_size (symbols),
    .big_endian = cg_symbols_byte_order (symbols) == G_BIG_ENDIAN,
    .symbols = symbols,
  };
  cg_symbols_range (symbols, &p.exe_low, &p.exe_high);
  g_autoptr (GArray) hists = p.hists = g_array_new (FALSE, FALSE, sizeof (HistRecord));
  g_autoptr (GArray) arcs = p.arcs = g_array_new (FALSE, FALSE, sizeof (ArcRecord));
  if (!(bsd ? parse_bsd (&p, error) : parse_tagged (&p, error)))
    {
      other_word_size (&p, bsd, exe, error);
      return FALSE;
    }

  if (p.call_graph && !cg_symbols_profiled (symbols))
    return fail (&p, error, CG_ERROR_MISMATCH, 0,
                 "the profile records calls, but %s calls no profiling hook (mcount): it was not built with -pg, "
                 "so the profile is not of it",
                 exe);
  Target t = { profile, cg_profile_graph (profile), symbols, NULL, 0, NULL, 0 };
  t.sym = cg_symbols_array (symbols, &t.n_sym);
  const char *dimension = "seconds";
  if (hists->len > 0 && g_array_index (hists, HistRecord, 0).dimension[0] != '\0')
    dimension = g_array_index (hists, HistRecord, 0).dimension;
  CgHistogram *have = cg_profile_histogram (profile);
  gboolean new_event = cg_graph_find_event (t.graph, "time") < 0;
  for (guint r = 0; r < hists->len; r++)
    {
      const char *dim = g_array_index (hists, HistRecord, r).dimension;
      if (strcmp (dim[0] ? dim : "seconds", dimension) != 0)
        return fail (&p, error, CG_ERROR_MISMATCH, g_array_index (hists, HistRecord, r).offset,
                     "the histogram's unit changes from '%s' to '%s'", dimension, dim);
    }
  GError *local = NULL;
  if (!cg_profile_ensure_event (profile, "time", dimension, CG_KIND_REAL, &t.event, &local))
    {
      g_set_error (error, CG_ERROR, local->code, "%s: %s", p.name, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (new_event)
    cg_graph_set_event_description (t.graph, t.event, "gmon.out histogram samples");
  if (have && cg_histogram_event (have) != t.event)
    return fail (&p, error, CG_ERROR_MISMATCH, 0, "the profile already has a histogram of another event");

  g_autofree CgFunctionId *fid = t.fid = g_new (CgFunctionId, t.n_sym);
  ensure_functions (&t);
  if (!add_histograms (&t, &p, error))
    return FALSE;
  CgHistogram *h = cg_profile_histogram (profile);
  if (h && cg_histogram_rate (h) > 0 && (new_event || cg_graph_event_scale (t.graph, t.event) == 1.0))
    cg_graph_set_event_scale (t.graph, t.event, 1.0 / cg_histogram_rate (h));
  if (!add_arcs (&t, &p, error))
    return FALSE;
  guint unhooked, checked;
  count_unhooked (&t, &p, &unhooked, &checked);
  if (checked >= 4 && unhooked > checked / 2)
    cg_read_warn (options,
                  "%s: %u of %u call records name callees at no return from a profiling hook in %s: the "
                  "profile is probably of another build of the program (gprof reads it as this one's all the same)",
                  p.name, unhooked, checked, exe);
  warn_left_out (&p, options);
  warn_no_samples (&p, options);
  if (p.bb_records > 0)
    cg_read_warn (options, "%s: ignoring basic-block counts (gprof uses them only with -l)", p.name);
  cg_profile_add_source (profile, "gmon", p.name, exe, NULL);
  return TRUE;
}

gboolean
cg_read_gmon_static_calls (CgProfile *profile, const CgReadOptions *options, GError **error)
{
  const char *exe = options && options->executable ? options->executable : "a.out";
  g_autoptr (CgSymbolsCache) own = NULL;
  const CgSymbols *symbols = executable_symbols (options, exe, &own, error);
  if (symbols == NULL)
    return FALSE;
  guint machine = cg_symbols_machine (symbols);
  if (machine != EM_X86_64 && machine != EM_386 && machine != EM_IAMCU)
    {
      /* gprof scans other instruction sets too, each its own way: not
       * guessed here */
      cg_read_warn (options, "%s: -c reads x86 call instructions only; no static calls added", exe);
      return TRUE;
    }
  Target t = { profile, cg_profile_graph (profile), symbols, NULL, 0, NULL, 0 };
  t.sym = cg_symbols_array (symbols, &t.n_sym);
  g_autofree CgFunctionId *fid = t.fid = g_new (CgFunctionId, t.n_sym);
  ensure_functions (&t);
  add_static_arcs (&t);
  return TRUE;
}

gboolean
cg_gmon_detect (const guint8 *data, gsize len, G_GNUC_UNUSED gboolean complete)
{
  /* "gmon" and a small version number in either byte order (the reader
   * names versions it does not read): a text starting "gmon" is none */
  if (len < 8 || memcmp (data, "gmon", 4) != 0)
    return FALSE;
  const guint8 *v = data + 4;
  return (v[1] == 0 && v[2] == 0 && v[3] == 0) || (v[0] == 0 && v[1] == 0 && v[2] == 0);
}

gboolean
cg_read_gmon_tagged (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  return cg_read_gmon (profile, input, FALSE, options, error);
}

gboolean
cg_read_gmon_bsd (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  return cg_read_gmon (profile, input, TRUE, options, error);
}
