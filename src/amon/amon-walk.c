/* amon-walk.c — the frame that made a call, by a walk up the stack
 * (amon-walk.h).  Facts from the x86-64 psABI (a call pushes its return
 * address just under the caller's CFA) and the kernel's rt_sigframe (a
 * signal handler returns to __restore_rt with the interrupted registers,
 * a ucontext, just above that return address).
 */
#define _GNU_SOURCE 1

#include "amon-walk.h"

#include <signal.h>
#include <ucontext.h>

#include "amon-cfa.h"
#include "amon-owner.h"

/* Steps up the real stack at most this many frames of routines not on
 * the shadow stack (a library's, between its caller and a callback). */
#define AMON_WALK 64

/* What @t knows of return address @site (t->owners); on a miss, found
 * and kept, unless @plain: NULL then (the look-up calls the C library's
 * _dl_find_object, amon-owner.c, and the table is mapped at the first). */
AMON_FN static const amon_site *
site_of (amon_thread *t, uintptr_t site, int plain)
{
  if (t->owners == NULL)
    {
      if (plain)
        return NULL;
      t->owners = amon_map (AMON_OWNERS * sizeof *t->owners, &t->m.bytes, t->m.limits.max_memory);
    }
  amon_site *e = t->owners ? &t->owners[AMON_SITE_SLOT (site)] : &t->owner_spare;
  if (e->site != site)
    {
      if (plain)
        return NULL;
      e->site = 0; /* a signal handler sees no half-written entry */
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      e->owner = amon_owner (site - 1, NULL); /* the call instruction's */
      if (!amon_cfa_at (site, &e->cfa))
        e->cfa.offset = 0;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
      e->site = site;
    }
  return e;
}

/* Whether the routine that holds return address @ret, and whose own
 * return address lies in @f's slot, is of another object than @f's
 * routine: then @f returned, and a library's routine called from the same
 * site at the same depth took its slot, as exit(3) calls a C++ program's
 * static destructors and then the C++ library's, which calls back into
 * the program (a routine's .cold part, which has an FDE of its own, is
 * in the routine's object).  A routine that jumped to a library's (a tail
 * call) is gone too, as where it tells its return before the jump.
 * With @plain, -1 when the objects must be looked up. */
AMON_FN static int
foreign (amon_thread *t, uintptr_t ret, const amon_frame *f, int plain)
{
  /* the common case, a call from @f's own routine, by the site's cached
   * owner, without looking the objects up */
  const amon_site *e = site_of (t, ret, plain);
  if (e == NULL)
    return -1;
  uintptr_t o = e->owner;
  if (o == 0 || (uintptr_t) f->fn - o < AMON_ENTRY_REACH)
    return 0;
  if (plain)
    return -1;
  const void *here = amon_owner_object (o), *its = amon_owner_object ((uintptr_t) f->fn);
  return here != NULL && its != NULL && here != its;
}

/* Whether return address @ret is the signal trampoline's (__restore_rt of
 * glibc and musl: mov $15, %rax; syscall, the bytes libgcc's unwinder
 * knows it by), to which the kernel makes a signal handler return, with
 * the interrupted registers (a ucontext) just above that return address
 * (x86-64's rt_sigframe).  Its unwind tables' rule, an expression that
 * reads them there, is not one amon_cfa_at takes.  @ret must follow a
 * call in a routine's code (its bytes are read). */
AMON_FN static int
sigreturn_site (uintptr_t ret)
{
#if defined(__x86_64__)
  /* the bytes lie on the page of the call's last byte, which is mapped
   * (a call of a routine that never returns may end a text segment) */
  if (((ret - 1) ^ (ret + 8)) >= 4096)
    return 0;
  const unsigned char *p = (const unsigned char *) ret;
  uint64_t code;
  __builtin_memcpy (&code, p + 1, sizeof code);
  return p[0] == 0x48 && code == 0x050f0000000fc0c7ull;
#else
  (void) ret;
  return 0;
#endif
}

#define WALK_FOUND 1
#define WALK_UNTOLD 0    /* the tables cannot tell */
#define WALK_DECLINED -1 /* @plain, and more was needed */

