/*
 * signals.h: every default-fatal signal a user or a terminal can send,
 * from main()'s first instruction to a command's last document
 * (signals.c says what each one means).
 */
#ifndef SIGNALS_H
#define SIGNALS_H

#include <signal.h>

#include <ev.h>

#define SIGNALS_COUNT	6

/* main(), first: record the signals until a real handler is there. */
void	signals_early(void);
/* The caller's handler is installed: a recorded signal reaches it now. */
void	signals_armed(void);
/* A command that takes no signal: the default actions back. */
void	signals_default(void);
/* Blocks every signal taken; old gets the mask before. */
void	signals_block(sigset_t *old);
/* "SIGTERM", "SIGHUP", ... ("a signal" for another). */
const char *signals_name(int signum);

/* A long-running command's signals on its loop (signals_watch_start()). */
struct signals_watch {
	struct ev_loop	*loop;
	ev_signal	 sig[SIGNALS_COUNT];
	const char	*what;		/* "the migration" */
	void		(*stop)(int signum, void *arg);
	void		(*info)(void *arg);
	void		(*request)(void *arg);	/* SIGUSR2; NULL: logged */
	void		*arg;
	int		 armed;
};

void	signals_watch_start(struct signals_watch *, struct ev_loop *,
	    const char *what, void (*stop)(int signum, void *arg),
	    void (*info)(void *arg), void *arg);
void	signals_watch_request(struct signals_watch *,
	    void (*request)(void *arg));
void	signals_watch_stop(struct signals_watch *, int handover);

#endif
