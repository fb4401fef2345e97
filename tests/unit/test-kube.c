/*
 * test-kube.c: KubeVirt's objects as qmigrate reads them: YAML typed as
 * kubectl types it, Kubernetes quantities, MigrationPolicy manifests and
 * KubeVirt's documented precedence (its own seven-policy example, winner
 * by winner), the cluster defaults of a KubeVirt object, Namespace and
 * VirtualMachineInstance manifests, and the one-line errors naming the
 * file, the document and the field.
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

#ifndef KUBEVIRT_TESTS_DIR
#error "KUBEVIRT_TESTS_DIR must name the source tree's tests/kubevirt"
#endif

/* The first lines of a KubeVirt MigrationPolicy manifest. */
#define MIGRATION_POLICY \
	"apiVersion: migrations.kubevirt.io/v1alpha1\nkind: MigrationPolicy\n"

/* Loads text as NAME in a fresh directory; must succeed. */
static struct policy_set *
load_as(const char *name, const char *text)
{
	char			*dir = tmpdir_new("test-kube"), *path, *cause = NULL;
	struct policy_set	*set;

	path = tmpdir_write(dir, name, text);
	set = policy_load(dir, &cause);
	if (set == NULL)
		fail_msg("refused: %s", cause);
	free(path);
	tmpdir_free(dir);
	return set;
}

/*
 * Loads text as NAME and expects it refused with exactly "policy FILE: "
 * and then expected, where each @ stands for FILE.
 */
static void
expect_error_as(const char *name, const char *text, const char *expected)
{
	policy_expect_refused("test-kube", name, text, expected);
}

static void
expect_error(const char *text, const char *expected)
{
	expect_error_as("p.yaml", text, expected);
}

static void
test_quantity(void **state)
{
	static const struct {
		const char	*s;
		int		 ok;
		uint64_t	 v;
	} cases[] = {
		/* KubeVirt's and Kubernetes' own examples. */
		{ "217Ki", 1, 222208 }, { "1.5Gi", 1, 1610612736 },
		{ "500M", 1, 500000000 }, { "1e9", 1, 1000000000 },
		{ "64", 1, 64 }, { "0", 1, 0 }, { "64Mi", 1, 64ULL << 20 },
		{ "2048Mi", 1, 2048ULL << 20 }, { "1E3", 1, 1000 },
		{ "1e+2", 1, 100 }, { "1.5k", 1, 1500 }, { "0.5Ki", 1, 512 },
		{ "+5", 1, 5 }, { "-0", 1, 0 }, { "5.", 1, 5 },
		{ "1Ti", 1, 1ULL << 40 }, { "1000G", 1, 1000000000000ULL },
		{ "1.10", 1, 2 },
		/* A fraction of a byte rounds up, as Quantity.Value(). */
		{ "1.5", 1, 2 }, { "500m", 1, 1 }, { ".5", 1, 1 },
		{ "1e-3", 1, 1 }, { "3n", 1, 1 }, { "0.000000000000000000001", 1,
		    1 }, { "1e-40", 1, 1 }, { "0.0", 1, 0 },
		{ "-1", 0, 0 }, { "-0.5", 0, 0 }, { "64MB", 0, 0 },
		{ "64mi", 0, 0 }, { "Mi", 0, 0 }, { "", 0, 0 }, { ".", 0, 0 },
		{ "1.5e3Ki", 0, 0 }, { "12e", 0, 0 }, { "1e1.5", 0, 0 },
		{ "64 Mi", 0, 0 }, { "0x10", 0, 0 }, { "1..5", 0, 0 },
		{ "1.0000001Ti", 0, 0 }, { "2Ti", 0, 0 }, { "1Ei", 0, 0 },
		{ "1e13", 0, 0 }, { "1e1001", 0, 0 },
		{ "1234567890123456789", 0, 0 },
	};
	uint64_t	v;
	size_t		i;

	(void)state;
	for (i = 0; i < NITEMS(cases); i++) {
		v = 12345;
		if ((quantity_parse(cases[i].s, 1ULL << 40, &v) == 0) !=
		    cases[i].ok)
			fail_msg("\"%s\": expected %s", cases[i].s,
			    cases[i].ok ? "accepted" : "refused");
		if (cases[i].ok && v != cases[i].v)
			fail_msg("\"%s\": %llu, expected %llu", cases[i].s,
			    (unsigned long long)v,
			    (unsigned long long)cases[i].v);
	}
	/* In thousandths, as the stall detector's factors. */
	assert_int_equal(quantity_parse_milli("0.4", 1000, &v), 0);
	assert_int_equal(v, 400);
	assert_int_equal(quantity_parse_milli("400m", 1000, &v), 0);
	assert_int_equal(v, 400);
	assert_int_equal(quantity_parse_milli("1", 1000, &v), 0);
	assert_int_equal(v, 1000);
	assert_int_equal(quantity_parse_milli("15e-1", 10000, &v), 0);
	assert_int_equal(v, 1500);
	assert_int_equal(quantity_parse_milli("0.0005", 1000, &v), -3);
	assert_int_equal(quantity_parse_milli("-0.4", 1000, &v), -2);
	assert_int_equal(quantity_parse_milli("banana", 1000, &v), -1);
	assert_int_equal(quantity_parse_milli("2", 1000, &v), -1);
}

/* Reads text as a one-document YAML stream. */
static struct json_object *
yaml_one(const char *text)
{
	struct yaml_docs	 docs;
	struct json_object	*o;
	char			*cause = NULL;

	if (yaml_read(text, strlen(text), 10, &docs, &cause) != 0)
		fail_msg("%s: %s", text, cause);
	assert_int_equal(docs.n, 1);
	o = json_object_get(docs.docs[0]);
	yaml_docs_free(&docs);
	return o;
}

static void
yaml_error(const char *text, const char *expected)
{
	struct yaml_docs	 docs;
	char			*cause = NULL;

	if (yaml_read(text, strlen(text), 3, &docs, &cause) == 0)
		fail_msg("accepted: %s", text);
	if (strcmp(cause, expected) != 0)
		fail_msg("for %s\n got: %s\nwant: %s", text, cause, expected);
	free(cause);
}

/* Plain scalars typed as kubectl (YAML 1.1) types them. */
static void
test_yaml_types(void **state)
{
	static const struct {
		const char	*key;
		enum json_type	 type;
		const char	*text;	/* its JSON form */
	} want[] = {
		{ "s", json_type_string, "\"small\"" },
		{ "q", json_type_string, "\"true\"" },
		{ "b", json_type_boolean, "true" },
		{ "y", json_type_boolean, "true" },
		{ "o", json_type_boolean, "false" },
		{ "n", json_type_null, "null" },
		{ "e", json_type_null, "null" },
		{ "i", json_type_int, "150" },
		{ "h", json_type_int, "16" },
		{ "oc", json_type_int, "493" },
		{ "f", json_type_double, "1.5" },
		{ "x", json_type_double, "1e9" },
		{ "neg", json_type_int, "-3" },
		{ "big", json_type_int, "18446744073709551615" },
		{ "huge", json_type_double, "99999999999999999999" },
		{ "v", json_type_string, "\"1.2.3\"" },
		{ "lit", json_type_string, "\"a\\nb\\n\"" },
		{ "tag", json_type_string, "\"150\"" },
		{ "us", json_type_int, "1000000" },
		{ "inf", json_type_double, ".inf" },
	};
	struct json_object	*o, *v;
	size_t			 i;

	(void)state;
	o = yaml_one("s: small\nq: \"true\"\nb: true\ny: yes\no: off\n"
	    "n: ~\ne:\ni: 150\nh: 0x10\noc: 0755\nf: 1.5\nx: 1e9\nneg: -3\n"
	    "big: 18446744073709551615\nhuge: 99999999999999999999\n"
	    "v: 1.2.3\nlit: |\n  a\n  b\ntag: !!str 150\nus: 1_000_000\n"
	    "inf: .inf\n");
	for (i = 0; i < NITEMS(want); i++) {
		v = NULL;
		if (!json_object_object_get_ex(o, want[i].key, &v))
			fail_msg("no %s", want[i].key);
		if (json_object_get_type(v) != want[i].type)
			fail_msg("%s: type %s", want[i].key,
			    json_type_to_name(json_object_get_type(v)));
		assert_string_equal(json_object_to_json_string_ext(v,
		    JSON_C_TO_STRING_PLAIN), want[i].text);
	}
	json_object_put(o);

	o = yaml_one("- [a, 1]\n- {k: v}\n");
	assert_string_equal(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN), "[[\"a\",1],{\"k\":\"v\"}]");
	json_object_put(o);
}

static void
test_yaml_documents(void **state)
{
	struct yaml_docs	 docs;
	char			*cause = NULL;
	const char		*text;

	(void)state;
	/* A leading ---, an empty document, comments: as kubectl. */
	text = "# comment\n---\na: 1\n---\n---\nb: 2\n...\n";
	assert_int_equal(yaml_read(text, strlen(text), 10, &docs, &cause), 0);
	assert_int_equal(docs.n, 3);
	assert_non_null(docs.docs[0]);
	assert_null(docs.docs[1]);
	assert_non_null(docs.docs[2]);
	yaml_docs_free(&docs);
	text = "# nothing but a comment\n";
	assert_int_equal(yaml_read(text, strlen(text), 10, &docs, &cause), 0);
	assert_int_equal(docs.n, 0);
	yaml_docs_free(&docs);
	assert_int_equal(yaml_read("", 0, 10, &docs, &cause), 0);
	assert_int_equal(docs.n, 0);
	yaml_docs_free(&docs);
}

