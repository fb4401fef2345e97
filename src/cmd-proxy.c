/*
 * cmd-proxy.c: qmigrate proxy source|target: the TLS migration proxy on its
 * own, for deployments where a node agent runs the proxy and the engine
 * runs elsewhere.  Runs until SIGINT or SIGTERM.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ev.h>

/* proxy.h first: qmigrate.h declares its log hook when it is in. */
#include "proxy.h"
#include "qmigrate.h"

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

static void
signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	log_info("signal %d: stopping", w->signum);
	ev_break(loop, EVBREAK_ALL);
}

static int
cmd_proxy_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "to", required_argument, NULL, 't' },
		{ "tls-dir", required_argument, NULL, 'd' },
		{ "tls-name", required_argument, NULL, 'n' },
		{ "tls12", no_argument, NULL, '2' },
		{ "pin-subject", required_argument, NULL, 'p' },
		{ "user", required_argument, NULL, 'u' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "handshake-timeout", required_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cmd_entry	*me = &cmd_proxy_entry;
	const char		*listen = NULL, *to = NULL, *dir = NULL;
	const char		*name = NULL, *pin = NULL, *user = NULL;
	char			*host = NULL, *port = NULL, *cause = NULL;
	double			 idle = 0, handshake = 0;
	int			 ch, tls12 = 0, plain = 0, is_source, rc;
	struct proxy_tls	*tls = NULL;
	struct proxy_source	*src = NULL;
	struct proxy_target	*tgt = NULL;
	struct proxy_stats	 st;
	struct ev_loop		*loop;
	ev_signal		 sigint, sigterm;

	if (argc < 2 || (strcmp(argv[1], "source") != 0 &&
	    strcmp(argv[1], "target") != 0))
		return cmd_usage_error(me, "expected source or target");
	is_source = strcmp(argv[1], "source") == 0;
	argc--;
	argv++;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (ch) {
		case 'l':
			listen = optarg;
			break;
		case 't':
			to = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'n':
			name = optarg;
			break;
		case '2':
			tls12 = 1;
			break;
		case 'p':
			pin = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case 'i':
		case 'h':
			if (parse_seconds(optarg, ch == 'i' ? &idle :
			    &handshake) != 0)
				return cmd_usage_error(me, "--%s: expected "
				    "seconds, got \"%s\"", ch == 'i' ?
				    "idle-timeout" : "handshake-timeout",
				    optarg);
			break;
		default:
			return cmd_usage_error(me, "unknown option %s",
			    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cmd_usage_error(me, "unexpected argument \"%s\"",
		    argv[optind]);
	if (listen == NULL || to == NULL)
		return cmd_usage_error(me, "--listen and --to are required");
	if (is_source) {
		if (strncmp(listen, "unix:", 5) != 0 || listen[5] == '\0')
			return cmd_usage_error(me, "--listen: expected "
			    "unix:PATH, got \"%s\"", listen);
		if (parse_net(to, &host, &port, &plain) != 0)
			return cmd_usage_error(me, "--to: expected "
			    "tls:HOST:PORT, got \"%s\"", to);
	} else {
		if (strncmp(to, "unix:", 5) != 0 || to[5] == '\0')
			return cmd_usage_error(me, "--to: expected unix:PATH, "
			    "got \"%s\"", to);
		if (parse_net(listen, &host, &port, &plain) != 0)
			return cmd_usage_error(me, "--listen: expected "
			    "tls:ADDR:PORT, got \"%s\"", listen);
	}
	if (!plain && dir == NULL) {
		rc = cmd_usage_error(me, "--tls-dir is required with tls:");
		goto out;
	}

	proxy_set_log(proxy_log_to_qmigrate, NULL);
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
		src = proxy_source_start(loop, tls, listen + 5, host, port,
		    name, &cause);
		if (src != NULL) {
			proxy_source_auto_session(src, 1);
			proxy_source_set_timeouts(src, idle, handshake);
		}
	} else {
		tgt = proxy_target_start(loop, tls, host, port, to + 5, NULL,
		    NULL, &cause);
		if (tgt != NULL)
			proxy_target_set_timeouts(tgt, idle, handshake);
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

	ev_signal_init(&sigint, signal_cb, SIGINT);
	ev_signal_start(loop, &sigint);
	ev_signal_init(&sigterm, signal_cb, SIGTERM);
	ev_signal_start(loop, &sigterm);
	ev_run(loop, 0);
	ev_signal_stop(loop, &sigint);
	ev_signal_stop(loop, &sigterm);

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

const struct cmd_entry cmd_proxy_entry = {
	"proxy",
	"source|target --listen ADDR --to ADDR [--tls-dir DIR] [options]",
	"Runs the TLS migration proxy until SIGINT or SIGTERM.\n"
	"  source --listen unix:PATH --to tls:HOST:PORT\n"
	"      QEMU migrates to unix:PATH; every connection it opens goes to\n"
	"      the target proxy over mutual TLS, with its sequence number.\n"
	"  target --listen tls:ADDR:PORT --to unix:PATH\n"
	"      accepts authenticated connections and hands them to QEMU's\n"
	"      incoming socket in the order the source QEMU opened them.\n"
	"      It serves a proxy source only: it refuses the offer of\n"
	"      migrate --to tls: (no engine behind it; run incoming there).\n"
	"options:\n"
	"  --tls-dir DIR          ca.pem, cert.pem, key.pem (key mode 0600)\n"
	"  --tls-name NAME        name the target's certificate must carry\n"
	"                         (default: HOST of --to)\n"
	"  --tls12                allow TLS 1.2 (default: 1.3 only)\n"
	"  --pin-subject S        peer certificate subject must be S (RFC 2253,\n"
	"                         e.g. CN=node-b)\n"
	"  --user USER            drop to USER after opening sockets (root)\n"
	"  --idle-timeout S       close a connection silent for S (60)\n"
	"  --handshake-timeout S  TLS handshake and header deadline (10)\n"
	"tcp: instead of tls: forwards in PLAINTEXT (disableTLS).\n",
	cmd_proxy_exec,
};
