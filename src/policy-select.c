/*
 * policy-select.c: which policy applies to a VM, by its labels and its
 * namespace's, with the precedence KubeVirt documents for MigrationPolicy;
 * the effective settings (the cluster's defaults refined by that policy,
 * the VMI's own evictionStrategy over both); and the VM's identity from
 * the command line (--label, --labels-file, --namespace-label,
 * --namespace-labels-file, --vmi).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"

/* Appends one line to *text (malloc'd, NULL at first). */
static void appendf(char **, const char *, ...)
	    __attribute__((format(printf, 2, 3)));

static void
appendf(char **text, const char *fmt, ...)
{
	va_list	 ap;
	char	*line, *joined;

	va_start(ap, fmt);
	xvasprintf(&line, fmt, ap);
	va_end(ap);
	if (*text == NULL) {
		*text = line;
		return;
	}
	xasprintf(&joined, "%s\n%s", *text, line);
	free(*text);
	free(line);
	*text = joined;
}

static const struct label *
label_find(const struct label *labels, size_t n, const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(labels[i].key, key) == 0)
			return &labels[i];
	return NULL;
}

/* The labels a VM's namespace has, and where they came from. */
struct ns_labels {
	const struct label	*labels;
	size_t			 n;
	const char		*source;	/* NULL: none known */
	char			*owned;		/* source text to free */
};

/*
 * The VM's namespace labels: those given on the command line, else the
 * labels of the Namespace manifest of set that has the --vmi's namespace
 * as its name, else none.
 */
static void
ns_labels_of(const struct policy_set *set, const struct vm_ident *vm,
    struct ns_labels *ns)
{
	size_t i;

	memset(ns, 0, sizeof *ns);
	if (vm == NULL)
		return;
	if (vm->ns_source != NULL) {
		ns->labels = vm->ns_labels;
		ns->n = vm->nns_labels;
		ns->source = vm->ns_source;
		return;
	}
	for (i = 0; set != NULL && vm->namespace != NULL &&
	    i < set->nnamespaces; i++) {
		if (strcmp(set->namespaces[i].name, vm->namespace) != 0)
			continue;
		ns->labels = set->namespaces[i].labels;
		ns->n = set->namespaces[i].nlabels;
		xasprintf(&ns->owned, "Namespace %s (%s)", vm->namespace,
		    set->namespaces[i].file);
		ns->source = ns->owned;
	}
}

/*
 * Whether every label of sel is among labels.  On a mismatch, *reason
 * (if not NULL) says which label failed, as "what" ("label", "namespace
 * label"); malloc'd.
 */
static int
selector_matches(const struct label *sel, size_t nsel,
    const struct label *labels, size_t n, const char *what, char **reason)
{
	const struct label	*l;
	size_t			 i;

	for (i = 0; i < nsel; i++) {
		l = label_find(labels, n, sel[i].key);
		if (l == NULL) {
			if (reason != NULL)
				xasprintf(reason, "%s %s is not set, the "
				    "policy wants \"%s\"", what, sel[i].key,
				    sel[i].value);
			return 0;
		}
		if (strcmp(l->value, sel[i].value) != 0) {
			if (reason != NULL)
				xasprintf(reason, "%s %s is \"%s\", the "
				    "policy wants \"%s\"", what, l->key,
				    l->value, sel[i].value);
			return 0;
		}
	}
	return 1;
}

/* Whether both selectors of p match (a policy applies only then). */
static int
policy_matches(const struct policy *p, const struct vm_ident *vm,
    const struct ns_labels *ns, char **reason)
{
	char *r = NULL;

	if (!selector_matches(p->selector, p->nselector,
	    vm != NULL ? vm->labels : NULL, vm != NULL ? vm->nlabels : 0,
	    "label", reason))
		return 0;
	if (selector_matches(p->ns_selector, p->nns_selector, ns->labels,
	    ns->n, "namespace label", reason != NULL ? &r : NULL))
		return 1;
	if (reason != NULL) {
		if (ns->source == NULL)
			xasprintf(reason, "%s (no namespace labels given: "
			    "--namespace-label, --namespace-labels-file, or a "
			    "Namespace manifest for the --vmi's namespace)", r);
		else
			xasprintf(reason, "%s (from %s)", r, ns->source);
		free(r);
	}
	return 0;
}

