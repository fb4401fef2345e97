/*
 * test-negotiate.c: what two QEMUs can do together (mig-negotiate.c), on
 * the capability lists QEMU 7.2.22, 10.0.13 and 11.1.3 report here, and
 * the comparison that refuses a target unlike the guest before any memory
 * moves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-control.h"
#include "mig-job.h"

/* query-migrate-capabilities' names, as each QEMU lists them here. */
static const char *caps_72 =
    "xbzrle rdma-pin-all auto-converge zero-blocks compress events "
    "postcopy-ram x-colo release-ram block return-path "
    "pause-before-switchover multifd dirty-bitmaps postcopy-blocktime "
    "late-block-activate x-ignore-shared validate-uuid background-snapshot "
    "zero-copy-send postcopy-preempt";
static const char *caps_100 =
    "xbzrle rdma-pin-all auto-converge zero-blocks events postcopy-ram "
    "x-colo release-ram return-path pause-before-switchover multifd "
    "dirty-bitmaps postcopy-blocktime late-block-activate x-ignore-shared "
    "validate-uuid background-snapshot zero-copy-send postcopy-preempt "
    "switchover-ack dirty-limit mapped-ram";
static const char *caps_111 =
    "xbzrle rdma-pin-all auto-converge events postcopy-ram x-colo "
    "release-ram return-path pause-before-switchover multifd dirty-bitmaps "
    "postcopy-blocktime late-block-activate x-ignore-shared validate-uuid "
    "background-snapshot zero-copy-send postcopy-preempt switchover-ack "
    "dirty-limit mapped-ram";

/* A query-migrate-capabilities reply listing names (all off). */
static json_object *
reply_of(const char *names)
{
	json_object	*r = json_object_new_array(), *c;
	char		*copy = strdup(names), *p, *save = NULL;

	for (p = strtok_r(copy, " ", &save); p != NULL;
	    p = strtok_r(NULL, " ", &save)) {
		c = json_object_new_object();
		json_object_object_add(c, "capability",
		    json_object_new_string(p));
		json_object_object_add(c, "state",
		    json_object_new_boolean(0));
		json_object_array_add(r, c);
	}
	free(copy);
	return r;
}

static struct qemu_side
side(int major, int minor, int micro, const char *names)
{
	struct qemu_side	 q;
	json_object		*r = reply_of(names);

	memset(&q, 0, sizeof q);
	q.major = major;
	q.minor = minor;
	q.micro = micro;
	q.caps = mig_caps_listed(r);
	q.kvm = 0;
	json_object_put(r);
	return q;
}

static struct qemu_side q72(void) { return side(7, 2, 22, caps_72); }
static struct qemu_side q100(void) { return side(10, 0, 13, caps_100); }
static struct qemu_side q111(void) { return side(11, 1, 3, caps_111); }

/* The reason given for capability name ("on: ..." or "off: ..."). */
static const char *
reason(json_object *why, const char *name)
{
	const char *s = json_str_at(why, name);

	assert_non_null(s);
	return s;
}

static void
test_listed(void **state)
{
	struct qemu_side a = q72(), b = q100(), c = q111();

	(void)state;
	assert_true(a.caps & MIG_CAP_BIT(MIG_CAP_COMPRESS));
	assert_true(a.caps & MIG_CAP_BIT(MIG_CAP_BLOCK));
	assert_false(a.caps & MIG_CAP_BIT(MIG_CAP_DIRTY_LIMIT));
	assert_true(b.caps & MIG_CAP_BIT(MIG_CAP_ZERO_BLOCKS));
	assert_false(b.caps & MIG_CAP_BIT(MIG_CAP_COMPRESS));
	assert_true(b.caps & MIG_CAP_BIT(MIG_CAP_SWITCHOVER_ACK));
	/* 11.x dropped zero-blocks, compress and block. */
	assert_false(c.caps & MIG_CAP_BIT(MIG_CAP_ZERO_BLOCKS));
	assert_false(c.caps & MIG_CAP_BIT(MIG_CAP_COMPRESS));
	assert_false(c.caps & MIG_CAP_BIT(MIG_CAP_BLOCK));
	assert_true(c.caps & MIG_CAP_BIT(MIG_CAP_POSTCOPY_PREEMPT));
	assert_int_equal(mig_caps_listed(NULL), 0);
}

