/* vm.c — lualike's interpreter loop and calls (lvm.c and ldo.c shapes):
 * a call of a Lua function pushes a CallInfo and goes on in the same
 * loop; a C function is called by luaD_precall; luaD_pcall sets a
 * jmp_buf that luaG_runerror longjmps to, and runs its function in a new
 * loop (C recursion, as Lua's). */
#include <stdlib.h>
#include <string.h>

#include "lua.h"

void
luaD_checkstack (State *L, int n)
{
  if (n <= L->stacksize)
    return;
  int size = L->stacksize;
  while (size < n)
    size *= 2;
  L->stack = realloc (L->stack, (size_t) size * sizeof *L->stack);
  for (int i = L->stacksize; i < size; i++)
    L->stack[i].t = T_NIL;
  L->stacksize = size;
}

void
luaG_runerror (State *L, const char *msg)
{
  L->errval.t = T_STR;
  L->errval.u.s = luaS_new (L, msg, strlen (msg));
  if (L->errjmp == NULL)
    abort ();
  longjmp (L->errjmp->b, 1);
}

static void
typeerror (State *L, const Value *v, const char *op)
{
  (void) v;
  luaG_runerror (L, op);
}

static CallInfo *
nextci (State *L)
{
  if (L->nci == L->cisize)
    {
      L->cisize *= 2;
      L->ci = realloc (L->ci, (size_t) L->cisize * sizeof *L->ci);
    }
  return &L->ci[L->nci++];
}

/* 1 when a Lua function's frame was pushed (the loop runs it), 0 when a
 * C function ran (its result is in the function's slot) */
static int
luaD_precall (State *L, int func, int nargs, int ret)
{
  Value *f = &L->stack[func];
  if (f->t == T_CFUNC)
    {
      f->u.f (L, func + 1, nargs);
      L->stack[ret] = L->stack[func];
      return 0;
    }
  if (f->t != T_LFUNC)
    typeerror (L, f, "attempt to call a non-function");
  const Proto *p = f->u.p;
  luaD_checkstack (L, func + 1 + p->nregs + 8);
  for (int i = func + 1 + nargs; i < func + 1 + p->nregs; i++)
    L->stack[i].t = T_NIL;
  CallInfo *ci = nextci (L);
  ci->p = p;
  ci->base = func + 1;
  ci->pc = 0;
  ci->ret = ret;
  return 1;
}

void
luaD_call (State *L, int func, int nargs)
{
  int entry = L->nci;
  if (luaD_precall (L, func, nargs, func))
    luaV_execute (L, entry);
}

int
luaD_pcall (State *L, int func, int nargs)
{
  Jmp j;
  j.prev = L->errjmp;
  L->errjmp = &j;
  int nci = L->nci;
  if (setjmp (j.b) == 0)
    {
      luaD_call (L, func, nargs);
      L->errjmp = j.prev;
      return 1;
    }
  L->errjmp = j.prev;
  L->nci = nci;
  L->stack[func] = L->errval;
  return 0;
}

static Value
luaV_gettable (State *L, const Value *t, const Value *k)
{
  if (t->t != T_TABLE)
    typeerror (L, t, "attempt to index a non-table");
  return luaH_get (t->u.h, k);
}

static void
luaV_settable (State *L, const Value *t, const Value *k, const Value *v)
{
  if (t->t != T_TABLE)
    typeerror (L, t, "attempt to index a non-table");
  luaH_set (L, t->u.h, k, v);
}

static double
luaV_tonumber (State *L, const Value *v)
{
  if (v->t == T_NUM)
    return v->u.n;
  typeerror (L, v, "attempt to perform arithmetic on a non-number");
  return 0;
}

static Value
luaO_arith (State *L, opcode op, const Value *a, const Value *b)
{
  double x = luaV_tonumber (L, a), y = luaV_tonumber (L, b), r;
  switch (op)
    {
    case OP_ADD:
      r = x + y;
      break;
    case OP_SUB:
      r = x - y;
      break;
    case OP_MUL:
      r = x * y;
      break;
    default:
      {
        long long m = (long long) y;
        if (m == 0)
          luaG_runerror (L, "attempt to perform 'n%%0'");
        r = (double) ((long long) x % m);
      }
    }
  Value v = { T_NUM, { .n = r } };
  return v;
}

