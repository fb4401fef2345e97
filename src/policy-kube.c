/*
 * policy-kube.c: KubeVirt's own objects in a policy file or directory,
 * read into the policy model: MigrationPolicy (migrations.kubevirt.io/
 * v1alpha1, every field of the type at KubeVirt's newest release), the
 * cluster defaults of a KubeVirt object (spec.configuration.migrations
 * and evictionStrategy), Namespace objects (their labels, for
 * namespaceSelector), and lists of these (kind: List, MigrationPolicyList).
 *
 * qmigrate's settings that KubeVirt has no field for live in a
 * MigrationPolicy's metadata.annotations under qmigrate.io/, so the
 * manifest stays valid for the API server.  Fields KubeVirt defines and
 * qmigrate does not carry out are checked, then listed in `policy explain`
 * (policy.unapplied) rather than silently dropped; unknown fields are
 * errors, as everywhere.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

#define MP_API		"migrations.kubevirt.io/v1alpha1"
#define ANNOTATION	"qmigrate.io/"
#define MAX_PARALLEL	4294967295ULL	/* KubeVirt's uint32 */

/* metav1.ObjectMeta's fields: accepted, the few qmigrate reads checked. */
/*
 * A Kubernetes name: a DNS-1123 subdomain (lowercase letters, digits, '-'
 * and '.', alphanumeric at both ends), or a label (no '.') when !dots.
 */
static int
kube_name_ok(const char *s, size_t max, int dots)
{
	size_t	len = strlen(s), i;
	char	c;

	if (len == 0 || len > max)
		return 0;
	for (i = 0; i < len; i++) {
		c = s[i];
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			continue;
		if (i == 0 || i == len - 1)
			return 0;
		if (c != '-' && !(c == '.' && dots))
			return 0;
		if (c == '.' && (s[i - 1] == '.' || s[i - 1] == '-' ||
		    s[i + 1] == '-'))
			return 0;
	}
	return 1;
}

/* Appends "name" to the comma-separated list *list. */
static void
add_unapplied(char **list, const char *name)
{
	char *joined;

	if (*list == NULL) {
		*list = xstrdup(name);
		return;
	}
	xasprintf(&joined, "%s, %s", *list, name);
	free(*list);
	*list = joined;
}

/*
 * Checks metadata: an object of ObjectMeta's fields; its name (required
 * when *name is wanted) a DNS name.  Returns 0 or -1.
 */
static int
kube_meta(struct policy_ctx *c, struct json_object *o, const char **name,
    int dots, struct json_object **annotations)
{
	struct json_object	*m, *v;
	struct label		*labels;
	size_t			 n;
	size_t			 max = dots ? 253 : 63;

	if (annotations != NULL)
		*annotations = NULL;
	if (!json_object_object_get_ex(o, "metadata", &m)) {
		policy_err(c, "metadata.name",
		    "missing: every object needs a name");
		return -1;
	}
	if (policy_check_object(c, "metadata", m, kube_meta_known) != 0)
		return -1;
	if (!json_object_object_get_ex(m, "name", &v)) {
		policy_err(c, "metadata.name",
		    "missing: every object needs a name");
		return -1;
	}
	if ((*name = policy_get_string(c, "metadata.name", v, 1, max)) == NULL)
		return -1;
	if (!kube_name_ok(*name, max, dots)) {
		policy_err_got(c, "metadata.name",
		    dots ? "a DNS-1123 subdomain "
		    "(lowercase letters, digits, '-' and '.')" : "a DNS-1123 "
		    "label (lowercase letters, digits and '-')", v);
		return -1;
	}
	if (json_object_object_get_ex(m, "labels", &v)) {
		if (policy_get_labels(c, "metadata.labels", v, &labels,
		    &n) != 0)
			return -1;
		labels_free(labels, n);
	}
	if (json_object_object_get_ex(m, "annotations", &v)) {
		if (!json_object_is_type(v, json_type_null) &&
		    policy_check_object(c, "metadata.annotations", v,
		    NULL) != 0)
			return -1;
		if (json_object_is_type(v, json_type_object)) {
			json_object_object_foreach(v, key, val) {
				char *f = policy_field("metadata.annotations",
				    key);
				const char *s;

				s = policy_get_string(c, f, val, 0, 256 * 1024);
				free(f);
				if (s == NULL)
					return -1;
			}
			if (annotations != NULL)
				*annotations = v;
		}
	}
	return 0;
}

