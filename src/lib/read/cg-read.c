/* cg-read.c — reading an input through the table of formats. */
#include "config.h"

#include "cg-read.h"

#include <string.h>

#include <libxml/parser.h>

#include "cg-decompress.h"
#include "cg-error.h"
#include "cg-perf-lines.h"
#include "cg-read-archive.h"
#include "cg-read-gmon.h"

void
cg_read_init (void)
{
  xmlInitParser ();
}

/* Whether @head (@len bytes) starts an ELF file: the program given where
 * gprof takes it, before its gmon.out ("gprof PROG gmon.out"). */
static gboolean
is_elf (const guint8 *head, gsize len)
{
  return len >= 4 && memcmp (head, "\177ELF", 4) == 0;
}

/* Whether @head (@len bytes) holds perf script's sample headers alone:
 * with -F -ip (or a field list without ip) perf prints no frame at all,
 * one line per sample that ends in its last field's colon ("ninja 29278
 * 71994.366366:     250000 cpu-clock: "), or, without time and event,
 * in the blank after its last field ("  11147 " for -F tid,sym: sym
 * needs ip), where the perf script reader wants frames to charge.  Two
 * lines or more, each led by blanks or a name, each ending in a colon
 * and blanks, or in a blank after a sample header's fields, the first
 * holding a number. */
static gboolean
frameless_samples (const guint8 *head, gsize len)
{
  guint lines = 0;
  gsize start = 0;
  gboolean number = FALSE;
  while (start < len)
    {
      const guint8 *nl = memchr (head + start, '\n', len - start);
      if (nl == NULL)
        break; /* the window's last line may be cut */
      gsize end = (gsize) (nl - head), e = end;
      while (e > start && (head[e - 1] == ' ' || head[e - 1] == '\r'))
        e--;
      CgPerfHeader h;
      if (e == start || head[start] == '\t' || head[start] == '#')
        return FALSE;
      if (head[e - 1] != ':'
          && !(end > e && head[e] == ' ' && cg_perf_parse_header ((const char *) head + start, e - start, 0, &h)
               && (h.fields & ~(guint) CG_PERF_COMM) != 0))
        return FALSE;
      for (gsize k = start; k < e && lines == 0; k++)
        number = number || g_ascii_isdigit (head[k]);
      lines++;
      start = end + 1;
    }
  return lines >= 2 && number;
}

/* Whether the @n bytes at @s are a function's name as gprof and perf
 * print them: led by a letter, '_', '.', '$', '~' or '(' ("(anonymous
 * namespace)::f"), without control bytes, and blanks only inside
 * brackets ("f<int, char>(int, char)"). */
static gboolean
is_name (const guint8 *s, gsize n)
{
  if (!(g_ascii_isalpha (s[0]) || strchr ("_.$~(", s[0])))
    return FALSE;
  int depth = 0;
  for (gsize i = 0; i < n; i++)
    {
      guint8 c = s[i];
      if (c < 0x20 || c == 0x7f || (c == ' ' && depth <= 0))
        return FALSE;
      depth += (c == '(' || c == '<' || c == '[') - (c == ')' || c == '>' || c == ']');
    }
  return TRUE;
}

/* What @head (@len bytes) is where it holds no cost at all, else NULL:
 * blank lines alone, one a sample, as perf script -F sym prints them
 * (perf 6.1 prints a sample's symbols only beside ip, -F ip,sym), or
 * with a symbol a line indented under each other (a call chain's, as a
 * perf that prints them there might), or a name a line, not indented,
 * as gprof -r (--function-ordering) and -R (--file-ordering) print the
 * order they suggest linking the functions or object files in; two
 * names or blank lines or more. */
