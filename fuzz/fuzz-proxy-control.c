/*
 * fuzz-proxy-control.c: the bytes a peer sends the target side of the
 * proxy after the handshake: the connection header, then (for a control
 * connection) length-prefixed JSON control messages.  The control framing
 * is only reachable through a socket, so each run starts a plaintext
 * target on 127.0.0.1 (port 0), connects to it, writes the input and shuts
 * its side down; the target must then close the connection.  Control
 * messages are answered at once, alternately "ready" and "refused".
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "proxy.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A target that keeps a half-closed connection this long is a finding. */
#define RUN_DEADLINE	10.0

struct run {
	int		 fd;
	ev_io		 rio;
	ev_io		 wio;
	const uint8_t	*data;
	size_t		 size;
	size_t		 off;
	int		 closed;	/* the target closed the connection */
	int		 answers;
};

static void
quiet(enum proxy_log_level level, const char *msg, void *arg)
{
	(void)strlen(msg);
}

static void
on_control(struct proxy_target *t, struct json_object *msg,
    const char *error, void *arg)
{
	struct run		*r = arg;
	struct json_object	*a;
	char			*cause = NULL;

	if (msg == NULL) {
		(void)strlen(error);
		return;
	}
	(void)strlen(json_object_to_json_string(msg));
	a = json_object_new_object();
	json_object_object_add(a, "status", json_object_new_string(
	    r->answers++ % 2 == 0 ? "ready" : "refused"));
	if (proxy_target_answer(t, a, &cause) != 0)
		free(cause);
}

static void
client_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct run	*r = w->data;
	ssize_t		 n;

	while (r->off < r->size) {
		n = send(r->fd, r->data + r->off, r->size - r->off,
		    MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			return;
		if (n == -1) {
			r->off = r->size;	/* the target hung up */
			break;
		}
		r->off += (size_t)n;
	}
	(void)shutdown(r->fd, SHUT_WR);
	ev_io_stop(loop, w);
}

static void
deadline_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	abort();	/* the target kept a half-closed connection open */
}

static void
client_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct run	*r = w->data;
	char		 buf[4096];
	ssize_t		 n;

	n = read(r->fd, buf, sizeof buf);
	if (n == 0 || (n == -1 && errno != EAGAIN && errno != EINTR)) {
		r->closed = 1;
		ev_io_stop(loop, w);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ev_loop		*loop;
	struct proxy_target	*t;
	struct sockaddr_in	 sin;
	struct linger		 lg = { 1, 0 };
	struct run		 r;
	ev_timer		 deadline;
	char			*cause = NULL;

	proxy_set_log(quiet, NULL);
	memset(&r, 0, sizeof r);
	r.data = data;
	r.size = size;
	loop = ev_loop_new(EVFLAG_AUTO);
	t = proxy_target_start(loop, NULL, "127.0.0.1", "0",
	    "/nonexistent/qemu.sock", on_control, &r, &cause);
	if (t == NULL)
		abort();
	proxy_target_set_timeouts(t, RUN_DEADLINE * 2, RUN_DEADLINE * 2);

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)proxy_target_port(t));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((r.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)) == -1)
		abort();
	if (connect(r.fd, (struct sockaddr *)&sin, sizeof sin) == -1 &&
	    errno != EINPROGRESS)
		abort();
	ev_io_init(&r.wio, client_write_cb, r.fd, EV_WRITE);
	ev_io_init(&r.rio, client_read_cb, r.fd, EV_READ);
	r.wio.data = r.rio.data = &r;
	ev_io_start(loop, &r.wio);
	ev_io_start(loop, &r.rio);

	ev_timer_init(&deadline, deadline_cb, RUN_DEADLINE, 0);
	ev_timer_start(loop, &deadline);
	while (!r.closed)
		ev_run(loop, EVRUN_ONCE);

	ev_timer_stop(loop, &deadline);
	ev_io_stop(loop, &r.wio);
	ev_io_stop(loop, &r.rio);
	/* No TIME_WAIT per run: thousands of runs a second. */
	(void)setsockopt(r.fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	close(r.fd);
	proxy_target_free(t);
	ev_loop_destroy(loop);
	return 0;
}
