/* cg-worker.c — one thread, a queue, and a condition for both ways:
 * the worker waits for jobs, the pusher for room and for the end. */
#include "config.h"

#include "cg-worker.h"

#include "cg-error.h"

struct _CgWorker {
  CgWorkerFunc func;
  GDestroyNotify free_job;
  gpointer data;
  guint max_backlog;
  GThread *thread; /* NULL: jobs run in cg_worker_push */
  GMutex lock;
  GCond changed; /* a job queued, started or ended, or stop */
  GQueue jobs;
  gboolean busy; /* a job is running */
  gboolean stop;
  GError *error; /* the first failure */
};

/* Runs @job unless a job failed before; then frees it.  Called without
 * the lock: the job's work is not the queue's.  A job that fails without
 * an error is a bug in it, reported as such rather than lost. */
static GError *
run_job (CgWorker *w, gpointer job, gboolean failed)
{
  GError *error = NULL;
  if (!failed && !w->func (job, w->data, &error) && error == NULL)
    g_set_error_literal (&error, CG_ERROR, CG_ERROR_PARSE, "internal error: a job failed without saying why");
  if (w->free_job)
    w->free_job (job);
  return error;
}

static gpointer
work (gpointer data)
{
  CgWorker *w = data;
  g_mutex_lock (&w->lock);
  for (;;)
    {
      while (g_queue_is_empty (&w->jobs) && !w->stop)
        g_cond_wait (&w->changed, &w->lock);
      if (w->stop)
        break;
      gpointer job = g_queue_pop_head (&w->jobs);
      gboolean failed = w->error != NULL;
      w->busy = TRUE;
      g_cond_broadcast (&w->changed); /* room in the backlog */
      g_mutex_unlock (&w->lock);
      GError *error = run_job (w, job, failed);
      g_mutex_lock (&w->lock);
      if (error != NULL)
        w->error = error;
      w->busy = FALSE;
      g_cond_broadcast (&w->changed);
    }
  g_mutex_unlock (&w->lock);
  return NULL;
}

CgWorker *
cg_worker_new (CgWorkerFunc func, GDestroyNotify free_job, gpointer data, guint max_backlog, gboolean threaded)
{
  CgWorker *w = g_new0 (CgWorker, 1);
  w->func = func;
  w->free_job = free_job;
  w->data = data;
  w->max_backlog = MAX (max_backlog, 1);
  g_mutex_init (&w->lock);
  g_cond_init (&w->changed);
  g_queue_init (&w->jobs);
  if (threaded)
    w->thread = g_thread_try_new ("cg-worker", work, w, NULL);
  return w;
}

gboolean
cg_worker_push (CgWorker *w, gpointer job)
{
  if (w->thread == NULL)
    {
      GError *error = run_job (w, job, w->error != NULL);
      if (error != NULL)
        w->error = error;
      return w->error == NULL;
    }
  g_mutex_lock (&w->lock);
  while (w->jobs.length >= w->max_backlog && w->error == NULL)
    g_cond_wait (&w->changed, &w->lock);
  gboolean ok = w->error == NULL;
  if (ok)
    {
      g_queue_push_tail (&w->jobs, job);
      g_cond_broadcast (&w->changed);
    }
  g_mutex_unlock (&w->lock);
  if (!ok && w->free_job)
    w->free_job (job);
  return ok;
}

gboolean
cg_worker_drain (CgWorker *w, GError **error)
{
  g_mutex_lock (&w->lock);
  while (!g_queue_is_empty (&w->jobs) || w->busy)
    g_cond_wait (&w->changed, &w->lock);
  gboolean ok = w->error == NULL;
  if (!ok)
    g_propagate_error (error, g_error_copy (w->error));
  g_mutex_unlock (&w->lock);
  return ok;
}

void
cg_worker_free (CgWorker *w)
{
  if (w == NULL)
    return;
  if (w->thread != NULL)
    {
      g_mutex_lock (&w->lock);
      w->stop = TRUE;
      g_cond_broadcast (&w->changed);
      g_mutex_unlock (&w->lock);
      g_thread_join (w->thread);
    }
  gpointer job;
  while ((job = g_queue_pop_head (&w->jobs)) != NULL)
    if (w->free_job)
      w->free_job (job);
  g_clear_error (&w->error);
  g_cond_clear (&w->changed);
  g_mutex_clear (&w->lock);
  g_free (w);
}
