#!/bin/bash
# amon-overhead.sh — libamon's overhead against gcc -pg on call-heavy
# programs, in the form of Spivey's Tables I and II (make bench-amon; not
# part of make check).
#
# Programs, each built five ways from the same sources: bare -O2; -pg
# (gprof); -finstrument-functions with libamon, run with AMON_CLOCK=cpu
# (the default: exact times from the time-stamp counter) and with
# AMON_CLOCK=sample (SIGPROF, gprof's way of timing); and
# -finstrument-functions with empty hooks ("dummy": what calling the two
# hooks costs at all).
#   parse, huff, btree  bench/programs/calls.c: a recursive-descent
#            expression parser, a Huffman coder, a B-tree (synthetic, a
#            call every 6-8 ns);
#   cjson    cJSON (a real recursive-descent JSON parser and printer)
#            parsing and printing Debian's package status as JSON;
#   zlib     zlib's minigzip compressing a corpus of real text at -9;
#   sqlite   SQLite's amalgamation shell running bench/programs/sql-bench.sql.
# The real programs' sources come from Debian's source archive
# (`apt-get source`, deb-src enabled) into bench/out/src, or from
# $AMON_BENCH_SOURCES where they were unpacked before; a program whose
# sources cannot be had is skipped with a message.  Nothing fetched is
# part of cgtools.
#
# Each time is the CPU time (user + system) of the best of REPS runs
# (default 3).  Table I: text size, functions called, calls, contexts and
# transitions created, history depth (mean, max), profiling memory,
# amon.out and gmon.out sizes, and the share of calls that needed no new
# transition (B1, with direct recursion).  Table II: times and overheads;
# "x-pg" is the instrumented time over gprof's.  Table III: what each
# way costs per call, in nanoseconds over bare.
#
# Environment: top_srcdir, top_builddir (default: this script's tree and
# the working directory), CC (cc), REPS (3), AMON_BENCH_SOURCES,
# AMON_LIB (another libamon.a to measure, e.g. an older build),
# AMON_BENCH_ONLY (a space-separated list of program names to run).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/..}
top_builddir=${top_builddir:-.}
CC=${CC:-cc}
REPS=${REPS:-3}
lib=${AMON_LIB:-$(cd "$top_builddir" && pwd)/src/amon/.libs/libamon.a}
[ -f "$lib" ] || { echo "amon-overhead: build libamon first (make)" >&2; exit 1; }
out=$(mkdir -p "$top_builddir/bench/out" && cd "$top_builddir/bench/out" && pwd)
srcdir=${AMON_BENCH_SOURCES:-$out/src}
mkdir -p "$srcdir" "$out/obj" "$out/run"
programs=$(cd "$top_srcdir/bench/programs" && pwd)

say () { printf 'amon-overhead: %s\n' "$*" >&2; }
wanted () { [ -z "${AMON_BENCH_ONLY:-}" ] || case " $AMON_BENCH_ONLY " in *" $1 "*) true ;; *) false ;; esac; }

