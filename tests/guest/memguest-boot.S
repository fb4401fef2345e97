/*
 * memguest-boot.S: multiboot (v1) header and entry point of the memory
 * guest.  QEMU's -kernel loader finds the header in the first 8 KiB of the
 * ELF image and enters at _start in 32-bit protected mode, paging off,
 * with EAX = 0x2BADB002 and EBX = the multiboot information structure.
 */
	.set	MB_MAGIC, 0x1BADB002
	.set	MB_FLAGS, 0x00000003	/* page-aligned modules, memory info */
	.set	MB_CHECKSUM, -(MB_MAGIC + MB_FLAGS)

	.section .multiboot, "a"
	.balign	4
	.long	MB_MAGIC
	.long	MB_FLAGS
	.long	MB_CHECKSUM

	.section .bss
	.balign	16
stack_bottom:
	.skip	16384
stack_top:

	.section .text
	.globl	_start
	.type	_start, @function
_start:
	cli
	cld
	movl	$stack_top, %esp
	xorl	%ebp, %ebp
	pushl	%ebx			/* multiboot info */
	pushl	%eax			/* magic */
	call	memguest_main
1:	cli
	hlt
	jmp	1b
	.size	_start, . - _start

	.section .note.GNU-stack, "", @progbits
