/* amon-mcount-x86_64.S — the -pg mode's entry points on x86-64: `mcount`
 * (gcc -pg and clang -pg call it after the prologue), `__fentry__` (with
 * -mfentry, before it) and the trampoline that catches returns.
 *
 * The hooks and the trampoline run where the compiler's register
 * allocator sees no call, and with -fipa-ra (on at -O2) gcc lets a caller
 * keep values in call-clobbered registers across the call of a routine
 * in the same unit that it knows does not write them, not counting the
 * hooks (mujs 1.3.2's regexp parser, built with -pg -mfentry, kept six
 * across a call of `empty' and ran off its heap).  So each keeps every
 * register the C code it calls may write: the integer ones always, the
 * whole vector and x87 state around the C code that may use it
 * (amon_pg_enter, amon_pg_exit, amon_pg_leave), not around the common
 * cases' (which use no vector register).  The trampoline is "returned to" in place of the
 * real return address; it puts the address that amon_pg_exit_exact or
 * amon_pg_exit returns back into the slot and jumps there.  Each aligns
 * the stack itself, as the calls come from code that may not have.
 *
 * Facts from the x86-64 psABI and gcc's and clang's output (see
 * ../shared/research/entry-hooks.md): at `mcount` the instrumented
 * routine's return address is at 8(%rbp) (-pg keeps the frame pointer),
 * at `__fentry__` at 8(%rsp); the routine is identified by the hook's own
 * return address, an address inside it.
 */
#if defined(__x86_64__) && defined(__ELF__)

#include "amon-offsets.h"

	/* the monitor's section (amon-private.h, AMON_FN) */
	.section amon_text, "ax", @progbits

/* BLIND_OR_RDTSC — the reading in %rax: the counter's, or in a blind
 * window (amon-blind.h) the interval's start, so that nothing is charged
 * and the counter is not read; the thread in %rcx, %rdx written */
.macro BLIND_OR_RDTSC
	movq AMON_OFF_T_START(%rcx), %rax
	cmpl $0, AMON_OFF_T_BLIND(%rcx)
	jne .Lblind\@
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
.Lblind\@:
.endm

/* SAVE_INT, RESTORE_INT — the nine call-clobbered integer registers at
 * 0(%rsp) .. 71(%rsp) */
.macro SAVE_INT
	movq %rax, 0(%rsp)
	movq %rdi, 8(%rsp)
	movq %rsi, 16(%rsp)
	movq %rdx, 24(%rsp)
	movq %rcx, 32(%rsp)
	movq %r8, 40(%rsp)
	movq %r9, 48(%rsp)
	movq %r10, 56(%rsp)
	movq %r11, 64(%rsp)
.endm
.macro RESTORE_INT
	movq 0(%rsp), %rax
	movq 8(%rsp), %rdi
	movq 16(%rsp), %rsi
	movq 24(%rsp), %rdx
	movq 32(%rsp), %rcx
	movq 40(%rsp), %r8
	movq 48(%rsp), %r9
	movq 56(%rsp), %r10
	movq 64(%rsp), %r11
.endm

/* HOOK_FRAME, HOOK_UNFRAME — a hook's frame: %rbx pushed and pointing
 * at itself (so 8(%rbx) is the hook's return address), the stack aligned
 * below it and the call-clobbered integer registers kept there; and
 * back, up to the hook's own return */
.macro HOOK_FRAME
	pushq %rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbx, 0
	movq %rsp, %rbx
	.cfi_def_cfa_register %rbx
	andq $-16, %rsp
	subq $80, %rsp
	SAVE_INT
.endm
.macro HOOK_UNFRAME
	RESTORE_INT
	movq %rbx, %rsp
	.cfi_def_cfa_register %rsp
	popq %rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbx
.endm

/* SAVE_STATE, RESTORE_STATE — the whole vector and x87 state, around
 * the C code that may use it (the monitor's rare paths, which call the C
 * library, whose memory and string functions use the AVX and AVX-512
 * registers, %ymm16-31 among them, and clear the upper halves of the
 * others with vzeroupper).  XSAVEC (else XSAVE) of the components the processor and
 * the kernel enable among x87, SSE, AVX and AVX-512 (opmask, the upper
 * halves of %zmm0-15, %zmm16-31), as the dynamic linker's lazy binder
 * keeps them; FXSAVE (x87 and SSE) where XSAVE is not enabled.  The area
 * is below the stack pointer, 64-aligned, the old stack pointer kept in
 * its first word; amon_xstate_size and amon_xstate_mask (0: FXSAVE) are
 * found at the first use (amon_xstate_probe).  Writes %rax, %rcx and
 * %rdx (and at the first use %rsi, %rdi, %r8 and %r9), which the hooks
 * have kept already and set after it; leaves the stack aligned for a
 * call. */
.macro SAVE_STATE
	movl amon_xstate_size(%rip), %eax
	testl %eax, %eax
	jnz .Lsized\@
	call amon_xstate_probe
	movl amon_xstate_size(%rip), %eax
