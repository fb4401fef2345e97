/*
 * mig-negotiate.c: what the two QEMUs of a migration can do together,
 * decided before any memory moves (issue 23).  Pure: each side's facts
 * (struct qemu_side: version, the capabilities query-migrate-capabilities
 * lists, RAM, machine type, CPU model, UUID) are read over QMP by the
 * caller; over tls: the offer carries the source's and the target answers
 * with what both can do.  Measured on QEMU 7.2.22, 10.0.13 and 11.1.3
 * (HACKING.md, "QEMU versions"):
 *
 *	postcopy-preempt	7.2, 10.0, 11.1: both sides, with post-copy
 *	multifd + post-copy	7.2 accepts it but the destination aborts when
 *				post-copy ends; 10.0 refuses it ("Postcopy is
 *				not yet compatible with multifd"); 11.1 does it
 *	validate-uuid		source only; the target compares with its own
 *	postcopy-blocktime	target only: the vCPUs' time blocked on faults
 *	zero-blocks		gone in 11.x; compress and block gone by 10.0
 *	dirty-limit, switchover-ack: from 8.1 (dirty-limit needs KVM's
 *				dirty ring); mapped-ram: from 9.0
 *	exit-on-error on migrate-incoming: from 9.1
 *	return-path		source only, 7.2, 10.0, 11.1: the target
 *				answers on it when the source's stream asks
 *				it to open one
 *	dirty-limit		source only; QEMU refuses it without KVM's
 *				dirty ring and with auto-converge (options.c,
 *				migrate_caps_check): mig_throttle_choose()
 *
 * A capability a QEMU does not list is never chosen.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-negotiate.h"

static const char *cap_names[MIG_CAP_COUNT] = {
	[MIG_CAP_EVENTS] = "events",
	[MIG_CAP_POSTCOPY_RAM] = "postcopy-ram",
	[MIG_CAP_MULTIFD] = "multifd",
	[MIG_CAP_AUTO_CONVERGE] = "auto-converge",
	[MIG_CAP_POSTCOPY_PREEMPT] = "postcopy-preempt",
	[MIG_CAP_VALIDATE_UUID] = "validate-uuid",
	[MIG_CAP_POSTCOPY_BLOCKTIME] = "postcopy-blocktime",
	[MIG_CAP_SWITCHOVER_ACK] = "switchover-ack",
	[MIG_CAP_DIRTY_LIMIT] = "dirty-limit",
	[MIG_CAP_MAPPED_RAM] = "mapped-ram",
	[MIG_CAP_ZERO_BLOCKS] = "zero-blocks",
	[MIG_CAP_COMPRESS] = "compress",
	[MIG_CAP_BLOCK] = "block",
	[MIG_CAP_RETURN_PATH] = "return-path",
};

static const char *
mig_cap_name(enum mig_cap c)
{
	return (size_t)c < NITEMS(cap_names) ? cap_names[c] : "unknown";
}

/* The capability called name, or MIG_CAP_COUNT for one qmigrate ignores. */
static enum mig_cap
cap_lookup(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < NITEMS(cap_names); i++)
		if (strcmp(name, cap_names[i]) == 0)
			return (enum mig_cap)i;
	return MIG_CAP_COUNT;
}

/*
 * The capabilities qmigrate knows among those of a query-migrate-
 * capabilities reply (borrowed: [{"capability": NAME, "state": B}, ...]),
 * as MIG_CAP_BIT()s.  Anything else in the reply is ignored.
 */
uint32_t
mig_caps_listed(json_object *reply)
{
	uint32_t	 caps = 0;
	enum mig_cap	 c;
	size_t		 i, n;

	if (!json_object_is_type(reply, json_type_array))
		return 0;
	n = json_object_array_length(reply);
	for (i = 0; i < n; i++) {
		c = cap_lookup(json_str_at(json_object_array_get_idx(reply, i),
		    "capability"));
		if (c != MIG_CAP_COUNT)
			caps |= MIG_CAP_BIT(c);
	}
	return caps;
}

static int
has(const struct qemu_side *q, enum mig_cap c)
{
	return (q->caps & MIG_CAP_BIT(c)) != 0;
}

static int
version_at_least(const struct qemu_side *q, int major, int minor)
{
	return q->major > major || (q->major == major && q->minor >= minor);
}

/*
 * Whether this QEMU runs multifd and post-copy together.  QEMU 10.1 lifted
 * 10.0's refusal (11.1 measured); 7.2 accepts the pair but the destination
 * aborts in yank_unregister_instance when post-copy ends.
 */
