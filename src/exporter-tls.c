/*
 * exporter-tls.c: the node's TLS certificate as the exporter sees it
 * (--tls-dir): seconds until it expires, read from cert.pem at each
 * scrape, so that a rotated Secret (kubelet's ..data) or a replaced file
 * shows at once.  The alert rules page before a migration would fail its
 * handshake (contrib/prometheus-alerts.yml).
 */
#include <stdlib.h>

#include "qmigrate.h"
#include "observe.h"
#include "proxy.h"

void
render_tls_expiry(struct render_buf *b, const char *tls_dir, const char *node,
    double now)
{
	char	*cause = NULL, *e, *labels = xstrdup("");
	double	 not_after;
	int	 ok;

	ok = proxy_tls_cert_not_after(tls_dir, &not_after, &cause) == 0;
	if (node != NULL) {
		free(labels);
		e = prom_escape_label(node);
		xasprintf(&labels, "{node=\"%s\"}", e);
		free(e);
	}
	render_printf(b, "# HELP qmigrate_tls_certificate_readable 1 when "
	    "--tls-dir's cert.pem can be read and parsed.\n"
	    "# TYPE qmigrate_tls_certificate_readable gauge\n"
	    "qmigrate_tls_certificate_readable%s %d\n", labels, ok);
	if (ok)
		render_printf(b, "# HELP qmigrate_tls_certificate_expiry_"
		    "seconds Seconds until --tls-dir's cert.pem expires "
		    "(negative once it has).\n"
		    "# TYPE qmigrate_tls_certificate_expiry_seconds gauge\n"
		    "qmigrate_tls_certificate_expiry_seconds%s %.0f\n",
		    labels, not_after - now);
	else
		log_debug("exporter: %s", cause);
	free(cause);
	free(labels);
}