/* Row (issue 37, long run at 71c512f: seeds 1018411 1066391, QEMU 7.2):
 * the source's query-migrate-capabilities unanswered, the plan is the
 * least, and it had no return-path: over unix: the source completed on the
 * stream's last byte while the target failed its load (0, the guest
 * nowhere).  Every QEMU lists return-path: the least plan sets it. */
static void
test_plan_least_return_path(void **state)
{
	struct mig_plan p;

	(void)state;
	memset(&p, 0, sizeof p);
	p.postcopy = 1;
	p.multifd = 1;
	p.channels = 4;
	mig_plan_least(&p);
	assert_true(p.return_path);
	assert_false(p.multifd);
	assert_int_equal(p.channels, 0);
}

/* post-copy allowed, both QEMUs list postcopy-preempt: it is on. */
static void
test_preempt(void **state)
{
	struct mig_wants	 w = { .postcopy = 1 };
	struct qemu_side	 pairs[][2] = {
		{ q72(), q72() }, { q72(), q100() }, { q100(), q111() },
		{ q111(), q111() },
	};
	struct mig_plan		 plan;
	json_object		*why;
	size_t			 i;

	(void)state;
	for (i = 0; i < NITEMS(pairs); i++) {
		memset(&plan, 0, sizeof plan);
		why = mig_negotiate(&w, &pairs[i][0], &pairs[i][1], &plan);
		assert_true(plan.postcopy);
		assert_true(plan.postcopy_preempt);
		assert_true(plan.postcopy_blocktime);
		assert_false(plan.multifd);
		assert_non_null(strstr(reason(why, "postcopy-preempt"),
		    "on: post-copy is allowed and both QEMUs list it"));
		json_object_put(why);
	}
	/* Without post-copy, or without a known target: off, and why. */
	w.postcopy = 0;
	why = mig_negotiate(&w, &pairs[3][0], &pairs[3][1], &plan);
	assert_false(plan.postcopy_preempt);
	assert_string_equal(reason(why, "postcopy-preempt"),
	    "off: no post-copy");
	json_object_put(why);
	w.postcopy = 1;
	{
		struct qemu_side unknown;

		memset(&unknown, 0, sizeof unknown);
		why = mig_negotiate(&w, &pairs[3][0], &unknown, &plan);
		assert_true(plan.postcopy);
		assert_false(plan.postcopy_preempt);
		assert_false(plan.postcopy_blocktime);
		assert_non_null(strstr(reason(why, "postcopy-preempt"),
		    "use tls:"));
		json_object_put(why);
	}
	/* A QEMU that does not list it never gets it. */
	pairs[0][1].caps &= ~MIG_CAP_BIT(MIG_CAP_POSTCOPY_PREEMPT);
	why = mig_negotiate(&w, &pairs[0][0], &pairs[0][1], &plan);
	assert_false(plan.postcopy_preempt);
	assert_string_equal(reason(why, "postcopy-preempt"),
	    "off: the target's QEMU 7.2.22 does not list it");
	json_object_put(why);
}

/* multifd with post-copy: 11.1 with 11.1 only; 7.2 and 10.0 drop multifd. */
static void
test_multifd_postcopy(void **state)
{
	struct mig_wants	 w = { .postcopy = 1, .channels = 4 };
	struct qemu_side	 a = q72(), b = q100(), c = q111();
	struct mig_plan		 plan;
	json_object		*why;

	(void)state;
	why = mig_negotiate(&w, &c, &c, &plan);
	assert_true(plan.multifd);
	assert_int_equal(plan.channels, 4);
	assert_true(plan.postcopy);
	assert_string_equal(reason(why, "multifd"), "on: 4 channels, with "
	    "post-copy: QEMU 11.1.3 and 11.1.3 run both");
	json_object_put(why);

	why = mig_negotiate(&w, &a, &a, &plan);
	assert_false(plan.multifd);
	assert_int_equal(plan.channels, 0);
	assert_true(plan.postcopy);
	assert_non_null(strstr(reason(why, "multifd"), "off: the policy "
	    "allows post-copy and QEMU 7.2.22 crashes the destination"));
	json_object_put(why);

	why = mig_negotiate(&w, &b, &c, &plan);
	assert_false(plan.multifd);
	assert_non_null(strstr(reason(why, "multifd"), "QEMU 10.0.13 "
	    "refuses multifd with post-copy"));
	json_object_put(why);

	/* Without post-copy multifd runs everywhere. */
	w.postcopy = 0;
	why = mig_negotiate(&w, &a, &b, &plan);
	assert_true(plan.multifd);
	assert_false(plan.postcopy);
	assert_string_equal(reason(why, "multifd"), "on: 4 channels");
	assert_string_equal(reason(why, "postcopy-ram"),
	    "off: the policy does not allow post-copy");
	json_object_put(why);
}