int
mig_multifd_postcopy_ok(const struct qemu_side *q)
{
	return version_at_least(q, 10, 1);
}

/*
 * Whether this QEMU's migrate-incoming takes "exit-on-error" (QEMU 9.1):
 * with false, a failed load leaves the target QEMU up, its query-migrate
 * "failed" with QEMU's reason in error-desc, instead of exiting with the
 * reason on its stderr only.  A QEMU whose version is not known gets
 * nothing it might refuse.
 */
int
mig_incoming_exit_on_error_ok(const struct qemu_side *q)
{
	return version_at_least(q, 9, 1);
}

/*
 * migrate-set-parameters' arguments for a new downtime limit on a source
 * QEMU of version major.minor: downtime-limit, and from QEMU 8.2
 * avail-switchover-bandwidth, the bandwidth (bytes/s) the controller
 * measured, when it is known (above 0): QEMU's own switchover estimate
 * then divides the remaining data by what the link really carried instead
 * of its latest momentary figure.  QEMU only estimates with it; it limits
 * nothing.  The caller owns the object.
 */
json_object *
mig_downtime_args(uint64_t downtime_ms, double bandwidth, int major,
    int minor)
{
	json_object *args = json_object_new_object();

	json_object_object_add(args, "downtime-limit",
	    json_object_new_uint64(downtime_ms));
	if (bandwidth >= 1 && (major > 8 || (major == 8 && minor >= 2)))
		json_object_object_add(args, "avail-switchover-bandwidth",
		    json_object_new_uint64(bandwidth < 1e18 ?
		    (uint64_t)bandwidth : (uint64_t)1e18));
	return args;
}

/* The side as the offer and the answer carry it (the caller puts it). */
json_object *
qemu_side_encode(const struct qemu_side *q)
{
	json_object	*o = json_object_new_object(), *caps;
	char		 version[48];
	size_t		 i;

	snprintf(version, sizeof version, "%d.%d.%d", q->major, q->minor,
	    q->micro);
	json_object_object_add(o, "version", json_object_new_string(version));
	caps = json_object_new_array();
	for (i = 0; i < NITEMS(cap_names); i++)
		if (q->caps & MIG_CAP_BIT(i))
			json_object_array_add(caps,
			    json_object_new_string(cap_names[i]));
	json_object_object_add(o, "capabilities", caps);
	if (q->ram_bytes != 0)
		json_object_object_add(o, "ramBytes",
		    json_object_new_uint64(q->ram_bytes));
	if (q->machine[0] != '\0')
		json_object_object_add(o, "machine",
		    json_object_new_string(q->machine));
	if (q->cpu_model[0] != '\0')
		json_object_object_add(o, "cpuModel",
		    json_object_new_string(q->cpu_model));
	if (q->uuid[0] != '\0')
		json_object_object_add(o, "uuid",
		    json_object_new_string(q->uuid));
	if (q->kvm >= 0)
		json_object_object_add(o, "kvm",
		    json_object_new_boolean(q->kvm));
	if (q->kvm == 1 && q->dirty_ring >= 0)
		json_object_object_add(o, "dirtyRing",
		    json_object_new_boolean(q->dirty_ring));
	if (q->vcpus > 0)
		json_object_object_add(o, "vcpus",
		    json_object_new_int(q->vcpus));
	if (q->has_devices) {
		json_object	*devs = json_object_new_array();
		char		*copy = xstrdup(q->devices), *p, *save = NULL;

		for (p = strtok_r(copy, " ", &save); p != NULL;
		    p = strtok_r(NULL, " ", &save))
			json_object_array_add(devs, json_object_new_string(p));
		free(copy);
		json_object_object_add(o, "devices", devs);
	}
	return o;
}

/*
 * A name from the peer into out (QEMU_SIDE_NAME_MAX + 1 bytes, or len):
 * 0, or -1 when it is not a string of printable ASCII that fits.  Absent
 * is "".
 */
static int
copy_name(json_object *o, const char *key, char *out, size_t len)
{
	json_object	*v;
	const char	*s;
	size_t		 i, n;

	out[0] = '\0';
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
	if ((n = strlen(s)) >= len)
		return -1;
	for (i = 0; i < n; i++)
		if (s[i] <= 0x20 || s[i] >= 0x7f)
			return -1;
	memcpy(out, s, n + 1);
	return 0;
}

/*
 * Reads a side from the peer (borrowed).  Returns 0, or -1 with *cause
 * naming the field that is wrong.  Capabilities qmigrate does not know are
 * ignored, as in mig_caps_listed().
 */
