/*
 * ctl-kubevirt.c: KubeVirt's classic migration monitor, reproduced so that
 * operators who come from it get the same behaviour, and as the baseline
 * the adaptive controller is measured against.
 *
 * Order of checks on every poll (virt-launcher's live-migration-source):
 * in post-copy, nothing (never aborted); past the acceptable completion
 * time with workload disruption allowed and not yet paused: post-copy when
 * allowed, else pause the guest and double the acceptable time; no progress
 * for progressTimeout: abort; past the acceptable time: abort.
 */
#include <stdio.h>

#include "qmigrate.h"

void
ctl_kubevirt_step(struct ctl *ctl, const struct ctl_sample *s,
    struct ctl_decision *d)
{
	double stuck = s->t - ctl->last_progress;

	if (ctl->postcopy)
		return;

	if (ctl->cfg.allow_workload_disruption && ctl->acceptable > 0 &&
	    s->t > ctl->acceptable && !ctl->paused) {
		if (ctl->cfg.allow_post_copy) {
			ctl->postcopy = 1;
			d->action = CTL_POST_COPY;
			snprintf(d->reason, sizeof d->reason,
			    "elapsed %.0f s exceeds the acceptable completion "
			    "time %.0f s: switching to post-copy",
			    s->t, ctl->acceptable);
		} else {
			ctl->paused = 1;
			d->action = CTL_PAUSE;
			snprintf(d->reason, sizeof d->reason,
			    "elapsed %.0f s exceeds the acceptable completion "
			    "time %.0f s: pausing the guest, acceptable time "
			    "doubled", s->t, ctl->acceptable);
			ctl->acceptable *= 2;
		}
		return;
	}

	if (ctl->cfg.progress_timeout != 0 &&
	    stuck > (double)ctl->cfg.progress_timeout) {
		d->action = CTL_ABORT;
		snprintf(d->reason, sizeof d->reason,
		    "no progress for %.0f s (progressTimeout %llu s): "
		    "remaining data has not dropped below %llu bytes",
		    stuck, (unsigned long long)ctl->cfg.progress_timeout,
		    (unsigned long long)ctl->min_remaining);
		return;
	}

	if (ctl->acceptable > 0 && s->t > ctl->acceptable) {
		d->action = CTL_ABORT;
		snprintf(d->reason, sizeof d->reason,
		    "elapsed %.0f s exceeds the acceptable completion time "
		    "%.0f s and workload disruption is not allowed",
		    s->t, ctl->acceptable);
	}
}
