/*
 * test-preflight.c: the pre-flight's reasons for hardware this machine
 * lacks (a VFIO device, SEV, TDX, IBM Secure Execution, a vDPA NIC), and
 * the ones it has, on a recorded QEMU: the replies QEMU 7.2 gave
 * `qmigrate check` here (tests/preflight/pc-tcg.json),
 * replayed by command and arguments, with the QOM nodes and replies of the
 * device under test added the way QEMU names them.
 *
 * Recorded rather than real because real QEMU cannot be made to have these
 * devices on this machine (no IOMMU group, no SEV or TDX CPU, no s390x, no
 * vDPA device).  What this machine's QEMU can show (virtiofs, persistent
 * reservations, hot-plug, block jobs, hv-passthrough, hv-reenlightenment
 * without a TSC frequency, the max CPU model) is also tested for real:
 * tests/integration/check-reasons.sh.
 */
#include <sys/socket.h>

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "preflight.h"
#include "policy.h"
#include "qmp.h"
#include "fake-peer.h"

#ifndef PREFLIGHT_RECORDING
#error "PREFLIGHT_RECORDING must name tests/preflight/pc-tcg.json"
#endif

/* The recorded monitor: the fake peer answers from the recording. */
struct recorded {
	json_object		*doc;		/* greeting, replies */
	json_object		*replies;	/* borrowed from doc */
};

/*
 * The reply to msg: the recording's under "COMMAND[ PATH[ PROPERTY]]" (or
 * "human-monitor-command COMMAND-LINE"); an unrecorded qom-list is a node
 * without children, anything else unrecorded an error.
 */
static json_object *
rec_answer(json_object *msg, void *arg)
{
	struct recorded	*r = arg;
	json_object	*args = NULL, *reply, *out;
	const char	*cmd = json_str_at(msg, "execute");
	char		 key[512];

	assert_non_null(cmd);
	json_object_object_get_ex(msg, "arguments", &args);
	if (strcmp(cmd, "human-monitor-command") == 0)
		snprintf(key, sizeof key, "%s %s", cmd,
		    json_str_at(args, "command-line"));
	else if (json_str_at(args, "property") != NULL)
		snprintf(key, sizeof key, "%s %s %s", cmd,
		    json_str_at(args, "path"), json_str_at(args, "property"));
	else if (json_str_at(args, "path") != NULL)
		snprintf(key, sizeof key, "%s %s", cmd,
		    json_str_at(args, "path"));
	else
		snprintf(key, sizeof key, "%s", cmd);
	out = json_object_new_object();
	if (json_object_object_get_ex(r->replies, key, &reply)) {
		json_object_object_foreach(reply, k, v)
			json_object_object_add(out, k, json_object_get(v));
	} else if (strcmp(cmd, "qom-list") == 0 ||
	    strcmp(cmd, "qmp_capabilities") == 0)
		json_object_object_add(out, "return",
		    strcmp(cmd, "qom-list") == 0 ? json_object_new_array() :
		    json_object_new_object());
	else
		json_object_object_add(out, "error", json_tokener_parse(
		    "{\"class\": \"GenericError\", "
		    "\"desc\": \"not in the recording\"}"));
	return out;
}

struct fixture {
	struct ev_loop		*loop;
	struct qmp_conn		*qmp;
	struct recorded		 rec;
	struct fake_peer	*peer;
	json_object		*conditions;
	char			*summary;
	int			 rc;
};

static int
setup(void **state)
{
	struct fixture	*f = xcalloc(1, sizeof *f);
	json_object	*greeting;
	char		*cause = NULL;

	f->rec.doc = policy_read_json("recording", PREFLIGHT_RECORDING,
	    &cause);
	if (f->rec.doc == NULL)
		fail_msg("%s", cause);
	assert_true(json_object_object_get_ex(f->rec.doc, "replies",
	    &f->rec.replies));
	fake_peer_pair(&f->loop, &f->qmp, &f->peer, QMP_PROTO_MONITOR,
	    "recorded");
	fake_peer_answer_with(f->peer, rec_answer, &f->rec);
	assert_true(json_object_object_get_ex(f->rec.doc, "greeting",
	    &greeting));
	fake_peer_send(f->peer, greeting);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	fake_peer_pair_free(f->loop, f->qmp, f->peer);
	json_object_put(f->rec.doc);
	json_object_put(f->conditions);
	free(f->summary);
	free(f);
	return 0;
}

