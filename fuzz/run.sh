#!/bin/sh
# fuzz/run.sh — `make fuzz`: builds every fuzz target with clang's
# libFuzzer, AddressSanitizer and UBSan, and runs each for FUZZ_SECONDS
# (default 60) on a corpus seeded from fuzz/seeds and data/.  Findings
# (crash-*, leak-*, timeout-*, oom-*) land in fuzz/work/findings-TARGET;
# once fixed, copy them to fuzz/regressions/TARGET, which `make check`
# replays.  Needs clang and libclang-rt-14-dev (Debian).  LIBIBERTY_LIBS,
# LIBDW_LIBS: what the build links for demangling and DWARF (make passes
# them).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILDDIR:-$top}
work=${FUZZ_DIR:-$build/fuzz/work}
seconds=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-$(cd "$top/fuzz" && ls fuzz-*.c | sed 's/^fuzz-//; s/\.c$//' | grep -v '^common$')}
clang=${CLANG:-clang}
command -v "$clang" >/dev/null || { echo "fuzz: clang is needed (apt-get install clang libclang-rt-14-dev)"; exit 1; }
mkdir -p "$work" || exit 1
flags="-g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
 -I$build -I$build/src/lib/write $(for d in "$top"/src/lib "$top"/src/lib/*/; do printf -- "-I%s " "$d"; done)-I$top/fuzz $(pkg-config --cflags glib-2.0 gio-2.0 gio-unix-2.0 libxml-2.0 libelf json-glib-1.0 libarchive)"
# the build's config.h says whether cg-demangle.c wants libiberty
libs="$(pkg-config --libs glib-2.0 gio-2.0 gio-unix-2.0 libxml-2.0 libelf zlib liblzma libzstd json-glib-1.0 libarchive) -lbz2 ${LIBDW_LIBS:-} ${LIBIBERTY_LIBS:-} -lm"
# the library's sources, and the HTML assets the build generated (once, in-tree or not)
sources=$(ls "$top"/src/lib/*/*.c "$build"/src/lib/write/cg-html-assets.c 2>/dev/null | sort -u)
status=0
for t in $targets; do
  exe="$work/fuzz-$t"
  # shellcheck disable=SC2086
  $clang $flags -DFUZZ_TARGET="\"$t\"" -o "$exe" $sources "$top/fuzz/fuzz-common.c" "$top/fuzz/fuzz-$t.c" $libs \
    || { echo "fuzz: cannot build $t"; status=1; continue; }
  corpus="$work/corpus-$t"
  findings="$work/findings-$t"
  mkdir -p "$corpus" "$findings"
  cp "$top/fuzz/seeds/$t"/* "$top/fuzz/regressions/$t"/* "$corpus/" 2>/dev/null
  # the detectors meet every format's corpus
  [ "$t" != detect ] || cp "$top"/fuzz/seeds/*/* "$top"/fuzz/regressions/*/* "$corpus/" 2>/dev/null
  echo "fuzz: $t for $seconds s"
  "$exe" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$findings/" -print_final_stats=1 "$corpus" >"$work/fuzz-$t.log" 2>&1
  rc=$?
  tail -n 12 "$work/fuzz-$t.log" | grep -E "stat::number_of_executed_units|stat::peak_rss|cov:|ERROR" | head -4
  if [ "$rc" -ne 0 ] || ls "$findings" | grep -q .; then
    echo "fuzz: $t FOUND something: see $findings and $work/fuzz-$t.log"
    status=1
  else
    echo "fuzz: $t: no findings"
  fi
done
exit $status
