/*
 * test-policy.c: policy files as an operator writes them (the shipped
 * examples, every kind of mistake and the message it earns), selection
 * precedence, labels and bandwidth suffixes.
 */
#include <sys/stat.h>

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
#include "policy.h"
#include "tmpdir.h"
#include "mig-disks.h"

#ifndef POLICY_EXAMPLES_DIR
#error "POLICY_EXAMPLES_DIR must name the source tree's policies directory"
#endif

/*
 * Loads text as a policy file and expects it refused with exactly
 * "policy FILE: " followed by expected.
 */
static void
expect_error(const char *text, const char *expected)
{
	policy_expect_refused("test-policy", "p.json", text, expected);
}

/* Loads text as a policy file that must parse; caller frees the set. */
static struct policy_set *
load_text(const char *text)
{
	char			*dir = tmpdir_new("test-policy"), *path, *cause = NULL;
	struct policy_set	*set;

	path = tmpdir_write(dir, "p.json", text);
	set = policy_load(path, &cause);
	if (set == NULL)
		fail_msg("refused: %s: %s", text, cause);
	assert_int_equal(set->npolicies, 1);
	free(path);
	tmpdir_free(dir);
	return set;
}

/* The migration settings of the one policy in text (copied into *s). */
static void
settings_of(struct mig_settings *s, const char *text)
{
	struct policy_set	*set = load_text(text);

	mig_settings_copy(s, &set->policies[0].migration);
	policy_set_free(set);
}

static const struct policy *
find(const struct policy_set *set, const char *name)
{
	size_t i;

	for (i = 0; i < set->npolicies; i++)
		if (strcmp(set->policies[i].name, name) == 0)
			return &set->policies[i];
	fail_msg("no policy %s", name);
	return NULL;
}

static void
test_defaults(void **state)
{
	struct mig_settings s;

	(void)state;
	policy_defaults(&s);
	assert_int_equal(s.bandwidth, 0);
	assert_int_equal(s.completion_timeout_per_gib, 150);
	assert_int_equal(s.progress_timeout, 150);
	assert_int_equal(s.max_downtime_ms, 0);
	assert_false(s.allow_auto_converge);
	assert_false(s.allow_post_copy);
	assert_false(s.allow_workload_disruption);
	assert_int_equal(s.parallel_migration_threads, 0);
	assert_false(s.disable_tls);
	assert_int_equal(s.convergence, CTL_ADAPTIVE);
	assert_null(s.shared_storage_paths);
	mig_settings_free(&s);
}

/* The shipped examples load as a directory and say what they document. */
static void
test_examples(void **state)
{
	struct policy_set	*set;
	const struct policy	*p;
	char			*cause = NULL;

	(void)state;
	set = policy_load(POLICY_EXAMPLES_DIR, &cause);
	if (set == NULL)
		fail_msg("%s", cause);
	assert_int_equal(set->npolicies, 5);
	/* Sorted by name. */
	assert_string_equal(set->policies[0].name, "database-postcopy");
	assert_string_equal(set->policies[4].name, "stateless");

	p = find(set, "default");
	assert_int_equal(p->nselector, 0);
	assert_int_equal(p->eviction, EVICT_LIVE_MIGRATE);
	assert_true(p->migration.allow_auto_converge);
	assert_int_equal(p->migration.completion_timeout_per_gib, 150);

	p = find(set, "database-postcopy");
	assert_int_equal(p->nselector, 2);
	assert_int_equal(p->migration.bandwidth, 1ULL << 30);
	assert_true(p->migration.allow_post_copy);
	assert_true(p->migration.allow_workload_disruption);
	assert_int_equal(p->migration.parallel_migration_threads, 4);
	assert_int_equal(p->termination_grace_seconds, 300);
	assert_string_equal(p->migration.shared_storage_paths[0], "/srv/ceph");
	assert_string_equal(p->migration.shared_storage_paths[1],
	    "/mnt/nfs/vms");
	assert_null(p->migration.shared_storage_paths[2]);
	assert_non_null(strstr(p->file, "database-postcopy.json"));

	p = find(set, "host-devices");
	assert_int_equal(p->eviction, EVICT_LIVE_MIGRATE_IF_POSSIBLE);
	assert_int_equal(p->migration.max_downtime_ms, 2000);
	assert_int_equal(p->migration.convergence, CTL_KUBEVIRT);
	assert_false(p->migration.allow_post_copy);
	assert_true(p->migration.allow_workload_disruption);

	p = find(set, "stateless");
	assert_int_equal(p->eviction, EVICT_NONE);
	assert_int_equal(p->migration.bandwidth, 128ULL << 20);
	assert_int_equal(p->termination_grace_seconds, 10);

	p = find(set, "external");
	assert_int_equal(p->eviction, EVICT_EXTERNAL);
	assert_int_equal(p->termination_grace_seconds,
	    POLICY_DEFAULT_GRACE_SECONDS);
	/* Unset fields keep the defaults. */
	assert_int_equal(p->migration.progress_timeout, 150);
	policy_set_free(set);
}

