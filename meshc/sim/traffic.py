"""Traffic counters: every byte the simulator moves is counted here, and the time model.

Counted, per run:
- `link`: bytes over each ethernet link and direction, keyed (from chip, to chip): a
  multi-hop route counts on every hop;
- `noc`: bytes moved over each chip's network on chip (core to core, core to/from a DRAM bank);
- `dram_read` / `dram_write`: bytes read from / written to each DRAM bank, keyed (chip, bank);
- `host_to_device` / `device_to_host`: bytes over the host link, keyed by chip;
- `delivered`: bytes a chip-to-chip move delivers into its destination chip, keyed by that chip
  (each byte once, however many hops it took: the cost measure of docs/reshard.md).

The time model (docs/simulator.md) is a bottleneck model per operation: an op takes as long as
its busiest resource, where an ethernet link moves 100 Gb/s each way, a chip's DRAM 288 GB/s,
a chip's NOC 32 B a cycle at 1 GHz and the host link 32 GB/s (PCIe gen4 x16); a run takes the
sum of its ops. Compute time is not modelled.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

ETH_BYTES_PER_S = 100e9 / 8
DRAM_BYTES_PER_S = 288e9
NOC_BYTES_PER_S = 32 * 1e9
HOST_BYTES_PER_S = 32e9


@dataclass
class Traffic:
    link: Counter = field(default_factory=Counter)
    noc: Counter = field(default_factory=Counter)
    dram_read: Counter = field(default_factory=Counter)
    dram_write: Counter = field(default_factory=Counter)
    host_to_device: Counter = field(default_factory=Counter)
    device_to_host: Counter = field(default_factory=Counter)
    delivered: Counter = field(default_factory=Counter)

    _FIELDS = ("link", "noc", "dram_read", "dram_write", "host_to_device", "device_to_host", "delivered")

    def copy(self) -> "Traffic":
        return Traffic(*(Counter(getattr(self, f)) for f in self._FIELDS))

    def __sub__(self, other: "Traffic") -> "Traffic":
        out = Traffic()
        for f in self._FIELDS:
            mine, theirs = getattr(self, f), getattr(other, f)
            getattr(out, f).update({k: v - theirs.get(k, 0) for k, v in mine.items() if v - theirs.get(k, 0)})
        return out

    def __iadd__(self, other: "Traffic") -> "Traffic":
        for f in self._FIELDS:
            getattr(self, f).update(getattr(other, f))
        return self

    @property
    def link_bytes(self) -> int:
        return sum(self.link.values())

    @property
    def delivered_bytes(self) -> int:
        return sum(self.delivered.values())

    @property
    def noc_bytes(self) -> int:
        return sum(self.noc.values())

    @property
    def host_bytes(self) -> int:
        return sum(self.host_to_device.values()) + sum(self.device_to_host.values())

    def as_dict(self) -> dict:
        """Plain dict with string keys (for JSON / printing)."""
        def keyed(c: Counter) -> dict:
            return {"->".join(map(str, k)) if isinstance(k, tuple) else str(k): int(v) for k, v in sorted(c.items())}

        return {f: keyed(getattr(self, f)) for f in self._FIELDS}

    def time_estimate(self) -> float:
        """Seconds for this traffic if it all happened in one op (the busiest resource)."""
        times = [0.0]
        times += [v / ETH_BYTES_PER_S for v in self.link.values()]
        times += [v / NOC_BYTES_PER_S for v in self.noc.values()]
        dram_chip: Counter = Counter()
        for (chip, _bank), v in self.dram_read.items():
            dram_chip[chip] += v
        for (chip, _bank), v in self.dram_write.items():
            dram_chip[chip] += v
        times += [v / DRAM_BYTES_PER_S for v in dram_chip.values()]
        times.append(self.host_bytes / HOST_BYTES_PER_S)
        return max(times)
