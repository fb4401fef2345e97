/*
 * switchover-request.c: how `qmigrate switchover` reaches the migrate
 * that writes a status file.  The same path `qmigrate abort` takes (the
 * pid the document names, checked, signalled through a pidfd), but a
 * signal carries no words, and the switchover has some (post-copy or a
 * pause, and an id to find its answer by): they go first into a small
 * file beside the status file, F.switchover, then SIGUSR2 tells the
 * migrate to read it.  The migrate takes it (reads, then removes it) and
 * answers in the status document's switchoverRequest, under the same
 * requestId.
 *
 *   {"requestId": "4242-1764742000123456789", "finish": "postcopy",
 *    "pid": 4242}
 *
 * The file is published by link(2) of a synced temporary, never over one
 * already there: two requests before the migrate read the first would
 * otherwise leave only the second, and the first's asker would wait for
 * an answer under an id no one took.  So while a request is pending a
 * second is refused at once, unless the first's asker (pid) is gone:
 * then no one waits for its answer and it is replaced.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "switchover-request.h"
#include "world.h"

#define SWITCHOVER_REQUEST_MAX	4096	/* bytes read of the file */

static const char *finish_names[] = {
	[FINISH_AUTO] = "auto",
	[FINISH_POSTCOPY] = "postcopy",
	[FINISH_PAUSE] = "pause",
};

const char *
switchover_finish_name(enum sess_finish f)
{
	return f <= FINISH_PAUSE ? finish_names[f] : "auto";
}

char *
switchover_request_path(const char *status_file)
{
	char *path;

	xasprintf(&path, "%s.switchover", status_file);
	return path;
}

/* The request in buf (len bytes); 0, or -1 with *cause. */
static int
request_parse(const char *path, const char *buf, size_t len,
    char id[SWITCHOVER_ID_MAX], enum sess_finish *finish, char **cause)
{
	json_object	*o;
	const char	*want, *f;
	int		 i, rc = -1;

	o = memchr(buf, '\0', len) == NULL ? json_tokener_parse(buf) : NULL;
	want = json_str_at(o, "requestId");
	f = json_str_at(o, "finish");
	if (o == NULL || !json_object_is_type(o, json_type_object))
		xasprintf(cause, "switchover request %s: not a JSON object",
		    path);
	else if (want == NULL || *want == '\0' ||
	    strlen(want) >= SWITCHOVER_ID_MAX)
		xasprintf(cause, "switchover request %s: requestId: expected "
		    "a string of 1 to %d characters", path,
		    SWITCHOVER_ID_MAX - 1);
	else {
		for (i = FINISH_AUTO; i <= FINISH_PAUSE; i++)
			if (f != NULL && strcmp(f, finish_names[i]) == 0)
				break;
		if (i > FINISH_PAUSE)
			xasprintf(cause, "switchover request %s: finish: "
			    "expected auto, postcopy or pause", path);
		else {
			snprintf(id, SWITCHOVER_ID_MAX, "%s", want);
			*finish = (enum sess_finish)i;
			rc = 0;
		}
	}
	json_object_put(o);
	return rc;
}

int
switchover_request_take(const char *status_file,
    char id[SWITCHOVER_ID_MAX], enum sess_finish *finish, char **cause)
{
	char	*path = switchover_request_path(status_file), *buf;
	size_t	 len = 0;
	int	 rc;

	buf = world->read_file(path, SWITCHOVER_REQUEST_MAX, &len);
	if (buf == NULL && errno == ENOENT) {
		free(path);
		return 0;
	}
	if (buf == NULL) {
		xasprintf(cause, "switchover request %s: %s", path,
		    errno == EFBIG ? "longer than 4096 bytes" :
		    strerror(errno));
		rc = -1;
	} else
		rc = request_parse(path, buf, len, id, finish, cause) == 0 ?
		    1 : -1;
	/* Taken: a later SIGUSR2 must not find it again. */
	if (world->unlink(path) == -1 && errno != ENOENT && rc == 1) {
		xasprintf(cause, "switchover request %s: cannot remove it: %s",
		    path, strerror(errno));
		rc = -1;
	}
	free(buf);
	free(path);
	return rc;
}

/*
 * The request file at path as a pending request: a malloc'd copy of its
 * bytes (*len of them) with its requestId in id ("" if it has none) and
 * its asker in *pid (0 if it names none), or NULL when there is no file.
 */
