/* test-graph.c — the graph core: identity, interning, events, arcs. */
#include "config.h"

#include "cg-test.h"

static void
test_function_identity (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  CgFunctionId a = cg_graph_ensure_function (g, "libc.so", "mmap");
  CgFunctionId b = cg_graph_ensure_function (g, "ld.so", "mmap");
  CgFunctionId c = cg_graph_ensure_function (g, "libc.so", "mmap");
  CU_ASSERT_NOT_EQUAL (a, b);
  CU_ASSERT_EQUAL (a, c);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 2);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "ld.so", "mmap"), b);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "ld.so", "munmap"), CG_NO_ID);
  /* ambiguous names carry their object */
  CgFunctionId m = cg_graph_ensure_function (g, "prog", "main");
  g_autoptr (GString) s = g_string_new (NULL);
  cg_graph_append_label (g, s, b);
  CU_ASSERT_STRING_EQUAL (s->str, "mmap [ld.so]");
  g_string_truncate (s, 0);
  cg_graph_append_label (g, s, m);
  CU_ASSERT_STRING_EQUAL (s->str, "main");

  /* functions added unlooked-for: the index, built on the first lookup,
   * finds them, and once built it follows later additions */
  g_autoptr (CgGraph) h = cg_graph_new ();
  guint32 lib = cg_graph_intern_id (h, "lib.so", -1), f = cg_graph_intern_id (h, "f", -1),
          g2 = cg_graph_intern_id (h, "g", -1);
  CU_ASSERT_EQUAL (cg_graph_add_function_ids (h, lib, f), 0);
  CU_ASSERT_EQUAL (cg_graph_add_function_ids (h, 0, f), 1);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (h, "lib.so", "f"), 0);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (h, "", "f"), 1);
  CU_ASSERT_EQUAL (cg_graph_add_function_ids (h, lib, g2), 2);
  CU_ASSERT_EQUAL (cg_graph_ensure_function (h, "lib.so", "g"), 2);
  CU_ASSERT_EQUAL (cg_graph_ensure_function (h, "lib.so", "f"), 0);
  CU_ASSERT_EQUAL (cg_graph_n_functions (h), 3);
  CU_ASSERT_EQUAL (cg_graph_function_name_id (h, 2), g2);
  CU_ASSERT_EQUAL (cg_graph_function_object_id (h, 2), lib);
}

/* The function index against a hash table of (object, name): random
 * pairs from small pools, so that names recur in several objects, added
 * with and without looking, with the index built midway. */
/* Functions moved to other objects: found there and no longer where
 * they were, their ids and costs kept; a move onto a pair another
 * function holds, or that an earlier move of the same call takes, is
 * refused. */
static void
test_move_functions (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint e;
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL));
  CgFunctionId a = cg_graph_ensure_function (g, "prog", "helper");
  CgFunctionId b = cg_graph_ensure_function (g, "prog@b.c", "helper");
  CgFunctionId c = cg_graph_ensure_function (g, "prog", "other");
  CgFunctionId d = cg_graph_ensure_function (g, "lib", "helper");
  cg_graph_self (g, a)[e].n = 7;
  guint32 to_a = cg_graph_intern_id (g, "prog@a.c", -1), taken = cg_graph_intern_id (g, "prog@b.c", -1);
  CgFunctionId moving[] = { a, c, d };
  guint32 objects[] = { to_a, taken, to_a };
  gboolean moved[3];
  cg_graph_move_functions (g, moving, objects, 3, moved);
  CU_ASSERT_TRUE (moved[0]);
  CU_ASSERT_TRUE (moved[1]);  /* (prog@b.c, other) was free */
  CU_ASSERT_FALSE (moved[2]); /* (prog@a.c, helper) taken by the first move */
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "prog@a.c", "helper"), a);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "prog", "helper"), CG_NO_ID);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "prog@b.c", "helper"), b);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "prog@b.c", "other"), c);
  CU_ASSERT_EQUAL (cg_graph_lookup_function (g, "lib", "helper"), d);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_object (g, a), "prog@a.c");
  CU_ASSERT_EQUAL (cg_graph_self (g, a)[e].n, 7);
  /* onto a pair another function holds: refused, nothing changed */
  CgFunctionId again[] = { d };
  guint32 onto[] = { taken };
  cg_graph_move_functions (g, again, onto, 1, moved);
  CU_ASSERT_FALSE (moved[0]);
  CU_ASSERT_STRING_EQUAL (cg_graph_function_object (g, d), "lib");
  /* a new function of the old pair is a new one */
  CU_ASSERT_NOT_EQUAL (cg_graph_ensure_function (g, "prog", "helper"), a);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), 5);
}