# source PACKAGE — the directory of PACKAGE's unpacked Debian source,
# fetched when missing; fails (quietly) when it cannot be had
source_of () {
  local d
  d=$(find "$srcdir" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
  if [ -z "$d" ]; then
    command -v apt-get >/dev/null 2>&1 && command -v dpkg-source >/dev/null 2>&1 || return 1
    say "fetching the sources of $1 (apt-get source)"
    (cd "$srcdir" && apt-get source -qq "$1" >"$srcdir/$1.log" 2>&1) || return 1
    d=$(find "$srcdir" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
  fi
  [ -n "$d" ] && echo "$d"
}

# build NAME CFLAGS SOURCE... -- LIBS... — $out/NAME.{bare,gprof,amon,dummy};
# the instrumented objects are compiled once, linked with libamon and with
# the empty hooks; everything but the link with libamon is kept between runs
build () {
  local name=$1 flags=$2 srcs=() libs=() objs=() s o
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do srcs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  libs=("$@")
  if [ ! -x "$out/$name.bare" ] || [ ! -x "$out/$name.gprof" ]; then
    say "building $name"
    $CC -O2 $flags -o "$out/$name.bare" "${srcs[@]}" "${libs[@]}" || return 1
    $CC -O2 -pg $flags -o "$out/$name.gprof" "${srcs[@]}" "${libs[@]}" || return 1
  fi
  mkdir -p "$out/obj/$name"
  for s in "${srcs[@]}"; do
    o=$out/obj/$name/$(basename "$s" .c).o
    [ -f "$o" ] || $CC -O2 -finstrument-functions $flags -c -o "$o" "$s" || return 1
    objs+=("$o")
  done
  $CC -o "$out/$name.amon" "${objs[@]}" "$lib" "${libs[@]}" -pthread || return 1
  [ -x "$out/$name.dummy" ] || $CC -O2 -o "$out/$name.dummy" "${objs[@]}" "$programs/dummy.c" "${libs[@]}" || return 1
}

# cpu SECONDS of the best of REPS runs of shell COMMAND in $out/run
best () {
  local b="" t
  for _ in $(seq "$REPS"); do
    t=$( { TIMEFORMAT='%3U %3S'; time { (cd "$out/run" && eval "$1") >/dev/null 2>&1; }; } 2>&1 | awk '{ print $1 + $2 }')
    if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
  done
  echo "$b"
}

# u32 / u64 FILE OFFSET
u32 () { od -A n -t u4 -j "$2" -N 4 "$1" | tr -d ' '; }
u64 () { od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

# section FILE TAG — offset of the payload of section TAG (formats/amon.md)
section () {
  local pos tag len
  pos=$(u32 "$1" 12)
  while :; do
    tag=$(u32 "$1" "$pos")
    len=$(u64 "$1" $((pos + 8)))
    [ "$tag" = "$2" ] && { echo $((pos + 16)); return; }
    [ "$tag" = 0 ] && return 1
    pos=$((pos + 16 + len))
  done
}

pct () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f%%", 100 * (a - b) / b }'; }
times_of () { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
per_call () { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", n ? (a - b) * 1e9 / n : 0 }'; }

table1=""
table2=""
table3=""

# measure NAME BUILD COMMAND — runs the five builds of BUILD on COMMAND
# (in which $exe stands for the program), adds a row for NAME to each table
measure () {
  local name=$1 cmd=$3 bare gprof amon sample dummy f t r calls rec states trans b2 maxh sumh mem text gmon
  local run="exe=$out/$2"
  say "running $name"
  bare=$(best "$run.bare; $cmd")
  (cd "$out/run" && rm -f gmon.out && eval "$run.gprof; $cmd" >/dev/null 2>&1)
  gmon=$(stat -c %s "$out/run/gmon.out" 2>/dev/null || echo 0)
  gprof=$(best "$run.gprof; $cmd")
  amon=$(best "export AMON_OUT=$out/run/$name.amon.out; $run.amon; $cmd")
  sample=$(best "export AMON_CLOCK=sample AMON_OUT=$out/run/$name.sample.out; $run.amon; $cmd")
  dummy=$(best "$run.dummy; $cmd")
  f=$out/run/$name.amon.out
  if [ ! -s "$f" ] || ! t=$(section "$f" 4) || ! r=$(section "$f" 2); then
    say "$name: no usable amon.out"
    return 1
  fi
  calls=$(u64 "$f" $((t + 8)))
  rec=$(u64 "$f" $((t + 16)))
  states=$(u64 "$f" $((t + 48)))
  trans=$(u64 "$f" $((t + 56)))
  b2=$(u64 "$f" $((t + 64)))
  maxh=$(u64 "$f" $((t + 72)))
  sumh=$(u64 "$f" $((t + 80)))
  mem=$(u64 "$f" $((t + 112)))
  text=$(size -A "$out/$2.bare" | awk '$1 == ".text" { print $2 }')
  table1=$table1$(printf '%-7s %8s %6s %9.2fM %7s %7s %6.2f %4s %8.2fM %9s %9s %7.3f%%' \
    "$name" "$text" "$(u32 "$f" "$r")" "$(awk -v n=$((calls + rec)) 'BEGIN { print n / 1e6 }')" "$states" "$trans" \
    "$(awk -v s="$sumh" -v n="$states" 'BEGIN { print n ? s / n : 0 }')" "$maxh" \
    "$(awk -v m="$mem" 'BEGIN { print m / 1048576 }')" "$(stat -c %s "$f")" "$gmon" \
    "$(awk -v c="$calls" -v r="$rec" -v s="$states" -v b="$b2" 'BEGIN { print 100 * (1 - (s + b) / (c + r)) }')")$'\n'
  table2=$table2$(printf '%-7s %7ss %7ss %6s %8ss %6s %5s %8ss %6s %5s %7ss %6s' "$name" "$bare" \
    "$gprof" "$(pct "$gprof" "$bare")" \
    "$amon" "$(pct "$amon" "$bare")" "$(times_of "$amon" "$gprof")" \
    "$sample" "$(pct "$sample" "$bare")" "$(times_of "$sample" "$gprof")" \
    "$dummy" "$(pct "$dummy" "$bare")")$'\n'
  table3=$table3$(printf '%-7s %9s %8s %8s %8s %8s' "$name" \
    "$(awk -v b="$bare" -v n=$((calls + rec)) 'BEGIN { printf "%.1f", b * 1e9 / n }')" \
    "$(per_call "$gprof" "$bare" $((calls + rec)))" "$(per_call "$dummy" "$bare" $((calls + rec)))" \
    "$(per_call "$amon" "$bare" $((calls + rec)))" "$(per_call "$sample" "$bare" $((calls + rec)))")$'\n'
}

# ---- synthetic: bench/programs/calls.c ----
if wanted parse || wanted huff || wanted btree; then
  build calls "" "$programs/calls.c" || { say "cannot build calls.c"; exit 1; }
  for p in parse huff btree; do
    wanted $p && measure $p calls "\$exe $p"
  done
fi

# ---- cJSON: a recursive-descent parser on real data ----
if wanted cjson; then
  if ! d=$(source_of cjson); then
    say "skipping cjson: its sources cannot be fetched (apt-get source cjson)"
  elif ! awk -f "$programs/status-json.awk" /var/lib/dpkg/status >"$out/run/status.json" 2>/dev/null \
       || [ ! -s "$out/run/status.json" ]; then
    say "skipping cjson: no /var/lib/dpkg/status to make JSON of"
  elif build cjson "-I$d" "$programs/json-bench.c" "$d/cJSON.c" -- -lm; then
    measure cjson cjson "\$exe status.json 60"
  else
    say "skipping cjson: it does not build"
  fi
fi

# ---- zlib: a compression library on real text ----
if wanted zlib; then
  if ! d=$(source_of zlib); then
    say "skipping zlib: its sources cannot be fetched (apt-get source zlib)"
  else
    zsrc=()
    for s in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast inflate inftrees trees uncompr zutil; do
      zsrc+=("$d/$s.c")
    done
    if [ ! -s "$out/run/corpus" ]; then
      # real text: the C sources at hand and Debian's package status, to 8 MB
      find "$d" "$top_srcdir/src" -name '*.[ch]' -type f | sort | xargs cat /var/lib/dpkg/status >"$out/run/corpus.1" 2>/dev/null
      : >"$out/run/corpus"
      while [ -s "$out/run/corpus.1" ] && [ "$(stat -c %s "$out/run/corpus")" -lt 8000000 ]; do
        cat "$out/run/corpus.1" >>"$out/run/corpus"
      done
      rm -f "$out/run/corpus.1"
    fi
    if build zlib "-I$d -DHAVE_UNISTD_H -DHAVE_STDARG_H -D_LARGEFILE64_SOURCE=1" "${zsrc[@]}" "$d/test/minigzip.c" --; then
      measure zlib zlib "\$exe -9 <corpus"
    else
      say "skipping zlib: it does not build"
    fi
  fi
fi

# ---- SQLite: a database engine running SQL ----
if wanted sqlite; then
  if ! d=$(source_of sqlite3); then
    say "skipping sqlite: its sources cannot be fetched (apt-get source sqlite3)"
  else
    a=$d/bench-build
    if [ ! -s "$a/sqlite3.c" ] || [ ! -s "$a/shell.c" ]; then
      if command -v tclsh >/dev/null 2>&1; then
        say "making SQLite's amalgamation"
        mkdir -p "$a"
        (cd "$a" && "$d/configure" --disable-tcl >configure.log 2>&1 && make sqlite3.c shell.c >make.log 2>&1) \
          || say "the amalgamation failed: see $a"
      else
        say "making SQLite's amalgamation needs tclsh"
      fi
    fi
    if [ ! -s "$a/sqlite3.c" ]; then
      say "skipping sqlite: no amalgamation"
    elif build sqlite "-I$a -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION" "$a/sqlite3.c" "$a/shell.c" -- -lm; then
      measure sqlite sqlite "\$exe :memory: <'$programs/sql-bench.sql'"
    else
      say "skipping sqlite: it does not build"
    fi
  fi
fi

[ -n "$table1" ] || { say "nothing was measured"; exit 1; }
printf 'Table I. Data sizes\n\n'
printf '%-7s %8s %6s %10s %7s %7s %6s %4s %9s %9s %9s %8s\n' \
  program text funcs calls states trans depth max memory amon.out gmon.out B1
printf '%s' "$table1"
printf '\nTable II. CPU times (user + system, best of %s runs; x-pg: over gprof'"'"'s time)\n\n' "$REPS"
printf '%-7s %8s %15s %21s %21s %15s\n' program bare "gprof (-pg)" "amon (cpu)      x-pg" "amon (sample)   x-pg" "dummy"
printf '%s' "$table2"
printf '\nTable III. Nanoseconds per call: bare time over calls, then what each way adds\n\n'
printf '%-7s %9s %8s %8s %8s %8s\n' program "bare/call" gprof dummy "amon" "sample"
printf '%s' "$table3"
printf '\nB1: calls that needed no new transition (direct recursion or an existing one), of\nall calls (Spivey: 99.9%%).  dummy: -finstrument-functions with empty hooks.\n'