/* Each example also loads on its own, as "policy check FILE" does. */
static void
test_examples_one_by_one(void **state)
{
	static const char *files[] = { "default.json",
	    "database-postcopy.json", "host-devices.json", "stateless.json",
	    "external.json" };
	struct policy_set	*set;
	char			*path, *cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof files / sizeof files[0]; i++) {
		xasprintf(&path, "%s/%s", POLICY_EXAMPLES_DIR, files[i]);
		set = policy_load(path, &cause);
		if (set == NULL)
			fail_msg("%s", cause);
		assert_int_equal(set->npolicies, 1);
		policy_set_free(set);
		free(path);
	}
}

static void
test_workload_disruption_follows_postcopy(void **state)
{
	struct policy_set *set;

	(void)state;
	set = load_text("{\"name\": \"a\", \"migration\": "
	    "{\"allowPostCopy\": true}}");
	assert_true(set->policies[0].migration.allow_workload_disruption);
	policy_set_free(set);
	/* The order of the keys does not matter. */
	set = load_text("{\"name\": \"a\", \"migration\": "
	    "{\"allowWorkloadDisruption\": false, \"allowPostCopy\": true}}");
	assert_true(set->policies[0].migration.allow_post_copy);
	assert_false(set->policies[0].migration.allow_workload_disruption);
	policy_set_free(set);
	set = load_text("{\"name\": \"a\"}");
	assert_int_equal(set->policies[0].eviction, POLICY_DEFAULT_EVICTION);
	assert_int_equal(set->policies[0].termination_grace_seconds, 30);
	assert_false(set->policies[0].migration.allow_workload_disruption);
	policy_set_free(set);
}

static void
test_unknown_fields(void **state)
{
	(void)state;
	expect_error("{\"name\": \"a\", \"evictionstrategy\": \"None\"}",
	    "evictionstrategy: unknown field");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"bandwithPerMigration\": 1}}",
	    "migration.bandwithPerMigration: unknown field");
	expect_error("{\"name\": \"a\", \"selector\": "
	    "{\"matchLabels\": {}}}", "selector.matchLabels: unknown field");
}

