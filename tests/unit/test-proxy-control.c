/*
 * test-proxy-control.c: the proxy's library API as the migration driver
 * uses it, both sides on one libev loop: the control handshake answered
 * asynchronously, data forwarded both ways with half-close, a later
 * control message, a stranger refused, the end of the session reported;
 * a question asked again from the callback of its lost connection; a
 * standalone target (no owner) answering ready only to a standalone
 * source.
 * Plaintext (tls == NULL) so that no PKI is needed; the TLS paths are
 * covered by tests/integration/proxy-*.sh.
 */
#include <sys/socket.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <errno.h>
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

#include "common.h"
#include "proxy.h"

struct fixture {
	struct ev_loop		*loop;
	char			 dir[64];
	char			 src_path[100];
	char			 qemu_path[100];
	char			 nbd_src_path[100];
	char			 nbd_path[100];
	struct proxy_target	*tgt;
	struct proxy_source	*src;
	ev_timer		 answer_later;
	ev_timer		 deadline;
	int			 controls;	/* messages seen by the target */
	int			 ended;		/* session end seen */
	char			*end_error;
	int			 answers;
	char			*last_answer;
	char			*last_error;
	int			 timed_out;
};

static void
deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct fixture *f = w->data;

	f->timed_out = 1;
	ev_break(loop, EVBREAK_ALL);
}

/* Runs the loop until *flag becomes non-zero or 10 s pass. */
static void
run_until(struct fixture *f, int *flag)
{
	ev_timer_set(&f->deadline, 10, 0);
	ev_timer_start(f->loop, &f->deadline);
	while (!*flag && !f->timed_out)
		ev_run(f->loop, EVRUN_ONCE);
	ev_timer_stop(f->loop, &f->deadline);
	assert_false(f->timed_out);
}

/*
 * Runs the loop until both sides' pairs have ended: they forward on worker
 * threads, which count a direction's bytes just after writing them, so
 * only an ended pair's counts are final.
 */
static void
run_until_pairs_done(struct fixture *f)
{
	struct proxy_stats s, t;

	ev_timer_set(&f->deadline, 10, 0);
	ev_timer_start(f->loop, &f->deadline);
	for (;;) {
		proxy_source_stats(f->src, &s);
		proxy_target_stats(f->tgt, &t);
		if ((s.active == 0 && t.active == 0) || f->timed_out)
			break;
		ev_run(f->loop, EVRUN_ONCE);
	}
	ev_timer_stop(f->loop, &f->deadline);
	assert_false(f->timed_out);
}

static void
answer_later_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct fixture		*f = w->data;
	struct json_object	*a = json_object_new_object();
	char			*cause = NULL;

	json_object_object_add(a, "status", json_object_new_string("ready"));
	assert_int_equal(proxy_target_answer(f->tgt, a, &cause), 0);
	/* Only one answer per message. */
	a = json_object_new_object();
	assert_int_equal(proxy_target_answer(f->tgt, a, &cause), -1);
	assert_non_null(cause);
	free(cause);
}

/* A loop, a private directory and in it src_path; the timers armed. */
static void
fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	f->loop = ev_loop_new(EVFLAG_AUTO);
	ev_timer_init(&f->deadline, deadline_cb, 10, 0);
	f->deadline.data = f;
	ev_timer_init(&f->answer_later, answer_later_cb, 0.05, 0);
	f->answer_later.data = f;
	strcpy(f->dir, "/tmp/test-proxy-control.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->src_path, sizeof f->src_path, "%s/src.sock", f->dir);
}

static void
on_control(struct proxy_target *t, struct json_object *msg,
    const char *error, void *arg)
{
	struct fixture		*f = arg;
	struct json_object	*type, *a;

	if (msg == NULL) {
		assert_non_null(error);
		f->ended++;
		free(f->end_error);
		f->end_error = strdup(error);
		return;
	}
	f->controls++;
	assert_true(json_object_object_get_ex(msg, "type", &type));
	if (strcmp(json_object_get_string(type), "config") == 0) {
		/* Answer later, as after migrate-incoming. */
		ev_timer_start(f->loop, &f->answer_later);
		return;
	}
	a = json_object_new_object();
	json_object_object_add(a, "status", json_object_new_string("ok"));
	json_object_object_add(a, "seen", json_object_get(type));
	assert_int_equal(proxy_target_answer(t, a, NULL), 0);
}

