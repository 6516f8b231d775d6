/* cg-perf-depths.h — private: the lengths of perf's call chains, to tell
 * chains perf cut.
 *
 * The kernel records at most kernel.perf_event_max_stack entries of a
 * call chain (127 by default; perf record -g), and perf script prints at
 * most --max-stack frames (the same sysctl by default); a deeper stack
 * loses its outer frames, main among them, and with them what the
 * sample costs in their totals.  Nothing in the text says so; but cut
 * chains pile up at exactly the limit, where natural depths spread: GNU
 * make 4.3's $(call) recursion, recorded with frame pointers, had 1,492
 * of its 2,176 samples at 127 frames and none longer.  A tally of
 * samples per chain length, O(1) a sample, memory linear in the longest
 * chain.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgPerfDepths CgPerfDepths;

/* the shortest chain taken as cut: perf's default limit */
#define CG_PERF_DEPTHS_LIMIT 127

CgPerfDepths *cg_perf_depths_new (void);
void cg_perf_depths_free (CgPerfDepths *depths);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPerfDepths, cg_perf_depths_free)

/* Counts a sample whose call chain has @frames frames (the kernel's and
 * the program's, not perf's inlined ones, which the limit does not
 * count). */
void cg_perf_depths_add (CgPerfDepths *depths, guint frames);

/* Whether chains look cut at perf's default limit: at least two samples
 * have exactly CG_PERF_DEPTHS_LIMIT frames, more than have one frame
 * fewer, and more than have more (a kernel's frames above a program's
 * cut chain: perf script prints a DWARF-unwound chain's 127 frames of the
 * program under the kernel's).  Then *@n_cut is how many samples have
 * that length, *@n_samples how many were counted in all.  Only that
 * length: a program that recurses to one depth puts its samples at one
 * length of its own (300 calls deep, 306 frames), which no limit cut. */
gboolean cg_perf_depths_cut (const CgPerfDepths *depths, guint64 *n_cut, guint64 *n_samples);

G_END_DECLS
