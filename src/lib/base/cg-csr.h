/* cg-csr.h — private: grouping items by a key, as compressed rows.
 *
 * The graph's adjacency (arcs by caller or callee), a tree's children
 * (frames by parent) and the display tree's children are all the same
 * thing: items 0..n-1 grouped by a key, each group in item order.  A
 * counting sort builds it in O(n + keys), with two arrays and no per-item
 * allocation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Item i is the record at @records + i * @record_size (nullable when
 * @n_items is 0); its key is the guint32 at @key_offset in it (< n_keys,
 * or G_MAXUINT32 for none).  Afterwards the items of key k are
 * (*items)[(*start)[k] .. (*start)[k + 1]), in increasing order.  Frees
 * what *start and *items held before. */
void cg_csr_build (gconstpointer records, gsize record_size, gsize key_offset, guint n_items, guint n_keys,
                   guint32 **start, guint32 **items);

/* As cg_csr_build, and (*values)[j] is the guint32 at @value_offset in
 * item (*items)[j]: a field of each item, in the rows' order, read without
 * going through the item (the records are read in order, once). */
void cg_csr_build_with_values (gconstpointer records, gsize record_size, gsize key_offset, gsize value_offset,
                               guint n_items, guint n_keys, guint32 **start, guint32 **items, guint32 **values);

G_END_DECLS
