/* cg-cut-name.c — a function's name cut to a width, keeping the
 * function's own name (see the header).  Linear in the name's length. */
#include "config.h"

#include "cg-cut-name.h"

#include <string.h>

#include "cg-demangle.h"

/* The characters inside the last parenthesized group of @text that
 * follows a name (a C++ function's parameter list: "f(int, char*)
 * const"), as [*open, *close); FALSE where there is none. */
static gboolean
parameters (const char *text, gsize *open, gsize *close)
{
  gsize depth = 0, i = 0, start = 0;
  gboolean found = FALSE;
  for (const char *q = text; *q; q = g_utf8_next_char (q), i++)
    {
      if (*q == '(' && depth++ == 0)
        start = i + 1;
      else if (*q == ')' && depth > 0 && --depth == 0 && start > 1)
        {
          *open = start;
          *close = i;
          found = TRUE;
        }
    }
  return found;
}

/* Appends the characters [@from, @to) of @text. */
static void
append_chars (GString *out, const char *text, gsize from, gsize to)
{
  const char *a = g_utf8_offset_to_pointer (text, (glong) from), *b = g_utf8_offset_to_pointer (text, (glong) to);
  g_string_append_len (out, a, b - a);
}

/* Where the ABI tags ("[abi:cxx11]", one or more) that end the name from
 * @from to @end start: @end where it ends in none. */
static const char *
before_abi_tags (const char *from, const char *end)
{
  while (end > from && end[-1] == ']')
    {
      const char *tag = end - 1;
      while (tag > from && *tag != '[')
        tag--;
      if (!g_str_has_prefix (tag, "[abi:"))
        break;
      end = tag;
    }
  return end;
}

/* Where the function's own name starts in @text (in characters), whose
 * parameter list's contents start at character @open (after its '('): after the last "::" or blank
 * before it, a template argument list just before the list counted in
 * ("ns::Doc::Create<Elem, 120>(...)": at "Create"); @open where no name
 * is found (an operator, brackets that do not balance). */
static gsize
own_name_start (const char *text, gsize open)
{
  /* the byte before the list's '(' */
  const char *q = g_utf8_offset_to_pointer (text, (glong) open) - 2;
  /* back over ABI tags: "ScanScalar[abi:cxx11](...)" */
  while (q >= text && *q == ']')
    {
      while (q >= text && *q != '[')
        q--;
      q--;
    }
  if (q >= text && *q == '>')
    {
      /* back over the template arguments (ASCII brackets: bytes do) */
      gsize depth = 0;
      for (; q >= text; q--)
        if (*q == '>')
          depth++;
        else if (*q == '<' && --depth == 0)
          break;
      if (q < text)
        return open;
      q--;
      /* "operator<< <...>": a blank between an operator and its list */
      const char *b = q;
      while (b >= text && *b == ' ')
        b--;
      if (b < q && b >= text && strchr ("<>=!+-*/%&|^~[]()", *b))
        q = b;
    }
  /* an operator's symbols: "YAML::operator<<(...)" is at "operator" */
  const char *symbols = q;
  while (symbols >= text && *symbols && strchr ("<>=!+-*/%&|^~[]()", *symbols))
    symbols--;
  if (symbols < q && symbols - text >= 7 && strncmp (symbols - 7, "operator", 8) == 0)
    q = symbols;
  const char *end = q;
  while (q >= text && (g_ascii_isalnum (*q) || *q == '_' || *q == '~'))
    q--;
  return q == end ? open : (gsize) g_utf8_pointer_to_offset (text, q + 1);
}

/* Whether the '<' at @q opens a template argument list: after a name's
 * last character, and not after "operator" ("operator<", "operator<<"),
 * or after an operator and a blank ("operator<< <std::char_traits<char>
 * >"). */
static gboolean
opens_list (const char *text, const char *q)
{
  if (*q != '<' || q == text)
    return FALSE;
  if (q - text >= 2 && q[-1] == ' ' && strchr ("<>=!+-*/%&|^~", q[-2]))
    return TRUE;
  return (g_ascii_isalnum (q[-1]) || q[-1] == '_') && !(q - text >= 8 && strncmp (q - 8, "operator", 8) == 0);
}

/* Appends the bytes [@q, @end) of @text to @out with the template
 * argument lists nested @keep deep or more as "<@mark>" (0: every
 * outermost one); a list that does not close stays.  Returns whether any
 * went. */
