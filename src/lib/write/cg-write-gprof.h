/* cg-write-gprof.h — gprof's brief (-b) report: flat profile, call graph
 * and index, byte for byte as GNU gprof 2.40 prints them (hist.c
 * hist_print, cg_print.c cg_print and cg_print_index), so that the two
 * can be diffed.
 *
 * Layout: the flat profile sorted by self time, calls and name, with the
 * per-call unit chosen as gprof chooses it (ms/call, us/call, ...); the
 * call graph in index order, each entry its parents (biggest contributor
 * last), its primary line and its children, cycles as "<cycle N as a
 * whole>" with their members; names followed by " <cycle N>" and "[index]"
 * (or "(index)" for entries hidden with -e/-E/-Q); the index of names in
 * three columns.  Names are printed demangled when asked, as gprof does
 * by default, while every order still compares the linker names.  Sections after the first begin with a form feed.
 * Column widths overflow exactly as gprof's printf formats do.
 *
 * Complexity: O(|V| log |V| + |E| log |E|).
 */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "cg-gprof.h"

G_BEGIN_DECLS

typedef struct {
  gboolean flat;   /* print the flat profile */
  gboolean graph;  /* print the call graph and its index */
  gboolean zeros;  /* gprof -z: also functions never called and without time */
  guint width;     /* gprof -w: output width for the index (default 80) */
  gboolean demangle; /* print names demangled (gprof's default,
                      * cg-demangle.h); sort orders use linker names */
  const char *notes; /* nullable: lines printed first (the sources'
                      * notes, cg_append_source_notes: what libamon took
                      * out of the times), even with gprof -b */
} CgGprofReport;

/* Writes @report's sections of @gprof to @stream.  Error CG_ERROR_IO when
 * writing fails. */
gboolean cg_write_gprof (const CgGprof *gprof, const CgGprofReport *report, FILE *stream,
                         GError **error);

G_END_DECLS
