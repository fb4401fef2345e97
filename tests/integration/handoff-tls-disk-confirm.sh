#!/usr/bin/env bash
# Issue 30, window "every tls: migration with a local disk waits 30 s for a
# confirmation that cannot come" (audit D14): the target released its
# exports only once the source's mirrors had ended, and answered the
# source's "completed?" only after that; the source ended its mirrors only
# after the answer.  Before the fix migrate exited ~30 s after QEMU's
# migration completed, noting "the target did not confirm the guest within
# 30 s": the confirm's safety net was gone exactly when disks are copied.
# No fake here: real QEMUs, a real qcow2 disk mirrored through the TLS
# proxy, both qmigrates.
# What a user must see: migrate and incoming exit 0, both documents
# Succeeded, no such note; migrate exits within 10 s of the moment QEMU
# reported its migration completed (the test polls QEMU's own status; its
# total-time is printed beside); the guest on the target, every page
# intact, and the images identical.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/disk-lib.sh"
. "$top_srcdir/tests/handoff-lib.sh"
setup_tmp
mig_tls

disk_pair 32 2 32M 32M
mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "6Mi" }'
mig_tls_incoming
mig_tls_migrate migrate "$TMP/src.qmp" --policy "$TMP/disks.json"
wait_for 30 "the source's mirror job" mirroring
# QEMU's own end of the migration, seen from outside (0.1 s polling).
wait_for 120 "the source QEMU's migration to end" _mig_qemu_ended src
done_at=${EPOCHREALTIME//[!0-9]/}
[ "$(qemu_mig_status src)" = completed ] || fail "QEMU's migration is $(qemu_mig_status src)"
total=$(mon src query-migrate | jq -r '.["total-time"]')
exit_of migrate 60
m=$RC
gap=$(( (${EPOCHREALTIME//[!0-9]/} - done_at) / 1000 ))
exit_of incoming 60
i=$RC
echo "QEMU's migration took $total ms; migrate exited $m $gap ms after QEMU completed ($(doc_says "$TMP/src.status")); incoming exited $i"
[ "$m/$i" = 0/0 ] || fail "migrate exited $m, incoming $i: expected 0 on both"
expect_doc "$TMP/src.status" source Succeeded 0
expect_doc "$TMP/dst.status" target Succeeded 0
if status_get "$TMP/src.status" '.notes[]?' | grep -q 'did not confirm'; then
	fail "the source waited for a confirmation: $(status_get "$TMP/src.status" '.notes[]?' | grep 'did not confirm')"
fi
[ "$gap" -le 10000 ] ||
	fail "migrate exited $gap ms after QEMU completed (QEMU's migration took $total ms): expected within 10 s"
assert_on_target "tls: with a disk"
assert_no_disk_jobs src
quit_guest src
quit_guest dst
qemu-img compare -q "$TMP/src.qcow2" "$TMP/dst.qcow2" || fail "source and target images differ"
echo "ok: tls: with a local disk: migrate exited $gap ms after QEMU completed, confirmed"