/* The object's apiVersion must be one of versions (NULL-terminated). */
static int
kube_api(struct policy_ctx *c, struct json_object *o, const char *kind,
    const char *const *versions)
{
	struct json_object	*v;
	const char		*s;
	const char *const	*p;
	char			*expected;

	if (!json_object_object_get_ex(o, "apiVersion", &v)) {
		policy_err(c, "apiVersion", "missing: a %s is \"%s\"", kind,
		    versions[0]);
		return -1;
	}
	s = json_object_is_type(v, json_type_string) ?
	    json_object_get_string(v) : "";
	for (p = versions; *p != NULL; p++)
		if (strcmp(s, *p) == 0)
			return 0;
	if (versions[1] != NULL)
		xasprintf(&expected, "\"%s\" or \"%s\" for a %s", versions[0],
		    versions[1], kind);
	else
		xasprintf(&expected, "\"%s\" for a %s", versions[0], kind);
	policy_err_got(c, "apiVersion", expected, v);
	free(expected);
	return -1;
}

/* An annotation's comma-separated list as a JSON array of strings. */
static struct json_object *
anno_list(const char *s)
{
	struct json_object	*a = json_object_new_array();
	const char		*p = s, *end;
	size_t			 len;

	if (*s == '\0')
		return a;
	for (;;) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		while (len > 0 && (*p == ' ' || *p == '\t'))
			p++, len--;
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		json_object_array_add(a, json_object_new_string_len(p,
		    (int)len));
		if (end == NULL)
			break;
		p = end + 1;
	}
	return a;
}

/*
 * An annotation's string s as the JSON value a field of this kind reads:
 * an integer (digits only; its reader checks the range, up to max), true
 * or false, a list or the string itself.  NULL (reported at field) when s
 * is not one.
 */
static struct json_object *
anno_value(struct policy_ctx *c, const char *field, const char *s,
    enum policy_value kind, uint64_t max)
{
	struct json_object	*v;
	size_t			 n = strlen(s);

	switch (kind) {
	case PV_U64:
	case PV_INT:
		if (n == 0 || n > 19 || strspn(s, "0123456789") != n) {
			policy_err(c, field,
			    "expected an integer from 0 to %llu, as a "
			    "string such as \"%llu\", got \"%.64s\"",
			    (unsigned long long)max, (unsigned long long)max,
			    s);
			return NULL;
		}
		return json_object_new_int64(strtoll(s, NULL, 10));
	case PV_BOOL:
		if (strcmp(s, "true") != 0 && strcmp(s, "false") != 0) {
			v = json_object_new_string(s);
			policy_err_got(c, field, "\"true\" or \"false\"", v);
			json_object_put(v);
			return NULL;
		}
		return json_object_new_boolean(strcmp(s, "true") == 0);
	case PV_LIST:
		return anno_list(s);
	default:
		return json_object_new_string(s);
	}
}

/*
 * qmigrate's own settings in a MigrationPolicy's annotations
 * (qmigrate.io/NAME): those of the migration section are read as it reads
 * them.  Other annotations are not ours and are left alone.
 */
static int
kube_annotations(struct policy_ctx *c, struct json_object *annotations,
    struct policy *p)
{
	static const char *const known[] = {
		"convergence", "blockMigration", "sharedStoragePaths", "disks",
		"evictionStrategy", "terminationGracePeriodSeconds",
		"progressTimeout", "parallelMigrationThreads", "disableTLS",
		NULL
	};
	const struct policy_field	*mf;
	struct json_object		*v;
	const char *const		*k;
	const char			*name, *str;
	char				*f;
	int				 rc = 0, choice = 0;

