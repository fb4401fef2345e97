# Long tests (make check-long; not part of make check): the soak of
# tests/long/soak.sh.  SOAK_N (default 50) migrations, then
# SOAK_VALGRIND_N (default 3) under valgrind.  valgrind needs a qmigrate
# without sanitizers: in a plain build this build's own; in a
# --enable-sanitizers build pass QMIGRATE_VALGRIND=/path/to/plain/qmigrate.
# Then the randomized fault test, FAULT_RANDOM_N runs (make check-long
# FAULT_RANDOM_N=20; FAULT_SEED=N picks the first run's seed).
EXTRA_DIST += tests/long/soak.sh tests/long/fault-random-long.sh
FAULT_RANDOM_N = 100
# The simulator that runs the real executor (tests/sim/README.md):
# SIM_SEEDS schedules from seed 1000000 (make check runs seeds 1-300),
# over SIM_JOBS processes (tests/sim/long-run.sh).
SIM_SEEDS = 1000000
SIM_JOBS = 2

check-sim-long: tests/sim/sim-real$(EXEEXT)
	$(SHELL) '$(abs_top_srcdir)/tests/sim/long-run.sh' 1000000 \
		$(SIM_SEEDS) $(SIM_JOBS)
.PHONY: check-sim-long

check-long: qmigrate$(EXEEXT) tests/guest/memguest.elf tests/qmp-relay$(EXEEXT) \
    tests/sim/sim-real$(EXEEXT)
	$(MAKE) $(AM_MAKEFLAGS) check-sim-long
	@qv=$${QMIGRATE_VALGRIND:-}; \
	if [ -z "$$qv" ] && [ -z "$(SAN_CFLAGS)" ]; then \
		qv='$(abs_top_builddir)/qmigrate'; fi; \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	QMIGRATE='$(abs_top_builddir)/qmigrate' QMIGRATE_VALGRIND="$$qv" \
	$(BASH) '$(abs_top_srcdir)/tests/long/soak.sh'
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	QMIGRATE='$(abs_top_builddir)/qmigrate' FAULT_RUNS='$(FAULT_RANDOM_N)' \
	$(BASH) '$(abs_top_srcdir)/tests/long/fault-random-long.sh'
.PHONY: check-long
