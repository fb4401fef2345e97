/*
 * test-preflight-cpr.c: the in-place update's pre-flight
 * (src/preflight-cpr.c) on a scripted QEMU 10.0 for what this machine's
 * QEMU cannot show: a VFIO device (before 10.1), a mediated one, a
 * confidential guest's guest_memfd, a single-queue tap beside a
 * multi-queue one, vhost, and QEMU's own blockers for the mode; and, on
 * a scripted 11.1, cpr-exec's condition: QEMU's blockers for that mode
 * and the transfer reasons it shares.  What real
 * QEMU can show (shared RAM or not, 7.2, post-copy) is
 * tests/integration/cpr-check.sh and cpr-exec-check.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "preflight.h"
#include "qmp.h"
#include "fake-peer.h"

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 13, " \
	"\"minor\": 0, \"major\": 10}, \"package\": \"\"}, " \
	"\"capabilities\": []}}\n"

#define GREETING_11_1 "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 3, " \
	"\"minor\": 1, \"major\": 11}, \"package\": \"\"}, " \
	"\"capabilities\": []}}\n"

/* Whether the condition's reasons hold one named reason whose message has
 * part. */
static int
has_reason(json_object *cond, const char *reason, const char *part)
{
	json_object	*list;
	size_t		 i;

	if (!json_object_object_get_ex(cond, "reasons", &list))
		return 0;
	for (i = 0; i < json_object_array_length(list); i++) {
		json_object *r = json_object_array_get_idx(list, i);

		if (strcmp(json_str_at(r, "reason"), reason) == 0 &&
		    strstr(json_str_at(r, "message"), part) != NULL)
			return 1;
	}
	return 0;
}

static void
test_devices_and_blockers(void **state)
{
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
	struct mig_settings	 s;
	json_object		*cond = NULL;
	char			*summary = NULL;
	int			 left = 0;

	(void)state;
	memset(&s, 0, sizeof s);
	fake_peer_pair(&loop, &conn, &peer, QMP_PROTO_MONITOR, "scripted");
	fake_peer_puts(peer, GREETING);
	run_briefly(loop);
	fake_peer_on(peer, "query-migrate", "{\"return\": {}, \"id\": @ID@}\n");
	fake_peer_on(peer, "query-migrate-parameters",
	    "{\"return\": {\"mode\": \"normal\"}, \"id\": @ID@}\n");
	fake_peer_on(peer, "migrate-set-parameters",
	    "{\"return\": {}, \"id\": @ID@}\n");
	fake_peer_on(peer, "query-migrate", "{\"return\": {\"blocked-reasons\": "
	    "[\"vhost-user-fs does not support cpr\"]}, \"id\": @ID@}\n");
	fake_peer_on(peer, "migrate-set-parameters",
	    "{\"return\": {}, \"id\": @ID@}\n");
	fake_peer_on(peer, "human-monitor-command", "{\"return\": "
	    "\"net0: index=0,type=nic,model=virtio-net-pci\\r\\n"
	    " \\\\ tap0: index=0,type=tap,ifname=vnet0,script=no\\r\\n"
	    "net1: index=0,type=nic,model=virtio-net-pci\\r\\n"
	    " \\\\ tap1: index=0,type=tap,ifname=vnet1,vhost=on\\r\\n"
	    "net1.1: index=1,type=nic\\r\\n"
	    " \\\\ tap1: index=1,type=tap,ifname=vnet1,vhost=on\\r\\n\", "
	    "\"id\": @ID@}\n");
	fake_peer_on(peer, "human-monitor-command", "{\"return\": "
	    "\"  dev: vfio-pci, id \\\"hostdev0\\\"\\r\\n"
	    "    host = \\\"0000:01:00.0\\\"\\r\\n"
	    "    sysfsdev = \\\"\\\"\\r\\n"
	    "  dev: vfio-pci, id \\\"vgpu0\\\"\\r\\n"
	    "    sysfsdev = \\\"/sys/bus/mdev/devices/4b20d080\\\"\\r\\n"
	    "  dev: e1000, id \\\"\\\"\\r\\n\", \"id\": @ID@}\n");
	fake_peer_on(peer, "qom-list", "{\"return\": ["
	    "{\"name\": \"sev0\", \"type\": \"child<sev-snp-guest>\"},"
	    "{\"name\": \"ram0\", \"type\": \"child<memory-backend-memfd>\"}"
	    "], \"id\": @ID@}\n");

	assert_int_equal(preflight_cpr(loop, conn, &s, &left, &cond,
	    &summary), 0);
	assert_non_null(cond);
	assert_string_equal(json_str_at(cond, "type"), "InPlaceUpdatable");
	assert_string_equal(json_str_at(cond, "status"), "False");
	assert_true(has_reason(cond, "CprBlocked", "vhost-user-fs"));
	assert_true(has_reason(cond, "SingleQueueTap", "tap0"));
	assert_false(has_reason(cond, "SingleQueueTap", "tap1"));
	assert_true(has_reason(cond, "VhostNotKept", "tap1"));
	assert_true(has_reason(cond, "VFIONotKept", "hostdev0"));
	assert_true(has_reason(cond, "MdevNotKept", "vgpu0"));
	assert_false(has_reason(cond, "VFIONotKept", "vgpu0"));
	assert_true(has_reason(cond, "GuestMemfd", "sev0"));
	assert_false(has_reason(cond, "GuestMemfd", "ram0"));
	assert_non_null(strstr(summary, "VFIONotKept"));
	/* The mode was put back: the second migrate-set-parameters came. */
	assert_int_equal(fake_peer_ncommands(peer), 8);
	assert_string_equal(fake_peer_command(peer, 4),
	    "migrate-set-parameters");
	assert_int_equal(left, 0);

	json_object_put(cond);
	free(summary);
	fake_peer_pair_free(loop, conn, peer);
}