static void
test_function_index_random (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  g_autoptr (GHashTable) ref = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  guint agree = 0, tries = 0;
  for (guint i = 0; i < 20000; i++)
    {
      char object[16], name[16];
      g_snprintf (object, sizeof object, "o%d", g_rand_int_range (rand, 0, 6));
      g_snprintf (name, sizeof name, "n%d", g_rand_int_range (rand, 0, 3000));
      g_autofree char *key = g_strdup_printf ("%s/%s", object, name);
      gpointer want = g_hash_table_lookup (ref, key);
      CgFunctionId f;
      if (want == NULL && i < 5000 && g_rand_boolean (rand))
        f = cg_graph_add_function_ids (g, cg_graph_intern_id (g, object, -1), cg_graph_intern_id (g, name, -1));
      else if (g_rand_int_range (rand, 0, 4) == 0)
        {
          /* a lookup, which builds the index the first time */
          f = cg_graph_lookup_function (g, object, name);
          tries++;
          agree += want ? f == GPOINTER_TO_UINT (want) - 1 : f == CG_NO_ID;
          continue;
        }
      else
        f = cg_graph_ensure_function (g, object, name);
      tries++;
      agree += want ? f == GPOINTER_TO_UINT (want) - 1 : f == g_hash_table_size (ref);
      if (want == NULL)
        g_hash_table_insert (ref, g_steal_pointer (&key), GUINT_TO_POINTER (f + 1));
    }
  CU_ASSERT_EQUAL (agree, tries);
  CU_ASSERT_EQUAL (cg_graph_n_functions (g), g_hash_table_size (ref));
}

static void
test_sanitized_names (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  const char *bad = cg_graph_intern (g, "a\tb\xff" "c\n", -1);
  CU_ASSERT_STRING_EQUAL (bad, "a\\x09b\\xFFc\\x0A");
  const char *utf8 = cg_graph_intern (g, "caf\xc3\xa9", -1);
  CU_ASSERT_STRING_EQUAL (utf8, "caf\xc3\xa9"); /* valid UTF-8 stays */
  CU_ASSERT_PTR_EQUAL (cg_graph_intern (g, "caf\xc3\xa9", -1), utf8);
  /* a length-limited name is cut, not read past */
  CU_ASSERT_STRING_EQUAL (cg_graph_intern (g, "abcdef", 3), "abc");
  /* U+FFFE and U+FFFF are UTF-8 but no XML character */
  CU_ASSERT_STRING_EQUAL (cg_graph_intern (g, "a\xef\xbf\xbf" "b\xef\xbf\xbe", -1), "a\\xEF\\xBF\\xBFb\\xEF\\xBF\\xBE");
  CU_ASSERT_STRING_EQUAL (cg_graph_intern (g, "\xef\xbf\xbd", -1), "\xef\xbf\xbd"); /* U+FFFD stays */
}

/* A tag taken apart from the graph (as the callgrind lexer takes it on
 * its thread) interns exactly as cg_graph_intern_id does, for the strings
 * stored as they are; the others get no tag. */