.Lsized\@:
	movq %rsp, %rcx
	subq %rax, %rsp
	subq $64, %rsp
	andq $-64, %rsp
	movq %rcx, 0(%rsp)
	movl amon_xstate_mask(%rip), %eax
	testl %eax, %eax
	jz .Lfx\@
	/* XRSTOR wants the header's reserved bytes zero; XSAVE writes
	 * only its first word, XSAVEC its first two */
	xorl %edx, %edx
	.irp off, 576, 584, 592, 600, 608, 616, 624, 632
	movq %rdx, \off(%rsp)
	.endr
	cmpb $0, amon_xstate_compact(%rip)
	je .Lstd\@
	xsavec64 64(%rsp)
	jmp .Lsaved\@
.Lstd\@:
	xsave64 64(%rsp)
	jmp .Lsaved\@
.Lfx\@:
	fxsave64 64(%rsp)
.Lsaved\@:
.endm
.macro RESTORE_STATE
	movl amon_xstate_mask(%rip), %eax
	testl %eax, %eax
	jz .Lfx\@
	xorl %edx, %edx
	xrstor64 64(%rsp)
	jmp .Lrestored\@
.Lfx\@:
	fxrstor64 64(%rsp)
.Lrestored\@:
	movq 0(%rsp), %rsp
.endm

/* amon_xstate_probe — sets amon_xstate_mask (the XSAVE components to
 * keep, 0 when XSAVE is not enabled: CPUID.1:ECX.OSXSAVE) and then
 * amon_xstate_size (the area's size in bytes, the end of the furthest
 * component kept, from CPUID leaf 0xD; 512 for FXSAVE).  Writes %rax,
 * %rcx, %rdx, %rsi, %rdi, %r8 and %r9 only. */
	.type amon_xstate_probe, @function
	.p2align 4
amon_xstate_probe:
	.cfi_startproc
	movq %rbx, %r8
	.cfi_register %rbx, %r8
	movl $1, %eax
	cpuid
	xorl %esi, %esi
	movl $512, %edi
	btl $27, %ecx
	jnc 3f
	xorl %ecx, %ecx
	xgetbv
	/* x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM: not MPX's bounds
	 * (gone), PKRU (the program's own) or AMX's tiles (kilobytes, kept
	 * by nothing here that could write them) */
	andl $0xe7, %eax
	movl %eax, %esi
	movl $576, %edi
	movl $2, %r9d
1:
	btl %r9d, %esi
	jnc 2f
	movl $0xd, %eax
	movl %r9d, %ecx
	cpuid
	addl %ebx, %eax
	cmpl %eax, %edi
	cmovbl %eax, %edi
2:
	incl %r9d
	cmpl $8, %r9d
	jb 1b
	/* XSAVEC (CPUID.(0xD,1):EAX[1]) skips the components in their
	 * initial state, as AVX's upper halves are after vzeroupper: most
	 * of the area, most of the time.  Its compacted area is never
	 * larger than the standard one sized above, and XRSTOR reads
	 * either. */
	movl $0xd, %eax
	movl $1, %ecx
	cpuid
	shrl $1, %eax
	andl $1, %eax
	movb %al, amon_xstate_compact(%rip)
3:
	movq %r8, %rbx
	.cfi_restore %rbx
	movl %esi, amon_xstate_mask(%rip)
	movl %edi, amon_xstate_size(%rip)
	ret
	.cfi_endproc
	.size amon_xstate_probe, . - amon_xstate_probe

	.section .bss
	.p2align 2
	.type amon_xstate_mask, @object
	.hidden amon_xstate_mask
amon_xstate_mask:
	.zero 4
	.size amon_xstate_mask, 4
	.type amon_xstate_size, @object
	.hidden amon_xstate_size
amon_xstate_size:
	.zero 4
	.size amon_xstate_size, 4
	.type amon_xstate_compact, @object
	.hidden amon_xstate_compact
amon_xstate_compact:
	.zero 1
	.size amon_xstate_compact, 1
	.section amon_text, "ax", @progbits

/* HOOK SLOT — saves the integer argument registers, calls
 * amon_pg_enter_fast (sampling clock) or amon_pg_enter_exact (the others)
 * with the address of the return address and the hook's return address;
 * when that did not count the call, saves the vector and x87 state too
 * and calls amon_pg_enter; restores.
 * On entry %rbx is pushed and %rbx points at it, so 8(%rbx) is the hook's
 * return address. */
.macro HOOK slot
	HOOK_FRAME
	/* the common case, in C that uses no vector register (amon-fast.c
	 * for the sampling clock, amon-exact.c for the others) */
	leaq \slot, %rdi
	movq 8(%rbx), %rsi
	cmpl $0, amon_pg_lazy(%rip)
	je 2f
	call amon_pg_enter_fast
	jmp 3f
2:
	call amon_pg_enter_exact
3:
	testl %eax, %eax
	jnz 1f
	/* every other: the vector and x87 state kept too */
	SAVE_STATE
	leaq \slot, %rdi
	movq 8(%rbx), %rsi
	call amon_pg_enter
	RESTORE_STATE
	call amon_pg_restart
