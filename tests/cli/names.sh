#!/bin/sh
# Function names as people type them (cgtree --root, --focus, --hide,
# --ignore; cgtree(1) FUNCTION NAMES): the exact name first; else the one
# function whose demangled name, without parameters, template arguments
# and clone suffixes, ends with the typed name after "::"; several: an
# error listing them; none: the closest names.  Oracles: the tree rooted
# at the full name (as cgcost's tsv spells it), and the tsv's names.
. "${top_srcdir:-.}/tests/cli/common.sh"

# ---- folded stacks: names with parentheses, which as regular
# expressions match nothing (a group) or are no expression at all ----
cat >"$tmp/p.folded" <<'EOF'
main;app::Parser::HandleNext(app::Handler&);app::RegEx<app::Str>::Match(app::Str const&) const 30
main;app::Parser::HandleNext(app::Handler&);app::RegEx<app::Num>::Match(app::Num const&) const 20
main;app::Parser::HandleNext(app::Handler&);app::Scanner::peek() 15
main;app::Parser::HandleNext(app::Handler&);app::Stream::peek() const 10
main;app::Parser::HandleNext(app::Handler&) 5
main;app::Emit(app::Node const&) 20
EOF
# --focus with a C++ name and its parameters: the function, 80 of 100
expect 0 "$cgtree" --threshold=0 --focus='Parser::HandleNext(app::Handler&)' "$tmp/p.folded" \
  && grep -q 'Focus: 1 function matching .*80.00% of the profile' "$tmp/out" \
  || fail "--focus by a name with parameters: $(cat "$tmp/err" "$tmp/out" | head -3)"
# --hide with a name that is no regular expression's match (its '<' and
# parentheses): Match<Str>'s 30 go to HandleNext, whose self is then 35
expect 0 "$cgtree" -b --threshold=0 --hide='RegEx<app::Str>::Match(app::Str const&) const' "$tmp/p.folded" \
  && ! grep -q 'RegEx<app::Str>' "$tmp/out" \
  && grep -qE '^ +80\.00 +35\.00 .*app::Parser::HandleNext' "$tmp/out" \
  || fail "--hide by a name: $(cat "$tmp/err" "$tmp/out" | head -4)"
# --ignore likewise: Stream::peek's 10 go
expect 0 "$cgtree" --threshold=0 --ignore='Stream::peek() const' "$tmp/p.folded" \
  && notes "$tmp/out" | grep -q "Ignored: 1 function matching 'Stream::peek() const' and all it called, 10.00% of the profile" \
  || fail "--ignore by a name: $(cat "$tmp/err" "$tmp/out" | head -4)"
# a regular expression that matches keeps its meaning: every peek
expect 0 "$cgtree" --threshold=0 --hide='peek' "$tmp/p.folded" && notes "$tmp/out" | grep -q 'Hidden: 2 functions' \
  || fail "--hide=peek as a regular expression: $(grep Hidden "$tmp/out")"
# nothing close: the error names the closest names
expect 2 "$cgtree" --focus='Handel(' "$tmp/p.folded" && expect_message 'the closest name: app::Parser::HandleNext'
expect 2 "$cgtree" --hide='Scaner::peek' "$tmp/p.folded" && expect_message 'the closest name: app::Scanner::peek'

# ---- a root under the threshold: its tree from 1% of it, not an empty table ----
printf 'main;big 990\nmain;small;leaf 3\nmain;small 2\n' >"$tmp/small.folded"
expect 0 "$cgtree" --root=small "$tmp/small.folded" \
  && [ "$(sed -n '/^  incl%/,$p' "$tmp/out" | sed 1d | awk '{ print $1 "/" $2 "/" $NF }' | tr '\n' ' ')" = '0.50/0.20/small 0.30/0.30/`-leaf ' ] \
  || fail "--root below the threshold: $(sed -n '/^  incl%/,$p' "$tmp/out")"
tr '\n' ' ' <"$tmp/out" | grep -q 'The root carries 0.503% of the profile, under the 1% threshold: the lines from 0.00503% (1% of the root.s cost) are shown' \
  || fail "no note of the root under the threshold: $(head -4 "$tmp/out")"
# a threshold given is kept
expect 0 "$cgtree" --threshold=1 --root=small "$tmp/small.folded" && [ -z "$(sed -n '/^  incl%/,$p' "$tmp/out" | sed 1d)" ] \
  || fail "--threshold=1 --root=small: $(sed -n '/^  incl%/,$p' "$tmp/out")"

