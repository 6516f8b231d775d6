/* amon-output.c — the output path's type decides how it is written. */
#define _GNU_SOURCE 1

#include "amon-output.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINKS 40

AMON_FN int
amon_output_secure (void)
{
  return getauxval (AT_SECURE) != 0;
}

AMON_FN const char *
amon_getenv (const char *name)
{
  return secure_getenv (name);
}

/* Follows the links from @path into @o->target, as the kernel would
 * (each relative link read against its own directory).  0, or an errno
 * value; *@st is the target's lstat, or st_mode 0 when it does not
 * exist. */
AMON_FN static int
resolve (amon_output *o, const char *path, int secure, struct stat *st)
{
  char link[sizeof o->target];
  if (strlen (path) >= sizeof o->target)
    return ENAMETOOLONG;
  strcpy (o->target, path);
  for (int hops = 0;; hops++)
    {
      if (lstat (o->target, st) != 0)
        {
          if (errno != ENOENT)
            return errno;
          st->st_mode = 0;
          return 0;
        }
      if (!S_ISLNK (st->st_mode))
        return 0;
      if (secure || hops == MAX_LINKS)
        return ELOOP;
      ssize_t n = readlink (o->target, link, sizeof link - 1);
      if (n < 0)
        return errno;
      link[n] = 0;
      if (link[0] == '/')
        {
          strcpy (o->target, link);
          continue;
        }
      char *slash = strrchr (o->target, '/');
      size_t dir = slash ? (size_t) (slash - o->target) + 1 : 0;
      if (dir + (size_t) n >= sizeof o->target)
        return ENAMETOOLONG;
      memcpy (o->target + dir, link, (size_t) n + 1);
    }
}

/* A temporary file beside @o->target that nobody else has: created, never
 * an existing one (O_EXCL), with the mode of the file it will replace. */
AMON_FN static int
open_temporary (amon_output *o, const struct stat *st, unsigned long pid)
{
  for (int i = 0; i < 100; i++)
    {
      snprintf (o->tmp, sizeof o->tmp, "%s.tmp%lu%s%.0d", o->target, pid, i ? "." : "", i);
      o->fd = open (o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (o->fd >= 0)
        {
          if (S_ISREG (st->st_mode))
            (void) fchmod (o->fd, st->st_mode & 0777);
          o->renamed = 1;
          return 0;
        }
      if (errno != EEXIST)
        return errno;
    }
  return EEXIST;
}

/* A FIFO opened for writing without waiting forever for a reader. */
AMON_FN static int
open_fifo (amon_output *o, int flags)
{
  for (int waited = 0;; waited += 10)
    {
      o->fd = open (o->target, flags | O_NONBLOCK);
      if (o->fd >= 0)
        break;
      if (errno != ENXIO || waited >= AMON_FIFO_WAIT_MS)
        return errno;
      struct timespec ten = { 0, 10000000L };
      nanosleep (&ten, NULL);
    }
  int fl = fcntl (o->fd, F_GETFL);
  if (fl != -1)
    (void) fcntl (o->fd, F_SETFL, fl & ~O_NONBLOCK);
  return 0;
}

AMON_FN static int
open_socket (amon_output *o)
{
  struct sockaddr_un addr;
  memset (&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (strlen (o->target) >= sizeof addr.sun_path)
    return ENAMETOOLONG;
  strcpy (addr.sun_path, o->target);
  static const int types[] = { SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM };
  int err = ECONNREFUSED;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    {
      o->fd = socket (AF_UNIX, types[i] | SOCK_CLOEXEC, 0);
      if (o->fd < 0)
        return errno;
      if (connect (o->fd, (struct sockaddr *) &addr, sizeof addr) == 0)
        {
          o->is_socket = 1;
          return 0;
        }
      err = errno;
      close (o->fd);
      o->fd = -1;
      if (err != EPROTOTYPE)
        break;
    }
  return err;
}

AMON_FN int
amon_output_open (amon_output *o, const char *path, int secure, unsigned long pid)
{
  memset (o, 0, sizeof *o);
  o->fd = -1;
  struct stat st;
  int err = resolve (o, path, secure, &st);
  if (err)
    return err;
  int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY | (secure ? O_NOFOLLOW : 0);
  if (st.st_mode == 0 || S_ISREG (st.st_mode))
    return open_temporary (o, &st, pid);
  if (S_ISFIFO (st.st_mode))
    return open_fifo (o, flags);
  if (S_ISSOCK (st.st_mode))
    return open_socket (o);
  if (S_ISCHR (st.st_mode))
    {
      o->fd = open (o->target, flags);
      return o->fd < 0 ? errno : 0;
    }
  return S_ISDIR (st.st_mode) ? EISDIR : ENOTSUP;
}

/* Writes with SIGPIPE blocked, and takes back a SIGPIPE the write raised
 * (one already pending was the program's and stays). */
AMON_FN static ssize_t
write_quietly (int fd, const void *p, size_t n)
{
  sigset_t pipe_only, old, pending;
  sigemptyset (&pipe_only);
  sigaddset (&pipe_only, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_only, &old);
  sigpending (&pending);
  int was_pending = sigismember (&pending, SIGPIPE);
  ssize_t w = write (fd, p, n);
  int e = errno;
  if (w < 0 && e == EPIPE && !was_pending)
    {
      struct timespec zero = { 0, 0 };
      sigtimedwait (&pipe_only, NULL, &zero);
    }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  errno = e;
  return w;
}

AMON_FN int
amon_output_write (amon_output *o, const void *p, size_t n)
{
  const unsigned char *s = p;
  while (n)
    {
      ssize_t w;
      if (o->is_socket)
        w = send (o->fd, s, n, MSG_NOSIGNAL);
      else if (o->renamed)
        w = write (o->fd, s, n);
      else
        w = write_quietly (o->fd, s, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        return w < 0 ? errno : EIO;
      s += w;
      n -= (size_t) w;
    }
  return 0;
}

AMON_FN int
amon_output_close (amon_output *o, int err)
{
  if (o->fd >= 0 && close (o->fd) != 0 && err == 0 && errno != EINTR)
    err = errno;
  o->fd = -1;
  if (o->renamed)
    {
      if (err == 0 && rename (o->tmp, o->target) != 0)
        err = errno;
      if (err)
        unlink (o->tmp);
    }
  return err;
}
