# Fuzzing (owned by the fuzzing area; fuzz/README.md).  Every target's
# LLVMFuzzerTestOneInput() is built twice: as a replay program that make
# check runs on the seed corpus and on the saved crashes, in every build;
# and, with --enable-fuzzing (clang), as a libFuzzer program for make fuzz.
fuzz_names = qmp qga policy yaml inventory proxy-hdr proxy-control \
	mig-control status-file http exporter proxy-record
# The tests' one fake peer, played from the input (tests/unit/fake-peer.h).
fuzz_peer = tests/unit/fake-peer.c tests/unit/fake-peer.h
fuzz_peer_cppflags = -I$(top_srcdir)/tests/unit
fuzz_file = fuzz/fuzz-file.c fuzz/fuzz-file.h
# Each replay program reads fuzz/corpus/NAME and fuzz/regress/NAME.
EXTRA_DIST += fuzz/README.md fuzz/corpus fuzz/regress fuzz/http.dict \
	fuzz/inventory.dict fuzz/policy.dict fuzz/proxy-control.dict \
	fuzz/qga.dict fuzz/qmp.dict fuzz/yaml.dict
fuzz_dir = -DFUZZ_DIR='"$(abs_top_srcdir)/fuzz"'

unit_tests += fuzz/replay-qmp fuzz/replay-qga fuzz/replay-policy \
	fuzz/replay-yaml fuzz/replay-inventory fuzz/replay-proxy-hdr \
	fuzz/replay-proxy-control fuzz/replay-mig-control \
	fuzz/replay-status-file fuzz/replay-http fuzz/replay-exporter \
	fuzz/replay-proxy-record
fuzz_replay_mig_control_SOURCES = fuzz/replay.c fuzz/fuzz-mig-control.c
fuzz_replay_mig_control_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"mig-control"'
fuzz_replay_mig_control_LDADD = $(qmigrate_libs)
fuzz_replay_status_file_SOURCES = fuzz/replay.c fuzz/fuzz-status-file.c
fuzz_replay_status_file_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"status-file"'
fuzz_replay_status_file_LDADD = $(qmigrate_libs)
fuzz_replay_qmp_SOURCES = fuzz/replay.c fuzz/fuzz-qmp.c $(fuzz_peer)
fuzz_replay_qmp_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) $(fuzz_peer_cppflags) \
	-DFUZZ_NAME='"qmp"'
fuzz_replay_qmp_LDADD = $(qmigrate_libs)
fuzz_replay_qga_SOURCES = fuzz/replay.c fuzz/fuzz-qga.c $(fuzz_peer)
fuzz_replay_qga_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) $(fuzz_peer_cppflags) \
	-DFUZZ_NAME='"qga"'
fuzz_replay_qga_LDADD = $(qmigrate_libs)
fuzz_replay_policy_SOURCES = fuzz/replay.c fuzz/fuzz-policy.c $(fuzz_file)
fuzz_replay_policy_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"policy"'
fuzz_replay_policy_LDADD = $(qmigrate_libs)
fuzz_replay_yaml_SOURCES = fuzz/replay.c fuzz/fuzz-yaml.c $(fuzz_file)
fuzz_replay_yaml_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"yaml"'
fuzz_replay_yaml_LDADD = $(qmigrate_libs)
fuzz_replay_inventory_SOURCES = fuzz/replay.c fuzz/fuzz-inventory.c \
	$(fuzz_file)
fuzz_replay_inventory_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"inventory"'
fuzz_replay_inventory_LDADD = $(qmigrate_libs)
fuzz_replay_proxy_hdr_SOURCES = fuzz/replay.c fuzz/fuzz-proxy-hdr.c
fuzz_replay_proxy_hdr_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"proxy-hdr"'
fuzz_replay_proxy_hdr_LDADD = $(qmigrate_libs)
fuzz_replay_proxy_control_SOURCES = fuzz/replay.c fuzz/fuzz-proxy-control.c
fuzz_replay_proxy_control_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"proxy-control"'
fuzz_replay_proxy_control_LDADD = $(qmigrate_libs)
fuzz_replay_http_SOURCES = fuzz/replay.c fuzz/fuzz-http.c $(fuzz_peer)
fuzz_replay_http_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) $(fuzz_peer_cppflags) \
	-DFUZZ_NAME='"http"'
fuzz_replay_http_LDADD = $(qmigrate_libs)
fuzz_replay_exporter_SOURCES = fuzz/replay.c fuzz/fuzz-exporter.c
fuzz_replay_exporter_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"exporter"'
fuzz_replay_exporter_LDADD = $(qmigrate_libs)
fuzz_replay_proxy_record_SOURCES = fuzz/replay.c fuzz/fuzz-proxy-record.c
fuzz_replay_proxy_record_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_dir) \
	-DFUZZ_NAME='"proxy-record"'
fuzz_replay_proxy_record_LDADD = $(qmigrate_libs)