static void
test_tagged_strings (void)
{
  static const char *const plain[] = { "main", "std::vector<int>::~vector() const", " x ", "~", "" };
  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
      {
        g_autoptr (CgGraph) g = cg_graph_new ();
        guint32 tag;
        gsize n = strlen (plain[i]);
        CU_ASSERT_TRUE_FATAL (cg_graph_string_tag (plain[i], n, &tag));
        cg_graph_prefetch_string (g, tag);
        /* first tagged, then plain (round 0), and the other way round */
        guint32 a = round == 0 ? cg_graph_intern_tagged_id (g, plain[i], n, tag)
                               : cg_graph_intern_id (g, plain[i], (gssize) n);
        guint32 b = round == 0 ? cg_graph_intern_id (g, plain[i], (gssize) n)
                               : cg_graph_intern_tagged_id (g, plain[i], n, tag);
        CU_ASSERT_EQUAL (a, b);
        CU_ASSERT_STRING_EQUAL (cg_graph_string (g, a), plain[i]);
      }
  static const char *const escaped[] = { "a\tb", "caf\xc3\xa9", "del\x7f", "cr\r" };
  for (guint i = 0; i < G_N_ELEMENTS (escaped); i++)
    {
      guint32 tag = 12345;
      CU_ASSERT_FALSE (cg_graph_string_tag (escaped[i], strlen (escaped[i]), &tag));
      CU_ASSERT_EQUAL (tag, 12345);
    }
}

/* Interning 200,000 strings that share long prefixes and differ in the
 * last bytes, against a GHashTable: ids dense, stable and found again. */
static void
test_many_strings (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  g_autoptr (GHashTable) ref = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GRand *rand = g_rand_new_with_seed (11);
  g_autoptr (GString) s = g_string_new (NULL);
  guint32 next = cg_graph_intern_id (g, "", 0) + 1;
  CU_ASSERT_EQUAL (next, 1);
  for (int i = 0; i < 200000; i++)
    {
      g_string_printf (s, "std::vector<tree_node*, std::allocator<tree_node*> >::push_back_%d",
                       g_rand_int_range (rand, 0, 120000));
      g_string_truncate (s, (gsize) g_rand_int_range (rand, 40, (gint) s->len + 1));
      gpointer want = g_hash_table_lookup (ref, s->str);
      guint32 id = cg_graph_intern_id (g, s->str, (gssize) s->len);
      if (want)
        {
          CU_ASSERT_EQUAL (id, GPOINTER_TO_UINT (want) - 1);
        }
      else
        {
          CU_ASSERT_EQUAL (id, next);
          next++;
          g_hash_table_insert (ref, g_strdup (s->str), GUINT_TO_POINTER (id + 1));
        }
    }
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, ref);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      CU_ASSERT_STRING_EQUAL (cg_graph_string (g, GPOINTER_TO_UINT (v) - 1), k);
      CU_ASSERT_PTR_EQUAL (cg_graph_intern (g, k, -1), cg_graph_string (g, GPOINTER_TO_UINT (v) - 1));
    }
  g_rand_free (rand);
}

static void
test_events_grow_and_promote (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint ir, dr, again;
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &ir, NULL));
  CgFunctionId f = cg_graph_ensure_function (g, "", "f");
  CgFunctionId h = cg_graph_ensure_function (g, "", "h");
  CgArcId a = cg_graph_ensure_arc (g, f, h);
  cg_graph_self (g, f)[ir].n = 10;
  cg_graph_self (g, h)[ir].n = 20;
  cg_graph_arc_inclusive (g, a)[ir].n = 20;
  /* a second event: old values stay, new ones are zero */
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Dr", "Dr", CG_KIND_INTEGER, &dr, NULL));
  CU_ASSERT_EQUAL (dr, 1);
  CU_ASSERT_EQUAL (cg_graph_self (g, f)[ir].n, 10);
  CU_ASSERT_EQUAL (cg_graph_self (g, h)[ir].n, 20);
  CU_ASSERT_EQUAL (cg_graph_self (g, h)[dr].n, 0);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, a)[ir].n, 20);
  /* an integer event meeting real values becomes real */
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_REAL, &again, NULL));
  CU_ASSERT_EQUAL (again, ir);
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, ir), CG_KIND_REAL);
  CU_ASSERT_EQUAL (cg_graph_self (g, h)[ir].x, 20.0);
  CU_ASSERT_EQUAL (cg_graph_arc_inclusive (g, a)[ir].x, 20.0);
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, dr), CG_KIND_INTEGER);
  /* the same name in another unit cannot be merged */
  GError *error = NULL;
  CU_ASSERT_FALSE (cg_graph_ensure_event (g, "Ir", "seconds", CG_KIND_REAL, &again, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_MISMATCH, "Ir");
  g_clear_error (&error);
}

