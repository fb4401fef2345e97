/*
 * fuzz-mig-control.c: what a source's qmigrate sends the target's over
 * the control channel (mig-control.c), and what the target answers: any
 * bytes, parsed as the proxy hands them over (one JSON value), decoded,
 * and then stepped into a target session waiting for an offer, so that no
 * message a peer can send crashes the decoder or the session.
 */
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "qmigrate.h"
#include "mig-session.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
step_target(const struct control_msg *m)
{
	struct session		s;
	struct sess_config	cfg;
	struct sess_event	ev;

	memset(&cfg, 0, sizeof cfg);
	cfg.role = SESS_TARGET;
	cfg.tls = 1;
	cfg.peer = "tls:fuzz:1";
	cfg.qmp_path = "fuzz.qmp";
	cfg.qemu_major = 7;
	cfg.qemu_minor = 2;
	session_init(&s, &cfg);
	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_SETUP_DONE;
	ev.ok = 1;
	session_step(&s, &ev);
	memset(&ev, 0, sizeof ev);
	ev.kind = SEV_CONTROL;
	ev.msg = m;
	session_step(&s, &ev);
	session_step(&s, &ev);		/* twice: a second offer */
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_tokener		*tok;
	json_object		*o, *again, *why = NULL;
	struct control_msg	 m;
	struct qemu_side	 side;
	struct mig_plan		 plan;
	char			 reason[320], *cause = NULL;

	log_init("fuzz", LOG_LEVEL_WARN, 0);
	if (size > 65536)
		return 0;
	tok = json_tokener_new_ex(32);
	o = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	control_answer_decode(o, reason, sizeof reason);
	if (control_answer_agreed(o, &side, &plan, &why, &cause) < 0)
		free(cause);
	cause = NULL;
	json_object_put(why);
	if (control_decode(o, &m, &cause) == 0) {
		step_target(&m);
		again = control_encode(&m);
		control_msg_free(&m);
		json_object_put(again);
	} else
		free(cause);
	json_object_put(o);
	return 0;
}
