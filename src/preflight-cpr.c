/*
 * preflight-cpr.c: can this guest be updated in place, by cpr-transfer to
 * a new QEMU on the same host (`qmigrate update`, `qmigrate check
 * --update`), and why not, in QEMU's own words where QEMU gives them.
 *
 * QEMU keeps migration blockers per mode and query-migrate lists those of
 * the mode set ("blocked-reasons"): with mode cpr-transfer set, that list
 * is QEMU's own verdict (RAM not in a shared backend or no aux-ram-share,
 * naming each memory region; the devices cpr-transfer cannot keep).  The
 * mode is put back as it was afterwards.  What QEMU does not list is
 * checked here: its version (cpr-transfer came with 10.0), post-copy
 * asked for by the policy (QEMU refuses it with CPR), a single-queue tap
 * opened by name (the new QEMU cannot open it while the old one holds it:
 * "Device or resource busy"), vhost (its state is not kept), VFIO before
 * 10.1 and mdev (cpr-transfer keeps VFIO devices from 10.1, mediated ones
 * never), and guest_memfd (a confidential guest's memory: SEV-SNP, TDX),
 * which cpr refuses.
 *
 * cpr-exec (10.2: the QEMU process execs the new binary, the RAM stays in
 * its memfd) gets its own condition: QEMU's blockers with that mode set,
 * and the same RAM, post-copy and device reasons, because QEMU 11.1 lists
 * no blocker for unshared RAM in mode cpr-exec, execs anyway, and the new
 * QEMU fails to load the guest (reference/qemu-cpr-exec.md, trap 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "preflight.h"
#include "mig-info.h"
#include "qmp.h"

#define CPR_TIMEOUT	10.0	/* seconds per QMP command */
#define CPR_MAX_TAPS	32

