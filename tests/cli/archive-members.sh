#!/bin/sh
# Profiles kept in a tar or zip archive (a job's runs, a CI artifact),
# compressed or not, on standard input too: each regular file in it is an
# input, named ARCHIVE(FILE), read in whatever format it is and summed as
# the same files given one by one are (the oracle: cgcost's tsv of the
# files themselves).  It said "a tar archive, not a profile: extract its
# files".  A member that is no profile, an archive in the archive, a
# truncated archive and one without files are exit 1 naming the archive
# and the member; an empty member is passed over with a warning; a text
# whose byte 257 reads "ustar" stays text.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v tar >/dev/null 2>&1 || skip "no tar"
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
folded="$data/folded/recdemo.folded"
amon="$data/amon/mutual/amon.out.mutual"

mkdir "$tmp/runs" "$tmp/runs/sub"
cp "$recdemo" "$tmp/runs/callgrind.out.1"
cp "$recdemo" "$tmp/runs/sub/callgrind.out.2"
cp "$folded" "$tmp/runs/sub/stacks.folded"
files="callgrind.out.1 sub/callgrind.out.2 sub/stacks.folded"
if command -v gzip >/dev/null 2>&1; then
  # a compressed member is read decompressed, as a compressed file is
  gzip -c "$recdemo" >"$tmp/runs/sub/callgrind.out.3.gz"
  files="$files sub/callgrind.out.3.gz"
fi
"$cgcost" --format=tsv $(for f in $files; do echo "$tmp/runs/$f"; done) >"$tmp/want.tsv" || fail "cgcost of the files themselves"
(cd "$tmp/runs" && tar -cf "$tmp/runs.tar" $files) || fail "tar"

# the archive, plain and compressed, and on standard input
expect 0 "$cgcost" --format=tsv "$tmp/runs.tar"
cmp -s "$tmp/want.tsv" "$tmp/out" || fail "the tar archive: $(diff "$tmp/want.tsv" "$tmp/out" | head -5)"
for c in gzip xz zstd bzip2; do
  command -v $c >/dev/null 2>&1 || continue
  $c -c "$tmp/runs.tar" >"$tmp/runs.tar.$c"
  expect 0 "$cgcost" --format=tsv "$tmp/runs.tar.$c"
  cmp -s "$tmp/want.tsv" "$tmp/out" || fail "the tar archive compressed with $c: $(diff "$tmp/want.tsv" "$tmp/out" | head -5)"
  expect 0 sh -c "cat '$tmp/runs.tar.$c' | '$cgcost' --format=tsv -"
  cmp -s "$tmp/want.tsv" "$tmp/out" || fail "the $c tar archive on standard input"
done
if command -v python3 >/dev/null 2>&1; then
  (cd "$tmp/runs" && python3 -m zipfile -c "$tmp/runs.zip" $files) || fail "python3 -m zipfile"
  expect 0 "$cgcost" --format=tsv "$tmp/runs.zip"
  cmp -s "$tmp/want.tsv" "$tmp/out" || fail "the zip archive: $(diff "$tmp/want.tsv" "$tmp/out" | head -5)"
fi
# each member is named as binutils names an ar archive's
expect 0 "$cgmerge" --format=text "$tmp/runs.tar"
grep -qF "Profile: $tmp/runs.tar(sub/callgrind.out.2) (callgrind)" "$tmp/out" \
  && grep -qF "Profile: $tmp/runs.tar(sub/stacks.folded) (folded" "$tmp/out" || fail "the members' names: $(grep Profile "$tmp/out")"
# an amon.out member (binary, read whole)
(cd "$(dirname "$amon")" && tar -cf "$tmp/amon.tar" "$(basename "$amon")") || fail "tar"
"$cgcost" --format=tsv "$amon" >"$tmp/amon.tsv" || fail "cgcost of the amon.out"
expect 0 "$cgcost" --format=tsv "$tmp/amon.tar"
cmp -s "$tmp/amon.tsv" "$tmp/out" || fail "an amon.out in a tar archive: $(diff "$tmp/amon.tsv" "$tmp/out" | head -5)"

# an empty member is passed over, with a warning
: >"$tmp/runs/empty.out"
(cd "$tmp/runs" && tar -cf "$tmp/empty.tar" callgrind.out.1 empty.out) || fail "tar"
expect 0 "$cgcost" --format=tsv "$tmp/empty.tar"
expect_message "warning: $tmp/empty.tar(empty.out): empty, skipped"

# what is not read, exit 1, naming the archive and the member
echo "notes on the runs" >"$tmp/runs/README"
(cd "$tmp/runs" && tar -cf "$tmp/mixed.tar" callgrind.out.1 README) || fail "tar"
expect 1 "$cgmerge" "$tmp/mixed.tar" && expect_message "$tmp/mixed.tar(README):1: unknown input format"
(cd "$tmp" && tar -cf "$tmp/nested.tar" runs.tar) || fail "tar"
expect 1 "$cgmerge" "$tmp/nested.tar" && expect_message "$tmp/nested.tar(runs.tar): an archive inside the archive"
mkdir "$tmp/runs/empty-dir"
(cd "$tmp/runs" && tar -cf "$tmp/dirs.tar" empty-dir) || fail "tar"
expect 1 "$cgmerge" "$tmp/dirs.tar" && expect_message "$tmp/dirs.tar: an archive with no files in it"
# cut inside the first member's data: no half-read profile
head -c 20000 "$tmp/runs.tar" >"$tmp/cut.tar"
expect 1 "$cgmerge" "$tmp/cut.tar" && expect_message "$tmp/cut.tar(callgrind.out.1)"
if command -v gzip >/dev/null 2>&1; then
  head -c 3000 "$tmp/runs.tar.gzip" >"$tmp/cut.tgz"
  expect 1 "$cgmerge" "$tmp/cut.tgz" && expect_message "$tmp/cut.tgz: offset"
fi

# "ustar" at byte 257 of a text, where tar writes its magic, without a
# header's checksum: the text is read as what it is
awk 'BEGIN { printf "main;%s 1\n", sprintf ("%0249d", 0); print "ustar;leaf 2" }' >"$tmp/ustar.folded"
[ "$(dd if="$tmp/ustar.folded" bs=1 skip=257 count=5 2>/dev/null)" = ustar ] || fail "the test's text has no ustar at 257"
expect 0 "$cgcost" --format=tsv "$tmp/ustar.folded"
grep -q '^leaf	0	2	2$' "$tmp/out" || fail "a text with ustar at 257: $(cat "$tmp/out" "$tmp/err" | head -5)"
finish
