# The qmigrate command.  One variable per area so that areas do not collide.
bin_PROGRAMS += qmigrate

src_core = src/qmigrate.h src/cmd.c src/cmd-help.c src/args.c src/log.c \
	src/output.c src/progress-line.c src/json-get.c \
	src/privs.c src/signals.h src/signals.c \
	src/util.c
src_qmp_cmds = src/cmd-qmp.c src/cmd-guest.c
src_migrate = src/ctl.h src/ctl.c src/ctl-kubevirt.c src/ctl-adaptive.c \
	src/status.c src/net.c src/mig-tls.h src/mig-tls.c \
	src/mig-tls-queue.h src/mig-tls-queue.c \
	src/mig-info.h src/mig-info.c src/mig-control.h src/mig-control.c \
	src/mig-session.h src/mig-session.c src/mig-session-act.c \
	src/mig-session-source.h src/mig-session-source.c src/mig-session-cpr.c \
	src/mig-session-cpr-exec.c \
	src/mig-session-target.c src/mig-job.h src/mig-job.c \
	src/mig-caps.c src/mig-negotiate.h src/mig-negotiate.c \
	src/mig-qemu-side.c src/mig-agree.h src/mig-agree.c \
	src/mig-options.h src/mig-options.c \
	src/mig-config.c \
	src/mig-watch.h src/mig-watch.c \
	src/mig-source.c src/mig-target.c src/mig-rerun.c \
	src/mig-marker.c \
	src/cmd-migrate.c src/cmd-status.c \
	src/mig-disks.h src/mig-disks.c \
	src/cmd-incoming.c src/cmd-abort.c \
	src/status-writer.c src/switchover-request.h src/switchover-request.c \
	src/cmd-switchover.c \
	src/mig-cpr.c src/cmd-update.c src/update-command.c
src_proxy_cmds = src/cmd-proxy.c
# The policy layer, bottom to top: each file uses only those before it.
src_policy = src/policy.h src/yaml-read.c src/quantity.c src/labels.c \
	src/policy-read.c src/json-dupkey.c src/policy-parse.h src/policy-parse.c \
	src/policy-settings.c src/policy-kube.c src/kube-vmi.c \
	src/kube-vmim.c src/kube-status.c src/policy-load.c src/policy-select.c \
	src/vm-ident.c src/mig-flags.c src/cmd-policy.c
src_observe = src/dirty-rate.h src/dirty-rate.c src/cmd-dirty-rate.c \
	src/cmd-stats.c src/exporter-json.c \
	src/observe.h src/exporter.c src/exporter-decode.c \
	src/exporter-sources.h src/exporter-collect.c src/exporter-qmp.c \
	src/exporter-agent.c src/exporter-node.c src/exporter-status.c \
	src/exporter-phases.c src/exporter-render.c src/exporter-http.c \
	src/exporter-tls.c \
	src/cmd-exporter.c src/cmd-watch.c \
	src/report.h src/report-series.c src/report-axes.c src/report-svg.c \
	src/report-html.c src/report-escape.c src/cmd-report.c
src_evict = src/preflight.h src/preflight-storage.c src/preflight.c \
	src/preflight-cpr.c \
	src/cmd-check.c src/check-tls.h src/check-tls.c \
	src/slot.h src/slot.c src/evict.h src/evict.c \
	src/cmd-evict.c src/drain.h src/drain.c src/cmd-drain.c
# Pre-flight, eviction and drain tests (real QEMU).
integration_tests += tests/integration/evict-check.sh \
	tests/integration/check-capabilities.sh \
	tests/integration/check-reasons.sh \
	tests/integration/check-tls-expiry.sh \
	tests/integration/evict-strategies.sh tests/integration/evict-drain.sh \
	tests/integration/evict-default-policy.sh \
	tests/integration/evict-drain-external.sh \
	tests/integration/evict-check-tcg.sh

