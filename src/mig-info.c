/*
 * mig-info.c: QEMU's answers to query-migrate and query-status, decoded
 * once into typed structs.  The session, the exporter and `watch` read
 * QEMU's state through here, so a status string is compared in one place
 * and a member of the wrong type (a peer that lies) reads as absent instead
 * of crashing anyone.  Names follow qapi/migration.json and qapi/run-state.json
 * of QEMU 7.2, and the migration statuses added up to 11.1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-info.h"

/* QEMU's spellings, each with the QEMU that brought it (7.2 had the rest). */
static const char *qemu_mig_names[] = {
	[QMS_NONE] = "none",
	[QMS_SETUP] = "setup",
	[QMS_CANCELLING] = "cancelling",
	[QMS_CANCELLED] = "cancelled",
	[QMS_ACTIVE] = "active",
	[QMS_POSTCOPY_ACTIVE] = "postcopy-active",
	[QMS_POSTCOPY_PAUSED] = "postcopy-paused",
	[QMS_POSTCOPY_RECOVER] = "postcopy-recover",
	[QMS_POSTCOPY_DEVICE] = "postcopy-device",		/* 10.2 */
	[QMS_POSTCOPY_RECOVER_SETUP] = "postcopy-recover-setup", /* 9.1 */
	[QMS_COMPLETED] = "completed",
	[QMS_FAILED] = "failed",
	[QMS_FAILING] = "failing",				/* 11.0 */
	[QMS_COLO] = "colo",					/* 2.8 */
	[QMS_PRE_SWITCHOVER] = "pre-switchover",		/* 2.11 */
	[QMS_DEVICE] = "device",	/* 2.11; every migration from 10.0 */
	[QMS_WAIT_UNPLUG] = "wait-unplug",			/* 4.2 */
	[QMS_UNKNOWN] = "unknown",
};

static const char *run_state_names[] = {
	[RUN_UNKNOWN] = "unknown",
	[RUN_DEBUG] = "debug",
	[RUN_INMIGRATE] = "inmigrate",
	[RUN_INTERNAL_ERROR] = "internal-error",
	[RUN_IO_ERROR] = "io-error",
	[RUN_PAUSED] = "paused",
	[RUN_POSTMIGRATE] = "postmigrate",
	[RUN_PRELAUNCH] = "prelaunch",
	[RUN_FINISH_MIGRATE] = "finish-migrate",
	[RUN_RESTORE_VM] = "restore-vm",
	[RUN_RUNNING] = "running",
	[RUN_SAVE_VM] = "save-vm",
	[RUN_SHUTDOWN] = "shutdown",
	[RUN_SUSPENDED] = "suspended",
	[RUN_WATCHDOG] = "watchdog",
	[RUN_GUEST_PANICKED] = "guest-panicked",
	[RUN_COLO] = "colo",
};

const char *
qemu_mig_status_name(enum qemu_mig_status s)
{
	return (size_t)s < NITEMS(qemu_mig_names) ? qemu_mig_names[s] :
	    "unknown";
}

/* QEMU's spelling to the enum; anything else is QMS_UNKNOWN. */
enum qemu_mig_status
qemu_mig_status_parse(const char *name)
{
	size_t i;

	if (name == NULL)
		return QMS_NONE;
	for (i = 0; i < NITEMS(qemu_mig_names); i++)
		if (i != QMS_UNKNOWN && strcmp(name, qemu_mig_names[i]) == 0)
			return (enum qemu_mig_status)i;
	return QMS_UNKNOWN;
}

/*
 * A migration is under way (QEMU has a stream to cancel or to watch): every
 * state but none and the three final ones.  11.0's "failing" is under way:
 * QEMU still cleans up, and "failed" follows; keep polling.
 */
int
qemu_mig_status_in_progress(enum qemu_mig_status s)
{
	switch (s) {
	case QMS_NONE:
	case QMS_CANCELLED:
	case QMS_COMPLETED:
	case QMS_FAILED:
		return 0;
	default:
		return 1;
	}
}

/*
 * Post-copy began: the target holds the guest, whatever comes next.  9.1's
 * postcopy-recover-setup is the source preparing a recovery of a paused
 * post-copy: post-copy still.
 */
int
qemu_mig_status_postcopy(enum qemu_mig_status s)
{
	return s == QMS_POSTCOPY_ACTIVE || s == QMS_POSTCOPY_PAUSED ||
	    qemu_mig_status_recovering(s) || s == QMS_POSTCOPY_DEVICE;
}

/*
 * A paused post-copy is being recovered: 7.2's postcopy-recover, and 9.1's
 * postcopy-recover-setup before it (the source, until the channels are up).
 */
int
qemu_mig_status_recovering(enum qemu_mig_status s)
{
	return s == QMS_POSTCOPY_RECOVER || s == QMS_POSTCOPY_RECOVER_SETUP;
}

static enum run_state
run_state_parse(const char *name)
{
	size_t i;

	if (name == NULL)
		return RUN_UNKNOWN;
	for (i = 1; i < NITEMS(run_state_names); i++)
		if (strcmp(name, run_state_names[i]) == 0)
			return (enum run_state)i;
	return RUN_UNKNOWN;
}

/* A non-negative integer member, or 0 (absent, wrong type, negative). */
static uint64_t
u64_member(json_object *o, const char *key, int *present)
{
	json_object	*v = json_obj_at(o, key);
	int64_t		 n;

	if (present != NULL)
		*present = 0;
	if (v == NULL || !json_object_is_type(v, json_type_int))
		return 0;
	n = json_object_get_int64(v);
	if (n < 0)
		return 0;
	if (present != NULL)
		*present = 1;
	return (uint64_t)n;
}

