#!/bin/sh
# Compressed inputs: gzip, xz, zstd and bzip2 files and standard input are
# read by every stage as the compressor's own -dc decompresses them (the
# oracle: `gzip -dc F | cgmerge` and cgmerge F give the same document);
# gmon.out and amon.out too (gmon.out still prints what gprof printed);
# a truncated or corrupt archive is exit 1 naming the file and the
# offset; a hundred compressed files merge in one process; a large
# compressed input is read in bounded memory.
. "${top_srcdir:-.}/tests/cli/common.sh"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
exprparse="$data/gmon/exprparse"
amon="$data/amon/mutual/amon.out.mutual"
folded="$data/folded/recdemo.folded"

compressors=""
for c in gzip xz zstd bzip2; do
  command -v $c >/dev/null && compressors="$compressors $c"
done
[ -n "$compressors" ] || skip "no compressor (gzip, xz, zstd, bzip2) is installed"

# compressed twice (a .gz packed again with xz): one layer is undone, and
# the message names both, where it said 'unknown input format'
if command -v gzip >/dev/null && command -v xz >/dev/null; then
  gzip -c "$recdemo" | xz -c >"$tmp/twice.gz.xz"
  expect 1 "$cgcost" "$tmp/twice.gz.xz" \
    && expect_message "$tmp/twice.gz.xz:1: gzip data inside the xz data, compressed twice: undo one"
fi

# same_doc A B — two cgtools documents equal but for their inputs' paths
same_doc () {
  sed 's/ path="[^"]*"//' "$1" >"$tmp/a.cmp"
  sed 's/ path="[^"]*"//' "$2" >"$tmp/b.cmp"
  cmp -s "$tmp/a.cmp" "$tmp/b.cmp"
}

for c in $compressors; do
  z="$tmp/recdemo.$c"
  $c -c "$recdemo" >"$z"
  # the compressor's own decompression is the oracle
  $c -dc "$z" | "$cgmerge" >"$tmp/oracle.xml" || fail "$c -dc | cgmerge"
  expect 0 "$cgmerge" "$z" && same_doc "$tmp/out" "$tmp/oracle.xml" \
    || fail "cgmerge of a $c file differs from $c -dc | cgmerge"
  validate "$tmp/out"
  # standard input
  expect 0 sh -c "'$cgmerge' <'$z'" && same_doc "$tmp/out" "$tmp/oracle.xml" \
    || fail "cgmerge of $c on standard input differs"
  # a pipe (decompressed on the reading thread, not ahead)
  expect 0 sh -c "cat '$z' | '$cgmerge'" && same_doc "$tmp/out" "$tmp/oracle.xml" \
    || fail "cgmerge of $c through a pipe differs"
  # every stage, on a compressed profile and on compressed XML
  "$cgcost" --format=tsv "$tmp/oracle.xml" >"$tmp/want.tsv"
  expect 0 "$cgcost" --format=tsv "$z" && cmp -s "$tmp/out" "$tmp/want.tsv" || fail "cgcost of a $c file"
  $c -c "$tmp/oracle.xml" >"$tmp/xml.$c"
  expect 0 "$cgcycles" "$tmp/xml.$c" || fail "cgcycles of $c-compressed XML"
  expect 0 "$cgcost" --format=tsv "$tmp/xml.$c" && cmp -s "$tmp/out" "$tmp/want.tsv" \
    || fail "cgcost of $c-compressed XML"
  "$cgtree" "$tmp/oracle.xml" >"$tmp/want.tree"
  expect 0 "$cgtree" "$tmp/xml.$c" && cmp -s "$tmp/out" "$tmp/want.tree" || fail "cgtree of $c-compressed XML"
  expect 0 sh -c "'$cgtree' <'$z'" && cmp -s "$tmp/out" "$tmp/want.tree" || fail "cgtree of $c on standard input"
  # folded stacks
  $c -c "$folded" >"$tmp/folded.$c"
  "$cgcost" --format=tsv "$folded" >"$tmp/want-folded.tsv"
  expect 0 "$cgcost" --format=tsv "$tmp/folded.$c" && cmp -s "$tmp/out" "$tmp/want-folded.tsv" \
    || fail "cgcost of $c-compressed folded stacks"

  # gmon.out, read whole: still what gprof -b printed
  $c -c "$exprparse/gmon.out" >"$tmp/gmon.$c"
  expect 0 "$cgmerge" --executable "$exprparse/exprparse" "$tmp/gmon.$c" \
    && "$cgcost" --format=gprof "$tmp/out" >"$tmp/gprof.txt" \
    && cmp -s "$tmp/gprof.txt" "$exprparse/gprof-b.txt" || fail "a $c-compressed gmon.out is not read as gprof reads it"
  expect 0 sh -c "'$cgmerge' --executable '$exprparse/exprparse' <'$tmp/gmon.$c' | '$cgcost' --format=gprof" \
    && cmp -s "$tmp/out" "$exprparse/gprof-b.txt" || fail "a $c-compressed gmon.out on standard input"
  # amon.out, read as it streams
  $c -c "$amon" >"$tmp/amon.$c"
  "$cgcost" --format=tsv "$amon" >"$tmp/want-amon.tsv"
  expect 0 "$cgcost" --format=tsv "$tmp/amon.$c" && cmp -s "$tmp/out" "$tmp/want-amon.tsv" \
    || fail "a $c-compressed amon.out"

  # truncated: exit 1, the file and the offset where the data stop
  size=$(wc -c <"$z")
  cut=$((size / 2))
  head -c $cut "$z" >"$tmp/cut.$c"
  expect 1 "$cgmerge" "$tmp/cut.$c" && expect_message "$tmp/cut.$c: offset $cut: the $c data end in the middle"
  expect 1 "$cgtree" "$tmp/cut.$c" && expect_message "$tmp/cut.$c: offset $cut:"
  # on standard input too
  expect 1 sh -c "'$cgmerge' <'$tmp/cut.$c'" && expect_message "<stdin>: offset $cut:"
  # corrupt: a byte in the middle changed; exit 1 naming file and offset
  # (a checksum may catch it only at the end: any offset)
  { head -c $cut "$z"; printf '\377'; tail -c +$((cut + 2)) "$z"; } >"$tmp/bad.$c"
  cmp -s "$tmp/bad.$c" "$z" && { head -c $cut "$z"; printf '\000'; tail -c +$((cut + 2)) "$z"; } >"$tmp/bad.$c"
  expect 1 "$cgmerge" "$tmp/bad.$c"
  grep -E -q "^cgmerge: $tmp/bad.$c: offset [0-9]+: " "$tmp/err" \
    || fail "a corrupt $c file: no message with the file and the offset: $(cat "$tmp/err")"
  # trailing bytes that start no other stream
  { cat "$z"; printf 'trailing bytes\n'; } >"$tmp/trail.$c"
  expect 1 "$cgmerge" "$tmp/trail.$c" && expect_message "$tmp/trail.$c: offset $size: "

  # concatenated streams (cat a.gz b.gz, pigz, pbzip2): all of them
  cat "$z" "$z" >"$tmp/two.$c"
  $c -dc "$tmp/two.$c" | "$cgmerge" >"$tmp/oracle2.xml"
  expect 0 "$cgmerge" "$tmp/two.$c" && same_doc "$tmp/out" "$tmp/oracle2.xml" \
    || fail "two concatenated $c streams differ from $c -dc"
  # an empty stream is an empty input
  : | $c -c >"$tmp/empty.$c"
  expect 1 "$cgmerge" "$tmp/empty.$c" && expect_message "$tmp/empty.$c: empty input"