qmigrate_SOURCES = src/main.c
# Everything but main.c also goes in a library so unit tests link the same
# objects the command runs.
noinst_LIBRARIES += libqmigrate.a
libqmigrate_a_SOURCES = $(src_core) $(src_qmp_cmds) \
	$(src_migrate) $(src_proxy_cmds) $(src_policy) $(src_observe) \
	$(src_evict)
qmigrate_libs = libqmigrate.a libproxy.a libqmp.a libcommon.a \
	$(JSONC_LIBS) $(OPENSSL_LIBS) $(CAPNG_LIBS) $(YAML_LIBS) $(EV_LIBS) -lm
qmigrate_LDADD = $(qmigrate_libs)

# The pre-flight's reasons on a recorded QEMU (real-QEMU ones: check-reasons.sh).
unit_tests += tests/unit/test-preflight
tests_unit_test_preflight_SOURCES = tests/unit/test-preflight.c \
	tests/unit/fake-peer.c tests/unit/fake-peer.h
tests_unit_test_preflight_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPREFLIGHT_RECORDING='"$(abs_top_srcdir)/tests/preflight/pc-tcg.json"'
EXTRA_DIST += tests/preflight/pc-tcg.json
# The in-place update's pre-flight on a scripted QEMU 10.0 (real-QEMU
# ones: cpr-check.sh).
unit_tests += tests/unit/test-preflight-cpr
tests_unit_test_preflight_cpr_SOURCES = tests/unit/test-preflight-cpr.c \
	tests/unit/fake-peer.c tests/unit/fake-peer.h

# SIGINT/SIGTERM before a command's own handler (signals.c).
unit_tests += tests/unit/test-signals tests/unit/test-output \
	tests/unit/test-progress-line
# The output tests read what they write through a pipe (pipe-reader.h).
unit_pipe_reader = tests/unit/pipe-reader.c tests/unit/pipe-reader.h
tests_unit_test_output_SOURCES = tests/unit/test-output.c $(unit_pipe_reader)
tests_unit_test_progress_line_SOURCES = tests/unit/test-progress-line.c \
	$(unit_pipe_reader)

# The option tables and their parser (args.c).
unit_tests += tests/unit/test-args

# Migration driver tests.
unit_tests += tests/unit/test-ctl
unit_tests += tests/unit/test-mig-info tests/unit/test-session \
	tests/unit/test-trace
tests_unit_test_trace_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTRACE_DIR='"$(abs_top_srcdir)/tests/traces"'
EXTRA_DIST += tests/traces
unit_tests += tests/unit/test-negotiate
# The source's start of the disks' mirrors (mig-disks.c).
unit_tests += tests/unit/test-mig-disks
# The job runner across its monitor's close (mig-job.c).
unit_tests += tests/unit/test-mig-job
tests_unit_test_mig_job_SOURCES = tests/unit/test-mig-job.c \
	tests/unit/fake-peer.c tests/unit/fake-peer.h
# The request file of qmigrate switchover (switchover-request.c).
unit_tests += tests/unit/test-switchover-request

