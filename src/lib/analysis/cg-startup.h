/* cg-startup.h — the start-up code above a program's main.
 *
 * Every profile of a glibc program starts with the same few frames before
 * main: the dynamic loader's entry (an address in ld-linux*.so, which
 * has no symbol there), _start, __libc_start_main (and
 * __libc_start_call_main; callgrind calls the two "(below main)"), and
 * for threads start_thread under clone/clone3.  They carry the whole
 * profile's cost and say nothing about the program, so cgtree passes over
 * them (cg_display_tree_new_full's skip): main and the thread start
 * routines become roots, with the loader's own work (_dl_start) beside
 * them.  The names are glibc's and valgrind's (callgrind_annotate and
 * gprof2dot show them as roots; perf report and pprof hide them by
 * default or on request).
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

/* Flags per function of @graph (transfer full, g_free): 1 for start-up
 * code as above.  *@n_found gets how many. */
guint8 *cg_startup_functions (CgGraph *graph, guint *n_found);

/* Whether @name is start-up code by its name alone (the loader's entry
 * also needs its object: cg_startup_functions). */
gboolean cg_startup_name (const char *name);

G_END_DECLS