static void cpr_add(json_object *, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
cpr_add(json_object *list, const char *reason, const char *fmt, ...)
{
	json_object	*r = json_object_new_object();
	va_list		 ap;
	char		*msg;

	va_start(ap, fmt);
	xvasprintf(&msg, fmt, ap);
	va_end(ap);
	json_object_object_add(r, "reason", json_object_new_string(reason));
	json_object_object_add(r, "message", json_object_new_string(msg));
	json_object_array_add(list, r);
	free(msg);
}

/* migrate-set-parameters mode=mode; 0, or -1 with *cause. */
static int
cpr_set_mode(struct qmp_conn *qmp, const char *mode, int *unanswered,
    char **cause)
{
	json_object *args = json_object_new_object();
	int	     none;

	json_object_object_add(args, "mode", json_object_new_string(mode));
	return qmp_call_unanswered(qmp, "migrate-set-parameters", args, NULL,
	    CPR_TIMEOUT, unanswered != NULL ? unanswered : &none, cause);
}

/*
 * QEMU's blockers for mode (cpr-transfer, cpr-exec: query-migrate's
 * blocked-reasons with the mode set), the mode put back after; *left set
 * when that put-back got no answer, so that mode may still be QEMU's.
 * Returns -1 when QMP failed.
 */
static int
cpr_blockers(struct qmp_conn *qmp, const char *mode, json_object *reasons,
    int *left, char **cause)
{
	json_object	*reply = NULL, *list;
	const char	*status, *was;
	char		*old = NULL, *err = NULL;
	size_t		 i;
	int		 rc = 0, unanswered = 0;

	if (qmp_call(qmp, "query-migrate", NULL, &reply, CPR_TIMEOUT,
	    cause) != 0)
		return -1;
	status = json_str_at(reply, "status");
	if (status != NULL && qemu_mig_status_in_progress(
	    qemu_mig_status_parse(status))) {
		cpr_add(reasons, "MigrationInProgress", "QEMU is migrating "
		    "(%s): its blockers for %s are read when it is not",
		    status, mode);
		json_object_put(reply);
		return 0;
	}
	json_object_put(reply);
	if (qmp_call(qmp, "query-migrate-parameters", NULL, &reply,
	    CPR_TIMEOUT, cause) != 0)
		return -1;
	was = json_str_at(reply, "mode");
	old = xstrdup(was != NULL ? was : "normal");
	json_object_put(reply);
	if (cpr_set_mode(qmp, mode, &unanswered, &err) != 0) {
		if (unanswered) {
			/*
			 * No word is no refusal: QEMU may set the mode late.
			 * Put back behind it (QEMU takes them in order), or a
			 * later migrate runs in it (sim-real --update-exec).
			 */
			*cause = err;
			err = NULL;
			rc = -1;
		} else {
			/* QEMU's word on the mode itself. */
			cpr_add(reasons, "CprRefused", "%s", err);
			free(err);
			free(old);
			return 0;
		}
	}
	reply = NULL;
	if (rc == 0 && qmp_call(qmp, "query-migrate", NULL, &reply,
	    CPR_TIMEOUT, cause) != 0)
		rc = -1;
	else if (rc == 0 && json_object_object_get_ex(reply,
	    "blocked-reasons", &list))
		for (i = 0; i < json_object_array_length(list); i++) {
			const char *why = json_object_get_string(
			    json_object_array_get_idx(list, i));

			cpr_add(reasons, strstr(why, "Memory region") != NULL ?
			    "RAMNotShared" : "CprBlocked", "%s", why);
		}
	json_object_put(reply);
	/*
	 * Put back even when the probe got no answer (audit N11).  A
	 * put-back with no answer either (a monitor that went mute: a relay
	 * or QEMU holding the connection) is the caller's to do again.
	 */
	if (strcmp(old, mode) != 0 &&
	    cpr_set_mode(qmp, old, &unanswered, &err) != 0) {
		log_warnx("migrate-set-parameters mode %s: %s", old, err);
		free(err);
		if (unanswered && left != NULL)
			*left = 1;
	}
	free(old);
	return rc;
}

/*
 * The netdevs of `info network`: a tap opened by name (ifname=, not fd=)
 * with one queue only (no index=1 line under the same name), and vhost.
 */
static int
cpr_netdevs(struct qmp_conn *qmp, json_object *reasons, char **cause)
{
	json_object	*args, *reply = NULL;
	const char	*text, *line, *end;
	char		 names[CPR_MAX_TAPS][64], buf[512], *name;
	int		 multi[CPR_MAX_TAPS];
	size_t		 n = 0, i, len;

	args = json_object_new_object();
	json_object_object_add(args, "command-line",
	    json_object_new_string("info network"));
	if (qmp_call(qmp, "human-monitor-command", args, &reply, CPR_TIMEOUT,
	    cause) != 0)
		return -1;
	text = json_object_get_string(reply);
	for (line = text; line != NULL && *line != '\0'; line = end) {
		end = strchr(line, '\n');
		len = end != NULL ? (size_t)(end - line) : strlen(line);
		if (end != NULL)
			end++;
		snprintf(buf, sizeof buf, "%.*s", (int)len, line);
		if (strstr(buf, "type=vhost-user") != NULL ||
		    strstr(buf, "vhost=on") != NULL)
			cpr_add(reasons, "VhostNotKept", "%s: vhost's state "
			    "is not kept by cpr-transfer", buf);
		if (strstr(buf, "type=tap") == NULL ||
		    strstr(buf, "ifname=") == NULL)
			continue;
		name = buf + strspn(buf, " \\");
		name[strcspn(name, ":")] = '\0';
		for (i = 0; i < n && strcmp(names[i], name) != 0; i++)
			;
		if (i == n && n < CPR_MAX_TAPS) {
			snprintf(names[n], sizeof names[n], "%s", name);
			multi[n++] = 0;
		}
		if (i < n && strstr(name + strlen(name) + 1, "index=0") ==
		    NULL)
			multi[i] = 1;
	}
	for (i = 0; i < n; i++)
		if (!multi[i])
			cpr_add(reasons, "SingleQueueTap", "netdev %s is a "
			    "single-queue tap opened by name: the new QEMU "
			    "cannot open it while the old one holds it "
			    "(\"Device or resource busy\"); give it "
			    "queues=2 or more, or pass its fd", names[i]);
	json_object_put(reply);
	return 0;
}

/* The value of "NAME = VALUE" at p (a line of `info qtree`), or "". */
static void
qtree_prop(const char *text, const char *name, char *val, size_t len)
{
	const char	*p = strstr(text, name);
	size_t		 n;

	val[0] = '\0';
	if (p == NULL || (p = strchr(p, '"')) == NULL)
		return;
	n = strcspn(p + 1, "\"\r\n");
	snprintf(val, len, "%.*s", (int)n, p + 1);
}

/*
 * The devices of `info qtree` and the objects of /objects cpr-transfer
 * cannot keep: VFIO before 10.1, mdev (a vfio-pci whose sysfsdev is a
 * mediated device), a confidential guest's guest_memfd.
 */
static int
cpr_devices(struct qmp_conn *qmp, int major, int minor, json_object *reasons,
    char **cause)
{
	json_object	*args, *reply = NULL;
	const char	*text, *dev, *next, *type;
	char		 id[64], sysfs[256], *block;
	size_t		 i, len;

	args = json_object_new_object();
	json_object_object_add(args, "command-line",
	    json_object_new_string("info qtree"));
	if (qmp_call(qmp, "human-monitor-command", args, &reply, CPR_TIMEOUT,
	    cause) != 0)
		return -1;
	text = json_object_get_string(reply);
	for (dev = strstr(text, "dev: vfio-pci,"); dev != NULL; dev = next) {
		next = strstr(dev + 1, "dev: ");
		len = next != NULL ? (size_t)(next - dev) : strlen(dev);
		block = xstrndup(dev, len);
		qtree_prop(block, "id ", id, sizeof id);
		qtree_prop(block, "sysfsdev = ", sysfs, sizeof sysfs);
		if (strstr(sysfs, "mdev") != NULL)
			cpr_add(reasons, "MdevNotKept", "vfio-pci \"%s\" is a "
			    "mediated device (%s): cpr-transfer does not keep "
			    "it", id, sysfs);
		else if (major < 10 || (major == 10 && minor < 1))
			cpr_add(reasons, "VFIONotKept", "vfio-pci \"%s\": "
			    "cpr-transfer keeps VFIO devices from QEMU 10.1, "
			    "this QEMU is %d.%d", id, major, minor);
		free(block);
		if (next != NULL)
			next = strstr(next, "dev: vfio-pci,");
	}
	json_object_put(reply);
	args = json_object_new_object();
	json_object_object_add(args, "path", json_object_new_string("/objects"));
	reply = NULL;
	if (qmp_call(qmp, "qom-list", args, &reply, CPR_TIMEOUT, cause) != 0)
		return -1;
	for (i = 0; i < json_object_array_length(reply); i++) {
		json_object *o = json_object_array_get_idx(reply, i);

		if ((type = json_str_at(o, "type")) != NULL &&
		    (strstr(type, "sev-snp-guest") != NULL ||
		    strstr(type, "tdx-guest") != NULL))
			cpr_add(reasons, "GuestMemfd", "object %s (%s): a "
			    "confidential guest's memory is guest_memfd, which "
			    "cpr-transfer refuses", json_str_at(o, "name"),
			    type);
	}
	json_object_put(reply);
	return 0;
}

/*
 * The condition {type, status, reason, message, reasons} of reasons (which
 * it takes), and *summary one line of them or "updatable in place".
 * Returns 1 when there is none, else 0.
 */
static int
cpr_condition(json_object *reasons, const char *type, json_object **condition,
    char **summary)
{
	json_object	*c;
	char		*line = NULL, *next;
	size_t		 i, n;

	n = json_object_array_length(reasons);
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(reasons, i);

		xasprintf(&next, "%s%s%s: %s", line != NULL ? line : "",
		    i ? "; " : "", json_str_at(r, "reason"),
		    json_str_at(r, "message"));
		free(line);
		line = next;
	}
	c = json_object_new_object();
	json_object_object_add(c, "type", json_object_new_string(type));
	json_object_object_add(c, "status",
	    json_object_new_string(n == 0 ? "True" : "False"));
	json_object_object_add(c, "reason", json_object_new_string(n == 0 ?
	    "" : json_str_at(json_object_array_get_idx(reasons, 0),
	    "reason")));
	json_object_object_add(c, "message", json_object_new_string(n == 0 ?
	    "" : line));
	json_object_object_add(c, "reasons", reasons);
	*condition = c;
	*summary = n == 0 ? xstrdup("updatable in place") : line;
	if (n == 0)
		free(line);
	return n == 0;
}