static const char *
costless_text_kind (const guint8 *head, gsize len)
{
  guint blank = 0, names = 0, indented = 0;
  for (gsize line = 0; line < len;)
    {
      const guint8 *nl = memchr (head + line, '\n', len - line);
      gsize end = nl ? (gsize) (nl - head) : len, e = end, b = line;
      while (e > line && (head[e - 1] == '\r' || head[e - 1] == ' '))
        e--;
      while (b < e && (head[b] == ' ' || head[b] == '\t'))
        b++;
      gboolean indent = b > line;
      line = end + 1;
      if (b == e)
        {
          blank++;
          continue;
        }
      if (!is_name (head + b, e - b))
        return NULL;
      if (indent)
        indented++;
      else
        names++;
    }
  if (names == 0 && blank + indented >= 2)
    return "blank lines alone, one a sample, or symbols alone, as perf script -F sym prints them (perf prints a"
           " sample's symbols only beside ip, and no period or event without their fields): nothing to charge a"
           " cost to; give cgmerge the perf.data, or what perf script prints with its default fields (or -F"
           " comm,tid,period,event,ip,sym,symoff,dso)";
  if (names >= 2 && indented == 0)
    return "a name a line, as gprof -r (--function-ordering) and -R (--file-ordering) print the order they suggest"
           " linking the functions or files in, which holds no costs: give cgmerge the gmon.out (with"
           " --executable), or the report gprof prints without -r or -R";
  return NULL;
}

/* What is missing or other, where @head (@len bytes) is nearly a gprof
 * report, else NULL: the call graph's table without the lines gprof
 * prints above it (its first line "index  % time  self  children
 * called  name", as reports are pasted), or a flat profile in processor
 * cycles (the gprof of embedded toolchains, Xtensa's: "Flat profile:",
 * then headings of "cycles" and "(K)"), which have no seconds. */
static const char *
gprof_near_miss (const guint8 *head, gsize len)
{
  gsize p = 0;
  while (p < len && (head[p] == '\n' || head[p] == ' '))
    p++;
  const guint8 *nl = memchr (head + p, '\n', len - p);
  gsize n = nl ? (gsize) (nl - head) - p : len - p;
  const char *line = (const char *) head + p;
  if (n > 5 && memcmp (line, "index", 5) == 0 && g_strstr_len (line, (gssize) n, " name") != NULL
      && (g_strstr_len (line, (gssize) n, "% time") != NULL || g_strstr_len (line, (gssize) n, "%time") != NULL))
    return "a gprof call graph without the lines gprof prints above it (\"Call graph\", then \"granularity: each"
           " sample hit covers N byte(s) for P% of S seconds\"), which cgtools reads a report by: give cgmerge"
           " the report whole, as gprof printed it, or the gmon.out (with --executable)";
  static const char flat[] = "Flat profile:\n";
  gsize window = MIN (len, 512);
  if (len > sizeof flat - 1 && memcmp (head, flat, sizeof flat - 1) == 0
      && g_strstr_len ((const char *) head, (gssize) window, " cycles ") != NULL
      && g_strstr_len ((const char *) head, (gssize) window, "(K)") != NULL)
    return "a gprof report whose times are processor cycles (an embedded toolchain's gprof: \"cycles\" and"
           " \"(K)\" in its headings), which cgtools does not read: it reads GNU gprof's reports, in seconds";
  return NULL;
}

/* What to do instead, where @head (@len bytes, @first of them its first
 * line) is what perf's other commands print, else NULL.  perf report's
 * output (a header "# Samples: N of event 'E'", then a table; with -q
 * the table alone, each row led by its percentage, "    24.25%
 * 24.25%  gzip ...", or with -g folded "24.25% a;b;c") holds what perf
 * script prints, less exactly; perf report --header-only's description
 * of the file ("# ========", "# captured on"), perf annotate's
 * instructions and perf stat's counts hold no samples at all. */
