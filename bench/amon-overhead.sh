#!/bin/bash
# amon-overhead.sh — libamon's overhead against gcc -pg on call-heavy
# programs, in the form of Spivey's Tables I and II (make bench-amon; not
# part of make check).
#
# Programs, each built from the same sources: bare -O2; -pg (gprof);
# the recommended mode (amon.pc's Cflags: -pg -mfentry on x86-64, with
# -minstrument-return=call where the compiler has it, linked with -lamon,
# returns told by __return__ or caught by a trampoline), run with AMON_CLOCK=cpu
# (the default: exact times from the time-stamp counter) and with
# AMON_CLOCK=sample (SIGPROF, gprof's way of timing);
# -finstrument-functions with libamon (cpu clock), the old way, whose
# hooks also run at every inlined copy; and -finstrument-functions with
# empty hooks ("dummy": what calling the two hooks costs at all).
#   jqlike   bench/programs/jqlike: written to jq 1.6's shape (values in a
#            file of small functions, a JSON parser and printer, a filter
#            evaluated node by node) over Debian's package status as JSON;
#   lualike  bench/programs/lualike: written to Lua 5.4's shape (a
#            bytecode loop, tables with array and hash parts, interned
#            strings, pcall by setjmp and errors by longjmp);
#   stl      bench/programs/stlheavy.cc: templates, virtual calls, the
#            STL's containers and algorithms, exceptions from deep inside;
#   parse, huff, btree  bench/programs/calls.c: a recursive-descent
#            expression parser, a Huffman coder, a B-tree (synthetic, a
#            call every 6-8 ns);
#   cjson    cJSON (a real recursive-descent JSON parser and printer)
#            parsing and printing Debian's package status as JSON;
#   zlib     zlib's minigzip compressing a corpus of real text at -9;
#   sqlite   SQLite's amalgamation shell running bench/programs/sql-bench.sql;
#   mawk     mawk (an awk interpreter, its sources from Debian) running
#            bench/programs/words.awk over Debian's package status three
#            times (3 MB): counting words, a recursive quicksort of them
#            and a recursive Fibonacci, in awk (0.15 s bare: a short run
#            of many small calls);
#   lua      Lua 5.4 itself, from LUA_SRC (optional: a directory holding
#            Lua's source as released, e.g. Debian's lua5.4 orig tarball
#            unpacked), built by its own Makefile (`make linux` with the
#            mode's flags in MYCFLAGS, MYLDFLAGS and MYLIBS, as a user
#            would), running bench/programs/lua/all.lua (coroutines that
#            yield by longjmp, errors caught by pcall, deep recursion,
#            string work).
# jq's, Lua's and other real programs' sources come from Debian's source
# archive (`apt-get source`, deb-src enabled) into bench/out/src, or from
# $AMON_BENCH_SOURCES where they were unpacked before; a program whose
# sources cannot be had is skipped with a message (the first three are
# written here for that reason).  Nothing fetched is part of cgtools.
#
# Each time is the CPU time (user + system) of the best of REPS runs
# (default 3).  Table I (the recommended mode's run): text size,
# functions called, calls, contexts and transitions created, history
# depth (mean, max), profiling memory, amon.out and gmon.out sizes, and
# the share of calls that needed no new transition (B1, with direct
# recursion).  Table II: times and overheads; "x-pg" is a time over
# gprof's, against the targets (DESIGN §7): the recommended mode at most
# 1.5x with the sampling clock and 3x with exact times.  Table III: what
# each way costs per call of the recommended build, in nanoseconds over
# bare.
#
# Environment: top_srcdir, top_builddir (default: this script's tree and
# the working directory), CC (cc), CXX (c++), REPS (3),
# AMON_BENCH_SOURCES, AMON_LIB (another libamon.a to measure, e.g. an
# older build; the recommended mode links the shared library beside it),
# AMON_BENCH_ONLY (a space-separated list of program names to run),
# LUA_SRC (above; never required).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=${top_srcdir:-$here/..}
top_builddir=${top_builddir:-.}
CC=${CC:-cc}
CXX=${CXX:-c++}
REPS=${REPS:-3}
lib=${AMON_LIB:-$(cd "$top_builddir" && pwd)/src/amon/.libs/libamon.a}
[ -f "$lib" ] || { echo "amon-overhead: build libamon first (make)" >&2; exit 1; }
libdir=$(cd "$(dirname "$lib")" && pwd)
# the recommended mode's flags, as a user gets them
rec_flags=$(sed -n 's/^Cflags: *//p' "$top_builddir/src/amon/amon.pc" 2>/dev/null)
rec_flags=${rec_flags:--finstrument-functions}
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

