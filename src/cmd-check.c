/*
 * cmd-check.c: qmigrate check: the pre-flight check on its own, for an
 * operator asking in advance why a VM cannot move.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

static void
check_print_condition(json_object *c)
{
	json_object	*v, *list;
	const char	*key;
	size_t		 i;

	json_object_object_get_ex(c, "type", &v);
	printf("%s: ", json_object_get_string(v));
	json_object_object_get_ex(c, "status", &v);
	printf("%s\n", json_object_get_string(v));
	for (key = "reasons"; key != NULL;
	    key = strcmp(key, "reasons") == 0 ? "warnings" : NULL) {
		if (!json_object_object_get_ex(c, key, &list))
			continue;
		for (i = 0; i < json_object_array_length(list); i++) {
			json_object *r = json_object_array_get_idx(list, i);

			json_object_object_get_ex(r, "reason", &v);
			printf("  %s%s: ", *key == 'w' ? "warning " : "",
			    json_object_get_string(v));
			json_object_object_get_ex(r, "message", &v);
			printf("%s\n", json_object_get_string(v));
		}
	}
}

static int
cmd_check_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, 'q' },
		{ "policy", required_argument, NULL, 'p' },
		{ "label", required_argument, NULL, 'l' },
		{ "labels-file", required_argument, NULL, 'L' },
		{ "namespace-label", required_argument, NULL, 'L' },
		{ "namespace-labels-file", required_argument, NULL, 'L' },
		{ "vmi", required_argument, NULL, 'L' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	const char		*qmp_path = NULL, *policy_path = NULL;
	struct vm_ident		 vm;
	size_t			 i;
	struct policy_set	*set = NULL;
	struct policy_choice	 choice;
	struct mig_settings	 settings;
	struct ev_loop		*loop;
	struct qmp_conn		*qmp;
	json_object		*conds = NULL, *doc;
	char			*cause = NULL, *summary = NULL, *policy = NULL;
	int			 ch, json = 0, rc, longindex;

	memset(&vm, 0, sizeof vm);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts,
	    &longindex)) != -1) {
		switch (ch) {
		case 'q':
			qmp_path = optarg;
			break;
		case 'p':
			policy_path = optarg;
			break;
		case 'l':
		case 'L':
			if (vm_ident_option(&vm, longopts[longindex].name,
			    optarg, &cause) != 0)
				goto bad;
			break;
		case 'j':
			json = 1;
			break;
		default:
			xasprintf(&cause, "unknown option %s",
			    argv[optind - 1]);
			goto bad;
		}
	}
	if (optind < argc) {
		xasprintf(&cause, "unexpected argument \"%s\"", argv[optind]);
		goto bad;
	}
	if (qmp_path == NULL) {
		cause = xstrdup("--qmp PATH is required");
		goto bad;
	}

	if (policy_path != NULL &&
	    (set = policy_load(policy_path, &cause)) == NULL) {
		fprintf(stderr, "qmigrate check: %s\n", cause);
		free(cause);
		vm_ident_free(&vm);
		return QM_EXIT_USAGE;
	}
	policy_choose(set, &vm, &choice, 0);
	mig_settings_copy(&settings, &choice.migration);
	if (choice.policy != NULL)
		policy = xstrdup(choice.policy->name);
	policy_choice_free(&choice);
	policy_set_free(set);

	loop = ev_loop_new(EVFLAG_AUTO);
	if (loop == NULL)
		fatalx("cannot create an event loop");
	qmp = qmp_connect(loop, qmp_path, QMP_PROTO_MONITOR, 10, &cause);
	if (qmp == NULL) {
		xasprintf(&summary, "%s", cause);
		free(cause);
		rc = -1;
	} else
		rc = preflight_run(qmp, &settings, &conds, &summary);
	qmp_close(qmp);
	ev_loop_destroy(loop);

	if (rc == -1) {
		fprintf(stderr, "qmigrate check: %s\n", summary);
		rc = QM_EXIT_CONTROL;
	} else if (json) {
		doc = json_object_new_object();
		json_object_object_add(doc, "qmp",
		    json_object_new_string(qmp_path));
		json_object_object_add(doc, "policy", policy != NULL ?
		    json_object_new_string(policy) : NULL);
		json_object_object_add(doc, "liveMigratable",
		    json_object_new_boolean(rc));
		json_object_object_add(doc, "summary",
		    json_object_new_string(summary));
		json_object_object_add(doc, "conditions",
		    json_object_get(conds));
		printf("%s\n", json_object_to_json_string_ext(doc,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(doc);
		rc = rc ? QM_EXIT_OK : QM_EXIT_NOT_MIGRATABLE;
	} else {
		for (i = 0; i < json_object_array_length(conds); i++)
			check_print_condition(json_object_array_get_idx(conds,
			    i));
		rc = rc ? QM_EXIT_OK : QM_EXIT_NOT_MIGRATABLE;
	}
	json_object_put(conds);
	free(summary);
	free(policy);
	mig_settings_free(&settings);
	vm_ident_free(&vm);
	return rc;

bad:
	rc = cmd_usage_error(&cmd_check_entry, "%s", cause);
	free(cause);
	vm_ident_free(&vm);
	return rc;
}

const struct cmd_entry cmd_check_entry = {
	"check",
	"--qmp PATH [--policy PATH] [--label K=V]... [--namespace-label K=V]... "
	"[--vmi FILE] [--json]",
	"Asks the running QEMU at --qmp PATH whether its guest can move live and\n"
	"prints two conditions, LiveMigratable and StorageLiveMigratable, with\n"
	"every reason found (KubeVirt's names): MigrationBlocked (QEMU's own\n"
	"blockers), HostDeviceNotLiveMigratable (VFIO), VirtIOFSNotLiveMigratable,\n"
	"SEVNotLiveMigratable, HypervPassthroughNotLiveMigratable,\n"
	"PersistentReservationNotLiveMigratable, DisksNotLiveMigratable (a\n"
	"writable disk not on NFS, CephFS, GlusterFS or under the policy's\n"
	"sharedStoragePaths).  Warnings, not blockers: a host CPU model\n"
	"(HostCPUModel) and a guest under TCG on QEMU 7.2, whose dirty tracking\n"
	"can let pages reach the target stale (TCGDirtyTrackingDefect).\n"
	"\n"
	"  --policy PATH     policy file or directory (sharedStoragePaths);\n"
	"                    --label K=V / --labels-file F / --namespace-label\n"
	"                    K=V / --namespace-labels-file F / --vmi FILE\n"
	"                    select the policy (policies/README.md)\n"
	"  --json            one JSON document instead of text\n"
	"\n"
	"Exit status: 0 live-migratable, 1 usage, 2 not live-migratable,\n"
	"3 QEMU could not be asked.\n",
	cmd_check_exec,
};