static gboolean
append_elided (GString *out, const char *text, const char *q, const char *end, guint keep, const char *mark)
{
  gboolean changed = FALSE;
  guint depth = 0; /* lists kept open around @q */
  while (q < end)
    {
      const char *close = NULL;
      if (depth >= keep && opens_list (text, q))
        {
          guint d = 0;
          for (const char *r = q; r < end && !close; r++)
            if (*r == '<')
              d++;
            else if (*r == '>' && --d == 0)
              close = r;
        }
      if (close)
        {
          g_string_append_c (out, '<');
          g_string_append (out, mark);
          g_string_append_c (out, '>');
          q = close + 1;
          changed = TRUE;
          continue;
        }
      depth += opens_list (text, q);
      depth -= depth > 0 && *q == '>';
      g_string_append_c (out, *q++);
    }
  return changed;
}

/* @text with the template argument lists of what stands before the
 * function's own name (characters [0, @name)) as "<…>", and those of the
 * name itself (to @open) nested @own_keep deep or more: "std::vector<…>::
 * _M_realloc_insert<std::pair<…> >" with @own_keep 1, "std::vector<…>::
 * _M_realloc_insert<…>" with 0.  NULL where none goes. */
static char *
without_templates (const char *text, gsize name, gsize open, guint own_keep, const char *mark)
{
  const char *at_name = g_utf8_offset_to_pointer (text, (glong) name);
  const char *at_open = g_utf8_offset_to_pointer (text, (glong) open);
  GString *out = g_string_new (NULL);
  gboolean changed = append_elided (out, text, text, at_name, 0, mark);
  changed |= append_elided (out, text, at_name, at_open, own_keep, mark);
  g_string_append (out, at_open);
  return g_string_free (out, !changed);
}

/* Appends @text (@cols columns) cut to @cap in the middle of its
 * parameter list, where that list can give all that must go, so that
 * the function's name stays whole ("Builder::Build(std::__cxx1…<char>
 * >*)", not "Builder::Bu…<char> >*)"); FALSE (nothing appended) where it
 * cannot. */
static gboolean
cut_parameters (GString *out, const char *text, gsize cols, gsize cap, const char *mark, gsize mark_w)
{
  gsize open = 0, close = 0, gone = cols - (cap - mark_w);
  if (!parameters (text, &open, &close) || close - open < gone)
    return FALSE;
  gsize head = open + (close - open - gone) / 2;
  append_chars (out, text, 0, head);
  g_string_append (out, mark);
  append_chars (out, text, head + gone, cols);
  return TRUE;
}

/* Where character @from of @qualifier lies inside a group in parentheses
 * ("(anonymous namespace)::", "foo(int)::"), the character after it,
 * since the end of one names nothing ("…amespace)::"); else @from, and
 * so where the group does not close, or lies inside braces (a lambda's
 * "{lambda(int)#1}::", whose end "…int)#1}::" still says what it is). */
static gsize
after_group (const char *qualifier, gsize from)
{
  const char *at = g_utf8_offset_to_pointer (qualifier, (glong) from);
  gsize depth = 0;
  char outer = 0;
  for (const char *q = qualifier; q < at; q++)
    if (*q == '(' || *q == '{')
      outer = depth++ == 0 ? *q : outer;
    else if ((*q == ')' || *q == '}') && depth > 0)
      depth--;
  if (depth == 0 || outer != '(')
    return from;
  for (const char *q = at; *q; q++)
    if (*q == '(' || *q == '{')
      depth++;
    else if ((*q == ')' || *q == '}') && --depth == 0)
      return (gsize) g_utf8_pointer_to_offset (qualifier, q + 1);
  return from;
}

/* Appends @qualifier (what stands before a function's own name: "void
 * deeply::nested::Table<…>::") in at most @room columns, by whole
 * components ("void ", "deeply::", "Table<…>::") out of its middle: the
 * first and as many of the last as fit ("deeply::…Table<…>::"), else the
 * last alone ("…Table<…>::"), else the mark and the end that fits
 * ("…<…>::", "…e::", "…::" of "(anonymous namespace)::"), where a cut in the middle read
 * "d…:insert_value(…)". */
