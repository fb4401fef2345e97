/*
 * exporter-qmp.c: a collector's QMP source: a persistent connection to
 * QEMU's monitor (connected without blocking, reconnected with
 * exponential backoff) and a round per refresh that sends every query at
 * once, each bounded by the timeout, then asks the node (exporter-node.c)
 * about QEMU's process and publishes the round all at once.
 */
#include <sys/socket.h>

#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "qmp.h"
#include "observe.h"
#include "exporter-sources.h"

static void	collector_round_done(struct vm_collector *);

static const struct {
	const char	*cmd;
	int		 optional;	/* not every VM has it */
} cq_table[CQ_COUNT] = {
	{ "query-status", 0 },
	{ "query-migrate", 0 },
	{ "query-cpus-fast", 0 },
	{ "query-memory-size-summary", 0 },
	{ "query-balloon", 1 },		/* no balloon device */
	{ "query-blockstats", 0 },
	{ "human-monitor-command", 0 },	/* info network */
	{ "query-dirty-rate", 1 },	/* never measured */
	{ "query-rx-filter", 1 },	/* only when it may have changed */
};

/* QEMU's layer and the node's are only true while the monitor answers. */
static void
collector_forget_qemu(struct vm_collector *c)
{
	struct vm_snapshot *s = &c->snap;

	free(s->cpus);
	free(s->drives);
	free(s->nics);
	s->cpus = NULL;
	s->drives = NULL;
	s->nics = NULL;
	s->ncpus = s->ndrives = s->nnics = 0;
	s->have_cpus = s->have_drives = s->have_nics = 0;
	s->run_state[0] = '\0';
	memset(&s->memory, 0, sizeof s->memory);
	memset(&s->balloon, 0, sizeof s->balloon);
	memset(&s->dirty_rate, 0, sizeof s->dirty_rate);
	memset(&s->qemu_migration, 0, sizeof s->qemu_migration);
	s->pid = 0;
	memset(&s->cpu_user, 0, sizeof s->cpu_user);
	memset(&s->cpu_system, 0, sizeof s->cpu_system);
	memset(&s->rss, 0, sizeof s->rss);
}

/* The monitor is gone or useless: drop it and try again later. */
static void
collector_down(struct vm_collector *c, const char *why)
{
	if (c->error == NULL || strcmp(c->error, why) != 0)
		log_warnx("exporter: vm %s: %s (retrying in %.1f s)",
		    c->spec->name, why, c->backoff);
	free(c->error);
	c->error = xstrdup(why);
	if (c->qmp != NULL) {
		collector_bury(c, c->qmp);
		c->qmp = NULL;
	}
	c->state = C_DOWN;
	c->snap.qmp_up = 0;
	collector_forget_qemu(c);
	c->qmp_settled = 1;
	ev_timer_stop(c->loop, &c->reconnect);
	ev_timer_set(&c->reconnect, c->backoff, 0);
	ev_timer_start(c->loop, &c->reconnect);
	c->backoff *= 2;
	if (c->backoff > BACKOFF_MAX)
		c->backoff = BACKOFF_MAX;
	collector_check_settled(c);
}

void
collect_qmp_reconnect_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	collect_qmp_connect(container_of(t, struct vm_collector, reconnect));
}

static void
closed_cb(struct qmp_conn *conn, const char *reason, void *arg)
{
	struct vm_collector *c = arg;

	if (conn == c->qmp && !c->dying)
		collector_down(c, reason);
}

static void
rx_filter_changed_cb(struct qmp_conn *conn, const char *name,
    json_object *data, double timestamp, void *arg)
{
	struct vm_collector *c = arg;

	c->rx_dirty = 1;
}

static void
caps_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct vm_collector	*c = arg;
	char			*why;

	if (conn != c->qmp || c->dying)
		return;
	if (reply == NULL) {
		xasprintf(&why, "%s: qmp_capabilities: %s", c->spec->qmp,
		    error);
		collector_down(c, why);
		free(why);
		return;
	}
	if (c->error != NULL)
		log_info("exporter: vm %s: connected", c->spec->name);
	free(c->error);
	c->error = NULL;
	c->state = C_UP;
	c->snap.qmp_up = 1;
	c->backoff = BACKOFF_MIN;
	c->rx_dirty = 1;
	collect_qmp_round(c);
}

/*
 * Starts a connection to the monitor without blocking the loop.  QEMU's
 * pid comes from the socket itself (SO_PEERCRED, in our pid namespace).
 */
void
collect_qmp_connect(struct vm_collector *c)
{
	struct ucred	 cred;
	socklen_t	 len = sizeof cred;
	char		*cause = NULL;
	int		 fd;

	if (c->state != C_DOWN)
		return;
	if ((fd = unix_connect(c->spec->qmp, SOCK_NONBLOCK, &cause)) == -1) {
		collector_down(c, cause);
		free(cause);
		return;
	}
	c->snap.pid = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred,
	    &len) == 0 ? cred.pid : 0;
	c->qmp = qmp_attach_fd(c->loop, fd, QMP_PROTO_MONITOR, c->spec->qmp);
	qmp_set_close_cb(c->qmp, closed_cb, c);
	(void)qmp_subscribe(c->qmp, "NIC_RX_FILTER_CHANGED",
	    rx_filter_changed_cb, c);
	c->state = C_CONNECTING;
	c->qmp_settled = 0;
	/* The greeting is recorded whenever it comes; this bounds it. */
	if (qmp_send(c->qmp, "qmp_capabilities", NULL, c->timeout, caps_cb,
	    c, &cause) != 0) {
		collector_down(c, cause);
		free(cause);
	}
}

