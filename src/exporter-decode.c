/*
 * exporter-decode.c: what QEMU, the guest agent, the node's /proc and
 * /sys, and the status document say about a VM, into a struct
 * vm_snapshot (QEMU's query-migrate and query-status through mig-info.c,
 * the one decoder the session and watch use too).  Pure functions of a parsed reply or a buffer: every value
 * is range-checked (a negative counter, a string where a number belongs is
 * "not known", never a wrap-around), every string is cut to its field and
 * made valid UTF-8 (a guest controls what its agent says, and one bad byte
 * in a label would make Prometheus drop the whole scrape).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-info.h"
#include "observe.h"

void
snap_free(struct vm_snapshot *s)
{
	free(s->cpus);
	free(s->drives);
	free(s->nics);
	free(s->fs);
	free(s->guest_ifs);
	memset(s, 0, sizeof *s);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t	need, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4;
	else
		return 0;
	if (need > n)
		return 0;
	for (i = 1; i < need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong three-byte forms, surrogates, beyond U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return need;
}

/*
 * Copies src (NULL: "") into dst of size len, cut at a character boundary;
 * control characters and invalid UTF-8 become '?'.
 */
static void
copy_text(char *dst, size_t len, const char *src)
{
	const unsigned char	*s = (const unsigned char *)(src ? src : "");
	size_t			 o = 0, n, left = strlen((const char *)s);

	while (*s != '\0') {
		n = utf8_len(s, left);
		if (n == 0 || (n == 1 && (*s < 0x20 || *s == 0x7f))) {
			if (o + 1 >= len)
				break;
			dst[o++] = '?';
			s++;
			left--;
			continue;
		}
		if (o + n >= len)
			break;
		memcpy(dst + o, s, n);
		o += n;
		s += n;
		left -= n;
	}
	dst[o] = '\0';
}

static const char *
str_of(json_object *o, const char *key)
{
	return json_str_at(o, key);
}

/* A non-negative integer member; 0 when absent or of another type. */
static int
u64_of(json_object *o, const char *key, uint64_t *out)
{
	json_object	*v = json_obj_at(o, key);
	double		 d;
	int64_t		 i;

	if (v == NULL)
		return 0;
	if (json_object_is_type(v, json_type_int)) {
		i = json_object_get_int64(v);
		if (i < 0)
			return 0;
		/* json-c keeps values past INT64_MAX as unsigned. */
		*out = i == INT64_MAX ? json_object_get_uint64(v) :
		    (uint64_t)i;
		return 1;
	}
	if (json_object_is_type(v, json_type_double)) {
		d = json_object_get_double(v);
		if (!(d >= 0 && d < 1.8e19))
			return 0;
		*out = (uint64_t)d;
		return 1;
	}
	return 0;
}

static int
f64_of(json_object *o, const char *key, double *out)
{
	json_object	*v = json_obj_at(o, key);
	double		 d;

	if (v == NULL || !(json_object_is_type(v, json_type_int) ||
	    json_object_is_type(v, json_type_double)))
		return 0;
	d = json_object_get_double(v);
	if (!isfinite(d))
		return 0;
	*out = d;
	return 1;
}

static void
set_u64(struct snap_u64 *dst, json_object *o, const char *key)
{
	dst->have = u64_of(o, key, &dst->v);
}

static void
set_f64(struct snap_f64 *dst, json_object *o, const char *key, double scale,
    int nonneg)
{
	dst->have = f64_of(o, key, &dst->v) && (!nonneg || dst->v >= 0);
	dst->v *= scale;
}

static int
is_array(json_object *o)
{
	return o != NULL && json_object_is_type(o, json_type_array);
}

static int
is_object(json_object *o)
{
	return o != NULL && json_object_is_type(o, json_type_object);
}

/* query-cpus-fast: each vCPU's index and thread. */
/*
 * The entries of the array reply, at most max of size sz each, through
 * one(), which fills its zeroed slot and says whether to keep it.
 * Returns the new array (*n kept: free() it), or NULL when reply is no
 * array.
 */
