/*
 * fiber.c: fiber.h over ucontext, with AddressSanitizer told of every
 * stack switch (without that it takes the other stack's frames for
 * overflows).  makecontext/swapcontext enter a new fiber's stack once;
 * every switch after that is _setjmp/_longjmp: swapcontext saves and
 * restores the signal mask, two rt_sigprocmask calls a switch (a third
 * of a waiting schedule's system calls), and nothing here touches the
 * mask (the world's signals are not the kernel's).  _FORTIFY_SOURCE's
 * longjmp refuses a jump to another stack, so it is off here.
 */
#undef _FORTIFY_SOURCE
#include <setjmp.h>
#include <stdlib.h>
#include <ucontext.h>

#include "common.h"
#include "fiber.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define ASAN_FIBERS 1
#else
#define ASAN_FIBERS 0
#endif

#define FIBER_STACK	(1024 * 1024)

struct fiber {
	ucontext_t	 boot;		/* the first entry (trampoline) */
	int		 started;
	jmp_buf		 ctx;		/* where it yielded */
	jmp_buf		 back;		/* the resumer's */
	void		*stack;
	void		(*fn)(void *);
	void		*arg;
	int		 done;
	void		*fake_stack;	/* ASan's, while switched away */
	const void	*back_bottom;
	size_t		 back_size;
};

static struct fiber *current;
static unsigned long resumes;

static void
switch_start(void **fake, const void *bottom, size_t size)
{
#if ASAN_FIBERS
	__sanitizer_start_switch_fiber(fake, bottom, size);
#else
	(void)fake;
	(void)bottom;
	(void)size;
#endif
}

static void
switch_finish(void *fake, const void **bottom, size_t *size)
{
#if ASAN_FIBERS
	__sanitizer_finish_switch_fiber(fake, bottom, size);
#else
	(void)fake;
	(void)bottom;
	(void)size;
#endif
}

static void
trampoline(void)
{
	struct fiber *f = current;

	switch_finish(NULL, &f->back_bottom, &f->back_size);
	f->fn(f->arg);
	f->done = 1;
	/* Back for good: this stack is not returned to (NULL fake stack). */
	switch_start(NULL, f->back_bottom, f->back_size);
	_longjmp(f->back, 1);
}

struct fiber *
fiber_new(void (*fn)(void *), void *arg)
{
	struct fiber *f = xcalloc(1, sizeof *f);

	f->stack = xmalloc(FIBER_STACK);
	f->fn = fn;
	f->arg = arg;
	getcontext(&f->boot);
	f->boot.uc_stack.ss_sp = f->stack;
	f->boot.uc_stack.ss_size = FIBER_STACK;
	f->boot.uc_link = NULL;
	makecontext(&f->boot, trampoline, 0);
	return f;
}

void
fiber_free(struct fiber *f)
{
	if (f == NULL)
		return;
	free(f->stack);
	free(f);
}

int
fiber_resume(struct fiber *f)
{
	void		*fake = NULL;
	struct fiber	*prev = current;

	if (f->done)
		return 1;
	resumes++;
	current = f;
	switch_start(&fake, f->stack, FIBER_STACK);
	if (_setjmp(f->back) == 0) {
		if (!f->started) {
			ucontext_t unused;	/* it comes back by _longjmp */

			f->started = 1;
			swapcontext(&unused, &f->boot);
		}
		_longjmp(f->ctx, 1);
	}
	switch_finish(fake, NULL, NULL);
	current = prev;
	return f->done;
}

void
fiber_yield(void)
{
	struct fiber *f = current;

	switch_start(&f->fake_stack, f->back_bottom, f->back_size);
	if (_setjmp(f->ctx) == 0)
		_longjmp(f->back, 1);
	switch_finish(f->fake_stack, &f->back_bottom, &f->back_size);
}

struct fiber *
fiber_current(void)
{
	return current;
}

unsigned long
fiber_resumes(void)
{
	return resumes;
}
