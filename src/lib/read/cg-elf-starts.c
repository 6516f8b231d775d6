/* cg-elf-starts.c — the start addresses of an ELF object's functions. */
#include "config.h"

#include "cg-elf-starts.h"

#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
  guint64 start, size;
} Function;

struct _CgElfStarts {
  GArray *functions; /* Function, by start then size */
};

static gint
cmp_function (gconstpointer a, gconstpointer b)
{
  const Function *x = a, *y = b;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->size < y->size ? -1 : x->size > y->size;
}

/* Appends the defined functions' addresses of symbol section @scn. */
static void
add_section (GArray *starts, Elf_Scn *scn, const GElf_Shdr *sh)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  if (data == NULL || sh->sh_entsize == 0)
    return;
  gsize n = sh->sh_size / sh->sh_entsize;
  for (gsize i = 0; i < n && i <= G_MAXINT; i++)
    {
      GElf_Sym sym;
      if (gelf_getsym (data, (int) i, &sym) == NULL)
        break;
      int type = GELF_ST_TYPE (sym.st_info);
      Function f = { sym.st_value, sym.st_size };
      if ((type == STT_FUNC || type == STT_GNU_IFUNC) && sym.st_shndx != SHN_UNDEF && sym.st_value != 0)
        g_array_append_val (starts, f);
    }
}

CgElfStarts *
cg_elf_starts_load (const char *path)
{
  if (elf_version (EV_CURRENT) == EV_NONE)
    return NULL;
  /* the path comes from the input: a FIFO or a device there must not
   * block or feed us (O_NONBLOCK opens a FIFO at once); only a file is
   * read */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  struct stat st;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return NULL;
    }
  Elf *elf = elf_begin (fd, ELF_C_READ, NULL);
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (Function));
  for (Elf_Scn *scn = elf ? elf_nextscn (elf, NULL) : NULL; scn; scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr sh;
      if (gelf_getshdr (scn, &sh) != NULL && (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM))
        add_section (starts, scn, &sh);
    }
  if (elf)
    elf_end (elf);
  close (fd);
  if (starts->len == 0)
    {
      g_array_unref (starts);
      return NULL;
    }
  g_array_sort (starts, cmp_function);
  CgElfStarts *s = g_new (CgElfStarts, 1);
  s->functions = starts;
  return s;
}

void
cg_elf_starts_free (CgElfStarts *starts)
{
  if (starts == NULL)
    return;
  g_array_unref (starts->functions);
  g_free (starts);
}

gboolean
cg_elf_starts_has (const CgElfStarts *starts, guint64 start, guint64 address)
{
  /* the first function starting at @start or after */
  guint lo = 0, hi = starts->functions->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (starts->functions, Function, mid).start < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < starts->functions->len; i++)
    {
      const Function *f = &g_array_index (starts->functions, Function, i);
      if (f->start != start)
        break;
      /* a symbol without a size (hand-written assembly) covers what it may */
      if (f->size == 0 || address - start < f->size)
        return TRUE;
    }
  return FALSE;
}