/* validate-uuid: only when both sides know the VM's UUID. */
static void
test_validate_uuid(void **state)
{
	struct mig_wants	 w = { 0 };
	struct qemu_side	 a = q100(), b = q111(), none;
	struct mig_plan		 plan;
	json_object		*why;
	const char		*uuid = "7b0c4e2a-1d3f-4a5b-8c6d-9e0f1a2b3c4d";

	(void)state;
	why = mig_negotiate(&w, &a, &b, &plan);
	assert_false(plan.validate_uuid);
	assert_string_equal(reason(why, "validate-uuid"),
	    "off: the source's QEMU has no UUID (-uuid)");
	json_object_put(why);
	strcpy(a.uuid, uuid);
	why = mig_negotiate(&w, &a, &b, &plan);
	assert_false(plan.validate_uuid);
	assert_string_equal(reason(why, "validate-uuid"),
	    "off: the target's QEMU has no UUID (-uuid)");
	json_object_put(why);
	memset(&none, 0, sizeof none);
	why = mig_negotiate(&w, &a, &none, &plan);
	assert_false(plan.validate_uuid);
	json_object_put(why);
	strcpy(b.uuid, uuid);
	why = mig_negotiate(&w, &a, &b, &plan);
	assert_true(plan.validate_uuid);
	assert_false(plan.postcopy);
	assert_false(plan.postcopy_preempt);
	json_object_put(why);
}

/*
 * The throttle: dirty-limit only for the adaptive controller, where the
 * source's QEMU lists it and KVM has a dirty ring, and the target's, when
 * known, lists it too; auto-converge otherwise, each with its reason.
 */
