/*
 * policy-select.c: which policy applies to a VM, by its labels and its
 * namespace's, ranked as KubeVirt's controller ranks MigrationPolicies;
 * the effective settings (the cluster's defaults refined by that policy,
 * the VMI's own evictionStrategy over both).  The VM's identity comes
 * from the command line through vm-ident.c, on top of this file.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "policy.h"

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

/* The labels a VM's namespace has, and where they came from. */
struct ns_labels {
	struct label		*labels;	/* owned */
	size_t			 n;
	char			*source;	/* owned; NULL: none known */
};

/* The label the API server puts on every Namespace: its name. */
#define NS_NAME_LABEL	"kubernetes.io/metadata.name"

/*
 * The VM's namespace labels: those given on the command line, else the
 * labels of the Namespace manifest of set that has the VM's namespace as
 * its name, else none; and, when the namespace's name is known,
 * kubernetes.io/metadata.name with it, as the API server sets it on every
 * Namespace (unless the labels already have it).  Free with
 * ns_labels_free().
 */
static void
ns_labels_of(const struct policy_set *set, const struct vm_ident *vm,
    struct ns_labels *ns)
{
	const struct label	*from = NULL;
	size_t			 i, n = 0;
	char			*joined, *why = NULL;

	memset(ns, 0, sizeof *ns);
	if (vm == NULL)
		return;
	if (vm->ns_source != NULL) {
		from = vm->ns_labels;
		n = vm->nns_labels;
		ns->source = xstrdup(vm->ns_source);
	} else {
		for (i = 0; set != NULL && vm->namespace != NULL &&
		    i < set->nnamespaces; i++) {
			if (strcmp(set->namespaces[i].name,
			    vm->namespace) != 0)
				continue;
			from = set->namespaces[i].labels;
			n = set->namespaces[i].nlabels;
			xasprintf(&ns->source, "Namespace %s (%s)",
			    vm->namespace, set->namespaces[i].file);
		}
	}
	for (i = 0; i < n; i++)
		(void)labels_add(&ns->labels, &ns->n, from[i].key,
		    from[i].value, &why);
	free(why);
	if (vm->namespace == NULL ||
	    labels_find(ns->labels, ns->n, NS_NAME_LABEL) != NULL)
		return;
	why = NULL;
	if (labels_add(&ns->labels, &ns->n, NS_NAME_LABEL, vm->namespace,
	    &why) != 0) {
		free(why);	/* 64 labels already: the API server's limit */
		return;
	}
	xasprintf(&joined, "%s%s" NS_NAME_LABEL "=%s implied from %s",
	    ns->source != NULL ? ns->source : "", ns->source != NULL ?
	    ", and " : "", vm->namespace, vm->namespace_from != NULL ?
	    vm->namespace_from : "the namespace's name");
	free(ns->source);
	ns->source = joined;
}

static void
ns_labels_free(struct ns_labels *ns)
{
	labels_free(ns->labels, ns->n);
	free(ns->source);
	memset(ns, 0, sizeof *ns);
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
		l = labels_find(labels, n, sel[i].key);
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

	if (p->selectors_absent) {
		if (reason != NULL)
			*reason = xstrdup("it has no spec.selectors, and "
			    "KubeVirt's controller matches such a policy to "
			    "no VM");
		return 0;
	}
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
			    "--namespace-label, --namespace-labels-file, "
			    "--namespace, or a Namespace manifest for the "
			    "--vmi's namespace)", r);
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
	BEAT_COUNT,	/* more matching labels in all */
	BEAT_VMI,	/* as many; more of them are the VMI's */
	BEAT_NAME,	/* as many of each; its name sorts first */
};

/*
 * Whether matching policy a beats matching policy b, as KubeVirt's
 * controller ranks them (matchPolicy, virt-controller): the most matching
 * labels, VMI plus namespace (every label of a selector must match, so
 * the selectors' sizes); then the most matching VMI labels; then the
 * lexicographically smallest name.  Label keys are never compared.
 */
static enum beat
policy_beats(const struct policy *a, const struct policy *b)
{
	size_t na = a->nselector + a->nns_selector;
	size_t nb = b->nselector + b->nns_selector;

	if (na != nb)
		return na > nb ? BEAT_COUNT : BEAT_NOT;
	if (a->nselector != b->nselector)
		return a->nselector > b->nselector ? BEAT_VMI : BEAT_NOT;
	return strcmp(a->name, b->name) < 0 ? BEAT_NAME : BEAT_NOT;
}

/*
 * Whether a beats b by the rule KubeVirt's user guide documents instead:
 * on as many matching labels, the policy whose matching keys, sorted,
 * come first.  Only to say when it would pick another policy.
 */
