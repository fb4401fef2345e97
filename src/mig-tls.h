/*
 * mig-tls.h: the TLS proxy inside migrate and incoming, for tls: URIs
 * (mig-tls.c), and the proxy's log hook into qmigrate's log (net.c).
 */
#ifndef MIG_TLS_H
#define MIG_TLS_H

#include "qmigrate.h"
#include "proxy.h"

/* mig-tls.c: the proxy inside migrate and incoming, for tls: URIs */
struct mig_tls_source;
struct mig_tls_target;
typedef void (*mig_tls_offer_cb)(struct json_object *msg, const char *error,
	    void *arg);
struct mig_tls_source *mig_tls_source_open(struct ev_loop *,
	    const struct mig_options *, const char *uid, char **qemu_uri,
	    char **cause);
void	 mig_tls_source_ask(struct mig_tls_source *, struct json_object *,
	    double timeout, mig_tls_offer_cb, void *arg);
void	 mig_tls_source_close(struct mig_tls_source *);
/* The NBD address of each side's QEMU over tls: (--nbd is refused). */
char	*mig_tls_source_nbd_uri(struct mig_tls_source *,
	    const struct mig_options *, char **cause);
char	*mig_tls_target_nbd_uri(struct mig_tls_target *,
	    const struct mig_options *, char **cause);
struct mig_tls_target *mig_tls_target_open(struct ev_loop *,
	    const struct mig_options *, mig_tls_offer_cb, void *arg,
	    char **qemu_uri, char **cause);
int	 mig_tls_target_answer(struct mig_tls_target *, struct json_object *,
	    char **cause);
void	 mig_tls_target_close(struct mig_tls_target *);


/* net.c: the proxy library's messages into qmigrate's log. */
void	 net_proxy_log(enum proxy_log_level, const char *msg,
	    void *arg);

#endif
