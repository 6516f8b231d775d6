/* test-read-callgrind.c — the callgrind reader on hand-made files, one per
 * feature of the format as callgrind 3.19 writes it, and one per way a
 * file can be broken. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cg-read-callgrind.h"
#include "cg-test.h"

/* Reads @text as a callgrind file and computes measured costs. */
typedef struct {
  CgProfile *profile;
  CgGraph *graph;
  CgCosts *costs;
} Read;

static gboolean
read_text (const char *text, Read *out, GError **error)
{
  *out = (Read) { NULL };
  out->profile = cg_test_read_string (text, error);
  if (out->profile == NULL)
    return FALSE;
  out->graph = cg_profile_graph (out->profile);
  out->costs = cg_method_ensure (out->profile, CG_METHOD_MEASURED, error);
  return out->costs != NULL;
}

static CgFunctionId
fn (Read *r, const char *object, const char *name)
{
  CgFunctionId f = cg_graph_lookup_function (r->graph, object, name);
  CU_ASSERT_NOT_EQUAL_FATAL (f, CG_NO_ID);
  return f;
}

static guint64
self_of (Read *r, CgFunctionId f, guint e)
{
  return cg_graph_self_const (r->graph, f)[e].n;
}

static guint64
total_of (Read *r, CgFunctionId f)
{
  return cg_costs_total_const (r->costs, f)[0].n;
}

static guint64
calls_on (Read *r, CgFunctionId caller, CgFunctionId callee)
{
  CgArcId a = cg_graph_lookup_arc (r->graph, caller, callee);
  CU_ASSERT_NOT_EQUAL_FATAL (a, CG_NO_ID);
  return cg_graph_arc_calls (r->graph, a);
}

static void collect_warning (const char *message, gpointer data);

/* ---- what callgrind writes ---- */

static void
test_name_compression (void)
{
  /* ids first defined on cfn=/cob=/cfi= lines and referenced later by
   * fn=/ob=/fl=; sparse ids, id 0, and "(below main)" as a literal name */
  static const char text[] =
    "# callgrind format\n"
    "version: 1\n"
    "creator: callgrind-3.19.0\n"
    "cmd:  ./prog arg\n"
    "positions: line\n"
    "events: Ir\n"
    "summary: 1000\n"
    "\n"
    "ob=(7) /bin/prog\n"
    "fl=(100) prog.c\n"
    "fn=(0) (below main)\n"
    "1 10\n"
    "cfn=(54558) main\n"
    "calls=1 20\n"
    "2 990\n"
    "fn=(54558)\n"
    "20 500\n"
    "cob=(9) /lib/libc.so\n"
    "cfi=(3) libc.c\n"
    "cfn=(2) puts\n"
    "calls=2 1\n"
    "21 490\n"
    "ob=(9)\n"
    "fl=(3)\n"
    "fn=(2)\n"
    "1 490\n"
    "totals: 1000\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CgFunctionId below = fn (&r, "/bin/prog", "(below main)");
  CgFunctionId main_ = fn (&r, "/bin/prog", "main");
  CgFunctionId puts_ = fn (&r, "/lib/libc.so", "puts");
  CU_ASSERT_EQUAL (cg_graph_n_functions (r.graph), 3);
  CU_ASSERT_EQUAL (self_of (&r, below, 0), 10);
  CU_ASSERT_EQUAL (self_of (&r, main_, 0), 500);
  CU_ASSERT_EQUAL (self_of (&r, puts_, 0), 490);
  CU_ASSERT_EQUAL (total_of (&r, below), 1000); /* a root: self + its calls */
  CU_ASSERT_EQUAL (total_of (&r, main_), 990);
  CU_ASSERT_EQUAL (total_of (&r, puts_), 490);
  CU_ASSERT_EQUAL (calls_on (&r, main_, puts_), 2);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_file (r.graph, puts_), "libc.c");
  CU_ASSERT_EQUAL (cg_graph_function_line (r.graph, main_), 20); /* the call's target line */
  const CgSource *src = cg_profile_source (r.profile, 0);
  CU_ASSERT_STRING_EQUAL (src->command, "./prog arg");
  CU_ASSERT_STRING_EQUAL (src->creator, "callgrind-3.19.0");
  cg_profile_free (r.profile);
}

static void
test_positions_per_column (void)
{
  /* "instr line": both columns relative to their own previous values;
   * a call's target does not move them.  Any misreading of a column shifts
   * the costs, and totals: no longer matches. */
  static const char text[] =
    "creator: callgrind-3.19.0\n"
    "positions: instr line\n"
    "events: Ir Dr\n"
    "fl=a.c\n"
    "fn=f\n"
    "0x10 5 3 1\n"
    "+2 * 4\n"
    "-1 +1 2\n"
    "* -2 1 7\n"
    "cfn=g\n"
    "calls=1 +32 10\n"
    "+1 * 100 50\n"
    "* * 1\n"
    "fn=g\n"
    "0x32 10 100 50\n"
    "totals: 111 58\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CgFunctionId f = fn (&r, "", "f"), g = fn (&r, "", "g");
  CU_ASSERT_EQUAL (self_of (&r, f, 0), 11);
  CU_ASSERT_EQUAL (self_of (&r, f, 1), 8);
  CU_ASSERT_EQUAL (total_of (&r, f), 111);
  CU_ASSERT_EQUAL (cg_graph_function_line (r.graph, g), 10);
  cg_profile_free (r.profile);
}

static void
test_short_cost_lines (void)
{
  /* trailing zero counts are omitted, even all of them */
  static const char text[] =
    "events: A B C D\n"
    "fn=f\n"
    "1 5\n"
    "2 1 2 3 4\n"
    "3\n"
    "4 0 0 0 0x10\n"
    "totals: 6 2 3 20\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CgFunctionId f = fn (&r, "", "f");
  CU_ASSERT_EQUAL (cg_graph_n_events (r.graph), 4);
  CU_ASSERT_EQUAL (self_of (&r, f, 0), 6);
  CU_ASSERT_EQUAL (self_of (&r, f, 3), 20);
  cg_profile_free (r.profile);
}

static void
test_parts_and_calls_zero (void)
{
  /* two dumps in one file: costs are deltas and add; a call still running
   * at the second dump appears with calls=0 and its new inclusive cost */
  static const char text[] =
    "creator: callgrind-3.19.0\n"
    "part: 1\n"
    "events: Ir\n"
    "fn=main\n"
    "1 10\n"
    "cfn=work\n"
    "calls=1 5\n"
    "2 100\n"
    "fn=work\n"
    "5 100\n"
    "totals: 110\n"
    "part: 2\n"
    "events: Ir\n"
    "fn=main\n"
    "1 1\n"
    "cfn=work\n"
    "calls=0 5\n"
    "2 50\n"
    "fn=work\n"
    "5 50\n"
    "totals: 51\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CgFunctionId m = fn (&r, "", "main"), w = fn (&r, "", "work");
  CU_ASSERT_EQUAL (self_of (&r, m, 0), 11);
  CU_ASSERT_EQUAL (self_of (&r, w, 0), 150);
  CU_ASSERT_EQUAL (calls_on (&r, m, w), 1);
  CU_ASSERT_EQUAL (total_of (&r, m), 161);
  CU_ASSERT_EQUAL (total_of (&r, w), 150);
  cg_profile_free (r.profile);
}