static void
test_wrong_types(void **state)
{
	(void)state;
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"progressTimeout\": \"fast\"}}",
	    "migration.progressTimeout: expected an integer from 0 to 86400, "
	    "got \"fast\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"completionTimeoutPerGiB\": 1.5}}",
	    "migration.completionTimeoutPerGiB: expected an integer from 0 to "
	    "86400, got 1.5");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"allowPostCopy\": \"yes\"}}",
	    "migration.allowPostCopy: expected true or false, got \"yes\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"disableTLS\": 1}}",
	    "migration.disableTLS: expected true or false, got 1");
	expect_error("{\"name\": \"a\", \"migration\": []}",
	    "migration: expected an object, got an array");
	expect_error("{\"name\": \"a\", \"evictionStrategy\": \"Migrate\"}",
	    "evictionStrategy: expected \"None\", \"LiveMigrate\", "
	    "\"LiveMigrateIfPossible\" or \"External\", got \"Migrate\"");
	expect_error("{\"name\": \"a\", \"evictionStrategy\": \"livemigrate\"}",
	    "evictionStrategy: expected \"None\", \"LiveMigrate\", "
	    "\"LiveMigrateIfPossible\" or \"External\", got \"livemigrate\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"convergence\": \"fast\"}}",
	    "migration.convergence: expected \"adaptive\" or \"kubevirt\", "
	    "got \"fast\"");
	expect_error("{\"name\": \"a\", \"selector\": {\"labels\": "
	    "{\"app\": 1}}}",
	    "selector.labels.app: expected a string, got 1");
	expect_error("{\"name\": \"a\", \"selector\": {\"labels\": "
	    "[\"app\"]}}",
	    "selector.labels: expected an object of label names to string "
	    "values, got an array");
	expect_error("{\"name\": 7}", "name: expected a string, got 7");
	expect_error("[{\"name\": \"a\"}]",
	    "expected a JSON object, got an array");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"sharedStoragePaths\": \"/srv\"}}",
	    "migration.sharedStoragePaths: expected an array of absolute "
	    "paths, got \"/srv\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"sharedStoragePaths\": [\"/srv\", 3]}}",
	    "migration.sharedStoragePaths[1]: expected a string, got 3");
}

static void
test_out_of_range(void **state)
{
	(void)state;
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"parallelMigrationThreads\": 65}}",
	    "migration.parallelMigrationThreads: out of range: expected an "
	    "integer from 0 to 64, got 65");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"progressTimeout\": -1}}",
	    "migration.progressTimeout: out of range: expected an integer "
	    "from 0 to 86400, got -1");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"maxDowntimeMs\": 99999999999999999999}}",
	    "migration.maxDowntimeMs: out of range: expected an integer from "
	    "0 to 2000000, got 18446744073709551615");
	expect_error("{\"name\": \"a\", \"terminationGracePeriodSeconds\": "
	    "86401}",
	    "terminationGracePeriodSeconds: out of range: expected an integer "
	    "from 0 to 86400, got 86401");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"bandwidthPerMigration\": 1099511627777}}",
	    "migration.bandwidthPerMigration: out of range: expected an "
	    "integer from 0 to 1099511627776, got 1099511627777");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"sharedStoragePaths\": [\"srv/nfs\"]}}",
	    "migration.sharedStoragePaths[0]: expected an absolute path, got "
	    "\"srv/nfs\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"sharedStoragePaths\": [\"/srv/../etc\"]}}",
	    "migration.sharedStoragePaths[0]: expected an absolute path "
	    "without . or .. components, got \"/srv/../etc\"");
}

static void
test_name(void **state)
{
	(void)state;
	expect_error("{\"selector\": {}}",
	    "name: missing: every policy needs a name");
	expect_error("{\"name\": \"\"}",
	    "name: expected a string of 1 to 253 characters, got \"\"");
	expect_error("{\"name\": \"my policy\"}",
	    "name: expected letters, digits, '-', '.' or '_', got "
	    "\"my policy\"");
	expect_error("{\"name\": \"a\\u0000b\"}",
	    "name: expected a string without NUL characters, got \"a\\u0000b\"");
}

