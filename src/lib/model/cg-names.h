/* cg-names.h — function names as the views for people print them.
 *
 * Demangled (cg_demangle, as gprof prints them) or as the linker sees
 * them, each demangled once: a report may print a name on thousands of
 * lines.  The formats for
 * programs (tsv, XML, callgrind, folded) keep the linker's names.
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

typedef struct _CgNames CgNames;

/* The names of @graph's functions, demangled when @demangle.  Borrows
 * @graph, whose functions must not change until freed. */
CgNames *cg_names_new (CgGraph *graph, gboolean demangle);
void cg_names_free (CgNames *names);

/* The name of @f as shown (owned by @names). */
const char *cg_names_get (CgNames *names, CgFunctionId f);

/* Labels for views of a few lines each (cgtree's): a bare address, as
 * callgrind names code without a symbol, loses its leading zeros
 * (0x1ab70); objects show by file name (cg_names_object).  Reports that
 * list every function keep the linker's names and whole paths, as
 * cgcost's tsv does, but for the object they too give a bare address
 * (cg_names_append_label). */
void cg_names_set_short (CgNames *names);

/* Names without C++ parameter lists and template arguments
 * (cg_strip_cxx), as gprof2dot's --strip shows them; labels then show
 * no linker name beside twins either (cg_names_append_label). */
void cg_names_set_strip (CgNames *names);

/* The object of @f as shown: its file name, or its whole path where
 * another object of the graph has the same file name (owned by @names or
 * the graph). */
const char *cg_names_object (CgNames *names, CgFunctionId f);

/* Appends the label of @f as shown: its name; " [linker name]" when
 * another linker name demangles to the same name (a constructor's
 * complete and base-object symbols); " [object]" when the linker's name
 * is ambiguous (cg_graph_function_is_ambiguous), and when it is an
 * address (code without a symbol, which means nothing without its
 * object), the object as cg_names_object shows it. */
void cg_names_append_label (CgNames *names, GString *out, CgFunctionId f);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgNames, cg_names_free)

G_END_DECLS