static const char *
perf_text_kind (const guint8 *head, gsize len, gsize first)
{
  const char *text = (const char *) head;
  gsize i = 0;
  while (i < first && head[i] == ' ')
    i++;
  gsize digits = i;
  while (i < first && g_ascii_isdigit (head[i]))
    i++;
  gboolean percent = i > digits && i + 2 < first && head[i] == '.' && g_ascii_isdigit (head[i + 1]);
  for (i += 1; percent && i < first && g_ascii_isdigit (head[i]); i++)
    ;
  percent = percent && i + 1 < first && head[i] == '%' && head[i + 1] == ' ';
  if (percent
      || (g_strstr_len (text, (gssize) len, "\n# Samples: ") != NULL
          && g_strstr_len (text, (gssize) len, " of event '") != NULL))
    return "perf report's output, which cgtools does not read: give it the perf.data itself (cgmerge runs"
           " perf script on it) or what `perf script` prints";
  static const char header[] = "# ========\n# captured on";
  if (len > sizeof header - 1 && memcmp (head, header, sizeof header - 1) == 0)
    return "the description of a perf.data that perf report --header-only prints, which holds no samples:"
           " give cgmerge the perf.data itself";
  if (g_strstr_len (text, (gssize) first, "Source code & Disassembly of ") != NULL)
    return "perf annotate's output (its samples by instruction), which cgtools does not read: give it the"
           " perf.data itself or what `perf script` prints";
  if (g_strstr_len (text, (gssize) MIN (len, 512), " Performance counter stats for ") != NULL)
    return "perf stat's counts, which hold no samples or call chains: record with perf record -g and give"
           " cgmerge the perf.data";
  return NULL;
}

/* Whether the first line of @head (@len bytes) that is not empty starts
 * with @prefix. */
static gboolean
starts_with (const guint8 *head, gsize len, const char *prefix)
{
  gsize at = 0, n = strlen (prefix);
  while (at < len && (head[at] == '\n' || head[at] == '\r'))
    at++;
  return len - at > n && memcmp (head + at, prefix, n) == 0;
}

/* What to do instead, where @head (@len bytes, @first of them its first
 * line) is what a runtime's profiler writes that cgtools does not read,
 * else NULL: gperftools' heap profiler's files (HEAPPROFILE=prefix with
 * libtcmalloc: "heap profile:    1:     4096 [     1:     4096] @
 * heapprofile", or "heap_v2/524288" for a sampled heap, then stacks of
 * addresses and the process's maps), V8's tick log (node --prof:
 * "v8-version,11,3,244,8,-node.38,0" and more such lines) and what node
 * --prof-process prints of it. */
static const char *
runtime_text_kind (const guint8 *head, gsize len, gsize first)
{
  if (starts_with (head, first, "heap profile: ") || starts_with (head, first, "heap_v2/"))
    return "a gperftools heap profile (HEAPPROFILE with libtcmalloc), which cgtools does not read: google-pprof"
           " --callgrind PROGRAM FILE converts it into a callgrind file of its stacks' bytes in use (the event"
           " Hits; --alloc_space for the bytes allocated), which it reads";
  if (starts_with (head, first, "v8-version,"))
    return "V8's tick log (node --prof), which cgtools does not read: profile with node --cpu-prof, whose"
           " .cpuprofile it reads";
  if (starts_with (head, MIN (len, 256), "Statistical profiling result from "))
    return "what node --prof-process prints of V8's tick log, which cgtools does not read: profile with node"
           " --cpu-prof, whose .cpuprofile it reads";
  return NULL;
}

/* What to do instead, where @head (@len bytes) is a text a profiler
 * prints that is no input of ours, else NULL. */
