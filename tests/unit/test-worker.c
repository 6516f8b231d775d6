/* test-worker.c — CgWorker: jobs run once each, in order, on its thread
 * or inline alike; after a failure the rest are freed unrun and every
 * drain gives the error. */
#include "config.h"

#include "cg-error.h"
#include "cg-test.h"
#include "cg-worker.h"

typedef struct {
  GArray *ran;  /* guint: the jobs run, in order */
  guint freed;  /* jobs freed, run or not */
  guint fail_at; /* the job that fails, G_MAXUINT for none */
} Log;

typedef struct {
  guint index;
  Log *log;
} Job;

static gboolean
run (gpointer job, gpointer data, GError **error)
{
  Job *j = job;
  Log *log = data;
  if (j->index == log->fail_at)
    {
      g_set_error (error, CG_ERROR, CG_ERROR_PARSE, "job %u failed", j->index);
      return FALSE;
    }
  /* a little work, so that the pusher gets ahead and meets the bound */
  volatile guint spin = 0;
  for (guint i = 0; i < 1000; i++)
    spin += i;
  g_array_append_val (log->ran, j->index);
  return TRUE;
}

static void
free_job (gpointer job)
{
  Job *j = job;
  j->log->freed++;
  g_free (j);
}

/* Pushes @n jobs to a worker and drains it; the log of what ran. */
static gboolean
push_all (Log *log, guint n, gboolean threaded, guint *accepted, GError **error)
{
  CgWorker *w = cg_worker_new (run, free_job, log, 3, threaded);
  *accepted = 0;
  for (guint i = 0; i < n; i++)
    {
      Job *j = g_new (Job, 1);
      j->index = i;
      j->log = log;
      *accepted += cg_worker_push (w, j);
    }
  gboolean ok = cg_worker_drain (w, error);
  if (!ok)
    {
      /* a second drain gives the same error again */
      GError *again = NULL;
      CU_ASSERT_FALSE (cg_worker_drain (w, &again));
      CU_ASSERT_PTR_NOT_NULL (again);
      if (again && *error)
        CU_ASSERT_STRING_EQUAL (again->message, (*error)->message);
      g_clear_error (&again);
    }
  cg_worker_free (w);
  return ok;
}

static void
test_in_order (void)
{
  for (int threaded = 0; threaded < 2; threaded++)
    {
      Log log = { g_array_new (FALSE, FALSE, sizeof (guint)), 0, G_MAXUINT };
      guint accepted;
      GError *error = NULL;
      CU_ASSERT_TRUE (push_all (&log, 2000, threaded, &accepted, &error));
      CU_ASSERT_EQUAL (accepted, 2000);
      CU_ASSERT_EQUAL (log.freed, 2000);
      CU_ASSERT_EQUAL_FATAL (log.ran->len, 2000);
      for (guint i = 0; i < log.ran->len; i++)
        CU_ASSERT_EQUAL (g_array_index (log.ran, guint, i), i);
      g_array_unref (log.ran);
    }
}

static void
test_failure_stops (void)
{
  for (int threaded = 0; threaded < 2; threaded++)
    {
      Log log = { g_array_new (FALSE, FALSE, sizeof (guint)), 0, 700 };
      guint accepted;
      GError *error = NULL;
      CU_ASSERT_FALSE (push_all (&log, 2000, threaded, &accepted, &error));
      CG_ASSERT_ERROR (error, CG_ERROR_PARSE, "job 700 failed");
      g_clear_error (&error);
      /* the jobs before ran, in order; none after; every job freed once */
      CU_ASSERT_EQUAL_FATAL (log.ran->len, 700);
      for (guint i = 0; i < log.ran->len; i++)
        CU_ASSERT_EQUAL (g_array_index (log.ran, guint, i), i);
      CU_ASSERT_EQUAL (log.freed, 2000);
      /* the pusher learns of it: inline at once, the failing job refused;
       * threaded once it ran, with at most a backlog (3) queued after it */
      CU_ASSERT_TRUE (threaded ? accepted >= 701 && accepted <= 701 + 3 : accepted == 700);
      g_array_unref (log.ran);
    }
}

/* Jobs a worker does not own (no free function) run all the same, and
 * stay the caller's: here an array on the stack. */
static void
test_jobs_not_owned (void)
{
  for (int threaded = 0; threaded < 2; threaded++)
    {
      Log log = { g_array_new (FALSE, FALSE, sizeof (guint)), 0, G_MAXUINT };
      Job jobs[500];
      CgWorker *w = cg_worker_new (run, NULL, &log, 3, threaded);
      for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
        {
          jobs[i] = (Job) { i, &log };
          CU_ASSERT_TRUE (cg_worker_push (w, &jobs[i]));
        }
      CU_ASSERT_TRUE (cg_worker_drain (w, NULL));
      cg_worker_free (w);
      CU_ASSERT_EQUAL_FATAL (log.ran->len, G_N_ELEMENTS (jobs));
      for (guint i = 0; i < log.ran->len; i++)
        CU_ASSERT_EQUAL (g_array_index (log.ran, guint, i), i);
      CU_ASSERT_EQUAL (log.freed, 0);
      g_array_unref (log.ran);
    }
}

int
main (void)
{
  static const CgTestCase cases[] = {
    { "every job runs once, in order, threaded or inline", test_in_order },
    { "after a failure the rest are freed unrun", test_failure_stops },
    { "jobs the worker does not own run alike", test_jobs_not_owned },
    { NULL, NULL },
  };
  return cg_test_main ("worker", cases);
}
