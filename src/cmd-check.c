/*
 * cmd-check.c: qmigrate check: the pre-flight check on its own, for an
 * operator asking in advance why a VM cannot move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "check-tls.h"
#include "ctl.h"
#include "preflight.h"
#include "mig-job.h"
#include "mig-negotiate.h"
#include "policy.h"
#include "proxy.h"
#include "qmp.h"

extern const struct cmd_entry cmd_check_entry;

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

/* The job's end, for qemu_side_read(). */
struct side_read {
	int	 done;
	int	 ok;
	char	*cause;
};

static void
on_side_read(struct mig_job *job, int ok, const char *cause, void *arg)
{
	struct side_read *r = arg;

	(void)job;
	r->done = 1;
	r->ok = ok;
	if (!ok)
		r->cause = xstrdup(cause);
}

/*
 * Reads this QEMU's side (qemu_side_job) the way a one-shot command may:
 * running the loop until the job ends.  0, or -1 with *cause.
 */
static int
qemu_side_read(struct ev_loop *loop, struct qmp_conn *qmp,
    struct qemu_side *self, char **cause)
{
	struct mig_job		job;
	struct side_read	r = { 0 };

	memset(&job, 0, sizeof job);
	memset(self, 0, sizeof *self);
	qmp_qemu_version(qmp, &self->major, &self->minor, &self->micro);
	mig_job_start(&job, loop, qmp, "qemu side", qemu_side_job, self,
	    on_side_read, &r);
	if (qmp_run_until(qmp, &r.done, 60, cause) != 0 || !r.done) {
		mig_job_stop(&job);
		free(r.cause);
		if (*cause == NULL)
			*cause = xstrdup("no answer from QEMU");
		return -1;
	}
	if (!r.ok) {
		*cause = r.cause;
		return -1;
	}
	return 0;
}

/*
 * What a migration of this VM under settings would negotiate with a target
 * QEMU like this one (mig-negotiate.c): the reasons, one per capability
 * (the caller owns them), and *self, this QEMU.  NULL when QEMU does not
 * list its capabilities (logged).
 */
static json_object *
check_capabilities(struct ev_loop *loop, struct qmp_conn *qmp,
    const struct mig_settings *s, struct qemu_side *self, char *throttle,
    size_t len)
{
	struct mig_wants	 w = {
		.postcopy = s->allow_post_copy,
		.channels = s->parallel_migration_threads,
	};
	struct mig_plan		 plan;
	json_object		*why;
	char			*cause = NULL;

	if (qemu_side_read(loop, qmp, self, &cause) != 0) {
		log_warnx("capabilities: %s", cause);
		free(cause);
		return NULL;
	}
	memset(&plan, 0, sizeof plan);
	why = mig_negotiate(&w, self, self, &plan);
	/* The throttle the migration's controller would use, and why. */
	mig_throttle_apply(&plan, mig_throttle_choose(s->convergence,
	    s->allow_auto_converge, self, self, throttle, len), throttle, why);
	return why;
}

/*
 * --tls-dir DIR as a migration over tls: would load it (mig-tls.c): the
 * same refusal, word for word, for material it could not use (expired,
 * not yet valid, unreadable, a key that is not the certificate's).  Then
 * when its cert.pem expires: the caller owns the object.  NULL with
 * *cause ("--tls-dir DIR: ...") when refused.
 */
static json_object *
check_tls_dir(const char *dir, char **cause)
{
	struct proxy_tls	*tls;
	json_object		*expiry = NULL;
	char			*why = NULL;

	if ((tls = proxy_tls_load(dir, 0, 0, NULL, &why)) != NULL) {
		proxy_tls_free(tls);
		expiry = check_tls_expiry(dir, (double)time(NULL), &why);
	}
	if (expiry == NULL) {
		xasprintf(cause, "--tls-dir %s: %s", dir, why);
		free(why);
	}
	return expiry;
}

