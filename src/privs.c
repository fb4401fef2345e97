/*
 * privs.c: least privilege.  Once a command has opened what it needs (QMP
 * sockets, listening sockets, files), it keeps no capability at all: a
 * qmigrate run by a node agent as root cannot then be turned against the
 * host by a hostile peer.
 */
#include <pwd.h>

#include <cap-ng.h>

#include "qmigrate.h"

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
	/* The bounding set needs CAP_SETPCAP; without it, clear the rest. */
	if (capng_apply(CAPNG_SELECT_BOTH) != 0 &&
	    capng_apply(CAPNG_SELECT_CAPS) != 0) {
		log_warnx("cannot drop capabilities");
		return -1;
	}
	log_debug("capabilities dropped");
	return 0;
}
