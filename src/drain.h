/*
 * drain.h: `qmigrate drain`'s options and the node's evacuation it runs
 * (drain.c).
 */
#ifndef DRAIN_H
#define DRAIN_H

#include "qmigrate.h"
#include "policy.h"

/* drain.c: a node's evacuation, one evict child per VM. */
struct drain_options {
	const char	*inventory;
	int		 max_parallel;	/* 0: the cluster's (KubeVirt) */
	const char	*slot_dir;
	const char	*policy_path;
	const char	*node;
	struct vm_ident	 vm;		/* namespace labels for every VM */
};
int	 drain_run(const struct drain_options *);
int	 drain_check_inventory(const char *file, char **cause);

#endif
