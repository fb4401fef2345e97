/*
 * mig-tls.c: the TLS proxy inside `qmigrate migrate --to tls:` and
 * `qmigrate incoming --listen tls:`.  QEMU on each side talks to a private
 * unix socket in a 0700 directory; the proxy carries every connection (the
 * main stream, multifd channels, a post-copy resume) over mutual TLS, in
 * order.  Before any guest memory moves, the source offers its migration
 * configuration on the proxy's control connection and the target answers
 * ready or refuses.  Local disks go over the proxy's NBD channel: the
 * source QEMU's NBD clients connect to a second private socket, the
 * target QEMU's NBD server listens on one the target proxy forwards to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

/* proxy.h first: qmigrate.h declares its log hook when it is in. */
#include "proxy.h"
#include "qmigrate.h"
#include "mig-options.h"
#include "mig-tls.h"
#include "mig-tls-queue.h"

#define DEFAULT_TLS_DIR "/etc/qmigrate/tls"

struct mig_tls_source {
	struct ev_loop		*loop;
	struct proxy_tls	*tls;
	struct proxy_source	*proxy;
	char			*dir;
	char			*sock;
	char			*nbd_sock;
	struct mig_tls_queue	*questions;
};

struct mig_tls_target {
	struct ev_loop		*loop;
	struct proxy_tls	*tls;
	struct proxy_target	*proxy;
	char			*dir;
	char			*sock;
	char			*nbd_sock;
	mig_tls_offer_cb	 cb;
	void			*arg;
};

static void	link_source_close(struct mig_tls_source *);
static int	send_question(void *, json_object *, double, char **);
static void	link_target_close(struct mig_tls_target *);

