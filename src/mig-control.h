/*
 * mig-control.h: the control channel's messages between the two sides
 * over tls: (mig-control.c): the offer, watch, resume, abort, completed
 * and their answers.
 */
#ifndef MIG_CONTROL_H
#define MIG_CONTROL_H

#include "qmigrate.h"
#include "mig-negotiate.h"

/* mig-control.c: the control channel's messages over tls: */
enum control_type {
	CONTROL_UNKNOWN, CONTROL_OFFER, CONTROL_WATCH, CONTROL_RESUME,
	CONTROL_ABORT, CONTROL_COMPLETED,
};
enum control_answer {
	ANSWER_UNKNOWN, ANSWER_READY, ANSWER_REFUSED, ANSWER_OK, ANSWER_ABORT,
	/*
	 * The answers to "completed?" (the handoff, DESIGN.md): the guest
	 * runs here; this QEMU did not and cannot run it (its load failed
	 * and QEMU said so, or it was stopped for good before the answer);
	 * or this side does not know.  Only "fenced" lets the source resume.
	 */
	ANSWER_RUNNING, ANSWER_FENCED, ANSWER_NOT_KNOWN,
};
#define CONTROL_NAME_MAX	253	/* a node's or a pod's name */
struct control_offer {
	char		 uid[40];
	char		 source_node[CONTROL_NAME_MAX + 1];
	char		 source_pod[CONTROL_NAME_MAX + 1];
	int		 has_version;
	int		 qemu_major, qemu_minor, qemu_micro;
	int		 guest_running;
	struct mig_plan	 plan;
	char		**disks;	/* disk names */
	size_t		 ndisks;
	int		 has_qemu;	/* qemu and wants were sent */
	struct qemu_side qemu;		/* the source's QEMU */
	struct mig_wants wants;		/* what the source's policy asks */
};
struct control_msg {
	enum control_type	type;
	char			reason[320];	/* abort */
	/* COMPLETED: 1 post-copy may have run on the source (it was asked
	 * for, or QEMU said so), 0 it did not, -1 not said (an older
	 * source). */
	int			postcopy;
	/* COMPLETED: 1 a disk's mirror failed (or ended) before the
	 * source's QEMU completed, reason saying which: the target's copy
	 * of that disk may miss writes (mig_disks_lost).  0: every mirror
	 * stood, or not said (an older source). */
	int			disks_lost;
	struct control_offer	offer;		/* CONTROL_OFFER */
	char			offer_error[256]; /* a malformed offer */
};
int	 control_decode(struct json_object *, struct control_msg *,
	    char **cause);
struct json_object *control_encode(const struct control_msg *);
void	 control_msg_free(struct control_msg *);
enum control_answer control_answer_decode(struct json_object *,
	    char *reason, size_t len);
struct json_object *control_answer_encode(enum control_answer,
	    const char *reason);
void	 control_answer_identify(struct json_object *, const char *node,
	    const char *pod);
void	 control_answer_agree(struct json_object *,
	    const struct qemu_side *, const struct mig_plan *,
	    struct json_object *why);
int	 control_answer_agreed(struct json_object *, struct qemu_side *,
	    struct mig_plan *, struct json_object **why, char **cause);
void	 control_answer_identity(struct json_object *, char *node,
	    char *pod);

#endif
