/*
 * policy-load.c: reads a policy file or directory into a policy_set:
 * qmigrate's own JSON shape (one policy per file, comments allowed) and
 * KubeVirt's manifests in YAML or JSON (policy-kube.c), checking every
 * field.
 *
 * Input is untrusted in the sense that an operator's typo must never turn
 * into a silently different migration: unknown fields, wrong types and
 * out-of-range values are refused with the file, the document and the
 * field named, and a directory with one bad file is refused whole.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"
#include "policy-parse.h"

static int
name_ok(const char *s)
{
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' ||
		    *s == '_'))
			return 0;
	return 1;
}

void
policy_clear(struct policy *p)
{
	free(p->name);
	free(p->file);
	labels_free(p->selector, p->nselector);
	labels_free(p->ns_selector, p->nns_selector);
	mig_settings_free(&p->migration);
	free(p->unapplied);
	memset(p, 0, sizeof *p);
}

/* Fills p from a document of qmigrate's shape; p may be left partial. */
static int
parse_policy(struct policy_ctx *c, struct json_object *o, struct policy *p)
{
	static const char *const known[] = {
		"name", "selector", "evictionStrategy",
		"terminationGracePeriodSeconds", "migration", NULL
	};
	static const char *const sel_known[] = { "labels", NULL };
	struct json_object	*v, *labels;
	const char		*str;
	int			 choice;

	if (!json_object_is_type(o, json_type_object)) {
		policy_err_got(c, NULL, "a JSON object", o);
		return -1;
	}
	if (policy_check_known(c, NULL, o, known) != 0)
		return -1;

	if (!json_object_object_get_ex(o, "name", &v)) {
		policy_err(c, "name", "missing: every policy needs a name");
		return -1;
	}
	if ((str = policy_get_string(c, "name", v, 1,
	    POLICY_MAX_NAME_LEN)) == NULL)
		return -1;
	if (!name_ok(str)) {
		policy_err_got(c, "name", "letters, digits, '-', '.' or '_'",
		    v);
		return -1;
	}
	p->name = xstrdup(str);

	if (json_object_object_get_ex(o, "selector", &v)) {
		if (policy_check_object(c, "selector", v, sel_known) != 0)
			return -1;
		if (json_object_object_get_ex(v, "labels", &labels) &&
		    (json_object_is_type(labels, json_type_null) ||
		    policy_get_labels(c, "selector.labels", labels,
		    &p->selector, &p->nselector) != 0)) {
			if (json_object_is_type(labels, json_type_null))
				policy_err_got(c, "selector.labels",
				    "an object of "
				    "label names to string values", labels);
			return -1;
		}
	}
	if (json_object_object_get_ex(o, "evictionStrategy", &v)) {
		if (policy_get_choice(c, "evictionStrategy", v,
		    policy_strategies,
		    NITEMS(policy_strategies), POLICY_STRATEGIES_EXPECTED,
		    &choice) != 0)
			return -1;
		p->eviction = (enum eviction_strategy)choice;
		p->eviction_set = 1;
	}
	if (json_object_object_get_ex(o, "terminationGracePeriodSeconds",
	    &v)) {
		if (policy_get_uint(c, "terminationGracePeriodSeconds", v, 0,
		    POLICY_MAX_TIMEOUT, &p->termination_grace_seconds) != 0)
			return -1;
		p->grace_set = 1;
	}
	if (json_object_object_get_ex(o, "migration", &v) &&
	    mig_settings_read(c, "migration", v, &p->migration) != 0)
		return -1;
	return 0;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

/*
 * A new empty set: no policies, KubeVirt's defaults for the cluster.
 */
struct policy_set *
policy_set_new(const char *path)
{
	struct policy_set *set = xcalloc(1, sizeof *set);

	set->path = xstrdup(path);
	policy_defaults(&set->cluster.migration);
	set->cluster.eviction = POLICY_DEFAULT_EVICTION;
	set->cluster.parallel_per_cluster = CLUSTER_DEFAULT_PARALLEL;
	set->cluster.parallel_outbound_per_node = CLUSTER_DEFAULT_OUTBOUND;
	return set;
}

void
policy_set_free(struct policy_set *set)
{
	size_t i;

	if (set == NULL)
		return;
	for (i = 0; i < set->npolicies; i++)
		policy_clear(&set->policies[i]);
	free(set->policies);
	for (i = 0; i < set->nnamespaces; i++) {
		free(set->namespaces[i].name);
		free(set->namespaces[i].file);
		labels_free(set->namespaces[i].labels,
		    set->namespaces[i].nlabels);
	}
	free(set->namespaces);
	free(set->cluster.file);
	free(set->cluster.name);
	free(set->cluster.unapplied);
	mig_settings_free(&set->cluster.migration);
	free(set->path);
	free(set);
}

/* A policy of qmigrate's JSON shape, appended to set. */
static int
load_json_policy(struct policy_set *set, const char *path, size_t doc,
    int yaml, struct json_object *o, char **cause)
{
	struct policy_ctx	 c = {
		.what = "policy", .file = path, .doc = doc, .yaml = yaml,
		.cause = cause
	};
	struct policy		*p;

	if (set->npolicies == POLICY_MAX_FILES) {
		policy_err(&c, NULL, "more than %d policies", POLICY_MAX_FILES);
		return -1;
	}
	set->policies = xreallocarray(set->policies, set->npolicies + 1,
	    sizeof *set->policies);
	p = &set->policies[set->npolicies++];
	memset(p, 0, sizeof *p);
	p->eviction = POLICY_DEFAULT_EVICTION;
	p->termination_grace_seconds = POLICY_DEFAULT_GRACE_SECONDS;
	policy_defaults(&p->migration);
	p->file = xstrdup(path);
	p->doc = doc;
	p->item = -1;
	return parse_policy(&c, o, p);
}

/*
 * Loads every document of one file into set: KubeVirt objects (those
 * with a kind or an apiVersion) through policy-kube.c, anything else as a
 * policy of qmigrate's shape.  Returns 0 or -1.
 */
static int
load_file(struct policy_set *set, const char *path, char **cause)
{
	struct yaml_docs	 docs;
	struct json_object	*o;
	size_t			 i;
	int			 yaml, rc = 0;

	if ((yaml = policy_read_docs("policy", path, &docs, cause)) == -1)
		return -1;
	for (i = 0; i < docs.n && rc == 0; i++) {
		o = docs.docs[i];
		if (o == NULL)
			continue;	/* an empty document, as kubectl */
		if (json_object_is_type(o, json_type_object) &&
		    (json_object_object_get_ex(o, "kind", NULL) ||
		    json_object_object_get_ex(o, "apiVersion", NULL)))
			rc = policy_kube_doc(set, path, i + 1, yaml, o, cause);
		else
			rc = load_json_policy(set, path, yaml ? i + 1 : 0,
			    yaml, o, cause);
	}
	yaml_docs_free(&docs);
	return rc;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
cmp_policy(const void *a, const void *b)
{
	return strcmp(((const struct policy *)a)->name,
	    ((const struct policy *)b)->name);
}

/*
 * Lists the *.json, *.yaml and *.yml files of dir, sorted, skipping hidden
 * names (editors' files and Kubernetes' ..data links).  Returns 0 or -1.
 */
static int
list_dir(const char *dir, char ***namesp, size_t *np, char **cause)
{
	DIR		*d;
	struct dirent	*de;
	char	       **names = NULL;
	size_t		 n = 0, i;

	if ((d = opendir(dir)) == NULL) {
		xasprintf(cause, "policy %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((errno = 0, de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    !(has_suffix(de->d_name, ".json") ||
		    has_suffix(de->d_name, ".yaml") ||
		    has_suffix(de->d_name, ".yml")))
			continue;
		if (n == POLICY_MAX_FILES) {
			xasprintf(cause, "policy %s: more than %d policy files",
			    dir, POLICY_MAX_FILES);
			goto fail;
		}
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	if (errno != 0) {
		xasprintf(cause, "policy %s: %s", dir, strerror(errno));
		goto fail;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, cmp_str);
	*namesp = names;
	*np = n;
	return 0;
fail:
	closedir(d);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return -1;
}

/* The context of an error about p as a whole (its name, its selectors). */
static void
policy_pctx(const struct policy *p, struct policy_ctx *c, char *base,
    size_t len, char **cause)
{
	memset(c, 0, sizeof *c);
	c->what = "policy";
	c->file = p->file;
	c->doc = p->doc;
	c->cause = cause;
	if (p->item >= 0) {
		snprintf(base, len, "items[%ld]", p->item);
		c->base = base;
	}
}

/*
 * Refuses a name defined twice, in load order, so the message names the
 * later one.  Two policies with identical selectors are accepted, as
 * KubeVirt's admission does (its controller picks the smaller name).
 * Returns 0 or -1.
 */
static int
check_set(const struct policy_set *set, char **cause)
{
	const struct policy	*p, *q;
	struct policy_ctx		 c;
	char			 base[32], *origin;
	size_t			 i, j;

	for (i = 0; i < set->npolicies; i++) {
		p = &set->policies[i];
		for (j = 0; j < i; j++) {
			q = &set->policies[j];
			policy_pctx(p, &c, base, sizeof base, cause);
			origin = policy_origin(q);
			if (strcmp(p->name, q->name) == 0) {
				policy_err(&c,
				    p->doc == 0 ? "name" : "metadata.name",
				    "duplicate name \"%s\", also defined in %s",
				    p->name, origin);
				free(origin);
				return -1;
			}
			free(origin);
		}
	}
	return 0;
}

/*
 * Loads a policy file, or every *.json, *.yaml and *.yml file of a
 * directory.  All or nothing: the first bad file (or a name or a selector
 * defined twice) fails the whole set.  Returns a set sorted by name, to
 * free with policy_set_free(), or NULL with *cause set.  An empty
 * directory gives an empty set.
 */
struct policy_set *
policy_load(const char *path, char **cause)
{
	struct policy_set	*set;
	struct stat		 st;
	char		       **names = NULL, *file;
	size_t			 nnames = 0, i;
	int			 failed = 0;

	if (stat(path, &st) == -1) {
		xasprintf(cause, "policy %s: %s", path, strerror(errno));
		return NULL;
	}
	set = policy_set_new(path);
	if (!S_ISDIR(st.st_mode))
		failed = load_file(set, path, cause) != 0;
	else if (list_dir(path, &names, &nnames, cause) != 0)
		failed = 1;
	for (i = 0; i < nnames; i++) {
		if (!failed) {
			if (path[strlen(path) - 1] == '/')
				xasprintf(&file, "%s%s", path, names[i]);
			else
				xasprintf(&file, "%s/%s", path, names[i]);
			failed = load_file(set, file, cause) != 0;
			free(file);
		}
		free(names[i]);
	}
	free(names);
	if (failed || check_set(set, cause) != 0) {
		policy_set_free(set);
		return NULL;
	}
	if (set->npolicies > 1)
		qsort(set->policies, set->npolicies, sizeof *set->policies,
		    cmp_policy);
	return set;
}

/*
 * Loads the --policy option's PATH, or POLICY_DEFAULT_DIR when path is
 * NULL.  A default directory that does not exist gives an empty set (every
 * VM gets the defaults, as in a cluster without MigrationPolicies); a PATH
 * the operator named must exist.  Same contract as policy_load().
 */
struct policy_set *
policy_load_or_default(const char *path, char **cause)
{
	struct stat st;

	if (path != NULL)
		return policy_load(path, cause);
	if (stat(POLICY_DEFAULT_DIR, &st) == -1 && errno == ENOENT)
		return policy_set_new(POLICY_DEFAULT_DIR);
	return policy_load(POLICY_DEFAULT_DIR, cause);
}