static void
test_yaml_errors(void **state)
{
	char	*deep, *p;
	int	 i;

	(void)state;
	yaml_error("a: &x [1, 2]\nb: *x\n",
	    "line 2, column 4: YAML aliases (*x) are not supported");
	yaml_error("a: 1\nb: 2\na: 3\n", "line 3, column 1: key \"a\" given "
	    "twice");
	yaml_error("? [a]\n: 1\n", "line 1, column 3: a mapping key must be a "
	    "scalar");
	yaml_error("a: !custom 1\n", "line 1, column 4: unsupported tag "
	    "!custom");
	yaml_error("a: !!int x\n", "line 1, column 4: \"x\" is not a valid "
	    "int");
	yaml_error("a: [1, 2\n", "line 2, column 1: did not find expected "
	    "',' or ']' while parsing a flow sequence");
	yaml_error("a: 1\n b: 2\n", "line 2, column 3: mapping values are not "
	    "allowed in this context");
	yaml_error("a\n---\nb\n---\nc\n---\nd\n", "line 6, column 1: more "
	    "than 3 documents");
	/* 65 levels: one too many. */
	deep = xmalloc(200);
	for (p = deep, i = 0; i < 65; i++)
		*p++ = '[';
	*p = '\0';
	yaml_error(deep, "line 1, column 65: nested more than 64 levels deep");
	free(deep);
}

/*
 * KubeVirt's documented precedence example (user guide, "Policies'
 * Precedence"): a VMI labelled size=small, os=fedora, gpu=nvidia in a
 * namespace labelled priority=high, bandwidth=medium, hpc-workload=true,
 * and seven policies listed from the highest precedence to the lowest.
 * The winner must be each one in turn as the ones before it are removed;
 * the seventh never applies.
 */
static void
test_kubevirt_precedence(void **state)
{
	/*
	 * virt-controller's answers: 4 labels each for the first two, the
	 * same 2 of them the VMI's, so the smaller name first (the user
	 * guide's sorted keys would put small-gpu-high-medium first); then
	 * 3 labels, 2 of them the VMI's, before 3 with 1.
	 */
	static const char *order[] = { "small-gpu-high-hpc",
	    "small-gpu-high-medium", "small-gpu-high", "small-high-hpc",
	    "gpu-high", "gpu", NULL };
	struct policy_set	*set;
	const struct policy	*p;
	struct vm_ident		 vm, flags;
	char			*cause = NULL, *why = NULL;
	size_t			 i, k;

	(void)state;
	set = policy_load(KUBEVIRT_TESTS_DIR "/precedence", &cause);
	if (set == NULL)
		fail_msg("%s", cause);
	assert_int_equal(set->npolicies, 7);
	assert_int_equal(set->nnamespaces, 1);
	memset(&vm, 0, sizeof vm);
	if (kube_vmi_load(KUBEVIRT_TESTS_DIR "/vmi/vmi.yaml", &vm, &cause))
		fail_msg("%s", cause);
	assert_string_equal(vm.namespace, "hpc");
	assert_int_equal(vm.nlabels, 3);
	/* The same namespace labels given as flags instead. */
	memset(&flags, 0, sizeof flags);
	assert_int_equal(vm_ident_option(&flags, "labels-file",
	    KUBEVIRT_TESTS_DIR "/vmi/vmi-labels.yaml", &cause), 0);
	assert_int_equal(vm_ident_option(&flags, "namespace-label",
	    "priority=high", &cause), 0);
	assert_int_equal(vm_ident_option(&flags, "namespace-label",
	    "bandwidth=medium", &cause), 0);
	assert_int_equal(vm_ident_option(&flags, "namespace-label",
	    "hpc-workload=true", &cause), 0);

	for (i = 0; ; i++) {
		p = policy_select(set, &vm, &why);
		if (order[i] == NULL) {
			assert_null(p);
			assert_non_null(strstr(why, "policy \"intel-high\" "));
			assert_non_null(strstr(why, "does not match: label gpu "
			    "is \"nvidia\", the policy wants \"intel\""));
			free(why);
			break;
		}
		if (p == NULL || strcmp(p->name, order[i]) != 0)
			fail_msg("step %zu: %s, expected %s\n%s", i + 1,
			    p != NULL ? p->name : "(none)", order[i], why);
		free(why);
		assert_ptr_equal(policy_select(set, &flags, NULL), p);
		/* Remove the winner, as an operator deleting it. */
		k = (size_t)(p - set->policies);
		policy_clear(&set->policies[k]);
		memmove(&set->policies[k], &set->policies[k + 1],
		    (set->npolicies - k - 1) * sizeof *set->policies);
		set->npolicies--;
	}
	vm_ident_free(&vm);
	vm_ident_free(&flags);
	policy_set_free(set);
}

/* Why the losers lost, in KubeVirt's terms. */
static void
test_kubevirt_precedence_why(void **state)
{
	struct policy_set	*set;
	struct vm_ident		 vm;
	char			*cause = NULL, *why = NULL;

	(void)state;
	set = policy_load(KUBEVIRT_TESTS_DIR "/precedence", &cause);
	assert_non_null(set);
	memset(&vm, 0, sizeof vm);
	assert_int_equal(kube_vmi_load(KUBEVIRT_TESTS_DIR "/vmi/vmi.yaml",
	    &vm, &cause), 0);
	assert_non_null(policy_select(set, &vm, &why));
	assert_non_null(strstr(why, "policy \"small-gpu-high-hpc\" ("
	    KUBEVIRT_TESTS_DIR "/precedence/2-small-gpu-high-hpc.yaml, "
	    "document 1) applies: 4 labels matched (size=small, gpu=nvidia; "
	    "namespace priority=high, hpc-workload=true)"));
	assert_non_null(strstr(why, "policy \"small-gpu-high-medium\" ("
	    KUBEVIRT_TESTS_DIR "/precedence/1-small-gpu-high-medium.yaml, "
	    "document 1) also matches 4 labels, 2 of them the VM's, but "
	    "\"small-gpu-high-hpc\" sorts first by name"));
	assert_non_null(strstr(why, "policy \"small-high-hpc\" ("
	    KUBEVIRT_TESTS_DIR "/precedence/4-small-high-hpc.yaml, "
	    "document 1) matches 3 labels, fewer than"));
	assert_non_null(strstr(why, "policy \"gpu\" (" KUBEVIRT_TESTS_DIR
	    "/precedence/6-gpu.yaml, document 1) matches 1 label, fewer than "
	    "\"small-gpu-high-hpc\""));
	/* The user guide's rule would pick another: said so. */
	assert_non_null(strstr(why, "note: KubeVirt's user guide breaks a tie "
	    "by the sorted label keys and would pick \"small-gpu-high-medium\" "
	    "(" KUBEVIRT_TESTS_DIR "/precedence/1-small-gpu-high-medium.yaml, "
	    "document 1; keys bandwidth, gpu, priority, size before gpu, "
	    "hpc-workload, priority, size); its controller, which qmigrate "
	    "follows, compares no keys"));
	free(why);
	/* Without the namespace's labels, only VMI-only policies match. */
	free(vm.namespace);
	vm.namespace = xstrdup("elsewhere");
	assert_string_equal(policy_select(set, &vm, &why)->name, "gpu");
	assert_non_null(strstr(why, "does not match: namespace label "
	    "priority is not set, the policy wants \"high\" (from "
	    "kubernetes.io/metadata.name=elsewhere implied from --vmi "));
	free(why);
	vm_ident_free(&vm);
	policy_set_free(set);
}

/* On as many labels, the most VMI labels first, then the smaller name. */
static void
test_precedence_ties(void **state)
{
	struct policy_set	*set;
	struct vm_ident		 vm;
	char			*cause = NULL;

	(void)state;
	set = load_as("p.yaml",
	    MIGRATION_POLICY
	    "metadata: {name: b-vmi}\n"
	    "spec: {selectors: {virtualMachineInstanceSelector: {a: x}, "
	    "namespaceSelector: {b: z}}}\n---\n"
	    MIGRATION_POLICY
	    "metadata: {name: a-ns}\n"
	    "spec: {selectors: {namespaceSelector: {a: x, b: z}}}\n---\n"
	    MIGRATION_POLICY
	    "metadata: {name: c-both-vmi}\n"
	    "spec: {selectors: {virtualMachineInstanceSelector: {a: x, "
	    "b: z}}}\n");
	memset(&vm, 0, sizeof vm);
	assert_int_equal(vm_ident_option(&vm, "label", "a=x", &cause), 0);
	assert_int_equal(vm_ident_option(&vm, "label", "b=z", &cause), 0);
	assert_int_equal(vm_ident_option(&vm, "namespace-label", "a=x",
	    &cause), 0);
	assert_int_equal(vm_ident_option(&vm, "namespace-label", "b=z",
	    &cause), 0);
	/* Two labels each: the most VMI labels wins, whatever the name. */
	assert_string_equal(policy_select(set, &vm, NULL)->name, "c-both-vmi");
	policy_set_free(set);
	vm_ident_free(&vm);
}

/*
 * A policy for match_policy(): NAME with its first NVMI labels of the
 * VMI's and first NNS of the namespace's, as KubeVirt's tests generate
 * them ("NAME-key-I": "NAME-value-I").
 */
struct mp_info {
	const char	*name;
	int		 nvmi;
	int		 nns;
};

/*
 * KubeVirt's matchPolicy cases (virt-controller's migration_test.go,
 * "matching and precedence"): each policy's labels are set on the VMI
 * and its namespace, and the policy asks for them.  Returns the name
 * qmigrate picks, or NULL (static storage until the next call).
 */
