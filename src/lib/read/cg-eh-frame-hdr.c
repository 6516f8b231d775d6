/* cg-eh-frame-hdr.c — the function starts of .eh_frame_hdr (see the
 * header).  Every count and offset comes from the file: each is checked
 * against the segment's size before it is used. */
#include "config.h"

#include "cg-eh-frame-hdr.h"

#include <string.h>

#define DW_EH_PE_OMIT 0xff
#define DW_EH_PE_DATAREL_SDATA4 0x3b

/* The size of a value in exception-header encoding @enc (its low four
 * bits give the form), or 0 for a form of no fixed size (LEB128) or
 * none at all. */
static gsize
encoded_size (guint8 enc)
{
  switch (enc & 0x0f)
    {
    case 0x02: /* udata2 */
    case 0x0a: /* sdata2 */
      return 2;
    case 0x03: /* udata4 */
    case 0x0b: /* sdata4 */
      return 4;
    case 0x04: /* udata8 */
    case 0x0c: /* sdata8 */
      return 8;
    default:
      return 0;
    }
}

/* The little- or big-endian unsigned value of @n bytes at @p. */
static guint64
get (const guint8 *p, gsize n, gboolean msb)
{
  guint64 v = 0;
  for (gsize i = 0; i < n; i++)
    v |= (guint64) p[msb ? i : n - 1 - i] << (8 * (n - 1 - i));
  return v;
}

static gint
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

GArray *
cg_eh_frame_hdr_starts (Elf *elf)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  size_t n_headers;
  GElf_Ehdr eh;
  if (elf_getphdrnum (elf, &n_headers) != 0 || gelf_getehdr (elf, &eh) == NULL)
    return starts;
  gboolean msb = eh.e_ident[EI_DATA] == ELFDATA2MSB;
  for (size_t i = 0; i < n_headers; i++)
    {
      GElf_Phdr ph;
      if (gelf_getphdr (elf, (int) i, &ph) == NULL || ph.p_type != PT_GNU_EH_FRAME)
        continue;
      if (ph.p_filesz < 4 || ph.p_filesz > G_MAXINT32)
        break;
      Elf_Data *d = elf_getdata_rawchunk (elf, (int64_t) ph.p_offset, ph.p_filesz, ELF_T_BYTE);
      if (d == NULL || d->d_buf == NULL || d->d_size < 4)
        break;
      const guint8 *p = d->d_buf;
      gsize size = d->d_size;
      guint8 version = p[0], ptr_enc = p[1], count_enc = p[2], table_enc = p[3];
      gsize ptr_size = ptr_enc == DW_EH_PE_OMIT ? 0 : encoded_size (ptr_enc);
      gsize count_size = encoded_size (count_enc);
      if (version != 1 || (ptr_enc != DW_EH_PE_OMIT && ptr_size == 0) || count_enc == DW_EH_PE_OMIT
          || count_size == 0 || table_enc != DW_EH_PE_DATAREL_SDATA4 || 4 + ptr_size + count_size > size)
        break;
      guint64 count = get (p + 4 + ptr_size, count_size, msb);
      gsize at = 4 + ptr_size + count_size;
      if (count > (size - at) / 8)
        break;
      g_array_set_size (starts, (guint) count);
      for (guint64 k = 0; k < count; k++)
        {
          gint32 rel = (gint32) (guint32) get (p + at + 8 * k, 4, msb);
          g_array_index (starts, guint64, k) = ph.p_vaddr + (guint64) (gint64) rel;
        }
      break;
    }
  /* sorted for the unwinders' binary search; a table that is not is
   * sorted here, and a start listed twice kept once */
  g_array_sort (starts, cmp_u64);
  guint kept = 0;
  for (guint k = 0; k < starts->len; k++)
    if (kept == 0 || g_array_index (starts, guint64, kept - 1) != g_array_index (starts, guint64, k))
      g_array_index (starts, guint64, kept++) = g_array_index (starts, guint64, k);
  g_array_set_size (starts, kept);
  return starts;
}
