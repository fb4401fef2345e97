/*
 * check-tls.c: `qmigrate check --tls-dir DIR` says when the node's
 * certificate (DIR/cert.pem, kubelet's ..data layout included) expires,
 * and warns within CHECK_TLS_WARN_DAYS or once it has: a migration over
 * tls: with it would fail its handshake.  Read as the proxy reads it
 * (proxy_tls_cert_not_after), so what check says is what a migration meets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "qmigrate.h"
#include "proxy.h"
#include "check-tls.h"

#define DAY	86400.0

/*
 * {"path", "notAfter" (UTC, ISO 8601), "secondsLeft" (negative once
 * expired), "warning" (a sentence, or null)}; NULL with *cause naming the
 * file when it cannot be read or holds no certificate.
 */
json_object *
check_tls_expiry(const char *dir, double now, char **cause)
{
	json_object	*o;
	struct tm	 tm;
	time_t		 t;
	double		 not_after, left;
	char		 date[32], *path, *warning = NULL;

	if (proxy_tls_cert_not_after(dir, &not_after, cause) != 0)
		return NULL;
	t = (time_t)not_after;
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(date, sizeof date, "%.0f", not_after);
	left = not_after - now;
	xasprintf(&path, "%s/cert.pem", dir);
	if (left <= 0)
		xasprintf(&warning, "%s expired %.1f days ago (%s): migrations "
		    "over tls: with it fail their handshake", path, -left / DAY,
		    date);
	else if (left < CHECK_TLS_WARN_DAYS * DAY)
		xasprintf(&warning, "%s expires within %d days (in %.1f days, "
		    "%s): renew it", path, CHECK_TLS_WARN_DAYS, left / DAY, date);
	o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "notAfter", json_object_new_string(date));
	json_object_object_add(o, "secondsLeft",
	    json_object_new_int64((int64_t)left));
	json_object_object_add(o, "warning", warning != NULL ?
	    json_object_new_string(warning) : NULL);
	free(warning);
	free(path);
	return o;
}

/* One line: when it expires; a second, the warning, where there is one. */
void
check_tls_print(json_object *expiry)
{
	json_object	*v;
	double		 left;

	json_object_object_get_ex(expiry, "secondsLeft", &v);
	left = (double)json_object_get_int64(v);
	json_object_object_get_ex(expiry, "notAfter", &v);
	printf("TLS certificate: %s", json_object_get_string(v));
	json_object_object_get_ex(expiry, "path", &v);
	printf(" (%s), %s %.0f s (%.1f days)\n", json_object_get_string(v),
	    left > 0 ? "expires in" : "expired", left > 0 ? left : -left,
	    (left > 0 ? left : -left) / DAY);
	if (json_object_object_get_ex(expiry, "warning", &v) && v != NULL)
		printf("  warning: %s\n", json_object_get_string(v));
}
