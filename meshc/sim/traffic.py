"""Traffic counters: every byte the simulator moves is counted here, and the time model.

Counted, per run:
- `link`: bytes over each ethernet link and direction, keyed (from chip, to chip): a
  multi-hop route counts on every hop;
- `noc`: bytes moved over each chip's network on chip (core to core, core to/from a DRAM bank);
- `dram_read` / `dram_write`: bytes read from / written to each DRAM bank, keyed (chip, bank);
- `host_to_device` / `device_to_host`: bytes over the host link, keyed by chip;
- `delivered`: bytes a chip-to-chip move delivers into its destination chip, keyed by that chip
  (each byte once, however many hops it took: the cost measure of docs/reshard.md).

The time model that turns an op's counters into seconds is meshc.layout.timemodel, applied by
`Machine.op_time` (docs/simulator.md, "The time model").
"""

from __future__ import annotations

from collections import Counter

__all__ = ["Traffic"]


_FIELDS = ("link", "noc", "dram_read", "dram_write", "host_to_device", "device_to_host", "delivered")


class Traffic:
    """The counters (each a Counter, keyed as the module docstring says).

    A host transfer over a whole mesh adds the same bytes per chip (and per bank) every time;
    `add_many` records such a batch as one pending entry (the keys and values are built once per
    buffer and reused) and the Counters absorb the pending batches when they are next read, so
    the transfer itself does O(1) Python work however many chips and banks it spans."""

    def __init__(self, *counters: Counter):
        self._counters = {f: Counter(c) if c is not None else Counter()
                          for f, c in zip(_FIELDS, counters + (None,) * (len(_FIELDS) - len(counters)))}
        self._pending: dict[tuple, list] = {}

    _FIELDS = _FIELDS

    def add_many(self, field: str, keys: tuple, values: tuple) -> None:
        """Add values[i] to counter `field` at keys[i]; `keys` and `values` are reused tuples."""
        entry = self._pending.get((field, id(keys), id(values)))
        if entry is None:
            self._pending[(field, id(keys), id(values))] = [keys, values, 1]
        else:
            entry[2] += 1

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        for (field, _, _), (keys, values, times) in pending.items():
            c = self._counters[field]
            for k, v in zip(keys, values):
                if v:
                    c[k] += v * times

    def counter(self, field: str) -> Counter:
        if self._pending:
            self._flush()
        return self._counters[field]

    link = property(lambda self: self.counter("link"))
    noc = property(lambda self: self.counter("noc"))
    dram_read = property(lambda self: self.counter("dram_read"))
    dram_write = property(lambda self: self.counter("dram_write"))
    host_to_device = property(lambda self: self.counter("host_to_device"))
    device_to_host = property(lambda self: self.counter("device_to_host"))
    delivered = property(lambda self: self.counter("delivered"))

    def copy(self) -> "Traffic":
        return Traffic(*(Counter(self.counter(f)) for f in _FIELDS))

    def __sub__(self, other: "Traffic") -> "Traffic":
        out = Traffic()
        for f in _FIELDS:
            mine, theirs = self.counter(f), other.counter(f)
            out._counters[f].update({k: v - theirs.get(k, 0) for k, v in mine.items() if v - theirs.get(k, 0)})
        return out

    def __iadd__(self, other: "Traffic") -> "Traffic":
        for f in _FIELDS:
            self.counter(f).update(other.counter(f))
        return self

    def __eq__(self, other) -> bool:
        return isinstance(other, Traffic) and self.as_dict() == other.as_dict()

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

        return {f: keyed(self.counter(f)) for f in _FIELDS}