static void
test_arcs_and_adjacency (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  CgFunctionId f[4];
  for (int i = 0; i < 4; i++)
    {
      char name[8];
      g_snprintf (name, sizeof name, "f%d", i);
      f[i] = cg_graph_ensure_function (g, "", name);
    }
  CgArcId a01 = cg_graph_ensure_arc (g, f[0], f[1]);
  CgArcId a02 = cg_graph_ensure_arc (g, f[0], f[2]);
  CgArcId a21 = cg_graph_ensure_arc (g, f[2], f[1]);
  CgArcId a11 = cg_graph_ensure_arc (g, f[1], f[1]);
  CU_ASSERT_EQUAL (cg_graph_ensure_arc (g, f[0], f[1]), a01);
  CU_ASSERT_TRUE (cg_graph_arc_add_calls (g, a01, 5));
  CU_ASSERT_TRUE (cg_graph_arc_add_calls (g, a21, 2));
  CU_ASSERT_TRUE (cg_graph_arc_add_calls (g, a11, 100));
  guint n;
  const CgArcId *out = cg_graph_out_arcs (g, f[0], &n);
  CU_ASSERT_EQUAL (n, 2);
  CU_ASSERT_EQUAL (out[0], a01);
  CU_ASSERT_EQUAL (out[1], a02);
  const CgArcId *in = cg_graph_in_arcs (g, f[1], &n);
  CU_ASSERT_EQUAL (n, 3);
  CU_ASSERT_EQUAL (in[0], a01);
  CU_ASSERT_EQUAL (in[1], a21);
  CU_ASSERT_EQUAL (in[2], a11);
  /* calls received leave out the self-arc */
  CU_ASSERT_EQUAL (cg_graph_calls_received (g, f[1]), 7);
  /* adjacency follows later additions */
  CgArcId a31 = cg_graph_ensure_arc (g, f[3], f[1]);
  cg_graph_in_arcs (g, f[1], &n);
  CU_ASSERT_EQUAL (n, 4);
  CU_ASSERT_EQUAL (cg_graph_arc_caller (g, a31), f[3]);
  /* the sum of all calls must fit in 64 bits */
  CU_ASSERT_FALSE (cg_graph_arc_add_calls (g, a02, G_MAXUINT64));
  CU_ASSERT_EQUAL (cg_graph_arc_calls (g, a02), 0);
}

/* A random arc sequence with repeats and a few hubs (callers with far
 * more than 16 callees, whose arcs the graph hashes): ensure_arc against
 * a GHashTable, and append_arc + merge_arcs against ensure_arc. */
