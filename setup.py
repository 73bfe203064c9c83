"""The one native piece of meshc, optional: everything else is in pyproject.toml.

meshc/sim/_stream_copy.c (a strided copy with streaming stores for the simulator's large host
transfers) is built when the machine has a C compiler; when the build fails, meshc installs
without it and the simulator copies with numpy (meshc/sim/stream_copy.py)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("meshc.sim._stream_copy", ["meshc/sim/_stream_copy.c"],
                             extra_compile_args=["-O2"], optional=True)])
