/* test-callgrind-lex.c — the callgrind lexer's blocks and records.
 *
 * The reader checks every record against its own state, so a wrong
 * record costs speed, not correctness, and the reader's tests cannot see
 * one.  These tests look at the records themselves. */
#include "config.h"

#include <string.h>

#include "cg-callgrind-lex.h"
#include "cg-test.h"

/* A callgrind file of several blocks: the header ("events:") in the
 * first, so that a block lexed beside the first starts from the header
 * before it and must be lexed again. */
static GString *
several_blocks (void)
{
  GString *s = g_string_new ("version: 1\ncreator: test\npositions: line\nevents: Ir\n");
  for (guint f = 0; s->len < 5 * 256 * 1024; f++)
    {
      g_string_append_printf (s, "fn=(%u) f%u\n10 %u\n+1 2\n-1 3\n* 4\n", f, f, f % 97);
      g_string_append_printf (s, "cfn=(%u) g%u\ncalls=%u +5\n+2 %u\n", 1000000 + f, f, f % 7 + 1, f * 3);
    }
  return s;
}

/* Each block's records lie in it, in line order, one after another: the
 * reader takes them as it meets their lines, so a record out of order is
 * never applied.  Threads share the lexing differently from run to run,
 * so the lexer runs several times. */
static void
test_records_in_order (void)
{
  g_autoptr (GString) text = several_blocks ();
  for (guint run = 0; run < 30; run++)
    {
      g_autoptr (CgInput) in = cg_input_new_from_bytes ("t", (const guint8 *) text->str, text->len);
      g_autoptr (CgCallgrindLexer) x = cg_callgrind_lexer_new (in, G_MAXSIZE);
      CgLexBlock b;
      guint blocks = 0, lexed = 0;
      gboolean ordered = TRUE;
      while (cg_callgrind_lexer_next (x, &b, NULL))
        {
          blocks++;
          gsize at = 0, covered = 0;
          for (gsize i = 0; i < b.n_records; i++)
            {
              const CgLexRecord *r = &b.records[i];
              ordered &= r->start >= at && r->end > r->start && r->end <= b.len;
              covered += r->end - r->start;
              at = r->end;
            }
          /* every line of this file lexes, but for the header and the
           * lines where a block begins in the middle of a call */
          lexed += covered >= b.len - b.len / 100;
        }
      CU_ASSERT_TRUE (ordered);
      CU_ASSERT (blocks >= 5);
      CU_ASSERT_EQUAL (lexed, blocks);
      if (!ordered)
        break;
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "records are in line order, whichever thread lexed them", test_records_in_order },
    { NULL, NULL },
  };
  return cg_test_main ("callgrind-lex", cases);
}
