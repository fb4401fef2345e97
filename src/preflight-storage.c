/*
 * preflight-storage.c: whether a disk's file is on storage the target
 * host sees too (shared storage), from the policy's sharedStoragePaths,
 * the file's protocol and its file system (statfs(2), and for FUSE the
 * type /proc/self/mountinfo names).  Below both the pre-flight, which
 * reports unshared disks, and mig-disks.c, which copies them.
 */
#include <sys/types.h>
#include <sys/vfs.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "preflight.h"

#define PF_MOUNTINFO_MAX	(4 * 1024 * 1024)

/* File system magic numbers (linux/magic.h, fs/ceph/super.h). */
#define PF_NFS_MAGIC		0x6969
#define PF_CEPH_MAGIC		0x00c36400
#define PF_FUSE_MAGIC		0x65735546

/* Whether path lies under prefix, at a directory boundary. */
static int
path_under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n > 1 && prefix[n - 1] == '/')
		n--;
	if (strncmp(path, prefix, n) != 0)
		return 0;
	return path[n] == '\0' || path[n] == '/' || (n == 1 && *prefix == '/');
}

/* Undoes the octal escapes of /proc/self/mountinfo (\040 for space). */
static void
unescape_mount(char *s)
{
	char *w = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
			    (s[3] - '0'));
			s += 4;
		} else
			*w++ = *s++;
	}
	*w = '\0';
}

/*
 * The file system type of the mount holding path, from
 * /proc/self/mountinfo (the longest mount point that is a prefix).
 * Returns a malloc'd type or NULL.
 */
static char *
mount_fstype(const char *path)
{
	FILE	*f;
	char	*line = NULL, *best = NULL, *sep, *fields[10], *save, *tok;
	size_t	 cap = 0, best_len = 0, total = 0, len;
	ssize_t	 n;
	int	 nf;

	f = fopen("/proc/self/mountinfo", "r");
	if (f == NULL)
		return NULL;
	while ((n = getline(&line, &cap, f)) > 0 &&
	    (total += (size_t)n) < PF_MOUNTINFO_MAX) {
		/* id parent dev root mountpoint opts [optional...] - type src */
		sep = strstr(line, " - ");
		if (sep == NULL)
			continue;
		*sep = '\0';
		nf = 0;
		for (tok = strtok_r(line, " ", &save); tok != NULL && nf < 5;
		    tok = strtok_r(NULL, " ", &save))
			fields[nf++] = tok;
		if (nf < 5)
			continue;
		unescape_mount(fields[4]);
		len = strlen(fields[4]);
		if (!path_under(path, fields[4]) || len < best_len)
			continue;
		tok = strtok_r(sep + 3, " \n", &save);
		if (tok == NULL)
			continue;
		free(best);
		best = xstrdup(tok);
		best_len = len;
	}
	free(line);
	fclose(f);
	return best;
}

/*
 * Whether file is on storage the target host sees too: under one of the
 * policy's sharedStoragePaths, a network protocol (QEMU talks to the
 * server itself), or a file on NFS, CephFS or GlusterFS.  *why (len
 * bytes) says which.  The pre-flight (preflight.c) and the disks to copy
 * (mig-disks.c) ask the same question and get the same answer.
 */
int
preflight_disk_shared(const struct mig_settings *settings, const char *file,
    char *why, size_t len)
{
	static const char *protocols[] = { "nbd:", "nbd+", "rbd:", "gluster",
	    "iscsi:", "ssh:", "http:", "https:", "ftp:", "ftps:", NULL };
	struct statfs	 sfs;
	char		 real[PATH_MAX], *fstype;
	char	       **p;
	int		 i;

	for (i = 0; protocols[i] != NULL; i++) {
		if (strncmp(file, protocols[i], strlen(protocols[i])) == 0) {
			snprintf(why, len, "network storage");
			return 1;
		}
	}
	if (file[0] != '/') {
		snprintf(why, len, "not a file qmigrate can locate");
		return 0;
	}
	if (realpath(file, real) == NULL)
		snprintf(real, sizeof real, "%s", file);
	for (p = settings->shared_storage_paths; p != NULL && *p != NULL;
	    p++) {
		if (path_under(file, *p) || path_under(real, *p)) {
			snprintf(why, len, "under sharedStoragePaths %s", *p);
			return 1;
		}
	}
	if (statfs(real, &sfs) != 0) {
		snprintf(why, len, "cannot stat its file system");
		return 0;
	}
	switch ((unsigned long)sfs.f_type) {
	case PF_NFS_MAGIC:
		snprintf(why, len, "on NFS");
		return 1;
	case PF_CEPH_MAGIC:
		snprintf(why, len, "on CephFS");
		return 1;
	case PF_FUSE_MAGIC:
		fstype = mount_fstype(real);
		if (fstype != NULL && strcmp(fstype, "fuse.glusterfs") == 0) {
			free(fstype);
			snprintf(why, len, "on GlusterFS");
			return 1;
		}
		snprintf(why, len, "on a local FUSE file system (%s)",
		    fstype != NULL ? fstype : "unknown");
		free(fstype);
		return 0;
	}
	snprintf(why, len, "on a local file system (type 0x%lx) and not "
	    "under the policy's sharedStoragePaths",
	    (unsigned long)sfs.f_type);
	return 0;
}