1:
	HOOK_UNFRAME
	ret
.endm

/* SAMPLED SLOT — the sampling clock's common call in eight registers,
 * with no frame and no call (the hook's frame, the nine registers it
 * keeps and the call of amon_pg_enter_fast were most of the cost of a
 * call on a loop of small calls: 7.1 of 9.9 ns): amon-fast.c's enter
 * for the cases that are most of the calls: the frames gone popped
 * (amon_lazy_live_top), the call site known from the top frame's routine
 * (amon_lazy_site_known), the top frame live on this stack, a new depth
 * not needed, a direct recursion or a transition in the caller's near
 * slots or far cache (amon_cache_find); then the frame pushed, as
 * amon_thread_push_fast does.  Anything else (a busy thread, a call site
 * not seen, a frame on another stack, the stack's limit, a miss) goes on
 * to HOOK with nothing changed, where amon_pg_enter_fast does it all
 * again; once profiling stopped it returns at once.  The thread is
 * marked busy while it looks and writes, as there, so that a signal
 * handler's calls leave its frames alone.  SLOT is the routine's return
 * address's slot once the eight are pushed (the hook's own return
 * address at 64(%rsp)); goes to label 9 forward for the rest, with the
 * registers and the stack as on entry.  The fields' offsets:
 * amon-offsets.h.  tests/cli/amon-sample-calls.sh compares the contexts
 * it enters with the program's own counts.
 * Registers: %rax the thread, %rcx the frame, %rdx its context, %rsi the
 * call site, %rdi the slot, %r9 the routine, %r8 and %r10 scratch. */
.macro POP_SAMPLED
	.irp r, r10, r9, r8, rdi, rsi, rdx, rcx, rax
	popq %\r
	.cfi_adjust_cfa_offset -8
	.endr
.endm
.macro SAMPLED slot
	cmpl $0, amon_pg_lazy(%rip)
	je 9f
	/* once profiling stopped, nothing to do (as amon-fast.c's enter) */
	cmpl $0, amon_halt(%rip)
	je 15f
	ret
15:
	.irp r, rax, rcx, rdx, rsi, rdi, r8, r9, r10
	pushq %\r
	.cfi_adjust_cfa_offset 8
	.endr
	leaq \slot, %rdi
	movq amon_self@gottpoff(%rip), %rax
	movq %fs:(%rax), %rax
	cmpq $0, AMON_OFF_T_BUSY(%rax)
	jne 8f
	movq %rdi, AMON_OFF_T_BUSY(%rax)
	movq AMON_OFF_T_TOP(%rax), %rcx
	movq (%rdi), %rsi
	movq 64(%rsp), %r9
	/* the frames at or below the slot are gone (the sentinel's is the
	 * highest address) */
1:
	movq %rdi, %r8
	subq AMON_OFF_F_SP(%rcx), %r8
	cmpq $0x40000000, %r8		/* AMON_STACK_WINDOW */
	jae 2f
	cmpq AMON_OFF_T_STACK(%rax), %rcx
	je 2f
	subq $AMON_SIZEOF_FRAME, %rcx
	jmp 1b
2:
	/* and so are those above whose slot no longer holds their return
	 * address, where the slot may be read (amon_slot_readable) */
	movq AMON_OFF_T_HOME(%rax), %r10
	subq %rdi, %r10
	cmpq $0x40000, %r10		/* AMON_READ_SPAN */
	jae 4f
3:
	movq AMON_OFF_F_SP(%rcx), %r8
	subq %rdi, %r8
	cmpq %r10, %r8
	ja 4f
	movq AMON_OFF_F_SP(%rcx), %r8
	movq (%r8), %r8
	cmpq AMON_OFF_F_SITE(%rcx), %r8
	je 4f
	subq $AMON_SIZEOF_FRAME, %rcx
	jmp 3b
4:
	/* the site seen from the frame's routine, or the root's, or the
	 * library's site last found calling back under this context */
	movq AMON_OFF_F_CTX(%rcx), %rdx
	movq %rsi, %r8
	subq AMON_OFF_C_FN(%rdx), %r8
	movslq AMON_OFF_C_SITE_LO(%rdx), %r10
	subq %r10, %r8
	movl AMON_OFF_C_SITE_SPAN(%rdx), %r10d
	cmpq %r10, %r8
	jbe 5f
	cmpq $0, AMON_OFF_C_FN(%rdx)
	je 5f
	cmpq AMON_OFF_T_FOREIGN_SITE(%rax), %rsi
	jne 7f
	cmpq AMON_OFF_T_FOREIGN_CTX(%rax), %rdx
	jne 7f
