# Example policies and their reference (owned by the policy area).
EXTRA_DIST += policies/README.md