static void
test_arc_index_and_merge (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  g_autoptr (CgGraph) h = cg_graph_new ();
  guint e;
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL));
  CU_ASSERT_TRUE (cg_graph_ensure_event (h, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL));
  for (int i = 0; i < 3000; i++)
    {
      char name[16];
      g_snprintf (name, sizeof name, "f%d", i);
      cg_graph_ensure_function (g, "", name);
      cg_graph_ensure_function (h, "", name);
    }
  g_autoptr (GHashTable) ref = g_hash_table_new (g_direct_hash, g_direct_equal);
  GRand *rand = g_rand_new_with_seed (5);
  g_autofree CgArcId *ensured = g_new (CgArcId, 60000); /* appended arc i's, by ensure */
  for (guint i = 0; i < 60000; i++)
    {
      /* callers 0-2 are hubs, the others call a few of their neighbours */
      guint caller = g_rand_int_range (rand, 0, 3000);
      guint callee = caller < 3 ? (guint) g_rand_int_range (rand, 0, 3000)
                                : (caller + (guint) g_rand_int_range (rand, 0, 6)) % 3000;
      guint64 calls = (guint64) g_rand_int_range (rand, 0, 5);
      guint64 cost = (guint64) g_rand_int_range (rand, 0, 1000);
      gpointer key = GUINT_TO_POINTER (caller * 4096 + callee + 1);
      gpointer want = g_hash_table_lookup (ref, key);
      CgArcId a = cg_graph_ensure_arc (g, caller, callee);
      ensured[i] = a;
      if (want)
        {
          CU_ASSERT_EQUAL (a, GPOINTER_TO_UINT (want) - 1);
        }
      else
        {
          CU_ASSERT_EQUAL (a, g_hash_table_size (ref));
          g_hash_table_insert (ref, key, GUINT_TO_POINTER (a + 1));
        }
      cg_graph_arc_add_calls (g, a, calls);
      cg_graph_arc_inclusive (g, a)[0].n += cost;
      /* the same with appends: a new arc every time */
      CgArcId b = cg_graph_append_arc (h, caller, callee);
      CU_ASSERT_EQUAL (b, i);
      cg_graph_arc_add_calls (h, b, calls);
      cg_graph_arc_inclusive (h, b)[0].n += cost;
      if (i == 30000)
        {
          /* looking up in the middle builds the index, appending drops it */
          CgArcId found = cg_graph_lookup_arc (h, caller, callee);
          CU_ASSERT_NOT_EQUAL_FATAL (found, CG_NO_ID);
          CU_ASSERT_EQUAL (cg_graph_arc_caller (h, found), caller);
          CU_ASSERT_EQUAL (cg_graph_arc_callee (h, found), callee);
          CU_ASSERT_EQUAL (cg_graph_lookup_arc (g, 2999, 2998), CG_NO_ID);
        }
    }
  g_autofree CgArcId *renumbered = NULL;
  CU_ASSERT_TRUE (cg_graph_merge_arcs (h, NULL, &renumbered, NULL));
  CU_ASSERT_EQUAL_FATAL (cg_graph_n_arcs (h), cg_graph_n_arcs (g));
  /* every appended arc is now where ensuring it put it */
  CU_ASSERT_PTR_NOT_NULL_FATAL (renumbered);
  guint same = 0;
  for (guint i = 0; i < 60000; i++)
    same += renumbered[i] == ensured[i];
  CU_ASSERT_EQUAL (same, 60000);
  /* merged already: nothing moves, and nothing is renumbered */
  CgArcId *none = ensured;
  CU_ASSERT_TRUE (cg_graph_merge_arcs (h, NULL, &none, NULL));
  CU_ASSERT_PTR_NULL (none);
  CU_ASSERT_EQUAL (cg_graph_n_arcs (h), cg_graph_n_arcs (g));
  for (CgArcId a = 0; a < cg_graph_n_arcs (g); a++)
    {
      CU_ASSERT_EQUAL (cg_graph_arc_caller (h, a), cg_graph_arc_caller (g, a));
      CU_ASSERT_EQUAL (cg_graph_arc_callee (h, a), cg_graph_arc_callee (g, a));
      CU_ASSERT_EQUAL (cg_graph_arc_calls (h, a), cg_graph_arc_calls (g, a));
      CU_ASSERT_EQUAL (cg_graph_arc_inclusive (h, a)[0].n, cg_graph_arc_inclusive (g, a)[0].n);
      CU_ASSERT_EQUAL (cg_graph_lookup_arc (h, cg_graph_arc_caller (g, a), cg_graph_arc_callee (g, a)), a);
    }
  /* and the adjacency built after a merge lists the merged arcs, with
   * their far ends alongside */
  guint n;
  cg_graph_out_arcs (h, 0, &n);
  guint want_n;
  cg_graph_out_arcs (g, 0, &want_n);
  CU_ASSERT_EQUAL (n, want_n);
  guint n_ends = 0;
  for (CgFunctionId f = 0; f < cg_graph_n_functions (h); f++)
    {
      guint n_out, n_callees, n_in, n_callers;
      const CgArcId *out = cg_graph_out_arcs (h, f, &n_out), *in = cg_graph_in_arcs (h, f, &n_in);
      const CgFunctionId *callees = cg_graph_out_callees (h, f, &n_callees);
      const CgFunctionId *callers = cg_graph_in_callers (h, f, &n_callers);
      CU_ASSERT_EQUAL (n_callees, n_out);
      CU_ASSERT_EQUAL (n_callers, n_in);
      for (guint i = 0; i < n_out; i++)
        n_ends += callees[i] == cg_graph_arc_callee (h, out[i]) && cg_graph_arc_caller (h, out[i]) == f;
      for (guint i = 0; i < n_in; i++)
        n_ends += callers[i] == cg_graph_arc_caller (h, in[i]) && cg_graph_arc_callee (h, in[i]) == f;
    }
  CU_ASSERT_EQUAL (n_ends, 2 * cg_graph_n_arcs (h));
  g_rand_free (rand);

  /* merging sums checked: two halves of more than 64 bits */
  g_autoptr (CgGraph) o = cg_graph_new ();
  CU_ASSERT_TRUE (cg_graph_ensure_event (o, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL));
  CgFunctionId x = cg_graph_ensure_function (o, "", "x"), y = cg_graph_ensure_function (o, "", "y");
  cg_graph_arc_inclusive (o, cg_graph_append_arc (o, x, y))[0].n = G_MAXUINT64 / 2 + 1;
  cg_graph_arc_inclusive (o, cg_graph_append_arc (o, x, y))[0].n = G_MAXUINT64 / 2 + 1;
  GError *error = NULL;
  CU_ASSERT_FALSE (cg_graph_merge_arcs (o, NULL, NULL, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_OVERFLOW, "64-bit");
  g_clear_error (&error);
  CU_ASSERT_EQUAL (cg_graph_n_arcs (o), 1);

  /* only the callers marked repeated are merged: z's arcs are taken to
   * be distinct, as a reader that marks its callers vouches */
  g_autoptr (CgGraph) m = cg_graph_new ();
  CU_ASSERT_TRUE (cg_graph_ensure_event (m, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL));
  CgFunctionId mx = cg_graph_ensure_function (m, "", "x"), my = cg_graph_ensure_function (m, "", "y"),
               mz = cg_graph_ensure_function (m, "", "z");
  static const guint pairs[][2] = { { 2, 1 }, { 0, 1 }, { 2, 1 }, { 0, 2 }, { 0, 1 }, { 1, 0 } };
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    cg_graph_arc_add_calls (m, cg_graph_append_arc (m, pairs[i][0], pairs[i][1]), i + 1);
  const guint8 repeated[] = { [0] = 1, [1] = 0, [2] = 0 };
  CU_ASSERT_TRUE (cg_graph_merge_arcs (m, repeated, NULL, NULL));
  CU_ASSERT_EQUAL_FATAL (cg_graph_n_arcs (m), 5);
  static const guint want[][3] = { { 2, 1, 1 }, { 0, 1, 2 + 5 }, { 2, 1, 3 }, { 0, 2, 4 }, { 1, 0, 6 } };
  for (CgArcId a = 0; a < 5; a++)
    {
      CU_ASSERT_EQUAL (cg_graph_arc_caller (m, a), want[a][0]);
      CU_ASSERT_EQUAL (cg_graph_arc_callee (m, a), want[a][1]);
      CU_ASSERT_EQUAL (cg_graph_arc_calls (m, a), want[a][2]);
    }
  (void) mx, (void) my, (void) mz;
}

