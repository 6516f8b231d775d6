/* a call still running when callgrind dumps, whose call site's line has
 * no self cost in the part after: lines chosen with #line so that the
 * positions after the call are written relative to an earlier line */
volatile long sink;

__attribute__((noinline)) static void
spin (long n)
{
  for (long i = 0; i < n; i++)
    sink += i;
}

__attribute__((noinline)) static void
caller (long n)
{
#line 58
  for (int k = 0; k < 2; k++)
    {
#line 149
      if (k == 1)
        {
#line 150
          sink += 1;
        }
      else
        {
#line 60
          spin (n);
        }
#line 58
    }
#line 55
  sink += 2;
}

int
main (void)
{
  caller (3000000);
  return 0;
}