/*
 * Whether the guest of the QEMU behind qmp (driven on loop, qmp's) can be
 * updated in place under settings.  Returns 1 (it can) or 0 (not), with
 * *condition a new {type InPlaceUpdatable, status, reason, message,
 * reasons} and *summary one line of every reason (or "updatable in
 * place"); -1 when QMP failed, *summary the cause.  QEMU's cpr-transfer
 * mode is set for a moment and put back; *mode_left (may be NULL) is set
 * when the put-back got no answer.
 */
int
preflight_cpr(struct ev_loop *loop, struct qmp_conn *qmp,
    const struct mig_settings *settings, int *mode_left,
    json_object **condition, char **summary)
{
	json_object	*reasons = json_object_new_array();
	char		*cause = NULL;
	int		 major = 0, minor = 0, micro = 0;

	(void)loop;
	*condition = NULL;
	*summary = NULL;
	qmp_qemu_version(qmp, &major, &minor, &micro);
	if (major < 10)
		cpr_add(reasons, "QEMUTooOld", "QEMU %d.%d.%d has no "
		    "cpr-transfer (QEMU 10.0 added it)", major, minor, micro);
	else if (cpr_blockers(qmp, "cpr-transfer", reasons, mode_left,
	    &cause) != 0 ||
	    cpr_netdevs(qmp, reasons, &cause) != 0 ||
	    cpr_devices(qmp, major, minor, reasons, &cause) != 0) {
		xasprintf(summary, "pre-flight check (in-place update): %s",
		    cause);
		free(cause);
		json_object_put(reasons);
		return -1;
	}
	if (settings->allow_post_copy)
		cpr_add(reasons, "PostCopyRequested", "the policy allows "
		    "post-copy, which QEMU refuses with cpr-transfer (\"Cannot "
		    "use postcopy with CPR\")");

	return cpr_condition(reasons, "InPlaceUpdatable", condition, summary);
}

