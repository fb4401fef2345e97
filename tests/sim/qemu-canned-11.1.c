/*
 * qemu-canned-11.1.c: what a real QEMU 11.1 answered to the setup's static
 * queries (generated from the traces of tests/traces/qmp failed-
 * load-10.0-11.1, postcopy-recover-11.1, precopy-11.1; tests/sim/canned.py
 * --version 11.1).  The key is the command and its path, property and
 * command-line arguments, "|"-joined.
 */
#include <stddef.h>

#include "qemu-canned.h"

const struct canned canned_11_1[] = {
	{ "calc-dirty-rate|||",
	    "{\"return\":{}}" },
	{ "human-monitor-command|||info network",
	    "{\"return\":\"\"}" },
	{ "qom-get|/machine/unattached/device[0]|hv-passthrough|",
	    "{\"return\":false}" },
	{ "qom-get|/machine/unattached/device[0]|hv-reenlightenment|",
	    "{\"return\":false}" },
	{ "qom-get|/machine/unattached/device[0]|type|",
	    "{\"return\":\"qemu64-x86_64-cpu\"}" },
	{ "qom-get|/machine|type|",
	    "{\"return\":\"pc-i440fx-11.1-machine\"}" },
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
	    ",\"type\":\"uint8\"},{\"name\":\"id\",\"type\":\"uint32\"},{\"name\":\"apic"
	    "-msi[0]\",\"type\":\"child<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"memory\",\"type\":\"link<memory-region>\"},{"
	    "\"name\":\"start-powered-off\",\"type\":\"bool\"},{\"name\":\"ds\",\"type"
	    "\":\"bool\"},{\"name\":\"vmx-zero-len-inject\",\"type\":\"bool\"},{\"nam"
	    "e\":\"pks\",\"type\":\"bool\"},{\"name\":\"mtrr\",\"type\":\"bool\"},{\"name"
	    "\":\"amx-bf16\",\"type\":\"bool\"},{\"name\":\"fxsr-opt\",\"type\":\"bool\""
	    "},{\"name\":\"hv-vpindex\",\"type\":\"bool\"},{\"name\":\"avic\",\"type\":"
	    "\"bool\"},{\"name\":\"crash-information\",\"type\":\"GuestPanicInform"
	    "ation\"},{\"name\":\"sbpb\",\"type\":\"bool\"},{\"name\":\"vmx-hlt-exit\""
	    ",\"type\":\"bool\"},{\"name\":\"avx-vnni-int8\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-rdtscp-exit\",\"type\":\"bool\"},{\"name\":\"avx\",\"type\":\"bo"
	    "ol\"},{\"name\":\"clwb\",\"type\":\"bool\"},{\"name\":\"svme-addr-chk\",\""
	    "type\":\"bool\"},{\"name\":\"fsrm\",\"type\":\"bool\"},{\"name\":\"vmx-ept"
	    "-1gb\",\"type\":\"bool\"},{\"name\":\"sgx2\",\"type\":\"bool\"},{\"name\":\""
	    "model-id\",\"type\":\"string\"},{\"name\":\"vmx-exit-clear-rtit-ctl\""
	    ",\"type\":\"bool\"},{\"name\":\"smx\",\"type\":\"bool\"},{\"name\":\"min-xl"
	    "evel\",\"type\":\"uint32\"},{\"name\":\"sgx1\",\"type\":\"bool\"},{\"name\""
	    ":\"vmx-preemption-timer\",\"type\":\"bool\"},{\"name\":\"pni\",\"type\":"
	    "\"bool\"},{\"name\":\"kvm-pv-tlb-flush\",\"type\":\"bool\"},{\"name\":\"v"
	    "me\",\"type\":\"bool\"},{\"name\":\"host-phys-bits\",\"type\":\"bool\"},{"
	    "\"name\":\"overflow-recov\",\"type\":\"bool\"},{\"name\":\"apxf\",\"type\""
	    ":\"bool\"},{\"name\":\"avx-vnni\",\"type\":\"bool\"},{\"name\":\"hv-tlbfl"
	    "ush-direct\",\"type\":\"bool\"},{\"name\":\"fb-clear\",\"type\":\"bool\"}"
	    ",{\"name\":\"xen-vapic\",\"type\":\"bool\"},{\"name\":\"amd-stibp\",\"typ"
	    "e\":\"bool\"},{\"name\":\"tm2\",\"type\":\"bool\"},{\"name\":\"bhi-no\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"vmx-shadow-vmcs\",\"type\":\"bool\"},{\"name\""
	    ":\"tce\",\"type\":\"bool\"},{\"name\":\"amx-int8\",\"type\":\"bool\"},{\"na"
	    "me\":\"kvmclock\",\"type\":\"bool\"},{\"name\":\"xfd\",\"type\":\"bool\"},{"
	    "\"name\":\"fma4\",\"type\":\"bool\"},{\"name\":\"vmx-activity-wait-sipi"
	    "\",\"type\":\"bool\"},{\"name\":\"hv-spinlocks\",\"type\":\"uint32\"},{\"n"
	    "ame\":\"prefetchiti\",\"type\":\"bool\"},{\"name\":\"msr-imm\",\"type\":\""
	    "bool\"},{\"name\":\"avx512dq\",\"type\":\"bool\"},{\"name\":\"pause-filt"
	    "er\",\"type\":\"bool\"},{\"name\":\"sgx-debug\",\"type\":\"bool\"},{\"name"
	    "\":\"lbr-fmt\",\"type\":\"uint64\"},{\"name\":\"core-capability\",\"type"
	    "\":\"bool\"},{\"name\":\"amx-bf16-alias\",\"type\":\"bool\"},{\"name\":\"d"
	    "ecodeassists\",\"type\":\"bool\"},{\"name\":\"sse\",\"type\":\"bool\"},{\""
	    "name\":\"hv-xmm-input\",\"type\":\"bool\"},{\"name\":\"full-width-writ"
	    "e\",\"type\":\"bool\"},{\"name\":\"host-phys-bits-limit\",\"type\":\"uin"
	    "t8\"},{\"name\":\"avx512f\",\"type\":\"bool\"},{\"name\":\"sgx-mode64\",\""
	    "type\":\"bool\"},{\"name\":\"vmx-entry-load-rtit-ctl\",\"type\":\"bool"
	    "\"},{\"name\":\"pfthreshold\",\"type\":\"bool\"},{\"name\":\"vmx-msr-bit"
	    "map\",\"type\":\"bool\"},{\"name\":\"tsx-ldtrk\",\"type\":\"bool\"},{\"nam"
	    "e\":\"skinit\",\"type\":\"bool\"},{\"name\":\"aes\",\"type\":\"bool\"},{\"na"
	    "me\":\"amd-ssbd\",\"type\":\"bool\"},{\"name\":\"fsrc\",\"type\":\"bool\"},"
	    "{\"name\":\"hv-crash\",\"type\":\"bool\"},{\"name\":\"smap\",\"type\":\"boo"
	    "l\"},{\"name\":\"phys-bits\",\"type\":\"uint32\"},{\"name\":\"tsc-scale\""
	    ",\"type\":\"bool\"},{\"name\":\"topoext\",\"type\":\"bool\"},{\"name\":\"av"
	    "x512-4fmaps\",\"type\":\"bool\"},{\"name\":\"avx10-256\",\"type\":\"bool"
	    "\"},{\"name\":\"de\",\"type\":\"bool\"},{\"name\":\"avx512bitalg\",\"type\""
	    ":\"bool\"},{\"name\":\"vmx-activity-hlt\",\"type\":\"bool\"},{\"name\":\""
	    "amx-tile\",\"type\":\"bool\"},{\"name\":\"rfds-no\",\"type\":\"bool\"},{\""
	    "name\":\"kvm-pv-enforce-cpuid\",\"type\":\"bool\"},{\"name\":\"movbe\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-ept-2mb\",\"type\":\"bool\"},{\"name\":"
	    "\"wbnoinvd\",\"type\":\"bool\"},{\"name\":\"amx-tf32\",\"type\":\"bool\"},"
	    "{\"name\":\"rdrand\",\"type\":\"bool\"},{\"name\":\"lfence-always-seria"
	    "lizing\",\"type\":\"bool\"},{\"name\":\"sgx\",\"type\":\"bool\"},{\"name\":"
	    "\"vmx-posted-intr\",\"type\":\"bool\"},{\"name\":\"x-l1-cache-per-thr"
	    "ead\",\"type\":\"bool\"},{\"name\":\"kvmclock-stable-bit\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-flexpriority\",\"type\":\"bool\"},{\"name\":\"inte"
	    "l-psfd\",\"type\":\"bool\"},{\"name\":\"wrmsrns\",\"type\":\"bool\"},{\"na"
	    "me\":\"mce\",\"type\":\"bool\"},{\"name\":\"vmx-tsc-scaling\",\"type\":\"b"
	    "ool\"},{\"name\":\"bhi-ctrl\",\"type\":\"bool\"},{\"name\":\"x-force-fea"
	    "tures\",\"type\":\"bool\"},{\"name\":\"vpclmulqdq\",\"type\":\"bool\"},{\""
	    "name\":\"vmx-pause-exit\",\"type\":\"bool\"},{\"name\":\"vmx-entry-loa"
	    "d-pkrs\",\"type\":\"bool\"},{\"name\":\"srso-user-kernel-no\",\"type\":"
	    "\"bool\"},{\"name\":\"est\",\"type\":\"bool\"},{\"name\":\"model\",\"type\":"
	    "\"int\"},{\"name\":\"phe\",\"type\":\"bool\"},{\"name\":\"mcdt-no\",\"type\""
	    ":\"bool\"},{\"name\":\"vmx-invpcid-exit\",\"type\":\"bool\"},{\"name\":\""
	    "nrip-save\",\"type\":\"bool\"},{\"name\":\"avx2\",\"type\":\"bool\"},{\"na"
	    "me\":\"hv-vapic\",\"type\":\"bool\"},{\"name\":\"vmx-io-exit\",\"type\":\""
	    "bool\"},{\"name\":\"avx512-fp16\",\"type\":\"bool\"},{\"name\":\"clflush"
	    "opt\",\"type\":\"bool\"},{\"name\":\"ssse3\",\"type\":\"bool\"},{\"name\":\""
	    "lm\",\"type\":\"bool\"},{\"name\":\"pbrsb-no\",\"type\":\"bool\"},{\"name\""
	    ":\"kvm-poll-control\",\"type\":\"bool\"},{\"name\":\"vmx-exit-save-ef"
	    "er\",\"type\":\"bool\"},{\"name\":\"vmx-invept\",\"type\":\"bool\"},{\"nam"
	    "e\":\"amd-psfd\",\"type\":\"bool\"},{\"name\":\"fsgsbase\",\"type\":\"bool"
	    "\"},{\"name\":\"mca\",\"type\":\"bool\"},{\"name\":\"dtes64\",\"type\":\"boo"
	    "l\"},{\"name\":\"kvm-pv-ipi\",\"type\":\"bool\"},{\"name\":\"vmx-apicv-x"
	    "2apic\",\"type\":\"bool\"},{\"name\":\"avx512-bf16\",\"type\":\"bool\"},{"
	    "\"name\":\"phe-en\",\"type\":\"bool\"},{\"name\":\"kvm-pv-sched-yield\","
	    "\"type\":\"bool\"},{\"name\":\"hv-no-nonarch-coresharing\",\"type\":\"O"
	    "nOffAuto\"},{\"name\":\"abm\",\"type\":\"bool\"},{\"name\":\"vmx-mbec\",\""
	    "type\":\"bool\"},{\"name\":\"hv-relaxed\",\"type\":\"bool\"},{\"name\":\"r"
	    "dseed\",\"type\":\"bool\"},{\"name\":\"avx10-version\",\"type\":\"uint8\""
	    "},{\"name\":\"min-xlevel2\",\"type\":\"uint32\"},{\"name\":\"avx10\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"pmu\",\"type\":\"bool\"},{\"name\":\"vmx-true-c"
	    "tls\",\"type\":\"bool\"},{\"name\":\"vgif\",\"type\":\"bool\"},{\"name\":\"v"
	    "mx-mwait-exit\",\"type\":\"bool\"},{\"name\":\"vmx-exit-clear-bndcfg"
	    "s\",\"type\":\"bool\"},{\"name\":\"pcid\",\"type\":\"bool\"},{\"name\":\"vmx"
	    "-wbinvd-exit\",\"type\":\"bool\"},{\"name\":\"core-id\",\"type\":\"int32"
	    "\"},{\"name\":\"hv-version-id-major\",\"type\":\"uint16\"},{\"name\":\"p"
	    "erfmon-v2\",\"type\":\"bool\"},{\"name\":\"stepping\",\"type\":\"int\"},{"
	    "\"name\":\"movdir64b\",\"type\":\"bool\"},{\"name\":\"x-vendor-cpuid-on"
	    "ly-v2\",\"type\":\"bool\"},{\"name\":\"vmx-vmfunc\",\"type\":\"bool\"},{\""
	    "name\":\"enforce\",\"type\":\"bool\"},{\"name\":\"pse\",\"type\":\"bool\"},"
	    "{\"name\":\"ipred-ctrl\",\"type\":\"bool\"},{\"name\":\"hv-tlbflush\",\"t"
	    "ype\":\"bool\"},{\"name\":\"movrs\",\"type\":\"bool\"},{\"name\":\"vmx-tsc"
	    "-offset\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-pat\",\"type\":"
	    "\"bool\"},{\"name\":\"lbrv\",\"type\":\"bool\"},{\"name\":\"sgx-aex-notif"
	    "y\",\"type\":\"bool\"},{\"name\":\"ibs\",\"type\":\"bool\"},{\"name\":\"hv-e"
	    "nforce-cpuid\",\"type\":\"bool\"},{\"name\":\"vmx-mtf\",\"type\":\"bool\""
	    "},{\"name\":\"tbm\",\"type\":\"bool\"},{\"name\":\"sgx-edeccssa\",\"type\""
	    ":\"bool\"},{\"name\":\"prefetchi\",\"type\":\"bool\"},{\"name\":\"avx512-"
	    "vpopcntdq\",\"type\":\"bool\"},{\"name\":\"amx-movrs\",\"type\":\"bool\"}"
	    ",{\"name\":\"x-vendor-cpuid-only\",\"type\":\"bool\"},{\"name\":\"movdi"
	    "ri\",\"type\":\"bool\"},{\"name\":\"vmx-cr8-load-exit\",\"type\":\"bool\""
	    "},{\"name\":\"wdt\",\"type\":\"bool\"},{\"name\":\"pbe\",\"type\":\"bool\"},"
	    "{\"name\":\"kvm-asyncpf-vmexit\",\"type\":\"bool\"},{\"name\":\"pmm\",\"t"
	    "ype\":\"bool\"},{\"name\":\"clzero\",\"type\":\"bool\"},{\"name\":\"msr\",\""
	    "type\":\"bool\"},{\"name\":\"sha512\",\"type\":\"bool\"},{\"name\":\"mpx\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-exit-nosave-debugctl\",\"type\":\"bo"
	    "ol\"},{\"name\":\"bus-lock-detect\",\"type\":\"bool\"},{\"name\":\"tm\",\""
	    "type\":\"bool\"},{\"name\":\"clflush\",\"type\":\"bool\"},{\"name\":\"sgx-"
	    "exinfo\",\"type\":\"bool\"},{\"name\":\"acpi\",\"type\":\"bool\"},{\"name\""
	    ":\"hv-vendor-id\",\"type\":\"str\"},{\"name\":\"invtsc\",\"type\":\"bool\""
	    "},{\"name\":\"vmx-ins-outs\",\"type\":\"bool\"},{\"name\":\"avx-ne-conv"
	    "ert\",\"type\":\"bool\"},{\"name\":\"nx\",\"type\":\"bool\"},{\"name\":\"hv-"
	    "version-id-snumber\",\"type\":\"uint32\"},{\"name\":\"vmx-secondary-"
	    "ctls\",\"type\":\"bool\"},{\"name\":\"tsc\",\"type\":\"bool\"},{\"name\":\"c"
	    "id\",\"type\":\"bool\"},{\"name\":\"vendor\",\"type\":\"string\"},{\"name\""
	    ":\"rtm\",\"type\":\"bool\"},{\"name\":\"sse4a\",\"type\":\"bool\"},{\"name\""
	    ":\"lahf-lm\",\"type\":\"bool\"},{\"name\":\"avx512ifma\",\"type\":\"bool\""
	    "},{\"name\":\"kvm-asyncpf-int\",\"type\":\"bool\"},{\"name\":\"rdtscp\","
	    "\"type\":\"bool\"},{\"name\":\"avx10-512\",\"type\":\"bool\"},{\"name\":\"a"
	    "pic\",\"type\":\"bool\"},{\"name\":\"avx-vnni-int16\",\"type\":\"bool\"},"
	    "{\"name\":\"vmx-entry-load-cet\",\"type\":\"bool\"},{\"name\":\"vmx-unr"
	    "estricted-guest\",\"type\":\"bool\"},{\"name\":\"ds-cpl\",\"type\":\"boo"
	    "l\"},{\"name\":\"adx\",\"type\":\"bool\"},{\"name\":\"rdctl-no\",\"type\":\""
	    "bool\"},{\"name\":\"socket-id\",\"type\":\"int32\"},{\"name\":\"la57\",\"t"
	    "ype\":\"bool\"},{\"name\":\"thread-id\",\"type\":\"int32\"},{\"name\":\"ve"
	    "rw-clear\",\"type\":\"bool\"},{\"name\":\"vmx-exit-secondary-ctls\",\""
	    "type\":\"bool\"},{\"name\":\"eraps\",\"type\":\"bool\"},{\"name\":\"amx-fp"
	    "16-alias\",\"type\":\"bool\"},{\"name\":\"mmx\",\"type\":\"bool\"},{\"name"
	    "\":\"vmx-entry-load-efer\",\"type\":\"bool\"},{\"name\":\"vmx-entry-lo"
	    "ad-perf-global-ctrl\",\"type\":\"bool\"},{\"name\":\"vmx-entry-noloa"
	    "d-debugctl\",\"type\":\"bool\"},{\"name\":\"vmx-ept-execonly\",\"type\""
	    ":\"bool\"},{\"name\":\"hv-stimer-direct\",\"type\":\"bool\"},{\"name\":\""
	    "ace2-en\",\"type\":\"bool\"},{\"name\":\"perfctr-core\",\"type\":\"bool\""
	    "},{\"name\":\"x-hv-max-vps\",\"type\":\"int32\"},{\"name\":\"sse4.2\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-ept\",\"type\":\"bool\"},{\"name\":\"sse4."
	    "1\",\"type\":\"bool\"},{\"name\":\"fred\",\"type\":\"bool\"},{\"name\":\"vmx"
	    "-vmwrite-vmexit-fields\",\"type\":\"bool\"},{\"name\":\"kvm-hint-ded"
	    "icated\",\"type\":\"bool\"},{\"name\":\"vmx-exit-ack-intr\",\"type\":\"b"
	    "ool\"},{\"name\":\"null-sel-clr-base\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-exit-save-pat\",\"type\":\"bool\"},{\"name\":\"3dnowext\",\"type\":\"b"
	    "ool\"},{\"name\":\"apic-id\",\"type\":\"uint32\"},{\"name\":\"min-level\""
	    ",\"type\":\"uint32\"},{\"name\":\"hv-time\",\"type\":\"bool\"},{\"name\":\""
	    "skip-l1dfl-vmentry\",\"type\":\"bool\"},{\"name\":\"fs-gs-base-ns\",\""
	    "type\":\"bool\"},{\"name\":\"pcommit\",\"type\":\"bool\"},{\"name\":\"hv-p"
	    "assthrough\",\"type\":\"bool\"},{\"name\":\"kvm-asyncpf\",\"type\":\"boo"
	    "l\"},{\"name\":\"x-consistent-cache\",\"type\":\"bool\"},{\"name\":\"vmx"
	    "-apicv-xapic\",\"type\":\"bool\"},{\"name\":\"ssbd\",\"type\":\"bool\"},{"
	    "\"name\":\"amx-avx512\",\"type\":\"bool\"},{\"name\":\"vmx-invept-all-c"
	    "ontext\",\"type\":\"bool\"},{\"name\":\"vmx-exit-load-pkrs\",\"type\":\""
	    "bool\"},{\"name\":\"kvm-pv-eoi\",\"type\":\"bool\"},{\"name\":\"fpu\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"fbsdp-no\",\"type\":\"bool\"},{\"name\":\"amd-n"
	    "o-ssb\",\"type\":\"bool\"},{\"name\":\"waitpkg\",\"type\":\"bool\"},{\"nam"
	    "e\":\"psdp-no\",\"type\":\"bool\"},{\"name\":\"vmx-any-errcode\",\"type\""
	    ":\"bool\"},{\"name\":\"vmx-invvpid\",\"type\":\"bool\"},{\"name\":\"cx8\","
	    "\"type\":\"bool\"},{\"name\":\"tsa-sq-no\",\"type\":\"bool\"},{\"name\":\"p"
	    "at\",\"type\":\"bool\"},{\"name\":\"vmx-eptad\",\"type\":\"bool\"},{\"name"
	    "\":\"tsa-l1-no\",\"type\":\"bool\"},{\"name\":\"cmpccxadd\",\"type\":\"boo"
	    "l\"},{\"name\":\"lam\",\"type\":\"bool\"},{\"name\":\"avx512vbmi2\",\"type"
	    "\":\"bool\"},{\"name\":\"vmware-cpuid-freq\",\"type\":\"bool\"},{\"name\""
	    ":\"cpuid-0xb\",\"type\":\"bool\"},{\"name\":\"vmx-nested-exception\",\""
	    "type\":\"bool\"},{\"name\":\"vmx-entry-load-bndcfgs\",\"type\":\"bool\""
	    "},{\"name\":\"vmx-pml\",\"type\":\"bool\"},{\"name\":\"tsc-deadline\",\"t"
	    "ype\":\"bool\"},{\"name\":\"l3-cache\",\"type\":\"bool\"},{\"name\":\"spec"
	    "-ctrl\",\"type\":\"bool\"},{\"name\":\"ht\",\"type\":\"bool\"},{\"name\":\"h"
	    "ypervisor\",\"type\":\"bool\"},{\"name\":\"vmx-nmi-exit\",\"type\":\"boo"
	    "l\"},{\"name\":\"hv-evmcs\",\"type\":\"bool\"},{\"name\":\"pge\",\"type\":\""
	    "bool\"},{\"name\":\"3dnow\",\"type\":\"bool\"},{\"name\":\"x-arch-cap-al"
	    "ways-on\",\"type\":\"bool\"},{\"name\":\"vmx-monitor-exit\",\"type\":\"b"
	    "ool\"},{\"name\":\"pdcm\",\"type\":\"bool\"},{\"name\":\"vmx-page-walk-5"
	    "\",\"type\":\"bool\"},{\"name\":\"vmx-xsaves\",\"type\":\"bool\"},{\"name\""
	    ":\"xcrypt\",\"type\":\"bool\"},{\"name\":\"avx512cd\",\"type\":\"bool\"},{"
	    "\"name\":\"vmx-exit-save-cet\",\"type\":\"bool\"},{\"name\":\"avx512-vp"
	    "2intersect\",\"type\":\"bool\"},{\"name\":\"cx16\",\"type\":\"bool\"},{\"n"
	    "ame\":\"perfctr-nb\",\"type\":\"bool\"},{\"name\":\"vmx-page-walk-4\",\""
	    "type\":\"bool\"},{\"name\":\"level\",\"type\":\"uint32\"},{\"name\":\"vmx-"
	    "apicv-register\",\"type\":\"bool\"},{\"name\":\"syscall\",\"type\":\"boo"
	    "l\"},{\"name\":\"cr8legacy\",\"type\":\"bool\"},{\"name\":\"check\",\"type"
	    "\":\"bool\"},{\"name\":\"arat\",\"type\":\"bool\"},{\"name\":\"xgetbv1\",\"t"
	    "ype\":\"bool\"},{\"name\":\"auto-ibrs\",\"type\":\"bool\"},{\"name\":\"taa"
	    "-no\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-fred\",\"type\":\"bo"
	    "ol\"},{\"name\":\"xsaves\",\"type\":\"bool\"},{\"name\":\"flush-l1d\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"split-lock-detect\",\"type\":\"bool\"},{\"nam"
	    "e\":\"gds-no\",\"type\":\"bool\"},{\"name\":\"vmx-invept-single-contex"
	    "t-noglobals\",\"type\":\"bool\"},{\"name\":\"ia64\",\"type\":\"bool\"},{\""
	    "name\":\"vmx-movdr-exit\",\"type\":\"bool\"},{\"name\":\"vmx-cr3-store"
	    "-noexit\",\"type\":\"bool\"},{\"name\":\"rfds-clear\",\"type\":\"bool\"},"
	    "{\"name\":\"intel-pt\",\"type\":\"bool\"},{\"name\":\"avx-ifma\",\"type\":"
	    "\"bool\"},{\"name\":\"erms\",\"type\":\"bool\"},{\"name\":\"unavailable-f"
	    "eatures\",\"type\":\"strList\"},{\"name\":\"x-pdcm-on-even-without-p"
	    "mu\",\"type\":\"bool\"},{\"name\":\"3dnowprefetch\",\"type\":\"bool\"},{\""
	    "name\":\"srso-no\",\"type\":\"bool\"},{\"name\":\"cet-ibt\",\"type\":\"boo"
	    "l\"},{\"name\":\"hle\",\"type\":\"bool\"},{\"name\":\"vmx-cr3-load-noexi"
	    "t\",\"type\":\"bool\"},{\"name\":\"legacy-multi-node\",\"type\":\"bool\"}"
	    ",{\"name\":\"sgxlc\",\"type\":\"bool\"},{\"name\":\"ss\",\"type\":\"bool\"},"
	    "{\"name\":\"hv-emsr-bitmap\",\"type\":\"bool\"},{\"name\":\"hv-version-"
	    "id-spack\",\"type\":\"uint32\"},{\"name\":\"tsc-frequency\",\"type\":\"i"
	    "nt\"},{\"name\":\"pse36\",\"type\":\"bool\"},{\"name\":\"npt\",\"type\":\"bo"
	    "ol\"},{\"name\":\"its-no\",\"type\":\"bool\"},{\"name\":\"pschange-mc-no"
	    "\",\"type\":\"bool\"},{\"name\":\"serialize\",\"type\":\"bool\"},{\"name\":"
	    "\"lkgs\",\"type\":\"bool\"},{\"name\":\"hv-reenlightenment\",\"type\":\"b"
	    "ool\"},{\"name\":\"vmx-rdtsc-exit\",\"type\":\"bool\"},{\"name\":\"vmx-a"
	    "ctivity-shutdown\",\"type\":\"bool\"},{\"name\":\"xstore-en\",\"type\":"
	    "\"bool\"},{\"name\":\"vnmi\",\"type\":\"bool\"},{\"name\":\"amx-complex-a"
	    "lias\",\"type\":\"bool\"},{\"name\":\"lwp\",\"type\":\"bool\"},{\"name\":\"h"
	    "v-runtime\",\"type\":\"bool\"},{\"name\":\"fill-mtrr-mask\",\"type\":\"b"
	    "ool\"},{\"name\":\"vmx-invvpid-single-addr\",\"type\":\"bool\"},{\"nam"
	    "e\":\"xsaveerptr\",\"type\":\"bool\"},{\"name\":\"hv-version-id-build\""
	    ",\"type\":\"uint32\"},{\"name\":\"pae\",\"type\":\"bool\"},{\"name\":\"ssb-"
	    "no\",\"type\":\"bool\"},{\"name\":\"amx-complex\",\"type\":\"bool\"},{\"na"
	    "me\":\"xlevel\",\"type\":\"uint32\"},{\"name\":\"smep\",\"type\":\"bool\"},"
	    "{\"name\":\"sgx-kss\",\"type\":\"bool\"},{\"name\":\"avx512er\",\"type\":\""
	    "bool\"},{\"name\":\"rsba\",\"type\":\"bool\"},{\"name\":\"misalignsse\",\""
	    "type\":\"bool\"},{\"name\":\"xsave\",\"type\":\"bool\"},{\"name\":\"vmx-ex"
	    "it-load-pat\",\"type\":\"bool\"},{\"name\":\"legacy-cache\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-version-id-sbranch\",\"type\":\"uint8\"},{\"name"
	    "\":\"sgx-tokenkey\",\"type\":\"bool\"},{\"name\":\"hv-syndbg\",\"type\":\""
	    "bool\"},{\"name\":\"avx512bw\",\"type\":\"bool\"},{\"name\":\"pmm-en\",\"t"
	    "ype\":\"bool\"},{\"name\":\"xop\",\"type\":\"bool\"},{\"name\":\"avx512vl\""
	    ",\"type\":\"bool\"},{\"name\":\"hv-frequencies\",\"type\":\"bool\"},{\"na"
	    "me\":\"ibpb-brtype\",\"type\":\"bool\"},{\"name\":\"popcnt\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-vintr-pending\",\"type\":\"bool\"},{\"name\":\"vmx"
	    "-exit-load-efer\",\"type\":\"bool\"},{\"name\":\"hv-ipi\",\"type\":\"boo"
	    "l\"},{\"name\":\"cet-ss\",\"type\":\"bool\"},{\"name\":\"vmx-store-lma\","
	    "\"type\":\"bool\"},{\"name\":\"hv-avic\",\"type\":\"bool\"},{\"name\":\"sm4"
	    "\",\"type\":\"bool\"},{\"name\":\"amx-int8-alias\",\"type\":\"bool\"},{\"n"
	    "ame\":\"xlevel2\",\"type\":\"uint32\"},{\"name\":\"family\",\"type\":\"int"
	    "\"},{\"name\":\"vmx-io-bitmap\",\"type\":\"bool\"},{\"name\":\"kvm-pv-un"
	    "halt\",\"type\":\"bool\"},{\"name\":\"nodeid-msr\",\"type\":\"bool\"},{\"n"
	    "ame\":\"stibp\",\"type\":\"bool\"},{\"name\":\"xtpr\",\"type\":\"bool\"},{\""
	    "name\":\"vmx-encls-exit\",\"type\":\"bool\"},{\"name\":\"sm3\",\"type\":\""
	    "bool\"},{\"name\":\"vmx-exit-load-perf-global-ctrl\",\"type\":\"bool"
	    "\"},{\"name\":\"ibpb\",\"type\":\"bool\"},{\"name\":\"lmce\",\"type\":\"bool"
	    "\"},{\"name\":\"pn\",\"type\":\"bool\"},{\"name\":\"avx10-vnni-int\",\"typ"
	    "e\":\"bool\"},{\"name\":\"gmet\",\"type\":\"bool\"},{\"name\":\"xsavec\",\"t"
	    "ype\":\"bool\"},{\"name\":\"hv-tlbflush-ext\",\"type\":\"bool\"},{\"name"
	    "\":\"kvm-mmu\",\"type\":\"bool\"},{\"name\":\"arch-capabilities\",\"type"
	    "\":\"bool\"},{\"name\":\"vmx-ept-advanced-exitinfo\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-apicv-vid\",\"type\":\"bool\"},{\"name\":\"vmx-desc-ex"
	    "it\",\"type\":\"bool\"},{\"name\":\"avx512-4vnniw\",\"type\":\"bool\"},{\""
	    "name\":\"kvm-steal-time\",\"type\":\"bool\"},{\"name\":\"ibrs-all\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"mds-no\",\"type\":\"bool\"},{\"name\":\"vmx-ena"
	    "ble-user-wait-pause\",\"type\":\"bool\"},{\"name\":\"node-id\",\"type\""
	    ":\"int32\"},{\"name\":\"tcg-cpuid\",\"type\":\"bool\"},{\"name\":\"fma\",\""
	    "type\":\"bool\"},{\"name\":\"x-force-cpuid-0x1f\",\"type\":\"bool\"},{\""
	    "name\":\"vmx-rdpmc-exit\",\"type\":\"bool\"},{\"name\":\"avx512vnni\",\""
	    "type\":\"bool\"},{\"name\":\"kvm\",\"type\":\"bool\"},{\"name\":\"f16c\",\"t"
	    "ype\":\"bool\"},{\"name\":\"hv-reset\",\"type\":\"bool\"},{\"name\":\"dca\""
	    ",\"type\":\"bool\"},{\"name\":\"vmx-invlpg-exit\",\"type\":\"bool\"},{\"n"
	    "ame\":\"intel-pt-lip\",\"type\":\"bool\"},{\"name\":\"x-amd-topoext-fe"
	    "atures-only\",\"type\":\"bool\"},{\"name\":\"kvm-nopiodelay\",\"type\":"
	    "\"bool\"},{\"name\":\"vmx-rdrand-exit\",\"type\":\"bool\"},{\"name\":\"in"
	    "vpcid\",\"type\":\"bool\"},{\"name\":\"gfni\",\"type\":\"bool\"},{\"name\":"
	    "\"vmx\",\"type\":\"bool\"},{\"name\":\"vmx-invvpid-all-context\",\"type"
	    "\":\"bool\"},{\"name\":\"x-migrate-smi-count\",\"type\":\"bool\"},{\"nam"
	    "e\":\"sbdr-ssdp-no\",\"type\":\"bool\"},{\"name\":\"rrsba-ctrl\",\"type\""
	    ":\"bool\"},{\"name\":\"cldemote\",\"type\":\"bool\"},{\"name\":\"die-id\","
	    "\"type\":\"int32\"},{\"name\":\"tsc-adjust\",\"type\":\"bool\"},{\"name\":"
	    "\"vmx-eptp-switching\",\"type\":\"bool\"},{\"name\":\"vmx-entry-ia32e"
	    "-mode\",\"type\":\"bool\"},{\"name\":\"ddpd-u\",\"type\":\"bool\"},{\"name"
	    "\":\"guest-phys-bits\",\"type\":\"uint32\"},{\"name\":\"vmcb-clean\",\"t"
	    "ype\":\"bool\"},{\"name\":\"ibrs\",\"type\":\"bool\"},{\"name\":\"ace2\",\"t"
	    "ype\":\"bool\"},{\"name\":\"vmx-cr8-store-exit\",\"type\":\"bool\"},{\"n"
	    "ame\":\"vmx-vnmi-pending\",\"type\":\"bool\"},{\"name\":\"sgx-provisio"
	    "nkey\",\"type\":\"bool\"},{\"name\":\"tsx-ctrl\",\"type\":\"bool\"},{\"nam"
	    "e\":\"xcrypt-en\",\"type\":\"bool\"},{\"name\":\"fzrm\",\"type\":\"bool\"},"
	    "{\"name\":\"level-func7\",\"type\":\"uint32\"},{\"name\":\"extapic\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"hv-synic\",\"type\":\"bool\"},{\"name\":\"vmx-i"
	    "ntr-exit\",\"type\":\"bool\"},{\"name\":\"virt-ssbd\",\"type\":\"bool\"},"
	    "{\"name\":\"osvw\",\"type\":\"bool\"},{\"name\":\"cmp-legacy\",\"type\":\"b"
	    "ool\"},{\"name\":\"arch-lbr\",\"type\":\"bool\"},{\"name\":\"monitor\",\"t"
	    "ype\":\"bool\"},{\"name\":\"cmov\",\"type\":\"bool\"},{\"name\":\"avx10-12"
	    "8\",\"type\":\"bool\"},{\"name\":\"vmx-invept-single-context\",\"type\""
	    ":\"bool\"},{\"name\":\"x2apic\",\"type\":\"bool\"},{\"name\":\"mmxext\",\"t"
	    "ype\":\"bool\"},{\"name\":\"rdpid\",\"type\":\"bool\"},{\"name\":\"xstore\""
	    ",\"type\":\"bool\"},{\"name\":\"pclmulqdq\",\"type\":\"bool\"},{\"name\":\""
	    "zero-fcs-fds\",\"type\":\"bool\"},{\"name\":\"hv-stimer\",\"type\":\"boo"
	    "l\"},{\"name\":\"ucode-rev\",\"type\":\"uint64\"},{\"name\":\"amx-fp8\",\""
	    "type\":\"bool\"},{\"name\":\"module-id\",\"type\":\"int32\"},{\"name\":\"s"
	    "uccor\",\"type\":\"bool\"},{\"name\":\"amx-fp16\",\"type\":\"bool\"},{\"na"
	    "me\":\"hv-version-id-minor\",\"type\":\"uint16\"},{\"name\":\"umip\",\"t"
	    "ype\":\"bool\"},{\"name\":\"flushbyasid\",\"type\":\"bool\"},{\"name\":\"s"
	    "ha-ni\",\"type\":\"bool\"},{\"name\":\"avx512pf\",\"type\":\"bool\"},{\"na"
	    "me\":\"v-vmsave-vmload\",\"type\":\"bool\"},{\"name\":\"vaes\",\"type\":\""
	    "bool\"},{\"name\":\"kvm-msi-ext-dest-id\",\"type\":\"bool\"},{\"name\":"
	    "\"fxsr\",\"type\":\"bool\"},{\"name\":\"svm\",\"type\":\"bool\"},{\"name\":\""
	    "avx512vbmi\",\"type\":\"bool\"},{\"name\":\"fsrs\",\"type\":\"bool\"},{\"n"
	    "ame\":\"bmi2\",\"type\":\"bool\"},{\"name\":\"fdp-excptn-only\",\"type\":"
	    "\"bool\"},{\"name\":\"xsaveopt\",\"type\":\"bool\"},{\"name\":\"vmx-vnmi\""
	    ",\"type\":\"bool\"},{\"name\":\"sep\",\"type\":\"bool\"},{\"name\":\"vmx-vp"
	    "id\",\"type\":\"bool\"},{\"name\":\"pdpe1gb\",\"type\":\"bool\"},{\"name\":"
	    "\"svm-lock\",\"type\":\"bool\"},{\"name\":\"bmi1\",\"type\":\"bool\"},{\"na"
	    "me\":\"pku\",\"type\":\"bool\"},{\"name\":\"vmx-exit-save-preemption-t"
	    "imer\",\"type\":\"bool\"},{\"name\":\"md-clear\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-rdseed-exit\",\"type\":\"bool\"},{\"name\":\"apx-nci-ndd-nf\""
	    ",\"type\":\"bool\"},{\"name\":\"no-nested-data-bp\",\"type\":\"bool\"},{"
	    "\"name\":\"vmx-ple\",\"type\":\"bool\"},{\"name\":\"sse2\",\"type\":\"bool\""
	    "},{\"name\":\"stibp-always-on\",\"type\":\"bool\"},{\"name\":\"lahf_lm\""
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
	    "pe\":\"bool\"},{\"name\":\"i8042\",\"type\":\"link<i8042>\"}]}" },
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
	    "pe\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr\"},{\"name\":\"failove"
	    "r_pair_id\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"srio"
	    "v-pf\",\"type\":\"str\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\""
	    "name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\"romfile\",\"type"
	    "\":\"str\"},{\"name\":\"pam-pci[13]\",\"type\":\"child<memory-region>\""
	    "},{\"name\":\"pam-pci[12]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"pam-ram[11]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-ram[4]\",\"type\":\"child<memory-region>\"},{\"name\":\"smram-regio"
	    "n[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[12]\",\""
	    "type\":\"child<memory-region>\"},{\"name\":\"pam-ram[5]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"pam-pci[14]\",\"type\":\"child<me"
	    "mory-region>\"},{\"name\":\"pam-ram[6]\",\"type\":\"child<memory-reg"
	    "ion>\"},{\"name\":\"pam-pci[15]\",\"type\":\"child<memory-region>\"},"
	    "{\"name\":\"pam-ram[7]\",\"type\":\"child<memory-region>\"},{\"name\":"
	    "\"pam-pci[16]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pc"
	    "i[23]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[8]\",\""
	    "type\":\"child<memory-region>\"},{\"name\":\"pam-pci[17]\",\"type\":\""
	    "child<memory-region>\"},{\"name\":\"pam-ram[9]\",\"type\":\"child<me"
	    "mory-region>\"},{\"name\":\"pam-pci[18]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"pam-pci[25]\",\"type\":\"child<memory-region>\"}"
	    ",{\"name\":\"pam-pci[19]\",\"type\":\"child<memory-region>\"},{\"name"
	    "\":\"pam-rom[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-p"
	    "ci[20]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[24]\""
	    ",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[1]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"pam-pci[0]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"pam-rom[5]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"pam-rom[2]\",\"type\":\"child<memory-region>\"},"
	    "{\"name\":\"bus master container[0]\",\"type\":\"child<memory-regio"
	    "n>\"},{\"name\":\"pam-pci[1]\",\"type\":\"child<memory-region>\"},{\"n"
	    "ame\":\"pam-rom[3]\",\"type\":\"child<memory-region>\"},{\"name\":\"pa"
	    "m-rom[10]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[2"
	    "]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[4]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"pam-pci[21]\",\"type\":\"chil"
	    "d<memory-region>\"},{\"name\":\"pam-pci[3]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"smram-low[0]\",\"type\":\"child<memory-regio"
	    "n>\"},{\"name\":\"pam-pci[22]\",\"type\":\"child<memory-region>\"},{\""
	    "name\":\"pam-pci[4]\",\"type\":\"child<memory-region>\"},{\"name\":\"p"
	    "am-rom[6]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[5"
	    "]\",\"type\":\"child<memory-region>\"},{\"name\":\"smram[0]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"pam-rom[7]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"pam-rom[11]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"pam-pci[6]\",\"type\":\"child<memory-region>\"}"
	    ",{\"name\":\"pam-rom[8]\",\"type\":\"child<memory-region>\"},{\"name\""
	    ":\"pam-rom[12]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-p"
	    "ci[7]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[9]\",\""
	    "type\":\"child<memory-region>\"},{\"name\":\"bus master[0]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-pci[8]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"pam-ram[0]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"pam-pci[9]\",\"type\":\"child<memory-region>\"}"
	    ",{\"name\":\"pam-ram[1]\",\"type\":\"child<memory-region>\"},{\"name\""
	    ":\"pam-pci[10]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-r"
	    "am[2]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[11]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[10]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"pam-ram[3]\",\"type\":\"child<m"
	    "emory-region>\"}]}" },
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
	    "pe\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr\"},{\"name\":\"failove"
	    "r_pair_id\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"srio"
	    "v-pf\",\"type\":\"str\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\""
	    "name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\"romfile\",\"type"
	    "\":\"str\"},{\"name\":\"ide.0\",\"type\":\"child<IDE>\"},{\"name\":\"bmdma"
	    "[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"isa-irq[1]\",\"ty"
	    "pe\":\"link<irq>\"},{\"name\":\"bus master container[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"piix-bmdma-container[0]\",\"typ"
	    "e\":\"child<memory-region>\"},{\"name\":\"bmdma[1]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"ide.1\",\"type\":\"child<IDE>\"},{\"name"
	    "\":\"bus master[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"pi"
	    "ix-bmdma[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"piix-bm"
	    "dma[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"isa-irq[0]\","
	    "\"type\":\"link<irq>\"}]}" },
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
	    "pe\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr\"},{\"name\":\"failove"
	    "r_pair_id\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"srio"
	    "v-pf\",\"type\":\"str\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\""
	    "name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\"romfile\",\"type"
	    "\":\"str\"},{\"name\":\"smm-enabled\",\"type\":\"bool\"},{\"name\":\"s4_va"
	    "l\",\"type\":\"uint8\"},{\"name\":\"smb_io_base\",\"type\":\"uint32\"},{\""
	    "name\":\"acpi-root-pci-hotplug\",\"type\":\"bool\"},{\"name\":\"disabl"
	    "e_s3\",\"type\":\"uint8\"},{\"name\":\"disable_s4\",\"type\":\"uint8\"},{"
	    "\"name\":\"acpi-pci-hotplug-with-bridge-support\",\"type\":\"bool\"}"
	    ",{\"name\":\"memory-hotplug-support\",\"type\":\"bool\"},{\"name\":\"bu"
	    "s\",\"type\":\"link<PCI>\"},{\"name\":\"smm-compat\",\"type\":\"bool\"},{"
	    "\"name\":\"x-not-migrate-acpi-index\",\"type\":\"bool\"},{\"name\":\"pm"
	    "-smbus[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"acpi-tmr["
	    "0]\",\"type\":\"child<memory-region>\"},{\"name\":\"acpi_enable_cmd\""
	    ",\"type\":\"uint8\"},{\"name\":\"acpi-pcihp-io-len\",\"type\":\"uint16\""
	    "},{\"name\":\"acpi-cpu-hotplug[0]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"i2c\",\"type\":\"child<i2c-bus>\"},{\"name\":\"sci_int\","
	    "\"type\":\"uint16\"},{\"name\":\"acpi-pcihp-io-base\",\"type\":\"uint16"
	    "\"},{\"name\":\"acpi-pci-hotplug[0]\",\"type\":\"child<memory-region"
	    ">\"},{\"name\":\"bus master container[0]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"acpi-cnt[0]\",\"type\":\"child<memory-region>\""
	    "},{\"name\":\"acpi-evt[0]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"piix4-pm[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"gpe"
	    "0_blk_len\",\"type\":\"uint32\"},{\"name\":\"acpi-gpe0[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"gpe0_blk\",\"type\":\"uint32\"},{\""
	    "name\":\"smi-irq[0]\",\"type\":\"link<irq>\"},{\"name\":\"unnamed-gpio"
	    "-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"apm-io[0]\",\"type\":\"chi"
	    "ld<memory-region>\"},{\"name\":\"acpi_disable_cmd\",\"type\":\"uint8"
	    "\"},{\"name\":\"bus master[0]\",\"type\":\"child<memory-region>\"},{\""
	    "name\":\"pm_io_base\",\"type\":\"uint32\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/rtc||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"lost_tick_policy\",\"type\":\"LostTickPolic"
	    "y\"},{\"name\":\"irq\",\"type\":\"uint8\"},{\"name\":\"iobase\",\"type\":\"u"
	    "int16\"},{\"name\":\"base_year\",\"type\":\"int32\"},{\"name\":\"date\",\""
	    "type\":\"struct tm\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"lin"
	    "k<irq>\"},{\"name\":\"rtc-index[0]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"rtc[0]\",\"type\":\"child<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"busnr\",\"type\":\"busnr\"},{\"name\":\"failove"
	    "r_pair_id\",\"type\":\"str\"},{\"name\":\"x-pcie-ext-tag\",\"type\":\"bo"
	    "ol\"},{\"name\":\"addr\",\"type\":\"str\"},{\"name\":\"romsize\",\"type\":\""
	    "uint32\"},{\"name\":\"x-pcie-lnksta-dllla\",\"type\":\"bool\"},{\"name"
	    "\":\"rombar\",\"type\":\"int32\"},{\"name\":\"x-max-bounce-buffer-size"
	    "\",\"type\":\"size\"},{\"name\":\"x-pcie-ari-nextfn-1\",\"type\":\"bool\""
	    "},{\"name\":\"x-pcie-err-unc-mask\",\"type\":\"bool\"},{\"name\":\"srio"
	    "v-pf\",\"type\":\"str\"},{\"name\":\"acpi-index\",\"type\":\"uint32\"},{\""
	    "name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\"romfile\",\"type"
	    "\":\"str\"},{\"name\":\"smb_io_base\",\"type\":\"uint32\"},{\"name\":\"has"
	    "-usb\",\"type\":\"bool\"},{\"name\":\"has-acpi\",\"type\":\"bool\"},{\"nam"
	    "e\":\"has-pic\",\"type\":\"bool\"},{\"name\":\"smm-enabled\",\"type\":\"bo"
	    "ol\"},{\"name\":\"has-pit\",\"type\":\"bool\"},{\"name\":\"bus master[0]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"ide\",\"type\":\"child"
	    "<piix3-ide>\"},{\"name\":\"dma[0]\",\"type\":\"child<i8257>\"},{\"name"
	    "\":\"isa-irqs[2]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[9]\",\"t"
	    "ype\":\"link<irq>\"},{\"name\":\"pm\",\"type\":\"child<PIIX4_PM>\"},{\"n"
	    "ame\":\"isa.0\",\"type\":\"child<ISA>\"},{\"name\":\"isa-irqs[13]\",\"ty"
	    "pe\":\"link<irq>\"},{\"name\":\"isa-irqs[6]\",\"type\":\"link<irq>\"},{"
	    "\"name\":\"dma[1]\",\"type\":\"child<i8257>\"},{\"name\":\"isa-irqs[10]"
	    "\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[3]\",\"type\":\"link<irq"
	    ">\"},{\"name\":\"bus master container[0]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"isa-irqs[14]\",\"type\":\"link<irq>\"},{\"name\":"
	    "\"isa-irqs[0]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[7]\",\"typ"
	    "e\":\"link<irq>\"},{\"name\":\"piix-reset-control[0]\",\"type\":\"chil"
	    "d<memory-region>\"},{\"name\":\"rtc\",\"type\":\"child<mc146818rtc>\""
	    "},{\"name\":\"isa-irqs[11]\",\"type\":\"link<irq>\"},{\"name\":\"isa-ir"
	    "qs[4]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[15]\",\"type\":\"li"
	    "nk<irq>\"},{\"name\":\"isa-irqs[1]\",\"type\":\"link<irq>\"},{\"name\":"
	    "\"isa-irqs[8]\",\"type\":\"link<irq>\"},{\"name\":\"isa-irqs[12]\",\"ty"
	    "pe\":\"link<irq>\"},{\"name\":\"isa-irqs[5]\",\"type\":\"link<irq>\"}]}" },
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
	    "ype\":\"uint8\"},{\"name\":\"hpet-intcap\",\"type\":\"uint32\"},{\"name\""
	    ":\"sysbus-irq[31]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[5]"
	    "\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[16]\",\"type\":\"link<"
	    "irq>\"},{\"name\":\"sysbus-irq[17]\",\"type\":\"link<irq>\"},{\"name\":"
	    "\"sysbus-irq[6]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[7]\","
	    "\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[18]\",\"type\":\"link<ir"
	    "q>\"},{\"name\":\"sysbus-irq[8]\",\"type\":\"link<irq>\"},{\"name\":\"sy"
	    "sbus-irq[19]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[9]\",\"t"
	    "ype\":\"link<irq>\"},{\"name\":\"unnamed-gpio-in[0]\",\"type\":\"child"
	    "<irq>\"},{\"name\":\"unnamed-gpio-in[1]\",\"type\":\"child<irq>\"},{\""
	    "name\":\"sysbus-irq[20]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-i"
	    "rq[21]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[22]\",\"type\":"
	    "\"link<irq>\"},{\"name\":\"sysbus-irq[23]\",\"type\":\"link<irq>\"},{\""
	    "name\":\"sysbus-irq[24]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-i"
	    "rq[25]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[30]\",\"type\":"
	    "\"link<irq>\"},{\"name\":\"sysbus-irq[26]\",\"type\":\"link<irq>\"},{\""
	    "name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"sys"
	    "bus-irq[27]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[10]\",\"t"
	    "ype\":\"link<irq>\"},{\"name\":\"sysbus-irq[28]\",\"type\":\"link<irq>"
	    "\"},{\"name\":\"hpet[0]\",\"type\":\"child<memory-region>\"},{\"name\":"
	    "\"sysbus-irq[11]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[0]\""
	    ",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[29]\",\"type\":\"link<i"
	    "rq>\"},{\"name\":\"sysbus-irq[12]\",\"type\":\"link<irq>\"},{\"name\":\""
	    "sysbus-irq[1]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[13]\","
	    "\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[2]\",\"type\":\"link<irq"
	    ">\"},{\"name\":\"sysbus-irq[14]\",\"type\":\"link<irq>\"},{\"name\":\"sy"
	    "sbus-irq[3]\",\"type\":\"link<irq>\"},{\"name\":\"sysbus-irq[4]\",\"ty"
	    "pe\":\"link<irq>\"},{\"name\":\"sysbus-irq[15]\",\"type\":\"link<irq>\""
	    "}]}" },
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
	    "pe\":\"bool\"},{\"name\":\"pit\",\"type\":\"link<pit-common>\"},{\"name\""
	    ":\"audiodev\",\"type\":\"str\"},{\"name\":\"iobase\",\"type\":\"uint32\"},"
	    "{\"name\":\"pcspk[0]\",\"type\":\"child<memory-region>\"}]}" },
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
	    "ype\":\"child<memory-region>\"},{\"name\":\"ide[2]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"device[20]\",\"type\":\"child<smbus-ee"
	    "prom>\"},{\"name\":\"device[4]\",\"type\":\"child<isa-i8259>\"},{\"nam"
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
	    "n>\"},{\"name\":\"device[7]\",\"type\":\"child<isa-pit>\"},{\"name\":\"d"
	    "evice[0]\",\"type\":\"child<qemu64-x86_64-cpu>\"},{\"name\":\"device"
	    "[18]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"device[11]\",\"ty"
	    "pe\":\"child<i8042>\"},{\"name\":\"non-qdev-gpio[26]\",\"type\":\"chil"
	    "d<irq>\"},{\"name\":\"non-qdev-gpio[8]\",\"type\":\"child<irq>\"},{\"n"
	    "ame\":\"non-qdev-gpio[1]\",\"type\":\"child<irq>\"},{\"name\":\"non-qd"
	    "ev-gpio[14]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[9]\""
	    ",\"type\":\"child<irq>\"},{\"name\":\"device[8]\",\"type\":\"child<isa-"
	    "pcspk>\"},{\"name\":\"device[1]\",\"type\":\"child<kvmvapic>\"},{\"nam"
	    "e\":\"device[19]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"devic"
	    "e[12]\",\"type\":\"child<vmport>\"},{\"name\":\"non-qdev-gpio[27]\",\""
	    "type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[20]\",\"type\":\"chil"
	    "d<irq>\"},{\"name\":\"non-qdev-gpio[2]\",\"type\":\"child<irq>\"},{\"n"
	    "ame\":\"non-qdev-gpio[15]\",\"type\":\"child<irq>\"},{\"name\":\"pci[0"
	    "]\",\"type\":\"child<memory-region>\"},{\"name\":\"device[9]\",\"type\""
	    ":\"child<isa-serial>\"},{\"name\":\"ide[0]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"device[2]\",\"type\":\"child<i440FX>\"},{\"name"
	    "\":\"device[13]\",\"type\":\"child<vmmouse>\"},{\"name\":\"non-qdev-gp"
	    "io[21]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[3]\",\"typ"
	    "e\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[16]\",\"type\":\"child<i"
	    "rq>\"},{\"name\":\"io[0]\",\"type\":\"child<memory-region>\"},{\"name\""
	    ":\"ide[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"device[3]\""
	    ",\"type\":\"child<PIIX3>\"},{\"name\":\"device[14]\",\"type\":\"child<p"
	    "ort92>\"},{\"name\":\"non-qdev-gpio[22]\",\"type\":\"child<irq>\"},{\""
	    "name\":\"non-qdev-gpio[4]\",\"type\":\"child<irq>\"},{\"name\":\"non-q"
	    "dev-gpio[17]\",\"type\":\"child<irq>\"}]}" },
	{ "qom-list|/machine||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"kernel\","
	    "\"type\":\"string\"},{\"name\":\"x-change-vmfd-on-reset\",\"type\":\"bo"
	    "ol\"},{\"name\":\"boot\",\"type\":\"BootConfiguration\"},{\"name\":\"mem"
	    "ory\",\"type\":\"MemorySizeConfiguration\"},{\"name\":\"initrd\",\"typ"
	    "e\":\"string\"},{\"name\":\"confidential-guest-support\",\"type\":\"li"
	    "nk<confidential-guest-support>\"},{\"name\":\"aux-ram-share\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"graphics\",\"type\":\"bool\"},{\"name\":\"usb\","
	    "\"type\":\"bool\"},{\"name\":\"firmware\",\"type\":\"string\"},{\"name\":\""
	    "memory-encryption\",\"type\":\"string\"},{\"name\":\"dump-guest-core"
	    "\",\"type\":\"bool\"},{\"name\":\"smp\",\"type\":\"SMPConfiguration\"},{\""
	    "name\":\"shim\",\"type\":\"string\"},{\"name\":\"smp-cache\",\"type\":\"Sm"
	    "pCachePropertiesWrapper\"},{\"name\":\"dumpdtb\",\"type\":\"string\"}"
	    ",{\"name\":\"phandle-start\",\"type\":\"int\"},{\"name\":\"suppress-vmd"
	    "esc\",\"type\":\"bool\"},{\"name\":\"memory-backend\",\"type\":\"link<me"
	    "mory-backend>\"},{\"name\":\"mem-merge\",\"type\":\"bool\"},{\"name\":\""
	    "dtb\",\"type\":\"string\"},{\"name\":\"append\",\"type\":\"string\"},{\"na"
	    "me\":\"dt-compatible\",\"type\":\"string\"},{\"name\":\"smm\",\"type\":\"O"
	    "nOffAuto\"},{\"name\":\"acpi\",\"type\":\"OnOffAuto\"},{\"name\":\"pit\","
	    "\"type\":\"OnOffAuto\"},{\"name\":\"pic\",\"type\":\"OnOffAuto\"},{\"name"
	    "\":\"x-oem-table-id\",\"type\":\"string\"},{\"name\":\"bus-lock-rateli"
	    "mit\",\"type\":\"uint64_t\"},{\"name\":\"sgx-epc\",\"type\":\"SgxEPC\"},{"
	    "\"name\":\"x-oem-id\",\"type\":\"string\"},{\"name\":\"max-fw-size\",\"ty"
	    "pe\":\"size\"},{\"name\":\"default-bus-bypass-iommu\",\"type\":\"bool\""
	    "},{\"name\":\"sata\",\"type\":\"bool\"},{\"name\":\"vmport\",\"type\":\"OnO"
	    "ffAuto\"},{\"name\":\"i8042\",\"type\":\"bool\"},{\"name\":\"hpet\",\"type"
	    "\":\"bool\"},{\"name\":\"smbios-entry-point-type\",\"type\":\"str\"},{\""
	    "name\":\"max-ram-below-4g\",\"type\":\"size\"},{\"name\":\"fd-bootchk\""
	    ",\"type\":\"bool\"},{\"name\":\"smbus\",\"type\":\"bool\"},{\"name\":\"x-so"
	    "uth-bridge\",\"type\":\"PCSouthBridgeOption\"},{\"name\":\"unattache"
	    "d\",\"type\":\"child<container>\"},{\"name\":\"fw_cfg\",\"type\":\"child"
	    "<fw_cfg_io>\"},{\"name\":\"peripheral-anon\",\"type\":\"child<contai"
	    "ner>\"},{\"name\":\"nvdimm\",\"type\":\"bool\"},{\"name\":\"peripheral\","
	    "\"type\":\"child<container>\"},{\"name\":\"ioport80[0]\",\"type\":\"chi"
	    "ld<memory-region>\"},{\"name\":\"nvdimm-persistence\",\"type\":\"str"
	    "ing\"},{\"name\":\"smram\",\"type\":\"link<memory-region>\"},{\"name\":"
	    "\"cxl-fmw\",\"type\":\"CXLFixedMemoryWindow\"},{\"name\":\"rtc-time\","
	    "\"type\":\"struct tm\"},{\"name\":\"ioportF0[0]\",\"type\":\"child<memo"
	    "ry-region>\"},{\"name\":\"acpi-device\",\"type\":\"link<hotplug-hand"
	    "ler>\"},{\"name\":\"spcr\",\"type\":\"bool\"},{\"name\":\"pcspk-audiodev"
	    "\",\"type\":\"str\"},{\"name\":\"cxl\",\"type\":\"bool\"},{\"name\":\"hmat\","
	    "\"type\":\"bool\"},{\"name\":\"i440fx\",\"type\":\"child<i440FX-pcihost"
	    ">\"}]}" },
	{ "qom-list|/objects/compat_monitor0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"chardev\""
	    ",\"type\":\"string\"},{\"name\":\"pretty\",\"type\":\"bool\"},{\"name\":\"c"
	    "lose-action\",\"type\":\"MonitorQMPCloseAction\"}]}" },
	{ "qom-list|/objects/compat_monitor1||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"chardev\""
	    ",\"type\":\"string\"},{\"name\":\"pretty\",\"type\":\"bool\"},{\"name\":\"c"
	    "lose-action\",\"type\":\"MonitorQMPCloseAction\"}]}" },
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
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"compat_m"
	    "onitor1\",\"type\":\"child<monitor-qmp>\"},{\"name\":\"pc.ram\",\"type"
	    "\":\"child<memory-backend-ram>\"},{\"name\":\"compat_monitor0\",\"ty"
	    "pe\":\"child<monitor-qmp>\"}]}" },
	{ "query-block|||",
	    "{\"return\":[]}" },
	{ "query-cpus-fast|||",
	    "{\"return\":[{\"thread-id\":21538,\"qom-type\":\"qemu64-x86_64-cpu\""
	    ",\"props\":{\"core-id\":0,\"thread-id\":0,\"socket-id\":0},\"qom-path"
	    "\":\"/machine/unattached/device[0]\",\"cpu-index\":0,\"target\":\"x8"
	    "6_64\"}]}" },
	{ "query-dirty-rate|||",
	    "{\"return\":{\"status\":\"measured\",\"sample-pages\":512,\"dirty-rat"
	    "e\":60,\"mode\":\"page-sampling\",\"calc-time-unit\":\"second\",\"star"
	    "t-time\":1796238302,\"calc-time\":1}}" },
	{ "query-kvm|||",
	    "{\"return\":{\"enabled\":false,\"present\":true}}" },
	{ "query-memory-size-summary|||",
	    "{\"return\":{\"base-memory\":201326592,\"plugged-memory\":0}}" },
	{ "query-migrate-capabilities|||",
	    "{\"return\":[{\"state\":false,\"capability\":\"xbzrle\"},{\"state\":fa"
	    "lse,\"capability\":\"rdma-pin-all\"},{\"state\":false,\"capability\""
	    ":\"auto-converge\"},{\"state\":false,\"capability\":\"events\"},{\"st"
	    "ate\":false,\"capability\":\"postcopy-ram\"},{\"state\":false,\"capa"
	    "bility\":\"x-colo\"},{\"state\":false,\"capability\":\"release-ram\"}"
	    ",{\"state\":false,\"capability\":\"return-path\"},{\"state\":false,\""
	    "capability\":\"pause-before-switchover\"},{\"state\":false,\"capab"
	    "ility\":\"multifd\"},{\"state\":false,\"capability\":\"dirty-bitmaps"
	    "\"},{\"state\":false,\"capability\":\"postcopy-blocktime\"},{\"state"
	    "\":false,\"capability\":\"late-block-activate\"},{\"state\":false,\""
	    "capability\":\"x-ignore-shared\"},{\"state\":false,\"capability\":\""
	    "validate-uuid\"},{\"state\":false,\"capability\":\"background-snap"
	    "shot\"},{\"state\":false,\"capability\":\"zero-copy-send\"},{\"state"
	    "\":false,\"capability\":\"postcopy-preempt\"},{\"state\":false,\"cap"
	    "ability\":\"switchover-ack\"},{\"state\":false,\"capability\":\"dirt"
	    "y-limit\"},{\"state\":false,\"capability\":\"mapped-ram\"}]}" },
	{ "query-sev|||",
	    "{\"return\":{\"enabled\":false,\"api-minor\":0,\"handle\":0,\"state\":"
	    "\"uninit\",\"api-major\":0,\"sev-type\":\"sev\",\"build-id\":0,\"policy"
	    "\":0}}" },
	{ "query-uuid|||",
	    "{\"return\":{\"UUID\":\"00000000-0000-0000-0000-000000000000\"}}" },
	{ NULL, NULL }
};