done

# not compressed, though close: "BZh9" starting a text is text
printf 'BZh91 is no bzip2 header;main 5\n' >"$tmp/bzh.folded"
expect 0 "$cgmerge" --format=text "$tmp/bzh.folded" || fail "a text starting with BZh9 taken for bzip2"

# a hundred compressed files of every kind, in one process: the same sum
# as their decompressed copies
kinds=$(echo $compressors | wc -w)
i=0 list="" plain=""
while [ $i -lt 100 ]; do
  c=$(echo $compressors | cut -d ' ' -f $((i % kinds + 1)))
  src=$recdemo
  [ $((i % 2)) -eq 0 ] && src="$data/callgrind/sqlite3-cte/callgrind.out.sqlite3-cte"
  $c -c "$src" >"$tmp/m$i.$c"
  list="$list $tmp/m$i.$c" plain="$plain $src"
  i=$((i + 1))
done
"$cgmerge" $plain | "$cgcost" --format=tsv >"$tmp/want100.tsv"
expect 0 "$cgmerge" $list && "$cgcost" --format=tsv "$tmp/out" >"$tmp/got100.tsv" \
  && cmp -s "$tmp/got100.tsv" "$tmp/want100.tsv" || fail "100 compressed files merged differ from their sum"

# bounded memory: 240 MB of folded stacks in a 22 kB zstd file are read in
# a small part of their size (peak RSS through wait4, as the benchmark
# measures it); not under valgrind, whose own memory is counted
if command -v zstd >/dev/null && [ -z "${CG_VALGRIND:-}" ] && ${CC:-cc} -o "$tmp/measure" "$top_srcdir/bench/measure.c" 2>/dev/null; then
  yes 'main;parse;expr;term;factor 1' | head -n 8000000 | zstd -1 -q >"$tmp/big.folded.zst"
  set -- $("$tmp/measure" "'$cgmerge' '$tmp/big.folded.zst' >'$tmp/big.xml'")
  [ "$4" = 0 ] || fail "cgmerge of 240 MB of zstd-compressed folded stacks exited $4"
  [ "$3" -lt 120000 ] || fail "cgmerge of 240 MB of compressed stacks peaked at $3 kB: not streamed"
  grep -q 'self="8000000"' "$tmp/big.xml" || grep -q '8000000' "$tmp/big.xml" || fail "the 8,000,000 samples are not all counted"