static void
on_answer(struct json_object *answer, const char *error, void *arg)
{
	struct fixture *f = arg;

	free(f->last_answer);
	free(f->last_error);
	f->last_answer = answer != NULL ? strdup(json_object_to_json_string_ext(
	    answer, JSON_C_TO_STRING_PLAIN)) : NULL;
	f->last_error = error != NULL ? strdup(error) : NULL;
	f->answers++;
}

/* A non-blocking listener and connect for the test's "QEMU" ends. */
static int
test_listen(const char *path)
{
	char	*cause = NULL;
	int	 fd = unix_listen(path, SOCK_NONBLOCK, 8, &cause);

	assert_null(cause);
	return fd;
}

static int
test_connect(const char *path)
{
	char	*cause = NULL;
	int	 fd = unix_connect(path, SOCK_NONBLOCK, &cause);

	assert_null(cause);
	return fd;
}

/* A condition for run_until: fd has bytes or EOF. */
struct readable {
	ev_io	io;
	int	ready;
};

static void
readable_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct readable *r = (struct readable *)w;

	r->ready = 1;
	ev_io_stop(loop, w);
}

static void
wait_readable(struct fixture *f, int fd)
{
	struct readable r;

	memset(&r, 0, sizeof r);
	ev_io_init(&r.io, readable_cb, fd, EV_READ);
	ev_io_start(f->loop, &r.io);
	run_until(f, &r.ready);
	ev_io_stop(f->loop, &r.io);
}

/*
 * Waits until fd is readable and reads exactly want from it (NULL: the
 * end of the stream).
 */
static void
expect_read(struct fixture *f, int fd, const char *want)
{
	char	buf[16];
	size_t	len = want != NULL ? strlen(want) : 0;

	wait_readable(f, fd);
	assert_int_equal(read(fd, buf, sizeof buf), (ssize_t)len);
	if (len > 0)
		assert_memory_equal(buf, want, len);
}

