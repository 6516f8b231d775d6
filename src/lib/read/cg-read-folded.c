/* cg-read-folded.c — folded stacks into the call tree and the graph. */
#include "config.h"

#include "cg-read-folded.h"

#include <stdarg.h>
#include <string.h>

#include "cg-error.h"
#include "cg-read-callgrind.h"
#include "cg-read-xml.h"
#include "cg-v8-detect.h"

#define EVENT_NAME "samples"

typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgTree *tree;
  CgInput *in;
  const CgReadOptions *options;
  guint event;
  /* the previous line's stack, its frames and where each frame's text ends */
  GString *prev;
  GArray *path;  /* CgFrameId per depth */
  GArray *ends;  /* gsize: end offset of each frame's text in prev */
  GString *name; /* scratch: one frame's name, NUL-terminated */
  guint64 skipped;
  guint64 first_skipped;
  char *first_reason;
  gboolean differential;   /* difffolded.pl's lines (differential_start) */
  guint64 two_counts;      /* differential lines read */
  guint64 first_two_counts; /* the first one's line */
  guint64 samples;         /* the integer counts read: each a sample */
} Reader;

/* One line cut into its parts. */
typedef struct {
  gsize stack_len;
  const char *count;
  gsize count_len;
  gboolean real;
  gboolean two_counts; /* a differential line: a count before the count */
} Parts;

/* The start of the count that ends @line[0..@len) after a blank (digits
 * with at most one '.', not all dots), or @len when there is none. */
static gsize
count_start (const char *line, gsize len, guint *dots)
{
  gsize p = len;
  *dots = 0;
  while (p > 0 && (g_ascii_isdigit (line[p - 1]) || line[p - 1] == '.'))
    {
      *dots += line[p - 1] == '.';
      p--;
    }
  return p;
}

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* Splits @line into stack and count (and with @differential, a count
 * before the count: difffolded.pl's lines).  Returns NULL, or why the
 * line is no folded stack (a static string). */
static const char *
split_line (const char *line, gsize len, gboolean differential, Parts *parts)
{
  /* a frame's name is a C string: a NUL would cut it short, silently */
  if (memchr (line, '\0', len) != NULL)
    return "a NUL byte in the line (binary data, not text)";
  while (len > 0 && is_blank (line[len - 1]))
    len--;
  guint dots;
  gsize p = count_start (line, len, &dots);
  if (p == len)
    return "no count at the end of the line";
  if (dots > 1 || len - p == dots)
    return "malformed count (expected an integer or a decimal such as 12 or 12.5)";
  if (p == 0 || !is_blank (line[p - 1]))
    return p == 0 ? "no stack before the count" : "no blank between the stack and the count";
  gsize q = p;
  while (q > 0 && is_blank (line[q - 1]))
    q--;
  if (q == 0)
    return "no stack before the count";
  /* FlameGraph's difffolded.pl writes two counts, the base's and the new
   * profile's ("stack 10 12"); flamegraph.pl draws the second */
  guint first_dots;
  gsize f = count_start (line, q, &first_dots);
  parts->two_counts = differential && f < q && f > 0 && is_blank (line[f - 1]) && first_dots <= 1 && q - f > first_dots;
  if (parts->two_counts)
    {
      q = f;
      while (q > 0 && is_blank (line[q - 1]))
        q--;
      if (q == 0)
        return "no stack before the counts";
    }
  /* frames are separated by single ';' and are never empty */
  if (line[0] == ';' || line[q - 1] == ';')
    return "empty frame name (a stack starts or ends with ';')";
  for (gsize i = 1; i < q; i++)
    if (line[i] == ';' && line[i - 1] == ';')
      return "empty frame name (';;' in the stack)";
  parts->stack_len = q;
  parts->count = line + p;
  parts->count_len = len - p;
  parts->real = dots == 1;
  return NULL;
}

gboolean
cg_folded_line_matches (const char *line, gsize len, gboolean complete)
{
  gboolean separator = FALSE;
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) line[i];
      if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
        return FALSE; /* binary data, not text */
      separator |= c == ';';
    }
  if (len > 0 && line[len - 1] == '\r')
    len--; /* a CRLF line, as cg_input_next_line() gives it without the CR */
  Parts parts;
  return complete ? split_line (line, len, FALSE, &parts) == NULL : separator;
}

static gboolean G_GNUC_PRINTF (3, 4)
fail (Reader *r, GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  cg_read_failv (error, CG_ERROR_PARSE, cg_input_name (r->in), CG_AT_LINE, cg_input_line_number (r->in), format, ap);
  va_end (ap);
  return FALSE;
}