5:
	/* the frame within the window above the slot (not the sentinel nor
	 * on another stack), and room above it */
	movq AMON_OFF_F_SP(%rcx), %r8
	subq %rdi, %r8
	subq $1, %r8
	cmpq $0x3fffffff, %r8		/* AMON_STACK_WINDOW - 1 */
	jae 7f
	leaq AMON_SIZEOF_FRAME(%rcx), %r8
	cmpq AMON_OFF_T_LIMIT(%rax), %r8
	je 7f
	/* step A1, else the near slots (tag, then the context's routine),
	 * else the far cache's set */
	cmpq AMON_OFF_C_FN(%rdx), %r9
	je 6f
	movq %r9, %r10
	shrq $4, %r10
	movq %r9, %r8
	shrq $12, %r8
	xorl %r8d, %r10d
	orl $0x80, %r10d
	cmpb AMON_OFF_C_TAG(%rdx), %r10b
	jne 10f
	movq AMON_OFF_C_NEAR(%rdx), %r8
	cmpq AMON_OFF_C_FN(%r8), %r9
	je 12f
10:
	cmpb AMON_OFF_C_TAG+1(%rdx), %r10b
	jne 11f
	movq AMON_OFF_C_NEAR+8(%rdx), %r8
	cmpq AMON_OFF_C_FN(%r8), %r9
	je 12f
11:
	/* the set's first way, ((fn >> 4 ^ fn >> 7 ^ fn >> 10) & 7) << 1
	 * (AMON_CACHE_HOME), in bytes; the far cache at far_at lines from
	 * the context (amon_far) */
	movq %r9, %r10
	shrq $4, %r10
	movq %r10, %r8
	shrq $3, %r8
	xorq %r8, %r10
	shrq $3, %r8
	xorq %r8, %r10
	andl $7, %r10d
	shll $5, %r10d
	movslq AMON_OFF_C_FAR_AT(%rdx), %r8
	testq %r8, %r8
	jz 7f
	shlq $6, %r8
	addq %rdx, %r8
	addq %r10, %r8
	cmpq AMON_OFF_CACHED_FN(%r8), %r9
	je 13f
	addq $AMON_SIZEOF_CACHED, %r8
	cmpq AMON_OFF_CACHED_FN(%r8), %r9
	jne 7f
13:
	movq AMON_OFF_CACHED_TO(%r8), %r8
12:
	addq $1, AMON_OFF_C_ENTRIES(%r8)
	jmp 14f
6:
	addq $1, AMON_OFF_C_RECURSIVE(%rdx)
	movq %rdx, %r8
14:
	/* the frame, then the pointer to it, then not busy */
	movq %r9, AMON_SIZEOF_FRAME+AMON_OFF_F_FN(%rcx)
	movq %rsi, AMON_SIZEOF_FRAME+AMON_OFF_F_SITE(%rcx)
	movq %rdi, AMON_SIZEOF_FRAME+AMON_OFF_F_SP(%rcx)
	movq %r8, AMON_SIZEOF_FRAME+AMON_OFF_F_CTX(%rcx)
	addq $AMON_SIZEOF_FRAME, %rcx
	movq %rcx, AMON_OFF_T_TOP(%rax)
	movq $0, AMON_OFF_T_BUSY(%rax)
	.cfi_remember_state
	POP_SAMPLED
	ret
	.cfi_restore_state
7:
	movq $0, AMON_OFF_T_BUSY(%rax)
8:
	POP_SAMPLED
9:
.endm

/* EXACT SLOT — the exact clock's commonest call in eleven pushed
 * registers, with no frame and no call of the monitor's C code, as
 * SAMPLED makes the sampling clock's and TOLD the told return:
 * amon-exact.c's enter, first try, when neither layer is busy, the monitor runs on the
 * counter, the entry on top of the stack of swapped addresses (if any)
 * is an ancestor's, the call is no tail call, the top frame lies within
 * the window above the slot with room above it and its return address
 * in place, the interval is short (not past t->longish, not the
 * correction window's last event), and the call is a direct recursion
 * or a transition in the caller's near slots or far cache, and, unless
 * the callee tells its returns (its context's told), the stack of
 * swapped addresses has room.  Then the return address is swapped (not
 * the told one's), the interval charged to the caller's context, the
 * next one started and the frame pushed, marked busy while it writes.  Anything else goes on
 * to label 9 forward with nothing changed and the registers and the
 * stack as on entry (HOOK, where amon_pg_enter_exact does it all again);
 * once profiling stopped it returns at once; a long interval and a
 * transition not in the caches go on to C from here (label 19).  The
 * counter is read as soon as the thread is known (BLIND_OR_RDTSC).  SLOT is the routine's return
 * address's slot once the eleven are pushed (the hook's own return address at 88(%rsp)).
 * Registers: %rax the reading, %rdx the interval, %rcx the thread, %rdi
 * the slot, %r8 the top frame, %r9 the routine, %r11 the call site,
 * %rbx the caller's context, %rsi the callee's, %r12 the stack of
 * swapped addresses (read once, where it was read twice), %r10 scratch,
 * then the new entry.  The interval is clamped at 0 by a conditional
 * move, as in TOLD.  This call and TOLD's return run where the counter
 * read is not what costs most: duktape 2.7.0's hooks cost 4.1 s of the
 * 5.2 s they add to its bare run with the counter not read at all, and
 * a loop of tiny calls ran 3% slower with two more registers pushed in
 * each, so every instruction here counts. */
.macro POP_EXACT
	.irp r, r12, rbx, r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax
	popq %\r
	.cfi_adjust_cfa_offset -8
	.endr
