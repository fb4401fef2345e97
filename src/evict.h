/*
 * evict.h: `qmigrate evict`'s options and the eviction it runs (evict.c).
 */
#ifndef EVICT_H
#define EVICT_H

#include "qmigrate.h"
#include "policy.h"

/* evict.c: one VM's eviction by its policy's strategy. */
struct evict_options {
	const char	*qmp_path;
	const char	*qga_path;	/* NULL: system_powerdown only */
	const char	*uri;
	const char	*policy_path;	/* NULL: POLICY_DEFAULT_DIR if any */
	struct vm_ident	 vm;		/* what selects the policy */
	struct kube_vmim vmim;		/* --vmim, or none (file NULL) */
	const char	*status_file;
	int		 events;
	const char	*node;		/* this node: NULL = node_name() */
	const char	*pod;		/* this pod, or NULL: $POD_NAME */
	double		 timeout;	/* migration deadline, 0 = policy's */
	const char	*slot_dir;
	int		 max_parallel;
};
int	 evict_run(const struct evict_options *);

#endif