static const char *
other_text_kind (const guint8 *head, gsize len)
{
  const char *text = (const char *) head;
  const guint8 *nl0 = memchr (head, '\n', len);
  gsize first = nl0 ? (gsize) (nl0 - head) : len;
  const char *perf = perf_text_kind (head, len, first);
  if (perf)
    return perf;
  const char *runtime = runtime_text_kind (head, len, first);
  if (runtime)
    return runtime;
  /* callgrind_annotate's and cg_annotate's output: a line of dashes,
   * then "Profile data file 'callgrind.out.1234' (creator: ...)", or
   * cg_annotate's "I1 cache:" ... "Data file:" lines */
  static const char dashes[] = "--------------------------------------------------------------------------------\n";
  gsize window = MIN (len, 1024);
  if (len > sizeof dashes - 1 && memcmp (head, dashes, sizeof dashes - 1) == 0
      && (g_strstr_len (text, (gssize) window, "\nProfile data file '") != NULL
          || (g_strstr_len (text, (gssize) window, "\nData file:") != NULL
              && g_strstr_len (text, (gssize) window, "\nEvents recorded:") != NULL)))
    return "callgrind_annotate's or cg_annotate's output, which cgtools does not read: give it the profile"
           " they annotate (the callgrind.out or cachegrind.out file their header names)";
  /* gprof -C (--exec-counts): "lapi.c:60: (index2value:0x88f0) 14330992
   * executions" */
  static const char executions[] = " executions";
  gsize elen = sizeof executions - 1;
  if (first > elen && memcmp (head + first - elen, executions, elen) == 0
      && g_strstr_len (text, (gssize) first, ": (") != NULL && g_strstr_len (text, (gssize) first, ":0x") != NULL)
    return "the execution counts gprof -C prints, not a profile of calls: give cgmerge the gmon.out (with"
           " --executable), or the report gprof prints without -C";
  /* gprof -A (--annotated-source): "*** File /src/lvm.c:", then that
   * file's lines, a function's first line marked with its calls; gprof
   * -i (--file-info): "File `gmon.out' (version 1) contains:" */
  static const char annotated[] = "*** File ", info[] = "File `";
  if (first > sizeof annotated && memcmp (head, annotated, sizeof annotated - 1) == 0 && head[first - 1] == ':')
    return "the annotated source gprof -A prints, not a profile of calls: give cgmerge the gmon.out (with"
           " --executable), or the report gprof prints without -A";
  if (first > sizeof info && memcmp (head, info, sizeof info - 1) == 0
      && g_strstr_len (text, (gssize) first, "' (version ") != NULL)
    return "the summary of a gmon.out's records gprof -i prints, not a profile of calls: give cgmerge the"
           " gmon.out (with --executable), or the report gprof prints without -i";
  const char *gprof = gprof_near_miss (head, len);
  if (gprof)
    return gprof;
  const char *costless = costless_text_kind (head, len);
  if (costless)
    return costless;
  if (frameless_samples (head, len))
    return "perf script's sample lines without frames (its -F left out ip, which prints them): nothing to"
           " charge a cost to; give cgmerge the perf.data, or what perf script prints with ip (its default"
           " fields, or -F comm,tid,period,event,ip,sym,symoff,dso)";
  /* "320 start_thread;POOL_thread" : a count, a blank, frames */
  gsize i = 0;
  while (i < len && g_ascii_isdigit (head[i]))
    i++;
  if (i > 0 && i < len && head[i] == ' ')
    {
      const guint8 *nl = memchr (head + i, '\n', len - i);
      gsize end = nl ? (gsize) (nl - head) : len;
      if (memchr (head + i, ';', end - i) != NULL)
        return "a count before each stack, as perf report -g folded prints them: folded stacks put the count"
               " last (main;parse 12), as stackcollapse-perf.pl and `cgcost --format=folded` write them; give"
               " cgmerge the perf.data or what `perf script` prints";
    }
  return NULL;
}

/* Where @head (@len bytes) is text cut by a control byte no text format
 * holds (a NUL, say: a file written over, or text with binary spliced
 * in), and the lines before it read as a text format, that format's
 * noun, with the byte's @offset (from 0) and @line; else NULL.  The
 * detectors refuse a window with such a byte anywhere in it, so that the
 * input was "unknown" at line 1, however far down the byte was.  A byte
 * on the first line is not judged (a binary format's magic number is
 * text up to its first such byte). */
