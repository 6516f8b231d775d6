/* cg-readahead.c — a ring of blocks between a reading thread and its
 * reader (cg-readahead.h). */
#include "config.h"

#include "cg-readahead.h"

#include <string.h>

#define READAHEAD_BLOCKS 8
#define READAHEAD_BLOCK (64u * 1024)

struct _CgReadahead {
  CgDecoderPull read;
  gpointer read_data;
  GThread *thread;
  GMutex lock;
  GCond changed;
  guint8 *block[READAHEAD_BLOCKS];
  gsize len[READAHEAD_BLOCKS];
  guint head;        /* the oldest full block: the reader's */
  guint full;        /* full blocks from head on */
  gsize pos;         /* bytes of block[head] the reader took */
  gboolean ended;    /* the read function returned 0 or -1 */
  gboolean stop;     /* the reader went away */
  GError *error;     /* the read function's, given at the end */
};

static gpointer
run (gpointer data)
{
  CgReadahead *r = data;
  g_mutex_lock (&r->lock);
  while (!r->stop && !r->ended)
    {
      if (r->full == READAHEAD_BLOCKS)
        {
          g_cond_wait (&r->changed, &r->lock);
          continue;
        }
      guint i = (r->head + r->full) % READAHEAD_BLOCKS;
      g_mutex_unlock (&r->lock);
      /* the block is the thread's until it is counted full */
      GError *error = NULL;
      gssize k = r->read (r->read_data, r->block[i], READAHEAD_BLOCK, &error);
      g_mutex_lock (&r->lock);
      if (k > 0)
        {
          r->len[i] = (gsize) k;
          r->full++;
        }
      else
        {
          r->ended = TRUE;
          r->error = error;
        }
      g_cond_broadcast (&r->changed);
    }
  g_mutex_unlock (&r->lock);
  return NULL;
}

CgReadahead *
cg_readahead_new (CgDecoderPull read, gpointer user_data)
{
  CgReadahead *r = g_new0 (CgReadahead, 1);
  r->read = read;
  r->read_data = user_data;
  g_mutex_init (&r->lock);
  g_cond_init (&r->changed);
  for (guint i = 0; i < READAHEAD_BLOCKS; i++)
    r->block[i] = g_malloc (READAHEAD_BLOCK);
  r->thread = g_thread_try_new ("cg-readahead", run, r, NULL);
  if (r->thread == NULL)
    {
      cg_readahead_free (r);
      return NULL;
    }
  return r;
}

void
cg_readahead_free (CgReadahead *r)
{
  if (r == NULL)
    return;
  if (r->thread)
    {
      g_mutex_lock (&r->lock);
      r->stop = TRUE;
      g_cond_broadcast (&r->changed);
      g_mutex_unlock (&r->lock);
      g_thread_join (r->thread);
    }
  for (guint i = 0; i < READAHEAD_BLOCKS; i++)
    g_free (r->block[i]);
  g_clear_error (&r->error);
  g_mutex_clear (&r->lock);
  g_cond_clear (&r->changed);
  g_free (r);
}

gssize
cg_readahead_read (CgReadahead *r, guint8 *buf, gsize n, GError **error)
{
  g_mutex_lock (&r->lock);
  if (r->full > 0 && r->pos == r->len[r->head])
    {
      /* the reader is done with its block: the thread may fill it */
      r->head = (r->head + 1) % READAHEAD_BLOCKS;
      r->full--;
      r->pos = 0;
      g_cond_broadcast (&r->changed);
    }
  while (r->full == 0 && !r->ended)
    g_cond_wait (&r->changed, &r->lock);
  gssize k = 0;
  if (r->full > 0)
    {
      k = (gssize) MIN (n, r->len[r->head] - r->pos);
      g_mutex_unlock (&r->lock);
      /* block[head] is the reader's while it is full */
      memcpy (buf, r->block[r->head] + r->pos, (gsize) k);
      g_mutex_lock (&r->lock);
      r->pos += (gsize) k;
    }
  else if (r->error)
    {
      g_propagate_error (error, g_steal_pointer (&r->error));
      k = -1;
    }
  g_mutex_unlock (&r->lock);
  return k;
}
