/*
 * cmd-dirty-rate.c: qmigrate dirty-rate: measure how fast the guest dirties
 * its memory and judge whether pre-copy at a given bandwidth converges.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "qmp.h"

#define MIB		(1024.0 * 1024.0)
#define QEMU_DOWNTIME_MS 300	/* QEMU's default downtime-limit */

enum {
	OPT_QMP = 256, OPT_SECONDS, OPT_SAMPLE_PAGES, OPT_MODE, OPT_BANDWIDTH,
	OPT_POLICY, OPT_LABEL, OPT_JSON,
};

/* Bytes of guest RAM (base + hot-plugged), or 0 when QEMU does not say. */
static uint64_t
guest_memory(struct qmp_conn *qmp)
{
	json_object	*reply = NULL, *v;
	uint64_t	 bytes = 0;
	char		*cause = NULL;

	if (qmp_call(qmp, "query-memory-size-summary", NULL, &reply, 10,
	    &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return 0;
	}
	if (json_object_object_get_ex(reply, "base-memory", &v))
		bytes += (uint64_t)json_object_get_int64(v);
	if (json_object_object_get_ex(reply, "plugged-memory", &v))
		bytes += (uint64_t)json_object_get_int64(v);
	json_object_put(reply);
	return bytes;
}

/*
 * The bandwidth of the policy that selects vm, else the cluster's default
 * (0: unlimited).
 */
static int
policy_bandwidth(const char *path, const struct vm_ident *vm, uint64_t *bw,
    char **cause)
{
	struct policy_set	*set;
	struct policy_choice	 choice;

	if ((set = policy_load(path, cause)) == NULL)
		return -1;
	policy_choose(set, vm, &choice, 1);
	log_info("policy: %s", choice.why);
	*bw = choice.migration.bandwidth;
	policy_choice_free(&choice);
	policy_set_free(set);
	return 0;
}

static const char *
verdict_name(enum dirty_verdict v)
{
	switch (v) {
	case DIRTY_CONVERGES:
		return "converges";
	case DIRTY_DIVERGES:
		return "does-not-converge";
	case DIRTY_UNKNOWN:
		break;
	}
	return "unknown";
}

static void
print_text(double mbps, json_object *per_vcpu, uint64_t memory,
    uint64_t bw, const struct dirty_estimate *e)
{
	json_object	*c, *v;
	size_t		 i;

	printf("dirty rate: %.1f MiB/s\n", mbps);
	for (i = 0; per_vcpu != NULL &&
	    i < json_object_array_length(per_vcpu); i++) {
		c = json_object_array_get_idx(per_vcpu, i);
		if (json_object_object_get_ex(c, "dirty-rate", &v))
			printf("  vcpu %zu: %.1f MiB/s\n", i,
			    json_object_get_double(v));
	}
	printf("guest memory: %.0f MiB\n", (double)memory / MIB);
	if (bw == 0) {
		printf("bandwidth: unlimited (no --bandwidth and no policy "
		    "limit): convergence depends on the link; give "
		    "--bandwidth to judge it\n");
		return;
	}
	printf("bandwidth: %.1f MiB/s (dirty/bandwidth %.2f)\n",
	    (double)bw / MIB, e->ratio);
	if (e->verdict == DIRTY_CONVERGES)
		printf("verdict: pre-copy converges: about %.1f s in %d "
		    "passes (%d ms downtime)\n", e->seconds, e->passes,
		    QEMU_DOWNTIME_MS);
	else
		printf("verdict: pre-copy does not converge (the guest "
		    "dirties %.0f%% of the bandwidth, more than %.0f%%): "
		    "use auto-converge, post-copy or more bandwidth\n",
		    e->ratio * 100, DIRTY_CONVERGE_RATIO * 100);
}

static int
cmd_dirty_rate_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "qmp", required_argument, NULL, OPT_QMP },
		{ "seconds", required_argument, NULL, OPT_SECONDS },
		{ "sample-pages", required_argument, NULL, OPT_SAMPLE_PAGES },
		{ "mode", required_argument, NULL, OPT_MODE },
		{ "bandwidth", required_argument, NULL, OPT_BANDWIDTH },
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "labels-file", required_argument, NULL, OPT_LABEL },
		{ "namespace-label", required_argument, NULL, OPT_LABEL },
		{ "namespace-labels-file", required_argument, NULL,
		    OPT_LABEL },
		{ "vmi", required_argument, NULL, OPT_LABEL },
		{ "json", no_argument, NULL, OPT_JSON },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*cmd = &cmd_dirty_rate_entry;
	const char		*path = NULL, *mode = "page-sampling";
	const char		*policy = NULL;
	struct vm_ident		 vm;
	uint64_t		 u, bw = 0, memory;
	int			 ch, seconds = 1, sample_pages = 0, json = 0;
	int			 longindex;
	int			 bw_set = 0, kvm, rc = QM_EXIT_OK;
	struct ev_loop		*loop;
	struct qmp_conn		*qmp;
	struct dirty_estimate	 e;
	json_object		*per_vcpu = NULL, *doc;
	double			 mbps;
	char			*cause = NULL;

	memset(&vm, 0, sizeof vm);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "+", longopts,
	    &longindex)) != -1) {
		switch (ch) {
		case OPT_QMP:
			path = optarg;
			break;
		case OPT_SECONDS:
			if (parse_u64(optarg, &u) != 0 || u < 1 || u > 60) {
				rc = cmd_usage_error(cmd, "--seconds: expected "
				    "1 to 60 (QEMU's calc-time), got \"%s\"",
				    optarg);
				goto out;
			}
			seconds = (int)u;
			break;
		case OPT_SAMPLE_PAGES:
			if (parse_u64(optarg, &u) != 0 || u < 128 ||
			    u > 16384) {
				rc = cmd_usage_error(cmd, "--sample-pages: "
				    "expected 128 to 16384 (pages per GiB), "
				    "got \"%s\"", optarg);
				goto out;
			}
			sample_pages = (int)u;
			break;
		case OPT_MODE:
			if (!dirty_rate_mode_ok(optarg)) {
				rc = cmd_usage_error(cmd, "--mode: expected "
				    "page-sampling, dirty-bitmap or "
				    "dirty-ring, got \"%s\"", optarg);
				goto out;
			}
			mode = optarg;
			break;
		case OPT_BANDWIDTH:
			if (policy_parse_bandwidth(optarg, &bw) != 0) {
				rc = cmd_usage_error(cmd, "--bandwidth: "
				    "expected bytes/s with an optional Ki, "
				    "Mi, Gi or Ti suffix, got \"%s\"", optarg);
				goto out;
			}
			bw_set = 1;
			break;
		case OPT_POLICY:
			policy = optarg;
			break;
		case OPT_LABEL:
			if (vm_ident_option(&vm, longopts[longindex].name,
			    optarg, &cause) != 0) {
				rc = cmd_usage_error(cmd, "%s", cause);
				goto out;
			}
			break;
		case OPT_JSON:
			json = 1;
			break;
		default:
			rc = cmd_usage_error(cmd, "unknown option %s",
			    argv[optind - 1]);
			goto out;
		}
	}
	if (optind < argc) {
		rc = cmd_usage_error(cmd, "unexpected argument \"%s\"",
		    argv[optind]);
		goto out;
	}
	if (path == NULL) {
		rc = cmd_usage_error(cmd, "--qmp PATH is required");
		goto out;
	}
	if (sample_pages != 0 && strcmp(mode, "page-sampling") != 0) {
		rc = cmd_usage_error(cmd, "--sample-pages applies to "
		    "page-sampling only");
		goto out;
	}
	if (!bw_set && policy != NULL &&
	    policy_bandwidth(policy, &vm, &bw, &cause) != 0) {
		fprintf(stderr, "qmigrate dirty-rate: %s\n", cause);
		rc = QM_EXIT_USAGE;
		goto out;
	}

	loop = ev_loop_new(EVFLAG_AUTO);
	if ((qmp = qmp_connect(loop, path, QMP_PROTO_MONITOR, 10,
	    &cause)) == NULL) {
		fprintf(stderr, "qmigrate dirty-rate: %s\n", cause);
		ev_loop_destroy(loop);
		rc = QM_EXIT_CONTROL;
		goto out;
	}
	/* A mode that would crash this QEMU is the user's error: exit 1. */
	if (strcmp(mode, "page-sampling") != 0 &&
	    (kvm = dirty_rate_kvm_enabled(qmp, &cause)) != 1) {
		if (kvm == 0)
			fprintf(stderr, "qmigrate dirty-rate: --mode %s needs "
			    "KVM, and %s runs without it (QEMU 7.2 crashes "
			    "measuring %s under TCG): use page-sampling\n",
			    mode, path, mode);
		else
			fprintf(stderr, "qmigrate dirty-rate: %s\n", cause);
		rc = kvm == 0 ? QM_EXIT_USAGE : QM_EXIT_CONTROL;
		goto close;
	}
	if (dirty_rate_measure(qmp, seconds, sample_pages, mode, &mbps,
	    &per_vcpu, &cause) != 0) {
		fprintf(stderr, "qmigrate dirty-rate: %s: %s\n", path, cause);
		rc = QM_EXIT_CONTROL;
		goto close;
	}
	memory = guest_memory(qmp);
	dirty_rate_estimate(memory, mbps * MIB, bw, QEMU_DOWNTIME_MS, &e);
	if (json) {
		doc = json_object_new_object();
		json_object_object_add(doc, "mode",
		    json_object_new_string(mode));
		json_object_object_add(doc, "seconds",
		    json_object_new_int(seconds));
		json_object_object_add(doc, "dirtyRateMiBps",
		    json_object_new_double(mbps));
		json_object_object_add(doc, "dirtyRateBytesPerSecond",
		    json_object_new_uint64((uint64_t)(mbps * MIB)));
		if (per_vcpu != NULL)
			json_object_object_add(doc, "vcpus",
			    json_object_get(per_vcpu));
		json_object_object_add(doc, "memoryBytes",
		    json_object_new_uint64(memory));
		json_object_object_add(doc, "bandwidthBytesPerSecond",
		    json_object_new_uint64(bw));
		json_object_object_add(doc, "verdict",
		    json_object_new_string(verdict_name(e.verdict)));
		if (bw != 0)
			json_object_object_add(doc, "ratio",
			    json_object_new_double(e.ratio));
		if (e.verdict == DIRTY_CONVERGES) {
			json_object_object_add(doc, "estimatedSeconds",
			    json_object_new_double(e.seconds));
			json_object_object_add(doc, "estimatedPasses",
			    json_object_new_int(e.passes));
		}
		printf("%s\n", json_object_to_json_string_ext(doc,
		    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
		json_object_put(doc);
	} else
		print_text(mbps, per_vcpu, memory, bw, &e);
	json_object_put(per_vcpu);
close:
	qmp_close(qmp);
	ev_loop_destroy(loop);
out:
	free(cause);
	vm_ident_free(&vm);
	return rc;
}

const struct cmd_entry cmd_dirty_rate_entry = {
	"dirty-rate",
	"--qmp PATH [--seconds N] [--sample-pages N] [--mode M] "
	"[--bandwidth B] [--policy P [--label K=V]... [--vmi FILE]] [--json]",
	"Measures how fast the guest of the QEMU at --qmp PATH dirties its\n"
	"memory (QEMU's calc-dirty-rate) and judges pre-copy against a\n"
	"bandwidth: it converges when the dirty rate is below 0.8 x the\n"
	"bandwidth, in roughly the time a geometric series of passes takes\n"
	"to leave what fits in QEMU's default 300 ms downtime.\n"
	"\n"
	"  --seconds N       measurement period, 1 to 60 (default 1)\n"
	"  --sample-pages N  pages sampled per GiB, 128 to 16384 (QEMU: 512)\n"
	"  --mode M          page-sampling (default); dirty-bitmap and\n"
	"                    dirty-ring need KVM (QEMU 7.2 crashes without)\n"
	"  --bandwidth B     bytes/s, Ki/Mi/Gi/Ti suffix (default: the policy's\n"
	"                    selected by --policy and --label, --labels-file,\n"
	"                    --namespace-label, --namespace-labels-file,\n"
	"                    --vmi; else the cluster's; else unlimited)\n"
	"  --json            one JSON document instead of text\n"
	"\n"
	"Exit status: 0 measured, 1 usage or refused mode, 3 QEMU failed.\n",
	cmd_dirty_rate_exec,
};