static int
cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of both selectors of p, sorted (byte order) into keys. */
static size_t
sorted_keys(const struct policy *p, const char **keys)
{
	size_t i, n = 0;

	for (i = 0; i < p->nselector; i++)
		keys[n++] = p->selector[i].key;
	for (i = 0; i < p->nns_selector; i++)
		keys[n++] = p->ns_selector[i].key;
	qsort(keys, n, sizeof *keys, cmp_key);
	return n;
}

/* How one matching policy beats another (policy_beats()). */
enum beat {
	BEAT_NOT,	/* it does not */
	BEAT_COUNT,	/* more matching labels */
	BEAT_KEYS,	/* as many; its sorted keys come first */
	BEAT_VMI,	/* the same keys; more of them are VMI labels */
	BEAT_NAME,	/* the same keys and sides; its name sorts first */
};

/*
 * Whether matching policy a beats matching policy b, by KubeVirt's
 * documented precedence: the most matching labels (VMI plus namespace:
 * since every label of a selector must match, the selectors' sizes); on a
 * tie, the policy whose matching label keys, sorted, come first
 * lexicographically.  Two policies can still tie if their keys are the
 * same but on different sides: then the one with more VMI labels wins
 * (KubeVirt puts VMI labels first), and last the smaller name (KubeVirt's
 * own last resort).
 */
static enum beat
policy_beats(const struct policy *a, const struct policy *b)
{
	const char	*ka[2 * POLICY_MAX_LABELS], *kb[2 * POLICY_MAX_LABELS];
	size_t		 na, nb, i;
	int		 c;

	na = a->nselector + a->nns_selector;
	nb = b->nselector + b->nns_selector;
	if (na != nb)
		return na > nb ? BEAT_COUNT : BEAT_NOT;
	sorted_keys(a, ka);
	sorted_keys(b, kb);
	for (i = 0; i < na; i++)
		if ((c = strcmp(ka[i], kb[i])) != 0)
			return c < 0 ? BEAT_KEYS : BEAT_NOT;
	if (a->nselector != b->nselector)
		return a->nselector > b->nselector ? BEAT_VMI : BEAT_NOT;
	return strcmp(a->name, b->name) < 0 ? BEAT_NAME : BEAT_NOT;
}

/* "k=v, k=v" (malloc'd); "" for none. */
static char *
labels_text(const struct label *l, size_t n)
{
	char	*text = xstrdup(""), *joined;
	size_t	 i;

	for (i = 0; i < n; i++) {
		xasprintf(&joined, "%s%s%s=%s", text, i == 0 ? "" : ", ",
		    l[i].key, l[i].value);
		free(text);
		text = joined;
	}
	return text;
}

/* What p's selectors name, for the explanation.  Malloc'd. */
static char *
selector_text(const struct policy *p)
{
	char *vmi, *ns, *out;

	if (p->nselector == 0 && p->nns_selector == 0)
		return xstrdup("empty selector, matches every VM");
	vmi = labels_text(p->selector, p->nselector);
	ns = labels_text(p->ns_selector, p->nns_selector);
	if (p->nns_selector == 0)
		out = xstrdup(vmi);
	else
		xasprintf(&out, "%s%snamespace %s", vmi,
		    p->nselector > 0 ? "; " : "", ns);
	free(vmi);
	free(ns);
	return out;
}

/* p's sorted keys as "a, b, c".  Malloc'd. */
static char *
keys_text(const struct policy *p)
{
	const char	*keys[2 * POLICY_MAX_LABELS];
	char		*text = xstrdup(""), *joined;
	size_t		 n, i;

	n = sorted_keys(p, keys);
	for (i = 0; i < n; i++) {
		xasprintf(&joined, "%s%s%s", text, i == 0 ? "" : ", ",
		    keys[i]);
		free(text);
		text = joined;
	}
	return text;
}