# ---- cgcost's gprof specs: linker names, as gprof's; a name that is none
# is warned of with the linker name it means (gprof ignores it silently) ----
if command -v gprof >/dev/null 2>&1 && ${CXX:-g++} -pg -O1 -o "$tmp/names.pg" "$top_srcdir/data/programs/names-parser.cc" 2>/dev/null \
  && (cd "$tmp" && ./names.pg 50 >/dev/null); then
  mangled=_ZN3app6Parser10HandleNextERNS_7HandlerE
  for spec in HandleNext "$mangled"; do
    gprof -b -p"$spec" "$tmp/names.pg" "$tmp/gmon.out" >"$tmp/gprof.txt" 2>&1
    expect 0 "$cgcost" --format=gprof -b --executable="$tmp/names.pg" -p"$spec" "$tmp/gmon.out" \
      && cmp -s "$tmp/out" "$tmp/gprof.txt" || fail "-p$spec is not gprof's: $(diff "$tmp/gprof.txt" "$tmp/out" | head -4)"
    if [ "$spec" = HandleNext ]; then
      expect_message "'HandleNext' is no function's linker name, and gprof's specs match those only: the spec is ignored, as by gprof; give its linker name: app::Parser::HandleNext(app::Handler&) is $mangled"
    else
      # the run is too short for a sample: that warning is the histogram's, not the spec's
      grep -v -F 'the histogram holds no samples' "$tmp/err" | grep -q . && fail "-p$mangled warns: $(cat "$tmp/err")"
      grep -q 'HandleNext' "$tmp/out" && [ "$(grep -c '::' "$tmp/out")" = 1 ] || fail "-p$mangled: $(cat "$tmp/out")"
    fi
  done
  expect 0 "$cgcost" --format=gprof -b --executable="$tmp/names.pg" -qHandelNext "$tmp/gmon.out" \
    && expect_message "'HandelNext' is no function's linker name" && expect_message 'the closest name: app::Parser::HandleNext'
fi

# ---- a C++ program under callgrind: --root ----
command -v valgrind >/dev/null 2>&1 || skip "no valgrind"
cxx=${CXX:-g++}
command -v "$cxx" >/dev/null 2>&1 || skip "no C++ compiler"
"$cxx" -O1 -g -o "$tmp/names" "$top_srcdir/data/programs/names-parser.cc" || fail "cannot build names-parser.cc"
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/names" >"$tmp/run" 2>"$tmp/vg" \
  || fail "callgrind: $(tail -3 "$tmp/vg")"
"$cgcost" --format=tsv "$tmp/cg.out" >"$tmp/tsv"
full='app::Parser::HandleNext(app::Handler&)'
[ "$(total_of "$tmp/tsv" "$full")" -gt 0 ] || fail "no $full in the tsv: $(grep app "$tmp/tsv")"
expect 0 "$cgtree" -b --threshold=0 --root="$full" "$tmp/cg.out" && cp "$tmp/out" "$tmp/want"
total=$(total_of "$tmp/tsv" "$full" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
grep -q "^ .* $total .*  app::Parser::HandleNext" "$tmp/want" \
  || fail "--root=$full: not its total $total: $(head -3 "$tmp/want")"
# the unqualified name, a suffix at '::', with parameters or without
for typed in HandleNext Parser::HandleNext 'HandleNext(app::Handler&)' app::Parser::HandleNext; do
  expect 0 "$cgtree" -b --threshold=0 --root="$typed" "$tmp/cg.out" && cmp -s "$tmp/out" "$tmp/want" \
    || fail "--root=$typed is not --root=$full: $(head -c 300 "$tmp/err"; head -3 "$tmp/out")"
done
# two classes' peek: an error listing both, exit 2; the class tells them apart
expect 2 "$cgtree" --root=peek "$tmp/cg.out" && expect_message '2 functions have that name' \
  && expect_message '  app::Scanner::peek()' && expect_message '  app::Stream::peek() const'
expect 0 "$cgtree" -b --threshold=0 --root=Stream::peek "$tmp/cg.out" \
  && [ "$(sed -n 2p "$tmp/out" | sed 's/.*  //')" = 'app::Stream::peek() const' ] \
  || fail "--root=Stream::peek: $(sed -n 2p "$tmp/out")"
# a class template's instantiations: the template argument tells them apart
expect 2 "$cgtree" --root=Match "$tmp/cg.out" && expect_message '2 functions have that name'
expect 0 "$cgtree" -b --threshold=0 --root='RegEx<app::Num>::Match' "$tmp/cg.out" \
  && [ "$(sed -n 2p "$tmp/out" | sed 's/.*  //')" = 'app::RegEx<app::Num>::Match(app::Num const&) const' ] \
  || fail "--root=RegEx<app::Num>::Match: $(sed -n 2p "$tmp/out")"
# misspelt: the closest names, exit 2
expect 2 "$cgtree" --root=HandelNext "$tmp/cg.out" && expect_message 'the closest name: app::Parser::HandleNext'
expect 2 "$cgtree" --root=Parser::HandleNextDoc "$tmp/cg.out" && expect_message 'the closest name: app::Parser::HandleNext'
# --focus on a call graph: the name typed as by --root
expect 0 "$cgtree" -b --threshold=0 --focus='HandleNext(app::Handler&)' "$tmp/cg.out" && cmp -s "$tmp/out" "$tmp/want" \
  || fail "--focus='HandleNext(app::Handler&)' is not --root=$full: $(head -c 300 "$tmp/err")"
finish
