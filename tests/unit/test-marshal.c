/* test-marshal.c — the marshal scanner (cg-marshal.h) against bytes this
 * test writes itself, following CPython's Python/marshal.c: references
 * numbered in the order objects start, 15-bit digits, old text floats
 * and interned strings, a code object skipped whole, and every prefix of
 * a stream refused as truncated. */
#include "config.h"

#include <string.h>

#include "cg-marshal.h"
#include "cg-test.h"

#define S(x) ((const guint8 *) (x)), (sizeof (x) - 1)

static void
next_ok (CgMarshal *m, CgMarshalItem *item)
{
  GError *error = NULL;
  CU_ASSERT_TRUE_FATAL (cg_marshal_next (m, item, &error));
  CU_ASSERT_PTR_NULL (error);
}

/* A flagged tuple takes its entry before its members, a flagged string
 * when read: r 0 is the tuple (its meaning), r 1 the string. */
static void
test_references (void)
{
  g_autoptr (CgMarshal) m = cg_marshal_new (S ("\xa9\x02\xfa\x02hii\x07\x00\x00\x00"
                                               "r\x00\x00\x00\x00r\x01\x00\x00\x00"), "t");
  CgMarshalItem item;
  next_ok (m, &item);
  CU_ASSERT_EQUAL (item.kind, CG_MARSHAL_TUPLE);
  CU_ASSERT_EQUAL (item.n, 2);
  CgMarshalItem tuple = item;
  next_ok (m, &item);
  CU_ASSERT_EQUAL (item.kind, CG_MARSHAL_STRING);
  CU_ASSERT_TRUE (item.len == 2 && memcmp (item.s, "hi", 2) == 0);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_INT && item.n == 7);
  cg_marshal_set_meaning (m, &tuple, 42);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_CONTAINER_REF && item.meaning == 42);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_STRING && item.len == 2 && memcmp (item.s, "hi", 2) == 0);
  CU_ASSERT_TRUE (cg_marshal_at_end (m));

  /* a reference to a tuple inside it, and to no object */
  GError *error = NULL;
  g_autoptr (CgMarshal) inside = cg_marshal_new (S ("\xa9\x01r\x00\x00\x00\x00"), "t");
  next_ok (inside, &item);
  CU_ASSERT_FALSE (cg_marshal_next (inside, &item, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "t: offset 2: a reference to object 0, which contains it");
  g_clear_error (&error);
  g_autoptr (CgMarshal) none = cg_marshal_new (S ("r\x05\x00\x00\x00"), "t");
  CU_ASSERT_FALSE (cg_marshal_next (none, &item, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "a reference to object 5, of 0 read");
  g_clear_error (&error);
}

/* 'l': a signed count of 15-bit digits, low first. */
static void
test_longs (void)
{
  /* 2^40 + 5 = digits 5, 0, 1024 (2^40 = 2^(15*2) * 2^10) */
  g_autoptr (CgMarshal) m = cg_marshal_new (S ("l\x03\x00\x00\x00\x05\x00\x00\x00\x00\x04"
                                               "l\xfd\xff\xff\xff\x05\x00\x00\x00\x00\x04"
                                               "l\x05\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x08\x00"
                                               "I\x01\x00\x00\x00\x01\x00\x00\x00"), "t");
  CgMarshalItem item;
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_INT && !item.big && item.n == (G_GINT64_CONSTANT (1) << 40) + 5);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_INT && !item.big && item.n == -((G_GINT64_CONSTANT (1) << 40) + 5));
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_INT && item.big);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_INT && item.n == (G_GINT64_CONSTANT (1) << 32) + 1);

  GError *error = NULL;
  g_autoptr (CgMarshal) range = cg_marshal_new (S ("l\x01\x00\x00\x00\x00\x80"), "t");
  CU_ASSERT_FALSE (cg_marshal_next (range, &item, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "digit 32768 is out of range");
  g_clear_error (&error);
  g_autoptr (CgMarshal) zero = cg_marshal_new (S ("l\x01\x00\x00\x00\x00\x00"), "t");
  CU_ASSERT_FALSE (cg_marshal_next (zero, &item, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "not normalized");
  g_clear_error (&error);
  g_autoptr (CgMarshal) many = cg_marshal_new (S ("l\xff\xff\xff\x7f\x01\x00"), "t");
  CU_ASSERT_FALSE (cg_marshal_next (many, &item, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_TRUNCATED, "offset 0: an integer of 2147483647 digits");
  g_clear_error (&error);
}

/* Versions 0 to 2: text floats, interned strings and their references. */
static void
test_old_versions (void)
{
  g_autoptr (CgMarshal) m = cg_marshal_new (S ("f\x05" "1.5e3t\x03\x00\x00\x00" "abct\x01\x00\x00\x00zR\x00\x00\x00\x00R\x01\x00\x00\x00"
                                               "g\x00\x00\x00\x00\x00\x00\xf8\x3f"), "t");
  CgMarshalItem item;
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_FLOAT && item.x == 1500.0);
  next_ok (m, &item);
  next_ok (m, &item);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_STRING && item.len == 3 && memcmp (item.s, "abc", 3) == 0);
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_STRING && item.len == 1 && item.s[0] == 'z');
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_FLOAT && item.x == 1.5);
  GError *error = NULL;
  g_autoptr (CgMarshal) bad = cg_marshal_new (S ("f\x03" "1.x"), "t");
  CU_ASSERT_FALSE (cg_marshal_next (bad, &item, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "a float's text is no number");
  g_clear_error (&error);
}