/* One line on why p lost to best (both match). */
static void
explain_loser(char **why, const struct policy *p, const struct policy *best)
{
	size_t	 n = p->nselector + p->nns_selector;
	char	*origin = policy_origin(p), *kp, *kb;

	switch (policy_beats(best, p)) {
	case BEAT_COUNT:
		appendf(why, "  policy \"%s\" (%s) matches %zu label%s, fewer "
		    "than \"%s\"", p->name, origin, n, n == 1 ? "" : "s",
		    best->name);
		break;
	case BEAT_KEYS:
		kp = keys_text(p);
		kb = keys_text(best);
		appendf(why, "  policy \"%s\" (%s) also matches %zu label%s, "
		    "but the matching keys of \"%s\" sort first (%s before "
		    "%s)", p->name, origin, n, n == 1 ? "" : "s", best->name,
		    kb, kp);
		free(kp);
		free(kb);
		break;
	case BEAT_VMI:
		appendf(why, "  policy \"%s\" (%s) also matches %zu label%s "
		    "with the same keys, but \"%s\" matches more VM labels",
		    p->name, origin, n, n == 1 ? "" : "s", best->name);
		break;
	case BEAT_NAME:
	case BEAT_NOT:
		appendf(why, "  policy \"%s\" (%s) also matches %zu label%s "
		    "with the same keys, but \"%s\" sorts first by name",
		    p->name, origin, n, n == 1 ? "" : "s", best->name);
		break;
	}
	free(origin);
}

/*
 * Picks the policy for a VM (vm may be NULL: no labels), by KubeVirt's
 * precedence (policy_beats()): a policy applies when every label of both
 * its selectors matches.  Returns NULL when none applies (or set is
 * NULL): the cluster's defaults apply.  If why is not NULL, *why receives
 * a malloc'd explanation, one line for the outcome and one per other
 * policy.
 */
const struct policy *
policy_select(const struct policy_set *set, const struct vm_ident *vm,
    char **why)
{
	const struct policy	*best = NULL, *p;
	struct ns_labels	 ns;
	size_t			 i, n;
	char			*reason, *sel, *origin;

	ns_labels_of(set, vm, &ns);
	for (i = 0; set != NULL && i < set->npolicies; i++) {
		p = &set->policies[i];
		if (!policy_matches(p, vm, &ns, NULL))
			continue;
		if (best == NULL || policy_beats(p, best) != BEAT_NOT)
			best = p;
	}
	if (why == NULL) {
		free(ns.owned);
		return best;
	}

	*why = NULL;
	if (set == NULL || set->npolicies == 0)
		appendf(why, "no policies loaded: the defaults apply");
	else if (best == NULL)
		appendf(why, "no policy matches: the defaults apply");
	else {
		sel = selector_text(best);
		origin = policy_origin(best);
		n = best->nselector + best->nns_selector;
		appendf(why, "policy \"%s\" (%s) applies: %zu label%s "
		    "matched (%s)", best->name, origin, n, n == 1 ? "" : "s",
		    sel);
		free(origin);
		free(sel);
	}
	for (i = 0; set != NULL && i < set->npolicies; i++) {
		p = &set->policies[i];
		if (p == best)
			continue;
		if (policy_matches(p, vm, &ns, &reason)) {
			explain_loser(why, p, best);
			continue;
		}
		origin = policy_origin(p);
		appendf(why, "  policy \"%s\" (%s) does not match: %s",
		    p->name, origin, reason);
		free(origin);
		free(reason);
	}
	free(ns.owned);
	return best;
}

/*
 * What applies to vm: the policy policy_select() picks; its settings over
 * the cluster's defaults (set's KubeVirt object, or KubeVirt's built-in
 * ones; set may be NULL); the eviction strategy and grace period of the
 * VMI's own spec, else the policy's qmigrate.io/ annotations, else the
 * cluster's (built-in: None, 30 s).  With explain, choice->why says why.
 * Free with policy_choice_free().
 */
