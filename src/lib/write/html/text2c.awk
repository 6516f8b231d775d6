# text2c.awk — turns each input file into a C string constant named
# cg_html_EXT (EXT: the file's extension), for the assets the HTML page
# of cgtree embeds.  Backslashes, quotes, tabs and question marks (no
# trigraph may form) are escaped one character at a time, which every
# awk does alike (gsub's handling of backslashes differs between awks);
# every line keeps its newline.
FNR == 1 {
  if (NR > 1)
    print ";"
  n = split (FILENAME, parts, "/")
  n = split (parts[n], parts, ".")
  name = parts[2]
  for (i = 3; i <= n; i++)
    name = name "_" parts[i]
  printf "const char cg_html_%s[] =\n", name
}
{
  out = ""
  n = length ($0)
  for (i = 1; i <= n; i++)
    {
      c = substr ($0, i, 1)
      if (c == "\\")
        out = out "\\\\"
      else if (c == "\"")
        out = out "\\\""
      else if (c == "\t")
        out = out "\\t"
      else if (c == "?")
        out = out "\\?"
      else
        out = out c
    }
  printf "  \"%s\\n\"\n", out
}
END {
  print ";"
}
