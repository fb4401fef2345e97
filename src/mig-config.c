/*
 * mig-config.c: the options `qmigrate migrate` and `qmigrate incoming`
 * share, and the effective migration settings: the policy that selects
 * this VM by its labels, or KubeVirt's defaults.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

enum {
	OPT_QMP = 256, OPT_TO, OPT_LISTEN, OPT_POLICY, OPT_LABEL,
	OPT_LABELS_FILE, OPT_STATUS_FILE, OPT_EVENTS, OPT_KEEP_PAUSED,
	OPT_TIMEOUT, OPT_RECOVER_TIMEOUT, OPT_TLS_DIR, OPT_TLS_NAME,
	OPT_TLS12, OPT_CONVERGENCE, OPT_SLOT_DIR, OPT_MAX_PARALLEL,
	OPT_NBD, OPT_NS_LABEL, OPT_NS_LABELS_FILE, OPT_VMI,
};

/*
 * Parses argv into *o.  Returns 0, or the exit status of a usage error
 * (already reported in one line).
 */
int
mig_options_parse(int argc, char **argv, const struct cmd_entry *cmd,
    struct mig_options *o, int source)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, OPT_QMP },
		{ "to", required_argument, NULL, OPT_TO },
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "labels-file", required_argument, NULL, OPT_LABELS_FILE },
		{ "namespace-label", required_argument, NULL, OPT_NS_LABEL },
		{ "namespace-labels-file", required_argument, NULL,
		    OPT_NS_LABELS_FILE },
		{ "vmi", required_argument, NULL, OPT_VMI },
		{ "status-file", required_argument, NULL, OPT_STATUS_FILE },
		{ "events", no_argument, NULL, OPT_EVENTS },
		{ "keep-paused", no_argument, NULL, OPT_KEEP_PAUSED },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "recover-timeout", required_argument, NULL,
		    OPT_RECOVER_TIMEOUT },
		{ "tls-dir", required_argument, NULL, OPT_TLS_DIR },
		{ "tls-name", required_argument, NULL, OPT_TLS_NAME },
		{ "tls12", no_argument, NULL, OPT_TLS12 },
		{ "convergence", required_argument, NULL, OPT_CONVERGENCE },
		{ "slot-dir", required_argument, NULL, OPT_SLOT_DIR },
		{ "max-parallel", required_argument, NULL, OPT_MAX_PARALLEL },
		{ "nbd", required_argument, NULL, OPT_NBD },
		{ NULL, 0, NULL, 0 }
	};
	char		*cause = NULL;
	uint64_t	 n;
	int		 ch, rc, longindex;

	memset(o, 0, sizeof *o);
	o->timeout = source ? 0 : 900;	/* KubeVirt's catch-all: 15 min */
	o->recover_timeout = 120;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts, &longindex)) != -1) {
		switch (ch) {
		case OPT_QMP:
			o->qmp_path = optarg;
			break;
		case OPT_TO:
		case OPT_LISTEN:
			if ((ch == OPT_TO) != source)
				goto unknown;
			o->uri = optarg;
			break;
		case OPT_POLICY:
			o->policy_path = optarg;
			break;
		case OPT_LABEL:
		case OPT_LABELS_FILE:
		case OPT_NS_LABEL:
		case OPT_NS_LABELS_FILE:
		case OPT_VMI:
			if (vm_ident_option(&o->vm, longopts[longindex].name,
			    optarg, &cause) != 0)
				goto bad;
			break;
		case OPT_STATUS_FILE:
			o->status_file = optarg;
			break;
		case OPT_EVENTS:
			o->events = 1;
			break;
		case OPT_KEEP_PAUSED:
			if (source)
				goto unknown;
			o->keep_paused = 1;
			break;
		case OPT_TIMEOUT:
		case OPT_RECOVER_TIMEOUT:
			if (parse_seconds(optarg, ch == OPT_TIMEOUT ?
			    &o->timeout : &o->recover_timeout) != 0) {
				xasprintf(&cause, "--%s: expected seconds, got "
				    "\"%s\"", ch == OPT_TIMEOUT ? "timeout" :
				    "recover-timeout", optarg);
				goto bad;
			}
			break;
		case OPT_TLS_DIR:
			o->tls_dir = optarg;
			break;
		case OPT_TLS_NAME:
			o->tls_name = optarg;
			break;
		case OPT_TLS12:
			o->tls12 = 1;
			break;
		case OPT_CONVERGENCE:
			o->convergence_set = 1;
			if (strcmp(optarg, "adaptive") == 0)
				o->convergence = CTL_ADAPTIVE;
			else if (strcmp(optarg, "kubevirt") == 0)
				o->convergence = CTL_KUBEVIRT;
			else {
				xasprintf(&cause, "--convergence: expected "
				    "adaptive or kubevirt, got \"%s\"", optarg);
				goto bad;
			}
			break;
		case OPT_SLOT_DIR:
			if (!source)
				goto unknown;
			o->slot_dir = optarg;
			break;
		case OPT_MAX_PARALLEL:
			if (!source)
				goto unknown;
			if (parse_u64(optarg, &n) != 0 || n < 1 ||
			    n > SLOT_MAX) {
				xasprintf(&cause, "--max-parallel: expected 1 "
				    "to %d, got \"%s\"", SLOT_MAX, optarg);
				goto bad;
			}
			o->max_parallel = (int)n;
			break;
		case OPT_NBD:
			o->nbd = optarg;
			break;
		default:
			goto unknown;
		}
	}
	if (o->max_parallel != 0 && o->slot_dir == NULL)
		o->slot_dir = SLOT_DEFAULT_DIR;
	if (o->slot_dir != NULL && o->max_parallel == 0)
		o->max_parallel = SLOT_DEFAULT_MAX;
	if (optind < argc) {
		xasprintf(&cause, "unexpected argument \"%s\"", argv[optind]);
		goto bad;
	}
	if (o->qmp_path == NULL) {
		cause = xstrdup("--qmp PATH is required");
		goto bad;
	}
	if (o->uri == NULL) {
		cause = xstrdup(source ? "--to URI is required" :
		    "--listen URI is required");
		goto bad;
	}
	if (strncmp(o->uri, "unix:", 5) != 0 &&
	    strncmp(o->uri, "tcp:", 4) != 0 &&
	    strncmp(o->uri, "tls:", 4) != 0) {
		xasprintf(&cause, "%s: expected unix:PATH, tcp:HOST:PORT or "
		    "tls:HOST:PORT, got \"%s\"", source ? "--to" : "--listen",
		    o->uri);
		goto bad;
	}
	return 0;

