/* cg-lookup.h — the functions a name typed by a person means.
 *
 * Options such as cgtree's --root take a function's name, and a C++
 * function's full name is long: "YAML::Parser::HandleNextDocument
 * (YAML::EventHandler&)", where a person types "HandleNextDocument" or
 * "Parser::HandleNextDocument", as gdb's "break" and perf report's
 * --symbol-filter let them.  The rule, in order:
 *
 *  1. Exactly: the functions one of whose names equals the typed one
 *     (cg_focus_match: as the linker sees it or demangled, or as
 *     "name [object]"); all of them (one name in several objects).
 *  2. Else by its end: the functions whose demangled name, without
 *     parameter lists, template arguments (cg_strip_cxx) and compilers'
 *     clone suffixes (cg_strip_clone_suffixes), is the typed name so
 *     stripped, or ends with it after "::" or a space (a template's
 *     return type).  Where several do, those whose demangled name ends
 *     so with the name as typed (its parameters or template arguments
 *     tell them apart), then those that are no clone, where one of them
 *     is left.
 *  3. Several left: an error listing them (up to ten).  None: an error
 *     naming the closest names (the typed name inside theirs, ignoring
 *     case, or within a few edits of their last components).
 *
 * Complexity: O(functions × name length) per typed name; no recursion.
 */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

/* The functions of @graph that @typed names by the rule above, in index
 * order: a new array of CgFunctionId (transfer full), never empty; or
 * NULL with CG_ERROR_USAGE, whose message starts "--@option=@typed: "
 * and lists the functions that match (several, unless @all: then they
 * are all returned) or the closest names (none). */
GArray *cg_lookup_functions (CgGraph *graph, const char *option, const char *typed, gboolean all, GError **error);

/* Appends to @out "; the closest: A, B, C" with up to five names of
 * @graph's functions (demangled) close to @typed, or nothing where none
 * is close. */
void cg_lookup_append_closest (CgGraph *graph, const char *typed, GString *out);

G_END_DECLS
