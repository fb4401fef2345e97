# bench/local.mk: `make bench` runs every benchmark of bench/ against this
# build and rewrites bench/RESULTS.md and bench/convergence.png in the
# source tree, in about 40 minutes on 2 cores.  Never part of make check.
# Benchmark a build WITHOUT sanitizers (configure without
# --enable-sanitizers).  make bench BENCH_FULL=1: the full convergence set
# (1 GiB guests, every case 3 times, about 3 hours) and 3 runs of the cost
# and drain benchmarks; BENCH_QUICK=1: a short smoke set.  One group:
# make bench bench_scripts='proxy-throughput.sh proxy-profile.sh proxy-calls.sh proxy-migration.sh'
# bench/RESULTS.md shows bench/convergence.png and cites bench/data.
# bench/accel.sh (KVM against TCG) is run by hand where /dev/kvm opens,
# after make check has built the Linux guest: it is not in bench_scripts;
# nor is bench/throttle.sh (auto-converge against dirty-limit, KVM only).
EXTRA_DIST += bench/convergence.png bench/data
EXTRA_DIST += bench/bench-lib.sh bench/convergence.sh bench/qmigrate-cost.sh \
	bench/drain.sh bench/proxy-bench-lib.sh bench/proxy-throughput.sh \
	bench/proxy-ab.sh bench/proxy-profile.sh bench/proxy-cores.sh \
	bench/proxy-calls.sh bench/proxy-migration.sh bench/postcopy-caps.sh \
	bench/tcg-throttle.sh bench/accel.sh bench/cpr-update.sh \
	bench/throttle.sh bench/RESULTS.md

bench_scripts = convergence.sh qmigrate-cost.sh drain.sh \
	proxy-throughput.sh proxy-cores.sh proxy-profile.sh proxy-calls.sh \
	proxy-migration.sh postcopy-caps.sh tcg-throttle.sh cpr-update.sh

# The ends of proxy-throughput.sh: built for make bench only.
EXTRA_PROGRAMS = bench/proxy-pump
bench_proxy_pump_SOURCES = bench/proxy-pump.c
bench_proxy_pump_CFLAGS = $(AM_CFLAGS) -pthread
bench_proxy_pump_LDFLAGS = $(AM_LDFLAGS) -pthread
bench_proxy_pump_LDADD =
CLEANFILES += bench/proxy-pump

.PHONY: bench
bench: qmigrate tests/guest/memguest.elf tests/proxy-peer bench/proxy-pump
	@set -e; for s in $(bench_scripts); do \
		echo "== bench/$$s"; \
		BENCH_QUICK='$(BENCH_QUICK)' BENCH_FULL='$(BENCH_FULL)' \
		$(abs_top_srcdir)/bench/$$s --write $(abs_top_builddir); \
	done