static int
documented_beats(const struct policy *a, const struct policy *b)
{
	const char	*ka[2 * POLICY_MAX_LABELS], *kb[2 * POLICY_MAX_LABELS];
	size_t		 na, nb, i;
	int		 c;

	na = a->nselector + a->nns_selector;
	nb = b->nselector + b->nns_selector;
	if (na != nb)
		return na > nb;
	sorted_keys(a, ka);
	sorted_keys(b, kb);
	for (i = 0; i < na; i++)
		if ((c = strcmp(ka[i], kb[i])) != 0)
			return c < 0;
	return policy_beats(a, b) != BEAT_NOT;
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
	char	*origin = policy_origin(p);

	switch (policy_beats(best, p)) {
	case BEAT_COUNT:
		appendf(why, "  policy \"%s\" (%s) matches %zu label%s, fewer "
		    "than \"%s\"", p->name, origin, n, n == 1 ? "" : "s",
		    best->name);
		break;
	case BEAT_VMI:
		appendf(why, "  policy \"%s\" (%s) also matches %zu label%s, "
		    "but \"%s\" matches more of the VM's own (%zu, not %zu)",
		    p->name, origin, n, n == 1 ? "" : "s", best->name,
		    best->nselector, p->nselector);
		break;
	case BEAT_NAME:
	case BEAT_NOT:
		appendf(why, "  policy \"%s\" (%s) also matches %zu label%s, "
		    "%zu of them the VM's, but \"%s\" sorts first by name",
		    p->name, origin, n, n == 1 ? "" : "s", p->nselector,
		    best->name);
		break;
	}
	free(origin);
}

/*
 * Picks the policy for a VM (vm may be NULL: no labels) as KubeVirt's
 * controller does (policy_beats()): a policy applies when every label of
 * both its selectors matches (the namespace's include
 * kubernetes.io/metadata.name); one without spec.selectors never does.
 * Returns NULL when none applies (or set is NULL): the cluster's
 * defaults apply.  If why is not NULL, *why receives a malloc'd
 * explanation, one line for the outcome, one per other policy, and a note
 * when the user guide's rule would pick another policy.
 */
const struct policy *
policy_select(const struct policy_set *set, const struct vm_ident *vm,
    char **why)
{
	const struct policy	*best = NULL, *guide = NULL, *p;
	struct ns_labels	 ns;
	size_t			 i, n;
	char			*reason, *sel, *origin, *kb, *kg;

	ns_labels_of(set, vm, &ns);
	for (i = 0; set != NULL && i < set->npolicies; i++) {
		p = &set->policies[i];
		if (!policy_matches(p, vm, &ns, NULL))
			continue;
		if (best == NULL || policy_beats(p, best) != BEAT_NOT)
			best = p;
		if (guide == NULL || documented_beats(p, guide))
			guide = p;
	}
	if (why == NULL) {
		ns_labels_free(&ns);
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
	if (guide != best) {
		origin = policy_origin(guide);
		kb = keys_text(best);
		kg = keys_text(guide);
		appendf(why, "note: KubeVirt's user guide breaks a tie by the "
		    "sorted label keys and would pick \"%s\" (%s; keys %s "
		    "before %s); its controller, which qmigrate follows, "
		    "compares no keys", guide->name, origin, kg, kb);
		free(kg);
		free(kb);
		free(origin);
	}
	ns_labels_free(&ns);
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

	/*
	 * KubeVirt's default maxDowntimeMs bounds the downtime where it
	 * applies: under downtime tuning or the stall detector.
	 */
	if (choice->migration.max_downtime_ms == 0 &&
	    mig_settings_kubevirt_downtime(&choice->migration)) {
		choice->migration.max_downtime_ms =
		    KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS;
		if (explain)
			appendf(&choice->why, "maxDowntimeMs %d (KubeVirt's "
			    "default) bounds the downtime: downtimeTuning or "
			    "the stall detector is on",
			    KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS);
	} else if (explain && choice->migration.max_downtime_ms != 0)
		appendf(&choice->why, "maxDowntimeMs %llu bounds the "
		    "downtime", (unsigned long long)
		    choice->migration.max_downtime_ms);
	else if (explain)
		appendf(&choice->why, "maxDowntimeMs unset: KubeVirt reports "
		    "its default %d, which bounds the downtime only under "
		    "downtimeTuning or the stall detector; without them the "
		    "controller keeps its own ceiling (QEMU's 300 ms)",
		    KUBEVIRT_DEFAULT_MAX_DOWNTIME_MS);

	ns_labels_of(set, vm, &ns);
	choice->ns_labels = ns.labels;
	choice->nns_labels = ns.n;
	if (ns.source != NULL && explain)
		appendf(&choice->why, "namespace labels from %s", ns.source);
	free(ns.source);
}

void
policy_choice_free(struct policy_choice *choice)
{
	mig_settings_free(&choice->migration);
	labels_free(choice->ns_labels, choice->nns_labels);
	free(choice->why);
	memset(choice, 0, sizeof *choice);
}
