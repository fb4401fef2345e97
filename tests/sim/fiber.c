/*
 * fiber.c: fiber.h over ucontext, with AddressSanitizer told of every
 * stack switch (without that it takes the other stack's frames for
 * overflows).
 */
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
	ucontext_t	 ctx;
	ucontext_t	 back;		/* the resumer's */
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
	swapcontext(&f->ctx, &f->back);
}

struct fiber *
fiber_new(void (*fn)(void *), void *arg)
{
	struct fiber *f = xcalloc(1, sizeof *f);

	f->stack = xmalloc(FIBER_STACK);
	f->fn = fn;
	f->arg = arg;
	getcontext(&f->ctx);
	f->ctx.uc_stack.ss_sp = f->stack;
	f->ctx.uc_stack.ss_size = FIBER_STACK;
	f->ctx.uc_link = NULL;
	makecontext(&f->ctx, trampoline, 0);
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
	swapcontext(&f->back, &f->ctx);
	switch_finish(fake, NULL, NULL);
	current = prev;
	return f->done;
}

void
fiber_yield(void)
{
	struct fiber *f = current;

	switch_start(&f->fake_stack, f->back_bottom, f->back_size);
	swapcontext(&f->ctx, &f->back);
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