.endm
.macro EXACT slot
	cmpl $0, amon_pg_lazy(%rip)
	jne 9f
	cmpl $0, amon_halt(%rip)
	je 15f
	ret
15:
	.irp r, rax, rcx, rdx, rsi, rdi, r8, r9, r10, r11, rbx, r12
	pushq %\r
	.cfi_adjust_cfa_offset 8
	.endr
	movq amon_self@gottpoff(%rip), %rcx
	movq %fs:(%rcx), %rcx
	BLIND_OR_RDTSC
	leaq \slot, %rdi
	movq amon_pg_self@gottpoff(%rip), %r12
	movq %fs:(%r12), %r12
	/* neither layer busy, the monitor on the counter, the swapped
	 * address on top (if any) an ancestor's, above */
	cmpq $0, AMON_OFF_PG_BUSY(%r12)
	jne 8f
	cmpq $0, AMON_OFF_T_BUSY(%rcx)
	jne 8f
	cmpl $0, AMON_OFF_T_MODE(%rcx)	/* AMON_MODE_COUNTER */
	jne 8f
	movq AMON_OFF_PG_TOP(%r12), %r8
	cmpq AMON_OFF_PG_BASE(%r12), %r8
	je 1f
	movq AMON_OFF_PGF_SLOT(%r8), %r10
	subq %rdi, %r10
	subq $1, %r10
	cmpq $0x3fffffff, %r10		/* AMON_STACK_WINDOW - 1 */
	jae 8f
1:
	/* no tail call (the slot holds no trampoline's address) */
	movq (%rdi), %r11
	leaq amon_pg_return(%rip), %r10
	cmpq %r10, %r11
	je 8f
	/* the top frame within the window above the slot, room above it */
	movq AMON_OFF_T_TOP(%rcx), %r8
	movq AMON_OFF_F_SP(%r8), %r10
	subq %rdi, %r10
	subq $1, %r10
	cmpq $0x3fffffff, %r10		/* AMON_STACK_WINDOW - 1 */
	jae 8f
	leaq AMON_SIZEOF_FRAME(%r8), %r10
	cmpq AMON_OFF_T_LIMIT(%rcx), %r10
	je 8f
	/* the interval less the calibrated cost, clamped at 0
	 * (exact_length), a short one, not the window's last event
	 * (exact_kind) */
	xorl %r10d, %r10d
	movq %rax, %rdx
	subq AMON_OFF_T_START(%rcx), %rdx
	subq AMON_OFF_T_OVERHEAD(%rcx), %rdx
	cmovsq %r10, %rdx
	cmpq AMON_OFF_T_LONGISH(%rcx), %rdx
	ja 19f
	cmpl $1, AMON_OFF_T_COUNTDOWN(%rcx)
	je 19f
	/* the top frame's return address in place, or swapped */
	movq AMON_OFF_F_SP(%r8), %r10
	movq (%r10), %r10
	cmpq AMON_OFF_F_SITE(%r8), %r10
	je 2f
	leaq amon_pg_return(%rip), %r9
	cmpq %r9, %r10
	jne 8f
2:
	movq 88(%rsp), %r9
	movq AMON_OFF_F_CTX(%r8), %rbx
	/* step A1, else the near slots (tag, then the context's routine),
	 * else the far cache's set (as SAMPLED); the tag is
	 * (fn >> 4 ^ fn >> 12) | 0x80, that is (fn ^ fn >> 8) >> 4 */
	cmpq AMON_OFF_C_FN(%rbx), %r9
	je 6f
	movq %r9, %r10
	shrq $8, %r10
	xorq %r9, %r10
	shrq $4, %r10
	orl $0x80, %r10d
	cmpb AMON_OFF_C_TAG(%rbx), %r10b
	jne 10f
	movq AMON_OFF_C_NEAR(%rbx), %rsi
	cmpq AMON_OFF_C_FN(%rsi), %r9
	je 12f
10:
	cmpb AMON_OFF_C_TAG+1(%rbx), %r10b
	jne 11f
	movq AMON_OFF_C_NEAR+8(%rbx), %rsi
	cmpq AMON_OFF_C_FN(%rsi), %r9
	je 12f
11:
	movq %r9, %r10
	shrq $4, %r10
	movq %r10, %rsi
	shrq $3, %rsi
	xorq %rsi, %r10
	shrq $3, %rsi
	xorq %rsi, %r10
	andl $7, %r10d
	shll $5, %r10d
	movslq AMON_OFF_C_FAR_AT(%rbx), %rsi
	testq %rsi, %rsi
	jz 19f
	shlq $6, %rsi
	addq %rbx, %rsi
	addq %r10, %rsi
	cmpq AMON_OFF_CACHED_FN(%rsi), %r9
	je 13f
	addq $AMON_SIZEOF_CACHED, %rsi
	cmpq AMON_OFF_CACHED_FN(%rsi), %r9
	jne 19f
13:
	movq AMON_OFF_CACHED_TO(%rsi), %rsi
	jmp 12f
6:
	movq %rbx, %rsi
