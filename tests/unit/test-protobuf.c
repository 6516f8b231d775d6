/* test-protobuf.c — the wire-format cursor (cg-protobuf.h) against bytes
 * this test encodes itself, following protobuf's "Encoding" document:
 * varints of random and extreme values, every wire type, packed and
 * single repeated values, and each malformation with its error. */
#include "config.h"

#include <string.h>

#include "cg-protobuf.h"
#include "cg-test.h"

/* An independent encoder: 7 bits a byte, low first, the high bit set on
 * every byte but the last. */
static void
put_varint (GByteArray *b, guint64 v)
{
  while (v >= 0x80)
    {
      guint8 c = (guint8) (v | 0x80);
      g_byte_array_append (b, &c, 1);
      v >>= 7;
    }
  guint8 c = (guint8) v;
  g_byte_array_append (b, &c, 1);
}

static CgPbCursor
cursor (const guint8 *data, gsize len)
{
  return cg_pb_cursor (data, len, "t.pb", "Test");
}

static void
test_varints_round_trip (void)
{
  g_autoptr (GByteArray) b = g_byte_array_new ();
  GRand *rand = g_rand_new_with_seed (11);
  guint64 values[2000];
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      /* every length from 1 to 10 bytes */
      guint bits = g_rand_int_range (rand, 0, 65);
      guint64 v = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      values[i] = bits == 64 ? v : v & ((G_GUINT64_CONSTANT (1) << bits) - 1);
      if (i == 0)
        values[i] = G_MAXUINT64;
      put_varint (b, (guint64) (1 + i % 100) << 3);
      put_varint (b, values[i]);
    }
  g_rand_free (rand);
  CgPbCursor c = cursor (b->data, b->len);
  CgPbField f;
  GError *error = NULL;
  guint n = 0;
  while (cg_pb_next (&c, &f, &error))
    {
      CU_ASSERT_EQUAL (f.wire, CG_PB_VARINT);
      CU_ASSERT_EQUAL (f.number, 1 + n % 100);
      CU_ASSERT_EQUAL (f.value, values[n]);
      n++;
    }
  CU_ASSERT_PTR_NULL (error);
  CU_ASSERT_EQUAL (n, G_N_ELEMENTS (values));
  CU_ASSERT_EQUAL (cg_pb_int64 (G_MAXUINT64), -1);
  CU_ASSERT_EQUAL (cg_pb_int64 (G_GUINT64_CONSTANT (1) << 63), G_MININT64);
}

static void
test_wire_types (void)
{
  /* 1: varint 150; 2: fixed64; 3: "abc"; 4: fixed32 */
  static const guint8 data[] = { 0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 3, 'a', 'b', 'c',
                                 0x25, 0x78, 0x56, 0x34, 0x12 };
  CgPbCursor c = cursor (data, sizeof data);
  CgPbField f;
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error) && f.number == 1 && f.value == 150);
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error) && f.wire == CG_PB_FIXED64 && f.value == 0x0807060504030201);
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error) && f.wire == CG_PB_LEN && f.start == 14 && f.len == 3);
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error) && f.wire == CG_PB_FIXED32 && f.value == 0x12345678 && f.at == 17);
  CU_ASSERT_FALSE (cg_pb_next (&c, &f, &error));
  CU_ASSERT_PTR_NULL (error);
}

static void
test_packed_and_single (void)
{
  /* field 2 packed: 1, 150, 2^64-1; then field 2 single: 7 */
  static const guint8 data[] = { 0x12, 13, 0x01, 0x96, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                 0x01, 0x10, 0x07 };
  const guint64 want[] = { 1, 150, G_MAXUINT64, 7 };
  CgPbCursor c = cursor (data, sizeof data);
  CgPbField f;
  GError *error = NULL;
  guint n = 0;
  while (cg_pb_next (&c, &f, &error))
    {
      CgPbVarints values;
      guint64 v;
      CU_ASSERT_TRUE (cg_pb_varints (&c, &f, "value", &values, &error));
      while (cg_pb_varints_next (&values, &v, &error))
        CU_ASSERT_TRUE (n < G_N_ELEMENTS (want) && v == want[n++]);
      CU_ASSERT_PTR_NULL (error);
    }
  CU_ASSERT_EQUAL (n, G_N_ELEMENTS (want));
  CU_ASSERT_PTR_NULL (error);
}

/* Each malformation: its bytes, the error code and words, and what the
 * quiet reader says. */
