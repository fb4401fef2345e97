/*
 * policy.h: the policy layer: labels, policies (qmigrate's JSON shape and
 * KubeVirt's MigrationPolicy), the cluster's defaults, the VM's identity
 * and what applies to it, and the functions of the layer's files, bottom
 * to top.  The settings themselves (struct mig_settings) are the
 * engine's, in qmigrate.h.
 */
#ifndef POLICY_H
#define POLICY_H

#include "qmigrate.h"

#define POLICY_MAX_LABELS 64

struct label {
	char	*key;
	char	*value;
};

/*
 * One policy: qmigrate's JSON shape or a KubeVirt MigrationPolicy, read
 * into the same model.  Its migration settings are over the built-in
 * defaults, with .set naming the fields it gives.
 */
struct policy {
	char			*name;
	char			*file;		/* where it was read from */
	size_t			 doc;		/* document number, 0: JSON shape */
	long			 item;		/* index in a kind: List, or -1 */
	struct label		*selector;	/* the VM's (VMI's) labels */
	size_t			 nselector;
	struct label		*ns_selector;	/* its namespace's labels */
	size_t			 nns_selector;
	int			 selectors_absent; /* no spec.selectors:
						    matches no VM */
	enum eviction_strategy	 eviction;
	int			 eviction_set;
	uint64_t		 termination_grace_seconds;
	int			 grace_set;
	struct mig_settings	 migration;
	char			*unapplied;	/* fields read, not carried out */
};

/* A kind: Namespace manifest of a policy directory: its labels by name. */
struct kube_namespace {
	char			*name;
	char			*file;
	struct label		*labels;
	size_t			 nlabels;
};

/*
 * What policies refine: KubeVirt's defaults, or a kind: KubeVirt
 * manifest's spec.configuration (migrations, evictionStrategy).
 */
struct cluster_config {
	char			*file;		/* NULL: built-in defaults */
	char			*name;
	struct mig_settings	 migration;	/* complete, over the defaults */
	enum eviction_strategy	 eviction;
	uint64_t		 parallel_per_cluster;	/* as given */
	uint64_t		 parallel_outbound_per_node;
	char			*unapplied;
};

/* Bounds on policy input and what applies when no policy matches. */
#define POLICY_DEFAULT_DIR	"/etc/qmigrate/policies.d"
#define POLICY_MAX_FILE_SIZE	(1024 * 1024)
#define POLICY_MAX_FILES	1000
#define POLICY_DEFAULT_EVICTION	EVICT_NONE	/* KubeVirt's cluster default */
#define POLICY_DEFAULT_GRACE_SECONDS 30		/* KubeVirt's VMI default */

#define CLUSTER_DEFAULT_PARALLEL	5	/* parallelMigrationsPerCluster */
#define CLUSTER_DEFAULT_OUTBOUND	2	/* ...OutboundMigrationsPerNode */

/*
 * Every policy of a file or directory, sorted by name (policy_load()),
 * with the namespaces and cluster defaults found beside them.
 */
struct policy_set {
	char			*path;
	struct policy		*policies;
	size_t			 npolicies;
	struct kube_namespace	*namespaces;
	size_t			 nnamespaces;
	struct cluster_config	 cluster;
};

/*
 * What selects a VM's policy and what its own manifest says: --label,
 * --labels-file, --namespace-label, --namespace-labels-file, --vmi.
 */
struct vm_ident {
	struct label		*labels;
	size_t			 nlabels;
	struct label		*ns_labels;
	size_t			 nns_labels;
	char			*ns_source;	/* the flag or file, or NULL */
	char			*vmi_file;
	char			*name;		/* the --vmi's metadata */
	char			*namespace;	/* its namespace's name */
	char			*namespace_from; /* what said so, or NULL */
	int			 eviction_set;	/* its spec.evictionStrategy */
	enum eviction_strategy	 eviction;
	int			 grace_set;
	uint64_t		 grace_seconds;
};

/* What applies to one VM (policy_choose()). */
struct policy_choice {
	const struct policy	*policy;	/* NULL: none matches */
	struct mig_settings	 migration;	/* effective; owned */
	enum eviction_strategy	 eviction;
	const char		*eviction_from;	/* which object said so */
	uint64_t		 grace_seconds;
	struct label		*ns_labels;	/* the namespace labels used
						   (owned) */
	size_t			 nns_labels;
	char			*why;		/* if asked: one line each */
};


/*
 * --vmim FILE: the VirtualMachineInstanceMigration a migration carries
 * out (kube-vmim.c).
 */
struct kube_vmim {
	char			*file;		/* NULL: no --vmim */
	struct json_object	*doc;		/* the manifest: owns the strings */
	const char		*name;		/* metadata.name */
	const char		*namespace;	/* metadata.namespace, or NULL */
	const char		*uid;		/* metadata.uid: the migrationUid */
	const char		*vmi_name;	/* spec.vmiName */
};

/*
 * The policy layer, bottom to top: labels.c and policy-read.c, then
 * policy-parse.c (policy-parse.h), policy-settings.c, KubeVirt's objects
 * (policy-kube.c, kube-vmi.c), policy-load.c, policy-select.c and
 * vm-ident.c.  Each file uses only those before it.
 */

