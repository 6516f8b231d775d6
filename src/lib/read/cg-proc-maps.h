/* cg-proc-maps.h — the text of Linux's /proc/PID/maps, as profilers save it.
 *
 * proc_pid_maps(5): one mapping per line,
 *     START-END PERMS OFFSET MAJOR:MINOR INODE [PATH]
 * the addresses and the offset in hex, the inode in decimal, the path the
 * rest of the line (it may hold blanks; the kernel appends " (deleted)"
 * to a file removed while mapped; pseudo-paths such as [vdso] and [heap]
 * are in brackets; anonymous mappings have none).  gperftools' CPU
 * profiler appends this text to its profiles (its ProcMapsIterator
 * writes the same fields), and tools ignore lines that are not mappings
 * (docs/cpuprofile-fileformat).
 *
 * Only executable mappings ('x' in PERMS) are kept: a sampled PC lies in
 * code, and pprof looks at no others.  Complexity: O(n log n) to parse n
 * lines, O(log n) a look-up.  Ownership: a CgProcMaps owns its paths.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 start, end; /* [start, end) in the process */
  guint64 offset;     /* of start in the file */
  guint64 inode;      /* 0 for anonymous and pseudo mappings */
  const char *path;   /* "" when anonymous; " (deleted)" removed (see deleted) */
  gboolean deleted;   /* the kernel said the file was removed while mapped */
} CgProcMap;

typedef struct _CgProcMaps CgProcMaps;

/* Parses @len bytes of maps text (NUL bytes end nothing: a line holding
 * one is no mapping).  Lines that are not mappings, and mappings that are
 * not executable or whose END is not above START, are skipped.  Never
 * fails. */
CgProcMaps *cg_proc_maps_parse (const char *text, gsize len);
void cg_proc_maps_free (CgProcMaps *maps);

/* The executable mappings kept, by start address. */
const CgProcMap *cg_proc_maps_array (const CgProcMaps *maps, guint *n_maps);

/* The mapping that holds @address (the one starting last at or below it,
 * where mappings overlap), or NULL. */
const CgProcMap *cg_proc_maps_find (const CgProcMaps *maps, guint64 address);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CgProcMaps, cg_proc_maps_free)

G_END_DECLS
