/* jv.h — the values of jqlike, a program written to jq 1.6's shape for
 * bench/amon-overhead.sh: reference-counted values passed by value, and
 * many small functions in their own file (jv.c), called across files as
 * jq calls jv_get_kind, jv_copy and jv_free, so that the compiler cannot
 * inline them away. */
#ifndef JV_H
#define JV_H
#include <stddef.h>

typedef enum { JV_NULL, JV_FALSE, JV_TRUE, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT, JV_INVALID } jv_kind;

struct jv_heap;
typedef struct {
  jv_kind kind;
  double number;
  struct jv_heap *p;
} jv;

jv_kind jv_get_kind (jv v);
jv jv_copy (jv v);
void jv_free (jv v);
jv jv_null (void);
jv jv_bool (int b);
jv jv_invalid (void);
int jv_is_valid (jv v);
jv jv_number (double d);
double jv_number_value (jv v);
jv jv_string_sized (const char *s, size_t n);
jv jv_string (const char *s);
const char *jv_string_value (jv v);
size_t jv_string_length (jv v);
int jv_string_equal (jv a, const char *s);
jv jv_array (void);
jv jv_array_append (jv a, jv v);
int jv_array_length (jv a);
jv jv_array_get (jv a, int i);
jv jv_object (void);
jv jv_object_set (jv o, jv key, jv v);
jv jv_object_get (jv o, jv key);
int jv_object_length (jv o);
int jv_object_iter (jv o, int i);
jv jv_object_iter_key (jv o, int i);
jv jv_object_iter_value (jv o, int i);
int jv_equal (jv a, jv b);
int jv_cmp (jv a, jv b);

/* parse.c, dump.c */
jv jv_parse (const char *text, size_t n);
void jv_dump (jv v, char **buf, size_t *len, size_t *cap);
#endif
