/*
 * test-qmp-framing.c: the monitor protocol against a fake peer
 * (fake-peer.h says why it is fake): split and merged replies, limits,
 * malformed input, unknown ids, the peer closing, timeouts, events, and
 * synchronous calls made from inside callbacks.
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

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 1, " \
	"\"minor\": 2, \"major\": 7}, \"package\": \"\"}, " \
	"\"capabilities\": [\"oob\"]}}\r\n"

struct fixture {
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
	int			 closed;
	char			*close_reason;
};

static void
on_close(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct fixture	*f = arg;

	f->closed++;
	free(f->close_reason);
	f->close_reason = strdup(reason);
}

static int
setup(void **state)
{
	struct fixture	*f;

	f = calloc(1, sizeof *f);
	assert_non_null(f);
	fake_peer_pair(&f->loop, &f->conn, &f->peer, QMP_PROTO_MONITOR,
	    "fake");
	qmp_set_close_cb(f->conn, on_close, f);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	fake_peer_pair_free(f->loop, f->conn, f->peer);
	free(f->close_reason);
	free(f);
	return 0;
}

/* The greeting and a reply arrive one byte per read; both still parse. */
static void
test_split_byte_by_byte(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r = { 0 };
	const char		*greeting = GREETING;
	const char		*reply =
	    "{\"return\": {\"status\": \"running\"}, \"id\": \"qm-1\"}";
	int			 major, minor, micro;
	size_t			 i;

	for (i = 0; greeting[i] != '\0'; i++) {
		fake_peer_write(f->peer, greeting + i, 1);
		run_briefly(f->loop);
	}
	qmp_qemu_version(f->conn, &major, &minor, &micro);
	assert_int_equal(major, 7);
	assert_int_equal(minor, 2);
	assert_int_equal(micro, 1);

	fake_peer_on(f->peer, "query-status", NULL);
	fake_send_ok(f->conn, "query-status", 5, &r);
	run_briefly(f->loop);
	assert_int_equal(fake_peer_ncommands(f->peer), 1);
	assert_string_equal(fake_peer_id(f->peer, 0), "\"qm-1\"");
	for (i = 0; reply[i] != '\0'; i++) {
		assert_int_equal(r.calls, 0);
		fake_peer_write(f->peer, reply + i, 1);
		run_briefly(f->loop);
	}
	fake_peer_puts(f->peer, "\r\n");
	run_briefly(f->loop);
	assert_int_equal(r.calls, 1);
	assert_string_equal(r.reply, "{\"status\":\"running\"}");
	assert_int_equal(f->closed, 0);
	fake_result_free(&r);
}

/* Two replies (out of order) and an event in one write, with blank lines. */
static void
test_two_replies_one_write(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r1 = { 0 }, r2 = { 0 };

	fake_peer_on(f->peer, "cmd-a", NULL);
	fake_peer_on(f->peer, "cmd-b", NULL);
	fake_send_ok(f->conn, "cmd-a", 5, &r1);
	fake_send_ok(f->conn, "cmd-b", 5, &r2);
	run_briefly(f->loop);
	assert_int_equal(fake_peer_ncommands(f->peer), 2);
	fake_peer_puts(f->peer, GREETING "\n\n"
	    "{\"return\": 2, \"id\": \"qm-2\"}\r\n\r\n  "
	    "{\"event\": \"X\", \"timestamp\": {\"seconds\": 1, "
	    "\"microseconds\": 0}}"
	    "{\"return\": 1, \"id\": \"qm-1\"}");
	assert_true(run_until(f->loop, &r1.calls, 5));
	assert_int_equal(r1.calls, 1);
	assert_int_equal(r2.calls, 1);
	assert_string_equal(r1.reply, "1");
	assert_string_equal(r2.reply, "2");
	assert_int_equal(f->closed, 0);
	fake_result_free(&r1);
	fake_result_free(&r2);
}

/* Checks that f closed once, naming want, and that r failed "Closed". */
static void
assert_closed(struct fixture *f, struct fake_result *r, const char *want)
{
	const char	*p;

	assert_true(run_until(f->loop, &f->closed, 5));
	assert_int_equal(f->closed, 1);
	assert_true(qmp_is_closed(f->conn));
	assert_string_equal(qmp_close_reason(f->conn), f->close_reason);
	if (strstr(f->close_reason, want) == NULL)
		fail_msg("close reason \"%s\" lacks \"%s\"", f->close_reason,
		    want);
	/* One line, printable: peer bytes were escaped. */
	for (p = f->close_reason; *p != '\0'; p++)
		assert_true(*p >= 0x20 && *p < 0x7f);
	if (r != NULL) {
		assert_int_equal(r->calls, 1);
		assert_string_equal(r->error_class, "Closed");
		assert_string_equal(r->error, f->close_reason);
	}
}

