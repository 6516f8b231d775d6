/* amon-cfa.c — the CFA's offset at a call, from .eh_frame (amon-cfa.h).
 *
 * Facts from the DWARF 5 standard (§6.4, call frame information) and the
 * LSB's .eh_frame description: a CIE (length, id 0, version, augmentation
 * string, code and data alignment factors, return-address register,
 * augmentation data when the string begins with 'z', initial
 * instructions) and the FDEs that point back to it (length, CIE pointer,
 * initial location and range in the CIE's 'R' encoding, augmentation
 * data, instructions).  The instructions are run from the routine's start
 * up to the call, keeping only the CFA's rule: a register and an offset.
 * Every other rule is skipped by its operands' sizes, which the standard
 * fixes, so an instruction this reader does not know ends the reading
 * (0: not told) rather than a guess.
 */
#include "amon-cfa.h"

#include "amon-owner.h"

#define REG_RBP 6 /* DWARF register numbers on x86-64 */
#define REG_RSP 7
#define MAX_OFFSET (1 << 20)
#define STATES 8  /* DW_CFA_remember_state nesting kept */

typedef struct {
  const uint8_t *p, *end;
  int bad;
} reader;

AMON_FN static uint8_t
byte (reader *r)
{
  if (r->p >= r->end)
    {
      r->bad = 1;
      return 0;
    }
  return *r->p++;
}

AMON_FN static uint64_t
uleb (reader *r)
{
  uint64_t v = 0;
  for (unsigned shift = 0; !r->bad; shift += 7)
    {
      uint8_t b = byte (r);
      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      if (!(b & 0x80))
        break;
    }
  return v;
}

AMON_FN static int64_t
sleb (reader *r)
{
  uint64_t v = 0;
  unsigned shift = 0;
  uint8_t b = 0;
  do
    {
      b = byte (r);
      if (shift < 64)
        v |= (uint64_t) (b & 0x7f) << shift;
      shift += 7;
    }
  while ((b & 0x80) && !r->bad);
  if (shift < 64 && (b & 0x40))
    v |= ~(uint64_t) 0 << shift;
  return (int64_t) v;
}

AMON_FN static uint64_t
fixed (reader *r, unsigned n)
{
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++)
    v |= (uint64_t) byte (r) << (8 * i);
  return v;
}

AMON_FN static void
skip (reader *r, uint64_t n)
{
  if (n > (uint64_t) (r->end - r->p))
    r->bad = 1;
  else
    r->p += n;
}

/* Bytes of a pointer of encoding @enc, 0 when not of a fixed size. */
AMON_FN static unsigned
enc_bytes (uint8_t enc)
{
  switch (enc & 0x0f)
    {
    case 0x02: case 0x0a: return 2;
    case 0x03: case 0x0b: return 4;
    case 0x00: case 0x04: case 0x0c: return 8;
    default: return 0;
    }
}

/* The CFA's rule (register, offset) and where the caller's %rbp is: at
 * CFA + rbp_at when rbp_saved is 1, in %rbp still when 0, not told (in
 * another register, by an expression) when -1. */
typedef struct {
  uint64_t reg;
  int64_t offset;
  int64_t rbp_at;
  int rbp_saved;
} cfa_rule;

typedef struct {
  cfa_rule cfa, saved[STATES];
  cfa_rule initial;   /* after the CIE's instructions: DW_CFA_restore's */
  unsigned n_saved;
  uint64_t code_align;
  int64_t data_align;
  uintptr_t loc, target;
  int done;
  int has_z;   /* the CIE's augmentation begins with 'z' */
} cfa_state;

AMON_FN static void
rbp_rule (cfa_state *s, int saved, int64_t at)
{
  s->cfa.rbp_saved = saved;
  s->cfa.rbp_at = at;
}

/* A rule other than "saved at an offset" for register @reg. */
AMON_FN static void
rbp_other (cfa_state *s, uint64_t reg)
{
  if (reg == REG_RBP)
    rbp_rule (s, -1, 0);
}

