/* test-views.c — what the text, HTML and dot views of a display tree
 * promise about their form: folding, colour, escaping, a page with no
 * outside references whose data has one entry per shown node, a dot
 * graph whose arrows join declared boxes. */
/* fopencookie: a stream that counts the writes it receives */
#define _GNU_SOURCE 1
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg-cut-name.h"
#include "cg-test.h"

/* main -> a -> b -> c is a chain that keeps almost all the cost; main
 * and b both call a function with a hostile name. */
#define HOSTILE "</script><b>\"q\"&amp;\\"

typedef struct {
  CgProfile *p;
  CgGraph *g;
  CgCosts *c;
  CgDisplayTree *t;
} Fixture;

static CgArcId
arc (CgGraph *g, CgFunctionId from, CgFunctionId to, guint64 inclusive)
{
  CgArcId a = cg_graph_ensure_arc (g, from, to);
  cg_graph_arc_add_calls (g, a, 2);
  cg_graph_arc_inclusive (g, a)->n = inclusive;
  return a;
}

static void
fixture_init (Fixture *x, gboolean inverted)
{
  x->p = cg_profile_new ();
  x->g = cg_profile_graph (x->p);
  guint e;
  cg_graph_ensure_event (x->g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_has_inclusive (x->g, TRUE);
  CgFunctionId m = cg_graph_ensure_function (x->g, "", "main"), a = cg_graph_ensure_function (x->g, "", "a");
  CgFunctionId b = cg_graph_ensure_function (x->g, "", "b"), c = cg_graph_ensure_function (x->g, "", "c");
  CgFunctionId d = cg_graph_ensure_function (x->g, "", HOSTILE);
  cg_graph_spontaneous_mut (x->g, m)->n = 1000;
  arc (x->g, m, a, 895);
  arc (x->g, a, b, 890);
  arc (x->g, b, c, 885);
  arc (x->g, m, d, 100);
  arc (x->g, b, d, 3);
  cg_graph_self (x->g, m)->n = 5;
  cg_graph_self (x->g, a)->n = 5;
  cg_graph_self (x->g, b)->n = 2;
  cg_graph_self (x->g, c)->n = 885;
  cg_graph_self (x->g, d)->n = 103;
  x->c = cg_method_ensure (x->p, CG_METHOD_MEASURED, NULL);
  cg_profile_set_cycles (x->p, cg_cycles_find (x->g, NULL, NULL));
  CgDisplayTreeOptions o = { .event = 0, .inverted = inverted };
  x->t = cg_display_tree_new_full (x->g, x->c, &o);
}

static void
fixture_clear (Fixture *x)
{
  cg_display_tree_free (x->t);
  cg_profile_free (x->p);
}

typedef gboolean (*WriteFunc) (Fixture *x, gconstpointer options, FILE *f);

static char *
write_to_string (Fixture *x, WriteFunc write, gconstpointer options)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CU_ASSERT_TRUE (write (x, options, f));
  fclose (f);
  char *copy = g_strdup (buf);
  free (buf);
  return copy;
}

static gboolean
write_text (Fixture *x, gconstpointer o, FILE *f)
{
  return cg_write_tree_text (x->p, x->c, x->t, o, f, NULL);
}

static gboolean
write_html (Fixture *x, gconstpointer o, FILE *f)
{
  return cg_write_tree_html (x->p, x->c, x->t, o, f, NULL);
}

static gboolean
write_dot (Fixture *x, gconstpointer o, FILE *f)
{
  return cg_write_dot (x->p, x->c, x->t, o, f, NULL);
}

