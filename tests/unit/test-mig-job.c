/*
 * test-mig-job.c: the job runner (mig-job.c) against a fake monitor
 * (fake-peer.h): a job that waits while its owner closes the connection
 * (a reconnect) goes on against a closed connection, not freed memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"
#include "mig-job.h"
#include "fake-peer.h"

struct run {
	int	 done;
	int	 ok;
	char	*error;		/* what the step heard after its wait */
};

/* Waits, then asks once: what it hears is the job's end. */
static enum mig_job_next
wait_then_ask(void *ctx, int *pc, json_object *reply, const char *error,
    struct mig_job_cmd *cmd, char **cause)
{
	struct run *r = ctx;

	(void)reply;
	switch ((*pc)++) {
	case 0:
		cmd->delay = 0.05;
		return JOB_WAIT;
	case 1:
		cmd->name = "query-status";
		return JOB_SEND;
	default:
		r->error = error != NULL ? xstrdup(error) : NULL;
		if (error == NULL)
			return JOB_DONE;
		*cause = xstrdup(error);
		return JOB_FAILED;
	}
}

static void
on_done(struct mig_job *job, int ok, const char *cause, void *arg)
{
	struct run *r = arg;

	(void)job;
	(void)cause;
	r->done = 1;
	r->ok = ok;
}

/*
 * Row (issue 37, sim-real seed 3805 under ASan): the target's release of
 * its exports waited between two tries when its monitor closed; the watch
 * reconnected, closing (freeing) the connection, and the job's next
 * command was sent on freed memory (a heap use after free: garbage in the
 * log's reason).  The job holds its connection: the command fails on it,
 * and the job says the connection had closed.
 */
static void
test_wait_across_owner_close(void **state)
{
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
	struct mig_job		 job;
	struct run		 r = { 0 };

	(void)state;
	memset(&job, 0, sizeof job);
	fake_peer_pair(&loop, &conn, &peer, QMP_PROTO_MONITOR, "fake");
	mig_job_start(&job, loop, conn, "test", wait_then_ask, &r, on_done,
	    &r);
	qmp_close(conn);	/* the owner's reconnect */
	assert_true(run_until(loop, &r.done, 5));
	assert_false(r.ok);
	assert_non_null(r.error);
	assert_string_equal(r.error, "connection closed: closed by qmigrate");
	assert_true(job.closed);
	assert_int_equal(fake_peer_ncommands(peer), 0);
	free(r.error);
	fake_peer_pair_free(loop, NULL, peer);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wait_across_owner_close),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
