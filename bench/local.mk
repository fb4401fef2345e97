# bench/local.mk: `make bench` runs every benchmark of bench/ against this
# build and rewrites bench/RESULTS.md and bench/convergence.png in the
# source tree.  Never part of make check.  Benchmark a build WITHOUT
# sanitizers (configure without --enable-sanitizers).  BENCH_QUICK=1 (make
# bench BENCH_QUICK=1) runs the short convergence set.
EXTRA_DIST += bench/bench-lib.sh bench/convergence.sh bench/qmigrate-cost.sh \
	bench/drain.sh bench/proxy-throughput.sh bench/proxy-migration.sh \
	bench/RESULTS.md

bench_scripts = convergence.sh qmigrate-cost.sh drain.sh \
	proxy-throughput.sh proxy-migration.sh

.PHONY: bench
bench: qmigrate tests/guest/memguest.elf tests/proxy-peer
	@set -e; for s in $(bench_scripts); do \
		echo "== bench/$$s"; \
		BENCH_QUICK='$(BENCH_QUICK)' $(abs_top_srcdir)/bench/$$s --write $(abs_top_builddir); \
	done