/* A private directory for QEMU's side of the proxy. */
static char *
private_dir(char **cause)
{
	const char	*base = getenv("TMPDIR");
	char		*dir;

	xasprintf(&dir, "%s/qmigrate.XXXXXX", base != NULL && *base != '\0' ?
	    base : "/tmp");
	if (mkdtemp(dir) == NULL) {
		xasprintf(cause, "%s: mkdtemp: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	return dir;
}

static void
remove_private(char *dir, char *sock, char *nbd_sock)
{
	if (sock != NULL)
		unlink(sock);
	if (nbd_sock != NULL)
		unlink(nbd_sock);
	if (dir != NULL)
		rmdir(dir);
	free(nbd_sock);
	free(sock);
	free(dir);
}

/* The NBD address for disks over tls: (--nbd has no place there). */
static char *
nbd_uri(const struct mig_options *o, const char *sock, char **cause)
{
	char *uri;

	if (o->nbd != NULL) {
		xasprintf(cause, "--nbd %s: not used with %s (the disks go "
		    "through the TLS proxy)", o->nbd, o->uri);
		return NULL;
	}
	xasprintf(&uri, "unix:%s", sock);
	return uri;
}

static struct proxy_tls *
load_tls(const struct mig_options *o, int server, char **cause)
{
	const char	*dir = o->tls_dir != NULL ? o->tls_dir : DEFAULT_TLS_DIR;
	char		*why = NULL;
	struct proxy_tls *tls;

	tls = proxy_tls_load(dir, server, o->tls12, NULL, &why);
	if (tls == NULL) {
		xasprintf(cause, "--tls-dir %s: %s", dir, why);
		free(why);
	}
	return tls;
}

/*
 * Starts the source side: a private unix socket for QEMU (*qemu_uri, to
 * pass to migrate) forwarded over TLS to the target in o->uri.
 */
static struct mig_tls_source *
link_source_open(struct ev_loop *loop, const struct mig_options *o,
    const char *uid, char **qemu_uri, char **cause)
{
	struct mig_tls_source	*ts = xcalloc(1, sizeof *ts);
	char			*host = NULL, *port = NULL;

	ts->loop = loop;
	ts->questions = mig_tls_queue_new(send_question, ts);
	proxy_set_log(net_proxy_log, NULL);
	if (split_hostport(o->uri + 4, &host, &port) != 0) {
		xasprintf(cause, "--to %s: expected tls:HOST:PORT", o->uri);
		goto fail;
	}
	if ((ts->tls = load_tls(o, 0, cause)) == NULL)
		goto fail;
	if ((ts->dir = private_dir(cause)) == NULL)
		goto fail;
	xasprintf(&ts->sock, "%s/%.8s.sock", ts->dir, uid);
	ts->proxy = proxy_source_start(loop, ts->tls, ts->sock, host, port,
	    o->tls_name, cause);
	if (ts->proxy == NULL)
		goto fail;
	xasprintf(&ts->nbd_sock, "%s/%.8s.nbd.sock", ts->dir, uid);
	if (proxy_source_add_listener(ts->proxy, PROXY_CHAN_NBD, ts->nbd_sock,
	    cause) != 0)
		goto fail;
	xasprintf(qemu_uri, "unix:%s", ts->sock);
	free(host);
	free(port);
	return ts;
fail:
	free(host);
	free(port);
	link_source_close(ts);
	return NULL;
}

static void
on_answer(json_object *answer, const char *error, void *arg)
{
	struct mig_tls_source *ts = arg;

	mig_tls_queue_answered(ts->questions, answer, error);
}

/* The queue's next question onto the proxy's control connection. */
static int
send_question(void *arg, json_object *msg, double timeout, char **cause)
{
	struct mig_tls_source *ts = arg;

	return proxy_source_control(ts->proxy, msg, timeout, on_answer, ts,
	    cause);
}

/*
 * Asks the target (msg stolen); cb gets the answer, or an error when the
 * control connection ends or timeout seconds pass (0: no deadline: a
 * post-copy resume waits as long as the network is down).  Questions are
 * queued and sent in order (mig-tls-queue.c).  cb may run before this
 * returns.
 */
static void
link_source_ask(struct mig_tls_source *ts, json_object *msg,
    double timeout, mig_tls_offer_cb cb, void *arg)
{
	mig_tls_queue_ask(ts->questions, msg, timeout, cb, arg);
}

/*
 * Ends the source's proxy: an unanswered or queued question gets its
 * callback with "the control connection closed", then the proxy, its TLS
 * context and private directory go.  NULL is ok.
 */
static void
link_source_close(struct mig_tls_source *ts)
{
	if (ts == NULL)
		return;
	mig_tls_queue_free(ts->questions);
	proxy_source_free(ts->proxy);
	proxy_tls_free(ts->tls);
	remove_private(ts->dir, ts->sock, ts->nbd_sock);
	free(ts);
}

/*
 * Where the source QEMU's NBD clients connect (a malloc'd "unix:PATH"),
 * or NULL with *cause.
 */
static char *
link_source_nbd_uri(struct mig_tls_source *ts,
    const struct mig_options *o, char **cause)
{
	return nbd_uri(o, ts->nbd_sock, cause);
}

static void
on_control(struct proxy_target *pt, json_object *msg, const char *error,
    void *arg)
{
	struct mig_tls_target *tt = arg;

	tt->cb(msg, error, tt->arg);
}

/*
 * Starts the target side: TLS on the address of o->uri, forwarding to a
 * private unix socket (*qemu_uri, for migrate-incoming).  cb gets every
 * control message; answer each with mig_tls_target_answer().
 */
static struct mig_tls_target *
link_target_open(struct ev_loop *loop, const struct mig_options *o,
    mig_tls_offer_cb cb, void *arg, char **qemu_uri, char **cause)
{
	struct mig_tls_target	*tt = xcalloc(1, sizeof *tt);
	char			*host = NULL, *port = NULL;

	tt->loop = loop;
	tt->cb = cb;
	tt->arg = arg;
	proxy_set_log(net_proxy_log, NULL);
	if (split_hostport(o->uri + 4, &host, &port) != 0) {
		xasprintf(cause, "--listen %s: expected tls:ADDR:PORT", o->uri);
		goto fail;
	}
	if ((tt->tls = load_tls(o, 1, cause)) == NULL)
		goto fail;
	/* --tls-name pins the source: its certificate must name it. */
	proxy_tls_set_peer_name(tt->tls, o->tls_name);
	if ((tt->dir = private_dir(cause)) == NULL)
		goto fail;
	xasprintf(&tt->sock, "%s/incoming.sock", tt->dir);
	tt->proxy = proxy_target_start(loop, tt->tls, host, port, tt->sock,
	    on_control, tt, cause);
	if (tt->proxy == NULL)
		goto fail;
	xasprintf(&tt->nbd_sock, "%s/nbd.sock", tt->dir);
	proxy_target_set_path(tt->proxy, PROXY_CHAN_NBD, tt->nbd_sock);
	xasprintf(qemu_uri, "unix:%s", tt->sock);
	log_info("listening for the source on %s (TLS)", o->uri);
	free(host);
	free(port);
	return tt;
fail:
	free(host);
	free(port);
	link_target_close(tt);
	return NULL;
}

static int
link_target_answer(struct mig_tls_target *tt, json_object *answer,
    char **cause)
{
	return proxy_target_answer(tt->proxy, answer, cause);
}

/*
 * Ends the target's proxy, its TLS context and private directory.  NULL
 * is ok.
 */
static void
link_target_close(struct mig_tls_target *tt)
{
	if (tt == NULL)
		return;
	proxy_target_free(tt->proxy);
	proxy_tls_free(tt->tls);
	remove_private(tt->dir, tt->sock, tt->nbd_sock);
	free(tt);
}

/*
 * Where the target QEMU's NBD server listens (a malloc'd "unix:PATH"),
 * or NULL with *cause.
 */
static char *
link_target_nbd_uri(struct mig_tls_target *tt,
    const struct mig_options *o, char **cause)
{
	return nbd_uri(o, tt->nbd_sock, cause);
}

/* The control link through the proxy: the production world's. */
const struct mig_tls_link mig_tls_proxy = {
	.source_open = link_source_open,
	.source_ask = link_source_ask,
	.source_close = link_source_close,
	.source_nbd_uri = link_source_nbd_uri,
	.target_open = link_target_open,
	.target_answer = link_target_answer,
	.target_close = link_target_close,
	.target_nbd_uri = link_target_nbd_uri,
};

const struct mig_tls_link *mig_tls = &mig_tls_proxy;

void
mig_tls_set(const struct mig_tls_link *link)
{
	mig_tls = link;
}