static void
test_syntax(void **state)
{
	char			*dir, *path, *cause = NULL, *big, *want;
	struct policy_set	*set;

	(void)state;
	expect_error("{\"name\": \"a\",\n  \"migration\": {\n    "
	    "\"progressTimeout\" 10\n  }\n}",
	    "line 3, column 23: object property name separator ':' "
	    "expected");
	expect_error("", "unexpected end of file");
	expect_error("{\"name\": \"a\"", "unexpected end of file");
	expect_error("{\"name\": \"a\"}\n\n  {\"name\": \"b\"}",
	    "line 3, column 3: unexpected text after the JSON value");
	expect_error("/* unterminated {\"name\": \"a\"}",
	    "unexpected end of file");

	/* A NUL byte outside a string. */
	dir = tmpdir_new("test-policy");
	path = tmpdir_write_len(dir, "p.json", "{\"name\":\n \"a\"}\0x", 17);
	assert_null(policy_load(path, &cause));
	xasprintf(&want, "policy %s: line 2, column 6: NUL character", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);

	/* Over 1 MiB, even if it is valid JSON. */
	big = xmalloc(POLICY_MAX_FILE_SIZE + 64);
	memset(big, ' ', POLICY_MAX_FILE_SIZE + 64);
	memcpy(big, "{\"name\": \"a\"}", 13);
	path = tmpdir_write_len(dir, "big.json", big, POLICY_MAX_FILE_SIZE + 1);
	set = policy_load(path, &cause);
	assert_null(set);
	xasprintf(&want, "policy %s: larger than 1048576 bytes", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);
	/* Exactly 1 MiB is fine. */
	path = tmpdir_write_len(dir, "big.json", big, POLICY_MAX_FILE_SIZE);
	set = policy_load(path, &cause);
	assert_non_null(set);
	policy_set_free(set);
	free(path);
	free(big);
	tmpdir_free(dir);
}

/* Comments anywhere outside strings; comment markers inside strings stay. */
static void
test_comments(void **state)
{
	struct policy_set	*set;
	const struct policy	*p;

	(void)state;
	set = load_text("// leading\n/* block\n * comment */\n{\n"
	    "\t\"name\": \"a\", // trailing\n"
	    "\t\"selector\": { \"labels\": {\n"
	    "\t\t\"note\": \"/* not a comment */\",\n"
	    "\t\t\"url\": \"http://example.org//x\" /* after */ } },\n"
	    "\t\"migration\": { /* inside */ \"progressTimeout\": 7 }\n"
	    "}\n// last\n/* really last */\n");
	p = &set->policies[0];
	assert_int_equal(p->nselector, 2);
	assert_string_equal(p->selector[0].key, "note");
	assert_string_equal(p->selector[0].value, "/* not a comment */");
	assert_string_equal(p->selector[1].value, "http://example.org//x");
	assert_int_equal(p->migration.progress_timeout, 7);
	policy_set_free(set);
}

static void
test_too_many_labels(void **state)
{
	char	*text, *want;
	int	 i;

	(void)state;
	text = xstrdup("{\"name\": \"a\", \"selector\": {\"labels\": {");
	for (i = 0; i <= POLICY_MAX_LABELS; i++)
		str_append(&text, "%s\"k%d\": \"v\"", i ? ", " : "", i);
	str_append(&text, "}}}");
	xasprintf(&want, "selector.labels: out of range: expected at most %d "
	    "labels, got %d", POLICY_MAX_LABELS, POLICY_MAX_LABELS + 1);
	expect_error(text, want);
	free(want);
	free(text);
}