static void
append_qualifier (GString *out, const char *qualifier, gsize room, const char *mark, gsize mark_w)
{
  /* the components' ends, in bytes: after each "::" or blank outside
   * brackets */
  g_autoptr (GArray) ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize depth = 0;
  for (gsize i = 0; qualifier[i]; i++)
    {
      char c = qualifier[i];
      depth += c == '<' || c == '(';
      depth -= depth > 0 && (c == '>' || c == ')');
      gboolean end = depth == 0
                     && (c == ' ' || (c == ':' && i > 0 && qualifier[i - 1] == ':'));
      if (end || qualifier[i + 1] == '\0')
        {
          gsize e = i + 1;
          g_array_append_val (ends, e);
        }
    }
  guint n = ends->len;
  gsize total = g_utf8_strlen (qualifier, -1);
  for (guint last = n - 1; last >= 1; last--)
    {
      /* the first component, the mark, and the last @last ones */
      gsize first_end = g_array_index (ends, gsize, 0);
      gsize tail_start = g_array_index (ends, gsize, n - 1 - last);
      gsize cols = g_utf8_strlen (qualifier, (gssize) first_end) + mark_w
                   + (total - g_utf8_strlen (qualifier, (gssize) tail_start));
      if (n - 1 - last >= 1 && cols <= room)
        {
          g_string_append_len (out, qualifier, (gssize) first_end);
          g_string_append (out, mark);
          g_string_append (out, qualifier + tail_start);
          return;
        }
    }
  gsize last_start = n >= 2 ? g_array_index (ends, gsize, n - 2) : 0;
  if (n >= 2 && mark_w + total - g_utf8_strlen (qualifier, (gssize) last_start) <= room)
    {
      g_string_append (out, mark);
      g_string_append (out, qualifier + last_start);
      return;
    }
  /* its end, which says whose member the function is ("…e::ParseDeep"),
   * not from inside an elided list ("……>::") */
  g_string_append (out, mark);
  gsize keep = room > mark_w ? room - mark_w : 0;
  gsize from = total - MIN (keep, total);
  g_autofree char *elided = g_strdup_printf ("<%s>", mark);
  gsize elided_w = (gsize) g_utf8_strlen (elided, -1);
  for (const char *e = strstr (qualifier, elided); e; e = strstr (e + 1, elided))
    {
      gsize at = (gsize) g_utf8_pointer_to_offset (qualifier, e);
      if (at < from && from < at + elided_w)
        from = at + elided_w;
    }
  /* nor from inside parentheses (after_group) */
  from = after_group (qualifier, from);
  /* nor with half a "::" ("…:HandleNode"), nor with the end of a return
   * type or keyword, which names nothing ("…ol operator<(…)" of "bool
   * operator<(…)"): a component that ends in a blank goes whole */
  const char *at = g_utf8_offset_to_pointer (qualifier, (glong) from);
  if (from > 0 && from < total && at[0] == ':' && at[-1] == ':')
    from++;
  gsize byte = (gsize) (at - qualifier);
  for (guint i = 0; i < n && from > 0 && from < total; i++)
    {
      gsize e = g_array_index (ends, gsize, i);
      if (e > byte)
        {
          if (qualifier[e - 1] == ' ' && byte > (i > 0 ? g_array_index (ends, gsize, i - 1) : 0))
            from = (gsize) g_utf8_pointer_to_offset (qualifier, qualifier + e);
          break;
        }
    }
  append_chars (out, qualifier, from, total);
}

/* Appends @text (@cols columns) cut to @cap with its parameter list
 * whole gone and, where that leaves too much, what is before the
 * function's own name by whole components (append_qualifier:
 * "tinyxml2::XMLDocument::LoadFile(char const*)" at 20 columns:
 * "…XMLDocument::LoadFile(…)", where a cut in the middle read
 * "tinyxml2:…r const*)", no function at all); where not even the own name
 * fits so, and @last, the own name alone with what follows it as far as
 * it fits ("…_insert<…>(…) const", "…_insert<…>(…", "…_insert<…>…"),
 * else the own name's start ("…_M_real…").  FALSE (nothing appended)
 * where @text has no parameter list, or the own name does not fit and not @last. */