static void
test_inlined_files (void)
{
  /* the callee's file defaults to the current file, inlined one included;
   * fn= goes back to the fl= file (callgrind's: other producers' files
   * make the file a function's object) */
  static const char text[] =
    "creator: callgrind-3.19.0\n"
    "events: Ir\n"
    "fl=a.c\n"
    "fn=f\n"
    "1 1\n"
    "fi=inc.h\n"
    "2 1\n"
    "cfn=helper\n"
    "calls=1 3\n"
    "2 5\n"
    "fe=a.c\n"
    "3 1\n"
    "cfn=g\n"
    "calls=1 9\n"
    "3 2\n"
    "fl=inc.h\n"
    "fn=helper\n"
    "3 5\n"
    "fl=a.c\n"
    "fn=g\n"
    "9 2\n"
    "totals: 10\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CU_ASSERT_STRING_EQUAL (cg_graph_function_file (r.graph, fn (&r, "", "helper")), "inc.h");
  CU_ASSERT_STRING_EQUAL (cg_graph_function_file (r.graph, fn (&r, "", "g")), "a.c");
  CU_ASSERT_STRING_EQUAL (cg_graph_function_file (r.graph, fn (&r, "", "f")), "a.c");
  CU_ASSERT_EQUAL (self_of (&r, fn (&r, "", "f"), 0), 3);
  cg_profile_free (r.profile);
}

static void
test_jumps (void)
{
  /* jumps carry no cost; their jfi=/jfn= ids are defined all the same */
  static const char text[] =
    "events: Ir\n"
    "fn=f\n"
    "1 2\n"
    "jump=3 +5\n"
    "*\n"
    "jcnd=2/3 -1\n"
    "* \n"
    "jcnd=1 4 7\n"
    "*\n"
    "jfi=(5) other.c\n"
    "jfn=(6) other\n"
    "jump=1 9\n"
    "*\n"
    "2 1\n"
    "fn=(6)\n"
    "9 4\n"
    "totals: 7\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CU_ASSERT_EQUAL (self_of (&r, fn (&r, "", "f"), 0), 3);
  CU_ASSERT_EQUAL (self_of (&r, fn (&r, "", "other"), 0), 4);
  cg_profile_free (r.profile);
}

static void
test_context_names (void)
{
  /* 'N recursion levels and 'caller contexts fold into the function; only
   * calls into the outermost activation carry inclusive cost */
  static const char text[] =
    "events: Ir\n"
    "fn=main\n"
    "1 5\n"
    "cfn=fib'main\n"
    "calls=1 1\n"
    "1 160\n"
    "fn=fib'main\n"
    "1 10\n"
    "cfn=fib'2'fib\n"
    "calls=2 1\n"
    "1 150\n"
    "fn=fib'2'fib\n"
    "1 70\n"
    "cfn=fib'2'fib\n"
    "calls=4 1\n"
    "1 50\n"
    "cfn=leaf'fib\n"
    "calls=3 1\n"
    "1 30\n"
    "fn=leaf'fib\n"
    "1 30\n"
    "totals: 115\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CU_ASSERT_EQUAL (cg_graph_n_functions (r.graph), 3);
  CgFunctionId m = fn (&r, "", "main"), fib = fn (&r, "", "fib"), leaf = fn (&r, "", "leaf");
  CU_ASSERT_EQUAL (self_of (&r, fib, 0), 80);
  CU_ASSERT_EQUAL (total_of (&r, fib), 160);
  CU_ASSERT_EQUAL (total_of (&r, leaf), 30);
  CU_ASSERT_EQUAL (total_of (&r, m), 165);
  CU_ASSERT_EQUAL (calls_on (&r, fib, fib), 6);
  /* fib → fib from two contexts is one arc (merged when the file ended) */
  CU_ASSERT_EQUAL (cg_graph_n_arcs (r.graph), 3);
  CU_ASSERT_EQUAL (cg_graph_calls_received (r.graph, fib), 1);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive_const (r.graph, cg_graph_lookup_arc (r.graph, fib, fib))[0].n, 0);
  CU_ASSERT_FALSE (cg_costs_any_estimated (r.costs));
  cg_profile_free (r.profile);
}

/* A random callgrind file in every form cost lines take: absolute, hex,
 * "+N", "-N" and "*" positions, one or two position columns, fewer counts
 * than events, blanks and tabs, contexts, repeated arcs.  Written with
 * "\n", most lines are lexed ahead (cg-callgrind-lex.h); with "\r\n" none
 * is, and the reader reads every line itself.  Both must give the same
 * profile. */
