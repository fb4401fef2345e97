/*
 * exporter.c: `qmigrate exporter`, Prometheus metrics for the VMs of one
 * node.  It keeps the set of VMs (each --vm, and every VM of --vm-dir,
 * rescanned at each refresh so VMs come and go without a restart), one
 * collector each (exporter-collect.c), refreshed together every interval;
 * it serves the last snapshots over HTTP (exporter-http.c, rendered by
 * exporter-render.c) and as a node-exporter textfile.  A scrape never
 * waits for a VM.
 */
#include <sys/stat.h>

#include <linux/capability.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>

#include "qmigrate.h"
#include "observe.h"
#include "signals.h"

/* One VM the exporter serves. */
struct vm_entry {
	struct exporter_vm_spec	 spec;	/* owned */
	struct vm_collector	*c;
	int			 from_dir;
	int			 seen;	/* in the last scan of --vm-dir */
};

struct exporter {
	struct ev_loop			*loop;
	const struct exporter_options	*o;
	struct vm_entry			**vms;
	size_t				 nvms;
	struct http_server		*http;
	ev_timer			 refresh;
	ev_timer			 once_deadline;
	struct signals_watch		 sigs;
	struct ev_loop			*out_prev;	/* output.c's */
	int				 textfile_failed;
	char				*dir_error;	/* logged once */
};

