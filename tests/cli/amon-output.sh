#!/bin/sh
# libamon's output path is the user's: AMON_OUT naming a symbolic link, a
# FIFO, a socket or a character device leaves it as it was and the profile
# goes where it points; a directory is left alone and the program's exit
# status stays its own; a set-user-ID program trusts no variable and
# follows no link.  Each profile received is read back by cgmerge and
# holds the calls the program made (3 of f by main).
. "${top_srcdir:-.}/tests/cli/common.sh"
lib="$top_builddir/src/amon/libamon.la"
[ -f "$lib" ] || skip "libamon was not built"
LIBTOOL=${LIBTOOL:-"$top_builddir/libtool"}
cat >"$tmp/prog.c" <<'EOF'
#include <stdlib.h>
int sink;
__attribute__ ((noinline)) void f (int i) { sink += i; }
int main (int argc, char **argv)
{
  for (int i = 0; i < 3; i++)
    f (i);
  return argc > 1 ? atoi (argv[1]) : 0;
}
EOF
${CC:-cc} -O1 -finstrument-functions -c -o "$tmp/prog.o" "$tmp/prog.c" || skip "cannot compile"
$LIBTOOL --mode=link --tag=CC ${CC:-cc} -static -pthread -o "$tmp/prog" "$tmp/prog.o" "$lib" >"$tmp/link.log" 2>&1 \
  || { cat "$tmp/link.log"; fail "link"; finish; }

# holds FILE WHAT — FILE is a profile with main's 3 calls of f
holds () {
  "$cgmerge" "$1" >"$tmp/held.xml" 2>"$tmp/held.err" || { fail "$2: the profile received does not read: $(cat "$tmp/held.err")"; return; }
  "$cgcost" --format=tsv --arcs "$tmp/held.xml" >"$tmp/held.tsv" || fail "$2: cgcost"
  awk -F '\t' '$1 == "main" && $2 == "f" && $3 == 3 { ok = 1 } END { exit !ok }' "$tmp/held.tsv" \
    || fail "$2: the profile lacks main's 3 calls of f: $(cat "$tmp/held.tsv")"
}

# runs STATUS -- VAR=VALUE... — runs the program (exit status STATUS
# asked for and expected), stderr in $tmp/run.err
runs () {
  want=$1
  shift
  (cd "$tmp" && env "$@" ./prog "$want" >/dev/null 2>"$tmp/run.err")
  got=$?
  [ "$got" -eq "$want" ] || fail "AMON_OUT: $*: the program exited $got, not $want: $(cat "$tmp/run.err")"
}

# a regular file: replaced whole, its permission bits kept
echo old >"$tmp/plain.out"
chmod 640 "$tmp/plain.out"
runs 0 AMON_OUT="$tmp/plain.out"
holds "$tmp/plain.out" "a regular file"
[ "$(stat -c %a "$tmp/plain.out")" = 640 ] || fail "a regular file's mode became $(stat -c %a "$tmp/plain.out")"

# a symbolic link (relative, through a second link) stays a link; its
# target receives the profile
mkdir "$tmp/d"
echo old >"$tmp/d/target.out"
ln -s target.out "$tmp/d/link1"
ln -s d/link1 "$tmp/link2"
runs 0 AMON_OUT="$tmp/link2"
[ -L "$tmp/link2" ] && [ -L "$tmp/d/link1" ] || fail "a symbolic link was replaced"
[ -f "$tmp/d/target.out" ] && [ ! -L "$tmp/d/target.out" ] || fail "the link's target is not a file"
holds "$tmp/d/target.out" "a symbolic link's target"
ls "$tmp/d" | grep -q tmp && fail "a temporary file was left: $(ls "$tmp/d")"
# a dangling link: its target is made
ln -s made.out "$tmp/dangling"
runs 0 AMON_OUT="$tmp/dangling"
[ -L "$tmp/dangling" ] || fail "a dangling link was replaced"
holds "$tmp/made.out" "a dangling link's target"

# a FIFO with a reader: written into, still a FIFO
mkfifo "$tmp/fifo" || skip "no mkfifo"
timeout 20 cat "$tmp/fifo" >"$tmp/from-fifo" &
reader=$!
runs 0 AMON_OUT="$tmp/fifo"
wait $reader
[ -p "$tmp/fifo" ] || fail "the FIFO is no longer one"
holds "$tmp/from-fifo" "a FIFO"

# a reader that goes away: the program lives and keeps its status
cat >"$tmp/short.py" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.read(fd, 10)
os.close(fd)
EOF
if command -v python3 >/dev/null 2>&1; then
  # a profile larger than a pipe holds: 3000 routines of long names
  awk 'BEGIN { for (i = 0; i < 3000; i++) printf "void routine_with_a_long_name_to_fill_the_pipe_%d (void) {}\n", i
               print "int main (void) {"; for (i = 0; i < 3000; i++) printf "routine_with_a_long_name_to_fill_the_pipe_%d ();\n", i
               print "return 5; }" }' >"$tmp/big.c"
  ${CC:-cc} -O0 -finstrument-functions -c -o "$tmp/big.o" "$tmp/big.c" || fail "compile big.c"
  $LIBTOOL --mode=link --tag=CC ${CC:-cc} -static -pthread -o "$tmp/big" "$tmp/big.o" "$lib" >"$tmp/link.log" 2>&1 || fail "link big"
  timeout 20 python3 "$tmp/short.py" "$tmp/fifo" &
  reader=$!
  (cd "$tmp" && AMON_OUT="$tmp/fifo" ./big 2>"$tmp/run.err")
  [ $? -eq 5 ] || fail "a reader gone: the program's status changed: $(cat "$tmp/run.err")"
  wait $reader
  grep -q "cannot write the profile to .*fifo: Broken pipe" "$tmp/run.err" || fail "a reader gone: stderr says '$(cat "$tmp/run.err")'"

  # a socket, listened on: connected to, still a socket
  cat >"$tmp/listen.py" <<'EOF'
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[3], "w").close()
c, _ = s.accept()
with open(sys.argv[2], "wb") as out:
    while True:
        b = c.recv(65536)
        if not b: break
        out.write(b)