static char *
random_callgrind (guint seed, gboolean crlf)
{
  GRand *rand = g_rand_new_with_seed (seed);
  g_autoptr (GString) s = g_string_new (NULL);
  const char *eol = crlf ? "\r\n" : "\n";
  gboolean two = seed % 2 == 0;
  guint64 last[2] = { 0, 0 }, total[2] = { 0, 0 };
  g_string_append_printf (s, "creator: callgrind-3.19.0%s", eol);
  g_string_append_printf (s, "positions: %s%s", two ? "instr line" : "line", eol);
  g_string_append_printf (s, "events: Ir Dr%s", eol);
  guint8 defined[400] = { 0 };
  /* the last seed makes more than the reader's 1 MiB window, so lines
   * are cut between two reads */
  guint blocks = seed == 4 ? 16000 : 3000;
  for (guint block = 0; block < blocks; block++)
    {
      guint f = g_rand_int_range (rand, 0, 200);
      gboolean deeper = g_rand_int_range (rand, 0, 4) == 0;
      guint id = deeper ? f + 200 : f;
      if (!defined[id])
        g_string_append_printf (s, "fn=(%u) f%u%s%s", id, f, deeper ? "'2" : "", eol);
      else
        g_string_append_printf (s, "fn=(%u)%s", id, eol);
      defined[id] = 1;
      guint lines = g_rand_int_range (rand, 1, 12);
      for (guint l = 0; l < lines; l++)
        {
          gboolean call = g_rand_int_range (rand, 0, 3) == 0;
          if (call)
            {
              guint g = g_rand_int_range (rand, 0, 200);
              if (!defined[g])
                g_string_append_printf (s, "cfn=(%u) f%u%s", g, g, eol);
              else
                g_string_append_printf (s, "cfn=(%u)%s", g, eol);
              defined[g] = 1;
              g_string_append_printf (s, "calls=%u +%u%s", g_rand_int_range (rand, 0, 9), g_rand_int_range (rand, 0, 9), eol);
            }
          for (guint c = 0; c < (two ? 2u : 1u); c++)
            {
              if (c > 0)
                g_string_append (s, g_rand_int_range (rand, 0, 5) == 0 ? "\t" : " ");
              guint form = g_rand_int_range (rand, 0, 5);
              guint64 v = (guint64) g_rand_int_range (rand, 0, 50);
              if (form == 0)
                g_string_append_printf (s, "%" G_GUINT64_FORMAT, last[c] = v + 1000);
              else if (form == 1)
                g_string_append_printf (s, "0x%" G_GINT64_MODIFIER "x", last[c] = v + 4096);
              else if (form == 2)
                g_string_append_printf (s, "+%" G_GUINT64_FORMAT, v), last[c] += v;
              else if (form == 3 && last[c] >= v)
                g_string_append_printf (s, "-%" G_GUINT64_FORMAT, v), last[c] -= v;
              else
                g_string_append (s, "*");
            }
          guint n = g_rand_int_range (rand, 0, 3);
          for (guint e = 0; e < n; e++)
            {
              guint64 v = (guint64) g_rand_int_range (rand, 0, 100000);
              g_string_append_printf (s, e == 0 && g_rand_int_range (rand, 0, 7) == 0 ? "  %" G_GUINT64_FORMAT : " %" G_GUINT64_FORMAT, v);
              if (!call)
                total[e] += v;
            }
          if (g_rand_int_range (rand, 0, 9) == 0)
            g_string_append (s, " ");
          g_string_append (s, eol);
        }
    }
  g_string_append_printf (s, "totals: %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "%s", total[0], total[1], eol);
  g_rand_free (rand);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
profile_xml (CgProfile *p)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CU_ASSERT_TRUE (cg_write_xml (p, f, "memory", NULL));
  fclose (f);
  return buf;
}

static void
test_lf_and_crlf_agree (void)
{
  for (guint seed = 1; seed <= 4; seed++)
    {
      g_autofree char *lf = random_callgrind (seed, FALSE), *crlf = random_callgrind (seed, TRUE);
      GError *error = NULL;
      g_autoptr (CgProfile) a = cg_test_read_string (lf, &error);
      if (a == NULL)
        fprintf (stderr, "\n  seed %u: %s\n", seed, error->message);
      CU_ASSERT_PTR_NOT_NULL_FATAL (a);
      g_autoptr (CgProfile) b = cg_test_read_string (crlf, &error);
      CU_ASSERT_PTR_NOT_NULL_FATAL (b);
      g_autofree char *xa = profile_xml (a), *xb = profile_xml (b);
      /* the sources name different files; what follows them must match */
      CU_ASSERT_STRING_EQUAL (strstr (xa, "<events>"), strstr (xb, "<events>"));
      CU_ASSERT_TRUE (cg_graph_n_arcs (cg_profile_graph (a)) > 100);
    }
}

/* A random callgrind file of the lines the lexer reads ahead and of
 * everything around them that changes what they mean: headers that start
 * parts and change the positions and events, blank and comment lines
 * (also between calls= and its cost line), jumps, CRLF, tabs, hex, "*",
 * relative positions near 0 and 2^64, numbers of 1 to 19 digits.  A file that
 * @breaks also gets, somewhere, one of the ways a line can be wrong. */
typedef struct {
  GRand *rand;
  GString *s;
  guint n_pos, n_events;
  guint64 last[2];
  gboolean defined[40];
  gboolean named[2][3]; /* objects and files by id */
} Edgy;

static guint
pick (Edgy *e, guint n)
{
  return (guint) g_rand_int_range (e->rand, 0, (gint32) n);
}

/* 1 to 19 random decimal digits (below 2^64), leading zeros and all:
 * every length on either side of the lexer's eight at a time. */
static guint64
edgy_digits (Edgy *e)
{
  guint n = 1 + pick (e, 19);
  char digits[20];
  for (guint i = 0; i < n; i++)
    digits[i] = (char) ('0' + pick (e, 10));
  digits[n] = '\0';
  g_string_append (e->s, digits);
  return g_ascii_strtoull (digits, NULL, 10);
}

static void
edgy_position (Edgy *e, guint c)
{
  guint64 v = pick (e, 60), *last = &e->last[c];
  switch (pick (e, 12))
    {
    case 0:
      g_string_append (e->s, "*");
      return;
    case 1: case 2: case 3:
      if (*last <= G_MAXUINT64 - v)
        {
          g_string_append_printf (e->s, "+%" G_GUINT64_FORMAT, v);
          *last += v;
          return;
        }
      /* fall through */
    case 4: case 5: case 6:
      if (*last >= v)
        {
          g_string_append_printf (e->s, "-%" G_GUINT64_FORMAT, v);
          *last -= v;
          return;
        }
      /* fall through */
    case 7:
      g_string_append_printf (e->s, "%" G_GUINT64_FORMAT, *last = v + 100);
      return;
    case 8:
      *last = edgy_digits (e);
      return;
    case 9:
      g_string_append_printf (e->s, "0x%" G_GINT64_MODIFIER "x", *last = v);
      return;
    case 10:
      g_string_append_printf (e->s, "%" G_GUINT64_FORMAT, *last = G_MAXUINT64 - v);
      return;
    default:
      v = (G_GUINT64_CONSTANT (1) << 62) - v;
      if (*last <= G_MAXUINT64 - v)
        g_string_append_printf (e->s, "+%" G_GUINT64_FORMAT, v), *last += v;
      else
        g_string_append_printf (e->s, "-%" G_GUINT64_FORMAT, v), *last -= v;
    }
}

static void
edgy_cost_line (Edgy *e)
{
  for (guint c = 0; c < e->n_pos; c++)
    {
      if (c > 0)
        g_string_append (e->s, pick (e, 20) == 0 ? "\t" : " ");
      edgy_position (e, c);
    }
  guint n_costs = pick (e, e->n_events + 1);
  for (guint i = 0; i < n_costs; i++)
    {
      guint form = pick (e, 200);
      if (form == 0)
        g_string_append (e->s, " 9999999999999999"); /* adds up to 2^64 in a few thousand lines */
      else if (form < 20)
        {
          g_string_append_c (e->s, ' ');
          edgy_digits (e);
        }
      else
        g_string_append_printf (e->s, form == 1 ? "  %u" : " %u", pick (e, 1000));
    }
  g_string_append (e->s, pick (e, 30) == 0 ? "\r\n" : "\n");
}

/* The cost line after calls= or a jump: its positions are relative to
 * the last self cost line's, which stay the base of the next line
 * (callgrind's writer) */
static void
edgy_source_line (Edgy *e)
{
  guint64 base[2] = { e->last[0], e->last[1] };
  edgy_cost_line (e);
  e->last[0] = base[0];
  e->last[1] = base[1];
}

static void
edgy_fn (Edgy *e)
{
  /* definitions as callgrind writes them, and with what the lexer leaves
   * to the reader: more blanks, a tab, CRLF, bytes to escape, nothing */
  static const struct {
    const char *blank, *before, *after; /* "fn=(N)" BLANK BEFORE N AFTER */
  } defined[] = {
    { " ", "f", "\n" }, { " ", "f", "\n" }, { " ", "f", "\n" }, { "  ", "f", "\n" }, { "\t", "f", "\n" },
    { " ", "f", " \n" }, { " ", "f", "\r\n" }, { " ", "f\xc3\xa9", "\n" }, { " ", "f\x01", "\n" }, { " ", "", "'2\n" },
  };
  guint f = pick (e, 40);
  if (!e->defined[f] || pick (e, 8) == 0)
    {
      guint k = pick (e, G_N_ELEMENTS (defined));
      g_string_append_printf (e->s, "fn=(%u)%s%s%u%s", f, defined[k].blank, defined[k].before, f, defined[k].after);
    }
  else
    g_string_append_printf (e->s, "fn=(%u)\n", f);
  e->defined[f] = TRUE;
}

static char *
random_edgy_callgrind (GRand *rand, guint lines, gboolean breaks)
{
  static const char *const headers[] = {
    "positions: line\n", "positions: instr line\n", "events: Ir\n", "events: Ir Dr\n", "events: A B C\n",
    "part: 2\n",
  };
  static const char *const breakers[] = {
    "%%garbage\n", "cfn=(39)\ncalls=1 2\n1 1\n", "calls=1 -99999999999999999\n1 1\n", "-18446744073709551615 1\n",
    "+18446744073709551615 1\n", "1 99999999999999999999\n", "1 1 1 1 1\n", "jump=1 2\n", "fn=(7\n", "totals: 1\n",
    "cfn=(1)\ncalls=1 1\nfn=(1)\n", "ob=(9)\n", "fl=(9)\n", "cob=(9)\ncfn=(0)\ncalls=1 1\n1 1\n",
  };
  Edgy e = { .rand = rand, .s = g_string_new ("events: Ir Dr\nfn=(0) f0\n"), .n_pos = 1, .n_events = 2,
             .defined = { TRUE } };
  guint broken_at = breaks ? pick (&e, lines) : G_MAXUINT;
  for (guint l = 0; l < lines; l++)
    {
      guint what = pick (&e, 100);
      if (l == broken_at)
        g_string_append (e.s, breakers[pick (&e, G_N_ELEMENTS (breakers))]);
      else if (what < 2)
        {
          const char *h = headers[pick (&e, G_N_ELEMENTS (headers))];
          g_string_append (e.s, h);
          /* a new part: positions back to 0, a function needed again */
          /* each starts a part, which has one position unless it says */
          e.n_pos = g_str_has_prefix (h, "positions") && strchr (h, ' ') != strrchr (h, ' ') ? 2 : 1;
          if (g_str_has_prefix (h, "events"))
            for (const char *c = h + 7, *prev = h + 6; *c; prev = c++)
              e.n_events = (c == h + 7 ? 0 : e.n_events) + (*prev == ' ' && *c != ' ');
          if (!g_str_has_prefix (h, "events"))
            g_string_append (e.s, e.n_events == 2 ? "events: Ir Dr\n" : e.n_events == 1 ? "events: Ir\n" : "events: A B C\n");
          e.last[0] = e.last[1] = 0;
          edgy_fn (&e);
        }
      else if (what < 4)
        g_string_append (e.s, pick (&e, 2) ? "# a comment\n" : pick (&e, 2) ? "\n" : " \t\r\n");
      else if (what < 10)
        edgy_fn (&e);
      else if (what < 13)
        {
          /* objects and files, by id once named (the lexer reads those) */
          static const char *const keys[] = { "ob", "cob", "fl", "cfi" };
          guint k = pick (&e, G_N_ELEMENTS (keys)), id = pick (&e, 3);
          gboolean *named = &e.named[k >= 2][id];
          if (!*named || pick (&e, 4) == 0)
            g_string_append_printf (e.s, "%s=(%u) %s%u\n", keys[k], id, k < 2 ? "lib" : "file", id);
          else
            g_string_append_printf (e.s, "%s=(%u)\n", keys[k], id);
          *named = TRUE;
        }
      else if (what < 30)
        {
          guint g = pick (&e, 40);
          if (!e.defined[g] || pick (&e, 8) == 0)
            g_string_append_printf (e.s, "cfn=(%u) f%u%s\n", g, g, pick (&e, 4) == 0 ? "'2" : "");
          else
            g_string_append_printf (e.s, "cfn=(%u)\n", g);
          e.defined[g] = TRUE;
          if (pick (&e, 8) == 0)
            g_string_append (e.s, pick (&e, 2) ? "\n" : "# between\n");
          static const char *const targets[] = { "", " 12", " +3", " *", " 0x10", " 1 2", " 1\t2" };
          g_string_append_printf (e.s, "calls=%u%s\n", pick (&e, 5), targets[pick (&e, G_N_ELEMENTS (targets))]);
          if (pick (&e, 10) == 0)
            g_string_append (e.s, "\n");
          edgy_source_line (&e);
        }
      else if (what < 32)
        {
          g_string_append (e.s, pick (&e, 2) ? "jump=2 +1\n" : "jcnd=1/2 -1\n");
          edgy_source_line (&e);
        }
      else
        edgy_cost_line (&e);
    }
  return g_string_free (e.s, FALSE);
}

/* The result of reading @text with the lexer's @piece: the profile's XML
 * from its events on, or the error message. */
static char *
read_in_pieces (const char *text, gsize piece)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("random", (const guint8 *) text, strlen (text));
  GError *error = NULL;
  if (!cg_read_callgrind_in_pieces (p, in, NULL, piece, &error))
    {
      char *message = g_strdup_printf ("error %d: %s", error->code, error->message);
      g_error_free (error);
      return message;
    }
  g_autofree char *xml = profile_xml (p);
  return g_strdup (strstr (xml, "<events>"));
}