static void *
decode_array(json_object *reply, size_t max, size_t sz,
    int (*one)(json_object *, void *), size_t *n)
{
	char	*v;
	size_t	 i, len;

	if (!is_array(reply))
		return NULL;
	len = json_object_array_length(reply);
	if (len > max)
		len = max;
	v = xcalloc(len == 0 ? 1 : len, sz);
	*n = 0;
	for (i = 0; i < len; i++) {
		if (one(json_object_array_get_idx(reply, i), v + *n * sz))
			(*n)++;
		else
			memset(v + *n * sz, 0, sz);
	}
	return v;
}

/* A vCPU of query-cpus-fast. */
static int
vcpu_of(json_object *e, void *slot)
{
	struct snap_vcpu	*v = slot;
	uint64_t		 index, tid;

	if (!u64_of(e, "cpu-index", &index) || index > INT32_MAX ||
	    !u64_of(e, "thread-id", &tid) || tid > INT32_MAX)
		return 0;
	v->index = (int)index;
	v->thread_id = (int64_t)tid;
	return 1;
}

int
decode_cpus(json_object *reply, struct vm_snapshot *s)
{
	struct snap_vcpu	*v;
	size_t			 n;

	if ((v = decode_array(reply, SNAP_MAX_CPUS, sizeof *v, vcpu_of,
	    &n)) == NULL)
		return -1;
	SNAP_SET_LIST(s, cpus, v, n);
	return 0;
}

/* query-memory-size-summary: base and hot-plugged RAM. */
int
decode_memory(json_object *reply, struct snap_u64 *out)
{
	uint64_t	base, plugged = 0;

	out->have = 0;
	if (!is_object(reply) || !u64_of(reply, "base-memory", &base))
		return -1;
	(void)u64_of(reply, "plugged-memory", &plugged);
	out->have = 1;
	out->v = base + plugged;
	return 0;
}

/* query-balloon: the memory the guest has now. */
int
decode_balloon(json_object *reply, struct snap_u64 *out)
{
	out->have = is_object(reply) && u64_of(reply, "actual", &out->v);
	return out->have ? 0 : -1;
}

/* A drive of query-blockstats, by the first name it has. */
static int
drive_of(json_object *e, void *slot)
{
	struct snap_drive	*d = slot;
	json_object		*st;
	const char		*name;

	name = str_of(e, "device");
	if (name == NULL || *name == '\0')
		name = str_of(e, "qdev");
	if (name == NULL || *name == '\0')
		name = str_of(e, "node-name");
	st = json_obj_at(e, "stats");
	if (name == NULL || *name == '\0' || !is_object(st))
		return 0;
	copy_text(d->name, sizeof d->name, name);
	(void)u64_of(st, "rd_bytes", &d->rd_bytes);
	(void)u64_of(st, "wr_bytes", &d->wr_bytes);
	(void)u64_of(st, "rd_operations", &d->rd_ops);
	(void)u64_of(st, "wr_operations", &d->wr_ops);
	(void)u64_of(st, "flush_operations", &d->flush_ops);
	(void)u64_of(st, "rd_total_time_ns", &d->rd_ns);
	(void)u64_of(st, "wr_total_time_ns", &d->wr_ns);
	(void)u64_of(st, "flush_total_time_ns", &d->flush_ns);
	return 1;
}

int
decode_blockstats(json_object *reply, struct vm_snapshot *s)
{
	struct snap_drive	*d;
	size_t			 n;

	if ((d = decode_array(reply, SNAP_MAX_DRIVES, sizeof *d, drive_of,
	    &n)) == NULL)
		return -1;
	SNAP_SET_LIST(s, drives, d, n);
	return 0;
}

/* "aa:bb:cc:dd:ee:ff" in any case; out gets it in lower case. */
int
decode_mac(const char *s, char out[18])
{
	int	i;

	if (s == NULL || strlen(s) != 17)
		return -1;
	for (i = 0; i < 17; i++) {
		if (i % 3 == 2 ? s[i] != ':' :
		    !isxdigit((unsigned char)s[i]))
			return -1;
		out[i] = (char)tolower((unsigned char)s[i]);
	}
	out[17] = '\0';
	return 0;
}

/*
 * The value of key in "k1=v1,k2=v2" (one line of `info network`), copied
 * into out; 0 if absent.
 */
