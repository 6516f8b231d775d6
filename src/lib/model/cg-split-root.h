/* cg-split-root.h — the root frames of perf's --split=pid and --split=tid. */
#pragma once

#include <glib.h>

#include "cg-graph.h"

G_BEGIN_DECLS

/* Whether function @f of @graph is the root frame of a process or thread
 * that perf's --split=pid or --split=tid made: of object
 * CG_OBJECT_PROCESS, named "COMM-PID" or "COMM-PID/TID" (each number
 * digits, or "?" where the samples lack it; stackcollapse-perf's --pid
 * and --tid name them so).  Where it is, and the pointers are not NULL,
 * sets *@comm_len to the bytes of COMM and *@pid and *@tid to the numbers
 * (0 for "?" or an absent TID; saturating where more than 64 bits).  A
 * command whose name ends in "-DIGITS" under --split=comm reads as one
 * too: its root then holds its own subtree all the same. */
gboolean cg_split_root_parse (CgGraph *graph, CgFunctionId f, gsize *comm_len, guint64 *pid, guint64 *tid);

G_END_DECLS