static int
cmd_check_exec(struct args *args)
{
	const char		*qmp_path = args_get(args, "qmp");
	const char		*policy_path = args_get(args, "policy");
	const char		*tls_dir = args_get(args, "tls-dir");
	struct vm_ident		 vm;
	size_t			 i;
	struct policy_set	*set = NULL;
	struct policy_choice	 choice;
	struct mig_settings	 settings;
	struct ev_loop		*loop;
	struct qmp_conn		*qmp;
	json_object		*conds = NULL, *doc, *why = NULL, *cpr = NULL;
	json_object		*exec = NULL, *modes, *tls = NULL;
	struct qemu_side	 self;
	char			*cause = NULL, *summary = NULL, *policy = NULL;
	char			*cpr_summary = NULL, *exec_summary = NULL;
	char			 throttle[320] = "";
	int			 json = args_has(args, "json"), rc;
	int			 update = args_has(args, "update"), cpr_rc = 1;
	int			 exec_rc = 0, left = 0, exec_left = 0;

	if (vm_ident_from_args(&vm, args, &cause) != 0)
		goto bad;
	if ((set = policy_load_or_default(policy_path, &cause)) == NULL) {
		log_error("%s", cause);
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
	/* What migrate refuses before QEMU is touched, check refuses too. */
	if (tls_dir != NULL && (tls = check_tls_dir(tls_dir, &cause)) == NULL) {
		log_error("%s", cause);
		free(cause);
		free(policy);
		mig_settings_free(&settings);
		vm_ident_free(&vm);
		return QM_EXIT_USAGE;
	}

	loop = ev_loop_new(EVFLAG_AUTO);
	if (loop == NULL)
		fatalx("cannot create an event loop");
	qmp = qmp_connect(loop, qmp_path, QMP_PROTO_MONITOR, 10, &cause);
	if (qmp == NULL) {
		xasprintf(&summary, "%s", cause);
		free(cause);
		rc = -1;
	} else
		rc = preflight_run(loop, qmp, &settings, NULL, &conds,
		    &summary);
	if (rc != -1)
		why = check_capabilities(loop, qmp, &settings, &self,
		    throttle, sizeof throttle);
	if (rc != -1 && update &&
	    (cpr_rc = preflight_cpr(loop, qmp, &settings, &left, &cpr,
	    &cpr_summary)) == -1) {
		free(summary);
		summary = cpr_summary;
		cpr_summary = NULL;
		rc = -1;
	}
	if (rc != -1 && update &&
	    (exec_rc = preflight_cpr_exec(qmp, cpr, &exec_left, &exec,
	    &exec_summary)) == -1) {
		free(summary);
		summary = exec_summary;
		exec_summary = NULL;
		rc = -1;
	}
	qmp_close(qmp);
	ev_loop_destroy(loop);

	if (rc == -1) {
		log_error("%s", summary);
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
		if (update) {
			json_object_object_add(doc, "inPlaceUpdatable",
			    json_object_new_boolean(cpr_rc));
			json_object_object_add(doc, "inPlaceUpdatableByExec",
			    json_object_new_boolean(exec_rc));
			/* The update's modes this guest can take. */
			modes = json_object_new_array();
			if (cpr_rc)
				json_object_array_add(modes,
				    json_object_new_string("transfer"));
			if (exec_rc)
				json_object_array_add(modes,
				    json_object_new_string("exec"));
			json_object_object_add(doc, "updateModes", modes);
			json_object_array_add(conds, json_object_get(cpr));
			json_object_array_add(conds, json_object_get(exec));
		}
		if (why != NULL) {
			json_object_object_add(doc, "qemu",
			    qemu_side_encode(&self));
			json_object_object_add(doc, "capabilities",
			    json_object_get(why));
			json_object_object_add(doc, "throttle",
			    json_object_new_string(throttle));
		}
		if (tls != NULL)
			json_object_object_add(doc, "tlsCertificate",
			    json_object_get(tls));
		printf("%s\n", json_object_to_json_string_ext(doc,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
		    JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(doc);
		rc = (update ? cpr_rc : rc) ? QM_EXIT_OK :
		    QM_EXIT_NOT_MIGRATABLE;
	} else {
		for (i = 0; i < json_object_array_length(conds); i++)
			check_print_condition(json_object_array_get_idx(conds,
			    i));
		if (why != NULL) {
			printf("Capabilities (QEMU %d.%d.%d, to a target "
			    "QEMU like it):\n", self.major, self.minor,
			    self.micro);
			json_object_object_foreach(why, name, val)
				printf("  %s: %s\n", name,
				    json_object_get_string(val));
			printf("Throttle (%s controller): %s\n",
			    ctl_kind_name(settings.convergence), throttle);
		}
		if (update) {
			check_print_condition(cpr);
			check_print_condition(exec);
			printf("Update modes: %s%s%s\n", cpr_rc ? "transfer" :
			    "", cpr_rc && exec_rc ? " " : "", exec_rc ? "exec" :
			    (cpr_rc ? "" : "none"));
		}
		if (tls != NULL)
			check_tls_print(tls);
		rc = (update ? cpr_rc : rc) ? QM_EXIT_OK :
		    QM_EXIT_NOT_MIGRATABLE;
	}
	/*
	 * The probe of a cpr mode set it for a moment; its put-back got no
	 * answer (a monitor gone mute, or closed): QEMU may hold that mode,
	 * in which a plain migrate by another tool would exec or be refused.
	 * Whatever the conditions said, QEMU could not be asked to undo it.
	 */
	if (left || exec_left) {
		log_error("QEMU %s: its migration mode, set to %s for a "
		    "moment to probe the update, was not put back (no "
		    "answer): it may still be %s, in which a plain migrate "
		    "would %s; undo it with migrate-set-parameters mode "
		    "normal", qmp_path, exec_left ? "cpr-exec" :
		    "cpr-transfer", exec_left ? "cpr-exec" : "cpr-transfer",
		    exec_left ? "exec the new command line" :
		    "be refused for want of a cpr channel");
		rc = QM_EXIT_CONTROL;
	}
	json_object_put(tls);
	json_object_put(cpr);
	json_object_put(exec);
	free(cpr_summary);
	free(exec_summary);
	json_object_put(why);
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

static const struct args_option check_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED, .help = "the QEMU's monitor socket" },
	{ .name = "policy", .type = ARGS_STRING, .value = "PATH",
	    .help = "policy file or directory (sharedStoragePaths,\n"
	    "blockMigration); default " POLICY_DEFAULT_DIR " if it\n"
	    "exists, else KubeVirt's defaults" },
	{ .include = vm_ident_options },
	{ .name = "json", .type = ARGS_FLAG,
	    .help = "one JSON document instead of text" },
	{ .name = "tls-dir", .type = ARGS_STRING, .value = "DIR",
	    .help = "the node's TLS material a migration over tls: would\n"
	    "use (ca.pem, cert.pem, key.pem): loaded as migrate\n"
	    "loads it, refused as migrate refuses it; prints when\n"
	    "cert.pem expires, with a warning within 14 days" },
	{ .name = "update", .type = ARGS_FLAG,
	    .help = "also whether `qmigrate update` can move the guest to a\n"
	    "new QEMU on this host (cpr-transfer): the condition\n"
	    "InPlaceUpdatable, and the exit status says that" },
	{ .name = NULL }
};

const struct cmd_entry cmd_check_entry = {
	.name = "check",
	.args = { .options = check_options },
	.help =
	"Asks the running QEMU at --qmp PATH whether its guest can move live and\n"
	"prints two conditions, LiveMigratable and StorageLiveMigratable, with\n"
	"every reason found (KubeVirt's names): MigrationBlocked (QEMU's own\n"
	"blockers), HostDeviceNotLiveMigratable (VFIO), VirtIOFSNotLiveMigratable,\n"
	"SEVNotLiveMigratable, TDXNotLiveMigratable,\n"
	"SecureExecutionNotLiveMigratable, HypervPassthroughNotLiveMigratable,\n"
	"NoTSCFrequencyNotLiveMigratable (hv-reenlightenment without a TSC\n"
	"frequency), InterfaceNotLiveMigratable (a vDPA NIC),\n"
	"HotplugNotLiveMigratable (a device_add the target's command line would\n"
	"lack), PersistentReservationNotLiveMigratable, BlockJobNotLiveMigratable\n"
	"(a backup or another block job running), DisksNotLiveMigratable (a\n"
	"writable disk not on NFS, CephFS, GlusterFS or under the policy's\n"
	"sharedStoragePaths), GuestNotStarted (QEMU's run state prelaunch: -S\n"
	"and never resumed).  A False StorageLiveMigratable's reason is\n"
	"NotMigratable, as KubeVirt's.  Warnings, not blockers: the host's CPU\n"
	"model (CPUModeLiveMigratable) and a guest under TCG on a QEMU before\n"
	"10.0 (7.2 measured), whose dirty tracking can let pages reach the\n"
	"target stale (TCGDirtyTrackingDefect).\n"
	"Then the migration capabilities a migration under the policy would\n"
	"use with a target QEMU like this one, each on or off with its reason,\n"
	"and the throttle its controller would use (dirty-limit or\n"
	"auto-converge) and why.\n"
	"The options that say what the VM is select the policy, as for\n"
	"migrate (policies/README.md).\n"
	"With --update, a third condition, InPlaceUpdatable: whether the guest\n"
	"can be updated in place by cpr-transfer, with QEMU's own blockers for\n"
	"it (RAMNotShared: RAM not in a shared memory backend or no\n"
	"aux-ram-share, each region named by QEMU; CprBlocked: a device QEMU\n"
	"cannot keep, such as VFIO before 10.1, mdev or guest_memfd), and\n"
	"QEMUTooOld (before 10.0), PostCopyRequested (the policy allows\n"
	"post-copy: QEMU refuses it with CPR), SingleQueueTap (a tap opened by\n"
	"name with one queue: the new QEMU cannot open it), VhostNotKept,\n"
	"VFIONotKept (before 10.1), MdevNotKept, GuestMemfd (SEV-SNP, TDX).  It\n"
	"sets QEMU's migration mode to cpr-transfer for a moment and puts it\n"
	"back.  A fourth, InPlaceUpdatableByExec, says the same of cpr-exec\n"
	"(QEMU 10.2: the QEMU process execs the new binary): QEMUTooOld (before\n"
	"10.2), QEMU's own blockers with mode cpr-exec set (CprBlocked), and the\n"
	"RAM, post-copy and device reasons above (QEMU does not block cpr-exec\n"
	"for unshared RAM, and the new QEMU would fail to load the guest).\n"
	"\"Update modes:\" lists the modes the guest can take (transfer, exec,\n"
	"or none); the exit status stays InPlaceUpdatable's.\n"
	"With --tls-dir DIR, the node's TLS material is loaded first, as\n"
	"migrate and incoming over tls: load it, and refused as they refuse it\n"
	"(an expired or not yet valid cert.pem, a key that is not its own, a\n"
	"file unreadable or readable by others), before QEMU is asked; then\n"
	"\"TLS certificate: DATE (DIR/cert.pem), expires in N s (D days)\",\n"
	"with a warning line within 14 days of it (the exporter's alert\n"
	"QmigrateCertificateExpiresSoon); --json: tlsCertificate {path,\n"
	"notAfter, secondsLeft, warning}.\n",
	.exits =
	"Exit status: 0 live-migratable (--update: updatable in place), 1\n"
	"usage or --tls-dir refused (what migrate --to tls: would refuse), 2\n"
	"not, 3 QEMU could not be asked.\n",
	.exec = cmd_check_exec,
};
