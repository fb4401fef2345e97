/*
 * cmd-switchover.c: qmigrate switchover --status-file F [--postcopy|--pause]:
 * asks the migrate that writes F to finish the migration now, by post-copy
 * or by pausing the guest so that pre-copy converges (virsh
 * migrate-postcopy, Nova's force-complete).  It goes the way `qmigrate
 * abort` goes (status-writer.c: the pid F names, checked, a pidfd), with
 * the request in a file beside F and SIGUSR2 (switchover-request.c); the
 * running migrate answers in F's switchoverRequest: refused with the
 * reason, or started (the decision is recorded with requestedBy
 * "operator").
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "switchover-request.h"
#include "world.h"

extern const struct cmd_entry cmd_switchover_entry;

/*
 * Why the document doc cannot be asked to switch over, before anything is
 * signalled: *exit_code QM_EXIT_CONTROL where no migration runs in it,
 * QM_EXIT_ABORTED (refused) where it is not a migration's source; NULL
 * where it can be asked.
 */
static char *
doc_refusal(json_object *doc, const char *file, int *exit_code)
{
	const char	*phase = json_str_at(doc, "phase");
	const char	*role = json_str_at(doc, "role");
	const char	*mode = json_str_at(doc, "mode");
	char		*why = NULL;

	*exit_code = QM_EXIT_ABORTED;
	if (phase != NULL && (strcmp(phase, "Succeeded") == 0 ||
	    strcmp(phase, "Failed") == 0 || strcmp(phase, "HandedOver") == 0)) {
		*exit_code = QM_EXIT_CONTROL;
		xasprintf(&why, "status file %s: no migration is running: it "
		    "already ended (%s)", file, phase);
	} else if (role != NULL && strcmp(role, "target") == 0)
		xasprintf(&why, "status file %s: a target's document (qmigrate "
		    "incoming): the source's qmigrate migrate finishes a "
		    "migration: give its status file", file);
	else if (mode != NULL && (strcmp(mode, "CprTransfer") == 0 ||
	    strcmp(mode, "CprExec") == 0))
		xasprintf(&why, "status file %s: an update (cpr-transfer or "
		    "cpr-exec) copies no RAM: there is no post-copy or pause to "
		    "finish it with", file);
	return why;
}

/*
 * What the migrate answered to request id, read from doc: 1 with
 * *exit_code when the command is done, 0 while it waits.
 */
static int
answered(json_object *doc, const char *file, const char *id,
    int *exit_code)
{
	json_object	*sr = json_obj_at(doc, "switchoverRequest");
	const char	*status = json_str_at(sr, "status");
	const char	*reason = json_str_at(sr, "reason");
	const char	*finish = json_str_at(sr, "finish");
	const char	*phase = json_str_at(doc, "phase");
	const char	*their = json_str_at(sr, "requestId");

	if (their != NULL && strcmp(their, id) == 0 && status != NULL) {
		if (strcmp(status, "Refused") == 0) {
			log_error("status file %s: switchover refused: %s",
			    file, reason != NULL ? reason : "no reason given");
			*exit_code = QM_EXIT_ABORTED;
			return 1;
		}
		if (strcmp(status, "Started") == 0) {
			printf("switchover: %s started: %s\n",
			    finish != NULL ? finish : "?",
			    reason != NULL ? reason : "");
			*exit_code = QM_EXIT_OK;
			return 1;
		}
	}
	if (phase != NULL && strcmp(phase, "Succeeded") == 0) {
		printf("switchover: the migration completed first\n");
		*exit_code = QM_EXIT_OK;
		return 1;
	}
	if (phase != NULL && (strcmp(phase, "Failed") == 0 ||
	    strcmp(phase, "HandedOver") == 0)) {
		log_error("status file %s: the migration ended (%s) before the "
		    "switchover was carried out", file, phase);
		*exit_code = QM_EXIT_CONTROL;
		return 1;
	}
	return 0;
}

/* The request a switchover waits on the answer to. */
struct request {
	const char	*file;
	const char	*id;
};

static int
request_answered(json_object *doc, void *arg, int *exit_code)
{
	const struct request *rq = arg;

	return answered(doc, rq->file, rq->id, exit_code);
}

