/*
 * drain.c: evacuates a node: every VM of an inventory is evicted by its
 * own `qmigrate evict` child process (so one crash does not take the drain
 * down), at most max_parallel at once; the children also take node-wide
 * migration slots (slot.c), so separate `qmigrate migrate` processes on
 * the node share the same limit.  A live table shows each VM's strategy,
 * state and progress, read from the children's status files.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ev.h>
#include <json-c/json.h>

#include "qmigrate.h"
#include "signals.h"
#include "slot.h"
#include "drain.h"

#define DRAIN_MAX_VMS		1000
#define DRAIN_MAX_NAME		64
#define DRAIN_REFRESH		0.5	/* seconds between table updates */

enum vm_state { VM_WAITING, VM_RUNNING, VM_DONE };

/* A VM of the inventory: its strings are borrowed from the document. */
struct drain_vm {
	const char		*name;
	const char		*qmp;
	const char		*qga;
	const char		*to;
	char			*status_file;	/* owned: given or made */
	struct stat		 before;	/* the file a run left, */
	int			 had_before;	/* ... kept for re-attach */
	char			*log_file;
	struct label		*labels;
	size_t			 nlabels;
	struct label		*ns_labels;	/* the drain's, then its own */
	size_t			 nns_labels;
	const char		*vmi;

	enum vm_state		 state;
	pid_t			 pid;
	ev_child		 child;
	int			 exit_code;
	char			 strategy[32];
	char			 phase[32];
	char			 action[16];
	int			 progress;	/* percent, -1 unknown */
	char			*reason;	/* failureReason */
	char			*shown;		/* the last line printed */
};

struct drain {
	const struct drain_options	*o;
	struct ev_loop			*loop;
	json_object			*inventory;	/* owns the VMs' strings */
	struct drain_vm			*vms;
	size_t				 nvms;
	size_t				 running;
	size_t				 next;
	int				 stopping;
	int				 tty;
	int				 max_parallel;
	int				 drawn;		/* table lines on screen */
	ev_timer			 refresh;
	struct signals_watch		 sigs;
	char				*work_dir;
};

static const char *
field_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int
name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > DRAIN_MAX_NAME || *s == '.' || *s == '-')
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._-") == n;
}

/*
 * An inventory entry's object of labels (key: "labels" or
 * "namespaceLabels") added to *labels.  Returns 0 or -1 with *cause.
 */
static int
drain_parse_labels(const char *file, size_t i, json_object *e,
    const char *key, struct label **labels, size_t *n, char **cause)
{
	json_object	*o;
	struct label	*got;
	size_t		 ngot;
	char		*path, *why = NULL;
	int		 rc;

	if (!json_object_object_get_ex(e, key, &o))
		return 0;
	/* Checked as every label is: each becomes a child's --label K=V. */
	xasprintf(&path, "%s: [%zu]: %s", file, i, key);
	rc = labels_from_json("inventory", path, o, &got, &ngot, cause);
	if (rc == 0 && (rc = labels_merge(labels, n, got, ngot, &why)) != 0) {
		xasprintf(cause, "inventory %s: %s", path, why);
		free(why);
	}
	labels_free(got, ngot);
	free(path);
	return rc;
}

/*
 * One inventory entry into vm, after the drain's namespace labels (ns, n).
 * Returns 0 or -1 with *cause.
 */
