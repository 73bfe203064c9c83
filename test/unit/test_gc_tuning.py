"""meshc-opt's garbage-collector setting (meshc/tools/gc_tuning.py): what the tools set, and that a
library import leaves the process's own setting alone."""

import gc
import subprocess
import sys

from meshc.tools.gc_tuning import YOUNG, tune_for_large_ir


def test_tuning_raises_the_young_threshold_and_freezes_what_exists():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    try:
        tune_for_large_ir()
        assert gc.get_threshold() == (YOUNG, 20, 100)
        assert gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_importing_meshc_keeps_the_default_thresholds():
    code = "import gc, meshc, meshc.tools.opt; print(gc.get_threshold())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(gc.get_threshold())
