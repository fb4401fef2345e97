# The operator's kit (observability area): man page, bash completion, the
# exporter's systemd unit, Kubernetes examples and Prometheus alerts.
# make install puts each where its users look for it; the examples go to
# $(docdir)/examples (Debian: /usr/share/doc/qmigrate/examples).
dist_man1_MANS = contrib/qmigrate.1
dist_man5_MANS = contrib/qmigrate-status.5 contrib/qmigrate-policy.5
dist_man7_MANS = contrib/qmigrate-metrics.7
# The status document's JSON Schema (qmigrate-status(5)); the tests validate
# every document they write against it (tests/lib.sh).
dist_pkgdata_DATA = contrib/qmigrate-status.schema.json
bashcompletiondir = $(datadir)/bash-completion/completions

examplesdir = $(docdir)/examples
dist_examples_DATA = contrib/prometheus-alerts.yml
dist_examples_SCRIPTS = contrib/make-certs.sh
kubernetesexamplesdir = $(examplesdir)/kubernetes
dist_kubernetesexamples_DATA = contrib/kubernetes/README.md \
	contrib/kubernetes/policies-configmap.yaml \
	contrib/kubernetes/node-agent-daemonset.yaml \
	contrib/kubernetes/launcher-pod.yaml
dist_doc_DATA = README.md
# The user's reference beside the man pages (README.md points at them).
userdocsdir = $(docdir)/docs
dist_userdocs_DATA = docs/failures.md docs/how-it-works.md docs/report-demo.png

# The unit names the installed binary: @bindir@ is filled in at make time,
# where it is fully expanded.
systemdsystemunit_DATA = contrib/qmigrate-exporter.service
CLEANFILES += contrib/qmigrate-exporter.service
EXTRA_DIST += contrib/qmigrate.bash-completion \
	contrib/qmigrate-exporter.service.in contrib/prometheus-alerts.test.yml
contrib/qmigrate-exporter.service: $(srcdir)/contrib/qmigrate-exporter.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib && \
	sed -e 's|@bindir[@]|$(bindir)|g' \
		$(srcdir)/contrib/qmigrate-exporter.service.in >$@.tmp && \
	mv $@.tmp $@

# bash-completion loads completions/NAME for the command NAME.
install-data-local: install-bash-completion
install-bash-completion:
	$(MKDIR_P) '$(DESTDIR)$(bashcompletiondir)'
	$(INSTALL_DATA) $(srcdir)/contrib/qmigrate.bash-completion \
		'$(DESTDIR)$(bashcompletiondir)/qmigrate'
uninstall-local: uninstall-bash-completion
uninstall-bash-completion:
	rm -f '$(DESTDIR)$(bashcompletiondir)/qmigrate'
.PHONY: install-bash-completion uninstall-bash-completion

# make check-deb: contrib/deb-test.sh builds the Debian package from a clean
# clone of this checkout's HEAD in a build chroot, checks it with lintian,
# installs it into a throwaway root and migrates a guest with it.  Needs
# root, a Debian mirror, ~1 GB and ~10 minutes; not part of make check
# (./run.sh test runs it after).
EXTRA_DIST += contrib/deb-test.sh
# tests/sim/conform: the QMP traces of its migration are held to the QEMU
# model at its exit, as every real-QEMU test's are (tests/lib.sh); run.sh
# runs it from a build that made only the unit tests.
check-deb: qmigrate$(EXEEXT) tests/guest/memguest.elf tests/sim/conform$(EXEEXT)
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	$(BASH) '$(abs_top_srcdir)/contrib/deb-test.sh'
.PHONY: check-deb

# The Kubernetes manifests played for real (podman kube play; skips where
# podman cannot run containers), with what stands in for kubelet.
integration_tests += tests/integration/kube-play-tls.sh
EXTRA_DIST += tests/kube-play.py
