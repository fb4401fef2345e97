/*
 * clock.c: the time, in seconds as a double, for everything that measures
 * or logs it (src/, proxy/ and the test peers): the world's clock
 * (world.h), the kernel's unless the simulator set its own.
 */
#include "common.h"
#include "world.h"

double
now_monotonic(void)
{
	return world->now();
}

double
now_realtime(void)
{
	return world->now_real();
}