static int
drain_parse_vm(const char *file, size_t i, json_object *e, struct drain_vm *vm,
    const struct label *ns, size_t nns, char **cause)
{
	static const char *fields[] = { "name", "qmp", "qga", "labels",
	    "namespaceLabels", "vmi", "to", "statusFile", NULL };
	static const char *required[] = { "name", "qmp", "to", NULL };
	const char	*s;
	int		 k;
	size_t		 j;

	if (!json_object_is_type(e, json_type_object)) {
		xasprintf(cause, "inventory %s: [%zu]: expected an object",
		    file, i);
		return -1;
	}
	json_object_object_foreach(e, key, val) {
		for (k = 0; fields[k] != NULL; k++)
			if (strcmp(key, fields[k]) == 0)
				break;
		if (fields[k] == NULL) {
			xasprintf(cause, "inventory %s: [%zu]: unknown field "
			    "\"%s\"", file, i, key);
			return -1;
		}
		if (strcmp(key, "labels") != 0 &&
		    strcmp(key, "namespaceLabels") != 0 &&
		    !json_object_is_type(val, json_type_string)) {
			xasprintf(cause, "inventory %s: [%zu]: %s: expected a "
			    "string", file, i, key);
			return -1;
		}
	}
	for (k = 0; required[k] != NULL; k++) {
		if (field_str(e, required[k]) == NULL) {
			xasprintf(cause, "inventory %s: [%zu]: %s: missing",
			    file, i, required[k]);
			return -1;
		}
	}
	s = field_str(e, "name");
	if (!name_ok(s)) {
		xasprintf(cause, "inventory %s: [%zu]: name: expected 1 to %d "
		    "of A-Z a-z 0-9 . _ -, got \"%.80s\"", file, i,
		    DRAIN_MAX_NAME, s);
		return -1;
	}
	vm->name = s;
	vm->qmp = field_str(e, "qmp");
	vm->to = field_str(e, "to");
	vm->qga = field_str(e, "qga");
	if ((s = field_str(e, "statusFile")) != NULL)
		vm->status_file = xstrdup(s);
	vm->vmi = field_str(e, "vmi");
	if (drain_parse_labels(file, i, e, "labels", &vm->labels,
	    &vm->nlabels, cause) != 0)
		return -1;
	/* The drain's own labels: already checked, at most 64, unique. */
	for (j = 0; j < nns; j++)
		(void)labels_add(&vm->ns_labels, &vm->nns_labels, ns[j].key,
		    ns[j].value, cause);
	if (drain_parse_labels(file, i, e, "namespaceLabels", &vm->ns_labels,
	    &vm->nns_labels, cause) != 0)
		return -1;
	vm->progress = -1;
	return 0;
}

/* Frees the VMs and the inventory their strings come from. */
static void
drain_free_vms(struct drain *d)
{
	struct drain_vm	*vm;
	size_t		 i;

	for (i = 0; i < d->nvms; i++) {
		vm = &d->vms[i];
		free(vm->status_file);
		free(vm->log_file);
		free(vm->reason);
		free(vm->shown);
		labels_free(vm->labels, vm->nlabels);
		labels_free(vm->ns_labels, vm->nns_labels);
	}
	free(d->vms);
	json_object_put(d->inventory);
}

/*
 * Reads the inventory strictly into d (which keeps the document: free
 * with drain_free_vms(), also after a failure).  Returns 0 or -1 with
 * *cause.
 */
static int
drain_load(struct drain *d, const char *file, char **cause)
{
	json_object	*doc;
	size_t		 i, j, n;

	doc = policy_read_json("inventory", file, cause);
	if (doc == NULL)
		return -1;
	if (!json_object_is_type(doc, json_type_array)) {
		xasprintf(cause, "inventory %s: expected a JSON list of VMs",
		    file);
		json_object_put(doc);
		return -1;
	}
	n = json_object_array_length(doc);
	if (n == 0 || n > DRAIN_MAX_VMS) {
		xasprintf(cause, "inventory %s: expected 1 to %d VMs, got %zu",
		    file, DRAIN_MAX_VMS, n);
		json_object_put(doc);
		return -1;
	}
	d->inventory = doc;
	d->vms = xcalloc(n, sizeof *d->vms);
	for (i = 0; i < n; i++) {
		d->nvms = i + 1;
		if (drain_parse_vm(file, i, json_object_array_get_idx(doc, i),
		    &d->vms[i], d->o->vm.ns_labels, d->o->vm.nns_labels,
		    cause) != 0)
			return -1;
		for (j = 0; j < i; j++) {
			if (strcmp(d->vms[j].name, d->vms[i].name) == 0) {
				xasprintf(cause, "inventory %s: [%zu]: name: "
				    "\"%s\" already used by [%zu]", file, i,
				    d->vms[i].name, j);
				return -1;
			}
		}
	}
	return 0;
}

/*
 * How many VMs at once: --max-parallel, else the cluster's limits (the
 * policies' KubeVirt object: parallelOutboundMigrationsPerNode, and
 * parallelMigrationsPerCluster since a drain is all the migrations
 * qmigrate sees), else KubeVirt's default, 2.  Loading the policies also
 * checks them before anything starts.  Returns 0 or -1 with *cause.
 */
