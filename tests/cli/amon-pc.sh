#!/bin/sh
# amon.pc installed by `make install prefix=DIR` (the GNU way to install
# under a prefix of one's own without configuring again) names DIR/lib, so
# that `cc $(pkg-config --cflags --libs amon) prog.c` finds the library
# installed there.  The file used to be made by configure and said
# -L/usr/local/lib (configure's prefix) whatever the install's prefix.
. "${top_srcdir:-.}/tests/cli/common.sh"

command -v pkg-config >/dev/null 2>&1 || skip "no pkg-config"
make=${MAKE:-make}
command -v "$make" >/dev/null 2>&1 || skip "no make"

# only the pkg-config file is installed; the build tree's copy is made
# again for the build's prefix afterwards
prefix="$tmp/prefix"
"$make" -s -C "$top_builddir" install-pkgconfigDATA prefix="$prefix" >"$tmp/log" 2>&1 \
  || fail "make install-pkgconfigDATA prefix=...: $(head -c 400 "$tmp/log")"
"$make" -s -C "$top_builddir" src/amon/amon.pc >/dev/null 2>&1

pc="$prefix/lib/pkgconfig/amon.pc"
if [ -f "$pc" ]; then
  libs=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --libs amon) || fail "pkg-config --libs amon"
  [ "$(echo $libs)" = "-L$prefix/lib -lamon" ] || fail "installed under $prefix, amon.pc gives '$libs'"
  cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags amon) || fail "pkg-config --cflags amon"
  case $cflags in *-pg* | *-finstrument-functions*) ;; *) fail "amon.pc's Cflags are '$cflags'" ;; esac
  grep -q '@' "$pc" && fail "amon.pc keeps a placeholder: $(grep '@' "$pc")"
else
  fail "make install-pkgconfigDATA prefix=$prefix installed no $pc"
fi
# the build tree's copy names the configured prefix again
grep -q "$prefix" "$top_builddir/src/amon/amon.pc" && fail "the build tree's amon.pc kept the test's prefix"

finish