/* A code object of Python 3.11's layout (5 fields, 8 objects, a field, 2
 * objects), a flagged string among its constants: skipped whole, and the
 * reference after it finds that string. */
static void
test_code (void)
{
  static const char code_311[] = "c" "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                                 "s\0\0\0\0" ")\x01\xfa\x01x" ")\0" ")\0" "s\0\0\0\0" "z\0" "z\0" "z\0"
                                 "\0\0\0\0" "s\0\0\0\0" "s\0\0\0\0" "r\0\0\0\0";
  g_autoptr (CgMarshal) m = cg_marshal_new ((const guint8 *) code_311, sizeof code_311 - 1, "t");
  CgMarshalItem item;
  GError *error = NULL;
  next_ok (m, &item);
  CU_ASSERT_EQUAL_FATAL (item.kind, CG_MARSHAL_CODE);
  CU_ASSERT_TRUE (cg_marshal_skip_code (m, &error));
  next_ok (m, &item);
  CU_ASSERT_TRUE (item.kind == CG_MARSHAL_STRING && item.len == 1 && item.s[0] == 'x');
  CU_ASSERT_TRUE (cg_marshal_at_end (m));
  /* 3.8 to 3.10: six fields first, one object last */
  static const char code_38[] = "c" "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"
                                "s\0\0\0\0" ")\0" ")\0" ")\0" ")\0" ")\0" "z\0" "z\0" "\0\0\0\0" "s\0\0\0\0" "N";
  g_autoptr (CgMarshal) old = cg_marshal_new ((const guint8 *) code_38, sizeof code_38 - 1, "t");
  next_ok (old, &item);
  CU_ASSERT_TRUE (cg_marshal_skip_code (old, &error));
  next_ok (old, &item);
  CU_ASSERT_EQUAL (item.kind, CG_MARSHAL_NONE);
  g_autoptr (CgMarshal) other = cg_marshal_new (S ("c\0\0\0\0N"), "t");
  next_ok (other, &item);
  CU_ASSERT_FALSE (cg_marshal_skip_code (other, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "a code object of a layout other than");
  g_clear_error (&error);
}

/* Every prefix of a stream holding each type is refused as truncated
 * (the whole reads). */
static void
test_prefixes (void)
{
  static const char all[] = "\xfb\xa9\x03\xfa\x01" "ai\x01\x00\x00\x00u\x02\x00\x00\x00" "bc"
                            "(\x02\x00\x00\x00g\0\0\0\0\0\0\xf0\x3fl\x01\x00\x00\x00\x02\x00"
                            "r\x02\x00\x00\x00" "0";
  gsize len = sizeof all - 1;
  for (gsize n = 0; n <= len; n++)
    {
      g_autoptr (CgMarshal) m = cg_marshal_new ((const guint8 *) all, n, "t");
      CgMarshalItem item;
      GError *error = NULL;
      gboolean ok = TRUE;
      guint items = 0;
      while (ok && !cg_marshal_at_end (m))
        ok = cg_marshal_next (m, &item, &error), items += ok;
      if (n == len)
        CU_ASSERT_TRUE (ok && items == 10);
      if (!ok)
        {
          CU_ASSERT_TRUE (n < len);
          CG_ASSERT_ERROR (error, CG_ERROR_TRUNCATED, "(truncated)");
          g_clear_error (&error);
        }
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "references", test_references },
    { "longs", test_longs },
    { "old versions", test_old_versions },
    { "code objects", test_code },
    { "prefixes", test_prefixes },
    { NULL, NULL },
  };
  return cg_test_main ("marshal", cases);
}
