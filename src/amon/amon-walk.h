/* amon-walk.h — which frame of the shadow stack made a call, found by
 * walking up the real stack with the unwind tables (the -pg mode with the
 * sampling clock, which sees no return when it happens).
 *
 * A call from a return address that the top frame's routine was not seen
 * to call from (amon_lazy_site_known) may come from a frame below it
 * whose callees returned with their slots left alone (a library's frames
 * that call back, qsort(3)'s; the padding gcc leaves over a return
 * address before pushed arguments).  The call frame information at the
 * call (amon-cfa.h) gives the calling routine's own return-address slot,
 * and so, step by step, the frame that made it.
 *
 * Built, like the context machine, to use no vector register
 * (libamon-fast.la): with @plain, the walk reads only what the thread
 * knows already of each return address it passes (amon_thread.owners,
 * filled by walks that were not plain) and calls nothing, so that the
 * hooks' common C code (amon-fast.c) makes it without keeping the vector
 * state; when it would need more (a return address not known, a look-up
 * of the objects), it declines, having changed nothing, and the hooks'
 * slow way walks again, not plain.  Cost: one step per frame passed, a
 * look-up in t->owners each; a return address not known costs a binary
 * search in the object's unwind-table index and a reading of its FDE
 * (amon_owner, amon_cfa_at).
 */
#ifndef AMON_WALK_H
#define AMON_WALK_H

#include "amon-thread.h"

/* A frame pointer no routine has (odd): the calling routine's %rbp is
 * not known. */
#define AMON_NO_RBP 1

/* The frame of @t's shadow stack, at or below @f, that made the call
 * whose return address @ret lies at @slot: frames below the calling
 * routine's slot are gone, a frame at it whose return address is still
 * there made the call (unless the calling routine lies in another
 * object: then that frame returned and a library's routine took its
 * slot), and when there is none the calling routine is not on the
 * shadow stack (a library's that calls back) and the walk goes on to its
 * caller; when every frame is gone, the root made it.  @rbp is the
 * calling routine's %rbp, or AMON_NO_RBP.  NULL when the tables cannot
 * tell (a step without CFI, a frame pointer not known, a slot beyond the
 * readable stack, more than 64 steps).  Not plain: may call the C
 * library (amon_owner). */
amon_frame *amon_walk_up (amon_thread *t, amon_frame *f, uintptr_t ret, uintptr_t slot, uintptr_t rbp) AMON_FN AMON_HIDDEN;

/* A call from return address @site (at @slot; @rbp as above), not among
 * those seen from the top frame @f's routine: the frame that made it,
 * found by amon_walk_up.  When @site is in that frame's routine, its
 * context learns the site (amon_site_learn); otherwise (a library's
 * routine between, calling back) the thread remembers the site and the
 * frame's context (t->foreign_site, t->foreign_ctx), so that the next
 * such call needs no walk.  When the walk cannot tell: if the unwind
 * tables' index says that @site is in @f's routine, the context learns
 * it; if in the routine of @f's caller, @f returned and the caller calls
 * (and so on down); otherwise (a site in no object the tables cover) @f
 * stands.  With @plain, NULL when it declined (above), nothing changed. */
amon_frame *amon_walk_site (amon_thread *t, amon_frame *f, uintptr_t site, uintptr_t slot, uintptr_t rbp,
                            int plain) AMON_FN AMON_HIDDEN;

#endif
