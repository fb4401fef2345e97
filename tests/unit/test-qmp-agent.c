/*
 * test-qmp-agent.c: the guest-agent protocol against a fake qemu-ga
 * (fake-peer.h says why it is fake): resync past junk and stale replies,
 * strict FIFO with one command in flight, automatic resync after a
 * timeout, and guest-shutdown's silent success and its error reply.
 */
#include <sys/socket.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <ev.h>
#include <json-c/json.h>

#include "fake-peer.h"
#include "qmp.h"

struct fixture {
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
};

static int
setup(void **state)
{
	struct fixture	*f;

	f = calloc(1, sizeof *f);
	assert_non_null(f);
	fake_peer_pair(&f->loop, &f->conn, &f->peer, QMP_PROTO_AGENT,
	    "fake-ga");
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	fake_peer_pair_free(f->loop, f->conn, f->peer);
	free(f);
	return 0;
}

/*
 * A sync's answer is taken past what comes before it, each case on a
 * connection of its own: junk and a stale reply before 0xFF (everything
 * before that byte is dropped), or an answer to an earlier sync (another
 * id) that is skipped.  The sync sent one 0xFF first.
 */
static void
test_sync_past_junk(void **state)
{
	static const char	*scripts[] = {
		"garbage \x01\x02 {\"return\": {}}\n{\"ret\xff"
		    "{\"return\": @SYNC@}\n",
		"\xff{\"return\": -5}\n\xff{\"return\": @SYNC@}\n",
	};
	struct fixture		*f;
	char			*cause = NULL;
	void			*st;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
		setup(&st);
		f = st;
		fake_peer_on(f->peer, "guest-sync-delimited", scripts[i]);
		assert_int_equal(qga_sync(f->conn, 5, &cause), 0);
		assert_null(cause);
		assert_int_equal(fake_peer_nff(f->peer), 1);
		assert_false(qmp_is_closed(f->conn));
		teardown(&st);
	}
}

static void
test_sync_timeout(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL;

	fake_peer_on(f->peer, "guest-sync-delimited", "{\"return\": 1}\n");
	assert_int_equal(qga_sync(f->conn, 0.1, &cause), -1);
	assert_string_equal(cause, "guest-sync-delimited: no reply within "
	    "0.1 s");
	free(cause);
}

/* One command in flight at a time; replies go to commands in order. */
static void
test_fifo(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r1 = { 0 }, r2 = { 0 };

	fake_peer_on(f->peer, "guest-info", NULL);
	fake_peer_on(f->peer, "guest-ping", "{\"return\": {}}\n");
	fake_send_ok(f->conn, "guest-info", 5, &r1);
	fake_send_ok(f->conn, "guest-ping", 5, &r2);
	run_briefly(f->loop);
	run_briefly(f->loop);
	assert_int_equal(fake_peer_ncommands(f->peer), 1);
	assert_string_equal(fake_peer_command(f->peer, 0), "guest-info");
	/* Commands carry no id: the agent's replies would not have one. */
	assert_string_equal(fake_peer_id(f->peer, 0), "null");

	fake_peer_puts(f->peer, "{\"return\": {\"version\": \"7.2\"}}\n");
	assert_true(run_until(f->loop, &r2.calls, 5));
	assert_int_equal(fake_peer_ncommands(f->peer), 2);
	assert_string_equal(r1.reply, "{\"version\":\"7.2\"}");
	assert_string_equal(r2.reply, "{}");
	fake_result_free(&r1);
	fake_result_free(&r2);
}

/*
 * After a command times out, its reply may still come: the next command is
 * preceded by a resync that throws the stale reply away.
 */
static void
test_resync_after_timeout(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r1 = { 0 }, r2 = { 0 };

	fake_peer_on(f->peer, "guest-get-fsinfo", NULL);
	fake_send_ok(f->conn, "guest-get-fsinfo", 0.1, &r1);
	assert_true(run_until(f->loop, &r1.calls, 5));
	assert_string_equal(r1.error_class, "Timeout");

	fake_peer_on(f->peer, "guest-sync-delimited",
	    "{\"return\": [\"stale fsinfo\"]}\n\xff{\"return\": @SYNC@}\n");
	fake_peer_on(f->peer, "guest-get-host-name",
	    "{\"return\": {\"host-name\": \"vm1\"}}\n");
	fake_send_ok(f->conn, "guest-get-host-name", 5, &r2);
	assert_true(run_until(f->loop, &r2.calls, 5));
	assert_string_equal(fake_peer_command(f->peer, 1),
	    "guest-sync-delimited");
	assert_string_equal(fake_peer_command(f->peer, 2),
	    "guest-get-host-name");
	assert_int_equal(fake_peer_nff(f->peer), 1);
	assert_string_equal(r2.reply, "{\"host-name\":\"vm1\"}");
	assert_false(qmp_is_closed(f->conn));
	fake_result_free(&r1);
	fake_result_free(&r2);
}

/* A reply nobody asked for is a protocol error. */
static void
test_unsolicited_reply(void **state)
{
	struct fixture	*f = *state;

	fake_peer_puts(f->peer, "{\"return\": {}}\n");
	while (!qmp_is_closed(f->conn))
		ev_run(f->loop, EVRUN_ONCE);
	assert_non_null(strstr(qmp_close_reason(f->conn),
	    "reply with no command pending"));
}

/* guest-shutdown succeeds by saying nothing until the timeout. */
static void
test_shutdown_silent(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL;

	fake_peer_on(f->peer, "guest-shutdown", NULL);
	assert_int_equal(qga_shutdown(f->conn, "powerdown", 0.1, &cause), 0);
	assert_null(cause);
	assert_int_equal(fake_peer_ncommands(f->peer), 1);
}

/* ... or by the agent going away (the guest powered off). */
static void
test_shutdown_close(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL;

	fake_peer_on(f->peer, "guest-shutdown", FAKE_CLOSE);
	assert_int_equal(qga_shutdown(f->conn, NULL, 5, &cause), 0);
	assert_null(cause);
	assert_true(qmp_is_closed(f->conn));
}

static void
test_shutdown_error(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL;

	fake_peer_on(f->peer, "guest-shutdown", "{\"error\": {\"class\": "
	    "\"GenericError\", \"desc\": \"The command guest-shutdown has "
	    "been disabled for this instance\"}}\n");
	assert_int_equal(qga_shutdown(f->conn, "halt", 5, &cause), -1);
	assert_string_equal(cause, "guest-shutdown: The command "
	    "guest-shutdown has been disabled for this instance");
	free(cause);
	assert_false(qmp_is_closed(f->conn));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_past_junk),
		cmocka_unit_test_setup_teardown(test_sync_timeout,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_resync_after_timeout,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsolicited_reply,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_shutdown_silent,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_shutdown_close,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_shutdown_error,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
