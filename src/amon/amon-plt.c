/* amon-plt.c — where a procedure linkage table's stub jumps (amon-plt.h). */
#include "amon-plt.h"

#include <string.h>

AMON_FN int
amon_plt_target (uintptr_t pc, uintptr_t *target)
{
#if defined(__x86_64__)
  const unsigned char *p = (const unsigned char *) pc;
  /* each byte is read only once the ones before it show that the
   * instruction goes on that far */
  if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
    p += 4;
  if (p[0] == 0xf2)
    p++;
  if (p[0] != 0xff || p[1] != 0x25)
    return 0;
  int32_t disp;
  memcpy (&disp, p + 2, sizeof disp);
  const unsigned char *slot = p + 6 + disp;
  memcpy (target, slot, sizeof *target);
  return 1;
#else
  (void) pc;
  (void) target;
  return 0;
#endif
}