# build NAME CFLAGS SOURCE... -- LIBS... — $out/NAME.{bare,gprof,rec,amon,dummy};
# the instrumented objects are compiled once, linked with libamon and with
# the empty hooks; everything but the links with libamon is kept between
# runs.  C++ sources (.cc) are built with $CXX.
build () {
  local name=$1 flags=$2 srcs=() libs=() objs=() s o cc=$CC
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do srcs+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  libs=("$@")
  case ${srcs[0]} in *.cc) cc=$CXX ;; esac
  if [ ! -x "$out/$name.bare" ] || [ ! -x "$out/$name.gprof" ]; then
    say "building $name"
    $cc -O2 $flags -o "$out/$name.bare" "${srcs[@]}" "${libs[@]}" || return 1
    $cc -O2 -pg $flags -o "$out/$name.gprof" "${srcs[@]}" "${libs[@]}" || return 1
  fi
  # the recommended mode, linked as amon.pc says (the shared library)
  $cc -O2 $rec_flags $flags -o "$out/$name.rec" "${srcs[@]}" -L"$libdir" -lamon -Wl,-rpath,"$libdir" "${libs[@]}" \
    -pthread || return 1
  mkdir -p "$out/obj/$name"
  for s in "${srcs[@]}"; do
    o=$out/obj/$name/$(basename "${s%.*}").o
    [ -f "$o" ] || $cc -O2 -finstrument-functions $flags -c -o "$o" "$s" || return 1
    objs+=("$o")
  done
  $cc -o "$out/$name.amon" "${objs[@]}" -L"$libdir" -lamon -Wl,-rpath,"$libdir" "${libs[@]}" -pthread || return 1
  [ -f "$out/obj/dummy.o" ] || $CC -O2 -c -o "$out/obj/dummy.o" "$programs/dummy.c" || return 1
  [ -x "$out/$name.dummy" ] || $cc -O2 -o "$out/$name.dummy" "${objs[@]}" "$out/obj/dummy.o" "${libs[@]}" || return 1
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

# verdict RATIO LIMIT — "ok" or "OVER" the target
verdict () { awk -v r="$1" -v l="$2" 'BEGIN { print (r <= l ? "ok" : "OVER") }'; }