static int
cmd_switchover_exec(struct args *args)
{
	const char	*file = args_get(args, "status-file");
	double		 timeout = args_number(args, "timeout", 40);
	enum sess_finish finish = FINISH_AUTO;
	json_object	*doc;
	char		*cause = NULL, id[SWITCHOVER_ID_MAX];
	char		 pending[SWITCHOVER_ID_MAX];
	int		 pidfd, rc = QM_EXIT_CONTROL;

	if (args_has(args, "postcopy") && args_has(args, "pause"))
		return cmd_usage_error(&cmd_switchover_entry, "--postcopy and "
		    "--pause: give one (neither: post-copy where negotiated, "
		    "else the pause)");
	if (args_has(args, "postcopy"))
		finish = FINISH_POSTCOPY;
	else if (args_has(args, "pause"))
		finish = FINISH_PAUSE;

	doc = status_read_file(file, &cause);
	if (doc == NULL)
		goto fail;
	if ((cause = doc_refusal(doc, file, &rc)) != NULL) {
		json_object_put(doc);
		goto fail;
	}
	rc = QM_EXIT_CONTROL;
	pidfd = status_writer_open(doc, file, &cause);
	json_object_put(doc);
	if (pidfd == -1)
		goto fail;
	snprintf(id, sizeof id, "%ld-%.0f", (long)getpid(),
	    world->now_real() * 1e6);
	switch (switchover_request_publish(file, id, finish, pending,
	    &cause)) {
	case -1:
		close(pidfd);
		goto fail;
	case 1:
		/* Its asker waits for the answer: this one would take it
		   (or hide it), so it is refused, the other untouched. */
		close(pidfd);
		xasprintf(&cause, "status file %s: another switchover request "
		    "is pending (request %s): its asker gets the answer; ask "
		    "again once it has", file, pending);
		rc = QM_EXIT_ABORTED;
		goto fail;
	}
	if (status_writer_signal(pidfd, file, SIGUSR2, &cause) == -1)
		goto withdraw;
	if (status_writer_wait(file, timeout, request_answered,
	    &(struct request){ file, id }, &rc)) {
		/* Answered by the end (the migration ended first): a
		   request not taken must not block the next migrate's. */
		switchover_request_withdraw(file, id);
		return rc;
	}
	xasprintf(&cause, "status file %s: no answer to the switchover within "
	    "%.0f s", file, timeout);
withdraw:
	/* Not taken: a later SIGUSR2 must not find it. */
	switchover_request_withdraw(file, id);
fail:
	log_error("%s", cause);
	free(cause);
	return rc;
}

static const struct args_option switchover_options[] = {
	{ .name = "status-file", .type = ARGS_STRING, .value = "FILE",
	    .flags = ARGS_REQUIRED,
	    .help = "the status document of the migration (the source's)" },
	{ .name = "postcopy", .type = ARGS_FLAG,
	    .help = "finish by post-copy (postcopy-ram negotiated)" },
	{ .name = "pause", .type = ARGS_FLAG,
	    .help = "finish by pausing the guest until pre-copy converges" },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "how long to wait for the answer (40)" },
	{ .name = NULL }
};

const struct cmd_entry cmd_switchover_entry = {
	.name = "switchover",
	.args = { .options = switchover_options },
	.help =
	"Asks the migration whose status document is FILE to finish now: the\n"
	"qmigrate migrate that writes FILE starts post-copy (--postcopy), or\n"
	"pauses the guest so that pre-copy converges (--pause); neither flag:\n"
	"post-copy where postcopy-ram was negotiated, else the pause.  Only a\n"
	"migration in pre-copy can be finished so; the pause needs the\n"
	"settings' allowWorkloadDisruption.  The answer is the document's\n"
	"switchoverRequest; the decision is recorded with requestedBy\n"
	"\"operator\".  One request at a time: while another's is pending\n"
	"(not yet read by the migrate) this one is refused at once.\n",
	.exits =
	"Exit status: 0 when the switchover started (or the migration completed\n"
	"first), 5 when it was refused (the line says why: post-copy already\n"
	"started, past the point of no return, post-copy not negotiated, a\n"
	"target's document, an update, another switchover request pending,\n"
	"...), 3 when no migration runs in FILE, no qmigrate drives it, or\n"
	"nothing answered, 1 for a usage error.\n",
	.exec = cmd_switchover_exec,
};
