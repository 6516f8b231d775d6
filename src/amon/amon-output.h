/* amon-output.h — where amon.out goes, without harming what the path names.
 *
 * The path is the user's (AMON_OUT), so the monitor may only do what the
 * user would expect of a program that writes a file there:
 *  - a regular file, or nothing: written to a temporary file in the same
 *    directory and renamed over the path, so that a reader never sees half
 *    a profile (an existing file's permission bits are kept);
 *  - a symbolic link: followed (up to 40 links, as the kernel does), the
 *    same rule applied to what it names, so the link stays a link;
 *  - a character device, a FIFO or a socket: written straight into (a
 *    FIFO is waited for up to AMON_FIFO_WAIT_MS for a reader; a socket is
 *    connected to as a stream, else as datagrams);
 *  - anything else (a directory, a block device): left alone, an error.
 * Nothing else is ever created, replaced or removed.  SIGPIPE raised by
 * the writes is kept from the program (a reader that went away is an
 * error, not the program's death, and its exit status is its own).
 *
 * In a set-user-ID or set-group-ID program (@secure; AT_SECURE, as
 * glibc's secure_getenv decides) no symbolic link is followed: the path
 * is the default file, chosen by the program, and a link there is an
 * error (ELOOP), as O_NOFOLLOW makes it.
 */
#ifndef AMON_OUTPUT_H
#define AMON_OUTPUT_H

#include <stddef.h>

#include "amon-private.h"

#define AMON_FIFO_WAIT_MS 5000

typedef struct {
  int fd;
  int is_socket;   /* write with send (MSG_NOSIGNAL) */
  int renamed;     /* written to @tmp, renamed to @target at the end */
  char target[4200];
  char tmp[4250];
} amon_output;

/* Opens @path as above; 0, or an errno value (ELOOP for a link in a
 * secure program or too many links, EISDIR for a directory, ENOTSUP for
 * a block device or another type, ENXIO for a FIFO nobody read). */
int amon_output_open (amon_output *o, const char *path, int secure, unsigned long pid) AMON_HIDDEN;

/* Writes @n bytes; 0 or an errno value (EPIPE: the reader went away). */
int amon_output_write (amon_output *o, const void *p, size_t n) AMON_HIDDEN;

/* Closes, and renames into place when @ok and the path takes a rename; a
 * temporary file is removed otherwise.  Returns @ok's error, or the
 * close's or rename's. */
int amon_output_close (amon_output *o, int err) AMON_HIDDEN;

/* Whether the program runs set-user-ID or set-group-ID (AT_SECURE). */
int amon_output_secure (void) AMON_HIDDEN;

/* getenv, but NULL in a secure program: its environment is the
 * caller's, not to be trusted (secure_getenv). */
const char *amon_getenv (const char *name) AMON_HIDDEN;

#endif
