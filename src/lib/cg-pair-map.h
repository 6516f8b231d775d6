/* cg-pair-map.h — private: a map from a pair of 32-bit ids to a 32-bit id.
 *
 * The graph core interns functions by (object, name) and arcs by (caller,
 * callee), millions of them.  A GHashTable would need one heap-allocated key
 * per entry (or a global array to hash through), so this is a small
 * open-addressing table storing the pairs inline: 12 bytes per slot, load
 * factor at most 3/4, expected O(1) per operation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgPairMap CgPairMap;

#define CG_PAIR_MAP_NONE G_MAXUINT32

CgPairMap *cg_pair_map_new (void);
void cg_pair_map_free (CgPairMap *map);

/* Value for (a, b), or CG_PAIR_MAP_NONE. */
guint32 cg_pair_map_lookup (const CgPairMap *map, guint32 a, guint32 b);

/* Value for (a, b); when absent, stores @value (which must not be
 * CG_PAIR_MAP_NONE) and returns it. */
guint32 cg_pair_map_insert (CgPairMap *map, guint32 a, guint32 b, guint32 value);

guint cg_pair_map_size (const CgPairMap *map);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPairMap, cg_pair_map_free)

G_END_DECLS
