/* cg-elf-inlines.c — inlined calls at an address, from DWARF (cg-elf-inlines.h). */
#include "config.h"

#include "cg-elf-inlines.h"

#ifdef HAVE_LIBDW

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cg-elf-dwarf-strings.h"

struct _CgElfInlines {
  int fd;
  Elf *elf;
  Dwarf *dwarf;
  GStringChunk *names;
};

/* @path's DWARF into @in; FALSE (and nothing kept open) without any. */
static gboolean
open_dwarf (CgElfInlines *in, const char *path)
{
  in->fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (in->fd >= 0 && fstat (in->fd, &st) == 0 && S_ISREG (st.st_mode)
      && (in->elf = elf_begin (in->fd, ELF_C_READ, NULL)) != NULL && elf_kind (in->elf) == ELF_K_ELF
      && cg_elf_dwarf_strings_terminated (in->elf) && (in->dwarf = dwarf_begin_elf (in->elf, DWARF_C_READ, NULL)) != NULL)
    {
      /* an ELF file without units (stripped of .debug_info) has no DWARF */
      Dwarf_Off next;
      size_t header;
      if (dwarf_nextcu (in->dwarf, 0, &next, &header, NULL, NULL, NULL) == 0)
        return TRUE;
    }
  if (in->dwarf)
    dwarf_end (in->dwarf);
  if (in->elf)
    elf_end (in->elf);
  if (in->fd >= 0)
    close (in->fd);
  in->fd = -1;
  in->elf = NULL;
  in->dwarf = NULL;
  return FALSE;
}

CgElfInlines *
cg_elf_inlines_load (const char *path, const char *debug_file)
{
  if (elf_version (EV_CURRENT) == EV_NONE)
    return NULL;
  CgElfInlines *in = g_new0 (CgElfInlines, 1);
  in->fd = -1;
  if (!open_dwarf (in, path) && (debug_file == NULL || !open_dwarf (in, debug_file)))
    {
      g_free (in);
      return NULL;
    }
  in->names = g_string_chunk_new (4096);
  return in;
}

void
cg_elf_inlines_free (CgElfInlines *in)
{
  if (in == NULL)
    return;
  dwarf_end (in->dwarf);
  elf_end (in->elf);
  close (in->fd);
  g_string_chunk_free (in->names);
  g_free (in);
}

/* The unit whose code holds @address: libdw's from .debug_aranges, else
 * the first whose ranges hold it. */
static gboolean
unit_at (Dwarf *dw, guint64 address, Dwarf_Die *cu)
{
  if (dwarf_addrdie (dw, address, cu) != NULL)
    return TRUE;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu (dw, off, &next, &header, NULL, NULL, NULL) == 0)
    {
      if (dwarf_offdie (dw, off + header, cu) != NULL && dwarf_haspc (cu, address) == 1)
        return TRUE;
      off = next;
    }
  return FALSE;
}

/* The linker's name of the function @die is an instance of, else its
 * source name; NULL without either. */
static const char *
function_name (Dwarf_Die *die)
{
  Dwarf_Attribute a;
  const char *name = NULL;
  if (dwarf_attr_integrate (die, DW_AT_linkage_name, &a) != NULL
      || dwarf_attr_integrate (die, DW_AT_MIPS_linkage_name, &a) != NULL)
    name = dwarf_formstring (&a);
  if (name == NULL && dwarf_attr_integrate (die, DW_AT_name, &a) != NULL)
    name = dwarf_formstring (&a);
  return name && *name ? name : NULL;
}

guint
cg_elf_inlines_at (CgElfInlines *in, guint64 address, GPtrArray *names)
{
  Dwarf_Die cu;
  if (!unit_at (in->dwarf, address, &cu))
    return 0;
  /* the innermost scope that is a function's: dwarf_getscopes goes on
   * from an inlined instance into its abstract definition, so the
   * instances it is nested in are the DIE's own parents, which
   * dwarf_getscopes_die gives (as eu-addr2line -i finds them) */
  Dwarf_Die *scopes = NULL, *chain = NULL;
  int n = dwarf_getscopes (&cu, address, &scopes), m = 0;
  int i = 0;
  while (i < n && dwarf_tag (&scopes[i]) != DW_TAG_inlined_subroutine && dwarf_tag (&scopes[i]) != DW_TAG_subprogram)
    i++;
  guint found = 0;
  if (i < n && dwarf_tag (&scopes[i]) == DW_TAG_inlined_subroutine)
    m = dwarf_getscopes_die (&scopes[i], &chain);
  /* chain[0] is the innermost instance, then its parents outwards */
  for (int j = 0; j < m; j++)
    {
      int tag = dwarf_tag (&chain[j]);
      if (tag == DW_TAG_subprogram)
        break;
      if (tag != DW_TAG_inlined_subroutine)
        continue;
      const char *name = function_name (&chain[j]);
      if (name == NULL)
        continue;
      g_ptr_array_add (names, g_string_chunk_insert_const (in->names, name));
      found++;
    }
  free (scopes);
  free (chain);
  return found;
}

#else /* !HAVE_LIBDW */

CgElfInlines *
cg_elf_inlines_load (const char *path, const char *debug_file)
{
  (void) path;
  (void) debug_file;
  return NULL;
}

void
cg_elf_inlines_free (CgElfInlines *in)
{
  (void) in;
}

guint
cg_elf_inlines_at (CgElfInlines *in, guint64 address, GPtrArray *names)
{
  (void) in;
  (void) address;
  (void) names;
  return 0;
}

#endif