void
policy_choose(const struct policy_set *set, const struct vm_ident *vm,
    struct policy_choice *choice, int explain)
{
	const struct policy	*p;
	struct ns_labels	 ns;

	memset(choice, 0, sizeof *choice);
	p = choice->policy = policy_select(set, vm, explain ? &choice->why :
	    NULL);
	if (set != NULL)
		mig_settings_copy(&choice->migration, &set->cluster.migration);
	else
		policy_defaults(&choice->migration);
	if (p != NULL)
		mig_settings_overlay(&choice->migration, &p->migration);

	if (vm != NULL && vm->eviction_set) {
		choice->eviction = vm->eviction;
		choice->eviction_from = "the VMI's spec.evictionStrategy";
	} else if (p != NULL && p->eviction_set) {
		choice->eviction = p->eviction;
		choice->eviction_from = "the policy";
	} else if (set != NULL && set->cluster.file != NULL) {
		choice->eviction = set->cluster.eviction;
		choice->eviction_from = "the KubeVirt object's "
		    "spec.configuration.evictionStrategy";
	} else {
		choice->eviction = POLICY_DEFAULT_EVICTION;
		choice->eviction_from = "the built-in default";
	}
	if (vm != NULL && vm->grace_set)
		choice->grace_seconds = vm->grace_seconds;
	else if (p != NULL && p->grace_set)
		choice->grace_seconds = p->termination_grace_seconds;
	else
		choice->grace_seconds = POLICY_DEFAULT_GRACE_SECONDS;

	ns_labels_of(set, vm, &ns);
	choice->ns_labels = ns.labels;
	choice->nns_labels = ns.n;
	if (ns.source != NULL && explain)
		appendf(&choice->why, "namespace labels from %s", ns.source);
	free(ns.owned);
}

void
policy_choice_free(struct policy_choice *choice)
{
	mig_settings_free(&choice->migration);
	free(choice->why);
	memset(choice, 0, sizeof *choice);
}

/*
 * Splits "KEY=VALUE" at the first '=' into out (both malloc'd: free with
 * labels_free()).  Returns 0, or -1 with *cause naming the label.
 */
int
labels_parse(const char *kv, struct label *out, char **cause)
{
	const char	*eq = strchr(kv, '=');
	char		*key;

	if (eq == NULL) {
		xasprintf(cause, "label \"%.64s\": expected KEY=VALUE", kv);
		return -1;
	}
	key = xstrndup(kv, (size_t)(eq - kv));
	if (!policy_label_key_ok(key)) {
		xasprintf(cause, "label \"%.64s\": bad label name: expected 1 "
		    "to 253 characters without spaces or control characters",
		    kv);
		free(key);
		return -1;
	}
	if (!policy_label_value_ok(eq + 1)) {
		xasprintf(cause, "label %s: bad value: expected at most 253 "
		    "characters without control characters", key);
		free(key);
		return -1;
	}
	out->key = key;
	out->value = xstrdup(eq + 1);
	return 0;
}

/*
 * Appends a copy of key=value to *labels (*n entries), refusing a key given
 * twice and more than POLICY_MAX_LABELS labels.  Returns 0 or -1.
 */
int
labels_add(struct label **labels, size_t *n, const char *key,
    const char *value, char **cause)
{
	if (label_find(*labels, *n, key) != NULL) {
		xasprintf(cause, "label %s: given twice", key);
		return -1;
	}
	if (*n >= POLICY_MAX_LABELS) {
		xasprintf(cause, "label %s: more than %d labels", key,
		    POLICY_MAX_LABELS);
		return -1;
	}
	*labels = xreallocarray(*labels, *n + 1, sizeof **labels);
	(*labels)[*n].key = xstrdup(key);
	(*labels)[*n].value = xstrdup(value);
	(*n)++;
	return 0;
}

void
labels_free(struct label *labels, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(labels[i].key);
		free(labels[i].value);
	}
	free(labels);
}

