#!/bin/sh
# Names for people: the text views (cgtree text, html and dot, cgcost
# text, cgcycles text) print C++ and Rust names demangled, --no-demangle
# prints them as the linker sees them, --root and --focus take either
# form, and tsv, the contract for scripts, never demangles.  The oracle is
# binutils' c++filt (the same libiberty), less the hash of Rust's legacy
# names, which gprof's flags (no DMGL_VERBOSE) leave out as we do.  Then
# a C++ program built here with g++ -pg: gprof's names and ours agree.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v c++filt >/dev/null || skip "c++filt (binutils) is not installed"

cat >"$tmp/cxx.folded" <<'EOF'
main;_ZN2ns5Outer5innerEv;_ZNSt6vectorIiSaIiEE9push_backERKi 30
main;_ZN2ns5Outer5innerEv;_Z4leafi 50
main;_ZN2ns5Outer5innerEv;_ZN2ns5Outer5innerEv;_Z4leafi 5
main;_ZN4core3fmt5write17h1234567890abcdefE 10
main;_Z4leafi.cold 3
main;plain_c;_ZN1A1fEv;_ZN1B1gEv;_ZN1A1fEv 2
main;_ZNK3FooclEv@@VER_1 4
EOF
"$cgcost" --format=tsv "$tmp/cxx.folded" | tail -n +2 | cut -f1 | sort >"$tmp/mangled" \
  || fail "cgcost --format=tsv"
grep -q '^_ZN2ns5Outer5innerEv$' "$tmp/mangled" || fail "tsv demangled a name: $(cat "$tmp/mangled")"
c++filt <"$tmp/mangled" | sed 's/::h[0-9a-f]\{16\}$//' | sort >"$tmp/want"
"$cgcost" --format=tsv "$tmp/cxx.folded" | tail -n +2 | cut -f1 | c++filt | grep -q '::h1234567890abcdef$' \
  || fail "c++filt no longer keeps Rust's hash: the oracle's sed is wrong"
if ! "$cgcost" --format=text "$tmp/cxx.folded" | grep -q 'ns::Outer::inner()'; then
  grep -q '^#define HAVE_LIBIBERTY 1' "$top_builddir/config.h" && fail "cgcost --format=text did not demangle"
  skip "built without libiberty: nothing is demangled"
fi

# names_of — the function names of cgtree's text lines (one per line)
names_of () {
  sed -n '/^  incl%/,$p' | tail -n +2 | cut -c44- | sed 's/ (recursion: its cost is in the lines above)$//; s/^[| `-]*//; s/ <cycle [0-9]*>//; s/ -> \[[0-9]*\]$//; s/ \[[0-9]*\]$//'
}
"$cgtree" --threshold=0 --no-fold --color=never "$tmp/cxx.folded" >"$tmp/tree" || fail "cgtree"
names_of <"$tmp/tree" | sort -u >"$tmp/got"
diff "$tmp/want" "$tmp/got" >&2 || fail "cgtree's names are not c++filt's"
"$cgtree" --threshold=0 --no-fold --no-demangle "$tmp/cxx.folded" | names_of | sort -u >"$tmp/got"
diff "$tmp/mangled" "$tmp/got" >&2 || fail "cgtree --no-demangle changed names"

# sorted by the names people read
"$cgtree" --threshold=0 --no-fold --sort=name "$tmp/cxx.folded" | names_of | sed -n '2,6p' >"$tmp/got"
printf '%s\n' 'Foo::operator()() const@@VER_1' core::fmt::write 'leaf(int) [clone .cold]' 'ns::Outer::inner()' \
  'leaf(int)' >"$tmp/want-order"
diff "$tmp/want-order" "$tmp/got" >&2 || fail "cgtree --sort=name does not sort the demangled names"

# flat_names — the function names of cgcost --format=text's flat profile
# (without the linker name that tells apart names demangled alike)
flat_names () {
  awk '/^  %self/ { p = index($0, "function"); next } p && /^$/ { exit } p { print substr($0, p) }' \
    | sed 's/ <cycle [0-9]*>$//; s/ \[_[ZR][^]]*\]$//' | sort -u
}

# cgcost's flat profile: every function, demangled
"$cgcost" --format=text "$tmp/cxx.folded" | flat_names >"$tmp/got"
diff "$tmp/want" "$tmp/got" >&2 || fail "cgcost --format=text's names are not c++filt's"
"$cgcost" --format=text --no-demangle "$tmp/cxx.folded" | grep -q '^ .* _ZN2ns5Outer5innerEv$' \
  || fail "cgcost --format=text --no-demangle"

