/*
 * slot.c: a node-wide limit on outbound migrations (KubeVirt's
 * parallelOutboundMigrationsPerNode) shared by separate processes.  A slot
 * is a file DIR/slot-I, I < max, held with flock(LOCK_EX) by the process
 * migrating for as long as it lives: the kernel releases it when that
 * process exits, however it exits, so a crash never leaks a slot.  A
 * waiting process only takes a free slot and never preempts a running
 * migration.  A process holds at most one slot.
 */
#include <sys/file.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>

#include "qmigrate.h"
#include "slot.h"
#include "qmp.h"
#include "world.h"

#define SLOT_RETRY_SECONDS	0.2
#define SLOT_DEFAULT_WAIT	3600.0	/* without --timeout */

static int	slot_fd = -1;

struct slot_wait {
	ev_timer	 retry;
	const int	*stop;		/* the caller's: give up waiting */
	const char	*dir;
	int		 max;
	int		 index;		/* the slot taken, or -1 */
	int		 done;
	char		*error;		/* a slot file cannot be opened */
};

/* Tries every slot once.  Returns the index taken, or -1. */
static int
slot_try(struct slot_wait *sw)
{
	char	 path[4096], pid[32];
	int	 i, fd;

	for (i = 0; i < sw->max; i++) {
		snprintf(path, sizeof path, "%s/slot-%d", sw->dir, i);
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		    0644);
		if (fd == -1) {
			xasprintf(&sw->error, "slot file %s: %s", path,
			    strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			/* For an operator looking: who holds it. */
			if (ftruncate(fd, 0) == 0) {
				snprintf(pid, sizeof pid, "%ld\n",
				    (long)getpid());
				if (write(fd, pid, strlen(pid)) < 0)
					log_debug("slot file %s: %s", path,
					    strerror(errno));
			}
			slot_fd = fd;
			return i;
		}
		close(fd);
	}
	return -1;
}

static void
on_retry(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct slot_wait *sw = (struct slot_wait *)t;

	if (*sw->stop) {
		sw->done = 1;
		return;
	}
	sw->index = slot_try(sw);
	if (sw->index >= 0 || sw->error != NULL)
		sw->done = 1;
}

/*
 * Waits (phase Pending) until one of max slots in dir is free, running
 * loop so qmp, signals and the deadline are still watched, for timeout
 * seconds (0: an hour), or until *stop becomes non-zero (the session ended
 * meanwhile: -1, st already says why).  Returns 0 holding the slot until
 * slot_release() or exit, or -1 with the failure recorded in st: no slot in
 * time (control plane), QEMU gone, or a slot directory that cannot be used.
 */
int
slot_wait(struct ev_loop *loop, struct qmp_conn *qmp, const char *dir,
    int max, double timeout, const int *stop, struct status *st)
{
	struct slot_wait	 sw;
	char			*cause = NULL;
	int			 rc;

	if (slot_fd != -1)
		return 0;
	memset(&sw, 0, sizeof sw);
	sw.dir = dir;
	sw.max = max;
	sw.stop = stop;
	if (mkdir(dir, 0755) == -1 && errno != EEXIST) {
		status_fail(st, FAIL_CONTROL, "slot directory %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	sw.index = slot_try(&sw);
	if (sw.index < 0 && sw.error == NULL) {
		status_note(st, "waiting for a migration slot in %s (%d at "
		    "most on this node)", dir, max);
		status_changed(st, "pending");
		ev_timer_init(&sw.retry, on_retry, SLOT_RETRY_SECONDS,
		    SLOT_RETRY_SECONDS);
		world->timer_start(loop, &sw.retry);
		rc = qmp_run_until(qmp, &sw.done, timeout > 0 ? timeout :
		    SLOT_DEFAULT_WAIT, &cause);
		world->timer_stop(loop, &sw.retry);
		if (*stop)
			return -1;
		if (rc != 0) {
			status_fail(st, FAIL_CONTROL, "no migration slot in "
			    "%s: %s", dir, cause);
			free(cause);
			return -1;
		}
	}
	if (sw.error != NULL) {
		status_fail(st, FAIL_CONTROL, "%s", sw.error);
		free(sw.error);
		return -1;
	}
	log_info("migration slot %d of %d in %s", sw.index, max, dir);
	return 0;
}

/* Gives the slot back (exit does it too). */
void
slot_release(void)
{
	if (slot_fd == -1)
		return;
	close(slot_fd);
	slot_fd = -1;
}
