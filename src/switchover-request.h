/*
 * switchover-request.h: the small file `qmigrate switchover` leaves beside
 * a status file for the migrate that writes it, which reads it on SIGUSR2
 * (switchover-request.c says why a file and a signal).
 */
#ifndef SWITCHOVER_REQUEST_H
#define SWITCHOVER_REQUEST_H

#include <stddef.h>

#include "mig-session.h"

#define SWITCHOVER_ID_MAX	64	/* requestId, its NUL included */

/* The request file's path for status file status_file (malloc'd). */
char	*switchover_request_path(const char *status_file);
/*
 * Publishes request id for status_file, asked by this process: 0; 1 when
 * another request is pending there (its id in pending, its file left
 * untouched: its asker waits for the answer); -1 with *cause.  A pending
 * request whose asker is gone is replaced.
 */
int	 switchover_request_publish(const char *status_file, const char *id,
	    enum sess_finish finish, char pending[SWITCHOVER_ID_MAX],
	    char **cause);
/*
 * Removes request id if it is still pending (the migrate did not take
 * it): 1 removed, 0 when it is not there (taken) or another's.
 */
int	 switchover_request_withdraw(const char *status_file, const char *id);
/*
 * Takes the request left for status_file: 1 with id and *finish (the
 * file removed), 0 when there is none, -1 with *cause when it cannot be
 * read or is not a request (removed too: the asker times out).
 */
int	 switchover_request_take(const char *status_file,
	    char id[SWITCHOVER_ID_MAX], enum sess_finish *finish,
	    char **cause);
/* "auto", "postcopy", "pause". */
const char *switchover_finish_name(enum sess_finish);

#endif
