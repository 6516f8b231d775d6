#!/bin/sh
# libamon on two program shapes whose structure is the oracle:
#  - four threads run work(): three start there, main calls it once.  A
#    thread's start routine has no caller, so it is a root: the three
#    threads' share of work's total (3/4 by the structure; the threads'
#    CPU time varies, so 0.55 to 0.95) is its spontaneous cost, cgtree
#    shows work as a root, and cgcost --format=text lists <spontaneous>
#    among its callers with that cost, not only main's one call.
#  - a recursive-descent parser (expr -> term -> factor -> expr) on
#    "(1)+(2)": the run goes round one cycle, expr, term, factor, and the
#    calls that close it are the inner expr, term and factor of each of
#    the two parenthesised terms: 6.  The history compression drops term
#    between expr's two entries inside the second factor, which must not
#    list a cycle of expr and factor "closed 0 times".
. "${top_srcdir:-.}/tests/cli/common.sh"
lib="$top_builddir/src/amon/libamon.la"
[ -f "$lib" ] || skip "libamon was not built"
LIBTOOL=${LIBTOOL:-"$top_builddir/libtool"}

# build NAME — $tmp/NAME.c compiled with -finstrument-functions, linked with libamon
build () {
  ${CC:-cc} -O1 -finstrument-functions -pthread -c -o "$tmp/$1.o" "$tmp/$1.c" || skip "cannot compile $1"
  $LIBTOOL --mode=link --tag=CC ${CC:-cc} -static -pthread -o "$tmp/$1" "$tmp/$1.o" "$lib" >"$tmp/link.log" 2>&1 \
    || { cat "$tmp/link.log"; fail "link $1"; finish; }
}

cat >"$tmp/threads.c" <<'EOF'
#include <pthread.h>
static volatile long spin;
__attribute__ ((noinline)) static void leaf (int n) { for (long i = 0; i < n * 100000L; i++) spin++; }
__attribute__ ((noinline)) static void helper (void) { leaf (50); }
__attribute__ ((noinline)) static void *work (void *arg) { (void) arg; for (int i = 0; i < 10; i++) helper (); return 0; }
int main (void)
{
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create (&t[i], 0, work, 0);
  work (0);
  for (int i = 0; i < 3; i++)
    pthread_join (t[i], 0);
  return 0;
}
EOF
build threads
(cd "$tmp" && AMON_OUT="$tmp/threads.out" ./threads) || fail "threads failed"
"$cgmerge" "$tmp/threads.out" >"$tmp/threads.xml" || fail "cgmerge threads"
validate "$tmp/threads.xml"
# work's row: name, object, file, line, self, spontaneous
share=$("$cgcost" --format=tsv "$tmp/threads.xml" | awk -F '\t' '$1 == "work" { print $4 }')
spont=$(awk -F '\t' '$1 == "work" { print $6 }' "$tmp/threads.xml")
awk -v s="$spont" -v t="$share" 'BEGIN { r = s * 1e-9 / t; printf "threads: work started spontaneously %.3f of its total\n", r; exit !(r > 0.55 && r < 0.95) }' \
  || fail "threads: work's spontaneous cost $spont ns of its total $share s"
"$cgtree" "$tmp/threads.xml" >"$tmp/threads.tree" || fail "cgtree threads"
parse_tree "$tmp/threads.tree" seconds | awk -F '\t' '$1 == 0 && $4 ~ /^work( |$)/ { ok = 1 } END { exit !ok }' \
  || fail "threads: work is not a root: $(cat "$tmp/threads.tree")"
"$cgcost" --format=text "$tmp/threads.xml" >"$tmp/threads.txt" || fail "cgcost threads"
awk '/^-+$/ { caller = 0; next } /<spontaneous>/ && $1 + 0 > 0 { caller = 1 } /^\[[0-9]+\].* work \[/ { found = caller } END { exit !found }' \
  "$tmp/threads.txt" || fail "threads: work has no <spontaneous> caller with a cost: $(cat "$tmp/threads.txt")"

