/*
 * dirty-rate.h: calc-dirty-rate and what it means for pre-copy
 * (dirty-rate.c).
 */
#ifndef DIRTY_RATE_H
#define DIRTY_RATE_H

#include "qmigrate.h"

/* dirty-rate.c: calc-dirty-rate and what it means for pre-copy. */
#define DIRTY_CONVERGE_RATIO	0.8	/* dirty/bandwidth that still converges */
enum dirty_verdict { DIRTY_UNKNOWN, DIRTY_CONVERGES, DIRTY_DIVERGES };
struct dirty_estimate {
	enum dirty_verdict	verdict;
	double			ratio;		/* dirty / bandwidth */
	int			passes;		/* including the stopped one */
	double			seconds;	/* to completion */
};
int	 dirty_rate_mode_ok(const char *mode);
int	 dirty_rate_kvm_enabled(struct qmp_conn *, char **cause);
int	 dirty_rate_measure(struct qmp_conn *, int seconds, int sample_pages,
	    const char *mode, double *mbps, struct json_object **per_vcpu,
	    char **cause);
void	 dirty_rate_estimate(uint64_t memory, double dirty,
	    uint64_t bandwidth, uint64_t downtime_ms, struct dirty_estimate *);

#endif
