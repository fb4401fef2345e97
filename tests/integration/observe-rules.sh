#!/usr/bin/env bash
# observe-rules.sh: the shipped alert rules (contrib/prometheus-alerts.yml)
# are valid Prometheus rules and pass their unit tests
# (contrib/prometheus-alerts.test.yml: a failed and an aborted migration
# fire the failure alert with their plane, a migration that finds no new
# low of data_remaining fires the no-progress alert and one that does
# not, never; a paused guest, a silent agent, an unreachable QEMU).
# observe-prometheus.sh loads the same rules into a running Prometheus.
. "$top_srcdir/tests/lib.sh"
need_cmd promtool
rules=$top_srcdir/contrib/prometheus-alerts.yml
out=$(promtool check rules "$rules" 2>&1) ||
	fail "promtool check rules: $out"
out=$(promtool test rules "$top_srcdir/contrib/prometheus-alerts.test.yml" 2>&1) ||
	fail "promtool test rules: $out"
echo "PASS: the alert rules load and pass their unit tests"