static void
test_oversize_complete(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r = { 0 };
	char			 big[300];

	qmp_set_max_message(f->conn, 100);
	fake_peer_on(f->peer, "query-status", NULL);
	fake_send_ok(f->conn, "query-status", 5, &r);
	memset(big, 'a', sizeof big);
	big[sizeof big - 1] = '\0';
	fake_peer_puts(f->peer, "{\"return\": \"");
	fake_peer_puts(f->peer, big);
	fake_peer_puts(f->peer, "\", \"id\": \"qm-1\"}");
	assert_closed(f, &r, "over the limit of 100 bytes");
	fake_result_free(&r);
}

/* A message that never ends is cut off at the limit, not buffered. */
static void
test_oversize_endless(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r = { 0 };
	char			 chunk[64];
	int			 i;

	qmp_set_max_message(f->conn, 1000);
	fake_peer_on(f->peer, "query-status", NULL);
	fake_send_ok(f->conn, "query-status", 5, &r);
	memset(chunk, 'x', sizeof chunk);
	fake_peer_puts(f->peer, "{\"return\": \"");
	for (i = 0; i < 20 && !f->closed; i++) {
		fake_peer_write(f->peer, chunk, sizeof chunk);
		run_briefly(f->loop);
	}
	assert_true(i > 10);	/* not before the limit */
	assert_closed(f, &r, "over the limit of 1000 bytes");
	fake_result_free(&r);
}

static void
test_not_an_object(void **state)
{
	struct fixture	*f = *state;

	fake_peer_puts(f->peer, "[1, 2]\n");
	assert_closed(f, NULL, "expected a JSON object, got [1,2]");
}

/*
 * A reply to a pending command that QEMU would never send: the connection
 * closes naming what is wrong (quoting the peer's bytes, escaped), and the
 * command fails "Closed".  Each case on a connection of its own.
 */
static void
test_bad_reply(void **state)
{
	static const struct {
		const char	*reply;
		const char	*reason;
		const char	*quoted;	/* in the reason, if not NULL */
	} cases[] = {
		{ "{\"return\": {}, \"id\": \"qm-1\"\x01\x7f\xfe}",
		  "malformed JSON", "\\x01\\x7f\\xfe" },
		{ "{\"return\": {}, \"id\": \"qm-99\"}\n",
		  "reply with an unknown id", "qm-99" },
		{ "{\"error\": {\"class\": \"GenericError\", "
		  "\"desc\": \"JSON parse error\"}}\n",
		  "reply without an id", NULL },
	};
	struct fixture		*f;
	struct fake_result	 r;
	void			*st;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		setup(&st);
		f = st;
		memset(&r, 0, sizeof r);
		fake_peer_on(f->peer, "query-status", NULL);
		fake_send_ok(f->conn, "query-status", 5, &r);
		fake_peer_puts(f->peer, cases[i].reply);
		assert_closed(f, &r, cases[i].reason);
		if (cases[i].quoted != NULL)
			assert_non_null(strstr(f->close_reason,
			    cases[i].quoted));
		fake_result_free(&r);
		teardown(&st);
	}
}

static void
test_peer_close_pending(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r1 = { 0 }, r2 = { 0 };
	char			*cause = NULL;

	fake_peer_on(f->peer, "cmd-a", NULL);
	fake_peer_on(f->peer, "cmd-b", FAKE_CLOSE);
	fake_send_ok(f->conn, "cmd-a", 5, &r1);
	fake_send_ok(f->conn, "cmd-b", 5, &r2);
	assert_closed(f, &r1, "connection closed by the peer");
	assert_int_equal(r2.calls, 1);
	assert_string_equal(r2.error_class, "Closed");
	/* Sending on a closed connection fails at once, args freed. */
	assert_int_equal(qmp_send(f->conn, "cmd-c", json_object_new_object(),
	    5, fake_result_cb, &r1, &cause), -1);
	assert_non_null(strstr(cause, "connection closed"));
	free(cause);
	assert_int_equal(r1.calls, 1);
	fake_result_free(&r1);
	fake_result_free(&r2);
}

