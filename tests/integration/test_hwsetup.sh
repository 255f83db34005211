#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The real-hardware path, as far as it can be tested without a NIC: tools/setup --bind
# refuses an address that does not exist, a device that is not a NIC, a machine without an
# IOMMU (this one has none; a fake sysfs tree stands in for the device) and changes nothing
# (no driver bound, no state file); --unbind with nothing bound says so. fwstress ports
# lists the network devices DPDK cannot use and why, from the same fake tree. The template
# config validates. No real device is ever passed to --bind.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$HERE/../.." && pwd)
SETUP="$TOP/tools/setup"
export FWS_STATE_DIR="$WORK/state"

drivers() { for d in /sys/bus/pci/devices/*; do echo "$d $(readlink "$d/driver")"; done; }
drivers >"$WORK/before"

# A fake sysfs: NICs 0000:7f:00.{0,1,2} (ixgbe with an interface, vfio-pci, none), a bridge.
FAKE="$WORK/sys"
dev() { # ADDR CLASS [DRIVER [IFACE STATE]]
	local d="$FAKE/bus/pci/devices/$1"
	mkdir -p "$d" "$FAKE/bus/pci/drivers/${3:-none}"
	echo "$2" >"$d/class"
	[ -z "${3:-}" ] || ln -s "../../../bus/pci/drivers/$3" "$d/driver"
	[ -z "${4:-}" ] || { mkdir -p "$d/net/$4"; echo "$5" >"$d/net/$4/operstate"; }
}
dev 0000:7f:00.0 0x020000 ixgbe enp127s0f0 down
dev 0000:7f:00.1 0x020000 vfio-pci
dev 0000:7f:00.2 0x020000
dev 0000:7f:01.0 0x060400 pcieport
mkdir -p "$FAKE/kernel/iommu_groups"

expect_fail() { # NAME PATTERN ARGS...: exit 1, the message, nothing changed
	local name=$1 pat=$2
	shift 2
	"$SETUP" "$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	drivers >"$WORK/after"
	if [ $rc -eq 1 ] && grep -q -- "$pat" "$WORK/err" && grep -q "nothing changed\|Nothing changed" "$WORK/err" &&
		cmp -s "$WORK/before" "$WORK/after" && [ ! -e "$FWS_STATE_DIR/bound-ports" ]; then
		ok "$name"
	else
		bad "$name: exit $rc: $(cat "$WORK/err")"
	fi
}
expect_fail "--bind of an address that does not exist: refused, nothing changed" \
	"--bind 0000:ff:1f.7: no such PCI device" --no-build --bind 0000:ff:1f.7
FWS_SYSFS=$FAKE expect_fail "--bind of a device that is not a NIC: refused" \
	"class 0x060400 is not a network device" --no-build --bind 0000:7f:01.0
FWS_SYSFS=$FAKE expect_fail "--bind without an IOMMU: refused, says how to enable it or use no-IOMMU mode" \
	"no IOMMU is on" --no-build --bind 7f:00.0
grep -q "intel_iommu=on iommu=pt" "$WORK/err" && grep -q "enable_unsafe_noiommu_mode=1" "$WORK/err" &&
	ok "the IOMMU message names both ways" || bad "IOMMU message: $(cat "$WORK/err")"
"$SETUP" --bind >/dev/null 2>"$WORK/err"; rc=$?
[ $rc -eq 1 ] && grep -q "needs PCI addresses" "$WORK/err" && ok "--bind without addresses: exit 1" || bad "--bind alone: $rc"
"$SETUP" --unbind >"$WORK/out" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "nothing to restore" "$WORK/out" && ok "--unbind with nothing bound: says so" || bad "--unbind: $rc $(cat "$WORK/out")"

FWS_SYSFS=$FAKE "$FWSTRESS" ports -l 0 --no-pci --vdev=net_null0 -- >"$WORK/ports" 2>/dev/null; rc=$?
[ $rc -eq 0 ] && grep -q "^network devices DPDK cannot use:" "$WORK/ports" && ok "ports: lists the devices DPDK cannot use" || bad "ports: exit $rc"
grep -q "^PCI 0000:7f:00.0: bound to the kernel driver ixgbe (interface enp127s0f0 down): DPDK cannot use it while the kernel has it: tools/setup --bind 0000:7f:00.0" "$WORK/ports" &&
	grep -q "^PCI 0000:7f:00.1: bound to vfio-pci but not probed: the EAL arguments leave it out" "$WORK/ports" &&
	grep -q "^PCI 0000:7f:00.2: no driver bound" "$WORK/ports" && ! grep -q "0000:7f:01.0" "$WORK/ports" &&
	ok "ports: why each one (kernel driver and interface state, not probed, no driver), not the bridge" ||
	bad "ports: $(cat "$WORK/ports")"

# Without a config or device arguments, ports probes only the devices a DPDK driver holds,
# in address order, never one carrying the default route (a management NIC on mlx5_core,
# which DPDK shares with the kernel), and says so (issue 51, item 15).
rt=$(awk '$2 == "00000000" {print $1; exit}' /proc/net/route)
dev 0000:7f:02.1 0x020000 mlx5_core
[ -z "$rt" ] || dev 0000:7f:02.0 0x020000 mlx5_core "$rt" up
FWS_SYSFS=$FAKE "$FWSTRESS" ports -l 0 --vdev=net_null0 -- >"$WORK/ports" 2>/dev/null
grep -q "^probing only the PCI network devices a DPDK driver holds: 0000:7f:00.1 0000:7f:02.1 (the rest stay the kernel's" "$WORK/ports" &&
	{ [ -z "$rt" ] || grep -q "^PCI 0000:7f:02.0: bound to the kernel driver mlx5_core (interface $rt up): it carries this machine's default route" "$WORK/ports"; } &&
	ok "ports without devices named: only vfio-pci's and mlx5's, not the default route's (${rt:-no default route here})" || bad "ports allowlist: $(head -3 "$WORK/ports")"
FWS_SYSFS=$FAKE "$FWSTRESS" ports -l 0 --no-pci --vdev=net_null0 -- >"$WORK/ports" 2>/dev/null
! grep -q "^probing only" "$WORK/ports" && ok "ports with --no-pci: as asked, no allowlist" || bad "ports --no-pci: $(head -2 "$WORK/ports")"
rm -rf "$FAKE/bus/pci/devices/0000:7f:02.0" "$FAKE/bus/pci/devices/0000:7f:02.1"

# The template names 0000:03:00.0 and 0000:03:00.1: validate checks a config on any machine
# (a laptop before the lab) and notes a device this host lacks; a command that runs it here
# refuses it in one line naming the device. With the devices there (a fake sysfs holding
# them), no note.
expect_rc 0 "validate of the hardware template on a machine without its NICs" \
	"$FWSTRESS" validate "$TOP/config/hw-two-port.json"
grep -q '^fwstress: note: .*hw-two-port.json: valid, but ports\[0\].device: device "0000:03:00.0": no PCI device 0000:03:00.0 on this host' "$WORK/err" &&
	ok "validate: the absent device noted, apart from the config's validity" || bad "hw template: $(cat "$WORK/err")"
expect_rc 2 "run of the hardware template here" "$FWSTRESS" run -q "$TOP/config/hw-two-port.json"
[ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -q '^fwstress: config: .*: ports\[0\].device: device "0000:03:00.0": no PCI device 0000:03:00.0 on this host' "$WORK/err" &&
	ok "run: one line naming the absent device, nothing started" || bad "run hw: $(cat "$WORK/err")"
# The devices there but not DPDK's: one line naming the device, its driver and what to run,
# before EAL starts.
dev 0000:03:00.0 0x020000 ixgbe enp3s0f0 down
dev 0000:03:00.1 0x020000
FWS_SYSFS=$FAKE expect_rc 2 "run with a port bound to a kernel driver" "$FWSTRESS" run -q "$TOP/config/hw-two-port.json"
[ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -q '^fwstress: config: .*: ports\[0\].device: PCI 0000:03:00.0 is bound to the kernel driver ixgbe: DPDK cannot use it while the kernel has it: tools/setup --bind 0000:03:00.0$' "$WORK/err" &&
	ok "run: one line naming the kernel driver and tools/setup --bind" || bad "kernel driver: $(cat "$WORK/err")"
rm "$FAKE/bus/pci/devices/0000:03:00.0/driver"
ln -s ../../../bus/pci/drivers/vfio-pci "$FAKE/bus/pci/devices/0000:03:00.0/driver"
FWS_SYSFS=$FAKE expect_rc 2 "run with a port bound to no driver" "$FWSTRESS" run -q "$TOP/config/hw-two-port.json"
[ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -q '^fwstress: config: .*: ports\[1\].device: PCI 0000:03:00.1 is bound to no driver, so DPDK cannot use it: tools/setup --bind 0000:03:00.1$' "$WORK/err" &&
	ok "run: one line naming the unbound device and tools/setup --bind" || bad "no driver: $(cat "$WORK/err")"
ln -s ../../../bus/pci/drivers/mlx5_core "$FAKE/bus/pci/devices/0000:03:00.1/driver"
mkdir -p "$FAKE/bus/pci/drivers/mlx5_core"
FWS_SYSFS=$FAKE expect_rc 0 "validate with mlx5_core (DPDK shares it with the kernel)" "$FWSTRESS" validate "$TOP/config/hw-two-port.json"
grep -q "note:" "$WORK/err" && bad "a note for mlx5_core: $(cat "$WORK/err")" || ok "mlx5_core is no refusal"
# fwstress ports answers from the same table: DPDK's to use, left out by the EAL arguments.
FWS_SYSFS=$FAKE "$FWSTRESS" ports -l 0 --no-pci --vdev=net_null0 -- >"$WORK/ports" 2>/dev/null
grep -q "^PCI 0000:03:00.1: bound to mlx5_core but not probed: the EAL arguments leave it out" "$WORK/ports" &&
	ok "ports: a NIC on mlx5_core is DPDK's, not the kernel's" || bad "ports mlx5: $(grep 03:00.1 "$WORK/ports")"
rm "$FAKE/bus/pci/devices/0000:03:00.1/driver"
ln -s ../../../bus/pci/drivers/vfio-pci "$FAKE/bus/pci/devices/0000:03:00.1/driver"
FWS_SYSFS=$FAKE expect_rc 0 "validate with the devices there" "$FWSTRESS" validate "$TOP/config/hw-two-port.json"
grep -q "note:" "$WORK/err" && bad "a note with the devices there: $(cat "$WORK/err")" || ok "no note with the devices there"
finish
