#!/bin/sh
# Scale-out on an existing runner: a tree of cgmerge runs spread over
# machines with GNU parallel (--sshlogin, --transferfile, --return,
# --cleanup), as README and cgmerge(1) describe it, gives the document a
# flat merge gives, byte for byte.  No network: parallel's --ssh is a
# stand-in that runs the command here, in a directory of its own per
# "host", so a leaf that was not transferred is not there to be read and
# a sum that was not returned is not here to be merged.  The leaves are
# compressed, as profiles kept by the thousand are.
. "${top_srcdir:-.}/tests/cli/common.sh"
command -v parallel >/dev/null || skip "GNU parallel is not installed"
parallel --version 2>/dev/null | grep -q "GNU parallel" || skip "parallel is not GNU parallel"
command -v rsync >/dev/null || skip "rsync (which parallel's --transferfile uses) is not installed"
command -v gzip >/dev/null || skip "gzip is not installed"
# the jobs run in other directories: absolute paths
abs () { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
cgmerge=$(abs "$cgmerge") cgcost=$(abs "$cgcost") validator=$(abs "$validator") schema=$(abs "$schema")
data=$(abs "$data")
recdemo="$data/callgrind/recdemo/callgrind.out.recdemo"
sqlite="$data/callgrind/sqlite3-cte/callgrind.out.sqlite3-cte"
HOME="$tmp/home" # parallel keeps its state in ~/.parallel
export HOME
mkdir -p "$HOME"

# ssh HOST [--] COMMAND...: runs COMMAND in $tmp/hosts/HOST, logging the host
cat >"$tmp/ssh" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
  case \$1 in
    -l|-o|-p|-i|-F|-S) shift 2 ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=\$1; shift
[ "\${1:-}" = "--" ] && shift
echo "\$host" >>"$tmp/hosts.log"
# sshd gives the remote command the user's login shell in SHELL, and
# parallel's remote worker runs the job with \$SHELL: a runner whose
# environment has no SHELL (CI's) must not make every job a silent no-op
SHELL=/bin/sh; export SHELL
# and the user's home there, where the jobs run
HOME="$tmp/hosts/\$host"; export HOME
mkdir -p "\$HOME" && cd "\$HOME" || exit 255
exec sh -c "\$*"
EOF
chmod +x "$tmp/ssh"

# 36 different compressed profiles: the bundled ones, every cost times i
cd "$tmp" || exit 99
mkdir leaves
i=1
while [ $i -le 36 ]; do
  src=$recdemo
  [ $((i % 3)) -eq 0 ] && src=$sqlite
  awk -v k=$i '
    /^[0-9+*-]/ || /^totals:/ || /^summary:/ { for (f = 2; f <= NF; f++) $f = sprintf ("%.0f", $f * k); print; next }
    { print }' "$src" | gzip -c >"leaves/p$(printf %03d $i).cg.gz"
  i=$((i + 1))
done
# the flat merge, where the leaves are (a document names its inputs)
cd leaves || exit 99
ls *.cg.gz >../list
expect 0 "$cgmerge" $(cat ../list) && cp "$tmp/out" ../flat.xml
validate ../flat.xml

# level 1: six leaves a job, jobs spread over two "hosts", two slots each;
# each job's sum comes back as part.SEQ.xml (SEQ: the job's place in the
# input, so that the partial sums keep the leaves' order).  Run where the
# leaves are, so that their names hold no directory: --cleanup removes,
# with a job's files, the directories they were copied into once empty
# (parallel's own ~/.parallel/tmp of --workdir ... too), which another job
# on that host may be copying into at that moment (rsync or mkdir then
# fails on a missing directory, now and then)
parallel --will-cite --ssh "$tmp/ssh" -S 2/hostA,2/hostB -n 6 \
  --transferfile {} --return 'part.{#}.xml' --cleanup \
  "'$cgmerge' -o part.{#}.xml {}" <../list >"$tmp/parallel.out" 2>&1 \
  || fail "the distributed merges failed: $(head -c 400 "$tmp/parallel.out")"
[ "$(ls part.*.xml 2>/dev/null | wc -l)" = 6 ] || fail "$(ls part.*.xml 2>/dev/null | wc -l) partial sums came back, expected 6"
grep -q hostA "$tmp/hosts.log" && grep -q hostB "$tmp/hosts.log" || fail "the jobs did not run on both hosts"
# level 2: the six partial sums merged on one host, in order
ls part.*.xml | sort -t . -k 2,2n >../parts
parallel --will-cite --ssh "$tmp/ssh" -S 1/hostC -N 6 --transferfile {} --return all.xml --cleanup \
  "'$cgmerge' -o all.xml {}" <../parts >"$tmp/parallel.out" 2>&1 \
  || fail "the last merge failed: $(head -c 400 "$tmp/parallel.out")"
cd "$tmp" || exit 99
cmp -s flat.xml leaves/all.xml || fail "the distributed tree of merges differs from the flat merge"
# the hosts hold nothing afterwards (--cleanup), and hold no leaf here
[ -z "$(find hosts -type f)" ] || fail "files left on the hosts: $(find hosts -type f | head -3)"

# a leaf that is not transferred is missing there: the stand-in is honest
parallel --will-cite --ssh "$tmp/ssh" -S 1/hostD "'$cgmerge' -o x.xml {}" ::: leaves/p001.cg.gz \
  >/dev/null 2>&1 && fail "a merge on a host without its input succeeded"

# and the sum is right: main's total is the sum over i of i times its total
"$cgcost" --format=tsv leaves/all.xml >all.tsv
want=$(awk 'BEGIN { s = 0; for (i = 1; i <= 36; i++) if (i % 3 != 0) s += i; printf "%.0f", s * 12124468 }')
got=$(total_of all.tsv main)
[ "$got" = "$want" ] || fail "main's merged total is $got, expected $want"
finish