/* Reads @text into @p (as cg_read_callgrind, lexer and all). */
static void
read_into (CgProfile *p, const char *text)
{
  g_autoptr (CgInput) in = cg_input_new_from_bytes ("arcs", (const guint8 *) text, strlen (text));
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_read_callgrind_in_pieces (p, in, NULL, G_MAXSIZE, &error));
  if (error)
    fprintf (stderr, "\n  %s\n", error->message);
  g_clear_error (&error);
}

/* Whether @g has exactly the arcs @want (caller * 16 + callee -> calls
 * and inclusive cost, each multiplied by @times), one arc each. */
static gboolean
arcs_are (CgGraph *g, const guint64 (*want)[2], guint n_functions, guint64 times)
{
  guint n_want = 0;
  for (guint k = 0; k < n_functions * 16; k++)
    n_want += want[k][0] > 0;
  if (cg_graph_n_arcs (g) != n_want)
    return FALSE;
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      guint caller, callee;
      if (sscanf (cg_graph_function_name (g, cg_graph_arc_caller (g, a)), "f%u", &caller) != 1
          || sscanf (cg_graph_function_name (g, cg_graph_arc_callee (g, a)), "f%u", &callee) != 1)
        return FALSE;
      const guint64 *w = want[caller * 16 + callee];
      if (cg_graph_arc_calls (g, a) != w[0] * times || cg_graph_arc_inclusive_const (g, a)[0].n != w[1] * times)
        return FALSE;
    }
  return TRUE;
}

static void
test_blocks_lexed_on_two_threads (void)
{
  /* files of several input blocks, which the lexer's thread and the
   * reader's both lex, each from the header the block before leaves: a
   * part beginning in one block changes it for the next, which then is
   * lexed again.  Everything read must be as if read line by line. */
  GRand *rand = g_rand_new_with_seed (13);
  for (guint file = 0; file < 3; file++)
    {
      g_autofree char *text = random_edgy_callgrind (rand, 600000, file == 2);
      CU_ASSERT_TRUE (strlen (text) > 4 * 1024 * 1024);
      g_autofree char *want = read_in_pieces (text, 0);
      g_autofree char *have = read_in_pieces (text, G_MAXSIZE);
      CU_ASSERT_STRING_EQUAL (have, want);
    }
  g_rand_free (rand);
}

