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
	tests/guest/README.md
check_DATA += tests/guest/memguest.elf
CLEANFILES += tests/guest/memguest.elf

tests/guest/memguest.elf: $(memguest_sources:%=$(srcdir)/%) \
		$(srcdir)/tests/guest/memguest.ld
	$(AM_V_GEN)$(MKDIR_P) tests/guest && \
	$(MEMGUEST_CC) $(MEMGUEST_FLAGS) \
		-Wl,-T,$(srcdir)/tests/guest/memguest.ld -o $@ \
		$(memguest_sources:%=$(srcdir)/%) -lgcc
