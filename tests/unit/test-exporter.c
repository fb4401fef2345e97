/*
 * test-exporter.c: the exporter's pure parts: decoding what QEMU, the
 * agent, /proc and the status document say (exporter-decode.c), rendering
 * snapshots (exporter-render.c), the HTTP request line (exporter-http.c)
 * and --vm-dir's naming convention (exporter.c).  The collector and the
 * server are tested against real QEMU and a real Prometheus
 * (tests/integration/observe-*.sh).
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "observe.h"

static json_object *
parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

static void
test_info_network(void **state)
{
	struct vm_snapshot	s;
	json_object		*rx;

	memset(&s, 0, sizeof s);
	assert_int_equal(decode_info_network(
	    "nic0: index=0,type=nic,model=rtl8139,macaddr=52:54:00:12:34:56\r\n"
	    " \\ hn0: index=0,type=tap,ifname=tap-vm1,script=no\r\n"
	    "nic1: index=0,type=nic,model=virtio-net-pci,macaddr=52:54:00:"
	    "AB:CD:EF\r\n"
	    " \\ hn1: index=0,type=user,net=10.0.2.0,restrict=off\r\n"
	    "hn2: index=0,type=tap,ifname=lonely\r\n"
	    "nic2: index=0,type=nic,model=e1000,macaddr=nonsense\r\n"
	    " \\ hn3: index=0,type=tap,ifname=../../etc\r\n", &s), 0);
	assert_int_equal(s.nnics, 3);
	assert_string_equal(s.nics[0].name, "nic0");
	assert_string_equal(s.nics[0].model, "rtl8139");
	assert_string_equal(s.nics[0].mac, "52:54:00:12:34:56");
	assert_string_equal(s.nics[0].tap, "tap-vm1");
	assert_string_equal(s.nics[1].mac, "52:54:00:ab:cd:ef");
	assert_string_equal(s.nics[1].tap, "");
	/* A bad MAC is left out, a path is never a tap name. */
	assert_string_equal(s.nics[2].mac, "");
	assert_string_equal(s.nics[2].tap, "");

	/* The guest changed nic1's MAC: query-rx-filter says so. */
	rx = parse("[{\"name\": \"nic1\", \"main-mac\": \"02:00:00:00:00:01\"},"
	    "{\"name\": \"ghost\", \"main-mac\": \"02:00:00:00:00:02\"}]");
	assert_int_equal(decode_rx_filter(rx, &s), 0);
	assert_string_equal(s.nics[1].mac, "02:00:00:00:00:01");
	assert_true(s.nics[1].mac_from_rx_filter);
	assert_false(s.nics[0].mac_from_rx_filter);
	json_object_put(rx);
	snap_free(&s);
}

static void
test_proc(void **state)
{
	struct snap_f64	u, sy, d;
	struct snap_u64	rss;
	int64_t		inner = 0;

	/* A command name with spaces and parentheses. */
	assert_int_equal(decode_proc_stat("4242 (qemu (x) y) S 1 4242 4242 0 "
	    "-1 4194560 1000 0 0 0 250 50 0 0 20 0 5 0 100 0 0\n", 100, &u,
	    &sy), 0);
	assert_true(u.have && sy.have);
	assert_true(u.v > 2.49 && u.v < 2.51);
	assert_true(sy.v > 0.49 && sy.v < 0.51);
	assert_int_equal(decode_proc_stat("4242 (qemu) S 1 2\n", 100, &u,
	    &sy), -1);
	assert_false(u.have);

	assert_int_equal(decode_proc_rss("Name:\tqemu\nVmRSS:\t   2048 kB\n",
	    &rss), 0);
	assert_int_equal(rss.v, 2048 * 1024);
	assert_int_equal(decode_proc_rss("Name:\tqemu\n", &rss), -1);

	assert_int_equal(decode_schedstat("100 2500000000 7\n", &d), 0);
	assert_true(d.v > 2.49 && d.v < 2.51);

	assert_int_equal(decode_nspid("Name:\tq\nNSpid:\t31144\t12\n", &inner),
	    0);
	assert_int_equal(inner, 12);
	assert_int_equal(decode_nspid("Name:\tq\nNSpid:\t-3\n", &inner), -1);
}

