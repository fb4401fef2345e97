/* check-tls.h: when check's --tls-dir certificate expires. */
#ifndef CHECK_TLS_H
#define CHECK_TLS_H

#include <json-c/json.h>

/* Within this many days of its end a certificate is warned about (the
 * warning alert's QmigrateCertificateExpiresSoon, 14 days). */
#define CHECK_TLS_WARN_DAYS	14

json_object	*check_tls_expiry(const char *dir, double now, char **cause);
void		 check_tls_print(json_object *expiry);

#endif