static int
luaV_lessthan (State *L, const Value *a, const Value *b)
{
  if (a->t == T_NUM && b->t == T_NUM)
    return a->u.n < b->u.n;
  if (a->t == T_STR && b->t == T_STR)
    return strcmp (a->u.s->data, b->u.s->data) < 0;
  typeerror (L, a, "attempt to compare");
  return 0;
}

static int
luaV_equalobj (const Value *a, const Value *b)
{
  if (a->t != b->t)
    return 0;
  return a->t == T_NUM ? a->u.n == b->u.n : a->t == T_NIL ? 1 : a->u.h == b->u.h;
}

static int
l_isfalse (const Value *v)
{
  return v->t == T_NIL || (v->t == T_BOOL && !v->u.b);
}

void
luaV_execute (State *L, int entry)
{
  CallInfo *ci = &L->ci[L->nci - 1];
  for (;;)
    {
      Instr i = ci->p->code[ci->pc++];
      Value *base = L->stack + ci->base;
      switch (i.op)
        {
        case OP_LOADN:
          base[i.a].t = T_NUM;
          base[i.a].u.n = i.b;
          break;
        case OP_LOADK:
          base[i.a] = ci->p->k[i.b];
          break;
        case OP_MOVE:
          base[i.a] = base[i.b];
          break;
        case OP_ADD:
        case OP_SUB:
        case OP_MUL:
          if (base[i.b].t == T_NUM && base[i.c].t == T_NUM)
            {
              double x = base[i.b].u.n, y = base[i.c].u.n;
              base[i.a].t = T_NUM;
              base[i.a].u.n = i.op == OP_ADD ? x + y : i.op == OP_SUB ? x - y : x * y;
            }
          else
            base[i.a] = luaO_arith (L, i.op, &base[i.b], &base[i.c]);
          break;
        case OP_MOD:
          base[i.a] = luaO_arith (L, i.op, &base[i.b], &base[i.c]);
          break;
        case OP_LT:
          {
            int r = luaV_lessthan (L, &base[i.b], &base[i.c]);
            base[i.a].t = T_BOOL;
            base[i.a].u.b = r;
          }
          break;
        case OP_EQ:
          {
            int r = luaV_equalobj (&base[i.b], &base[i.c]);
            base[i.a].t = T_BOOL;
            base[i.a].u.b = r;
          }
          break;
        case OP_JMP:
          ci->pc += i.b;
          break;
        case OP_TEST:
          if (l_isfalse (&base[i.a]))
            ci->pc += i.b;
          break;
        case OP_CALL:
          if (luaD_precall (L, ci->base + i.a, i.b, ci->base + i.a))
            ci = &L->ci[L->nci - 1];
          break;
        case OP_RET:
          {
            Value v = base[i.a];
            L->stack[ci->ret] = v;
            L->nci--;
            if (L->nci == entry)
              return;
            ci = &L->ci[L->nci - 1];
          }
          break;
        case OP_NEWTABLE:
          base[i.a].t = T_TABLE;
          base[i.a].u.h = luaH_new ();
          break;
        case OP_GETT:
          base[i.a] = luaV_gettable (L, &base[i.b], &base[i.c]);
          break;
        case OP_SETT:
          luaV_settable (L, &base[i.a], &base[i.b], &base[i.c]);
          break;
        case OP_GETGLOBAL:
          base[i.a] = luaH_get (L->globals, &ci->p->k[i.b]);
          break;
        case OP_PCALL:
          {
            int slot = ci->base + i.a;
            int ok = luaD_pcall (L, slot, i.b);
            ci = &L->ci[L->nci - 1];
            L->stack[slot + 1] = L->stack[slot];
            L->stack[slot].t = T_BOOL;
            L->stack[slot].u.b = ok;
          }
          break;
        case OP_ERROR:
          luaG_runerror (L, "error raised by the program");
        case OP_LEN:
          if (base[i.b].t != T_TABLE)
            typeerror (L, &base[i.b], "attempt to get length");
          base[i.a].t = T_NUM;
          base[i.a].u.n = luaH_getn (base[i.b].u.h);
          break;
        }
    }
}
