/* lua.h — lualike, a bytecode interpreter written to Lua 5.4's shape for
 * bench/amon-overhead.sh (Lua's sources are not at hand offline): tagged
 * values, tables with an array and a hash part (ltable.c's shape, in
 * table.c), interned strings, an interpreter loop that runs Lua-to-Lua
 * calls without C recursion and calls small helpers for everything else
 * (vm.c), protected calls with setjmp and errors with longjmp (ldo.c's
 * way). */
#ifndef LUA_H
#define LUA_H
#include <setjmp.h>
#include <stddef.h>

typedef enum { T_NIL, T_BOOL, T_NUM, T_STR, T_TABLE, T_LFUNC, T_CFUNC } vtype;

struct Table;
struct Str;
struct Proto;
struct State;
typedef int (*cfunc) (struct State *L, int base, int nargs);

typedef struct {
  vtype t;
  union {
    double n;
    int b;
    struct Str *s;
    struct Table *h;
    struct Proto *p;
    cfunc f;
  } u;
} Value;

typedef struct Str {
  struct Str *next;
  unsigned hash;
  size_t len;
  char data[];
} Str;

typedef struct {
  Value key, val;
  int used;
} Node;

typedef struct Table {
  Value *array;
  int asize;
  Node *node;
  int nsize, ncount;
} Table;

typedef enum { OP_LOADN, OP_LOADK, OP_MOVE, OP_ADD, OP_SUB, OP_MUL, OP_MOD, OP_LT, OP_EQ, OP_JMP, OP_TEST, OP_CALL,
               OP_RET, OP_NEWTABLE, OP_GETT, OP_SETT, OP_GETGLOBAL, OP_PCALL, OP_ERROR, OP_LEN } opcode;

typedef struct {
  opcode op;
  int a, b, c;
} Instr;

typedef struct Proto {
  const Instr *code;
  int nregs;
  const Value *k;
} Proto;

typedef struct {
  const Proto *p;
  int base;     /* R[0] of this call */
  int pc;
  int ret;      /* where the caller wants the result (absolute slot) */
} CallInfo;

typedef struct Jmp {
  jmp_buf b;
  struct Jmp *prev;
} Jmp;

typedef struct State {
  Value *stack;
  int stacksize;
  CallInfo *ci;
  int nci, cisize;
  Table *globals;
  Str **strt;
  int strtsize, nstr;
  Jmp *errjmp;
  Value errval;
} State;

/* table.c */
Table *luaH_new (void);
void luaH_free (Table *t);
Value luaH_get (Table *t, const Value *key);
void luaH_set (State *L, Table *t, const Value *key, const Value *val);
int luaH_getn (Table *t);
Str *luaS_new (State *L, const char *s, size_t len);
unsigned luaS_hash (const char *s, size_t len);

/* vm.c */
void luaV_execute (State *L, int entry);
void luaD_call (State *L, int func, int nargs);
int luaD_pcall (State *L, int func, int nargs);
void luaG_runerror (State *L, const char *msg) __attribute__ ((noreturn));
void luaD_checkstack (State *L, int n);
#endif