static int
drain_max_parallel(struct drain *d, char **cause)
{
	struct policy_set	*set;
	uint64_t		 n;

	if ((set = policy_load_or_default(d->o->policy_path, cause)) == NULL)
		return -1;
	d->max_parallel = d->o->max_parallel;
	if (d->max_parallel == 0) {
		n = set->cluster.parallel_outbound_per_node;
		if (set->cluster.parallel_per_cluster < n)
			n = set->cluster.parallel_per_cluster;
		/* qmigrate's slots stop at SLOT_MAX. */
		d->max_parallel = n > SLOT_MAX ? SLOT_MAX : (int)n;
	}
	policy_set_free(set);
	return 0;
}

/*
 * Reads an inventory as drain_run() does and forgets it: the parser alone,
 * for the fuzz target.  Returns 0 or -1 with *cause set.
 */
int
drain_check_inventory(const char *file, char **cause)
{
	static const struct drain_options	 o;
	struct drain				 d;
	int					 rc;

	memset(&d, 0, sizeof d);
	d.o = &o;
	rc = drain_load(&d, file, cause);
	drain_free_vms(&d);
	return rc;
}

/*
 * Whether the status file is still the one an earlier run left (the child
 * has not written yet): its columns would be that run's.
 */
static int
drain_status_stale(const struct drain_vm *vm)
{
	struct stat sb;

	if (!vm->had_before || stat(vm->status_file, &sb) == -1)
		return 0;
	return sb.st_dev == vm->before.st_dev &&
	    sb.st_ino == vm->before.st_ino &&
	    sb.st_mtim.tv_sec == vm->before.st_mtim.tv_sec &&
	    sb.st_mtim.tv_nsec == vm->before.st_mtim.tv_nsec;
}

/* Refreshes a VM's columns from its status file (absent: no change). */
static void
drain_read_status(struct drain_vm *vm)
{
	json_object	*doc, *ev, *prog, *v;
	const char	*s;
	char		*cause = NULL;
	double		 total, done;

	if (drain_status_stale(vm))
		return;
	doc = status_read_file(vm->status_file, &cause);
	if (doc == NULL) {
		free(cause);
		return;
	}
	if (json_object_object_get_ex(doc, "eviction", &ev)) {
		if ((s = field_str(ev, "strategy")) != NULL)
			snprintf(vm->strategy, sizeof vm->strategy, "%s", s);
		if ((s = field_str(ev, "action")) != NULL)
			snprintf(vm->action, sizeof vm->action, "%s", s);
	}
	if ((s = field_str(doc, "phase")) != NULL)
		snprintf(vm->phase, sizeof vm->phase, "%s", s);
	if ((s = field_str(doc, "failureReason")) != NULL) {
		free(vm->reason);
		vm->reason = xstrdup(s);
	}
	if (json_object_object_get_ex(doc, "progress", &prog) &&
	    json_object_object_get_ex(prog, "dataTotal", &v)) {
		total = json_object_get_double(v);
		done = json_object_object_get_ex(prog, "dataProcessed", &v) ?
		    json_object_get_double(v) : 0;
		if (strcmp(vm->phase, "Succeeded") == 0 &&
		    strcmp(vm->action, "migrate") == 0)
			vm->progress = 100;
		else if (total > 0)
			vm->progress = done >= total ? 99 :
			    (int)(100 * done / total);
	}
	json_object_put(doc);
}

static char *
drain_line(const struct drain_vm *vm)
{
	char	 state[48], prog[16];
	char	*line;

	switch (vm->state) {
	case VM_WAITING:
		snprintf(state, sizeof state, "waiting");
		break;
	case VM_RUNNING:
		snprintf(state, sizeof state, "%s", *vm->phase ? vm->phase :
		    "starting");
		break;
	case VM_DONE:
		snprintf(state, sizeof state, "%s exit=%d", *vm->phase ?
		    vm->phase : "ended", vm->exit_code);
		break;
	}
	if (vm->progress >= 0)
		snprintf(prog, sizeof prog, "%d%%", vm->progress);
	else
		snprintf(prog, sizeof prog, "-");
	xasprintf(&line, "%-20s %-22s %-8s %-22s %s", vm->name,
	    *vm->strategy ? vm->strategy : "-", *vm->action ? vm->action : "-",
	    state, prog);
	return line;
}