static void
test_throttle(void **state)
{
	struct qemu_side	 kvm = q111(), old = q72(), tcg = q100(), none;
	struct mig_plan		 plan;
	json_object		*why;
	char			 text[320];

	(void)state;
	memset(&none, 0, sizeof none);
	kvm.kvm = 1;
	kvm.dirty_ring = 1;
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &kvm, &kvm,
	    text, sizeof text), MIG_THROTTLE_DIRTY_LIMIT);
	assert_string_equal(text, "dirty-limit: both QEMUs offer it and KVM "
	    "has a dirty ring (QEMU accepted the capability): only the vCPUs "
	    "that dirty memory are slowed, to the rate the controller sets");
	/* unix: the target is not known; the capability is the source's. */
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &kvm, &none,
	    text, sizeof text), MIG_THROTTLE_DIRTY_LIMIT);
	assert_non_null(strstr(text, "the target is not known"));
	/* The kubevirt controller is KubeVirt's. */
	assert_int_equal(mig_throttle_choose(CTL_KUBEVIRT, 1, &kvm, &kvm,
	    text, sizeof text), MIG_THROTTLE_AUTO_CONVERGE);
	assert_string_equal(text, "auto-converge: the kubevirt controller "
	    "throttles as KubeVirt does (auto-converge)");
	/* No throttle allowed: none. */
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 0, &kvm, &kvm,
	    text, sizeof text), MIG_THROTTLE_NONE);
	assert_string_equal(text, "none: the policy does not allow "
	    "auto-converge (allowed, it would be dirty-limit: both QEMUs "
	    "offer it and KVM has a dirty ring (QEMU accepted the "
	    "capability): only the vCPUs that dirty memory are slowed, to "
	    "the rate the controller sets)");
	/* A target QEMU before 8.1. */
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &kvm, &old,
	    text, sizeof text), MIG_THROTTLE_AUTO_CONVERGE);
	assert_string_equal(text, "auto-converge: the target's QEMU 7.2.22 "
	    "does not offer dirty-limit (QEMU 8.1 and later do)");
	old.kvm = 1;
	old.dirty_ring = 1;
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &old, &kvm,
	    text, sizeof text), MIG_THROTTLE_AUTO_CONVERGE);
	assert_string_equal(text, "auto-converge: the source's QEMU 7.2.22 "
	    "does not offer dirty-limit (QEMU 8.1 and later do)");
	/* TCG. */
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &tcg, &tcg,
	    text, sizeof text), MIG_THROTTLE_AUTO_CONVERGE);
	assert_string_equal(text, "auto-converge: TCG has no dirty ring "
	    "(dirty-limit needs KVM's)");
	/* KVM without a ring: QEMU's refusal is quoted. */
	kvm.dirty_ring = 0;
	snprintf(kvm.dirty_ring_why, sizeof kvm.dirty_ring_why,
	    "migrate-set-capabilities: %s", "dirty-limit requires KVM with "
	    "accelerator property 'dirty-ring-size' set");
	assert_true(mig_dirty_ring_refusal("dirty-limit requires KVM with "
	    "accelerator property 'dirty-ring-size' set"));
	assert_false(mig_dirty_ring_refusal("There's a migration process in "
	    "progress"));
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &kvm, &kvm,
	    text, sizeof text), MIG_THROTTLE_AUTO_CONVERGE);
	assert_string_equal(text, "auto-converge: KVM has no dirty ring "
	    "(start QEMU with -accel kvm,dirty-ring-size=4096 for "
	    "dirty-limit): migrate-set-capabilities: dirty-limit requires "
	    "KVM with accelerator property 'dirty-ring-size' set");
	kvm.dirty_ring = -1;
	kvm.dirty_ring_why[0] = '\0';
	assert_int_equal(mig_throttle_choose(CTL_ADAPTIVE, 1, &kvm, &kvm,
	    text, sizeof text), MIG_THROTTLE_AUTO_CONVERGE);
	assert_string_equal(text, "auto-converge: whether KVM has a dirty "
	    "ring is not known");

	/* Into the plan: one throttle, never both (QEMU refuses that). */
	memset(&plan, 0, sizeof plan);
	why = json_object_new_object();
	kvm.dirty_ring = 1;
	mig_throttle_apply(&plan, mig_throttle_choose(CTL_ADAPTIVE, 1, &kvm,
	    &kvm, text, sizeof text), text, why);
	assert_true(plan.dirty_limit);
	assert_false(plan.auto_converge);
	assert_string_equal(plan.throttle_why, text);
	assert_string_equal(reason(why, "dirty-limit"),
	    "on: the adaptive controller's throttle");
	mig_throttle_apply(&plan, mig_throttle_choose(CTL_ADAPTIVE, 1, &tcg,
	    &tcg, text, sizeof text), text, why);
	assert_false(plan.dirty_limit);
	assert_true(plan.auto_converge);
	assert_string_equal(reason(why, "dirty-limit"),
	    "off: auto-converge: TCG has no dirty ring (dirty-limit needs "
	    "KVM's)");
	json_object_put(why);
}

/* The state mig_plan_apply_job's args give capability name (-1: absent). */
static int
cap_sent(json_object *args, const char *name)
{
	json_object	*caps = json_obj_at(args, "capabilities");
	size_t		 i;

	for (i = 0; caps != NULL && i < json_object_array_length(caps); i++) {
		json_object *c = json_object_array_get_idx(caps, i);

		if (strcmp(json_str_at(c, "capability"), name) == 0)
			return json_bool_at(c, "state");
	}
	return -1;
}

/*
 * The throttle on the source's QEMU: dirty-limit on with auto-converge off
 * (QEMU refuses both) and vcpu-dirty-limit disarmed; auto-converge with
 * dirty-limit sent off where QEMU lists it (one left on refuses it), and
 * not sent where QEMU does not.
 */