static char *
pending_read(const char *path, size_t *len, char id[SWITCHOVER_ID_MAX],
    pid_t *pid)
{
	json_object	*o, *p;
	const char	*want;
	char		*buf;

	id[0] = '\0';
	*pid = 0;
	if ((buf = world->read_file(path, SWITCHOVER_REQUEST_MAX, len)) == NULL)
		return NULL;
	o = memchr(buf, '\0', *len) == NULL ? json_tokener_parse(buf) : NULL;
	if ((want = json_str_at(o, "requestId")) != NULL)
		snprintf(id, SWITCHOVER_ID_MAX, "%s", want);
	if (json_object_object_get_ex(o, "pid", &p) &&
	    json_object_is_type(p, json_type_int) &&
	    json_object_get_int64(p) > 0 &&
	    json_object_get_int64(p) <= INT32_MAX)
		*pid = (pid_t)json_object_get_int64(p);
	json_object_put(o);
	return buf;
}

/*
 * Removes path if it still holds the len bytes of text (read again just
 * before): 1 removed, 0 not (gone, or another's now).  The migrate may
 * take the file between that read and the unlink, and a new request be
 * published in the same instant: it would be the one removed.  That is
 * three processes within microseconds; no lock shared with the migrate
 * closes it, as the migrate's take takes none.
 */
static int
remove_if_same(const char *path, const char *text, size_t len)
{
	char	*buf, id[SWITCHOVER_ID_MAX];
	size_t	 now_len = 0;
	pid_t	 pid;
	int	 same;

	if ((buf = pending_read(path, &now_len, id, &pid)) == NULL)
		return 0;
	same = now_len == len && memcmp(buf, text, len) == 0;
	free(buf);
	return same && world->unlink(path) == 0;
}

int
switchover_request_publish(const char *status_file, const char *id,
    enum sess_finish finish, char pending[SWITCHOVER_ID_MAX], char **cause)
{
	json_object	*o = json_object_new_object();
	char		*path = switchover_request_path(status_file), *old;
	const char	*text;
	size_t		 old_len = 0;
	pid_t		 asker;
	int		 tries, replaced = 0, rc = -1;

	json_object_object_add(o, "requestId", json_object_new_string(id));
	json_object_object_add(o, "finish",
	    json_object_new_string(switchover_finish_name(finish)));
	json_object_object_add(o, "pid", json_object_new_int64(getpid()));
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	for (tries = 0; rc == -1; tries++) {
		if (world->write_file(path, text, strlen(text),
		    WORLD_WRITE_CREATE, cause) == 0) {
			rc = 0;
			break;
		}
		if (errno != EEXIST)
			break;		/* *cause says why */
		free(*cause);
		*cause = NULL;
		old = pending_read(path, &old_len, pending, &asker);
		if (old == NULL && errno == ENOENT && tries < 3)
			continue;	/* taken since: publish again */
		if (old == NULL) {
			xasprintf(cause, "switchover request %s: %s", path,
			    errno == ENOENT ? "requests came and went four "
			    "times in a row" : errno == EFBIG ? "longer than "
			    "4096 bytes" : strerror(errno));
			break;
		}
		if (replaced || (asker > 0 && world->process_exists(asker))) {
			/* Its asker waits for its answer: it stays. */
			if (pending[0] == '\0')
				snprintf(pending, SWITCHOVER_ID_MAX, "?");
			rc = 1;
		} else {
			/* No one waits for this one (its asker was killed
			   before its signal, or it is no request): it goes. */
			if (asker > 0)
				log_info("switchover request %s: replacing "
				    "request %s, whose asker (pid %ld) is gone",
				    path, pending, (long)asker);
			else
				log_info("switchover request %s: replacing "
				    "one that names no asker", path);
			remove_if_same(path, old, old_len);
			replaced = 1;
		}
		free(old);
	}
	json_object_put(o);
	free(path);
	return rc;
}

int
switchover_request_withdraw(const char *status_file, const char *id)
{
	char	*path = switchover_request_path(status_file), *buf;
	char	 their[SWITCHOVER_ID_MAX];
	size_t	 len = 0;
	pid_t	 pid;
	int	 rc = 0;

	if ((buf = pending_read(path, &len, their, &pid)) != NULL &&
	    strcmp(their, id) == 0)
		rc = remove_if_same(path, buf, len);
	free(buf);
	free(path);
	return rc;
}
