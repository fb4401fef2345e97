/*
 * mig-tls-queue.h: the source's questions to the target, one at a time,
 * in order (the proxy's control connection carries one question and its
 * answer: proxy_rule_ask).  No I/O: the link sends through its send
 * function, tells the queue each answer or error, and closes it.  mig-tls.c
 * keeps it over the proxy; tests/sim/real-tls.c over the world's network.
 */
#ifndef MIG_TLS_QUEUE_H
#define MIG_TLS_QUEUE_H

#include "mig-tls.h"

/*
 * Sends msg (stolen) with its timeout.  Returns 0, or -1 with *cause
 * (malloc'd) when it cannot go out: that question gets the error at once.
 */
typedef int (*mig_tls_send_fn)(void *ctx, struct json_object *msg,
	    double timeout, char **cause);

struct mig_tls_queue;

struct mig_tls_queue *mig_tls_queue_new(mig_tls_send_fn send, void *ctx);
/* Queues msg (stolen); it goes out once the ones before are answered.
   cb may run before this returns. */
void	 mig_tls_queue_ask(struct mig_tls_queue *, struct json_object *msg,
	    double timeout, mig_tls_offer_cb cb, void *arg);
/*
 * The question out got its answer (borrowed) or error: the next one goes
 * out first, then its asker hears.  Nothing out: the next one goes.
 */
void	 mig_tls_queue_answered(struct mig_tls_queue *,
	    struct json_object *answer, const char *error);
/* Each question not answered gets "the control connection closed".
   NULL is ok. */
void	 mig_tls_queue_free(struct mig_tls_queue *);

#endif