# Migration driver tests (real QEMU).
integration_tests += tests/integration/migrate-precopy.sh \
	tests/integration/output-events-stalled.sh \
	tests/integration/output-events-resumed.sh \
	tests/integration/signals-migrate.sh \
	tests/integration/output-json-lines.sh \
	tests/integration/migrate-control.sh \
	tests/integration/migrate-tls.sh \
	tests/integration/migrate-tls-peer-name.sh \
	tests/integration/migrate-negotiate.sh \
	tests/integration/converge-postcopy-adaptive.sh \
	tests/integration/converge-postcopy-kubevirt.sh \
	tests/integration/converge-pause-adaptive.sh \
	tests/integration/converge-pause-kubevirt.sh \
	tests/integration/converge-autoconverge-adaptive.sh \
	tests/integration/converge-autoconverge-kubevirt.sh \
	tests/integration/converge-dirtylimit-adaptive.sh \
	tests/integration/migrate-dirtylimit-tls.sh \
	tests/integration/converge-stall-kubevirt.sh \
	tests/integration/migrate-abort.sh \
	tests/integration/migrate-abort-postcopy.sh \
	tests/integration/migrate-abort-owner.sh \
	tests/integration/migrate-target-killed.sh \
	tests/integration/migrate-postcopy-lost.sh \
	tests/integration/migrate-postcopy-lost-target.sh \
	tests/integration/migrate-postcopy-lost-target-tcp.sh \
	tests/integration/migrate-postcopy-recover.sh \
	tests/integration/migrate-postcopy-recover-tls.sh \
	tests/integration/migrate-postcopy-resume-late-tls.sh \
	tests/integration/migrate-postcopy-start-cut.sh \
	tests/integration/migrate-multifd.sh \
	tests/integration/migrate-flags.sh \
	tests/integration/migrate-reattach.sh \
	tests/integration/migrate-status-full.sh \
	tests/integration/migrate-status-kubevirt.sh \
	tests/integration/migrate-timeout.sh \
	tests/integration/migrate-timeout-action.sh \
	tests/integration/migrate-switchover.sh \
	tests/integration/migrate-abort-target.sh \
	tests/integration/migrate-abort-setup.sh \
	tests/integration/migrate-status-garbage.sh \
	tests/integration/migrate-reattach-restore.sh \
	tests/integration/migrate-reattach-failed.sh
EXTRA_DIST += tests/migrate-lib.sh tests/migrate-converge.sh

# Observability tests: a strict exposition-format checker (beside
# promtool: see tests/prom-lint.c) and a silent peer.
check_PROGRAMS += tests/prom-lint tests/observe-hang-peer
tests_prom_lint_SOURCES = tests/prom-lint.c
tests_prom_lint_LDADD =
tests_observe_hang_peer_SOURCES = tests/observe-hang-peer.c
tests_observe_hang_peer_LDADD = libcommon.a
unit_tests += tests/unit/test-observe
unit_tests += tests/unit/test-exporter
EXTRA_DIST += tests/observe-lib.sh tests/exporter-fuzz.py
integration_tests += tests/integration/observe-dirty-rate.sh \
	tests/integration/observe-stats.sh \
	tests/integration/observe-exporter.sh \
	tests/integration/exporter-fuzz.sh \
	tests/integration/exporter-privs.sh \
	tests/integration/signals-exporter.sh \
	tests/integration/observe-rules.sh \
	tests/integration/observe-prometheus.sh \
	tests/integration/observe-watch.sh

# Faults on a two-host network (issue 7): network namespaces, needs root.
integration_tests += tests/integration/fault-link-down-precopy.sh \
	tests/integration/fault-link-postcopy.sh tests/integration/fault-kill.sh \
	tests/integration/fault-sockets.sh tests/integration/fault-netem.sh \
	tests/integration/fault-delay.sh
host_tests += tests/lint/no-shell.sh
# The layers point one way (issue 26): no file cycle but qmp's trio and
# the command table, read from the objects.
host_tests += tests/lint/layers.sh
# One source of truth for options (issue 39): every option of the command
# tables is in --help, qmigrate(1) and the bash completion, and nothing else.
host_tests += tests/lint/options.sh
# The failure table names its proof (issue 37): every unit row and
# real-QEMU test a row of docs/failures.md names exists and make check runs it.
host_tests += tests/lint/failure-table.sh
# qmigrate watch over status files only (no QEMU needed).
host_tests += tests/integration/watch-status.sh
EXTRA_DIST += tests/netns-lib.sh

# Local disks copied over NBD during a live migration (real QEMU).
integration_tests += tests/integration/disk-migrate.sh \
	tests/integration/disk-abort.sh tests/integration/disk-too-small.sh \
	tests/integration/disk-target-killed.sh \
	tests/integration/disk-mirror-stalled.sh \
	tests/integration/disk-mirror-inflight.sh \
	tests/integration/disk-migrate-tls.sh
EXTRA_DIST += tests/disk-lib.sh
