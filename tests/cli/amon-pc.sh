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
  case " $(echo $libs) " in
    " -L$prefix/lib "*"-lamon "*) ;;
    *) fail "installed under $prefix, amon.pc gives '$libs'" ;;
  esac
  cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags amon) || fail "pkg-config --cflags amon"
  case $cflags in *-pg* | *-finstrument-functions*) ;; *) fail "amon.pc's Cflags are '$cflags'" ;; esac
  grep -q '@' "$pc" && fail "amon.pc keeps a placeholder: $(grep '@' "$pc")"
else
  fail "make install-pkgconfigDATA prefix=$prefix installed no $pc"
fi
# the build tree's copy names the configured prefix again
grep -q "$prefix" "$top_builddir/src/amon/amon.pc" && fail "the build tree's amon.pc kept the test's prefix"

# the flags placed before the objects, as builds that take them in LDFLAGS
# do (mruby's rake, many Makefiles), linked with --as-needed as Debian's
# and Ubuntu's gcc link by default: -lamon must stay needed, else the
# program runs on glibc's own __fentry__ and writes no amon.out, silently
libs_dir="$top_builddir/src/amon/.libs"
if [ -f "$libs_dir/libamon.so" ] && command -v "${CC:-cc}" >/dev/null 2>&1; then
  libs_dir=$(cd "$libs_dir" && pwd)
  pcdir="$top_builddir/src/amon"
  cflags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags amon)
  libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --define-variable=libdir="$libs_dir" --libs amon)
  mkdir "$tmp/run"
  printf 'int twice (int x);\nint main (void) { return twice (1) != 2; }\n' >"$tmp/run/main.c"
  printf 'int twice (int x) { return 2 * x; }\n' >"$tmp/run/twice.c"
  if ${CC:-cc} -O1 $cflags -c "$tmp/run/main.c" -o "$tmp/run/main.o" \
     && ${CC:-cc} -O1 $cflags -fno-inline -c "$tmp/run/twice.c" -o "$tmp/run/twice.o" \
     && ${CC:-cc} -Wl,--as-needed $libs "$tmp/run/main.o" "$tmp/run/twice.o" -o "$tmp/run/prog" 2>"$tmp/link.err"; then
    (cd "$tmp/run" && LD_LIBRARY_PATH="$libs_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./prog) \
      || fail "the program linked with amon's flags first failed"
    [ -s "$tmp/run/amon.out" ] \
      || fail "linked as 'cc -Wl,--as-needed $libs OBJECTS', the program wrote no amon.out (libamon dropped: $(readelf -d "$tmp/run/prog" 2>/dev/null | grep -c NEEDED) libraries needed)"
    "$cgcost" --format=tsv "$tmp/run/amon.out" >"$tmp/run/tsv" 2>&1 || fail "cgcost on its amon.out: $(head -c 300 "$tmp/run/tsv")"
    grep -q "^twice	1	" "$tmp/run/tsv" || fail "its amon.out does not count twice's one call: $(cat "$tmp/run/tsv")"
  else
    fail "cannot build with amon.pc's flags: $(head -c 400 "$tmp/link.err")"
  fi
  # gcc calls __return__ through the PLT; linked as amon.pc says, its
  # first call does not run the dynamic linker's resolver, which writes
  # %r10 and %r11, where a caller built with -fipa-ra may keep values
  # (tests/amon/pg-program.c, registers; built with the portable flags,
  # so that its own routine makes the first call)
  case "$(uname -m) $cflags" in
    x86_64*-minstrument-return=call*)
      portable=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=portable_cflags amon)
      if ${CC:-cc} -O2 $portable -pthread -o "$tmp/run/pgp" "$top_srcdir/tests/amon/pg-program.c" $libs -ldl 2>"$tmp/link.err"; then
        (cd "$tmp/run" && LD_LIBRARY_PATH="$libs_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./pgp registers >counts) \
          || fail "pg-program registers failed"
        kept=$(awk '$1 == "regs_kept" { print $2 }' "$tmp/run/counts")
        [ "$kept" = 2000 ] || fail "linked with amon.pc's Libs, the registers were kept across $kept of 2000 calls (__return__ called through the PLT)"
      else
        fail "cannot build pg-program.c with amon.pc's flags: $(head -c 400 "$tmp/link.err")"
      fi ;;
  esac
fi

# before `make install`: with PKG_CONFIG_PATH naming the build's src/amon,
# pkg-config takes amon-uninstalled.pc, whose flags link this build's
# libamon and let the program find it with nothing else set (an rpath);
# amon.pc there names the configured prefix, where nothing is installed
if [ -f "$top_builddir/src/amon/.libs/libamon.so" ] && command -v "${CC:-cc}" >/dev/null 2>&1; then
  pcdir=$(cd "$top_builddir/src/amon" && pwd)
  flags=$(env -u PKG_CONFIG_DISABLE_UNINSTALLED PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs amon) \
    || fail "pkg-config --cflags --libs amon with PKG_CONFIG_PATH=$pcdir"
  case " $(echo $flags) " in
    *" -L$pcdir/.libs "*"-lamon "*"-Wl,-rpath,$pcdir/.libs "*) ;;
    *) fail "with PKG_CONFIG_PATH=$pcdir, pkg-config gives '$flags', not the build tree's library" ;;
  esac
  mkdir -p "$tmp/un"
  printf 'int twice (int x) { return 2 * x; }\nint main (void) { return twice (1) != 2; }\n' >"$tmp/un/prog.c"
  ${CC:-cc} -O1 -fno-inline $flags "$tmp/un/prog.c" -o "$tmp/un/prog" 2>"$tmp/un/err" \
    || fail "cc \$(pkg-config --cflags --libs amon) prog.c with the build tree's amon: $(head -c 400 "$tmp/un/err")"
  (cd "$tmp/un" && env -u LD_LIBRARY_PATH ./prog) || fail "built with the build tree's flags, the program did not run without LD_LIBRARY_PATH"
  [ -s "$tmp/un/amon.out" ] || fail "built with the build tree's flags, the program wrote no amon.out"
  "$cgcost" --format=tsv "$tmp/un/amon.out" >"$tmp/un/tsv" 2>&1 || fail "cgcost on its amon.out: $(head -c 300 "$tmp/un/tsv")"
  grep -q "^twice	1	" "$tmp/un/tsv" || fail "its amon.out does not count twice's one call: $(cat "$tmp/un/tsv")"
fi

finish
