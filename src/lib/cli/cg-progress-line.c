/* cg-progress-line.c — a drawing thread woken ten times a second; the
 * tool's thread only records what it is doing, under a lock. */
#include "config.h"

#include "cg-progress-line.h"

#include <sys/stat.h>

/* Quiet work needs no line: only what takes longer than this shows one. */
#define DELAY G_USEC_PER_SEC
#define PERIOD (G_USEC_PER_SEC / 10)

typedef enum { PHASE_READING, PHASE_OTHER, PHASE_WRITING } Phase;

struct _CgProgressLine {
  FILE *stream;
  GMutex lock;
  GCond wake;
  GThread *thread;
  gboolean stop;
  gboolean shown; /* a line is on the terminal now */
  gint64 start;       /* of the tool */
  gint64 phase_start; /* of the phase */
  Phase phase;
  char *name; /* the file, or the phase's word */
  guint64 done;
  gint64 total;
  int fd; /* PHASE_WRITING: the output's descriptor */
};

static void
erase (CgProgressLine *p)
{
  if (p->shown)
    fputs ("\r\033[K", p->stream);
  p->shown = FALSE;
}

/* Under the lock. */
static void
draw (CgProgressLine *p, gint64 now)
{
  const char *prg = g_get_prgname ();
  double secs = (double) (now - p->phase_start) / G_USEC_PER_SEC;
  double mb = (double) p->done / 1e6;
  fputs ("\r\033[K", p->stream);
  switch (p->phase)
    {
    case PHASE_READING:
      if (p->total > 0)
        fprintf (p->stream, "%s: reading %s: %.0f of %.0f MB (%.0f%%), %.0f MB/s", prg, p->name, mb,
                 (double) p->total / 1e6, 100.0 * (double) p->done / (double) p->total, mb / MAX (secs, 1e-3));
      else
        fprintf (p->stream, "%s: reading %s: %.0f MB, %.0f MB/s", prg, p->name, mb, mb / MAX (secs, 1e-3));
      break;
    case PHASE_WRITING:
      {
        struct stat st;
        if (p->fd >= 0 && fstat (p->fd, &st) == 0 && S_ISREG (st.st_mode))
          fprintf (p->stream, "%s: writing %s: %.0f MB, %.0f s", prg, p->name, (double) st.st_size / 1e6, secs);
        else
          fprintf (p->stream, "%s: writing %s: %.0f s", prg, p->name, secs);
        break;
      }
    case PHASE_OTHER:
    default:
      fprintf (p->stream, "%s: %s: %.0f s", prg, p->name, secs);
      break;
    }
  fflush (p->stream);
  p->shown = TRUE;
}

static gpointer
run (gpointer data)
{
  CgProgressLine *p = data;
  g_mutex_lock (&p->lock);
  while (!p->stop)
    {
      g_cond_wait_until (&p->wake, &p->lock, g_get_monotonic_time () + PERIOD);
      gint64 now = g_get_monotonic_time ();
      if (!p->stop && p->name && now - p->start >= DELAY)
        draw (p, now);
    }
  erase (p);
  fflush (p->stream);
  g_mutex_unlock (&p->lock);
  return NULL;
}

CgProgressLine *
cg_progress_line_new (FILE *stream)
{
  CgProgressLine *p = g_new0 (CgProgressLine, 1);
  p->stream = stream;
  p->start = p->phase_start = g_get_monotonic_time ();
  p->fd = -1;
  g_mutex_init (&p->lock);
  g_cond_init (&p->wake);
  p->thread = g_thread_new ("progress", run, p);
  return p;
}

void
cg_progress_line_free (CgProgressLine *p)
{
  if (p == NULL)
    return;
  g_mutex_lock (&p->lock);
  p->stop = TRUE;
  g_cond_signal (&p->wake);
  g_mutex_unlock (&p->lock);
  g_thread_join (p->thread);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->wake);
  g_free (p->name);
  g_free (p);
}

/* Under the lock: a new phase from now. */
static void
begin (CgProgressLine *p, Phase phase, const char *name)
{
  if (p->phase != phase || g_strcmp0 (p->name, name) != 0)
    {
      g_free (p->name);
      p->name = g_strdup (name);
      p->phase = phase;
      p->phase_start = g_get_monotonic_time ();
      p->done = 0;
      p->total = -1;
    }
}

void
cg_progress_line_read (const char *name, guint64 done, gint64 total, gpointer data)
{
  CgProgressLine *p = data;
  g_mutex_lock (&p->lock);
  begin (p, PHASE_READING, name);
  p->done = done;
  p->total = total;
  g_mutex_unlock (&p->lock);
}

void
cg_progress_line_phase (CgProgressLine *p, const char *phase)
{
  g_mutex_lock (&p->lock);
  begin (p, PHASE_OTHER, phase);
  g_mutex_unlock (&p->lock);
}

void
cg_progress_line_writing (CgProgressLine *p, const char *name, int fd)
{
  g_mutex_lock (&p->lock);
  begin (p, PHASE_WRITING, name);
  p->fd = fd;
  g_mutex_unlock (&p->lock);
}

void
cg_progress_line_message (CgProgressLine *p, const char *message)
{
  if (p)
    g_mutex_lock (&p->lock);
  if (p)
    erase (p);
  fprintf (p ? p->stream : stderr, "%s\n", message);
  if (p)
    g_mutex_unlock (&p->lock);
}