static const char *
text_cut_by (const guint8 *head, gsize len, gsize *offset, guint64 *line)
{
  guint64 lines = 1;
  for (gsize i = 0; i < len; i++)
    {
      guint8 c = head[i];
      if (c == '\n')
        lines++;
      else if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f)
        {
          const CgFormatInfo *format = lines > 1 ? cg_formats_detect (head, i, FALSE) : NULL;
          *offset = i;
          *line = lines;
          return format ? format->noun : NULL;
        }
    }
  return NULL;
}

/* The first format after @chosen (nullable) whose detector takes @head
 * (@len bytes) too, or NULL. */
static const CgFormatInfo *
other_claimant (const CgFormatInfo *chosen, const guint8 *head, gsize len)
{
  guint n;
  const CgFormatInfo *all = cg_formats (&n);
  for (guint i = chosen ? (guint) (chosen - all) + 1 : n; i < n; i++)
    if (all[i].detect (head, len, len < CG_FORMATS_DETECT_BYTES))
      return &all[i];
  return NULL;
}

gboolean
cg_read_input (CgProfile *profile, CgInput *in, const CgReadOptions *options, GError **error)
{
  const guint8 *head;
  gsize len;
  if (!cg_input_peek (in, CG_FORMATS_DETECT_BYTES, &head, &len, error))
    return FALSE;
  if (len == 0 && options && options->n_skipped_empty)
    {
      cg_read_warn (options, "%s: empty input, skipped", cg_input_name (in));
      (*options->n_skipped_empty)++;
      return TRUE;
    }
  if (len == 0)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s: empty input", cg_input_name (in));
      return FALSE;
    }
  /* an archive holds inputs, no profile of its own: each member is
   * read as an input (a format given applies to them) */
  if (cg_archive_detect (head, len))
    return cg_read_archive (profile, in, options, cg_read_input, error);
  const CgFormatInfo *format;
  const char *forced = options ? options->input_format : NULL;
  const CgFormatInfo *also = NULL;
  if (forced)
    {
      format = cg_formats_lookup (forced);
      if (format == NULL)
        {
          g_autofree char *list = cg_formats_names ();
          g_set_error (error, CG_ERROR, CG_ERROR_USAGE, "no input format is named '%s' (the formats: %s)", forced,
                       list);
          return FALSE;
        }
    }
  else
    {
      format = cg_formats_detect (head, len, len < CG_FORMATS_DETECT_BYTES);
      also = other_claimant (format, head, len);
    }
  CgFormatRead read = format ? format->read : NULL;
  if (read == NULL && options && options->executable && !is_elf (head, len))
    {
      /* formats without a magic number: tried only when the user named
       * the executable they belong to */
      guint n;
      const CgFormatInfo *all = cg_formats (&n);
      for (guint i = 0; i < n && read == NULL; i++)
        read = all[i].read_without_magic;
    }
  if (read == NULL)
    {
      /* corrupt compressed data decompress to garbage before their
       * checksum says so: that is the error to give */
      if (!cg_input_check_rest (in, error))
        return FALSE;
      if (is_elf (head, len) && options && options->executable)
        {
          /* "cgcost --executable=prog prog gmon.out": the program twice,
           * where the old BSD gmon.out reader would say "not a gmon.out" */
          g_set_error (error, CG_ERROR, CG_ERROR_FORMAT,
                       "%s: an ELF executable or library, not a profile: --executable names the program (%s);"
                       " give only profiles as FILEs",
                       cg_input_name (in), options->executable);
          return FALSE;
        }
      if (is_elf (head, len))
        {
          g_set_error (error, CG_ERROR, CG_ERROR_FORMAT,
                       "%s: an ELF executable or library, not a profile: name a gmon.out's or amon.out's program"
                       " with --executable=%s",
                       cg_input_name (in), cg_input_name (in));
          return FALSE;
        }
      /* compressed twice (a .gz packed again with xz): one layer is
       * undone, and the next one's magic number is what is left */
      CgCompression inner = cg_compression_sniff (head, len);
      if (inner != CG_COMPRESSION_NONE)
        {
          const char *outer = cg_input_compression (in);
          g_set_error (error, CG_ERROR, CG_ERROR_FORMAT,
                       "%s:1: %s data inside the %s data, compressed twice: undo one (cgtools undoes one layer)",
                       cg_input_name (in), cg_compression_name (inner), outer && *outer ? outer : "compressed");
          return FALSE;
        }
      const char *other = other_text_kind (head, len);
      if (other)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s:1: %s", cg_input_name (in), other);
          return FALSE;
        }
      gsize at;
      guint64 line;
      const char *cut = text_cut_by (head, len, &at, &line);
      if (cut)
        {
          g_autofree char *byte = head[at] == 0 ? g_strdup ("a NUL byte") : g_strdup_printf ("byte 0x%02x", head[at]);
          g_set_error (error, CG_ERROR, CG_ERROR_FORMAT,
                       "%s:%" G_GUINT64_FORMAT ": %s at offset %" G_GSIZE_FORMAT ", where the lines before read as %s:"
                       " expected text, which holds no control bytes",
                       cg_input_name (in), line, byte, at, cut);
          return FALSE;
        }
      g_autofree char *nouns = cg_formats_nouns ();
      g_set_error (error, CG_ERROR, CG_ERROR_FORMAT, "%s:1: unknown input format (expected %s)",
                   cg_input_name (in), nouns);
      return FALSE;
    }
  if (options && options->inputs_read)
    {
      CgInputRead r = { g_strdup (cg_input_name (in)), format ? format->name : "gmon.out" };
      g_array_append_val (options->inputs_read, r);
    }
  /* derived data (cycles, costs) that describe the data before this
   * input are stale once it changes the graph, and refused then
   * (cg_profile_costs) */
  GError *local = NULL;
  gboolean ok = read (profile, in, options, &local);
  /* a compressed input is checked to its end; when it is corrupt, that
   * explains a reader's error, and is the one given */
  if (local == NULL || local->code != CG_ERROR_IO)
    {
      GError *rest = NULL;
      if (!cg_input_check_rest (in, &rest))
        {
          g_clear_error (&local);
          local = rest;
          ok = FALSE;
        }
    }
  if (local && also && local->code != CG_ERROR_IO)
    {
      /* the detectors saw the first 4 KiB only: where another format
       * took them too, the user may know which it is */
      g_autofree char *name = cg_formats_option_name (also);
      char *message = g_strdup_printf ("%s (read as %s, but its first %d KiB read as %s too: if it is that, give"
                                       " --input-format=%s)",
                                       local->message, format->noun, CG_FORMATS_DETECT_BYTES / 1024, also->noun,
                                       name);
      g_free (local->message);
      local->message = message;
    }
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}

gboolean
cg_read_file (CgProfile *profile, const char *path, const CgReadOptions *options, GError **error)
{
  g_autoptr (CgInput) in = cg_input_open (path, error);
  if (in == NULL)
    return FALSE;
  if (options)
    cg_input_set_progress (in, options->progress, options->progress_data);
  return cg_read_input (profile, in, options, error);
}

gboolean
cg_read_finish (CgProfile *profile, const CgReadOptions *options, GError **error)
{
  /* gprof scans for static calls only when its inputs held call-graph
   * records: with none it prints no call graph at all */
  if (options == NULL || !options->static_calls || cg_graph_n_arcs (cg_profile_graph (profile)) == 0)
    return TRUE;
  for (guint i = 0; i < cg_profile_n_sources (profile); i++)
    {
      const CgSource *s = cg_profile_source (profile, i);
      if (s->format == NULL || strcmp (s->format, "gmon") != 0)
        continue;
      /* cgtools XML made from gmon.out files names their executable */
      CgReadOptions o = *options;
      if (o.executable == NULL)
        o.executable = s->command;
      return cg_read_gmon_static_calls (profile, &o, error);
    }
  return TRUE;
}