/* The table: redrawn in place on a terminal, else a line per change. */
static void
drain_show(struct drain *d)
{
	size_t	 i;
	char	*line, *ts;

	if (d->tty && d->drawn > 0)
		printf("\033[%dA", d->drawn);
	if (d->tty && d->drawn == 0)
		printf("%-20s %-22s %-8s %-22s %s\n", "VM", "STRATEGY",
		    "ACTION", "STATE", "PROGRESS");
	for (i = 0; i < d->nvms; i++) {
		struct drain_vm *vm = &d->vms[i];

		if (vm->state != VM_WAITING)
			drain_read_status(vm);
		line = drain_line(vm);
		if (d->tty)
			printf("\033[2K%s\n", line);
		else if (vm->shown == NULL || strcmp(vm->shown, line) != 0) {
			ts = format_rfc3339(now_realtime());
			printf("%s %s\n", ts, line);
			free(ts);
		}
		free(vm->shown);
		vm->shown = line;
	}
	if (d->tty)
		d->drawn = (int)d->nvms;
	fflush(stdout);
}

static void	drain_start_more(struct drain *);

static void
on_child(struct ev_loop *loop, ev_child *w, int revents)
{
	struct drain_vm	*vm = container_of(w, struct drain_vm, child);
	struct drain	*d = ev_userdata(loop);

	ev_child_stop(loop, w);
	vm->state = VM_DONE;
	if (WIFEXITED(w->rstatus))
		vm->exit_code = WEXITSTATUS(w->rstatus);
	else {
		/*
		 * A migration it started may go on without it (unix:, tcp:):
		 * where the VM runs is not known.  Its status file is kept,
		 * so the same drain again re-attaches.
		 */
		vm->exit_code = QM_EXIT_UNKNOWN;
		free(vm->reason);
		xasprintf(&vm->reason, "qmigrate evict killed by signal %d: "
		    "where the VM runs is not known; run the drain again to "
		    "re-attach (status %s)", WTERMSIG(w->rstatus),
		    vm->status_file);
	}
	d->running--;
	drain_start_more(d);
	drain_show(d);
	if (d->running == 0 && (d->next == d->nvms || d->stopping))
		ev_break(loop, EVBREAK_ALL);
}

/* argv of `qmigrate evict` for vm (NULL-terminated, caller frees). */
static char **
drain_argv(struct drain *d, struct drain_vm *vm)
{
	char	**av;
	size_t	  n = 0, i;

	av = xcalloc(26 + 2 * (vm->nlabels + vm->nns_labels), sizeof *av);
	av[n++] = xstrdup("qmigrate");
	av[n++] = xstrdup("evict");
	av[n++] = xstrdup("--qmp");
	av[n++] = xstrdup(vm->qmp);
	if (vm->qga != NULL) {
		av[n++] = xstrdup("--qga");
		av[n++] = xstrdup(vm->qga);
	}
	av[n++] = xstrdup("--to");
	av[n++] = xstrdup(vm->to);
	if (d->o->policy_path != NULL) {
		av[n++] = xstrdup("--policy");
		av[n++] = xstrdup(d->o->policy_path);
	}
	for (i = 0; i < vm->nlabels; i++) {
		av[n++] = xstrdup("--label");
		xasprintf(&av[n++], "%s=%s", vm->labels[i].key,
		    vm->labels[i].value);
	}
	for (i = 0; i < vm->nns_labels; i++) {
		av[n++] = xstrdup("--namespace-label");
		xasprintf(&av[n++], "%s=%s", vm->ns_labels[i].key,
		    vm->ns_labels[i].value);
	}
	if (vm->vmi != NULL) {
		av[n++] = xstrdup("--vmi");
		av[n++] = xstrdup(vm->vmi);
	}
	av[n++] = xstrdup("--status-file");
	av[n++] = xstrdup(vm->status_file);
	av[n++] = xstrdup("--slot-dir");
	av[n++] = xstrdup(d->o->slot_dir);
	av[n++] = xstrdup("--max-parallel");
	xasprintf(&av[n++], "%d", d->max_parallel);
	if (d->o->node != NULL) {
		av[n++] = xstrdup("--node");
		av[n++] = xstrdup(d->o->node);
	}
	av[n] = NULL;
	return av;
}

