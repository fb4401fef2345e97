/*
 * mig-options.h: what `qmigrate migrate` and `qmigrate incoming` hand the
 * engine (mig-source.c, mig-target.c; evict.c fills one itself), and the
 * effective settings resolved from it (mig-config.c).
 */
#ifndef MIG_OPTIONS_H
#define MIG_OPTIONS_H

#include "qmigrate.h"
#include "policy.h"

/* mig-options.c: the options migrate and incoming share. */
struct mig_options {
	const char	*qmp_path;
	const char	*uri;		/* --to or --listen */
	const char	*policy_path;	/* NULL: built-in defaults */
	const struct policy_set *policies; /* loaded by the caller (evict):
					   used instead of policy_path */
	struct vm_ident	 vm;		/* what selects the policy */
	struct kube_vmim vmim;		/* --vmim, or none (file NULL) */
	const char	*status_file;
	int		 events;
	int		 keep_paused;	/* incoming: do not resume a paused guest */
	double		 timeout;	/* overall deadline, seconds */
	enum timeout_action timeout_action; /* migrate: what the deadline
					   does (--timeout-action) */
	int		 timeout_action_given; /* ... by the flag */
	int		 source;	/* the source's options (migrate,
					   update, evict) */
	double		 recover_timeout; /* post-copy recovery, seconds */
	const char	*tls_dir;
	const char	*tls_name;
	int		 tls12;
	struct mig_settings flags;	/* --bandwidth, --postcopy, ... (their
					   bits in flags.set): over the policy */
	const char	*slot_dir;	/* --slot-dir: node-wide limit, or NULL */
	int		 max_parallel;	/* --max-parallel: slots in slot_dir */
	struct json_object *eviction;	/* evict's record for the status */
	const char	*nbd;		/* --nbd: disks' NBD address, or NULL */
	const char	*node;		/* --node: this node; NULL: node_name() */
	const char	*pod;		/* --pod: this pod; NULL: $POD_NAME */
	const char	*evacuation_node; /* evict: the node being drained */
	/* update (cpr-transfer): the new QEMU on this host, its cpr channel
	 * (unix:PATH), and whether it waits with -incoming defer. */
	const char	*new_qmp_path;
	const char	*cpr_uri;
	int		 cpr_defer;
	/* update --mode exec: the new QEMU's command line (NULL-terminated,
	 * the command's), which the QEMU process execs; uri is file:PATH. */
	char *const	*exec_argv;
};
extern const struct args_option mig_common_options[];
int	 mig_options_from_args(struct args *, struct mig_options *,
	    int source, char **cause);
void	 mig_options_free(struct mig_options *);
/* "abort", "postcopy" or "pause": --timeout-action's word. */
const char *timeout_action_name(enum timeout_action);

/* mig-config.c */
int	 mig_settings_resolve(const struct mig_options *,
	    struct mig_settings *, struct status *, char **cause);

#endif
