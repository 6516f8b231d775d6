/* cg-elf-cache.h — ELF objects' functions and inlined calls, loaded once
 * per path for a series of inputs.
 *
 * Profiles of one program (n gperftools profiles of runs of one binary)
 * map the same files: each input read them again (libc with its debug
 * file, the program with its DWARF, ~0.07 s per input).  A cache that
 * the caller keeps across the inputs (CgReadOptions.elf) loads each path
 * once, as CgSymbolsCache does gprof's symbols for gmon.out files.
 *
 * Ownership: the cache owns what it loaded until it is freed.
 */
#pragma once

#include <glib.h>

#include "cg-elf-functions.h"
#include "cg-elf-inlines.h"

G_BEGIN_DECLS

typedef struct _CgElfCache CgElfCache;

CgElfCache *cg_elf_cache_new (void);
void cg_elf_cache_free (CgElfCache *cache);

/* The functions of @path (cg_elf_functions_load) and its inlined calls
 * (cg_elf_inlines_load, its DWARF or its debug file's; *@inlines NULL
 * without), loaded on the first request for @path (transfer none).
 * FALSE, with the load's @error (CG_ERROR_IO, CG_ERROR_FORMAT, naming
 * @path), where the file cannot be read: a failure is kept too, so that
 * every input that maps the file is told the same without trying again. */
gboolean cg_elf_cache_get (CgElfCache *cache, const char *path, CgElfFunctions **functions,
                           CgElfInlines **inlines, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgElfCache, cg_elf_cache_free)

G_END_DECLS
