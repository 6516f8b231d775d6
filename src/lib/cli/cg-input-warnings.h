/* cg-input-warnings.h — the readers' warnings over many inputs, each kind
 * said once. */
#pragma once

#include <glib.h>

#include "cg-progress-line.h"

G_BEGIN_DECLS

/* The warnings of one reading of inputs (a tool's, or --base's).  A
 * program's forked children or a series of runs give hundreds of inputs
 * that draw the same warning each, their numbers aside ("gmon.out.4711:
 * 100.0% of the samples ... lie in local functions that gprof does not
 * count"): the first is printed whole, the later ones of its kind (the
 * text after the input's name, its numbers aside) are counted and said
 * in one line at the end.  The members of an archive ("NAME(MEMBER): ")
 * are inputs so, and a kind one input draws twice is printed twice. */
typedef struct _CgInputWarnings CgInputWarnings;

/* Prints on standard error, through @progress (nullable; borrowed, must
 * outlive the result), each line as "PROGRAM: warning: MESSAGE". */
CgInputWarnings *cg_input_warnings_new (CgProgressLine *progress);
void cg_input_warnings_free (CgInputWarnings *warnings);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgInputWarnings, cg_input_warnings_free)

/* The input being read now (its name as the readers print it, copied;
 * NULL: none): a message that starts with "NAME: " is of that input,
 * one that starts with "NAME(MEMBER): " of that member of it. */
void cg_input_warnings_set_input (CgInputWarnings *warnings, const char *name);

/* A CgReadOptions warn callback (user data: a CgInputWarnings). */
void cg_input_warnings_warn (const char *message, gpointer warnings);

/* Says, for each kind drawn by more than one input, how many more drew it
 * and the last of them. */
void cg_input_warnings_finish (CgInputWarnings *warnings);

G_END_DECLS
