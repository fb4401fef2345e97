/*
 * rng.h: the simulator's one source of chance (rng.c, xoshiro256**
 * seeded by splitmix64): every draw of a schedule comes from its seed,
 * so a seed replays exactly.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};
void	 rng_seed(struct rng *, uint64_t);
uint64_t rng_next(struct rng *);
double	 rng_unit(struct rng *);		/* [0, 1) */
double	 rng_range(struct rng *, double lo, double hi);
int	 rng_chance(struct rng *, double p);

#endif