static int
kv_get(const char *line, const char *key, char *out, size_t len)
{
	size_t		 klen = strlen(key), n;
	const char	*p = line, *end;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			p += klen + 1;
			end = strchr(p, ',');
			n = end != NULL ? (size_t)(end - p) : strlen(p);
			if (n >= len)
				n = len - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return 1;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* A tap name usable as one /sys/class/net component. */
static int
ifname_ok(const char *s)
{
	size_t	i, n = strlen(s);

	if (n == 0 || n > 15 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] == '/' || !isgraph((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * `info network` (HMP through human-monitor-command): each NIC at the
 * start of a line ("NAME: index=0,type=nic,model=M,macaddr=MAC"), its
 * peer on the next (" \ PEER: index=0,type=tap,ifname=IF,...").  QMP has
 * no command that names a NIC's tap in QEMU 7.2.
 */
int
decode_info_network(const char *text, struct vm_snapshot *s)
{
	struct snap_nic	*nics, *cur = NULL;
	char		 line[1024], val[SNAP_NAME], *colon;
	const char	*p = text, *eol;
	size_t		 n, nn = 0;
	int		 peer;

	if (text == NULL)
		return -1;
	nics = xcalloc(SNAP_MAX_NICS, sizeof *nics);
	while (*p != '\0') {
		eol = strpbrk(p, "\r\n");
		n = eol != NULL ? (size_t)(eol - p) : strlen(p);
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, p, n);
		line[n] = '\0';
		p = eol != NULL ? eol + strspn(eol, "\r\n") : p + strlen(p);

		peer = strncmp(line, " \\ ", 3) == 0;
		if (!peer && line[0] == ' ')
			continue;	/* hub members, filters */
		if ((colon = strstr(line, ": ")) == NULL)
			continue;
		*colon = '\0';
		if (!peer) {
			cur = NULL;
			if (!kv_get(colon + 2, "type", val, sizeof val) ||
			    strcmp(val, "nic") != 0 || nn == SNAP_MAX_NICS)
				continue;
			cur = &nics[nn++];
			copy_text(cur->name, sizeof cur->name, line);
			if (kv_get(colon + 2, "model", val, sizeof val))
				copy_text(cur->model, sizeof cur->model, val);
			if (kv_get(colon + 2, "macaddr", val, sizeof val))
				(void)decode_mac(val, cur->mac);
		} else if (cur != NULL &&
		    kv_get(colon + 2, "type", val, sizeof val) &&
		    strcmp(val, "tap") == 0 &&
		    kv_get(colon + 2, "ifname", val, sizeof val) &&
		    ifname_ok(val))
			snprintf(cur->tap, sizeof cur->tap, "%s", val);
	}
	SNAP_SET_LIST(s, nics, nics, nn);
	return 0;
}

/*
 * query-rx-filter: the MAC each NIC filters on now (the guest may have
 * changed it); only NICs that support it (virtio-net) are listed.
 */
int
decode_rx_filter(json_object *reply, struct vm_snapshot *s)
{
	json_object	*e;
	const char	*name;
	char		 mac[18];
	size_t		 i, j;

	if (!is_array(reply))
		return -1;
	for (i = 0; i < json_object_array_length(reply); i++) {
		e = json_object_array_get_idx(reply, i);
		name = str_of(e, "name");
		if (name == NULL || decode_mac(str_of(e, "main-mac"),
		    mac) != 0)
			continue;
		for (j = 0; j < s->nnics; j++)
			if (strcmp(s->nics[j].name, name) == 0) {
				memcpy(s->nics[j].mac, mac, sizeof mac);
				s->nics[j].mac_from_rx_filter = 1;
			}
	}
	return 0;
}

/* query-dirty-rate: the last measurement, in bytes/s. */
int
decode_dirty_rate(json_object *reply, struct snap_f64 *out)
{
	const char *st = str_of(reply, "status");

	out->have = 0;
	if (st == NULL || strcmp(st, "measured") != 0)
		return -1;
	set_f64(out, reply, "dirty-rate", 1024.0 * 1024.0, 1);
	return out->have ? 0 : -1;
}

/* query-status: QEMU's run state, through mig-info.c's decoder. */
int
decode_run_state(json_object *reply, char *out, size_t len)
{
	struct run_info ri;

	if (run_info_decode(reply, &ri) != 0)
		return -1;
	copy_text(out, len, ri.state_name);
	return 0;
}

/*
 * query-migrate, through mig-info.c's decoder: QEMU's figures, when it
 * has a migration at all.  A destination QEMU reports only its status.
 */
int
decode_query_migrate(json_object *reply, struct snap_migration *m)
{
	struct mig_info	mi;

	memset(m, 0, sizeof *m);
	if (mig_info_decode(reply, &mi) != 0)
		return -1;
	if (mi.status == QMS_NONE)
		return 0;
	m->have = 1;
	copy_text(m->qemu_status, sizeof m->qemu_status, mi.status_name);
	snprintf(m->phase, sizeof m->phase, "%s",
	    mi.status == QMS_COMPLETED ? "Succeeded" :
	    mi.status == QMS_FAILED || mi.status == QMS_CANCELLED ? "Failed" :
	    "Running");
	snprintf(m->mode, sizeof m->mode, "%s",
	    qemu_mig_status_postcopy(mi.status) ? "PostCopy" : "PreCopy");
	snprintf(m->role, sizeof m->role, "%s", mi.has_ram ? "source" :
	    "target");
	if (mi.has_ram) {
		m->data_total.have = m->data_processed.have = 1;
		m->data_remaining.have = m->iteration.have = 1;
		m->postcopy_requests.have = 1;
		m->data_total.v = mi.ram_total;
		m->data_processed.v = mi.ram_transferred;
		m->data_remaining.v = mi.ram_remaining;
		m->iteration.v = mi.dirty_sync_count;
		m->postcopy_requests.v = mi.postcopy_requests;
		m->memory_rate.have = m->dirty_rate.have = 1;
		m->memory_rate.v = mig_info_bandwidth(&mi);
		m->dirty_rate.v = mig_info_dirty_rate(&mi);
		m->expected_downtime.have = m->throttle.have = 1;
		m->expected_downtime.v = (double)mi.expected_downtime_ms / 1e3;
		m->throttle.v = mi.throttle_pct / 100.0;
	}
	/* The guest's pause: once QEMU computed it, never a 0 for "not
	 * yet". */
	m->downtime.have = mi.has_downtime;
	m->downtime.v = (double)mi.downtime_ms / 1e3;
	/* dirty-limit (8.1), while a limit is in service. */
	m->dirty_limit_throttle.have = mi.has_dirty_limit;
	m->dirty_limit_throttle.v = (double)mi.dirty_limit_throttle_us / 1e6;
	return 0;
}

/*
 * "2024-05-01T12:00:00.123Z" (or an offset instead of Z) into seconds
 * since the epoch.
 */
int
decode_rfc3339(const char *s, double *out)
{
	struct tm	 tm;
	int		 y, mo, d, h, mi, sec, oh = 0, om = 0, n = 0;
	double		 frac = 0, scale = 0.1;
	const char	*p;
	time_t		 t;

	if (s == NULL || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &y, &mo, &d,
	    &h, &mi, &sec, &n) != 6 || n != 19)
		return -1;
	p = s + n;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	if (*p == 'Z' || *p == 'z')
		p++;
	else if ((*p == '+' || *p == '-') && sscanf(p + 1, "%2d:%2d%n",
	    &oh, &om, &n) == 2 && n == 5) {
		if (*p == '-') {
			oh = -oh;
			om = -om;
		}
		p += 6;
	} else
		return -1;
	if (*p != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || sec > 60 || y < 1970)
		return -1;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = sec;
	if ((t = timegm(&tm)) == (time_t)-1)
		return -1;
	*out = (double)t - oh * 3600 - om * 60 + frac;
	return 0;
}

const char *const failure_planes[FAILURE_PLANES] = {
	"control", "data", "limit", "abort", "unknown"
};

size_t
failure_plane_index(const char *plane)
{
	size_t	i;

	for (i = 0; i < FAILURE_PLANES; i++)
		if (strcmp(plane, failure_planes[i]) == 0)
			return i;
	return FAILURE_PLANES - 1;
}

/*
 * Whether the source's controller ended the migration: nobody asked for
 * an abort (abortRequested false) and its last decision is "abort".
 */
static int
aborted_by_controller(json_object *doc)
{
	json_object	*req = json_obj_at(doc, "abortRequested");
	json_object	*ds = json_obj_at(doc, "decisions");
	const char	*role = str_of(doc, "role");
	size_t		 n;

	if (role == NULL || strcmp(role, "source") != 0 || req == NULL ||
	    !json_object_is_type(req, json_type_boolean) ||
	    json_object_get_boolean(req) || !is_array(ds) ||
	    (n = json_object_array_length(ds)) == 0)
		return 0;
	role = str_of(json_object_array_get_idx(ds, n - 1), "action");
	return role != NULL && strcmp(role, "abort") == 0;
}

/*
 * The plane failures_total counts a failed migration under: exit 8 is
 * unknown whatever the plane; an abort (exit 5) is the controller's at a
 * bound of its policy (limit) when it decided it, else someone's request
 * (abort: an operator, a signal, the source's abort seen by the target);
 * else failurePlane (control when absent).
 */
static const char *
failure_plane_of(json_object *doc, uint64_t exit_code)
{
	const char	*s = str_of(doc, "failurePlane");

	if (exit_code == QM_EXIT_UNKNOWN ||
	    (s != NULL && strcmp(s, "unknown") == 0))
		return "unknown";
	if (exit_code == QM_EXIT_ABORTED || (s == NULL &&
	    str_of(doc, "abortStatus") != NULL))
		return aborted_by_controller(doc) ? "limit" : "abort";
	return s != NULL ? s : "control";
}

/*
 * The status document of `qmigrate migrate` or `incoming`: what the
 * session and its controller see.  failure_plane is the plane
 * failures_total counts it under (failure_plane_of()).
 */
/*
 * The seconds from the document's startTimestamp to each phase of
 * phase_hist_phases its phaseTransitionTimestamps list.
 */
static void
decode_phase_times(json_object *doc, struct snap_migration *m)
{
	json_object	*times = json_obj_at(doc, "phaseTransitionTimestamps");
	json_object	*t;
	const char	*phase;
	double		 when;
	size_t		 i, k;

	if (!m->start_time.have || times == NULL ||
	    !json_object_is_type(times, json_type_array))
		return;
	for (i = 0; i < json_object_array_length(times); i++) {
		t = json_object_array_get_idx(times, i);
		if (!is_object(t) || (phase = str_of(t, "phase")) == NULL ||
		    decode_rfc3339(str_of(t, "phaseTransitionTimestamp"),
		    &when) != 0)
			continue;
		for (k = 0; k < PHASE_HIST_PHASES; k++)
			if (strcmp(phase, phase_hist_phases[k]) == 0 &&
			    !m->phase_time[k].have) {
				m->phase_time[k].have = 1;
				m->phase_time[k].v = when - m->start_time.v;
			}
	}
}

int
decode_status_doc(json_object *doc, struct snap_migration *m)
{
	json_object	*prog, *disks, *v;
	const char	*phase = str_of(doc, "phase");
	uint64_t	 exit_code = 0, off, sum = 0;
	int		 any = 0;

	memset(m, 0, sizeof *m);
	if (!is_object(doc) || phase == NULL)
		return -1;
	m->have = 1;
	copy_text(m->phase, sizeof m->phase, phase);
	copy_text(m->mode, sizeof m->mode, str_of(doc, "mode"));
	copy_text(m->uid, sizeof m->uid, str_of(doc, "migrationUid"));
	copy_text(m->role, sizeof m->role, str_of(doc, "role"));
	(void)u64_of(doc, "exitCode", &exit_code);
	m->outcome_unknown = exit_code == QM_EXIT_UNKNOWN;
	if (strcmp(m->phase, "Failed") == 0 || m->outcome_unknown)
		copy_text(m->failure_plane, sizeof m->failure_plane,
		    failure_plane_of(doc, exit_code));
	v = json_obj_at(json_obj_at(doc, "migrationConfiguration"),
	    "controller");
	if (is_object(v))
		set_f64(&m->acceptable, v, "acceptableSeconds", 1, 1);
	m->start_time.have = decode_rfc3339(str_of(doc, "startTimestamp"),
	    &m->start_time.v) == 0;
	m->end_time.have = decode_rfc3339(str_of(doc, "endTimestamp"),
	    &m->end_time.v) == 0;
	decode_phase_times(doc, m);
	prog = json_obj_at(doc, "progress");
	if (!is_object(prog))
		return 0;
	copy_text(m->qemu_status, sizeof m->qemu_status,
	    str_of(prog, "qemuStatus"));
	set_u64(&m->data_total, prog, "dataTotal");
	set_u64(&m->data_processed, prog, "dataProcessed");
	set_u64(&m->data_remaining, prog, "dataRemaining");
	set_f64(&m->memory_rate, prog, "bandwidth", 1, 1);
	set_f64(&m->dirty_rate, prog, "dirtyRate", 1, 1);
	set_u64(&m->iteration, prog, "iteration");
	set_f64(&m->expected_downtime, prog, "expectedDowntimeMs", 1e-3, 1);
	set_f64(&m->downtime, prog, "downtimeMs", 1e-3, 1);	/* absent:
								   not known */
	set_f64(&m->throttle, prog, "throttlePercentage", 1e-2, 1);
	set_f64(&m->dirty_limit_throttle, prog, "dirtyLimitThrottleUsPerRound",
	    1e-6, 1);
	set_u64(&m->postcopy_requests, prog, "postCopyRequests");
	disks = json_obj_at(prog, "disks");
	if (is_object(disks)) {
		json_object_object_foreach(disks, job, d) {
			(void)job;
			v = d;
			if (u64_of(v, "offset", &off)) {
				sum += off;
				any = 1;
			}
		}
	}
	m->disk_processed.have = any;
	m->disk_processed.v = sum;
	return 0;
}

int
decode_osinfo(json_object *reply, struct snap_os *os)
{
	memset(os, 0, sizeof *os);
	if (!is_object(reply))
		return -1;
	copy_text(os->id, sizeof os->id, str_of(reply, "id"));
	copy_text(os->name, sizeof os->name, str_of(reply, "name"));
	copy_text(os->pretty_name, sizeof os->pretty_name,
	    str_of(reply, "pretty-name"));
	copy_text(os->version, sizeof os->version, str_of(reply, "version"));
	copy_text(os->version_id, sizeof os->version_id,
	    str_of(reply, "version-id"));
	copy_text(os->kernel_release, sizeof os->kernel_release,
	    str_of(reply, "kernel-release"));
	copy_text(os->machine, sizeof os->machine, str_of(reply, "machine"));
	return 0;
}

/* A mounted file system of guest-get-fsinfo. */
static int
fs_of(json_object *e, void *slot)
{
	struct snap_fs	*fs = slot;
	const char	*mp;

	if ((mp = str_of(e, "mountpoint")) == NULL || *mp == '\0')
		return 0;
	copy_text(fs->mountpoint, sizeof fs->mountpoint, mp);
	copy_text(fs->type, sizeof fs->type, str_of(e, "type"));
	set_u64(&fs->used, e, "used-bytes");
	set_u64(&fs->total, e, "total-bytes");
	return 1;
}

int
decode_fsinfo(json_object *reply, struct vm_snapshot *s)
{
	struct snap_fs	*fs;
	size_t		 n;

	if ((fs = decode_array(reply, SNAP_MAX_FS, sizeof *fs, fs_of,
	    &n)) == NULL)
		return -1;
	SNAP_SET_LIST(s, fs, fs, n);
	return 0;
}

/* guest-get-memory-blocks times guest-get-memory-block-info's size. */
int
decode_memory_blocks(json_object *blocks, uint64_t block_size,
    struct snap_u64 *out)
{
	size_t	i, online = 0;

	out->have = 0;
	if (!is_array(blocks) || block_size == 0)
		return -1;
	for (i = 0; i < json_object_array_length(blocks); i++)
		if (json_bool_at(json_object_array_get_idx(blocks, i),
		    "online"))
			online++;
	if (online > UINT64_MAX / block_size)
		return -1;
	out->have = 1;
	out->v = (uint64_t)online * block_size;
	return 0;
}

static void
guest_if_stats(json_object *st, struct snap_netstats *n)
{
	n->have = is_object(st);
	(void)u64_of(st, "rx-bytes", &n->rx_bytes);
	(void)u64_of(st, "rx-packets", &n->rx_packets);
	(void)u64_of(st, "rx-errs", &n->rx_errors);
	(void)u64_of(st, "rx-dropped", &n->rx_dropped);
	(void)u64_of(st, "tx-bytes", &n->tx_bytes);
	(void)u64_of(st, "tx-packets", &n->tx_packets);
	(void)u64_of(st, "tx-errs", &n->tx_errors);
	(void)u64_of(st, "tx-dropped", &n->tx_dropped);
}

/* An interface of guest-network-get-interfaces: name, MAC, addresses. */
static int
guest_if_of(json_object *e, void *slot)
{
	struct snap_guest_if	*gi = slot;
	json_object		*addrs, *a;
	const char		*ip;
	uint64_t		 prefix;
	size_t			 j;

	if (str_of(e, "name") == NULL)
		return 0;
	copy_text(gi->name, sizeof gi->name, str_of(e, "name"));
	(void)decode_mac(str_of(e, "hardware-address"), gi->mac);
	addrs = json_obj_at(e, "ip-addresses");
	for (j = 0; is_array(addrs) && j < json_object_array_length(addrs) &&
	    gi->naddrs < SNAP_MAX_ADDRS; j++) {
		a = json_object_array_get_idx(addrs, j);
		if ((ip = str_of(a, "ip-address")) == NULL || strlen(ip) > 45)
			continue;
		if (u64_of(a, "prefix", &prefix) && prefix <= 128)
			snprintf(gi->addrs[gi->naddrs], sizeof gi->addrs[0],
			    "%s/%" PRIu64, ip, prefix);
		else
			snprintf(gi->addrs[gi->naddrs], sizeof gi->addrs[0],
			    "%s", ip);
		copy_text(gi->addrs[gi->naddrs], sizeof gi->addrs[0],
		    gi->addrs[gi->naddrs]);
		gi->naddrs++;
	}
	guest_if_stats(json_obj_at(e, "statistics"), &gi->stats);
	return 1;
}

/* guest-network-get-interfaces: names, MACs, addresses, counters. */
int
decode_guest_ifs(json_object *reply, struct vm_snapshot *s)
{
	struct snap_guest_if	*g;
	size_t			 n;

	if ((g = decode_array(reply, SNAP_MAX_GUEST_IFS, sizeof *g,
	    guest_if_of, &n)) == NULL)
		return -1;
	SNAP_SET_LIST(s, guest_ifs, g, n);
	return 0;
}

/*
 * /proc/PID/stat (or task/TID/stat): utime and stime, fields 14 and 15,
 * counted after the command name's closing parenthesis (the name itself
 * may hold spaces and parentheses).
 */
int
decode_proc_stat(const char *buf, double ticks, struct snap_f64 *user,
    struct snap_f64 *system)
{
	const char		*p = strrchr(buf, ')');
	unsigned long long	 ut, st;
	int			 field;

	user->have = system->have = 0;
	if (p == NULL || ticks <= 0)
		return -1;
	p++;
	/* Skip fields 3 (state) to 13 (cmajflt). */
	for (field = 3; field <= 13; field++) {
		p += strspn(p, " ");
		if (*p == '\0')
			return -1;
		p += strcspn(p, " ");
	}
	if (sscanf(p, " %llu %llu", &ut, &st) != 2)
		return -1;
	user->have = system->have = 1;
	user->v = (double)ut / ticks;
	system->v = (double)st / ticks;
	return 0;
}

/* /proc/PID/status: VmRSS in bytes. */
int
decode_proc_rss(const char *buf, struct snap_u64 *out)
{
	const char		*p = strstr(buf, "\nVmRSS:");
	unsigned long long	 kb;

	out->have = 0;
	if (p == NULL || sscanf(p + 7, " %llu kB", &kb) != 1 ||
	    kb > UINT64_MAX / 1024)
		return -1;
	out->have = 1;
	out->v = (uint64_t)kb * 1024;
	return 0;
}

/* /proc/PID/task/TID/schedstat: "run_ns wait_ns slices". */
int
decode_schedstat(const char *buf, struct snap_f64 *delay)
{
	unsigned long long run, wait;

	delay->have = sscanf(buf, "%llu %llu", &run, &wait) == 2;
	delay->v = delay->have ? (double)wait / 1e9 : 0;
	return delay->have ? 0 : -1;
}

/* /proc/.../status: the id in the innermost pid namespace (NSpid's last). */
int
decode_nspid(const char *buf, int64_t *innermost)
{
	const char	*p = strstr(buf, "\nNSpid:");
	char		*end;
	long long	 v;
	int		 any = 0;

	if (p == NULL)
		return -1;
	p += 7;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		v = strtoll(p, &end, 10);
		if (v <= 0 || v > INT32_MAX)
			return -1;
		*innermost = v;
		any = 1;
		p = end;
	}
	return any ? 0 : -1;
}
