/*
 * fuzz-exporter.c: what the exporter and `qmigrate stats` read from QEMU,
 * the guest agent (whose answers a guest controls), /proc, /sys and the
 * status file, through exporter-decode.c, then rendered as metrics and
 * as stats' interfaces.  The input is used twice: as text (`info
 * network`, /proc/PID/stat, status, schedstat, a timestamp, a MAC) and,
 * when it parses, as JSON handed to every JSON decoder.  The exposition
 * rendered from the result must hold no byte Prometheus would reject in a
 * label (a control character, invalid UTF-8): the target aborts if it
 * does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "observe.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Length of the valid UTF-8 character at p (before end), or 0. */
static size_t
utf8_char(const unsigned char *p, const unsigned char *end)
{
	size_t	n, i;

	if (*p < 0x80)
		return 1;
	n = *p >= 0xf0 && *p <= 0xf4 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;
	if (n == 0 || (size_t)(end - p) < n)
		return 0;
	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Every label value of every sample line is valid UTF-8 without control
 * characters, its quotes and backslashes escaped.
 */
static void
check_labels(const char *text, size_t len)
{
	const unsigned char	*p = (const unsigned char *)text;
	const unsigned char	*end = p + len;
	size_t			 n;
	int			 in = 0, comment = 0, bol = 1;

	for (; p < end; p += n) {
		n = 1;
		if (bol)
			comment = *p == '#';
		bol = *p == '\n';
		if (comment)
			continue;
		if (!in) {
			in = *p == '"';
			continue;
		}
		if (*p == '"') {
			in = 0;
			continue;
		}
		if (*p == '\\') {
			if (p + 1 >= end || (p[1] != '\\' && p[1] != '"' &&
			    p[1] != 'n'))
				abort();
			n = 2;
			continue;
		}
		if (*p < 0x20 || *p == 0x7f || (n = utf8_char(p, end)) == 0)
			abort();
	}
	if (in)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exporter_vm_spec	 spec;
	struct vm_snapshot	 s;
	struct snap_migration	 m;
	struct snap_f64		 u, sy;
	struct snap_u64		 v;
	struct render_vm	 rv;
	struct render_buf	 b = { NULL, 0, 0 };
	json_object		*o, *ifs;
	char			*text, mac[18];
	int64_t			 inner;
	double			 t;

	text = malloc(size + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&s, 0, sizeof s);

	(void)decode_info_network(text, &s);
	(void)decode_proc_stat(text, 100, &u, &sy);
	(void)decode_proc_rss(text, &v);
	(void)decode_schedstat(text, &u);
	(void)decode_nspid(text, &inner);
	(void)decode_rfc3339(text, &t);
	(void)decode_mac(text, mac);

	if ((o = json_tokener_parse(text)) != NULL) {
		(void)decode_rx_filter(o, &s);
		(void)decode_cpus(o, &s);
		(void)decode_memory(o, &s.memory);
		(void)decode_balloon(o, &s.balloon);
		(void)decode_blockstats(o, &s);
		(void)decode_dirty_rate(o, &s.dirty_rate);
		(void)decode_run_state(o, s.run_state, sizeof s.run_state);
		(void)decode_query_migrate(o, &s.qemu_migration);
		(void)decode_status_doc(o, &m);
		s.doc_migration = m;
		(void)decode_osinfo(o, &s.os);
		s.have_os = 1;
		(void)decode_fsinfo(o, &s);
		(void)decode_memory_blocks(o, 4096, &s.guest_memory);
		(void)decode_guest_ifs(o, &s);
		json_object_put(o);
	}

	memset(&spec, 0, sizeof spec);
	spec.name = "fuzz";
	memset(&rv, 0, sizeof rv);
	rv.spec = &spec;
	rv.snap = &s;
	s.agent_configured = s.agent_up = 1;
	render_metrics(&b, &rv, 1, "node", NULL);
	check_labels(b.p, b.len);
	free(b.p);
	ifs = stats_interfaces(&s);
	(void)json_object_to_json_string(ifs);
	json_object_put(ifs);

	snap_free(&s);
	free(text);
	return 0;
}