# cgcycles: the members of A::f() <-> B::g()
"$cgcycles" --format=text "$tmp/cxx.folded" >"$tmp/cycles" || fail "cgcycles --format=text"
grep -q ' A::f()$' "$tmp/cycles" && grep -q ' B::g()$' "$tmp/cycles" || fail "cgcycles: $(cat "$tmp/cycles")"
"$cgcycles" --format=text --no-demangle "$tmp/cxx.folded" | grep -q ' _ZN1A1fEv$' || fail "cgcycles --no-demangle"

# names that demangle alike (a deleting and a base-object destructor) are
# told apart by their linker names; gprof's form prints them alike, as gprof
printf 'main;_ZN6CircleD0Ev;_ZN6CircleD2Ev;_ZN5ShapeD2Ev 7\n' >"$tmp/twins.folded"
"$cgtree" --threshold=0 --no-fold "$tmp/twins.folded" | names_of >"$tmp/got"
printf '%s\n' main 'Circle::~Circle() [_ZN6CircleD0Ev]' 'Circle::~Circle() [_ZN6CircleD2Ev]' 'Shape::~Shape()' \
  >"$tmp/want-twins"
diff "$tmp/want-twins" "$tmp/got" >&2 || fail "names that demangle alike are not told apart"
"$cgcost" --format=gprof --method=gprof -b "$tmp/twins.folded" | grep -q '\[_ZN' && fail "gprof's form told twins apart"

# html and dot
"$cgtree" --format=html "$tmp/cxx.folded" \
  | grep -q '"std::vector\\u003cint, std::allocator\\u003cint\\u003e \\u003e::push_back(int const\\u0026)"' \
  || fail "cgtree --format=html does not demangle"
"$cgtree" --format=dot --threshold=0 "$tmp/cxx.folded" | grep -q 'label="ns::Outer::inner()' \
  || fail "cgtree --format=dot does not demangle"

# --root and --focus take the demangled form as well as the linker's
for r in 'ns::Outer::inner()' _ZN2ns5Outer5innerEv; do
  "$cgtree" --threshold=0 --no-fold --root="$r" "$tmp/cxx.folded" | names_of | head -1 >"$tmp/got"
  [ "$(cat "$tmp/got")" = 'ns::Outer::inner()' ] || fail "cgtree --root=$r starts at '$(cat "$tmp/got")'"
done
"$cgtree" --threshold=0 --no-fold --focus='^leaf\(int\)$' "$tmp/cxx.folded" | names_of | sort -u >"$tmp/got"
[ "$(cat "$tmp/got")" = 'leaf(int)' ] || fail "cgtree --focus on a demangled name: $(cat "$tmp/got")"

# A real C++ program: the names gprof prints for its flat profile are
# the names our flat profile prints.
if command -v g++ >/dev/null && command -v gprof >/dev/null; then
  cat >"$tmp/prog.cc" <<'EOF'
#include <cstdio>
#include <vector>
namespace geo {
template <typename T> struct Box {
  std::vector<T> items;
  __attribute__ ((noinline)) void add (T x) { items.push_back (x); }
  __attribute__ ((noinline)) T sum (std::size_t i) const { return i == items.size () ? T () : items[i] + sum (i + 1); }
};
struct Shape { virtual ~Shape () {} virtual double area () const = 0; };
struct Square : Shape { double s; Square (double x) : s (x) {} double area () const override { return s * s; } };
}
__attribute__ ((noinline)) static double work (int n) {
  geo::Box<long> b; geo::Box<double> d;
  for (int i = 0; i < 200; i++) { b.add (i); d.add (i * 0.5); }
  double t = 0;
  for (int k = 0; k < n; k++) { geo::Square sq (k); const geo::Shape &s = sq; t += s.area () + (double) b.sum (0) + d.sum (0); }
  return t;
}
int main () { std::printf ("%g\n", work (20000)); return 0; }
EOF
  if (cd "$tmp" && g++ -O0 -pg -no-pie -o prog prog.cc && ./prog >/dev/null); then
    gprof -b -p "$tmp/prog" "$tmp/gmon.out" | sed -n '/^ time/,$p' | tail -n +2 | cut -c55- | sed '/^$/d' \
      | sort >"$tmp/gprof-names"
    [ -s "$tmp/gprof-names" ] || fail "gprof printed no flat profile"
    "$cgcost" --format=text --executable="$tmp/prog" "$tmp/gmon.out" | flat_names >"$tmp/got"
    missing=$(comm -23 "$tmp/gprof-names" "$tmp/got")
    [ -z "$missing" ] || fail "names gprof prints that cgcost --format=text does not: $missing"
    grep -q '^geo::Box<long>::sum(unsigned long) const$' "$tmp/got" || fail "no geo::Box<long>::sum in: $(cat "$tmp/got")"
  else
    echo "SKIP: cannot build or run a C++ program with g++ -pg"
  fi
fi
exit $((failures > 0))