static void
test_control_and_data(void **state)
{
	struct fixture		 f;
	struct json_object	*m;
	struct proxy_stats	 st;
	struct proxy_hdr	 h;
	uint8_t			 hdr[PROXY_HDR_SIZE];
	char			*cause = NULL, port[16];
	int			 lfd, cfd, qfd, sfd, nfd;

	fixture_init(&f);
	snprintf(f.qemu_path, sizeof f.qemu_path, "%s/qemu.sock", f.dir);
	snprintf(f.nbd_src_path, sizeof f.nbd_src_path, "%s/nbd-src.sock",
	    f.dir);
	snprintf(f.nbd_path, sizeof f.nbd_path, "%s/nbd.sock", f.dir);

	lfd = test_listen(f.qemu_path);
	nfd = test_listen(f.nbd_path);
	f.tgt = proxy_target_start(f.loop, NULL, "127.0.0.1", "0",
	    "/nonexistent", on_control, &f, &cause);
	assert_non_null(f.tgt);
	proxy_target_set_qemu_path(f.tgt, f.qemu_path);
	snprintf(port, sizeof port, "%d", proxy_target_port(f.tgt));
	f.src = proxy_source_start(f.loop, NULL, f.src_path, "127.0.0.1",
	    port, NULL, &cause);
	assert_non_null(f.src);
	assert_false(proxy_source_session_live(f.src));
	assert_int_equal(proxy_source_add_listener(f.src, PROXY_CHAN_NBD,
	    f.nbd_src_path, &cause), 0);
	assert_int_equal(proxy_source_add_listener(f.src, PROXY_CHAN_NBD,
	    f.nbd_src_path, &cause), -1);
	assert_non_null(strstr(cause, "already listening for the nbd"));
	free(cause);
	cause = NULL;

	/* The configuration handshake, answered asynchronously. */
	m = json_object_new_object();
	json_object_object_add(m, "type", json_object_new_string("config"));
	assert_int_equal(proxy_source_control(f.src, m, 5, on_answer, &f,
	    &cause), 0);
	/* One message at a time. */
	m = json_object_new_object();
	assert_int_equal(proxy_source_control(f.src, m, 5, on_answer, &f,
	    &cause), -1);
	assert_non_null(strstr(cause, "already waiting"));
	free(cause);
	cause = NULL;
	run_until(&f, &f.answers);
	assert_null(f.last_error);
	assert_string_equal(f.last_answer, "{\"status\":\"ready\"}");
	assert_int_equal(f.controls, 1);
	assert_true(proxy_source_session_live(f.src));

	/* QEMU's connection: bytes both ways, half-close forwarded. */
	cfd = test_connect(f.src_path);
	assert_int_equal(write(cfd, "abc", 3), 3);
	shutdown(cfd, SHUT_WR);
	wait_readable(&f, lfd);
	qfd = accept(lfd, NULL, NULL);
	assert_int_not_equal(qfd, -1);
	expect_read(&f, qfd, "abc");
	expect_read(&f, qfd, NULL);	/* EOF */
	assert_int_equal(write(qfd, "wxyz", 4), 4);
	close(qfd);
	expect_read(&f, cfd, "wxyz");
	expect_read(&f, cfd, NULL);
	close(cfd);

	/*
	 * The NBD channel: refused while the target has no socket for it,
	 * then delivered to that socket, not to QEMU's migration socket.
	 */
	cfd = test_connect(f.nbd_src_path);
	expect_read(&f, cfd, NULL);
	close(cfd);
	proxy_target_set_path(f.tgt, PROXY_CHAN_NBD, f.nbd_path);
	cfd = test_connect(f.nbd_src_path);
	assert_int_equal(write(cfd, "nbd", 3), 3);
	wait_readable(&f, nfd);
	qfd = accept(nfd, NULL, NULL);
	assert_int_not_equal(qfd, -1);
	expect_read(&f, qfd, "nbd");
	assert_int_equal(write(qfd, "ok", 2), 2);
	expect_read(&f, cfd, "ok");
	close(qfd);
	close(cfd);
	assert_int_equal(accept(lfd, NULL, NULL), -1);	/* none for QEMU */

	/* A later message on the same control connection. */
	m = json_object_new_object();
	json_object_object_add(m, "type", json_object_new_string("done"));
	assert_int_equal(proxy_source_control(f.src, m, 5, on_answer, &f,
	    &cause), 0);
	run_until(&f, (f.answers = 0, &f.answers));
	assert_string_equal(f.last_answer,
	    "{\"status\":\"ok\",\"seen\":\"done\"}");

	/* A stranger with a session id of its own is refused. */
	memset(&h, 0, sizeof h);
	h.kind = PROXY_KIND_DATA;
	memset(h.session, 0x5a, sizeof h.session);
	proxy_hdr_encode(&h, hdr);
	{
		struct sockaddr_in sin;

		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_port = htons((uint16_t)proxy_target_port(f.tgt));
		sin.sin_addr.s_addr = htonl(0x7f000001);
		sfd = socket(AF_INET, SOCK_STREAM, 0);
		assert_int_equal(connect(sfd, (struct sockaddr *)&sin,
		    sizeof sin), 0);
	}
	assert_int_equal(write(sfd, hdr, sizeof hdr), (ssize_t)sizeof hdr);
	expect_read(&f, sfd, NULL);
	close(sfd);

	run_until_pairs_done(&f);
	proxy_source_stats(f.src, &st);
	assert_int_equal(st.connections, 3);	/* the refused one too */
	assert_int_equal(st.bytes_to_target, 6);
	assert_int_equal(st.bytes_from_target, 6);
	proxy_target_stats(f.tgt, &st);
	assert_int_equal(st.connections, 2);
	assert_int_equal(st.bytes_to_target, 6);
	assert_int_equal(st.bytes_from_target, 6);
	assert_int_equal(st.refused, 2);

	/* The source goes away: the target hears the session end. */
	proxy_source_free(f.src);
	run_until(&f, &f.ended);
	assert_non_null(f.end_error);

	proxy_target_free(f.tgt);
	close(lfd);
	close(nfd);
	unlink(f.qemu_path);
	unlink(f.nbd_path);
	rmdir(f.dir);
	ev_loop_destroy(f.loop);
	free(f.end_error);
	free(f.last_answer);
	free(f.last_error);
}

/* A target that is not there: the answer callback reports it. */
/* A TCP socket bound to a free loopback port (its number in port). */
static int
loopback_port(int listening, char *port, size_t len)
{
	struct sockaddr_in	sin;
	socklen_t		slen = sizeof sin;
	int			fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(0x7f000001);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	if (listening)
		assert_int_equal(listen(fd, 8), 0);
	getsockname(fd, (struct sockaddr *)&sin, &slen);
	snprintf(port, len, "%u", ntohs(sin.sin_port));
	return fd;
}

