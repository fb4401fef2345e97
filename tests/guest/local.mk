# The test guests, built once and cached in the build tree (owned by the
# test-guest area).
