/* amon-symbols.h — naming routines inside the profiled process, at exit.
 *
 * The loaded objects come from dl_iterate_phdr (it works in static
 * programs too): path, load bias and executable address range.  A routine
 * is named by an exact match of (address - bias) in the object's ELF
 * symbol table (.symtab, else .dynsym), else by the symbol whose extent
 * holds it (the -pg mode knows an address inside each routine, not its
 * entry), read from the object's file with
 * <elf.h> and bounds-checked throughout; dladdr is the fallback.  So
 * amon.out can be read without the executable, unless it was stripped.
 * O(S log S) per object for S symbols, O(log S) per routine.
 */
#ifndef AMON_SYMBOLS_H
#define AMON_SYMBOLS_H

#include "amon-arena.h"

typedef struct {
  const char *path;      /* "" when unknown */
  uint64_t bias;         /* load bias: address = symbol value + bias */
  uintptr_t lo, hi;      /* executable segments span [lo, hi) */
  int is_main;
  int loaded;            /* symbols read (or tried) */
  uint32_t n_symbols;
  uint64_t *values;      /* sorted */
  uint64_t *sizes;       /* of the symbol at the same index */
  const char **names;
  void *map;
  size_t map_size;
} amon_object;

typedef struct {
  amon_arena *arena;
  amon_object *objects;
  uint32_t n;
} amon_objects;

/* 0, or -1 when memory ran out. */
int amon_objects_collect (amon_objects *o, amon_arena *arena) AMON_HIDDEN;
/* Index of the object whose code contains @addr, or AMON_NO_OBJECT. */
uint32_t amon_objects_find (const amon_objects *o, uintptr_t addr) AMON_HIDDEN;
/* Name of the routine at @addr in object @obj (the symbol whose value is
 * @addr, else the one whose extent holds it), or NULL; *@entry is set to
 * the address of that symbol's start (@addr when none holds it), which
 * `nm` shows for the -pg mode's routines, known by an address inside. */
const char *amon_objects_name (amon_objects *o, uint32_t obj, uintptr_t addr, uintptr_t *entry) AMON_HIDDEN;
void amon_objects_release (amon_objects *o) AMON_HIDDEN;

#endif