static const char *
match_policy(const struct mp_info *infos, size_t n, const char *spoil)
{
	static char		 picked[64];
	struct policy_set	*set;
	const struct policy	*p;
	struct vm_ident		 vm;
	char			*yaml = xstrdup(""), *cause = NULL;
	char			 kv[128];
	size_t			 i;
	int			 k;

	memset(&vm, 0, sizeof vm);
	for (i = 0; i < n; i++) {
		str_append(&yaml, "%s" MIGRATION_POLICY "metadata: {name: %s}\n"
		    "spec:\n  selectors:\n    virtualMachineInstanceSelector:"
		    " {", i == 0 ? "" : "---\n", infos[i].name);
		for (k = 0; k < infos[i].nvmi; k++) {
			snprintf(kv, sizeof kv, "%s-key-%d=%s-value-%d",
			    infos[i].name, k, infos[i].name, k);
			assert_int_equal(vm_ident_option(&vm, "label", kv,
			    &cause), 0);
			str_append(&yaml, "%s%s-key-%d: %s", k == 0 ?
			    "" : ", ", infos[i].name, k, spoil != NULL &&
			    k == 0 && strcmp(spoil, infos[i].name) == 0 ?
			    "XYZ" : strchr(kv, '=') + 1);
		}
		str_append(&yaml, "}\n    namespaceSelector: {");
		for (k = 0; k < infos[i].nns; k++) {
			snprintf(kv, sizeof kv, "%s-ns-key-%d=%s-ns-value-%d",
			    infos[i].name, k, infos[i].name, k);
			assert_int_equal(vm_ident_option(&vm,
			    "namespace-label", kv, &cause), 0);
			str_append(&yaml, "%s%s-ns-key-%d: %s", k == 0 ?
			    "" : ", ", infos[i].name, k, strchr(kv, '=') + 1);
		}
		str_append(&yaml, "}\n");
	}
	set = n > 0 ? load_as("p.yaml", yaml) : policy_set_new("none");
	p = policy_select(set, &vm, NULL);
	snprintf(picked, sizeof picked, "%s", p != NULL ? p->name : "");
	policy_set_free(set);
	vm_ident_free(&vm);
	free(yaml);
	return p != NULL ? picked : NULL;
}

/* KubeVirt's own matchPolicy cases, and the controller's quirks. */
static void
test_match_policy(void **state)
{
	static const struct mp_info one[] = { { "one", 1, 4 } };
	static const struct mp_info detail[] = { { "one", 1, 4 },
	    { "two", 4, 2 } };
	static const struct mp_info az[] = { { "aa", 2, 2 }, { "zz", 2, 2 } };
	static const struct mp_info za[] = { { "zz", 2, 2 }, { "aa", 2, 2 } };
	static const struct mp_info nsvmi[] = { { "ns-only", 0, 3 },
	    { "vmi-only", 3, 0 } };
	static const struct mp_info spoiled[] = { { "p", 4, 3 } };
	struct policy_set	*set;
	struct vm_ident		 vm;
	char			*cause = NULL, *why = NULL;

	(void)state;
	assert_string_equal(match_policy(one, 1, NULL), "one");
	assert_string_equal(match_policy(detail, 2, NULL), "two");
	assert_string_equal(match_policy(az, 2, NULL), "aa");
	assert_string_equal(match_policy(za, 2, NULL), "aa");
	assert_null(match_policy(spoiled, 1, "p"));
	assert_null(match_policy(NULL, 0, NULL));
	assert_string_equal(match_policy(nsvmi, 2, NULL), "vmi-only");

	/*
	 * Identical selectors: accepted, the smaller name wins; no
	 * selectors at all: loaded, never matches; the namespace's
	 * kubernetes.io/metadata.name is implied from its name.
	 */
	set = load_as("p.yaml",
	    MIGRATION_POLICY
	    "metadata: {name: zz-same}\n"
	    "spec: {selectors: {virtualMachineInstanceSelector: {app: db}}}\n"
	    "---\n"
	    MIGRATION_POLICY
	    "metadata: {name: mm-same}\n"
	    "spec: {selectors: {virtualMachineInstanceSelector: {app: db}}}\n"
	    "---\n"
	    MIGRATION_POLICY
	    "metadata: {name: aa-none}\n"
	    "spec: {allowPostCopy: true}\n"
	    "---\n"
	    MIGRATION_POLICY
	    "metadata: {name: by-ns-name}\n"
	    "spec: {selectors: {namespaceSelector: "
	    "{kubernetes.io/metadata.name: prod}}}\n");
	assert_int_equal(set->npolicies, 4);
	memset(&vm, 0, sizeof vm);
	assert_int_equal(vm_ident_option(&vm, "label", "app=db", &cause), 0);
	assert_string_equal(policy_select(set, &vm, &why)->name, "mm-same");
	assert_non_null(strstr(why, "policy \"aa-none\" (")); 
	assert_non_null(strstr(why, "does not match: it has no "
	    "spec.selectors, and KubeVirt's controller matches such a policy "
	    "to no VM"));
	assert_non_null(strstr(why, "\"zz-same\" (")); 
	assert_non_null(strstr(why, "also matches 1 label, 1 of them the "
	    "VM's, but \"mm-same\" sorts first by name"));
	free(why);
	/* In namespace prod: 1 VMI label against 1 namespace label. */
	assert_int_equal(vm_ident_option(&vm, "namespace", "prod", &cause),
	    0);
	assert_string_equal(policy_select(set, &vm, NULL)->name, "mm-same");
	vm_ident_free(&vm);
	memset(&vm, 0, sizeof vm);
	assert_int_equal(vm_ident_option(&vm, "namespace", "prod", &cause),
	    0);
	assert_string_equal(policy_select(set, &vm, &why)->name,
	    "by-ns-name");
	free(why);
	/* Two names for the namespace: refused. */
	assert_int_equal(vm_ident_option(&vm, "vmi", KUBEVIRT_TESTS_DIR
	    "/vmi/vmi.yaml", &cause), -1);
	assert_non_null(strstr(cause, "metadata.namespace: --vmi "));
	assert_non_null(strstr(cause, ": namespace \"hpc\", but --namespace "
	    "says \"prod\""));
	free(cause);
	vm_ident_free(&vm);
	policy_set_free(set);
}

static void
test_manifest_fields(void **state)
{
	struct policy_set	*set;
	const struct policy	*p;

	(void)state;
	/* The user guide's full manifest (its label value quoted). */
	set = load_as("my-awesome-policy.yaml",
	    MIGRATION_POLICY
	    "metadata:\n"
	    "  name: my-awesome-policy\n"
	    "spec:\n"
	    "  # Migration Configuration\n"
	    "  allowAutoConverge: true\n"
	    "  bandwidthPerMigration: 217Ki\n"
	    "  completionTimeoutPerGiB: 23\n"
	    "  allowPostCopy: false\n"
	    "  \n"
	    "  # Matching to VMs\n"
	    "  selectors:\n"
	    "    namespaceSelector:\n"
	    "      hpc-workloads: \"true\"\n"
	    "    virtualMachineInstanceSelector:\n"
	    "      workload-type: db\n");
	assert_int_equal(set->npolicies, 1);
	p = &set->policies[0];
	assert_string_equal(p->name, "my-awesome-policy");
	assert_int_equal(p->doc, 1);
	assert_int_equal(p->migration.bandwidth, 222208);
	assert_int_equal(p->migration.completion_timeout_per_gib, 23);
	assert_true(p->migration.allow_auto_converge);
	assert_false(p->migration.allow_post_copy);
	assert_int_equal(p->migration.set, MIG_SET_BANDWIDTH |
	    MIG_SET_COMPLETION | MIG_SET_AUTO_CONVERGE | MIG_SET_POST_COPY);
	assert_int_equal(p->nselector, 1);
	assert_string_equal(p->selector[0].key, "workload-type");
	assert_int_equal(p->nns_selector, 1);
	assert_string_equal(p->ns_selector[0].value, "true");
	assert_false(p->eviction_set);
	assert_null(p->unapplied);
	policy_set_free(set);

	/* Every other field of the v1alpha1 type; experimental ones noted. */
	set = load_as("p.yaml",
	    MIGRATION_POLICY
	    "metadata:\n  name: all\n  labels: {team: infra}\n"
	    "spec:\n"
	    "  selectors: {}\n"
	    "  maxDowntimeMs: 500\n"
	    "  allowPostCopy: true\n"
	    "  allowWorkloadDisruption: false\n"
	    "  experimental:\n"
	    "    compression: zstd\n"
	    "    stallDetector: {stallMargin: 4, ewmaAlpha: \"0.4\", "
	    "searchLocalMinima: true}\n"
	    "status: {}\n");
	p = &set->policies[0];
	assert_int_equal(p->migration.max_downtime_ms, 500);
	assert_true(p->migration.allow_post_copy);
	assert_false(p->migration.allow_workload_disruption);
	/* The stall detector is carried out (ctl-kubevirt.c); zstd is not. */
	assert_string_equal(p->unapplied, "spec.experimental.compression");
	assert_int_equal(p->nselector + p->nns_selector, 0);
	/* Read as KubeVirt's types, its defaults for the others. */
	assert_true(p->migration.stall_detector.enabled);
	assert_true(p->migration.stall_detector.ewma_alpha > 0.399 &&
	    p->migration.stall_detector.ewma_alpha < 0.401);
	assert_int_equal(p->migration.stall_detector.stall_progress_timeout,
	    40);
	assert_int_equal(p->migration.stall_detector.set, MIG_SD_MARGIN |
	    MIG_SD_EWMA | MIG_SD_LOCAL_MINIMA);
	assert_false(p->migration.downtime_tuning.enabled);
	policy_set_free(set);

	/* downtimeTuning, and a completion timeout KubeVirt accepts. */
	set = load_as("p.yaml",
	    MIGRATION_POLICY
	    "metadata: {name: dt}\n"
	    "spec:\n"
	    "  selectors: {}\n"
	    "  completionTimeoutPerGiB: 100000\n"
	    "  experimental:\n"
	    "    downtimeTuning: {initialMs: 50, steps: 3}\n");
	p = &set->policies[0];
	assert_int_equal(p->migration.completion_timeout_per_gib, 100000);
	assert_true(p->migration.downtime_tuning.enabled);
	assert_int_equal(p->migration.downtime_tuning.initial_ms, 50);
	assert_int_equal(p->migration.downtime_tuning.steps, 3);
	assert_int_equal(p->migration.downtime_tuning.cooldown_seconds, 10);
	assert_int_equal(p->migration.downtime_tuning.start_after_iteration,
	    3);
	assert_true(mig_settings_kubevirt_downtime(&p->migration));
	policy_set_free(set);
}

