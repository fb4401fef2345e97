# Test harness: unit tests are cmocka programs, integration tests are shell
# scripts that start real QEMU.  Each area adds its own tests below.
TEST_EXTENSIONS = .sh
if QEMU_TESTS
SH_LOG_COMPILER = $(BASH)
else
# configure --disable-qemu-tests: each real-QEMU test is reported as SKIP.
SH_LOG_COMPILER = $(BASH) $(srcdir)/tests/skip-qemu.sh
AM_TESTS_ENVIRONMENT += qemu_tests='$(integration_tests)'; export qemu_tests;
endif
AM_SH_LOG_FLAGS =
EXTRA_DIST += tests/lib.sh tests/skip-qemu.sh tests/qemu-roots.sh tests/qemu-wrap.sh \
	tests/status-schema.py

# What every program links unless it says otherwise: the unit tests
# (one file each, tests/unit/test-NAME.c, automake's default source)
# need nothing more than their line in unit_tests.
LDADD = $(qmigrate_libs) $(CMOCKA_LIBS)
AM_CPPFLAGS += $(CMOCKA_CFLAGS)

check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests) $(host_tests) $(integration_tests)
EXTRA_DIST += $(host_tests) $(integration_tests)

# The unit tests again under valgrind (run.sh test does this on a build
# without sanitizers, which valgrind cannot run).
check-valgrind: $(unit_tests)
	@set -e; for t in $(unit_tests); do \
		echo "valgrind: $$t"; \
		$(VALGRIND) -q --error-exitcode=1 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect \
			--show-leak-kinds=definite,indirect ./$$t; \
	done
.PHONY: check-valgrind

# A delaying, lossy link between the fault tests' two hosts (netns-lib.sh
# link_slow): this kernel has no sch_netem.
check_PROGRAMS += tests/slow-wire
tests_slow_wire_SOURCES = tests/slow-wire.c
tests_slow_wire_LDADD =

# A relay between qmigrate and a QEMU monitor that hangs up or holds a
# command on cue (the session's fault tests: a real QEMU cannot be made to
# drop its monitor).
check_PROGRAMS += tests/qmp-relay
tests_qmp_relay_SOURCES = tests/qmp-relay.c
tests_qmp_relay_LDADD =

# The version matrix (tests/qemu-matrix-lib.sh): the core migration tests
# against each QEMU of QEMU_VERSIONS beside the host's, and the upgrade pairs.
integration_tests += tests/integration/qemu-matrix-10.0.sh \
	tests/integration/qemu-matrix-11.1.sh \
	tests/integration/qemu-matrix-upgrade.sh \
	tests/integration/migrate-failed-load.sh
EXTRA_DIST += tests/qemu-matrix-lib.sh
# In-place updates by cpr-transfer (qmigrate update, tests/cpr-lib.sh):
# 10.0 and 11.1 each to a new QEMU of its own, and 10.0 -> 11.1.
integration_tests += tests/integration/cpr-update-10.0.sh \
	tests/integration/cpr-update-11.1.sh \
	tests/integration/cpr-update-upgrade.sh \
	tests/integration/cpr-check.sh \
	tests/integration/cpr-exec-check.sh \
	tests/integration/cpr-exec-update.sh \
	tests/integration/cpr-exec-lost.sh \
	tests/integration/cpr-exec-signals.sh \
	tests/integration/cpr-exec-rerun-failed.sh \
	tests/integration/cpr-exec-rerun-norecord.sh \
	tests/integration/cpr-exec-rerun-marker.sh \
	tests/integration/cpr-exec-putback-mute.sh \
	tests/integration/cpr-exec-rerun-mode-left.sh \
	tests/integration/cpr-exec-inspect-dropped.sh \
	tests/integration/cpr-exec-check-putback.sh \
	tests/integration/cpr-exec-first-doc-runstate.sh \
	tests/integration/cpr-new-killed.sh \
	tests/integration/cpr-new-monitor-missing.sh \
	tests/integration/cpr-abort.sh \
	tests/integration/cpr-old-silent.sh \
	tests/integration/cpr-rerun.sh \
	tests/integration/cpr-rerun-closed.sh \
	tests/integration/cpr-new-fails-load.sh \
	tests/integration/cpr-handoff.sh \
	tests/integration/cpr-switchover-signal.sh \
	tests/integration/cpr-new-monitor-bad.sh \
	tests/integration/cpr-reconnect-attach.sh \
	tests/integration/cpr-rerun-old-gone.sh \
	tests/integration/cpr-paused-guest.sh \
	tests/integration/cpr-mode-reset.sh
EXTRA_DIST += tests/cpr-lib.sh tests/cpr-exec-lib.sh
# tests/lib.sh's KVM probe, once per boot of the machine (a pass near its
# bound for a minute only); its cache checked against a stand-in QEMU.
CLEANFILES += tests/accel-probe tests/accel-probe.lock
host_tests += tests/integration/accel-probe.sh