# make fuzz: each target for FUZZ_SECONDS from its seed corpus, saved
# crashes and dictionary; new inputs and crashes stay in the build
# directory (fuzz-work/).
FUZZ_SECONDS = 60
FUZZ_FLAGS = -timeout=20 -rss_limit_mb=2048 -max_len=16384 \
	-print_final_stats=1
if FUZZING
fuzz_programs = fuzz/fuzz-qmp fuzz/fuzz-qga fuzz/fuzz-policy \
	fuzz/fuzz-yaml fuzz/fuzz-inventory fuzz/fuzz-proxy-hdr \
	fuzz/fuzz-proxy-control fuzz/fuzz-mig-control fuzz/fuzz-status-file \
	fuzz/fuzz-http fuzz/fuzz-exporter fuzz/fuzz-proxy-record
noinst_PROGRAMS += $(fuzz_programs)
fuzz_fuzz_qmp_SOURCES = fuzz/fuzz-qmp.c $(fuzz_peer)
fuzz_fuzz_qmp_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_peer_cppflags)
fuzz_fuzz_qmp_LDADD = $(qmigrate_libs)
fuzz_fuzz_qmp_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_qga_SOURCES = fuzz/fuzz-qga.c $(fuzz_peer)
fuzz_fuzz_qga_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_peer_cppflags)
fuzz_fuzz_qga_LDADD = $(qmigrate_libs)
fuzz_fuzz_qga_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_policy_SOURCES = fuzz/fuzz-policy.c $(fuzz_file)
fuzz_fuzz_policy_LDADD = $(qmigrate_libs)
fuzz_fuzz_policy_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_yaml_SOURCES = fuzz/fuzz-yaml.c $(fuzz_file)
fuzz_fuzz_yaml_LDADD = $(qmigrate_libs)
fuzz_fuzz_yaml_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_inventory_SOURCES = fuzz/fuzz-inventory.c $(fuzz_file)
fuzz_fuzz_inventory_LDADD = $(qmigrate_libs)
fuzz_fuzz_inventory_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_proxy_hdr_SOURCES = fuzz/fuzz-proxy-hdr.c
fuzz_fuzz_proxy_hdr_LDADD = $(qmigrate_libs)
fuzz_fuzz_proxy_hdr_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_proxy_control_SOURCES = fuzz/fuzz-proxy-control.c
fuzz_fuzz_proxy_control_LDADD = $(qmigrate_libs)
fuzz_fuzz_proxy_control_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_http_SOURCES = fuzz/fuzz-http.c $(fuzz_peer)
fuzz_fuzz_http_CPPFLAGS = $(AM_CPPFLAGS) $(fuzz_peer_cppflags)
fuzz_fuzz_http_LDADD = $(qmigrate_libs)
fuzz_fuzz_http_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_exporter_SOURCES = fuzz/fuzz-exporter.c
fuzz_fuzz_exporter_LDADD = $(qmigrate_libs)
fuzz_fuzz_exporter_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)

fuzz_fuzz_mig_control_SOURCES = fuzz/fuzz-mig-control.c
fuzz_fuzz_mig_control_LDADD = $(qmigrate_libs)
fuzz_fuzz_mig_control_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_status_file_SOURCES = fuzz/fuzz-status-file.c
fuzz_fuzz_status_file_LDADD = $(qmigrate_libs)
fuzz_fuzz_status_file_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
fuzz_fuzz_proxy_record_SOURCES = fuzz/fuzz-proxy-record.c
fuzz_fuzz_proxy_record_LDADD = $(qmigrate_libs)
fuzz_fuzz_proxy_record_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)

fuzz: $(fuzz_programs)
	@failed=; for t in $(fuzz_names); do \
		work=fuzz-work/$$t; mkdir -p $$work; \
		extra=; \
		test -d $(srcdir)/fuzz/regress/$$t && \
			extra=$(srcdir)/fuzz/regress/$$t; \
		test -f $(srcdir)/fuzz/$$t.dict && \
			extra="-dict=$(srcdir)/fuzz/$$t.dict $$extra"; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s (log fuzz-work/$$t.log)"; \
		if ./fuzz/fuzz-$$t $(FUZZ_FLAGS) \
		    -max_total_time=$(FUZZ_SECONDS) \
		    -artifact_prefix=fuzz-work/$$t- $$work \
		    $(srcdir)/fuzz/corpus/$$t $$extra >fuzz-work/$$t.log 2>&1; \
		then \
			grep -E '^#[0-9]+[[:space:]]+DONE' \
			    fuzz-work/$$t.log | sed "s/^/fuzz: $$t: /"; \
		else \
			echo "fuzz: $$t: FAILED, see fuzz-work/$$t.log"; \
			ls fuzz-work/$$t-* 2>/dev/null; \
			failed="$$failed $$t"; \
		fi; \
	done; \
	test -z "$$failed" || { echo "fuzz: failed:$$failed"; exit 1; }
else
fuzz:
	@echo "make fuzz: configure with CC=clang --enable-fuzzing" >&2; exit 1
endif
.PHONY: fuzz