static void
test_functions_made_once (void)
{
  /* a function's contexts name it in any order, in several objects: the
   * reader makes each (object, function) once, and the graph's index,
   * built on the first lookup, finds them */
  static const char text[] = "events: Ir\n"
                             "ob=(1) libA\n"
                             "fn=(1) f'2\n"
                             "1 1\n"
                             "ob=(2) libB\n"
                             "fn=(2) f\n"
                             "1 2\n"
                             "fn=(1)\n"
                             "1 4\n"
                             "ob=(1)\n"
                             "fn=(2)\n"
                             "1 8\n"
                             "cfn=(3) g'main\n"
                             "calls=1 1\n"
                             "1 16\n"
                             "fn=(3)\n"
                             "1 16\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CU_ASSERT_EQUAL (cg_graph_n_functions (r.graph), 3);
  CgFunctionId fa = fn (&r, "libA", "f"), fb = fn (&r, "libB", "f"), g = fn (&r, "libA", "g");
  CU_ASSERT_EQUAL (self_of (&r, fa, 0), 1 + 8);
  CU_ASSERT_EQUAL (self_of (&r, fb, 0), 2 + 4);
  CU_ASSERT_EQUAL (self_of (&r, g, 0), 16);
  CU_ASSERT_EQUAL (calls_on (&r, fa, g), 1);
  cg_profile_free (r.profile);

  /* random files: no two functions alike, and the index finds each */
  GRand *rand = g_rand_new_with_seed (5);
  guint twins = 0, lost = 0;
  for (guint file = 0; file < 200; file++)
    {
      g_autofree char *t = random_edgy_callgrind (rand, 200, FALSE);
      g_autoptr (CgProfile) p = cg_profile_new ();
      g_autoptr (CgInput) in = cg_input_new_from_bytes ("random", (const guint8 *) t, strlen (t));
      if (!cg_read_callgrind_in_pieces (p, in, NULL, G_MAXSIZE, &error))
        {
          g_clear_error (&error);
          continue;
        }
      CgGraph *gr = cg_profile_graph (p);
      g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (CgFunctionId f = 0; f < cg_graph_n_functions (gr); f++)
        {
          const char *object = cg_graph_function_object (gr, f), *name = cg_graph_function_name (gr, f);
          twins += !g_hash_table_add (seen, g_strdup_printf ("%s\t%s", object, name));
          lost += cg_graph_lookup_function (gr, object, name) != f;
        }
    }
  g_rand_free (rand);
  CU_ASSERT_EQUAL (twins, 0);
  CU_ASSERT_EQUAL (lost, 0);
}

static void
test_arcs_merged_across_blocks (void)
{
  /* a function's calls come in several fn= blocks, and a block may call
   * one callee from several lines: each caller and callee make one arc,
   * whichever blocks gave it; read twice into one profile, every arc
   * doubles (the second file's arcs meet the first's) */
  GRand *rand = g_rand_new_with_seed (11);
  guint wrong = 0;
  for (guint file = 0; file < 200; file++)
    {
      guint64 want[16 * 16][2] = { { 0 } };
      gboolean named[16] = { FALSE };
      GString *s = g_string_new ("events: Ir\n");
      guint n_blocks = 1 + (guint) g_rand_int_range (rand, 0, 30);
      for (guint b = 0; b < n_blocks; b++)
        {
          guint f = (guint) g_rand_int_range (rand, 0, 16);
          g_string_append_printf (s, named[f] ? "fn=(%u)\n" : "fn=(%u) f%u\n", f, f);
          named[f] = TRUE;
          g_string_append_printf (s, "%d 1\n", g_rand_int_range (rand, 1, 50));
          for (guint c = (guint) g_rand_int_range (rand, 0, 6); c > 0; c--)
            {
              guint callee = (guint) g_rand_int_range (rand, 0, 16);
              if (callee == f)
                continue; /* a call into the caller's own outermost activation nests */
              guint calls = (guint) g_rand_int_range (rand, 1, 9), cost = (guint) g_rand_int_range (rand, 0, 500);
              g_string_append_printf (s, named[callee] ? "cfn=(%u)\n" : "cfn=(%u) f%u\n", callee, callee);
              named[callee] = TRUE;
              g_string_append_printf (s, "calls=%u +1\n* %u\n", calls, cost);
              want[f * 16 + callee][0] += calls;
              want[f * 16 + callee][1] += cost;
            }
        }
      g_autofree char *text = g_string_free (s, FALSE);
      g_autoptr (CgProfile) once = cg_profile_new (), twice = cg_profile_new ();
      read_into (once, text);
      read_into (twice, text);
      read_into (twice, text);
      if (!arcs_are (cg_profile_graph (once), want, 16, 1) || !arcs_are (cg_profile_graph (twice), want, 16, 2))
        {
          if (wrong++ == 0)
            fprintf (stderr, "\n  arcs not merged as expected in file %u:\n%s\n", file, text);
        }
    }
  g_rand_free (rand);
  CU_ASSERT_EQUAL (wrong, 0);
}

/* Whether @text reads without an error line by line (piece 0, the
 * reference); counts in *@failed the pieces of the lexer's (1 byte to
 * whole blocks) that read it otherwise, and shows the first three. */
static gboolean
lexed_alike (const char *text, guint file, guint *failed)
{
  static const gsize pieces[] = { 1, 7, 40, 300, G_MAXSIZE };
  g_autofree char *want = read_in_pieces (text, 0);
  for (guint i = 0; i < G_N_ELEMENTS (pieces); i++)
    {
      g_autofree char *have = read_in_pieces (text, pieces[i]);
      if (strcmp (have, want) != 0 && (*failed)++ < 3)
        fprintf (stderr, "\n  file %u, pieces of %" G_GSIZE_FORMAT ":\n%s\n  read: %.300s\n  lexed: %.300s\n", file,
                 pieces[i], text, want, have);
    }
  return !g_str_has_prefix (want, "error");
}

static void
test_lexed_and_read_alike (void)
{
  /* every line read by the reader itself (piece 0) is the reference; the
   * lexer's records must change nothing, wherever its blocks start */
  GRand *rand = g_rand_new_with_seed (7);
  guint failed = 0, broken = 0;
  for (guint file = 0; file < 400; file++)
    {
      g_autofree char *text = random_edgy_callgrind (rand, file < 390 ? 80 : 20000, file % 3 == 0);
      broken += !lexed_alike (text, file, &failed);
    }
  g_rand_free (rand);
  CU_ASSERT_EQUAL (failed, 0);
  /* a third were made to break, and did, but those whose breaker uses
   * an id never defined, which reads as an empty name */
  CU_ASSERT_TRUE (broken >= 95 && broken < 125);
}

/* Moves *@position as the cost line @line does; FALSE, leaving it, when
 * the line would take it below 0. */
static gboolean
move_position (const char *line, guint64 *position)
{
  guint64 v = g_ascii_strtoull (line + (*line == '+' || *line == '-'), NULL, 10);
  if (*line == '-' && v > *position)
    return FALSE;
  *position = *line == '*' ? *position : *line == '+' ? *position + v : *line == '-' ? *position - v : v;
  return TRUE;
}