static void
test_text_folds_chains (void)
{
  Fixture x;
  fixture_init (&x, FALSE);
  CgTreeTextOptions o = { .view = { .threshold = 1.0 } };
  g_autofree char *folded = write_to_string (&x, write_text, &o);
  /* a (89.5 %) loses 0.5 % to b (89.0 %): joined; b loses 0.5 % to c,
   * but c's own cost (88.5 %) keeps c on a line of its own; the link to
   * the hostile function under b (0.3 %) is hidden */
  CU_ASSERT_PTR_NOT_NULL (strstr (folded, "|-a > b\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (folded, "  89.50    0.70     895       7     2  |-a > b\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (folded, "  88.50   88.50     885     885     2  | `-c\n"));
  CU_ASSERT_PTR_NULL (strchr (folded, '\033'));
  o.no_fold = TRUE;
  o.color = TRUE;
  g_autofree char *unfolded = write_to_string (&x, write_text, &o);
  CU_ASSERT_PTR_NULL (strstr (unfolded, " > "));
  CU_ASSERT_PTR_NOT_NULL (strstr (unfolded, "\033["));
  fixture_clear (&x);

  fixture_init (&x, TRUE);
  CgTreeTextOptions oi = { .view = { .threshold = 1.0 } };
  g_autofree char *inverted = write_to_string (&x, write_text, &oi);
  /* c is called by b, which is called by a: "<" reads "called by"; b's
   * total (89 %) is more than its calls into c carried, so it closes the
   * joined line, and a, whose calls into b carry more than c's line
   * shows, goes on the next */
  CU_ASSERT_PTR_NOT_NULL (strstr (inverted, "  88.50   88.70     885     887        c < b (89.00% in all)\n"
                                            "  89.00    0.50     890       5     2  `-a (89.50% in all)\n"));
  CU_ASSERT_PTR_NOT_NULL (strstr (inverted, "Callers tree"));
  fixture_clear (&x);
}

/* The JSON document of a page, between its script tags. */
static char *
page_data (const char *page)
{
  const char *open = "<script id=\"cg-data\" type=\"application/json\">";
  const char *start = strstr (page, open);
  const char *end = start ? strstr (start, "</script>") : NULL;
  CU_ASSERT_PTR_NOT_NULL (end);
  if (end == NULL)
    return g_strdup ("");
  start += strlen (open);
  return g_strndup (start, (gsize) (end - start));
}

/* Numbers in the JSON array "key":[...]. */
static guint
array_length (const char *data, const char *key)
{
  g_autofree char *open = g_strdup_printf ("\"%s\":[", key);
  const char *p = strstr (data, open);
  CU_ASSERT_PTR_NOT_NULL_FATAL (p);
  p += strlen (open);
  if (*p == ']')
    return 0;
  guint n = 1;
  for (; *p != ']'; p++)
    n += *p == ',';
  return n;
}

static void
test_html_page (void)
{
  Fixture x;
  fixture_init (&x, FALSE);
  CgTreeHtmlOptions o = { .view = { .threshold = 0.0 }, .slider = 1.0 };
  g_autofree char *page = write_to_string (&x, write_html, &o);
  CU_ASSERT_TRUE (g_str_has_prefix (page, "<!DOCTYPE html>\n"));
  CU_ASSERT_TRUE (g_str_has_suffix (page, "</html>\n"));
  /* self-contained: nothing fetched from anywhere */
  static const char *const outside[] = { "http:", "https:", "src=", "url(", "@import", "<link", "//cdn", NULL };
  for (guint i = 0; outside[i]; i++)
    CU_ASSERT_PTR_NULL (strstr (page, outside[i]));
  g_autofree char *data = page_data (page);
  /* the hostile name cannot end the script, and is written once */
  CU_ASSERT_PTR_NULL (strchr (data, '<'));
  CU_ASSERT_PTR_NOT_NULL (strstr (data, "\"\\u003c/script\\u003e\\u003cb\\u003e\\\"q\\\"\\u0026amp;\\\\\""));
  /* all nodes at threshold 0: 1 root + 5 arcs, four numbers each; five
   * functions, each with a master */
  CU_ASSERT_EQUAL (array_length (data, "nodes"), 4 * 6);
  CU_ASSERT_EQUAL (array_length (data, "names"), 5);
  CU_ASSERT_EQUAL (array_length (data, "master"), 5);
  CU_ASSERT_EQUAL (array_length (data, "self"), 5);
  CU_ASSERT_PTR_NOT_NULL (strstr (data, "\"all\":1000,"));
  /* the header text is escaped too */
  fixture_clear (&x);
}

static void
test_dot_graph (void)
{
  Fixture x;
  fixture_init (&x, FALSE);
  CgDotOptions o = { .threshold = 1.0, .edge_threshold = 1.0 };
  g_autofree char *dot = write_to_string (&x, write_dot, &o);
  CU_ASSERT_TRUE (g_str_has_prefix (dot, "digraph cgtree {\n"));
  CU_ASSERT_TRUE (g_str_has_suffix (dot, "}\n"));
  /* every arrow joins two declared boxes; the 0.3 % arc is hidden */
  guint boxes = 0, arrows = 0;
  g_auto (GStrv) lines = g_strsplit (dot, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint from, to;
      if (sscanf (lines[i], "  f%u -> f%u [", &from, &to) == 2)
        {
          arrows++;
          g_autofree char *a = g_strdup_printf ("\n  f%u [label=", from);
          g_autofree char *b = g_strdup_printf ("\n  f%u [label=", to);
          CU_ASSERT_PTR_NOT_NULL (strstr (dot, a));
          CU_ASSERT_PTR_NOT_NULL (strstr (dot, b));
        }
      else if (sscanf (lines[i], "  f%u [label=", &from) == 1)
        boxes++;
    }
  CU_ASSERT_EQUAL (boxes, 5);
  CU_ASSERT_EQUAL (arrows, 4);
  /* quotes and backslashes in names are escaped for dot, and line
   * breaks are dot's */
  CU_ASSERT_PTR_NOT_NULL (strstr (dot, "</script><b>\\\"q\\\"&amp;\\\\\\n10.30%\\n(10.30%)"));
  fixture_clear (&x);
}

/* @name cut to @cap by cg_cut_name with the mark "…" */
static char *
cut (const char *name, gsize cap)
{
  GString *out = g_string_new (NULL);
  cg_cut_name (out, name, (gsize) g_utf8_strlen (name, -1), cap, "…");
  CU_ASSERT ((gsize) g_utf8_strlen (out->str, -1) <= cap);
  return g_string_free (out, FALSE);
}

static void
test_cut_object (void)
{
  /* what is in brackets goes before the name: its middle, then all of it */
  g_autofree char *fits = cut ("0x2b3ae0 [rg]", 13);
  CU_ASSERT_STRING_EQUAL (fits, "0x2b3ae0 [rg]");
  g_autofree char *gone = cut ("0x2b3ae0 [rg]", 12);
  CU_ASSERT_STRING_EQUAL (gone, "0x2b3ae0");
  g_autofree char *middle = cut ("0x2b3ae0 [librustc_driver.so]", 20);
  CU_ASSERT_STRING_EQUAL (middle, "0x2b3ae0 [libr…r.so]");
  g_autofree char *clone = cut ("Parser::next() [_ZN6Parser4nextEv.cold]", 30);
  CU_ASSERT_STRING_EQUAL (clone, "Parser::next() [_ZN6Pa…v.cold]");
  /* the name cut as it would be alone, where even it does not fit */
  const char *cxx = "std::vector<int, std::allocator<int> >::push_back(int const&)";
  g_autofree char *label = g_strconcat (cxx, " [libfoo.so.1]", NULL);
  g_autofree char *alone = cut (cxx, 30), *labelled = cut (label, 30);
  CU_ASSERT_STRING_EQUAL (labelled, alone);
  CU_ASSERT_PTR_NULL (strchr (labelled, '['));
  /* brackets that are no object: operator delete[], a nested ']' */
  g_autofree char *op = cut ("Pool::operator delete[](void*, unsigned long)", 30);
  CU_ASSERT_PTR_NOT_NULL (strstr (op, "operator delete[]"));
  g_autofree char *nested = cut ("0x1234567 [a[b]]", 12);
  CU_ASSERT_PTR_NOT_NULL (strstr (nested, "b]]"));
}

static void
test_cut_own_name (void)
{
  /* where the own name barely fits, what follows it goes before it: re2's
   * Match read "…) const" in cgtree at 80 columns, no name at all */
  const char *match = "re2::RE2::Match(re2::StringPiece const&, unsigned long, unsigned long, "
                      "re2::RE2::Anchor, re2::StringPiece*, int) const";
  g_autofree char *whole = cut (match, 15), *open = cut (match, 8), *bare = cut (match, 7);
  CU_ASSERT_STRING_EQUAL (whole, "…Match(…) const");
  CU_ASSERT_STRING_EQUAL (open, "…Match(…");
  CU_ASSERT_STRING_EQUAL (bare, "…Match…");
  /* where not even it fits, its start, not its end with the list
   * ("…hDFA(…)"), and not into its template arguments ("<……") */
  g_autofree char *dfa = cut ("re2::Prog::SearchDFA(re2::StringPiece const&, re2::StringPiece const&, "
                              "re2::Prog::Anchor, re2::Prog::MatchKind, re2::StringPiece*, bool*, "
                              "re2::SparseSetT<void>*)", 8);
  CU_ASSERT_STRING_EQUAL (dfa, "…Search…");
  const char *loop = "bool re2::DFA::InlinedSearchLoop<false, false, true>(re2::DFA::SearchParams*)";
  g_autofree char *loop20 = cut (loop, 20), *loop12 = cut (loop, 12);
  CU_ASSERT_STRING_EQUAL (loop20, "…InlinedSearchLoop…");
  CU_ASSERT_STRING_EQUAL (loop12, "…InlinedSea…");
  /* a return type goes whole, not its end ("…ol operator<(…)"); a
   * qualifier's end stays, which says whose member it is */
  g_autofree char *less = cut ("bool operator<(std::pair<int, int> const&, std::pair<int, int> const&)", 16);
  CU_ASSERT_STRING_EQUAL (less, "…operator<(…)");
  g_autofree char *deep = cut ("tinyxml2::XMLNode::ParseDeep(char*, tinyxml2::StrPair*, int*)", 16);
  CU_ASSERT_STRING_EQUAL (deep, "…e::ParseDeep(…)");
  /* but not from inside parentheses: an anonymous namespace read
   * "…e)::descend_recursively(…)" in cgtree at 80 columns */
  const char *anon = "parser::(anonymous namespace)::descend_recursively(parser::(anonymous "
                     "namespace)::Tokenizer&, std::__cxx11::basic_string<char, std::char_traits<char>, "
                     "std::allocator<char> > const&, int)";
  g_autofree char *anon26 = cut (anon, 26), *anon30 = cut (anon, 30), *anon52 = cut (anon, 52);
  CU_ASSERT_STRING_EQUAL (anon26, "…::descend_recursively(…)");
  CU_ASSERT_STRING_EQUAL (anon30, "…::descend_recursively(…)");
  CU_ASSERT_STRING_EQUAL (anon52, "…(anonymous namespace)::descend_recursively(…)");
  /* nor from inside a function's list: a local class's member */
  g_autofree char *local = cut ("run_all_tests(int, char**)::visit(Node*)", 20);
  CU_ASSERT_STRING_EQUAL (local, "…::visit(…)");
  /* a lambda's end in braces stays: it says what the function is */
  g_autofree char *lambda = cut ("main::{lambda(int)#1}::operator()(int) const", 30);
  CU_ASSERT_STRING_EQUAL (lambda, "…(int)#1}::operator()(…) const");
}

static void
test_cut_version (void)
{
  /* a library's symbol version goes before the name: callgrind's
   * "pthread_mutex_lock@@GLIBC_2.34" read "pthr….34" in cgtree at 80
   * columns on tclsh's profile */
  g_autofree char *fits = cut ("pthread_mutex_lock@@GLIBC_2.34", 30);
  CU_ASSERT_STRING_EQUAL (fits, "pthread_mutex_lock@@GLIBC_2.34");
  g_autofree char *gone = cut ("pthread_mutex_lock@@GLIBC_2.34", 20);
  CU_ASSERT_STRING_EQUAL (gone, "pthread_mutex_lock…");
  g_autofree char *one = cut ("memcpy@GLIBC_2.2.5", 8);
  CU_ASSERT_STRING_EQUAL (one, "memcpy…");
  /* then the name cut as it would be alone */
  g_autofree char *name = cut ("pthread_mutex_lock@@GLIBC_2.34", 12), *alone = cut ("pthread_mutex_lock", 12);
  CU_ASSERT_STRING_EQUAL (name, alone);
  /* an object's label goes first, then the version */
  g_autofree char *labelled = cut ("memcpy@GLIBC_2.2.5 [libc.so.6]", 8);
  CU_ASSERT_STRING_EQUAL (labelled, "memcpy…");
  /* an '@' that is no version stays a name's */
  g_autofree char *other = cut ("handler@0x1234 (cold)", 12);
  CU_ASSERT_PTR_NULL (strstr (other, "handler…"));
}

static void
test_cut_clone (void)
{
  /* a compiler's clone suffixes go before the name, as a version does:
   * GNU m4's eval read "add_…t.0" for add_term.part.0 in cgtree at 80
   * columns, the suffix's digits and not the function */
  g_autofree char *fits = cut ("add_term.part.0", 15);
  CU_ASSERT_STRING_EQUAL (fits, "add_term.part.0");
  g_autofree char *gone = cut ("add_term.part.0", 12);
  CU_ASSERT_STRING_EQUAL (gone, "add_term…");
  g_autofree char *two = cut ("logical_or_term.constprop.0.isra.0", 20);
  CU_ASSERT_STRING_EQUAL (two, "logical_or_term…");
  g_autofree char *cold = cut ("interpret.cold", 12);
  CU_ASSERT_STRING_EQUAL (cold, "interpret…");
  /* then the name cut as it would be alone */
  g_autofree char *name = cut ("accumulate_weighted_squares.constprop.0", 16),
                  *alone = cut ("accumulate_weighted_squares", 16);
  CU_ASSERT_STRING_EQUAL (name, alone);
  /* a demangled clone's " [clone .isra.0]" is no object's label */
  g_autofree char *cxx = cut ("Parser::next(int) [clone .isra.0]", 20);
  CU_ASSERT_STRING_EQUAL (cxx, "Parser::next(int)…");
  /* an object's label goes first, then the suffix */
  g_autofree char *labelled = cut ("add_term.part.0 [m4]", 12);
  CU_ASSERT_STRING_EQUAL (labelled, "add_term…");
  /* a name whose end only looks like a number stays a name */
  g_autofree char *plain = cut ("parse_version_2.0", 12);
  CU_ASSERT_PTR_NULL (strstr (plain, "parse_version_2…"));
}

static void
test_cut_qualified (void)
{
  /* a qualified name without a list (--strip's) keeps its own name as one
   * with a list does: ninja's "Edge::EvaluateCommand[abi:cxx11]" read
   * "Edge…11]" in cgtree --strip at 80 columns, its _M_append "std:…end" */
  const char *append = "std::__cxx11::basic_string::_M_append";
  g_autofree char *first = cut (append, 30), *last = cut (append, 24), *end = cut (append, 16);
  CU_ASSERT_STRING_EQUAL (first, "std::…basic_string::_M_append");
  CU_ASSERT_STRING_EQUAL (last, "…basic_string::_M_append");
  CU_ASSERT_STRING_EQUAL (end, "…ring::_M_append");
  /* no "…::" left before the own name */
  g_autofree char *bare = cut (append, 12);
  CU_ASSERT_STRING_EQUAL (bare, "…_M_append");
  /* an ABI tag goes before the own name, then its end */
  const char *tagged = "interpreter::Machine::EvaluateCommandLine[abi:cxx11]";
  g_autofree char *whole = cut (tagged, 40), *tag = cut (tagged, 30), *alone = cut (tagged, 21),
                  *start = cut (tagged, 10);
  CU_ASSERT_STRING_EQUAL (whole, "…Machine::EvaluateCommandLine[abi:cxx11]");
  CU_ASSERT_STRING_EQUAL (tag, "…Machine::EvaluateCommandLine…");
  CU_ASSERT_STRING_EQUAL (alone, "…EvaluateCommandLine…");
  CU_ASSERT_STRING_EQUAL (start, "…Evaluate…");
  /* "::" inside brackets is no qualifier's */
  g_autofree char *anon = cut ("(anonymous namespace)::real_main", 20);
  CU_ASSERT_STRING_EQUAL (anon, "…real_main");
  /* and so with a parameter list, where the own name does not fit whole:
   * ninja's FormatProgressStatus read "…FormatProgressStatus[abi:cxx1…" in
   * cgtree at 80 columns */
  const char *status = "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > "
                       "StatusPrinter::FormatProgressStatus[abi:cxx11](char const*, long) const";
  g_autofree char *listed = cut (status, 28), *listed_start = cut (status, 20), *listed_whole = cut (status, 34);
  CU_ASSERT_STRING_EQUAL (listed, "…FormatProgressStatus…");
  CU_ASSERT_STRING_EQUAL (listed_start, "…FormatProgressStat…");
  CU_ASSERT_STRING_EQUAL (listed_whole, "…FormatProgressStatus[abi:cxx11](…");
  /* a name without "::" still loses its middle */
  g_autofree char *plain = cut ("interpreter_execute_bytecode", 12);
  CU_ASSERT_STRING_EQUAL (plain, "interp…ecode");
}

/* The writes a stream without a buffer received: their count, the
 * largest, and the bytes in all. */
typedef struct {
  guint n;
  gsize largest, all;
} Writes;

static ssize_t
count_write (void *cookie, const char *buf, size_t size)
{
  (void) buf;
  Writes *w = cookie;
  w->n++;
  w->largest = MAX (w->largest, size);
  w->all += size;
  return (ssize_t) size;
}

static FILE *
counting_stream (Writes *w)
{
  cookie_io_functions_t io = { .write = count_write };
  FILE *f = fopencookie (w, "w", io);
  CU_ASSERT_PTR_NOT_NULL_FATAL (f);
  setvbuf (f, NULL, _IONBF, 0);
  return f;
}

/* main calling 4,000 functions of 60-byte names: a page and a flame
 * graph of several times CG_FLUSH_BYTES */
static void
wide_fixture_init (Fixture *x)
{
  x->p = cg_profile_new ();
  x->g = cg_profile_graph (x->p);
  guint e;
  cg_graph_ensure_event (x->g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_set_has_inclusive (x->g, TRUE);
  CgFunctionId m = cg_graph_ensure_function (x->g, "", "main");
  cg_graph_spontaneous_mut (x->g, m)->n = 1000 * 4000 + 1;
  cg_graph_self (x->g, m)->n = 1;
  for (guint i = 0; i < 4000; i++)
    {
      g_autofree char *name = g_strdup_printf ("function_with_a_long_name_to_make_the_page_large_%08u", i);
      CgFunctionId f = cg_graph_ensure_function (x->g, "", name);
      arc (x->g, m, f, 1000);
      cg_graph_self (x->g, f)->n = 1000;
    }
  x->c = cg_method_ensure (x->p, CG_METHOD_MEASURED, NULL);
  cg_profile_set_cycles (x->p, cg_cycles_find (x->g, NULL, NULL));
  CgDisplayTreeOptions o = { .event = 0 };
  x->t = cg_display_tree_new_full (x->g, x->c, &o);
}

/* cg_flush_if_large writes a piece once it reaches CG_FLUSH_BYTES, and
 * the page and the flame graph, which share it, reach their stream in
 * such pieces, never whole */
static void
test_streamed (void)
{
  Writes w = { 0 };
  FILE *f = counting_stream (&w);
  g_autoptr (GString) s = g_string_new (NULL);
  g_string_set_size (s, CG_FLUSH_BYTES - 1);
  cg_flush_if_large (s, f);
  CU_ASSERT_EQUAL (w.n, 0);
  CU_ASSERT_EQUAL (s->len, CG_FLUSH_BYTES - 1);
  g_string_append_c (s, 'x');
  cg_flush_if_large (s, f);
  CU_ASSERT_EQUAL (w.n, 1);
  CU_ASSERT_EQUAL (w.all, CG_FLUSH_BYTES);
  CU_ASSERT_EQUAL (s->len, 0);
  fclose (f);

  Fixture x;
  wide_fixture_init (&x);
  for (guint svg = 0; svg < 2; svg++)
    {
      Writes page = { 0 };
      f = counting_stream (&page);
      CgTreeHtmlOptions ho = { .view = { .threshold = 0.0 } };
      CgTreeSvgOptions so = { .view = { .threshold = 0.0 } };
      CU_ASSERT_TRUE (svg ? cg_write_tree_svg (x.p, x.c, x.t, &so, f, NULL)
                          : cg_write_tree_html (x.p, x.c, x.t, &ho, f, NULL));
      fclose (f);
      CU_ASSERT_TRUE (page.all > 4 * CG_FLUSH_BYTES);
      CU_ASSERT_TRUE (page.n >= 4);
      CU_ASSERT_TRUE (page.largest < 2 * CG_FLUSH_BYTES);
    }
  fixture_clear (&x);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "text: chains fold, colour only when asked", test_text_folds_chains },
    { "html: self-contained, escaped, one entry per node", test_html_page },
    { "dot: arrows between declared boxes, escaped labels", test_dot_graph },
    { "cut names: an object or linker name in brackets goes first", test_cut_object },
    { "cut names: the own name before what follows it", test_cut_own_name },
    { "cut names: a symbol version goes first", test_cut_version },
    { "cut names: a clone's suffixes go first", test_cut_clone },
    { "cut names: a qualified name keeps its own name", test_cut_qualified },
    { "html and svg: streamed in pieces of CG_FLUSH_BYTES", test_streamed },
    { NULL, NULL },
  };
  return cg_test_main ("views", cases);
}
