#!/usr/bin/env bash
# qmigrate update whose new QEMU's monitor never appears where it is told
# (--new-qmp names a socket nobody opens): after 20 s the update is
# cancelled on the old QEMU, which runs its guest on, intact, and only
# there; exit 4 (data plane), the document naming the monitor.
. "$top_srcdir/tests/cpr-lib.sh"
cpr_test_begin 10.0
cpr_pair 64 20
bg_start update "$QMIGRATE" update --qmp "$TMP/old.qmp" \
	--new-qmp "$TMP/nobody.qmp" --to "unix:$TMP/new.main" \
	--cpr "unix:$TMP/new.cpr" --defer --status-file "$TMP/update.status"
expect_exit update 4 90
expect_status "$TMP/update.status" .phase Failed
status_get "$TMP/update.status" .failureReason | grep -q "nobody.qmp" ||
	fail "failureReason: $(status_get "$TMP/update.status" .failureReason)"
mon old query-migrate | grep -q '"status": "cancelled"' ||
	fail "the old QEMU's migration: $(mon old query-migrate)"
cpr_guest_on_old
echo "ok: no new monitor within 20 s: cancelled, the guest runs on the old QEMU"
