/*
 * proxy-tls-files.c: ca.pem, cert.pem and key.pem read from a --tls-dir,
 * as an operator lays it out by hand or as kubelet projects a Secret.
 *
 * kubelet's AtomicWriter (kubernetes pkg/volume/util/atomic_writer.go)
 * writes each version of a Secret into a new directory ..TIMESTAMP.RANDOM,
 * points the symbolic link ..data at it (swapped by rename(2), atomic) and
 * shows every key as a link KEY -> ..data/KEY.  Where DIR/..data is such a
 * link, the three files are read from the one directory it names at that
 * moment: all three of one version of the Secret, never a key of the old
 * one with a certificate of the new.  No other link is followed: the
 * target of ..data must be one name in DIR itself, and each file is
 * opened O_NOFOLLOW within it, so nothing outside the volume is read.
 *
 * The key may be read by the owner only (0600, 0400), or also by the
 * group (0640, 0440: kubelet's mode with the pod's fsGroup) where that
 * group is one of this process's own groups; never by others, and never
 * writable by the group.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/x509.h>

#include "proxy-int.h"

#define TLS_KEY_MAX	(64 * 1024)
#define TLS_CERT_MAX	(1024 * 1024)	/* a CA bundle may hold many */

/* Whether gid is this process's effective group or a supplementary one. */
static int
is_own_group(gid_t gid)
{
	gid_t	groups[256];
	int	n, i;

	if (gid == getegid())
		return 1;
	if ((n = getgroups((int)(sizeof groups / sizeof groups[0]), groups)) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return 1;
	return 0;
}

/*
 * The directory the files are read from: DIR itself, or the version
 * DIR/..data names.  Returns an fd and sets *where (malloc'd, the
 * directory's path for messages), or -1 with *cause.
 */
static int
open_version(const char *dir, char **where, char **cause)
{
	struct stat	 st;
	char		 target[256];
	ssize_t		 n;
	int		 dfd, vfd;

	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		set_cause(cause, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (fstatat(dfd, "..data", &st, AT_SYMLINK_NOFOLLOW) == -1 ||
	    !S_ISLNK(st.st_mode)) {
		set_cause(where, "%s", dir);
		return dfd;
	}
	n = readlinkat(dfd, "..data", target, sizeof target - 1);
	if (n <= 0 || (size_t)n >= sizeof target - 1) {
		set_cause(cause, "%s/..data: %s", dir, n == -1 ?
		    strerror(errno) : "link target too long");
		close(dfd);
		return -1;
	}
	target[n] = '\0';
	/* kubelet's ..data names a sibling, ..TIMESTAMP: one name, no path. */
	if (strchr(target, '/') != NULL || strcmp(target, ".") == 0 ||
	    strcmp(target, "..") == 0) {
		set_cause(cause, "%s/..data: links to \"%s\", outside the "
		    "directory (only kubelet's layout, ..data -> ..VERSION, "
		    "is followed)", dir, target);
		close(dfd);
		return -1;
	}
	vfd = openat(dfd, target, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (vfd == -1)
		set_cause(cause, "%s/%s (..data): %s", dir, target,
		    strerror(errno));
	else
		set_cause(where, "%s/%s", dir, target);
	close(dfd);
	return vfd;
}

/*
 * Opens NAME in dfd without following a link; explains the failures an
 * operator meets (a link outside kubelet's layout, kubelet's root-only key
 * without fsGroup).
 */
static int
open_in(int dfd, const char *where, const char *name, char **cause)
{
	int	fd, e;

	if ((fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) != -1)
		return fd;
	e = errno;
	if (e == ELOOP)
		set_cause(cause, "%s/%s: a symbolic link (links are followed "
		    "only in kubelet's layout, through ..data)", where, name);
	else if (e == EACCES)
		set_cause(cause, "%s/%s: %s (in Kubernetes, set the pod's "
		    "securityContext.fsGroup so that kubelet gives the "
		    "Secret's files that group)", where, name, strerror(e));
	else
		set_cause(cause, "%s/%s: %s", where, name, strerror(e));
	return -1;
}

/* Reads fd to its end into a malloc'd buffer of at most max bytes. */
static char *
slurp(int fd, const char *where, const char *name, size_t max, size_t *len,
    char **cause)
{
	char	*buf = xmalloc(max);
	ssize_t	 n;

	n = read_full(fd, buf, max);
	if (n < 0 || (size_t)n == max) {
		if (n < 0)
			set_cause(cause, "%s/%s: %s", where, name,
			    strerror(errno));
		else
			set_cause(cause, "%s/%s: larger than %zu bytes",
			    where, name, max);
		explicit_bzero(buf, max);
		free(buf);
		return NULL;
	}
	*len = (size_t)n;
	return buf;
}

/* The key's checks: a regular file that others cannot read (above). */
static int
key_mode_ok(int fd, const char *where, char **cause)
{
	struct stat	st;
	mode_t		m;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		set_cause(cause, "%s/key.pem: not a regular file", where);
		return -1;
	}
	m = st.st_mode & 07777;
	if ((m & S_IRWXO) != 0 || (m & (S_IWGRP | S_IXGRP)) != 0) {
		set_cause(cause, "%s/key.pem: mode %04o lets group or others "
		    "access the private key (want 0600 or 0400, or 0640 or "
		    "0440 with a group of this process)", where, (unsigned)m);
		return -1;
	}
	if ((m & S_IRGRP) != 0 && !is_own_group(st.st_gid)) {
		set_cause(cause, "%s/key.pem: mode %04o lets group %u read "
		    "the private key, which is not a group of this process "
		    "(want 0600 or 0400, or the pod's fsGroup)", where,
		    (unsigned)m, (unsigned)st.st_gid);
		return -1;
	}
	return 0;
}

int
proxy_tls_files_read(const char *dir, struct proxy_tls_files *f,
    char **cause)
{
	static const char	*names[3] = { "ca.pem", "cert.pem", "key.pem" };
	char			**bufs[3] = { &f->ca, &f->cert, &f->key };
	size_t			*lens[3] = { &f->ca_len, &f->cert_len,
				    &f->key_len };
	int			 dfd, fd, i;

	memset(f, 0, sizeof *f);
	if ((dfd = open_version(dir, &f->where, cause)) == -1)
		return -1;
	for (i = 0; i < 3; i++) {
		if ((fd = open_in(dfd, f->where, names[i], cause)) == -1)
			goto fail;
		if (i == 2 && key_mode_ok(fd, f->where, cause) != 0) {
			close(fd);
			goto fail;
		}
		*bufs[i] = slurp(fd, f->where, names[i], i == 2 ?
		    TLS_KEY_MAX : TLS_CERT_MAX, lens[i], cause);
		close(fd);
		if (*bufs[i] == NULL)
			goto fail;
	}
	close(dfd);
	return 0;
fail:
	close(dfd);
	proxy_tls_files_clear(f);
	return -1;
}

void
proxy_tls_files_clear(struct proxy_tls_files *f)
{
	if (f->key != NULL)
		explicit_bzero(f->key, f->key_len);
	free(f->key);
	free(f->cert);
	free(f->ca);
	free(f->where);
	memset(f, 0, sizeof *f);
}

int
proxy_tls_cert_not_after(const char *dir, double *not_after, char **cause)
{
	struct tm	 tm;
	char		*where = NULL, *buf;
	size_t		 len;
	X509		*x = NULL;
	BIO		*bio;
	int		 dfd, fd, rc = -1;

	if ((dfd = open_version(dir, &where, cause)) == -1)
		return -1;
	if ((fd = open_in(dfd, where, "cert.pem", cause)) == -1)
		goto out;
	buf = slurp(fd, where, "cert.pem", TLS_CERT_MAX, &len, cause);
	close(fd);
	if (buf == NULL)
		goto out;
	if ((bio = BIO_new_mem_buf(buf, (int)len)) == NULL)
		abort();
	x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	BIO_free(bio);
	free(buf);
	if (x == NULL || ASN1_TIME_to_tm(X509_get0_notAfter(x), &tm) != 1) {
		set_cause(cause, "%s/cert.pem: no certificate", where);
		goto out;
	}
	*not_after = (double)timegm(&tm);
	rc = 0;
out:
	X509_free(x);
	free(where);
	close(dfd);
	return rc;
}