static void
test_close_mid_message(void **state)
{
	struct fixture	*f = *state;

	fake_peer_puts(f->peer, "{\"return\": ");
	run_briefly(f->loop);
	fake_peer_close(f->peer);
	assert_closed(f, NULL, "in the middle of a message");
}

/* A timed-out command fails "Timeout"; its late reply is ignored. */
static void
test_timeout(void **state)
{
	struct fixture		*f = *state;
	struct fake_result	 r = { 0 }, r2 = { 0 };
	double			 t0 = ev_time();

	fake_peer_on(f->peer, "slow", NULL);
	fake_peer_on(f->peer, "fast", "{\"return\": 7, \"id\": @ID@}");
	fake_send_ok(f->conn, "slow", 0.1, &r);
	assert_true(run_until(f->loop, &r.calls, 5));
	assert_true(ev_time() - t0 >= 0.09);
	assert_string_equal(r.error_class, "Timeout");
	assert_string_equal(r.error, "no reply within 0.1 s");
	assert_false(qmp_is_closed(f->conn));

	fake_peer_puts(f->peer, "{\"return\": {}, \"id\": \"qm-1\"}\n");
	fake_send_ok(f->conn, "fast", 5, &r2);
	assert_true(run_until(f->loop, &r2.calls, 5));
	assert_string_equal(r2.reply, "7");
	assert_int_equal(r.calls, 1);
	assert_int_equal(f->closed, 0);
	fake_result_free(&r);
	fake_result_free(&r2);
}

struct events {
	int	 all;
	int	 stop;
	char	 last[32];
	double	 ts;
	char	*data;
};

static void
on_event_all(struct qmp_conn *conn, const char *name,
    struct json_object *data, double ts, void *arg)
{
	struct events	*e = arg;

	e->all++;
	snprintf(e->last, sizeof e->last, "%s", name);
	e->ts = ts;
	free(e->data);
	e->data = data != NULL ? strdup(json_object_to_json_string_ext(data,
	    JSON_C_TO_STRING_PLAIN)) : NULL;
}

static void
on_event_stop(struct qmp_conn *conn, const char *name,
    struct json_object *data, double ts, void *arg)
{
	struct events	*e = arg;

	assert_string_equal(name, "STOP");
	e->stop++;
}

static void
test_events(void **state)
{
	struct fixture	*f = *state;
	struct events	 e = { 0 };
	int		 h_all, h_stop;

	h_all = qmp_subscribe(f->conn, NULL, on_event_all, &e);
	h_stop = qmp_subscribe(f->conn, "STOP", on_event_stop, &e);
	assert_true(h_all > 0);
	assert_true(h_stop > 0 && h_stop != h_all);

	fake_peer_puts(f->peer, "{\"timestamp\": {\"seconds\": 1700000000, "
	    "\"microseconds\": 123456}, \"event\": \"STOP\"}\r\n");
	assert_true(run_until(f->loop, &e.stop, 5));
	assert_int_equal(e.all, 1);
	assert_string_equal(e.last, "STOP");
	assert_true(e.ts > 1700000000.123455 && e.ts < 1700000000.123457);
	assert_null(e.data);

	fake_peer_puts(f->peer, "{\"event\": \"RESUME\", \"data\": {\"a\": 1}, "
	    "\"timestamp\": {\"seconds\": 5, \"microseconds\": 500000}}");
	assert_true(run_until_n(f->loop, &e.all, 2, 5));
	assert_string_equal(e.last, "RESUME");
	assert_string_equal(e.data, "{\"a\":1}");
	assert_true(e.ts == 5.5);
	assert_int_equal(e.stop, 1);

	qmp_unsubscribe(f->conn, h_stop);
	fake_peer_puts(f->peer, "{\"event\": \"STOP\", \"timestamp\": "
	    "{\"seconds\": 6, \"microseconds\": 0}}");
	assert_true(run_until_n(f->loop, &e.all, 3, 5));
	assert_int_equal(e.stop, 1);

	qmp_unsubscribe(f->conn, h_all);
	fake_peer_puts(f->peer, "{\"event\": \"STOP\", \"timestamp\": "
	    "{\"seconds\": 7, \"microseconds\": 0}}");
	run_briefly(f->loop);
	assert_int_equal(e.all, 3);
	assert_int_equal(f->closed, 0);
	free(e.data);
}