static gboolean
overflow (Reader *r, GError **error, const char *what)
{
  g_set_error (error, CG_ERROR, CG_ERROR_OVERFLOW, "%s:%" G_GUINT64_FORMAT ": %s", cg_input_name (r->in),
               cg_input_line_number (r->in), what);
  return FALSE;
}

/* Number of leading frames of @stack that are the previous line's. */
static guint
shared_frames (Reader *r, const char *stack, gsize len)
{
  gsize n = MIN (len, r->prev->len), common = 0;
  while (common < n && stack[common] == r->prev->str[common])
    common++;
  guint k = 0;
  while (k < r->ends->len)
    {
      gsize end = g_array_index (r->ends, gsize, k);
      if (end > common || (end < len && stack[end] != ';'))
        break;
      k++;
    }
  return k;
}

#define ANNOTATION_LEN 4 /* "_[j]" */

/* The object of a frame whose text @frame (@len bytes) ends in a frame
 * type's annotation, or NULL where it ends in none.  async-profiler's
 * converters mark a Java method's frames by how that frame ran
 * (interpreted _[0], C1-compiled _[1], JIT-compiled _[j], inlined _[i])
 * and stackcollapse-perf.pl marks JIT code _[j] and the kernel's _[k]:
 * the same method is one function whichever way it ran (as async-
 * profiler's own viewer strips them), or its recursion through an
 * inlined copy would go unseen and its total split in two.  A kernel
 * function is in perf's object for the kernel, as the perf reader names
 * it, and --kernel treats it as it treats perf's kernel frames (drop:
 * left out; annotate: named with its "_[k]").  "_[w]" (a waker's stack,
 * offwaketime's) stays part of the name: another thread's frames, not
 * this one's. */
static const char *
frame_annotation (const char *frame, gsize len)
{
  if (len <= ANNOTATION_LEN || frame[len - 4] != '_' || frame[len - 3] != '[' || frame[len - 1] != ']')
    return NULL;
  switch (frame[len - 2])
    {
    case 'k':
      return "[kernel.kallsyms]";
    case 'j':
    case 'i':
    case '0':
    case '1':
      return "";
    default:
      return NULL;
    }
}

static gboolean
add_stack (Reader *r, const char *stack, gsize len, CgValue value, GError **error)
{
  CgGraph *g = r->graph;
  guint k = shared_frames (r, stack, len);
  g_array_set_size (r->path, k);
  g_array_set_size (r->ends, k);
  g_string_truncate (r->prev, k == 0 ? 0 : g_array_index (r->ends, gsize, k - 1));
  gsize start = r->prev->len + (k > 0);
  g_string_append_len (r->prev, stack + r->prev->len, (gssize) (len - r->prev->len));
  CgFrameId parent = k == 0 ? CG_NO_ID : g_array_index (r->path, CgFrameId, k - 1);
  while (start < len)
    {
      const char *semi = memchr (stack + start, ';', len - start);
      gsize end = semi ? (gsize) (semi - stack) : len;
      const char *object = frame_annotation (stack + start, end - start);
      gboolean kernel = object && object[0] != '\0';
      if (kernel && r->options->kernel == CG_KERNEL_DROP)
        {
          /* the samples go to the frame that made the system call: the
           * dropped frame's depth is its caller's frame */
          g_array_append_val (r->path, parent);
          g_array_append_val (r->ends, end);
          start = end + 1;
          continue;
        }
      gsize keep = object && !(kernel && r->options->kernel == CG_KERNEL_ANNOTATE) ? ANNOTATION_LEN : 0;
      g_string_truncate (r->name, 0);
      g_string_append_len (r->name, stack + start, (gssize) (end - start - keep));
      CgFunctionId f = cg_graph_ensure_function (g, object ? object : "", r->name->str);
      if (f == CG_NO_ID)
        return overflow (r, error, "more than 2^32-1 functions");
      guint before = cg_tree_n_frames (r->tree);
      CgFrameId x = cg_tree_ensure_child (r->tree, parent, f);
      if (x == CG_NO_ID)
        return overflow (r, error, "more than 2^32-2 frames in the call tree");
      /* each tree edge is made once: its arc (Kaes's E_t) with it */
      if (cg_tree_n_frames (r->tree) != before && parent != CG_NO_ID
          && cg_graph_ensure_arc (g, cg_tree_function (r->tree, parent), f) == CG_NO_ID)
        return overflow (r, error, "more than 2^32-1 arcs");
      g_array_append_val (r->path, x);
      g_array_append_val (r->ends, end);
      parent = x;
      start = end + 1;
    }
  if (parent == CG_NO_ID)
    {
      /* every frame was the kernel's and dropped: as the perf reader does */
      CgFunctionId f = cg_graph_ensure_function (g, "", "[kernel]");
      if (f == CG_NO_ID || (parent = cg_tree_ensure_child (r->tree, CG_NO_ID, f)) == CG_NO_ID)
        return overflow (r, error, "more than 2^32-1 functions or frames");
    }
  CgKind kind = cg_graph_event_kind (g, r->event);
  CgFunctionId leaf = cg_tree_function (r->tree, parent);
  if (!cg_value_add (kind, &cg_tree_self (r->tree, parent)[r->event], value)
      || !cg_value_add (kind, &cg_graph_self (g, leaf)[r->event], value))
    return overflow (r, error, "a count exceeds the range of 64-bit counters");
  return TRUE;
}

