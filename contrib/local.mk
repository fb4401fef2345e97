# The operator's kit (observability area): man page, bash completion, the
# exporter's systemd unit, Kubernetes examples and Prometheus alerts.
dist_man1_MANS = contrib/qmigrate.1
bashcompletiondir = $(datadir)/bash-completion/completions
EXTRA_DIST += contrib/qmigrate.bash-completion \
	contrib/qmigrate-exporter.service contrib/prometheus-alerts.yml \
	contrib/prometheus-alerts.test.yml \
	contrib/kubernetes/README.md contrib/kubernetes/policies-configmap.yaml \
	contrib/kubernetes/node-agent-daemonset.yaml \
	contrib/kubernetes/launcher-pod.yaml

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
