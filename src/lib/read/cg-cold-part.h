/* cg-cold-part.h — the part of a function gcc splits off as cold.
 *
 * gcc (hot/cold splitting, -freorder-blocks-and-partition, on at -O2)
 * moves the blocks of a function that lead to a cold call, a throw or an
 * abort into a part of its own in .text.unlikely, named NAME.cold (gcc 9
 * on) or NAME.cold.N (gcc 8), for a linker name NAME (C++'s mangled, so
 * _ZL5checkl.cold).  The part runs in the function's activation, reached
 * by a jump: its cost is the function's, and readers that see it by its
 * symbol count it as NAME's.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The length of @name (@len bytes) without a cold part's suffix, or @len
 * where it has none. */
gsize cg_cold_part_base (const char *name, gsize len);

G_END_DECLS