	if (annotations == NULL)
		return 0;
	json_object_object_foreach(annotations, key, val) {
		if (rc != 0 || strncmp(key, ANNOTATION, strlen(ANNOTATION)))
			continue;
		name = key + strlen(ANNOTATION);
		str = json_object_get_string(val);
		f = policy_field("metadata.annotations", key);
		for (k = known; *k != NULL && strcmp(*k, name) != 0; k++)
			;
		if (*k == NULL) {
			policy_err(c, f, "unknown field: qmigrate reads %s"
			    "convergence, blockMigration, sharedStoragePaths, "
			    "disks, evictionStrategy, "
			    "terminationGracePeriodSeconds, progressTimeout, "
			    "parallelMigrationThreads and disableTLS",
			    ANNOTATION);
			rc = -1;
		} else if (strcmp(name, "evictionStrategy") == 0) {
			v = json_object_new_string(str);
			rc = policy_get_choice(c, f, v, policy_strategies,
			    NITEMS(policy_strategies),
			    POLICY_STRATEGIES_EXPECTED, &choice);
			json_object_put(v);
			p->eviction = (enum eviction_strategy)choice;
			p->eviction_set = 1;
		} else if (strcmp(name, "terminationGracePeriodSeconds") == 0) {
			v = anno_value(c, f, str, PV_U64, POLICY_MAX_TIMEOUT);
			rc = v == NULL ? -1 : policy_get_uint(c, f, v, 0,
			    POLICY_MAX_TIMEOUT, &p->termination_grace_seconds);
			json_object_put(v);
			p->grace_set = 1;
		} else {
			mf = mig_settings_field(name);
			v = anno_value(c, f, str, mf->value, mf->max);
			rc = v == NULL ? -1 : policy_read_field(c, f, v, mf,
			    &p->migration, &p->migration.set);
			json_object_put(v);
		}
		free(f);
	}
	return rc;
}

/*
 * spec.experimental (ExperimentalMigrationOptions) into s: stallDetector
 * and downtimeTuning read as KubeVirt's types (its defaults for what is
 * not given; mutually exclusive, as its admission says), compression
 * checked.  Issue 33 read that KubeVirt accepts the pair: its webhook did
 * until the downtime tuning's feature gate (KubeVirt main, 2026-07-23);
 * since then migrationpolicy-admitter.go refuses it ("the stall detection
 * path manages its own downtime schedule"), and its monitor never ran both
 * (live-migration-source.go: the stall detector, else downtime tuning
 * beside the classic rules), as ctl-kubevirt.c does for a pair that comes
 * from the KubeVirt CR and a policy together.  Until the convergence
 * controllers carry them out, they and compression: zstd are listed as
 * unapplied.
 */
static int
kube_experimental(struct policy_ctx *c, const char *base,
    struct json_object *x, struct mig_settings *s, char **unapplied)
{
	static const char *const known[] = { "compression", "stallDetector",
	    "downtimeTuning", NULL };
	static const struct policy_keyword compressions[] = {
		{ "none", 0 }, { "zstd", 1 },
	};
	struct json_object	*v, *sd = NULL, *dt = NULL;
	char			*f;
	int			 zstd, err;

	if (policy_check_object(c, base, x, known) != 0)
		return -1;
	if (json_object_object_get_ex(x, "compression", &v)) {
		f = policy_field(base, "compression");
		err = policy_get_choice(c, f, v, compressions,
		    NITEMS(compressions), "\"none\" or \"zstd\"", &zstd);
		if (err == 0 && zstd)
			add_unapplied(unapplied, f);
		free(f);
		if (err != 0)
			return -1;
	}
	if (json_object_object_get_ex(x, "stallDetector", &sd) &&
	    json_object_object_get_ex(x, "downtimeTuning", &dt) &&
	    sd != NULL && dt != NULL) {
		policy_err(c, base, "stallDetector and downtimeTuning are "
		    "mutually exclusive: the stall detector manages its own "
		    "downtime schedule (KubeVirt's admission refuses both)");
		return -1;
	}
	/* Carried out by the kubevirt controller (ctl-kubevirt.c). */
	return mig_experimental_read(c, base, x, s);
}

