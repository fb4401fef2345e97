/*
 * exporter-http.c: the exporter's HTTP server, just enough of HTTP/1.x
 * for Prometheus: one request per connection, GET /metrics (a query
 * string is ignored), 404 for any other path, 405 for any other method,
 * 400 for a request line that is not one, 431 for a head over
 * EXPORTER_MAX_REQUEST bytes; every connection closes after its answer or
 * EXPORTER_REQUEST_TIMEOUT seconds.  Out of descriptors, accepting pauses
 * for a second; at EXPORTER_MAX_CLIENTS it pauses until one closes.
 * fuzz/fuzz-http.c plays the client.
 */
#include <sys/socket.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>

#include "qmigrate.h"
#include "observe.h"

struct http_client {
	struct http_server	*srv;
	struct http_client	*prev, *next;
	int			 fd;
	ev_io			 rio;
	ev_io			 wio;
	ev_timer		 timer;
	char			 in[EXPORTER_MAX_REQUEST];
	size_t			 inlen;
	char			*out;
	size_t			 outlen;
	size_t			 outoff;
};

struct http_server {
	struct ev_loop		*loop;
	http_body_cb		 body;
	void			*arg;
	int			 lfd;
	ev_io			 accept_io;
	ev_timer		 accept_pause;
	struct http_client	*clients;
	int			 nclients;
};

static void
accept_resume(struct http_server *srv)
{
	if (srv->lfd != -1 && !ev_is_active(&srv->accept_pause))
		ev_io_start(srv->loop, &srv->accept_io);
}

/* The one teardown path of a connection. */
static void
client_close(struct http_client *c)
{
	struct http_server *srv = c->srv;

	ev_io_stop(srv->loop, &c->rio);
	ev_io_stop(srv->loop, &c->wio);
	ev_timer_stop(srv->loop, &c->timer);
	close(c->fd);
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		srv->clients = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	free(c->out);
	free(c);
	if (srv->nclients-- == EXPORTER_MAX_CLIENTS)
		accept_resume(srv);
}

/* Queues the whole answer and stops reading: one request per connection. */
static void
client_respond(struct http_client *c, const char *status, const char *extra,
    const char *ctype, const char *body, size_t len)
{
	struct render_buf b = { NULL, 0, 0 };

	render_printf(&b, "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n%s\r\n", status,
	    ctype, len, extra);
	if (len > 0) {
		b.p = xrealloc(b.p, b.len + len);
		memcpy(b.p + b.len, body, len);
		b.len += len;
	}
	c->out = b.p;
	c->outlen = b.len;
	c->outoff = 0;
	ev_io_stop(c->srv->loop, &c->rio);
	ev_io_start(c->srv->loop, &c->wio);
}

static void
client_error(struct http_client *c, const char *status, const char *extra)
{
	char *body;

	xasprintf(&body, "%s\n", status);
	client_respond(c, status, extra, "text/plain; charset=utf-8", body,
	    strlen(body));
	free(body);
}

/*
 * Splits the request line at the start of head (NUL-terminated, modified)
 * into its method and its path without the query string.  Returns 0, or
 * -1 when it is not "METHOD SP PATH SP HTTP/1.x".
 */
int
http_parse_request(char *head, const char **method, const char **path)
{
	char	*sp1, *sp2, *q;

	head[strcspn(head, "\r\n")] = '\0';
	if ((sp1 = strchr(head, ' ')) == NULL || sp1 == head ||
	    (sp2 = strchr(sp1 + 1, ' ')) == NULL || sp2 == sp1 + 1 ||
	    strncmp(sp2 + 1, "HTTP/1.", 7) != 0)
		return -1;
	*sp1 = *sp2 = '\0';
	if ((q = strchr(sp1 + 1, '?')) != NULL)
		*q = '\0';
	*method = head;
	*path = sp1 + 1;
	return 0;
}

/* A complete request head is in c->in: answer it. */
static void
client_request(struct http_client *c)
{
	struct render_buf	 b = { NULL, 0, 0 };
	const char		*method, *path;

	c->in[c->inlen] = '\0';
	if (http_parse_request(c->in, &method, &path) != 0) {
		client_error(c, "400 Bad Request", "");
		return;
	}
	if (strcmp(path, "/metrics") != 0) {
		client_error(c, "404 Not Found", "");
		return;
	}
	if (strcmp(method, "GET") != 0) {
		client_error(c, "405 Method Not Allowed", "Allow: GET\r\n");
		return;
	}
	c->srv->body(&b, c->srv->arg);
	client_respond(c, "200 OK", "",
	    "text/plain; version=0.0.4; charset=utf-8", b.p, b.len);
	free(b.p);
}

/*
 * Whether a read or send that moved n bytes lets c go on: not when the
 * socket has nothing now (wait for the next event), nor after an error
 * or the peer's end (c is then closed).
 */
static int
client_io_ok(struct http_client *c, ssize_t n)
{
	if (n == -1 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		client_close(c);
		return 0;
	}
	return 1;
}