static void
test_short_lines_at_their_limits (void)
{
  /* the cost lines the lexer reads sixteen bytes at once ("POSITION
   * COST", seven digits or fewer each) and the lines just past each of
   * their limits, in random order, as a run goes on: read alike however
   * lexed.  The common lines keep the position at 0 or above; the rare
   * ones may take it below, or past the short lines' own limits (2^61,
   * 2^62), or the sums past 2^64, and the reader may refuse them. */
  static const char *const common[] = {
    "9 1\n", "+1 1\n", "-1 1\n", "* 1\n", "0 0\n", "+0 0\n", "-0 7\n", "* 0\n", "1234567 1234567\n",
    "+1234567 1234567\n", "-1234567 7654321\n", "+123456 7654321\n", "0000007 0000009\n", "12345678 1\n",
    "1 12345678\n", "+12345678 1\n", "-12345678 1\n", "* 1234567\n", "* 12345678\n", "+3\n", "*\n", "3 \n",
    "+3  4\n", "+3\t4\n", "+3 4\r\n", "2305843009213693950 1\n", "2305843009213693952 1\n",
  };
  static const char *const rare[] = {
    "-9999999 1\n", "+-3 4\n", " 3 4\n", "*1 2\n", "+ 2\n", "- 2\n", "+1 2 3\n", "+2305843009213693951 1\n",
    "+4611686018427387903 1\n", "-4611686018427387903 1\n", "1 4611686018427387904\n", "1 18446744073709551615\n",
    /* a run's position at 2^64 - 4, and its sum at 2^64 - 7, then short lines */
    "9999999999999999999 1\n+4611686018427387903 1\n+3835058055282163710 1\n",
    "1 9999999999999999999\n+0 8446744073709551610\n",
  };
  GRand *rand = g_rand_new_with_seed (17);
  guint failed = 0, broken = 0;
  for (guint file = 0; file < 300; file++)
    {
      GString *s = g_string_new (file % 2 ? "events: Ir\n" : "events: Ir Dr\n");
      guint64 position = 0;
      for (guint l = 0; l < 400; l++)
        {
          guint what = (guint) g_rand_int_range (rand, 0, 1000);
          const char *line = common[g_rand_int_range (rand, 0, what < 300 ? G_N_ELEMENTS (common) : 4)];
          if (what < 2)
            g_string_append (s, rare[g_rand_int_range (rand, 0, G_N_ELEMENTS (rare))]);
          else if (what < 30 || l == 0)
            {
              g_string_append_printf (s, "fn=(%u) f%u\n%u 1\n", what % 5, what % 5, 100 + what);
              position = 100 + what;
            }
          else if (what < 60)
            {
              g_string_append_printf (s, "cfn=(9) g\ncalls=1 +1\n+%u 3\n", what);
              position += what;
            }
          else if (move_position (line, &position))
            g_string_append (s, line);
        }
      g_autofree char *text = g_string_free (s, FALSE);
      broken += !lexed_alike (text, file, &failed);
    }
  g_rand_free (rand);
  CU_ASSERT_EQUAL (failed, 0);
  /* some files meet a line the reader refuses, most do not */
  CU_ASSERT_TRUE (broken > 30 && broken < 200);
}

static void
test_split_names (void)
{
  static const struct {
    const char *name;
    gsize base;
    guint level;
  } cases[] = {
    { "fib", 3, 1 },
    { "fib'2", 3, 2 },
    { "fib'12'main", 3, 12 },
    { "fib'main'2", 3, 1 }, /* a caller context, then nothing numeric in place */
    { "(below main)", 12, 1 },
    { "save.constprop.0'2'save_list'save.constprop.0'dump", 16, 2 },
    { "f'", 1, 1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize base;
      guint level;
      cg_callgrind_split_name (cases[i].name, strlen (cases[i].name), &base, &level);
      CU_ASSERT_EQUAL (base, cases[i].base);
      CU_ASSERT_EQUAL (level, cases[i].level);
    }
}

static void
test_names_by_creator (void)
{
  /* an apostrophe starts a context in callgrind's names only: another
   * producer's names are verbatim (pyprof2calltree, xdebug), a file
   * without creator: splits names of callgrind's shape only, cgtools'
   * own files their last "'N" or "'<spontaneous>" */
  static const struct {
    const char *creator;
    const char *name;
    gsize base;
    guint level;
  } cases[] = {
    { "callgrind-3.19.0", "fib'2'main", 3, 2 },
    { "callgrind-3.19.0", "<method 'read' of 'file' objects>", 8, 1 },
    { "xdebug 3.2.0 (PHP 8.2.36)", "fib'2", 5, 1 },
    { "xdebug 3.2.0 (PHP 8.2.36)", "<method 'read' of 'file' objects>", 33, 1 },
    { NULL, "<method 'read' of 'file' objects>", 33, 1 },
    { NULL, "f'", 2, 1 },
    { NULL, "'f", 2, 1 },
    { NULL, "fib'2'main", 3, 2 },
    { NULL, "save.constprop.0'2'save_list'save.constprop.0'dump", 16, 2 },
    { NULL, "operator new(unsigned long)'2", 27, 2 },
    { "cgtools 0.1.0 (cgcost --format=callgrind)", "<method 'read' of 'file' objects>", 33, 1 },
    { "cgtools 0.1.0 (cgcost --format=callgrind)", "<method 'read' of 'file' objects>'2", 33, 2 },
    { "cgtools 0.1.0 (cgcost --format=callgrind)", "a'b'<spontaneous>", 3, 1 },
    { "cgtools 0.1.0 (cgcost --format=callgrind)", "a'b", 3, 1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize base;
      guint level;
      cg_callgrind_split_name_as (cg_callgrind_names_of (cases[i].creator), cases[i].name, strlen (cases[i].name),
                                  &base, &level);
      if (base != cases[i].base || level != cases[i].level)
        fprintf (stderr, "\n  %s by %s: base %zu level %u\n", cases[i].name, cases[i].creator, base, level);
      CU_ASSERT_EQUAL (base, cases[i].base);
      CU_ASSERT_EQUAL (level, cases[i].level);
    }

  /* read: pyprof2calltree's names stay whole, and distinct */
  static const char text[] = "events: ns\nfn=main\n1 1\ncfn=<method 'read' of 'file' objects>\ncalls=1 0\n1 5\n"
                             "cfn=<method 'write' of 'file' objects>\ncalls=1 0\n1 7\n"
                             "fn=<method 'read' of 'file' objects>\n1 5\nfn=<method 'write' of 'file' objects>\n1 7\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CU_ASSERT_EQUAL (cg_graph_n_functions (r.graph), 3);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "<method 'read' of 'file' objects>")), 5);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "<method 'write' of 'file' objects>")), 7);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "main")), 13);
  cg_profile_free (r.profile);
}

static void
test_undefined_ids (void)
{
  /* callgrind 0.10.1 used object ids it never defined: an empty name,
   * one warning naming the file and the first line */
  static const char text[] = "creator: callgrind-0.10.1\nevents: Ir\nob=(8)\nfl=(1) a.c\nfn=(1) main\n1 5\n"
                             "cob=(9)\ncfn=(2) g\ncalls=1 2\n1 7\nob=(9)\nfn=(2)\n1 7\nfn=(3)\n1 1\ntotals: 13\n";
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  CgReadOptions options = { .warn = collect_warning, .warn_data = warnings };
  char *path = cg_test_temp_file (text, -1);
  g_autoptr (CgProfile) p = cg_profile_new ();
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (cg_read_file (p, path, &options, &error));
  CU_ASSERT_EQUAL_FATAL (warnings->len, 1);
  const char *w = g_ptr_array_index (warnings, 0);
  CU_ASSERT_PTR_NOT_NULL (strstr (w, ":3: object id (8) is used but not defined"));
  CU_ASSERT_PTR_NOT_NULL (strstr (w, "(4 uses of undefined ids"));
  CgGraph *g = cg_profile_graph (p);
  CgFunctionId main_f = cg_graph_lookup_function (g, "", "main"), g_f = cg_graph_lookup_function (g, "", "g");
  CU_ASSERT_NOT_EQUAL_FATAL (main_f, CG_NO_ID);
  CU_ASSERT_NOT_EQUAL_FATAL (g_f, CG_NO_ID);
  CU_ASSERT_NOT_EQUAL (cg_graph_lookup_function (g, "", ""), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, cg_graph_lookup_arc (g, main_f, g_f)), 1);
  cg_test_remove (path);
}

static void
test_without_recursion_split (void)
{
  /* --separate-recs=1: f calls itself straight into its outermost
   * activation and a <-> b nest; the cycle's members are estimated, each
   * with the lower of the cycle's exact total (50) and the calls into it
   * (a: 50 + 10, b: 40, self 30 and its call out 10 within it), which
   * both hold all its activations; self-recursive f stays exact */
  static const char text[] =
    "events: Ir\n"
    "fn=main\n"
    "1 1\n"
    "cfn=f\n"
    "calls=1 1\n"
    "1 30\n"
    "cfn=a\n"
    "calls=1 1\n"
    "1 50\n"
    "fn=f\n"
    "1 30\n"
    "cfn=f\n"
    "calls=1 1\n"
    "1 10\n"
    "fn=a\n"
    "1 20\n"
    "cfn=b\n"
    "calls=2 1\n"
    "1 40\n"
    "fn=b\n"
    "1 30\n"
    "cfn=a\n"
    "calls=1 1\n"
    "1 10\n"
    "totals: 81\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CgFunctionId f = fn (&r, "", "f"), a = fn (&r, "", "a"), b = fn (&r, "", "b");
  CU_ASSERT_EQUAL (total_of (&r, f), 30);
  CU_ASSERT_FALSE (cg_costs_total_is_estimated (r.costs, f));
  CU_ASSERT_TRUE (cg_graph_function_flags (r.graph, a) & CG_FUNCTION_NESTED);
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (r.costs, a));
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (r.costs, b));
  CU_ASSERT_EQUAL (total_of (&r, a), 50);
  CU_ASSERT_EQUAL (total_of (&r, b), 40);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "main")), 81);
  cg_profile_free (r.profile);
}

