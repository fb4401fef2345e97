/*
 * signals.h: SIGINT and SIGTERM from main()'s first instruction until a
 * command's own handler takes them (signals.c).
 */
#ifndef SIGNALS_H
#define SIGNALS_H

/* main(), first: record SIGINT/SIGTERM until a real handler is there. */
void	signals_early(void);
/* The caller's handler is installed: a recorded signal reaches it now. */
void	signals_armed(void);
/* A command that takes no signal: the default actions back. */
void	signals_default(void);

#endif