static gboolean
skip_or_fail (Reader *r, GError **error, const char *why)
{
  if (!r->options->lenient)
    return fail (r, error, "not a folded stack (frame;frame;... COUNT): %s", why);
  if (r->skipped++ == 0)
    {
      r->first_skipped = cg_input_line_number (r->in);
      r->first_reason = g_strdup (why);
    }
  return TRUE;
}

static gboolean
handle_line (Reader *r, const char *line, gsize len, GError **error)
{
  gsize i = 0;
  while (i < len && is_blank (line[i]))
    i++;
  if (i == len || line[i] == '#')
    return TRUE;
  Parts parts;
  const char *why = split_line (line, len, r->differential, &parts);
  if (why)
    return skip_or_fail (r, error, why);
  if (parts.two_counts && r->two_counts++ == 0)
    r->first_two_counts = cg_input_line_number (r->in);
  /* the count first, so that a line skipped under --lenient changes nothing */
  CgValue value;
  CgKind kind = parts.real ? CG_KIND_REAL : cg_graph_event_kind (r->graph, r->event);
  if (!cg_value_parse (kind, parts.count, parts.count_len, &value))
    return kind == CG_KIND_INTEGER ? overflow (r, error, "a count exceeds the range of 64-bit counters")
                                   : skip_or_fail (r, error, "malformed count");
  if (parts.real && cg_graph_event_kind (r->graph, r->event) == CG_KIND_INTEGER
      && !cg_profile_ensure_event (r->profile, EVENT_NAME, EVENT_NAME, CG_KIND_REAL, &r->event, error))
    return FALSE;
  if (!parts.real)
    r->samples = value.n > G_MAXUINT64 - r->samples ? G_MAXUINT64 : r->samples + value.n;
  return add_stack (r, line, parts.stack_len, value, error);
}

/* Whether @head (@len bytes, the start of the input) holds FlameGraph's
 * differential lines, "main;parse 10 12": every whole stack line there
 * ends in two counts, and no frame but a leaf ends in a blank and digits.
 * Frame names may end so ("func 12"), and then a number before the count
 * is the leaf's name's, as it is in any file that is not all such lines:
 * flamegraph.pl, which decides line by line, would take it for a count. */
static gboolean
differential_start (const char *head, gsize len)
{
  guint64 lines = 0;
  const char *p = head, *end = head + len;
  const char *nl;
  while (p < end && (nl = memchr (p, '\n', (gsize) (end - p))) != NULL)
    {
      gsize n = (gsize) (nl - p);
      if (n > 0 && p[n - 1] == '\r')
        n--;
      gsize i = 0;
      while (i < n && is_blank (p[i]))
        i++;
      Parts parts;
      if (i < n && p[i] != '#')
        {
          if (split_line (p, n, TRUE, &parts) != NULL || !parts.two_counts)
            return FALSE;
          for (gsize k = 0; k < parts.stack_len; k++)
            if (p[k] == ';' && k > 0 && g_ascii_isdigit (p[k - 1]))
              {
                gsize d = k;
                while (d > 0 && g_ascii_isdigit (p[d - 1]))
                  d--;
                if (d > 0 && is_blank (p[d - 1]))
                  return FALSE;
              }
          lines++;
        }
      p = nl + 1;
    }
  return lines > 0;
}