/* Runs the instructions in @r, keeping the CFA's rule, until the location
 * passes @s->target (s->done) or the instructions end.  0 when one is
 * not known or malformed. */
AMON_FN static int
run (cfa_state *s, reader *r)
{
  while (r->p < r->end && !r->bad && !s->done)
    {
      uint64_t reg;
      int64_t at;
      uint8_t op = byte (r);
      uint64_t delta = 0;
      int advance = 0;
      switch (op >> 6)
        {
        case 1: delta = op & 0x3f; advance = 1; break;           /* advance_loc */
        case 2:                                                  /* offset */
          at = (int64_t) uleb (r) * s->data_align;
          if ((op & 0x3f) == REG_RBP)
            rbp_rule (s, 1, at);
          continue;
        case 3:                                                  /* restore */
          if ((op & 0x3f) == REG_RBP)
            rbp_rule (s, s->initial.rbp_saved, s->initial.rbp_at);
          continue;
        default: break;
        }
      if (!advance)
        switch (op)
          {
          case 0x00: break;                                      /* nop */
          case 0x02: delta = fixed (r, 1); advance = 1; break;   /* advance_loc1 */
          case 0x03: delta = fixed (r, 2); advance = 1; break;   /* advance_loc2 */
          case 0x04: delta = fixed (r, 4); advance = 1; break;   /* advance_loc4 */
          case 0x05:                                             /* offset_extended */
            reg = uleb (r);
            at = (int64_t) uleb (r) * s->data_align;
            if (reg == REG_RBP)
              rbp_rule (s, 1, at);
            break;
          case 0x11:                                             /* offset_extended_sf */
            reg = uleb (r);
            at = sleb (r) * s->data_align;
            if (reg == REG_RBP)
              rbp_rule (s, 1, at);
            break;
          case 0x09: case 0x14: case 0x2f:                       /* register, val_offset, GNU_negative_offset_extended */
            rbp_other (s, uleb (r));
            uleb (r);
            break;
          case 0x15: rbp_other (s, uleb (r)); sleb (r); break;   /* val_offset_sf */
          case 0x06:                                             /* restore_extended */
            if (uleb (r) == REG_RBP)
              rbp_rule (s, s->initial.rbp_saved, s->initial.rbp_at);
            break;
          case 0x08:                                             /* same_value */
            if (uleb (r) == REG_RBP)
              rbp_rule (s, 0, 0);
            break;
          case 0x07: rbp_other (s, uleb (r)); break;             /* undefined */
          case 0x2e: uleb (r); break;                            /* GNU_args_size */
          case 0x0a:                                             /* remember_state */
            if (s->n_saved == STATES)
              return 0;
            s->saved[s->n_saved++] = s->cfa;
            break;
          case 0x0b:                                             /* restore_state */
            if (s->n_saved == 0)
              return 0;
            s->cfa = s->saved[--s->n_saved];
            break;
          case 0x0c: s->cfa.reg = uleb (r); s->cfa.offset = (int64_t) uleb (r); break;
          case 0x0d: s->cfa.reg = uleb (r); break;
          case 0x0e: s->cfa.offset = (int64_t) uleb (r); break;
          case 0x0f: skip (r, uleb (r)); s->cfa.reg = UINT64_MAX; break; /* def_cfa_expression */
          case 0x10: case 0x16: rbp_other (s, uleb (r)); skip (r, uleb (r)); break; /* expression, val_expression */
          case 0x12: s->cfa.reg = uleb (r); s->cfa.offset = sleb (r) * s->data_align; break;
          case 0x13: s->cfa.offset = sleb (r) * s->data_align; break;
          default: return 0;                                     /* set_loc, vendor ones */
          }
      if (advance)
        {
          s->loc += delta * s->code_align;
          if (s->loc > s->target)
            s->done = 1;
        }
    }
  return !r->bad;
}

/* Reads the CIE at @cie into @s and @init (its initial instructions);
 * the FDEs' pointer encoding, or -1 when it cannot be read. */
