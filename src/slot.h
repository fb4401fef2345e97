/*
 * slot.h: outbound migrations at once on a node, as flock'd slot files
 * (slot.c): what migrate waits for (phase Pending) under --max-parallel.
 */
#ifndef SLOT_H
#define SLOT_H

#include "qmigrate.h"

#define SLOT_DEFAULT_DIR	"/run/qmigrate"
#define SLOT_DEFAULT_MAX	2	/* parallelOutboundMigrationsPerNode */
#define SLOT_MAX		64
int	 slot_wait(struct ev_loop *, struct qmp_conn *, const char *dir,
	    int max, double timeout, const int *stop, struct status *);
void	 slot_release(void);

#endif
