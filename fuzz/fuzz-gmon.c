/* fuzz-gmon.c — fuzz target: the gmon.out reader with its executable.
 *
 * An input is [ELF size, 4 bytes little-endian][ELF][gmon.out]: both the
 * executable (symbol tables, read with libelf) and the profile are
 * mutated.  The ELF is handed to the reader as /proc/self/fd/N of a memfd,
 * since the symbol reader opens a path. */
#define _GNU_SOURCE
#include "config.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cg-read-gmon.h"
#include "fuzz-common.h"

static char executable[64];

static gboolean
read_gmon (CgProfile *p, CgInput *in, const CgReadOptions *options, GError **error)
{
  CgReadOptions o = *options;
  o.executable = executable;
  o.static_calls = o.lenient; /* half the inputs also scan the code */
  return cg_read_gmon (p, in, FALSE, &o, error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 4)
    return 0;
  size_t elf_size = (size_t) data[0] | (size_t) data[1] << 8 | (size_t) data[2] << 16 | (size_t) data[3] << 24;
  if (elf_size > size - 4)
    return 0;
  int fd = memfd_create ("fuzz-elf", MFD_CLOEXEC);
  if (fd < 0)
    return 0;
  if (write (fd, data + 4, elf_size) == (ssize_t) elf_size)
    {
      snprintf (executable, sizeof executable, "/proc/self/fd/%d", fd);
      cg_fuzz_run (read_gmon, data + 4 + elf_size, size - 4 - elf_size);
    }
  close (fd);
  return 0;
}