static void
test_rfc3339(void **state)
{
	double t = 0;

	assert_int_equal(decode_rfc3339("1970-01-02T00:00:01.500Z", &t), 0);
	assert_true(t > 86401.49 && t < 86401.51);
	assert_int_equal(decode_rfc3339("1970-01-02T02:00:00+02:00", &t), 0);
	assert_true(t > 86399.9 && t < 86400.1);
	assert_int_equal(decode_rfc3339("1970-01-02T00:00:00", &t), -1);
	assert_int_equal(decode_rfc3339("yesterday", &t), -1);
	assert_int_equal(decode_rfc3339(NULL, &t), -1);
}

/*
 * Failures count under failurePlane; an abort (exit 5) under "abort" when
 * asked for, under "limit" when the source's controller decided it; exit
 * 8 under "unknown", with outcome_unknown; the controller's bound.
 */
static void
test_status_doc(void **state)
{
	struct snap_migration	m;
	json_object		*doc;

	doc = parse("{\"phase\": \"Running\", \"mode\": \"PreCopy\", "
	    "\"role\": \"source\", \"migrationUid\": \"u1\", "
	    "\"startTimestamp\": \"2024-05-01T12:00:00.000Z\", \"progress\": "
	    "{\"dataTotal\": 100, \"dataProcessed\": 40, \"dataRemaining\": "
	    "-5, \"bandwidth\": 16.5e6, \"dirtyRate\": 1e6, "
	    "\"throttlePercentage\": 30, \"dirtyLimitThrottleUsPerRound\": "
	    "7466620, \"disks\": {\"j1\": {\"offset\": 10},"
	    " \"j2\": {\"offset\": 5}}}}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.phase, "Running");
	assert_string_equal(m.role, "source");
	assert_string_equal(m.failure_plane, "");
	assert_true(m.data_total.have && m.data_total.v == 100);
	/* A negative figure is unknown, not 2^64 - 5. */
	assert_false(m.data_remaining.have);
	assert_true(m.memory_rate.have && m.memory_rate.v == 16.5e6);
	assert_true(m.throttle.v > 0.29 && m.throttle.v < 0.31);
	assert_true(m.dirty_limit_throttle.have &&
	    m.dirty_limit_throttle.v > 7.46 && m.dirty_limit_throttle.v < 7.47);
	assert_true(m.disk_processed.have && m.disk_processed.v == 15);
	assert_true(m.start_time.have && m.start_time.v == 1714564800);
	assert_false(m.end_time.have);
	/* No downtimeMs: not known, no sample (never a 0). */
	assert_false(m.downtime.have);
	json_object_put(doc);
	doc = parse("{\"phase\": \"Succeeded\", \"progress\": "
	    "{\"downtimeMs\": 0}}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_true(m.downtime.have && m.downtime.v == 0);
	json_object_put(doc);
	doc = parse("{\"phase\": \"Succeeded\", \"progress\": "
	    "{\"downtimeMs\": 12}}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_true(m.downtime.have && m.downtime.v > 0.0119 &&
	    m.downtime.v < 0.0121);
	json_object_put(doc);

	doc = parse("{\"phase\": \"Failed\", \"failurePlane\": \"data\", "
	    "\"exitCode\": 4}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.failure_plane, "data");
	json_object_put(doc);
	doc = parse("{\"phase\": \"Failed\", \"abortStatus\": \"Succeeded\", "
	    "\"exitCode\": 5}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.failure_plane, "abort");
	assert_false(m.outcome_unknown);
	json_object_put(doc);
	/* An operator's abort: abortRequested, whatever the decisions. */
	doc = parse("{\"phase\": \"Failed\", \"role\": \"source\", "
	    "\"abortRequested\": true, \"abortStatus\": \"Succeeded\", "
	    "\"decisions\": [{\"action\": \"abort\"}], \"exitCode\": 5}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.failure_plane, "abort");
	json_object_put(doc);
	/* The controller's, at its bound. */
	doc = parse("{\"phase\": \"Failed\", \"role\": \"source\", "
	    "\"abortRequested\": false, \"abortStatus\": \"Succeeded\", "
	    "\"decisions\": [{\"action\": \"auto-converge\"}, "
	    "{\"action\": \"abort\"}], \"exitCode\": 5, "
	    "\"migrationConfiguration\": {\"controller\": "
	    "{\"acceptableSeconds\": 150.5}}}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.failure_plane, "limit");
	assert_true(m.acceptable.have && m.acceptable.v == 150.5);
	json_object_put(doc);
	/* The target of a migration its source aborted: someone asked. */
	doc = parse("{\"phase\": \"Failed\", \"role\": \"target\", "
	    "\"abortRequested\": false, \"exitCode\": 5}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.failure_plane, "abort");
	json_object_put(doc);
	/* Not known (exit 8). */
	doc = parse("{\"phase\": \"Failed\", \"failurePlane\": \"unknown\", "
	    "\"abortRequested\": false, \"exitCode\": 8}");
	assert_int_equal(decode_status_doc(doc, &m), 0);
	assert_string_equal(m.failure_plane, "unknown");
	assert_true(m.outcome_unknown);
	assert_false(m.acceptable.have);
	json_object_put(doc);
	doc = parse("{\"progress\": {}}");
	assert_int_equal(decode_status_doc(doc, &m), -1);
	assert_false(m.have);
	json_object_put(doc);
}

static void
test_query_migrate(void **state)
{
	struct snap_migration	m;
	json_object		*r;

	r = parse("{\"status\": \"postcopy-active\", \"expected-downtime\": "
	    "300, \"ram\": {\"total\": 1000, \"remaining\": 200, "
	    "\"transferred\": 900, \"mbps\": 80, \"dirty-pages-rate\": 10, "
	    "\"page-size\": 4096, \"dirty-sync-count\": 3}}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_true(m.have);
	assert_string_equal(m.phase, "Running");
	assert_string_equal(m.mode, "PostCopy");
	assert_string_equal(m.role, "source");
	assert_true(m.memory_rate.v == 10e6);
	assert_true(m.dirty_rate.v == 40960);
	assert_true(m.expected_downtime.v > 0.29 && m.expected_downtime.v <
	    0.31);
	assert_false(m.dirty_limit_throttle.have);
	assert_false(m.downtime.have);	/* before its completed */
	json_object_put(r);
	/* QEMU's figure once completed; not at 7.2's completed before it. */
	r = parse("{\"status\": \"completed\", \"total-time\": 1834, "
	    "\"downtime\": 12, \"ram\": {\"total\": 1000}}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_true(m.downtime.have && m.downtime.v > 0.0119 &&
	    m.downtime.v < 0.0121);
	json_object_put(r);
	r = parse("{\"status\": \"completed\", \"total-time\": 0, "
	    "\"downtime\": 0, \"ram\": {\"total\": 1000}}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_false(m.downtime.have);
	json_object_put(r);
	/* Under dirty-limit (QEMU 10.0 under kvm-pvm, 1 MB/s per vCPU). */
	r = parse("{\"status\": \"active\", "
	    "\"dirty-limit-throttle-time-per-round\": 9011492, "
	    "\"dirty-limit-ring-full-time\": 183908, \"ram\": {\"total\": "
	    "1000, \"remaining\": 0, \"transferred\": 900}}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_true(m.dirty_limit_throttle.have &&
	    m.dirty_limit_throttle.v > 9.01 && m.dirty_limit_throttle.v < 9.02);
	json_object_put(r);
	r = parse("{\"status\": \"none\"}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_false(m.have);
	json_object_put(r);
	/* 11.0's "failing" is on the way to failed: still running. */
	r = parse("{\"status\": \"failing\"}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_string_equal(m.qemu_status, "failing");
	assert_string_equal(m.phase, "Running");
	assert_string_equal(m.mode, "PreCopy");
	json_object_put(r);
	/* 9.1's postcopy-recover-setup: post-copy, being recovered. */
	r = parse("{\"status\": \"postcopy-recover-setup\"}");
	assert_int_equal(decode_query_migrate(r, &m), 0);
	assert_string_equal(m.qemu_status, "postcopy-recover-setup");
	assert_string_equal(m.phase, "Running");
	assert_string_equal(m.mode, "PostCopy");
	json_object_put(r);
}

/* What a guest says is made valid UTF-8 without control characters. */
static void
test_guest_text(void **state)
{
	struct vm_snapshot	 s;
	json_object		*r;

	memset(&s, 0, sizeof s);
	r = parse("{\"id\": \"evil\\u0001\\n\", \"name\": \"caf\\u00e9\"}");
	assert_int_equal(decode_osinfo(r, &s.os), 0);
	assert_string_equal(s.os.id, "evil??");
	assert_string_equal(s.os.name, "caf\xc3\xa9");
	json_object_put(r);

	r = parse("[{\"mountpoint\": \"/\", \"type\": \"ext4\", "
	    "\"used-bytes\": 10, \"total-bytes\": 100}, {\"type\": \"x\"}]");
	assert_int_equal(decode_fsinfo(r, &s), 0);
	assert_int_equal(s.nfs, 1);
	assert_true(s.fs[0].total.have && s.fs[0].total.v == 100);
	json_object_put(r);

	r = parse("[{\"online\": true}, {\"online\": false}, "
	    "{\"online\": true}]");
	assert_int_equal(decode_memory_blocks(r, 1 << 27, &s.guest_memory),
	    0);
	assert_int_equal(s.guest_memory.v, 2 << 27);
	json_object_put(r);

	r = parse("[{\"name\": \"eth0\", \"hardware-address\": "
	    "\"52:54:00:12:34:56\", \"ip-addresses\": [{\"ip-address\": "
	    "\"10.0.0.2\", \"prefix\": 24}]}]");
	assert_int_equal(decode_guest_ifs(r, &s), 0);
	assert_int_equal(s.nguest_ifs, 1);
	assert_string_equal(s.guest_ifs[0].addrs[0], "10.0.0.2/24");
	json_object_put(r);
	snap_free(&s);
}

/* A rendered line's value, or NULL. */
static const char *
value_of(const char *text, const char *series)
{
	static char	 v[64];
	const char	*p = text;
	size_t		 n = strlen(series);

	while ((p = strstr(p, series)) != NULL) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ') {
			sscanf(p + n + 1, "%63s", v);
			return v;
		}
		p += n;
	}
	return NULL;
}

static void
test_render(void **state)
{
	struct exporter_vm_spec	 spec = { 0 };
	struct vm_snapshot	 snap;
	struct render_vm	 vm;
	struct render_buf	 b = { NULL, 0, 0 };
	struct snap_vcpu	 cpu = { 0, 42, { 1, 2.5 }, { 0, 0 } };

	memset(&snap, 0, sizeof snap);
	spec.name = "db\"1";
	snap.qmp_up = 1;
	snap.have_cpus = 1;
	snap.cpus = &cpu;
	snap.ncpus = 1;
	snap.memory.have = 1;
	snap.memory.v = 1 << 30;
	snap.doc_migration.have = 1;
	strcpy(snap.doc_migration.phase, "Succeeded");
	strcpy(snap.doc_migration.role, "source");
	snap.doc_migration.data_remaining.have = 1;
	snap.doc_migration.memory_rate.have = 1;
	snap.doc_migration.memory_rate.v = 16.8e6;
	memset(&vm, 0, sizeof vm);
	vm.spec = &spec;
	vm.snap = &snap;
	vm.failures[0][failure_plane_index("abort")] = 1;
	vm.failures[1][failure_plane_index("unknown")] = 2;
	snap.doc_migration.acceptable.have = 1;
	snap.doc_migration.acceptable.v = 150;

	render_metrics(&b, &vm, 1, "node-a", "prod");
	assert_string_equal(value_of(b.p, "qmigrate_vm_memory_domain_bytes"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\"}"),
	    "1073741824");
	assert_string_equal(value_of(b.p, "qmigrate_vm_vcpu_seconds_total"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\",id=\"0\"}"),
	    "2.5");
	assert_string_equal(value_of(b.p, "qmigrate_migration_memory_transfer_"
	    "rate_bytes_per_second{name=\"db\\\"1\",namespace=\"prod\","
	    "node=\"node-a\"}"), "16800000");
	assert_string_equal(value_of(b.p, "qmigrate_migration_phase"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\","
	    "phase=\"Succeeded\"}"), "1");
	assert_string_equal(value_of(b.p, "qmigrate_migration_failures_total"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\","
	    "plane=\"abort\",role=\"source\"}"), "1");
	assert_string_equal(value_of(b.p, "qmigrate_migration_failures_total"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\","
	    "plane=\"unknown\",role=\"target\"}"), "2");
	assert_string_equal(value_of(b.p, "qmigrate_migration_failures_total"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\","
	    "plane=\"limit\",role=\"source\"}"), "0");
	assert_string_equal(value_of(b.p, "qmigrate_migration_outcome_unknown"
	    "{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\"}"), "0");
	assert_string_equal(value_of(b.p, "qmigrate_migration_acceptable_"
	    "seconds{name=\"db\\\"1\",namespace=\"prod\",node=\"node-a\"}"),
	    "150");
	assert_string_equal(value_of(b.p, "qmigrate_migrations_in_running_"
	    "phase{node=\"node-a\"}"), "0");
	/* HELP and TYPE only for families with samples: no downtime
	 * before it is known. */
	assert_null(strstr(b.p, "qmigrate_migration_downtime_seconds"));
	assert_non_null(strstr(b.p, "# TYPE qmigrate_vm_vcpus gauge\n"));
	assert_null(strstr(b.p, "qmigrate_vm_memory_resident_bytes"));
	assert_null(strstr(b.p, "qmigrate_guest_agent_up"));
	free(b.p);
}

/*
 * The phase transition histogram: each phase of a migration observed
 * once, seconds from its start, KubeVirt's buckets; a new uid starts
 * over; the document found at start only baselines.
 */
static void
test_phase_hist(void **state)
{
	static const char *doc1 = "{\"phase\": \"Running\", \"role\": "
	    "\"source\", \"migrationUid\": \"u1\", \"startTimestamp\": "
	    "\"2026-11-25T12:00:00.000Z\", \"phaseTransitionTimestamps\": ["
	    "{\"phase\": \"Pending\", \"phaseTransitionTimestamp\": "
	    "\"2026-11-25T12:00:00.000Z\"}, "
	    "{\"phase\": \"PreparingTarget\", \"phaseTransitionTimestamp\": "
	    "\"2026-11-25T12:00:00.700Z\"}, "
	    "{\"phase\": \"Running\", \"phaseTransitionTimestamp\": "
	    "\"2026-11-25T12:00:03.000Z\"}]}";
	struct exporter_vm_spec	 spec = { 0 };
	struct vm_snapshot	 snap;
	struct render_vm	 vm;
	struct render_buf	 b = { NULL, 0, 0 };
	struct phase_hist	 h;
	struct snap_migration	 m;
	json_object		*doc;
	/* Series of the histogram (name and labels after node) and values. */
	static const struct {
		const char	*name, *labels, *value;
	} series[] = {
		{ "bucket", "phase=\"PreparingTarget\",le=\"1\"", "1" },
		{ "bucket", "phase=\"Running\",le=\"+Inf\"", "1" },
		{ "count", "phase=\"Pending\"", "1" },
		{ "sum", "phase=\"Running\"", "3" },
	};
	const char		*base = "qmigrate_migration_phase_transition_"
	    "time_from_creation_seconds";
	char			 key[256];
	size_t			 i;

	(void)state;
	memset(&h, 0, sizeof h);
	doc = parse(doc1);
	assert_int_equal(decode_status_doc(doc, &m), 0);
	json_object_put(doc);
	assert_true(m.phase_time[1].have);
	assert_true(m.phase_time[1].v > 0.69 && m.phase_time[1].v < 0.71);
	assert_false(m.phase_time[2].have);
	phase_hist_update(&h, &m, 1);
	phase_hist_update(&h, &m, 1);	/* the same phases: once */
	assert_int_equal(h.count[0], 1);
	assert_int_equal(h.count[1], 1);
	assert_int_equal(h.count[3], 1);
	assert_int_equal(h.count[2], 0);
	/* le 0.5 holds Pending's 0, not PreparingTarget's 0.7. */
	assert_int_equal(h.bucket[0][0], 1);
	assert_int_equal(h.bucket[1][0], 0);
	assert_int_equal(h.bucket[1][1], 1);
	assert_int_equal(h.bucket[3][3], 1);	/* 3 s: le 5 */
	assert_int_equal(h.bucket[3][2], 0);

	/* Another migration: observed anew. */
	snprintf(m.uid, sizeof m.uid, "u2");
	phase_hist_update(&h, &m, 1);
	assert_int_equal(h.count[3], 2);
	/* Found at start: baselined, not observed. */
	memset(&h, 0, sizeof h);
	phase_hist_update(&h, &m, 0);
	assert_int_equal(h.count[0], 0);
	phase_hist_update(&h, &m, 1);
	assert_int_equal(h.count[0], 0);

	phase_hist_update(&h, &m, 0);
	snprintf(m.uid, sizeof m.uid, "u3");
	phase_hist_update(&h, &m, 1);
	memset(&snap, 0, sizeof snap);
	spec.name = "db1";
	memset(&vm, 0, sizeof vm);
	vm.spec = &spec;
	vm.snap = &snap;
	vm.phases = &h;
	render_metrics(&b, &vm, 1, "node-a", NULL);
	assert_non_null(strstr(b.p, "# TYPE qmigrate_migration_phase_"
	    "transition_time_from_creation_seconds histogram\n"));
	for (i = 0; i < sizeof series / sizeof series[0]; i++) {
		snprintf(key, sizeof key, "%s_%s{name=\"db1\",node=\"node-a\","
		    "%s}", base, series[i].name, series[i].labels);
		assert_string_equal(value_of(b.p, key), series[i].value);
	}
	assert_null(strstr(b.p, "phase=\"Succeeded\",le"));
	free(b.p);
}

/*
 * stats: QEMU's NIC and the agent's interface with the same MAC are one
 * entry (the test guest has no NIC driver, so only this test sees it).
 */
static void
test_stats_merge(void **state)
{
	struct vm_snapshot	 s;
	struct snap_nic		 nic;
	struct snap_guest_if	 ifs[2];
	json_object		*list, *e;

	memset(&s, 0, sizeof s);
	memset(&nic, 0, sizeof nic);
	memset(ifs, 0, sizeof ifs);
	strcpy(nic.name, "net0");
	strcpy(nic.mac, "52:54:00:00:00:01");
	strcpy(nic.tap, "tap0");
	nic.stats.have = 1;
	nic.stats.rx_bytes = 7;
	strcpy(ifs[0].name, "lo");
	strcpy(ifs[0].mac, "00:00:00:00:00:00");
	strcpy(ifs[1].name, "eth0");
	strcpy(ifs[1].mac, "52:54:00:00:00:01");
	strcpy(ifs[1].addrs[0], "10.0.0.2/24");
	ifs[1].naddrs = 1;
	ifs[1].stats.have = 1;
	ifs[1].stats.rx_bytes = 5;
	s.nics = &nic;
	s.nnics = 1;
	s.guest_ifs = ifs;
	s.nguest_ifs = 2;
	s.agent_up = 1;

	list = stats_interfaces(&s);
	assert_int_equal(json_object_array_length(list), 2);
	e = json_object_array_get_idx(list, 0);
	assert_string_equal(json_object_to_json_string_ext(
	    json_obj_at(e, "infoSource"), JSON_C_TO_STRING_PLAIN),
	    "[\"qemu\",\"guest-agent\",\"node\"]");
	assert_string_equal(json_str_at(json_obj_at(e, "guestName"),
	    "value"), "eth0");
	/* The tap's counters (the node's) win over the guest's own. */
	assert_int_equal(json_u64_at(json_obj_at(e, "rxBytes"), "value"), 7);
	assert_string_equal(json_str_at(json_obj_at(e, "rxBytes"), "source"),
	    "node");
	e = json_object_array_get_idx(list, 1);
	assert_string_equal(json_str_at(json_obj_at(e, "guestName"),
	    "value"), "lo");
	json_object_put(list);
}

static void
test_http_request(void **state)
{
	const char	*method, *path;
	char		 a[] = "GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\n\r\n";
	char		 b[] = "GET /metrics\r\n\r\n";
	char		 c[] = " /metrics HTTP/1.1\r\n";

	assert_int_equal(http_parse_request(a, &method, &path), 0);
	assert_string_equal(method, "GET");
	assert_string_equal(path, "/metrics");
	assert_int_equal(http_parse_request(b, &method, &path), -1);
	assert_int_equal(http_parse_request(c, &method, &path), -1);
}

static void
test_vm_spec(void **state)
{
	struct exporter_vm_spec	 s;
	char			*cause = NULL;

	assert_int_equal(exporter_vm_spec_parse(
	    "db=/q,namespace=prod,qga=/g", &s, &cause), 0);
	assert_string_equal(s.namespace, "prod");
	assert_string_equal(s.qga, "/g");
	exporter_vm_spec_free(&s);
	assert_int_equal(exporter_vm_spec_parse("db=/q,namespace=", &s,
	    &cause), -1);
	assert_non_null(strstr(cause, "namespace="));
	free(cause);
}

/* --vm-dir: sockets NAME.qmp only, sorted, with their companions. */
static void
test_dir_scan(void **state)
{
	struct exporter_vm_spec	*v;
	struct sockaddr_un	 sun;
	char			 dir[] = "/tmp/qmigrate-test-dir.XXXXXX";
	char			 path[128], *cause = NULL;
	const char		*names[] = { "b.qmp", "a.qmp", ".h.qmp",
				    "a.qga" };
	size_t			 n, i;
	int			 fds[4];

	assert_non_null(mkdtemp(dir));
	for (i = 0; i < 4; i++) {
		fds[i] = socket(AF_UNIX, SOCK_STREAM, 0);
		memset(&sun, 0, sizeof sun);
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof sun.sun_path, "%s/%s", dir,
		    names[i]);
		assert_int_equal(bind(fds[i], (struct sockaddr *)&sun,
		    sizeof sun), 0);
	}
	/* A regular file named like a monitor is not one. */
	snprintf(path, sizeof path, "%s/c.qmp", dir);
	close(open(path, O_CREAT | O_WRONLY, 0600));

	assert_int_equal(exporter_dir_scan(dir, &v, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, "a");
	assert_string_equal(v[1].name, "b");
	snprintf(path, sizeof path, "%s/a.qga", dir);
	assert_string_equal(v[0].qga, path);
	snprintf(path, sizeof path, "%s/a.status", dir);
	assert_string_equal(v[0].status, path);
	assert_true(v[0].optional);
	for (i = 0; i < n; i++)
		exporter_vm_spec_free(&v[i]);
	free(v);

	for (i = 0; i < 4; i++) {
		close(fds[i]);
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/c.qmp", dir);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(exporter_dir_scan(dir, &v, &n, &cause), -1);
	assert_non_null(strstr(cause, "--vm-dir"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_network),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_rfc3339),
		cmocka_unit_test(test_status_doc),
		cmocka_unit_test(test_phase_hist),
		cmocka_unit_test(test_query_migrate),
		cmocka_unit_test(test_guest_text),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_stats_merge),
		cmocka_unit_test(test_http_request),
		cmocka_unit_test(test_vm_spec),
		cmocka_unit_test(test_dir_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
