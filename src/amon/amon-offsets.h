/* amon-offsets.h — where the fields that the hooks' commonest events
 * read and write lie (amon_thread, amon_frame: amon-thread.h;
 * amon_context, amon_cached: amon-fsm.h; amon_pg_thread, amon_pg_frame:
 * amon-mcount.h), for their code in registers (amon-mcount-x86_64.S:
 * the sampling clock's call in `__fentry__` and `mcount`, the exact
 * clock's call there and its told return in `__return__`).  amon-fast.c checks
 * each against the structures when it is compiled.  Only #defines: the
 * assembler reads this file too. */
#ifndef AMON_OFFSETS_H
#define AMON_OFFSETS_H

#define AMON_OFF_T_BUSY 0
#define AMON_OFF_T_MODE 8
#define AMON_OFF_T_BLIND 12
#define AMON_OFF_T_TOP 16
#define AMON_OFF_T_LIMIT 24
#define AMON_OFF_T_START 32
#define AMON_OFF_T_OVERHEAD 40
#define AMON_OFF_T_LONGISH 48
#define AMON_OFF_T_COUNTDOWN 56
#define AMON_OFF_T_FOREIGN_SITE 64
#define AMON_OFF_T_FOREIGN_CTX 72
#define AMON_OFF_T_STACK 80
#define AMON_OFF_T_HOME 88

#define AMON_OFF_F_FN 0
#define AMON_OFF_F_SITE 8
#define AMON_OFF_F_SP 16
#define AMON_OFF_F_CTX 24
#define AMON_SIZEOF_FRAME 32

#define AMON_OFF_C_FN 0
#define AMON_OFF_C_ENTRIES 8
#define AMON_OFF_C_RECURSIVE 16
#define AMON_OFF_C_TIME 24
#define AMON_OFF_C_SITE_LO 32
#define AMON_OFF_C_SITE_SPAN 36
#define AMON_OFF_C_FAR_AT 40
#define AMON_OFF_C_TAG 44
#define AMON_OFF_C_TOLD 46
#define AMON_OFF_C_NEAR 48

#define AMON_OFF_PG_BUSY 0
#define AMON_OFF_PG_TOP 8
#define AMON_OFF_PG_LIMIT 16
#define AMON_OFF_PG_BASE 24
#define AMON_OFF_PGF_RET 0
#define AMON_OFF_PGF_SLOT 8
#define AMON_OFF_PGF_FN 16
#define AMON_OFF_PGF_RESTORED 24
#define AMON_SIZEOF_PGF 32

#define AMON_OFF_CACHED_FN 0
#define AMON_OFF_CACHED_TO 8
#define AMON_SIZEOF_CACHED 16

#endif