/* bandwidthPerMigration: a Kubernetes quantity of bytes/s. */
static int
read_quantity(struct policy_ctx *c, const char *f, struct json_object *v,
    const struct policy_field *pf, void *out)
{
	return policy_get_quantity(c, f, v, pf->max, out);
}

#define MIG(key, read, v, min, max, m, bit) \
	POLICY_FIELD(struct mig_settings, key, read, v, min, max, m, bit)

/*
 * The fields a MigrationPolicy's spec and a KubeVirt object's
 * spec.configuration.migrations share (VMMigrationConfiguration), with
 * their MIG_SET_ bits, in the order they are read.  KubeVirt refuses
 * only a negative completionTimeoutPerGiB (an int64).
 */
static const struct policy_field kube_migration_fields[] = {
	MIG("allowAutoConverge", policy_read_bool, PV_BOOL, 0, 0,
	    allow_auto_converge, MIG_SET_AUTO_CONVERGE),
	MIG("bandwidthPerMigration", read_quantity, PV_U64, 0,
	    POLICY_MAX_BANDWIDTH,
	    bandwidth, MIG_SET_BANDWIDTH),
	MIG("completionTimeoutPerGiB", policy_read_uint, PV_U64, 0,
	    INT64_MAX,
	    completion_timeout_per_gib, MIG_SET_COMPLETION),
	MIG("maxDowntimeMs", policy_read_uint, PV_U64, 1,
	    POLICY_MAX_DOWNTIME_MS,
	    max_downtime_ms, MIG_SET_DOWNTIME),
	MIG("allowPostCopy", policy_read_bool, PV_BOOL, 0, 0,
	    allow_post_copy, MIG_SET_POST_COPY),
	MIG("allowWorkloadDisruption", policy_read_bool, PV_BOOL, 0, 0,
	    allow_workload_disruption, MIG_SET_DISRUPTION),
};

#undef MIG

/* Those fields of o (at base, "spec") into s. */
static int
kube_migration_settings(struct policy_ctx *c, const char *base,
    struct json_object *o, struct mig_settings *s)
{
	if (policy_read_fields(c, base, o, kube_migration_fields,
	    NITEMS(kube_migration_fields), s, &s->set) != 0)
		return -1;
	if (!(s->set & MIG_SET_DISRUPTION))
		s->allow_workload_disruption = s->allow_post_copy;
	return 0;
}

/* Appends a new policy (built-in defaults, nothing set) to set. */
static struct policy *
new_policy(struct policy_set *set, struct policy_ctx *c, const char *name,
    long item)
{
	struct policy *p;

	if (set->npolicies == POLICY_MAX_FILES) {
		policy_err(c, NULL, "more than %d policies", POLICY_MAX_FILES);
		return NULL;
	}
	set->policies = xreallocarray(set->policies, set->npolicies + 1,
	    sizeof *set->policies);
	p = &set->policies[set->npolicies++];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->file = xstrdup(c->file);
	p->doc = c->doc;
	p->item = item;
	p->eviction = POLICY_DEFAULT_EVICTION;
	p->termination_grace_seconds = POLICY_DEFAULT_GRACE_SECONDS;
	policy_defaults(&p->migration);
	return p;
}

/*
 * A MigrationPolicy (migrations.kubevirt.io/v1alpha1); an item of a
 * MigrationPolicyList (implied) may leave its apiVersion out.
 */
