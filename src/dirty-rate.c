/*
 * dirty-rate.c: measuring how fast a guest dirties its memory with QEMU's
 * calc-dirty-rate, and what that means for pre-copy: converge or not, and
 * roughly how long it would take.  Shared by `qmigrate dirty-rate` and
 * anything else that wants a measurement before it migrates.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "dirty-rate.h"
#include "qmp.h"

/* How often query-dirty-rate is asked while QEMU measures. */
#define DIRTY_RATE_POLL_SECONDS	0.2
/* QEMU's margin past calc-time before we stop waiting. */
#define DIRTY_RATE_GRACE_SECONDS 5

int
dirty_rate_mode_ok(const char *mode)
{
	return strcmp(mode, "page-sampling") == 0 ||
	    strcmp(mode, "dirty-bitmap") == 0 ||
	    strcmp(mode, "dirty-ring") == 0;
}

/*
 * Returns 1 when QEMU runs with KVM enabled, 0 when not, -1 with *cause
 * when query-kvm fails.
 */
int
dirty_rate_kvm_enabled(struct qmp_conn *qmp, char **cause)
{
	json_object	*reply = NULL, *v;
	int		 on = 0;

	if (qmp_call(qmp, "query-kvm", NULL, &reply, 10, cause) != 0)
		return -1;
	if (json_object_object_get_ex(reply, "enabled", &v))
		on = json_object_get_boolean(v);
	json_object_put(reply);
	return on;
}

/*
 * Runs the loop for up to seconds without waiting on anything in
 * particular (replies and events are still served).  Returns -1 with
 * *cause when the connection ended meanwhile.
 */
static int
dirty_rate_pause(struct qmp_conn *qmp, double seconds, char **cause)
{
	int never = 0;

	(void)qmp_run_until(qmp, &never, seconds, NULL);
	if (qmp_is_closed(qmp)) {
		*cause = xstrdup(qmp_close_reason(qmp));
		return -1;
	}
	return 0;
}

/*
 * Starts calc-dirty-rate on qmp for seconds (1..60) with sample_pages
 * (128..16384, page-sampling only; 0 for QEMU's default 512) in mode
 * (NULL: page-sampling), then polls query-dirty-rate every 200 ms until it
 * says measured, giving up seconds + 5 s after the start.  On success
 * returns 0 with *mbps (MiB/s, QEMU's "MB/s") and, when QEMU gives one
 * (dirty-ring), *per_vcpu as a new array of {"id", "dirty-rate"} (NULL
 * otherwise; the caller puts it).  Refuses modes other than page-sampling
 * unless KVM is enabled: QEMU 7.2 crashes on them under TCG.  Returns -1
 * with *cause on failure.
 */
int
dirty_rate_measure(struct qmp_conn *qmp, int seconds, int sample_pages,
    const char *mode, double *mbps, struct json_object **per_vcpu,
    char **cause)
{
	json_object	*args, *reply = NULL, *v;
	const char	*status;
	double		 deadline;
	char		*c = NULL;
	int		 kvm;

	*per_vcpu = NULL;
	*mbps = 0;
	if (mode == NULL)
		mode = "page-sampling";
	if (!dirty_rate_mode_ok(mode)) {
		xasprintf(cause, "mode \"%s\": expected page-sampling, "
		    "dirty-bitmap or dirty-ring", mode);
		return -1;
	}
	if (seconds < 1 || seconds > 60) {
		xasprintf(cause, "calc-time %d: QEMU measures for 1 to 60 s",
		    seconds);
		return -1;
	}
	if (sample_pages != 0 && (sample_pages < 128 ||
	    sample_pages > 16384)) {
		xasprintf(cause, "sample-pages %d: QEMU takes 128 to 16384",
		    sample_pages);
		return -1;
	}
	if (sample_pages != 0 && strcmp(mode, "page-sampling") != 0) {
		xasprintf(cause, "sample-pages applies to page-sampling only, "
		    "not to %s", mode);
		return -1;
	}
	if (strcmp(mode, "page-sampling") != 0) {
		if ((kvm = dirty_rate_kvm_enabled(qmp, &c)) == -1) {
			xasprintf(cause, "%s", c);
			free(c);
			return -1;
		}
		if (!kvm) {
			xasprintf(cause, "mode %s needs KVM: QEMU 7.2 crashes "
			    "measuring it under TCG (use page-sampling)", mode);
			return -1;
		}
	}

	args = json_object_new_object();
	json_object_object_add(args, "calc-time",
	    json_object_new_int(seconds));
	if (sample_pages != 0)
		json_object_object_add(args, "sample-pages",
		    json_object_new_int(sample_pages));
	json_object_object_add(args, "mode", json_object_new_string(mode));
	if (qmp_call(qmp, "calc-dirty-rate", args, NULL, 10, cause) != 0)
		return -1;

	deadline = now_monotonic() + seconds + DIRTY_RATE_GRACE_SECONDS;
	for (;;) {
		if (qmp_call(qmp, "query-dirty-rate", NULL, &reply, 10,
		    cause) != 0)
			return -1;
		status = "";
		if (json_object_object_get_ex(reply, "status", &v))
			status = json_object_get_string(v);
		if (strcmp(status, "measured") == 0)
			break;
		json_object_put(reply);
		reply = NULL;
		if (now_monotonic() >= deadline) {
			xasprintf(cause, "query-dirty-rate: still %s %d s "
			    "after a %d s measurement", status,
			    DIRTY_RATE_GRACE_SECONDS, seconds);
			return -1;
		}
		if (dirty_rate_pause(qmp, DIRTY_RATE_POLL_SECONDS, cause) != 0)
			return -1;
	}
	if (!json_object_object_get_ex(reply, "dirty-rate", &v)) {
		json_object_put(reply);
		*cause = xstrdup("query-dirty-rate: measured, but no "
		    "dirty-rate in the answer");
		return -1;
	}
	*mbps = json_object_get_double(v);
	if (json_object_object_get_ex(reply, "vcpu-dirty-rate", &v) &&
	    json_object_is_type(v, json_type_array))
		*per_vcpu = json_object_get(v);
	json_object_put(reply);
	return 0;
}

/*
 * What pre-copy would do with a guest of memory bytes dirtying dirty
 * bytes/s over a link of bandwidth bytes/s, stopping the guest once what
 * is left fits in downtime_ms.  Each pass sends what the last one let the
 * guest dirty, so the passes form a geometric series of ratio
 * dirty/bandwidth.  Fills *e; bandwidth 0 means unlimited and judges
 * nothing.
 */
void
dirty_rate_estimate(uint64_t memory, double dirty, uint64_t bandwidth,
    uint64_t downtime_ms, struct dirty_estimate *e)
{
	double	r, left, pass, t;
	int	n;

	memset(e, 0, sizeof *e);
	e->ratio = bandwidth > 0 ? dirty / (double)bandwidth : 0;
	if (bandwidth == 0) {
		e->verdict = DIRTY_UNKNOWN;
		return;
	}
	if (e->ratio >= DIRTY_CONVERGE_RATIO) {
		e->verdict = DIRTY_DIVERGES;
		return;
	}
	e->verdict = DIRTY_CONVERGES;
	r = e->ratio;
	left = (double)bandwidth * (double)downtime_ms / 1000.0;
	pass = (double)memory;
	t = 0;
	for (n = 0; n < 1000 && pass > left; n++) {
		t += pass / (double)bandwidth;
		pass *= r;
	}
	e->passes = n + 1;	/* the last, with the guest stopped */
	e->seconds = t + pass / (double)bandwidth;
}