int
exporter_vm_spec_parse(const char *arg, struct exporter_vm_spec *s,
    char **cause)
{
	const char	*eq = strchr(arg, '=');
	char		*rest, *tok, *save = NULL, **slot;
	size_t		 klen;

	memset(s, 0, sizeof *s);
	if (eq == NULL || eq == arg || eq[1] == '\0' || eq[1] == ',') {
		xasprintf(cause, "expected NAME=QMP_PATH[,qga=PATH]"
		    "[,status=FILE][,namespace=NS], got \"%s\"", arg);
		return -1;
	}
	s->name = xstrndup(arg, (size_t)(eq - arg));
	rest = xstrdup(eq + 1);
	for (tok = strtok_r(rest, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (s->qmp == NULL) {
			s->qmp = xstrdup(tok);
			continue;
		}
		slot = NULL;
		klen = strcspn(tok, "=");
		if (klen == 3 && strncmp(tok, "qga", 3) == 0)
			slot = &s->qga;
		else if (klen == 6 && strncmp(tok, "status", 6) == 0)
			slot = &s->status;
		else if (klen == 9 && strncmp(tok, "namespace", 9) == 0)
			slot = &s->namespace;
		if (slot == NULL || *slot != NULL || tok[klen] != '=' ||
		    tok[klen + 1] == '\0') {
			xasprintf(cause, "%s: unexpected \"%s\" (expected "
			    "qga=PATH, status=FILE or namespace=NS, once "
			    "each)", s->name, tok);
			free(rest);
			exporter_vm_spec_free(s);
			return -1;
		}
		*slot = xstrdup(tok + klen + 1);
	}
	free(rest);
	return 0;
}

void
exporter_vm_spec_free(struct exporter_vm_spec *s)
{
	free(s->name);
	free(s->namespace);
	free(s->qmp);
	free(s->qga);
	free(s->status);
	memset(s, 0, sizeof *s);
}

static int
spec_cmp(const void *a, const void *b)
{
	return strcmp(((const struct exporter_vm_spec *)a)->name,
	    ((const struct exporter_vm_spec *)b)->name);
}

/*
 * The VMs of a --vm-dir: every socket DIR/NAME.qmp is the monitor of VM
 * NAME, DIR/NAME.qga its agent and DIR/NAME.status the status file of its
 * migrations, each used only while it exists.  Sorted by name, at most
 * EXPORTER_MAX_VMS.  Returns 0, or -1 with *cause set.
 */
int
exporter_dir_scan(const char *dir, struct exporter_vm_spec **out, size_t *n,
    char **cause)
{
	struct exporter_vm_spec	*v = NULL, *s;
	struct dirent		*e;
	struct stat		 sb;
	DIR			*d;
	char			*path;
	size_t			 len;

	*out = NULL;
	*n = 0;
	if ((d = opendir(dir)) == NULL) {
		xasprintf(cause, "--vm-dir %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len <= 4 ||
		    strcmp(e->d_name + len - 4, ".qmp") != 0)
			continue;
		xasprintf(&path, "%s/%s", dir, e->d_name);
		if (stat(path, &sb) != 0 || !S_ISSOCK(sb.st_mode)) {
			free(path);
			continue;
		}
		if (*n == EXPORTER_MAX_VMS) {
			log_warnx("exporter: --vm-dir %s: more than %d VMs: "
			    "%s left out", dir, EXPORTER_MAX_VMS, path);
			free(path);
			continue;
		}
		v = xreallocarray(v, *n + 1, sizeof *v);
		s = &v[(*n)++];
		memset(s, 0, sizeof *s);
		s->name = xstrndup(e->d_name, len - 4);
		s->qmp = path;
		xasprintf(&s->qga, "%s/%s.qga", dir, s->name);
		xasprintf(&s->status, "%s/%s.status", dir, s->name);
		s->optional = 1;
	}
	closedir(d);
	if (*n > 0)
		qsort(v, *n, sizeof *v, spec_cmp);
	*out = v;
	return 0;
}

static void	exporter_check_once(struct exporter *);

static void
settled_cb(struct vm_collector *c, void *arg)
{
	exporter_check_once(arg);
}

static struct vm_entry *
exporter_find(struct exporter *ex, const char *name)
{
	size_t i;

	for (i = 0; i < ex->nvms; i++)
		if (strcmp(ex->vms[i]->spec.name, name) == 0)
			return ex->vms[i];
	return NULL;
}

/* Takes spec (moved into the entry) and starts its collector. */
static void
exporter_add(struct exporter *ex, struct exporter_vm_spec *spec, int from_dir)
{
	struct vm_entry *e = xcalloc(1, sizeof *e);

	e->spec = *spec;
	memset(spec, 0, sizeof *spec);
	e->from_dir = from_dir;
	e->seen = 1;
	ex->vms = xreallocarray(ex->vms, ex->nvms + 1, sizeof *ex->vms);
	ex->vms[ex->nvms++] = e;
	e->c = collector_new(ex->loop, &e->spec, ex->o->vm_timeout,
	    settled_cb, ex);
}

static void
exporter_remove(struct exporter *ex, size_t i)
{
	struct vm_entry *e = ex->vms[i];

	collector_free(e->c);
	exporter_vm_spec_free(&e->spec);
	free(e);
	memmove(&ex->vms[i], &ex->vms[i + 1],
	    (ex->nvms - i - 1) * sizeof *ex->vms);
	ex->nvms--;
}

/*
 * Follows --vm-dir: VMs whose socket appeared are added, those whose
 * socket went are dropped (with their series).  A directory that cannot
 * be read keeps the set as it is.
 */
static void
exporter_scan(struct exporter *ex)
{
	struct exporter_vm_spec	*specs;
	struct vm_entry		*e;
	char			*cause = NULL;
	size_t			 n, i;

	if (ex->o->vm_dir == NULL)
		return;
	if (exporter_dir_scan(ex->o->vm_dir, &specs, &n, &cause) != 0) {
		if (ex->dir_error == NULL || strcmp(ex->dir_error, cause) != 0)
			log_warnx("exporter: %s", cause);
		free(ex->dir_error);
		ex->dir_error = cause;
		return;
	}
	free(ex->dir_error);
	ex->dir_error = NULL;
	for (i = 0; i < ex->nvms; i++)
		ex->vms[i]->seen = 0;
	for (i = 0; i < n; i++) {
		if ((e = exporter_find(ex, specs[i].name)) != NULL) {
			e->seen = 1;
			if (!e->from_dir)
				log_debug("exporter: --vm-dir %s: %s is "
				    "already a --vm", ex->o->vm_dir,
				    specs[i].name);
		} else if (ex->nvms < EXPORTER_MAX_VMS) {
			log_info("exporter: vm %s: found in %s",
			    specs[i].name, ex->o->vm_dir);
			exporter_add(ex, &specs[i], 1);
		}
		exporter_vm_spec_free(&specs[i]);
	}
	free(specs);
	for (i = ex->nvms; i-- > 0;)
		if (ex->vms[i]->from_dir && !ex->vms[i]->seen) {
			log_info("exporter: vm %s: gone from %s",
			    ex->vms[i]->spec.name, ex->o->vm_dir);
			exporter_remove(ex, i);
		}
}

/* The exposition of every VM, as of now. */
static void
exporter_render(struct render_buf *b, void *arg)
{
	struct exporter		*ex = arg;
	struct render_vm	*r;
	size_t			 i;

	r = xcalloc(ex->nvms == 0 ? 1 : ex->nvms, sizeof *r);
	for (i = 0; i < ex->nvms; i++) {
		r[i].spec = &ex->vms[i]->spec;
		r[i].snap = collector_snapshot(ex->vms[i]->c);
		r[i].stale = collector_stale(ex->vms[i]->c, ex->o->interval);
		collector_failures(ex->vms[i]->c, r[i].failures);
		r[i].phases = collector_phase_hist(ex->vms[i]->c);
	}
	render_metrics(b, r, ex->nvms, ex->o->node, ex->o->namespace);
	if (ex->o->tls_dir != NULL)
		render_tls_expiry(b, ex->o->tls_dir, ex->o->node, ev_time());
	free(r);
}

/*
 * Renders every VM into TEXTFILE_DIR/qmigrate.prom, replaced atomically.
 * Returns 0, or -1 after a warning (once, until a write succeeds again).
 */
static int
exporter_write_textfile(struct exporter *ex)
{
	struct render_buf	 b = { NULL, 0, 0 };
	char			*path, *cause = NULL;
	int			 rc = 0;

	exporter_render(&b, ex);
	xasprintf(&path, "%s/qmigrate.prom", ex->o->textfile_dir);
	if (write_file_atomic(path, b.p, b.len, &cause) != 0) {
		if (!ex->textfile_failed)
			log_warnx("exporter: textfile %s", cause);
		ex->textfile_failed = 1;
		free(cause);
		rc = -1;
	} else
		ex->textfile_failed = 0;
	free(path);
	free(b.p);
	return rc;
}

static void
refresh_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	struct exporter	*ex = container_of(t, struct exporter, refresh);
	size_t		 i;

	exporter_scan(ex);
	for (i = 0; i < ex->nvms; i++)
		collector_refresh(ex->vms[i]->c);
	if (ex->o->textfile_dir != NULL)
		(void)exporter_write_textfile(ex);
}