static int
kube_migration_policy(struct policy_set *set, struct policy_ctx *c,
    struct json_object *o, long item, int implied)
{
	static const char *const known[] = { "apiVersion", "kind", "metadata",
	    "spec", "status", NULL };
	static const char *const spec_known[] = { "selectors",
	    "allowAutoConverge", "bandwidthPerMigration",
	    "completionTimeoutPerGiB", "maxDowntimeMs", "allowPostCopy",
	    "allowWorkloadDisruption", "experimental", NULL };
	static const char *const sel_known[] = { "namespaceSelector",
	    "virtualMachineInstanceSelector", NULL };
	static const char *const versions[] = { MP_API, NULL };
	struct json_object	*spec, *sel, *v, *annotations;
	struct policy		*p;
	const char		*name;

	if ((!implied || json_object_object_get_ex(o, "apiVersion", NULL)) &&
	    kube_api(c, o, "MigrationPolicy", versions) != 0)
		return -1;
	if (policy_check_known(c, NULL, o, known) != 0 ||
	    kube_meta(c, o, &name, 1, &annotations) != 0)
		return -1;
	if (!json_object_object_get_ex(o, "spec", &spec)) {
		policy_err(c, "spec",
		    "missing: a MigrationPolicy needs a spec with "
		    "selectors");
		return -1;
	}
	if (policy_check_object(c, "spec", spec, spec_known) != 0)
		return -1;
	if ((p = new_policy(set, c, name, item)) == NULL)
		return -1;
	/*
	 * Required by KubeVirt's schema, yet its controller reads a policy
	 * without selectors (or with null) as one that matches no VMI: so
	 * does qmigrate (policy explain says so).  A null selector inside
	 * is an absent one.
	 */
	if (!json_object_object_get_ex(spec, "selectors", &sel) ||
	    sel == NULL)
		p->selectors_absent = 1;
	else if (policy_check_object(c, "spec.selectors", sel, sel_known) != 0)
		return -1;
	if (!p->selectors_absent && json_object_object_get_ex(sel,
	    "virtualMachineInstanceSelector", &v) && v != NULL &&
	    policy_get_labels(c,
	    "spec.selectors.virtualMachineInstanceSelector",
	    v, &p->selector, &p->nselector) != 0)
		return -1;
	if (!p->selectors_absent && json_object_object_get_ex(sel,
	    "namespaceSelector", &v) && v != NULL &&
	    policy_get_labels(c, "spec.selectors.namespaceSelector", v,
	    &p->ns_selector, &p->nns_selector) != 0)
		return -1;
	if (kube_migration_settings(c, "spec", spec, &p->migration) != 0)
		return -1;
	if (json_object_object_get_ex(spec, "experimental", &v) &&
	    kube_experimental(c, "spec.experimental", v, &p->migration,
	    &p->unapplied) != 0)
		return -1;
	return kube_annotations(c, annotations, p);
}

/* spec.configuration.migrations of a KubeVirt object: the defaults. */
static int
kube_cluster_migrations(struct policy_ctx *c, struct json_object *m,
    struct cluster_config *cl)
{
	static const char *const known[] = { "nodeDrainTaintKey",
	    "parallelOutboundMigrationsPerNode", "parallelMigrationsPerCluster",
	    "allowAutoConverge", "bandwidthPerMigration",
	    "completionTimeoutPerGiB", "maxDowntimeMs", "progressTimeout",
	    "utilityVolumesTimeout", "unsafeMigrationOverride", "allowPostCopy",
	    "allowWorkloadDisruption", "disableTLS", "network",
	    "matchSELinuxLevelOnMigration", NULL };
	static const char *const base = "spec.configuration.migrations";
	struct mig_settings	 s;
	struct json_object	*v;
	uint64_t		 u;
	char			*f;
	int			 rc = -1, b, err;