static void
test_summary_not_checked (void)
{
  /* callgrind's summary: may exceed the self costs (--cache-sim counts
   * a little outside any function) or fall short of them (a signal
   * handler's cost is left out; --cacheuse's events are 0 there): only
   * totals: must match, exactly */
  static const char more[] = "events: Ir\nsummary: 12\nfn=f\n1 10\ntotals: 10\n";
  static const char less[] = "events: Ir\nsummary: 9\nfn=main\n1 9\nfn=handler\n5 1\ntotals: 10\n";
  static const char bad_totals[] = "events: Ir\nsummary: 10\nfn=f\n1 10\ntotals: 9\n";
  static const char bad_summary[] = "events: Ir\nsummary: x\nfn=f\n1 10\ntotals: 10\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE (read_text (more, &r, &error));
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "f")), 10);
  cg_profile_free (r.profile);
  CU_ASSERT_TRUE (read_text (less, &r, &error));
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "handler")), 1);
  cg_profile_free (r.profile);
  CU_ASSERT_FALSE (read_text (bad_totals, &r, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "totals: at line 5 gives 9 Ir, but the self costs of part 1 add up to 10");
  g_clear_error (&error);
  CU_ASSERT_FALSE (read_text (bad_summary, &r, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "expected a number");
  g_clear_error (&error);
}

static void
test_versions (void)
{
  /* a major version and minor ones: KCachegrind reads majors 0 and 1;
   * Xdebug 2's aggregate files (xdebug.profiler_aggregate) begin
   * "version: 0.9.6", with a summary: inside {main}'s block */
  static const char xdebug_aggregate[] = "version: 0.9.6\ncmd: Aggregate\npart: 1\n\nevents: Time\n\n"
                                         "fl=/srv/t.php\nfn=f\n0 40\n\nfl=/srv/t.php\nfn={main}\n0 150\n\n"
                                         "summary: 190\n\ncfn=f\ncalls=2 0 0\n5 40\n\n";
  static const char *const good[] = { "version: 1\nevents: Ir\n", "version: 1.0\nevents: Ir\n",
                                      "version:  0 \nevents: Ir\n" };
  static const struct {
    const char *text, *message;
    gint code;
  } bad[] = {
    { "version: 2.1\nevents: Ir\n", ":1: format version 2 is not supported", CG_ERROR_UNSUPPORTED },
    { "version: 012\nevents: Ir\n", ":1: format version 12 is not supported", CG_ERROR_UNSUPPORTED },
    { "version: 1.\nevents: Ir\n", ":1: version: expects a number", CG_ERROR_PARSE },
    { "version: 1.x\nevents: Ir\n", ":1: version: expects a number", CG_ERROR_PARSE },
    { "version: v1\nevents: Ir\n", ":1: version: expects a number", CG_ERROR_PARSE },
  };
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (xdebug_aggregate, &r, &error));
  CU_ASSERT_EQUAL (self_of (&r, fn (&r, "/srv/t.php", "{main}"), 0), 150);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "/srv/t.php", "{main}")), 190);
  cg_profile_free (r.profile);
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      CU_ASSERT_TRUE (read_text (good[i], &r, &error));
      if (error == NULL)
        cg_profile_free (r.profile);
      g_clear_error (&error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      CU_ASSERT_FALSE (read_text (bad[i].text, &r, &error));
      CG_ASSERT_ERROR (error, bad[i].code, bad[i].message);
      g_clear_error (&error);
    }
}

static void
test_crlf_and_redefinition (void)
{
  static const char text[] = "events: Ir\r\nfn=(1) old\r\nfn=(1) new\r\n1 3\r\nfn=(1)\r\n2 4\r\ntotals: 7\r\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CU_ASSERT_EQUAL (self_of (&r, fn (&r, "", "new"), 0), 7);
  cg_profile_free (r.profile);
}