/*
 * cpr-exec: QEMU's blockers read with mode cpr-exec set (and the mode put
 * back), the RAM, post-copy and device reasons taken from the transfer
 * condition, not its CprBlocked (QEMU's words for the other mode).
 */
static void
test_exec_blockers(void **state)
{
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
	json_object		*transfer, *cond = NULL;
	char			*summary = NULL;
	int			 left = 0;

	(void)state;
	fake_peer_pair(&loop, &conn, &peer, QMP_PROTO_MONITOR, "scripted");
	fake_peer_puts(peer, GREETING_11_1);
	run_briefly(loop);
	fake_peer_on(peer, "query-migrate", "{\"return\": {}, \"id\": @ID@}\n");
	fake_peer_on(peer, "query-migrate-parameters",
	    "{\"return\": {\"mode\": \"normal\"}, \"id\": @ID@}\n");
	fake_peer_on(peer, "migrate-set-parameters",
	    "{\"return\": {}, \"id\": @ID@}\n");
	fake_peer_on(peer, "query-migrate", "{\"return\": {\"blocked-reasons\": "
	    "[\"colo does not support cpr-exec\"]}, \"id\": @ID@}\n");
	fake_peer_on(peer, "migrate-set-parameters",
	    "{\"return\": {}, \"id\": @ID@}\n");
	transfer = json_tokener_parse("{\"type\": \"InPlaceUpdatable\", "
	    "\"reasons\": ["
	    "{\"reason\": \"RAMNotShared\", \"message\": \"Memory region "
	    "pc.ram is not compatible with CPR.\"},"
	    "{\"reason\": \"CprBlocked\", \"message\": \"transfer only\"},"
	    "{\"reason\": \"VhostNotKept\", \"message\": \"tap1: vhost\"}]}");

	assert_int_equal(preflight_cpr_exec(conn, transfer, &left, &cond,
	    &summary), 0);
	assert_int_equal(left, 0);
	assert_string_equal(json_str_at(cond, "type"),
	    "InPlaceUpdatableByExec");
	assert_string_equal(json_str_at(cond, "status"), "False");
	assert_true(has_reason(cond, "CprBlocked", "colo"));
	assert_false(has_reason(cond, "CprBlocked", "transfer only"));
	assert_true(has_reason(cond, "RAMNotShared",
	    "QEMU does not block cpr-exec"));
	assert_true(has_reason(cond, "VhostNotKept", "tap1"));
	assert_int_equal(fake_peer_ncommands(peer), 5);
	assert_string_equal(fake_peer_command(peer, 4),
	    "migrate-set-parameters");

	json_object_put(transfer);
	json_object_put(cond);
	free(summary);
	fake_peer_pair_free(loop, conn, peer);
}

/*
 * The mode put back with no answer (the connection ended under it, as a
 * mute one's timeout does): the caller is told the mode may be left, to
 * put it back on a new connection (sim-real --update-exec with dropped
 * commands, G2: exit 3 with cpr-transfer left).  Unanswered before the
 * put-back too: left, whichever command the connection ended at.
 */
static void
test_mode_left_unanswered(void **state)
{
	struct ev_loop		*loop;
	struct qmp_conn		*conn;
	struct fake_peer	*peer;
	struct mig_settings	 s;
	json_object		*cond = NULL;
	char			*summary = NULL;
	int			 left, i;

	(void)state;
	memset(&s, 0, sizeof s);
	for (i = 0; i < 2; i++) {
		left = 0;
		fake_peer_pair(&loop, &conn, &peer, QMP_PROTO_MONITOR,
		    "scripted");
		fake_peer_puts(peer, GREETING);
		run_briefly(loop);
		fake_peer_on(peer, "query-migrate",
		    "{\"return\": {}, \"id\": @ID@}\n");
		fake_peer_on(peer, "query-migrate-parameters",
		    "{\"return\": {\"mode\": \"normal\"}, \"id\": @ID@}\n");
		fake_peer_on(peer, "migrate-set-parameters",
		    "{\"return\": {}, \"id\": @ID@}\n");
		/* The probe answered, the put-back not; or neither. */
		if (i == 0)
			fake_peer_on(peer, "query-migrate",
			    "{\"return\": {}, \"id\": @ID@}\n");
		fake_peer_on(peer, i == 0 ? "migrate-set-parameters" :
		    "query-migrate", FAKE_CLOSE);
		assert_int_equal(preflight_cpr(loop, conn, &s, &left, &cond,
		    &summary), -1);
		assert_null(cond);
		assert_int_equal(left, 1);
		free(summary);
		summary = NULL;
		fake_peer_pair_free(loop, conn, peer);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_devices_and_blockers),
		cmocka_unit_test(test_exec_blockers),
		cmocka_unit_test(test_mode_left_unanswered),
	};

	log_init("test-preflight-cpr", LOG_LEVEL_WARN, 0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
