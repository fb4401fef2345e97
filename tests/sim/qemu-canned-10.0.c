/*
 * qemu-canned-10.0.c: what a real QEMU 10.0 answered to the setup's static
 * queries (generated from the traces of tests/traces/qmp abort-10.0,
 * failed-load-10.0-11.1, precopy-10.0; tests/sim/canned.py --version
 * 10.0).  The key is the command and its path, property and command-line
 * arguments, "|"-joined.
 */
#include <stddef.h>

#include "qemu-canned.h"

const struct canned canned_10_0[] = {
	{ "human-monitor-command|||info network",
	    "{\"return\":\"\"}" },
	{ "qom-get|/machine/unattached/device[0]|hv-passthrough|",
	    "{\"return\":false}" },
	{ "qom-get|/machine/unattached/device[0]|hv-reenlightenment|",
	    "{\"return\":false}" },
	{ "qom-get|/machine/unattached/device[0]|type|",
	    "{\"return\":\"qemu64-x86_64-cpu\"}" },
	{ "qom-get|/machine|type|",
	    "{\"return\":\"pc-i440fx-10.0-machine\"}" },
	{ "qom-list|/machine/fw_cfg||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"acpi-mr-restore\",\"type\":\"bool\"},{\"name\""
	    ":\"x-file-slots\",\"type\":\"uint16\"},{\"name\":\"dma_enabled\",\"type"
	    "\":\"bool\"},{\"name\":\"\\\\x2from@etc\\\\x2facpi\\\\x2ftables[0]\",\"typ"
	    "e\":\"child<memory-region>\"},{\"name\":\"fwcfg.dma[0]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"fwcfg[0]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"\\\\x2from@etc\\\\x2facpi\\\\x2frsdp[0]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"\\\\x2from@etc\\\\x2ftable-lo"
	    "ader[0]\",\"type\":\"child<memory-region>\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[10]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[11]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[12]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[13]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[14]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[15]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[16]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[17]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[18]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[19]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[20]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[21]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[22]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[23]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[8]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic/unnamed-gpio-in[9]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/i440fx/ioapic||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"version\",\"type\":\"uint8\"},{\"name\":\"unnam"
	    "ed-gpio-in[13]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio-i"
	    "n[2]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[9]\",\"typ"
	    "e\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[17]\",\"type\":\"child"
	    "<irq>\"},{\"name\":\"unnamed-gpio-in[22]\",\"type\":\"child<irq>\"},{"
	    "\"name\":\"unnamed-gpio-in[10]\",\"type\":\"child<irq>\"},{\"name\":\"u"
	    "nnamed-gpio-in[6]\",\"type\":\"child<irq>\"},{\"name\":\"ioapic[0]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"unnamed-gpio-in[14]\""
	    ",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[3]\",\"type\":\"c"
	    "hild<irq>\"},{\"name\":\"unnamed-gpio-in[18]\",\"type\":\"child<irq>"
	    "\"},{\"name\":\"unnamed-gpio-in[11]\",\"type\":\"child<irq>\"},{\"name"
	    "\":\"unnamed-gpio-in[0]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed"
	    "-gpio-in[7]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[2"
	    "3]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[15]\",\"type"
	    "\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[4]\",\"type\":\"child<i"
	    "rq>\"},{\"name\":\"unnamed-gpio-in[20]\",\"type\":\"child<irq>\"},{\"n"
	    "ame\":\"unnamed-gpio-in[19]\",\"type\":\"child<irq>\"},{\"name\":\"unn"
	    "amed-gpio-in[12]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio"
	    "-in[1]\",\"type\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[8]\",\"t"
	    "ype\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[16]\",\"type\":\"chi"
	    "ld<irq>\"},{\"name\":\"unnamed-gpio-in[5]\",\"type\":\"child<irq>\"},"
	    "{\"name\":\"unnamed-gpio-in[21]\",\"type\":\"child<irq>\"}]}" },
	{ "qom-list|/machine/i440fx/pci.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"child[2]"
	    "\",\"type\":\"link<piix3-ide>\"},{\"name\":\"realized\",\"type\":\"bool\""
	    "},{\"name\":\"child[3]\",\"type\":\"link<PIIX4_PM>\"},{\"name\":\"acpi-"
	    "pcihp-bsel\",\"type\":\"uint32\"},{\"name\":\"child[0]\",\"type\":\"link"
	    "<i440FX>\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotplug-ha"
	    "ndler>\"},{\"name\":\"child[1]\",\"type\":\"link<PIIX3>\"}]}" },
	{ "qom-list|/machine/i440fx||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"bypass-iommu\",\"type\":\"bool\"},{\"name\":\"x"
	    "-config-reg-migration-enabled\",\"type\":\"bool\"},{\"name\":\"pci-h"
	    "ole64-end\",\"type\":\"uint64\"},{\"name\":\"pci-type\",\"type\":\"str\"}"
	    ",{\"name\":\"pci-hole-start\",\"type\":\"uint32\"},{\"name\":\"above-4g"
	    "-mem-size\",\"type\":\"size\"},{\"name\":\"pci-hole-end\",\"type\":\"uin"
	    "t32\"},{\"name\":\"x-pci-hole64-fix\",\"type\":\"bool\"},{\"name\":\"pci"
	    "-hole64-start\",\"type\":\"uint64\"},{\"name\":\"pci-hole64-size\",\"t"
	    "ype\":\"size\"},{\"name\":\"below-4g-mem-size\",\"type\":\"size\"},{\"na"
	    "me\":\"pci.0\",\"type\":\"child<PCI>\"},{\"name\":\"ioapic\",\"type\":\"ch"
	    "ild<ioapic>\"},{\"name\":\"pci-mem\",\"type\":\"link<memory-region>\""
	    "},{\"name\":\"pci-conf-data[0]\",\"type\":\"child<memory-region>\"},"
	    "{\"name\":\"system-mem\",\"type\":\"link<memory-region>\"},{\"name\":\""
	    "io-mem\",\"type\":\"link<memory-region>\"},{\"name\":\"pci-conf-idx["
	    "0]\",\"type\":\"child<memory-region>\"},{\"name\":\"ram-mem\",\"type\":"
	    "\"link<memory-region>\"}]}" },
	{ "qom-list|/machine/peripheral-anon||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/peripheral||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[0]/lapic||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"vapic\",\"type\":\"bool\"},{\"name\":\"version\""
	    ",\"type\":\"uint8\"},{\"name\":\"legacy-instance-id\",\"type\":\"bool\"}"
	    ",{\"name\":\"id\",\"type\":\"uint32\"},{\"name\":\"apic-msi[0]\",\"type\":"
	    "\"child<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"memory\",\"type\":\"link<memory-region>\"},{"
	    "\"name\":\"legacy-memory\",\"type\":\"str\"},{\"name\":\"start-powered-"
	    "off\",\"type\":\"bool\"},{\"name\":\"vmx-invept-single-context\",\"typ"
	    "e\":\"bool\"},{\"name\":\"core-capability\",\"type\":\"bool\"},{\"name\":"
	    "\"popcnt\",\"type\":\"bool\"},{\"name\":\"sgx-debug\",\"type\":\"bool\"},{"
	    "\"name\":\"kvm-poll-control\",\"type\":\"bool\"},{\"name\":\"dtes64\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-invvpid-single-addr\",\"type\":\"bool\""
	    "},{\"name\":\"xstore\",\"type\":\"bool\"},{\"name\":\"min-xlevel2\",\"typ"
	    "e\":\"uint32\"},{\"name\":\"stepping\",\"type\":\"int\"},{\"name\":\"vmx-v"
	    "mfunc\",\"type\":\"bool\"},{\"name\":\"sm4\",\"type\":\"bool\"},{\"name\":\""
	    "hv-emsr-bitmap\",\"type\":\"bool\"},{\"name\":\"pse36\",\"type\":\"bool\""
	    "},{\"name\":\"avx512-4vnniw\",\"type\":\"bool\"},{\"name\":\"x-intel-pt"
	    "-auto-level\",\"type\":\"bool\"},{\"name\":\"fma4\",\"type\":\"bool\"},{\""
	    "name\":\"avx512-vp2intersect\",\"type\":\"bool\"},{\"name\":\"avx2\",\"t"
	    "ype\":\"bool\"},{\"name\":\"amd-psfd\",\"type\":\"bool\"},{\"name\":\"amd-"
	    "stibp\",\"type\":\"bool\"},{\"name\":\"sgxlc\",\"type\":\"bool\"},{\"name\""
	    ":\"sm3\",\"type\":\"bool\"},{\"name\":\"family\",\"type\":\"int\"},{\"name\""
	    ":\"vmx-ept-advanced-exitinfo\",\"type\":\"bool\"},{\"name\":\"vmware-"
	    "cpuid-freq\",\"type\":\"bool\"},{\"name\":\"vmx-store-lma\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-spinlocks\",\"type\":\"uint32\"},{\"name\":\"ddpd-"
	    "u\",\"type\":\"bool\"},{\"name\":\"vmx-nested-exception\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmx-entry-noload-debugctl\",\"type\":\"bool\"},{\"nam"
	    "e\":\"bhi-no\",\"type\":\"bool\"},{\"name\":\"amx-fp16\",\"type\":\"bool\"}"
	    ",{\"name\":\"erms\",\"type\":\"bool\"},{\"name\":\"vaes\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-eptad\",\"type\":\"bool\"},{\"name\":\"vmx-activity-wa"
	    "it-sipi\",\"type\":\"bool\"},{\"name\":\"vmx-flexpriority\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-reset\",\"type\":\"bool\"},{\"name\":\"rdrand\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"lam\",\"type\":\"bool\"},{\"name\":\"vmx-pause-"
	    "exit\",\"type\":\"bool\"},{\"name\":\"vmx-shadow-vmcs\",\"type\":\"bool\""
	    "},{\"name\":\"model\",\"type\":\"int\"},{\"name\":\"avx512-vpopcntdq\",\""
	    "type\":\"bool\"},{\"name\":\"xcrypt\",\"type\":\"bool\"},{\"name\":\"tbm\","
	    "\"type\":\"bool\"},{\"name\":\"movdiri\",\"type\":\"bool\"},{\"name\":\"vmx"
	    "-monitor-exit\",\"type\":\"bool\"},{\"name\":\"kvm-pv-eoi\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-version-id-spack\",\"type\":\"uint32\"},{\"name\""
	    ":\"lm\",\"type\":\"bool\"},{\"name\":\"x-vendor-cpuid-only\",\"type\":\"b"
	    "ool\"},{\"name\":\"pbrsb-no\",\"type\":\"bool\"},{\"name\":\"vmx-unrestr"
	    "icted-guest\",\"type\":\"bool\"},{\"name\":\"host-phys-bits-limit\",\""
	    "type\":\"uint8\"},{\"name\":\"pae\",\"type\":\"bool\"},{\"name\":\"ssse3\","
	    "\"type\":\"bool\"},{\"name\":\"hv-runtime\",\"type\":\"bool\"},{\"name\":\""
	    "phe\",\"type\":\"bool\"},{\"name\":\"guest-phys-bits\",\"type\":\"uint32"
	    "\"},{\"name\":\"host-phys-bits\",\"type\":\"bool\"},{\"name\":\"taa-no\","
	    "\"type\":\"bool\"},{\"name\":\"sgx-aex-notify\",\"type\":\"bool\"},{\"nam"
	    "e\":\"full-width-write\",\"type\":\"bool\"},{\"name\":\"arat\",\"type\":\""
	    "bool\"},{\"name\":\"avx512vbmi2\",\"type\":\"bool\"},{\"name\":\"sha512\""
	    ",\"type\":\"bool\"},{\"name\":\"arch-lbr\",\"type\":\"bool\"},{\"name\":\"v"
	    "mx-vnmi-pending\",\"type\":\"bool\"},{\"name\":\"vmx-any-errcode\",\"t"
	    "ype\":\"bool\"},{\"name\":\"x2apic\",\"type\":\"bool\"},{\"name\":\"npt\",\""
	    "type\":\"bool\"},{\"name\":\"pmm-en\",\"type\":\"bool\"},{\"name\":\"vmx-i"
	    "nvpcid-exit\",\"type\":\"bool\"},{\"name\":\"avx512ifma\",\"type\":\"boo"
	    "l\"},{\"name\":\"ibpb-brtype\",\"type\":\"bool\"},{\"name\":\"model-id\","
	    "\"type\":\"string\"},{\"name\":\"ucode-rev\",\"type\":\"uint64\"},{\"name"
	    "\":\"hv-evmcs\",\"type\":\"bool\"},{\"name\":\"srso-user-kernel-no\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-io-exit\",\"type\":\"bool\"},{\"name\":\"t"
	    "sc\",\"type\":\"bool\"},{\"name\":\"x-force-features\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-ins-outs\",\"type\":\"bool\"},{\"name\":\"dca\",\"type\":"
	    "\"bool\"},{\"name\":\"vmx-apicv-x2apic\",\"type\":\"bool\"},{\"name\":\"p"
	    "erfctr-core\",\"type\":\"bool\"},{\"name\":\"ia64\",\"type\":\"bool\"},{\""
	    "name\":\"fdp-excptn-only\",\"type\":\"bool\"},{\"name\":\"hv-stimer-di"
	    "rect\",\"type\":\"bool\"},{\"name\":\"gds-no\",\"type\":\"bool\"},{\"name\""
	    ":\"vmx-exit-secondary-ctls\",\"type\":\"bool\"},{\"name\":\"vmx-cr3-l"
	    "oad-noexit\",\"type\":\"bool\"},{\"name\":\"rfds-no\",\"type\":\"bool\"},"
	    "{\"name\":\"pmu\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-rtit-ct"
	    "l\",\"type\":\"bool\"},{\"name\":\"kvmclock\",\"type\":\"bool\"},{\"name\":"
	    "\"avx10\",\"type\":\"bool\"},{\"name\":\"vmx-invept-single-context-no"
	    "globals\",\"type\":\"bool\"},{\"name\":\"xen-vapic\",\"type\":\"bool\"},{"
	    "\"name\":\"invtsc\",\"type\":\"bool\"},{\"name\":\"pn\",\"type\":\"bool\"},{"
	    "\"name\":\"avx512cd\",\"type\":\"bool\"},{\"name\":\"md-clear\",\"type\":\""
	    "bool\"},{\"name\":\"cmp-legacy\",\"type\":\"bool\"},{\"name\":\"cx16\",\"t"
	    "ype\":\"bool\"},{\"name\":\"avx512dq\",\"type\":\"bool\"},{\"name\":\"abm\""
	    ",\"type\":\"bool\"},{\"name\":\"vmx-activity-shutdown\",\"type\":\"bool"
	    "\"},{\"name\":\"auto-ibrs\",\"type\":\"bool\"},{\"name\":\"kvm-pv-ipi\",\""
	    "type\":\"bool\"},{\"name\":\"avx10-128\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-apicv-register\",\"type\":\"bool\"},{\"name\":\"fxsr-opt\",\"type\":\""
	    "bool\"},{\"name\":\"skip-l1dfl-vmentry\",\"type\":\"bool\"},{\"name\":\""
	    "fill-mtrr-mask\",\"type\":\"bool\"},{\"name\":\"x-migrate-smi-count\""
	    ",\"type\":\"bool\"},{\"name\":\"wbnoinvd\",\"type\":\"bool\"},{\"name\":\"r"
	    "dpid\",\"type\":\"bool\"},{\"name\":\"pcid\",\"type\":\"bool\"},{\"name\":\""
	    "bhi-ctrl\",\"type\":\"bool\"},{\"name\":\"syscall\",\"type\":\"bool\"},{\""
	    "name\":\"pse\",\"type\":\"bool\"},{\"name\":\"rrsba-ctrl\",\"type\":\"bool"
	    "\"},{\"name\":\"avx-ne-convert\",\"type\":\"bool\"},{\"name\":\"xsaves\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-entry-load-pat\",\"type\":\"bool\"},{"
	    "\"name\":\"vgif\",\"type\":\"bool\"},{\"name\":\"mce\",\"type\":\"bool\"},{\""
	    "name\":\"xfd\",\"type\":\"bool\"},{\"name\":\"node-id\",\"type\":\"int32\"}"
	    ",{\"name\":\"sgx-tokenkey\",\"type\":\"bool\"},{\"name\":\"ibpb\",\"type\""
	    ":\"bool\"},{\"name\":\"x-amd-topoext-features-only\",\"type\":\"bool\""
	    "},{\"name\":\"vmx-apicv-xapic\",\"type\":\"bool\"},{\"name\":\"vmx-hlt-"
	    "exit\",\"type\":\"bool\"},{\"name\":\"lwp\",\"type\":\"bool\"},{\"name\":\"e"
	    "raps\",\"type\":\"bool\"},{\"name\":\"cldemote\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-exit-load-pkrs\",\"type\":\"bool\"},{\"name\":\"rtm\",\"type\":"
	    "\"bool\"},{\"name\":\"hv-tlbflush\",\"type\":\"bool\"},{\"name\":\"kvm-st"
	    "eal-time\",\"type\":\"bool\"},{\"name\":\"cpuid-0xb\",\"type\":\"bool\"},"
	    "{\"name\":\"fsrs\",\"type\":\"bool\"},{\"name\":\"sgx-provisionkey\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"vmx-eptp-switching\",\"type\":\"bool\"},{\"na"
	    "me\":\"vmx-invlpg-exit\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load"
	    "-efer\",\"type\":\"bool\"},{\"name\":\"level-func7\",\"type\":\"uint32\"}"
	    ",{\"name\":\"die-id\",\"type\":\"int32\"},{\"name\":\"vmx-exit-save-efe"
	    "r\",\"type\":\"bool\"},{\"name\":\"x-l1-cache-per-thread\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vme\",\"type\":\"bool\"},{\"name\":\"kvm-pv-unhalt\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-desc-exit\",\"type\":\"bool\"},{\"name\":"
	    "\"sgx-kss\",\"type\":\"bool\"},{\"name\":\"vmx-invvpid\",\"type\":\"bool\""
	    "},{\"name\":\"vmx-entry-ia32e-mode\",\"type\":\"bool\"},{\"name\":\"svm"
	    "\",\"type\":\"bool\"},{\"name\":\"kvm-hint-dedicated\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-ept-execonly\",\"type\":\"bool\"},{\"name\":\"module-i"
	    "d\",\"type\":\"int32\"},{\"name\":\"avx-ifma\",\"type\":\"bool\"},{\"name\""
	    ":\"mca\",\"type\":\"bool\"},{\"name\":\"vmx-tsc-scaling\",\"type\":\"bool"
	    "\"},{\"name\":\"mtrr\",\"type\":\"bool\"},{\"name\":\"cid\",\"type\":\"bool\""
	    "},{\"name\":\"pfthreshold\",\"type\":\"bool\"},{\"name\":\"pmm\",\"type\":"
	    "\"bool\"},{\"name\":\"lahf-lm\",\"type\":\"bool\"},{\"name\":\"zero-fcs-f"
	    "ds\",\"type\":\"bool\"},{\"name\":\"hv-version-id-build\",\"type\":\"uin"
	    "t32\"},{\"name\":\"vmx-entry-load-pkrs\",\"type\":\"bool\"},{\"name\":\""
	    "tcg-cpuid\",\"type\":\"bool\"},{\"name\":\"no-nested-data-bp\",\"type\""
	    ":\"bool\"},{\"name\":\"legacy-multi-node\",\"type\":\"bool\"},{\"name\":"
	    "\"x-hv-max-vps\",\"type\":\"int32\"},{\"name\":\"tm\",\"type\":\"bool\"},{"
	    "\"name\":\"pbe\",\"type\":\"bool\"},{\"name\":\"amx-int8\",\"type\":\"bool\""
	    "},{\"name\":\"sgx1\",\"type\":\"bool\"},{\"name\":\"intel-psfd\",\"type\":"
	    "\"bool\"},{\"name\":\"vmx-rdpmc-exit\",\"type\":\"bool\"},{\"name\":\"spl"
	    "it-lock-detect\",\"type\":\"bool\"},{\"name\":\"apic-id\",\"type\":\"uin"
	    "t32\"},{\"name\":\"fpu\",\"type\":\"bool\"},{\"name\":\"skinit\",\"type\":\""
	    "bool\"},{\"name\":\"l3-cache\",\"type\":\"bool\"},{\"name\":\"sep\",\"type"
	    "\":\"bool\"},{\"name\":\"vmx-exit-load-pat\",\"type\":\"bool\"},{\"name\""
	    ":\"intel-pt-lip\",\"type\":\"bool\"},{\"name\":\"avx10-512\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-tlbflush-direct\",\"type\":\"bool\"},{\"name\":\"a"
	    "vx512-bf16\",\"type\":\"bool\"},{\"name\":\"overflow-recov\",\"type\":\""
	    "bool\"},{\"name\":\"vmx-vnmi\",\"type\":\"bool\"},{\"name\":\"vmx-rdtscp"
	    "-exit\",\"type\":\"bool\"},{\"name\":\"amx-complex\",\"type\":\"bool\"},{"
	    "\"name\":\"nx\",\"type\":\"bool\"},{\"name\":\"vmx-invvpid-all-context\""
	    ",\"type\":\"bool\"},{\"name\":\"avx-vnni-int8\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-vmwrite-vmexit-fields\",\"type\":\"bool\"},{\"name\":\"vmx-p"
	    "age-walk-4\",\"type\":\"bool\"},{\"name\":\"rfds-clear\",\"type\":\"bool"
	    "\"},{\"name\":\"pause-filter\",\"type\":\"bool\"},{\"name\":\"ds-cpl\",\"t"
	    "ype\":\"bool\"},{\"name\":\"succor\",\"type\":\"bool\"},{\"name\":\"fred\","
	    "\"type\":\"bool\"},{\"name\":\"fsrm\",\"type\":\"bool\"},{\"name\":\"vmx-ex"
	    "it-load-efer\",\"type\":\"bool\"},{\"name\":\"vmx-mtf\",\"type\":\"bool\""
	    "},{\"name\":\"vmx-entry-load-fred\",\"type\":\"bool\"},{\"name\":\"vmx-"
	    "ept\",\"type\":\"bool\"},{\"name\":\"fb-clear\",\"type\":\"bool\"},{\"name"
	    "\":\"nodeid-msr\",\"type\":\"bool\"},{\"name\":\"vmx-exit-clear-bndcfg"
	    "s\",\"type\":\"bool\"},{\"name\":\"smap\",\"type\":\"bool\"},{\"name\":\"vmx"
	    "-io-bitmap\",\"type\":\"bool\"},{\"name\":\"vmx-preemption-timer\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-invept-all-context\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-intr-exit\",\"type\":\"bool\"},{\"name\":\"prefetchiti"
	    "\",\"type\":\"bool\"},{\"name\":\"psdp-no\",\"type\":\"bool\"},{\"name\":\"x"
	    "level\",\"type\":\"uint32\"},{\"name\":\"cr8legacy\",\"type\":\"bool\"},{"
	    "\"name\":\"vmx-vpid\",\"type\":\"bool\"},{\"name\":\"vmx-zero-len-injec"
	    "t\",\"type\":\"bool\"},{\"name\":\"pschange-mc-no\",\"type\":\"bool\"},{\""
	    "name\":\"virt-ssbd\",\"type\":\"bool\"},{\"name\":\"umip\",\"type\":\"bool"
	    "\"},{\"name\":\"avx512er\",\"type\":\"bool\"},{\"name\":\"vmx-vintr-pend"
	    "ing\",\"type\":\"bool\"},{\"name\":\"xstore-en\",\"type\":\"bool\"},{\"nam"
	    "e\":\"avx512vl\",\"type\":\"bool\"},{\"name\":\"ibrs\",\"type\":\"bool\"},{"
	    "\"name\":\"rsba\",\"type\":\"bool\"},{\"name\":\"cmov\",\"type\":\"bool\"},{"
	    "\"name\":\"vmx-posted-intr\",\"type\":\"bool\"},{\"name\":\"xcrypt-en\","
	    "\"type\":\"bool\"},{\"name\":\"tm2\",\"type\":\"bool\"},{\"name\":\"lbrv\",\""
	    "type\":\"bool\"},{\"name\":\"tsc-scale\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-secondary-ctls\",\"type\":\"bool\"},{\"name\":\"xsaveerptr\",\"type\""
	    ":\"bool\"},{\"name\":\"fsgsbase\",\"type\":\"bool\"},{\"name\":\"x-hv-syn"
	    "ic-kvm-only\",\"type\":\"bool\"},{\"name\":\"avx512bw\",\"type\":\"bool\""
	    "},{\"name\":\"hv-version-id-minor\",\"type\":\"uint16\"},{\"name\":\"tc"
	    "e\",\"type\":\"bool\"},{\"name\":\"tsc-frequency\",\"type\":\"int\"},{\"na"
	    "me\":\"smx\",\"type\":\"bool\"},{\"name\":\"hle\",\"type\":\"bool\"},{\"name"
	    "\":\"monitor\",\"type\":\"bool\"},{\"name\":\"avx512-fp16\",\"type\":\"boo"
	    "l\"},{\"name\":\"sse4a\",\"type\":\"bool\"},{\"name\":\"vpclmulqdq\",\"typ"
	    "e\":\"bool\"},{\"name\":\"hv-frequencies\",\"type\":\"bool\"},{\"name\":\""
	    "kvm-pv-tlb-flush\",\"type\":\"bool\"},{\"name\":\"vmx-rdtsc-exit\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-activity-hlt\",\"type\":\"bool\"},{\"nam"
	    "e\":\"sgx-edeccssa\",\"type\":\"bool\"},{\"name\":\"xsavec\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-cr8-load-exit\",\"type\":\"bool\"},{\"name\":\"mds"
	    "-no\",\"type\":\"bool\"},{\"name\":\"svme-addr-chk\",\"type\":\"bool\"},{"
	    "\"name\":\"amd-no-ssb\",\"type\":\"bool\"},{\"name\":\"xop\",\"type\":\"boo"
	    "l\"},{\"name\":\"adx\",\"type\":\"bool\"},{\"name\":\"perfmon-v2\",\"type\""
	    ":\"bool\"},{\"name\":\"hv-version-id-sbranch\",\"type\":\"uint8\"},{\"n"
	    "ame\":\"crash-information\",\"type\":\"GuestPanicInformation\"},{\"n"
	    "ame\":\"min-level\",\"type\":\"uint32\"},{\"name\":\"full-cpuid-auto-l"
	    "evel\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-bndcfgs\",\"type\""
	    ":\"bool\"},{\"name\":\"vmx-rdseed-exit\",\"type\":\"bool\"},{\"name\":\"p"
	    "clmulqdq\",\"type\":\"bool\"},{\"name\":\"msr\",\"type\":\"bool\"},{\"name"
	    "\":\"wrmsrns\",\"type\":\"bool\"},{\"name\":\"kvm-pv-enforce-cpuid\",\"t"
	    "ype\":\"bool\"},{\"name\":\"ssb-no\",\"type\":\"bool\"},{\"name\":\"clflus"
	    "h\",\"type\":\"bool\"},{\"name\":\"mpx\",\"type\":\"bool\"},{\"name\":\"xlev"
	    "el2\",\"type\":\"uint32\"},{\"name\":\"extapic\",\"type\":\"bool\"},{\"nam"
	    "e\":\"lfence-always-serializing\",\"type\":\"bool\"},{\"name\":\"hv-en"
	    "force-cpuid\",\"type\":\"bool\"},{\"name\":\"hv-stimer\",\"type\":\"bool"
	    "\"},{\"name\":\"sgx2\",\"type\":\"bool\"},{\"name\":\"kvm-asyncpf-vmexit"
	    "\",\"type\":\"bool\"},{\"name\":\"smep\",\"type\":\"bool\"},{\"name\":\"vnmi"
	    "\",\"type\":\"bool\"},{\"name\":\"vmx-mwait-exit\",\"type\":\"bool\"},{\"n"
	    "ame\":\"hv-synic\",\"type\":\"bool\"},{\"name\":\"cx8\",\"type\":\"bool\"},"
	    "{\"name\":\"vmcb-clean\",\"type\":\"bool\"},{\"name\":\"pku\",\"type\":\"bo"
	    "ol\"},{\"name\":\"kvm\",\"type\":\"bool\"},{\"name\":\"srso-no\",\"type\":\""
	    "bool\"},{\"name\":\"hv-passthrough\",\"type\":\"bool\"},{\"name\":\"lkgs"
	    "\",\"type\":\"bool\"},{\"name\":\"tsx-ldtrk\",\"type\":\"bool\"},{\"name\":"
	    "\"hv-tlbflush-ext\",\"type\":\"bool\"},{\"name\":\"stibp\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmx-cr3-store-noexit\",\"type\":\"bool\"},{\"name\":\"t"
	    "sx-ctrl\",\"type\":\"bool\"},{\"name\":\"svm-lock\",\"type\":\"bool\"},{\""
	    "name\":\"hv-reenlightenment\",\"type\":\"bool\"},{\"name\":\"clzero\",\""
	    "type\":\"bool\"},{\"name\":\"avic\",\"type\":\"bool\"},{\"name\":\"hv-vpin"
	    "dex\",\"type\":\"bool\"},{\"name\":\"osvw\",\"type\":\"bool\"},{\"name\":\"s"
	    "gx-exinfo\",\"type\":\"bool\"},{\"name\":\"legacy-cache\",\"type\":\"boo"
	    "l\"},{\"name\":\"sse\",\"type\":\"bool\"},{\"name\":\"fsrc\",\"type\":\"bool"
	    "\"},{\"name\":\"ds\",\"type\":\"bool\"},{\"name\":\"pks\",\"type\":\"bool\"},"
	    "{\"name\":\"vmx-ept-2mb\",\"type\":\"bool\"},{\"name\":\"vmx-true-ctls\""
	    ",\"type\":\"bool\"},{\"name\":\"movdir64b\",\"type\":\"bool\"},{\"name\":\""
	    "vmx-ept-1gb\",\"type\":\"bool\"},{\"name\":\"vmx-invept\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmx-rdrand-exit\",\"type\":\"bool\"},{\"name\":\"acpi\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-encls-exit\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-cr8-store-exit\",\"type\":\"bool\"},{\"name\":\"sbdr-ssdp-no"
	    "\",\"type\":\"bool\"},{\"name\":\"ipred-ctrl\",\"type\":\"bool\"},{\"name\""
	    ":\"kvm-mmu\",\"type\":\"bool\"},{\"name\":\"3dnowprefetch\",\"type\":\"bo"
	    "ol\"},{\"name\":\"nrip-save\",\"type\":\"bool\"},{\"name\":\"gfni\",\"type"
	    "\":\"bool\"},{\"name\":\"flush-l1d\",\"type\":\"bool\"},{\"name\":\"kvm-ms"
	    "i-ext-dest-id\",\"type\":\"bool\"},{\"name\":\"fzrm\",\"type\":\"bool\"},"
	    "{\"name\":\"serialize\",\"type\":\"bool\"},{\"name\":\"avx512bitalg\",\"t"
	    "ype\":\"bool\"},{\"name\":\"rdseed\",\"type\":\"bool\"},{\"name\":\"sha-ni"
	    "\",\"type\":\"bool\"},{\"name\":\"ace2\",\"type\":\"bool\"},{\"name\":\"lmce"
	    "\",\"type\":\"bool\"},{\"name\":\"avx10-version\",\"type\":\"uint8\"},{\"n"
	    "ame\":\"topoext\",\"type\":\"bool\"},{\"name\":\"f16c\",\"type\":\"bool\"},"
	    "{\"name\":\"waitpkg\",\"type\":\"bool\"},{\"name\":\"avx512-4fmaps\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"fbsdp-no\",\"type\":\"bool\"},{\"name\":\"avx\","
	    "\"type\":\"bool\"},{\"name\":\"sse2\",\"type\":\"bool\"},{\"name\":\"rdctl-"
	    "no\",\"type\":\"bool\"},{\"name\":\"mmx\",\"type\":\"bool\"},{\"name\":\"hv-"
	    "version-id-major\",\"type\":\"uint16\"},{\"name\":\"level\",\"type\":\"u"
	    "int32\"},{\"name\":\"avx512vnni\",\"type\":\"bool\"},{\"name\":\"pni\",\"t"
	    "ype\":\"bool\"},{\"name\":\"movbe\",\"type\":\"bool\"},{\"name\":\"vmx-ple"
	    "\",\"type\":\"bool\"},{\"name\":\"mmxext\",\"type\":\"bool\"},{\"name\":\"lb"
	    "r-fmt\",\"type\":\"uint64\"},{\"name\":\"bus-lock-detect\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-apicv-vid\",\"type\":\"bool\"},{\"name\":\"vmx-pag"
	    "e-walk-5\",\"type\":\"bool\"},{\"name\":\"flushbyasid\",\"type\":\"bool\""
	    "},{\"name\":\"rdtscp\",\"type\":\"bool\"},{\"name\":\"clwb\",\"type\":\"boo"
	    "l\"},{\"name\":\"kvm-pv-sched-yield\",\"type\":\"bool\"},{\"name\":\"kvm"
	    "-asyncpf\",\"type\":\"bool\"},{\"name\":\"avx-vnni-int16\",\"type\":\"bo"
	    "ol\"},{\"name\":\"decodeassists\",\"type\":\"bool\"},{\"name\":\"vmx-wbi"
	    "nvd-exit\",\"type\":\"bool\"},{\"name\":\"pat\",\"type\":\"bool\"},{\"name"
	    "\":\"vmx-exit-clear-rtit-ctl\",\"type\":\"bool\"},{\"name\":\"invpcid\""
	    ",\"type\":\"bool\"},{\"name\":\"pdpe1gb\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-exit-save-pat\",\"type\":\"bool\"},{\"name\":\"unavailable-feature"
	    "s\",\"type\":\"strList\"},{\"name\":\"tsc-adjust\",\"type\":\"bool\"},{\"n"
	    "ame\":\"vmx-enable-user-wait-pause\",\"type\":\"bool\"},{\"name\":\"ht"
	    "\",\"type\":\"bool\"},{\"name\":\"amx-tile\",\"type\":\"bool\"},{\"name\":\""
	    "clflushopt\",\"type\":\"bool\"},{\"name\":\"hv-xmm-input\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-tsc-offset\",\"type\":\"bool\"},{\"name\":\"ssbd\","
	    "\"type\":\"bool\"},{\"name\":\"3dnowext\",\"type\":\"bool\"},{\"name\":\"xt"
	    "pr\",\"type\":\"bool\"},{\"name\":\"sgx\",\"type\":\"bool\"},{\"name\":\"hv-"
	    "crash\",\"type\":\"bool\"},{\"name\":\"xsave\",\"type\":\"bool\"},{\"name\""
	    ":\"pdcm\",\"type\":\"bool\"},{\"name\":\"hv-vendor-id\",\"type\":\"str\"},"
	    "{\"name\":\"est\",\"type\":\"bool\"},{\"name\":\"vendor\",\"type\":\"string"
	    "\"},{\"name\":\"pge\",\"type\":\"bool\"},{\"name\":\"pcommit\",\"type\":\"bo"
	    "ol\"},{\"name\":\"ibs\",\"type\":\"bool\"},{\"name\":\"tsc-deadline\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"sgx-mode64\",\"type\":\"bool\"},{\"name\":\"kvm"
	    "clock-stable-bit\",\"type\":\"bool\"},{\"name\":\"misalignsse\",\"type"
	    "\":\"bool\"},{\"name\":\"vmx-msr-bitmap\",\"type\":\"bool\"},{\"name\":\"c"
	    "heck\",\"type\":\"bool\"},{\"name\":\"hv-time\",\"type\":\"bool\"},{\"name"
	    "\":\"perfctr-nb\",\"type\":\"bool\"},{\"name\":\"hv-avic\",\"type\":\"bool"
	    "\"},{\"name\":\"phys-bits\",\"type\":\"uint32\"},{\"name\":\"apic\",\"type"
	    "\":\"bool\"},{\"name\":\"vmx-exit-save-preemption-timer\",\"type\":\"b"
	    "ool\"},{\"name\":\"vmx-exit-ack-intr\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-nmi-exit\",\"type\":\"bool\"},{\"name\":\"avx512vbmi\",\"type\":\"bool"
	    "\"},{\"name\":\"thread-id\",\"type\":\"int32\"},{\"name\":\"min-xlevel\","
	    "\"type\":\"uint32\"},{\"name\":\"socket-id\",\"type\":\"int32\"},{\"name\""
	    ":\"vmx-exit-nosave-debugctl\",\"type\":\"bool\"},{\"name\":\"arch-cap"
	    "abilities\",\"type\":\"bool\"},{\"name\":\"vmx-xsaves\",\"type\":\"bool\""
	    "},{\"name\":\"bmi2\",\"type\":\"bool\"},{\"name\":\"avx512f\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-exit-load-perf-global-ctrl\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-pml\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-pe"
	    "rf-global-ctrl\",\"type\":\"bool\"},{\"name\":\"ace2-en\",\"type\":\"boo"
	    "l\"},{\"name\":\"wdt\",\"type\":\"bool\"},{\"name\":\"intel-pt\",\"type\":\""
	    "bool\"},{\"name\":\"kvm-nopiodelay\",\"type\":\"bool\"},{\"name\":\"cmpc"
	    "cxadd\",\"type\":\"bool\"},{\"name\":\"v-vmsave-vmload\",\"type\":\"bool"
	    "\"},{\"name\":\"avx512pf\",\"type\":\"bool\"},{\"name\":\"bmi1\",\"type\":\""
	    "bool\"},{\"name\":\"enforce\",\"type\":\"bool\"},{\"name\":\"sse4.2\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"hv-syndbg\",\"type\":\"bool\"},{\"name\":\"ibrs"
	    "-all\",\"type\":\"bool\"},{\"name\":\"xgetbv1\",\"type\":\"bool\"},{\"name"
	    "\":\"mcdt-no\",\"type\":\"bool\"},{\"name\":\"spec-ctrl\",\"type\":\"bool\""
	    "},{\"name\":\"3dnow\",\"type\":\"bool\"},{\"name\":\"kvm-asyncpf-int\",\""
	    "type\":\"bool\"},{\"name\":\"vmx\",\"type\":\"bool\"},{\"name\":\"la57\",\"t"
	    "ype\":\"bool\"},{\"name\":\"hv-no-nonarch-coresharing\",\"type\":\"OnO"
	    "ffAuto\"},{\"name\":\"amx-bf16\",\"type\":\"bool\"},{\"name\":\"sse4.1\","
	    "\"type\":\"bool\"},{\"name\":\"xsaveopt\",\"type\":\"bool\"},{\"name\":\"hv"
	    "-relaxed\",\"type\":\"bool\"},{\"name\":\"hv-version-id-snumber\",\"ty"
	    "pe\":\"uint32\"},{\"name\":\"stibp-always-on\",\"type\":\"bool\"},{\"nam"
	    "e\":\"sbpb\",\"type\":\"bool\"},{\"name\":\"avx-vnni\",\"type\":\"bool\"},{"
	    "\"name\":\"fxsr\",\"type\":\"bool\"},{\"name\":\"phe-en\",\"type\":\"bool\"}"
	    ",{\"name\":\"hv-vapic\",\"type\":\"bool\"},{\"name\":\"hv-ipi\",\"type\":\""
	    "bool\"},{\"name\":\"null-sel-clr-base\",\"type\":\"bool\"},{\"name\":\"h"
	    "ypervisor\",\"type\":\"bool\"},{\"name\":\"avx10-256\",\"type\":\"bool\"}"
	    ",{\"name\":\"aes\",\"type\":\"bool\"},{\"name\":\"amd-ssbd\",\"type\":\"boo"
	    "l\"},{\"name\":\"core-id\",\"type\":\"int32\"},{\"name\":\"de\",\"type\":\"b"
	    "ool\"},{\"name\":\"ss\",\"type\":\"bool\"},{\"name\":\"vmx-movdr-exit\",\""
	    "type\":\"bool\"},{\"name\":\"fma\",\"type\":\"bool\"},{\"name\":\"lahf_lm\""
	    ",\"type\":\"bool\"},{\"name\":\"lapic\",\"type\":\"child<apic>\"},{\"name"
	    "\":\"tsc_adjust\",\"type\":\"bool\"},{\"name\":\"svm_lock\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmcb_clean\",\"type\":\"bool\"},{\"name\":\"nrip_save\","
	    "\"type\":\"bool\"},{\"name\":\"lbr_fmt\",\"type\":\"uint64\"},{\"name\":\"p"
	    "clmuldq\",\"type\":\"bool\"},{\"name\":\"ffxsr\",\"type\":\"bool\"},{\"nam"
	    "e\":\"sse4-2\",\"type\":\"bool\"},{\"name\":\"kvm_asyncpf_int\",\"type\":"
	    "\"bool\"},{\"name\":\"cmp_legacy\",\"type\":\"bool\"},{\"name\":\"kvm_nop"
	    "iodelay\",\"type\":\"bool\"},{\"name\":\"perfctr_core\",\"type\":\"bool\""
	    "},{\"name\":\"kvm_pv_unhalt\",\"type\":\"bool\"},{\"name\":\"ds_cpl\",\"t"
	    "ype\":\"bool\"},{\"name\":\"sse4-1\",\"type\":\"bool\"},{\"name\":\"perfct"
	    "r_nb\",\"type\":\"bool\"},{\"name\":\"sse3\",\"type\":\"bool\"},{\"name\":\""
	    "tsc_scale\",\"type\":\"bool\"},{\"name\":\"pause_filter\",\"type\":\"boo"
	    "l\"},{\"name\":\"kvm_asyncpf\",\"type\":\"bool\"},{\"name\":\"kvm_steal_"
	    "time\",\"type\":\"bool\"},{\"name\":\"feature-words\",\"type\":\"X86CPUF"
	    "eatureWordInfo\"},{\"name\":\"kvm_mmu\",\"type\":\"bool\"},{\"name\":\"s"
	    "mram[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"memory[0]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"filtered-features\",\""
	    "type\":\"X86CPUFeatureWordInfo\"},{\"name\":\"memory[1]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"sse4_2\",\"type\":\"bool\"},{\"name"
	    "\":\"kvm_poll_control\",\"type\":\"bool\"},{\"name\":\"fxsr_opt\",\"type"
	    "\":\"bool\"},{\"name\":\"nodeid_msr\",\"type\":\"bool\"},{\"name\":\"kvm_p"
	    "v_eoi\",\"type\":\"bool\"},{\"name\":\"i64\",\"type\":\"bool\"},{\"name\":\""
	    "hv-apicv\",\"type\":\"bool\"},{\"name\":\"xd\",\"type\":\"bool\"},{\"name\""
	    ":\"sse4_1\",\"type\":\"bool\"}]}" },
	{ "qom-list|/machine/unattached/device[10]/floppy-bus.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"realized"
	    "\",\"type\":\"bool\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotp"
	    "lug-handler>\"}]}" },
	{ "qom-list|/machine/unattached/device[10]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"fallback\",\"type\":\"FloppyDriveType\"},{\"n"
	    "ame\":\"fdtypeB\",\"type\":\"FloppyDriveType\"},{\"name\":\"dma\",\"type"
	    "\":\"uint32\"},{\"name\":\"irq\",\"type\":\"uint32\"},{\"name\":\"fdtypeA\""
	    ",\"type\":\"FloppyDriveType\"},{\"name\":\"iobase\",\"type\":\"uint32\"}"
	    ",{\"name\":\"fdc[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"fd"
	    "c[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"bootindexB\",\"t"
	    "ype\":\"int32\"},{\"name\":\"floppy-bus.0\",\"type\":\"child<floppy-bu"
	    "s>\"},{\"name\":\"bootindexA\",\"type\":\"int32\"}]}" },
	{ "qom-list|/machine/unattached/device[11]/ps2-kbd-input-irq[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[11]/ps2-mouse-input-irq[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[11]/ps2kbd||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/device[11]/ps2mouse||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/device[11]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"kbd-irq\",\"type\":\"uint8\"},{\"name\":\"mouse"
	    "-irq\",\"type\":\"uint8\"},{\"name\":\"extended-state\",\"type\":\"bool\""
	    "},{\"name\":\"kbd-throttle\",\"type\":\"bool\"},{\"name\":\"a20[0]\",\"ty"
	    "pe\":\"link<irq>\"},{\"name\":\"ps2kbd\",\"type\":\"child<ps2-kbd>\"},{"
	    "\"name\":\"ps2-mouse-input-irq[0]\",\"type\":\"child<irq>\"},{\"name\""
	    ":\"i8042-cmd[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"unna"
	    "med-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"unnamed-gpio-o"
	    "ut[1]\",\"type\":\"link<irq>\"},{\"name\":\"i8042-data[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"ps2-kbd-input-irq[0]\",\"type\":"
	    "\"child<irq>\"},{\"name\":\"ps2mouse\",\"type\":\"child<ps2-mouse>\"}]"
	    "}" },
	{ "qom-list|/machine/unattached/device[12]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"vmware-vmx-version\",\"type\":\"uint32\"},{\""
	    "name\":\"x-cmds-v2\",\"type\":\"bool\"},{\"name\":\"vmware-vmx-type\",\""
	    "type\":\"uint8\"},{\"name\":\"x-report-vmx-type\",\"type\":\"bool\"},{\""
	    "name\":\"x-signal-unsupported-cmd\",\"type\":\"bool\"},{\"name\":\"x-r"
	    "ead-set-eax\",\"type\":\"bool\"},{\"name\":\"vmport[0]\",\"type\":\"chil"
	    "d<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[13]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"i8042\",\"type\":\"link<i8042>\"},{\"name\":\"l"
	    "egacy-i8042\",\"type\":\"str\"}]}" },
	{ "qom-list|/machine/unattached/device[14]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"port92[0]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"a20[0]\",\"type\":\"link<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[15]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[16]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[17]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[18]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[19]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"kvmvapic[0]\",\"type\":\"child<memory-regio"
	    "n>\"},{\"name\":\"kvmvapic-rom[0]\",\"type\":\"child<memory-region>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/device[20]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[21]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[22]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"x-pc"
	    "ie-extcap-init\",\"type\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr"
	    "\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\"name\":\"multifunct"
	    "ion\",\"type\":\"bool\"},{\"name\":\"legacy-addr\",\"type\":\"str\"},{\"na"
	    "me\":\"pam-pci[13]\",\"type\":\"child<memory-region>\"},{\"name\":\"pa"
	    "m-pci[12]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[1"
	    "1]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[4]\",\"typ"
	    "e\":\"child<memory-region>\"},{\"name\":\"smram-region[0]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"pam-ram[12]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"pam-ram[5]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"pam-pci[14]\",\"type\":\"child<memory-region>\""
	    "},{\"name\":\"pam-ram[6]\",\"type\":\"child<memory-region>\"},{\"name"
	    "\":\"pam-pci[15]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-"
	    "ram[7]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[16]\""
	    ",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[23]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-ram[8]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"pam-pci[17]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"pam-ram[9]\",\"type\":\"child<memory-region>\""
	    "},{\"name\":\"pam-pci[18]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"pam-pci[25]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-pci[19]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[0]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[20]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"pam-pci[24]\",\"type\":\"chil"
	    "d<memory-region>\"},{\"name\":\"pam-rom[1]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"pam-pci[0]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"pam-rom[5]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"pam-rom[2]\",\"type\":\"child<memory-region>\"},{\"name\":\"bus "
	    "master container[0]\",\"type\":\"child<memory-region>\"},{\"name\":"
	    "\"pam-pci[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom"
	    "[3]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[10]\",\"t"
	    "ype\":\"child<memory-region>\"},{\"name\":\"pam-pci[2]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"pam-rom[4]\",\"type\":\"child<memo"
	    "ry-region>\"},{\"name\":\"pam-pci[21]\",\"type\":\"child<memory-regi"
	    "on>\"},{\"name\":\"pam-pci[3]\",\"type\":\"child<memory-region>\"},{\""
	    "name\":\"smram-low[0]\",\"type\":\"child<memory-region>\"},{\"name\":"
	    "\"pam-pci[22]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pc"
	    "i[4]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[6]\",\"t"
	    "ype\":\"child<memory-region>\"},{\"name\":\"pam-pci[5]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"smram[0]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"pam-rom[7]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"pam-rom[11]\",\"type\":\"child<memory-region>\"},{\"na"
	    "me\":\"pam-pci[6]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-rom[8]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[12]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[7]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-rom[9]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"bus master[0]\",\"type\":\"child<memor"
	    "y-region>\"},{\"name\":\"pam-pci[8]\",\"type\":\"child<memory-region"
	    ">\"},{\"name\":\"pam-ram[0]\",\"type\":\"child<memory-region>\"},{\"na"
	    "me\":\"pam-pci[9]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-ram[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[10]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[2]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-pci[11]\",\"type\":\"child"
	    "<memory-region>\"},{\"name\":\"pam-ram[10]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"pam-ram[3]\",\"type\":\"child<memory-region>"
	    "\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/dma[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"base\",\"type\":\"int32\"},{\"name\":\"dshift\","
	    "\"type\":\"int32\"},{\"name\":\"pageh-base\",\"type\":\"int32\"},{\"name\""
	    ":\"page-base\",\"type\":\"int32\"},{\"name\":\"dma-chan[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"dma-cont[0]\",\"type\":\"child<me"
	    "mory-region>\"},{\"name\":\"dma-page[0]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"dma-page[1]\",\"type\":\"child<memory-region>\"}"
	    "]}" },
	{ "qom-list|/machine/unattached/device[3]/dma[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"base\",\"type\":\"int32\"},{\"name\":\"dshift\","
	    "\"type\":\"int32\"},{\"name\":\"pageh-base\",\"type\":\"int32\"},{\"name\""
	    ":\"page-base\",\"type\":\"int32\"},{\"name\":\"dma-chan[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"dma-cont[0]\",\"type\":\"child<me"
	    "mory-region>\"},{\"name\":\"dma-page[0]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"dma-page[1]\",\"type\":\"child<memory-region>\"}"
	    "]}" },
	{ "qom-list|/machine/unattached/device[3]/ide/ide.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"realized"
	    "\",\"type\":\"bool\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotp"
	    "lug-handler>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/ide/ide.1||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"realized"
	    "\",\"type\":\"bool\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotp"
	    "lug-handler>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/ide||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"x-pc"
	    "ie-extcap-init\",\"type\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr"
	    "\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\"name\":\"multifunct"
	    "ion\",\"type\":\"bool\"},{\"name\":\"legacy-addr\",\"type\":\"str\"},{\"na"
	    "me\":\"ide.0\",\"type\":\"child<IDE>\"},{\"name\":\"bmdma[0]\",\"type\":\""
	    "child<memory-region>\"},{\"name\":\"isa-irq[1]\",\"type\":\"link<irq"
	    ">\"},{\"name\":\"bus master container[0]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"piix-bmdma-container[0]\",\"type\":\"child<mem"
	    "ory-region>\"},{\"name\":\"bmdma[1]\",\"type\":\"child<memory-region"
	    ">\"},{\"name\":\"ide.1\",\"type\":\"child<IDE>\"},{\"name\":\"bus master"
	    "[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"piix-bmdma[0]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"piix-bmdma[1]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"isa-irq[0]\",\"type\":\"link<"
	    "irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/isa.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"child[9]"
	    "\",\"type\":\"link<i8042>\"},{\"name\":\"child[12]\",\"type\":\"link<por"
	    "t92>\"},{\"name\":\"child[6]\",\"type\":\"link<isa-pcspk>\"},{\"name\":"
	    "\"child[7]\",\"type\":\"link<isa-serial>\"},{\"name\":\"child[8]\",\"ty"
	    "pe\":\"link<isa-fdc>\"},{\"name\":\"child[2]\",\"type\":\"link<mc14681"
	    "8rtc>\"},{\"name\":\"child[10]\",\"type\":\"link<vmport>\"},{\"name\":\""
	    "child[11]\",\"type\":\"link<vmmouse>\"},{\"name\":\"realized\",\"type\""
	    ":\"bool\"},{\"name\":\"child[0]\",\"type\":\"link<i8257>\"},{\"name\":\"c"
	    "hild[1]\",\"type\":\"link<i8257>\"},{\"name\":\"child[3]\",\"type\":\"li"
	    "nk<isa-i8259>\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotpl"
	    "ug-handler>\"},{\"name\":\"child[4]\",\"type\":\"link<isa-i8259>\"},{"
	    "\"name\":\"child[5]\",\"type\":\"link<isa-pit>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/pm/i2c||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"child[6]"
	    "\",\"type\":\"link<smbus-eeprom>\"},{\"name\":\"child[7]\",\"type\":\"li"
	    "nk<smbus-eeprom>\"},{\"name\":\"child[2]\",\"type\":\"link<smbus-eep"
	    "rom>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\"name\":\"child[0]\","
	    "\"type\":\"link<smbus-eeprom>\"},{\"name\":\"child[1]\",\"type\":\"link"
	    "<smbus-eeprom>\"},{\"name\":\"child[3]\",\"type\":\"link<smbus-eepro"
	    "m>\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotplug-handler>"
	    "\"},{\"name\":\"child[4]\",\"type\":\"link<smbus-eeprom>\"},{\"name\":\""
	    "child[5]\",\"type\":\"link<smbus-eeprom>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/pm||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"x-pc"
	    "ie-extcap-init\",\"type\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr"
	    "\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\"name\":\"multifunct"
	    "ion\",\"type\":\"bool\"},{\"name\":\"legacy-addr\",\"type\":\"str\"},{\"na"
	    "me\":\"acpi-pci-hotplug-with-bridge-support\",\"type\":\"bool\"},{\""
	    "name\":\"smb_io_base\",\"type\":\"uint32\"},{\"name\":\"disable_s3\",\"t"
	    "ype\":\"uint8\"},{\"name\":\"acpi-root-pci-hotplug\",\"type\":\"bool\"}"
	    ",{\"name\":\"smm-enabled\",\"type\":\"bool\"},{\"name\":\"disable_s4\",\""
	    "type\":\"uint8\"},{\"name\":\"memory-hotplug-support\",\"type\":\"bool"
	    "\"},{\"name\":\"smm-compat\",\"type\":\"bool\"},{\"name\":\"x-not-migrat"
	    "e-acpi-index\",\"type\":\"bool\"},{\"name\":\"s4_val\",\"type\":\"uint8\""
	    "},{\"name\":\"pm-smbus[0]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"acpi-tmr[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"acp"
	    "i_enable_cmd\",\"type\":\"uint8\"},{\"name\":\"acpi-pcihp-io-len\",\"t"
	    "ype\":\"uint16\"},{\"name\":\"acpi-cpu-hotplug[0]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"i2c\",\"type\":\"child<i2c-bus>\"},{\"nam"
	    "e\":\"sci_int\",\"type\":\"uint16\"},{\"name\":\"acpi-pcihp-io-base\",\""
	    "type\":\"uint16\"},{\"name\":\"acpi-pci-hotplug[0]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"bus master container[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"acpi-cnt[0]\",\"type\":\"child<me"
	    "mory-region>\"},{\"name\":\"acpi-evt[0]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"piix4-pm[0]\",\"type\":\"child<memory-region>\"}"
	    ",{\"name\":\"gpe0_blk_len\",\"type\":\"uint32\"},{\"name\":\"acpi-gpe0["
	    "0]\",\"type\":\"child<memory-region>\"},{\"name\":\"gpe0_blk\",\"type\""
	    ":\"uint32\"},{\"name\":\"smi-irq[0]\",\"type\":\"link<irq>\"},{\"name\":"
	    "\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"apm-io[0]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"acpi_disable_cmd\","
	    "\"type\":\"uint8\"},{\"name\":\"bus master[0]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"cpu-hotplug-legacy\",\"type\":\"bool\"},{\"nam"
	    "e\":\"pm_io_base\",\"type\":\"uint32\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/rtc||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"lost_tick_policy\",\"type\":\"LostTickPolic"
	    "y\"},{\"name\":\"irq\",\"type\":\"uint8\"},{\"name\":\"iobase\",\"type\":\"u"
	    "int16\"},{\"name\":\"base_year\",\"type\":\"int32\"},{\"name\":\"unnamed"
	    "-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"rtc-index[0]\",\"ty"
	    "pe\":\"child<memory-region>\"},{\"name\":\"rtc[0]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"date\",\"type\":\"struct tm\"}]}" },
	{ "qom-list|/machine/unattached/device[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"x-pc"
	    "ie-extcap-init\",\"type\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr"
	    "\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\"name\":\"multifunct"
	    "ion\",\"type\":\"bool\"},{\"name\":\"legacy-addr\",\"type\":\"str\"},{\"na"
	    "me\":\"smb_io_base\",\"type\":\"uint32\"},{\"name\":\"has-usb\",\"type\":"
	    "\"bool\"},{\"name\":\"has-acpi\",\"type\":\"bool\"},{\"name\":\"has-pic\","
	    "\"type\":\"bool\"},{\"name\":\"smm-enabled\",\"type\":\"bool\"},{\"name\":"
	    "\"has-pit\",\"type\":\"bool\"},{\"name\":\"bus master[0]\",\"type\":\"chi"
	    "ld<memory-region>\"},{\"name\":\"ide\",\"type\":\"child<piix3-ide>\"}"
	    ",{\"name\":\"dma[0]\",\"type\":\"child<i8257>\"},{\"name\":\"isa-irqs[2"
	    "]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[9]\",\"type\":\"link<ir"
	    "q>\"},{\"name\":\"pm\",\"type\":\"child<PIIX4_PM>\"},{\"name\":\"isa.0\","
	    "\"type\":\"child<ISA>\"},{\"name\":\"isa-irqs[13]\",\"type\":\"link<irq"
	    ">\"},{\"name\":\"isa-irqs[6]\",\"type\":\"link<irq>\"},{\"name\":\"dma[1"
	    "]\",\"type\":\"child<i8257>\"},{\"name\":\"isa-irqs[10]\",\"type\":\"lin"
	    "k<irq>\"},{\"name\":\"isa-irqs[3]\",\"type\":\"link<irq>\"},{\"name\":\""
	    "bus master container[0]\",\"type\":\"child<memory-region>\"},{\"na"
	    "me\":\"isa-irqs[14]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[0]\""
	    ",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[7]\",\"type\":\"link<irq>"
	    "\"},{\"name\":\"piix-reset-control[0]\",\"type\":\"child<memory-regi"
	    "on>\"},{\"name\":\"rtc\",\"type\":\"child<mc146818rtc>\"},{\"name\":\"is"
	    "a-irqs[11]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[4]\",\"type\""
	    ":\"link<irq>\"},{\"name\":\"isa-irqs[15]\",\"type\":\"link<irq>\"},{\"n"
	    "ame\":\"isa-irqs[1]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[8]\""
	    ",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[12]\",\"type\":\"link<irq"
	    ">\"},{\"name\":\"isa-irqs[5]\",\"type\":\"link<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]/unnamed-gpio-in[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"master\",\"type\":\"bool\"},{\"name\":\"elcr_ma"
	    "sk\",\"type\":\"uint8\"},{\"name\":\"elcr_addr\",\"type\":\"uint32\"},{\"n"
	    "ame\":\"iobase\",\"type\":\"uint32\"},{\"name\":\"unnamed-gpio-in[2]\","
	    "\"type\":\"child<irq>\"},{\"name\":\"elcr[0]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\"},"
	    "{\"name\":\"unnamed-gpio-in[0]\",\"type\":\"child<irq>\"},{\"name\":\"u"
	    "nnamed-gpio-in[1]\",\"type\":\"child<irq>\"},{\"name\":\"pic[0]\",\"ty"
	    "pe\":\"child<memory-region>\"},{\"name\":\"unnamed-gpio-in[3]\",\"ty"
	    "pe\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[4]\",\"type\":\"child"
	    "<irq>\"},{\"name\":\"unnamed-gpio-in[5]\",\"type\":\"child<irq>\"},{\""
	    "name\":\"unnamed-gpio-in[6]\",\"type\":\"child<irq>\"},{\"name\":\"unn"
	    "amed-gpio-in[7]\",\"type\":\"child<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]/unnamed-gpio-in[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"master\",\"type\":\"bool\"},{\"name\":\"elcr_ma"
	    "sk\",\"type\":\"uint8\"},{\"name\":\"elcr_addr\",\"type\":\"uint32\"},{\"n"
	    "ame\":\"iobase\",\"type\":\"uint32\"},{\"name\":\"unnamed-gpio-in[2]\","
	    "\"type\":\"child<irq>\"},{\"name\":\"elcr[0]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\"},"
	    "{\"name\":\"unnamed-gpio-in[0]\",\"type\":\"child<irq>\"},{\"name\":\"u"
	    "nnamed-gpio-in[1]\",\"type\":\"child<irq>\"},{\"name\":\"pic[0]\",\"ty"
	    "pe\":\"child<memory-region>\"},{\"name\":\"unnamed-gpio-in[3]\",\"ty"
	    "pe\":\"child<irq>\"},{\"name\":\"unnamed-gpio-in[4]\",\"type\":\"child"
	    "<irq>\"},{\"name\":\"unnamed-gpio-in[5]\",\"type\":\"child<irq>\"},{\""
	    "name\":\"unnamed-gpio-in[6]\",\"type\":\"child<irq>\"},{\"name\":\"unn"
	    "amed-gpio-in[7]\",\"type\":\"child<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"msi\",\"type\":\"bool\"},{\"name\":\"timers\",\"t"
	    "ype\":\"uint8\"},{\"name\":\"hpet-offset-saved\",\"type\":\"bool\"},{\"n"
	    "ame\":\"hpet-intcap\",\"type\":\"uint32\"},{\"name\":\"sysbus-irq[31]\""
	    ",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[5]\",\"type\":\"link<ir"
	    "q>\"},{\"name\":\"sysbus-irq[16]\",\"type\":\"link<irq>\"},{\"name\":\"s"
	    "ysbus-irq[17]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[6]\",\""
	    "type\":\"link<irq>\"},{\"name\":\"sysbus-irq[7]\",\"type\":\"link<irq>"
	    "\"},{\"name\":\"sysbus-irq[18]\",\"type\":\"link<irq>\"},{\"name\":\"sys"
	    "bus-irq[8]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[19]\",\"ty"
	    "pe\":\"link<irq>\"},{\"name\":\"sysbus-irq[9]\",\"type\":\"link<irq>\"}"
	    ",{\"name\":\"unnamed-gpio-in[0]\",\"type\":\"child<irq>\"},{\"name\":\""
	    "unnamed-gpio-in[1]\",\"type\":\"child<irq>\"},{\"name\":\"sysbus-irq"
	    "[20]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[21]\",\"type\":\"l"
	    "ink<irq>\"},{\"name\":\"sysbus-irq[22]\",\"type\":\"link<irq>\"},{\"na"
	    "me\":\"sysbus-irq[23]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq"
	    "[24]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[25]\",\"type\":\"l"
	    "ink<irq>\"},{\"name\":\"sysbus-irq[30]\",\"type\":\"link<irq>\"},{\"na"
	    "me\":\"sysbus-irq[26]\",\"type\":\"link<irq>\"},{\"name\":\"unnamed-gp"
	    "io-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[27]\",\"typ"
	    "e\":\"link<irq>\"},{\"name\":\"sysbus-irq[10]\",\"type\":\"link<irq>\"}"
	    ",{\"name\":\"sysbus-irq[28]\",\"type\":\"link<irq>\"},{\"name\":\"hpet["
	    "0]\",\"type\":\"child<memory-region>\"},{\"name\":\"sysbus-irq[11]\","
	    "\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[0]\",\"type\":\"link<irq"
	    ">\"},{\"name\":\"sysbus-irq[29]\",\"type\":\"link<irq>\"},{\"name\":\"sy"
	    "sbus-irq[12]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[1]\",\"t"
	    "ype\":\"link<irq>\"},{\"name\":\"sysbus-irq[13]\",\"type\":\"link<irq>"
	    "\"},{\"name\":\"sysbus-irq[2]\",\"type\":\"link<irq>\"},{\"name\":\"sysb"
	    "us-irq[14]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[3]\",\"typ"
	    "e\":\"link<irq>\"},{\"name\":\"sysbus-irq[4]\",\"type\":\"link<irq>\"},"
	    "{\"name\":\"sysbus-irq[15]\",\"type\":\"link<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":\"unnam"
	    "ed-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"pit[0]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"unnamed-gpio-in[0]\",\"type\":"
	    "\"child<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[8]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"audiodev\",\"type\":\"str\"},{\"name\":\"migrat"
	    "e\",\"type\":\"bool\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":"
	    "\"pit\",\"type\":\"link<pit-common>\"},{\"name\":\"pcspk[0]\",\"type\":\""
	    "child<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[9]/serial||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"wakeup\",\"type\":\"bool\"},{\"name\":\"chardev"
	    "\",\"type\":\"str\"},{\"name\":\"baudbase\",\"type\":\"uint32\"}]}" },
	{ "qom-list|/machine/unattached/device[9]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"irq\",\"type\":\"uint32\"},{\"name\":\"index\",\""
	    "type\":\"uint32\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":\"s"
	    "erial[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"wakeup\",\"t"
	    "ype\":\"bool\"},{\"name\":\"chardev\",\"type\":\"str\"},{\"name\":\"baudba"
	    "se\",\"type\":\"uint32\"},{\"name\":\"serial\",\"type\":\"child<serial>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[10]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[11]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[12]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[13]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[14]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[15]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[16]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[17]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[18]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[19]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[20]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[21]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[22]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[23]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[24]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[25]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[26]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[27]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[8]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/non-qdev-gpio[9]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/sysbus||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"child[6]"
	    "\",\"type\":\"link<ps2-mouse>\"},{\"name\":\"child[2]\",\"type\":\"link<"
	    "fw_cfg_io>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\"name\":\"chil"
	    "d[0]\",\"type\":\"link<kvmvapic>\"},{\"name\":\"child[1]\",\"type\":\"li"
	    "nk<i440FX-pcihost>\"},{\"name\":\"child[3]\",\"type\":\"link<ioapic>"
	    "\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotplug-handler>\"}"
	    ",{\"name\":\"child[4]\",\"type\":\"link<hpet>\"},{\"name\":\"child[5]\","
	    "\"type\":\"link<ps2-kbd>\"}]}" },
	{ "qom-list|/machine/unattached||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"non-qdev"
	    "-gpio[10]\",\"type\":\"child<irq>\"},{\"name\":\"ram-below-4g[0]\",\"t"
	    "ype\":\"child<memory-region>\"},{\"name\":\"device[20]\",\"type\":\"ch"
	    "ild<smbus-eeprom>\"},{\"name\":\"ide[2]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"device[4]\",\"type\":\"child<isa-i8259>\"},{\"nam"
	    "e\":\"device[15]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"non-q"
	    "dev-gpio[23]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[5]"
	    "\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[18]\",\"type\":\"c"
	    "hild<irq>\"},{\"name\":\"non-qdev-gpio[11]\",\"type\":\"child<irq>\"}"
	    ",{\"name\":\"device[21]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":"
	    "\"ide[3]\",\"type\":\"child<memory-region>\"},{\"name\":\"system[0]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"pc.bios[0]\",\"type\":\""
	    "child<memory-region>\"},{\"name\":\"device[5]\",\"type\":\"child<isa"
	    "-i8259>\"},{\"name\":\"device[16]\",\"type\":\"child<smbus-eeprom>\"}"
	    ",{\"name\":\"isa-bios[0]\",\"type\":\"child<memory-region>\"},{\"name"
	    "\":\"non-qdev-gpio[24]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev"
	    "-gpio[6]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[19]\",\""
	    "type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[12]\",\"type\":\"chil"
	    "d<irq>\"},{\"name\":\"device[22]\",\"type\":\"child<smbus-eeprom>\"},"
	    "{\"name\":\"device[6]\",\"type\":\"child<hpet>\"},{\"name\":\"device[17"
	    "]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"sysbus\",\"type\":\"ch"
	    "ild<System>\"},{\"name\":\"device[10]\",\"type\":\"child<isa-fdc>\"},"
	    "{\"name\":\"non-qdev-gpio[25]\",\"type\":\"child<irq>\"},{\"name\":\"no"
	    "n-qdev-gpio[7]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio["
	    "0]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[13]\",\"type\":"
	    "\"child<irq>\"},{\"name\":\"pc.rom[0]\",\"type\":\"child<memory-regio"
	    "n>\"},{\"name\":\"device[7]\",\"type\":\"child<isa-pit>\"},{\"name\":\"i"
	    "oport80[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"non-qdev"
	    "-gpio[8]\",\"type\":\"child<irq>\"},{\"name\":\"device[0]\",\"type\":\"c"
	    "hild<qemu64-x86_64-cpu>\"},{\"name\":\"device[18]\",\"type\":\"child"
	    "<smbus-eeprom>\"},{\"name\":\"device[11]\",\"type\":\"child<i8042>\"}"
	    ",{\"name\":\"non-qdev-gpio[26]\",\"type\":\"child<irq>\"},{\"name\":\"n"
	    "on-qdev-gpio[1]\",\"type\":\"child<irq>\"},{\"name\":\"ioportF0[0]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"non-qdev-gpio[14]\",\""
	    "type\":\"child<irq>\"},{\"name\":\"device[8]\",\"type\":\"child<isa-pc"
	    "spk>\"},{\"name\":\"device[1]\",\"type\":\"child<kvmvapic>\"},{\"name\""
	    ":\"device[19]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"non-qde"
	    "v-gpio[9]\",\"type\":\"child<irq>\"},{\"name\":\"device[12]\",\"type\":"
	    "\"child<vmport>\"},{\"name\":\"non-qdev-gpio[27]\",\"type\":\"child<i"
	    "rq>\"},{\"name\":\"non-qdev-gpio[20]\",\"type\":\"child<irq>\"},{\"nam"
	    "e\":\"non-qdev-gpio[2]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev"
	    "-gpio[15]\",\"type\":\"child<irq>\"},{\"name\":\"pci[0]\",\"type\":\"chi"
	    "ld<memory-region>\"},{\"name\":\"device[9]\",\"type\":\"child<isa-se"
	    "rial>\"},{\"name\":\"ide[0]\",\"type\":\"child<memory-region>\"},{\"na"
	    "me\":\"device[2]\",\"type\":\"child<i440FX>\"},{\"name\":\"device[13]\""
	    ",\"type\":\"child<vmmouse>\"},{\"name\":\"non-qdev-gpio[21]\",\"type\""
	    ":\"child<irq>\"},{\"name\":\"non-qdev-gpio[3]\",\"type\":\"child<irq>"
	    "\"},{\"name\":\"non-qdev-gpio[16]\",\"type\":\"child<irq>\"},{\"name\":"
	    "\"io[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"ide[1]\",\"typ"
	    "e\":\"child<memory-region>\"},{\"name\":\"device[3]\",\"type\":\"child"
	    "<PIIX3>\"},{\"name\":\"device[14]\",\"type\":\"child<port92>\"},{\"nam"
	    "e\":\"non-qdev-gpio[22]\",\"type\":\"child<irq>\"},{\"name\":\"non-qde"
	    "v-gpio[4]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[17]\","
	    "\"type\":\"child<irq>\"}]}" },
	{ "qom-list|/machine||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"kernel\","
	    "\"type\":\"string\"},{\"name\":\"dt-compatible\",\"type\":\"string\"},{\""
	    "name\":\"boot\",\"type\":\"BootConfiguration\"},{\"name\":\"memory\",\"t"
	    "ype\":\"MemorySizeConfiguration\"},{\"name\":\"initrd\",\"type\":\"str"
	    "ing\"},{\"name\":\"confidential-guest-support\",\"type\":\"link<conf"
	    "idential-guest-support>\"},{\"name\":\"aux-ram-share\",\"type\":\"bo"
	    "ol\"},{\"name\":\"graphics\",\"type\":\"bool\"},{\"name\":\"usb\",\"type\":"
	    "\"bool\"},{\"name\":\"firmware\",\"type\":\"string\"},{\"name\":\"memory-"
	    "encryption\",\"type\":\"string\"},{\"name\":\"dump-guest-core\",\"type"
	    "\":\"bool\"},{\"name\":\"smp\",\"type\":\"SMPConfiguration\"},{\"name\":\""
	    "shim\",\"type\":\"string\"},{\"name\":\"smp-cache\",\"type\":\"SmpCacheP"
	    "ropertiesWrapper\"},{\"name\":\"dumpdtb\",\"type\":\"string\"},{\"name"
	    "\":\"phandle-start\",\"type\":\"int\"},{\"name\":\"memory-backend\",\"ty"
	    "pe\":\"link<memory-backend>\"},{\"name\":\"mem-merge\",\"type\":\"bool"
	    "\"},{\"name\":\"dtb\",\"type\":\"string\"},{\"name\":\"append\",\"type\":\"s"
	    "tring\"},{\"name\":\"suppress-vmdesc\",\"type\":\"bool\"},{\"name\":\"sm"
	    "m\",\"type\":\"OnOffAuto\"},{\"name\":\"acpi\",\"type\":\"OnOffAuto\"},{\""
	    "name\":\"pit\",\"type\":\"OnOffAuto\"},{\"name\":\"pic\",\"type\":\"OnOffA"
	    "uto\"},{\"name\":\"x-oem-table-id\",\"type\":\"string\"},{\"name\":\"bus"
	    "-lock-ratelimit\",\"type\":\"uint64_t\"},{\"name\":\"sgx-epc\",\"type\""
	    ":\"SgxEPC\"},{\"name\":\"x-oem-id\",\"type\":\"string\"},{\"name\":\"max-"
	    "fw-size\",\"type\":\"size\"},{\"name\":\"default-bus-bypass-iommu\",\""
	    "type\":\"bool\"},{\"name\":\"sata\",\"type\":\"bool\"},{\"name\":\"vmport\""
	    ",\"type\":\"OnOffAuto\"},{\"name\":\"i8042\",\"type\":\"bool\"},{\"name\":"
	    "\"hpet\",\"type\":\"bool\"},{\"name\":\"smbios-entry-point-type\",\"typ"
	    "e\":\"str\"},{\"name\":\"max-ram-below-4g\",\"type\":\"size\"},{\"name\":"
	    "\"fd-bootchk\",\"type\":\"bool\"},{\"name\":\"smbus\",\"type\":\"bool\"},{"
	    "\"name\":\"x-south-bridge\",\"type\":\"PCSouthBridgeOption\"},{\"name"
	    "\":\"unattached\",\"type\":\"child<container>\"},{\"name\":\"fw_cfg\",\""
	    "type\":\"child<fw_cfg_io>\"},{\"name\":\"peripheral-anon\",\"type\":\""
	    "child<container>\"},{\"name\":\"nvdimm\",\"type\":\"bool\"},{\"name\":\""
	    "peripheral\",\"type\":\"child<container>\"},{\"name\":\"nvdimm-persi"
	    "stence\",\"type\":\"string\"},{\"name\":\"smram\",\"type\":\"link<memory"
	    "-region>\"},{\"name\":\"cxl-fmw\",\"type\":\"CXLFixedMemoryWindow\"},"
	    "{\"name\":\"rtc-time\",\"type\":\"struct tm\"},{\"name\":\"acpi-device\""
	    ",\"type\":\"link<hotplug-handler>\"},{\"name\":\"cxl\",\"type\":\"bool\""
	    "},{\"name\":\"pcspk-audiodev\",\"type\":\"str\"},{\"name\":\"hmat\",\"typ"
	    "e\":\"bool\"},{\"name\":\"i440fx\",\"type\":\"child<i440FX-pcihost>\"}]"
	    "}" },
	{ "qom-list|/objects/pc.ram||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"share\",\""
	    "type\":\"bool\"},{\"name\":\"size\",\"type\":\"int\"},{\"name\":\"dump\",\"t"
	    "ype\":\"bool\"},{\"name\":\"prealloc-threads\",\"type\":\"int\"},{\"name"
	    "\":\"x-use-canonical-path-for-ramblock-id\",\"type\":\"bool\"},{\"na"
	    "me\":\"policy\",\"type\":\"HostMemPolicy\"},{\"name\":\"prealloc-conte"
	    "xt\",\"type\":\"link<thread-context>\"},{\"name\":\"prealloc\",\"type\""
	    ":\"bool\"},{\"name\":\"reserve\",\"type\":\"bool\"},{\"name\":\"host-node"
	    "s\",\"type\":\"int\"},{\"name\":\"merge\",\"type\":\"bool\"},{\"name\":\"pc."
	    "ram[0]\",\"type\":\"child<memory-region>\"}]}" },
	{ "qom-list|/objects||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"pc.ram\","
	    "\"type\":\"child<memory-backend-ram>\"}]}" },
	{ "query-block|||",
	    "{\"return\":[]}" },
	{ "query-cpus-fast|||",
	    "{\"return\":[{\"thread-id\":9081,\"props\":{\"core-id\":0,\"thread-id"
	    "\":0,\"socket-id\":0},\"qom-path\":\"/machine/unattached/device[0]"
	    "\",\"cpu-index\":0,\"target\":\"x86_64\"}]}" },
	{ "query-kvm|||",
	    "{\"return\":{\"enabled\":false,\"present\":true}}" },
	{ "query-memory-size-summary|||",
	    "{\"return\":{\"base-memory\":201326592,\"plugged-memory\":0}}" },
	{ "query-migrate-capabilities|||",
	    "{\"return\":[{\"state\":false,\"capability\":\"xbzrle\"},{\"state\":fa"
	    "lse,\"capability\":\"rdma-pin-all\"},{\"state\":false,\"capability\""
	    ":\"auto-converge\"},{\"state\":false,\"capability\":\"zero-blocks\"}"
	    ",{\"state\":false,\"capability\":\"events\"},{\"state\":false,\"capab"
	    "ility\":\"postcopy-ram\"},{\"state\":false,\"capability\":\"x-colo\"}"
	    ",{\"state\":false,\"capability\":\"release-ram\"},{\"state\":false,\""
	    "capability\":\"return-path\"},{\"state\":false,\"capability\":\"paus"
	    "e-before-switchover\"},{\"state\":false,\"capability\":\"multifd\"}"
	    ",{\"state\":false,\"capability\":\"dirty-bitmaps\"},{\"state\":false"
	    ",\"capability\":\"postcopy-blocktime\"},{\"state\":false,\"capabili"
	    "ty\":\"late-block-activate\"},{\"state\":false,\"capability\":\"x-ig"
	    "nore-shared\"},{\"state\":false,\"capability\":\"validate-uuid\"},{"
	    "\"state\":false,\"capability\":\"background-snapshot\"},{\"state\":f"
	    "alse,\"capability\":\"zero-copy-send\"},{\"state\":false,\"capabili"
	    "ty\":\"postcopy-preempt\"},{\"state\":false,\"capability\":\"switcho"
	    "ver-ack\"},{\"state\":false,\"capability\":\"dirty-limit\"},{\"state"
	    "\":false,\"capability\":\"mapped-ram\"}]}" },
	{ "query-sev|||",
	    "{\"return\":{\"enabled\":false,\"api-minor\":0,\"handle\":0,\"state\":"
	    "\"uninit\",\"api-major\":0,\"sev-type\":\"sev\",\"build-id\":0,\"policy"
	    "\":0}}" },
	{ "query-uuid|||",
	    "{\"return\":{\"UUID\":\"00000000-0000-0000-0000-000000000000\"}}" },
	{ NULL, NULL }
};