static void
test_throttle_applied(void **state)
{
	struct mig_plan_apply	 pa;
	struct mig_job_cmd	 cmd;
	char			*cause = NULL;
	int			 pc;

	(void)state;
	memset(&pa, 0, sizeof pa);
	pa.source = 1;
	pa.plan.dirty_limit = pa.plan.dirty_limit_listed = 1;
	pc = 0;
	memset(&cmd, 0, sizeof cmd);
	assert_int_equal(mig_plan_apply_job(&pa, &pc, NULL, NULL, &cmd,
	    &cause), JOB_SEND);
	assert_string_equal(cmd.name, "migrate-set-capabilities");
	assert_int_equal(cap_sent(cmd.args, "dirty-limit"), 1);
	assert_int_equal(cap_sent(cmd.args, "auto-converge"), 0);
	json_object_put(cmd.args);
	memset(&cmd, 0, sizeof cmd);
	assert_int_equal(mig_plan_apply_job(&pa, &pc, NULL, NULL, &cmd,
	    &cause), JOB_SEND);
	assert_string_equal(cmd.name, "migrate-set-parameters");
	assert_int_equal(json_u64_at(cmd.args, "vcpu-dirty-limit"), 1000000);
	assert_null(json_obj_at(cmd.args, "max-cpu-throttle"));
	json_object_put(cmd.args);

	pa.plan.dirty_limit = 0;
	pa.plan.auto_converge = 1;
	pc = 0;
	memset(&cmd, 0, sizeof cmd);
	assert_int_equal(mig_plan_apply_job(&pa, &pc, NULL, NULL, &cmd,
	    &cause), JOB_SEND);
	assert_int_equal(cap_sent(cmd.args, "dirty-limit"), 0);
	assert_int_equal(cap_sent(cmd.args, "auto-converge"), 1);
	json_object_put(cmd.args);
	pa.plan.dirty_limit_listed = 0;
	pc = 0;
	memset(&cmd, 0, sizeof cmd);
	assert_int_equal(mig_plan_apply_job(&pa, &pc, NULL, NULL, &cmd,
	    &cause), JOB_SEND);
	assert_int_equal(cap_sent(cmd.args, "dirty-limit"), -1);
	json_object_put(cmd.args);
	/* The target never gets either throttle. */
	pa.source = 0;
	pa.plan.dirty_limit = pa.plan.dirty_limit_listed = 1;
	pc = 0;
	memset(&cmd, 0, sizeof cmd);
	assert_int_equal(mig_plan_apply_job(&pa, &pc, NULL, NULL, &cmd,
	    &cause), JOB_SEND);
	assert_int_equal(cap_sent(cmd.args, "dirty-limit"), -1);
	assert_int_equal(cap_sent(cmd.args, "auto-converge"), -1);
	json_object_put(cmd.args);
}

/* RAM, machine type, CPU model, UUID: the first difference, named. */
static void
test_compare(void **state)
{
	struct qemu_side	a = q72(), b = q100();
	char			why[256];

	(void)state;
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), 0);
	a.ram_bytes = 384ull << 20;
	b.ram_bytes = 256ull << 20;
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_string_equal(why, "target QEMU has 256 MiB of RAM, the guest "
	    "384 MiB");
	b.ram_bytes = a.ram_bytes;
	strcpy(a.machine, "pc-i440fx-7.2");
	strcpy(b.machine, "pc-i440fx-10.0");
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_string_equal(why, "target QEMU runs machine type "
	    "pc-i440fx-10.0, the guest pc-i440fx-7.2: start the target with "
	    "-machine pc-i440fx-7.2");
	/* Whether the target QEMU knows the guest's machine type. */
	{
		json_object	*machines = json_tokener_parse(
		    "[{\"name\":\"pc-i440fx-10.0\",\"alias\":\"pc\"},"
		    "{\"name\":\"pc-i440fx-7.2\"},{\"name\":\"none\"}]");
		char		 list[64];

		assert_int_equal(machines_listed(machines, list,
		    sizeof list), 4);
		assert_string_equal(list, "pc-i440fx-10.0 pc pc-i440fx-7.2 "
		    "none ");
		b.major = 10;
		b.micro = 13;
		assert_int_equal(qemu_side_compare(&a, &b, list, why,
		    sizeof why), -1);
		assert_string_equal(why, "target QEMU runs machine type "
		    "pc-i440fx-10.0, the guest pc-i440fx-7.2: start the "
		    "target with -machine pc-i440fx-7.2 (it knows it)");
		strcpy(a.machine, "pc-i440fx-7");
		assert_int_equal(qemu_side_compare(&a, &b, list, why,
		    sizeof why), -1);
		assert_string_equal(why, "target QEMU runs machine type "
		    "pc-i440fx-10.0, the guest pc-i440fx-7, which the target "
		    "QEMU 10.0.13 does not know: the guest needs a QEMU that "
		    "has it");
		/* Too small a buffer: what fits. */
		assert_int_equal(machines_listed(machines, list, 20), 2);
		assert_string_equal(list, "pc-i440fx-10.0 pc ");
		json_object_put(machines);
		strcpy(a.machine, "pc-i440fx-7.2");
	}
	strcpy(b.machine, a.machine);
	strcpy(a.cpu_model, "qemu64");
	strcpy(b.cpu_model, "max");
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_string_equal(why, "target QEMU's CPU model is max, the "
	    "guest's qemu64");
	b.cpu_model[0] = '\0';	/* not known: not compared */
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), 0);
	strcpy(a.uuid, "7b0c4e2a-1d3f-4a5b-8c6d-9e0f1a2b3c4d");
	strcpy(b.uuid, "00000000-1d3f-4a5b-8c6d-9e0f1a2b3c4d");
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_non_null(strstr(why, "another VM's target"));
}