12:
	/* a callee that tells its returns keeps its return address; any
	 * other's is swapped for the trampoline's, kept in a new entry,
	 * where there is room (pg_swap) */
	movq AMON_OFF_PG_TOP(%r12), %r10
	addq $AMON_SIZEOF_PGF, %r10
	cmpb $0, AMON_OFF_C_TOLD(%rsi)
	jne 17f
	cmpq AMON_OFF_PG_LIMIT(%r12), %r10
	je 8f
17:
	/* busy, the entry (then the pointer to it, then the slot),
	 * counted, charged (exact_charge), pushed, not busy */
	movq %rdi, AMON_OFF_PG_BUSY(%r12)
	movq %rdi, AMON_OFF_T_BUSY(%rcx)
	cmpb $0, AMON_OFF_C_TOLD(%rsi)
	jne 18f
	movq %r11, AMON_OFF_PGF_RET(%r10)
	movq %rdi, AMON_OFF_PGF_SLOT(%r10)
	movq %r9, AMON_OFF_PGF_FN(%r10)
	movq $0, AMON_OFF_PGF_RESTORED(%r10)
	movq %r10, AMON_OFF_PG_TOP(%r12)
	leaq amon_pg_return(%rip), %r10
	movq %r10, (%rdi)
18:
	cmpq %rsi, %rbx
	je 16f
	addq $1, AMON_OFF_C_ENTRIES(%rsi)
	jmp 14f
16:
	addq $1, AMON_OFF_C_RECURSIVE(%rbx)
14:
	subl $1, AMON_OFF_T_COUNTDOWN(%rcx)
	movq %rax, AMON_OFF_T_START(%rcx)
	addq %rdx, AMON_OFF_C_TIME(%rbx)
	movq %r9, AMON_SIZEOF_FRAME+AMON_OFF_F_FN(%r8)
	movq %r11, AMON_SIZEOF_FRAME+AMON_OFF_F_SITE(%r8)
	movq %rdi, AMON_SIZEOF_FRAME+AMON_OFF_F_SP(%r8)
	movq %rsi, AMON_SIZEOF_FRAME+AMON_OFF_F_CTX(%r8)
	addq $AMON_SIZEOF_FRAME, %r8
	movq %r8, AMON_OFF_T_TOP(%rcx)
	movq $0, AMON_OFF_T_BUSY(%rcx)
	movq $0, AMON_OFF_PG_BUSY(%r12)
	.cfi_remember_state
	POP_EXACT
	ret
	.cfi_restore_state
19:
	/* a long interval, the window's last event or a transition not in
	 * the caches: C's second try (amon_pg_enter_exact_at) with this
	 * reading, from this frame, where it would read the counter again
	 * (twice a call of duktape 2.7's bytecode loop that misses, 5.7% of
	 * its calls); failing that, the slow way, the vector and x87 state
	 * kept (amon_pg_enter).  %rbx keeps the frame, %r12 the slot. */
	.cfi_remember_state
	movq 88(%rsp), %rsi
	movq %rdi, %r12
	movq %rax, %rdx
	movq %rsp, %rbx
	.cfi_def_cfa_register %rbx
	andq $-16, %rsp
	call amon_pg_enter_exact_at
	testl %eax, %eax
	jnz 20f
	SAVE_STATE
	movq %r12, %rdi
	movq 88(%rbx), %rsi
	call amon_pg_enter
	RESTORE_STATE
	call amon_pg_restart
20:
	movq %rbx, %rsp
	.cfi_def_cfa_register %rsp
	POP_EXACT
	ret
	.cfi_restore_state
8:
	POP_EXACT
9:
.endm

/* gcc -pg: after `push %rbp; mov %rsp, %rbp`, so the routine's return
 * address is at 8(%rbp).  Both hooks start on a 64-byte line: where a
 * change elsewhere left `__fentry__` 32 bytes into one, yaml-cpp's
 * parser ran 2% slower under the sampling clock (1.39 s against 1.35 s,
 * best of 7), its fetches of the common call's code split differently */
	.globl mcount
	.type mcount, @function
	.globl _mcount
	.type _mcount, @function
	.p2align 6
mcount:
_mcount:
	.cfi_startproc
	.byte 0xf3, 0x0f, 0x1e, 0xfa	/* endbr64 */
	EXACT 8(%rbp)
	SAMPLED 8(%rbp)
	HOOK 8(%rbp)
	.cfi_endproc
	.size mcount, . - mcount
	.size _mcount, . - _mcount

/* -mfentry: first in the routine, so its return address is just above
 * this hook's: 96(%rsp) once the eleven are pushed, 72(%rsp) once the
 * eight are, 16(%rbx) once %rbx is */
	.globl __fentry__
	.type __fentry__, @function
	.p2align 6
__fentry__:
	.cfi_startproc
	.byte 0xf3, 0x0f, 0x1e, 0xfa	/* endbr64 */
	EXACT 96(%rsp)
	SAMPLED 72(%rsp)
	HOOK 16(%rbx)
	.cfi_endproc
	.size __fentry__, . - __fentry__

