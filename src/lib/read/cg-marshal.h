/* cg-marshal.h — a bounds-checked scanner of Python's marshal format, for
 * readers that know the shape of what they read (cg-read-pstats).
 *
 * The format is CPython's Python/marshal.c (and the marshal module's
 * documentation): each object is a type byte and its payload, integers
 * little-endian.  What a profile holds is read: '{' a dict, key and
 * value objects until a '0'; '(' a tuple of a 32-bit count, ')' of a
 * one-byte count (version 4); 'i' a 32-bit signed integer, 'I' a 64-bit
 * one (Python 2), 'l' an integer of a signed 32-bit count of 15-bit
 * digits, low first (the count's sign is the number's); 'g' a binary
 * double (version 2 on), 'f' one as text of a one-byte length (versions
 * 0 and 1); strings 'u' (UTF-8), 's' (bytes: Python 2's str), 't'
 * (interned), 'a', 'A' (ASCII) of a 32-bit length, 'z', 'Z' of a
 * one-byte length; 'N' None; 'R' (versions 1 and 2) the Nth string read
 * as 't'.  From version 3 on, a type byte with 0x80 set (FLAG_REF) enters
 * its object in a table of references, in the order the objects start (a
 * container's entry is taken before its contents are read, a scalar's
 * when read: marshal.c's r_ref_reserve and R_REF), and 'r' with a 32-bit
 * index stands for that object again.  Versions differ only in which of
 * these they write, so none is asked for.
 *
 * The scanner never descends by itself: a container's item is its count
 * (a tuple) or nothing (a dict), and the caller reads its members next,
 * as the shape it expects says, so nothing here recurses and nothing in
 * the data sets a depth.  Every count and length is checked against the
 * bytes left before it is used, and every reference against the table.
 * A reference to a container yields CG_MARSHAL_CONTAINER_REF: the caller
 * gave that container a meaning when it read it (cg_marshal_set_meaning),
 * and gets it back.  Code objects (the pure-Python profile module's entry
 * for the command it ran) are skipped as a whole (cg_marshal_skip_code).
 *
 * Errors: CG_ERROR_TRUNCATED where the data end inside an object,
 * CG_ERROR_PARSE for an unknown type byte, a bad reference, a digit out
 * of range, "NAME: offset N: what was found, what was expected"
 * (cg_read_fail).  Complexity: O(bytes).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  CG_MARSHAL_NONE,          /* 'N' */
  CG_MARSHAL_INT,           /* 'i', 'I', 'l': value in n (or big) */
  CG_MARSHAL_FLOAT,         /* 'g', 'f': value in x */
  CG_MARSHAL_STRING,        /* bytes s[0..len), not NUL-terminated */
  CG_MARSHAL_TUPLE,         /* count in n; its members follow */
  CG_MARSHAL_DICT,          /* its keys and values follow, then DICT_END */
  CG_MARSHAL_DICT_END,      /* '0' */
  CG_MARSHAL_CODE,          /* 'c': a code object, to skip */
  CG_MARSHAL_CONTAINER_REF, /* 'r' to a tuple or dict read before: meaning */
  CG_MARSHAL_OTHER,         /* any other object (type byte in type) */
} CgMarshalKind;

typedef struct {
  CgMarshalKind kind;
  guint8 type;      /* the type byte without FLAG_REF (CONTAINER_REF: the container's) */
  guint64 offset;   /* of its type byte (of the 'r' for a reference) */
  gint64 n;         /* INT (when !big), TUPLE's count */
  gboolean big;     /* INT: beyond 64 bits */
  gdouble x;        /* FLOAT */
  const guint8 *s;  /* STRING: borrowed from the data */
  gsize len;
  guint32 ref;      /* the table's entry it took (TUPLE, DICT), or CG_MARSHAL_NO_REF */
  guint64 meaning;  /* CONTAINER_REF: what the caller set for it */
} CgMarshalItem;

#define CG_MARSHAL_NO_REF G_MAXUINT32

typedef struct _CgMarshal CgMarshal;

/* A scanner over @len bytes at @data (borrowed), named @name in errors. */
CgMarshal *cg_marshal_new (const guint8 *data, gsize len, const char *name);
void cg_marshal_free (CgMarshal *m);

/* Offset of the next object. */
guint64 cg_marshal_offset (const CgMarshal *m);
/* Whether all bytes have been read. */
gboolean cg_marshal_at_end (const CgMarshal *m);

/* Reads the next object's item (a scalar whole, a container's head).
 * Errors as above. */
gboolean cg_marshal_next (CgMarshal *m, CgMarshalItem *item, GError **error);

/* Gives the container of @item (TUPLE or DICT that took an entry) the
 * meaning @meaning, which references to it return.  A reference to a
 * container not yet given one (one inside itself) is an error. */
void cg_marshal_set_meaning (CgMarshal *m, const CgMarshalItem *item, guint64 meaning);

/* Skips the rest of the code object whose item (CG_MARSHAL_CODE) was just
 * read, entering its referenced objects in the table as marshal.c does,
 * with an explicit stack (code objects nest in their constants).  The
 * layouts of Python 3.8 to 3.10 (six 32-bit fields first) and 3.11 on
 * (five) are told by where the bytecode's string starts.  Errors as
 * above; CG_ERROR_PARSE for a code object of another layout. */
gboolean cg_marshal_skip_code (CgMarshal *m, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgMarshal, cg_marshal_free)

G_END_DECLS
