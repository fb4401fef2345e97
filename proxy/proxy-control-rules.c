/*
 * proxy-control-rules.c: the control connection's rules (see the header),
 * kept apart from the sockets so that the simulator runs them too.
 */
#include <stddef.h>
#include <string.h>

#include <json-c/json.h>

#include "common.h"
#include "proxy-control-rules.h"

enum proxy_ask
proxy_rule_ask(int owed, int open, int auto_session, int have_id)
{
	if (owed)
		return PROXY_ASK_BUSY;
	if (open)
		return PROXY_ASK_SEND;
	/*
	 * The engine's session keeps its id across control connections: a
	 * question asked again on a new one names the same session, so the
	 * target can let it replace a connection that is stale on its side.
	 */
	return auto_session || !have_id ? PROXY_ASK_OPEN_NEW : PROXY_ASK_OPEN;
}

double
proxy_rule_ask_deadline(double timeout)
{
	/* It replaces the handshake's: a post-copy resume asks with none. */
	return timeout > 0 ? timeout : 0;
}

enum proxy_answer
proxy_rule_answer(int owed, int live, int ready)
{
	if (!owed)
		return PROXY_ANSWER_NOT_OWED;
	return !live && ready ? PROXY_ANSWER_LIVE : PROXY_ANSWER_TAKE;
}

int
proxy_msg_is_ready(struct json_object *o)
{
	struct json_object *st;

	return json_object_object_get_ex(o, "status", &st) &&
	    json_object_is_type(st, json_type_string) &&
	    strcmp(json_object_get_string(st), "ready") == 0;
}

int
proxy_rule_reads(int owed)
{
	return !owed;
}

enum proxy_open
proxy_rule_open(int open, int same)
{
	/*
	 * Only a new connection of the same session (its source lost the old
	 * one and asks again) takes over: the old one is stale on this side,
	 * held or half-open somewhere on the way.
	 */
	if (!open)
		return PROXY_OPEN_NEW;
	return same ? PROXY_OPEN_REPLACE : PROXY_OPEN_REFUSE;
}

enum proxy_data
proxy_rule_data_arrives(int live, int open, int auto_session)
{
	if (live && open)
		return PROXY_DATA_FORWARD;
	if (open)
		return PROXY_DATA_HOLD;
	/*
	 * No session: a standalone source opens one for it.  An engine's
	 * opens one only for a question of the engine's, which it asks
	 * before it lets QEMU connect; a connection that comes after that
	 * session ended (its control connection reset between the ready
	 * answer and QEMU's connect) would wait for good, QEMU's migration or
	 * post-copy resume stuck on it.  Closed, QEMU's fails at once and the
	 * engine asks again.
	 */
	return auto_session ? PROXY_DATA_OPEN : PROXY_DATA_REFUSE;
}

int
proxy_rule_data_admitted(int live, int open, int same)
{
	return live && open && same;
}

int
proxy_rule_ends_with_session(enum conn_state state)
{
	/* Pairs already forwarding are not connections being set up. */
	return state == C_WAIT_SESSION || state == C_HOLD ||
	    state == C_QEMU_CONNECT;
}

int
proxy_rule_deadline(enum conn_state state, double secs,
    int refuse_unauthenticated, char **reason)
{
	int pre_auth;

	pre_auth = state == C_HANDSHAKE || state == C_READ_HDR ||
	    state == C_CONNECT || state == C_SEND_HDR;
	xasprintf(reason, "%s timeout (%.0f s)",
	    state == C_HOLD ? "waiting for earlier connections" :
	    state == C_CONTROL ? "control answer" : "handshake", secs);
	return refuse_unauthenticated && pre_auth;
}

char *
proxy_rule_lost(const char *peer, const char *reason)
{
	char *why;

	xasprintf(&why, "control connection to %s: %s", peer, reason);
	return why;
}

char *
proxy_rule_connect_failed(const char *peer, const char *error)
{
	char *why;

	xasprintf(&why, "connect to %s: %s", peer, error);
	return why;
}