/*
 * Forks `qmigrate evict` for vm, output to its log file.  A status file
 * an earlier run left stays: it is the record a killed child's migration
 * is re-attached with (the table ignores it until the child writes).
 * The signals taken (signals.c) are blocked across the fork and the
 * exec, so one sent to the child then waits for the child's own handler.
 */
static void
drain_spawn(struct drain *d, struct drain_vm *vm)
{
	char		**av = drain_argv(d, vm), **a;
	sigset_t	  old;
	pid_t		  pid;
	int		  fd;
	size_t		  i;
	static const int  taken[] = { SIGINT, SIGTERM, SIGQUIT, SIGHUP,
	    SIGUSR1, SIGUSR2 };

	vm->had_before = stat(vm->status_file, &vm->before) == 0;
	fflush(stdout);
	fflush(stderr);
	signals_block(&old);
	pid = fork();
	if (pid == -1) {
		log_warn("%s: fork", vm->name);
		vm->state = VM_DONE;
		vm->exit_code = QM_EXIT_CONTROL;
		vm->reason = xstrdup("cannot fork qmigrate evict");
	} else if (pid == 0) {
		fd = open(vm->log_file, O_WRONLY | O_CREAT | O_TRUNC |
		    O_CLOEXEC, 0644);
		if (fd == -1)
			_exit(QM_EXIT_CONTROL);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		fd = open("/dev/null", O_RDONLY);
		if (fd != -1)
			dup2(fd, STDIN_FILENO);
		/* Still blocked: the new qmigrate's main() takes them. */
		for (i = 0; i < NITEMS(taken); i++)
			signal(taken[i], SIG_DFL);
		execv("/proc/self/exe", av);
		fprintf(stderr, "qmigrate drain: exec /proc/self/exe: %s\n",
		    strerror(errno));
		_exit(QM_EXIT_CONTROL);
	} else {
		vm->pid = pid;
		vm->state = VM_RUNNING;
		ev_child_init(&vm->child, on_child, pid, 0);
		ev_child_start(d->loop, &vm->child);
		d->running++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	for (a = av; *a != NULL; a++)
		free(*a);
	free(av);
}

/* Starts evictions while fewer than max_parallel run. */
static void
drain_start_more(struct drain *d)
{
	while (!d->stopping && d->next < d->nvms &&
	    d->running < (size_t)d->max_parallel)
		drain_spawn(d, &d->vms[d->next++]);
}

static void
on_refresh(struct ev_loop *loop, ev_timer *t, int revents)
{
	drain_show(ev_userdata(loop));
}

/*
 * SIGINT, SIGTERM, SIGQUIT (signals.c's table): no new evictions; running
 * ones are asked to abort.
 */
static void
on_stop_signal(int signum, void *arg)
{
	struct drain	*d = arg;
	struct ev_loop	*loop = d->loop;
	size_t		 i;

	(void)signum;
	if (d->stopping)
		return;
	d->stopping = 1;
	log_warnx("drain interrupted: aborting the running evictions, "
	    "starting no more");
	for (i = 0; i < d->nvms; i++)
		if (d->vms[i].state == VM_RUNNING)
			kill(d->vms[i].pid, SIGTERM);
	if (d->running == 0)
		ev_break(loop, EVBREAK_ALL);
}

/*
 * Every child has ended: a signal changes nothing from here; the signals
 * are ignored after (mig_watch_free()'s way): the table and the summary
 * are never cut by a death by signal.
 */
static void
drain_disarm(struct drain *d)
{
	signals_watch_stop(&d->sigs, 0);
}

/* Names the status and log file of every VM. */
static int
drain_files(struct drain *d, char **cause)
{
	char	 tmpl[] = "/tmp/qmigrate-drain.XXXXXX";
	size_t	 i;

	for (i = 0; i < d->nvms; i++) {
		struct drain_vm *vm = &d->vms[i];

		if (vm->status_file == NULL) {
			if (d->work_dir == NULL) {
				if (mkdtemp(tmpl) == NULL) {
					xasprintf(cause, "%s: %s", tmpl,
					    strerror(errno));
					return -1;
				}
				d->work_dir = xstrdup(tmpl);
			}
			xasprintf(&vm->status_file, "%s/%s.status",
			    d->work_dir, vm->name);
		}
		xasprintf(&vm->log_file, "%s.log", vm->status_file);
	}
	return 0;
}

/*
 * Prints what is left on the node and the counts.  Returns 0 only when no
 * VM runs here any more: else the worst exit status of the VMs left
 * behind, or 7 when the only ones left are an external controller's.
 */
static int
drain_summary(struct drain *d)
{
	size_t	i, moved = 0, stopped = 0, external = 0, left = 0;
	int	rc = QM_EXIT_OK;

	for (i = 0; i < d->nvms; i++) {
		struct drain_vm *vm = &d->vms[i];

		if (vm->state == VM_DONE && vm->exit_code == QM_EXIT_EXTERNAL) {
			external++;
			printf("left to an external controller: %s: still runs "
			    "on this node (status %s)\n", vm->name,
			    vm->status_file);
		} else if (vm->state != VM_DONE || vm->exit_code != 0) {
			left++;
			if (vm->state != VM_DONE)
				printf("left behind: %s: not evicted (drain "
				    "interrupted)\n", vm->name);
			else
				printf("left behind: %s: exit %d: %s (log "
				    "%s)\n", vm->name, vm->exit_code,
				    vm->reason != NULL ? vm->reason :
				    "no reason recorded", vm->log_file);
			if (vm->state != VM_DONE)
				rc = rc > QM_EXIT_ABORTED ? rc :
				    QM_EXIT_ABORTED;
			else
				rc = rc > vm->exit_code ? rc : vm->exit_code;
		} else if (strcmp(vm->action, "migrate") == 0)
			moved++;
		else
			stopped++;
	}
	if (rc == QM_EXIT_OK && external > 0)
		rc = QM_EXIT_EXTERNAL;
	printf("drain: %zu VMs: %zu migrated, %zu shut down, %zu left to an "
	    "external controller, %zu left behind\n", d->nvms, moved, stopped,
	    external, left);
	if (external + left > 0)
		printf("drain: the node is not empty: %zu VMs left on it\n",
		    external + left);
	if (d->work_dir != NULL)
		printf("drain: status and log files in %s\n", d->work_dir);
	fflush(stdout);
	return rc;
}

/*
 * Evacuates the node described by o->inventory.  Returns 0 when every VM
 * was evicted (none runs here any more); else the worst exit status of the
 * children left behind (8 for one killed by a signal: where its VM runs is
 * not known; 5 for one never started, the drain interrupted), 7 when the
 * only VMs left are handed to an external controller, 1 for a bad
 * inventory (nothing started).
 */
int
drain_run(const struct drain_options *o)
{
	struct drain	 d;
	char		*cause = NULL;
	int		 rc;

	memset(&d, 0, sizeof d);
	d.o = o;
	if (drain_load(&d, o->inventory, &cause) != 0 ||
	    drain_files(&d, &cause) != 0 ||
	    drain_max_parallel(&d, &cause) != 0) {
		log_error("%s", cause);
		free(cause);
		rc = QM_EXIT_USAGE;
		goto out;
	}
	if (mkdir(o->slot_dir, 0755) == -1 && errno != EEXIST) {
		log_error("slot directory %s: %s",
		    o->slot_dir, strerror(errno));
		rc = QM_EXIT_USAGE;
		goto out;
	}
	d.loop = ev_default_loop(0);	/* ev_child needs the default loop */
	ev_set_userdata(d.loop, &d);
	d.tty = isatty(STDOUT_FILENO);
	log_info("draining %zu VMs, at most %d at once (slots in %s)",
	    d.nvms, d.max_parallel, o->slot_dir);
	ev_timer_init(&d.refresh, on_refresh, DRAIN_REFRESH, DRAIN_REFRESH);
	ev_timer_start(d.loop, &d.refresh);
	/* A signal before this (recorded since main()) stops it here. */
	signals_watch_start(&d.sigs, d.loop, "the drain", on_stop_signal,
	    NULL, &d);
	ev_run(d.loop, EVRUN_NOWAIT);
	drain_start_more(&d);
	drain_show(&d);
	if (d.running > 0)
		ev_run(d.loop, 0);
	ev_timer_stop(d.loop, &d.refresh);
	drain_disarm(&d);
	drain_show(&d);
	rc = drain_summary(&d);
out:
	drain_free_vms(&d);
	free(d.work_dir);
	return rc;
}