AMON_FN static int
read_cie (const uint8_t *cie, cfa_state *s, reader *init)
{
  uint32_t len = (uint32_t) cie[0] | (uint32_t) cie[1] << 8 | (uint32_t) cie[2] << 16 | (uint32_t) cie[3] << 24;
  if (len == 0 || len == UINT32_MAX)
    return -1;
  reader r = { cie + 4, cie + 4 + len, 0 };
  if (fixed (&r, 4) != 0)
    return -1;
  uint8_t version = byte (&r);
  const uint8_t *aug = r.p;
  while (byte (&r) != 0 && !r.bad)
    ;
  if (r.bad || (aug[0] != 0 && aug[0] != 'z'))
    return -1;
  s->code_align = uleb (&r);
  s->data_align = sleb (&r);
  if (version == 1)
    byte (&r);
  else
    uleb (&r);
  int enc = 0x00; /* absptr when no 'R' */
  s->has_z = aug[0] == 'z';
  if (s->has_z)
    {
      uint64_t n = uleb (&r);
      reader a = { r.p, r.p + (n < (uint64_t) (r.end - r.p) ? n : 0), 0 };
      skip (&r, n);
      for (const uint8_t *c = aug + 1; *c && !a.bad; c++)
        if (*c == 'R')
          enc = byte (&a);
        else if (*c == 'L')
          byte (&a);
        else if (*c == 'P')
          {
            uint8_t penc = byte (&a);
            unsigned b = enc_bytes (penc);
            if (b == 0 || (penc & 0x70) == 0x50)
              return -1;
            skip (&a, b);
          }
        else if (*c != 'S' && *c != 'B')
          return -1;
      if (a.bad)
        return -1;
    }
  if (r.bad || enc_bytes ((uint8_t) enc) == 0)
    return -1;
  *init = r;
  return enc;
}

AMON_FN int
amon_cfa_at (uintptr_t ret, amon_cfa *out)
{
  const uint8_t *fde;
  uintptr_t start = amon_owner (ret - 1, &fde);
  if (start == 0 || fde == NULL)
    return 0;
  uint32_t len = (uint32_t) fde[0] | (uint32_t) fde[1] << 8 | (uint32_t) fde[2] << 16 | (uint32_t) fde[3] << 24;
  if (len < 8 || len == UINT32_MAX)
    return 0;
  reader r = { fde + 4, fde + 4 + len, 0 };
  uint32_t back = (uint32_t) fixed (&r, 4);
  if (back == 0)
    return 0; /* a CIE, not an FDE */
  cfa_state s = { .cfa = { REG_RSP, 8, 0, 0 }, .loc = start, .target = ret - 1 };
  reader init;
  int enc = read_cie (fde + 4 - back, &s, &init);
  if (enc < 0)
    return 0;
  unsigned n = enc_bytes ((uint8_t) enc);
  skip (&r, n); /* the initial location: the index's, @start */
  uint64_t range = fixed (&r, n);
  if (r.bad)
    return 0;
  if (s.target - start >= range)
    {
      /* the nearest FDE ends before the call: none covers it */
      *out = (amon_cfa) { .offset = 16, .via_rbp = 1, .rbp = -16, .guessed = 1 };
      return 1;
    }
  if (s.has_z)
    skip (&r, uleb (&r));
  if (!run (&s, &init))
    return 0;
  s.initial = s.cfa;
  if (!s.done && !run (&s, &r))
    return 0;
  if ((s.cfa.reg != REG_RSP && s.cfa.reg != REG_RBP) || s.cfa.offset < 8 || s.cfa.offset > MAX_OFFSET
      || s.cfa.rbp_at < -MAX_OFFSET || s.cfa.rbp_at > 0)
    return 0;
  out->offset = (int32_t) s.cfa.offset;
  out->via_rbp = s.cfa.reg == REG_RBP;
  out->rbp = s.cfa.rbp_saved < 0 ? AMON_RBP_LOST : s.cfa.rbp_saved ? (int32_t) s.cfa.rbp_at : 0;
  out->guessed = 0;
  return 1;
}