/* The side through the offer and back; a malformed one named. */
static void
test_encode_decode(void **state)
{
	/* Refused descriptions, and the cause (NULL: any). */
	static const struct {
		const char	*json;
		const char	*cause;
	} refused[] = {
		{ "{\"version\":\"11.1\",\"capabilities\":[]}",
		  "the peer's QEMU description: version: "
		  "expected \"MAJOR.MINOR.MICRO\"" },
		{ "{\"version\":\"11.1.3\",\"capabilities\":"
		  "[\"multifd\",\"x-new\"],\"machine\":\"pc\\nq35\"}",
		  "the peer's QEMU description: machine: "
		  "expected a machine type name" },
		{ "{\"version\":\"11.1.3\",\"capabilities\":"
		  "[\"multifd\",\"x-new\"],\"ramBytes\":-1}", NULL },
	};
	struct qemu_side	 a = q111(), b;
	json_object		*o, *bad;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	a.ram_bytes = 128ull << 20;
	strcpy(a.machine, "pc-i440fx-11.1");
	strcpy(a.cpu_model, "qemu64");
	strcpy(a.uuid, "7b0c4e2a-1d3f-4a5b-8c6d-9e0f1a2b3c4d");
	o = qemu_side_encode(&a);
	assert_int_equal(qemu_side_decode(o, &b, &cause), 0);
	assert_memory_equal(&a, &b, sizeof a);
	json_object_put(o);

	for (i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		bad = json_tokener_parse(refused[i].json);
		assert_int_equal(qemu_side_decode(bad, &b, &cause), -1);
		if (refused[i].cause != NULL)
			assert_string_equal(cause, refused[i].cause);
		free(cause);
		json_object_put(bad);
	}
	bad = json_tokener_parse("{\"version\":\"11.1.3\",\"capabilities\":"
	    "[\"multifd\",\"x-new\"]}");
	assert_int_equal(qemu_side_decode(bad, &b, &cause), 0);
	assert_int_equal(b.caps, MIG_CAP_BIT(MIG_CAP_MULTIFD));
	assert_int_equal(b.kvm, -1);
	json_object_put(bad);
}