/* Replaces the recorded reply under key with {"return": JSON-TEXT}. */
static void
set_reply(struct fixture *f, const char *key, const char *json)
{
	json_object *r = json_object_new_object(), *v;

	v = json_tokener_parse(json);
	assert_non_null(v);
	json_object_object_add(r, "return", v);
	json_object_object_add(f->rec.replies, key, r);
}

/* Adds the child name of QOM type to the recorded node parent. */
static void
add_child(struct fixture *f, const char *parent, const char *name,
    const char *type)
{
	json_object	*r, *list, *c;
	char		 key[256], t[128];

	snprintf(key, sizeof key, "qom-list %s", parent);
	if (!json_object_object_get_ex(f->rec.replies, key, &r)) {
		set_reply(f, key, "[]");
		json_object_object_get_ex(f->rec.replies, key, &r);
	}
	assert_true(json_object_object_get_ex(r, "return", &list));
	c = json_object_new_object();
	json_object_object_add(c, "name", json_object_new_string(name));
	snprintf(t, sizeof t, "child<%s>", type);
	json_object_object_add(c, "type", json_object_new_string(t));
	json_object_array_add(list, c);
}

static void
run(struct fixture *f)
{
	struct mig_settings s;

	policy_defaults(&s);
	f->rc = preflight_run(f->loop, f->qmp, &s, NULL, &f->conditions,
	    &f->summary);
	mig_settings_free(&s);
	assert_int_not_equal(f->rc, -1);
}

/* How many reasons of condition type are named reason. */
static int
count(struct fixture *f, const char *type, const char *list,
    const char *reason)
{
	json_object	*c, *reasons;
	size_t		 i, j;
	int		 n = 0;

	for (i = 0; i < json_object_array_length(f->conditions); i++) {
		c = json_object_array_get_idx(f->conditions, i);
		if (strcmp(json_str_at(c, "type"), type) != 0 ||
		    !json_object_object_get_ex(c, list, &reasons))
			continue;
		for (j = 0; j < json_object_array_length(reasons); j++)
			n += strcmp(json_str_at(json_object_array_get_idx(
			    reasons, j), "reason"), reason) == 0;
	}
	return n;
}

static void
expect_reason(struct fixture *f, const char *reason, const char *needle)
{
	run(f);
	assert_int_equal(f->rc, 0);
	if (count(f, "LiveMigratable", "reasons", reason) != 1)
		fail_msg("expected one %s in: %s", reason, f->summary);
	if (needle != NULL && strstr(f->summary, needle) == NULL)
		fail_msg("no \"%s\" in: %s", needle, f->summary);
}

/* The recording as it is: live-migratable, TCG's warning only. */
static void
test_recorded_guest(void **state)
{
	struct fixture *f = *state;

	run(f);
	assert_int_equal(f->rc, 1);
	assert_int_equal(count(f, "LiveMigratable", "warnings",
	    "TCGDirtyTrackingDefect"), 1);
	assert_non_null(strstr(f->summary, "live-migratable"));
}

/* A VFIO NIC, reported once (not again for the nodes under it). */
static void
test_host_device(void **state)
{
	struct fixture *f = *state;

	add_child(f, "/machine/peripheral", "hostnet0", "vfio-pci");
	add_child(f, "/machine/peripheral/hostnet0", "bus master container",
	    "qemu:memory-region");
	add_child(f, "/machine/peripheral/hostnet0", "vfio-msix",
	    "vfio-pci-nohotplug");
	expect_reason(f, "HostDeviceNotLiveMigratable",
	    "/machine/peripheral/hostnet0 is a VFIO host device (vfio-pci)");
}

