/* cg-readahead.h — a read function run ahead on a thread of its own.
 *
 * For a compressed file: decompressing on its own thread, as `zstd -dc F |`
 * does in a process of its own, lets the reader parse one block while the
 * next is decompressed, instead of doing both in turn.  The thread reads
 * into a ring of a few blocks (bounded memory: READAHEAD_BLOCKS of
 * READAHEAD_BLOCK bytes) and waits while they are all full; the reader
 * takes the bytes in order.
 *
 * Ownership: a CgReadahead owns its thread and blocks; the read
 * function's data must outlive it, and is touched only by the thread
 * from cg_readahead_new on.
 */
#pragma once

#include <glib.h>

#include "cg-decompress.h"

G_BEGIN_DECLS

typedef struct _CgReadahead CgReadahead;

/* Starts a thread calling @read (@user_data) until it returns 0 or -1.
 * NULL when no thread can be started (the caller then reads itself). */
CgReadahead *cg_readahead_new (CgDecoderPull read, gpointer user_data);

/* Stops the thread (after the read it is in returns) and frees all. */
void cg_readahead_free (CgReadahead *readahead);

/* Up to @n of the bytes read, in order, into @buf: the count, 0 at the
 * end, -1 with the read function's error (once it is reached: the bytes
 * read before it come first). */
gssize cg_readahead_read (CgReadahead *readahead, guint8 *buf, gsize n, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgReadahead, cg_readahead_free)

G_END_DECLS
