/*
 * mig-tls-queue.c: the source's questions to the target, one at a time
 * (see the header).
 */
#include <stdlib.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-tls-queue.h"

/* A question waiting for the one before it to be answered. */
struct mig_tls_question {
	struct json_object	*msg;
	double			 timeout;
	mig_tls_offer_cb	 cb;
	void			*arg;
	struct mig_tls_question	*next;
};

struct mig_tls_queue {
	mig_tls_send_fn		 send;
	void			*ctx;
	struct mig_tls_question	*asked;		/* sent, not answered */
	struct mig_tls_question	*queue;		/* waiting to be sent */
	struct mig_tls_question	*queue_tail;
};

struct mig_tls_queue *
mig_tls_queue_new(mig_tls_send_fn send, void *ctx)
{
	struct mig_tls_queue *tq = xcalloc(1, sizeof *tq);

	tq->send = send;
	tq->ctx = ctx;
	return tq;
}

/* Sends the oldest queued question; one that cannot go out gets its
   error at once. */
static void
send_next(struct mig_tls_queue *tq)
{
	struct mig_tls_question	*q;
	char			*cause = NULL;

	while (tq->asked == NULL && (q = tq->queue) != NULL) {
		tq->queue = q->next;
		if (tq->queue == NULL)
			tq->queue_tail = NULL;
		tq->asked = q;
		if (tq->send(tq->ctx, q->msg, q->timeout, &cause) == 0)
			continue;
		tq->asked = NULL;
		q->cb(NULL, cause, q->arg);
		free(cause);
		cause = NULL;
		free(q);
	}
}

void
mig_tls_queue_ask(struct mig_tls_queue *tq, struct json_object *msg,
    double timeout, mig_tls_offer_cb cb, void *arg)
{
	struct mig_tls_question *q = xcalloc(1, sizeof *q);

	q->msg = msg;
	q->timeout = timeout;
	q->cb = cb;
	q->arg = arg;
	if (tq->queue_tail != NULL)
		tq->queue_tail->next = q;
	else
		tq->queue = q;
	tq->queue_tail = q;
	send_next(tq);
}

void
mig_tls_queue_answered(struct mig_tls_queue *tq, struct json_object *answer,
    const char *error)
{
	struct mig_tls_question *q = tq->asked;

	tq->asked = NULL;
	send_next(tq);
	if (q != NULL) {
		q->cb(answer, error, q->arg);
		free(q);
	}
}

void
mig_tls_queue_free(struct mig_tls_queue *tq)
{
	struct mig_tls_question *q;

	if (tq == NULL)
		return;
	/* Unanswered questions end with the link: their askers learn it. */
	if ((q = tq->asked) != NULL) {
		tq->asked = NULL;
		q->cb(NULL, "the control connection closed", q->arg);
		free(q);
	}
	while ((q = tq->queue) != NULL) {
		tq->queue = q->next;
		json_object_put(q->msg);
		q->cb(NULL, "the control connection closed", q->arg);
		free(q);
	}
	free(tq);
}
