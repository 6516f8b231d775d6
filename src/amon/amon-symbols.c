/* amon-symbols.c — dl_iterate_phdr, ELF symbol tables, dladdr. */
#define _GNU_SOURCE 1

#include "amon-symbols.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "amon-format.h"

typedef struct {
  amon_objects *o;
  uint32_t count; /* objects seen */
  int failed;
} Collect;

AMON_FN static char *
copy_string (amon_arena *a, const char *s, size_t n)
{
  char *c = amon_arena_alloc (a, n + 1);
  if (c)
    memcpy (c, s, n);
  return c;
}

AMON_FN static int
each_object (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  Collect *c = data;
  amon_objects *o = c->o;
  if (o->objects == NULL)
    {
      c->count++;
      return 0;
    }
  if (o->n >= c->count)
    return 0;
  amon_object *ob = &o->objects[o->n];
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
        continue;
      uintptr_t a = (uintptr_t) info->dlpi_addr + ph->p_vaddr;
      if (a < lo)
        lo = a;
      if (a + ph->p_memsz > hi)
        hi = a + ph->p_memsz;
    }
  if (hi == 0)
    return 0;
  ob->lo = lo;
  ob->hi = hi;
  ob->bias = (uint64_t) info->dlpi_addr;
  const char *name = info->dlpi_name ? info->dlpi_name : "";
  if (o->n == 0 && *name == 0)
    {
      /* the program itself */
      char buf[4096];
      ssize_t n = readlink ("/proc/self/exe", buf, sizeof buf - 1);
      ob->is_main = 1;
      ob->path = copy_string (o->arena, buf, n > 0 ? (size_t) n : 0);
    }
  else
    ob->path = copy_string (o->arena, name, strlen (name));
  if (ob->path == NULL)
    c->failed = 1;
  else
    o->n++;
  return 0;
}

AMON_FN int
amon_objects_collect (amon_objects *o, amon_arena *arena)
{
  Collect c = { o, 0, 0 };
  o->arena = arena;
  o->objects = NULL;
  o->n = 0;
  dl_iterate_phdr (each_object, &c);
  if (c.count == 0)
    return 0;
  o->objects = amon_arena_alloc (arena, (size_t) c.count * sizeof *o->objects);
  if (o->objects == NULL)
    return -1;
  dl_iterate_phdr (each_object, &c);
  return c.failed ? -1 : 0;
}

AMON_FN uint32_t
amon_objects_find (const amon_objects *o, uintptr_t addr)
{
  for (uint32_t i = 0; i < o->n; i++)
    if (addr >= o->objects[i].lo && addr < o->objects[i].hi)
      return i;
  return AMON_NO_OBJECT;
}

/* ---- ELF symbol tables ---- */

typedef struct {
  uint64_t value;
  uint64_t size;
  const char *name;
  int rank; /* global 0, weak 1, local 2: the preferred name of an address first */
} Sym;

AMON_FN static int
by_value (const void *a, const void *b)
{
  const Sym *x = a, *y = b;
  if (x->value != y->value)
    return x->value < y->value ? -1 : 1;
  if (x->rank != y->rank)
    return x->rank - y->rank;
  return strcmp (x->name, y->name);
}

/* A section's bytes, or NULL when they lie outside the file. */
AMON_FN static const void *
section (const char *base, size_t size, const ElfW (Shdr) *sh)
{
  if (sh->sh_type == SHT_NOBITS || sh->sh_offset > size || sh->sh_size > size - sh->sh_offset)
    return NULL;
  return base + sh->sh_offset;
}