# Issue 22: random faults at random moments, the whole promise checked
# after each (real QEMU; a short fixed-seed run here, 100 runs in
# make check-long), and the session's failure paths one by one.
integration_tests += tests/integration/fault-random.sh \
	tests/integration/session-pause-resume.sh \
	tests/integration/session-controller-abort.sh \
	tests/integration/session-incoming-killed-tls.sh

# Issue 22's defects, each a real-QEMU test that failed before the session
# rewrite (one transition table per side, a pure step, no nested loop).
defect_tests = tests/integration/session-disk-abort-start.sh \
	tests/integration/session-incoming-term-tls.sh \
	tests/integration/session-qemu-stopped.sh \
	tests/integration/session-qmp-lost.sh \
	tests/integration/session-pause-abort.sh \
	tests/integration/session-reattach-tls.sh
integration_tests += $(defect_tests)
check-defects: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(defect_tests)'
.PHONY: check-defects

# Issue 30, "a re-run always tells the truth" (audit D5, D12, D18, D24):
# after any exit, 8 included, the same command with the same status file
# re-attaches, reports QEMU's outcome, or closes the record; each failed
# on 88e75c2.
integration_tests += tests/integration/rerun-after-8-completed.sh \
	tests/integration/rerun-after-8-failed.sh \
	tests/integration/rerun-paused-closed.sh \
	tests/integration/rerun-paused-stale.sh \
	tests/integration/rerun-cancelling.sh \
	tests/integration/rerun-disks.sh \
	tests/integration/rerun-confirm-tls.sh
# 04d09ad (sim-real D1): a re-run over mirrors that ended unwatched is 8.
integration_tests += tests/integration/rerun-disks-unwatched.sh
integration_tests += tests/integration/disk-mirror-unseen-reconnect.sh

# Found by fault-random.sh after the rewrite (seeds 1042, 1059): a SIGTERM
# during the teardown killed qmigrate (ev_signal_stop puts SIG_DFL back);
# mig-watch.c now blocks both signals, stops libev's watchers, ignores them.
integration_tests += tests/integration/session-signal-teardown.sh

# Issue 38: what a user can give qmigrate wrong, a table of cases
# (tests/bad-input/cases) against one real QEMU left untouched by each.
integration_tests += tests/integration/bad-input.sh
EXTRA_DIST += tests/bad-input/cases
# A peer that misbehaves as no QEMU monitor does (garbage, silence,
# hang-ups), for the cases about monitors.
check_PROGRAMS += tests/bad-monitor
tests_bad_monitor_SOURCES = tests/bad-monitor.c
tests_bad_monitor_LDADD =

# Issue 30's windows, each a real-QEMU test that failed on 88e75c2 (a relay
# in front of a monitor answers late or hangs up where a real QEMU cannot
# be made to): the guest never in two places, the exits and documents true.
handoff_tests = tests/integration/handoff-target-qmp-cut-tls.sh \
	tests/integration/handoff-target-cont-late-tls.sh \
	tests/integration/handoff-migrate-late-unix.sh \
	tests/integration/handoff-load-fails-unix.sh \
	tests/integration/handoff-load-fails-tcp.sh \
	tests/integration/handoff-load-fails-tls.sh \
	tests/integration/handoff-switchover-term-unix.sh \
	tests/integration/handoff-stale-abort-unix.sh \
	tests/integration/handoff-cancel-late-unix.sh \
	tests/integration/handoff-pause-rerun-unix.sh \
	tests/integration/handoff-silent-abort-unix.sh \
	tests/integration/handoff-reconnect-abort-unix.sh \
	tests/integration/handoff-switchover-late-unix.sh \
	tests/integration/handoff-switchover-rerun-unix.sh \
	tests/integration/handoff-target-term-success-tls.sh \
	tests/integration/handoff-rerun-after-8-unix.sh \
	tests/integration/handoff-rerun-signal-early-unix.sh \
	tests/integration/handoff-incoming-tcp-term.sh \
	tests/integration/handoff-tls-disk-confirm.sh \
	tests/integration/handoff-held-late-tls.sh \
	tests/integration/handoff-target-release-cut-tls.sh \
	tests/integration/handoff-held-listen-tls.sh
integration_tests += $(handoff_tests)

# Issue 37's target-side defects (audit 2026-12-02: N2, ...), each a
# real-QEMU test that fails on b475dc5 and passes after.
target_tests = tests/integration/handoff-incoming-late-unix.sh \
	tests/integration/target-keeps-paused-unix.sh \
	tests/integration/target-prelaunch.sh \
	tests/integration/target-rerun-unix.sh \
	tests/integration/target-rerun-norecord-unix.sh \
	tests/integration/target-rerun-norecord-tls.sh
integration_tests += $(target_tests)
EXTRA_DIST += tests/handoff-lib.sh
check-handoff: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(handoff_tests)'
.PHONY: check-handoff

# Issue 30: every command that can be signalled handles signals from its
# first instruction (audit D10, D13, D26): evict in its grace period and
# its pre-flight, the source's pre-flight under a signal or its deadline,
# a drain's killed child, migrate and incoming signalled right after exec.
integration_tests += tests/integration/evict-signal-none.sh \
	tests/integration/evict-signal-preflight.sh \
	tests/integration/migrate-preflight-signal.sh \
	tests/integration/drain-child-killed.sh \
	tests/integration/migrate-signal-early.sh

