# Example policies and their reference (owned by the policy area).
policy_examples = policies/default.json policies/database-postcopy.json \
	policies/host-devices.json policies/stateless.json \
	policies/external.json
# KubeVirt's shape: a policy directory and a VMI for --vmi.
policy_examples += policies/kubevirt/kubevirt.yaml \
	policies/kubevirt/namespaces.yaml policies/kubevirt/database.yaml \
	policies/kubevirt/gpu.yaml policies/kubevirt/batch.yaml \
	policies/vmi/database.yaml
# Installed with their reference under $(docdir)/examples/policies, the
# same tree as here: `qmigrate policy check policies` and the README's
# commands work there as they are.
policyexamplesdir = $(docdir)/examples
nobase_dist_policyexamples_DATA = policies/README.md $(policy_examples)

# A private directory per test (tmpdir.h), shared by the two below.
unit_tmpdir = tests/unit/tmpdir.c tests/unit/tmpdir.h
unit_tests += tests/unit/test-policy
tests_unit_test_policy_SOURCES = tests/unit/test-policy.c $(unit_tmpdir)
# The examples are read from the source tree, also under valgrind where
# the harness's environment is not set.
tests_unit_test_policy_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPOLICY_EXAMPLES_DIR='"$(abs_top_srcdir)/policies"'

# The command line only: no QEMU needed.
host_tests += tests/integration/policy-cli.sh \
	tests/integration/policy-kube.sh
# The same manifests driving a real drain and migrate (real QEMU).
integration_tests += tests/integration/policy-kube-drain.sh

# KubeVirt's objects: YAML, quantities, MigrationPolicy precedence (its
# documented seven-policy example in tests/kubevirt), cluster defaults,
# VMI and Namespace manifests.
kubevirt_fixtures = tests/kubevirt/precedence/1-small-gpu-high-medium.yaml \
	tests/kubevirt/precedence/2-small-gpu-high-hpc.yaml \
	tests/kubevirt/precedence/3-small-gpu-high.yaml \
	tests/kubevirt/precedence/4-small-high-hpc.yaml \
	tests/kubevirt/precedence/5-gpu-high.yaml \
	tests/kubevirt/precedence/6-gpu.yaml \
	tests/kubevirt/precedence/7-intel-high.yaml \
	tests/kubevirt/precedence/namespace.yaml \
	tests/kubevirt/vmi/vmi.yaml tests/kubevirt/vmi/vmi-labels.yaml
EXTRA_DIST += $(kubevirt_fixtures)
unit_tests += tests/unit/test-kube
tests_unit_test_kube_SOURCES = tests/unit/test-kube.c $(unit_tmpdir)
tests_unit_test_kube_CPPFLAGS = $(AM_CPPFLAGS) \
	-DKUBEVIRT_TESTS_DIR='"$(abs_top_srcdir)/tests/kubevirt"'
