# Example policies and their reference (owned by the policy area).
policy_examples = policies/default.json policies/database-postcopy.json \
	policies/host-devices.json policies/stateless.json \
	policies/external.json
EXTRA_DIST += policies/README.md $(policy_examples)

unit_tests += tests/unit/test-policy
tests_unit_test_policy_SOURCES = tests/unit/test-policy.c
tests_unit_test_policy_LDADD = $(unit_ldadd)
tests_unit_test_policy_CFLAGS = $(unit_cflags)
# The examples are read from the source tree, also under valgrind where
# the harness's environment is not set.
tests_unit_test_policy_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPOLICY_EXAMPLES_DIR='"$(abs_top_srcdir)/policies"'

# The command line only: no QEMU needed.
integration_tests += tests/integration/policy-cli.sh