unknown:
	xasprintf(&cause, "unknown option %s", argv[optind - 1]);
bad:
	rc = cmd_usage_error(cmd, "%s", cause);
	free(cause);
	mig_options_free(o);
	return rc;
}

void
mig_options_free(struct mig_options *o)
{
	vm_ident_free(&o->vm);
}

/*
 * Fills *s with the effective settings and records in the status which
 * policy gave them and why: from o->policies when the caller already loaded
 * them (evict chose its strategy from that set: one set per run), else from
 * o->policy_path, else the defaults.  Returns 0, or -1 with *cause for a
 * policy that cannot be read or a combination that is refused (plaintext
 * tcp: without disableTLS).
 */
int
mig_settings_resolve(const struct mig_options *o, struct mig_settings *s,
    struct status *st, char **cause)
{
	struct policy_set	*loaded = NULL;
	const struct policy_set	*set = o->policies;
	struct policy_choice	 choice;

	if (set == NULL && o->policy_path != NULL) {
		if ((loaded = policy_load(o->policy_path, cause)) == NULL)
			return -1;
		set = loaded;
	}
	policy_choose(set, &o->vm, &choice, set != NULL);
	mig_settings_copy(s, &choice.migration);
	if (choice.policy != NULL)
		st->policy_name = xstrdup(choice.policy->name);
	if (choice.why != NULL)
		log_info("policy: %s", choice.why);
	policy_choice_free(&choice);
	policy_set_free(loaded);
	if (o->convergence_set)
		s->convergence = o->convergence;
	if (strncmp(o->uri, "tcp:", 4) == 0 && !s->disable_tls) {
		mig_settings_free(s);
		xasprintf(cause, "%s: plaintext migration refused: use tls: or "
		    "a policy with migration.disableTLS", o->uri);
		return -1;
	}
	if (strncmp(o->uri, "tcp:", 4) == 0)
		status_note(st, "migration stream in PLAINTEXT over %s: the "
		    "policy sets disableTLS", o->uri);
	json_object_put(st->configuration);
	st->configuration = mig_settings_to_json(s);
	free(st->controller);
	st->controller = xstrdup(ctl_kind_name(s->convergence));
	return 0;
}
