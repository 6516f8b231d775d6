/* cg-worker.h — jobs run in order on one background thread.
 *
 * A reader hands the work of applying what it has cut out of its input
 * (rows of a cgtools XML document) to a worker and parses on, so that the
 * two halves of a read overlap on two cores; the XML writer has one per
 * processor format rows.  Jobs run one at a time, in
 * the order pushed, so the worker sees them exactly as the reader would
 * have applied them itself; the pusher must leave alone whatever the jobs
 * touch until cg_worker_drain() returns.  Once a job fails, later jobs are
 * freed without running.  The backlog is bounded: a fast pusher waits
 * instead of holding the whole input.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CgWorker CgWorker;

/* Runs @job with the worker's @data; FALSE with @error set on failure
 * (any domain: the worker hands it on). */
typedef gboolean (*CgWorkerFunc) (gpointer job, gpointer data, GError **error);

/* A worker that runs @func on each job and then @free_job (NULL when the
 * jobs are not the worker's to free); at most @max_backlog jobs wait.  Without @threaded (or when no thread can be
 * made) each job runs inside cg_worker_push(), the same jobs in the same
 * order, which is how tests compare the two.  Free with cg_worker_free(). */
CgWorker *cg_worker_new (CgWorkerFunc func, GDestroyNotify free_job, gpointer data, guint max_backlog,
                         gboolean threaded);

/* Queues @job (the worker owns it), waiting while the backlog is full.
 * FALSE once a job has failed: @job is freed unrun, and
 * cg_worker_drain() gives the error. */
gboolean cg_worker_push (CgWorker *worker, gpointer job);

/* Waits until every job pushed has run.  FALSE with the first failed
 * job's error (a copy: later drains give it again). */
gboolean cg_worker_drain (CgWorker *worker, GError **error);

/* Frees the jobs still waiting unrun, waits for the one running, ends the
 * thread.  NULL is allowed. */
void cg_worker_free (CgWorker *worker);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgWorker, cg_worker_free)

G_END_DECLS