AMON_FN static void
load_symbols (amon_objects *o, amon_object *ob)
{
  ob->loaded = 1;
  if (ob->path == NULL || *ob->path == 0)
    return;
  int fd = open (ob->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  struct stat st;
  void *map = MAP_FAILED;
  if (fstat (fd, &st) == 0 && st.st_size > (off_t) sizeof (ElfW (Ehdr)))
    map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return;
  ob->map = map;
  ob->map_size = (size_t) st.st_size;
  const char *base = map;
  size_t size = ob->map_size;
  const ElfW (Ehdr) *eh = map;
  if (memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != (sizeof (void *) == 8 ? ELFCLASS64 : ELFCLASS32)
      || eh->e_shentsize != sizeof (ElfW (Shdr)) || eh->e_shoff > size
      || (size_t) eh->e_shnum * sizeof (ElfW (Shdr)) > size - eh->e_shoff)
    return;
  const ElfW (Shdr) *sh = (const ElfW (Shdr) *) (base + eh->e_shoff);
  int pick = -1;
  for (int pass = 0; pass < 2 && pick < 0; pass++)
    for (int i = 0; i < eh->e_shnum; i++)
      if (sh[i].sh_type == (pass == 0 ? SHT_SYMTAB : SHT_DYNSYM))
        {
          pick = i;
          break;
        }
  if (pick < 0 || sh[pick].sh_entsize != sizeof (ElfW (Sym)) || sh[pick].sh_link >= eh->e_shnum)
    return;
  const ElfW (Sym) *syms = section (base, size, &sh[pick]);
  const char *strs = section (base, size, &sh[sh[pick].sh_link]);
  if (syms == NULL || strs == NULL)
    return;
  size_t n = sh[pick].sh_size / sizeof (ElfW (Sym)), strsize = sh[sh[pick].sh_link].sh_size;
  Sym *list = amon_arena_alloc (o->arena, (n ? n : 1) * sizeof *list);
  if (list == NULL)
    return;
  uint32_t k = 0;
  for (size_t i = 0; i < n && k < UINT32_MAX; i++)
    {
      int type = ELF64_ST_TYPE (syms[i].st_info), bind = ELF64_ST_BIND (syms[i].st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || syms[i].st_shndx == SHN_UNDEF || syms[i].st_name >= strsize)
        continue;
      const char *name = strs + syms[i].st_name;
      if (*name == 0 || memchr (name, 0, strsize - syms[i].st_name) == NULL)
        continue;
      list[k].value = syms[i].st_value;
      list[k].size = syms[i].st_size;
      list[k].name = name;
      list[k].rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
      k++;
    }
  qsort (list, k, sizeof *list, by_value);
  ob->values = amon_arena_alloc (o->arena, (k ? k : 1) * sizeof *ob->values);
  ob->names = amon_arena_alloc (o->arena, (k ? k : 1) * sizeof *ob->names);
  ob->sizes = amon_arena_alloc (o->arena, (k ? k : 1) * sizeof *ob->sizes);
  if (ob->values == NULL || ob->names == NULL || ob->sizes == NULL)
    return;
  for (uint32_t i = 0; i < k; i++)
    {
      ob->values[i] = list[i].value;
      ob->sizes[i] = list[i].size;
      ob->names[i] = list[i].name;
    }
  ob->n_symbols = k;
}

AMON_FN const char *
amon_objects_name (amon_objects *o, uint32_t obj, uintptr_t addr, uintptr_t *entry)
{
  *entry = addr;
  if (obj < o->n)
    {
      amon_object *ob = &o->objects[obj];
      if (!ob->loaded)
        load_symbols (o, ob);
      uint64_t v = (uint64_t) addr - ob->bias;
      uint32_t lo = 0, hi = ob->n_symbols;
      while (lo < hi)
        {
          uint32_t mid = lo + (hi - lo) / 2;
          if (ob->values[mid] < v)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo < ob->n_symbols && ob->values[lo] == v)
        return ob->names[lo]; /* the first of equal values is the preferred name */
      /* an address inside a routine (the -pg mode's): the symbol that
       * holds it, by its size; the first of its value's names */
      if (lo > 0 && v - ob->values[lo - 1] < ob->sizes[lo - 1])
        {
          uint64_t at = ob->values[lo - 1];
          while (lo > 1 && ob->values[lo - 2] == at)
            lo--;
          *entry = (uintptr_t) (at + ob->bias);
          return ob->names[lo - 1];
        }
    }
  Dl_info info;
  if (dladdr ((void *) addr, &info) && info.dli_sname && info.dli_saddr == (void *) addr)
    return info.dli_sname;
  return NULL;
}

AMON_FN void
amon_objects_release (amon_objects *o)
{
  for (uint32_t i = 0; i < o->n; i++)
    if (o->objects[i].map)
      munmap (o->objects[i].map, o->objects[i].map_size);
  o->n = 0;
}