int
qemu_side_decode(json_object *o, struct qemu_side *q, char **cause)
{
	json_object	*v, *e;
	const char	*s;
	const char	*bad;
	enum mig_cap	 c;
	size_t		 i, n;

	memset(q, 0, sizeof *q);
	q->kvm = -1;
	bad = "is not an object";
	if (!json_object_is_type(o, json_type_object))
		goto bad;
	bad = "version: expected \"MAJOR.MINOR.MICRO\"";
	s = json_str_at(o, "version");
	if (s == NULL || sscanf(s, "%d.%d.%d", &q->major, &q->minor,
	    &q->micro) != 3 || q->major < 0 || q->minor < 0 || q->micro < 0)
		goto bad;
	bad = "capabilities: expected a list of names";
	if (!json_object_object_get_ex(o, "capabilities", &v) ||
	    !json_object_is_type(v, json_type_array) ||
	    (n = json_object_array_length(v)) > 256)
		goto bad;
	for (i = 0; i < n; i++) {
		e = json_object_array_get_idx(v, i);
		if (!json_object_is_type(e, json_type_string))
			goto bad;
		c = cap_lookup(json_object_get_string(e));
		if (c != MIG_CAP_COUNT)
			q->caps |= MIG_CAP_BIT(c);
	}
	bad = "ramBytes: expected a positive integer";
	if (json_object_object_get_ex(o, "ramBytes", &v)) {
		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) <= 0)
			goto bad;
		q->ram_bytes = json_object_get_uint64(v);
	}
	bad = "machine: expected a machine type name";
	if (copy_name(o, "machine", q->machine, sizeof q->machine) != 0)
		goto bad;
	bad = "cpuModel: expected a CPU model name";
	if (copy_name(o, "cpuModel", q->cpu_model, sizeof q->cpu_model) != 0)
		goto bad;
	bad = "uuid: expected a UUID";
	if (copy_name(o, "uuid", q->uuid, sizeof q->uuid) != 0 ||
	    (q->uuid[0] != '\0' && strlen(q->uuid) != 36))
		goto bad;
	bad = "kvm: expected true or false";
	if (json_object_object_get_ex(o, "kvm", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			goto bad;
		q->kvm = json_object_get_boolean(v);
	}
	/* Said only under KVM (qemu_side_encode()). */
	q->dirty_ring = q->kvm == 1 ? -1 : 0;
	bad = "dirtyRing: expected true or false";
	if (json_object_object_get_ex(o, "dirtyRing", &v)) {
		if (!json_object_is_type(v, json_type_boolean))
			goto bad;
		q->dirty_ring = json_object_get_boolean(v);
	}
	bad = "vcpus: expected 1 to 4096";
	if (json_object_object_get_ex(o, "vcpus", &v)) {
		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) < 1 ||
		    json_object_get_int64(v) > 4096)
			goto bad;
		q->vcpus = json_object_get_int(v);
	}
	bad = "devices: expected a list of device type names";
	if (json_object_object_get_ex(o, "devices", &v)) {
		if (!json_object_is_type(v, json_type_array) ||
		    (n = json_object_array_length(v)) > 256)
			goto bad;
		for (i = 0; i < n; i++) {
			char name[QEMU_SIDE_NAME_MAX + 1];
			json_object *holder = json_object_new_object();
			int r;

			json_object_object_add(holder, "d",
			    json_object_get(json_object_array_get_idx(v, i)));
			r = copy_name(holder, "d", name, sizeof name);
			json_object_put(holder);
			if (r != 0 || name[0] == '\0' ||
			    strlen(q->devices) + strlen(name) + 2 >
			    sizeof q->devices)
				goto bad;
			if (q->devices[0] != '\0')
				strcat(q->devices, " ");
			strcat(q->devices, name);
		}
		devices_sort(q->devices);
		q->has_devices = 1;
	}
	return 0;
bad:
	xasprintf(cause, "the peer's QEMU description: %s", bad);
	return -1;
}

/*
 * The machine types of a query-machines answer (borrowed), names and
 * aliases, space-separated into out (len bytes; those that do not fit are
 * left out).  Returns how many were written.
 */
