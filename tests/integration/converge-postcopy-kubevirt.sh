#!/usr/bin/env bash
# A busy guest finished by postcopy under the kubevirt controller (tests/migrate-converge.sh).
. "$top_srcdir/tests/migrate-converge.sh" postcopy kubevirt