/* qmp_call: success, QEMU's error as "COMMAND: DESC", and a timeout. */
static void
test_call(void **state)
{
	struct fixture		*f = *state;
	struct json_object	*reply = NULL, *v;
	char			*cause = NULL;

	fake_peer_on(f->peer, "query-status", "{\"return\": {\"running\": "
	    "false, \"status\": \"prelaunch\"}, \"id\": @ID@}");
	fake_peer_on(f->peer, "no-such", "{\"id\": @ID@, \"error\": "
	    "{\"class\": \"CommandNotFound\", \"desc\": \"The command "
	    "no-such has not been found\"}}");
	fake_peer_on(f->peer, "hang", NULL);
	assert_int_equal(qmp_call(f->conn, "query-status", NULL, &reply, 5,
	    &cause), 0);
	assert_true(json_object_object_get_ex(reply, "status", &v));
	assert_string_equal(json_object_get_string(v), "prelaunch");
	json_object_put(reply);

	assert_int_equal(qmp_call(f->conn, "no-such", json_object_new_object(),
	    &reply, 5, &cause), -1);
	assert_null(reply);
	assert_string_equal(cause, "no-such: The command no-such has not "
	    "been found");
	free(cause);

	assert_int_equal(qmp_call(f->conn, "hang", NULL, NULL, 0.05, &cause),
	    -1);
	assert_string_equal(cause, "hang: no reply within 0.05 s");
	free(cause);
	assert_int_equal(f->closed, 0);
}

static void
keep_line(const char *line, void *arg)
{
	char **kept = arg;

	free(*kept);
	*kept = strdup(line);
}

/*
 * An error reply: the user's cause is the command and QEMU's desc; the
 * debug hook gets the whole reply, the peer's control bytes escaped.
 */
static void
test_error_debug_line(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL, *line = NULL;

	qmp_set_debug_log(keep_line, &line);
	fake_peer_on(f->peer, "blockdev-del", "{\"id\": @ID@, \"error\": "
	    "{\"class\": \"GenericError\", \"desc\": \"Node drive0 is in "
	    "use\", \"data\": \"x\\u0001y\"}}");
	assert_int_equal(qmp_call(f->conn, "blockdev-del", NULL, NULL, 5,
	    &cause), -1);
	qmp_set_debug_log(NULL, NULL);
	assert_string_equal(cause, "blockdev-del: Node drive0 is in use");
	assert_non_null(line);
	assert_non_null(strstr(line, ": blockdev-del: {"));
	assert_non_null(strstr(line, "\"class\":\"GenericError\""));
	assert_non_null(strstr(line, "\"data\""));
	assert_null(strchr(line, '\001'));
	free(cause);
	free(line);
}

struct nested {
	struct fixture	*f;
	int		 done;
	int		 rc;
	char		*status;
};

/* An event callback that makes a synchronous call on the same loop. */
static void
on_event_call(struct qmp_conn *conn, const char *name,
    struct json_object *data, double ts, void *arg)
{
	struct nested		*n = arg;
	struct json_object	*reply = NULL, *v;
	char			*cause = NULL;

	n->rc = qmp_call(conn, "query-status", NULL, &reply, 5, &cause);
	if (n->rc == 0 && json_object_object_get_ex(reply, "status", &v))
		n->status = strdup(json_object_get_string(v));
	json_object_put(reply);
	free(cause);
	n->done = 1;
}

static void
test_call_from_callback(void **state)
{
	struct fixture	*f = *state;
	struct nested	 n = { f, 0, -1, NULL };

	fake_peer_on(f->peer, "query-status", "{\"return\": {\"status\": "
	    "\"paused\"}, \"id\": @ID@}");
	qmp_subscribe(f->conn, "STOP", on_event_call, &n);
	/* The event and another after it in the same read. */
	fake_peer_puts(f->peer, "{\"event\": \"STOP\", \"timestamp\": "
	    "{\"seconds\": 1, \"microseconds\": 0}}{\"event\": \"OTHER\", "
	    "\"timestamp\": {\"seconds\": 1, \"microseconds\": 0}}");
	assert_true(run_until(f->loop, &n.done, 5));
	assert_int_equal(n.rc, 0);
	assert_string_equal(n.status, "paused");
	free(n.status);
	assert_int_equal(f->closed, 0);
}