/*
 * Whether every VM has answered or given up.  A collector can settle
 * inside collector_new() (its monitor refused the connection at once),
 * before exporter_add() has stored it: an entry without one yet is not.
 */
static int
exporter_all_settled(const struct exporter *ex)
{
	size_t i;

	for (i = 0; i < ex->nvms; i++)
		if (ex->vms[i]->c == NULL || !collector_settled(ex->vms[i]->c))
			return 0;
	return 1;
}

/* --once: stops the loop when every VM has answered or given up. */
static void
exporter_check_once(struct exporter *ex)
{
	if (ex->o->once && exporter_all_settled(ex))
		ev_break(ex->loop, EVBREAK_ALL);
}

static void
once_deadline_cb(struct ev_loop *loop, ev_timer *t, int revents)
{
	ev_break(loop, EVBREAK_ALL);
}

/* SIGINT, SIGTERM, SIGQUIT (signals.c's table): the exporter ends. */
static void
on_stop_signal(int signum, void *arg)
{
	struct exporter *ex = arg;

	log_info("%s: exiting", signals_name(signum));
	ev_break(ex->loop, EVBREAK_ALL);
}

/* The capabilities the exporter keeps (exporter_run()). */
static const int exporter_caps[] = { CAP_SYS_PTRACE };