static void
test_annotations(void **state)
{
	struct policy_set	*set;
	const struct policy	*p;

	(void)state;
	set = load_as("p.yaml",
	    MIGRATION_POLICY
	    "metadata:\n"
	    "  name: db\n"
	    "  annotations:\n"
	    "    qmigrate.io/convergence: kubevirt\n"
	    "    qmigrate.io/blockMigration: auto\n"
	    "    qmigrate.io/sharedStoragePaths: /srv/nfs, /mnt/ceph/\n"
	    "    qmigrate.io/disks: data,/var/lib/vm/a.qcow2\n"
	    "    qmigrate.io/evictionStrategy: LiveMigrate\n"
	    "    qmigrate.io/terminationGracePeriodSeconds: \"300\"\n"
	    "    qmigrate.io/progressTimeout: \"60\"\n"
	    "    qmigrate.io/parallelMigrationThreads: \"4\"\n"
	    "    qmigrate.io/disableTLS: \"true\"\n"
	    "    kubectl.kubernetes.io/last-applied-configuration: \"{}\"\n"
	    "spec:\n  selectors: {virtualMachineInstanceSelector: {app: db}}\n");
	p = &set->policies[0];
	assert_int_equal(p->migration.convergence, CTL_KUBEVIRT);
	assert_int_equal(p->migration.block_migration, BLOCK_MIGRATION_AUTO);
	assert_string_equal(p->migration.shared_storage_paths[0], "/srv/nfs");
	assert_string_equal(p->migration.shared_storage_paths[1], "/mnt/ceph");
	assert_null(p->migration.shared_storage_paths[2]);
	assert_string_equal(p->migration.disks[1], "/var/lib/vm/a.qcow2");
	assert_true(p->eviction_set);
	assert_int_equal(p->eviction, EVICT_LIVE_MIGRATE);
	assert_true(p->grace_set);
	assert_int_equal(p->termination_grace_seconds, 300);
	assert_int_equal(p->migration.progress_timeout, 60);
	assert_int_equal(p->migration.parallel_migration_threads, 4);
	assert_true(p->migration.disable_tls);
	policy_set_free(set);
}

static void
test_manifest_errors(void **state)
{
	static const char *head = MIGRATION_POLICY
	    "metadata: {name: a}\n";
	char *text;

	(void)state;
#define WITH(spec) (xasprintf(&text, "%s%s", head, spec), text)
	expect_error(WITH("spec: {selectors: {}, bandwidthPerMigraton: 1}\n"),
	    "document 1: spec.bandwidthPerMigraton: unknown field");
	free(text);
	expect_error(WITH("spec: {selectors: []}\n"), "document 1: "
	    "spec.selectors: expected an object, got an array");
	free(text);
	/* The user guide's own example, unquoted: the API server refuses it. */
	expect_error(WITH("spec:\n  selectors:\n    namespaceSelector:\n"
	    "      hpc-workloads: true\n"),
	    "document 1: spec.selectors.namespaceSelector.hpc-workloads: "
	    "expected a string, got true (quote it: YAML reads it as a "
	    "boolean or a number)");
	free(text);
	expect_error(WITH("spec: {selectors: {}, bandwidthPerMigration: "
	    "64MB}\n"), "document 1: spec.bandwidthPerMigration: expected a "
	    "quantity from 0 to 1099511627776 such as \"64Mi\", \"500M\", "
	    "\"1.5Gi\" or 1e9, got \"64MB\"");
	free(text);
	expect_error(WITH("spec: {selectors: {}, maxDowntimeMs: 0}\n"),
	    "document 1: spec.maxDowntimeMs: out of range: expected an integer "
	    "from 1 to 2000000, got 0");
	free(text);
	expect_error(WITH("spec: {selectors: {}, completionTimeoutPerGiB: "
	    "\"23\"}\n"), "document 1: spec.completionTimeoutPerGiB: expected "
	    "an integer from 0 to 9223372036854775807, got \"23\"");
	free(text);
	/* KubeVirt's admission refuses a negative one only. */
	expect_error(WITH("spec: {selectors: {}, completionTimeoutPerGiB: "
	    "-1}\n"), "document 1: spec.completionTimeoutPerGiB: out of range: "
	    "expected an integer from 0 to 9223372036854775807, got -1");
	free(text);
	/* The stall detector's quantities, as KubeVirt's admission. */
	expect_error(WITH("spec:\n  selectors: {}\n  experimental:\n"
	    "    stallDetector: {ewmaAlpha: banana}\n"),
	    "document 1: spec.experimental.stallDetector.ewmaAlpha: expected "
	    "a quantity greater than 0 and at most 1 such as \"0.5\", got "
	    "\"banana\"");
	free(text);
	expect_error(WITH("spec:\n  selectors: {}\n  experimental:\n"
	    "    stallDetector: {ewmaAlpha: 0}\n"),
	    "document 1: spec.experimental.stallDetector.ewmaAlpha: expected "
	    "a quantity greater than 0 and at most 1 such as \"0.5\", got 0");
	free(text);
	expect_error(WITH("spec:\n  selectors: {}\n  experimental:\n"
	    "    stallDetector: {patienceWindowDecayFactor: \"0.1234\"}\n"),
	    "document 1: spec.experimental.stallDetector."
	    "patienceWindowDecayFactor: expected a quantity from 0 and at "
	    "most 1 such as \"0.5\", got \"0.1234\": must have at most 3 "
	    "decimal places");
	free(text);
	expect_error(WITH("spec:\n  selectors: {}\n  experimental:\n"
	    "    stallDetector: {completionTimeoutFactor: \"500m\"}\n"),
	    "document 1: spec.experimental.stallDetector."
	    "completionTimeoutFactor: expected a quantity of at least 1 such "
	    "as \"1.5\", got \"500m\"");
	free(text);
	expect_error(WITH("spec:\n  selectors: {}\n  experimental:\n"
	    "    stallDetector: {}\n    downtimeTuning: {}\n"),
	    "document 1: spec.experimental: stallDetector and downtimeTuning "
	    "are mutually exclusive: the stall detector manages its own "
	    "downtime schedule (KubeVirt's admission refuses both)");
	free(text);
	expect_error(WITH("spec:\n  selectors: {}\n  experimental:\n"
	    "    downtimeTuning: {steps: 0}\n"),
	    "document 1: spec.experimental.downtimeTuning.steps: out of "
	    "range: expected an integer from 1 to 2147483647, got 0");
	free(text);
	expect_error(WITH("spec: {selectors: {}, experimental: "
	    "{compression: lz4}}\n"), "document 1: spec.experimental."
	    "compression: expected \"none\" or \"zstd\", got \"lz4\"");
	free(text);
	/* The second document's error names it. */
	expect_error(WITH("spec: {selectors: {}}\n---\n"
	    MIGRATION_POLICY
	    "metadata: {name: b}\n"
	    "spec: {selectors: {virtualMachineInstanceSelector: {a: b}}, "
	    "allowPostCopy: maybe}\n"),
	    "document 2: spec.allowPostCopy: expected true or false, got "
	    "\"maybe\"");
	free(text);
	expect_error(WITH("spec:\n  selectors: {}\nmetadata2: {}\n"),
	    "document 1: metadata2: unknown field");
	free(text);
	expect_error("apiVersion: migrations.kubevirt.io/v1\n"
	    "kind: MigrationPolicy\nmetadata: {name: a}\nspec: {selectors: "
	    "{}}\n", "document 1: apiVersion: expected "
	    "\"migrations.kubevirt.io/v1alpha1\" for a MigrationPolicy, got "
	    "\"migrations.kubevirt.io/v1\"");
	expect_error(MIGRATION_POLICY
	    "metadata: {name: My_Policy}\n"
	    "spec: {selectors: {}}\n", "document 1: metadata.name: expected a "
	    "DNS-1123 subdomain (lowercase letters, digits, '-' and '.'), got "
	    "\"My_Policy\"");
	expect_error(MIGRATION_POLICY
	    "spec: {selectors: {}}\n",
	    "document 1: metadata.name: missing: every object needs a name");
	expect_error("apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\n"
	    "metadata: {name: a}\n", "document 1: kind: a "
	    "VirtualMachineInstance does not belong with the policies: give it "
	    "with --vmi FILE");
	expect_error("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n",
	    "document 1: kind: expected MigrationPolicy, KubeVirt, Namespace or "
	    "List, got \"Pod\"");
	expect_error(WITH("spec: {selectors: {}}\n---\n" MIGRATION_POLICY
	    "metadata: {name: a}\nspec: {selectors: {virtualMachineInstance"
	    "Selector: {x: z}}}\n"), "document 2: metadata.name: duplicate "
	    "name \"a\", also defined in @, document 1");
	free(text);
	expect_error(MIGRATION_POLICY
	    "metadata:\n  name: a\n  annotations:\n"
	    "    qmigrate.io/convergance: kubevirt\nspec: {selectors: {}}\n",
	    "document 1: metadata.annotations.qmigrate.io/convergance: unknown "
	    "field: qmigrate reads qmigrate.io/convergence, blockMigration, "
	    "sharedStoragePaths, disks, evictionStrategy, "
	    "terminationGracePeriodSeconds, progressTimeout, "
	    "parallelMigrationThreads and disableTLS");
	expect_error(MIGRATION_POLICY
	    "metadata:\n  name: a\n  annotations:\n"
	    "    qmigrate.io/progressTimeout: 60\nspec: {selectors: {}}\n",
	    "document 1: metadata.annotations.qmigrate.io/progressTimeout: "
	    "expected a string, got 60 (quote it: YAML reads it as a boolean "
	    "or a number)");
	expect_error(MIGRATION_POLICY
	    "metadata:\n  name: a\n  annotations:\n"
	    "    qmigrate.io/progressTimeout: soon\nspec: {selectors: {}}\n",
	    "document 1: metadata.annotations.qmigrate.io/progressTimeout: "
	    "expected an integer from 0 to 86400, as a string such as "
	    "\"86400\", got \"soon\"");
	expect_error(MIGRATION_POLICY
	    "metadata:\n  name: a\n  annotations:\n"
	    "    qmigrate.io/sharedStoragePaths: /srv,nfs\n"
	    "spec: {selectors: {}}\n", "document 1: metadata.annotations."
	    "qmigrate.io/sharedStoragePaths[1]: expected an absolute path, got "
	    "\"nfs\"");
	/* A YAML syntax error names the line. */
	expect_error("apiVersion: v1\nkind: List\nitems:\n- a: [\n",
	    "line 5, column 1: did not find expected node content while "
	    "parsing a flow node");
	/* In a List: the item's index. */
	expect_error("apiVersion: v1\nkind: List\nitems:\n"
	    "- apiVersion: migrations.kubevirt.io/v1alpha1\n"
	    "  kind: MigrationPolicy\n  metadata: {name: a}\n"
	    "  spec: {selectors: {}}\n"
	    "- apiVersion: migrations.kubevirt.io/v1alpha1\n"
	    "  kind: MigrationPolicy\n  metadata: {name: b}\n"
	    "  spec: {selectors: 1}\n",
	    "document 1: items[1].spec.selectors: expected an object, got 1");
	expect_error("apiVersion: v1\nkind: List\nitems:\n"
	    "- apiVersion: v1\n  kind: List\n  items: []\n",
	    "document 1: items[0].kind: expected MigrationPolicy, KubeVirt, "
	    "Namespace or List (not nested), got \"List\"");
#undef WITH
}

