/*
 * cmd-proxy.c: qmigrate proxy source|target: the TLS migration proxy on its
 * own, for deployments where a node agent runs the proxy and the engine
 * runs elsewhere.  Runs until SIGINT or SIGTERM.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>

/* proxy.h first: qmigrate.h declares its log hook when it is in. */
#include "proxy.h"
#include "qmigrate.h"
#include "mig-tls.h"
#include "signals.h"

extern const struct cmd_entry cmd_proxy_source_entry;
extern const struct cmd_entry cmd_proxy_target_entry;

/* Parses "tls:HOST:PORT" or "tcp:HOST:PORT" (plaintext). */
static int
parse_net(const char *arg, char **host, char **port, int *plain)
{
	if (strncmp(arg, "tls:", 4) == 0)
		*plain = 0;
	else if (strncmp(arg, "tcp:", 4) == 0)
		*plain = 1;
	else
		return -1;
	return split_hostport(arg + 4, host, port);
}

/* SIGINT, SIGTERM, SIGQUIT (signals.c's table): the proxy stops. */
static void
on_stop_signal(int signum, void *arg)
{
	log_info("%s: stopping", signals_name(signum));
	ev_break(arg, EVBREAK_ALL);
}

/*
 * qmigrate proxy source and qmigrate proxy target.  Each has QEMU's side, a
 * unix socket, and the peer proxy's, a network address: the source listens
 * on the first and goes to the second, the target the other way round.
 */
static int
cmd_proxy_exec(struct args *args, const struct cmd_entry *me, int is_source)
{
	const char		*local = is_source ? "listen" : "to";
	const char		*net = is_source ? "to" : "listen";
	const char		*path = args_get(args, local);
	const char		*addr = args_get(args, net);
	const char		*dir = args_get(args, "tls-dir");
	const char		*name = args_get(args, "tls-name");
	const char		*pin = args_get(args, "pin-subject");
	const char		*user = args_get(args, "user");
	char			*host = NULL, *port = NULL, *cause = NULL;
	double			 idle = args_number(args, "idle-timeout", 0);
	double			 handshake;
	unsigned		 workers;
	int			 tls12 = args_has(args, "tls12"), plain = 0, rc;
	struct proxy_tls	*tls = NULL;
	struct proxy_source	*src = NULL;
	struct proxy_target	*tgt = NULL;
	struct proxy_stats	 st;
	struct ev_loop		*loop;
	struct signals_watch	 sigs;
	struct ev_loop		*out_prev;

	handshake = args_number(args, "handshake-timeout", 0);
	workers = (unsigned)args_number(args, "workers", 0);
	if (strncmp(path, "unix:", 5) != 0 || path[5] == '\0')
		return cmd_usage_error(me, "--%s: expected unix:PATH, got "
		    "\"%s\"", local, path);
	if (parse_net(addr, &host, &port, &plain) != 0)
		return cmd_usage_error(me, "--%s: expected tls:%s:PORT, got "
		    "\"%s\"", net, is_source ? "HOST" : "ADDR", addr);
	if (uri_check(is_source ? "--to" : "--listen", addr, !is_source,
	    &cause) != 0) {
		rc = cmd_usage_error(me, "%s", cause);
		free(cause);
		goto out;
	}
	if (name != NULL && *name == '\0') {
		rc = cmd_usage_error(me, "--tls-name: an empty name");
		goto out;
	}
	if (!plain && dir == NULL) {
		rc = cmd_usage_error(me, "--tls-dir is required with tls:");
		goto out;
	}

	proxy_set_log(net_proxy_log, NULL);
	if (!plain) {
		tls = proxy_tls_load(dir, !is_source, tls12, pin, &cause);
		if (tls == NULL) {
			log_warnx("--tls-dir %s", cause);
			free(cause);
			rc = QM_EXIT_USAGE;
			goto out;
		}
	}
	loop = ev_loop_new(EVFLAG_AUTO);
	if (is_source) {
		src = proxy_source_start(loop, tls, path + 5, host, port,
		    name, &cause);
		if (src != NULL) {
			proxy_source_auto_session(src, 1);
			proxy_source_set_timeouts(src, idle, handshake);
			if (args_has(args, "workers"))
				proxy_source_set_workers(src, workers);
		}
	} else {
		tgt = proxy_target_start(loop, tls, host, port, path + 5, NULL,
		    NULL, &cause);
		if (tgt != NULL) {
			proxy_target_set_timeouts(tgt, idle, handshake);
			if (args_has(args, "workers"))
				proxy_target_set_workers(tgt, workers);
		}
	}
	if (src == NULL && tgt == NULL) {
		log_warnx("%s", cause);
		free(cause);
		rc = QM_EXIT_CONTROL;
		goto done;
	}
	if (privs_drop(user) != 0) {
		rc = QM_EXIT_USAGE;
		goto done;
	}

	out_prev = out_attach(loop);
	signals_watch_start(&sigs, loop, "the proxy", on_stop_signal, NULL,
	    loop);
	ev_run(loop, 0);
	signals_watch_stop(&sigs, 0);
	out_detach(loop, out_prev);

	if (src != NULL)
		proxy_source_stats(src, &st);
	else
		proxy_target_stats(tgt, &st);
	log_info("stopped: %llu connections, %llu bytes to target, %llu "
	    "bytes from target, %llu peers refused",
	    (unsigned long long)st.connections,
	    (unsigned long long)st.bytes_to_target,
	    (unsigned long long)st.bytes_from_target,
	    (unsigned long long)st.refused);
	rc = QM_EXIT_OK;
done:
	proxy_source_free(src);
	proxy_target_free(tgt);
	ev_loop_destroy(loop);
out:
	proxy_tls_free(tls);
	free(host);
	free(port);
	return rc;
}