/* virtiofs (also tested for real): one reason for the device's two nodes. */
static void
test_virtiofs(void **state)
{
	struct fixture *f = *state;

	add_child(f, "/machine/peripheral-anon", "device[0]",
	    "vhost-user-fs-pci");
	add_child(f, "/machine/peripheral-anon/device[0]", "virtio-backend",
	    "vhost-user-fs-device");
	expect_reason(f, "VirtIOFSNotLiveMigratable", "vhost-user-fs-pci");
}

/* A guest never started (QEMU -S, no cont): it would arrive so. */
static void
test_never_started(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "query-status", "{ \"status\": \"prelaunch\", "
	    "\"running\": false, \"singlestep\": false }");
	expect_reason(f, "GuestNotStarted", "never started");
}

/* SEV: query-sev says so. */
static void
test_sev(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "query-sev", "{ \"enabled\": true, \"api-major\": 0, "
	    "\"api-minor\": 24, \"build-id\": 15, \"policy\": 1, \"state\": "
	    "\"running\", \"handle\": 1 }");
	add_child(f, "/objects", "sev0", "sev-guest");
	expect_reason(f, "SEVNotLiveMigratable", "AMD SEV");
}

/* Intel TDX: the confidential-guest-support object. */
static void
test_tdx(void **state)
{
	struct fixture *f = *state;

	add_child(f, "/objects", "tdx0", "tdx-guest");
	expect_reason(f, "TDXNotLiveMigratable", "/objects/tdx0");
}

/* IBM Secure Execution (s390x protected virtualization). */
static void
test_secure_execution(void **state)
{
	struct fixture *f = *state;

	add_child(f, "/objects", "pv0", "s390-pv-guest");
	expect_reason(f, "SecureExecutionNotLiveMigratable", "/objects/pv0");
}

/* hv-passthrough on a vCPU (also tested for real). */
static void
test_hyperv_passthrough(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "qom-get /machine/unattached/device[0] hv-passthrough",
	    "true");
	expect_reason(f, "HypervPassthroughNotLiveMigratable",
	    "/machine/unattached/device[0] has hv-passthrough");
}

/*
 * Hyper-V reenlightenment without a TSC frequency (also tested for real);
 * with one (given, or read from the host under KVM) the guest may move.
 */
static void
test_no_tsc_frequency(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "qom-get /machine/unattached/device[0] "
	    "hv-reenlightenment", "true");
	expect_reason(f, "NoTSCFrequencyNotLiveMigratable",
	    "vCPU /machine/unattached/device[0] has hv-reenlightenment but "
	    "no TSC frequency");
	json_object_put(f->conditions);
	f->conditions = NULL;
	free(f->summary);
	f->summary = NULL;
	set_reply(f, "qom-get /machine/unattached/device[0] tsc-frequency",
	    "2100000000");
	run(f);
	assert_int_equal(f->rc, 1);
	assert_int_equal(count(f, "LiveMigratable", "reasons",
	    "NoTSCFrequencyNotLiveMigratable"), 0);
}

/* The host's CPU model: KubeVirt's CPUModeLiveMigratable, as a warning. */
static void
test_cpu_mode(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "qom-get /machine/unattached/device[0] type",
	    "\"host-x86_64-cpu\"");
	run(f);
	assert_int_equal(f->rc, 1);
	assert_int_equal(count(f, "LiveMigratable", "warnings",
	    "CPUModeLiveMigratable"), 1);
	assert_non_null(strstr(f->summary, "warning CPUModeLiveMigratable: "
	    "the vCPUs use the host CPU model"));
}

/* The condition's reason: KubeVirt's, the first for LiveMigratable. */
static const char *
condition_reason(struct fixture *f, const char *type)
{
	json_object	*c;
	size_t		 i;

	for (i = 0; i < json_object_array_length(f->conditions); i++) {
		c = json_object_array_get_idx(f->conditions, i);
		if (strcmp(json_str_at(c, "type"), type) == 0)
			return json_str_at(c, "reason");
	}
	fail_msg("no %s condition", type);
	return NULL;
}

