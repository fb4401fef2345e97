/*
 * fiber.h: one stack per simulated qmigrate process, switched by hand
 * (ucontext).  Each side's real mig_source_run()/mig_target_run() runs on
 * its own fiber from its first instruction to its exit status; the
 * world's loop_turn() switches back to the scheduler, which resumes the
 * fiber when the world has something for it.  Nothing runs in parallel:
 * exactly one fiber (or the scheduler) runs at a time.
 */
#ifndef FIBER_H
#define FIBER_H

struct fiber;

/* A fiber that will run fn(arg) on its own stack once resumed. */
struct fiber	*fiber_new(void (*fn)(void *), void *arg);
void		 fiber_free(struct fiber *);
/* Runs f until it yields or fn returns; 1 if fn has returned. */
int		 fiber_resume(struct fiber *f);
/* From inside a fiber: back to whoever resumed it. */
void		 fiber_yield(void);
/* The fiber running now, NULL on the scheduler's stack. */
struct fiber	*fiber_current(void);
/* fiber_resume() calls so far: the same count, no fiber ran between. */
unsigned long	 fiber_resumes(void);

#endif