# Issue 30's simulator (tests/sim/README.md) is sim-real's now (issue 37).
EXTRA_DIST += tests/sim/README.md tests/sim/long-run.sh

# Issue 37: the QEMU model (tests/sim/qemu-model.h), built from QEMU's own
# state machine, and its conformance checker: every real-QEMU test's QMP
# traces (QMIGRATE_QMP_TRACE, set by tests/lib.sh) are replayed against
# the model at the test's exit; conform-traces.sh checks the committed
# traces of tests/traces/qmp, and that a row taken out fails them.
check_PROGRAMS += tests/sim/conform
tests_sim_conform_SOURCES = tests/sim/conform.c tests/sim/qemu-model.c \
	tests/sim/qemu-model.h tests/sim/qemu-model-table.c
# The simulator's half (tests/sim/qemu-model-sim.c: the model with the
# world's hooks) is sim-real's QEMU; this small driver also checks it on
# its own, over many seeds and the three versions.
check_PROGRAMS += tests/sim/model-drive
tests_sim_model_drive_SOURCES = tests/sim/model-drive.c \
	tests/sim/qemu-model.c tests/sim/qemu-model.h \
	tests/sim/qemu-model-table.c tests/sim/qemu-model-sim.c \
	tests/sim/qemu-model-sim.h tests/sim/qemu-model-disks.c \
	tests/sim/qemu-canned.h tests/sim/qemu-canned-7.2.c \
	tests/sim/qemu-canned-10.0.c tests/sim/qemu-canned-11.1.c
tests_sim_model_drive_LDADD = $(qmigrate_libs) -lm
TESTS += tests/sim/model-drive
tests_sim_conform_LDADD = $(qmigrate_libs) -lm
TESTS += tests/sim/conform-traces.sh
EXTRA_DIST += tests/sim/conform-traces.sh tests/traces/qmp tests/traces/qmp-rejected
# Each row the committed traces need, taken out in turn, fails one of them
# (about a minute of CPU: conform --each-row).
TESTS += tests/sim/conform-rows.sh
EXTRA_DIST += tests/sim/conform-rows.sh

# Issue 37: the simulator that runs the real executor (tests/sim/real.h):
# both sides' mig_source_run()/mig_target_run() on fibers, over the
# simulator's world (lib/world.h), against the world's QEMU
# (tests/sim/world-qemu.h): the QEMU model, or the old 7.2 stand-in.
check_PROGRAMS += tests/sim/sim-real
tests_sim_sim_real_SOURCES = tests/sim/real.c tests/sim/real.h \
	tests/sim/real-faults.c tests/sim/real-monitor.c \
	tests/sim/real-rerun.c tests/sim/real-qemu-stop.c \
	tests/sim/real-props.c \
	tests/sim/real-switchover.c tests/sim/real-update.c \
	tests/sim/real-tls.c \
	tests/sim/real-disks.c \
	tests/sim/world-sim.c tests/sim/fiber.c tests/sim/fiber.h \
	tests/sim/world-qemu.c tests/sim/world-qemu.h \
	tests/sim/qemu-model.c tests/sim/qemu-model.h \
	tests/sim/qemu-model-table.c tests/sim/qemu-model-sim.c \
	tests/sim/qemu-model-sim.h tests/sim/qemu-model-disks.c \
	tests/sim/qemu-stub.c tests/sim/qemu-stub.h \
	tests/sim/qemu-canned.h tests/sim/qemu-canned-7.2.c \
	tests/sim/qemu-canned-10.0.c tests/sim/qemu-canned-11.1.c \
	tests/sim/rng.c tests/sim/rng.h
tests_sim_sim_real_LDADD = $(qmigrate_libs) -lm
TESTS += tests/sim/sim-real
# The same over update --mode exec (tests/sim/real-update.c).
TESTS += tests/sim/sim-real-update.sh
EXTRA_DIST += tests/sim/sim-real-update.sh
# The tls: seeds that found a defect (tests/sim/real-tls.c).
TESTS += tests/sim/sim-real-tls.sh
EXTRA_DIST += tests/sim/sim-real-tls.sh
EXTRA_DIST += tests/sim/canned.py

# qmigrate report (issue 39 item 7): its pieces, and a real migration's
# page drawn by headless Chromium (tests/png-colors.py reads the shot).
unit_tests += tests/unit/test-report tests/unit/test-tls-queue
integration_tests += tests/integration/report-chromium.sh
EXTRA_DIST += tests/png-colors.py

# migrate's progress line on a terminal (issue 39 item 5): stderr on a pty
# (tests/pty-stderr.py), the screen it leaves (tests/tty-screen.py); with
# stdout on the same terminal, --events or not.
integration_tests += tests/integration/progress-tty.sh \
	tests/integration/progress-tty-events.sh
EXTRA_DIST += tests/pty-stderr.py tests/tty-screen.py
