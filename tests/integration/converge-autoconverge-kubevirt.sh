#!/usr/bin/env bash
# A busy guest finished by autoconverge under the kubevirt controller (tests/migrate-converge.sh).
. "$top_srcdir/tests/migrate-converge.sh" autoconverge kubevirt
