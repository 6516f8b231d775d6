/* main.c — lualike's programs, in its bytecode: a recursive fib, tables
 * filled and read by integer and by (interned) string keys, and protected
 * calls of a function that raises an error every third time (longjmp).
 * Prints the results.
 *
 * Usage: lualike [FIB_N [TABLE_N [PCALL_N]]]   (defaults 27 300000 100000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua.h"

#define I(op, a, b, c) { OP_##op, a, b, c }

static const Instr fib_code[] = {
  I (LOADN, 1, 2, 0), I (LT, 2, 0, 1), I (TEST, 2, 1, 0), I (RET, 0, 0, 0),
  I (GETGLOBAL, 3, 0, 0), I (LOADN, 4, 1, 0), I (SUB, 4, 0, 4), I (CALL, 3, 1, 0),
  I (GETGLOBAL, 4, 0, 0), I (LOADN, 5, 2, 0), I (SUB, 5, 0, 5), I (CALL, 4, 1, 0),
  I (ADD, 3, 3, 4), I (RET, 3, 0, 0),
};

static const Instr tables_code[] = {
  /* t = {}; for i = 1, N do t[i] = i * 2 end */
  I (NEWTABLE, 0, 0, 0), I (LOADN, 1, 1, 0), I (LOADK, 2, 0, 0), I (LOADN, 5, 1, 0), I (LOADN, 6, 2, 0),
  I (LT, 3, 2, 1), I (TEST, 3, 1, 0), I (JMP, 0, 4, 0), I (MUL, 4, 1, 6), I (SETT, 0, 1, 4), I (ADD, 1, 1, 5),
  I (JMP, 0, -7, 0),
  /* sum = 0; for i = 1, N do sum = sum + t[i] end */
  I (LOADN, 7, 0, 0), I (LOADN, 1, 1, 0),
  I (LT, 3, 2, 1), I (TEST, 3, 1, 0), I (JMP, 0, 4, 0), I (GETT, 4, 0, 1), I (ADD, 7, 7, 4), I (ADD, 1, 1, 5),
  I (JMP, 0, -7, 0),
  /* counts = {}; for i = 1, N do local k = keys[i % 100 + 1]; counts[k] = (counts[k] or 0) + 1 end */
  I (GETGLOBAL, 8, 1, 0), I (NEWTABLE, 9, 0, 0), I (LOADN, 1, 1, 0), I (LOADN, 12, 100, 0),
  I (LT, 3, 2, 1), I (TEST, 3, 1, 0), I (JMP, 0, 11, 0), I (MOD, 10, 1, 12), I (ADD, 10, 10, 5),
  I (GETT, 11, 8, 10), I (GETT, 4, 9, 11), I (TEST, 4, 1, 0), I (JMP, 0, 1, 0), I (LOADN, 4, 0, 0),
  I (ADD, 4, 4, 5), I (SETT, 9, 11, 4), I (ADD, 1, 1, 5), I (JMP, 0, -14, 0),
  I (RET, 7, 0, 0),
};

/* g(n): recurses n deep, then raises an error */
static const Instr g_code[] = {
  I (LOADN, 1, 0, 0), I (EQ, 2, 0, 1), I (TEST, 2, 1, 0), I (ERROR, 0, 0, 0),
  I (GETGLOBAL, 3, 0, 0), I (LOADN, 4, 1, 0), I (SUB, 4, 0, 4), I (CALL, 3, 1, 0), I (RET, 3, 0, 0),
};

/* f(i): g(5) when i % 3 == 0, else cadd(i, i) */
static const Instr f_code[] = {
  I (LOADN, 1, 3, 0), I (MOD, 2, 0, 1), I (LOADN, 3, 0, 0), I (EQ, 2, 2, 3), I (TEST, 2, 3, 0),
  I (GETGLOBAL, 4, 1, 0), I (LOADN, 5, 5, 0), I (CALL, 4, 1, 0),
  I (GETGLOBAL, 4, 0, 0), I (MOVE, 5, 0, 0), I (MOVE, 6, 0, 0), I (CALL, 4, 2, 0), I (RET, 4, 0, 0),
};

