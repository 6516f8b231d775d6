/* cg-read-archive.h — the profiles in a tar or zip archive, read as so
 * many inputs.
 *
 * A user keeps the runs of a job as one archive (profiles.tar.gz, a CI
 * artifact's zip): each regular file in it is an input, named
 * "ARCHIVE(MEMBER)" as binutils names the members of an ar archive, told
 * from its content and summed as cgmerge sums the files it is given.
 * libarchive reads the archive's structure; the archive itself may be
 * compressed as any input is (cg-input.h), and so may each member.
 */
#pragma once

#include <glib.h>

#include "cg-formats.h"
#include "cg-input.h"
#include "cg-profile.h"
#include "cg-read-options.h"

G_BEGIN_DECLS

/* Whether @head (@len bytes of an input's start, decompressed) starts a
 * tar archive (POSIX ustar or GNU, its first header's checksum right) or
 * a zip archive. */
gboolean cg_archive_detect (const guint8 *head, gsize len);

/**
 * cg_read_archive:
 * @profile: where each member's data are added
 * @input: the archive, positioned at its start
 * @options: as for every input (nullable)
 * @read_member: reads one member as an input (cg_read_input: the archive
 *   is a container, read before any format is told, not a format of the
 *   table, and its members are inputs as files are)
 * @error: CG_ERROR_FORMAT for an archive libarchive cannot read (corrupt,
 *   truncated: naming the archive, and the member where one was being
 *   read), for a member that is itself an archive (nested archives are
 *   not opened), and for an archive with no regular file; a member's
 *   reader's errors, whose messages name the member; CG_ERROR_IO.
 *
 * Reads each regular file of the archive (directories, links and
 * devices are passed over, and so are empty files, with a warning) in
 * whatever format it is, with @read_member, in the archive's order.
 */
gboolean cg_read_archive (CgProfile *profile, CgInput *input, const CgReadOptions *options, CgFormatRead read_member,
                          GError **error);

G_END_DECLS