cat >"$tmp/parser.c" <<'EOF'
static const char *p;
static volatile long spin;
__attribute__ ((noinline)) static void work (void) { for (long i = 0; i < 100000L; i++) spin++; }
static int expr (void);
__attribute__ ((noinline)) static int factor (void)
{
  work ();
  if (*p == '(')
    {
      p++;
      int v = expr ();
      p++;
      return v;
    }
  return *p++ - '0';
}
__attribute__ ((noinline)) static int term (void)
{
  int v = factor ();
  while (*p == '*')
    {
      p++;
      v *= factor ();
    }
  return v;
}
__attribute__ ((noinline)) static int expr (void)
{
  int v = term ();
  while (*p == '+')
    {
      p++;
      v += term ();
    }
  return v;
}
int main (int argc, char **argv)
{
  p = argc > 1 ? argv[1] : "(1)+(2)";
  return expr () == 3 ? 0 : 1;
}
EOF
build parser
(cd "$tmp" && AMON_OUT="$tmp/parser.out" ./parser) || fail "parser failed"
"$cgcycles" --format=text "$tmp/parser.out" >"$tmp/parser.cycles" || fail "cgcycles parser"
grep -q "^1 cycle traversed" "$tmp/parser.cycles" || fail "parser: not one traversed cycle: $(cat "$tmp/parser.cycles")"
grep -q "closed 6 times: expr, term, factor$" "$tmp/parser.cycles" || fail "parser: $(cat "$tmp/parser.cycles")"
grep -q "closed 0 times" "$tmp/parser.cycles" && fail "parser: a cycle never traversed is listed"

# every view that shows times says what the monitor took out as its own
# cost, of what it measured, read from the file and through cgtools XML:
# a summary at the head of its table, read at a glance (the note in full
# ran to 18 lines above duktape's); the report of the inputs says how
# each measure was found
"$cgmerge" "$tmp/parser.out" >"$tmp/parser.xml" || fail "cgmerge parser"
validate "$tmp/parser.xml"
for view in "$cgcost --format=text" "$cgtree" "$cgcycles --format=text" "$cgmerge --format=text"; do
  for input in "$tmp/parser.out" "$tmp/parser.xml"; do
    $view "$input" >"$tmp/view.txt" 2>&1 || fail "$view $input"
    if [ "$view" = "$cgmerge --format=text" ]; then
      notes "$tmp/view.txt" | grep -q "instrumentation cost taken out: [0-9.e-]* s of [0-9.e-]* s measured ([0-9]* calls and returns, [0-9.]* ns each on average with the monitor's other work (threads' set-up, calibrations); the cost in force was the lowest of the last 32 of [0-9]* calibrations" \
        || fail "$view $input does not say in full what was taken out: $(head -5 "$tmp/view.txt")"
      lines=20
    else
      notes "$tmp/view.txt" | grep -q "instrumentation cost taken out: [0-9.e-]* s of [0-9.e-]* s measured ([0-9]* calls and returns).* (in full: cgmerge --format=text)$" \
        || fail "$view $input does not say what was taken out: $(head -5 "$tmp/view.txt")"
      notes "$tmp/view.txt" | grep -q "calibrations" && fail "$view $input: the note is not the summary: $(grep -A5 '^Note' "$tmp/view.txt")"
      lines=5
    fi
    # wrapped to 80 columns, the summary in at most 5 lines
    awk -v most=$lines '/^Note/ { on = 1; n++ } on && !/^(Note|      [^ ])/ { on = 0 } on && length > 80 { bad = 1 } on { l++ }
         END { exit bad || n == 0 || l > most }' "$tmp/view.txt" \
      || fail "$view $input: a note's line is wider than 80 columns, or it has more than $lines: $(grep -A20 '^Note' "$tmp/view.txt")"
  done
done
# and so do the other views of times: gprof's layout, the page, the
# graph, the differences (each profile's note), where they said nothing
for view in "$cgcost --format=gprof" "$cgcost --format=gprof -b" "$cgcost --format=text -b" "$cgtree -b" \
  "$cgtree --format=html" "$cgtree --format=dot" "$cgtree --format=dot -b" \
  "$cgcost --format=text --base=$tmp/parser.xml" "$cgcost --format=text --arcs --base=$tmp/parser.xml" \
  "$cgtree --base=$tmp/parser.xml" "$cgtree --format=html --base=$tmp/parser.xml" \
  "$cgtree --format=dot --base=$tmp/parser.xml"; do
  $view "$tmp/parser.out" >"$tmp/view.txt" 2>&1 || fail "$view"
  # one note on one line: text's wraps and dot's line breaks joined
  notes "$tmp/view.txt" | sed 's/\\n */ /g' >"$tmp/joined"
  n=$(grep -o "instrumentation cost taken out: [0-9.e-]* s of [0-9.e-]* s measured ([0-9]* calls and returns" "$tmp/joined" | wc -l)
  case $view in *--base*) want=2 ;; *) want=1 ;; esac
  [ "$n" = "$want" ] || fail "$view: $n notes of what was taken out, not $want: $(head -c 600 "$tmp/view.txt")"
done
finish