/* The labels as a JSON object.  Returns a new reference. */
struct json_object *
labels_to_json(const struct label *labels, size_t n)
{
	struct json_object	*o = json_object_new_object();
	size_t			 i;

	for (i = 0; i < n; i++)
		json_object_object_add(o, labels[i].key,
		    json_object_new_string(labels[i].value));
	return o;
}

/*
 * An object of label names to strings (at most POLICY_MAX_LABELS) into
 * *out and *n (free with labels_free()).  Errors read "WHAT PATH: ...".
 * Returns 0 or -1.
 */
int
labels_from_json(const char *what, const char *path, struct json_object *o,
    struct label **out, size_t *n, char **cause)
{
	struct label	*labels = NULL;
	size_t		 nlabels = 0;
	const char	*got;

	*out = NULL;
	*n = 0;
	if (!json_object_is_type(o, json_type_object)) {
		xasprintf(cause, "%s %s: expected an object of label names to "
		    "string values", what, path);
		return -1;
	}
	json_object_object_foreach(o, key, val) {
		if (nlabels >= POLICY_MAX_LABELS) {
			xasprintf(cause, "%s %s: more than %d labels", what,
			    path, POLICY_MAX_LABELS);
			goto fail;
		}
		if (!policy_label_key_ok(key)) {
			xasprintf(cause, "%s %s: \"%.64s\": bad label name: "
			    "expected 1 to 253 characters without spaces, '=' "
			    "or control characters", what, path, key);
			goto fail;
		}
		if (!json_object_is_type(val, json_type_string)) {
			got = json_object_to_json_string_ext(val,
			    JSON_C_TO_STRING_PLAIN);
			xasprintf(cause, "%s %s: %s: expected a string, got "
			    "%.64s", what, path, key, got);
			goto fail;
		}
		if (strlen(json_object_get_string(val)) !=
		    (size_t)json_object_get_string_len(val) ||
		    !policy_label_value_ok(json_object_get_string(val))) {
			xasprintf(cause, "%s %s: %s: bad value: expected at "
			    "most 253 characters without control characters",
			    what, path, key);
			goto fail;
		}
		labels = xreallocarray(labels, nlabels + 1, sizeof *labels);
		labels[nlabels].key = xstrdup(key);
		labels[nlabels].value = xstrdup(json_object_get_string(val));
		nlabels++;
	}
	*out = labels;
	*n = nlabels;
	return 0;
fail:
	labels_free(labels, nlabels);
	return -1;
}

/*
 * Reads a labels file: an object of strings, {"app": "db"}, in JSON
 * (comments allowed) or YAML, at most 1 MiB and POLICY_MAX_LABELS labels.
 * Sets *out and *n (free with labels_free()).  Returns 0 or -1 with
 * *cause naming the file and the label.
 */
int
labels_load_file(const char *path, struct label **out, size_t *n,
    char **cause)
{
	struct yaml_docs	docs;
	int			rc;

	*out = NULL;
	*n = 0;
	if (policy_read_docs("labels", path, &docs, cause) == -1)
		return -1;
	if (docs.n != 1 || docs.docs[0] == NULL) {
		xasprintf(cause, "labels %s: expected one object of label "
		    "names to string values", path);
		rc = -1;
	} else
		rc = labels_from_json("labels", path, docs.docs[0], out, n,
		    cause);
	yaml_docs_free(&docs);
	return rc;
}

/* Adds labels (n) to *to, refusing one given twice.  Returns 0 or -1. */
static int
labels_merge(struct label **to, size_t *nto, const struct label *labels,
    size_t n, char **cause)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (labels_add(to, nto, labels[i].key, labels[i].value,
		    cause) != 0)
			return -1;
	return 0;
}

static void
ns_source_add(struct vm_ident *vm, const char *source)
{
	char *joined;

	if (vm->ns_source == NULL) {
		vm->ns_source = xstrdup(source);
		return;
	}
	if (strstr(vm->ns_source, source) != NULL)
		return;
	xasprintf(&joined, "%s and %s", vm->ns_source, source);
	free(vm->ns_source);
	vm->ns_source = joined;
}

