/*
 * test-proxy-rules.c: the control connection's rules (proxy-control-
 * rules.c), each decision from its facts: what the proxy and the
 * simulator's tls: link both act on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proxy-control-rules.h"

/* One question at a time; a new connection keeps an engine's session. */
static void
test_ask(void **state)
{
	(void)state;
	assert_int_equal(proxy_rule_ask(1, 1, 0, 1), PROXY_ASK_BUSY);
	assert_int_equal(proxy_rule_ask(1, 0, 0, 1), PROXY_ASK_BUSY);
	assert_int_equal(proxy_rule_ask(0, 1, 0, 1), PROXY_ASK_SEND);
	assert_int_equal(proxy_rule_ask(0, 1, 1, 1), PROXY_ASK_SEND);
	/* The engine's first question makes the id, later ones keep it. */
	assert_int_equal(proxy_rule_ask(0, 0, 0, 0), PROXY_ASK_OPEN_NEW);
	assert_int_equal(proxy_rule_ask(0, 0, 0, 1), PROXY_ASK_OPEN);
	/* A standalone source: a session per connection. */
	assert_int_equal(proxy_rule_ask(0, 0, 1, 1), PROXY_ASK_OPEN_NEW);
	/* The question's timeout replaces the handshake's; 0 is none. */
	assert_true(proxy_rule_ask_deadline(30) == 30);
	assert_true(proxy_rule_ask_deadline(0) == 0);
	assert_true(proxy_rule_ask_deadline(-1) == 0);
}

/* An answer only to a message that waits; the first ready goes live. */
static void
test_answer(void **state)
{
	(void)state;
	assert_int_equal(proxy_rule_answer(0, 0, 1), PROXY_ANSWER_NOT_OWED);
	assert_int_equal(proxy_rule_answer(0, 1, 0), PROXY_ANSWER_NOT_OWED);
	assert_int_equal(proxy_rule_answer(1, 0, 1), PROXY_ANSWER_LIVE);
	assert_int_equal(proxy_rule_answer(1, 0, 0), PROXY_ANSWER_TAKE);
	assert_int_equal(proxy_rule_answer(1, 1, 1), PROXY_ANSWER_TAKE);
	assert_int_equal(proxy_rule_answer(1, 1, 0), PROXY_ANSWER_TAKE);
	assert_true(proxy_rule_reads(0));
	assert_false(proxy_rule_reads(1));
}

/* One session at the target: the same one's new connection replaces. */
static void
test_open(void **state)
{
	(void)state;
	assert_int_equal(proxy_rule_open(0, 0), PROXY_OPEN_NEW);
	assert_int_equal(proxy_rule_open(0, 1), PROXY_OPEN_NEW);
	assert_int_equal(proxy_rule_open(1, 1), PROXY_OPEN_REPLACE);
	assert_int_equal(proxy_rule_open(1, 0), PROXY_OPEN_REFUSE);
	/* Data only through the open, live session it names. */
	assert_true(proxy_rule_data_admitted(1, 1, 1));
	assert_false(proxy_rule_data_admitted(0, 1, 1));
	assert_false(proxy_rule_data_admitted(1, 0, 1));
	assert_false(proxy_rule_data_admitted(1, 1, 0));
}

/*
 * QEMU's connection at the source: forwarded through a live session, held
 * while one is set up, closed when none is (an engine's whose control
 * connection ended: held, a post-copy resume's stayed in postcopy-recover
 * until --recover-timeout, exit 8, the guest paused on both sides).
 */
static void
test_data_arrives(void **state)
{
	(void)state;
	assert_int_equal(proxy_rule_data_arrives(1, 1, 0), PROXY_DATA_FORWARD);
	assert_int_equal(proxy_rule_data_arrives(1, 1, 1), PROXY_DATA_FORWARD);
	/* A question on the control connection, not answered ready yet. */
	assert_int_equal(proxy_rule_data_arrives(0, 1, 0), PROXY_DATA_HOLD);
	assert_int_equal(proxy_rule_data_arrives(0, 1, 1), PROXY_DATA_HOLD);
	/* No session: a standalone source opens one, an engine's closes. */
	assert_int_equal(proxy_rule_data_arrives(0, 0, 1), PROXY_DATA_OPEN);
	assert_int_equal(proxy_rule_data_arrives(0, 0, 0), PROXY_DATA_REFUSE);
	assert_int_equal(proxy_rule_data_arrives(1, 0, 0), PROXY_DATA_REFUSE);
}

/* What a session's end closes, and what a deadline says. */
static void
test_end_and_deadline(void **state)
{
	char *why;

	(void)state;
	assert_true(proxy_rule_ends_with_session(C_WAIT_SESSION));
	assert_true(proxy_rule_ends_with_session(C_HOLD));
	assert_true(proxy_rule_ends_with_session(C_QEMU_CONNECT));
	assert_false(proxy_rule_ends_with_session(C_CONTROL));
	assert_false(proxy_rule_ends_with_session(C_HANDSHAKE));
	assert_false(proxy_rule_ends_with_session(C_CONNECT));

	assert_false(proxy_rule_deadline(C_CONTROL, 30, 1, &why));
	assert_string_equal(why, "control answer timeout (30 s)");
	free(why);
	assert_false(proxy_rule_deadline(C_HOLD, 10, 1, &why));
	assert_string_equal(why, "waiting for earlier connections timeout "
	    "(10 s)");
	free(why);
	/* Before authentication: the target's refusal, not the source's. */
	assert_true(proxy_rule_deadline(C_HANDSHAKE, 10, 1, &why));
	assert_string_equal(why, "handshake timeout (10 s)");
	free(why);
	assert_true(proxy_rule_deadline(C_READ_HDR, 10, 1, &why));
	free(why);
	assert_false(proxy_rule_deadline(C_CONNECT, 10, 0, &why));
	assert_string_equal(why, "handshake timeout (10 s)");
	free(why);

	why = proxy_rule_lost("h:1", "closed by peer");
	assert_string_equal(why, "control connection to h:1: closed by peer");
	free(why);
	why = proxy_rule_connect_failed("h:1", "Connection refused");
	assert_string_equal(why, "connect to h:1: Connection refused");
	free(why);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ask),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_data_arrives),
		cmocka_unit_test(test_end_and_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