static void
test_self_totals_overflow (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint e;
  cg_graph_ensure_event (g, "Ir", "Ir", CG_KIND_INTEGER, &e, NULL);
  cg_graph_self (g, cg_graph_ensure_function (g, "", "a"))[e].n = G_MAXUINT64;
  CgValue t[1];
  CU_ASSERT_TRUE (cg_graph_self_totals (g, t));
  cg_graph_self (g, cg_graph_ensure_function (g, "", "b"))[e].n = 1;
  CU_ASSERT_FALSE (cg_graph_self_totals (g, t));
}

/* Labels compare exactly as strcmp compares the printed strings, also for
 * names with blanks and brackets and names in several objects. */
static void
test_label_order (void)
{
  static const char alphabet[] = " [a]b";
  g_autoptr (CgGraph) g = cg_graph_new ();
  GRand *rand = g_rand_new_with_seed (11);
  for (int i = 0; i < 300; i++)
    {
      char name[8], object[4];
      int n = g_rand_int_range (rand, 1, 6);
      for (int k = 0; k < n; k++)
        name[k] = alphabet[g_rand_int_range (rand, 0, 5)];
      name[n] = '\0';
      g_snprintf (object, sizeof object, "o%d", g_rand_int_range (rand, 0, 3));
      cg_graph_ensure_function (g, object, name);
    }
  guint nf = cg_graph_n_functions (g);
  for (CgFunctionId a = 0; a < nf; a++)
    for (CgFunctionId b = 0; b < nf; b++)
      {
        g_autoptr (GString) x = g_string_new (NULL);
        g_autoptr (GString) y = g_string_new (NULL);
        cg_graph_append_label (g, x, a);
        cg_graph_append_label (g, y, b);
        int want = strcmp (x->str, y->str), got = cg_graph_compare_labels (g, a, b);
        CU_ASSERT_EQUAL ((want > 0) - (want < 0), (got > 0) - (got < 0));
      }
  g_rand_free (rand);
}