/* Closing the connection from its own callbacks is safe. */
static void
on_reply_close(struct qmp_conn *conn, struct json_object *reply,
    const char *error_class, const char *error, void *arg)
{
	struct fixture	*f = arg;

	qmp_close(conn);
	f->conn = NULL;
	f->closed = 1;
}

static void
test_close_from_callback(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL;

	fake_peer_on(f->peer, "a", "{\"return\": {}, \"id\": @ID@}"
	    "{\"return\": {}, \"id\": \"qm-2\"}");
	fake_peer_on(f->peer, "b", NULL);
	assert_int_equal(qmp_send(f->conn, "a", NULL, 5, on_reply_close, f,
	    &cause), 0);
	assert_int_equal(qmp_send(f->conn, "b", NULL, 5, on_reply_close, f,
	    &cause), 0);
	assert_true(run_until(f->loop, &f->closed, 5));
	assert_null(f->conn);
}

/* The output queue is bounded: a huge command is refused, not queued. */
static void
test_output_bounded(void **state)
{
	struct fixture		*f = *state;
	struct json_object	*args;
	size_t			 len = QMP_DEFAULT_MAX_MESSAGE + 1024;
	char			*big, *cause = NULL;
	struct fake_result	 r = { 0 };

	big = malloc(len + 1);
	assert_non_null(big);
	memset(big, 'z', len);
	big[len] = '\0';
	args = json_object_new_object();
	json_object_object_add(args, "data", json_object_new_string(big));
	free(big);
	assert_int_equal(qmp_send(f->conn, "guest-file-write", args, 5,
	    fake_result_cb, &r, &cause), -1);
	assert_non_null(strstr(cause, "output queue"));
	free(cause);
	assert_int_equal(r.calls, 0);
	assert_false(qmp_is_closed(f->conn));
}

/*
 * Random bytes, some of them wrapped in message-like braces, in random
 * chunks: the connection may end but must not crash, leak or hang (ASan
 * and valgrind check the first two).  Fixed seeds keep it reproducible.
 */
static void
test_random_garbage(void **state)
{
	static const char	*frags[] = { "{", "}", "\"", "[", "]", ":", ",",
				    "\"return\"", "\"id\"", "\"qm-1\"", "\"event\"",
				    "\"QMP\"", "\xff", "\\", "1e999", "null", " " };
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_result	 r;
	char			 buf[512], *cause = NULL;
	size_t			 len, n;
	unsigned int		 seed;
	int			 sv[2], proto, round;

	for (seed = 1; seed <= 200; seed++) {
		srand(seed);
		proto = seed % 2 ? QMP_PROTO_MONITOR : QMP_PROTO_AGENT;
		assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		loop = ev_loop_new(EVFLAG_AUTO);
		conn = qmp_attach_fd(loop, sv[0], proto, "garbage");
		qmp_set_max_message(conn, 256);
		memset(&r, 0, sizeof r);
		assert_int_equal(qmp_send(conn, "x", NULL, 5,
		    fake_result_cb, &r, &cause), 0);
		for (round = 0; round < 8 && !qmp_is_closed(conn); round++) {
			len = 0;
			while (len < sizeof buf - 16) {
				if (rand() % 2) {
					n = (size_t)snprintf(buf + len,
					    sizeof buf - len, "%s",
					    frags[rand() % (sizeof frags /
					    sizeof frags[0])]);
					len += n;
				} else
					buf[len++] = (char)(rand() % 256);
			}
			assert_int_equal(write(sv[1], buf, len), (ssize_t)len);
			run_briefly(loop);
		}
		qmp_close(conn);
		/* Answered, failed or closed: the callback ran once. */
		assert_int_equal(r.calls, 1);
		fake_result_free(&r);
		close(sv[1]);
		ev_loop_destroy(loop);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_split_byte_by_byte,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_replies_one_write,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_oversize_complete,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_oversize_endless,
		    setup, teardown),
		cmocka_unit_test(test_bad_reply),
		cmocka_unit_test_setup_teardown(test_not_an_object,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_peer_close_pending,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_close_mid_message,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_events,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_error_debug_line,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_call,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_call_from_callback,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_close_from_callback,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_output_bounded,
		    setup, teardown),
		cmocka_unit_test(test_random_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