static gboolean
cut_before_name (GString *out, const char *text, gsize cols, gsize cap, const char *mark, gsize mark_w,
                 gboolean last)
{
  gsize open = 0, close = 0;
  if (!parameters (text, &open, &close))
    return FALSE;
  gsize name = own_name_start (text, open);
  gsize list_mark = close > open ? mark_w : 0; /* "()" stays as it is */
  gsize kept = (open - name) + list_mark + (cols - close);
  if (name < open && kept + (name > 0 ? mark_w : 0) <= cap)
    {
      gsize before = cap - kept; /* columns for the text before the name */
      if (before >= name)
        append_chars (out, text, 0, name);
      else
        {
          g_autoptr (GString) qualifier = g_string_new (NULL);
          append_chars (qualifier, text, 0, name);
          append_qualifier (out, qualifier->str, before, mark, mark_w);
        }
      append_chars (out, text, name, open);
      g_string_append (out, list_mark ? mark : "");
      append_chars (out, text, close, cols);
      return TRUE;
    }
  if (!last)
    return FALSE;
  /* what is before the own name gone, then what follows it, each part
   * that goes marked, so that what is left names the function
   * ("…insert_value(…)", where the text's start is a return type or
   * namespaces: "void s…>(…)"): the list and its qualifiers as "(…"
   * ("…Match(…" for "re2::RE2::Match(…) const", where keeping the end of
   * it all read "…) const"), then all that follows the name ("…Match…"),
   * then the own name's start ("…Search…"), not into its template arguments
   * ("…InlinedSearchLoop…", not "…InlinedSearchLoop<……") */
  gsize own_from = name < open ? name : 0, own = open - 1 - own_from;
  gsize lead = own_from > 0 ? mark_w : 0, tail = (list_mark + 1) + (cols - close);
  if (lead + own + mark_w > cap)
    {
      /* its ABI tags go first ("…EvaluateCommandLine…", where the own
       * name's start read "…EvaluateCommandLine[abi:cxx1…") */
      const char *from = g_utf8_offset_to_pointer (text, (glong) own_from), *angle = from;
      const char *end = before_abi_tags (from, g_utf8_offset_to_pointer (from, (glong) own));
      own = (gsize) g_utf8_pointer_to_offset (from, end);
      /* an operator's '<' is its name: "operator<<" */
      while (angle < from + own && !opens_list (text, angle))
        angle++;
      if (angle < from + own)
        own = MIN (own, (gsize) g_utf8_pointer_to_offset (from, angle) - (angle[-1] == ' '));
      lead = cap > lead + mark_w ? lead : 0;
      own = MIN (own, cap - lead - mark_w);
    }
  g_string_append (out, lead ? mark : "");
  append_chars (out, text, own_from, own_from + own);
  if (own < open - 1 - own_from)
    g_string_append (out, mark);
  else if (lead + own + tail <= cap)
    {
      append_chars (out, text, open - 1, open);
      g_string_append (out, list_mark ? mark : "");
      append_chars (out, text, close, cols);
    }
  else if (lead + own + 1 + mark_w <= cap)
    {
      g_string_append_c (out, '(');
      g_string_append (out, mark);
    }
  else
    g_string_append (out, mark);
  return TRUE;
}

static void cut_name (GString *out, const char *whole, gsize whole_cols, gsize cap, const char *mark, gsize mark_w);

/* append_qualifier, but where all that is left of @qualifier is the
 * "::" before the own name, the mark alone ("…AccumulateRegisterFile",
 * not "…::AccumulateRegisterFile") */
static void
append_before_own (GString *out, const char *qualifier, gsize room, const char *mark, gsize mark_w)
{
  gsize at = out->len;
  append_qualifier (out, qualifier, room, mark, mark_w);
  if (out->len - at == strlen (mark) + 2 && g_str_has_suffix (out->str, "::"))
    g_string_truncate (out, out->len - 2);
}

/* Where @text (@cols columns) is a qualified name without a parameter
 * list (as --strip shows C++ names: "Edge::EvaluateCommand[abi:cxx11]",
 * "std::__cxx11::basic_string::_M_append"), appends it cut to @cap as a
 * name with a list is cut: what stands before the own name (after the
 * last "::" outside brackets) by whole components (append_qualifier:
 * "…basic_string::_M_append"), then the own name's ABI tags
 * ("…EvaluateCommand…"), then the own name's start ("…EvaluateCo…"),
 * where a cut in the middle read "Edge…11]" and "std:…end" in cgtree
 * --strip at 80 columns on ninja 1.11.  FALSE (nothing appended) where
 * @text has no such "::" or @cap leaves too little of the own name. */
