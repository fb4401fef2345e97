/*
 * common.h: the helpers every part of qmigrate links, the libraries in
 * qmp/ and proxy/ as much as the command in src/ (tmux's xmalloc.c and
 * compat/): allocation that cannot fail, container_of, the clocks, a
 * unix socket's connect and listen, a TCP listener, a full read and the
 * escaping of a peer's bytes for a message.
 * Nothing here logs: each library keeps its own log hook.
 */
#ifndef COMMON_H
#define COMMON_H

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include <stdarg.h>
#include <stddef.h>

/*
 * The struct of type that holds member at ptr: recovers an owner from an
 * embedded ev_io or ev_timer (libev's manual, "associating custom data").
 */
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* xmalloc.c: allocation failure is fatal (a message, then abort()). */
void	*xmalloc(size_t size);
void	*xcalloc(size_t nmemb, size_t size);
void	*xrealloc(void *ptr, size_t size);
void	*xreallocarray(void *ptr, size_t nmemb, size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
int	 xasprintf(char **ret, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	 xvasprintf(char **ret, const char *fmt, va_list ap);
/*
 * Sets *cause to the formatted message when the caller asked for one
 * (cause not NULL): the libraries' "-1 with *cause" for callers that may
 * not want the reason.
 */
void	 set_cause(char **cause, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* clock.c: CLOCK_MONOTONIC (intervals) and CLOCK_REALTIME, in seconds. */
double	 now_monotonic(void);
double	 now_realtime(void);

/* unix-socket.c */
/*
 * Fills *sun with path.  Returns 0, or -1 with *cause ("PATH: socket path
 * too long") when it does not fit.
 */
int	 unix_addr(struct sockaddr_un *sun, const char *path, char **cause);
/*
 * A close-on-exec stream socket connected to path, non-blocking when flags
 * has SOCK_NONBLOCK: a unix socket connects at once or fails at once
 * (EAGAIN when the listener's backlog is full), so there is nothing to
 * wait for.  Returns the fd, or -1 with *cause ("PATH: connect: ...").
 */
int	 unix_connect(const char *path, int flags, char **cause);
/*
 * A close-on-exec stream socket listening at path (whatever was there is
 * removed first: for test peers and tools, not for the proxy, which keeps
 * a live socket and sets its mode), non-blocking when flags has
 * SOCK_NONBLOCK.  Returns the fd, or -1 with *cause.
 */
int	 unix_listen(const char *path, int flags, int backlog, char **cause);
/*
 * Connections waiting to be accepted on the listening unix sockets named
 * path (their bound name, which outlives an unlink), or -1 with *cause:
 * the kernel cannot be asked, or no such socket listens.
 */
long	 unix_listen_backlog(const char *path, char **cause);

/* tcp-socket.c */
/*
 * A close-on-exec, non-blocking TCP socket listening on host (NULL or "":
 * every address) and port, on the first address getaddrinfo() gives
 * (AI_PASSIVE and ai_flags) that binds.  Returns the fd, or -1 with
 * *cause: the resolver's or the last socket error, for the caller to
 * prefix with what listens.
 */
int	 tcp_listen(const char *host, const char *port, int ai_flags,
	    char **cause);

/* escape.c */
/*
 * Returns a malloc'd copy of at most max bytes of a peer's text that is
 * safe in a one-line message: printable ASCII stays, a backslash and every
 * other byte become \\ and \xNN, and "..." marks a cut.
 */
char	*escape_bytes(const char *bytes, size_t len, size_t max);

/* read-full.c */
/*
 * Reads fd into buf until end of file or size bytes, again after EINTR.
 * Returns the bytes read, or -1 with errno on a read error.
 */
ssize_t	 read_full(int fd, void *buf, size_t size);

#endif
