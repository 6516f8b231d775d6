/* cg-digits.h — private: decimal numbers read eight bytes at a time, for
 * the readers' hot loops (callgrind's cost lines, the XML's arc rows).
 *
 * Most numbers in a profile have fewer than eight digits, and their
 * lengths vary at random: a loop with a branch on each digit mispredicts
 * where the number ends.  Here the digits are found in one 8-byte word
 * and combined with three multiplications, without a branch on each. */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* Bytes that must be readable after the last byte a number may take,
 * however short the number: cg_digits_lex loads eight at once. */
#define CG_DIGITS_PADDING 8

/* The number of leading decimal digits in the 8 bytes @w (the first in
 * its lowest byte), 8 when all are.  Adding 0x46 sets a byte's high bit
 * from ':' (0x3a) up, subtracting 0x30 below '0'; a carry or borrow only
 * travels from a byte that is not a digit to the bytes after it, so the
 * first such byte is found exactly. */
static inline guint
cg_digits_leading (guint64 w)
{
  guint64 not_digit = ((w + G_GUINT64_CONSTANT (0x4646464646464646)) | (w - G_GUINT64_CONSTANT (0x3030303030303030)))
                      & G_GUINT64_CONSTANT (0x8080808080808080);
  return not_digit ? (guint) __builtin_ctzll (not_digit) >> 3 : 8;
}

/* The value of the @n (1 to 7) decimal digits that start @w: they are
 * moved to the top bytes, behind zeros, and the eight digit values are
 * combined pairwise (ten times the first plus the second), then the
 * pairs, then the fours, each with one multiplication. */
static inline guint64
cg_digits_value (guint64 w, guint n)
{
  guint64 v = (w - G_GUINT64_CONSTANT (0x3030303030303030)) << (64 - 8 * n);
  v = (v * (10 * 256 + 1)) >> 8 & G_GUINT64_CONSTANT (0x00ff00ff00ff00ff);
  v = (v * (100 * 65536 + 1)) >> 16 & G_GUINT64_CONSTANT (0x0000ffff0000ffff);
  return (v * (10000 * G_GUINT64_CONSTANT (0x100000000) + 1)) >> 32;
}

/* 1 to 19 decimal digits at @p (which cannot overflow 64 bits) into
 * *@out; returns the byte after them, or NULL when @p starts no digit or
 * more than 19 follow.  @p must have CG_DIGITS_PADDING bytes readable
 * after the byte that ends the digits. */
static inline const char *
cg_digits_lex (const char *p, guint64 *out)
{
  guint64 w;
  memcpy (&w, p, sizeof w);
  w = GUINT64_FROM_LE (w);
  guint n = cg_digits_leading (w);
  if (G_LIKELY (n < 8))
    {
      if (n == 0)
        return NULL;
      *out = cg_digits_value (w, n);
      return p + n;
    }
  const char *digits = p;
  guint64 v = 0;
  guint d;
  while ((d = (guint) (guchar) *p - '0') <= 9)
    {
      v = v * 10 + d;
      p++;
    }
  if (p - digits > 19)
    return NULL;
  *out = v;
  return p;
}

G_END_DECLS