/* ok = 0; for i = 1, M do if pcall(f, i) then ok = ok + 1 end end */
static const Instr pcalls_code[] = {
  I (LOADN, 0, 1, 0), I (LOADK, 1, 1, 0), I (LOADN, 2, 1, 0), I (LOADN, 6, 0, 0),
  I (LT, 3, 1, 0), I (TEST, 3, 1, 0), I (JMP, 0, 7, 0), I (GETGLOBAL, 7, 0, 0), I (MOVE, 8, 0, 0),
  I (PCALL, 7, 1, 0), I (TEST, 7, 1, 0), I (ADD, 6, 6, 2), I (ADD, 0, 0, 2), I (JMP, 0, -10, 0),
  I (RET, 6, 0, 0),
};

static int
cadd (State *L, int base, int nargs)
{
  double s = 0;
  for (int i = 0; i < nargs; i++)
    s += L->stack[base + i].t == T_NUM ? L->stack[base + i].u.n : 0;
  L->stack[base - 1].t = T_NUM;
  L->stack[base - 1].u.n = s;
  return 1;
}

static Value
str (State *L, const char *s)
{
  Value v = { T_STR, { .s = luaS_new (L, s, strlen (s)) } };
  return v;
}

static Value
num (double n)
{
  Value v = { T_NUM, { .n = n } };
  return v;
}

static void
setglobal (State *L, const char *name, Value v)
{
  Value k = str (L, name);
  luaH_set (L, L->globals, &k, &v);
}

static Value
lfunc (const Proto *p)
{
  Value v = { T_LFUNC, { .p = (Proto *) p } };
  return v;
}

/* runs @p with one argument; its result */
static Value
run (State *L, const Proto *p, Value arg)
{
  L->stack[0] = lfunc (p);
  L->stack[1] = arg;
  luaD_call (L, 0, 1);
  return L->stack[0];
}

int
main (int argc, char **argv)
{
  int fib_n = argc > 1 ? atoi (argv[1]) : 27;
  int table_n = argc > 2 ? atoi (argv[2]) : 300000;
  int pcall_n = argc > 3 ? atoi (argv[3]) : 100000;
  State st, *L = &st;
  memset (L, 0, sizeof *L);
  L->stacksize = 64;
  L->stack = calloc ((size_t) L->stacksize, sizeof *L->stack);
  L->cisize = 16;
  L->ci = malloc ((size_t) L->cisize * sizeof *L->ci);
  L->strtsize = 256;
  L->strt = calloc ((size_t) L->strtsize, sizeof *L->strt);
  L->globals = luaH_new ();
  Jmp top;
  top.prev = NULL;
  L->errjmp = &top;
  if (setjmp (top.b))
    {
      fprintf (stderr, "lualike: %s\n", L->errval.u.s->data);
      return 1;
    }

  Value fib_k[] = { str (L, "fib") };
  Value tables_k[] = { num (table_n), str (L, "keys") };
  Value g_k[] = { str (L, "g") };
  Value f_k[] = { str (L, "cadd"), str (L, "g") };
  Value pcalls_k[] = { str (L, "f"), num (pcall_n) };
  const Proto fib = { fib_code, 6, fib_k }, tables = { tables_code, 13, tables_k }, g = { g_code, 5, g_k },
              f = { f_code, 7, f_k }, pcalls = { pcalls_code, 9, pcalls_k };
  setglobal (L, "fib", lfunc (&fib));
  setglobal (L, "g", lfunc (&g));
  setglobal (L, "f", lfunc (&f));
  Value c = { T_CFUNC, { .f = cadd } };
  setglobal (L, "cadd", c);
  Table *keys = luaH_new ();
  for (int i = 1; i <= 100; i++)
    {
      char name[16];
      snprintf (name, sizeof name, "k%d", i);
      Value k = num (i), v = str (L, name);
      luaH_set (L, keys, &k, &v);
    }
  Value kv = { T_TABLE, { .h = keys } };
  setglobal (L, "keys", kv);

  Value r1 = run (L, &fib, num (fib_n));
  Value r2 = run (L, &tables, num (0));
  Value r3 = run (L, &pcalls, num (0));
  printf ("fib(%d) = %.0f, sum %.0f, %.0f of %d calls ok\n", fib_n, r1.u.n, r2.u.n, r3.u.n, pcall_n);
  return 0;
}
