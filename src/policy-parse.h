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
#define POLICY_MAX_BANDWIDTH		(1ULL << 40)	/* 1 TiB/s */
#define POLICY_MAX_TIMEOUT		86400ULL	/* a day */
#define POLICY_MAX_DOWNTIME_MS		2000000ULL	/* QEMU's limit,
	    2000 s */
#define POLICY_MAX_MULTIFD		64
#define POLICY_MAX_SHARED_PATHS	64
#define POLICY_MAX_DISKS		64
#define POLICY_MAX_NAME_LEN		253
#define POLICY_MAX_LABEL_LEN		253

/* Where errors go and what they name: "WHAT FILE: document N: BASE.FIELD". */
struct policy_ctx {
	const char	*what;		/* "policy", "vmi", ... */
	const char	*file;
	size_t		 doc;		/* 1-based; 0: not named */
	const char	*base;		/* field prefix ("items[2]"), or NULL */
	int		 yaml;		/* read from YAML: hint at quoting */
	char	       **cause;
};

/* One accepted string of a field that takes a fixed set of names. */
struct policy_keyword {
	const char	*name;
	int		 value;
};

/*
 * What a field holds: how the status document writes it and an overlay
 * copies it (policy-settings.c).
 */
enum policy_value {
	PV_U64,		/* uint64_t */
	PV_INT,		/* int */
	PV_BOOL,	/* int, 0 or 1 */
	PV_FACTOR,	/* double, written as KubeVirt's quantity ("0.4") */
	PV_NAME,	/* an int (or enum) named by the field's names */
	PV_LIST		/* char **, NULL-terminated */
};

/*
 * A field of a settings record, read by policy_read_fields(): its key,
 * its reader (policy_read_uint() and friends, or the caller's own), what
 * it holds, what that reader takes (bounds, or names and what they say to
 * expect), where the value goes in the record (offsetof) and the bit it
 * sets in the record's set.
 */
struct policy_field {
	const char	*key;
	int		(*read)(struct policy_ctx *, const char *field,
			    struct json_object *, const struct policy_field *,
			    void *out);
	enum policy_value value;
	uint64_t	 min, max;
	const struct policy_keyword *names;
	size_t		 nnames;
	const char	*expected;
	size_t		 off;
	unsigned	 bit;
};

/*
 * A row: key K read by RD, a V within [LO, HI], into member M of TYPE,
 * bit B.
 */
#define POLICY_FIELD(type, k, rd, v, lo, hi, m, b) \
	{ .key = (k), .read = (rd), .value = (v), .min = (lo), .max = (hi), \
	    .off = offsetof(type, m), .bit = (b) }
/* A row of a field that takes one of the names NM (policy_read_choice()). */
#define POLICY_CHOICE(type, k, nm, expect, m, b) \
	{ .key = (k), .read = policy_read_choice, .value = PV_NAME, \
	    .names = (nm), .nnames = NITEMS(nm), .expected = (expect), \
	    .off = offsetof(type, m), .bit = (b) }

int	 policy_read_fields(struct policy_ctx *, const char *base,
	    struct json_object *, const struct policy_field *, size_t n,
	    void *record, unsigned *set);
int	 policy_read_field(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *record,
	    unsigned *set);
int	 policy_read_uint(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *out);
int	 policy_read_int(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *out);
int	 policy_read_bool(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *out);
int	 policy_read_choice(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *out);

void	 policy_err(struct policy_ctx *, const char *field,
	    const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 policy_err_got(struct policy_ctx *, const char *field,
	    const char *expected, struct json_object *);
char	*policy_field(const char *prefix, const char *key);
const char *policy_keyword_name(const struct policy_keyword *, size_t n,
	    int value);
int	 policy_get_uint(struct policy_ctx *, const char *field,
	    struct json_object *, uint64_t min, uint64_t max, uint64_t *out);
int	 policy_get_bool(struct policy_ctx *, const char *field,
	    struct json_object *, int *out);
int	 policy_get_choice(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_keyword *, size_t n,
	    const char *expected, int *out);
const char *policy_get_string(struct policy_ctx *, const char *field,
	    struct json_object *, size_t minlen, size_t maxlen);
int	 policy_get_member_string(struct policy_ctx *, const char *base,
	    struct json_object *, const char *key, size_t minlen,
	    size_t maxlen, const char **out);
int	 policy_get_factor(struct policy_ctx *, const char *field,
	    struct json_object *, uint64_t min_milli, int exclusive,
	    uint64_t max_milli, double *out);
int	 policy_get_quantity(struct policy_ctx *, const char *field,
	    struct json_object *, uint64_t max, uint64_t *out);
int	 policy_check_object(struct policy_ctx *, const char *field,
	    struct json_object *, const char *const *known);
int	 policy_get_object(struct policy_ctx *, const char *base,
	    struct json_object *, const char *key, const char *const *known,
	    struct json_object **out);
int	 policy_check_known(struct policy_ctx *, const char *prefix,
	    struct json_object *, const char *const *known);
int	 policy_get_labels(struct policy_ctx *, const char *field,
	    struct json_object *, struct label **out, size_t *n);
int	 policy_read_shared_paths(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *out);
void	 policy_strv_free(char **);
int	 policy_read_disks(struct policy_ctx *, const char *field,
	    struct json_object *, const struct policy_field *, void *out);

/* The choices of the enumerated fields. */
extern const struct policy_keyword policy_strategies[4];
extern const struct policy_keyword policy_convergences[2];
extern const struct policy_keyword policy_block_migrations[3];
#define POLICY_STRATEGIES_EXPECTED \
	"\"None\", \"LiveMigrate\", \"LiveMigrateIfPossible\" or \"External\""

/*
 * policy-settings.c: the settings' own objects, read by their field tables
 * (which also write and overlay them): qmigrate's migration section, and
 * KubeVirt's stallDetector and downtimeTuning of spec.experimental.  Each
 * refuses keys it does not know.
 */
int	 mig_settings_read(struct policy_ctx *, const char *base,
	    struct json_object *, struct mig_settings *);
int	 mig_experimental_read(struct policy_ctx *, const char *base,
	    struct json_object *, struct mig_settings *);
const struct policy_field *mig_settings_field(const char *key);

#endif
