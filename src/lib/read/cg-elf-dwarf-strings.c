/* cg-elf-dwarf-strings.c — whether libdw may read an ELF file's DWARF
 * strings (cg-elf-dwarf-strings.h). */
#include "config.h"

#include "cg-elf-dwarf-strings.h"

#include <gelf.h>

gboolean
cg_elf_dwarf_strings_terminated (Elf *elf)
{
  size_t shstrndx;
  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return FALSE;
  for (Elf_Scn *scn = elf_nextscn (elf, NULL); scn; scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) == NULL)
        return FALSE;
      const char *name = elf_strptr (elf, shstrndx, sh.sh_name);
      if (name == NULL || !(g_str_has_prefix (name, ".debug") || g_str_has_prefix (name, ".zdebug"))
          || !g_str_has_suffix (name, "_str") || sh.sh_type == SHT_NOBITS)
        continue;
      /* compressed: what libdw reads is the inflated data */
      if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress (scn, 0, 0) < 0)
        return FALSE;
      if (g_str_has_prefix (name, ".zdebug") && elf_compress_gnu (scn, 0, 0) < 0)
        return FALSE;
      Elf_Data *data = elf_getdata (scn, NULL);
      if (data == NULL || (data->d_size > 0 && ((const char *) data->d_buf)[data->d_size - 1] != '\0'))
        return FALSE;
    }
  return TRUE;
}
