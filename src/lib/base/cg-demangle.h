/* cg-demangle.h — symbol names as people read them, as GNU gprof prints
 * them.
 *
 * gprof (binutils 2.40, utils.c print_name_only) prints every name
 * through bfd_demangle with DMGL_ANSI | DMGL_PARAMS, which strips leading
 * '.' and '$' characters and an '@' version suffix, demangles the rest
 * with libiberty's cplus_demangle (C++ Itanium ABI and Rust; D only
 * with DMGL_DLANG, which gprof does not pass; C names come back
 * unchanged) and puts prefix and suffix back.  The same libiberty
 * does it here, so names come out exactly as gprof prints them; it is a
 * static library with no run-time dependency.  Built without libiberty
 * (configure found none), nothing is demangled.
 *
 * Names are demangled only for printing: functions keep their linker
 * names, which gprof's sort orders and symbol specs use.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether a demangler was built in. */
gboolean cg_demangle_available (void);

/* The demangled form of @name, or NULL when @name is not a mangled name
 * (or no demangler was built in).  (transfer full): g_free it. */
char *cg_demangle (const char *name);

/* The demangled form of @name as perf prints it by default (perf script
 * and perf report without -v, perf 6.1's symbol-elf.c): libiberty's
 * cplus_demangle with no options, which leaves out the parameter list,
 * the return type and clone suffixes ("_ZL8depth_ofPKN8tinyxml27XMLNodeE
 * .isra.0" reads "depth_of", a template function "ns::make<int, 2>"); an
 * "@VERSION" suffix is kept.  NULL as cg_demangle.  (transfer full). */
char *cg_demangle_plain (const char *name);

/* @name (a demangled C++ name) without its parameter lists and template
 * arguments, as gprof2dot's --strip shows names: "void std::vector<int,
 * std::allocator<int> >::push_back(int const&)" reads "void
 * std::vector::push_back".  Operator names ("operator<<", "operator()")
 * and parenthesized parts that are no argument list ("(anonymous
 * namespace)", valgrind's "(below main)") stay; qualifiers after a
 * parameter list (" const", " &") go with it.  A name whose brackets do
 * not balance comes back whole.  (transfer full): g_free it. */
char *cg_strip_cxx (const char *name);

/* The length of the first @len bytes of @name without the suffixes
 * compilers add to clones of a function, as they appear after a mangled,
 * plain or demangled name, with or without a number: gcc's .constprop.N,
 * .isra.N, .part.N, .cold, .lto_priv.N, .localalias, clang's .llvm.N,
 * and demangled " [clone .constprop.0]" ("f.part.0.cold" is "f"). */
gsize cg_strip_clone_suffixes (const char *name, gsize len);

G_END_DECLS