	if (policy_check_object(c, base, m, known) != 0)
		return -1;
	policy_defaults(&s);
	if (kube_migration_settings(c, base, m, &s) != 0)
		goto out;
	json_object_object_foreach(m, key, val) {
		f = policy_field(base, key);
		v = val;
		if (strcmp(key, "progressTimeout") == 0) {
			err = policy_get_uint(c, f, v, 0, POLICY_MAX_TIMEOUT,
			    &s.progress_timeout);
			s.set |= MIG_SET_PROGRESS;
		} else if (strcmp(key, "disableTLS") == 0) {
			err = policy_get_bool(c, f, v, &s.disable_tls);
			s.set |= MIG_SET_DISABLE_TLS;
		} else if (strcmp(key, "parallelMigrationsPerCluster") == 0) {
			err = policy_get_uint(c, f, v, 1, MAX_PARALLEL, &u);
			cl->parallel_per_cluster = u;
		} else if (strcmp(key,
		    "parallelOutboundMigrationsPerNode") == 0) {
			err = policy_get_uint(c, f, v, 1, MAX_PARALLEL, &u);
			cl->parallel_outbound_per_node = u;
		} else if (strcmp(key, "utilityVolumesTimeout") == 0) {
			err = policy_get_uint(c, f, v, 0, INT64_MAX, &u);
			add_unapplied(&cl->unapplied, f);
		} else if (strcmp(key, "unsafeMigrationOverride") == 0 ||
		    strcmp(key, "matchSELinuxLevelOnMigration") == 0) {
			err = policy_get_bool(c, f, v, &b);
			add_unapplied(&cl->unapplied, f);
		} else if (strcmp(key, "nodeDrainTaintKey") == 0 ||
		    strcmp(key, "network") == 0) {
			err = policy_get_string(c, f, v, 0,
			    253) == NULL ? -1 : 0;
			add_unapplied(&cl->unapplied, f);
		} else
			err = 0;	/* read by kube_migration_settings() */
		free(f);
		if (err != 0)
			goto out;
	}
	mig_settings_overlay(&cl->migration, &s);
	rc = 0;
out:
	mig_settings_free(&s);
	return rc;
}

/*
 * A KubeVirt object (kubevirt.io/v1): its spec.configuration is the
 * cluster's defaults.  The other fields of KubeVirt's spec are accepted
 * (by name: a typo is still an error) and not read.
 */
static int
kube_kubevirt(struct policy_set *set, struct policy_ctx *c,
    struct json_object *o)
{
	static const char *const known[] = { "apiVersion", "kind", "metadata",
	    "spec", "status", NULL };
	static const char *const spec_known[] = { "imageTag", "imageRegistry",
	    "imagePullPolicy", "imagePullSecrets", "monitorNamespace",
	    "serviceMonitorNamespace", "monitorAccount",
	    "workloadUpdateStrategy", "uninstallStrategy",
	    "certificateRotateStrategy", "productVersion", "productName",
	    "productComponent", "synchronizationPort", "configuration",
	    "infra", "workloads", "customizeComponents", NULL };
	static const char *const conf_known[] = { "cpuModel", "cpuRequest",
	    "developerConfiguration", "emulatedMachines", "imagePullPolicy",
	    "migrations", "machineType", "network", "ovmfPath",
	    "selinuxLauncherType", "defaultRuntimeClass", "smbios",
	    "architectureConfiguration", "evictionStrategy",
	    "additionalGuestMemoryOverheadRatio", "supportContainerResources",
	    "supportedGuestAgentVersions", "memBalloonStatsPeriod",
	    "permittedHostDevices", "mediatedDevicesConfiguration",
	    "minCPUModel", "obsoleteCPUModels",
	    "virtualMachineInstancesPerNode", "apiConfiguration",
	    "webhookConfiguration", "controllerConfiguration",
	    "handlerConfiguration", "tlsConfiguration",
	    "seccompConfiguration", "vmStateStorageClass",
	    "virtualMachineOptions", "ksmConfiguration",
	    "autoCPULimitNamespaceLabelSelector", "liveUpdateConfiguration",
	    "vmRolloutStrategy", "commonInstancetypesDeployment",
	    "virtTemplateDeployment", "instancetype", "hypervisors",
	    "changedBlockTrackingLabelSelectors",
	    "persistentReservationConfiguration", "confidentialCompute",
	    "roleAggregationStrategy", NULL };
	static const char *const versions[] = { "kubevirt.io/v1",
	    "kubevirt.io/v1alpha3", NULL };
	struct cluster_config	*cl = &set->cluster;
	struct json_object	*spec, *conf, *v, *annotations;
	const char		*name;
	int			 choice, rc;