static void
client_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct http_client	*c = container_of(w, struct http_client, rio);
	ssize_t			 n;

	n = read(c->fd, c->in + c->inlen, sizeof c->in - 1 - c->inlen);
	if (!client_io_ok(c, n))
		return;
	c->inlen += (size_t)n;
	c->in[c->inlen] = '\0';
	/* A NUL inside the head is not HTTP: answer what came before it. */
	if (strlen(c->in) != c->inlen) {
		client_error(c, "400 Bad Request", "");
		return;
	}
	if (strstr(c->in, "\r\n\r\n") != NULL ||
	    strstr(c->in, "\n\n") != NULL) {
		client_request(c);
		return;
	}
	if (c->inlen == sizeof c->in - 1)
		client_error(c, "431 Request Header Fields Too Large", "");
}

static void
client_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct http_client	*c = container_of(w, struct http_client, wio);
	ssize_t			 n;

	n = send(c->fd, c->out + c->outoff, c->outlen - c->outoff,
	    MSG_NOSIGNAL);
	if (!client_io_ok(c, n))
		return;
	c->outoff += (size_t)n;
	if (c->outoff == c->outlen) {
		shutdown(c->fd, SHUT_WR);
		client_close(c);
	}
}

static void
client_timeout_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	client_close(container_of(t, struct http_client, timer));
}

/* Serves one connected socket (accept, or a test's socketpair). */
void
http_server_add_client(struct http_server *srv, int fd)
{
	struct http_client *c = xcalloc(1, sizeof *c);

	c->srv = srv;
	c->fd = fd;
	ev_io_init(&c->rio, client_read_cb, fd, EV_READ);
	ev_io_init(&c->wio, client_write_cb, fd, EV_WRITE);
	ev_timer_init(&c->timer, client_timeout_cb, EXPORTER_REQUEST_TIMEOUT,
	    0);
	ev_io_start(srv->loop, &c->rio);
	ev_timer_start(srv->loop, &c->timer);
	c->next = srv->clients;
	if (c->next != NULL)
		c->next->prev = c;
	srv->clients = c;
	if (++srv->nclients == EXPORTER_MAX_CLIENTS && srv->lfd != -1)
		ev_io_stop(srv->loop, &srv->accept_io);
}

static void
accept_pause_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct http_server *srv = container_of(t, struct http_server,
	    accept_pause);

	if (srv->nclients < EXPORTER_MAX_CLIENTS)
		ev_io_start(loop, &srv->accept_io);
}

static void
accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct http_server	*srv = container_of(w, struct http_server,
				    accept_io);
	int			 fd;

	fd = accept4(srv->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd == -1) {
		if (errno == EMFILE || errno == ENFILE) {
			/* Out of descriptors: wait for some to close. */
			log_warn("exporter: accept");
			ev_io_stop(loop, &srv->accept_io);
			ev_timer_set(&srv->accept_pause, 1, 0);
			ev_timer_start(loop, &srv->accept_pause);
		}
		return;
	}
	http_server_add_client(srv, fd);
}

struct http_server *
http_server_new(struct ev_loop *loop, http_body_cb body, void *arg)
{
	struct http_server *srv = xcalloc(1, sizeof *srv);

	srv->loop = loop;
	srv->body = body;
	srv->arg = arg;
	srv->lfd = -1;
	ev_timer_init(&srv->accept_pause, accept_pause_cb, 1, 0);
	return srv;
}

/*
 * Listens on ADDR:PORT ([v6addr]:PORT too) and says on stderr where (port
 * 0 picks one).  Returns 0, or -1 with *cause set.
 */
int
http_server_listen(struct http_server *srv, const char *spec, char **cause)
{
	struct sockaddr_storage	 ss;
	socklen_t		 sslen = sizeof ss;
	char			*host, *port, *why, hbuf[NI_MAXHOST],
				 pbuf[NI_MAXSERV];
	int			 fd;

	host = xstrdup(spec);
	if ((port = strrchr(host, ':')) == NULL || port[1] == '\0') {
		xasprintf(cause, "--listen: expected ADDR:PORT, got \"%s\"",
		    spec);
		free(host);
		return -1;
	}
	*port++ = '\0';
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		host[strlen(host) - 1] = '\0';
		memmove(host, host + 1, strlen(host));
	}
	if ((fd = tcp_listen(host, port, AI_NUMERICSERV, &why)) == -1) {
		xasprintf(cause, "--listen %s: %s", spec, why);
		free(why);
	} else if (getsockname(fd, (struct sockaddr *)&ss, &sslen) == 0 &&
	    getnameinfo((struct sockaddr *)&ss, sslen, hbuf, sizeof hbuf,
	    pbuf, sizeof pbuf, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
		log_info("listening on %s%s%s:%s",
		    strchr(hbuf, ':') ? "[" : "", hbuf,
		    strchr(hbuf, ':') ? "]" : "", pbuf);
		fflush(stderr);
	}
	free(host);
	if (fd == -1)
		return -1;
	srv->lfd = fd;
	ev_io_init(&srv->accept_io, accept_cb, fd, EV_READ);
	ev_io_start(srv->loop, &srv->accept_io);
	return 0;
}

int
http_server_clients(const struct http_server *srv)
{
	return srv->nclients;
}

/* Closes every connection and the listening socket. */
void
http_server_free(struct http_server *srv)
{
	if (srv == NULL)
		return;
	while (srv->clients != NULL)
		client_close(srv->clients);
	if (srv->lfd != -1) {
		ev_io_stop(srv->loop, &srv->accept_io);
		close(srv->lfd);
	}
	ev_timer_stop(srv->loop, &srv->accept_pause);
	free(srv);
}