static void
test_bandwidth(void **state)
{
	static const struct {
		const char	*s;
		int		 ok;
		uint64_t	 v;
	} cases[] = {
		{ "0", 1, 0 }, { "1000", 1, 1000 }, { "64Ki", 1, 64 << 10 },
		{ "64Mi", 1, 64 << 20 }, { "2Gi", 1, 2ULL << 30 },
		{ "1Ti", 1, 1ULL << 40 }, { "0Mi", 1, 0 },
		{ "2Ti", 0, 0 }, { "64MB", 0, 0 }, { "64M", 0, 0 },
		{ "64mi", 0, 0 }, { "64 Mi", 0, 0 }, { "Mi", 0, 0 },
		{ "-1", 0, 0 }, { "1.5Gi", 0, 0 }, { "", 0, 0 },
		{ "99999999999999999999999", 0, 0 }, { "+5", 0, 0 },
	};
	struct policy_set	*set;
	uint64_t		 v;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = 12345;
		if ((policy_parse_bandwidth(cases[i].s, &v) == 0) !=
		    cases[i].ok)
			fail_msg("\"%s\": expected %s", cases[i].s,
			    cases[i].ok ? "accepted" : "refused");
		if (cases[i].ok)
			assert_int_equal(v, cases[i].v);
	}
	set = load_text("{\"name\": \"a\", \"migration\": "
	    "{\"bandwidthPerMigration\": \"64Mi\"}}");
	assert_int_equal(set->policies[0].migration.bandwidth, 64ULL << 20);
	policy_set_free(set);
	set = load_text("{\"name\": \"a\", \"migration\": "
	    "{\"bandwidthPerMigration\": 1048576}}");
	assert_int_equal(set->policies[0].migration.bandwidth, 1048576);
	policy_set_free(set);
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"bandwidthPerMigration\": \"64MB\"}}",
	    "migration.bandwidthPerMigration: expected bytes/s up to 1Ti, as "
	    "an integer or a string with a Ki, Mi, Gi or Ti suffix such as "
	    "\"64Mi\", got \"64MB\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"bandwidthPerMigration\": true}}",
	    "migration.bandwidthPerMigration: expected bytes/s as an integer "
	    "or a string such as \"64Mi\", got true");
}

/* A directory is all or nothing; the duplicate's message names both. */
static void
test_directory(void **state)
{
	char			*dir, *a, *b, *cause = NULL, *want;
	struct policy_set	*set;

	(void)state;
	dir = tmpdir_new("test-policy");
	/* Empty: no policies, defaults for everyone. */
	set = policy_load(dir, &cause);
	assert_non_null(set);
	assert_int_equal(set->npolicies, 0);
	policy_set_free(set);

	a = tmpdir_write(dir, "a.json", "{\"name\": \"db\"}");
	free(tmpdir_write(dir, "notes.txt", "not json"));
	free(tmpdir_write(dir, ".hidden.json", "not json"));
	set = policy_load(dir, &cause);
	if (set == NULL)
		fail_msg("%s", cause);
	assert_int_equal(set->npolicies, 1);
	policy_set_free(set);

	b = tmpdir_write(dir, "b.json", "/* copy */ {\"name\": \"db\"}");
	assert_null(policy_load(dir, &cause));
	xasprintf(&want, "policy %s: name: duplicate name \"db\", also "
	    "defined in %s", b, a);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(b);

	b = tmpdir_write(dir, "b.json", "{\"name\": \"web\", \"migration\": "
	    "{\"progressTimeout\": \"fast\"}}");
	assert_null(policy_load(dir, &cause));
	xasprintf(&want, "policy %s: migration.progressTimeout: expected an "
	    "integer from 0 to 86400, got \"fast\"", b);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(b);
	free(a);

	xasprintf(&want, "%s/missing", dir);
	assert_null(policy_load(want, &cause));
	assert_non_null(strstr(cause, "missing: No such file or directory"));
	free(cause);
	/* A directory the operator named must exist. */
	assert_null(policy_load_or_default(want, &cause));
	assert_non_null(strstr(cause, "missing: No such file or directory"));
	free(cause);
	free(want);
	tmpdir_free(dir);
}

/* A set built in memory: name and selector "k=v,k=v". */
static void
add_policy(struct policy_set *set, const char *name, const char *sel)
{
	struct policy	*p;
	char		*copy, *kv, *save, *eq;

	set->policies = xreallocarray(set->policies, set->npolicies + 1,
	    sizeof *set->policies);
	p = &set->policies[set->npolicies++];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->item = -1;
	xasprintf(&p->file, "/etc/qmigrate/policies.d/%s.json", name);
	policy_defaults(&p->migration);
	p->selector = xcalloc(POLICY_MAX_LABELS, sizeof *p->selector);
	copy = xstrdup(sel);
	for (kv = strtok_r(copy, ",", &save); kv != NULL;
	    kv = strtok_r(NULL, ",", &save)) {
		eq = strchr(kv, '=');
		p->selector[p->nselector].key = xstrndup(kv, (size_t)(eq - kv));
		p->selector[p->nselector].value = xstrdup(eq + 1);
		p->nselector++;
	}
	free(copy);
}