# measure NAME BUILD COMMAND — runs the builds of BUILD on COMMAND (in
# which $exe stands for the program), adds a row for NAME to each table
measure () {
  local name=$1 cmd=$3 bare gprof reccpu recsample amon dummy f t r calls rec states trans b2 maxh sumh mem text gmon n
  local run="exe=$out/$2"
  say "running $name"
  bare=$(best "$run.bare; $cmd")
  (cd "$out/run" && rm -f gmon.out && eval "$run.gprof; $cmd" >/dev/null 2>&1)
  gmon=$(stat -c %s "$out/run/gmon.out" 2>/dev/null || echo 0)
  gprof=$(best "$run.gprof; $cmd")
  reccpu=$(best "export AMON_OUT=$out/run/$name.rec.out; $run.rec; $cmd")
  recsample=$(best "export AMON_CLOCK=sample AMON_OUT=$out/run/$name.sample.out; $run.rec; $cmd")
  amon=$(best "export AMON_OUT=$out/run/$name.amon.out; $run.amon; $cmd")
  dummy=$(best "$run.dummy; $cmd")
  f=$out/run/$name.rec.out
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
  n=$((calls + rec))
  text=$(size -A "$out/$2.bare" | awk '$1 == ".text" { print $2 }')
  table1=$table1$(printf '%-7s %8s %6s %9.2fM %7s %7s %6.2f %4s %8.2fM %9s %9s %7.3f%%' \
    "$name" "$text" "$(u32 "$f" "$r")" "$(awk -v n=$n 'BEGIN { print n / 1e6 }')" "$states" "$trans" \
    "$(awk -v s="$sumh" -v n="$states" 'BEGIN { print n ? s / n : 0 }')" "$maxh" \
    "$(awk -v m="$mem" 'BEGIN { print m / 1048576 }')" "$(stat -c %s "$f")" "$gmon" \
    "$(awk -v c="$calls" -v r="$rec" -v s="$states" -v b="$b2" 'BEGIN { print 100 * (1 - (s + b) / (c + r)) }')")$'\n'
  table2=$table2$(printf '%-7s %7ss %7ss %8ss %5s %-4s %8ss %5s %-4s %8ss %6s %7ss' "$name" "$bare" "$gprof" \
    "$recsample" "$(times_of "$recsample" "$gprof")" "$(verdict "$(times_of "$recsample" "$gprof")" 1.5)" \
    "$reccpu" "$(times_of "$reccpu" "$gprof")" "$(verdict "$(times_of "$reccpu" "$gprof")" 3)" \
    "$amon" "$(times_of "$amon" "$gprof")" "$dummy")$'\n'
  table3=$table3$(printf '%-7s %9s %8s %8s %8s %8s' "$name" \
    "$(awk -v b="$bare" -v n=$n 'BEGIN { printf "%.1f", n ? b * 1e9 / n : 0 }')" \
    "$(per_call "$gprof" "$bare" $n)" "$(per_call "$recsample" "$bare" $n)" \
    "$(per_call "$reccpu" "$bare" $n)" "$(per_call "$dummy" "$bare" $n)")$'\n'
}

