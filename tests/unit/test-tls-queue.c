/*
 * test-tls-queue.c: mig-tls-queue.c, the source's questions one at a
 * time and in order, as mig-tls.c and the simulator's link both keep them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "mig-tls-queue.h"

/* What the link sent, what the askers heard, in order. */
static struct {
	int	 sent[8], nsent;
	char	 heard[8][64];
	int	 nheard;
	int	 refuse;	/* the next send fails */
} W;

static struct json_object *
question(int n)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "n", json_object_new_int(n));
	return o;
}

static int
send_cb(void *ctx, struct json_object *msg, double timeout, char **cause)
{
	struct json_object *n;

	(void)ctx;
	assert_true(json_object_object_get_ex(msg, "n", &n));
	assert_true(timeout == 30);
	W.sent[W.nsent++] = json_object_get_int(n);
	json_object_put(msg);
	if (W.refuse) {
		W.refuse = 0;
		*cause = strdup("connect refused");
		return -1;
	}
	return 0;
}

static void
heard_cb(struct json_object *answer, const char *error, void *arg)
{
	snprintf(W.heard[W.nheard++], sizeof W.heard[0], "%d %s",
	    (int)(intptr_t)arg, error != NULL ? error : answer != NULL ?
	    json_object_to_json_string_ext(answer, JSON_C_TO_STRING_PLAIN) :
	    "?");
}

static void
test_one_at_a_time(void **state)
{
	struct mig_tls_queue	*q;
	struct json_object	*ans = json_object_new_object();

	(void)state;
	memset(&W, 0, sizeof W);
	q = mig_tls_queue_new(send_cb, NULL);
	mig_tls_queue_ask(q, question(1), 30, heard_cb, (void *)1);
	mig_tls_queue_ask(q, question(2), 30, heard_cb, (void *)2);
	mig_tls_queue_ask(q, question(3), 30, heard_cb, (void *)3);
	/* Only the first is out until it is answered. */
	assert_int_equal(W.nsent, 1);
	mig_tls_queue_answered(q, ans, NULL);
	/* The next goes out before the asker hears its answer. */
	assert_int_equal(W.nsent, 2);
	assert_int_equal(W.sent[1], 2);
	assert_string_equal(W.heard[0], "1 {}");
	/* An error ends the one out; the next goes. */
	mig_tls_queue_answered(q, NULL, "closed by peer");
	assert_string_equal(W.heard[1], "2 closed by peer");
	assert_int_equal(W.sent[2], 3);
	/* The link goes: the one out and any queued hear it. */
	mig_tls_queue_ask(q, question(4), 30, heard_cb, (void *)4);
	assert_int_equal(W.nsent, 3);
	mig_tls_queue_free(q);
	assert_int_equal(W.nheard, 4);
	assert_string_equal(W.heard[2], "3 the control connection closed");
	assert_string_equal(W.heard[3], "4 the control connection closed");
	json_object_put(ans);
}

/* A question that cannot go out gets its error at once; the next goes. */
static void
test_refused(void **state)
{
	struct mig_tls_queue *q;

	(void)state;
	memset(&W, 0, sizeof W);
	q = mig_tls_queue_new(send_cb, NULL);
	W.refuse = 1;
	mig_tls_queue_ask(q, question(1), 30, heard_cb, (void *)1);
	assert_int_equal(W.nheard, 1);
	assert_string_equal(W.heard[0], "1 connect refused");
	mig_tls_queue_ask(q, question(2), 30, heard_cb, (void *)2);
	assert_int_equal(W.nsent, 2);
	assert_int_equal(W.nheard, 1);
	mig_tls_queue_free(q);
	assert_string_equal(W.heard[1], "2 the control connection closed");
	mig_tls_queue_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_at_a_time),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