static gboolean
cut_qualified (GString *out, const char *text, gsize cols, gsize cap, const char *mark, gsize mark_w)
{
  const char *own = NULL;
  gsize depth = 0;
  for (const char *q = text; *q; q++)
    if (*q == '<' || *q == '(' || *q == '[')
      depth++;
    else if ((*q == '>' || *q == ')' || *q == ']') && depth > 0)
      depth--;
    else if (depth == 0 && q[0] == ':' && q[1] == ':')
      own = ++q + 1;
  if (own == NULL || *own == '\0')
    return FALSE;
  /* the own name without its ABI tags ("[abi:cxx11]") */
  const char *bare_end = before_abi_tags (own, own + strlen (own));
  gsize own_cols = (gsize) g_utf8_strlen (own, -1), bare_cols = (gsize) g_utf8_strlen (own, bare_end - own);
  g_autofree char *qualifier = g_strndup (text, (gsize) (own - text));
  if (own_cols + mark_w <= cap)
    {
      append_before_own (out, qualifier, cap - own_cols, mark, mark_w);
      g_string_append (out, own);
    }
  else if (bare_cols < own_cols && bare_cols + 2 * mark_w <= cap)
    {
      append_before_own (out, qualifier, cap - bare_cols - mark_w, mark, mark_w);
      g_string_append_len (out, own, bare_end - own);
      g_string_append (out, mark);
    }
  else if (cap >= 2 * mark_w + 4 && cols > 0)
    {
      g_string_append (out, mark);
      append_chars (out, own, 0, cap - 2 * mark_w);
      g_string_append (out, mark);
    }
  else
    return FALSE;
  return TRUE;
}

/* Appends @name whole and @mark where both fit in @cap, else @name cut by
 * the other steps (cut_name): what cut_version and cut_clone leave once
 * they took their suffix off. */
static void
append_name_cut (GString *out, const char *name, gsize cap, const char *mark, gsize mark_w)
{
  gsize name_cols = (gsize) g_utf8_strlen (name, -1);
  if (name_cols + mark_w <= cap)
    {
      g_string_append (out, name);
      g_string_append (out, mark);
    }
  else
    cut_name (out, name, name_cols, cap, mark, mark_w);
}

/* Where @text ends in a symbol version ("pthread_mutex_lock@@GLIBC_2.34",
 * "memcpy@GLIBC_2.2.5": a library's versioned symbol as callgrind and
 * perf name it), appends it cut to @cap by the version first, which says
 * least of which function it is: the name and the mark
 * ("pthread_mutex_lock…", where a cut in the middle read "pthr….34"),
 * else the name cut by the other steps.  FALSE (nothing appended) where
 * @text has no such suffix. */
static gboolean
cut_version (GString *out, const char *text, gsize cap, const char *mark, gsize mark_w)
{
  const char *at = strrchr (text, '@');
  if (at == NULL || !(g_ascii_isalpha (at[1]) || at[1] == '_'))
    return FALSE;
  for (const char *q = at + 1; *q; q++)
    if (!(g_ascii_isalnum (*q) || *q == '_' || *q == '.'))
      return FALSE;
  if (at > text && at[-1] == '@')
    at--;
  if (at == text)
    return FALSE;
  g_autofree char *name = g_strndup (text, (gsize) (at - text));
  append_name_cut (out, name, cap, mark, mark_w);
  return TRUE;
}

/* Where @text ends in the suffixes a compiler gives a clone of a
 * function ("add_term.part.0", "f.constprop.0.isra.0", "f(int) [clone
 * .cold]", cg_strip_clone_suffixes), appends it cut to @cap by those
 * first, as cut_version cuts a version: they say which copy of the
 * function the code is, and a cut in the middle kept their digits and
 * lost the function ("add_…t.0" at 80 columns on GNU m4's eval).  FALSE
 * (nothing appended) where @text has no such suffix. */
static gboolean
cut_clone (GString *out, const char *text, gsize cap, const char *mark, gsize mark_w)
{
  gsize len = strlen (text), keep = cg_strip_clone_suffixes (text, len);
  if (keep == len || keep == 0)
    return FALSE;
  g_autofree char *name = g_strndup (text, keep);
  append_name_cut (out, name, cap, mark, mark_w);
  return TRUE;
}

/* Where @text is a label "NAME [OBJECT]" (the object a view adds to an
 * address or to a name that several objects define, or the linker name
 * it adds to one that demangles alike), appends it cut to @cap by what
 * is in brackets first, which says less of which function it is: its
 * middle goes ("0x2b3ae0 [librus…ver.so]", both ends kept as they tell
 * objects and clones apart), then the whole of it, the name cut by the
 * other steps ("0x2b3ae0", "std::vector<…>::push_back(…)"), where a cut
 * in the middle of the whole read "0x2b…rg]".  FALSE (nothing appended)
 * where @text has no such suffix. */
