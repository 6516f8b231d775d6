/* statics-b.c: see statics-a.c.  This helper also calls itself. */
int a_entry (int n);

static int
helper (int n)
{
  int s = 0;
  for (int i = 0; i < n * 3000; i++)
    s += i % 5;
  if (n % 2 == 0 && n > 0)
    s += helper (n - 1);
  return s + (n > 0 ? a_entry (n - 1) : 0);
}

int
b_entry (int n)
{
  return helper (n);
}
