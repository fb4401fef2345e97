/*
 * exporter-status.c: a collector's status-file source: the document a
 * qmigrate migrate or incoming keeps (--status-file), read each refresh:
 * the migration's phase and progress, each failed migration counted once
 * by its uid, and the disks' mirror rate between two readings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "observe.h"
#include "exporter-sources.h"

#define DISK_RATE_IDLE	5.0	/* s without mirror progress: rate 0 */

/*
 * Reads the status file of a qmigrate migrate/incoming, if any.  Each
 * failed migration counts once, by its uid; what the file already said
 * when the collector started is the baseline, not a new failure.
 */
void
collect_status_read(struct vm_collector *c)
{
	struct snap_migration	*m = &c->snap.doc_migration;
	json_object		*doc;
	char			*cause = NULL;
	double			 now = ev_now(c->loop);
	int			 k;

	if (c->spec->status == NULL)
		return;
	if ((doc = status_read_file(c->spec->status, &cause)) == NULL) {
		/* No migration yet is the usual case: not worth a warning. */
		log_debug("exporter: vm %s: %s", c->spec->name, cause);
		free(cause);
		memset(m, 0, sizeof *m);
		c->status_baselined = 1;
		return;
	}
	(void)decode_status_doc(doc, m);
	json_object_put(doc);
	if (m->failure_plane[0] != '\0' && m->uid[0] != '\0' &&
	    strcmp(m->uid, c->failed_uid) != 0) {
		snprintf(c->failed_uid, sizeof c->failed_uid, "%s", m->uid);
		k = failure_plane_index(m->failure_plane);
		if (c->status_baselined)
			c->failures[strcmp(m->role, "target") == 0][k]++;
	}
	phase_hist_update(&c->phases, m, c->status_baselined);
	c->status_baselined = 1;

	/* Disks: bytes mirrored per second, between two readings. */
	if (!m->disk_processed.have) {
		c->have_disk_rate = 0;
		c->disk_prev_t = 0;
		return;
	}
	if (c->disk_prev_t != 0 && m->disk_processed.v > c->disk_prev &&
	    now > c->disk_prev_t) {
		c->disk_rate = (double)(m->disk_processed.v - c->disk_prev) /
		    (now - c->disk_prev_t);
		c->have_disk_rate = 1;
	} else if (c->disk_prev_t != 0 && now - c->disk_prev_t >
	    DISK_RATE_IDLE)
		c->disk_rate = 0;
	if (c->disk_prev_t == 0 || m->disk_processed.v != c->disk_prev) {
		c->disk_prev = m->disk_processed.v;
		c->disk_prev_t = now;
	}
	m->disk_rate.have = c->have_disk_rate;
	m->disk_rate.v = c->disk_rate;
}

