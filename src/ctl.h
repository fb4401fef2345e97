/*
 * ctl.h: the convergence controllers (ctl.c, ctl-kubevirt.c,
 * ctl-adaptive.c): samples in, decisions out.
 */
#ifndef CTL_H
#define CTL_H

#include "qmigrate.h"

/*
 * Controllers (ctl-*.c) are pure: they see samples and answer decisions,
 * doing no I/O, so both are unit-tested on synthetic traces.
 */
struct ctl_sample {
	double		t;		/* seconds since migrate was sent */
	int		postcopy;	/* QEMU is in postcopy-active */
	uint64_t	pass;		/* dirty-sync-count */
	uint64_t	total;		/* bytes of guest RAM */
	uint64_t	remaining;	/* bytes left in this pass */
	uint64_t	transferred;	/* bytes sent so far */
	double		dirty_rate;	/* bytes/s the guest dirties */
	double		bandwidth;	/* bytes/s actually sent */
	uint64_t	expected_downtime_ms;
	int		throttle_pct;
};

enum ctl_action {
	CTL_NONE,
	CTL_SET_DOWNTIME,	/* value: downtime-limit in ms */
	CTL_AUTO_CONVERGE,	/* value: the throttle to start at, percent */
	CTL_DIRTY_LIMIT,	/* value: vcpu-dirty-limit, MB/s per vCPU */
	CTL_POST_COPY,
	CTL_PAUSE,
	CTL_ABORT,
};

struct ctl_decision {
	enum ctl_action	action;
	uint64_t	value;
	char		reason[320];
};

/*
 * KubeVirt's newest monitor, asked for by spec.experimental of a policy or
 * the KubeVirt CR (the kubevirt controller only): the stall detector
 * replaces the classic timeouts; downtime tuning raises the downtime limit
 * step by step under them.  ctl_config_experimental() fills them from the
 * settings (KubeVirt's defaults for the fields not given).
 */
struct ctl_stall {
	int		enabled;
	uint64_t	margin_pct;		/* stallMargin: 4 */
	double		ewma_alpha;		/* ewmaAlpha: 0.4 */
	uint64_t	window_s;		/* stallProgressTimeout: 40 */
	uint64_t	switchover_timeout_s;	/* switchoverTimeout: 60 */
	double		precopy_factor;		/* precopyPossibleFactor: 1.5 */
	double		patience_decay;		/* patienceWindowDecayFactor:
						   0.5 */
	int		search_local_minima;	/* true */
	double		completion_factor;	/* completionTimeoutFactor: 2 */
};

struct ctl_tuning {
	int		enabled;
	uint64_t	initial_ms;		/* initialMs: 150 */
	uint64_t	steps;			/* 7 */
	uint64_t	start_after_iteration;	/* 3 */
	uint64_t	cooldown_s;		/* cooldownSeconds: 10 */
};

/* QEMU's largest downtime-limit: KubeVirt's "hard stop-and-copy". */
#define CTL_QEMU_MAX_DOWNTIME_MS	2000000

/* What a controller may do, fixed when the migration starts. */
struct ctl_config {
	uint64_t	guest_bytes;		/* RAM (+ disks) to move */
	uint64_t	completion_timeout_per_gib;
	uint64_t	progress_timeout;
	uint64_t	max_downtime_ms;	/* 0: QEMU's default only */
	uint64_t	initial_downtime_ms;
	int		allow_auto_converge;	/* to throttle at all */
	int		dirty_limit;	/* ... with dirty-limit, not
					   auto-converge (mig_throttle_choose) */
	int		vcpus;		/* the guest's (0: not known) */
	int		allow_post_copy;	/* and postcopy-ram is set */
	int		allow_workload_disruption;
	double		measured_dirty_rate;	/* bytes/s, calc-dirty-rate
						   before migrate; 0: none */
	struct ctl_stall stall;			/* kubevirt: experimental */
	struct ctl_tuning tuning;		/* kubevirt: experimental */
};

/* One pass as KubeVirt's stall detector records it (its iterationRecord). */
struct ctl_record {
	double		t_ms;		/* elapsed at the pass's start */
	uint64_t	remaining;
	uint64_t	pass;
	int		set;
};

#define CTL_STALL_CANDIDATES	128	/* minima within the window */
#define CTL_STALL_HISTORY	512	/* the smallest remaining bytes seen */

struct ctl {
	enum ctl_kind		kind;
	struct ctl_config	cfg;
	double			acceptable;	/* seconds, 0 = never */
	double			last_progress;	/* t of the last new minimum */
	uint64_t		min_remaining;
	int			have_min;
	int			paused;
	int			postcopy;
	int			throttling;
	uint64_t		downtime_ms;
	/* adaptive */
	uint64_t		last_pass;
	int			stalled_passes;	/* passes judged divergent */
	int			throttle_full_passes; /* ... at 99% throttle */
	int			throttle_downtime_raised; /* to the maximum */
	uint64_t		dirty_limit_mbps; /* the last one set */
	uint64_t		pass_min_remaining; /* low point of this pass */
	uint64_t		prev_pass_min;	    /* low point of the last */
	double			pass_start_t;	/* when this pass began */
	uint64_t		pass_start_bytes; /* transferred by then */
	double			pass_bandwidth;	/* bytes/s over the last pass */
	int			want_postcopy;
	double			last_action_t;
	int			judged;		/* a pass was judged */
	int			early_judged;	/* ... or the bulk pass */
	/* kubevirt: KubeVirt's progress clock (the previous sample's) */
	uint64_t		kv_prev_remaining;
	int			kv_have_prev;
	double			kv_last_progress;
	uint64_t		kv_last_pass;
	int			kv_started;
	/* kubevirt: downtime tuning */
	int			tuning_started;
	double			tuned_t;
	/* kubevirt: the stall detector */
	double			switchover_deadline;	/* seconds */
	double			ewma_bw;
	int			stall_detected;
	int			switchover_initiated;
	struct ctl_record	rec;		/* the last pass */
	struct ctl_record	min_outside;	/* smallest out of the window */
	struct ctl_record	cand[CTL_STALL_CANDIDATES];
	size_t			ncand;
	uint64_t		hist[CTL_STALL_HISTORY];	/* ascending */
	size_t			nhist;
	uint64_t		best_remaining;
	double			relax_deadline_ms;
	double			relax_patience_ms;
};

/* ctl.c */
const char	*ctl_kind_name(enum ctl_kind);
const char	*ctl_action_name(enum ctl_action);
void		 ctl_init(struct ctl *, enum ctl_kind, const struct ctl_config *);
void		 ctl_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);
double		 ctl_acceptable_seconds(const struct ctl_config *);
int		 ctl_wants_dirty_rate(enum ctl_kind, const struct ctl_config *,
		    uint64_t);
void		 ctl_config_experimental(struct ctl_config *, enum ctl_kind,
		    const struct mig_settings *);
struct json_object *ctl_config_to_json(enum ctl_kind,
		    const struct ctl_config *);
void		 ctl_config_from_json(struct json_object *, enum ctl_kind *,
		    struct ctl_config *);

/* ctl-kubevirt.c */
void		 ctl_kubevirt_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);

/* ctl-adaptive.c */
void		 ctl_adaptive_step(struct ctl *, const struct ctl_sample *,
		    struct ctl_decision *);

#endif