/*
 * Persistent reservations: both conditions (also tested for real), each
 * with KubeVirt's reason: the first one for LiveMigratable, NotMigratable
 * for StorageLiveMigratable.
 */
static void
test_persistent_reservation(void **state)
{
	struct fixture *f = *state;

	add_child(f, "/objects", "pr0", "pr-manager-helper");
	expect_reason(f, "PersistentReservationNotLiveMigratable", NULL);
	assert_int_equal(count(f, "StorageLiveMigratable", "reasons",
	    "PersistentReservationNotLiveMigratable"), 1);
	assert_string_equal(condition_reason(f, "LiveMigratable"),
	    "PersistentReservationNotLiveMigratable");
	assert_string_equal(condition_reason(f, "StorageLiveMigratable"),
	    "NotMigratable");
}

/* A vDPA NIC blocks; a tap one does not. */
static void
test_interface(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "human-monitor-command info network",
	    "\"net1: index=0,type=nic,model=virtio-net-pci,"
	    "macaddr=52:54:00:12:34:57\\r\\n \\\\ hostnet1: index=0,"
	    "type=tap,ifname=tap0,script=no,downscript=no\\r\\n"
	    "net0: index=0,type=nic,model=virtio-net-pci,"
	    "macaddr=52:54:00:12:34:56\\r\\n \\\\ vdpa0: index=0,"
	    "type=vhost-vdpa,vhost-vdpa\\r\\n\"");
	expect_reason(f, "InterfaceNotLiveMigratable",
	    "NIC net0 (virtio-net-pci) is on vhost-vdpa backend vdpa0");
	assert_null(strstr(f->summary, "net1"));
}

/* A hot-plugged device (also tested for real); a cold-plugged one is fine. */
static void
test_hotplug(void **state)
{
	struct fixture *f = *state;

	add_child(f, "/machine/peripheral", "rng0", "virtio-rng-pci");
	add_child(f, "/machine/peripheral", "disk0", "virtio-blk-pci");
	set_reply(f, "qom-get /machine/peripheral/rng0 hotplugged", "true");
	set_reply(f, "qom-get /machine/peripheral/disk0 hotplugged", "false");
	expect_reason(f, "HotplugNotLiveMigratable",
	    "/machine/peripheral/rng0 (virtio-rng-pci) was hot-plugged");
	assert_null(strstr(f->summary, "disk0"));
}

/* A running backup blocks; qmigrate's own mirror and a finished job do not. */
static void
test_block_jobs(void **state)
{
	struct fixture *f = *state;

	set_reply(f, "query-block-jobs", "["
	    "{ \"device\": \"backup0\", \"type\": \"backup\", \"status\": "
	    "\"running\", \"len\": 67108864, \"offset\": 1048576, \"busy\": "
	    "false, \"paused\": false, \"speed\": 1024, \"ready\": false, "
	    "\"io-status\": \"ok\", \"auto-finalize\": true, "
	    "\"auto-dismiss\": true },"
	    "{ \"device\": \"qm-mirror-d0\", \"type\": \"mirror\", "
	    "\"status\": \"ready\" },"
	    "{ \"device\": \"stream0\", \"type\": \"stream\", \"status\": "
	    "\"concluded\" } ]");
	expect_reason(f, "BlockJobNotLiveMigratable",
	    "block job backup0 (backup) is running");
	assert_int_equal(count(f, "StorageLiveMigratable", "reasons",
	    "BlockJobNotLiveMigratable"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_recorded_guest, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_host_device, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_virtiofs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_started, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_sev, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tdx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_secure_execution, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hyperv_passthrough, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_no_tsc_frequency, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cpu_mode, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_persistent_reservation,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_interface, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_hotplug, setup, teardown),
		cmocka_unit_test_setup_teardown(test_block_jobs, setup,
		    teardown),
	};

	log_init("test-preflight", LOG_LEVEL_WARN, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