/* The devices added with -device: listed, sorted, carried, compared. */
static void
test_devices(void **state)
{
	struct qemu_side	 a = q100(), b = q100(), c;
	json_object		*periph, *anon, *o;
	char			 why[256], *cause = NULL;

	(void)state;
	periph = json_tokener_parse("[{\"name\":\"type\",\"type\":"
	    "\"string\"},{\"name\":\"disk0\",\"type\":"
	    "\"child<virtio-blk-pci>\"}]");
	anon = json_tokener_parse("[{\"name\":\"device[0]\",\"type\":"
	    "\"child<virtio-rng-pci>\"},{\"name\":\"device[1]\",\"type\":"
	    "\"child<isa-serial>\"}]");
	devices_add(periph, a.devices, sizeof a.devices);
	devices_add(anon, a.devices, sizeof a.devices);
	devices_sort(a.devices);
	a.has_devices = 1;
	assert_string_equal(a.devices,
	    "isa-serial virtio-blk-pci virtio-rng-pci");

	/* Through the offer and back. */
	o = qemu_side_encode(&a);
	assert_int_equal(qemu_side_decode(o, &c, &cause), 0);
	assert_true(c.has_devices);
	assert_string_equal(c.devices, a.devices);
	json_object_put(o);

	/* The same devices: no difference; others: named. */
	b.has_devices = 1;
	strcpy(b.devices, a.devices);
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), 0);
	strcpy(b.devices, "isa-serial virtio-blk-pci virtio-net-pci "
	    "virtio-rng-pci");
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_string_equal(why, "target QEMU has devices the guest lacks: "
	    "virtio-net-pci");
	strcpy(b.devices, "isa-serial virtio-net-pci");
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_string_equal(why, "target QEMU has devices the guest lacks: "
	    "virtio-net-pci; and lacks the guest's: virtio-blk-pci, "
	    "virtio-rng-pci");
	strcpy(b.devices, "isa-serial");
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), -1);
	assert_string_equal(why, "target QEMU lacks devices of the guest: "
	    "virtio-blk-pci, virtio-rng-pci");
	/* A side that did not say: not compared. */
	b.has_devices = 0;
	assert_int_equal(qemu_side_compare(&a, &b, NULL, why, sizeof why), 0);
	json_object_put(periph);
	json_object_put(anon);
}

/* The offer carries the source's QEMU and wants; the answer the deal. */
/* exit-on-error from 9.1; avail-switchover-bandwidth beside the downtime
 * limit from 8.2, when a bandwidth was measured. */
static void
test_version_gates(void **state)
{
	struct qemu_side	 q;
	json_object		*a, *v;

	(void)state;
	memset(&q, 0, sizeof q);
	q.major = 9, q.minor = 0;
	assert_false(mig_incoming_exit_on_error_ok(&q));
	q.minor = 1;
	assert_true(mig_incoming_exit_on_error_ok(&q));
	q.major = 0, q.minor = 0;	/* not known: nothing it might refuse */
	assert_false(mig_incoming_exit_on_error_ok(&q));

	a = mig_downtime_args(120, 52428800.0, 11, 1);
	assert_true(json_object_object_get_ex(a, "downtime-limit", &v));
	assert_int_equal(json_object_get_int64(v), 120);
	assert_true(json_object_object_get_ex(a, "avail-switchover-bandwidth",
	    &v));
	assert_int_equal(json_object_get_int64(v), 52428800);
	json_object_put(a);
	a = mig_downtime_args(120, 52428800.0, 8, 1);
	assert_false(json_object_object_get_ex(a, "avail-switchover-bandwidth",
	    NULL));
	assert_int_equal(json_object_object_length(a), 1);
	json_object_put(a);
	a = mig_downtime_args(120, 0, 10, 0);	/* nothing measured yet */
	assert_int_equal(json_object_object_length(a), 1);
	json_object_put(a);
}