fi
# an amon.out cut short says the same from a file, on standard input and
# gzip'd, though a stream's size is known only at its end (the reader
# streams): the oracle is the file's message, whose size is known at once
size=$(wc -c <"$amon")
for cut in 7 40 64 80 100 200 $((size / 2)) $((size - 20)) $((size - 1)); do
  head -c $cut "$amon" >"$tmp/cut.amon"
  "$cgmerge" "$tmp/cut.amon" >/dev/null 2>"$tmp/want.err" && fail "an amon.out cut at $cut was read"
  sed "s|$tmp/cut.amon|F|" "$tmp/want.err" >"$tmp/want.msg"
  "$cgmerge" <"$tmp/cut.amon" >/dev/null 2>"$tmp/got.err"
  sed 's|<stdin>|F|' "$tmp/got.err" | cmp -s - "$tmp/want.msg" \
    || fail "an amon.out cut at $cut: on standard input '$(cat "$tmp/got.err")', from the file '$(cat "$tmp/want.err")'"
  if command -v gzip >/dev/null; then
    gzip -c "$tmp/cut.amon" >"$tmp/cut.amon.gz"
    "$cgmerge" "$tmp/cut.amon.gz" >/dev/null 2>"$tmp/got.err"
    sed "s|$tmp/cut.amon.gz|F|" "$tmp/got.err" | cmp -s - "$tmp/want.msg" \
      || fail "an amon.out cut at $cut: gzip'd '$(cat "$tmp/got.err")', from the file '$(cat "$tmp/want.err")'"
  fi
done

# and an amon.out of 100 MB (the mutual profile's contexts 250,000 times
# over, its totals to match) in a small zstd file, by a file and on
# standard input: read as it streams, not decompressed whole into memory
# first; the calls are 250,000 times the one file's
if command -v zstd >/dev/null && command -v python3 >/dev/null && [ -z "${CG_VALGRIND:-}" ] && [ -x "$tmp/measure" ]; then
  python3 - "$amon" 250000 <<'PY' | zstd -1 -q >"$tmp/big.amon.zst" || fail "making the big amon.out"
import struct, sys
d = open(sys.argv[1], 'rb').read()
k = int(sys.argv[2])
pos = struct.unpack_from('<I', d, 12)[0]
out, sums = [d[:pos]], [0, 0, 0]
while True:
    tag, _, length = struct.unpack_from('<IIQ', d, pos)
    body = d[pos + 16:pos + 16 + length]
    if tag == 3:  # CONTEXTS: each context k times, as many entries and as much time
        n, q = struct.unpack_from('<Q', body, 0)[0], 8
        for _ in range(n):
            ln, _, t, e, r = struct.unpack_from('<IIQQQ', body, q)
            sums[0] += t; sums[1] += e; sums[2] += r
            q += 32 + 4 * ln
        body = struct.pack('<Q', n * k) + body[8:] * k
    elif tag == 4:  # TOTALS: calls, recursive calls, time as the contexts' sums
        f = list(struct.unpack_from('<%dQ' % (length // 8), body, 0))
        f[1] += (k - 1) * sums[1]; f[2] += (k - 1) * sums[2]; f[4] += (k - 1) * sums[0]
        body = struct.pack('<%dQ' % len(f), *f)
    out.append(struct.pack('<IIQ', tag, 0, len(body)) + body)
    pos += 16 + length
    if tag == 0:
        break
sys.stdout.buffer.write(b''.join(out))
PY
  want=$("$cgcost" --format=tsv "$amon" | awk -F '\t' '$1 == "leaf" { print $2 * 250000 }')
  for how in "'$tmp/big.amon.zst'" "<'$tmp/big.amon.zst'"; do
    set -- $("$tmp/measure" "'$cgcost' --format=tsv $how >'$tmp/big-amon.tsv'")
    [ "$4" = 0 ] || fail "cgcost of 100 MB of zstd-compressed amon.out ($how) exited $4"
    [ "$3" -lt 50000 ] || fail "cgcost of 100 MB of compressed amon.out ($how) peaked at $3 kB: not streamed"
    got=$(awk -F '\t' '$1 == "leaf" { print $2 }' "$tmp/big-amon.tsv")
    [ "$got" = "$want" ] || fail "the big amon.out ($how): leaf has $got calls, not $want"
  done
fi
finish