# ---- written to the shape of jq, Lua and a C++ program (always here) ----
if wanted jqlike; then
  if ! awk -f "$programs/status-json.awk" /var/lib/dpkg/status >"$out/run/status.json" 2>/dev/null \
     || [ ! -s "$out/run/status.json" ]; then
    say "skipping jqlike: no /var/lib/dpkg/status to make JSON of"
  elif build jqlike "" "$programs"/jqlike/*.c --; then
    measure jqlike jqlike "\$exe status.json 15"
  else
    say "skipping jqlike: it does not build"
  fi
fi
if wanted lualike; then
  if build lualike "" "$programs"/lualike/*.c --; then
    measure lualike lualike "\$exe 32 1000000 500000"
  else
    say "skipping lualike: it does not build"
  fi
fi
if wanted stl; then
  if build stl "" "$programs/stlheavy.cc" --; then
    measure stl stl "\$exe 12"
  else
    say "skipping stl: it does not build"
  fi
fi

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

# ---- mawk: an awk interpreter, short runs of many small calls ----
if wanted mawk; then
  if ! d=$(source_of mawk); then
    say "skipping mawk: its sources cannot be fetched (apt-get source mawk)"
  elif [ ! -s /var/lib/dpkg/status ]; then
    say "skipping mawk: no /var/lib/dpkg/status to read"
  else
    # config.h and the scanner's table (made by a program of mawk's own)
    # from its configure, once, beside the sources
    a=$d/bench-build
    if [ ! -s "$a/config.h" ] || [ ! -s "$a/scancode.c" ]; then
      say "configuring mawk"
      mkdir -p "$a"
      (cd "$a" && "$d/configure" >configure.log 2>&1 && make scancode.c >make.log 2>&1) \
        || say "mawk's configure failed: see $a"
    fi
    [ -s "$out/run/words.txt" ] || cat /var/lib/dpkg/status /var/lib/dpkg/status /var/lib/dpkg/status >"$out/run/words.txt"
    msrc=()
    for s in array bi_funct bi_vars cast code da error execute fcall field files fin hash init jmp kw main matherr \
             memory parse print re_cmpl regexp scan split version zmalloc; do
      msrc+=("$d/$s.c")
    done
    if [ ! -s "$a/scancode.c" ]; then
      say "skipping mawk: no scancode.c"
    elif build mawk "-I$a -I$d -DHAVE_CONFIG_H" "${msrc[@]}" "$a/scancode.c" -- -lm; then
      measure mawk mawk "\$exe -f '$programs/words.awk' words.txt"
    else
      say "skipping mawk: it does not build"
    fi
  fi
fi

# ---- Lua 5.4 itself, built by its Makefile (LUA_SRC, optional) ----
# build_lua NAME MYCFLAGS MYLIBS — $out/lua.NAME from a copy of LUA_SRC
build_lua () {
  local d=$out/obj/lua-$1
  if [ ! -x "$d/src/lua" ]; then
    rm -rf "$d" && mkdir -p "$d" && cp -R "$LUA_SRC/." "$d/" || return 1
    make -C "$d" clean >/dev/null 2>&1
    make -C "$d/src" linux MYCFLAGS="$2" MYLDFLAGS="$2" MYLIBS="$3" >"$d/build.log" 2>&1 || return 1
  fi
  cp "$d/src/lua" "$out/lua.$1"
}
if [ -n "${LUA_SRC:-}" ] && wanted lua; then
  if [ ! -f "$LUA_SRC/src/lvm.c" ] || [ ! -f "$LUA_SRC/src/Makefile" ]; then
    say "skipping lua: LUA_SRC=$LUA_SRC holds no Lua source tree (src/lvm.c, src/Makefile)"
  else
    [ -f "$out/obj/dummy.o" ] || $CC -O2 -c -o "$out/obj/dummy.o" "$programs/dummy.c"
    rm -rf "$out/obj/lua-rec" "$out/obj/lua-amon" # linked with the libamon measured now
    if build_lua bare "" "" && build_lua gprof "-pg" "" \
       && build_lua rec "$rec_flags" "-L$libdir -lamon -Wl,-rpath,$libdir" \
       && build_lua amon "-finstrument-functions" "-L$libdir -lamon -Wl,-rpath,$libdir" \
       && build_lua dummy "-finstrument-functions" "$out/obj/dummy.o"; then
      measure lua lua "\$exe '$programs/lua/all.lua'"
    else
      say "skipping lua: it does not build (see $out/obj/lua-*/build.log)"
    fi
  fi
fi

[ -n "$table1" ] || { say "nothing was measured"; exit 1; }
printf 'Table I. Data sizes\n\n'
printf '%-7s %8s %6s %10s %7s %7s %6s %4s %9s %9s %9s %8s\n' \
  program text funcs calls states trans depth max memory amon.out gmon.out B1
printf '%s' "$table1"
printf '\nTable II. CPU times (user + system, best of %s runs); x-pg: over gprof'"'"'s time, against\nthe targets (recommended mode: 1.5 with the sampling clock, 3 with exact times)\n\n' "$REPS"
printf '%-7s %8s %8s %20s %20s %15s %8s\n' program bare "gprof" "rec. sample   x-pg" "rec. cpu      x-pg" \
  "-finstr.  x-pg" "dummy"
printf '%s' "$table2"
printf '\nTable III. Nanoseconds per call of the recommended build: bare time over calls, then\nwhat each way adds\n\n'
printf '%-7s %9s %8s %8s %8s %8s\n' program "bare/call" gprof "sample" "cpu" "dummy"
printf '%s' "$table3"
printf '\nB1: calls that needed no new transition (direct recursion or an existing one), of\nall calls (Spivey: 99.9%%).  rec.: the recommended mode (%s, -lamon); -finstr.:\n-finstrument-functions with libamon (cpu); dummy: -finstrument-functions with empty hooks.\n' "$rec_flags"
