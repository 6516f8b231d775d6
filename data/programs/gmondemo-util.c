/* gmondemo-util.c — the second file of gmondemo: a static helper with the
 * same name as one in gmondemo.c, which gprof keeps apart by address. */
unsigned long util_work (unsigned long n);

static volatile unsigned long util_sink;

static unsigned long
helper (unsigned long n)
{
  unsigned long s = 1;
  for (unsigned long i = 0; i < n * 8; i++)
    s = s * 31 + i;
  return s;
}

unsigned long
util_work (unsigned long n)
{
  util_sink += helper (n);
  return util_sink & 1;
}