static void
test_malformed (void)
{
  static const struct {
    guint8 bytes[16];
    gsize len;
    int code;
    const char *message;
    int quiet;
  } cases[] = {
    { { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 }, 11, CG_ERROR_PARSE,
      "offset 1: Test: a varint longer than 64 bits", -1 },
    { { 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 }, 12, CG_ERROR_PARSE,
      "longer than 64 bits", -1 },
    { { 0x08, 0x80 }, 2, CG_ERROR_TRUNCATED, "offset 1: Test field 1: the Test ends inside a varint", -2 },
    { { 0x80 }, 1, CG_ERROR_TRUNCATED, "offset 0: Test ends inside a field's tag", -2 },
    { { 0x00, 0x01 }, 2, CG_ERROR_PARSE, "field number 0", -1 },
    { { 0x0b }, 1, CG_ERROR_PARSE, "offset 0: Test field 1 has a group start (3)", -1 },
    { { 0x0e }, 1, CG_ERROR_PARSE, "wire type 6", -1 },
    { { 0x0a, 0x05, 0x01 }, 3, CG_ERROR_TRUNCATED,
      "offset 1: Test field 1: a length of 5 bytes runs past the end of the Test (1 bytes remain)", -3 },
    { { 0x0a, 0x80 }, 2, CG_ERROR_TRUNCATED, "the Test ends inside the length of a length-delimited payload", -2 },
    { { 0x09, 1, 2, 3 }, 4, CG_ERROR_TRUNCATED, "ends inside a fixed64", -2 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      CgPbCursor c = cursor (cases[i].bytes, cases[i].len);
      CgPbField f;
      GError *error = NULL;
      CU_ASSERT_FALSE (cg_pb_next (&c, &f, &error));
      CG_ASSERT_ERROR (error, cases[i].code, cases[i].message);
      g_clear_error (&error);
      c = cursor (cases[i].bytes, cases[i].len);
      CU_ASSERT_EQUAL (cg_pb_next_quiet (&c, &f), cases[i].quiet);
      if (cases[i].quiet == -3)
        CU_ASSERT_TRUE (f.value == 5 && f.start == 2 && f.len == 1);
    }
  /* packed varints cut by their payload's end, and a repeated field of a
   * fixed wire type */
  static const guint8 cut[] = { 0x12, 0x02, 0x01, 0x96, 0x01 };
  CgPbCursor c = cursor (cut, sizeof cut);
  CgPbField f;
  GError *error = NULL;
  CgPbVarints values;
  guint64 v;
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error) && cg_pb_varints (&c, &f, "value", &values, &error));
  CU_ASSERT_TRUE (cg_pb_varints_next (&values, &v, &error) && v == 1);
  CU_ASSERT_FALSE (cg_pb_varints_next (&values, &v, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_TRUNCATED, "offset 3: Test: packed varints end inside a varint");
  g_clear_error (&error);
  static const guint8 fixed[] = { 0x15, 1, 2, 3, 4 };
  c = cursor (fixed, sizeof fixed);
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error));
  CU_ASSERT_FALSE (cg_pb_varints (&c, &f, "value", &values, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "Test field 2 (value) has a fixed32, expected varints");
  g_clear_error (&error);
}

/* A sub-message's cursor stops at its payload's end: a length inside it
 * that would run past it is refused, though the outer bytes go on. */
static void
test_sub_message_bounds (void)
{
  static const guint8 data[] = { 0x0a, 0x02, 0x0a, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05 };
  CgPbCursor c = cursor (data, sizeof data);
  CgPbField f;
  GError *error = NULL;
  CU_ASSERT_TRUE (cg_pb_next (&c, &f, &error));
  CgPbCursor sub = cg_pb_sub (&c, &f, "Inner", 0);
  CU_ASSERT_FALSE (cg_pb_next (&sub, &f, &error));
  CG_ASSERT_ERROR (error, CG_ERROR_TRUNCATED, "offset 3: Inner field 1: a length of 5 bytes runs past the end of the Inner (0 bytes remain)");
  g_clear_error (&error);
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "varints round trip", test_varints_round_trip },
    { "wire types", test_wire_types },
    { "packed and single", test_packed_and_single },
    { "malformed", test_malformed },
    { "sub-message bounds", test_sub_message_bounds },
    { NULL, NULL },
  };
  return cg_test_main ("protobuf", cases);
}
