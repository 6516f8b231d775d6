#!/bin/sh
# libamon's sampling clock (AMON_CLOCK=sample) where a library calls
# several routines from one call site at one depth, one after another,
# and one of them, a routine of the library's own, calls back into the
# program: exit(3) calls a C++ program's static destructors and the C++
# library's so (muparser 2.3.3: ParserErrorMsg's destructor, then
# std::locale's, which deletes the program's facet).  The program here
# registers handler_a (profiled) and lib_handler (in a shared library
# built without profiling, which calls leaf) with atexit(3); exit runs
# handler_a, then lib_handler, whose frame takes the slot handler_a's
# return address had, holding the same address.  handler_a calls nothing,
# so the arcs are main -> leaf once and nothing more: the default clock's,
# which sees handler_a return.  The sampling clock saw none, found
# handler_a's address still in its slot when it walked up the stack from
# lib_handler's call, and counted a call handler_a -> leaf.
. "${top_srcdir:-.}/tests/cli/common.sh"
case $(uname -m) in x86_64) ;; *) skip "the -pg mode's sampling walk is for x86-64" ;; esac
amon_setup

cat >"$tmp/main.c" <<'EOF'
#include <stdlib.h>
void lib_handler (void);
volatile unsigned sink;
__attribute__ ((noinline)) void leaf (void) { for (unsigned i = 0; i < 1000; i++) sink += i; }
__attribute__ ((noinline)) void handler_a (void) { for (unsigned i = 0; i < 1000; i++) sink ^= i; }
int main (void)
{
  /* run in the opposite order: handler_a, then lib_handler */
  if (atexit (lib_handler) != 0 || atexit (handler_a) != 0)
    return 2;
  leaf ();
  return 0;
}
EOF
cat >"$tmp/lib.c" <<'EOF'
extern volatile unsigned sink;
void leaf (void);
/* no tail call: leaf runs in a frame above this routine's */
void lib_handler (void) { leaf (); leaf (); sink++; }
EOF
$CC -O2 -fPIC -shared -o "$tmp/libhandler.so" "$tmp/lib.c" >"$tmp/build.log" 2>&1 \
  || fail "building the library: $(head -c 300 "$tmp/build.log")"

# check NAME FLAGS — builds with FLAGS, runs with each clock
check () {
  name=$1 flags=$2
  $CC -O2 $flags -o "$tmp/$name" "$tmp/main.c" -L"$tmp" -lhandler -L"$libdir" -lamon -Wl,-z,now \
      -Wl,-rpath,"$libdir" -Wl,-rpath,"$tmp" >"$tmp/build.log" 2>&1 \
    || { fail "building $name ($flags): $(head -c 300 "$tmp/build.log")"; return; }
  for clock in cpu sample; do
    rm -f "$tmp/amon.out"
    (cd "$tmp" && AMON_CLOCK=$clock "./$name") || { fail "$name, AMON_CLOCK=$clock, exited $?"; continue; }
    "$cgmerge" "$tmp/amon.out" | "$cgcost" --format=tsv --arcs >"$tmp/tsv" 2>&1 \
      || { fail "$name, AMON_CLOCK=$clock: cannot read its amon.out: $(head -c 300 "$tmp/tsv")"; continue; }
    arcs=$(awk -F '\t' 'NR > 1 { printf "%s%s>%s:%s", sep, $1, $2, $3; sep = " " }' "$tmp/tsv")
    [ "$arcs" = "main>leaf:1" ] \
      || fail "$name, AMON_CLOCK=$clock: arcs '$arcs', not 'main>leaf:1' (handler_a calls nothing; lib_handler, in another object, calls leaf)"
  done
}

check recommended "$cflags"
[ -n "$portable" ] && [ "$portable" != "$cflags" ] && check portable "$portable"

finish
