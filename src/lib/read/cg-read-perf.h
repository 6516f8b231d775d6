/* cg-read-perf.h — reader for the text `perf script` prints.
 *
 * Linux perf's sampled call stacks (formats/perf.md).  Each sample is a
 * header line (the fields -F chose: comm, pid/tid, [cpu], time, period,
 * event, in that order, as perf's builtin-script.c prints them) followed,
 * when perf recorded call chains (-g), by one line per frame, leaf first:
 *     TAB, the address right-aligned in 16 columns, and as -F chose, a
 *     blank and the symbol (+0xOFFSET with symoff), " (DSO)", and
 *     " (inlined)" for frames perf's --inline adds (they have no DSO);
 * each frame line may be followed by a source line ("  file.c:12", with
 * srcline), and a blank line ends the sample.  A sample without a call
 * chain is one line: the header, then the address, symbol and DSO.
 * Samples whose event is PERF_RECORD_* (--show-*-events) are skipped, as
 * are '#' lines between samples (--header).
 *
 * What is built (Kaes 2005, "Computing the call graph"), as for folded
 * stacks: each sample is a path in the call tree G_0, root first (perf
 * prints the leaf first), its cost added to the self cost of the path's
 * last frame; the graph merges frames of the same function (object, name):
 * the object is the DSO as perf printed it, the name the symbol without
 * its +0xOFFSET; an [unknown] symbol is named "[DSO's base name]" (or
 * "[unknown]"), as stackcollapse-perf.pl names it; an inlined frame gets
 * the object of the frame of its address that is not inlined (none when
 * perf printed none).  The root frame is the
 * process as @options->split says (cg-read-options.h; object
 * "[process]"), and kernel frames are kept, dropped or annotated as
 * @options->kernel says.  A sample left without frames is charged to its
 * root frame, else to "[kernel]" (all its frames were dropped) or
 * "[unknown]" (perf printed none).
 *
 * Events: each event name is its own event of the profile; a sample's
 * cost is its period when the layout has one (unit "ns" for cpu-clock
 * and task-clock, whose periods are nanoseconds, else "events"), else 1
 * (unit "samples").  A layout without event names gives one event,
 * "period" or "samples".  Call counts are 0: sampling records none.
 *
 * Complexity: one pass, O(bytes), one hash look-up per frame; no
 * recursion (a deep stack is a loop); where inlined frames are placed
 * afterwards (CgPerfInlined), one rebuild of the graph and tree.
 */
#pragma once

#include <glib.h>

#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Adds the samples of the perf script text @input to @profile (its call
 * tree, created when absent, and its graph).
 * Errors ("NAME:LINE: ..."), CG_ERROR_PARSE: a header that has neither
 * the fields of the first sample's nor those of its event's first sample
 * (perf script prints each kind of event with its own), a frame line
 * without a sample, a
 * frame line that is not TAB, address, symbol, (DSO), no blank line after
 * a call chain, the input ending inside a sample (truncated), text that
 * is not perf script's; with @options->lenient such samples are skipped
 * and one warning gives their number and the first.  CG_ERROR_OVERFLOW
 * when a 64-bit cost sum overflows or the tree would exceed 2^32 frames;
 * CG_ERROR_MISMATCH when an event exists with another unit. */
gboolean cg_read_perf (CgProfile *profile, CgInput *input, const CgReadOptions *options, GError **error);

/* A sample held back uncharged by a pass (CgPerfPass): its ordinal
 * among the input's samples, and the frame (its path is in the tree),
 * event and cost it is to be charged to. */
typedef struct {
  guint64 ordinal;
  CgFrameId frame;
  guint event;
  guint64 value;
} CgPerfHeld;

/* The functions of a perf input's inlined frames, as read: perf prints
 * no object for an inlined frame ("work+0x29 (inlined)"), which takes
 * the object of the frame perf printed at the same address that is not
 * inlined.  Where there is none (with --call-graph dwarf, a caller's
 * address whose whole inline chain perf printed, the outermost function
 * by its DWARF name where the ELF symbol's is another, such as a C++
 * function's mangled name), the frame's function has no object; it is
 * the function of that name that other inlined frames of the input have
 * in an object, where exactly one object has one.  And the last inlined
 * frame perf printed after a symbol at its address is the symbol's own
 * function by its DWARF name ("work" after "_ZL4workj"): merged into the
 * symbol's where one symbol is so named and no frame of that name was
 * inlined into another function.  The profile's functions before the
 * input are left alone. */
typedef struct _CgPerfInlined CgPerfInlined;

/* (transfer full) For an input about to be read into @profile. */
CgPerfInlined *cg_perf_inlined_new (CgProfile *profile);
void cg_perf_inlined_free (CgPerfInlined *inlined);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPerfInlined, cg_perf_inlined_free)

/* Merges each inlined frame's function without object into the function
 * of its name in an object, as @inlined says, once the input is read (the
 * profile's graph is rebuilt: cg_merge_functions).  Left alone in a
 * profile with a gmon.out histogram, whose credits are by function.
 * FALSE (CG_ERROR_OVERFLOW) when merged costs exceed 64 bits. */
gboolean cg_perf_place_inlined (CgProfile *profile, CgPerfInlined *inlined, GError **error);

/* How cg_read_perf_as reads perf script text that stands for a perf.data
 * (cg-read-perf-data.c reads it twice where call chains came out empty:
 * perf drops a whole chain where it meets an entry it does not know, such
 * as the ffffffffffffffff that ends some of cc1's frame-pointer chains). */
/* the largest copy of a user stack perf record takes (--call-graph
 * dwarf,65528: a sample's size is 16 bits, less its other fields) */
#define CG_PERF_STACK_USER_MAX 65528

typedef struct {
  GArray *held;         /* nullable: collects CgPerfHeld, those samples not charged */
  gboolean hold_all;    /* holds every sample read, not only those perf printed with an empty chain */
  const GArray *select; /* nullable: ascending guint64 ordinals, the only samples read */
  gboolean no_source;   /* records no source (a second pass over the same file) */
  CgPerfInlined *inlined; /* nullable: the inlined frames' functions are noted there */
  /* the bytes of each user stack perf record --call-graph dwarf copied
   * (perf_event_attr.sample_stack_user), 0 for none: chains that end in
   * an unknown frame were then probably cut where the copy ends, unless
   * it is CG_PERF_STACK_USER_MAX */
  guint32 stack_user;
  guint64 n_samples;    /* out: the samples in the input */
} CgPerfPass;

/* cg_read_perf for perf script text that stands for another input (a
 * perf.data read through perf script): the profile's source is recorded
 * with @format and @path instead of "perf" and the input's name; @pass
 * (nullable) as it says. */
gboolean cg_read_perf_as (CgProfile *profile, CgInput *input, const CgReadOptions *options, const char *format,
                          const char *path, CgPerfPass *pass, GError **error);

/* Charges the samples of @held (CgPerfHeld) to their frames.  FALSE
 * (CG_ERROR_OVERFLOW, "@name: ...") when a 64-bit sum overflows. */
gboolean cg_perf_charge_held (CgProfile *profile, const GArray *held, const char *name, GError **error);

/* The row of cg-formats.h's table: the first lines of @data are a sample
 * as perf script prints it.  Either a header line followed by a frame
 * line (TAB and an address right-aligned in exactly 16 columns) and then
 * only frame and source lines up to a blank line or the end of @data;
 * or an empty line and such frame lines (a layout without header
 * fields); or one-line samples (no call chains) whose header ends in an
 * event name, an address and a symbol. */
gboolean cg_perf_detect (const guint8 *data, gsize len, gboolean complete);

G_END_DECLS
