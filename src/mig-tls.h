/*
 * mig-tls.h: the TLS proxy inside migrate and incoming, for tls: URIs
 * (mig-tls.c), and the proxy's log hook into qmigrate's log (net.c).
 */
#ifndef MIG_TLS_H
#define MIG_TLS_H

#include "qmigrate.h"
#include "proxy.h"

/*
 * mig-tls.c: the control link of a tls: migration as the executor sees it,
 * one table: the proxy inside migrate and incoming in production
 * (mig_tls_proxy), the simulator's network in tests/sim/ (mig_tls_set(),
 * once, before a side opens its link; see lib/world.h).
 */
struct mig_tls_source;
struct mig_tls_target;
typedef void (*mig_tls_offer_cb)(struct json_object *msg, const char *error,
	    void *arg);
struct mig_tls_link {
	/* The source: a private unix socket for QEMU (*qemu_uri) carried
	   to the target in o->uri.  NULL with *cause. */
	struct mig_tls_source *(*source_open)(struct ev_loop *,
		    const struct mig_options *o, const char *uid,
		    char **qemu_uri, char **cause);
	/* Asks the target (msg stolen); cb gets the answer, or an error
	   when the control connection ends or timeout seconds pass (0:
	   none).  Questions are sent in order; cb may run before this
	   returns. */
	void	 (*source_ask)(struct mig_tls_source *, struct json_object *msg,
		    double timeout, mig_tls_offer_cb cb, void *arg);
	/* Unanswered questions get "the control connection closed"; NULL is
	   ok. */
	void	 (*source_close)(struct mig_tls_source *);
	/* The NBD address of each side's QEMU (--nbd is refused). */
	char	*(*source_nbd_uri)(struct mig_tls_source *,
		    const struct mig_options *, char **cause);
	/* The target: listens on o->uri, forwards to a private socket
	   (*qemu_uri); cb gets every control message, each answered with
	   target_answer (answer stolen). */
	struct mig_tls_target *(*target_open)(struct ev_loop *,
		    const struct mig_options *o, mig_tls_offer_cb cb,
		    void *arg, char **qemu_uri, char **cause);
	int	 (*target_answer)(struct mig_tls_target *,
		    struct json_object *answer, char **cause);
	void	 (*target_close)(struct mig_tls_target *);
	char	*(*target_nbd_uri)(struct mig_tls_target *,
		    const struct mig_options *, char **cause);
};
extern const struct mig_tls_link	 mig_tls_proxy;
extern const struct mig_tls_link	*mig_tls;
void	 mig_tls_set(const struct mig_tls_link *);

/* net.c: the proxy library's messages into qmigrate's log. */
void	 net_proxy_log(enum proxy_log_level, const char *msg,
	    void *arg);

#endif