/* labels.c */
const struct label *labels_find(const struct label *, size_t n,
	    const char *key);
int	 labels_key_ok(const char *key);
int	 labels_value_ok(const char *value);
int	 labels_parse(const char *kv, struct label *out, char **cause);
int	 labels_add(struct label **labels, size_t *n, const char *key,
	    const char *value, char **cause);
int	 labels_merge(struct label **to, size_t *nto, const struct label *,
	    size_t n, char **cause);
int	 labels_load_file(const char *path, struct label **out, size_t *n,
	    char **cause);
int	 labels_from_json(const char *what, const char *path,
	    struct json_object *, struct label **out, size_t *n,
	    char **cause);
void	 labels_free(struct label *labels, size_t n);
struct json_object *labels_to_json(const struct label *, size_t n);

/* json-dupkey.c */
int	 json_duplicate_key(const char *buf, size_t len, size_t *off,
	    char **key);

/* policy-read.c */
struct json_object *policy_read_json(const char *what, const char *path,
	    char **cause);
int	 policy_read_docs(const char *what, const char *path,
	    struct yaml_docs *, char **cause);

/* policy-settings.c */
void	 policy_defaults(struct mig_settings *);
void	 mig_settings_free(struct mig_settings *);
void	 mig_settings_copy(struct mig_settings *dst,
	    const struct mig_settings *src);
void	 mig_settings_overlay(struct mig_settings *dst,
	    const struct mig_settings *src);
int	 mig_settings_kubevirt_downtime(const struct mig_settings *);
uint64_t mig_settings_reported_downtime(const struct mig_settings *);
struct json_object *mig_settings_to_json(const struct mig_settings *);
struct json_object *policy_to_json(const struct policy *);
char	*policy_origin(const struct policy *);
int	 policy_parse_bandwidth(const char *s, uint64_t *out);
int	 policy_settings_field(size_t i, const char **key, unsigned *bit);

/* mig-flags.c: the per-run settings of the command line, over the policy. */
extern const struct args_option mig_flag_options[];
int	 mig_flags_from_args(const struct args *, struct mig_settings *flags,
	    char **cause);
void	 mig_flags_apply(struct mig_settings *, const struct mig_settings *flags);
struct json_object *mig_flags_sources(const struct mig_settings *flags,
	    const struct policy *, const struct cluster_config *);
const char *policy_eviction_name(enum eviction_strategy);

/* policy-kube.c: KubeVirt's objects in a policy file or directory */
int	 policy_kube_doc(struct policy_set *, const char *file, size_t doc,
	    int yaml, struct json_object *, char **cause);

/* kube-vmi.c: --vmi FILE, --namespace-labels-file FILE */
extern const char *const kube_meta_known[];
struct json_object *kube_one_document(const char *what, const char *path,
	    int *yaml, char **cause);
int	 kube_vmi_load(const char *path, struct vm_ident *, char **cause);
void	 vm_ident_free(struct vm_ident *);
int	 kube_vmi_conditions(const char *path, struct json_object **out,
	    char **cause);

/* kube-vmim.c: --vmim FILE */
extern const struct args_option kube_vmim_options[];
int	 kube_vmim_load(const char *path, struct kube_vmim *, char **cause);
int	 kube_vmim_check_vmi(const struct kube_vmim *,
	    const struct vm_ident *, char **cause);
void	 kube_vmim_identify(const struct kube_vmim *, struct status *);
void	 kube_vmim_free(struct kube_vmim *);
int	 kube_namespace_labels_load(const char *path, struct label **out,
	    size_t *n, char **name, char **cause);
int	 kube_namespace_set(struct vm_ident *, const char *name,
	    const char *from, char **cause);

/* policy-load.c */
struct policy_set *policy_set_new(const char *path);
struct policy_set *policy_load(const char *path, char **cause);
struct policy_set *policy_load_or_default(const char *path, char **cause);
void	 policy_set_free(struct policy_set *);
void	 policy_clear(struct policy *);

/* policy-select.c */
const struct policy *policy_select(const struct policy_set *,
	    const struct vm_ident *, char **why);
void	 policy_choose(const struct policy_set *, const struct vm_ident *,
	    struct policy_choice *, int explain);
void	 policy_choice_free(struct policy_choice *);

/* vm-ident.c */
int	 vm_ident_option(struct vm_ident *, const char *option,
	    const char *arg, char **cause);
extern const struct args_option vm_ident_options[];
int	 vm_ident_from_args(struct vm_ident *, const struct args *,
	    char **cause);

/* yaml-read.c */
#define YAML_MAX_DEPTH	64
struct yaml_docs {
	struct json_object	**docs;	/* NULL for an empty document */
	size_t			  n;
};
int	 yaml_read(const char *buf, size_t len, size_t max_docs,
	    struct yaml_docs *, char **cause);
void	 yaml_docs_free(struct yaml_docs *);

/* quantity.c */
int	 quantity_parse(const char *s, uint64_t max, uint64_t *out);
int	 quantity_parse_milli(const char *s, uint64_t max_milli,
	    uint64_t *milli);

#endif
