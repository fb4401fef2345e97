/*
 * fuzz-http.c: a client of the exporter's HTTP server (exporter-http.c)
 * is the fuzz input, in segments as fake-peer.h describes (each written
 * when the loop is idle, so a request head arrives in pieces, then the
 * client shuts its side down).  The server must answer or close within
 * the run: it ends when the server has no connection left (a run that
 * reaches the request timeout is a finding: the target aborts).
 */
#include <sys/socket.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>

#include "fake-peer.h"
#include "qmigrate.h"
#include "observe.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
body(struct render_buf *b, void *arg)
{
	render_printf(b, "# HELP fuzz_up 1\n# TYPE fuzz_up gauge\nfuzz_up 1\n");
}

static void
check_cb(struct ev_loop *loop, ev_check *w, int revents)
{
	if (http_server_clients(w->data) == 0)
		ev_break(loop, EVBREAK_ALL);
}

static void
too_long_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_loop		*loop;
	struct http_server	*srv;
	struct fake_peer	*peer;
	ev_check		 check;
	ev_timer		 too_long;
	int			 sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) == -1)
		abort();
	loop = ev_loop_new(EVFLAG_AUTO);
	srv = http_server_new(loop, body, NULL);
	http_server_add_client(srv, sv[0]);
	peer = fake_peer_play(loop, sv[1], data, size);
	ev_check_init(&check, check_cb);
	check.data = srv;
	ev_check_start(loop, &check);
	/* Before the server's own request timeout could end it. */
	ev_timer_init(&too_long, too_long_cb, EXPORTER_REQUEST_TIMEOUT - 1, 0);
	ev_timer_start(loop, &too_long);

	ev_run(loop, 0);

	ev_timer_stop(loop, &too_long);
	ev_check_stop(loop, &check);
	http_server_free(srv);
	fake_peer_free(peer);
	ev_loop_destroy(loop);
	return 0;
}