EOF
  timeout 20 python3 "$tmp/listen.py" "$tmp/sock" "$tmp/from-sock" "$tmp/listening" &
  reader=$!
  for i in 1 2 3 4 5 6 7 8 9 10; do [ -e "$tmp/listening" ] && break; sleep 0.2; done
  runs 0 AMON_OUT="$tmp/sock"
  wait $reader
  [ -S "$tmp/sock" ] || fail "the socket is no longer one"
  holds "$tmp/from-sock" "a socket"
fi

# a directory: left alone, the reason said, the status the program's
mkdir "$tmp/dir"
runs 3 AMON_OUT="$tmp/dir"
[ -d "$tmp/dir" ] && [ -z "$(ls "$tmp/dir")" ] || fail "a directory was changed"
grep -q "cannot write the profile to .*dir: Is a directory" "$tmp/run.err" || fail "a directory: stderr says '$(cat "$tmp/run.err")'"

if [ "$(id -u)" -eq 0 ] && command -v mknod >/dev/null 2>&1; then
  # a character device made here with /dev/null's numbers: never the
  # real /dev/null
  mknod "$tmp/null" c 1 3 || fail "mknod"
  runs 0 AMON_OUT="$tmp/null"
  [ -c "$tmp/null" ] && [ "$(stat -c %t:%T "$tmp/null")" = 1:3 ] || fail "the character device was replaced"
  [ -s "$tmp/run.err" ] && fail "a character device: $(cat "$tmp/run.err")"
  ls "$tmp" | grep -q 'null\.tmp' && fail "a temporary file beside the device: $(ls "$tmp")"

  # one that refuses: /dev/full's numbers; the reason said, the status kept
  mknod "$tmp/full" c 1 7 || fail "mknod"
  runs 6 AMON_OUT="$tmp/full"
  [ -c "$tmp/full" ] || fail "the full device was replaced"
  grep -q "cannot write the profile to .*full: No space left on device" "$tmp/run.err" \
    || fail "a full device: stderr says '$(cat "$tmp/run.err")'"
fi

# a character device that keeps what it gets: a pseudo-terminal's slave
# in raw mode, read on the master, named through a link here (a node made
# with its numbers would belong to the host's terminals in a container)
if command -v python3 >/dev/null 2>&1; then
  cat >"$tmp/pty.py" <<'EOF'
import os, select, subprocess, sys, tty
master, slave = os.openpty()
tty.setraw(slave)
os.symlink(os.ttyname(slave), sys.argv[1])
p = subprocess.Popen([sys.argv[3]], env=dict(os.environ, AMON_OUT=sys.argv[1]), cwd=os.path.dirname(sys.argv[3]))
data = b""
while True:
    r, _, _ = select.select([master], [], [], 0.2)
    if r:
        data += os.read(master, 65536)
    elif p.poll() is not None:
        break
open(sys.argv[2], "wb").write(data)
st = os.stat(sys.argv[1])
sys.exit(p.returncode or (0 if (st.st_mode & 0o170000) == 0o020000 else 9))
EOF
  python3 "$tmp/pty.py" "$tmp/tty" "$tmp/from-tty" "$tmp/prog" || fail "the program on a terminal, or the terminal replaced"
  [ -L "$tmp/tty" ] || fail "the link to the terminal was replaced"
  holds "$tmp/from-tty" "a character device (a terminal)"
fi

if [ "$(id -u)" -eq 0 ]; then
  # set-user-ID (to nobody, run by root: AT_SECURE): AMON_OUT and
  # AMON_CLOCK are ignored, and amon.out as a link is not followed
  if id nobody >/dev/null 2>&1; then
    mkdir "$tmp/suid" && chmod 1777 "$tmp/suid" && chmod 755 "$tmp"
    cp "$tmp/prog" "$tmp/suid/prog" && chown nobody "$tmp/suid/prog" && chmod 4755 "$tmp/suid/prog"
    (cd "$tmp/suid" && AMON_OUT="$tmp/suid/chosen" AMON_CLOCK=bogus ./prog 4 2>"$tmp/suid.err")
    [ $? -eq 4 ] || fail "set-user-ID: exit status"
    [ -e "$tmp/suid/chosen" ] && fail "set-user-ID: AMON_OUT was obeyed"
    grep -q bogus "$tmp/suid.err" && fail "set-user-ID: AMON_CLOCK was read"
    holds "$tmp/suid/amon.out" "set-user-ID, the default file"
    rm -f "$tmp/suid/amon.out"
    echo victim >"$tmp/victim"
    ln -s "$tmp/victim" "$tmp/suid/amon.out"
    (cd "$tmp/suid" && ./prog 4 2>"$tmp/suid.err")
    [ $? -eq 4 ] || fail "set-user-ID with a link: exit status"
    [ "$(cat "$tmp/victim")" = victim ] && [ -L "$tmp/suid/amon.out" ] || fail "set-user-ID: the link was followed or replaced"
    grep -q "follows no symbolic link" "$tmp/suid.err" || fail "set-user-ID: stderr says '$(cat "$tmp/suid.err")'"
  fi
fi
finish