/* The trampoline.  A routine "returns" here: %rsp is one word above where
 * its return address was.
 *
 * Its unwind entry lets an unwinder walk a frame whose return address is
 * the trampoline's, with no wrapper around the unwinder (libamon.a, where
 * amon-unwind.c's wrappers cannot be: a statically linked libgcc, or a
 * libgcc that glibc opened itself).  An unwinder that reaches the
 * trampoline's address (the nop before it, as it looks up the byte
 * before a return address) finds: the frame's CFA is %rsp (the slot's
 * address + 8); its personality routine, amon_pg_personality, which every
 * unwinder that runs personalities (exceptions, forced unwinding) calls
 * before it leaves the frame, and which puts the real return address back
 * into the slot; and the return address, read from the slot (DWARF
 * expression below), or 0 (the outermost frame: the walk ends) when the
 * slot still holds the trampoline's address, as for an unwinder that runs
 * no personality (backtraces).  The trampoline is known by its first
 * instruction, whose immediate is "amon": the expression cannot name an
 * address without a relocation in .eh_frame.  Once the trampoline has
 * moved the stack pointer below the slot, an unwinder finds no return
 * address. */
	.globl amon_pg_return
	.hidden amon_pg_return
	.type amon_pg_return, @function
	.p2align 4
	.cfi_startproc
	.cfi_personality 0x1b, amon_pg_personality	/* pcrel, sdata4 */
	.cfi_def_cfa_offset 0
	/* DW_CFA_val_expression %rip (16), 19 bytes: from the CFA,
	 * lit8 minus deref (the slot's word v); dup plus_uconst 2
	 * deref_size 4 const4u "amon" ne (v's code is not the trampoline's)
	 * bra +2 (keep v); drop lit0 (else 0) */
	.cfi_escape 0x16, 0x10, 19, 0x38, 0x1c, 0x06, 0x12, 0x23, 0x02, 0x94, 0x04, \
		0x0c, 0x61, 0x6d, 0x6f, 0x6e, 0x2e, 0x28, 0x02, 0x00, 0x13, 0x30
	/* a nop before, so that an unwinder that looks up the address
	 * before a return address does not land in the previous routine */
	nop
amon_pg_return:
	cmpl $0x6e6f6d61, %ecx	/* "amon": the mark the expression reads */
	/* the slot, which still holds the trampoline's address (no return
	 * address for an unwinder, as below), gets the real one at the end */
	subq $8, %rsp
	.cfi_undefined %rip
	pushq %rax
	pushq %rdx
	pushq %rcx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	movq %rsp, %rbx
	andq $-16, %rsp
	/* the common case in C that uses no vector register (amon-exact.c) */
	leaq 88(%rbx), %rdi
	call amon_pg_exit_exact
	testq %rax, %rax
	jnz 1f
	/* every other: the vector and x87 state kept too */
	SAVE_STATE
	leaq 88(%rbx), %rdi
	call amon_pg_exit
	movq %rax, 80(%rbx)
	RESTORE_STATE
	call amon_pg_restart
	jmp 2f
1:
	movq %rax, 80(%rbx)
2:
	movq %rbx, %rsp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rcx
	popq %rdx
	popq %rax
	/* a jump, as before the registers were all kept, not `ret': the
	 * routine's own `ret' took its entry of the processor's return stack
	 * already, and another would take its caller's, so that the returns
	 * of its callers that tell theirs (no trampoline) would mispredict;
	 * the slot lies in the red zone then, which signal handlers leave
	 * alone */
	leaq 8(%rsp), %rsp
	jmp *-8(%rsp)
	.cfi_endproc
	.size amon_pg_return, . - amon_pg_return

/* TOLD — the exact clock's commonest told return in seven registers,
 * with no frame and no call, as SAMPLED makes the sampling clock's call:
 * amon-exact.c's leave, first try, when it charges a short interval
 * (not longer than t->longish, not the last event of the correction
 * window) and pops the routine's frame.  Anything else goes on to label
 * 9 forward with nothing changed and the registers and the stack as on
 * entry, where amon_pg_leave_exact does it all again; once profiling
 * stopped it returns at once.  The counter is read as soon as the
 * thread is known (BLIND_OR_RDTSC).
 * Registers: %rax the reading, %rcx the thread, %rsi its stack of
 * swapped addresses, %rdi the routine's return address's slot (64(%rsp)
 * once the seven are pushed), %r8 the frame, %rdx (free once the counter
 * is read) and %r9 scratch. */
.macro POP_TOLD
	.irp r, r9, r8, rdi, rsi, rdx, rcx, rax
	popq %\r
	.cfi_adjust_cfa_offset -8
	.endr
.endm
.macro TOLD
	cmpl $0, amon_halt(%rip)
	je 15f
	ret
