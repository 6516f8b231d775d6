# status-json.awk — Debian's package status (RFC 822 paragraphs) as a JSON
# array of objects, the real data bench/amon-overhead.sh has cJSON parse;
# relation fields become arrays of alternatives of {name, version}.
function esc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return s }
BEGIN { printf "["; first = 1 }
/^$/ { if (open) { printf "}"; open = 0 } next }
/^[A-Za-z-]+:/ {
  k = $0; sub(/:.*/, "", k); v = $0; sub(/^[^:]*: ?/, "", v)
  if (!open) { printf("%s{", (first ? "" : ",")); first = 0; open = 1; nf = 0 }
  printf("%s\"%s\":", (nf++ ? "," : ""), esc(k))
  if (k ~ /^(Depends|Pre-Depends|Recommends|Suggests|Breaks|Conflicts|Replaces|Provides)$/) {
    m = split(v, d, /, */); printf "["
    for (i = 1; i <= m; i++) {
      alt = split(d[i], a, / \| /); printf("%s[", (i > 1 ? "," : ""))
      for (j = 1; j <= alt; j++) {
        nm = a[j]; ver = ""
        if (match(nm, /\(.*\)/)) { ver = substr(nm, RSTART + 1, RLENGTH - 2); nm = substr(nm, 1, RSTART - 1) }
        gsub(/ +$/, "", nm)
        printf("%s{\"name\":\"%s\"", (j > 1 ? "," : ""), esc(nm))
        if (ver != "") printf(",\"version\":\"%s\"", esc(ver))
        printf "}"
      }
      printf "]"
    }
    printf "]"
  }
  else if (v ~ /^[0-9]+$/) printf "%s", v
  else printf("\"%s\"", esc(v))
  next
}
END { if (open) printf "}"; print "]" }
