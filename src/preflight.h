/*
 * preflight.h: can this guest move live (preflight.c), and is a disk's
 * file on storage the target sees too (preflight-storage.c).
 */
#ifndef PREFLIGHT_H
#define PREFLIGHT_H

#include "qmigrate.h"

/* preflight-storage.c: whether file is on storage the target sees too */
int	 preflight_disk_shared(const struct mig_settings *, const char *file,
	    char *why, size_t len);

/* preflight.c */
struct ev_loop;
int	 preflight_run(struct ev_loop *, struct qmp_conn *,
	    const struct mig_settings *, const int *stop,
	    struct json_object **conditions, char **summary);

/* preflight-cpr.c: can it be updated in place (cpr-transfer, cpr-exec) */
int	 preflight_cpr(struct ev_loop *, struct qmp_conn *,
	    const struct mig_settings *, int *mode_left,
	    struct json_object **condition, char **summary);
int	 preflight_cpr_exec(struct qmp_conn *, struct json_object *transfer,
	    int *mode_left, struct json_object **condition, char **summary);

#endif