static gboolean
cut_object (GString *out, const char *text, gsize cols, gsize cap, const char *mark, gsize mark_w)
{
  gsize len = strlen (text);
  if (len < 4 || text[len - 1] != ']')
    return FALSE;
  /* the " [" that opens the suffix, no bracket inside it */
  const char *open = NULL;
  for (const char *q = text + len - 2; q > text && !open; q--)
    if (*q == '[' || *q == ']')
      {
        if (*q == ']' || q[-1] != ' ')
          return FALSE;
        open = q - 1;
      }
  if (!open || open == text || open + 2 == text + len - 1)
    return FALSE;
  /* a demangled clone's " [clone .isra.0]" is the name's, cut_clone's */
  if (g_str_has_prefix (open, " [clone ."))
    return FALSE;
  /* " [", "]", the mark and three of the object's characters */
  gsize name_cols = (gsize) g_utf8_pointer_to_offset (text, open);
  if (name_cols + 3 + mark_w + 3 <= cap)
    {
      gsize object_cols = cols - name_cols - 3, room = cap - name_cols - 3 - mark_w, head = (room + 1) / 2;
      g_string_append_len (out, text, open + 2 - text);
      append_chars (out, open + 2, 0, head);
      g_string_append (out, mark);
      append_chars (out, open + 2, object_cols - (room - head), object_cols + 1);
      return TRUE;
    }
  g_autofree char *name = g_strndup (text, (gsize) (open - text));
  if (name_cols <= cap)
    g_string_append (out, name);
  else if (!cut_version (out, name, cap, mark, mark_w) && !cut_clone (out, name, cap, mark, mark_w))
    cut_name (out, name, name_cols, cap, mark, mark_w);
  return TRUE;
}

/* Appends @text (@cols columns) cut to @cap columns where it is longer, by
 * the first of these that fits: the middle of its parameter list; then, with the
 * template arguments of what stands before the function's own name as
 * "<…>" and those nested in the function's own
 * ("std::vector<…>::_M_realloc_insert<std::pair<…> >(…)"), and then with
 * the function's own too ("_M_realloc_insert<…>"), the name whole, the
 * middle of its list, or the list gone (cut_before_name); only where the
 * name has no list, the middle of the whole, its template arguments
 * "<…>". */
static void
cut_name (GString *out, const char *whole, gsize whole_cols, gsize cap, const char *mark, gsize mark_w)
{
  if (cut_parameters (out, whole, whole_cols, cap, mark, mark_w))
    return;
  gsize open = whole_cols, close = 0;
  gsize name = parameters (whole, &open, &close) ? own_name_start (whole, open) : open;
  /* two, not an array: g_autofree on an array frees its first element
   * alone */
  g_autofree char *outer_out = NULL, *all_out = NULL;
  char **form[2] = { &outer_out, &all_out };
  const char *text = whole;
  gsize cols = whole_cols;
  for (guint i = 0; i < 2; i++)
    {
      /* the function's own template arguments outermost first, then whole */
      *form[i] = without_templates (whole, name, open, 1 - i, mark);
      if (*form[i])
        {
          text = *form[i];
          cols = (gsize) g_utf8_strlen (text, -1);
          if (cols <= cap)
            {
              g_string_append (out, text);
              return;
            }
          if (cut_parameters (out, text, cols, cap, mark, mark_w))
            return;
        }
      if (cut_before_name (out, text, cols, cap, mark, mark_w, i == 1))
        return;
    }
  if (cut_qualified (out, text, cols, cap, mark, mark_w))
    return;
  gsize room = cap - mark_w, head = (room + 1) / 2;
  append_chars (out, text, 0, head);
  g_string_append (out, mark);
  append_chars (out, text, head + cols - room, cols);
}

void
cg_cut_name (GString *out, const char *whole, gsize whole_cols, gsize cap, const char *mark)
{
  gsize mark_w = (gsize) g_utf8_strlen (mark, -1);
  if (whole_cols <= cap)
    g_string_append (out, whole);
  else if (!cut_object (out, whole, whole_cols, cap, mark, mark_w)
           && !cut_version (out, whole, cap, mark, mark_w) && !cut_clone (out, whole, cap, mark, mark_w))
    cut_name (out, whole, whole_cols, cap, mark, mark_w);
}
