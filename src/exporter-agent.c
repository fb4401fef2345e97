/*
 * exporter-agent.c: a collector's guest-agent source: a round on a short
 * connection of its own (qemu-ga serves one client at a time, so the
 * collector never keeps it): guest-sync with a fresh id, then every query
 * at once, bounded by what is left of the timeout.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "qmp.h"
#include "observe.h"
#include "exporter-sources.h"

static const char *aq_cmd[AQ_COUNT] = {
	"guest-get-osinfo", "guest-get-host-name",
	"guest-get-memory-block-info", "guest-get-memory-blocks",
	"guest-get-fsinfo", "guest-network-get-interfaces",
};

static void
agent_done(struct vm_collector *c)
{
	if (c->qga != NULL) {
		collector_bury(c, c->qga);
		c->qga = NULL;
	}
	c->agent_settled = 1;
	collector_check_settled(c);
}

static void
agent_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct query_arg	*a = arg;
	struct vm_collector	*c = a->c;
	struct vm_snapshot	*s = &c->snap;
	uint64_t		 size;

	c->agent_pending--;
	if (c->dying)
		return;
	free(c->aerr[a->q]);
	c->aerr[a->q] = reply == NULL ? xstrdup(error) : NULL;
	/*
	 * A part that did not answer this time keeps its last value: the
	 * agent answered guest-sync, so it is up, only slow.
	 */
	if (reply == NULL) {
		log_debug("exporter: vm %s: %s: %s", c->spec->name,
		    aq_cmd[a->q], error);
		if (a->q == AQ_BLOCK_INFO)
			c->block_size = 0;
	} else switch (a->q) {
	case AQ_OSINFO:
		s->have_os = decode_osinfo(reply, &s->os) == 0;
		break;
	case AQ_HOSTNAME:
		s->hostname[0] = '\0';
		if (json_str_at(reply, "host-name") != NULL)
			snprintf(s->hostname, sizeof s->hostname, "%s",
			    json_str_at(reply, "host-name"));
		break;
	case AQ_BLOCK_INFO:
		c->block_size = 0;
		if ((size = json_u64_at(reply, "size")) > 0 &&
		    size < ((uint64_t)1 << 40))
			c->block_size = size;
		break;
	case AQ_BLOCKS:
		if (c->block_size > 0)
			(void)decode_memory_blocks(reply, c->block_size,
			    &s->guest_memory);
		break;
	case AQ_FSINFO:
		if (decode_fsinfo(reply, s) != 0)
			s->have_fs = 0;
		break;
	case AQ_IFS:
		if (decode_guest_ifs(reply, s) != 0)
			s->have_guest_ifs = 0;
		break;
	}
	if (c->agent_pending == 0)
		agent_done(c);
}

/* The agent answered guest-sync with our id: ask it everything else. */
static void
sync_cb(struct qmp_conn *conn, json_object *reply, const char *error_class,
    const char *error, void *arg)
{
	struct vm_collector	*c = arg;
	char			*cause = NULL;
	double			 left;
	int			 q;

	c->agent_pending--;
	if (c->dying)
		return;
	c->snap.agent_up = reply != NULL && json_object_is_type(reply,
	    json_type_int) && json_object_get_int64(reply) == c->sync_id;
	free(c->agent_error);
	c->agent_error = NULL;
	if (!c->snap.agent_up) {
		xasprintf(&c->agent_error, "%s: guest-sync: %s", c->spec->qga,
		    error != NULL ? error : "wrong guest-sync answer");
		log_debug("exporter: vm %s: %s", c->spec->name,
		    c->agent_error);
		c->snap.have_os = c->snap.have_fs = 0;
		c->snap.have_guest_ifs = c->snap.guest_memory.have = 0;
		agent_done(c);
		return;
	}
	left = c->agent_deadline - ev_now(c->loop);
	if (left < 0.001)
		left = 0.001;
	for (q = 0; q < AQ_COUNT; q++) {
		c->aargs[q].c = c;
		c->aargs[q].q = q;
		if (qmp_send(c->qga, aq_cmd[q], NULL, left, agent_cb,
		    &c->aargs[q], &cause) != 0) {
			free(cause);
			cause = NULL;
			continue;
		}
		c->agent_pending++;
	}
	if (c->agent_pending == 0)
		agent_done(c);
}

/* Starts an agent round: guest-sync with a fresh id on a new connection. */
void
collect_agent_round(struct vm_collector *c)
{
	struct vm_snapshot	*s = &c->snap;
	json_object		*args;
	struct stat		 sb;
	char			*cause = NULL;
	int			 fd;

	if (c->qga != NULL)
		return;		/* the last round is still out */
	s->agent_configured = c->spec->qga != NULL &&
	    (!c->spec->optional || stat(c->spec->qga, &sb) == 0);
	if (!s->agent_configured) {
		s->agent_up = 0;
		c->agent_settled = 1;
		return;
	}
	c->agent_settled = 0;
	if ((fd = unix_connect(c->spec->qga, SOCK_NONBLOCK, &cause)) == -1) {
		log_debug("exporter: vm %s: %s", c->spec->name, cause);
		free(c->agent_error);
		c->agent_error = cause;
		s->agent_up = 0;
		c->agent_settled = 1;
		return;
	}
	c->qga = qmp_attach_fd(c->loop, fd, QMP_PROTO_AGENT, c->spec->qga);
	c->sync_id = (int64_t)(random() & 0x7fffffff);
	c->agent_deadline = ev_now(c->loop) + c->timeout;
	args = json_object_new_object();
	json_object_object_add(args, "id", json_object_new_int64(c->sync_id));
	if (qmp_send(c->qga, "guest-sync", args, c->timeout, sync_cb, c,
	    &cause) != 0) {
		free(c->agent_error);
		c->agent_error = cause;
		s->agent_up = 0;
		agent_done(c);
		return;
	}
	c->agent_pending = 1;
}


int
collect_agent_error(const struct vm_collector *c, const char *command,
    const char **error)
{
	int q;

	for (q = 0; q < AQ_COUNT; q++)
		if (strcmp(aq_cmd[q], command) == 0) {
			*error = c->aerr[q];
			return 1;
		}
	return 0;
}
