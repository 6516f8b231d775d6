/* calls.c — call-heavy programs for bench/amon-overhead.sh.
 *
 *   parse  a recursive-descent parser and evaluator of arithmetic
 *          expressions (expr/term/factor recurse mutually through
 *          parentheses) over a generated text of ~1.5 MB;
 *   huff   a Huffman compressor: frequencies, a heap-built code tree,
 *          codes by recursive descent, and a bit writer called per bit;
 *   btree  a B-tree database: 400,000 inserts (recursive insert and split)
 *          and 800,000 lookups, then a recursive traversal.
 * Each prints a checksum so the compiler cannot drop the work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- parse ---- */

static const char *in;
static unsigned long seed = 12345;

static unsigned
rnd (void)
{
  seed = seed * 6364136223846793005ul + 1442695040888963407ul;
  return (unsigned) (seed >> 33);
}

static void
gen (char **out, int depth)
{
  unsigned k = rnd () % 10;
  if (depth > 12 || k < 4)
    {
      *out += sprintf (*out, "%u", rnd () % 100);
      return;
    }
  if (k < 6)
    {
      *(*out)++ = '(';
      gen (out, depth + 1);
      *(*out)++ = ')';
      return;
    }
  gen (out, depth + 1);
  *(*out)++ = "+-*/"[rnd () % 4];
  gen (out, depth + 1);
}

static long expr (void);

static void
skip (void)
{
  while (*in == ' ')
    in++;
}

static long
number (void)
{
  long v = 0;
  while (*in >= '0' && *in <= '9')
    v = v * 10 + (*in++ - '0');
  return v;
}

static long
factor (void)
{
  skip ();
  if (*in == '(')
    {
      in++;
      long v = expr ();
      skip ();
      in++; /* ')' */
      return v;
    }
  return number ();
}

static long
term (void)
{
  long v = factor ();
  for (;;)
    {
      skip ();
      if (*in == '*')
        {
          in++;
          v = (v * factor ()) % 1000003;
        }
      else if (*in == '/')
        {
          in++;
          long d = factor ();
          v = d ? v / d : v;
        }
      else
        return v;
    }
}

static long
expr (void)
{
  long v = term ();
  for (;;)
    {
      skip ();
      if (*in == '+')
        {
          in++;
          v += term ();
        }
      else if (*in == '-')
        {
          in++;
          v -= term ();
        }
      else
        return v;
    }
}

static long
run_parse (void)
{
  size_t cap = 64u << 20;
  char *text = malloc (cap), *p = text;
  long sum = 0;
  for (int line = 0; line < 400000 && (size_t) (p - text) < cap - (1u << 20); line++)
    {
      char *start = p;
      gen (&p, 0);
      *p++ = 0;
      in = start;
      sum += expr ();
    }
  free (text);
  return sum;
}

/* ---- huff ---- */

typedef struct {
  unsigned long count;
  int left, right, symbol;
} Node;

static Node nodes[512];
static int heap[512], heap_n;
static unsigned codes[256], lengths[256];
static unsigned char *outbuf;
static unsigned long outbits;

static int
less (int a, int b)
{
  return nodes[a].count < nodes[b].count || (nodes[a].count == nodes[b].count && a < b);
}

