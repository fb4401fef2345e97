/*
 * policy-parse.h: the typed field readers shared by qmigrate's JSON
 * policies (policy-load.c), KubeVirt's manifests (policy-kube.c) and a
 * --vmi manifest (kube-vmi.c).  Each refuses a wrong type or range with
 * one line naming the file, the document and the field.
 */
#ifndef POLICY_PARSE_H
#define POLICY_PARSE_H

#include <stddef.h>
#include <stdint.h>

struct json_object;
struct label;
struct mig_settings;

/* Ranges of the numeric fields; policies/README.md documents them. */
#define MAX_BANDWIDTH		(1ULL << 40)	/* 1 TiB/s */
#define MAX_TIMEOUT		86400ULL	/* a day */
#define MAX_DOWNTIME_MS		2000000ULL	/* QEMU's limit, 2000 s */
#define MAX_MULTIFD		64
#define MAX_SHARED_PATHS	64
#define MAX_DISKS		64
#define MAX_NAME_LEN		253
#define MAX_LABEL_LEN		253

/* Where errors go and what they name: "WHAT FILE: document N: BASE.FIELD". */
struct pctx {
	const char	*what;		/* "policy", "vmi", ... */
	const char	*file;
	size_t		 doc;		/* 1-based; 0: not named */
	const char	*base;		/* field prefix ("items[2]"), or NULL */
	int		 yaml;		/* read from YAML: hint at quoting */
	char	       **cause;
};

/* One accepted string of a field that takes a fixed set of names. */
struct choice {
	const char	*name;
	int		 value;
};

void	 perr(struct pctx *, const char *field, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 perr_got(struct pctx *, const char *field, const char *expected,
	    struct json_object *);
char	*json_got(struct json_object *);
char	*pfield(const char *prefix, const char *key);
int	 get_uint(struct pctx *, const char *field, struct json_object *,
	    uint64_t min, uint64_t max, uint64_t *out);
int	 get_bool(struct pctx *, const char *field, struct json_object *,
	    int *out);
int	 get_choice(struct pctx *, const char *field, struct json_object *,
	    const struct choice *, size_t n, const char *expected, int *out);
const char *get_string(struct pctx *, const char *field,
	    struct json_object *, size_t minlen, size_t maxlen);
int	 get_quantity(struct pctx *, const char *field, struct json_object *,
	    uint64_t max, uint64_t *out);
int	 check_object(struct pctx *, const char *field, struct json_object *);
int	 check_known(struct pctx *, const char *prefix, struct json_object *,
	    const char *const *known);
int	 get_labels(struct pctx *, const char *field, struct json_object *,
	    struct label **out, size_t *n);
int	 get_shared_paths(struct pctx *, const char *field,
	    struct json_object *, struct mig_settings *);
int	 get_disks(struct pctx *, const char *field, struct json_object *,
	    struct mig_settings *);

/* The choices of the enumerated fields. */
extern const struct choice policy_strategies[4];
extern const struct choice policy_convergences[2];
extern const struct choice policy_block_migrations[3];
#define STRATEGIES_EXPECTED \
	"\"None\", \"LiveMigrate\", \"LiveMigrateIfPossible\" or \"External\""

#endif