static double
double_member(json_object *o, const char *key)
{
	json_object *v = json_obj_at(o, key);

	if (v == NULL || (!json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int)))
		return 0;
	return json_object_get_double(v);
}

/*
 * The section key of a query-migrate reply ("ram", "disk") and its total,
 * remaining and transferred bytes; NULL (the three untouched) when the
 * reply has no such object.
 */
static json_object *
transfer_at(json_object *reply, const char *key, uint64_t *total,
    uint64_t *remaining, uint64_t *transferred)
{
	json_object *o = json_obj_at(reply, key);

	if (o == NULL || !json_object_is_type(o, json_type_object))
		return NULL;
	*total = u64_member(o, "total", NULL);
	*remaining = u64_member(o, "remaining", NULL);
	*transferred = u64_member(o, "transferred", NULL);
	return o;
}

/*
 * Decodes a query-migrate reply.  Returns 0, or -1 when the reply is not an
 * object (out is then the state of no migration).  Unknown status strings
 * decode as QMS_UNKNOWN with QEMU's spelling kept in status_name.
 */
int
mig_info_decode(json_object *reply, struct mig_info *out)
{
	json_object	*ram;
	const char	*status, *desc;
	char		*esc;

	memset(out, 0, sizeof *out);
	snprintf(out->status_name, sizeof out->status_name, "none");
	if (reply == NULL || !json_object_is_type(reply, json_type_object))
		return -1;
	status = json_str_at(reply, "status");
	out->status = qemu_mig_status_parse(status);
	if (status != NULL)
		snprintf(out->status_name, sizeof out->status_name, "%s",
		    status);

	if ((ram = transfer_at(reply, "ram", &out->ram_total,
	    &out->ram_remaining, &out->ram_transferred)) != NULL) {
		out->has_ram = 1;
		out->dirty_sync_count = u64_member(ram, "dirty-sync-count",
		    NULL);
		out->dirty_pages_rate = u64_member(ram, "dirty-pages-rate",
		    NULL);
		out->page_size = u64_member(ram, "page-size", NULL);
		out->postcopy_requests = u64_member(ram, "postcopy-requests",
		    NULL);
		out->mbps = double_member(ram, "mbps");
	}
	if (out->page_size == 0)
		out->page_size = 4096;
	out->has_disk = transfer_at(reply, "disk", &out->disk_total,
	    &out->disk_remaining, &out->disk_transferred) != NULL;
	out->expected_downtime_ms = u64_member(reply, "expected-downtime",
	    NULL);
	out->downtime_ms = u64_member(reply, "downtime", &out->has_downtime);
	out->total_time_ms = u64_member(reply, "total-time",
	    &out->has_total_time);
	/*
	 * QEMU 7.2 announces "completed" before it computes the total time
	 * and the downtime (migration_calculate_complete runs after the
	 * state change): in between it reports both as 0.  No completed
	 * migration took 0 ms: they are not known yet.
	 */
	if (out->status == QMS_COMPLETED && out->total_time_ms == 0) {
		out->has_total_time = 0;
		out->has_downtime = 0;
	}
	/*
	 * The guest's pause is part of the migration: a downtime longer than
	 * the total time is no measurement.  QEMU 7.2 after a post-copy said
	 * 15690620 ms for a 7557 ms migration here (the demo): its clock's
	 * reading, the host's uptime, as if its pause began at 0.
	 */
	if (out->has_downtime && out->has_total_time &&
	    out->downtime_ms > out->total_time_ms)
		out->has_downtime = 0;
	out->setup_time_ms = u64_member(reply, "setup-time", NULL);
	out->throttle_pct = (int)u64_member(reply, "cpu-throttle-percentage",
	    NULL);
	if (out->throttle_pct > 100)
		out->throttle_pct = 100;
	/* Under dirty-limit QEMU says how long it holds the vCPUs back. */
	out->dirty_limit_throttle_us = u64_member(reply,
	    "dirty-limit-throttle-time-per-round", &out->has_dirty_limit);
	out->dirty_limit_ring_full_us = u64_member(reply,
	    "dirty-limit-ring-full-time", NULL);
	/* QEMU's words reach logs and the status: escaped. */
	if ((desc = json_str_at(reply, "error-desc")) != NULL) {
		esc = escape_bytes(desc, strlen(desc), sizeof out->error_desc);
		snprintf(out->error_desc, sizeof out->error_desc, "%s", esc);
		free(esc);
	}
	return 0;
}

/* Bytes per second QEMU dirties, from pages per second. */
double
mig_info_dirty_rate(const struct mig_info *mi)
{
	return (double)mi->dirty_pages_rate * (double)mi->page_size;
}

/* Bytes per second QEMU sends now (its instantaneous mbps). */
double
mig_info_bandwidth(const struct mig_info *mi)
{
	return mi->mbps * 1e6 / 8;
}

/*
 * Decodes a query-status reply.  Returns 0, or -1 when it is not an object
 * or names no state (out is then unknown and not running).
 */
int
run_info_decode(json_object *reply, struct run_info *out)
{
	json_object	*v;
	const char	*status;

	memset(out, 0, sizeof *out);
	snprintf(out->state_name, sizeof out->state_name, "unknown");
	if (reply == NULL || !json_object_is_type(reply, json_type_object))
		return -1;
	status = json_str_at(reply, "status");
	if (status == NULL)
		return -1;
	out->state = run_state_parse(status);
	snprintf(out->state_name, sizeof out->state_name, "%s", status);
	v = json_obj_at(reply, "running");
	out->running = v != NULL && json_object_is_type(v,
	    json_type_boolean) && json_object_get_boolean(v);
	return 0;
}