	if (kube_api(c, o, "KubeVirt", versions) != 0 ||
	    policy_check_known(c, NULL, o, known) != 0 ||
	    kube_meta(c, o, &name, 1, &annotations) != 0)
		return -1;
	if (cl->file != NULL) {
		policy_err(c, NULL,
		    "a second KubeVirt object (\"%s\"): \"%s\" in %s "
		    "already gives the cluster's defaults", name, cl->name,
		    cl->file);
		return -1;
	}
	if (annotations != NULL) {
		json_object_object_foreach(annotations, akey, aval) {
			char *f;

			(void)aval;
			if (strncmp(akey, ANNOTATION, strlen(ANNOTATION)) != 0)
				continue;
			f = policy_field("metadata.annotations", akey);
			policy_err(c, f, "qmigrate reads its annotations on "
			    "MigrationPolicy objects only");
			free(f);
			return -1;
		}
	}
	cl->file = xstrdup(c->file);
	cl->name = xstrdup(name);
	if ((rc = policy_get_object(c, NULL, o, "spec", spec_known,
	    &spec)) <= 0 || (rc = policy_get_object(c, "spec", spec,
	    "configuration", conf_known, &conf)) <= 0)
		return rc;
	if (json_object_object_get_ex(conf, "evictionStrategy", &v)) {
		if (policy_get_choice(c, "spec.configuration.evictionStrategy",
		    v, policy_strategies, NITEMS(policy_strategies),
		    POLICY_STRATEGIES_EXPECTED, &choice) != 0)
			return -1;
		cl->eviction = (enum eviction_strategy)choice;
	}
	if (json_object_object_get_ex(conf, "migrations", &v) &&
	    kube_cluster_migrations(c, v, cl) != 0)
		return -1;
	return 0;
}

/* A Namespace (v1): its labels, for policies' namespaceSelector. */
static int
kube_namespace(struct policy_set *set, struct policy_ctx *c,
    struct json_object *o)
{
	static const char *const known[] = { "apiVersion", "kind", "metadata",
	    "spec", "status", NULL };
	static const char *const versions[] = { "v1", NULL };
	struct kube_namespace	*ns;
	struct json_object	*m, *v;
	const char		*name;
	size_t			 i;

	if (kube_api(c, o, "Namespace", versions) != 0 ||
	    policy_check_known(c, NULL, o, known) != 0 ||
	    kube_meta(c, o, &name, 0, NULL) != 0)
		return -1;
	for (i = 0; i < set->nnamespaces; i++) {
		if (strcmp(set->namespaces[i].name, name) == 0) {
			policy_err(c, "metadata.name",
			    "duplicate Namespace \"%s\", "
			    "also defined in %s", name,
			    set->namespaces[i].file);
			return -1;
		}
	}
	if (set->nnamespaces == POLICY_MAX_FILES) {
		policy_err(c, NULL, "more than %d namespaces",
		    POLICY_MAX_FILES);
		return -1;
	}
	set->namespaces = xreallocarray(set->namespaces, set->nnamespaces + 1,
	    sizeof *set->namespaces);
	ns = &set->namespaces[set->nnamespaces++];
	memset(ns, 0, sizeof *ns);
	ns->name = xstrdup(name);
	ns->file = xstrdup(c->file);
	json_object_object_get_ex(o, "metadata", &m);
	if (json_object_object_get_ex(m, "labels", &v))
		return policy_get_labels(c, "metadata.labels", v, &ns->labels,
		    &ns->nlabels);
	return 0;
}

