/*
 * switchover-request.c: how `qmigrate switchover` reaches the migrate
 * that writes a status file.  The same path `qmigrate abort` takes (the
 * pid the document names, checked, signalled through a pidfd), but a
 * signal carries no words, and the switchover has some (post-copy or a
 * pause, and an id to find its answer by): they go first into a small
 * file beside the status file, F.switchover, installed whole by rename,
 * then SIGUSR2 tells the migrate to read it.  The migrate takes it
 * (reads, then removes it) and answers in the status document's
 * switchoverRequest, under the same requestId.
 *
 *   {"requestId": "4242-1764742000123456789", "finish": "postcopy"}
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int
switchover_request_write(const char *status_file, const char *id,
    enum sess_finish finish, char **cause)
{
	json_object	*o = json_object_new_object();
	char		*path = switchover_request_path(status_file);
	const char	*text;
	int		 rc;

	json_object_object_add(o, "requestId", json_object_new_string(id));
	json_object_object_add(o, "finish",
	    json_object_new_string(switchover_finish_name(finish)));
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	rc = world->write_file(path, text, strlen(text), 1, cause);
	json_object_put(o);
	free(path);
	return rc;
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
