/*
 * exporter-node.c: a collector's node source: what this host knows about
 * QEMU's process (its /proc: CPU time, resident memory, each vCPU
 * thread's time and run delay) and its tap devices (/sys/class/net).
 * Reading /proc/PID of another user's QEMU is why the exporter keeps
 * CAP_SYS_PTRACE, and nothing else (exporter_run()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qmigrate.h"
#include "observe.h"
#include "exporter-sources.h"

/*
 * Reads at most PROC_FILE_MAX - 1 bytes of path into buf (NUL-ended).
 * Returns 0, or -1 when it cannot be read.
 */
static int
read_small(const char *path, char *buf, size_t size)
{
	ssize_t	n;
	int	fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read_full(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0 ? 0 : -1;
}

static int
read_u64_file(const char *path, uint64_t *out)
{
	char			 buf[64], *end;
	unsigned long long	 v;

	if (read_small(path, buf, sizeof buf) != 0)
		return -1;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno != 0 || end == buf || buf[0] == '-')
		return -1;
	*out = v;
	return 0;
}

/*
 * The directory of QEMU's thread tid under /proc/PID/task: tid is in
 * QEMU's pid namespace, which is ours unless QEMU runs in a container;
 * then the task whose innermost NSpid is tid is the one.
 */
static int
vcpu_task_path(pid_t pid, int64_t tid, char *out, size_t len)
{
	char		 path[160], buf[PROC_FILE_MAX];
	int64_t		 inner;
	DIR		*d;
	struct dirent	*e;
	int		 found = -1;

	snprintf(out, len, "/proc/%d/task/%lld", (int)pid, (long long)tid);
	snprintf(path, sizeof path, "%s/status", out);
	if (read_small(path, buf, sizeof buf) == 0 &&
	    (decode_nspid(buf, &inner) != 0 || inner == tid))
		return 0;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while (found == -1 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9' ||
		    strlen(e->d_name) > 10)
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/status",
		    (int)pid, e->d_name);
		if (read_small(path, buf, sizeof buf) == 0 &&
		    decode_nspid(buf, &inner) == 0 && inner == tid) {
			snprintf(out, len, "/proc/%d/task/%s", (int)pid,
			    e->d_name);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

void
collect_node_read(struct vm_collector *c, struct vm_snapshot *s)
{
	struct snap_f64		 u, sy;
	struct snap_nic		*nic;
	char			 path[160], dir[96], buf[PROC_FILE_MAX];
	size_t			 i;
	static const char	*ctr[8] = {
		"tx_bytes", "tx_packets", "tx_errors", "tx_dropped",
		"rx_bytes", "rx_packets", "rx_errors", "rx_dropped",
	};

	if (s->pid > 0) {
		snprintf(path, sizeof path, "/proc/%d/stat", (int)s->pid);
		if (read_small(path, buf, sizeof buf) != 0 ||
		    decode_proc_stat(buf, c->ticks, &s->cpu_user,
		    &s->cpu_system) != 0)
			s->cpu_user.have = s->cpu_system.have = 0;
		snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
		if (read_small(path, buf, sizeof buf) != 0 ||
		    decode_proc_rss(buf, &s->rss) != 0)
			s->rss.have = 0;
	}
	for (i = 0; i < s->ncpus; i++) {
		s->cpus[i].seconds.have = s->cpus[i].delay.have = 0;
		if (s->pid <= 0 || vcpu_task_path(s->pid,
		    s->cpus[i].thread_id, dir, sizeof dir) != 0)
			continue;
		snprintf(path, sizeof path, "%s/stat", dir);
		if (read_small(path, buf, sizeof buf) == 0 &&
		    decode_proc_stat(buf, c->ticks, &u, &sy) == 0) {
			s->cpus[i].seconds.have = 1;
			s->cpus[i].seconds.v = u.v + sy.v;
		}
		snprintf(path, sizeof path, "%s/schedstat", dir);
		if (read_small(path, buf, sizeof buf) == 0)
			(void)decode_schedstat(buf, &s->cpus[i].delay);
	}
	/* A tap's transmit is what the guest receives, and the reverse. */
	for (i = 0; i < s->nnics; i++) {
		uint64_t *dst[8];
		int k, ok = 1;

		nic = &s->nics[i];
		memset(&nic->stats, 0, sizeof nic->stats);
		if (nic->tap[0] == '\0')
			continue;
		dst[0] = &nic->stats.rx_bytes;
		dst[1] = &nic->stats.rx_packets;
		dst[2] = &nic->stats.rx_errors;
		dst[3] = &nic->stats.rx_dropped;
		dst[4] = &nic->stats.tx_bytes;
		dst[5] = &nic->stats.tx_packets;
		dst[6] = &nic->stats.tx_errors;
		dst[7] = &nic->stats.tx_dropped;
		for (k = 0; k < 8 && ok; k++) {
			snprintf(path, sizeof path,
			    "/sys/class/net/%s/statistics/%s", nic->tap,
			    ctr[k]);
			ok = read_u64_file(path, dst[k]) == 0;
		}
		nic->stats.have = ok;
	}
}