/* amon_walk_up, with @plain (amon-walk.h): the frame in *@out. */
AMON_FN static int
walk (amon_thread *t, amon_frame *f, uintptr_t ret, uintptr_t slot, uintptr_t rbp, int plain, amon_frame **out)
{
  uintptr_t sp = slot;
  for (int n = 0; n < AMON_WALK; n++)
    {
      if (f == t->stack)
        {
          *out = f;
          return WALK_FOUND;
        }
      const amon_site *e = site_of (t, ret, plain);
      if (e == NULL)
        return WALK_DECLINED;
      const amon_cfa *k = &e->cfa;
#if defined(__x86_64__)
      /* read only where the unwind tables cover @ret: a routine's code */
      if ((k->offset <= 0 || k->guessed) && e->owner != 0 && sigreturn_site (ret))
        {
          /* a signal handler's frame: the walk goes on from where the
           * signal interrupted the thread, as amon_hook_settle sees a
           * sample, the frames gone there popped (dash 0.5.12's kill
           * builtin calls number, which calls atomax, then kill(2), whose
           * handler found atomax's slot, in the red zone under the
           * builtin's frame, untouched, and was taken for its callee) */
          const ucontext_t *uc = (const ucontext_t *) (slot + 8);
          sp = (uintptr_t) uc->uc_mcontext.gregs[REG_RSP];
          while (f != t->stack && amon_same_stack (f->sp, sp) && f->sp < sp)
            f--;
          while (amon_slot_readable (t, f->sp, sp) && *(const uintptr_t *) f->sp != (uintptr_t) f->site)
            f--;
          /* as a call from the interrupted pc: its slot just under sp */
          ret = (uintptr_t) uc->uc_mcontext.gregs[REG_RIP] + 1;
          slot = sp - 8;
          rbp = (uintptr_t) uc->uc_mcontext.gregs[REG_RBP];
          continue;
        }
#endif
      if (k->offset <= 0 || (k->via_rbp && rbp == AMON_NO_RBP))
        return WALK_UNTOLD;
      uintptr_t cfa = (k->via_rbp ? rbp : slot + 8) + (uintptr_t) k->offset;
      uintptr_t up = cfa - 8;
      if (!amon_slot_readable (t, up, sp) || up <= slot)
        return WALK_UNTOLD;
      if (k->rbp == AMON_RBP_LOST)
        rbp = AMON_NO_RBP;
      else if (k->rbp != 0)
        {
          uintptr_t at = cfa + (uintptr_t) (intptr_t) k->rbp;
          rbp = amon_slot_readable (t, at, sp) ? *(const uintptr_t *) at : AMON_NO_RBP;
        }
      while (f != t->stack && f->sp < up)
        f--;
      uintptr_t above = *(const uintptr_t *) up;
      if (f != t->stack && f->sp == up)
        {
          if (above == (uintptr_t) f->site)
            {
              int away = foreign (t, ret, f, plain);
              if (away < 0)
                return WALK_DECLINED;
              if (!away)
                {
                  *out = f;
                  return WALK_FOUND;
                }
            }
          f--; /* returned: another call's address is in its slot, or another routine's frame */
        }
      ret = above;
      slot = up;
    }
  return WALK_UNTOLD;
}

AMON_FN amon_frame *
amon_walk_up (amon_thread *t, amon_frame *f, uintptr_t ret, uintptr_t slot, uintptr_t rbp)
{
  amon_frame *w = NULL;
  return walk (t, f, ret, slot, rbp, 0, &w) == WALK_FOUND ? w : NULL;
}

AMON_FN amon_frame *
amon_walk_site (amon_thread *t, amon_frame *f, uintptr_t site, uintptr_t slot, uintptr_t rbp, int plain)
{
  const amon_site *e = site_of (t, site, plain);
  if (e == NULL)
    return NULL;
  uintptr_t o = e->owner;
  amon_frame *w = NULL;
  int r = walk (t, f, site, slot, rbp, plain, &w);
  if (r == WALK_DECLINED)
    return NULL;
  int known = r == WALK_FOUND;
  if (known)
    f = w;
  else if (o == 0)
    return f;
  while (f != t->stack)
    {
      if ((uintptr_t) f->fn - o < AMON_ENTRY_REACH)
        {
          amon_machine_learn (&t->m, f->ctx, site);
          return f;
        }
      if (known || f - 1 == t->stack || (uintptr_t) f[-1].fn - o >= AMON_ENTRY_REACH)
        break;
      f--;
    }
  if (known)
    {
      /* a library's call under @f: the next from here needs no walk */
      t->foreign_site = site;
      t->foreign_ctx = f->ctx;
    }
  return f;
}
