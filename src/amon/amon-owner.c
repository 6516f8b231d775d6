/* amon-owner.c — routine starts from .eh_frame_hdr (amon-owner.h).
 *
 * The index's layout (the LSB's "Exception Frame Header", and what GNU ld,
 * gold, lld and mold write): version 1, the encodings of eh_frame_ptr, of
 * fde_count and of the table, then eh_frame_ptr, fde_count, and the table
 * of (initial location, FDE address) pairs sorted by location.  Only the
 * table encoding the linkers use is read: signed 4-byte offsets from the
 * start of the index (DW_EH_PE_datarel | DW_EH_PE_sdata4).
 *
 * The index of the object that holds an address: _dl_find_object(3)
 * where glibc has it (2.35 on; <dlfcn.h> then defines
 * DLFO_EH_SEGMENT_TYPE), which follows dlopen(3) and dlclose(3);
 * otherwise a table of the objects loaded when amon_owner_init ran.
 */
#define _GNU_SOURCE 1

#include "amon-owner.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>

#define PE_OMIT 0xff
#define PE_TABLE 0x3b /* datarel | sdata4 */

/* Bytes of a value of pointer encoding @enc (its low nibble), 0 when not
 * of a fixed size. */
AMON_FN static uint32_t
enc_size (uint8_t enc)
{
  switch (enc & 0x0f)
    {
    case 0x02: case 0x0a: return 2;
    case 0x03: case 0x0b: return 4;
    case 0x04: case 0x0c: case 0x00: return 8;
    default: return 0;
    }
}

/* The table of index @hdr and its number of pairs; 0 when it is not one
 * this file reads. */
AMON_FN static uint32_t
index_table (const uint8_t *hdr, const int32_t **table)
{
  if (hdr == NULL || hdr[0] != 1 || hdr[2] == PE_OMIT || hdr[3] != PE_TABLE)
    return 0;
  uint32_t skip = enc_size (hdr[1]), count_size = enc_size (hdr[2]);
  if (skip == 0 || count_size != 4)
    return 0;
  const uint8_t *p = hdr + 4 + skip;
  *table = (const int32_t *) (p + 4);
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

#ifdef DLFO_EH_SEGMENT_TYPE

AMON_FN void
amon_owner_init (void)
{
}

/* The index of the object that holds @pc, NULL when none. */
AMON_FN static const uint8_t *
object_index (uintptr_t pc)
{
  struct dl_find_object o;
  if (_dl_find_object ((void *) pc, &o) != 0)
    return NULL;
  return o.dlfo_eh_frame;
}

#else

#define OWNER_OBJECTS 256

typedef struct {
  uintptr_t lo, hi;      /* the object's executable segments */
  const uint8_t *hdr;    /* its index */
} owner_object;

static owner_object objects[OWNER_OBJECTS];
static uint32_t n_objects;
static pthread_once_t owner_once = PTHREAD_ONCE_INIT;

AMON_FN static int
owner_add (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  if (n_objects == OWNER_OBJECTS)
    return 1;
  owner_object o = { .lo = UINTPTR_MAX };
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t at = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
        {
          o.lo = at < o.lo ? at : o.lo;
          o.hi = at + ph->p_memsz > o.hi ? at + ph->p_memsz : o.hi;
        }
      else if (ph->p_type == PT_GNU_EH_FRAME)
        o.hdr = (const uint8_t *) at;
    }
  const int32_t *table;
  if (o.lo < o.hi && index_table (o.hdr, &table) > 0)
    objects[n_objects++] = o;
  return 0;
}

AMON_FN static void
owner_scan (void)
{
  dl_iterate_phdr (owner_add, NULL);
}

AMON_FN void
amon_owner_init (void)
{
  pthread_once (&owner_once, owner_scan);
}

AMON_FN static const uint8_t *
object_index (uintptr_t pc)
{
  for (uint32_t i = 0; i < __atomic_load_n (&n_objects, __ATOMIC_ACQUIRE); i++)
    if (pc >= objects[i].lo && pc < objects[i].hi)
      return objects[i].hdr;
  return NULL;
}

#endif

AMON_FN const void *
amon_owner_object (uintptr_t pc)
{
  return object_index (pc);
}

AMON_FN uintptr_t
amon_owner (uintptr_t pc, const uint8_t **fde)
{
  if (fde)
    *fde = NULL;
  const uint8_t *hdr = object_index (pc);
  const int32_t *table = NULL;
  uint32_t count = index_table (hdr, &table);
  intptr_t rel = (intptr_t) (pc - (uintptr_t) hdr);
  if (count == 0 || rel < INT32_MIN || rel > INT32_MAX || (intptr_t) table[0] > rel)
    return 0;
  /* the last entry whose location is at or below @pc */
  uint32_t lo = 0, hi = count;
  while (hi - lo > 1)
    {
      uint32_t mid = lo + (hi - lo) / 2;
      if ((intptr_t) table[2 * (size_t) mid] <= rel)
        lo = mid;
      else
        hi = mid;
    }
  if (fde)
    *fde = hdr + table[2 * (size_t) lo + 1];
  return (uintptr_t) hdr + (uintptr_t) (intptr_t) table[2 * (size_t) lo];
}
