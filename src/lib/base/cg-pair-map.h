/* cg-pair-map.h — private: an index from a pair of 32-bit ids to a 32-bit
 * id, over records the caller keeps.
 *
 * The graph core interns functions by (object, name), the call tree its
 * frames by (parent, function), readers their contexts, millions of them.
 * The pairs are already stored in the caller's records, so a slot holds
 * only a 32-bit hash tag of the pair and the value (8 bytes, at most 3/4
 * full); a slot whose tag matches is confirmed by asking the caller for
 * the value's pair.  Expected O(1) per operation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgPairMap CgPairMap;

#define CG_PAIR_MAP_NONE G_MAXUINT32

/* Stores in *@a and *@b the pair that @value was inserted with. */
typedef void (*CgPairMapKeyFunc) (gconstpointer user_data, guint32 value, guint32 *a, guint32 *b);

/* @key_func (with @user_data) tells the pair of a stored value. */
CgPairMap *cg_pair_map_new (CgPairMapKeyFunc key_func, gconstpointer user_data);
void cg_pair_map_free (CgPairMap *map);

/* Value for (a, b), or CG_PAIR_MAP_NONE. */
guint32 cg_pair_map_lookup (const CgPairMap *map, guint32 a, guint32 b);

/* Value for (a, b); when absent, stores @value (which must not be
 * CG_PAIR_MAP_NONE, and whose pair the key function must tell as (a, b)
 * from now on) and returns it. */
guint32 cg_pair_map_insert (CgPairMap *map, guint32 a, guint32 b, guint32 value);

guint cg_pair_map_size (const CgPairMap *map);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgPairMap, cg_pair_map_free)

G_END_DECLS
