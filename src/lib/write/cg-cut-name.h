/* cg-cut-name.h — a function's name cut to a width for a text view.
 *
 * Where a name is wider than its room, what goes is what says least of
 * which function it is: what a view adds in brackets (the object of an
 * address, of a name several objects define, or a linker name: its
 * middle, then all of it), a library's symbol version ("@@GLIBC_2.34"),
 * a compiler's clone suffixes (".part.0", " [clone .isra.0]"),
 * a C++ name's parameter list (its middle), its
 * template arguments ("<…>": those of the classes and namespaces before
 * the function's own name and those nested in the function's own, then
 * the function's own), the list whole, and whole components of what
 * stands before the function's own name, from its middle
 * ("deeply::…Table<…>::insert_value(…)"), and so for a qualified name
 * without a list (--strip's: "…basic_string::_M_append", its ABI tags
 * before its own name); only where even the function's own name does
 * not fit, its start.  Brackets are ASCII, so the name is
 * scanned by bytes; widths are counted as UTF-8 characters.  Linear in
 * the name's length.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * cg_cut_name:
 * @out: where the name goes
 * @name: the name as a view shows it (demangled), without colours
 * @cols: its width, in UTF-8 characters
 * @cap: the columns it may take (at least the width of @mark and one more)
 * @mark: what marks a cut ("…", or "..." where the locale is not UTF-8)
 *
 * Appends @name, whole where it fits in @cap columns, else cut to at
 * most @cap by the steps the header lists, each part that went marked
 * @mark.
 */
void cg_cut_name (GString *out, const char *name, gsize cols, gsize cap, const char *mark);

G_END_DECLS
