/* json-bench.c — the driver that bench/amon-overhead.sh builds with cJSON
 * (a recursive-descent JSON parser, fetched from Debian's sources, never
 * kept here): reads a JSON document, then ROUNDS times parses it, prints
 * it back unformatted (a recursive printer) and frees the tree.  Prints a
 * checksum so that the compiler keeps the work.
 *
 * Usage: json-bench FILE [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"

int
main (int argc, char **argv)
{
  if (argc < 2)
    return 2;
  FILE *f = fopen (argv[1], "rb");
  if (f == NULL)
    return 1;
  size_t cap = 1 << 20, n = 0, k;
  char *text = malloc (cap + 1);
  while (text && (k = fread (text + n, 1, cap - n, f)) > 0)
    if ((n += k) == cap)
      text = realloc (text, (cap *= 2) + 1);
  fclose (f);
  if (text == NULL)
    return 1;
  text[n] = 0;
  int rounds = argc > 2 ? atoi (argv[2]) : 10;
  unsigned long sum = 0;
  for (int r = 0; r < rounds; r++)
    {
      cJSON *doc = cJSON_Parse (text);
      if (doc == NULL)
        return 1;
      char *out = cJSON_PrintUnformatted (doc);
      sum += out ? strlen (out) : 0;
      free (out);
      sum += (unsigned long) cJSON_GetArraySize (doc);
      cJSON_Delete (doc);
    }
  printf ("%lu\n", sum);
  free (text);
  return 0;
}