/*
 * One of the options that say what a VM is (option without its dashes):
 * label KEY=VALUE, labels-file FILE, namespace-label KEY=VALUE,
 * namespace-labels-file FILE, vmi FILE.  A label given twice (in any of
 * them) is refused.  Returns 0, or -1 with *cause.
 */
int
vm_ident_option(struct vm_ident *vm, const char *option, const char *arg,
    char **cause)
{
	struct label	 l, *labels = NULL;
	size_t		 n = 0;
	int		 ns = strncmp(option, "namespace-", 10) == 0, rc;

	if (strcmp(option, "vmi") == 0)
		return kube_vmi_load(arg, vm, cause);
	if (strcmp(option, "label") == 0 ||
	    strcmp(option, "namespace-label") == 0) {
		if (labels_parse(arg, &l, cause) != 0)
			return -1;
		labels = &l;
		n = 1;
		rc = 0;
	} else if (strcmp(option, "labels-file") == 0)
		rc = labels_load_file(arg, &labels, &n, cause);
	else if (strcmp(option, "namespace-labels-file") == 0)
		rc = kube_namespace_labels_load(arg, &labels, &n, cause);
	else
		fatalx("vm_ident_option: unknown option %s", option);
	if (rc == 0 && ns) {
		rc = labels_merge(&vm->ns_labels, &vm->nns_labels, labels, n,
		    cause);
		ns_source_add(vm, strcmp(option, "namespace-label") == 0 ?
		    "--namespace-label" : arg);
	} else if (rc == 0)
		rc = labels_merge(&vm->labels, &vm->nlabels, labels, n, cause);
	if (labels == &l) {
		free(l.key);
		free(l.value);
	} else
		labels_free(labels, n);
	return rc;
}

/* The options that say what a VM is: every command that selects a policy. */
const struct args_option vm_ident_options[] = {
	{ "label", ARGS_STRING, "K=V", ARGS_REPEAT, 0, 0,
	    "a label of the VM (its VMI's metadata.labels)", NULL },
	{ "labels-file", ARGS_STRING, "F", ARGS_REPEAT, 0, 0,
	    "the VM's labels: an object of strings, JSON or YAML", NULL },
	{ "namespace-label", ARGS_STRING, "K=V", ARGS_REPEAT, 0, 0,
	    "a label of the VM's namespace (for namespaceSelector)", NULL },
	{ "namespace-labels-file", ARGS_STRING, "F", ARGS_REPEAT, 0, 0,
	    "its namespace's labels: an object, or a kind: Namespace\n"
	    "manifest", NULL },
	{ "vmi", ARGS_STRING, "FILE", 0, 0, 0,
	    "a VirtualMachineInstance or VirtualMachine manifest: its\n"
	    "labels, namespace and spec.evictionStrategy (without\n"
	    "namespace labels, its namespace's are those of the Namespace\n"
	    "manifest of that name among the policies)", NULL },
	{ NULL, 0, NULL, 0, 0, 0, NULL, NULL }
};

/*
 * Fills vm from the options of vm_ident_options' names given in args, in
 * command-line order.  Returns 0, or -1 with *cause.
 */
int
vm_ident_from_args(struct vm_ident *vm, const struct args *args,
    char **cause)
{
	const struct args_option	*o;
	size_t				 i;

	memset(vm, 0, sizeof *vm);
	for (i = 0; i < args->n; i++) {
		for (o = vm_ident_options; o->name != NULL; o++)
			if (strcmp(args->values[i].opt->name, o->name) == 0)
				break;
		if (o->name == NULL)
			continue;
		if (vm_ident_option(vm, o->name, args->values[i].value,
		    cause) != 0) {
			vm_ident_free(vm);
			return -1;
		}
	}
	return 0;
}

void
vm_ident_free(struct vm_ident *vm)
{
	labels_free(vm->labels, vm->nlabels);
	labels_free(vm->ns_labels, vm->nns_labels);
	free(vm->ns_source);
	free(vm->vmi_file);
	free(vm->name);
	free(vm->namespace);
	memset(vm, 0, sizeof *vm);
}
