/* cg-matrix.c — re-striding in place, from the last row backwards. */
#include "config.h"

#include "cg-matrix.h"

#include <string.h>

CgValue cg_matrix_no_values[1];

/* Values zeroed ahead of the rows that need them, so that a matrix
 * growing a row at a time zeroes them about once in this many. */
#define ZERO_AHEAD 8192

void
cg_matrix_init (CgMatrix *m, guint cols)
{
  m->values = g_new0 (CgValue, 1); /* never NULL once made */
  m->capacity = m->zeroed = 1;
  m->rows = 0;
  m->cols = cols;
}

void
cg_matrix_clear (CgMatrix *m)
{
  g_clear_pointer (&m->values, g_free);
  m->capacity = m->zeroed = 0;
  m->rows = m->cols = 0;
}

/* Room for at least @n values, the new room not touched. */
static void
reserve (CgMatrix *m, gsize n)
{
  if (n <= m->capacity)
    return;
  m->capacity = MAX (n, m->capacity * 2);
  m->values = g_renew (CgValue, m->values, m->capacity);
}

/* Zeroes the values up to @n, and some ahead within the room. */
static void
zero_to (CgMatrix *m, gsize n)
{
  if (n <= m->zeroed)
    return;
  gsize to = MIN (MAX (n, m->zeroed + ZERO_AHEAD), m->capacity);
  memset (m->values + m->zeroed, 0, (to - m->zeroed) * sizeof (CgValue));
  m->zeroed = to;
}

void
cg_matrix_resize (CgMatrix *m, guint rows)
{
  gsize need = (gsize) rows * m->cols, have = (gsize) m->rows * m->cols;
  if (need < have)
    memset (m->values + need, 0, (have - need) * sizeof (CgValue)); /* zero again, as they were */
  reserve (m, need);
  zero_to (m, need);
  m->rows = rows;
}

void
cg_matrix_add_column (CgMatrix *m)
{
  guint old_n = m->cols, new_n = old_n + 1;
  gsize need = (gsize) m->rows * new_n;
  reserve (m, need);
  zero_to (m, need);
  CgValue *v = m->values;
  for (guint r = m->rows; r-- > 0;)
    {
      memmove (&v[(gsize) r * new_n], &v[(gsize) r * old_n], old_n * sizeof (CgValue));
      v[(gsize) r * new_n + old_n] = CG_VALUE_ZERO;
    }
  m->cols = new_n;
}

void
cg_matrix_promote_column (CgMatrix *m, guint col)
{
  for (guint r = 0; r < m->rows; r++)
    {
      CgValue *v = cg_matrix_row (m, r) + col;
      *v = cg_value_convert (CG_KIND_INTEGER, CG_KIND_REAL, *v);
    }
}