static int kube_object(struct policy_set *, struct policy_ctx *,
    struct json_object *, long, const char *);

/* kind: List (v1) or MigrationPolicyList: every item in turn. */
static int
kube_list(struct policy_set *set, struct policy_ctx *c, struct json_object *o,
    const char *kind)
{
	static const char *const known[] = { "apiVersion", "kind", "metadata",
	    "items", NULL };
	static const char *const v1[] = { "v1", NULL };
	static const char *const mp[] = { MP_API, NULL };
	struct json_object	*items;
	struct policy_ctx		 ic = *c;
	char			 base[32];
	size_t			 i, n;
	int			 typed = strcmp(kind, "List") != 0;

	if (kube_api(c, o, kind, typed ? mp : v1) != 0 ||
	    policy_check_known(c, NULL, o, known) != 0)
		return -1;
	if (!json_object_object_get_ex(o, "items", &items) ||
	    json_object_is_type(items, json_type_null))
		return 0;
	if (!json_object_is_type(items, json_type_array)) {
		policy_err_got(c, "items", "an array of objects", items);
		return -1;
	}
	n = json_object_array_length(items);
	for (i = 0; i < n; i++) {
		snprintf(base, sizeof base, "items[%zu]", i);
		ic.base = base;
		if (kube_object(set, &ic, json_object_array_get_idx(items, i),
		    (long)i, typed ? "MigrationPolicy" : NULL) != 0)
			return -1;
	}
	return 0;
}

/*
 * One object by its kind (or implied, the items of a MigrationPolicyList
 * may leave it out).  item is its index in a list, or -1.
 */
static int
kube_object(struct policy_set *set, struct policy_ctx *c, struct json_object *o,
    long item, const char *implied)
{
	struct json_object	*v;
	const char		*kind;

	if (!json_object_is_type(o, json_type_object)) {
		policy_err_got(c, NULL, "an object", o);
		return -1;
	}
	if (json_object_object_get_ex(o, "kind", &v)) {
		if ((kind = policy_get_string(c, "kind", v, 1, 64)) == NULL)
			return -1;
	} else if ((kind = implied) == NULL) {
		policy_err(c, "kind",
		    "missing: MigrationPolicy, KubeVirt, Namespace "
		    "or List");
		return -1;
	}
	if (strcmp(kind, "MigrationPolicy") == 0)
		return kube_migration_policy(set, c, o, item, kind == implied);
	if (item < 0 && (strcmp(kind, "List") == 0 ||
	    strcmp(kind, "MigrationPolicyList") == 0))
		return kube_list(set, c, o, kind);
	if (strcmp(kind, "KubeVirt") == 0)
		return kube_kubevirt(set, c, o);
	if (strcmp(kind, "Namespace") == 0)
		return kube_namespace(set, c, o);
	if (strcmp(kind, "VirtualMachineInstance") == 0 ||
	    strcmp(kind, "VirtualMachine") == 0) {
		policy_err(c, "kind",
		    "a %s does not belong with the policies: give "
		    "it with --vmi FILE", kind);
		return -1;
	}
	policy_err(c, "kind",
	    "expected MigrationPolicy, KubeVirt, Namespace or "
	    "List%s, got \"%.64s\"", item < 0 ? "" : " (not nested)", kind);
	return -1;
}

/*
 * Reads one document of a policy file (number doc, 1-based) holding a
 * KubeVirt object into set.  Returns 0, or -1 with *cause ("policy FILE:
 * document N: FIELD: ...").
 */
int
policy_kube_doc(struct policy_set *set, const char *file, size_t doc,
    int yaml, struct json_object *o, char **cause)
{
	struct policy_ctx c = {
		.what = "policy", .file = file, .doc = doc, .yaml = yaml,
		.cause = cause
	};

	return kube_object(set, &c, o, -1, NULL);
}
