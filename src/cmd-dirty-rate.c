/*
 * cmd-dirty-rate.c: qmigrate dirty-rate: measure how fast the guest dirties
 * its memory and judge whether pre-copy at a given bandwidth converges.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "dirty-rate.h"
#include "policy.h"
#include "qmp.h"

extern const struct cmd_entry cmd_dirty_rate_entry;

#define MIB		(1024.0 * 1024.0)
#define QEMU_DOWNTIME_MS 300	/* QEMU's default downtime-limit */


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

	if ((set = policy_load_or_default(path, cause)) == NULL)
		return -1;
	/* Say why only where there were policies to choose from. */
	policy_choose(set, vm, &choice, path != NULL || set->npolicies > 0);
	if (choice.why != NULL)
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
cmd_dirty_rate_exec(struct args *args)
{
	const struct cmd_entry	*cmd = &cmd_dirty_rate_entry;
	const char		*path = args_get(args, "qmp");
	const char		*mode = "page-sampling", *s;
	const char		*policy = args_get(args, "policy");
	struct vm_ident		 vm;
	uint64_t		 bw = 0, memory;
	int			 seconds, sample_pages, json;
	int			 kvm, rc = QM_EXIT_OK;
	struct ev_loop		*loop;
	struct qmp_conn		*qmp;
	struct dirty_estimate	 e;
	json_object		*per_vcpu = NULL, *doc;
	double			 mbps;
	char			*cause = NULL;

	seconds = (int)args_number(args, "seconds", 1);
	sample_pages = (int)args_number(args, "sample-pages", 0);
	json = args_has(args, "json");
	if (vm_ident_from_args(&vm, args, &cause) != 0) {
		rc = cmd_usage_error(cmd, "%s", cause);
		goto out;
	}
	if ((s = args_get(args, "mode")) != NULL) {
		if (!dirty_rate_mode_ok(s)) {
			rc = cmd_usage_error(cmd, "--mode: expected "
			    "page-sampling, dirty-bitmap or dirty-ring, got "
			    "\"%s\"", s);
			goto out;
		}
		mode = s;
	}
	if ((s = args_get(args, "bandwidth")) != NULL &&
	    policy_parse_bandwidth(s, &bw) != 0) {
		rc = cmd_usage_error(cmd, "--bandwidth: expected bytes/s with an "
		    "optional Ki, Mi, Gi or Ti suffix, got \"%s\"", s);
		goto out;
	}
	if (sample_pages != 0 && strcmp(mode, "page-sampling") != 0) {
		rc = cmd_usage_error(cmd, "--sample-pages applies to "
		    "page-sampling only");
		goto out;
	}
	if (s == NULL && policy_bandwidth(policy, &vm, &bw, &cause) != 0) {
		log_error("%s", cause);
		rc = QM_EXIT_USAGE;
		goto out;
	}

	loop = ev_loop_new(EVFLAG_AUTO);
	if ((qmp = qmp_connect(loop, path, QMP_PROTO_MONITOR, 10,
	    &cause)) == NULL) {
		log_error("%s", cause);
		ev_loop_destroy(loop);
		rc = QM_EXIT_CONTROL;
		goto out;
	}
	/* A mode that would crash this QEMU is the user's error: exit 1. */
	if (strcmp(mode, "page-sampling") != 0 &&
	    (kvm = dirty_rate_kvm_enabled(qmp, &cause)) != 1) {
		if (kvm == 0)
			log_error("--mode %s needs "
			    "KVM, and %s runs without it (QEMU 7.2 crashes "
			    "measuring %s under TCG): use page-sampling",
			    mode, path, mode);
		else
			log_error("%s", cause);
		rc = kvm == 0 ? QM_EXIT_USAGE : QM_EXIT_CONTROL;
		goto close;
	}
	if (dirty_rate_measure(qmp, seconds, sample_pages, mode, &mbps,
	    &per_vcpu, &cause) != 0) {
		log_error("%s: %s", path, cause);
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

static const struct args_option dirty_rate_options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED, .help = "the QEMU's monitor socket" },
	{ .name = "seconds", .type = ARGS_COUNT, .value = "N", .min = 1,
	    .max = 60,
	    .help =
	    "measurement period, 1 to 60 (default 1; QEMU's calc-time)" },
	{ .name = "sample-pages", .type = ARGS_COUNT, .value = "N", .min = 128,
	    .max = 16384,
	    .help = "pages sampled per GiB, 128 to 16384 (QEMU: 512)" },
	{ .name = "mode", .type = ARGS_STRING, .value = "M",
	    .help =
	    "page-sampling (default); dirty-bitmap and dirty-ring need\n"
	    "KVM (QEMU 7.2 crashes without)" },
	{ .name = "bandwidth", .type = ARGS_STRING, .value = "B",
	    .help = "bytes/s, Ki/Mi/Gi/Ti suffix (default: the policy's; else\n"
	    "the cluster's; else unlimited)" },
	{ .name = "policy", .type = ARGS_STRING, .value = "PATH",
	    .help = "policy file or directory giving the bandwidth\n"
	    "(default " POLICY_DEFAULT_DIR " if it exists)" },
	{ .include = vm_ident_options },
	{ .name = "json", .type = ARGS_FLAG,
	    .help = "one JSON document instead of text" },
	{ .name = NULL }
};

const struct cmd_entry cmd_dirty_rate_entry = {
	.name = "dirty-rate",
	.args = { .options = dirty_rate_options },
	.help =
	"Measures how fast the guest of the QEMU at --qmp PATH dirties its\n"
	"memory (QEMU's calc-dirty-rate) and judges pre-copy against a\n"
	"bandwidth: it converges when the dirty rate is below 0.8 x the\n"
	"bandwidth, in roughly the time a geometric series of passes takes\n"
	"to leave what fits in QEMU's default 300 ms downtime.\n",
	.exits =
	"Exit status: 0 measured, 1 usage or refused mode, 3 QEMU failed.\n",
	.exec = cmd_dirty_rate_exec,
};
