# The test guests, built once and cached in the build tree (owned by the
# test-guest area).  make check builds them before any test runs.

# memguest: a bare-metal 32-bit multiboot ELF.  Its own compiler and flags,
# never AM_CFLAGS: no sanitizers, no libc, no PIC.
MEMGUEST_CC = gcc
MEMGUEST_FLAGS = -m32 -ffreestanding -nostdlib -fno-pic -no-pie \
	-fno-stack-protector -static -O2 -Wall -Wextra -Werror \
	-fno-asynchronous-unwind-tables -Wl,--build-id=none \
	-Wl,--no-warn-rwx-segments
memguest_sources = tests/guest/memguest-boot.S tests/guest/memguest.c
EXTRA_DIST += $(memguest_sources) tests/guest/memguest.ld \
	tests/guest/README.md tests/guest/tcg-dirty-repro.sh
if QEMU_TESTS
check_DATA += tests/guest/memguest.elf
endif
CLEANFILES += tests/guest/memguest.elf

tests/guest/memguest.elf: $(memguest_sources:%=$(srcdir)/%) \
		$(srcdir)/tests/guest/memguest.ld
	$(AM_V_GEN)$(MKDIR_P) tests/guest && \
	$(MEMGUEST_CC) $(MEMGUEST_FLAGS) \
		-Wl,-T,$(srcdir)/tests/guest/memguest.ld -o $@ \
		$(memguest_sources:%=$(srcdir)/%) -lgcc || { \
		echo "memguest: $(MEMGUEST_CC) -m32 failed: is the Debian package gcc-multilib installed?" >&2; \
		exit 1; }

# The Linux guest: Debian's cloud kernel and a busybox + qemu-ga initramfs.
# The script keeps an existing vmlinuz (the download is the slow part), so
# make clean leaves tests/guest/linux alone; delete it (or make distclean)
# to fetch a new kernel.
dist_noinst_SCRIPTS += tests/guest/make-linux-guest.sh
distclean-local: distclean-linux-guest
distclean-linux-guest:
	rm -rf tests/guest/linux
.PHONY: distclean-linux-guest
if QEMU_TESTS
check_DATA += tests/guest/linux/initramfs.cpio.gz tests/guest/linux/vmlinuz
endif

tests/guest/linux/initramfs.cpio.gz: $(srcdir)/tests/guest/make-linux-guest.sh
	$(AM_V_GEN)$(BASH) $(srcdir)/tests/guest/make-linux-guest.sh tests/guest/linux

tests/guest/linux/vmlinuz: tests/guest/linux/initramfs.cpio.gz
	$(AM_V_at)test -s $@ || \
		$(BASH) $(srcdir)/tests/guest/make-linux-guest.sh tests/guest/linux
	$(AM_V_at)touch $@

integration_tests += tests/integration/guest-memguest.sh \
	tests/integration/guest-linux.sh \
	tests/integration/guest-memguest-migrate.sh \
	tests/integration/guest-linux-migrate.sh
