/* cg-events.c — the event schema and the matrices kept in step with it. */
#include "config.h"

#include "cg-events.h"

#include <string.h>

#include "cg-error.h"

typedef struct {
  char *name;
  char *unit;
  char *description; /* nullable */
  gdouble scale;
  guint64 samples; /* cg_events_add_samples */
  gdouble sampled;
} EventRec;

struct _CgEvents {
  gint refs;
  GArray *events;   /* EventRec */
  GArray *kinds;    /* CgKind, parallel to events: cost code reads them as one array */
  GPtrArray *matrices; /* CgMatrix *, borrowed */
};

static void
clear_event (gpointer data)
{
  EventRec *rec = data;
  g_free (rec->name);
  g_free (rec->unit);
  g_free (rec->description);
}

CgEvents *
cg_events_new (void)
{
  CgEvents *ev = g_new0 (CgEvents, 1);
  ev->refs = 1;
  ev->events = g_array_new (FALSE, FALSE, sizeof (EventRec));
  g_array_set_clear_func (ev->events, clear_event);
  ev->kinds = g_array_new (FALSE, FALSE, sizeof (CgKind));
  ev->matrices = g_ptr_array_new ();
  return ev;
}

CgEvents *
cg_events_ref (CgEvents *ev)
{
  g_atomic_int_inc (&ev->refs);
  return ev;
}

void
cg_events_unref (CgEvents *ev)
{
  if (ev == NULL || !g_atomic_int_dec_and_test (&ev->refs))
    return;
  g_array_unref (ev->events);
  g_array_unref (ev->kinds);
  g_ptr_array_unref (ev->matrices);
  g_free (ev);
}

guint
cg_events_n (const CgEvents *ev)
{
  return ev->events->len;
}

gint
cg_events_find (const CgEvents *ev, const char *name)
{
  for (guint e = 0; e < ev->events->len; e++)
    if (strcmp (g_array_index (ev->events, EventRec, e).name, name) == 0)
      return (gint) e;
  return -1;
}

gboolean
cg_events_ensure (CgEvents *ev, const char *name, const char *unit, CgKind kind, guint *index, GError **error)
{
  gint e = cg_events_find (ev, name);
  if (e >= 0)
    {
      const EventRec *rec = &g_array_index (ev->events, EventRec, e);
      if (strcmp (rec->unit, unit) != 0)
        {
          g_set_error (error, CG_ERROR, CG_ERROR_MISMATCH, "event %s is counted in %s in one input and in %s in another",
                       name, rec->unit, unit);
          return FALSE;
        }
      CgKind *k = &g_array_index (ev->kinds, CgKind, e);
      if (*k == CG_KIND_INTEGER && kind == CG_KIND_REAL)
        {
          for (guint i = 0; i < ev->matrices->len; i++)
            cg_matrix_promote_column (g_ptr_array_index (ev->matrices, i), (guint) e);
          *k = CG_KIND_REAL;
        }
      *index = (guint) e;
      return TRUE;
    }
  for (guint i = 0; i < ev->matrices->len; i++)
    cg_matrix_add_column (g_ptr_array_index (ev->matrices, i));
  EventRec rec = { .name = g_strdup (name), .unit = g_strdup (unit), .scale = 1.0 };
  g_array_append_val (ev->events, rec);
  g_array_append_val (ev->kinds, kind);
  *index = ev->events->len - 1;
  return TRUE;
}

const char *
cg_events_name (const CgEvents *ev, guint e)
{
  return g_array_index (ev->events, EventRec, e).name;
}

const char *
cg_events_unit (const CgEvents *ev, guint e)
{
  return g_array_index (ev->events, EventRec, e).unit;
}

const char *
cg_events_description (const CgEvents *ev, guint e)
{
  return g_array_index (ev->events, EventRec, e).description;
}

void
cg_events_set_description (CgEvents *ev, guint e, const char *description)
{
  EventRec *rec = &g_array_index (ev->events, EventRec, e);
  g_free (rec->description);
  rec->description = g_strdup (description);
}

CgKind
cg_events_kind (const CgEvents *ev, guint e)
{
  return g_array_index (ev->kinds, CgKind, e);
}

const CgKind *
cg_events_kinds (const CgEvents *ev)
{
  return (const CgKind *) ev->kinds->data;
}

gdouble
cg_events_scale (const CgEvents *ev, guint e)
{
  return g_array_index (ev->events, EventRec, e).scale;
}

void
cg_events_set_scale (CgEvents *ev, guint e, gdouble scale)
{
  g_return_if_fail (scale > 0);
  g_array_index (ev->events, EventRec, e).scale = scale;
}

void
cg_events_add_samples (CgEvents *ev, guint e, guint64 samples, gdouble cost)
{
  EventRec *rec = &g_array_index (ev->events, EventRec, e);
  rec->samples = samples > G_MAXUINT64 - rec->samples ? G_MAXUINT64 : rec->samples + samples;
  rec->sampled += cost;
}

guint64
cg_events_samples (const CgEvents *ev, guint e, gdouble *cost)
{
  const EventRec *rec = &g_array_index (ev->events, EventRec, e);
  if (cost)
    *cost = rec->sampled;
  return rec->samples;
}

void
cg_events_attach (CgEvents *ev, CgMatrix *m)
{
  g_return_if_fail (m->cols == ev->events->len);
  g_ptr_array_add (ev->matrices, m);
}

void
cg_events_detach (CgEvents *ev, CgMatrix *m)
{
  g_ptr_array_remove_fast (ev->matrices, m);
}
