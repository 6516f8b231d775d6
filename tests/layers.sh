#!/bin/sh
# The library's layers, enforced: a module includes only modules of its own
# layer or of lower ones, and the modules' includes form no circle.
#
#   base < model < analysis < read < write < cli
#
# (README, "Layout".)  A module is a cg-NAME.c/.h pair; its includes are
# those of both files.  Circles are found by tsort(1), which reports every
# loop it breaks.
set -u
lib="${top_srcdir:-.}/src/lib"
[ -d "$lib/base" ] || { echo "layers.sh: no $lib/base"; exit 99; }

rank() {
  case $1 in
    base) echo 0 ;; model) echo 1 ;; analysis) echo 2 ;; read) echo 3 ;; write) echo 4 ;; cli) echo 5 ;;
    *) echo 9 ;;
  esac
}

# every module's layer, and a folder no layer names is itself an error
layers=$(mktemp) edges=$(mktemp)
trap 'rm -f "$layers" "$edges"' EXIT
status=0
for dir in "$lib"/*/; do
  layer=$(basename "$dir")
  [ "$(rank "$layer")" -lt 9 ] || { echo "layers.sh: src/lib/$layer/ is no layer"; status=1; }
  for f in "$dir"*.[ch]; do
    [ -e "$f" ] || continue
    m=$(basename "$f"); m=${m%.[ch]}
    echo "$m $layer"
  done
done | sort -u >"$layers"

for f in "$lib"/*/*.[ch]; do
  layer=$(basename "$(dirname "$f")")
  m=$(basename "$f"); m=${m%.[ch]}
  sed -n 's/^#include "\(cg-[a-z0-9-]*\)\.h".*/\1/p' "$f" | while read -r inc; do
    to=$(awk -v m="$inc" '$1 == m { print $2 }' "$layers")
    [ -n "$to" ] || continue
    if [ "$(rank "$to")" -gt "$(rank "$layer")" ]; then
      echo "layers.sh: src/lib/$layer/$(basename "$f") includes $inc.h of the higher layer $to"
      echo bad >>"$edges.bad"
    fi
    [ "$inc" = "$m" ] || echo "$m $inc" >>"$edges"
  done
done
if [ -s "$edges.bad" ]; then status=1; fi
rm -f "$edges.bad"

loops=$(tsort "$edges" 2>&1 >/dev/null)
if [ -n "$loops" ]; then
  echo "layers.sh: the modules' includes form a circle:"
  printf '%s\n' "$loops"
  status=1
fi
[ "$status" -eq 0 ] && echo "layers.sh: $(wc -l <"$layers") modules, $(sort -u "$edges" | wc -l) includes, in order"
exit "$status"
