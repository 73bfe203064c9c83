"""Several virtual devices in one module, and the pipeline stages placed on them.

tt-mlir's Device spec ("Pipeline Parallel") forms several virtual devices over disjoint chips of
one system. A module carries them as `tt.devices = [#tt.device<...>, ...]` beside its
`tt.system_desc`; a function carrying `tt.stage = i` is pipeline stage i and runs on
`tt.devices[i]` (docs/pipeline.md).
"""

from __future__ import annotations

DEVICES_ATTR = "tt.devices"
STAGE_ATTR = "tt.stage"
