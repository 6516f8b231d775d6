/* cg-json-lex.h — what json-glib would get wrong in a JSON text, found
 * before json-glib sees it.
 *
 * json-glib's parser descends one C call per '[' or '{' (json-glib 1.6:
 * json_parse_value), so a document nested a million deep ends the
 * process on a full stack instead of an error; and it reads an integer
 * past 64 bits as a wrong value without an error (99999999999999999999
 * as -1, 9223372036854775808 as its negative).  A reader that hands
 * json-glib another's bytes checks them here first: one pass, skipping
 * strings, counting brackets and reading each integer's digits.
 * Brackets that do not match, and numbers JSON does not allow, are left
 * to json-glib, which names them.
 *
 * Complexity: O(bytes), no allocation.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CG_JSON_LEX_OK,
  CG_JSON_LEX_DEEP,     /* arrays and objects nested deeper than the limit */
  CG_JSON_LEX_INTEGER,  /* an integer outside [-2^63, 2^63) */
} CgJsonLex;

/* What is wrong with the JSON text @data (@len bytes) for json-glib:
 * CG_JSON_LEX_OK, or the first fault, with *@line and *@column (1-based,
 * the column in bytes, as json-glib counts) where the bracket that passes
 * @max_depth, or the integer too large, begins.  A number with a fraction
 * or an exponent is json-glib's double, never a fault here. */
CgJsonLex cg_json_lex_check (const char *data, gsize len, guint max_depth, guint64 *line, guint64 *column);

G_END_DECLS
