#!/bin/sh
# Devel::NYTProf's nytprofcg (Perl): a callgrind-format file whose blocks
# of calls are written under the file of each call's site, not of the
# calling sub ("fl=Shapes.pm fn=main::BEGIN@2" for the calls that
# Shapes.pm's top-level code makes while main's "use Shapes" runs it;
# main::BEGIN@2's own block says fl=main.pl), made at test time from a
# program and a module of its own.  Oracle: NYTProf's own numbers, read
# through its Devel::NYTProf::Data: each sub is one function (one row, no
# "[file]"), with NYTProf's calls and self time (nytprofcg writes whole
# microseconds), its total within a microsecond per call site of
# NYTProf's inclusive time, and the calls NYTProf says each sub made.
# Skipped (77) without Devel::NYTProf (Debian: libdevel-nytprof-perl).
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v nytprofcg >/dev/null 2>&1 && perl -MDevel::NYTProf::Data -e 1 2>/dev/null \
  || skip "Devel::NYTProf is not installed (Debian: libdevel-nytprof-perl)"
cat >"$tmp/Shapes.pm" <<'PERL'
package Shapes;
sub helper { return $_[0] % 7 }
sub area { my $x = shift; return $x * $x * 3.14159 + helper ($x) }
sub init { my $s = 0; $s += area ($_) for 1 .. 3000; return $s }
our $TABLE = init ();
1;
PERL
cat >"$tmp/main.pl" <<'PERL'
use lib '.';
use Shapes;
sub work { my $s = 0; $s += Shapes::area ($_) for 1 .. $_[0]; return $s }
my $t = 0;
$t += work (2000) for 1 .. 10;
print int ($t) % 1000, "\n";
PERL
(cd "$tmp" && perl -d:NYTProf main.pl && nytprofcg --file nytprof.out --out nyt.cg) >"$tmp/log" 2>&1 \
  || fail "perl -d:NYTProf / nytprofcg: $(tail -3 "$tmp/log")"
grep -q '^fn=main::BEGIN@2$' "$tmp/nyt.cg" && grep -q '^fl=.*Shapes.pm$' "$tmp/nyt.cg" \
  || fail "test set-up: nytprofcg wrote no block of main::BEGIN@2: $(head -5 "$tmp/nyt.cg")"

# NYTProf's subs: NAME<TAB>CALLS<TAB>SELF<TAB>TOTAL (microseconds), and
# its callers: CALLER<TAB>CALLEE
(cd "$tmp" && perl -MDevel::NYTProf::Data -e '
  my $p = Devel::NYTProf::Data->new ({ filename => "nytprof.out", quiet => 1 });
  open my $subs, ">", "subs" or die; open my $calls, ">", "calls" or die;
  for my $s (values %{ $p->subname_subinfo_map }) {
    next unless $s->calls;
    printf $subs "%s\t%d\t%d\t%d\n", $s->subname, $s->calls, int ($s->excl_time * 1e6), int ($s->incl_time * 1e6);
    my $places = $s->caller_fid_line_places || {};
    for my $lines (values %$places) {
      for my $info (values %$lines) { print $calls "$_\t", $s->subname, "\n" for keys %{ $info->[7] || {} } }
    }
  }') || fail "reading nytprof.out with Devel::NYTProf::Data"

expect 0 "$cgcost" --format=tsv "$tmp/nyt.cg" || fail "cgcost on nytprofcg's file"
awk -F '\t' 'NR == FNR { calls[$1] = $2; self[$1] = $3; total[$1] = $4; next }
  FNR > 1 && / \[/ { print "  a sub in two functions: " $1; wrong++ }
  FNR > 1 && ($1 in calls) { seen[$1] = 1
    d = total[$1] - $4; if (d < 0) d = -d
    if ($2 != calls[$1] || $3 != self[$1] || d > 3) {
      wrong++; print "  " $1 ": calls, self, total " $2 ", " $3 ", " $4 "; NYTProf " calls[$1] ", " self[$1] ", " total[$1] } }
  END { for (f in calls) if (!(f in seen)) { wrong++; print "  no row for " f }
        exit wrong > 0 }' "$tmp/subs" "$tmp/out" >"$tmp/cmp" \
  || fail "the subs against NYTProf's numbers: $(head -6 "$tmp/cmp")"
for f in main::BEGIN@2 main::work Shapes::init Shapes::area Shapes::helper; do
  grep -q "^$f	" "$tmp/subs" || fail "test set-up: NYTProf has no sub $f"
done
# the calls: each caller NYTProf names is the arc's caller
"$cgcost" --format=tsv --arcs "$tmp/nyt.cg" >"$tmp/arcs" || fail "cgcost --arcs"
sort -u "$tmp/calls" >"$tmp/want.arcs"
awk -F '\t' 'NR > 1 && NF >= 4 && $3 > 0 { print $1 "\t" $2 }' "$tmp/arcs" | sort -u >"$tmp/got.arcs"
comm -23 "$tmp/want.arcs" "$tmp/got.arcs" >"$tmp/missing"
[ -s "$tmp/missing" ] && fail "calls NYTProf saw that no arc carries: $(head -4 "$tmp/missing")"
grep -q "^main::BEGIN@2	Shapes::init$" "$tmp/want.arcs" || fail "test set-up: NYTProf has no call main::BEGIN@2 -> Shapes::init"
finish
