/*
 * mig-agree.h: the negotiation carried out on each side of a migration
 * (mig-agree.c), for the source and the target to call.
 */
#ifndef MIG_AGREE_H
#define MIG_AGREE_H

#include "qmigrate.h"
#include "mig-control.h"
#include "mig-negotiate.h"

struct mig_settings;
struct status;

/* No QMP: each side reads its QEMU with qemu_side_job first. */
void	 mig_agree_local(const struct mig_settings *, struct mig_plan *,
	    const struct qemu_side *, int source, int final, struct status *);
int	 mig_agree_target(const struct control_offer *, struct mig_plan *,
	    const struct qemu_side *, const char *machines,
	    struct json_object **why,
	    struct status *, char **cause);
int	 mig_agree_answer(struct json_object *answer,
	    const struct mig_settings *, const struct qemu_side *,
	    struct mig_plan *, struct status *, char **cause);

#endif