static void
test_control_unreachable(void **state)
{
	struct fixture		 f;
	struct json_object	*m;
	char			*cause = NULL;
	char			 port[16];

	fixture_init(&f);
	/* A port nobody listens on: bind one, close it. */
	close(loopback_port(0, port, sizeof port));

	f.src = proxy_source_start(f.loop, NULL, f.src_path, "127.0.0.1",
	    port, NULL, &cause);
	assert_non_null(f.src);
	m = json_object_new_object();
	/* Loopback may refuse at once or from the loop. */
	if (proxy_source_control(f.src, m, 5, on_answer, &f, &cause) != 0) {
		f.last_error = cause;
	} else
		run_until(&f, &f.answers);
	assert_null(f.last_answer);
	assert_non_null(f.last_error);
	assert_non_null(strstr(f.last_error, "Connection refused"));
	proxy_source_free(f.src);
	rmdir(f.dir);
	ev_loop_destroy(f.loop);
	free(f.last_error);
}

/*
 * A question whose control connection timed out, asked again from its
 * callback, gets an answer or an error of its own: the new connection is
 * the session's, not dropped when the old session is cleared after the
 * callback (handoff-held-late-tls: the re-asked "completed?" was lost
 * that way and the source exited 8 with the guest running on the target).
 * The "target" accepts TCP and never answers (listen, no accept).
 */
struct reask {
	struct fixture	*f;
	int		 asked;
	int		 errors;
};

static void
on_answer_reask(struct json_object *answer, const char *error, void *arg)
{
	struct reask	*r = arg;
	char		*cause = NULL;

	assert_null(answer);
	assert_non_null(error);
	assert_non_null(strstr(error, "timeout"));
	r->errors++;
	if (r->asked++ == 0) {
		assert_int_equal(proxy_source_control(r->f->src,
		    json_object_new_object(), 0.2, on_answer_reask, r,
		    &cause), 0);
		return;
	}
	r->f->answers = 1;
}

static void
test_control_reask_from_callback(void **state)
{
	struct fixture		 f;
	struct reask		 r = { .f = &f };
	char			 port[16], *cause = NULL;
	int			 fd;

	fixture_init(&f);
	fd = loopback_port(1, port, sizeof port);
	f.src = proxy_source_start(f.loop, NULL, f.src_path, "127.0.0.1",
	    port, NULL, &cause);
	assert_non_null(f.src);
	assert_int_equal(proxy_source_control(f.src, json_object_new_object(),
	    0.2, on_answer_reask, &r, &cause), 0);
	run_until(&f, &f.answers);
	assert_int_equal(r.errors, 2);
	proxy_source_free(f.src);
	close(fd);
	rmdir(f.dir);
	ev_loop_destroy(f.loop);
}

/*
 * The source's QEMU connections and the session (proxy_rule_data_arrives):
 * one that comes with no session at all is closed at once (before: held
 * for good, a post-copy resume's left QEMU in postcopy-recover until
 * --recover-timeout); one that comes while a question is out waits, and
 * goes to the target's QEMU once the answer is ready; after the session
 * ended with its control connection, one is closed at once again.
 */