static void
test_control(void **state)
{
	struct control_msg	 m, out;
	struct mig_plan		 plan, agreed;
	struct qemu_side	 src = q111(), dst = q111(), got;
	struct mig_wants	 w = { .postcopy = 1, .channels = 2 };
	json_object		*doc, *answer, *why, *why_got;
	char			*cause = NULL;

	(void)state;
	memset(&m, 0, sizeof m);
	m.type = CONTROL_OFFER;
	strcpy(m.offer.uid, "u1");
	m.offer.has_qemu = 1;
	src.ram_bytes = 128ull << 20;
	m.offer.qemu = src;
	m.offer.wants = w;
	m.offer.plan.postcopy = 1;
	doc = control_encode(&m);
	assert_int_equal(control_decode(doc, &out, &cause), 0);
	assert_string_equal(out.offer_error, "");
	assert_true(out.offer.has_qemu);
	assert_memory_equal(&out.offer.qemu, &src, sizeof src);
	assert_int_equal(out.offer.wants.postcopy, 1);
	assert_int_equal(out.offer.wants.channels, 2);
	control_msg_free(&out);
	json_object_put(doc);

	/* The target negotiates and answers; the source reads the deal. */
	memset(&plan, 0, sizeof plan);
	why = mig_negotiate(&w, &src, &dst, &plan);
	answer = control_answer_encode(ANSWER_READY, NULL);
	control_answer_agree(answer, &dst, &plan, why);
	assert_int_equal(control_answer_agreed(answer, &got, &agreed,
	    &why_got, &cause), 1);
	assert_true(agreed.postcopy && agreed.multifd &&
	    agreed.postcopy_preempt && agreed.postcopy_blocktime);
	assert_int_equal(agreed.channels, 2);
	assert_non_null(why_got);
	assert_string_equal(json_str_at(why_got, "postcopy-preempt"),
	    json_str_at(why, "postcopy-preempt"));
	json_object_put(why_got);
	json_object_put(answer);
	/* An answer from an older target: no deal, the offer stands. */
	answer = control_answer_encode(ANSWER_READY, NULL);
	assert_int_equal(control_answer_agreed(answer, &got, &agreed,
	    &why_got, &cause), 0);
	json_object_put(answer);

	/* multifd with post-copy from a 7.2 source: refused. */
	m.offer.qemu = q72();
	m.offer.plan.multifd = 1;
	m.offer.plan.channels = 2;
	doc = control_encode(&m);
	assert_int_equal(control_decode(doc, &out, &cause), 0);
	assert_string_equal(out.offer_error, "source asked for multifd with "
	    "post-copy, which its QEMU cannot finish: refused");
	control_msg_free(&out);
	json_object_put(doc);
}

/*
 * "completed?" carries whether post-copy may have run on the source; a
 * message without it (an older source) reads as not said (-1), never as
 * "it did not".
 */
static void
test_completed_postcopy(void **state)
{
	struct control_msg	 m, out;
	json_object		*doc;
	char			*cause = NULL;
	int			 pc;

	(void)state;
	for (pc = -1; pc <= 1; pc++) {
		memset(&m, 0, sizeof m);
		m.type = CONTROL_COMPLETED;
		m.postcopy = pc;
		doc = control_encode(&m);
		assert_int_equal(control_decode(doc, &out, &cause), 0);
		assert_int_equal(out.type, CONTROL_COMPLETED);
		assert_int_equal(out.postcopy, pc);
		control_msg_free(&out);
		json_object_put(doc);
	}
}

/*
 * "completed?" carries a disk's mirror that failed before the source's
 * QEMU completed (disksLost, the reason naming it): the target cannot see
 * the source's mirrors.  A message without it (an older source, or every
 * mirror stood) reads as not lost; an abort's reason is not a loss.
 */
static void
test_completed_disks_lost(void **state)
{
	struct control_msg	 m, out;
	json_object		*doc;
	char			*cause = NULL;
	int			 lost;

	(void)state;
	for (lost = 0; lost < 2; lost++) {
		memset(&m, 0, sizeof m);
		m.type = CONTROL_COMPLETED;
		m.postcopy = 0;
		m.disks_lost = lost;
		snprintf(m.reason, sizeof m.reason, "disk d0 (/vm/d0.qcow2): "
		    "its mirror failed before QEMU completed the migration");
		doc = control_encode(&m);
		assert_int_equal(json_object_object_get_ex(doc, "disksLost",
		    NULL), lost);
		assert_int_equal(control_decode(doc, &out, &cause), 0);
		assert_int_equal(out.disks_lost, lost);
		if (lost)
			assert_string_equal(out.reason, m.reason);
		control_msg_free(&out);
		json_object_put(doc);
	}
	memset(&m, 0, sizeof m);
	m.type = CONTROL_ABORT;
	snprintf(m.reason, sizeof m.reason, "operator");
	doc = control_encode(&m);
	assert_int_equal(control_decode(doc, &out, &cause), 0);
	assert_int_equal(out.disks_lost, 0);
	control_msg_free(&out);
	json_object_put(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_completed_postcopy),
		cmocka_unit_test(test_completed_disks_lost),
		cmocka_unit_test(test_listed),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_multifd_postcopy),
		cmocka_unit_test(test_validate_uuid),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_throttle_applied),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_version_gates),
		cmocka_unit_test(test_plan_least_return_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