int
machines_listed(json_object *reply, char *out, size_t len)
{
	const char	*keys[] = { "name", "alias" };
	const char	*name;
	size_t		 i, k, used = 0, n;
	int		 count = 0;

	if (len > 0)
		out[0] = '\0';
	if (!json_object_is_type(reply, json_type_array))
		return 0;
	for (i = 0; i < json_object_array_length(reply); i++)
		for (k = 0; k < NITEMS(keys); k++) {
			name = json_str_at(json_object_array_get_idx(reply, i),
			    keys[k]);
			if (name == NULL || (n = strlen(name)) == 0 ||
			    strchr(name, ' ') != NULL || used + n + 2 > len)
				continue;
			memcpy(out + used, name, n);
			used += n;
			out[used++] = ' ';
			out[used] = '\0';
			count++;
		}
	return count;
}

/*
 * Adds the types of the devices in a qom-list answer (borrowed: children
 * "child<TYPE>") to list (len bytes, space-separated; what does not fit is
 * left out).
 */
void
devices_add(json_object *reply, char *list, size_t len)
{
	const char	*t;
	size_t		 i, n, used = strlen(list);

	if (!json_object_is_type(reply, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(reply); i++) {
		t = json_str_at(json_object_array_get_idx(reply, i), "type");
		if (t == NULL || strncmp(t, "child<", 6) != 0)
			continue;
		t += 6;
		n = strcspn(t, ">");
		if (n == 0 || t[n] != '>' || memchr(t, ' ', n) != NULL ||
		    used + n + 2 > len)
			continue;
		if (used > 0)
			list[used++] = ' ';
		memcpy(list + used, t, n);
		used += n;
		list[used] = '\0';
	}
}

static int
cmp_words(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the space-separated words of list in place. */
void
devices_sort(char *list)
{
	char	*copy = xstrdup(list), *words[QEMU_SIDE_DEVICES_MAX / 2 + 1];
	char	*p, *save = NULL;
	size_t	 n = 0, i;

	for (p = strtok_r(copy, " ", &save); p != NULL && n < NITEMS(words);
	    p = strtok_r(NULL, " ", &save))
		words[n++] = p;
	qsort(words, n, sizeof *words, cmp_words);
	list[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(list, " ");
		strcat(list, words[i]);
	}
	free(copy);
}

/*
 * The difference of two sorted device lists: the words only in a into
 * only_a, those only in b into only_b (each len bytes, ", "-separated).
 */
static void
devices_diff(const char *a, const char *b, char *only_a, char *only_b,
    size_t len)
{
	char	*ca = xstrdup(a), *cb = xstrdup(b), *sa = NULL, *sb = NULL;
	char	*wa, *wb;
	int	 c;

	only_a[0] = only_b[0] = '\0';
	wa = strtok_r(ca, " ", &sa);
	wb = strtok_r(cb, " ", &sb);
	while (wa != NULL || wb != NULL) {
		c = wa == NULL ? 1 : wb == NULL ? -1 : strcmp(wa, wb);
		if (c < 0 || c > 0) {
			char *out = c < 0 ? only_a : only_b;

			snprintf(out + strlen(out), len - strlen(out), "%s%s",
			    *out != '\0' ? ", " : "", c < 0 ? wa : wb);
		}
		if (c <= 0)
			wa = strtok_r(NULL, " ", &sa);
		if (c >= 0)
			wb = strtok_r(NULL, " ", &sb);
	}
	free(ca);
	free(cb);
}

/* Whether name is one of the space-separated words of list. */
static int
listed(const char *list, const char *name)
{
	size_t		 n = strlen(name);
	const char	*p;

	for (p = list; (p = strstr(p, name)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Whether two strings are both known (not "") and differ. */
static int
known_and_differ(const char *a, const char *b)
{
	return a[0] != '\0' && b[0] != '\0' && strcmp(a, b) != 0;
}

/*
 * Whether the target QEMU can hold the guest the source runs, compared
 * before any memory moves: RAM size, machine type (and, with
 * target_machines, the target QEMU's machine types as machines_listed()
 * writes them, whether it knows the guest's), CPU model and UUID, each
 * only when both sides know it.  Returns 0, or -1 with reason (len bytes)
 * naming the first difference, target first: "target QEMU has 256 MiB of
 * RAM, the guest 384 MiB".
 */
int
qemu_side_compare(const struct qemu_side *src, const struct qemu_side *dst,
    const char *target_machines, char *reason, size_t len)
{
	if (src->ram_bytes != 0 && dst->ram_bytes != 0 &&
	    src->ram_bytes != dst->ram_bytes) {
		if (src->ram_bytes % (1024 * 1024) == 0 &&
		    dst->ram_bytes % (1024 * 1024) == 0)
			snprintf(reason, len, "target QEMU has %" PRIu64 " MiB "
			    "of RAM, the guest %" PRIu64 " MiB",
			    dst->ram_bytes >> 20, src->ram_bytes >> 20);
		else
			snprintf(reason, len, "target QEMU has %" PRIu64 " bytes "
			    "of RAM, the guest %" PRIu64, dst->ram_bytes,
			    src->ram_bytes);
		return -1;
	}
	if (known_and_differ(src->machine, dst->machine)) {
		if (target_machines != NULL && *target_machines != '\0' &&
		    !listed(target_machines, src->machine))
			snprintf(reason, len, "target QEMU runs machine type "
			    "%s, the guest %s, which the target QEMU %d.%d.%d "
			    "does not know: the guest needs a QEMU that has "
			    "it", dst->machine, src->machine, dst->major,
			    dst->minor, dst->micro);
		else
			snprintf(reason, len, "target QEMU runs machine type "
			    "%s, the guest %s: start the target with -machine "
			    "%s%s", dst->machine, src->machine, src->machine,
			    target_machines != NULL &&
			    *target_machines != '\0' ? " (it knows it)" : "");
		return -1;
	}
	if (known_and_differ(src->cpu_model, dst->cpu_model)) {
		snprintf(reason, len, "target QEMU's CPU model is %s, the "
		    "guest's %s", dst->cpu_model, src->cpu_model);
		return -1;
	}
	if (src->has_devices && dst->has_devices &&
	    strcmp(src->devices, dst->devices) != 0) {
		char only_src[256], only_dst[256];

		devices_diff(src->devices, dst->devices, only_src, only_dst,
		    sizeof only_src);
		if (only_dst[0] != '\0')
			snprintf(reason, len, "target QEMU has devices the "
			    "guest lacks: %s%s%s", only_dst, only_src[0] !=
			    '\0' ? "; and lacks the guest's: " : "", only_src);
		else
			snprintf(reason, len, "target QEMU lacks devices of the "
			    "guest: %s", only_src);
		return -1;
	}
	if (known_and_differ(src->uuid, dst->uuid)) {
		snprintf(reason, len, "target QEMU's UUID is %s, the guest's "
		    "%s: another VM's target", dst->uuid, src->uuid);
		return -1;
	}
	return 0;
}

/* Where mig_negotiate() writes: the reasons and the plan. */
struct decisions {
	json_object		*why;
	struct mig_plan		*plan;
};

/* The plan's flag for capability c, or NULL for one qmigrate leaves off. */
static int *
plan_flag(struct mig_plan *plan, enum mig_cap c)
{
	switch (c) {
	case MIG_CAP_POSTCOPY_RAM:
		return &plan->postcopy;
	case MIG_CAP_MULTIFD:
		return &plan->multifd;
	case MIG_CAP_POSTCOPY_PREEMPT:
		return &plan->postcopy_preempt;
	case MIG_CAP_POSTCOPY_BLOCKTIME:
		return &plan->postcopy_blocktime;
	case MIG_CAP_VALIDATE_UUID:
		return &plan->validate_uuid;
	default:
		return NULL;
	}
}

/*
 * Records one decision, "on: why" or "off: why" under the capability, and
 * sets the plan's flag for it to on.
 */
static void
decide(struct decisions *d, enum mig_cap c, int on, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void
decide(struct decisions *d, enum mig_cap c, int on, const char *fmt, ...)
{
	va_list	 ap;
	char	 text[256];
	char	*line;
	int	*flag;

	if ((flag = plan_flag(d->plan, c)) != NULL)
		*flag = on;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	xasprintf(&line, "%s: %s", on ? "on" : "off", text);
	json_object_object_add(d->why, mig_cap_name(c),
	    json_object_new_string(line));
	free(line);
}

/*
 * Which QEMU lacks c, into buf ("the source's QEMU 7.2.22 does not list
 * it"), or NULL when the source lists it and so does the target, or the
 * target is not known.
 */
static const char *
lacking(const struct qemu_side *src, const struct qemu_side *dst, int known,
    enum mig_cap c, char *buf, size_t len)
{
	int s = has(src, c), d = has(dst, c);

	if (s && (d || !known))
		return NULL;
	if (!s && !d)
		snprintf(buf, len, "neither QEMU lists it");
	else if (!s)
		snprintf(buf, len, "the source's QEMU %d.%d.%d does not list "
		    "it", src->major, src->minor, src->micro);
	else
		snprintf(buf, len, "the target's QEMU %d.%d.%d does not list "
		    "it", dst->major, dst->minor, dst->micro);
	return buf;
}

/*
 * return-path, source only: the source's "completed" then waits for the
 * target's word that it loaded the guest (QEMU's SHUT on the return path,
 * which the target sends once its load ended and its guest started:
 * process_incoming_migration_bh, then migration_incoming_state_destroy),
 * and a load the target fails reaches the source as "failed" instead of a
 * "completed" that says only that the stream was written.  The target
 * needs nothing set: the source's stream asks it to open the way back.
 */
static void
return_path_decide(struct decisions *d, const struct qemu_side *src)
{
	d->plan->return_path_listed = has(src, MIG_CAP_RETURN_PATH);
	d->plan->return_path = d->plan->return_path_listed;
	if (d->plan->return_path)
		decide(d, MIG_CAP_RETURN_PATH, 1, "the source completes only "
		    "once the target says it loaded the guest");
	else
		decide(d, MIG_CAP_RETURN_PATH, 0, "the source's QEMU does not "
		    "list it: its \"completed\" says only that it sent the "
		    "guest");
}

/*
 * Chooses the capabilities of one migration from what the policy wants
 * and what both QEMUs list, into plan's postcopy, multifd, channels,
 * postcopy_preempt, validate_uuid and postcopy_blocktime (the rest of plan
 * is left as it is).  target may be a side of which nothing is known (all
 * zero: a unix: migration has no control channel); only what needs no
 * target support is then chosen beyond what the policy asked.  Returns the
 * reasons, one "on: ..." or "off: ..." string per capability considered
 * (the caller owns it): what `check` and migrationConfiguration show.
 */
json_object *
mig_negotiate(const struct mig_wants *w, const struct qemu_side *src,
    const struct qemu_side *dst, struct mig_plan *plan)
{
	struct decisions	 d = { json_object_new_object(), plan };
	int			 known = dst->major != 0;
	const char		*no;
	char			 buf[128];

	/* post-copy: both sides set postcopy-ram. */
	if (!w->postcopy)
		decide(&d, MIG_CAP_POSTCOPY_RAM, 0, "the policy does not "
		    "allow post-copy");
	else if ((no = lacking(src, dst, known, MIG_CAP_POSTCOPY_RAM, buf,
	    sizeof buf)) != NULL)
		decide(&d, MIG_CAP_POSTCOPY_RAM, 0, "%s", no);
	else
		decide(&d, MIG_CAP_POSTCOPY_RAM, 1, "the policy allows "
		    "post-copy");

	/* multifd: both sides; with post-copy only where both run it. */
	plan->channels = 0;
	if (w->channels <= 0)
		decide(&d, MIG_CAP_MULTIFD, 0, "the policy sets no "
		    "parallelMigrationThreads");
	else if ((no = lacking(src, dst, known, MIG_CAP_MULTIFD, buf,
	    sizeof buf)) != NULL)
		decide(&d, MIG_CAP_MULTIFD, 0, "%s", no);
	else if (plan->postcopy && (!known || !mig_multifd_postcopy_ok(src) ||
	    !mig_multifd_postcopy_ok(dst))) {
		const struct qemu_side *old = !known ||
		    mig_multifd_postcopy_ok(src) ? dst : src;

		if (!known)
			decide(&d, MIG_CAP_MULTIFD, 0, "the policy allows "
			    "post-copy, and whether the other side's QEMU "
			    "runs multifd with post-copy is not known (no "
			    "control channel: use tls:); post-copy was kept because "
			    "it is what lets a busy guest finish");
		else if (old->major == 7)
			decide(&d, MIG_CAP_MULTIFD, 0, "the policy allows "
			    "post-copy and QEMU %d.%d.%d crashes the "
			    "destination when post-copy ends on a multifd "
			    "migration; post-copy was kept because it is "
			    "what lets a busy guest finish", old->major,
			    old->minor, old->micro);
		else
			decide(&d, MIG_CAP_MULTIFD, 0, "the policy allows "
			    "post-copy and QEMU %d.%d.%d refuses multifd with "
			    "post-copy (10.1 and later run both); post-copy "
			    "was kept because it is what lets a busy guest "
			    "finish", old->major, old->minor, old->micro);
	} else {
		plan->channels = w->channels;
		if (plan->postcopy)
			decide(&d, MIG_CAP_MULTIFD, 1, "%d channels, with "
			    "post-copy: QEMU %d.%d.%d and %d.%d.%d run both",
			    w->channels, src->major, src->minor, src->micro,
			    dst->major, dst->minor, dst->micro);
		else
			decide(&d, MIG_CAP_MULTIFD, 1, "%d channels",
			    w->channels);
	}

	/* postcopy-preempt: both sides, only with post-copy. */
	if (!plan->postcopy)
		decide(&d, MIG_CAP_POSTCOPY_PREEMPT, 0, "no post-copy");
	else if (!known)
		decide(&d, MIG_CAP_POSTCOPY_PREEMPT, 0, "the other "
		    "side's QEMU is not known (no control channel: use "
		    "tls:)");
	else if ((no = lacking(src, dst, known, MIG_CAP_POSTCOPY_PREEMPT,
	    buf, sizeof buf)) != NULL)
		decide(&d, MIG_CAP_POSTCOPY_PREEMPT, 0, "%s", no);
	else
		decide(&d, MIG_CAP_POSTCOPY_PREEMPT, 1, "post-copy is "
		    "allowed and both QEMUs list it: the target's page "
		    "faults are served on a channel of their own");

	/* postcopy-blocktime: the target's, to report the vCPUs' stall. */
	if (!plan->postcopy)
		decide(&d, MIG_CAP_POSTCOPY_BLOCKTIME, 0, "no post-copy");
	else if (!known || !has(dst, MIG_CAP_POSTCOPY_BLOCKTIME))
		decide(&d, MIG_CAP_POSTCOPY_BLOCKTIME, 0, "%s", !known ?
		    "the other side's QEMU is not known" : lacking(src, dst,
		    known, MIG_CAP_POSTCOPY_BLOCKTIME, buf, sizeof buf));
	else
		decide(&d, MIG_CAP_POSTCOPY_BLOCKTIME, 1, "the target "
		    "reports how long post-copy blocked the guest's vCPUs");

	/* validate-uuid: the source sends it, the target compares. */
	if (src->uuid[0] == '\0' || !known || dst->uuid[0] == '\0')
		decide(&d, MIG_CAP_VALIDATE_UUID, 0, "%s",
		    src->uuid[0] == '\0' ? "the source's QEMU has no UUID "
		    "(-uuid)" : !known ? "the other side's UUID is not known (no "
		    "control channel: use tls:)" : "the target's QEMU has no "
		    "UUID (-uuid)");
	else if (!has(src, MIG_CAP_VALIDATE_UUID))
		decide(&d, MIG_CAP_VALIDATE_UUID, 0, "the source's QEMU "
		    "%d.%d.%d does not list it", src->major, src->minor,
		    src->micro);
	else
		decide(&d, MIG_CAP_VALIDATE_UUID, 1, "both QEMUs know the "
		    "VM's UUID: the target refuses a stream from another VM");

	return_path_decide(&d, src);
	return d.why;
}

/* {"channel-type": TYPE, "addr": {unix socket PATH}} of uri unix:PATH. */
static json_object *
channel(const char *type, const char *uri)
{
	json_object *ch = json_object_new_object(), *addr;

	addr = json_object_new_object();
	json_object_object_add(addr, "transport",
	    json_object_new_string("socket"));
	json_object_object_add(addr, "type", json_object_new_string("unix"));
	json_object_object_add(addr, "path", json_object_new_string(
	    strncmp(uri, "unix:", 5) == 0 ? uri + 5 : uri));
	json_object_object_add(ch, "channel-type",
	    json_object_new_string(type));
	json_object_object_add(ch, "addr", addr);
	return ch;
}

/*
 * migrate's arguments for cpr-transfer (the channels argument, QEMU 8.2):
 * the main channel main_uri and the cpr channel cpr_uri, both unix:PATH;
 * migrate-incoming's with cpr_uri NULL (the main channel alone).  The
 * caller owns the object.
 */
json_object *
mig_channels_args(const char *main_uri, const char *cpr_uri)
{
	json_object *args = json_object_new_object();
	json_object *list = json_object_new_array();

	json_object_array_add(list, channel("main", main_uri));
	if (cpr_uri != NULL)
		json_object_array_add(list, channel("cpr", cpr_uri));
	json_object_object_add(args, "channels", list);
	return args;
}

/*
 * Whether a refusal of migrate-set-capabilities dirty-limit is QEMU's "no
 * dirty ring" (8.1-11.1: "dirty-limit requires KVM with accelerator
 * property 'dirty-ring-size' set"), not another (a migration running).
 */
int
mig_dirty_ring_refusal(const char *error)
{
	return error != NULL && strstr(error, "dirty-ring-size") != NULL;
}

/*
 * The throttle the controller of kind uses when the policy allows
 * throttling (allowAutoConverge), and why, into why ("dirty-limit: ...",
 * "auto-converge: ...", "none: ..."): dirty-limit (QEMU 8.1), which slows
 * only the vCPUs that dirty memory and only to the rate asked, where the
 * adaptive controller runs, the source's QEMU lists it and has KVM's dirty
 * ring, and the target's, when known, lists it too; else auto-converge,
 * which sleeps every vCPU.  The kubevirt controller is KubeVirt's:
 * auto-converge.  target may be a side of which nothing is known (major
 * 0: unix:); the capability is the source's alone, so the source decides.
 */
enum mig_throttle
mig_throttle_choose(enum ctl_kind kind, int allow_throttle,
    const struct qemu_side *src, const struct qemu_side *dst, char *why,
    size_t len)
{
	int known = dst->major != 0;
	char would[320];

	if (!allow_throttle) {
		/* What allowAutoConverge would give: the choice is seen. */
		(void)mig_throttle_choose(kind, 1, src, dst, would,
		    sizeof would);
		snprintf(why, len, "none: the policy does not allow "
		    "auto-converge (allowed, it would be %s)", would);
		return MIG_THROTTLE_NONE;
	}
	if (kind == CTL_KUBEVIRT) {
		snprintf(why, len, "auto-converge: the kubevirt controller "
		    "throttles as KubeVirt does (auto-converge)");
		return MIG_THROTTLE_AUTO_CONVERGE;
	}
	if (src->major == 0)
		snprintf(why, len, "auto-converge: the source's QEMU is not "
		    "known");
	else if (!has(src, MIG_CAP_DIRTY_LIMIT))
		snprintf(why, len, "auto-converge: the source's QEMU %d.%d.%d "
		    "does not offer dirty-limit (QEMU 8.1 and later do)",
		    src->major, src->minor, src->micro);
	else if (known && !has(dst, MIG_CAP_DIRTY_LIMIT))
		snprintf(why, len, "auto-converge: the target's QEMU %d.%d.%d "
		    "does not offer dirty-limit (QEMU 8.1 and later do)",
		    dst->major, dst->minor, dst->micro);
	else if (src->kvm == 0)
		snprintf(why, len, "auto-converge: TCG has no dirty ring "
		    "(dirty-limit needs KVM's)");
	else if (src->kvm < 0)
		snprintf(why, len, "auto-converge: whether the source's QEMU "
		    "runs KVM is not known (dirty-limit needs KVM's dirty "
		    "ring)");
	else if (src->dirty_ring == 0)
		snprintf(why, len, "auto-converge: KVM has no dirty ring "
		    "(start QEMU with -accel kvm,dirty-ring-size=4096 for "
		    "dirty-limit)%s%s", src->dirty_ring_why[0] != '\0' ?
		    ": " : "", src->dirty_ring_why);
	else if (src->dirty_ring < 0)
		snprintf(why, len, "auto-converge: whether KVM has a dirty "
		    "ring is not known%s%s", src->dirty_ring_why[0] != '\0' ?
		    ": " : "", src->dirty_ring_why);
	else {
		snprintf(why, len, "dirty-limit: %s and KVM has a dirty "
		    "ring (QEMU accepted the capability): only the vCPUs "
		    "that dirty memory are slowed, to the rate the "
		    "controller sets", known ? "both QEMUs offer it" :
		    "the source's QEMU offers it (the capability is the "
		    "source's alone; the target is not known)");
		return MIG_THROTTLE_DIRTY_LIMIT;
	}
	return MIG_THROTTLE_AUTO_CONVERGE;
}

/*
 * Puts the throttle chosen (mig_throttle_choose()) into plan (the
 * auto-converge and dirty-limit capabilities: QEMU refuses both at once)
 * and its reason into reasons (borrowed; NULL: none), as the dirty-limit
 * capability's.
 */
void
mig_throttle_apply(struct mig_plan *plan, enum mig_throttle t,
    const char *why, json_object *reasons)
{
	char *line;

	plan->dirty_limit = t == MIG_THROTTLE_DIRTY_LIMIT;
	plan->auto_converge = t == MIG_THROTTLE_AUTO_CONVERGE;
	snprintf(plan->throttle_why, sizeof plan->throttle_why, "%s", why);
	if (reasons == NULL)
		return;
	xasprintf(&line, "%s: %s", plan->dirty_limit ? "on" : "off",
	    plan->dirty_limit ? "the adaptive controller's throttle" : why);
	json_object_object_add(reasons, "dirty-limit",
	    json_object_new_string(line));
	free(line);
}
