/*
 * exporter-collect.c: one VM's collector, on the caller's libev loop,
 * over four data sources, each a file (exporter-sources.h): QEMU's
 * monitor (exporter-qmp.c), the guest agent (exporter-agent.c), the
 * node's /proc and /sys (exporter-node.c) and the status file of
 * qmigrate's migration (exporter-status.c).  Everything lands in one
 * struct vm_snapshot that renderers read at any time: a reader never
 * waits for QEMU.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qmigrate.h"
#include "qmp.h"
#include "observe.h"
#include "exporter-sources.h"

int
collector_settled(const struct vm_collector *c)
{
	return collector_both_settled(c);
}

static void
reap_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct vm_collector *c = container_of(t, struct vm_collector, reap);

	qmp_close(c->dead[0]);
	qmp_close(c->dead[1]);
	c->dead[0] = c->dead[1] = NULL;
}

/*
 * Starts collecting one VM on loop: the status file read now, the guest
 * agent and QMP rounds begun; cb (NULL: none) runs with arg each time
 * both rounds have settled.  spec is borrowed and must outlive the
 * collector, which collector_free() ends.
 */
struct vm_collector *
collector_new(struct ev_loop *loop, const struct exporter_vm_spec *spec,
    double timeout, collector_settled_cb cb, void *arg)
{
	struct vm_collector	*c = xcalloc(1, sizeof *c);
	long			 hz = sysconf(_SC_CLK_TCK);

	c->loop = loop;
	c->spec = spec;
	c->timeout = timeout;
	c->settled_cb = cb;
	c->settled_arg = arg;
	c->ticks = hz > 0 ? (double)hz : 100;
	c->backoff = BACKOFF_MIN;
	ev_timer_init(&c->reconnect, collect_qmp_reconnect_cb, 0, 0);
	ev_timer_init(&c->reap, reap_cb, 0, 0);
	collect_status_read(c);
	collect_agent_round(c);
	collect_qmp_connect(c);
	return c;
}

/* One refresh of every layer; a layer whose last round is out waits. */
void
collector_refresh(struct vm_collector *c)
{
	collect_status_read(c);
	collect_agent_round(c);
	collect_qmp_round(c);
}

void
collector_free(struct vm_collector *c)
{
	struct qmp_conn	*conn;
	int		 q;

	if (c == NULL)
		return;
	c->dying = 1;
	ev_timer_stop(c->loop, &c->reconnect);
	ev_timer_stop(c->loop, &c->reap);
	qmp_close(c->dead[0]);
	qmp_close(c->dead[1]);
	qmp_close(c->qga);
	/* Pending callbacks run now and must find nothing to do. */
	if ((conn = c->qmp) != NULL) {
		c->qmp = NULL;
		qmp_close(conn);
	}
	json_object_put(c->rx_filter);
	snap_free(&c->snap);
	snap_free(&c->round);
	for (q = 0; q < CQ_COUNT; q++)
		free(c->qerr[q]);
	for (q = 0; q < AQ_COUNT; q++)
		free(c->aerr[q]);
	free(c->agent_error);
	free(c->error);
	free(c);
}

/* Stale: no complete QMP round in the last period. */
int
collector_stale(const struct vm_collector *c, double interval)
{
	return c->last_ok == 0 ||
	    ev_now(c->loop) - c->last_ok > interval + c->timeout;
}

const struct vm_snapshot *
collector_snapshot(const struct vm_collector *c)
{
	return &c->snap;
}

void
collector_failures(const struct vm_collector *c,
    uint64_t out[FAILURE_ROLES][FAILURE_PLANES])
{
	memcpy(out, c->failures, sizeof c->failures);
}

const struct phase_hist *
collector_phase_hist(const struct vm_collector *c)
{
	return &c->phases;
}

/* Why QEMU's monitor is down, or NULL. */
const char *
collector_error(const struct vm_collector *c)
{
	return c->error;
}

/* Why the agent is down, or NULL. */
const char *
collector_agent_error(const struct vm_collector *c)
{
	return c->agent_error;
}

/* What QEMU or the agent answered command in the last round, or NULL. */
const char *
collector_part_error(const struct vm_collector *c, const char *command)
{
	const char *error = NULL;

	if (!collect_qmp_error(c, command, &error))
		(void)collect_agent_error(c, command, &error);
	return error;
}