static void
test_tree (void)
{
  g_autoptr (CgGraph) g = cg_graph_new ();
  guint e;
  cg_graph_ensure_event (g, "samples", "samples", CG_KIND_INTEGER, &e, NULL);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  CgFunctionId c = cg_graph_ensure_function (g, "", "c");
  g_autoptr (CgTree) t = cg_tree_new (g);
  CgFrameId ra = cg_tree_ensure_child (t, CG_NO_ID, a);
  CgFrameId rb = cg_tree_ensure_child (t, ra, b);
  CgFrameId rbc = cg_tree_ensure_child (t, rb, c);
  CgFrameId rbcb = cg_tree_ensure_child (t, rbc, b);
  CU_ASSERT_EQUAL (cg_tree_ensure_child (t, ra, b), rb);
  CU_ASSERT_EQUAL (cg_tree_parent (t, rbcb), rbc);
  cg_tree_self (t, rbc)->n = 3;
  cg_tree_self (t, rbcb)->n = 4;
  guint n;
  const CgFrameId *kids = cg_tree_children (t, ra, &n);
  CU_ASSERT_EQUAL (n, 1);
  CU_ASSERT_EQUAL (kids[0], rb);
  /* merging b and c into one function folds c's frame into b's, and the
   * b under it into the same frame: costs add up */
  CgFunctionId map[3] = { a, b, b };
  CU_ASSERT_TRUE (cg_tree_remap_functions (&t, g, map));
  CU_ASSERT_EQUAL (cg_tree_n_frames (t), 2);
  CU_ASSERT_EQUAL (cg_tree_self (t, 1)->n, 7);
  /* events added to the graph reach the tree */
  guint e2;
  cg_graph_ensure_event (g, "bytes", "bytes", CG_KIND_REAL, &e2, NULL);
  CU_ASSERT_EQUAL (cg_tree_n_events (t), 2);
  CU_ASSERT_EQUAL (cg_tree_self (t, 1)[0].n, 7);
  CU_ASSERT_EQUAL (cg_tree_self (t, 1)[1].x, 0.0);
}

/* One schema: the tree and the contexts of a profile are vectors over the
 * graph's events, and an event added or promoted through any of them
 * reaches all, without a copy to keep in step. */
