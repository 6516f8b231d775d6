#!/bin/sh
# amon.out version 3 names, for a context that a call made from another
# by appending the routine (step A2 alone), that context as its parent
# and writes the one entry past its history (formats/amon.md, CONTEXTS).
# A program of a few shapes (a chain of calls; mutual recursion, which
# makes histories by A3-A5; a second thread, whose contexts are merged by
# history) is run with libamon, and again alone (its contexts written
# straight from its machine, amon-write.c's merge_alone, not merged).
# An independent reading of each file
# (python3, below) checks that every parent is an earlier context whose
# history is the child's less its last entries, and that the contexts
# naming one are those whose history is an earlier one's and a routine
# not in it, and that the calls in the totals are the contexts' entries;
# it rewrites the file in version 2 (every history in full), and cgcost
# reads both alike, function by function and arc by arc.
. "${top_srcdir:-.}/tests/cli/common.sh"
amon_setup
command -v python3 >/dev/null 2>&1 || skip "no python3"

cat >"$tmp/shapes.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static volatile long spin;
__attribute__ ((noinline)) static void leaf (int n) { for (int i = 0; i < n; i++) spin++; }
__attribute__ ((noinline)) static void c3 (int n) { leaf (n); }
__attribute__ ((noinline)) static void c2 (int n) { c3 (n); leaf (n); }
__attribute__ ((noinline)) static void c1 (int n) { c2 (n); c3 (n); }
__attribute__ ((noinline)) static int odd (int n);
__attribute__ ((noinline)) static int even (int n) { leaf (1); return n == 0 ? 1 : odd (n - 1); }
__attribute__ ((noinline)) static int odd (int n) { c3 (1); return n == 0 ? 0 : even (n - 1); }
__attribute__ ((noinline)) static void *work (void *arg) { (void) arg; for (int i = 0; i < 50; i++) { c1 (100); even (i % 7); } return 0; }
int main (int argc, char **argv)
{
  pthread_t t;
  (void) argv;
  if (argc == 1 && pthread_create (&t, 0, work, 0) != 0)
    return 1;
  work (0);
  if (argc == 1)
    pthread_join (t, 0);
  printf ("%d\n", even (9));
  return 0;
}
EOF
$CC -O1 $cflags -pthread -o "$tmp/shapes" "$tmp/shapes.c" -L"$libdir" -lamon -Wl,-rpath,"$libdir" >"$tmp/build.log" 2>&1 \
  || { fail "building shapes: $(head -c 300 "$tmp/build.log")"; finish; }
(cd "$tmp" && AMON_OUT="$tmp/v3.out" ./shapes >"$tmp/printed") || fail "shapes exited $?"
[ "$(cat "$tmp/printed")" = 0 ] || fail "shapes printed '$(cat "$tmp/printed")'"
(cd "$tmp" && AMON_OUT="$tmp/alone.out" ./shapes alone >"$tmp/printed") || fail "shapes alone exited $?"
[ "$(cat "$tmp/printed")" = 0 ] || fail "shapes alone printed '$(cat "$tmp/printed")'"

cat >"$tmp/full.py" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
version, header = struct.unpack_from('<II', d, 8)
if version != 3:
    sys.exit('version %d, not 3' % version)
out = bytearray(d[:header])
struct.pack_into('<I', out, 8, 2)
off, named, several, entries = header, 0, 0, 0
while True:
    tag, zero, length = struct.unpack_from('<IIQ', d, off)
    body = d[off + 16:off + 16 + length]
    if tag == 3:
        n, = struct.unpack_from('<Q', body, 0)
        p, hists, new = 8, [], bytearray(struct.pack('<Q', n))
        for k in range(n):
            ln, parent = struct.unpack_from('<II', body, p)
            counts = body[p + 8:p + 32]
            entries += struct.unpack_from('<Q', counts, 8)[0]
            first = []
            if parent:
                if parent > k:
                    sys.exit('context %d: parent %d is not earlier' % (k, parent - 1))
                first = hists[parent - 1]
                if len(first) >= ln:
                    sys.exit('context %d: parent %d is not shorter' % (k, parent - 1))
                named += 1
                several += ln - len(first) > 1
            rest = list(struct.unpack_from('<%dI' % (ln - len(first)), body, p + 32))
            p += 32 + 4 * len(rest)
            h = first + rest
            hists.append(h)
            new += struct.pack('<II', ln, 0) + counts + struct.pack('<%dI' % ln, *h)
        if p != len(body):
            sys.exit('the section has %d bytes, its contexts %d' % (len(body), p))
        body = new
        print('%d contexts, %d of them name a parent (%d of several entries), %d bytes where the histories in full take %d'
              % (n, named, several, length, len(body)))
        # made by A2 alone from an earlier context: every thread's such
        # context names it (this program zeroes no counts)
        a2 = sum(1 for k, h in enumerate(hists) if len(h) > 1 and h[-1] >> 1 not in [x >> 1 for x in h[:-1]]
                 and h[:-1] in hists[:k])
        if named != a2 or several:
            sys.exit('%d contexts name a parent, %d extend an earlier one by step A2 alone' % (named, a2))
    if tag == 4:
        calls, = struct.unpack_from('<Q', body, 8)
        if calls != entries:
            sys.exit('the totals say %d calls, the contexts %d entries' % (calls, entries))
    out += struct.pack('<IIQ', tag, zero, len(body)) + body
    off += 16 + length
    if tag == 0:
        break
open(sys.argv[2], 'wb').write(out)
EOF
for run in v3 alone; do
  python3 "$tmp/full.py" "$tmp/$run.out" "$tmp/$run.v2.out" || fail "the contexts' parents ($run)"
  for f in $run $run.v2; do
    "$cgcost" --format=tsv --arcs "$tmp/$f.out" >"$tmp/$f.arcs" || fail "cgcost --arcs $f.out"
    "$cgcost" --format=tsv "$tmp/$f.out" >"$tmp/$f.tsv" || fail "cgcost $f.out"
  done
  cmp -s "$tmp/$run.arcs" "$tmp/$run.v2.arcs" || fail "$run: arcs differ (v3 <, v2 >): $(diff "$tmp/$run.arcs" "$tmp/$run.v2.arcs" | head -n 8)"
  cmp -s "$tmp/$run.tsv" "$tmp/$run.v2.tsv" || fail "$run: functions differ (v3 <, v2 >): $(diff "$tmp/$run.tsv" "$tmp/$run.v2.tsv" | head -n 8)"
  grep -q '^even	odd	' "$tmp/$run.arcs" || fail "$run: no arc even > odd: $(cat "$tmp/$run.arcs")"
  echo "$run: v3 and v2 read alike: $(($(wc -l <"$tmp/$run.tsv") - 1)) functions, $(($(wc -l <"$tmp/$run.arcs") - 1)) arcs"
done
finish