static void
test_called_and_spontaneous (void)
{
  /* X is called once from main (3 Ir) and is also where a thread starts
   * (glibc's clone): its block holds both, self 10 and a call to B of
   * 100.  What the call from main does not cover was spontaneous. */
  static const char text[] = "creator: callgrind-3.19.0\nevents: Ir\n"
                             "fn=(1) main\n1 2\ncfn=(2) X\ncalls=1 1\n1 3\n"
                             "fn=(2)\n1 10\ncfn=(3) B\ncalls=1 1\n1 100\n"
                             "fn=(3)\n1 100\ntotals: 112\n";
  Read r;
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (read_text (text, &r, &error));
  CgFunctionId x = fn (&r, "", "X");
  CU_ASSERT_EQUAL (self_of (&r, x, 0), 10);
  CU_ASSERT_EQUAL (total_of (&r, x), 110);
  CU_ASSERT_EQUAL (cg_graph_spontaneous (r.graph, x)[0].n, 107);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "main")), 5);
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "B")), 100);
  cg_profile_free (r.profile);

  /* another producer's contexts need not be activations: a called one
   * gets no spontaneous cost; its total, the call's 3, falls below its
   * self cost plus its call, and is raised to that, estimated */
  g_autofree char *other = g_strdup (text);
  memcpy (strstr (other, "callgrind-3.19.0"), "otherprof-3.19.0", 16);
  CU_ASSERT_TRUE_FATAL (read_text (other, &r, &error));
  CU_ASSERT_PTR_NULL (cg_graph_spontaneous (r.graph, fn (&r, "", "X")));
  CU_ASSERT_EQUAL (total_of (&r, fn (&r, "", "X")), 110);
  CU_ASSERT_TRUE (cg_costs_total_is_estimated (r.costs, fn (&r, "", "X")));
  cg_profile_free (r.profile);
}

/* ---- broken files ---- */

static void
test_broken (void)
{
  static const struct {
    const char *what;
    const char *text;
    int code;
    const char *fragment; /* includes the line number */
  } cases[] = {
    { "ends after calls=", "creator: callgrind-3.19.0\nevents: Ir\nfn=f\n1 1\ncfn=g\ncalls=1 2\n",
      CG_ERROR_TRUNCATED, ":6: the file ends after the calls=" },
    { "callgrind file without totals:", "creator: callgrind-3.19.0\nevents: Ir\nfn=f\n1 1\n", CG_ERROR_TRUNCATED,
      "no totals: line" },
    { "totals that do not add up", "events: Ir\nfn=f\n1 1\n2 2\ntotals: 4\n", CG_ERROR_PARSE, ":5: totals:" },
    { "a garbled line", "events: Ir\nfn=f\n1 1\n%%garbage%%\ntotals: 1\n", CG_ERROR_PARSE, ":4: not a callgrind line" },
    { "more costs than events", "events: Ir Dr\nfn=f\n1 1 2 3\n", CG_ERROR_PARSE, ":3: more costs than the 2 events" },
    { "a cost line before events:", "fn=f\n1 1\nevents: Ir\n", CG_ERROR_PARSE, ":2: '1 1' is a cost line, but no 'events: NAME...' line came before it" },
    { "a cost line before fn=", "events: Ir\n1 1\n", CG_ERROR_PARSE, ":2: cost line before any fn= line" },
    { "a position below zero", "events: Ir\nfn=f\n3 1\n-4 1\n", CG_ERROR_PARSE, ":4: expected 1 position" },
    { "a malformed cost", "events: Ir\nfn=f\n3 1x\n", CG_ERROR_PARSE, ":3: expected a cost" },
    { "a cost beyond 64 bits", "events: Ir\nfn=f\n3 18446744073709551616\n", CG_ERROR_PARSE, ":3: expected a cost" },
    { "self costs beyond 64 bits", "events: Ir\nfn=f\n3 18446744073709551615\n4 1\n", CG_ERROR_OVERFLOW, ":4:" },
    { "calls= without cfn=", "events: Ir\nfn=f\ncalls=1 2\n", CG_ERROR_PARSE, ":3: calls= without" },
    { "a name line after calls=", "events: Ir\nfn=f\ncfn=g\ncalls=1 2\nfn=h\n", CG_ERROR_PARSE,
      ":5: expected the cost line of the calls= at line 4" },
    { "format version 2", "version: 2\nevents: Ir\n", CG_ERROR_UNSUPPORTED, ":1: format version 2" },
    { "an unknown position kind", "positions: line column\n", CG_ERROR_PARSE, ":1: unknown position kind" },
    { "no events: at all", "# callgrind format\ncmd: x\n", CG_ERROR_PARSE, "no events: line" },
    { "an unclosed id", "events: Ir\nfn=(12 name\n", CG_ERROR_PARSE, ":2: expected ')'" },
    { "an event listed twice", "events: Ir Ir\n", CG_ERROR_PARSE, ":1: event Ir listed twice" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GError *error = NULL;
      CgProfile *p = cg_test_read_string (cases[i].text, &error);
      if (p != NULL)
        fprintf (stderr, "\n  accepted: %s\n", cases[i].what);
      CU_ASSERT_PTR_NULL (p);
      cg_profile_free (p);
      CG_ASSERT_ERROR (error, cases[i].code, cases[i].fragment);
      g_clear_error (&error);
    }
}

static void
collect_warning (const char *message, gpointer data)
{
  g_ptr_array_add (data, g_strdup (message));
}

static void
test_lenient_and_unknown_lines (void)
{
  /* unknown keys are skipped with one warning each; with lenient a wrong
   * totals: is a warning too */
  static const char text[] = "events: Ir\nfoo: bar\nfn=f\nrec=1\n1 5\nrec=2\nbb=3\ntotals: 4\n";
  g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  CgReadOptions options = { .lenient = TRUE, .warn = collect_warning, .warn_data = warnings };
  char *path = cg_test_temp_file (text, -1);
  g_autoptr (CgProfile) p = cg_profile_new ();
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_read_file (p, path, &options, &error));
  CU_ASSERT_EQUAL (warnings->len, 4); /* foo, rec (once), bb, totals */
  CU_ASSERT_EQUAL (cg_graph_self (cg_profile_graph (p), 0)->n, 5);
  cg_test_remove (path);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "name compression across cob/cfi/cfn and ob/fl/fn", test_name_compression },
    { "LF lines lexed ahead and CRLF lines read one by one agree", test_lf_and_crlf_agree },
    { "lines lexed ahead and lines read one by one agree", test_lexed_and_read_alike },
    { "short cost lines lexed at and past their limits", test_short_lines_at_their_limits },
    { "blocks lexed on two threads, parts starting anywhere", test_blocks_lexed_on_two_threads },
    { "one arc per caller and callee, across blocks and files", test_arcs_merged_across_blocks },
    { "one function per object and name, whichever context comes first", test_functions_made_once },
    { "positions: instr line, relative per column", test_positions_per_column },
    { "cost lines shorter than the event list", test_short_cost_lines },
    { "several parts and calls=0", test_parts_and_calls_zero },
    { "fi=/fe= and the callee file default", test_inlined_files },
    { "jump=, jcnd=, jfi=, jfn=", test_jumps },
    { "recursion levels and caller contexts fold", test_context_names },
    { "splitting context names", test_split_names },
    { "context names by the file's creator", test_names_by_creator },
    { "ids used but never defined", test_undefined_ids },
    { "profiles without the recursion split", test_without_recursion_split },
    { "summary: is not checked, totals: is", test_summary_not_checked },
    { "version: a major and minor ones (Xdebug 2's 0.9.6)", test_versions },
    { "CRLF lines and redefined ids", test_crlf_and_redefinition },
    { "a function both called and entered spontaneously", test_called_and_spontaneous },
    { "broken files give a clear error at their line", test_broken },
    { "lenient reading and unknown lines", test_lenient_and_unknown_lines },
    { NULL, NULL },
  };
  return cg_test_main ("read-callgrind", cases);
}