static void
test_one_event_schema (void)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  CU_ASSERT_TRUE (cg_profile_ensure_event (p, "samples", "samples", CG_KIND_INTEGER, &e, NULL));
  CgFunctionId a = cg_graph_ensure_function (g, "", "a");
  CgTree *t = cg_profile_ensure_tree (p);
  CgContexts *c = cg_profile_ensure_contexts (p);
  CgFrameId x = cg_tree_ensure_child (t, CG_NO_ID, a);
  guint8 mark = 1;
  CgContextId k = cg_contexts_ensure (c, &a, &mark, 1);
  cg_tree_self (t, x)->n = 5;
  cg_contexts_cost (c, k)->n = 6;
  /* the schema is one object */
  CU_ASSERT_PTR_EQUAL (cg_graph_events (g), cg_graph_events (cg_profile_graph (p)));
  guint e2;
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "time", "seconds", CG_KIND_INTEGER, &e2, NULL));
  CU_ASSERT_EQUAL (cg_tree_n_events (t), 2);
  CU_ASSERT_EQUAL (cg_contexts_n_events (c), 2);
  /* promoted once, converted everywhere */
  CU_ASSERT_TRUE (cg_graph_ensure_event (g, "samples", "samples", CG_KIND_REAL, &e, NULL));
  CU_ASSERT_EQUAL (cg_graph_event_kind (g, e), CG_KIND_REAL);
  CU_ASSERT_DOUBLE_EQUAL (cg_tree_self_const (t, x)[e].x, 5.0, 0);
  CU_ASSERT_DOUBLE_EQUAL (cg_contexts_cost_const (c, k)[e].x, 6.0, 0);
  /* a unit that disagrees is refused */
  GError *error = NULL;
  CU_ASSERT_FALSE (cg_graph_ensure_event (g, "time", "ticks", CG_KIND_INTEGER, &e2, &error));
  CU_ASSERT_TRUE (g_error_matches (error, CG_ERROR, CG_ERROR_MISMATCH));
  g_clear_error (&error);
}

/* Derived data are valid for the graph they were derived from: a change
 * made after them makes the profile refuse them. */
static void
test_stale_derived_data (void)
{
  g_autoptr (CgProfile) p = cg_profile_new ();
  CgGraph *g = cg_profile_graph (p);
  guint e;
  cg_profile_ensure_event (p, "samples", "samples", CG_KIND_INTEGER, &e, NULL);
  CgFunctionId a = cg_graph_ensure_function (g, "", "a"), b = cg_graph_ensure_function (g, "", "b");
  cg_graph_arc_add_calls (g, cg_graph_ensure_arc (g, a, b), 1);
  cg_graph_self (g, b)->n = 10;
  cg_profile_set_costs (p, cg_costs_new (CG_METHOD_EXACT, g));
  cg_profile_set_cycles (p, cg_cycles_find (g, NULL, NULL));
  CU_ASSERT_PTR_NOT_NULL (cg_profile_costs (p));
  CU_ASSERT_PTR_NOT_NULL (cg_profile_cycles (p));
  /* reading changes nothing */
  (void) cg_graph_self_const (g, b);
  (void) cg_graph_lookup_arc (g, a, b);
  (void) cg_graph_ensure_function (g, "", "a");
  CU_ASSERT_PTR_NOT_NULL (cg_profile_costs (p));
  /* a cost written after them does */
  cg_graph_self (g, a)->n = 1;
  CU_ASSERT_PTR_NULL (cg_profile_costs (p));
  CU_ASSERT_PTR_NULL (cg_profile_cycles (p));
  /* set again, valid again; a new arc makes them stale */
  cg_profile_set_costs (p, cg_costs_new (CG_METHOD_EXACT, g));
  CU_ASSERT_PTR_NOT_NULL (cg_profile_costs (p));
  cg_graph_ensure_arc (g, b, a);
  CU_ASSERT_PTR_NULL (cg_profile_costs (p));
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "functions are (object, name)", test_function_identity },
    { "the function index agrees with a hash table", test_function_index_random },
    { "functions moved to other objects", test_move_functions },
    { "names are made safe for XML and tsv", test_sanitized_names },
    { "strings tagged apart intern alike", test_tagged_strings },
    { "events grow and promote in place", test_events_grow_and_promote },
    { "arcs and adjacency", test_arcs_and_adjacency },
    { "arcs found and merged as a reference finds them, far ends alongside", test_arc_index_and_merge },
    { "200,000 interned strings", test_many_strings },
    { "self totals detect overflow", test_self_totals_overflow },
    { "labels compare as their printed strings", test_label_order },
    { "call tree", test_tree },
    { "one event schema for graph, tree and contexts", test_one_event_schema },
    { "derived data are refused once the graph changed", test_stale_derived_data },
    { NULL, NULL },
  };
  return cg_test_main ("graph", cases);
}
