/*
 * qemu-canned-7.2.c: what a real QEMU 7.2 answered to the setup's static
 * queries (generated from the QMIGRATE_QMP_TRACE traces of
 * handoff-migrate-late-unix, migrate-precopy, migrate-tls and
 * migrate-postcopy-recover; tests/sim/canned.py).  The key is the command
 * and its path, property and command-line arguments, "|"-joined.
 */
#include <stddef.h>

#include "qemu-canned.h"

const struct canned canned_7_2[] = {
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
	    "{\"return\":\"pc-i440fx-7.2-machine\"}" },
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
	    "ole-end\",\"type\":\"uint32\"},{\"name\":\"pci-hole64-size\",\"type\":\""
	    "size\"},{\"name\":\"pci-hole64-start\",\"type\":\"uint64\"},{\"name\":\""
	    "short_root_bus\",\"type\":\"uint32\"},{\"name\":\"pci-hole64-end\",\"t"
	    "ype\":\"uint64\"},{\"name\":\"x-pci-hole64-fix\",\"type\":\"bool\"},{\"n"
	    "ame\":\"pci-hole-start\",\"type\":\"uint32\"},{\"name\":\"pam-pci[12]\""
	    ",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[11]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-ram[4]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"pam-pci[13]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"pam-ram[12]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"pam-ram[5]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"pam-pci[14]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-ram[6]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[15]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[7]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-pci[16]\",\"type\":\"child"
	    "<memory-region>\"},{\"name\":\"pam-ram[8]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"pam-rom[7]\",\"type\":\"child<memory-region>\""
	    "},{\"name\":\"pam-pci[17]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"pam-pci[24]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-ram[9]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[18]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[25]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"pam-pci[19]\",\"type\":\"chil"
	    "d<memory-region>\"},{\"name\":\"pam-rom[0]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"pci-conf-idx[0]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"pam-rom[1]\",\"type\":\"child<memory-region>\"},"
	    "{\"name\":\"pam-pci[0]\",\"type\":\"child<memory-region>\"},{\"name\":"
	    "\"pci-conf-data[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"p"
	    "am-rom[2]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[1"
	    "]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-rom[3]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"pam-pci[20]\",\"type\":\"chil"
	    "d<memory-region>\"},{\"name\":\"pam-pci[2]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"pam-rom[4]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"pam-pci[21]\",\"type\":\"child<memory-region>\"},{\"na"
	    "me\":\"pam-pci[3]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-rom[5]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[22]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[4]\",\"type\""
	    ":\"child<memory-region>\"},{\"name\":\"pam-rom[6]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"pam-rom[10]\",\"type\":\"child<memory-"
	    "region>\"},{\"name\":\"pam-pci[5]\",\"type\":\"child<memory-region>\""
	    "},{\"name\":\"pci.0\",\"type\":\"child<PCI>\"},{\"name\":\"pam-rom[11]\""
	    ",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[6]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"pam-rom[8]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"pam-rom[12]\",\"type\":\"child<memory-r"
	    "egion>\"},{\"name\":\"pam-pci[7]\",\"type\":\"child<memory-region>\"}"
	    ",{\"name\":\"pam-rom[9]\",\"type\":\"child<memory-region>\"},{\"name\""
	    ":\"pam-pci[23]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-p"
	    "ci[8]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[0]\",\""
	    "type\":\"child<memory-region>\"},{\"name\":\"ioapic\",\"type\":\"child"
	    "<ioapic>\"},{\"name\":\"pam-pci[9]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"pam-ram[1]\",\"type\":\"child<memory-region>\"},{\"nam"
	    "e\":\"pam-pci[10]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam"
	    "-ram[2]\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-pci[11]"
	    "\",\"type\":\"child<memory-region>\"},{\"name\":\"pam-ram[10]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"pam-ram[3]\",\"type\":\"child"
	    "<memory-region>\"}]}" },
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
	    "\"name\":\"start-powered-off\",\"type\":\"bool\"},{\"name\":\"legacy-me"
	    "mory\",\"type\":\"str\"},{\"name\":\"vmx-invept-single-context\",\"typ"
	    "e\":\"bool\"},{\"name\":\"core-capability\",\"type\":\"bool\"},{\"name\":"
	    "\"popcnt\",\"type\":\"bool\"},{\"name\":\"sgx-debug\",\"type\":\"bool\"},{"
	    "\"name\":\"dtes64\",\"type\":\"bool\"},{\"name\":\"vmx-invvpid-single-a"
	    "ddr\",\"type\":\"bool\"},{\"name\":\"xstore\",\"type\":\"bool\"},{\"name\":"
	    "\"min-xlevel2\",\"type\":\"uint32\"},{\"name\":\"stepping\",\"type\":\"in"
	    "t\"},{\"name\":\"vmx-vmfunc\",\"type\":\"bool\"},{\"name\":\"hv-emsr-bit"
	    "map\",\"type\":\"bool\"},{\"name\":\"pse36\",\"type\":\"bool\"},{\"name\":\""
	    "avx512-4vnniw\",\"type\":\"bool\"},{\"name\":\"x-intel-pt-auto-level"
	    "\",\"type\":\"bool\"},{\"name\":\"fma4\",\"type\":\"bool\"},{\"name\":\"avx5"
	    "12-vp2intersect\",\"type\":\"bool\"},{\"name\":\"avx2\",\"type\":\"bool\""
	    "},{\"name\":\"kvm-poll-control\",\"type\":\"bool\"},{\"name\":\"sgxlc\","
	    "\"type\":\"bool\"},{\"name\":\"amd-stibp\",\"type\":\"bool\"},{\"name\":\"f"
	    "amily\",\"type\":\"int\"},{\"name\":\"vmware-cpuid-freq\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmx-store-lma\",\"type\":\"bool\"},{\"name\":\"hv-spinl"
	    "ocks\",\"type\":\"uint32\"},{\"name\":\"erms\",\"type\":\"bool\"},{\"name\""
	    ":\"vaes\",\"type\":\"bool\"},{\"name\":\"sgx-tokenkey\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-activity-wait-sipi\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-flexpriority\",\"type\":\"bool\"},{\"name\":\"hv-reset\",\"type\":\"bo"
	    "ol\"},{\"name\":\"rdrand\",\"type\":\"bool\"},{\"name\":\"vmx-ept-advanc"
	    "ed-exitinfo\",\"type\":\"bool\"},{\"name\":\"vmx-pause-exit\",\"type\":"
	    "\"bool\"},{\"name\":\"vmx-shadow-vmcs\",\"type\":\"bool\"},{\"name\":\"av"
	    "x512-vpopcntdq\",\"type\":\"bool\"},{\"name\":\"model\",\"type\":\"int\"}"
	    ",{\"name\":\"xcrypt\",\"type\":\"bool\"},{\"name\":\"tbm\",\"type\":\"bool\""
	    "},{\"name\":\"vmx-eptad\",\"type\":\"bool\"},{\"name\":\"vmx-monitor-ex"
	    "it\",\"type\":\"bool\"},{\"name\":\"kvm-pv-eoi\",\"type\":\"bool\"},{\"nam"
	    "e\":\"lm\",\"type\":\"bool\"},{\"name\":\"hv-version-id-spack\",\"type\":"
	    "\"uint32\"},{\"name\":\"x-vendor-cpuid-only\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-unrestricted-guest\",\"type\":\"bool\"},{\"name\":\"host-phy"
	    "s-bits-limit\",\"type\":\"uint8\"},{\"name\":\"pae\",\"type\":\"bool\"},{"
	    "\"name\":\"hv-runtime\",\"type\":\"bool\"},{\"name\":\"ssse3\",\"type\":\"b"
	    "ool\"},{\"name\":\"phe\",\"type\":\"bool\"},{\"name\":\"movdiri\",\"type\":"
	    "\"bool\"},{\"name\":\"host-phys-bits\",\"type\":\"bool\"},{\"name\":\"taa"
	    "-no\",\"type\":\"bool\"},{\"name\":\"full-width-write\",\"type\":\"bool\""
	    "},{\"name\":\"arat\",\"type\":\"bool\"},{\"name\":\"avx512vbmi2\",\"type\""
	    ":\"bool\"},{\"name\":\"arch-lbr\",\"type\":\"bool\"},{\"name\":\"vmx-vnmi"
	    "-pending\",\"type\":\"bool\"},{\"name\":\"x2apic\",\"type\":\"bool\"},{\"n"
	    "ame\":\"npt\",\"type\":\"bool\"},{\"name\":\"vmx-invpcid-exit\",\"type\":"
	    "\"bool\"},{\"name\":\"avx512ifma\",\"type\":\"bool\"},{\"name\":\"model-i"
	    "d\",\"type\":\"string\"},{\"name\":\"ucode-rev\",\"type\":\"uint64\"},{\"n"
	    "ame\":\"hv-evmcs\",\"type\":\"bool\"},{\"name\":\"pmm-en\",\"type\":\"bool"
	    "\"},{\"name\":\"vmx-io-exit\",\"type\":\"bool\"},{\"name\":\"tsc\",\"type\""
	    ":\"bool\"},{\"name\":\"x-force-features\",\"type\":\"bool\"},{\"name\":\""
	    "vmx-ins-outs\",\"type\":\"bool\"},{\"name\":\"dca\",\"type\":\"bool\"},{\""
	    "name\":\"vmx-apicv-x2apic\",\"type\":\"bool\"},{\"name\":\"ia64\",\"type"
	    "\":\"bool\"},{\"name\":\"hv-stimer-direct\",\"type\":\"bool\"},{\"name\":"
	    "\"perfctr-core\",\"type\":\"bool\"},{\"name\":\"vmx-cr3-load-noexit\","
	    "\"type\":\"bool\"},{\"name\":\"pmu\",\"type\":\"bool\"},{\"name\":\"kvmcloc"
	    "k\",\"type\":\"bool\"},{\"name\":\"vmx-entry-noload-debugctl\",\"type\""
	    ":\"bool\"},{\"name\":\"md-clear\",\"type\":\"bool\"},{\"name\":\"invtsc\","
	    "\"type\":\"bool\"},{\"name\":\"pn\",\"type\":\"bool\"},{\"name\":\"avx512cd"
	    "\",\"type\":\"bool\"},{\"name\":\"cmp-legacy\",\"type\":\"bool\"},{\"name\""
	    ":\"cx16\",\"type\":\"bool\"},{\"name\":\"avx512dq\",\"type\":\"bool\"},{\"n"
	    "ame\":\"abm\",\"type\":\"bool\"},{\"name\":\"vmx-activity-shutdown\",\"t"
	    "ype\":\"bool\"},{\"name\":\"kvm-pv-ipi\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-apicv-register\",\"type\":\"bool\"},{\"name\":\"fxsr-opt\",\"type\":\""
	    "bool\"},{\"name\":\"skip-l1dfl-vmentry\",\"type\":\"bool\"},{\"name\":\""
	    "fill-mtrr-mask\",\"type\":\"bool\"},{\"name\":\"x-migrate-smi-count\""
	    ",\"type\":\"bool\"},{\"name\":\"pcid\",\"type\":\"bool\"},{\"name\":\"rdpid"
	    "\",\"type\":\"bool\"},{\"name\":\"wbnoinvd\",\"type\":\"bool\"},{\"name\":\""
	    "syscall\",\"type\":\"bool\"},{\"name\":\"pse\",\"type\":\"bool\"},{\"name\""
	    ":\"xsaves\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-pat\",\"type\""
	    ":\"bool\"},{\"name\":\"vgif\",\"type\":\"bool\"},{\"name\":\"mce\",\"type\":"
	    "\"bool\"},{\"name\":\"xfd\",\"type\":\"bool\"},{\"name\":\"node-id\",\"type"
	    "\":\"int32\"},{\"name\":\"ibpb\",\"type\":\"bool\"},{\"name\":\"vmx-apicv-"
	    "xapic\",\"type\":\"bool\"},{\"name\":\"cldemote\",\"type\":\"bool\"},{\"na"
	    "me\":\"lwp\",\"type\":\"bool\"},{\"name\":\"rtm\",\"type\":\"bool\"},{\"name"
	    "\":\"hv-tlbflush\",\"type\":\"bool\"},{\"name\":\"kvm-steal-time\",\"typ"
	    "e\":\"bool\"},{\"name\":\"cpuid-0xb\",\"type\":\"bool\"},{\"name\":\"vmx-h"
	    "lt-exit\",\"type\":\"bool\"},{\"name\":\"vmx-desc-exit\",\"type\":\"bool"
	    "\"},{\"name\":\"vmx-eptp-switching\",\"type\":\"bool\"},{\"name\":\"sgx-"
	    "provisionkey\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-efer\",\""
	    "type\":\"bool\"},{\"name\":\"level-func7\",\"type\":\"uint32\"},{\"name\""
	    ":\"vmx-invlpg-exit\",\"type\":\"bool\"},{\"name\":\"vmx-exit-save-efe"
	    "r\",\"type\":\"bool\"},{\"name\":\"die-id\",\"type\":\"int32\"},{\"name\":\""
	    "vme\",\"type\":\"bool\"},{\"name\":\"kvm-pv-unhalt\",\"type\":\"bool\"},{"
	    "\"name\":\"kvm-no-smi-migration\",\"type\":\"bool\"},{\"name\":\"svm\",\""
	    "type\":\"bool\"},{\"name\":\"vmx-invvpid\",\"type\":\"bool\"},{\"name\":\""
	    "kvm-hint-dedicated\",\"type\":\"bool\"},{\"name\":\"mca\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmx-tsc-scaling\",\"type\":\"bool\"},{\"name\":\"mtrr\","
	    "\"type\":\"bool\"},{\"name\":\"cid\",\"type\":\"bool\"},{\"name\":\"pfthres"
	    "hold\",\"type\":\"bool\"},{\"name\":\"pmm\",\"type\":\"bool\"},{\"name\":\"l"
	    "ahf-lm\",\"type\":\"bool\"},{\"name\":\"hv-version-id-build\",\"type\":"
	    "\"uint32\"},{\"name\":\"tcg-cpuid\",\"type\":\"bool\"},{\"name\":\"vmx-en"
	    "try-load-pkrs\",\"type\":\"bool\"},{\"name\":\"vmx-entry-ia32e-mode\""
	    ",\"type\":\"bool\"},{\"name\":\"x-hv-max-vps\",\"type\":\"int32\"},{\"nam"
	    "e\":\"tm\",\"type\":\"bool\"},{\"name\":\"pbe\",\"type\":\"bool\"},{\"name\":"
	    "\"amx-int8\",\"type\":\"bool\"},{\"name\":\"sgx1\",\"type\":\"bool\"},{\"na"
	    "me\":\"vmx-rdpmc-exit\",\"type\":\"bool\"},{\"name\":\"split-lock-dete"
	    "ct\",\"type\":\"bool\"},{\"name\":\"apic-id\",\"type\":\"uint32\"},{\"name"
	    "\":\"fpu\",\"type\":\"bool\"},{\"name\":\"skinit\",\"type\":\"bool\"},{\"nam"
	    "e\":\"l3-cache\",\"type\":\"bool\"},{\"name\":\"sep\",\"type\":\"bool\"},{\""
	    "name\":\"intel-pt-lip\",\"type\":\"bool\"},{\"name\":\"hv-tlbflush-dir"
	    "ect\",\"type\":\"bool\"},{\"name\":\"avx512-bf16\",\"type\":\"bool\"},{\"n"
	    "ame\":\"vmx-invept-single-context-noglobals\",\"type\":\"bool\"},{\""
	    "name\":\"vmx-rdtscp-exit\",\"type\":\"bool\"},{\"name\":\"nx\",\"type\":\""
	    "bool\"},{\"name\":\"vmx-invvpid-all-context\",\"type\":\"bool\"},{\"na"
	    "me\":\"sgx-kss\",\"type\":\"bool\"},{\"name\":\"pause-filter\",\"type\":\""
	    "bool\"},{\"name\":\"ds-cpl\",\"type\":\"bool\"},{\"name\":\"fsrm\",\"type\""
	    ":\"bool\"},{\"name\":\"vmx-exit-load-efer\",\"type\":\"bool\"},{\"name\""
	    ":\"vmx-vmwrite-vmexit-fields\",\"type\":\"bool\"},{\"name\":\"vmx-ept"
	    "\",\"type\":\"bool\"},{\"name\":\"nodeid-msr\",\"type\":\"bool\"},{\"name\""
	    ":\"vmx-ept-execonly\",\"type\":\"bool\"},{\"name\":\"smap\",\"type\":\"bo"
	    "ol\"},{\"name\":\"vmx-io-bitmap\",\"type\":\"bool\"},{\"name\":\"vmx-pre"
	    "emption-timer\",\"type\":\"bool\"},{\"name\":\"vmx-invept-all-contex"
	    "t\",\"type\":\"bool\"},{\"name\":\"vmx-intr-exit\",\"type\":\"bool\"},{\"n"
	    "ame\":\"vmx-exit-clear-bndcfgs\",\"type\":\"bool\"},{\"name\":\"cr8leg"
	    "acy\",\"type\":\"bool\"},{\"name\":\"xlevel\",\"type\":\"uint32\"},{\"name"
	    "\":\"vmx-vpid\",\"type\":\"bool\"},{\"name\":\"vmx-zero-len-inject\",\"t"
	    "ype\":\"bool\"},{\"name\":\"pschange-mc-no\",\"type\":\"bool\"},{\"name\""
	    ":\"virt-ssbd\",\"type\":\"bool\"},{\"name\":\"umip\",\"type\":\"bool\"},{\""
	    "name\":\"avx512er\",\"type\":\"bool\"},{\"name\":\"vmx-vintr-pending\","
	    "\"type\":\"bool\"},{\"name\":\"xstore-en\",\"type\":\"bool\"},{\"name\":\"a"
	    "vx512vl\",\"type\":\"bool\"},{\"name\":\"ibrs\",\"type\":\"bool\"},{\"name"
	    "\":\"rsba\",\"type\":\"bool\"},{\"name\":\"cmov\",\"type\":\"bool\"},{\"name"
	    "\":\"vmx-posted-intr\",\"type\":\"bool\"},{\"name\":\"xcrypt-en\",\"type"
	    "\":\"bool\"},{\"name\":\"tm2\",\"type\":\"bool\"},{\"name\":\"lbrv\",\"type\""
	    ":\"bool\"},{\"name\":\"tsc-scale\",\"type\":\"bool\"},{\"name\":\"vmx-sec"
	    "ondary-ctls\",\"type\":\"bool\"},{\"name\":\"xsaveerptr\",\"type\":\"boo"
	    "l\"},{\"name\":\"fsgsbase\",\"type\":\"bool\"},{\"name\":\"x-hv-synic-kv"
	    "m-only\",\"type\":\"bool\"},{\"name\":\"avx512bw\",\"type\":\"bool\"},{\"n"
	    "ame\":\"hv-version-id-minor\",\"type\":\"uint16\"},{\"name\":\"sse4a\","
	    "\"type\":\"bool\"},{\"name\":\"tsc-frequency\",\"type\":\"int\"},{\"name\""
	    ":\"smx\",\"type\":\"bool\"},{\"name\":\"hle\",\"type\":\"bool\"},{\"name\":\""
	    "monitor\",\"type\":\"bool\"},{\"name\":\"avx512-fp16\",\"type\":\"bool\"}"
	    ",{\"name\":\"tce\",\"type\":\"bool\"},{\"name\":\"vpclmulqdq\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-frequencies\",\"type\":\"bool\"},{\"name\":\"kvm-p"
	    "v-tlb-flush\",\"type\":\"bool\"},{\"name\":\"vmx-rdtsc-exit\",\"type\":"
	    "\"bool\"},{\"name\":\"vmx-activity-hlt\",\"type\":\"bool\"},{\"name\":\"v"
	    "mx-cr8-load-exit\",\"type\":\"bool\"},{\"name\":\"mds-no\",\"type\":\"bo"
	    "ol\"},{\"name\":\"svme-addr-chk\",\"type\":\"bool\"},{\"name\":\"amd-no-"
	    "ssb\",\"type\":\"bool\"},{\"name\":\"adx\",\"type\":\"bool\"},{\"name\":\"vm"
	    "x-exit-load-pkrs\",\"type\":\"bool\"},{\"name\":\"hv-version-id-sbra"
	    "nch\",\"type\":\"uint8\"},{\"name\":\"crash-information\",\"type\":\"Gue"
	    "stPanicInformation\"},{\"name\":\"min-level\",\"type\":\"uint32\"},{\""
	    "name\":\"full-cpuid-auto-level\",\"type\":\"bool\"},{\"name\":\"vmx-en"
	    "try-load-bndcfgs\",\"type\":\"bool\"},{\"name\":\"vmx-vnmi\",\"type\":\""
	    "bool\"},{\"name\":\"pclmulqdq\",\"type\":\"bool\"},{\"name\":\"xop\",\"typ"
	    "e\":\"bool\"},{\"name\":\"msr\",\"type\":\"bool\"},{\"name\":\"kvm-pv-enfo"
	    "rce-cpuid\",\"type\":\"bool\"},{\"name\":\"ssb-no\",\"type\":\"bool\"},{\""
	    "name\":\"clflush\",\"type\":\"bool\"},{\"name\":\"xlevel2\",\"type\":\"uin"
	    "t32\"},{\"name\":\"mpx\",\"type\":\"bool\"},{\"name\":\"extapic\",\"type\":"
	    "\"bool\"},{\"name\":\"vmx-mtf\",\"type\":\"bool\"},{\"name\":\"hv-enforce"
	    "-cpuid\",\"type\":\"bool\"},{\"name\":\"hv-stimer\",\"type\":\"bool\"},{\""
	    "name\":\"sgx2\",\"type\":\"bool\"},{\"name\":\"vmx-rdseed-exit\",\"type\""
	    ":\"bool\"},{\"name\":\"smep\",\"type\":\"bool\"},{\"name\":\"xsavec\",\"typ"
	    "e\":\"bool\"},{\"name\":\"vmx-mwait-exit\",\"type\":\"bool\"},{\"name\":\""
	    "hv-synic\",\"type\":\"bool\"},{\"name\":\"cx8\",\"type\":\"bool\"},{\"name"
	    "\":\"pku\",\"type\":\"bool\"},{\"name\":\"kvm\",\"type\":\"bool\"},{\"name\":"
	    "\"vmx-exit-load-pat\",\"type\":\"bool\"},{\"name\":\"hv-passthrough\","
	    "\"type\":\"bool\"},{\"name\":\"vmcb-clean\",\"type\":\"bool\"},{\"name\":\""
	    "tsx-ldtrk\",\"type\":\"bool\"},{\"name\":\"hv-tlbflush-ext\",\"type\":\""
	    "bool\"},{\"name\":\"stibp\",\"type\":\"bool\"},{\"name\":\"vmx-cr3-store"
	    "-noexit\",\"type\":\"bool\"},{\"name\":\"tsx-ctrl\",\"type\":\"bool\"},{\""
	    "name\":\"svm-lock\",\"type\":\"bool\"},{\"name\":\"hv-reenlightenment\""
	    ",\"type\":\"bool\"},{\"name\":\"sgx-exinfo\",\"type\":\"bool\"},{\"name\":"
	    "\"avic\",\"type\":\"bool\"},{\"name\":\"ds\",\"type\":\"bool\"},{\"name\":\"l"
	    "egacy-cache\",\"type\":\"bool\"},{\"name\":\"sse\",\"type\":\"bool\"},{\"n"
	    "ame\":\"clzero\",\"type\":\"bool\"},{\"name\":\"hv-vpindex\",\"type\":\"bo"
	    "ol\"},{\"name\":\"osvw\",\"type\":\"bool\"},{\"name\":\"pks\",\"type\":\"boo"
	    "l\"},{\"name\":\"vmx-ept-2mb\",\"type\":\"bool\"},{\"name\":\"vmx-true-c"
	    "tls\",\"type\":\"bool\"},{\"name\":\"movdir64b\",\"type\":\"bool\"},{\"nam"
	    "e\":\"vmx-invept\",\"type\":\"bool\"},{\"name\":\"acpi\",\"type\":\"bool\"}"
	    ",{\"name\":\"vmx-encls-exit\",\"type\":\"bool\"},{\"name\":\"vmx-cr8-st"
	    "ore-exit\",\"type\":\"bool\"},{\"name\":\"vmx-rdrand-exit\",\"type\":\"b"
	    "ool\"},{\"name\":\"nrip-save\",\"type\":\"bool\"},{\"name\":\"gfni\",\"typ"
	    "e\":\"bool\"},{\"name\":\"kvm-mmu\",\"type\":\"bool\"},{\"name\":\"kvm-msi"
	    "-ext-dest-id\",\"type\":\"bool\"},{\"name\":\"serialize\",\"type\":\"boo"
	    "l\"},{\"name\":\"avx512bitalg\",\"type\":\"bool\"},{\"name\":\"rdseed\",\""
	    "type\":\"bool\"},{\"name\":\"sha-ni\",\"type\":\"bool\"},{\"name\":\"ace2\""
	    ",\"type\":\"bool\"},{\"name\":\"lmce\",\"type\":\"bool\"},{\"name\":\"waitp"
	    "kg\",\"type\":\"bool\"},{\"name\":\"topoext\",\"type\":\"bool\"},{\"name\":"
	    "\"f16c\",\"type\":\"bool\"},{\"name\":\"3dnowprefetch\",\"type\":\"bool\"}"
	    ",{\"name\":\"avx512-4fmaps\",\"type\":\"bool\"},{\"name\":\"vmx-ept-1gb"
	    "\",\"type\":\"bool\"},{\"name\":\"avx\",\"type\":\"bool\"},{\"name\":\"sse2\""
	    ",\"type\":\"bool\"},{\"name\":\"rdctl-no\",\"type\":\"bool\"},{\"name\":\"m"
	    "mx\",\"type\":\"bool\"},{\"name\":\"hv-version-id-major\",\"type\":\"uin"
	    "t16\"},{\"name\":\"level\",\"type\":\"uint32\"},{\"name\":\"avx512vnni\","
	    "\"type\":\"bool\"},{\"name\":\"pni\",\"type\":\"bool\"},{\"name\":\"movbe\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-ple\",\"type\":\"bool\"},{\"name\":\"mmx"
	    "ext\",\"type\":\"bool\"},{\"name\":\"lbr-fmt\",\"type\":\"uint64\"},{\"nam"
	    "e\":\"bus-lock-detect\",\"type\":\"bool\"},{\"name\":\"vmx-apicv-vid\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-page-walk-5\",\"type\":\"bool\"},{\"na"
	    "me\":\"flushbyasid\",\"type\":\"bool\"},{\"name\":\"rdtscp\",\"type\":\"bo"
	    "ol\"},{\"name\":\"clwb\",\"type\":\"bool\"},{\"name\":\"kvm-pv-sched-yie"
	    "ld\",\"type\":\"bool\"},{\"name\":\"kvm-asyncpf\",\"type\":\"bool\"},{\"na"
	    "me\":\"decodeassists\",\"type\":\"bool\"},{\"name\":\"vmx-wbinvd-exit\""
	    ",\"type\":\"bool\"},{\"name\":\"pat\",\"type\":\"bool\"},{\"name\":\"vmx-ex"
	    "it-clear-rtit-ctl\",\"type\":\"bool\"},{\"name\":\"invpcid\",\"type\":\""
	    "bool\"},{\"name\":\"pdpe1gb\",\"type\":\"bool\"},{\"name\":\"vmx-exit-sa"
	    "ve-pat\",\"type\":\"bool\"},{\"name\":\"hv-vendor-id\",\"type\":\"str\"},"
	    "{\"name\":\"tsc-adjust\",\"type\":\"bool\"},{\"name\":\"vmx-entry-load-"
	    "rtit-ctl\",\"type\":\"bool\"},{\"name\":\"ht\",\"type\":\"bool\"},{\"name\""
	    ":\"amx-tile\",\"type\":\"bool\"},{\"name\":\"xtpr\",\"type\":\"bool\"},{\"n"
	    "ame\":\"hv-xmm-input\",\"type\":\"bool\"},{\"name\":\"vmx-tsc-offset\","
	    "\"type\":\"bool\"},{\"name\":\"ssbd\",\"type\":\"bool\"},{\"name\":\"3dnowe"
	    "xt\",\"type\":\"bool\"},{\"name\":\"clflushopt\",\"type\":\"bool\"},{\"nam"
	    "e\":\"sgx\",\"type\":\"bool\"},{\"name\":\"unavailable-features\",\"type"
	    "\":\"strList\"},{\"name\":\"xsave\",\"type\":\"bool\"},{\"name\":\"pdcm\",\""
	    "type\":\"bool\"},{\"name\":\"hv-crash\",\"type\":\"bool\"},{\"name\":\"est"
	    "\",\"type\":\"bool\"},{\"name\":\"vendor\",\"type\":\"string\"},{\"name\":\""
	    "pge\",\"type\":\"bool\"},{\"name\":\"pcommit\",\"type\":\"bool\"},{\"name\""
	    ":\"ibs\",\"type\":\"bool\"},{\"name\":\"tsc-deadline\",\"type\":\"bool\"},"
	    "{\"name\":\"kvmclock-stable-bit\",\"type\":\"bool\"},{\"name\":\"misali"
	    "gnsse\",\"type\":\"bool\"},{\"name\":\"vmx-msr-bitmap\",\"type\":\"bool\""
	    "},{\"name\":\"check\",\"type\":\"bool\"},{\"name\":\"hv-time\",\"type\":\"b"
	    "ool\"},{\"name\":\"hv-avic\",\"type\":\"bool\"},{\"name\":\"perfctr-nb\","
	    "\"type\":\"bool\"},{\"name\":\"phys-bits\",\"type\":\"uint32\"},{\"name\":"
	    "\"apic\",\"type\":\"bool\"},{\"name\":\"vmx-exit-save-preemption-time"
	    "r\",\"type\":\"bool\"},{\"name\":\"vmx-exit-ack-intr\",\"type\":\"bool\"}"
	    ",{\"name\":\"sgx-mode64\",\"type\":\"bool\"},{\"name\":\"avx512vbmi\",\"t"
	    "ype\":\"bool\"},{\"name\":\"thread-id\",\"type\":\"int32\"},{\"name\":\"mi"
	    "n-xlevel\",\"type\":\"uint32\"},{\"name\":\"socket-id\",\"type\":\"int32"
	    "\"},{\"name\":\"vmx-exit-nosave-debugctl\",\"type\":\"bool\"},{\"name\""
	    ":\"avx512f\",\"type\":\"bool\"},{\"name\":\"vmx-xsaves\",\"type\":\"bool\""
	    "},{\"name\":\"arch-capabilities\",\"type\":\"bool\"},{\"name\":\"bmi2\","
	    "\"type\":\"bool\"},{\"name\":\"vmx-exit-load-perf-global-ctrl\",\"typ"
	    "e\":\"bool\"},{\"name\":\"vmx-pml\",\"type\":\"bool\"},{\"name\":\"vmx-pag"
	    "e-walk-4\",\"type\":\"bool\"},{\"name\":\"vmx-nmi-exit\",\"type\":\"bool"
	    "\"},{\"name\":\"intel-pt\",\"type\":\"bool\"},{\"name\":\"wdt\",\"type\":\"b"
	    "ool\"},{\"name\":\"kvm-nopiodelay\",\"type\":\"bool\"},{\"name\":\"ace2-"
	    "en\",\"type\":\"bool\"},{\"name\":\"v-vmsave-vmload\",\"type\":\"bool\"},"
	    "{\"name\":\"avx512pf\",\"type\":\"bool\"},{\"name\":\"bmi1\",\"type\":\"boo"
	    "l\"},{\"name\":\"enforce\",\"type\":\"bool\"},{\"name\":\"sse4.2\",\"type\""
	    ":\"bool\"},{\"name\":\"hv-syndbg\",\"type\":\"bool\"},{\"name\":\"ibrs-al"
	    "l\",\"type\":\"bool\"},{\"name\":\"xgetbv1\",\"type\":\"bool\"},{\"name\":\""
	    "spec-ctrl\",\"type\":\"bool\"},{\"name\":\"3dnow\",\"type\":\"bool\"},{\"n"
	    "ame\":\"kvm-asyncpf-int\",\"type\":\"bool\"},{\"name\":\"vmx\",\"type\":\""
	    "bool\"},{\"name\":\"la57\",\"type\":\"bool\"},{\"name\":\"hv-no-nonarch-"
	    "coresharing\",\"type\":\"OnOffAuto\"},{\"name\":\"amx-bf16\",\"type\":\""
	    "bool\"},{\"name\":\"sse4.1\",\"type\":\"bool\"},{\"name\":\"xsaveopt\",\"t"
	    "ype\":\"bool\"},{\"name\":\"hv-relaxed\",\"type\":\"bool\"},{\"name\":\"hv"
	    "-version-id-snumber\",\"type\":\"uint32\"},{\"name\":\"vmx-entry-loa"
	    "d-perf-global-ctrl\",\"type\":\"bool\"},{\"name\":\"avx-vnni\",\"type\""
	    ":\"bool\"},{\"name\":\"fxsr\",\"type\":\"bool\"},{\"name\":\"phe-en\",\"typ"
	    "e\":\"bool\"},{\"name\":\"hv-vapic\",\"type\":\"bool\"},{\"name\":\"hv-ipi"
	    "\",\"type\":\"bool\"},{\"name\":\"hypervisor\",\"type\":\"bool\"},{\"name\""
	    ":\"aes\",\"type\":\"bool\"},{\"name\":\"amd-ssbd\",\"type\":\"bool\"},{\"na"
	    "me\":\"core-id\",\"type\":\"int32\"},{\"name\":\"de\",\"type\":\"bool\"},{\""
	    "name\":\"ss\",\"type\":\"bool\"},{\"name\":\"vmx-movdr-exit\",\"type\":\"b"
	    "ool\"},{\"name\":\"fma\",\"type\":\"bool\"},{\"name\":\"lahf_lm\",\"type\":"
	    "\"bool\"},{\"name\":\"lapic\",\"type\":\"child<apic>\"},{\"name\":\"tsc_a"
	    "djust\",\"type\":\"bool\"},{\"name\":\"svm_lock\",\"type\":\"bool\"},{\"na"
	    "me\":\"vmcb_clean\",\"type\":\"bool\"},{\"name\":\"nrip_save\",\"type\":\""
	    "bool\"},{\"name\":\"lbr_fmt\",\"type\":\"uint64\"},{\"name\":\"pclmuldq\""
	    ",\"type\":\"bool\"},{\"name\":\"ffxsr\",\"type\":\"bool\"},{\"name\":\"sse4"
	    "-2\",\"type\":\"bool\"},{\"name\":\"kvm_asyncpf_int\",\"type\":\"bool\"},"
	    "{\"name\":\"cmp_legacy\",\"type\":\"bool\"},{\"name\":\"kvm_nopiodelay\""
	    ",\"type\":\"bool\"},{\"name\":\"perfctr_core\",\"type\":\"bool\"},{\"name"
	    "\":\"kvm_pv_unhalt\",\"type\":\"bool\"},{\"name\":\"ds_cpl\",\"type\":\"bo"
	    "ol\"},{\"name\":\"sse4-1\",\"type\":\"bool\"},{\"name\":\"perfctr_nb\",\"t"
	    "ype\":\"bool\"},{\"name\":\"sse3\",\"type\":\"bool\"},{\"name\":\"tsc_scal"
	    "e\",\"type\":\"bool\"},{\"name\":\"pause_filter\",\"type\":\"bool\"},{\"na"
	    "me\":\"kvm_asyncpf\",\"type\":\"bool\"},{\"name\":\"kvm_steal_time\",\"t"
	    "ype\":\"bool\"},{\"name\":\"feature-words\",\"type\":\"X86CPUFeatureWo"
	    "rdInfo\"},{\"name\":\"kvm_mmu\",\"type\":\"bool\"},{\"name\":\"smram[0]\""
	    ",\"type\":\"child<memory-region>\"},{\"name\":\"memory[0]\",\"type\":\""
	    "child<memory-region>\"},{\"name\":\"filtered-features\",\"type\":\"X"
	    "86CPUFeatureWordInfo\"},{\"name\":\"memory[1]\",\"type\":\"child<mem"
	    "ory-region>\"},{\"name\":\"sse4_2\",\"type\":\"bool\"},{\"name\":\"kvm_p"
	    "oll_control\",\"type\":\"bool\"},{\"name\":\"fxsr_opt\",\"type\":\"bool\""
	    "},{\"name\":\"nodeid_msr\",\"type\":\"bool\"},{\"name\":\"kvm_pv_eoi\",\""
	    "type\":\"bool\"},{\"name\":\"i64\",\"type\":\"bool\"},{\"name\":\"hv-apicv"
	    "\",\"type\":\"bool\"},{\"name\":\"xd\",\"type\":\"bool\"},{\"name\":\"sse4_1"
	    "\",\"type\":\"bool\"}]}" },
	{ "qom-list|/machine/unattached/device[10]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[10]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":\"unnam"
	    "ed-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"pit[0]\",\"type\":"
	    "\"child<memory-region>\"},{\"name\":\"unnamed-gpio-in[0]\",\"type\":"
	    "\"child<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[11]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"audiodev\",\"type\":\"str\"},{\"name\":\"migrat"
	    "e\",\"type\":\"bool\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":"
	    "\"pit\",\"type\":\"link<pit-common>\"},{\"name\":\"pcspk[0]\",\"type\":\""
	    "child<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[12]/serial||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"wakeup\",\"type\":\"bool\"},{\"name\":\"chardev"
	    "\",\"type\":\"str\"},{\"name\":\"baudbase\",\"type\":\"uint32\"}]}" },
	{ "qom-list|/machine/unattached/device[12]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"irq\",\"type\":\"uint32\"},{\"name\":\"index\",\""
	    "type\":\"uint32\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":\"s"
	    "erial[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"wakeup\",\"t"
	    "ype\":\"bool\"},{\"name\":\"chardev\",\"type\":\"str\"},{\"name\":\"baudba"
	    "se\",\"type\":\"uint32\"},{\"name\":\"serial\",\"type\":\"child<serial>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/device[13]/floppy-bus.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"realized"
	    "\",\"type\":\"bool\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotp"
	    "lug-handler>\"}]}" },
	{ "qom-list|/machine/unattached/device[13]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"fallback\",\"type\":\"FdcDriveType\"},{\"name"
	    "\":\"fdtypeB\",\"type\":\"FdcDriveType\"},{\"name\":\"dma\",\"type\":\"uin"
	    "t32\"},{\"name\":\"irq\",\"type\":\"uint32\"},{\"name\":\"fdtypeA\",\"type"
	    "\":\"FdcDriveType\"},{\"name\":\"iobase\",\"type\":\"uint32\"},{\"name\":"
	    "\"fdc[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"fdc[0]\",\"ty"
	    "pe\":\"child<memory-region>\"},{\"name\":\"bootindexB\",\"type\":\"int"
	    "32\"},{\"name\":\"floppy-bus.0\",\"type\":\"child<floppy-bus>\"},{\"na"
	    "me\":\"bootindexA\",\"type\":\"int32\"}]}" },
	{ "qom-list|/machine/unattached/device[14]/ps2-kbd-input-irq[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[14]/ps2-mouse-input-irq[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[14]/ps2kbd||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/device[14]/ps2mouse||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":\"link<irq>\""
	    "}]}" },
	{ "qom-list|/machine/unattached/device[14]||",
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
	{ "qom-list|/machine/unattached/device[15]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"vmware-vmx-version\",\"type\":\"uint32\"},{\""
	    "name\":\"x-cmds-v2\",\"type\":\"bool\"},{\"name\":\"vmware-vmx-type\",\""
	    "type\":\"uint8\"},{\"name\":\"x-report-vmx-type\",\"type\":\"bool\"},{\""
	    "name\":\"x-signal-unsupported-cmd\",\"type\":\"bool\"},{\"name\":\"x-r"
	    "ead-set-eax\",\"type\":\"bool\"},{\"name\":\"vmport[0]\",\"type\":\"chil"
	    "d<memory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[16]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"i8042\",\"type\":\"link<i8042>\"},{\"name\":\"l"
	    "egacy-i8042\",\"type\":\"str\"}]}" },
	{ "qom-list|/machine/unattached/device[17]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"port92[0]\",\"type\":\"child<memory-region>"
	    "\"},{\"name\":\"a20[0]\",\"type\":\"link<irq>\"}]}" },
	{ "qom-list|/machine/unattached/device[18]/ide.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"realized"
	    "\",\"type\":\"bool\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotp"
	    "lug-handler>\"}]}" },
	{ "qom-list|/machine/unattached/device[18]/ide.1||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"realized"
	    "\",\"type\":\"bool\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotp"
	    "lug-handler>\"}]}" },
	{ "qom-list|/machine/unattached/device[18]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"addr\",\"type\":\"int32\"},{\"na"
	    "me\":\"romsize\",\"type\":\"uint32\"},{\"name\":\"x-pcie-lnksta-dllla\""
	    ",\"type\":\"bool\"},{\"name\":\"rombar\",\"type\":\"uint32\"},{\"name\":\"x"
	    "-pcie-extcap-init\",\"type\":\"bool\"},{\"name\":\"acpi-index\",\"type"
	    "\":\"uint32\"},{\"name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\""
	    "legacy-addr\",\"type\":\"str\"},{\"name\":\"bmdma[0]\",\"type\":\"child<"
	    "memory-region>\"},{\"name\":\"bus master container[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"ide.0\",\"type\":\"child<IDE>\"},{"
	    "\"name\":\"bmdma[1]\",\"type\":\"child<memory-region>\"},{\"name\":\"id"
	    "e.1\",\"type\":\"child<IDE>\"},{\"name\":\"bus master[0]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"piix-bmdma[0]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"piix-bmdma[1]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"piix-bmdma-container[0]\",\"type\":\"child<m"
	    "emory-region>\"}]}" },
	{ "qom-list|/machine/unattached/device[19]/i2c||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"child[6]"
	    "\",\"type\":\"link<smbus-eeprom>\"},{\"name\":\"child[7]\",\"type\":\"li"
	    "nk<smbus-eeprom>\"},{\"name\":\"child[2]\",\"type\":\"link<smbus-eep"
	    "rom>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\"name\":\"child[0]\","
	    "\"type\":\"link<smbus-eeprom>\"},{\"name\":\"child[1]\",\"type\":\"link"
	    "<smbus-eeprom>\"},{\"name\":\"child[3]\",\"type\":\"link<smbus-eepro"
	    "m>\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotplug-handler>"
	    "\"},{\"name\":\"child[4]\",\"type\":\"link<smbus-eeprom>\"},{\"name\":\""
	    "child[5]\",\"type\":\"link<smbus-eeprom>\"}]}" },
	{ "qom-list|/machine/unattached/device[19]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"addr\",\"type\":\"int32\"},{\"na"
	    "me\":\"romsize\",\"type\":\"uint32\"},{\"name\":\"x-pcie-lnksta-dllla\""
	    ",\"type\":\"bool\"},{\"name\":\"rombar\",\"type\":\"uint32\"},{\"name\":\"x"
	    "-pcie-extcap-init\",\"type\":\"bool\"},{\"name\":\"acpi-index\",\"type"
	    "\":\"uint32\"},{\"name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\""
	    "legacy-addr\",\"type\":\"str\"},{\"name\":\"acpi-pci-hotplug-with-br"
	    "idge-support\",\"type\":\"bool\"},{\"name\":\"smb_io_base\",\"type\":\"u"
	    "int32\"},{\"name\":\"disable_s3\",\"type\":\"uint8\"},{\"name\":\"acpi-r"
	    "oot-pci-hotplug\",\"type\":\"bool\"},{\"name\":\"smm-enabled\",\"type\""
	    ":\"bool\"},{\"name\":\"disable_s4\",\"type\":\"uint8\"},{\"name\":\"memor"
	    "y-hotplug-support\",\"type\":\"bool\"},{\"name\":\"smm-compat\",\"type"
	    "\":\"bool\"},{\"name\":\"x-not-migrate-acpi-index\",\"type\":\"bool\"},"
	    "{\"name\":\"s4_val\",\"type\":\"uint8\"},{\"name\":\"pm-smbus[0]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"acpi-tmr[0]\",\"type\":\"chil"
	    "d<memory-region>\"},{\"name\":\"acpi_enable_cmd\",\"type\":\"uint8\"}"
	    ",{\"name\":\"acpi-pcihp-io-len\",\"type\":\"uint16\"},{\"name\":\"acpi-"
	    "cpu-hotplug[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"i2c\""
	    ",\"type\":\"child<i2c-bus>\"},{\"name\":\"sci_int\",\"type\":\"uint16\"}"
	    ",{\"name\":\"acpi-pcihp-io-base\",\"type\":\"uint16\"},{\"name\":\"acpi"
	    "-pci-hotplug[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"bus"
	    " master container[0]\",\"type\":\"child<memory-region>\"},{\"name\""
	    ":\"acpi-cnt[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"acpi-"
	    "evt[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"piix4-pm[0]\""
	    ",\"type\":\"child<memory-region>\"},{\"name\":\"gpe0_blk_len\",\"type"
	    "\":\"uint32\"},{\"name\":\"acpi-gpe0[0]\",\"type\":\"child<memory-regi"
	    "on>\"},{\"name\":\"gpe0_blk\",\"type\":\"uint32\"},{\"name\":\"smi-irq[0"
	    "]\",\"type\":\"link<irq>\"},{\"name\":\"unnamed-gpio-out[0]\",\"type\":"
	    "\"link<irq>\"},{\"name\":\"apm-io[0]\",\"type\":\"child<memory-region"
	    ">\"},{\"name\":\"acpi_disable_cmd\",\"type\":\"uint8\"},{\"name\":\"bus "
	    "master[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"cpu-hotpl"
	    "ug-legacy\",\"type\":\"bool\"},{\"name\":\"pm_io_base\",\"type\":\"uint3"
	    "2\"}]}" },
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
	{ "qom-list|/machine/unattached/device[23]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[24]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[25]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[26]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[27]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"address\",\"type\":\"uint8\"}]}" },
	{ "qom-list|/machine/unattached/device[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"addr\",\"type\":\"int32\"},{\"na"
	    "me\":\"romsize\",\"type\":\"uint32\"},{\"name\":\"x-pcie-lnksta-dllla\""
	    ",\"type\":\"bool\"},{\"name\":\"rombar\",\"type\":\"uint32\"},{\"name\":\"x"
	    "-pcie-extcap-init\",\"type\":\"bool\"},{\"name\":\"acpi-index\",\"type"
	    "\":\"uint32\"},{\"name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\""
	    "legacy-addr\",\"type\":\"str\"},{\"name\":\"smram-low[0]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"smram[0]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"bus master container[0]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"bus master[0]\",\"type\":\"child<memory"
	    "-region>\"},{\"name\":\"smram-region[0]\",\"type\":\"child<memory-re"
	    "gion>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]/isa.0||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"child[9]"
	    "\",\"type\":\"link<i8042>\"},{\"name\":\"child[12]\",\"type\":\"link<por"
	    "t92>\"},{\"name\":\"child[6]\",\"type\":\"link<isa-pcspk>\"},{\"name\":"
	    "\"child[7]\",\"type\":\"link<isa-serial>\"},{\"name\":\"child[8]\",\"ty"
	    "pe\":\"link<isa-fdc>\"},{\"name\":\"child[2]\",\"type\":\"link<isa-i82"
	    "59>\"},{\"name\":\"child[10]\",\"type\":\"link<vmport>\"},{\"name\":\"ch"
	    "ild[11]\",\"type\":\"link<vmmouse>\"},{\"name\":\"realized\",\"type\":\""
	    "bool\"},{\"name\":\"child[0]\",\"type\":\"link<i8257>\"},{\"name\":\"chi"
	    "ld[1]\",\"type\":\"link<i8257>\"},{\"name\":\"child[3]\",\"type\":\"link"
	    "<isa-i8259>\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotplug"
	    "-handler>\"},{\"name\":\"child[4]\",\"type\":\"link<mc146818rtc>\"},{"
	    "\"name\":\"child[5]\",\"type\":\"link<isa-pit>\"}]}" },
	{ "qom-list|/machine/unattached/device[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"failover_pair_id\",\"type\":\"str\"},{\"name\""
	    ":\"romfile\",\"type\":\"str\"},{\"name\":\"addr\",\"type\":\"int32\"},{\"na"
	    "me\":\"romsize\",\"type\":\"uint32\"},{\"name\":\"x-pcie-lnksta-dllla\""
	    ",\"type\":\"bool\"},{\"name\":\"rombar\",\"type\":\"uint32\"},{\"name\":\"x"
	    "-pcie-extcap-init\",\"type\":\"bool\"},{\"name\":\"acpi-index\",\"type"
	    "\":\"uint32\"},{\"name\":\"multifunction\",\"type\":\"bool\"},{\"name\":\""
	    "legacy-addr\",\"type\":\"str\"},{\"name\":\"piix3-reset-control[0]\","
	    "\"type\":\"child<memory-region>\"},{\"name\":\"isa.0\",\"type\":\"child"
	    "<ISA>\"},{\"name\":\"bus master container[0]\",\"type\":\"child<memo"
	    "ry-region>\"},{\"name\":\"bus master[0]\",\"type\":\"child<memory-re"
	    "gion>\"}]}" },
	{ "qom-list|/machine/unattached/device[4]||",
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
	{ "qom-list|/machine/unattached/device[5]||",
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
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]/unnamed-gpio-in[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[6]||",
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
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[2]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[3]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[4]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[5]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[6]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]/unnamed-gpio-in[7]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[7]||",
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
	{ "qom-list|/machine/unattached/device[8]/unnamed-gpio-in[0]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[8]/unnamed-gpio-in[1]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"}]}" },
	{ "qom-list|/machine/unattached/device[8]||",
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
	{ "qom-list|/machine/unattached/device[9]||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"parent_b"
	    "us\",\"type\":\"link<bus>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\""
	    "name\":\"hotplugged\",\"type\":\"bool\"},{\"name\":\"hotpluggable\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"lost_tick_policy\",\"type\":\"LostTickPolic"
	    "y\"},{\"name\":\"irq\",\"type\":\"uint8\"},{\"name\":\"iobase\",\"type\":\"u"
	    "int16\"},{\"name\":\"base_year\",\"type\":\"int32\"},{\"name\":\"unnamed"
	    "-gpio-out[0]\",\"type\":\"link<irq>\"},{\"name\":\"rtc-index[0]\",\"ty"
	    "pe\":\"child<memory-region>\"},{\"name\":\"rtc[0]\",\"type\":\"child<m"
	    "emory-region>\"},{\"name\":\"date\",\"type\":\"struct tm\"}]}" },
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
	    "i440FX-pcihost>\"},{\"name\":\"realized\",\"type\":\"bool\"},{\"name\":"
	    "\"child[0]\",\"type\":\"link<kvmvapic>\"},{\"name\":\"child[1]\",\"type"
	    "\":\"link<fw_cfg_io>\"},{\"name\":\"child[3]\",\"type\":\"link<ioapic>"
	    "\"},{\"name\":\"hotplug-handler\",\"type\":\"link<hotplug-handler>\"}"
	    ",{\"name\":\"child[4]\",\"type\":\"link<hpet>\"},{\"name\":\"child[5]\","
	    "\"type\":\"link<ps2-kbd>\"}]}" },
	{ "qom-list|/machine/unattached||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"non-qdev"
	    "-gpio[10]\",\"type\":\"child<irq>\"},{\"name\":\"device[27]\",\"type\":"
	    "\"child<smbus-eeprom>\"},{\"name\":\"ram-below-4g[0]\",\"type\":\"chi"
	    "ld<memory-region>\"},{\"name\":\"device[20]\",\"type\":\"child<smbus"
	    "-eeprom>\"},{\"name\":\"ide[2]\",\"type\":\"child<memory-region>\"},{"
	    "\"name\":\"device[4]\",\"type\":\"child<i8257>\"},{\"name\":\"device[15"
	    "]\",\"type\":\"child<vmport>\"},{\"name\":\"non-qdev-gpio[23]\",\"type"
	    "\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[5]\",\"type\":\"child<irq"
	    ">\"},{\"name\":\"non-qdev-gpio[18]\",\"type\":\"child<irq>\"},{\"name\""
	    ":\"non-qdev-gpio[11]\",\"type\":\"child<irq>\"},{\"name\":\"device[21"
	    "]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"ide[3]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"system[0]\",\"type\":\"child<memor"
	    "y-region>\"},{\"name\":\"pc.bios[0]\",\"type\":\"child<memory-region"
	    ">\"},{\"name\":\"device[5]\",\"type\":\"child<i8257>\"},{\"name\":\"devi"
	    "ce[16]\",\"type\":\"child<vmmouse>\"},{\"name\":\"isa-bios[0]\",\"type"
	    "\":\"child<memory-region>\"},{\"name\":\"non-qdev-gpio[24]\",\"type\""
	    ":\"child<irq>\"},{\"name\":\"non-qdev-gpio[6]\",\"type\":\"child<irq>"
	    "\"},{\"name\":\"non-qdev-gpio[19]\",\"type\":\"child<irq>\"},{\"name\":"
	    "\"non-qdev-gpio[12]\",\"type\":\"child<irq>\"},{\"name\":\"device[22]"
	    "\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"device[6]\",\"type\":\""
	    "child<isa-i8259>\"},{\"name\":\"device[17]\",\"type\":\"child<port92"
	    ">\"},{\"name\":\"sysbus\",\"type\":\"child<System>\"},{\"name\":\"device"
	    "[10]\",\"type\":\"child<isa-pit>\"},{\"name\":\"non-qdev-gpio[25]\",\""
	    "type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[7]\",\"type\":\"child"
	    "<irq>\"},{\"name\":\"non-qdev-gpio[0]\",\"type\":\"child<irq>\"},{\"na"
	    "me\":\"non-qdev-gpio[13]\",\"type\":\"child<irq>\"},{\"name\":\"pc.rom"
	    "[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"non-qdev-gpio[1"
	    "]\",\"type\":\"child<irq>\"},{\"name\":\"device[23]\",\"type\":\"child<s"
	    "mbus-eeprom>\"},{\"name\":\"ioport80[0]\",\"type\":\"child<memory-re"
	    "gion>\"},{\"name\":\"device[7]\",\"type\":\"child<isa-i8259>\"},{\"nam"
	    "e\":\"device[0]\",\"type\":\"child<qemu64-x86_64-cpu>\"},{\"name\":\"d"
	    "evice[18]\",\"type\":\"child<piix3-ide>\"},{\"name\":\"device[11]\",\""
	    "type\":\"child<isa-pcspk>\"},{\"name\":\"non-qdev-gpio[26]\",\"type\""
	    ":\"child<irq>\"},{\"name\":\"non-qdev-gpio[8]\",\"type\":\"child<irq>"
	    "\"},{\"name\":\"ioportF0[0]\",\"type\":\"child<memory-region>\"},{\"na"
	    "me\":\"non-qdev-gpio[14]\",\"type\":\"child<irq>\"},{\"name\":\"device"
	    "[24]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"device[8]\",\"typ"
	    "e\":\"child<hpet>\"},{\"name\":\"device[1]\",\"type\":\"child<kvmvapic"
	    ">\"},{\"name\":\"non-qdev-gpio[27]\",\"type\":\"child<irq>\"},{\"name\""
	    ":\"device[19]\",\"type\":\"child<PIIX4_PM>\"},{\"name\":\"device[12]\""
	    ",\"type\":\"child<isa-serial>\"},{\"name\":\"non-qdev-gpio[9]\",\"typ"
	    "e\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[20]\",\"type\":\"child<i"
	    "rq>\"},{\"name\":\"non-qdev-gpio[2]\",\"type\":\"child<irq>\"},{\"name"
	    "\":\"non-qdev-gpio[15]\",\"type\":\"child<irq>\"},{\"name\":\"device[2"
	    "5]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"pci[0]\",\"type\":\"c"
	    "hild<memory-region>\"},{\"name\":\"device[9]\",\"type\":\"child<mc14"
	    "6818rtc>\"},{\"name\":\"ide[0]\",\"type\":\"child<memory-region>\"},{"
	    "\"name\":\"device[2]\",\"type\":\"child<i440FX>\"},{\"name\":\"device[1"
	    "3]\",\"type\":\"child<isa-fdc>\"},{\"name\":\"non-qdev-gpio[21]\",\"ty"
	    "pe\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[3]\",\"type\":\"child<i"
	    "rq>\"},{\"name\":\"non-qdev-gpio[16]\",\"type\":\"child<irq>\"},{\"nam"
	    "e\":\"io[0]\",\"type\":\"child<memory-region>\"},{\"name\":\"device[26"
	    "]\",\"type\":\"child<smbus-eeprom>\"},{\"name\":\"ide[1]\",\"type\":\"ch"
	    "ild<memory-region>\"},{\"name\":\"device[3]\",\"type\":\"child<PIIX3"
	    ">\"},{\"name\":\"device[14]\",\"type\":\"child<i8042>\"},{\"name\":\"non"
	    "-qdev-gpio[22]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio["
	    "4]\",\"type\":\"child<irq>\"},{\"name\":\"non-qdev-gpio[17]\",\"type\":"
	    "\"child<irq>\"}]}" },
	{ "qom-list|/machine||",
	    "{\"return\":[{\"name\":\"type\",\"type\":\"string\"},{\"name\":\"kernel\","
	    "\"type\":\"string\"},{\"name\":\"dt-compatible\",\"type\":\"string\"},{\""
	    "name\":\"boot\",\"type\":\"BootConfiguration\"},{\"name\":\"memory\",\"t"
	    "ype\":\"MemorySizeConfiguration\"},{\"name\":\"initrd\",\"type\":\"str"
	    "ing\"},{\"name\":\"confidential-guest-support\",\"type\":\"link<conf"
	    "idential-guest-support>\"},{\"name\":\"graphics\",\"type\":\"bool\"},"
	    "{\"name\":\"usb\",\"type\":\"bool\"},{\"name\":\"firmware\",\"type\":\"stri"
	    "ng\"},{\"name\":\"memory-encryption\",\"type\":\"string\"},{\"name\":\"s"
	    "mp\",\"type\":\"SMPConfiguration\"},{\"name\":\"dump-guest-core\",\"ty"
	    "pe\":\"bool\"},{\"name\":\"phandle-start\",\"type\":\"int\"},{\"name\":\"d"
	    "umpdtb\",\"type\":\"string\"},{\"name\":\"memory-backend\",\"type\":\"li"
	    "nk<memory-backend>\"},{\"name\":\"dtb\",\"type\":\"string\"},{\"name\":"
	    "\"mem-merge\",\"type\":\"bool\"},{\"name\":\"append\",\"type\":\"string\"}"
	    ",{\"name\":\"suppress-vmdesc\",\"type\":\"bool\"},{\"name\":\"smm\",\"typ"
	    "e\":\"OnOffAuto\"},{\"name\":\"acpi\",\"type\":\"OnOffAuto\"},{\"name\":\""
	    "pit\",\"type\":\"OnOffAuto\"},{\"name\":\"pic\",\"type\":\"OnOffAuto\"},{"
	    "\"name\":\"x-oem-table-id\",\"type\":\"string\"},{\"name\":\"bus-lock-r"
	    "atelimit\",\"type\":\"uint64_t\"},{\"name\":\"sgx-epc\",\"type\":\"SgxEP"
	    "C\"},{\"name\":\"x-oem-id\",\"type\":\"string\"},{\"name\":\"max-fw-size"
	    "\",\"type\":\"size\"},{\"name\":\"default-bus-bypass-iommu\",\"type\":\""
	    "bool\"},{\"name\":\"device-memory-region-size\",\"type\":\"int\"},{\"n"
	    "ame\":\"sata\",\"type\":\"bool\"},{\"name\":\"vmport\",\"type\":\"OnOffAut"
	    "o\"},{\"name\":\"i8042\",\"type\":\"bool\"},{\"name\":\"hpet\",\"type\":\"bo"
	    "ol\"},{\"name\":\"smbios-entry-point-type\",\"type\":\"str\"},{\"name\""
	    ":\"max-ram-below-4g\",\"type\":\"size\"},{\"name\":\"smbus\",\"type\":\"b"
	    "ool\"},{\"name\":\"unattached\",\"type\":\"child<container>\"},{\"name"
	    "\":\"fw_cfg\",\"type\":\"child<fw_cfg_io>\"},{\"name\":\"peripheral-an"
	    "on\",\"type\":\"child<container>\"},{\"name\":\"nvdimm\",\"type\":\"bool"
	    "\"},{\"name\":\"peripheral\",\"type\":\"child<container>\"},{\"name\":\""
	    "nvdimm-persistence\",\"type\":\"string\"},{\"name\":\"rtc_state\",\"ty"
	    "pe\":\"link<isa-device>\"},{\"name\":\"smram\",\"type\":\"link<memory-"
	    "region>\"},{\"name\":\"cxl-fmw\",\"type\":\"CXLFixedMemoryWindow\"},{"
	    "\"name\":\"rtc-time\",\"type\":\"struct tm\"},{\"name\":\"acpi-device\","
	    "\"type\":\"link<hotplug-handler>\"},{\"name\":\"hmat\",\"type\":\"bool\""
	    "},{\"name\":\"cxl\",\"type\":\"bool\"},{\"name\":\"pcspk-audiodev\",\"typ"
	    "e\":\"str\"},{\"name\":\"i440fx\",\"type\":\"child<i440FX-pcihost>\"}]}" },
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
	    "{\"return\":[{\"thread-id\":4915,\"props\":{\"core-id\":0,\"thread-id"
	    "\":0,\"socket-id\":0},\"qom-path\":\"/machine/unattached/device[0]"
	    "\",\"cpu-index\":0,\"target\":\"x86_64\"}]}" },
	{ "query-dirty-rate|||",
	    "{\"return\":{\"status\":\"measuring\",\"sample-pages\":512,\"mode\":\"p"
	    "age-sampling\",\"start-time\":1067,\"calc-time\":1}}" },
	{ "query-kvm|||",
	    "{\"return\":{\"enabled\":false,\"present\":true}}" },
	{ "query-memory-size-summary|||",
	    "{\"return\":{\"base-memory\":100663296,\"plugged-memory\":0}}" },
	{ "query-migrate-capabilities|||",
	    "{\"return\":[{\"state\":false,\"capability\":\"xbzrle\"},{\"state\":fa"
	    "lse,\"capability\":\"rdma-pin-all\"},{\"state\":false,\"capability\""
	    ":\"auto-converge\"},{\"state\":false,\"capability\":\"zero-blocks\"}"
	    ",{\"state\":false,\"capability\":\"compress\"},{\"state\":false,\"cap"
	    "ability\":\"events\"},{\"state\":false,\"capability\":\"postcopy-ram"
	    "\"},{\"state\":false,\"capability\":\"x-colo\"},{\"state\":false,\"cap"
	    "ability\":\"release-ram\"},{\"state\":false,\"capability\":\"block\"}"
	    ",{\"state\":false,\"capability\":\"return-path\"},{\"state\":false,\""
	    "capability\":\"pause-before-switchover\"},{\"state\":false,\"capab"
	    "ility\":\"multifd\"},{\"state\":false,\"capability\":\"dirty-bitmaps"
	    "\"},{\"state\":false,\"capability\":\"postcopy-blocktime\"},{\"state"
	    "\":false,\"capability\":\"late-block-activate\"},{\"state\":false,\""
	    "capability\":\"x-ignore-shared\"},{\"state\":false,\"capability\":\""
	    "validate-uuid\"},{\"state\":false,\"capability\":\"background-snap"
	    "shot\"},{\"state\":false,\"capability\":\"zero-copy-send\"},{\"state"
	    "\":false,\"capability\":\"postcopy-preempt\"}]}" },
	{ "query-sev|||",
	    "{\"return\":{\"enabled\":false,\"api-minor\":0,\"handle\":0,\"state\":"
	    "\"uninit\",\"api-major\":0,\"build-id\":0,\"policy\":0}}" },
	{ "query-uuid|||",
	    "{\"return\":{\"UUID\":\"00000000-0000-0000-0000-000000000000\"}}" },
	{ NULL, NULL }
};
