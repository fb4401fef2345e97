/*
 * privs.c: least privilege.  Once a command has opened what it needs (QMP
 * sockets, listening sockets, files), it keeps no capability at all: a
 * qmigrate run by a node agent as root cannot then be turned against the
 * host by a hostile peer.
 */
#include <pwd.h>

#include <cap-ng.h>

#include "qmigrate.h"

/* Applies the sets built; the bounding set needs CAP_SETPCAP, the rest not. */
static int
privs_apply(void)
{
	if (capng_apply(CAPNG_SELECT_BOTH) != 0 &&
	    capng_apply(CAPNG_SELECT_CAPS) != 0) {
		log_warnx("cannot drop capabilities");
		return -1;
	}
	return 0;
}

/*
 * Drops every capability (effective, permitted, inheritable and, when we
 * may, the bounding set); with user, also becomes that user, which needs
 * root to begin with.  Returns 0, or -1 after logging why.
 */
int
privs_drop(const char *user)
{
	struct passwd *pw;

	capng_clear(CAPNG_SELECT_BOTH);
	if (user != NULL) {
		if ((pw = getpwnam(user)) == NULL) {
			log_warnx("--user %s: no such user", user);
			return -1;
		}
		if (capng_change_id((int)pw->pw_uid, (int)pw->pw_gid,
		    CAPNG_DROP_SUPP_GRP | CAPNG_CLEAR_BOUNDING) != 0) {
			log_warnx("--user %s: cannot change to uid %u "
			    "(not root?)", user, (unsigned)pw->pw_uid);
			return -1;
		}
		log_info("running as %s without capabilities", user);
		return 0;
	}
	if (privs_apply() != 0)
		return -1;
	log_debug("capabilities dropped");
	return 0;
}

/*
 * Keeps of the process's capabilities only those of keep (n of them) that
 * it has, in the effective, permitted and bounding sets, and drops every
 * other one: for a long-running command that needs one or two after
 * setup (the exporter reads /proc of other users' QEMUs).  A process
 * without capabilities (not root, or a systemd unit with an empty
 * CapabilityBoundingSet=) ends as it was, and makes no capset(2): there
 * is nothing to drop, and a unit's SystemCallFilter=~@privileged kills a
 * process that calls it (SIGSYS).  Returns 0, or -1 after logging why.
 */
int
privs_keep(const int *keep, size_t n)
{
	int	had[8];
	size_t	i;

	if (n > sizeof had / sizeof had[0])
		fatalx("privs_keep: %zu capabilities", n);
	capng_get_caps_process();
	if (capng_have_capabilities(CAPNG_SELECT_CAPS) == CAPNG_NONE) {
		log_debug("no capabilities to drop");
		return 0;
	}
	for (i = 0; i < n; i++)
		had[i] = capng_have_capability(CAPNG_PERMITTED, keep[i]);
	capng_clear(CAPNG_SELECT_BOTH);
	for (i = 0; i < n; i++)
		if (had[i] && capng_update(CAPNG_ADD, CAPNG_EFFECTIVE |
		    CAPNG_PERMITTED | CAPNG_BOUNDING_SET, keep[i]) != 0) {
			log_warnx("cannot keep capability %s",
			    capng_capability_to_name(keep[i]));
			return -1;
		}
	if (privs_apply() != 0)
		return -1;
	log_debug("capabilities dropped but those kept");
	return 0;
}