15:
	.irp r, rax, rcx, rdx, rsi, rdi, r8, r9
	pushq %\r
	.cfi_adjust_cfa_offset 8
	.endr
	movq amon_self@gottpoff(%rip), %rcx
	movq %fs:(%rcx), %rcx
	BLIND_OR_RDTSC
	leaq 64(%rsp), %rdi
	movq amon_pg_self@gottpoff(%rip), %rsi
	movq %fs:(%rsi), %rsi
	/* neither layer busy, the monitor on the counter, the swapped
	 * address on top (if any) an ancestor's, above */
	cmpq $0, AMON_OFF_PG_BUSY(%rsi)
	jne 8f
	cmpq $0, AMON_OFF_T_BUSY(%rcx)
	jne 8f
	cmpl $0, AMON_OFF_T_MODE(%rcx)	/* AMON_MODE_COUNTER */
	jne 8f
	movq AMON_OFF_PG_TOP(%rsi), %r8
	cmpq AMON_OFF_PG_BASE(%rsi), %r8
	je 1f
	movq AMON_OFF_PGF_SLOT(%r8), %r9
	subq %rdi, %r9
	subq $1, %r9
	cmpq $0x3fffffff, %r9		/* AMON_STACK_WINDOW - 1 */
	jae 8f
1:
	/* the frame on top is the routine's call, its address in place */
	movq AMON_OFF_T_TOP(%rcx), %r8
	cmpq AMON_OFF_F_SP(%r8), %rdi
	jne 8f
	movq (%rdi), %r9
	cmpq AMON_OFF_F_SITE(%r8), %r9
	jne 8f
	/* the interval less the calibrated cost, clamped at 0 (exact_length) */
	xorl %edx, %edx
	movq %rax, %r9
	subq AMON_OFF_T_START(%rcx), %r9
	subq AMON_OFF_T_OVERHEAD(%rcx), %r9
	cmovsq %rdx, %r9
	/* a short one, not the window's last event (exact_kind) */
	cmpq AMON_OFF_T_LONGISH(%rcx), %r9
	ja 8f
	cmpl $1, AMON_OFF_T_COUNTDOWN(%rcx)
	je 8f
	/* busy, charged (exact_charge), popped, not busy */
	movq %rdi, AMON_OFF_PG_BUSY(%rsi)
	movq %rdi, AMON_OFF_T_BUSY(%rcx)
	subl $1, AMON_OFF_T_COUNTDOWN(%rcx)
	movq %rax, AMON_OFF_T_START(%rcx)
	movq AMON_OFF_F_CTX(%r8), %rdx
	addq %r9, AMON_OFF_C_TIME(%rdx)
	subq $AMON_SIZEOF_FRAME, %r8
	movq %r8, AMON_OFF_T_TOP(%rcx)
	movq $0, AMON_OFF_T_BUSY(%rcx)
	movq $0, AMON_OFF_PG_BUSY(%rsi)
	.cfi_remember_state
	POP_TOLD
	ret
	.cfi_restore_state
8:
	POP_TOLD
9:
.endm

/* `__return__`: gcc -pg -mfentry -minstrument-return=call calls it just
 * before every return of a routine and before the jump of a tail call,
 * after the epilogue, so its own return address is at (%rsp) and the
 * routine's at 8(%rsp).  A routine that tells its returns so needs no
 * trampoline: its return is not mispredicted, and nothing is swapped
 * once the monitor has seen it tell one (amon-mcount.c).  Before a tail
 * call's jump the argument registers are live, so it keeps what the entry
 * hooks keep, the vector state only around the C code that may use it.
 * With the sampling clock returns are not needed: it returns at once. */
	.globl __return__
	.type __return__, @function
	.p2align 4
__return__:
	.cfi_startproc
	.byte 0xf3, 0x0f, 0x1e, 0xfa	/* endbr64 */
	cmpl $0, amon_pg_lazy(%rip)
	jne 2f
	TOLD
	HOOK_FRAME
	/* the routine's return address slot: above the pushed %rbx and this
	 * hook's return address */
	leaq 16(%rbx), %rdi
	call amon_pg_leave_exact
	testl %eax, %eax
	jnz 1f
	SAVE_STATE
	leaq 16(%rbx), %rdi
	call amon_pg_leave
	RESTORE_STATE
	call amon_pg_restart
1:
	HOOK_UNFRAME
2:
	ret
	.cfi_endproc
	.size __return__, . - __return__

/* A routine as gcc -pg -mfentry -minstrument-return=call makes one, that
 * does nothing (calibration). */
	.globl amon_pg_probe_told
	.hidden amon_pg_probe_told
	.type amon_pg_probe_told, @function
	.p2align 4
amon_pg_probe_told:
	.cfi_startproc
	call __fentry__
	call __return__
	ret
	.cfi_endproc
	.size amon_pg_probe_told, . - amon_pg_probe_told

/* A routine as gcc -pg makes one, that does nothing (calibration). */
	.globl amon_pg_probe
	.hidden amon_pg_probe
	.type amon_pg_probe, @function
	.p2align 4
amon_pg_probe:
	.cfi_startproc
	pushq %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq %rsp, %rbp
	.cfi_def_cfa_register %rbp
	call mcount
	popq %rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size amon_pg_probe, . - amon_pg_probe

#endif

#if defined(__ELF__)
	.section .note.GNU-stack, "", @progbits
#endif