gboolean
cg_read_folded (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error)
{
  static const CgReadOptions defaults = { 0 };
  Reader r = {
    .profile = profile,
    .graph = cg_profile_graph (profile),
    .tree = cg_profile_ensure_tree (profile),
    .in = input,
    .options = options ? options : &defaults,
    .prev = g_string_new (NULL),
    .path = g_array_new (FALSE, FALSE, sizeof (CgFrameId)),
    .ends = g_array_new (FALSE, FALSE, sizeof (gsize)),
    .name = g_string_new (NULL),
  };
  gboolean ok = cg_profile_ensure_event (profile, EVENT_NAME, EVENT_NAME, CG_KIND_INTEGER, &r.event, error);
  const guint8 *head;
  gsize head_len;
  ok = ok && cg_input_peek (input, 4096, &head, &head_len, error);
  r.differential = ok && differential_start ((const char *) head, head_len);
  const char *line;
  gsize len;
  GError *local = NULL;
  while (ok && cg_input_next_line (input, &line, &len, &local))
    ok = handle_line (&r, line, len, &local);
  if (ok && local == NULL && r.skipped > 0)
    cg_read_warn (r.options, "%s: skipped %" G_GUINT64_FORMAT " line%s that %s not folded stacks "
                  "(the first, line %" G_GUINT64_FORMAT ": %s)",
                  cg_input_name (input), r.skipped, r.skipped == 1 ? "" : "s", r.skipped == 1 ? "is" : "are",
                  r.first_skipped, r.first_reason);
  if (ok && local == NULL && r.two_counts > 0)
    cg_read_warn (r.options, "%s:%" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " line%s with two counts after the"
                  " stack, as FlameGraph's difffolded.pl writes them (the base's, then the new profile's): the"
                  " second is read, as flamegraph.pl draws it, and the first left out; for the difference give the"
                  " two profiles to cgcost or cgtree --base",
                  cg_input_name (input), r.first_two_counts, r.two_counts, r.two_counts == 1 ? "" : "s");
  if (ok && local == NULL)
    cg_profile_add_source (profile, "folded", cg_input_name (input), NULL, NULL);
  /* counts of samples, what the noise of a difference is reckoned from
   * (cg-diff); weights with fractions (real counts) are not samples */
  if (ok && local == NULL && cg_graph_event_kind (r.graph, r.event) == CG_KIND_INTEGER)
    cg_graph_add_event_samples (r.graph, r.event, r.samples, (gdouble) r.samples);
  g_string_free (r.prev, TRUE);
  g_array_unref (r.path);
  g_array_unref (r.ends);
  g_string_free (r.name, TRUE);
  g_free (r.first_reason);
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return ok;
}

gboolean
cg_folded_detect (const guint8 *data, gsize len, gboolean complete)
{
  const guint8 *p = data, *end = data + len;
  if (len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p += 3;
  /* a callgrind file's header lines may look like stacks ("events: Ir 1"),
   * and so may an XML prolog's, and a V8 profile's one line with a ';' in
   * a url: what the stricter text formats' detectors take is theirs, so
   * that no input is taken for two formats */
  if (cg_callgrind_detect (data, len, complete) || cg_xml_detect (data, len, complete)
      || cg_v8_detect (data, len, complete))
    return FALSE;
  guint64 lines = 0, stacks = 0;
  gboolean separator = FALSE;
  while (p < end)
    {
      const guint8 *nl = memchr (p, '\n', (gsize) (end - p));
      const guint8 *eol = nl ? nl : end;
      gsize n = (gsize) (eol - p);
      /* a line the window cut cannot show its count: text with a ';' will do */
      gboolean line_complete = nl != NULL || complete;
      const guint8 *q = p;
      while (q < eol && (is_blank ((char) *q) || *q == '\r'))
        q++;
      for (const guint8 *c = p; c < eol; c++)
        if ((*c < 0x20 && *c != '\t' && *c != '\r') || *c == 0x7f)
          return FALSE; /* binary data, not text */
      if (q < eol && *q != '#')
        {
          /* a line led by a tab is perf script's frame, never a collapse
           * tool's stack, and text that has one is no collapse tool's
           * output (found by fuzz/fuzz-detect.c: "a;b 1" over a frame,
           * then one stack-shaped line of two, taken for both) */
          if (*p == '\t')
            return FALSE;
          gboolean stack = cg_folded_line_matches ((const char *) p, n, line_complete);
          /* the first line shows the format */
          if (lines == 0 && !stack)
            return FALSE;
          if (stack)
            separator |= memchr (p, ';', n) != NULL;
          if (line_complete)
            lines++, stacks += stack;
          else if (stack)
            stacks++, lines++;
        }
      p = nl ? nl + 1 : end;
    }
  /* A profile with a malformed line is still a profile, whose reader
   * names the line (or skips it, --lenient); text with a stack-shaped
   * line here and there is not: most lines must be stacks.  And "name
   * 12" lines alone are too common in other text (settings, the first
   * line of a Java hprof file) to be told from stacks of one frame: a
   * stack of two frames must show the format (formats/folded.md). */
  return lines > 0 && 2 * stacks >= lines && separator;
}