static void
sift_down (int i)
{
  for (;;)
    {
      int l = 2 * i + 1, r = l + 1, m = i;
      if (l < heap_n && less (heap[l], heap[m]))
        m = l;
      if (r < heap_n && less (heap[r], heap[m]))
        m = r;
      if (m == i)
        return;
      int t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
}

static void
push (int x)
{
  int i = heap_n++;
  heap[i] = x;
  while (i > 0 && less (heap[i], heap[(i - 1) / 2]))
    {
      int t = heap[i];
      heap[i] = heap[(i - 1) / 2];
      heap[(i - 1) / 2] = t;
      i = (i - 1) / 2;
    }
}

static int
pop (void)
{
  int x = heap[0];
  heap[0] = heap[--heap_n];
  sift_down (0);
  return x;
}

static void
assign (int n, unsigned code, unsigned len)
{
  if (nodes[n].symbol >= 0)
    {
      codes[nodes[n].symbol] = code;
      lengths[nodes[n].symbol] = len ? len : 1;
      return;
    }
  assign (nodes[n].left, code << 1, len + 1);
  assign (nodes[n].right, code << 1 | 1, len + 1);
}

static void
put_bit (unsigned b)
{
  if (b)
    outbuf[outbits >> 3] |= (unsigned char) (1u << (outbits & 7));
  outbits++;
}

static void
put_code (int symbol)
{
  for (unsigned i = lengths[symbol]; i-- > 0;)
    put_bit ((codes[symbol] >> i) & 1);
}

static long
run_huff (void)
{
  size_t n = 3u << 20;
  unsigned char *data = malloc (n);
  for (size_t i = 0; i < n; i++)
    data[i] = (unsigned char) ("etaoin shrdlu"[rnd () % 13] + (rnd () % 7 == 0 ? rnd () % 64 : 0));
  outbuf = calloc (n, 1);
  long sum = 0;
  for (int round = 0; round < 2; round++)
    {
      memset (nodes, 0, sizeof nodes);
      heap_n = 0;
      for (int s = 0; s < 256; s++)
        {
          nodes[s].symbol = s;
          nodes[s].left = nodes[s].right = -1;
        }
      for (size_t i = 0; i < n; i++)
        nodes[data[i]].count++;
      for (int s = 0; s < 256; s++)
        if (nodes[s].count)
          push (s);
      int next = 256;
      while (heap_n > 1)
        {
          int a = pop (), b = pop ();
          nodes[next] = (Node) { nodes[a].count + nodes[b].count, a, b, -1 };
          push (next++);
        }
      assign (pop (), 0, 0);
      outbits = 0;
      memset (outbuf, 0, n);
      for (size_t i = 0; i < n; i++)
        put_code (data[i]);
      sum += (long) outbits;
    }
  free (data);
  free (outbuf);
  return sum;
}

/* ---- btree ---- */

#define ORDER 16
typedef struct Page Page;
struct Page {
  int n, leaf;
  long keys[2 * ORDER - 1];
  Page *child[2 * ORDER];
};

static Page *
page_new (int leaf)
{
  Page *p = calloc (1, sizeof *p);
  p->leaf = leaf;
  return p;
}

static int
find_slot (const Page *p, long key)
{
  int lo = 0, hi = p->n;
  while (lo < hi)
    {
      int mid = (lo + hi) / 2;
      if (p->keys[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static int
lookup (const Page *p, long key)
{
  int i = find_slot (p, key);
  if (i < p->n && p->keys[i] == key)
    return 1;
  return p->leaf ? 0 : lookup (p->child[i], key);
}

static void
split (Page *parent, int i)
{
  Page *full = parent->child[i], *right = page_new (full->leaf);
  right->n = ORDER - 1;
  memcpy (right->keys, full->keys + ORDER, (ORDER - 1) * sizeof (long));
  if (!full->leaf)
    memcpy (right->child, full->child + ORDER, ORDER * sizeof (Page *));
  full->n = ORDER - 1;
  memmove (parent->child + i + 2, parent->child + i + 1, (size_t) (parent->n - i) * sizeof (Page *));
  memmove (parent->keys + i + 1, parent->keys + i, (size_t) (parent->n - i) * sizeof (long));
  parent->child[i + 1] = right;
  parent->keys[i] = full->keys[ORDER - 1];
  parent->n++;
}

static void
insert_nonfull (Page *p, long key)
{
  int i = find_slot (p, key);
  if (i < p->n && p->keys[i] == key)
    return;
  if (p->leaf)
    {
      memmove (p->keys + i + 1, p->keys + i, (size_t) (p->n - i) * sizeof (long));
      p->keys[i] = key;
      p->n++;
      return;
    }
  if (p->child[i]->n == 2 * ORDER - 1)
    {
      split (p, i);
      if (key > p->keys[i])
        i++;
      else if (key == p->keys[i])
        return;
    }
  insert_nonfull (p->child[i], key);
}

static Page *
insert (Page *root, long key)
{
  if (root->n == 2 * ORDER - 1)
    {
      Page *r = page_new (0);
      r->child[0] = root;
      split (r, 0);
      root = r;
    }
  insert_nonfull (root, key);
  return root;
}

static long
walk (const Page *p)
{
  long s = 0;
  for (int i = 0; i < p->n; i++)
    s += p->keys[i] % 7 + (p->leaf ? 0 : walk (p->child[i]));
  return s + (p->leaf ? 0 : walk (p->child[p->n]));
}

static void
drop (Page *p)
{
  if (!p->leaf)
    for (int i = 0; i <= p->n; i++)
      drop (p->child[i]);
  free (p);
}

static long
run_btree (void)
{
  Page *root = page_new (1);
  for (int i = 0; i < 400000; i++)
    root = insert (root, (long) (rnd () % 10000000));
  long found = 0;
  for (int i = 0; i < 800000; i++)
    found += lookup (root, (long) (rnd () % 10000000));
  found += walk (root);
  drop (root);
  return found;
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "parse";
  int times = argc > 2 ? atoi (argv[2]) : 1; /* repeated, for a longer run */
  long r = 0;
  for (int i = 0; i < (times > 0 ? times : 1); i++)
    r += strcmp (what, "parse") == 0 ? run_parse () : strcmp (what, "huff") == 0 ? run_huff () : run_btree ();
  printf ("%s %ld\n", what, r);
  return 0;
}