/*
 * The reasons of the cpr-transfer condition that hold for cpr-exec too:
 * the RAM (QEMU blocks cpr-exec for none of it: its new QEMU cannot load
 * a guest whose RAM was not shared, and the guest is lost, so this is
 * the only place it is caught), post-copy, and the devices CPR does not
 * keep, whichever mode passes them.
 */
static void
cpr_exec_from_transfer(json_object *transfer, json_object *reasons)
{
	static const char *const shared[] = { "RAMNotShared",
	    "PostCopyRequested", "SingleQueueTap", "VhostNotKept",
	    "VFIONotKept", "MdevNotKept", "GuestMemfd" };
	json_object	*list;
	size_t		 i, j;

	if (!json_object_object_get_ex(transfer, "reasons", &list))
		return;
	for (i = 0; i < json_object_array_length(list); i++) {
		json_object	*r = json_object_array_get_idx(list, i);
		const char	*reason = json_str_at(r, "reason");

		for (j = 0; j < sizeof shared / sizeof shared[0]; j++)
			if (reason != NULL && strcmp(reason, shared[j]) == 0)
				break;
		if (j == sizeof shared / sizeof shared[0])
			continue;
		if (strcmp(reason, "RAMNotShared") == 0)
			cpr_add(reasons, reason, "%s (QEMU's word for "
			    "cpr-transfer: QEMU does not block cpr-exec for "
			    "it, but the new QEMU cannot load such a guest, "
			    "which would be lost)", json_str_at(r, "message"));
		else
			cpr_add(reasons, reason, "%s",
			    json_str_at(r, "message"));
	}
}

/*
 * Whether the guest can be updated in place by cpr-exec (`update --mode
 * exec`: the QEMU process execs the new binary), given transfer, the
 * condition preflight_cpr() made for the same guest.  Returns 1, 0 or -1
 * as preflight_cpr(), with *condition {type InPlaceUpdatableByExec, ...}.
 * QEMU's mode is set to cpr-exec for a moment and put back (*mode_left
 * as there).
 */
int
preflight_cpr_exec(struct qmp_conn *qmp, json_object *transfer,
    int *mode_left, json_object **condition, char **summary)
{
	json_object	*reasons = json_object_new_array();
	char		*cause = NULL;
	int		 major = 0, minor = 0, micro = 0;

	*condition = NULL;
	*summary = NULL;
	qmp_qemu_version(qmp, &major, &minor, &micro);
	if (major < 10 || (major == 10 && minor < 2)) {
		cpr_add(reasons, "QEMUTooOld", "QEMU %d.%d.%d has no cpr-exec "
		    "(QEMU 10.2 added it)", major, minor, micro);
		return cpr_condition(reasons, "InPlaceUpdatableByExec",
		    condition, summary);
	}
	if (cpr_blockers(qmp, "cpr-exec", reasons, mode_left, &cause) != 0) {
		xasprintf(summary, "pre-flight check (in-place update by "
		    "exec): %s", cause);
		free(cause);
		json_object_put(reasons);
		return -1;
	}
	cpr_exec_from_transfer(transfer, reasons);
	return cpr_condition(reasons, "InPlaceUpdatableByExec", condition,
	    summary);
}