static const char *
select_name(const struct policy_set *set, const char *labels, char **why)
{
	struct vm_ident		 vm;
	char			*copy, *kv, *save, *cause = NULL;
	const struct policy	*p;

	memset(&vm, 0, sizeof vm);
	copy = xstrdup(labels);
	for (kv = strtok_r(copy, ",", &save); kv != NULL;
	    kv = strtok_r(NULL, ",", &save))
		assert_int_equal(vm_ident_option(&vm, "label", kv, &cause), 0);
	free(copy);
	p = policy_select(set, &vm, why);
	vm_ident_free(&vm);
	return p == NULL ? "(defaults)" : p->name;
}

static void
test_precedence(void **state)
{
	struct policy_set	*set = policy_set_new("/etc/qmigrate/policies.d");
	char			*why = NULL;

	(void)state;
	add_policy(set, "zz-catch-all", "");
	add_policy(set, "web", "app=web");
	add_policy(set, "db", "app=db");
	add_policy(set, "db-prod", "app=db,env=prod");
	add_policy(set, "b-tie", "app=cache,env=prod");
	add_policy(set, "a-tie", "app=cache,zone=eu");

	/* More matched labels win over fewer, and over the catch-all. */
	assert_string_equal(select_name(set, "app=db,env=prod", NULL),
	    "db-prod");
	assert_string_equal(select_name(set, "app=db,env=dev", NULL), "db");
	assert_string_equal(select_name(set, "app=web", NULL), "web");
	/* Empty selector matches anything, with 0 labels. */
	assert_string_equal(select_name(set, "app=other", NULL),
	    "zz-catch-all");
	assert_string_equal(select_name(set, "", NULL), "zz-catch-all");
	/*
	 * Ties on the count (all VM labels here): the smaller name, as
	 * KubeVirt's controller picks, whatever the keys (its user guide's
	 * sorted keys would pick b-tie: app, env before app, zone).
	 */
	assert_string_equal(select_name(set,
	    "app=cache,env=prod,zone=eu", NULL), "a-tie");
	/* Partial matches do not count: b-tie needs env=prod too. */
	assert_string_equal(select_name(set, "app=cache,env=dev", NULL),
	    "zz-catch-all");

	assert_string_equal(select_name(set, "app=db,env=prod", &why),
	    "db-prod");
	assert_non_null(strstr(why, "policy \"db-prod\" "
	    "(/etc/qmigrate/policies.d/db-prod.json) applies: 2 labels "
	    "matched (app=db, env=prod)"));
	assert_non_null(strstr(why, "\n  policy \"db\" "
	    "(/etc/qmigrate/policies.d/db.json) matches 1 label, fewer than "
	    "\"db-prod\""));
	assert_non_null(strstr(why, "policy \"web\" "
	    "(/etc/qmigrate/policies.d/web.json) does not match: label app "
	    "is \"db\", the policy wants \"web\""));
	assert_non_null(strstr(why, "policy \"b-tie\" "
	    "(/etc/qmigrate/policies.d/b-tie.json) does not match: label app "
	    "is \"db\", the policy wants \"cache\""));
	free(why);

	assert_string_equal(select_name(set, "app=cache,env=prod,zone=eu",
	    &why), "a-tie");
	assert_non_null(strstr(why, "policy \"b-tie\" "
	    "(/etc/qmigrate/policies.d/b-tie.json) also matches 2 labels, 2 "
	    "of them the VM's, but \"a-tie\" sorts first by name"));
	assert_non_null(strstr(why, "\nnote: KubeVirt's user guide breaks a "
	    "tie by the sorted label keys and would pick \"b-tie\" "
	    "(/etc/qmigrate/policies.d/b-tie.json; keys app, env before app, "
	    "zone); its controller, which qmigrate follows, compares no "
	    "keys"));
	free(why);

	/* Without the catch-all nothing matches: the defaults. */
	policy_set_free(set);
	set = policy_set_new("/etc/qmigrate/policies.d");
	add_policy(set, "db-prod", "app=db,env=prod");
	assert_string_equal(select_name(set, "app=db", &why), "(defaults)");
	assert_string_equal(why, "no policy matches: the defaults apply\n"
	    "  policy \"db-prod\" (/etc/qmigrate/policies.d/db-prod.json) "
	    "does not match: label env is not set, the policy wants \"prod\"");
	free(why);
	policy_set_free(set);

	assert_null(policy_select(NULL, NULL, &why));
	assert_string_equal(why, "no policies loaded: the defaults apply");
	free(why);
}