static int
cmd_proxy_source_exec(struct args *args)
{
	return cmd_proxy_exec(args, &cmd_proxy_source_entry, 1);
}

static int
cmd_proxy_target_exec(struct args *args)
{
	return cmd_proxy_exec(args, &cmd_proxy_target_entry, 0);
}

static const struct args_option proxy_options[] = {
	{ .name = "listen", .type = ARGS_STRING, .value = "ADDR",
	    .flags = ARGS_REQUIRED,
	    .help = "source: unix:PATH; target: tls:ADDR:PORT" },
	{ .name = "to", .type = ARGS_STRING, .value = "ADDR",
	    .flags = ARGS_REQUIRED,
	    .help = "source: tls:HOST:PORT; target: unix:PATH" },
	{ .name = "tls-dir", .type = ARGS_STRING, .value = "DIR",
	    .help = "ca.pem, cert.pem, key.pem (key mode 0600)" },
	{ .name = "tls-name", .type = ARGS_STRING, .value = "NAME",
	    .help =
	    "name the target's certificate must carry (default: HOST of\n"
	    "--to)" },
	{ .name = "tls12", .type = ARGS_FLAG,
	    .help = "allow TLS 1.2 (default: 1.3 only)" },
	{ .name = "pin-subject", .type = ARGS_STRING, .value = "S",
	    .help = "peer certificate subject must be S (RFC 2253, e.g.\n"
	    "CN=node-b)" },
	{ .name = "user", .type = ARGS_STRING, .value = "USER",
	    .help = "drop to USER after opening sockets (root)" },
	{ .name = "idle-timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "close a connection silent for S (60)" },
	{ .name = "handshake-timeout", .type = ARGS_SECONDS, .value = "S",
	    .help = "TLS handshake and header deadline (10)" },
	{ .name = "workers", .type = ARGS_COUNT, .value = "N", .min = 0,
	    .max = 64,
	    .help = "forward data connections on up to N threads (default:\n"
	    "one per CPU; 0: on the main loop)" },
	{ .name = NULL }
};

static const char proxy_exits[] =
    "Exit status: 0 stopped by SIGINT/SIGTERM, 1 usage (--tls-dir, --user),\n"
    "3 cannot listen.\n";

const struct cmd_entry cmd_proxy_source_entry = {
	.name = "proxy source",
	.args = { .options = proxy_options },
	.help =
	"Runs the source side of the TLS migration proxy until SIGINT or\n"
	"SIGTERM: QEMU migrates to --listen unix:PATH; every connection it\n"
	"opens goes to the target proxy at --to tls:HOST:PORT over mutual TLS,\n"
	"with its sequence number.\n",
	.footer = "tcp: instead of tls: forwards in PLAINTEXT (disableTLS).\n",
	.exits = proxy_exits,
	.exec = cmd_proxy_source_exec,
};

const struct cmd_entry cmd_proxy_target_entry = {
	.name = "proxy target",
	.args = { .options = proxy_options },
	.help =
	"Runs the target side of the TLS migration proxy until SIGINT or\n"
	"SIGTERM: accepts authenticated connections on --listen\n"
	"tls:ADDR:PORT and hands them to QEMU's incoming socket (--to\n"
	"unix:PATH) in the order the source QEMU opened them.  It serves a\n"
	"proxy source only: it refuses the offer of migrate --to tls: (no\n"
	"engine behind it; run incoming there).\n",
	.footer = "tcp: instead of tls: forwards in PLAINTEXT (disableTLS).\n",
	.exits = proxy_exits,
	.exec = cmd_proxy_target_exec,
};

static const struct cmd_entry *const proxy_subs[] = {
	&cmd_proxy_source_entry, &cmd_proxy_target_entry, NULL
};

const struct cmd_entry cmd_proxy_entry = {
	.name = "proxy",
	.help = "The TLS migration proxy.\n",
	.subs = proxy_subs,
};