static void
query_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct query_arg	*a = arg;
	struct vm_collector	*c = a->c;
	struct vm_snapshot	*s = &c->round;
	int			 bad = 0;

	c->pending--;
	if (c->dying)
		return;
	free(c->qerr[a->q]);
	c->qerr[a->q] = reply == NULL ? xstrdup(error) : NULL;
	if (reply == NULL) {
		if (!cq_table[a->q].optional) {
			c->round_failed = 1;
			log_debug("exporter: vm %s: %s: %s", c->spec->name,
			    cq_table[a->q].cmd, error);
		}
	} else {
		switch (a->q) {
		case CQ_STATUS:
			bad = decode_run_state(reply, s->run_state,
			    sizeof s->run_state);
			break;
		case CQ_MIGRATE:
			bad = decode_query_migrate(reply, &s->qemu_migration);
			break;
		case CQ_CPUS:
			bad = decode_cpus(reply, s);
			break;
		case CQ_MEMORY:
			bad = decode_memory(reply, &s->memory);
			break;
		case CQ_BALLOON:
			(void)decode_balloon(reply, &s->balloon);
			break;
		case CQ_BLOCK:
			bad = decode_blockstats(reply, s);
			break;
		case CQ_NETWORK:
			bad = decode_info_network(json_object_is_type(reply,
			    json_type_string) ? json_object_get_string(reply) :
			    NULL, s);
			break;
		case CQ_DIRTY:
			(void)decode_dirty_rate(reply, &s->dirty_rate);
			break;
		case CQ_RX_FILTER:
			json_object_put(c->rx_filter);
			c->rx_filter = json_object_get(reply);
			break;
		}
		if (bad) {
			c->round_failed = 1;
			log_debug("exporter: vm %s: %s: unexpected answer",
			    c->spec->name, cq_table[a->q].cmd);
		} else
			c->round_ok[a->q] = 1;
	}
	if (c->pending > 0)
		return;
	collector_round_done(c);
}

/*
 * The round is in: apply the MACs, ask the node, and publish what was
 * answered all at once, so that a reader never sees a vCPU without its
 * time or a NIC without its counters.  A part QEMU did not answer keeps
 * its last values (the VM is stale then); an optional one is gone.
 */
static void
collector_round_done(struct vm_collector *c)
{
	struct vm_snapshot	*r = &c->round, *s = &c->snap;

	r->pid = s->pid;
	if (c->rx_filter != NULL)
		(void)decode_rx_filter(c->rx_filter, r);
	collect_node_read(c, r);
	s->cpu_user = r->cpu_user;
	s->cpu_system = r->cpu_system;
	s->rss = r->rss;
	if (c->round_ok[CQ_STATUS])
		memcpy(s->run_state, r->run_state, sizeof s->run_state);
	if (c->round_ok[CQ_MIGRATE])
		s->qemu_migration = r->qemu_migration;
	if (c->round_ok[CQ_MEMORY])
		s->memory = r->memory;
	s->balloon = r->balloon;
	s->dirty_rate = r->dirty_rate;
	if (c->round_ok[CQ_CPUS])
		SNAP_TAKE_LIST(s, r, cpus);
	if (c->round_ok[CQ_BLOCK])
		SNAP_TAKE_LIST(s, r, drives);
	if (c->round_ok[CQ_NETWORK])
		SNAP_TAKE_LIST(s, r, nics);
	snap_free(r);
	if (!c->round_failed)
		c->last_ok = ev_now(c->loop);
	c->qmp_settled = 1;
	collector_check_settled(c);
}

/* Every query at once, unless the last round is still out. */
void
collect_qmp_round(struct vm_collector *c)
{
	json_object	*args;
	char		*cause = NULL;
	int		 q;

	if (c->state != C_UP || c->pending > 0)
		return;
	c->round_failed = 0;
	snap_free(&c->round);
	memset(c->round_ok, 0, sizeof c->round_ok);
	for (q = 0; q < CQ_COUNT; q++) {
		args = NULL;
		if (q == CQ_RX_FILTER) {
			if (!c->rx_dirty)
				continue;
			c->rx_dirty = 0;
		}
		if (q == CQ_NETWORK) {
			args = json_object_new_object();
			json_object_object_add(args, "command-line",
			    json_object_new_string("info network"));
		}
		c->qargs[q].c = c;
		c->qargs[q].q = q;
		if (qmp_send(c->qmp, cq_table[q].cmd, args, c->timeout,
		    query_cb, &c->qargs[q], &cause) != 0) {
			c->round_failed = 1;
			log_debug("exporter: vm %s: %s", c->spec->name, cause);
			free(cause);
			cause = NULL;
			continue;
		}
		c->pending++;
	}
	if (c->pending == 0)
		collector_round_done(c);
}


int
collect_qmp_error(const struct vm_collector *c, const char *command,
    const char **error)
{
	int q;

	for (q = 0; q < CQ_COUNT; q++)
		if (strcmp(cq_table[q].cmd, command) == 0) {
			*error = c->qerr[q];
			return 1;
		}
	return 0;
}
