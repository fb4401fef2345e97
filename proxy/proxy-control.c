/*
 * proxy-control.c: the control connection's messages, the same on both
 * sides.  Messages are a 4-byte big-endian length (1..PROXY_MAX_CONTROL)
 * and one JSON object; what a message means is the side's business
 * (side_ops.control_msg).  It sits on the connection engine
 * (proxy-conn.c), which ends the session when the control connection
 * closes.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "proxy-int.h"

void
proxy_control_queue(struct conn *c, struct json_object *msg)
{
	struct control_buf	*b = &c->control;
	const char	*text;
	size_t		 len;

	text = json_object_to_json_string_ext(msg, JSON_C_TO_STRING_PLAIN);
	len = strlen(text);
	if (b->out_off == b->out_len) {
		free(b->out);
		b->out = NULL;
		b->out_off = b->out_len = 0;
	}
	b->out = xrealloc(b->out, b->out_len + 4 + len);
	b->out[b->out_len] = (uint8_t)(len >> 24);
	b->out[b->out_len + 1] = (uint8_t)(len >> 16);
	b->out[b->out_len + 2] = (uint8_t)(len >> 8);
	b->out[b->out_len + 3] = (uint8_t)len;
	memcpy(b->out + b->out_len + 4, text, len);
	b->out_len += 4 + len;
}

/*
 * Reads one message when complete: 1 with *msg set (a JSON object, owned
 * by the caller), 0 waiting, -1 failed with *cause.
 */
static int
control_read(struct conn *c, struct json_object **msg, char **cause)
{
	struct control_buf		*b = &c->control;
	struct json_tokener	*tok;
	struct json_object	*o;
	int			 r;

	if (b->len_got < 4) {
		r = proxy_conn_io(c, CONN_READ, b->lenbuf, 4, &b->len_got,
		    cause);
		if (r <= 0)
			return r;
		b->body_len = (size_t)b->lenbuf[0] << 24 |
		    (size_t)b->lenbuf[1] << 16 | (size_t)b->lenbuf[2] << 8 |
		    (size_t)b->lenbuf[3];
		if (b->body_len == 0 || b->body_len > PROXY_MAX_CONTROL) {
			set_cause(cause, "control message of %zu bytes "
			    "(limit %u)", b->body_len, PROXY_MAX_CONTROL);
			return -1;
		}
		b->body = xmalloc(b->body_len);
		b->body_got = 0;
	}
	r = proxy_conn_io(c, CONN_READ, b->body, b->body_len, &b->body_got,
	    cause);
	if (r <= 0)
		return r;
	tok = json_tokener_new();
	o = json_tokener_parse_ex(tok, (const char *)b->body,
	    (int)b->body_len);
	if (o == NULL || !json_object_is_type(o, json_type_object) ||
	    json_tokener_get_parse_end(tok) != b->body_len) {
		json_object_put(o);
		json_tokener_free(tok);
		set_cause(cause, "control message is not one JSON object");
		return -1;
	}
	json_tokener_free(tok);
	free(b->body);
	b->body = NULL;
	b->len_got = 0;
	*msg = o;
	return 1;
}

void
proxy_control_step(struct conn *c)
{
	struct proxy_side	*s = c->side;
	struct control_buf		*b = &c->control;
	struct json_object	*msg;
	char			*cause = NULL;
	int			 r;

	if (b->out_off < b->out_len &&
	    proxy_conn_io(c, CONN_WRITE, b->out, b->out_len, &b->out_off,
	    &cause) < 0)
		goto fail;
	while (proxy_rule_reads(b->awaiting)) {
		r = control_read(c, &msg, &cause);
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		r = s->ops->control_msg(c, msg, &cause);
		json_object_put(msg);
		if (r != 0)
			goto fail;
		if (s->sess.control != c)
			return;	/* closed by the owner */
	}
	proxy_conn_want(c, (proxy_rule_reads(b->awaiting) ? EV_READ : 0) |
	    (b->out_off < b->out_len ? EV_WRITE : 0));
	return;
fail:
	proxy_conn_close(c, cause, 0);
	free(cause);
}