static void
test_data_waits_for_session(void **state)
{
	struct fixture		 f;
	struct json_object	*m;
	char			*cause = NULL, port[16];
	int			 lfd, cfd, qfd;

	fixture_init(&f);
	snprintf(f.qemu_path, sizeof f.qemu_path, "%s/qemu.sock", f.dir);
	lfd = test_listen(f.qemu_path);
	f.tgt = proxy_target_start(f.loop, NULL, "127.0.0.1", "0",
	    "/nonexistent", on_control, &f, &cause);
	assert_non_null(f.tgt);
	proxy_target_set_qemu_path(f.tgt, f.qemu_path);
	snprintf(port, sizeof port, "%d", proxy_target_port(f.tgt));
	f.src = proxy_source_start(f.loop, NULL, f.src_path, "127.0.0.1",
	    port, NULL, &cause);
	assert_non_null(f.src);

	/* No session, none asked for: closed at once. */
	cfd = test_connect(f.src_path);
	expect_read(&f, cfd, NULL);
	close(cfd);

	/* A question out (answered ready 50 ms later): held, then carried. */
	m = json_object_new_object();
	json_object_object_add(m, "type", json_object_new_string("config"));
	assert_int_equal(proxy_source_control(f.src, m, 5, on_answer, &f,
	    &cause), 0);
	cfd = test_connect(f.src_path);
	assert_int_equal(write(cfd, "abc", 3), 3);
	assert_false(proxy_source_session_live(f.src));
	run_until(&f, &f.answers);
	assert_string_equal(f.last_answer, "{\"status\":\"ready\"}");
	wait_readable(&f, lfd);
	qfd = accept(lfd, NULL, NULL);
	assert_int_not_equal(qfd, -1);
	expect_read(&f, qfd, "abc");
	close(qfd);
	expect_read(&f, cfd, NULL);
	close(cfd);
	run_until_pairs_done(&f);

	/* The target goes away: the session ends; closed at once again. */
	proxy_target_free(f.tgt);
	f.tgt = NULL;
	while (proxy_source_session_live(f.src))
		ev_run(f.loop, EVRUN_ONCE);
	cfd = test_connect(f.src_path);
	expect_read(&f, cfd, NULL);
	close(cfd);

	proxy_source_free(f.src);
	close(lfd);
	unlink(f.qemu_path);
	rmdir(f.dir);
	ev_loop_destroy(f.loop);
	free(f.last_answer);
	free(f.last_error);
	free(f.end_error);
}

/* Sends a message of type (NULL: none) and returns the answer's status. */
static const char *
standalone_ask(struct fixture *f, const char *type, char *status, size_t len)
{
	struct json_object	*m = json_object_new_object(), *a, *v;
	char			*cause = NULL;

	if (type != NULL)
		json_object_object_add(m, "type", json_object_new_string(type));
	assert_int_equal(proxy_source_control(f->src, m, 5, on_answer, f,
	    &cause), 0);
	run_until(f, (f->answers = 0, &f->answers));
	assert_null(f->last_error);
	a = json_tokener_parse(f->last_answer);
	assert_true(json_object_object_get_ex(a, "status", &v));
	snprintf(status, len, "%s", json_object_get_string(v));
	if (strcmp(status, "refused") == 0) {
		assert_true(json_object_object_get_ex(a, "reason", &v));
		assert_non_null(strstr(json_object_get_string(v),
		    "standalone qmigrate proxy target"));
	}
	json_object_put(a);
	return status;
}

/*
 * A standalone target (no owner) answers ready only to a standalone
 * source's session; an engine's offer, resume or completed message is
 * refused, before and after the session went live.
 */
static void
test_standalone_target(void **state)
{
	struct fixture	 f;
	char		*cause = NULL, port[16], st[32];

	fixture_init(&f);
	f.tgt = proxy_target_start(f.loop, NULL, "127.0.0.1", "0",
	    "/nonexistent", NULL, NULL, &cause);
	assert_non_null(f.tgt);
	snprintf(port, sizeof port, "%d", proxy_target_port(f.tgt));
	f.src = proxy_source_start(f.loop, NULL, f.src_path, "127.0.0.1",
	    port, NULL, &cause);
	assert_non_null(f.src);

	assert_string_equal(standalone_ask(&f, "migration", st, sizeof st),
	    "refused");
	assert_false(proxy_source_session_live(f.src));
	assert_string_equal(standalone_ask(&f, NULL, st, sizeof st),
	    "refused");
	assert_string_equal(standalone_ask(&f, "proxy-session", st,
	    sizeof st), "ready");
	assert_true(proxy_source_session_live(f.src));
	assert_string_equal(standalone_ask(&f, "resume", st, sizeof st),
	    "refused");
	assert_string_equal(standalone_ask(&f, "completed", st, sizeof st),
	    "refused");

	proxy_source_free(f.src);
	proxy_target_free(f.tgt);
	rmdir(f.dir);
	ev_loop_destroy(f.loop);
	free(f.last_answer);
	free(f.last_error);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_control_and_data),
		cmocka_unit_test(test_control_unreachable),
		cmocka_unit_test(test_control_reask_from_callback),
		cmocka_unit_test(test_data_waits_for_session),
		cmocka_unit_test(test_standalone_target),
	};

	proxy_set_log(NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
