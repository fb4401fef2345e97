/*
 * evict.h: `qmigrate evict`'s options and the eviction it runs (evict.c).
 */
#ifndef EVICT_H
#define EVICT_H

#include "qmigrate.h"
#include "policy.h"
#include "mig-options.h"

/*
 * evict.c: one VM's eviction by its policy's strategy.  A live migration
 * is qmigrate migrate's: mig holds what its options would (--to as uri),
 * read by the same mig_options_from_args(); evict adds the agent.
 */
struct evict_options {
	struct mig_options mig;
	const char	*qga_path;	/* NULL: system_powerdown only */
};
int	 evict_run(const struct evict_options *);

#endif
