/* cg-input-warnings.c — the readers' warnings over many inputs, each kind
 * said once. */
#include "config.h"

#include "cg-input-warnings.h"

#include <string.h>

typedef struct {
  char *first; /* the first message of the kind, whole */
  guint more;  /* inputs after the first that drew it */
  char *last;  /* the last input that drew it (the first's, until more) */
} Kind;

struct _CgInputWarnings {
  CgProgressLine *progress;
  char *input;
  GHashTable *kinds; /* the message after the input's name, digits as '#' → Kind */
  GPtrArray *order;  /* the kinds' keys, first drawn first (owned by kinds) */
};

static void
kind_free (gpointer p)
{
  Kind *k = p;
  g_free (k->first);
  g_free (k->last);
  g_free (k);
}

CgInputWarnings *
cg_input_warnings_new (CgProgressLine *progress)
{
  CgInputWarnings *w = g_new0 (CgInputWarnings, 1);
  w->progress = progress;
  w->kinds = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, kind_free);
  w->order = g_ptr_array_new ();
  return w;
}

void
cg_input_warnings_free (CgInputWarnings *w)
{
  if (w == NULL)
    return;
  g_ptr_array_unref (w->order);
  g_hash_table_unref (w->kinds);
  g_free (w->input);
  g_free (w);
}

void
cg_input_warnings_set_input (CgInputWarnings *w, const char *name)
{
  g_free (w->input);
  w->input = g_strdup (name);
}

static void
print (CgInputWarnings *w, const char *message)
{
  g_autofree char *line = g_strdup_printf ("%s: warning: %s", g_get_prgname (), message);
  cg_progress_line_message (w->progress, line);
}

/* The message's kind: its text after the input's name, each run of
 * digits (counts, percentages, offsets) one '#'. */
static char *
kind_of (const char *text)
{
  GString *k = g_string_sized_new (strlen (text));
  for (const char *p = text; *p; p++)
    if (!g_ascii_isdigit (*p))
      g_string_append_c (k, *p);
    else if (k->len == 0 || k->str[k->len - 1] != '#')
      g_string_append_c (k, '#');
  return g_string_free (k, FALSE);
}

/* The length of the name of the input that @message is of: the input
 * set, or a member of it, "INPUT(MEMBER)" (cg-read-archive.h), before
 * ": "; 0 where the message names neither. */
static gsize
drawer_length (const CgInputWarnings *w, const char *message)
{
  gsize n = w->input ? strlen (w->input) : 0;
  if (n == 0 || strncmp (message, w->input, n) != 0)
    return 0;
  if (message[n] == '(')
    {
      const char *close = strstr (message + n, "): ");
      n = close ? (gsize) (close + 1 - message) : 0;
    }
  return n > 0 && strncmp (message + n, ": ", 2) == 0 ? n : 0;
}

void
cg_input_warnings_warn (const char *message, gpointer data)
{
  CgInputWarnings *w = data;
  gsize n = drawer_length (w, message);
  if (n == 0)
    {
      print (w, message); /* not of one input: said as it is */
      return;
    }
  g_autofree char *drawer = g_strndup (message, n);
  char *key = kind_of (message + n + 2);
  Kind *k = g_hash_table_lookup (w->kinds, key);
  if (k == NULL)
    {
      k = g_new0 (Kind, 1);
      k->first = g_strdup (message);
      k->last = g_steal_pointer (&drawer);
      g_hash_table_insert (w->kinds, key, k);
      g_ptr_array_add (w->order, key);
      print (w, message);
      return;
    }
  g_free (key);
  /* a kind an input draws twice is two facts of that input: said */
  if (strcmp (k->last, drawer) == 0)
    {
      print (w, message);
      return;
    }
  k->more++;
  g_free (k->last);
  k->last = g_steal_pointer (&drawer);
}

void
cg_input_warnings_finish (CgInputWarnings *w)
{
  for (guint i = 0; i < w->order->len; i++)
    {
      const Kind *k = g_hash_table_lookup (w->kinds, g_ptr_array_index (w->order, i));
      if (k->more == 0)
        continue;
      /* the first message's start names the kind: its input and words
       * (cut at a character's first byte; names need not be UTF-8) */
      gsize n = strlen (k->first), cut = MIN (n, 72);
      while (cut > 0 && cut < n && ((guchar) k->first[cut] & 0xC0) == 0x80)
        cut--;
      g_autofree char *line = g_strdup_printf ("%u more input%s (the last: %s) drew the warning \"%.*s%s\"", k->more,
                                               k->more == 1 ? "" : "s", k->last, (int) cut, k->first,
                                               cut < n ? "..." : "");
      print (w, line);
    }
}