/* A List (kubectl get -o yaml), a MigrationPolicyList and JSON manifests. */
static void
test_lists_and_json(void **state)
{
	struct policy_set *set;

	(void)state;
	set = load_as("list.yaml",
	    "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\n"
	    "items:\n"
	    "- apiVersion: migrations.kubevirt.io/v1alpha1\n"
	    "  kind: MigrationPolicy\n  metadata: {name: a}\n"
	    "  spec: {selectors: {}}\n"
	    "- apiVersion: v1\n  kind: Namespace\n"
	    "  metadata: {name: prod, labels: {tier: gold}}\n"
	    "  spec: {finalizers: [kubernetes]}\n  status: {phase: Active}\n");
	assert_int_equal(set->npolicies, 1);
	assert_int_equal(set->policies[0].item, 0);
	assert_int_equal(set->nnamespaces, 1);
	assert_string_equal(set->namespaces[0].labels[0].value, "gold");
	policy_set_free(set);

	set = load_as("mpl.yaml",
	    "apiVersion: migrations.kubevirt.io/v1alpha1\n"
	    "kind: MigrationPolicyList\nitems:\n"
	    "- metadata: {name: a}\n  spec: {selectors: {}}\n"
	    "- metadata: {name: b}\n  spec: {selectors: "
	    "{virtualMachineInstanceSelector: {x: z}}}\n");
	assert_int_equal(set->npolicies, 2);
	policy_set_free(set);

	set = load_as("mp.json", "{\"apiVersion\": "
	    "\"migrations.kubevirt.io/v1alpha1\", \"kind\": \"MigrationPolicy\", "
	    "\"metadata\": {\"name\": \"j\"}, \"spec\": {\"selectors\": {}, "
	    "\"bandwidthPerMigration\": 1e9}}");
	assert_int_equal(set->policies[0].migration.bandwidth, 1000000000);
	assert_int_equal(set->policies[0].doc, 1);
	policy_set_free(set);

	/* qmigrate's own shape in YAML too. */
	set = load_as("own.yaml", "name: own\nselector:\n  labels: {app: db}\n"
	    "migration:\n  progressTimeout: 60\n");
	assert_int_equal(set->policies[0].migration.progress_timeout, 60);
	policy_set_free(set);
	expect_error_as("own.yml", "name: own\nmigration:\n  bandwidthPerMigration:"
	    " 64M\n", "document 1: migration.bandwidthPerMigration: expected "
	    "bytes/s up to 1Ti, as an integer or a string with a Ki, Mi, Gi or "
	    "Ti suffix such as \"64Mi\", got \"64M\"");
}

/*
 * A KubeVirt object's spec.configuration is what policies refine: a
 * policy changes only the fields it gives; the VMI's evictionStrategy
 * beats both.
 */
static void
test_cluster_defaults(void **state)
{
	static const char *kv =
	    "apiVersion: kubevirt.io/v1\n"
	    "kind: KubeVirt\n"
	    "metadata:\n  name: kubevirt\n  namespace: kubevirt\n"
	    "spec:\n"
	    "  certificateRotateStrategy: {}\n"
	    "  configuration:\n"
	    "    developerConfiguration:\n      featureGates: []\n"
	    "    evictionStrategy: LiveMigrate\n"
	    "    migrations:\n"
	    "      bandwidthPerMigration: 64Mi\n"
	    "      completionTimeoutPerGiB: 800\n"
	    "      parallelMigrationsPerCluster: 500\n"
	    "      parallelOutboundMigrationsPerNode: 3\n"
	    "      progressTimeout: 300\n"
	    "      allowPostCopy: true\n"
	    "      disableTLS: true\n"
	    "      nodeDrainTaintKey: kubevirt.io/drain\n"
	    "  customizeComponents: {}\n"
	    "  workloadUpdateStrategy: {}\n"
	    "---\n"
	    MIGRATION_POLICY
	    "metadata: {name: db}\n"
	    "spec:\n  allowAutoConverge: true\n  completionTimeoutPerGiB: 23\n"
	    "  selectors: {virtualMachineInstanceSelector: {app: db}}\n"
	    "---\n"
	    MIGRATION_POLICY
	    "metadata:\n  name: web\n  annotations:\n"
	    "    qmigrate.io/evictionStrategy: External\n"
	    "spec:\n  allowPostCopy: false\n"
	    "  selectors: {virtualMachineInstanceSelector: {app: web}}\n";
	struct policy_set	*set;
	struct policy_choice	 ch;
	struct vm_ident		 vm;
	char			*cause = NULL;

	(void)state;
	set = load_as("cluster.yaml", kv);
	assert_non_null(set->cluster.file);
	assert_string_equal(set->cluster.name, "kubevirt");
	assert_int_equal(set->cluster.parallel_outbound_per_node, 3);
	/* As given (a drain caps its slots, not what the cluster says). */
	assert_int_equal(set->cluster.parallel_per_cluster, 500);
	assert_string_equal(set->cluster.unapplied,
	    "spec.configuration.migrations.nodeDrainTaintKey");

	/* No policy: the cluster's. */
	memset(&vm, 0, sizeof vm);
	assert_int_equal(vm_ident_option(&vm, "label", "app=other", &cause),
	    0);
	policy_choose(set, &vm, &ch, 0);
	assert_null(ch.policy);
	assert_int_equal(ch.migration.bandwidth, 64ULL << 20);
	assert_int_equal(ch.migration.completion_timeout_per_gib, 800);
	assert_int_equal(ch.migration.progress_timeout, 300);
	assert_true(ch.migration.allow_post_copy);
	assert_true(ch.migration.allow_workload_disruption);
	assert_true(ch.migration.disable_tls);
	assert_int_equal(ch.eviction, EVICT_LIVE_MIGRATE);
	assert_int_equal(ch.grace_seconds, 30);
	policy_choice_free(&ch);
	vm_ident_free(&vm);

	/* db refines two fields; the rest stays the cluster's. */
	assert_int_equal(vm_ident_option(&vm, "label", "app=db", &cause), 0);
	policy_choose(set, &vm, &ch, 1);
	assert_string_equal(ch.policy->name, "db");
	assert_int_equal(ch.migration.completion_timeout_per_gib, 23);
	assert_true(ch.migration.allow_auto_converge);
	assert_int_equal(ch.migration.bandwidth, 64ULL << 20);
	assert_true(ch.migration.allow_workload_disruption);
	assert_int_equal(ch.eviction, EVICT_LIVE_MIGRATE);
	assert_non_null(strstr(ch.eviction_from, "KubeVirt"));
	policy_choice_free(&ch);
	vm_ident_free(&vm);

	/*
	 * web sets allowPostCopy false: allowWorkloadDisruption follows it
	 * (KubeVirt's rule), over the cluster's true; its annotation's
	 * strategy beats the cluster's, and the VMI's own beats both.
	 */
	assert_int_equal(vm_ident_option(&vm, "label", "app=web", &cause), 0);
	policy_choose(set, &vm, &ch, 0);
	assert_false(ch.migration.allow_post_copy);
	assert_false(ch.migration.allow_workload_disruption);
	assert_int_equal(ch.eviction, EVICT_EXTERNAL);
	policy_choice_free(&ch);
	vm.eviction_set = 1;
	vm.eviction = EVICT_LIVE_MIGRATE_IF_POSSIBLE;
	vm.grace_set = 1;
	vm.grace_seconds = 5;
	policy_choose(set, &vm, &ch, 0);
	assert_int_equal(ch.eviction, EVICT_LIVE_MIGRATE_IF_POSSIBLE);
	assert_string_equal(ch.eviction_from,
	    "the VMI's spec.evictionStrategy");
	assert_int_equal(ch.grace_seconds, 5);
	policy_choice_free(&ch);
	vm_ident_free(&vm);
	policy_set_free(set);

	expect_error_as("kv.yaml", "apiVersion: kubevirt.io/v1\nkind: KubeVirt\n"
	    "metadata: {name: kubevirt}\nspec:\n  configuration:\n"
	    "    migrations: {parallelMigrationsPerCluster: 0}\n",
	    "document 1: spec.configuration.migrations."
	    "parallelMigrationsPerCluster: out of range: expected an integer "
	    "from 1 to 4294967295, got 0");
	expect_error_as("kv.yaml", "apiVersion: kubevirt.io/v1\nkind: KubeVirt\n"
	    "metadata: {name: kubevirt}\nspec:\n  configuration:\n"
	    "    migratons: {}\n",
	    "document 1: spec.configuration.migratons: unknown field");
	expect_error_as("kv.yaml", "apiVersion: kubevirt.io/v1\nkind: KubeVirt\n"
	    "metadata: {name: a}\n---\napiVersion: kubevirt.io/v1\n"
	    "kind: KubeVirt\nmetadata: {name: b}\n",
	    "document 2: a second KubeVirt object (\"b\"): \"a\" in "
	    "@ already gives the cluster's defaults");
}