static void
test_labels(void **state)
{
	struct label	 l, *labels = NULL;
	size_t		 n = 0;
	char		*cause = NULL, *dir, *path, *want;

	(void)state;
	assert_int_equal(labels_parse("app=db=x", &l, &cause), 0);
	assert_string_equal(l.key, "app");
	assert_string_equal(l.value, "db=x");
	assert_int_equal(labels_add(&labels, &n, l.key, l.value, &cause), 0);
	assert_int_equal(labels_add(&labels, &n, "app", "web", &cause), -1);
	assert_string_equal(cause, "label app: given twice");
	free(cause);
	free(l.key);
	free(l.value);
	labels_free(labels, n);

	assert_int_equal(labels_parse("app", &l, &cause), -1);
	assert_string_equal(cause, "label \"app\": expected KEY=VALUE");
	free(cause);
	assert_int_equal(labels_parse("=db", &l, &cause), -1);
	free(cause);
	assert_int_equal(labels_parse("a b=db", &l, &cause), -1);
	free(cause);
	assert_int_equal(labels_parse("app=", &l, &cause), 0);
	assert_string_equal(l.value, "");
	free(l.key);
	free(l.value);

	dir = tmpdir_new("test-policy");
	path = tmpdir_write(dir, "labels.json",
	    "// from the VM's metadata\n{\"app\": \"db\", \"env\": \"prod\"}");
	assert_int_equal(labels_load_file(path, &labels, &n, &cause), 0);
	assert_int_equal(n, 2);
	assert_string_equal(labels[1].key, "env");
	assert_string_equal(labels[1].value, "prod");
	labels_free(labels, n);
	free(path);

	path = tmpdir_write(dir, "bad.json", "{\"app\": 1}");
	assert_int_equal(labels_load_file(path, &labels, &n, &cause), -1);
	xasprintf(&want, "labels %s: app: expected a string, got 1", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);
	path = tmpdir_write(dir, "bad.json", "[\"app\"]");
	assert_int_equal(labels_load_file(path, &labels, &n, &cause), -1);
	xasprintf(&want, "labels %s: expected an object of label names "
	    "to string values", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);
	tmpdir_free(dir);
}

