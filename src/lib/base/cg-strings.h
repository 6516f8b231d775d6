/* cg-strings.h — private: a table of interned strings with dense ids.
 *
 * A profile names hundreds of thousands of functions, objects and files,
 * each interned once.  A GHashTable keyed by the strings costs 20 bytes or
 * more per slot and hashes a byte at a time; this table stores, per slot,
 * a 32-bit hash tag and the string's id (8 bytes, at most 3/4 full), and
 * hashes eight bytes at a time.  Strings live in a GStringChunk, so their
 * addresses never change.  Expected O(length) per operation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgStrings CgStrings;

#define CG_STRINGS_NONE G_MAXUINT32

CgStrings *cg_strings_new (void);
void cg_strings_free (CgStrings *strings);

/* The id of the @len bytes at @s, which must hold no NUL; a
 * NUL-terminated copy is added when absent.  Ids are dense, from 0, in
 * order of first interning.  CG_STRINGS_NONE only when 2^32-1 strings
 * exist. */
guint32 cg_strings_intern (CgStrings *strings, const char *s, gsize len);

/* The hash tag the table finds the @len bytes at @s by.  Reads no table:
 * a reader may compute it on another thread, for
 * cg_strings_intern_tagged and cg_strings_prefetch. */
guint32 cg_strings_tag (const char *s, gsize len);

/* cg_strings_intern with @tag, which must be cg_strings_tag (@s, @len). */
guint32 cg_strings_intern_tagged (CgStrings *strings, const char *s, gsize len, guint32 tag);

/* Starts loading where the string of @tag is looked for, for an intern
 * soon after (cg_tag_table_prefetch). */
void cg_strings_prefetch (const CgStrings *strings, guint32 tag);

/* The id of the @len bytes at @s, or CG_STRINGS_NONE. */
guint32 cg_strings_lookup (const CgStrings *strings, const char *s, gsize len);

/* The string of @id (NUL-terminated, owned by the table). */
const char *cg_strings_get (const CgStrings *strings, guint32 id);

guint cg_strings_size (const CgStrings *strings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgStrings, cg_strings_free)

G_END_DECLS