/* --vmi: a VirtualMachineInstance or VirtualMachine manifest. */
static void
test_vmi(void **state)
{
	struct vm_ident	 vm;
	char		*dir = tmpdir_new("test-kube"), *path, *cause = NULL, *want;

	(void)state;
	memset(&vm, 0, sizeof vm);
	path = tmpdir_write(dir, "vm.yaml",
	    "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachine\n"
	    "metadata:\n  name: db1\n  namespace: prod\n"
	    "  labels: {owner: me}\n"
	    "spec:\n"
	    "  runStrategy: Always\n"
	    "  template:\n"
	    "    metadata:\n      labels: {app: db}\n"
	    "    spec:\n"
	    "      evictionStrategy: LiveMigrateIfPossible\n"
	    "      terminationGracePeriodSeconds: 120\n"
	    "      domain: {devices: {}}\n");
	assert_int_equal(vm_ident_option(&vm, "vmi", path, &cause), 0);
	assert_string_equal(vm.name, "db1");
	assert_string_equal(vm.namespace, "prod");
	/* The VMI's labels are the template's, not the VM's own. */
	assert_int_equal(vm.nlabels, 1);
	assert_string_equal(vm.labels[0].key, "app");
	assert_true(vm.eviction_set);
	assert_int_equal(vm.eviction, EVICT_LIVE_MIGRATE_IF_POSSIBLE);
	assert_int_equal(vm.grace_seconds, 120);
	/* Twice, or a label again on the command line: refused. */
	assert_int_equal(vm_ident_option(&vm, "vmi", path, &cause), -1);
	free(cause);
	assert_int_equal(vm_ident_option(&vm, "label", "app=web", &cause), -1);
	assert_string_equal(cause, "label app: given twice");
	free(cause);
	vm_ident_free(&vm);
	free(path);

	path = tmpdir_write(dir, "vmi.json", "{\"apiVersion\": \"kubevirt.io/v1\", "
	    "\"kind\": \"VirtualMachineInstance\", \"metadata\": {\"name\": "
	    "\"a\"}, \"spec\": {\"evictionStrategy\": \"Live\"}}");
	assert_int_equal(vm_ident_option(&vm, "vmi", path, &cause), -1);
	xasprintf(&want, "vmi %s: spec.evictionStrategy: expected \"None\", "
	    "\"LiveMigrate\", \"LiveMigrateIfPossible\" or \"External\", got "
	    "\"Live\"", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	vm_ident_free(&vm);
	free(path);

	path = tmpdir_write(dir, "vmi.yaml", "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachineInstance\nmetadata: {name: a}\n"
	    "spec:\n  evictionStrategey: None\n");
	assert_int_equal(vm_ident_option(&vm, "vmi", path, &cause), -1);
	xasprintf(&want, "vmi %s: document 1: spec.evictionStrategey: unknown "
	    "field", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	vm_ident_free(&vm);
	free(path);

	path = tmpdir_write(dir, "pod.yaml", "apiVersion: v1\nkind: Pod\n");
	assert_int_equal(vm_ident_option(&vm, "vmi", path, &cause), -1);
	xasprintf(&want, "vmi %s: document 1: kind: expected "
	    "\"VirtualMachineInstance\" or \"VirtualMachine\", got \"Pod\"",
	    path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	vm_ident_free(&vm);
	free(path);
	tmpdir_free(dir);
}

/*
 * Where the namespace labels came from names each file once, whole: a
 * file whose name ends another's ("a.json" after "ba.json") is its own.
 */
static void
test_namespace_sources(void **state)
{
	struct vm_ident	 vm;
	char		*dir = tmpdir_new("test-kube"), *cause = NULL, cwd[4096];

	(void)state;
	memset(&vm, 0, sizeof vm);
	free(tmpdir_write(dir, "ba.json", "{\"team\": \"a\"}"));
	free(tmpdir_write(dir, "a.json", "{\"tier\": \"b\"}"));
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(vm_ident_option(&vm, "namespace-labels-file",
	    "ba.json", &cause), 0);
	assert_int_equal(vm_ident_option(&vm, "namespace-labels-file",
	    "a.json", &cause), 0);
	assert_int_equal(vm_ident_option(&vm, "namespace-labels-file",
	    "a.json", &cause), -1);	/* its labels again: refused */
	free(cause);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(vm.ns_source, "ba.json and a.json");
	vm_ident_free(&vm);
	tmpdir_free(dir);
}

/* --namespace-labels-file: a Namespace manifest or a plain object. */
static void
test_namespace_file(void **state)
{
	struct vm_ident	 vm;
	char		*dir = tmpdir_new("test-kube"), *a, *b, *cause = NULL, *want;

	(void)state;
	memset(&vm, 0, sizeof vm);
	a = tmpdir_write(dir, "ns.yaml", "apiVersion: v1\nkind: Namespace\n"
	    "metadata:\n  name: hpc\n  labels:\n    priority: high\n");
	b = tmpdir_write(dir, "more.yaml", "bandwidth: medium\n");
	assert_int_equal(vm_ident_option(&vm, "namespace-labels-file", a,
	    &cause), 0);
	assert_int_equal(vm_ident_option(&vm, "namespace-labels-file", b,
	    &cause), 0);
	assert_int_equal(vm.nns_labels, 2);
	assert_int_equal(vm.nlabels, 0);
	assert_non_null(strstr(vm.ns_source, "ns.yaml and "));
	assert_int_equal(vm_ident_option(&vm, "namespace-label",
	    "priority=low", &cause), -1);
	assert_string_equal(cause, "label priority: given twice");
	free(cause);
	vm_ident_free(&vm);
	free(a);
	a = tmpdir_write(dir, "bad.yaml", "apiVersion: v1\nkind: Namespace\n"
	    "metadata:\n  name: hpc\n  labels:\n    gpu: yes\n");
	assert_int_equal(vm_ident_option(&vm, "namespace-labels-file", a,
	    &cause), -1);
	xasprintf(&want, "namespace %s: document 1: metadata.labels.gpu: "
	    "expected a string, got true (quote it: YAML reads it as a "
	    "boolean or a number)", a);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	vm_ident_free(&vm);
	free(a);
	free(b);
	tmpdir_free(dir);
}

/* --vmim: a VirtualMachineInstanceMigration names the migration. */
static void
test_vmim(void **state)
{
	struct kube_vmim	 vmim;
	struct vm_ident		 vm;
	struct status		*st;
	json_object		*doc;
	char			*dir = tmpdir_new("test-kube"), *path, *want;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(kube_vmim_load(KUBEVIRT_TESTS_DIR "/vmim/vmim.yaml",
	    &vmim, &cause), 0);
	assert_string_equal(vmim.name, "migration-testvmi");
	assert_string_equal(vmim.namespace, "hpc");
	assert_string_equal(vmim.uid, "6c1e8f7a-2b3d-4e5f-8a9b-0c1d2e3f4a5b");
	assert_string_equal(vmim.vmi_name, "testvmi");

	/* Its VMI is the --vmi's, in the same namespace. */
	memset(&vm, 0, sizeof vm);
	assert_int_equal(vm_ident_option(&vm, "vmi", KUBEVIRT_TESTS_DIR
	    "/vmi/vmi.yaml", &cause), 0);
	assert_int_equal(kube_vmim_check_vmi(&vmim, &vm, &cause), 0);
	free(vm.name);
	vm.name = xstrdup("othervmi");
	assert_int_equal(kube_vmim_check_vmi(&vmim, &vm, &cause), -1);
	xasprintf(&want, "vmim %s: spec.vmiName: \"testvmi\" is not the VMI "
	    "of --vmi %s (\"othervmi\")", vmim.file, vm.vmi_file);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	vm_ident_free(&vm);

	/* The status names the migration by the VMIM. */
	st = status_create("source", NULL, 0);
	kube_vmim_identify(&vmim, st);
	assert_string_equal(status_uid(st), vmim.uid);
	assert_true(status_uid_accepts(st, vmim.uid));
	assert_false(status_uid_accepts(st, "another-uid"));
	doc = status_to_json(st);
	assert_string_equal(json_str_at(doc, "migrationName"),
	    "migration-testvmi");
	json_object_put(doc);
	status_free(st);
	kube_vmim_free(&vmim);

	/* Errors name the file, the document and the field. */
	path = tmpdir_write(dir, "vmim.yaml", "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachineInstanceMigration\n"
	    "metadata: {name: m1}\nspec: {vmiName: a}\n");
	assert_int_equal(kube_vmim_load(path, &vmim, &cause), -1);
	xasprintf(&want, "vmim %s: document 1: metadata.uid: missing: the API "
	    "server gives every object one: give the manifest as kubectl get "
	    "vmim NAME -o yaml prints it", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);
	path = tmpdir_write(dir, "vmim.json", "{\"apiVersion\": "
	    "\"kubevirt.io/v1\", "
	    "\"kind\": \"VirtualMachineInstanceMigration\", "
	    "\"metadata\": {\"name\": \"m1\", \"uid\": \"1234\"}, "
	    "\"spec\": {\"vmiName\": \"a\", \"vmName\": \"b\"}}");
	assert_int_equal(kube_vmim_load(path, &vmim, &cause), -1);
	xasprintf(&want, "vmim %s: spec.vmName: unknown field", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);
	path = tmpdir_write(dir, "uid.yaml", "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachineInstanceMigration\n"
	    "metadata: {name: m1, uid: ../../x}\nspec: {vmiName: a}\n");
	assert_int_equal(kube_vmim_load(path, &vmim, &cause), -1);
	assert_non_null(strstr(cause, "document 1: metadata.uid: expected a "
	    "uid"));
	free(cause);
	free(path);
	path = tmpdir_write(dir, "vmi.yaml", "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachineInstance\nmetadata: {name: a}\n");
	assert_int_equal(kube_vmim_load(path, &vmim, &cause), -1);
	xasprintf(&want, "vmim %s: document 1: kind: expected "
	    "\"VirtualMachineInstanceMigration\", got "
	    "\"VirtualMachineInstance\"", path);
	assert_string_equal(cause, want);
	free(want);
	free(cause);
	free(path);
	tmpdir_free(dir);
}

/*
 * A path into a JSON document, "a.b.0.c", as a string: "" if absent,
 * "null" for a null member.
 */
static const char *
at(json_object *o, const char *path)
{
	char		*copy = xstrdup(path), *p, *save = NULL;
	static char	 buf[256];
	int		 found = 1;

	for (p = strtok_r(copy, ".", &save); p != NULL && found;
	    p = strtok_r(NULL, ".", &save)) {
		if (o == NULL)
			found = 0;
		else if (json_object_is_type(o, json_type_array)) {
			found = (size_t)atoi(p) < json_object_array_length(o);
			o = found ? json_object_array_get_idx(o,
			    (size_t)atoi(p)) : NULL;
		} else if (!json_object_is_type(o, json_type_object))
			found = 0;
		else
			found = json_object_object_get_ex(o, p, &o);
	}
	free(copy);
	snprintf(buf, sizeof buf, "%s", !found ? "" : o == NULL ? "null" :
	    json_object_is_type(o, json_type_string) ?
	    json_object_get_string(o) : json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN));
	return buf;
}

/*
 * qmigrate status --format kubevirt-migration: the VMIM's status, with a
 * timestamp per phase entered, in order; an eviction that handed the VM
 * over has none.
 */
static void
test_status_vmim(void **state)
{
	struct status	*st;
	json_object	*doc, *patch, *times;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	st = status_create("source", NULL, 0);
	status_set_phase(st, PHASE_PREPARING_TARGET);
	status_set_phase(st, PHASE_TARGET_READY);
	status_set_phase(st, PHASE_RUNNING);
	status_set_phase(st, PHASE_SUCCEEDED);
	doc = status_to_json(st);
	times = json_obj_at(doc, "phaseTransitionTimestamps");
	assert_int_equal(json_object_array_length(times), 5);
	patch = status_to_kubevirt_migration(doc, &cause);
	assert_non_null(patch);
	assert_string_equal(at(patch, "status.phase"), "Succeeded");
	assert_string_equal(at(patch,
	    "status.phaseTransitionTimestamps.0.phase"), "Pending");
	assert_string_equal(at(patch,
	    "status.phaseTransitionTimestamps.4.phase"), "Succeeded");
	for (i = 0; i < 5; i++) {
		char key[64], prev[64];

		snprintf(key, sizeof key, "status.phaseTransitionTimestamps."
		    "%zu.phaseTransitionTimestamp", i);
		if (i > 0)
			assert_true(strcmp(prev, at(patch, key)) <= 0);
		snprintf(prev, sizeof prev, "%s", at(patch, key));
	}
	assert_string_equal(at(patch, "status.migrationState.migrationUid"),
	    status_uid(st));
	assert_string_equal(at(patch, "status.migrationState.completed"),
	    "true");
	assert_string_equal(at(patch, "status.conditions"), "");
	json_object_put(patch);
	json_object_put(doc);

	/* A phase entered again keeps its first timestamp. */
	status_set_phase(st, PHASE_RUNNING);
	status_set_phase(st, PHASE_FAILED);
	status_set_abort_requested(st);
	doc = status_to_json(st);
	assert_int_equal(json_object_array_length(json_obj_at(doc,
	    "phaseTransitionTimestamps")), 6);
	patch = status_to_kubevirt_migration(doc, &cause);
	assert_string_equal(at(patch, "status.phase"), "Failed");
	assert_string_equal(at(patch, "status.conditions.0.type"),
	    "migrationAbortRequested");
	json_object_put(patch);
	json_object_put(doc);
	status_free(st);

	st = status_create("evict", NULL, 0);
	status_set_phase(st, PHASE_HANDED_OVER);
	doc = status_to_json(st);
	assert_null(status_to_kubevirt_migration(doc, &cause));
	assert_non_null(strstr(cause, "role evict, phase HandedOver"));
	free(cause);
	json_object_put(doc);
	status_free(st);
}

/*
 * qmigrate status --format kubevirt after an eviction: once the VM has
 * left, evacuationNodeName is cleared and EvictionRequested dropped; with
 * the VMI's conditions, qmigrate's are merged in, the others kept.
 */
static void
test_status_vmi_patch(void **state)
{
	struct status	*st;
	json_object	*doc, *patch, *vmi, *eviction;
	char		*dir = tmpdir_new("test-kube"), *path, *cause = NULL;

	(void)state;
	st = status_create("source", NULL, 0);
	eviction = json_tokener_parse("{\"strategy\": \"LiveMigrate\"}");
	status_set_eviction(st, "node-a", eviction);
	json_object_put(eviction);
	status_set_conditions(st, json_tokener_parse("[{\"type\": "
	    "\"LiveMigratable\", \"status\": \"True\"}]"));
	status_set_phase(st, PHASE_RUNNING);
	doc = status_to_json(st);
	/* During the eviction: the node being drained, the condition. */
	patch = status_to_kubevirt(doc, NULL, "2026-11-25T12:00:00Z");
	assert_string_equal(at(patch, "status.evacuationNodeName"), "node-a");
	assert_string_equal(at(patch, "status.conditions.1.type"),
	    "EvictionRequested");
	assert_string_equal(at(patch, "status.conditions.1.message"),
	    "VMI is marked for eviction");
	json_object_put(patch);
	json_object_put(doc);

	status_set_phase(st, PHASE_SUCCEEDED);
	doc = status_to_json(st);
	patch = status_to_kubevirt(doc, NULL, "2026-11-25T12:00:00Z");
	assert_string_equal(at(patch, "status.evacuationNodeName"), "null");
	assert_string_equal(at(patch, "status.conditions.0.type"),
	    "LiveMigratable");
	assert_string_equal(at(patch, "status.conditions.1"), "");
	assert_string_equal(at(patch, "status.conditions.0.lastTransitionTime"),
	    "null");
	json_object_put(patch);

	/* Merged into the VMI's list: Ready stays, with its times. */
	path = tmpdir_write(dir, "vmi.yaml", "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachineInstance\n"
	    "metadata: {name: testvmi, namespace: hpc}\n"
	    "spec: {domain: {devices: {}}}\n"
	    "status:\n"
	    "  conditions:\n"
	    "  - type: Ready\n    status: \"True\"\n"
	    "    lastProbeTime: null\n"
	    "    lastTransitionTime: \"2026-11-25T10:00:00Z\"\n"
	    "  - type: LiveMigratable\n    status: \"True\"\n"
	    "    lastProbeTime: null\n"
	    "    lastTransitionTime: \"2026-11-25T10:00:01Z\"\n"
	    "  - type: EvictionRequested\n    status: \"True\"\n"
	    "    reason: EvictionRequested\n"
	    "    message: VMI is marked for eviction\n"
	    "    lastProbeTime: \"2026-11-25T11:00:00Z\"\n"
	    "    lastTransitionTime: \"2026-11-25T11:00:00Z\"\n"
	    "  - type: StorageLiveMigratable\n    status: \"False\"\n"
	    "    lastProbeTime: null\n"
	    "    lastTransitionTime: \"2026-11-25T10:00:02Z\"\n");
	assert_int_equal(kube_vmi_conditions(path, &vmi, &cause), 0);
	status_set_conditions(st, json_tokener_parse("[{\"type\": "
	    "\"LiveMigratable\", \"status\": \"True\"}, {\"type\": "
	    "\"StorageLiveMigratable\", \"status\": \"True\", "
	    "\"reason\": \"Shared\"}]"));
	json_object_put(doc);
	doc = status_to_json(st);
	patch = status_to_kubevirt(doc, vmi, "2026-11-25T12:00:00Z");
	assert_string_equal(at(patch, "status.conditions.0.type"), "Ready");
	assert_string_equal(at(patch, "status.conditions.0.lastTransitionTime"),
	    "2026-11-25T10:00:00Z");
	assert_string_equal(at(patch, "status.conditions.1.type"),
	    "LiveMigratable");
	assert_string_equal(at(patch, "status.conditions.1.lastTransitionTime"),
	    "2026-11-25T10:00:01Z");
	assert_string_equal(at(patch, "status.conditions.2.type"),
	    "StorageLiveMigratable");
	assert_string_equal(at(patch, "status.conditions.2.lastTransitionTime"),
	    "2026-11-25T12:00:00Z");
	assert_string_equal(at(patch, "status.conditions.3"), "");
	assert_string_equal(at(patch, "status.evacuationNodeName"), "null");
	json_object_put(patch);
	json_object_put(vmi);
	json_object_put(doc);
	status_free(st);
	free(path);

	path = tmpdir_write(dir, "vm.yaml", "apiVersion: kubevirt.io/v1\n"
	    "kind: VirtualMachine\nmetadata: {name: a}\n");
	assert_int_equal(kube_vmi_conditions(path, &vmi, &cause), -1);
	assert_non_null(strstr(cause, "document 1: kind: expected "
	    "\"VirtualMachineInstance\""));
	free(cause);
	free(path);
	tmpdir_free(dir);
}

/* A random policy of test_match_random(), and its reference reading. */
struct rnd_policy {
	char	 name[8];
	int	 absent;		/* no spec.selectors */
	size_t	 nv, nn;
	int	 vk[3], vv[3];		/* keys and values: indexes */
	int	 nk[3], nvv[3];
};

static const char *const rnd_keys[] = { "a", "b", "c",
    "kubernetes.io/metadata.name", "kubevirt.io/migrationTargetNodeName" };
static const char *const rnd_values[5][2] = { { "x", "z" }, { "x", "z" },
    { "x", "z" }, { "ns", "other" }, { "node-b", "node-c" } };

/* A deterministic generator (the test must not depend on the libc's). */
static unsigned
rnd(unsigned *state, unsigned n)
{
	*state = *state * 1103515245u + 12345u;
	return ((*state >> 16) & 0x7fff) % n;
}

/* Whether labels (key index to value index, -1 unset) hold each pair. */
static int
rnd_all(const int *labels, const int *k, const int *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (labels[k[i]] != v[i])
			return 0;
	return 1;
}

/*
 * A transcription of KubeVirt's matchPolicy (virt-controller): the
 * policies that match, the best (VMI + namespace, then VMI) score, ties
 * to the smallest name.  The VMI's labels are never nil there (the
 * caller adds migrationTargetNodeName), so both selectors always count.
 */
static const char *
rnd_reference(const struct rnd_policy *ps, size_t n, const int *vmi,
    const int *ns)
{
	const char	*best = NULL;
	size_t		 i, bt = 0, bv = 0, t;

	for (i = 0; i < n; i++) {
		if (ps[i].absent || !rnd_all(vmi, ps[i].vk, ps[i].vv,
		    ps[i].nv) || !rnd_all(ns, ps[i].nk, ps[i].nvv, ps[i].nn))
			continue;
		t = ps[i].nv + ps[i].nn;
		if (best == NULL || t > bt || (t == bt && ps[i].nv > bv) ||
		    (t == bt && ps[i].nv == bv &&
		    strcmp(ps[i].name, best) < 0)) {
			best = ps[i].name;
			bt = t;
			bv = ps[i].nv;
		}
	}
	return best;
}

/* One side of a random selector: distinct keys, random values. */
static size_t
rnd_side(unsigned *st, int *k, int *v, int nkeys)
{
	size_t	n = rnd(st, 4), i, j;
	int	key;

	for (i = 0; i < n; i++) {
		do {
			key = (int)rnd(st, (unsigned)nkeys);
			for (j = 0; j < i && k[j] != key; j++)
				;
		} while (j < i);
		k[i] = key;
		v[i] = (int)rnd(st, 2);
	}
	return n;
}

/*
 * 200 random sets of policies and labels (ties, identical selectors,
 * absent selectors, the implied namespace name and the target node's
 * label among them): qmigrate picks what matchPolicy picks.
 */
static void
test_match_random(void **state)
{
	struct rnd_policy	 ps[6];
	struct policy_set	*set;
	const struct policy	*p;
	struct vm_ident		 vm;
	unsigned		 st = 24;
	int			 vmi[5], ns[5], round, k;
	size_t			 n, i, j;
	char			*yaml, *cause = NULL, kv[96];
	const char		*want;

	(void)state;
	for (round = 0; round < 200; round++) {
		memset(&vm, 0, sizeof vm);
		for (k = 0; k < 3; k++) {
			vmi[k] = rnd(&st, 3) == 0 ? -1 : (int)rnd(&st, 2);
			ns[k] = rnd(&st, 3) == 0 ? -1 : (int)rnd(&st, 2);
		}
		vmi[3] = -1;
		vmi[4] = 0;	/* the caller's migrationTargetNodeName */
		ns[3] = 0;	/* implied from --namespace ns */
		ns[4] = -1;
		for (k = 0; k < 5; k++) {
			if (vmi[k] >= 0) {
				snprintf(kv, sizeof kv, "%s=%s", rnd_keys[k],
				    rnd_values[k][vmi[k]]);
				assert_int_equal(vm_ident_option(&vm, "label",
				    kv, &cause), 0);
			}
			if (ns[k] >= 0 && k != 3) {
				snprintf(kv, sizeof kv, "%s=%s", rnd_keys[k],
				    rnd_values[k][ns[k]]);
				assert_int_equal(vm_ident_option(&vm,
				    "namespace-label", kv, &cause), 0);
			}
		}
		assert_int_equal(vm_ident_option(&vm, "namespace", "ns",
		    &cause), 0);
		n = 1 + rnd(&st, 6);
		yaml = xstrdup("");
		for (i = 0; i < n; i++) {
			memset(&ps[i], 0, sizeof ps[i]);
			/* Names in a random order, none twice. */
			snprintf(ps[i].name, sizeof ps[i].name, "p%c%zu",
			    'a' + (int)rnd(&st, 3), i);
			ps[i].absent = rnd(&st, 10) == 0;
			ps[i].nv = rnd_side(&st, ps[i].vk, ps[i].vv, 5);
			ps[i].nn = rnd_side(&st, ps[i].nk, ps[i].nvv, 5);
			str_append(&yaml, "---\n" MIGRATION_POLICY
			    "metadata: {name: %s}\nspec:\n", ps[i].name);
			if (ps[i].absent) {
				str_append(&yaml, "  allowPostCopy: true\n");
				continue;
			}
			str_append(&yaml, "  selectors:\n    "
			    "virtualMachineInstanceSelector: {");
			for (j = 0; j < ps[i].nv; j++) {
				str_append(&yaml, "%s%s: %s", j == 0 ?
				    "" : ", ", rnd_keys[ps[i].vk[j]],
				    rnd_values[ps[i].vk[j]][ps[i].vv[j]]);
			}
			str_append(&yaml, "}\n    namespaceSelector: {");
			for (j = 0; j < ps[i].nn; j++) {
				str_append(&yaml, "%s%s: %s", j == 0 ?
				    "" : ", ", rnd_keys[ps[i].nk[j]],
				    rnd_values[ps[i].nk[j]][ps[i].nvv[j]]);
			}
			str_append(&yaml, "}\n");
		}
		set = load_as("p.yaml", yaml);
		p = policy_select(set, &vm, NULL);
		want = rnd_reference(ps, n, vmi, ns);
		if ((p == NULL) != (want == NULL) || (p != NULL &&
		    strcmp(p->name, want) != 0))
			fail_msg("round %d: qmigrate picks %s, matchPolicy %s"
			    "\n%s", round, p != NULL ? p->name : "none",
			    want != NULL ? want : "none", yaml);
		policy_set_free(set);
		vm_ident_free(&vm);
		free(yaml);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantity),
		cmocka_unit_test(test_yaml_types),
		cmocka_unit_test(test_yaml_documents),
		cmocka_unit_test(test_yaml_errors),
		cmocka_unit_test(test_kubevirt_precedence),
		cmocka_unit_test(test_kubevirt_precedence_why),
		cmocka_unit_test(test_precedence_ties),
		cmocka_unit_test(test_match_policy),
		cmocka_unit_test(test_match_random),
		cmocka_unit_test(test_manifest_fields),
		cmocka_unit_test(test_annotations),
		cmocka_unit_test(test_manifest_errors),
		cmocka_unit_test(test_lists_and_json),
		cmocka_unit_test(test_cluster_defaults),
		cmocka_unit_test(test_vmi),
		cmocka_unit_test(test_namespace_sources),
		cmocka_unit_test(test_namespace_file),
		cmocka_unit_test(test_vmim),
		cmocka_unit_test(test_status_vmim),
		cmocka_unit_test(test_status_vmi_patch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