static void
test_to_json(void **state)
{
	struct mig_settings	 copy;
	struct json_object	*o, *v;

	(void)state;
	settings_of(&copy, "{\"name\": \"a\", \"migration\": {"
	    "\"bandwidthPerMigration\": \"64Mi\", \"allowPostCopy\": true, "
	    "\"convergence\": \"kubevirt\", \"sharedStoragePaths\": "
	    "[\"/srv/nfs/\"]}}");
	o = mig_settings_to_json(&copy);
	mig_settings_free(&copy);
	assert_true(json_object_object_get_ex(o, "bandwidthPerMigration", &v));
	assert_int_equal(json_object_get_int64(v), 64 << 20);
	assert_true(json_object_object_get_ex(o, "allowWorkloadDisruption",
	    &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(o, "completionTimeoutPerGiB",
	    &v));
	assert_int_equal(json_object_get_int64(v), 150);
	assert_true(json_object_object_get_ex(o, "convergence", &v));
	assert_string_equal(json_object_get_string(v), "kubevirt");
	assert_true(json_object_object_get_ex(o, "sharedStoragePaths", &v));
	/* The trailing slash is dropped. */
	assert_string_equal(json_object_get_string(
	    json_object_array_get_idx(v, 0)), "/srv/nfs");
	assert_true(json_object_object_get_ex(o, "blockMigration", &v));
	assert_string_equal(json_object_get_string(v), "never");
	assert_true(json_object_object_get_ex(o, "disks", &v));
	assert_int_equal(json_object_array_length(v), 0);
	assert_int_equal(json_object_object_length(o), 13);
	json_object_put(o);
}

/* migration.blockMigration and migration.disks: values and errors. */
static void
test_block_migration(void **state)
{
	struct policy_set	*set;
	struct mig_settings	 copy;

	(void)state;
	settings_of(&copy, "{\"name\": \"a\", \"migration\": {"
	    "\"disks\": [\"data\", \"/var/lib/vm/a.qcow2\"], "
	    "\"sharedStoragePaths\": [\"/srv\"], "
	    "\"blockMigration\": \"auto\"}}");
	assert_int_equal(copy.block_migration, BLOCK_MIGRATION_AUTO);
	assert_string_equal(copy.disks[0], "data");
	assert_string_equal(copy.disks[1], "/var/lib/vm/a.qcow2");
	assert_null(copy.disks[2]);
	assert_string_equal(copy.shared_storage_paths[0], "/srv");
	/* Selection: listed disks only; shared or not does not matter. */
	assert_true(mig_disks_selected(&copy, "data", "", "/x", 0));
	assert_true(mig_disks_selected(&copy, "#b1", "d0",
	    "/var/lib/vm/a.qcow2", 1));
	assert_false(mig_disks_selected(&copy, "other", "d1", "/y", 0));
	mig_settings_free(&copy);

	set = load_text("{\"name\": \"a\", \"migration\": "
	    "{\"blockMigration\": \"always\"}}");
	assert_int_equal(set->policies[0].migration.block_migration,
	    BLOCK_MIGRATION_ALWAYS);
	assert_true(mig_disks_selected(&set->policies[0].migration, "a",
	    NULL, "/srv/a", 1));
	set->policies[0].migration.block_migration = BLOCK_MIGRATION_AUTO;
	assert_false(mig_disks_selected(&set->policies[0].migration, "a",
	    NULL, "/srv/a", 1));
	assert_true(mig_disks_selected(&set->policies[0].migration, "a",
	    NULL, "/tmp/a", 0));
	set->policies[0].migration.block_migration = BLOCK_MIGRATION_NEVER;
	assert_false(mig_disks_selected(&set->policies[0].migration, "a",
	    NULL, "/tmp/a", 0));
	policy_set_free(set);

	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"blockMigration\": \"yes\"}}",
	    "migration.blockMigration: expected \"never\", \"auto\" or "
	    "\"always\", got \"yes\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"disks\": \"data\"}}",
	    "migration.disks: expected an array of node names or absolute "
	    "paths, got \"data\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"disks\": [\"data\", \"a b\"]}}",
	    "migration.disks[1]: expected a node name (a letter, then up to "
	    "30 letters, digits, -, _ or .) or an absolute path, got "
	    "\"a b\"");
	expect_error("{\"name\": \"a\", \"migration\": "
	    "{\"disks\": [7]}}",
	    "migration.disks[0]: expected a string, got 7");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_examples_one_by_one),
		cmocka_unit_test(test_workload_disruption_follows_postcopy),
		cmocka_unit_test(test_unknown_fields),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_too_many_labels),
		cmocka_unit_test(test_bandwidth),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_precedence),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_to_json),
		cmocka_unit_test(test_block_migration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
