/*
 * mig-options.c: the options `qmigrate migrate` and `qmigrate incoming`
 * share, read into struct mig_options: what the commands hand the engine
 * (mig-source.c, mig-target.c, and evict.c, which fills one itself).
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "slot.h"
#include "mig-options.h"

/* Room for a status document as it starts: what the probe asks. */
#define STATUS_PROBE_SIZE	4096

/* The options migrate and incoming share (their tables include these). */
const struct args_option mig_common_options[] = {
	{ .name = "policy", .type = ARGS_STRING, .value = "PATH",
	    .help = "policy file or directory (default " POLICY_DEFAULT_DIR "\n"
	    "if it exists, else KubeVirt's defaults): qmigrate's JSON policies, KubeVirt's MigrationPolicy, KubeVirt\n"
	    "and Namespace objects (policies/README.md)" },
	{ .include = vm_ident_options },
	{ .include = kube_vmim_options },
	{ .name = "status-file", .type = ARGS_STRING, .value = "F",
	    .help = "the status document, rewritten atomically" },
	{ .name = "events", .type = ARGS_FLAG,
	    .help = "one JSON line on stdout per change and sample" },
	{ .name = "recover-timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "how long to recover a broken post-copy (120)" },
	{ .name = "tls-dir", .type = ARGS_STRING, .value = "DIR",
	    .help = "ca.pem, cert.pem, key.pem for tls: URIs" },
	{ .name = "tls-name", .type = ARGS_STRING, .value = "N",
	    .help = "the name the peer's certificate must carry" },
	{ .name = "tls12", .type = ARGS_FLAG,
	    .help = "allow TLS 1.2 (default: 1.3 only)" },
	{ .include = mig_flag_options },
	{ .name = "node", .type = ARGS_STRING, .value = "NAME",
	    .help =
	    "this node's name in the status (sourceNode or targetNode;\n"
	    "default $NODE_NAME, else the host name)" },
	{ .name = "pod", .type = ARGS_STRING, .value = "NAME",
	    .help = "this side's pod in the status (sourcePod or targetPod;\n"
	    "default $POD_NAME)" },
	{ .name = NULL }
};

const char *
timeout_action_name(enum timeout_action a)
{
	return a == TIMEOUT_POSTCOPY ? "postcopy" : a == TIMEOUT_PAUSE ?
	    "pause" : "abort";
}

/*
 * --timeout-action abort|postcopy|pause into o->timeout_action (abort when
 * not given).  Returns 0, or -1 with *cause naming the flag.  Whether
 * post-copy is allowed is known once the settings are (mig-config.c).
 */
static int
timeout_action_from_args(struct args *args, struct mig_options *o,
    char **cause)
{
	const char *s = args_get(args, "timeout-action");

	o->timeout_action = TIMEOUT_ABORT;
	if (s == NULL)
		return 0;
	o->timeout_action_given = 1;
	if (strcmp(s, "postcopy") == 0)
		o->timeout_action = TIMEOUT_POSTCOPY;
	else if (strcmp(s, "pause") == 0)
		o->timeout_action = TIMEOUT_PAUSE;
	else if (strcmp(s, "abort") != 0) {
		xasprintf(cause, "--timeout-action: expected abort, postcopy "
		    "or pause, got \"%s\"", s);
		return -1;
	}
	if (o->timeout_action != TIMEOUT_ABORT && o->timeout <= 0) {
		xasprintf(cause, "--timeout-action %s: needs a --timeout", s);
		return -1;
	}
	return 0;
}

/*
 * Fills *o from the options of migrate (source) or incoming.  Returns 0,
 * or -1 with *cause (the command reports it as a usage error); *o then
 * holds nothing to free.
 */
int
mig_options_from_args(struct args *args, struct mig_options *o, int source,
    char **cause)
{
	const char	*s;
	char		*why;
	struct stat	 sb;

	memset(o, 0, sizeof *o);
	o->qmp_path = args_get(args, "qmp");
	o->uri = args_get(args, source ? "to" : "listen");
	o->policy_path = args_get(args, "policy");
	o->status_file = args_get(args, "status-file");
	o->events = args_has(args, "events");
	o->source = source;
	o->keep_paused = args_has(args, "keep-paused");
	/* KubeVirt's catch-all for a target: 15 min. */
	o->timeout = args_number(args, "timeout", source ? 0 : 900);
	o->recover_timeout = args_number(args, "recover-timeout", 120);
	o->tls_dir = args_get(args, "tls-dir");
	o->tls_name = args_get(args, "tls-name");
	o->tls12 = args_has(args, "tls12");
	o->slot_dir = args_get(args, "slot-dir");
	o->max_parallel = (int)args_number(args, "max-parallel", 0);
	o->nbd = args_get(args, "nbd");
	o->node = args_get(args, "node");
	o->pod = args_get(args, "pod");
	if (vm_ident_from_args(&o->vm, args, cause) != 0)
		goto bad;
	if ((s = args_get(args, "vmim")) != NULL &&
	    (kube_vmim_load(s, &o->vmim, cause) != 0 ||
	    kube_vmim_check_vmi(&o->vmim, &o->vm, cause) != 0))
		goto bad;
	if (mig_flags_from_args(args, &o->flags, cause) != 0)
		goto bad;
	if (source && timeout_action_from_args(args, o, cause) != 0)
		goto bad;
	if (o->max_parallel != 0 && o->slot_dir == NULL)
		o->slot_dir = SLOT_DEFAULT_DIR;
	if (o->slot_dir != NULL && o->max_parallel == 0)
		o->max_parallel = SLOT_DEFAULT_MAX;
	/* update --mode exec's file:PATH is its command's to check. */
	s = args_get(args, "mode");
	if ((s == NULL || strcmp(s, "exec") != 0) &&
	    uri_check(source ? "--to" : "--listen", o->uri, !source,
	    cause) != 0)
		goto bad;
	if (o->slot_dir != NULL && stat(o->slot_dir, &sb) == 0 &&
	    !S_ISDIR(sb.st_mode)) {
		xasprintf(cause, "--slot-dir %s: not a directory", o->slot_dir);
		goto bad;
	}
	if (o->tls_name != NULL && *o->tls_name == '\0') {
		xasprintf(cause, "--tls-name: an empty name");
		goto bad;
	}
	/*
	 * The document is how a node agent, `abort` and a re-run find the
	 * migration: one that cannot be written is refused before QEMU is
	 * touched (a later failed write is logged and the migration goes on).
	 */
	if (o->status_file != NULL &&
	    write_file_probe(o->status_file, STATUS_PROBE_SIZE, &why) != 0) {
		xasprintf(cause, "--status-file: %s", why);
		free(why);
		goto bad;
	}
	if (o->nbd != NULL && uri_check("--nbd", o->nbd, 0, cause) != 0)
		goto bad;
	return 0;

bad:
	mig_options_free(o);
	return -1;
}

void
mig_options_free(struct mig_options *o)
{
	vm_ident_free(&o->vm);
	kube_vmim_free(&o->vmim);
}