/*
 * Runs the exporter until SIGINT/SIGTERM (or one refresh with --once).
 * Returns the exit status.
 */
int
exporter_run(const struct exporter_options *o)
{
	struct exporter		 ex;
	struct exporter_vm_spec	 spec;
	struct render_buf	 b = { NULL, 0, 0 };
	char			*cause = NULL;
	size_t			 i;
	int			 rc = QM_EXIT_OK;

	memset(&ex, 0, sizeof ex);
	ex.o = o;
	ex.loop = ev_loop_new(EVFLAG_AUTO);
	if (ex.loop == NULL)
		fatalx("cannot create an event loop");
	signal(SIGPIPE, SIG_IGN);
	srandom((unsigned)getpid() ^ (unsigned)ev_time());

	ex.http = http_server_new(ex.loop, exporter_render, &ex);
	if (o->listen != NULL &&
	    http_server_listen(ex.http, o->listen, &cause) != 0) {
		log_error("%s", cause);
		free(cause);
		http_server_free(ex.http);
		ev_loop_destroy(ex.loop);
		return QM_EXIT_CONTROL;
	}
	/*
	 * The one long-running network listener keeps no capability once its
	 * socket is bound but what reading /proc of QEMU processes needs:
	 * CAP_SYS_PTRACE, for another user's QEMU under hidepid and the
	 * fields of /proc/PID/stat the kernel keeps for those that may
	 * ptrace it.  Monitors, status files and the textfile are reached
	 * with the exporter's own user and groups, as under its systemd unit.
	 */
	if (privs_keep(exporter_caps, sizeof exporter_caps /
	    sizeof exporter_caps[0]) != 0) {
		log_error("cannot drop capabilities");
		http_server_free(ex.http);
		ev_loop_destroy(ex.loop);
		return QM_EXIT_CONTROL;
	}
	for (i = 0; i < o->nvms; i++) {
		memset(&spec, 0, sizeof spec);
		spec.name = xstrdup(o->vms[i].name);
		spec.qmp = xstrdup(o->vms[i].qmp);
		if (o->vms[i].namespace != NULL)
			spec.namespace = xstrdup(o->vms[i].namespace);
		if (o->vms[i].qga != NULL)
			spec.qga = xstrdup(o->vms[i].qga);
		if (o->vms[i].status != NULL)
			spec.status = xstrdup(o->vms[i].status);
		exporter_add(&ex, &spec, 0);
	}
	exporter_scan(&ex);

	ev_timer_init(&ex.refresh, refresh_cb, o->interval, o->interval);
	ex.out_prev = out_attach(ex.loop);
	signals_watch_start(&ex.sigs, ex.loop, "the exporter",
	    on_stop_signal, NULL, &ex);
	if (o->once) {
		ev_timer_init(&ex.once_deadline, once_deadline_cb,
		    o->vm_timeout * 2 + 1, 0);
		ev_timer_start(ex.loop, &ex.once_deadline);
	} else
		ev_timer_start(ex.loop, &ex.refresh);
	/* ev_run() forgets an ev_break() made before it: ask first. */
	if (!(o->once && exporter_all_settled(&ex)))
		ev_run(ex.loop, 0);

	if (o->once) {
		if (o->textfile_dir != NULL) {
			if (exporter_write_textfile(&ex) != 0)
				rc = QM_EXIT_CONTROL;
		} else {
			exporter_render(&b, &ex);
			fwrite(b.p, 1, b.len, stdout);
			fflush(stdout);
			free(b.p);
		}
	}

	http_server_free(ex.http);
	while (ex.nvms > 0)
		exporter_remove(&ex, ex.nvms - 1);
	free(ex.vms);
	free(ex.dir_error);
	ev_timer_stop(ex.loop, &ex.refresh);
	ev_timer_stop(ex.loop, &ex.once_deadline);
	signals_watch_stop(&ex.sigs, 0);
	out_detach(ex.loop, ex.out_prev);
	ev_loop_destroy(ex.loop);
	return rc;
}
