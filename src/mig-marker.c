/*
 * mig-marker.c: the update marker of `update --mode exec`,
 * "<status-file>.update": the one word a re-run has that an update of
 * this QEMU was under way when every write of the status file failed (a
 * full filesystem) before the update's qmigrate was killed.  The exec
 * keeps QEMU's pid and start time and its monitor's path, and QEMU's
 * migration/file.c never removes the --to file, so nothing QEMU says or
 * leaves tells a re-run that the QEMU it finds is the exec's new one.
 * Written and synced (the file, then its directory) before the migrate
 * that makes QEMU exec, holding what names the QEMU (pid, start time,
 * monitor) and the update (its uid); removed once the update's end is
 * in the record.  Through the world (lib/world.h) like the status file,
 * so that the simulator can fail it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "world.h"

/* A marker is a few hundred bytes: anything larger is not one. */
#define MARKER_LIMIT	4096

/* The marker's path beside status_file (malloc'd). */
char *
update_marker_path(const char *status_file)
{
	char *path;

	xasprintf(&path, "%s%s", status_file, UPDATE_MARKER_SUFFIX);
	return path;
}

/*
 * Writes m to path, synced with its directory (world->write_file
 * installs it by rename(2)).  0, or -1 with *cause naming the file.
 */
int
update_marker_write(const char *path, const struct update_marker *m,
    char **cause)
{
	json_object	*o = json_object_new_object();
	const char	*text;
	size_t		 len;
	int		 rc;

	json_object_object_add(o, "migrationUid",
	    json_object_new_string(m->uid));
	json_object_object_add(o, "pid", json_object_new_int64(m->pid));
	json_object_object_add(o, "startTime",
	    json_object_new_uint64(m->start));
	json_object_object_add(o, "qmp", json_object_new_string(m->qmp));
	json_object_object_add(o, "time", json_object_new_double(m->time));
	text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	rc = world->write_file(path, text, len, WORLD_WRITE_INSTALL, cause);
	json_object_put(o);
	return rc;
}

/*
 * Reads the marker at path into m: 1, 0 when there is none, -1 with
 * *cause when one is there that cannot be read (it is kept: an operator
 * looks at it).
 */
int
update_marker_read(const char *path, struct update_marker *m, char **cause)
{
	json_object	*o;
	const char	*uid, *qmp;
	char		*buf;
	size_t		 len;

	memset(m, 0, sizeof *m);
	if (!world->file_exists(path))
		return 0;
	if ((buf = world->read_file(path, MARKER_LIMIT, &len)) == NULL) {
		if (errno == ENOENT)
			return 0;
		xasprintf(cause, "update marker %s: %s", path, errno == EFBIG ?
		    "larger than 4 KiB" : strerror(errno));
		return -1;
	}
	o = json_tokener_parse(buf);
	free(buf);
	uid = json_str_at(o, "migrationUid");
	qmp = json_str_at(o, "qmp");
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    uid == NULL || qmp == NULL) {
		xasprintf(cause, "update marker %s: not a marker qmigrate "
		    "wrote", path);
		json_object_put(o);
		return -1;
	}
	snprintf(m->uid, sizeof m->uid, "%s", uid);
	snprintf(m->qmp, sizeof m->qmp, "%s", qmp);
	m->pid = (pid_t)json_u64_at(o, "pid");
	m->start = json_u64_at(o, "startTime");
	m->time = json_double_at(o, "time");
	json_object_put(o);
	return 1;
}

/* Removes the marker at path: 0 (none there counts), or -1 with *cause. */
int
update_marker_remove(const char *path, char **cause)
{
	if (world->unlink(path) == 0 || errno == ENOENT)
		return 0;
	xasprintf(cause, "update marker %s: %s", path, strerror(errno));
	return -1;
}
